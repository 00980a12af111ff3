//! The style bots play every table legally and really play differently: what each style leans to shows in
//! its games, measured on the records through the ingest replay (independent of the engine's own state).

use haifu_ingest::extract::{extract, RoundEnd};
use haifu_sim::generate::{game_seed, play_game, NamedBot};
use haifu_sim::style::BOT_NAMES;
use haifu_sim::TableRules;

fn players(bots: &[&str]) -> Vec<NamedBot> {
    bots.iter().map(|b| b.parse().unwrap()).collect()
}

/// Per seat over `games` games of the four bots (seats rotate): wins, wins with one of `yaku`, pon calls,
/// deal-ins, rounds played.
#[derive(Default, Debug, Clone, Copy)]
struct Tally {
    wins: u32,
    wins_with: u32,
    pons: u32,
    deal_ins: u32,
    rounds: u32,
}

fn tally(bots: &[&str], games: u64, go_type: u32, yaku: &[u8]) -> Vec<Tally> {
    let ps = players(bots);
    let mut t = vec![Tally::default(); bots.len()];
    for g in 0..games {
        let n = ps.len();
        let at: Vec<usize> = (0..n).map(|s| (s + g as usize) % n).collect();
        let seated: Vec<&NamedBot> = at.iter().map(|&i| &ps[i]).collect();
        let record = play_game(TableRules::from_go_type(go_type), game_seed(11, g), &seated).unwrap();
        let r = extract(&record).unwrap_or_else(|e| panic!("game {g} does not replay: {e}"));
        assert!(r.complete, "game {g} has no end");
        for round in &r.rounds {
            for &p in &at {
                t[p].rounds += 1;
            }
            if let RoundEnd::Agari(wins) = &round.end {
                for w in wins {
                    let p = at[usize::from(w.who)];
                    t[p].wins += 1;
                    t[p].wins_with += u32::from(w.yaku.iter().any(|y| yaku.contains(&y.id)));
                    if w.who != w.from_who {
                        t[at[usize::from(w.from_who)]].deal_ins += 1;
                    }
                }
            }
        }
        for d in &r.decisions {
            if d.source == haifu_ingest::TileSource::Pon {
                t[at[usize::from(d.seat)]].pons += 1;
            }
        }
    }
    t
}

#[test]
fn every_bot_plays_every_table() {
    for go in [0xA9, 0xE1, 0xB9, 0xF1] {
        for chunk in BOT_NAMES.chunks(4) {
            let mut names: Vec<&str> = chunk.iter().map(|(n, _)| *n).collect();
            while names.len() < 4 {
                names.push("greedy");
            }
            let seats = if go & 0x10 != 0 { 3 } else { 4 };
            names.truncate(seats);
            let t = tally(&names, 3, go, &[]);
            assert!(t.iter().map(|x| x.rounds).sum::<u32>() > 0, "{names:?} on {go:#x}");
        }
    }
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let ps = players(&["efficiency", "tanyao", "caller", "folder"]);
    let seated: Vec<&NamedBot> = ps.iter().collect();
    let rules = TableRules::from_go_type(0xA9);
    let a = play_game(rules, 5, &seated).unwrap().to_mjlog();
    let b = play_game(rules, 5, &seated).unwrap().to_mjlog();
    let c = play_game(rules, 6, &seated).unwrap().to_mjlog();
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn styles_show_in_their_wins_calls_and_deal_ins() {
    // tanyao (8) among the tanyao bot's wins more often than among the greedy bot's
    let t = tally(&["tanyao", "greedy", "tanyao", "greedy"], 60, 0xA9, &[8]);
    let share = |x: &Tally| f64::from(x.wins_with) / f64::from(x.wins.max(1));
    println!("tanyao share: tanyao bot {:?}, greedy {:?}", t[0], t[1]);
    assert!(share(&t[0]) > share(&t[1]) + 0.1, "tanyao {:.2} vs greedy {:.2}", share(&t[0]), share(&t[1]));

    // value honors (seat/round winds, dragons: 10-20) among the yakuhai bot's wins, and it pons
    let t = tally(
        &["yakuhai", "efficiency", "yakuhai", "efficiency"],
        100,
        0xA9,
        &haifu_rules::yaku::YAKUHAI.collect::<Vec<u8>>(),
    );
    println!("yakuhai: {:?} vs efficiency {:?}", t[0], t[1]);
    assert!(share(&t[0]) > share(&t[1]) + 0.05, "yakuhai {:.2} vs {:.2}", share(&t[0]), share(&t[1]));
    assert!(t[0].pons > 0 && t[1].pons == 0, "only the calling style pons: {t:?}");

    // the folder deals in less often than the same hand-builder that never folds
    let t = tally(&["folder", "efficiency", "folder", "efficiency"], 80, 0xA9, &[]);
    let rate = |x: &Tally| f64::from(x.deal_ins) / f64::from(x.rounds);
    println!("deal-in rate: folder {:.3} efficiency {:.3}", rate(&t[0]), rate(&t[1]));
    assert!(rate(&t[0]) < rate(&t[1]), "folder {:?} vs efficiency {:?}", t[0], t[1]);
}

/// Self-play output in both formats reads back: the mjlog XML through the mjlog reader and the mjai lines
/// through the mjai reader replay with zero errors, with the same rounds, decisions and final scores.
#[test]
fn self_play_records_read_back_as_mjlog_and_as_mjai() {
    let ps = players(&["caller", "tanyao", "yakuhai", "folder"]);
    for go in [0xA9, 0xB9, 0xE1] {
        let seats = if go & 0x10 != 0 { 3 } else { 4 };
        let seated: Vec<&NamedBot> = ps.iter().take(seats).collect();
        for g in 0..8 {
            let record = play_game(TableRules::from_go_type(go), game_seed(21, g), &seated).unwrap();
            let xml = record.to_mjlog();
            let from_xml = haifu_record::read_games("sim.xml", xml.as_bytes()).unwrap();
            let a = extract(&from_xml[0]).unwrap_or_else(|e| panic!("mjlog of game {g} ({go:#x}): {e}"));
            let lines = haifu_record::mjai::write::to_mjai(&record).unwrap();
            let from_mjai = haifu_record::mjai::parse(lines.as_bytes()).unwrap();
            let b = extract(&from_mjai[0]).unwrap_or_else(|e| panic!("mjai of game {g} ({go:#x}): {e}"));
            assert!(a.complete && b.complete);
            assert_eq!(a.rounds.len(), b.rounds.len());
            assert_eq!(a.decisions.len(), b.decisions.len());
            let discards = |r: &haifu_ingest::ExtractedGame| -> Vec<(u8, u8)> {
                r.decisions.iter().map(|d| (d.seat, d.discard.kind().index())).collect()
            };
            assert_eq!(discards(&a), discards(&b));
            let ends =
                |r: &haifu_ingest::ExtractedGame| -> Vec<[i32; 4]> { r.rounds.iter().map(|x| x.end_scores).collect() };
            assert_eq!(ends(&a), ends(&b), "game {g} ({go:#x})");
        }
    }
}
