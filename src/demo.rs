//! `haifu demo`: the main job on logs the project makes itself, so it needs nothing from outside the repository.
//!
//! Eight named style bots play east-only games under simplified rules (no calls, no ron: a hand wins by
//! tsumo, riichi when tenpai); their games are written as Tenhou mjlog XML, ingested like any other logs,
//! and the summary shows each player's most frequent sequences (SPEC 2) read back from the decisions table.
//! The game simulator of a later issue replaces these bots with full-rule play.

use std::collections::HashMap;
use std::path::PathBuf;

use anyhow::{Context, Result};
use arrow::array::{Array, AsArray};
use rand::rngs::StdRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};

use haifu_ingest::testkit::{GameBuilder, Win};
use haifu_rules::shanten::shanten;
use haifu_rules::{Counts, Kind, Tile, TileSet};

#[derive(clap::Args)]
pub struct DemoArgs {
    /// Output directory (the logs go to `logs/`, the dataset to `dataset/`).
    #[arg(long, short, default_value = "out/demo")]
    pub out: PathBuf,
    /// Number of games.
    #[arg(long, default_value_t = 48)]
    pub games: usize,
    /// Seed of the deals and of the bots' choices among equal options.
    #[arg(long, default_value_t = 2023)]
    pub seed: u64,
    /// Print one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// How a bot breaks ties between discards that keep the lowest shanten: lower is discarded first.
#[derive(Clone, Copy)]
enum Style {
    /// No preference: a random one of the best.
    Greedy,
    /// Terminals and honors go first (aims at tanyao).
    Tanyao,
    /// Middle tiles go first (keeps terminals and honors: chanta).
    Chanta,
    /// Honors go first, then the suit it holds least of (leans to one suit).
    Flush,
}

impl Style {
    fn rank(self, k: Kind, counts: &Counts) -> i32 {
        let middle = !k.is_yaochuu();
        match self {
            Style::Greedy => 0,
            Style::Tanyao => i32::from(middle),
            Style::Chanta => i32::from(!middle),
            Style::Flush => match k.suit() {
                None => -100,
                Some(s) => counts[usize::from(s.kind(1).index())..usize::from(s.kind(9).index()) + 1]
                    .iter()
                    .map(|&c| i32::from(c))
                    .sum(),
            },
        }
    }
}

const PLAYERS: [(&str, Style); 8] = [
    ("Greedy-A", Style::Greedy),
    ("Greedy-B", Style::Greedy),
    ("Tanyao-A", Style::Tanyao),
    ("Tanyao-B", Style::Tanyao),
    ("Chanta-A", Style::Chanta),
    ("Chanta-B", Style::Chanta),
    ("Flush-A", Style::Flush),
    ("Flush-B", Style::Flush),
];

/// The discard a bot chooses: lowest shanten after it, then the style, then chance.
fn choose(hand: &TileSet, style: Style, rng: &mut StdRng) -> Tile {
    let counts = hand.counts();
    let mut best: Vec<(i8, i32, Tile)> = Vec::new();
    for t in hand.iter() {
        let mut after = counts;
        after[usize::from(t.kind().index())] -= 1;
        best.push((shanten(&after), style.rank(t.kind(), &counts), t));
    }
    let top = best.iter().map(|&(s, r, _)| (s, r)).min().expect("a hand to discard from");
    let ties: Vec<Tile> = best.iter().filter(|&&(s, r, _)| (s, r) == top).map(|&(_, _, t)| t).collect();
    *ties.choose(rng).expect("at least one best discard")
}

/// One east-only game of four rounds between the seated players.
fn play(seats: [usize; 4], rng: &mut StdRng) -> GameBuilder {
    let names: Vec<&str> = seats.iter().map(|&p| PLAYERS[p].0).collect();
    // GO type 0x01: 4 players, east-only, red fives, open tanyao, ippan table
    let mut g = GameBuilder::new(0x01).named(&names);
    for _ in 0..4 {
        let mut wall: Vec<u8> = (0..136).collect();
        wall.shuffle(rng);
        let hands: Vec<Vec<u8>> = (0..4).map(|s| wall[s * 13..s * 13 + 13].to_vec()).collect();
        let dora = wall[52];
        let mut live = wall[53..].iter().copied();
        g.deal_ids([&hands[0], &hands[1], &hands[2], &hands[3]], dora);
        let dealer = g.dealer();
        let mut riichi = [false; 4];
        let mut seat = dealer;
        let won = loop {
            if g.draws_left() == 0 {
                break false;
            }
            let Some(tile) = live.next() else { break false };
            g.draw(seat, tile);
            let hand = g.hand(seat);
            if shanten(&hand.counts()) == -1 {
                // menzen tsumo (and riichi): 30 fu, 1 or 2 han
                let han = if riichi[usize::from(seat)] { 2 } else { 1 };
                let base = if seat == dealer { [1500, 3000][han - 1] } else { [1000, 2000][han - 1] };
                let yaku: &[(u8, u8)] = if han == 2 { &[(0, 1), (1, 1)] } else { &[(0, 1)] };
                g.tsumo(seat, Win::new(base).fu(30).yaku(yaku));
                break true;
            }
            let style = PLAYERS[seats[usize::from(seat)]].1;
            let discard = if riichi[usize::from(seat)] { Tile::from_id(tile) } else { choose(&hand, style, rng) };
            let mut after = hand.counts();
            after[usize::from(discard.kind().index())] -= 1;
            let can_riichi = !riichi[usize::from(seat)]
                && shanten(&after) == 0
                && g.scores()[usize::from(seat)] >= 1000
                && g.draws_left() >= 4;
            if can_riichi && rng.random_bool(0.9) {
                riichi[usize::from(seat)] = true;
                g.riichi(seat, discard);
            } else {
                g.discard(seat, discard);
            }
            seat = (seat + 1) % 4;
        };
        if !won {
            let tenpai: Vec<u8> = (0..4u8).filter(|&s| shanten(&g.hand(s).counts()) == 0).collect();
            g.exhaustive(&tenpai);
        }
    }
    g.finish();
    g
}

pub fn run(a: &DemoArgs) -> Result<()> {
    let logs = a.out.join("logs");
    let dataset = a.out.join("dataset");
    // a fresh demo each time: the dataset would otherwise skip the logs it already holds
    for d in [&logs, &dataset] {
        if d.exists() {
            std::fs::remove_dir_all(d).with_context(|| format!("clearing {}", d.display()))?;
        }
    }
    std::fs::create_dir_all(&logs).with_context(|| format!("creating {}", logs.display()))?;
    let mut rng = StdRng::seed_from_u64(a.seed);
    for i in 0..a.games {
        let mut order: Vec<usize> = (0..PLAYERS.len()).collect();
        order.shuffle(&mut rng);
        let g = play([order[0], order[1], order[2], order[3]], &mut rng);
        // named like Tenhou logs so that the dataset gets a date and a year
        let name = format!("2023010100gm-0001-0000-{:08x}.xml", i);
        std::fs::write(logs.join(name), g.xml())?;
    }
    let summary = crate::ingest(&crate::IngestArgs {
        inputs: vec![logs.clone()],
        list: Vec::new(),
        out: dataset.clone(),
        jobs: 0,
        strict: true,
        json: false,
        quiet: a.json,
    })?;
    let top = top_sequences(&dataset)?;
    if a.json {
        let j = serde_json::json!({ "logs": logs.display().to_string(), "ingest": summary, "top_sequences": top });
        println!("{}", serde_json::to_string_pretty(&j)?);
        return Ok(());
    }
    println!("\nMost frequent sequences (before -> after, SPEC 2) per player, all suits:");
    for (player, seqs) in &top {
        let shown: Vec<String> = seqs.iter().map(|(b, a, n)| format!("{b}->{a} x{n}")).collect();
        println!("  {player:<9} {}", shown.join(", "));
    }
    println!(
        "\nThe logs are in {}; open the tables with Polars: pl.scan_parquet(\"{}/decisions/**/*.parquet\")",
        logs.display(),
        dataset.display()
    );
    Ok(())
}

/// A sequence with its count: (before, after, count).
type Counted = (String, String, u64);

/// Per player, the three most frequent (before, after) pairs of any suit whose digits changed.
fn top_sequences(dataset: &std::path::Path) -> Result<Vec<(String, Vec<Counted>)>> {
    let mut counts: HashMap<(String, String, String), u64> = HashMap::new();
    for b in haifu_ingest::read::read_table(dataset, "decisions")? {
        let player = b.column_by_name("player").context("player column")?.as_string::<i32>();
        for suit in ["man", "pin", "sou"] {
            let before = b.column_by_name(&format!("{suit}_before")).context("suit column")?.as_string::<i32>();
            let after = b.column_by_name(&format!("{suit}_after")).context("suit column")?.as_string::<i32>();
            for i in 0..b.num_rows() {
                if before.is_null(i) || before.value(i) == after.value(i) {
                    continue;
                }
                let key = (player.value(i).to_string(), before.value(i).to_string(), after.value(i).to_string());
                *counts.entry(key).or_default() += 1;
            }
        }
    }
    let mut by_player: HashMap<String, Vec<Counted>> = HashMap::new();
    for ((p, b, a), n) in counts {
        by_player.entry(p).or_default().push((b, a, n));
    }
    let mut out: Vec<_> = by_player
        .into_iter()
        .map(|(p, mut v)| {
            v.sort_by(|x, y| y.2.cmp(&x.2).then_with(|| x.0.cmp(&y.0)).then_with(|| x.1.cmp(&y.1)));
            v.truncate(3);
            (p, v)
        })
        .collect();
    out.sort();
    Ok(out)
}
