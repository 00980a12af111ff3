//! `haifu demo`: the main job on logs the project makes itself, so it needs nothing from outside the repository.
//!
//! Eight named style bots play east-only games under simplified rules (no calls, no ron: a hand wins by
//! tsumo, riichi when tenpai); their games are written as Tenhou mjlog XML (two thirds dated 2022, the rest
//! 2023), ingested like any other logs, mined into sequence tables (2022), and the thesis report imitates each
//! bot's 2023 discards with its own table, the other bots' and everyone's. The game simulator of a later
//! issue replaces these bots with full-rule play.

use std::collections::HashMap;
use std::path::PathBuf;

use anyhow::{Context, Result};
use rand::rngs::StdRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};

use haifu_ingest::testkit::{GameBuilder, Win};
use haifu_mining::tables::write_tables;
use haifu_mining::{MineOptions, Mined, Shape};
use haifu_reports::ThesisOptions;
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
    let tables = a.out.join("tables");
    let report = a.out.join("report");
    // a fresh demo each time: the dataset would otherwise skip the logs it already holds
    for d in [&logs, &dataset, &tables, &report] {
        if d.exists() {
            std::fs::remove_dir_all(d).with_context(|| format!("clearing {}", d.display()))?;
        }
    }
    std::fs::create_dir_all(&logs).with_context(|| format!("creating {}", logs.display()))?;
    let mut rng = StdRng::seed_from_u64(a.seed);
    // a third of the games (at least one, when there are two) are the test year, the rest the generation year
    let test = (a.games / 3).max(1).min(a.games.saturating_sub(1));
    let generation = a.games - test;
    for i in 0..a.games {
        let mut order: Vec<usize> = (0..PLAYERS.len()).collect();
        order.shuffle(&mut rng);
        let g = play([order[0], order[1], order[2], order[3]], &mut rng);
        // named like Tenhou logs so that the dataset gets a date and a year
        let year = if i < generation { GENERATION_YEAR } else { TEST_YEAR };
        let name = format!("{year}010100gm-0001-0000-{i:08x}.xml");
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

    // sequence tables of the generation year, per bot and over all of them
    let opts = MineOptions { years: vec![GENERATION_YEAR], ..Default::default() };
    let mined = haifu_mining::mine(&dataset, &opts)?;
    let meta = serde_json::json!({"haifu": env!("CARGO_PKG_VERSION"), "dataset": dataset.display().to_string(),
                                  "options": opts, "decisions_read": mined.decisions_read});
    write_tables(&tables, &mined, &meta)?;
    let top = top_sequences(&haifu_mining::mine(&dataset, &MineOptions::default())?);

    // the thesis's tables on the test year: how well each bot's own table imitates it
    let rates = if test > 0 {
        let thesis = ThesisOptions {
            dataset: dataset.clone(),
            tables: tables.clone(),
            out: report.clone(),
            test_years: vec![TEST_YEAR],
            min_games: 1,
            player: None,
            strategy: haifu_imitate::StrategyMode::None,
            include_riichi: false,
            fractions: vec![0.25, 0.5, 1.0],
            bots: None,
        };
        let written = haifu_reports::thesis(&thesis, &|_| {})?;
        Some(written.into_iter().find(|t| t.name == "match_rates").context("the report has match rates")?)
    } else {
        None
    };
    if a.json {
        let j = serde_json::json!({
            "logs": logs.display().to_string(), "ingest": summary, "top_sequences": top,
            "tables": tables.display().to_string(), "report": rates.as_ref().map(|_| report.display().to_string()),
            "match_rates": rates.as_ref().map(|r| r.to_json()),
        });
        println!("{}", serde_json::to_string_pretty(&j)?);
        return Ok(());
    }
    println!("\nMost frequent sequences (before -> after, SPEC 2) per player, all suits:");
    for (player, seqs) in &top {
        let shown: Vec<String> = seqs.iter().map(|(b, a, n)| format!("{b}->{a} x{n}")).collect();
        println!("  {player:<9} {}", shown.join(", "));
    }
    match &rates {
        Some(r) => {
            println!(
                "\nImitating each bot's {TEST_YEAR} discards with sequence tables mined from {GENERATION_YEAR} (SPEC 4):\n"
            );
            print!("{}", r.to_markdown());
        }
        None => println!("\nOne game: no test year to imitate (give --games 2 or more for the report)."),
    }
    println!(
        "\nThe logs are in {}; the dataset in {} (Polars: pl.scan_parquet(\"{}/decisions/**/*.parquet\"));\n\
         the sequence tables in {}; every table of the thesis report in {}/README.md",
        logs.display(),
        dataset.display(),
        dataset.display(),
        tables.display(),
        report.display()
    );
    Ok(())
}

const GENERATION_YEAR: i32 = 2022;
const TEST_YEAR: i32 = 2023;

/// A sequence with its count: (before, after, count).
type Counted = (String, String, u64);

/// Per player, the three most frequent (before, after) pairs of any suit and source, from a mining run.
fn top_sequences(m: &Mined) -> Vec<(String, Vec<Counted>)> {
    let mut by_scope: HashMap<u32, HashMap<(u32, u32), u64>> = HashMap::new();
    for c in m.counts.iter().filter(|c| c.scope != 0 && c.strategy == 0) {
        *by_scope.entry(c.scope).or_default().entry((c.before, c.after)).or_default() += c.count;
    }
    let mut out: Vec<(String, Vec<Counted>)> = by_scope
        .into_iter()
        .map(|(scope, pairs)| {
            let mut v: Vec<Counted> = pairs
                .into_iter()
                .map(|((b, a), n)| (Shape::from_key(b).to_string(), Shape::from_key(a).to_string(), n))
                .collect();
            v.sort_by(|x, y| y.2.cmp(&x.2).then_with(|| x.0.cmp(&y.0)).then_with(|| x.1.cmp(&y.1)));
            v.truncate(3);
            (m.scopes[scope as usize].clone(), v)
        })
        .collect();
    out.sort();
    out
}
