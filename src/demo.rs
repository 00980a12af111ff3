//! `haifu demo`: the main job on logs the project makes itself, so it needs nothing from outside the repository.
//!
//! Eight named style bots (`haifu_sim::style`: honors, efficiency, tanyao, chanta, caller, yakuhai, toitoi,
//! folder) play east-only games under full Tenhou rules in the game engine; the games are written as Tenhou
//! mjlog XML (two thirds dated 2022, the rest 2023), ingested like any other logs, mined into sequence tables
//! (2022), and the thesis report imitates each bot's 2023 discards with its own table, the other bots' and
//! everyone's. Bots with different styles discard differently, so each is imitated best by its own table.
//! A small MLP (SPEC 5.1) is trained on CPU on the same 2022 decisions and ranks the same 2023 ones beside the
//! all-players table (`haifu imitate eval --backoff`'s rows): that step runs in the network binary
//! ([`crate::Network::demo`]); `haifu` runs the whole demo there when it finds it, and everything else
//! without it. Last, `haifu review` writes the Tanyao bot's first three 2023 games decision by decision
//! (`review/`), beside its own table, everyone's and the network where there is one.
//! (The shanten-greedy bot has no style of its own, its ties go by chance, and the flush bot's choice depends
//! on which suit is longest, which a suit's sequence table cannot see: neither is imitated best by its own
//! table, so neither is one of the eight.)

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context, Result};

use haifu_mining::tables::write_tables;
use haifu_mining::{MineOptions, Mined, Shape};
use haifu_reports::ThesisOptions;
use haifu_sim::generate::{generate, GenerateOptions, LogFormat, NamedBot};
use haifu_sim::TableRules;

use crate::{Network, NetworkRows};

