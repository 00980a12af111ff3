//! Self-play: seeded games with the random and the tsumogiri bots (4- and 3-player, hanchan and east-only)
//! finish, keep the score total, repeat exactly from their seed, and read back through `haifu_ingest`'s
//! replay without an error and through `haifu_sim::verify` without a mismatch.

use haifu_record::event::GameRecord;
use haifu_sim::bot::{self_play, Bot};
use haifu_sim::style::{Style, StyleBot};
use haifu_sim::{RandomBot, TsumogiriBot};

const GO_TYPES: [u32; 4] = [169, 225, 185, 177];

/// One game of the seed: the bots are random (seed % 3 == 0), tsumogiri (1) or shanten-greedy (2), the table
/// 4-player hanchan, east-only, 3-player hanchan or east-only by seed % 4.
fn game(seed: u64) -> GameRecord {
    let go = GO_TYPES[(seed % 4) as usize];
    let mut random: Vec<RandomBot> = (0..4).map(|i| RandomBot::new(seed * 4 + i)).collect();
    let mut tsumogiri = [TsumogiriBot; 4];
    let mut greedy: Vec<StyleBot> =
        (0..4).map(|i| StyleBot::new(Style::preset("greedy").unwrap(), seed * 4 + i)).collect();
    let mut refs: Vec<&mut dyn Bot> = match seed % 3 {
        0 => random.iter_mut().map(|x| x as &mut dyn Bot).collect(),
        1 => tsumogiri.iter_mut().map(|x| x as &mut dyn Bot).collect(),
        _ => greedy.iter_mut().map(|x| x as &mut dyn Bot).collect(),
    };
    self_play(go, seed, &mut refs).unwrap_or_else(|e| panic!("seed {seed}: {e}"))
}

fn check(seed: u64, rec: &GameRecord) {
    let xml = rec.to_mjlog();
    let events = haifu_record::mjlog::parse(xml.as_bytes()).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    let again = GameRecord { events, ..rec.clone() };
    let r = haifu_ingest::extract(&again).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{xml}"));
    assert!(r.complete, "seed {seed}: {:?}", r.truncation);
    let report = haifu_sim::verify::verify_game(&format!("seed-{seed}"), &again);
    assert!(report.mismatches.is_empty(), "seed {seed}: {:#?}", &report.mismatches[..report.mismatches.len().min(5)]);
}

#[test]
fn random_and_tsumogiri_games() {
    let n: u64 = std::env::var("SIM_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(2000);
    let t = std::time::Instant::now();
    let mut kinds: std::collections::BTreeMap<String, usize> = Default::default();
    for seed in 0..n {
        let rec = game(seed);
        for e in &rec.events {
            use haifu_record::Event;
            let k = match e {
                Event::Ryuukyoku(d) => format!("draw {}", d.kind.name()),
                Event::Init(_) => "init".into(),
                Event::Agari(_) => "agari".into(),
                Event::Reach(r) if r.step == 1 => "riichi".into(),
                Event::Call { meld, .. } => meld.kind.name().to_string(),
                _ => continue,
            };
            *kinds.entry(k).or_default() += 1;
        }
        check(seed, &rec);
    }
    println!("{n} self-play games, {:.2?} (play + checks): {kinds:?}", t.elapsed());
}

#[test]
fn same_seed_same_game() {
    for seed in [1u64, 2, 3, 4, 5, 6, 77] {
        assert_eq!(game(seed).events, game(seed).events);
    }
    assert_ne!(game(3).events, game(15).events);
}