#[derive(clap::Args)]
pub struct DemoArgs {
    /// Output directory (the logs go to `logs/`, the dataset to `dataset/`).
    #[arg(long, short, default_value = "out/demo")]
    pub out: PathBuf,
    /// Number of games.
    #[arg(long, default_value_t = 480)]
    pub games: usize,
    /// Seed of the deals and of the bots' choices among equal options.
    #[arg(long, default_value_t = 2023)]
    pub seed: u64,
    /// Print one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// The demo's players: named style bots (`haifu sim --help` lists the bots).
const PLAYERS: [&str; 8] = [
    "Honors=honors",
    "Efficiency=efficiency",
    "Tanyao=tanyao",
    "Chanta=chanta",
    "Caller=caller",
    "Yakuhai=yakuhai",
    "Toitoi=toitoi",
    "Folder=folder",
];

/// Plays `games` east-only games of the eight players dated in `year` into `logs`.
fn play(games: usize, seed: u64, year: i32, logs: &Path) -> Result<usize> {
    let o = GenerateOptions {
        games,
        players: PLAYERS.iter().map(|p| p.parse::<NamedBot>().map_err(|e| anyhow!(e))).collect::<Result<_>>()?,
        // 0xA1 | 0x00: a 4-player east-only table with red fives and open tanyao
        rules: TableRules::from_go_type(0xE1),
        seed,
        format: LogFormat::Mjlog,
        out: logs.to_path_buf(),
        date: format!("{year}0101"),
    };
    Ok(generate(&o, &|_| {}).map_err(|e| anyhow!(e))?.rounds)
}

/// The demo's folders under `--out`.
struct Folders {
    logs: PathBuf,
    dataset: PathBuf,
    tables: PathBuf,
    report: PathBuf,
    nn: PathBuf,
}

impl Folders {
    /// Fresh each time: the dataset would otherwise skip the logs it already holds.
    fn fresh(out: &Path) -> Result<Folders> {
        let f = Folders {
            logs: out.join("logs"),
            dataset: out.join("dataset"),
            tables: out.join("tables"),
            report: out.join("report"),
            nn: out.join("nn"),
        };
        for d in [&f.logs, &f.dataset, &f.tables, &f.report, &f.nn, &out.join("review")] {
            if d.exists() {
                std::fs::remove_dir_all(d).with_context(|| format!("clearing {}", d.display()))?;
            }
        }
        std::fs::create_dir_all(&f.logs).with_context(|| format!("creating {}", f.logs.display()))?;
        Ok(f)
    }
}

pub fn run(a: &DemoArgs, network: Option<&dyn Network>) -> Result<()> {
    let f = Folders::fresh(&a.out)?;
    // a third of the games (at least one, when there are two) are the test year, the rest the generation year
    let test = (a.games / 3).max(1).min(a.games.saturating_sub(1));
    play(a.games - test, a.seed, GENERATION_YEAR, &f.logs)?;
    play(test, a.seed ^ 0x7E57, TEST_YEAR, &f.logs)?;
    let summary = ingest_logs(&f, a.json)?;
    let top = mine_tables(&f)?;

    // a small network on the same years, then the thesis's tables on the test year (with its curve)
    let step = NetworkStep { dataset: f.dataset.clone(), tables: f.tables.clone(), out: f.nn.clone(), seed: a.seed };
    let beside: Option<NetworkRows> = match network {
        _ if test == 0 => None,
        Some(n) => Some(n.demo(&step)?),
        None => {
            eprintln!("note: the demo's network step is left out: {}", crate::handoff::HOW_TO_BUILD);
            None
        }
    };
    let rates = if test > 0 { Some(thesis_report(&f, beside.is_some())?) } else { None };
    // one bot's test-year games decision by decision, beside its own table, everyone's and the network
    let reviewed = if test > 0 {
        review_demo(&f.dataset, &f.tables, &f.nn, beside.is_some().then_some(network).flatten(), &a.out)?
    } else {
        None
    };
    if a.json {
        let j = serde_json::json!({
            "review": reviewed.as_ref().map(|p| p.display().to_string()),
            "logs": f.logs.display().to_string(), "ingest": summary, "top_sequences": top,
            "tables": f.tables.display().to_string(), "report": rates.as_ref().map(|_| f.report.display().to_string()),
            "html": rates.as_ref().map(|_| f.report.join("index.html").display().to_string()),
            "match_rates": rates.as_ref().map(|r| r.to_json()),
            "network": beside.as_ref().map(|b| &b.json),
        });
        println!("{}", serde_json::to_string_pretty(&j)?);
        return Ok(());
    }
    print_results(&f, &top, rates.as_ref(), beside.as_ref(), reviewed.as_deref());
    Ok(())
}

/// The logs into the dataset, strictly (a demo log that does not replay is a bug).
fn ingest_logs(f: &Folders, quiet: bool) -> Result<haifu_ingest::pipeline::Summary> {
    crate::ingest(&crate::IngestArgs {
        inputs: vec![f.logs.clone()],
        list: Vec::new(),
        out: f.dataset.clone(),
        jobs: 0,
        strict: true,
        max_quarantined: None,
        keep_duplicates: false,
        keep_misscored: false,
        // the demo's steps read the discards only
        no_choices: true,
        choices: false,
        rules: Default::default(),
        json: false,
        quiet,
    })
}

/// Sequence tables of the generation year, per bot and over all of them, written; the most frequent sequences
/// of every year, per bot.
fn mine_tables(f: &Folders) -> Result<TopSequences> {
    let opts = MineOptions { years: vec![GENERATION_YEAR], ..Default::default() };
    let mined = haifu_mining::mine(&f.dataset, &opts)?;
    let meta = serde_json::json!({"haifu": env!("CARGO_PKG_VERSION"), "dataset": f.dataset.display().to_string(),
                                  "options": opts, "decisions_read": mined.decisions_read});
    write_tables(&f.tables, &mined, &meta)?;
    Ok(top_sequences(&haifu_mining::mine(&f.dataset, &MineOptions::default())?))
}

/// The thesis's tables on the test year (the network's rows beside the lookup's when it ran); its match rates.
fn thesis_report(f: &Folders, with_network: bool) -> Result<haifu_mining::report::Table> {
    let thesis = ThesisOptions {
        dataset: f.dataset.clone(),
        tables: f.tables.clone(),
        out: f.report.clone(),
        test_years: vec![TEST_YEAR],
        min_games: 1,
        player: None,
        strategy: haifu_imitate::StrategyMode::None,
        include_riichi: false,
        fractions: vec![0.25, 0.5, 1.0],
        bots: None,
        html: Some(f.report.join("index.html")),
        neural: if with_network { vec![f.nn.clone()] } else { Vec::new() },
    };
    let written = haifu_reports::thesis(&thesis, &|_| {})?;
    for p in written.html.iter().flat_map(|h| &h.2) {
        eprintln!("note: {p}");
    }
    written.tables.into_iter().find(|t| t.name == "match_rates").context("the report has match rates")
}

/// What the demo found and where it wrote it, for a reader at the terminal.
fn print_results(
    f: &Folders,
    top: &TopSequences,
    rates: Option<&haifu_mining::report::Table>,
    beside: Option<&NetworkRows>,
    reviewed: Option<&Path>,
) {
    println!("\nMost frequent sequences (before -> after, SPEC 2) per player, all suits:");
    for (player, seqs) in top {
        let shown: Vec<String> = seqs.iter().map(|(b, a, n)| format!("{b}->{a} x{n}")).collect();
        println!("  {player:<9} {}", shown.join(", "));
    }
    match rates {
        Some(r) => {
            println!(
                "\nImitating each bot's {TEST_YEAR} discards with sequence tables mined from {GENERATION_YEAR} (SPEC 4):\n"
            );
            print!("{}", r.to_markdown());
        }
        None => println!("\nOne game: no test year to imitate (give --games 2 or more for the report)."),
    }
    if let Some(b) = beside {
        print!("{}", b.text);
    }
    println!(
        "\nThe logs are in {}; the dataset in {} (Polars: pl.scan_parquet(\"{}/decisions/**/*.parquet\"));\n\
         the sequence tables in {}; every table of the thesis report in {}/README.md\n\
         and with charts in one HTML file to open in a browser: {}",
        f.logs.display(),
        f.dataset.display(),
        f.dataset.display(),
        f.tables.display(),
        f.report.display(),
        f.report.join("index.html").display()
    );
    if let Some(r) = reviewed {
        println!("a bot's {TEST_YEAR} games decision by decision (haifu review): {}", r.display());
    }
}

/// `haifu review` of one bot's first three games of the test year into `out/review` (Tanyao's, or with a few
/// games the first bot of [`PLAYERS`] that played then), with the demo's network where it was trained; returns
/// the index page (none when no game is of the test year).
fn review_demo(
    dataset: &Path,
    tables: &Path,
    nn: &Path,
    network: Option<&dyn Network>,
    out: &Path,
) -> Result<Option<PathBuf>> {
    use haifu_reports::review::{page, review, Network as Scorer, ReviewOptions};
    let index = haifu_ingest::stored::GameIndex::read(dataset)?;
    let tested: Vec<i64> = index.games().iter().copied().filter(|&g| index.year(g) == Some(TEST_YEAR)).collect();
    let plays = |name: &str| tested.iter().any(|&g| (0..4).any(|s| index.name(g, s) == name));
    let names: Vec<&str> = PLAYERS.iter().filter_map(|p| p.split('=').next()).collect();
    let Some(player) = names.iter().find(|n| **n == "Tanyao" && plays(n)).or_else(|| names.iter().find(|n| plays(n)))
    else {
        return Ok(None);
    };
    let o = ReviewOptions { player: Some(player.to_string()), game: None, years: vec![TEST_YEAR], max_games: 3 };
    let score = |p: &haifu_encoding::Positions| match network {
        Some(n) => n.probabilities(nn, p),
        None => anyhow::bail!("no network"),
    };
    let scorer = network.map(|_| Scorer { label: nn.display().to_string(), score: &score });
    let r = review(dataset, tables, &o, scorer.as_ref())?;
    let dir = out.join("review");
    page::write(&r, &dir)?;
    Ok(Some(dir.join("index.html")))
}

pub const GENERATION_YEAR: i32 = 2022;
pub const TEST_YEAR: i32 = 2023;

/// A sequence with its count: (before, after, count).
type Counted = (String, String, u64);

/// Per player, the most frequent sequences ([`top_sequences`]).
type TopSequences = Vec<(String, Vec<Counted>)>;

/// Per player, the three most frequent (before, after) pairs of any suit and source, from a mining run.
fn top_sequences(m: &Mined) -> TopSequences {
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

/// The demo's network step ([`Network::demo`]): a small MLP trained on CPU on the positions of
/// [`GENERATION_YEAR`] in `dataset` (well under a minute on the demo's games), written to `out`, and the
/// [`TEST_YEAR`] decisions ranked with it beside the all-players table of `tables`.
pub struct NetworkStep {
    pub dataset: PathBuf,
    pub tables: PathBuf,
    pub out: PathBuf,
    pub seed: u64,
}
