//! `haifu style`: the per-player style database (docs/STYLE.md).

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use serde_json::{json, Value};

use haifu_encoding::options::DeviceChoice;
use haifu_style::accuracy::GlobalNetwork;
use haifu_style::compare::{js_distance, shape_differences, Distribution};
use haifu_style::db::rates_json;
use haifu_style::discards::Discards;
use haifu_style::{build, BuildOptions, Observed, Profile, Scorer, SequenceLikelihoods, StyleDb, RATES};

use crate::args::DatasetOut;
use crate::Network;

#[derive(clap::Subcommand)]
pub enum StyleCommand {
    /// Build a database: per player (with --min-games or more), the sequence tables of `haifu mine` and the
    /// rates of a profile, as Parquet.
    Build(BuildArgs),
    /// The players of a database with their games.
    List(DbArgs),
    /// One player's profile: rates beside everyone's, games, the most frequent sequences.
    Show(ShowArgs),
    /// Two players side by side: Jensen-Shannon distance of their sequences, rate differences, the shapes where
    /// they choose most differently.
    Compare(CompareArgs),
    /// The players whose sequences are nearest to one player's (Jensen-Shannon distance).
    Nearest(NearestArgs),
    /// Rank the database's players by how likely each played a seat of one or more logs.
    Identify(IdentifyArgs),
    /// Identification on games the database never saw: top-1 and top-5 from 1 and from 10 games, against chance.
    Accuracy(AccuracyArgs),
    /// How often the imitator's lookup over a player's own choices (calls, riichi, kans, wins) takes what the
    /// player took, on games the database never saw, beside everyone's counts and always declining.
    Choices(ChoicesArgs),
}

#[derive(clap::Args)]
pub struct ChoicesArgs {
    #[command(flatten)]
    pub db: DbArgs,
    /// Dataset with the test games and their choices table (ingested without --no-choices): of a database built
    /// with --sample, the games it left out; else every game of the years (warned: those the database profiled
    /// flatter the figures).
    #[arg(long)]
    pub dataset: PathBuf,
    /// Test years, comma-separated (default: the database's).
    #[arg(long, value_delimiter = ',')]
    pub years: Vec<i32>,
}

#[derive(clap::Args)]
#[command(mut_arg("out", |a| a.help("The database folder to write (replaced when it exists; never left half written)")))]
pub struct BuildArgs {
    #[command(flatten)]
    pub games: DatasetOut,
    /// Profile the players with at least this many games.
    #[arg(long, default_value_t = 10)]
    pub min_games: u32,
    /// Four- or three-player games.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(3..=4))]
    pub players: u8,
    /// Profile only this share of the games (by a hash of the game id); `haifu style accuracy` then tests on
    /// the games left out, from the same years.
    #[arg(long)]
    pub sample: Option<f64>,
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct DbArgs {
    /// A database written by `haifu style build`.
    #[arg(long)]
    pub db: PathBuf,
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct ShowArgs {
    pub player: String,
    #[command(flatten)]
    pub db: DbArgs,
    /// Sequences to list.
    #[arg(long, default_value_t = 10)]
    pub top: usize,
}

#[derive(clap::Args)]
pub struct CompareArgs {
    pub a: String,
    pub b: String,
    #[command(flatten)]
    pub db: DbArgs,
    /// Shapes to list (each seen at least --min-count times by both).
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    #[arg(long, default_value_t = 20)]
    pub min_count: u64,
}

#[derive(clap::Args)]
pub struct NearestArgs {
    pub player: String,
    #[command(flatten)]
    pub db: DbArgs,
    #[arg(long, short, default_value_t = 5)]
    pub k: usize,
    /// Rank by the cosine of the players' centroids in a learned embedding (a folder written by `style accuracy
    /// --embedding --embedding-out DIR` from this database) instead.
    #[arg(long)]
    pub embedding: Option<PathBuf>,
    /// `discards`: the cosine of the players' deviations from everyone's discard coefficients, each over the
    /// players' spread in it (the model that tells players apart best); `sequences`: the Jensen-Shannon distance
    /// of their sequences.
    #[arg(long, value_enum, default_value_t = NearBy::Discards)]
    pub by: NearBy,
}

/// What `style nearest` measures the distance by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum NearBy {
    Discards,
    Sequences,
}

#[derive(clap::Args)]
pub struct IdentifyArgs {
    #[command(flatten)]
    pub db: DbArgs,
    /// Log files (mjlog XML, tenhou.net/6 JSON, mjai; gzip or plain); repeat for several.
    #[arg(long, required = true)]
    pub log: Vec<PathBuf>,
    /// The seat to identify: 0-3 (0 = the first dealer), or the name the logs give it.
    #[arg(long)]
    pub seat: String,
    /// Use the first K games of the logs (default: all).
    #[arg(long)]
    pub games: Option<usize>,
    /// Players to print.
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    /// A folder of per-player networks, one `haifu train` run per player named by the player
    /// (`DIR/NAME/model.json`, e.g. `haifu train --player NAME --init GLOBAL --out DIR/NAME`): each adds the
    /// log-likelihood of the seat's discards under that player's network to the player's score. Runs in the
    /// network binary, haifu-neural.
    #[arg(long)]
    pub models: Option<PathBuf>,
    /// Score the sequences against every player's table as tensors on this device (auto, cpu or cuda): the
    /// same ranking as the lookup in Rust (the default). Runs in the network binary, haifu-neural.
    #[arg(long)]
    pub device: Option<DeviceChoice>,
    /// Also rank by a learned embedding (a folder written by `style accuracy --embedding --embedding-out DIR`
    /// from this database): the cosine of each player's centroid to the seat's games' mean direction, printed
    /// beside the score and ranking the players. Runs in the network binary, haifu-neural.
    #[arg(long)]
    pub embedding: Option<PathBuf>,
    /// What ranks the players: `decisions`, the log-likelihood of the seat's chosen discards under each player's
    /// discard model and of its calls, riichi, kans and wins under each player's choice model (the best
    /// measured, docs/RESULTS.md; the discards alone where the database counted no choices); `discards`, the
    /// discards alone; `score`, the sum of the sequences, rates, habits and choices (and the networks of
    /// --models); `refit`, the discards under the `--network` run tilted by each player's refitted
    /// coefficients (the database's saved refit); `baseline`, the plain baseline (30 habit rates a game, linear
    /// discriminant analysis), and `discards_baseline`, the discards plus it, as `style accuracy` names them. A
    /// database built before the discard model ranks by `score`.
    #[arg(long, value_enum, default_value_t = RankBy::Decisions)]
    pub by: RankBy,
    /// The global network the database's refit was saved over (`style accuracy --network RUN --cross-fit F1,F2
    /// --save-refit`): each player's log-likelihood of the seat's discards under it tilted by the player's
    /// refitted coefficients (everyone's for a player without), printed beside the score; `--by refit` ranks by
    /// it. Runs in the network binary, haifu-neural.
    #[arg(long)]
    pub network: Option<PathBuf>,
}

/// What `style identify` ranks the players by ([`haifu_style::identify::RankBy`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RankBy {
    Discards,
    Decisions,
    Score,
    Refit,
    Baseline,
    #[value(name = "discards_baseline")]
    DiscardsBaseline,
}

impl From<RankBy> for haifu_style::identify::RankBy {
    fn from(r: RankBy) -> Self {
        match r {
            RankBy::Discards => haifu_style::identify::RankBy::Discards,
            RankBy::Decisions => haifu_style::identify::RankBy::Decisions,
            RankBy::Score => haifu_style::identify::RankBy::Score,
            RankBy::Refit => haifu_style::identify::RankBy::Refit,
            RankBy::Baseline => haifu_style::identify::RankBy::Baseline,
            RankBy::DiscardsBaseline => haifu_style::identify::RankBy::DiscardsBaseline,
        }
    }
}

#[derive(clap::Args)]
pub struct AccuracyArgs {
    #[command(flatten)]
    pub db: DbArgs,
    /// Dataset with the test games: of a database built with --sample, the games it left out; else every game
    /// of the years (those of the database's own years would flatter the figures: warned).
    #[arg(long)]
    pub dataset: PathBuf,
    /// Test years, comma-separated.
    #[arg(long, value_delimiter = ',', required = true)]
    pub years: Vec<i32>,
    /// Games pooled per trial, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,10,50,100")]
    pub games: Vec<usize>,
    /// Also write the figures as a self-contained HTML page with a chart.
    #[arg(long)]
    pub html: Option<PathBuf>,
    /// Score every trial against every player's table as tensors on this device (auto, cpu or cuda): the
    /// same figures as the lookup in Rust (the default). Runs in the network binary, haifu-neural.
    #[arg(long)]
    pub device: Option<DeviceChoice>,
    /// Also rank by a learned style embedding (docs/STYLE.md), trained in the run on the database's own games
    /// (the profile games the baseline is fitted on): the players' centroids against each block's. Runs in the
    /// network binary, haifu-neural.
    #[arg(long)]
    pub embedding: bool,
    /// Rank by an embedding trained before (a folder written by --embedding-out), trained on other players or
    /// the same: the database's own games give only the centroids. Implies --embedding.
    #[arg(long)]
    pub embedding_from: Option<PathBuf>,
    /// Write the embedding trained in the run to this folder (weights and settings), for --embedding-from.
    #[arg(long)]
    pub embedding_out: Option<PathBuf>,
    /// Also rank by a network conditioned on the players (a run of `haifu train --init GLOBAL --player-vectors
    /// D`, trained on the database's games: `--sample` as the database's): each block's discards scored with
    /// each player's vector (a player without one: the network's row for everyone). A run that trained on any
    /// test game is refused. Runs in the network binary, haifu-neural.
    #[arg(long, value_name = "RUN")]
    pub player_vectors: Option<PathBuf>,
    /// Judge the discard model as the personal part of this global network (a run of `haifu train`, trained on
    /// the database's games: `--sample` as the database's): the network tilted by each player's discard
    /// coefficients less everyone's, against the network as it is, on each player's test positions. A
    /// `--player-vectors` run: each player's own vector tilted, against its row for everyone. A run that trained
    /// on any test game is refused. Runs in the network binary, haifu-neural.
    #[arg(long, value_name = "RUN")]
    pub network: Option<PathBuf>,
    /// With --network: also tilt it by each player's coefficients refitted over these networks, runs of
    /// `haifu train --sample F --fold K/N` (F the database's) that together trained on the profile games once
    /// each: each profile seat is read by a run that did not train on its game, and the players' coefficients are
    /// fitted on the network's log-probabilities plus their utilities, so that they hold only what the network
    /// misses of the player (docs/STYLE.md, "Personal models"); the players are also ranked by it
    /// (`network_refit`). Comma-separated. Runs in haifu-neural.
    #[arg(long, value_name = "RUN,RUN", value_delimiter = ',', requires = "network")]
    pub cross_fit: Vec<PathBuf>,
    /// With --cross-fit: write the refit into the database (`discard_refit.parquet` and `.json`), where
    /// `haifu review --db` and `haifu mjai-bot --network-first` then tilt the network by it: each player's
    /// refitted coefficients whole, everyone's for a player the database does not profile.
    #[arg(long, requires = "cross_fit")]
    pub save_refit: bool,
}

impl AccuracyArgs {
    /// Whether the run ranks by a learned embedding (a network command).
    pub fn embeds(&self) -> bool {
        self.embedding || self.embedding_from.is_some()
    }
}

pub fn run(c: &StyleCommand, network: Option<&dyn Network>) -> Result<()> {
    match c {
        StyleCommand::Build(a) => build_cmd(a),
        StyleCommand::List(a) => list(a),
        StyleCommand::Show(a) => show(a),
        StyleCommand::Compare(a) => compare(a),
        StyleCommand::Nearest(a) => nearest(a),
        StyleCommand::Identify(a) => identify(a, network),
        StyleCommand::Accuracy(a) => accuracy(a, network),
        StyleCommand::Choices(a) => choices(a),
    }
}

fn choices(a: &ChoicesArgs) -> Result<()> {
    use haifu_style::choice::{agreement, Agreement};
    let db = StyleDb::open(&a.db.db)?;
    let Some(all) = db.choices.get(haifu_imitate::ALL_SCOPE) else {
        anyhow::bail!(
            "{}: no choice counts (build the database from a dataset ingested without `--no-choices`)",
            a.db.db.display()
        );
    };
    let years = if a.years.is_empty() { db.meta.years.clone() } else { a.years.clone() };
    let sample = db.meta.sample;
    let reading = haifu_style::played::Reading { years: &years, players: db.meta.rules.players, tiles: false };
    let games = haifu_style::played::read(&a.dataset, &reading, |_, g| {
        sample.is_none() || !haifu_mining::mine::in_sample(g, sample)
    })?;
    let (total, by) = agreement(&a.dataset, &years, &games, &db.choices, all)?;
    let unseen = sample.is_some();
    let pct = |n: u64, of: u64| if of == 0 { f64::NAN } else { n as f64 / of as f64 };
    if a.db.json {
        let row = |o: &str, x: &Agreement| {
            json!({"offer": o, "rows": x.rows, "own": pct(x.own, x.rows), "everyone": pct(x.everyone, x.rows),
                   "decline": pct(x.decline, x.rows)})
        };
        let by: Vec<Value> = by.iter().map(|(o, x)| row(o.name(), x)).collect();
        return print_json(&json!({
            "db": a.db.db.display().to_string(), "test_games": games.len(), "unseen": unseen,
            "all": row("all", &total), "by_offer": by,
        }));
    }
    if !unseen {
        eprintln!(
            "note: {} was built from every game (no --sample): these games were profiled, which flatters the \
             player's own counts; build with --sample F to test on the games it leaves out",
            a.db.db.display()
        );
    }
    println!(
        "{} test games, {} choices of profiled players (a row counts under each kind it offers):",
        games.len(),
        total.rows
    );
    println!("{:<10} {:>9} {:>8} {:>9} {:>9}", "offered", "choices", "own", "everyone", "decline");
    for (o, x) in std::iter::once(("all", &total)).chain(by.iter().map(|(o, x)| (o.name(), x))) {
        println!(
            "{:<10} {:>9} {:>7.2}% {:>8.2}% {:>8.2}%",
            o,
            x.rows,
            100.0 * pct(x.own, x.rows),
            100.0 * pct(x.everyone, x.rows),
            100.0 * pct(x.decline, x.rows)
        );
    }
    Ok(())
}

fn print_json(v: &Value) -> Result<()> {
    println!("{}", serde_json::to_string_pretty(v)?);
    Ok(())
}

fn build_cmd(a: &BuildArgs) -> Result<()> {
    let t = std::time::Instant::now();
    let opts =
        BuildOptions { years: a.games.years.clone(), min_games: a.min_games, players: a.players, sample: a.sample };
    let meta = build(&a.games.dataset, &a.games.out, &opts)?;
    let seconds = t.elapsed().as_secs_f64();
    if a.json {
        return print_json(&json!({"db": a.games.out.display().to_string(), "style": meta, "seconds": seconds}));
    }
    println!(
        "{}: {} player profiles (--min-games {}) from {} {}-player games of {} in {seconds:.1} s",
        a.games.out.display(),
        meta.profiles,
        a.min_games,
        meta.games,
        a.players,
        a.games.dataset.display()
    );
    Ok(())
}

fn list(a: &DbArgs) -> Result<()> {
    let db = StyleDb::open(&a.db)?;
    let mut rows: Vec<&Profile> = db.profiles.iter().collect();
    rows.sort_by(|x, y| y.tally.games.cmp(&x.tally.games).then_with(|| x.player.cmp(&y.player)));
    if a.json {
        let players: Vec<Value> = rows
            .iter()
            .map(|p| json!({"player": p.player, "games": p.tally.games, "rounds": p.tally.rounds, "decisions": p.tally.decisions}))
            .collect();
        return print_json(&json!({"db": a.db.display().to_string(), "players": players}));
    }
    println!("{} {:>7} {:>8} {:>10}", padded("player", 24), "games", "rounds", "decisions");
    for p in rows {
        println!("{} {:>7} {:>8} {:>10}", padded(&p.player, 24), p.tally.games, p.tally.rounds, p.tally.decisions);
    }
    Ok(())
}

/// `text` padded with spaces to `columns` terminal columns: a Japanese name's characters take two columns
/// each, which `{:<24}` (counting characters) does not know.
fn padded(text: &str, columns: usize) -> String {
    let width = unicode_width::UnicodeWidthStr::width(text);
    format!("{text}{}", " ".repeat(columns.saturating_sub(width)))
}

/// A player's sequence distribution from the database.
fn distribution_of(db: &StyleDb, scope: &str) -> Result<Distribution> {
    Ok(Distribution::of(db.tables(Some(&[scope]))?.get(scope)))
}

fn rate_text(name: &str, v: Option<f64>) -> String {
    match v {
        None => "-".into(),
        Some(x) if name.ends_with("_rate") => format!("{:.1}%", 100.0 * x),
        Some(x) => format!("{x:.1}"),
    }
}

/// A model's coefficients of a player against everyone's, the first `top`, a line each.
fn print_distinct(rows: &[haifu_style::discards::Distinct], top: usize) {
    for d in rows.iter().take(top) {
        println!(
            "  {:<22} {:>+6.2} ({:+.2} to {:+.2})  everyone {:>+6.2}  spread {:.2} (above {:>4.1}% of players)  z {:>+6.1}  {}",
            d.name,
            d.coefficient,
            d.interval.0,
            d.interval.1,
            d.everyone,
            d.spread,
            100.0 * d.above_players,
            d.z,
            d.what
        );
    }
}

fn show(a: &ShowArgs) -> Result<()> {
    let db = StyleDb::open(&a.db.db)?;
    let p = db.profile(&a.player)?;
    let dist = distribution_of(&db, &p.player)?;
    let mut top: Vec<(&(u32, u32), &u64)> = dist.counts.iter().collect();
    top.sort_by(|x, y| y.1.cmp(x.1).then_with(|| x.0.cmp(y.0)));
    top.truncate(a.top);
    let shape = |k: u32| haifu_mining::Shape::from_key(k).to_string();
    let choice_rates = db.choices_of(&p.player).map(|(own, all)| haifu_style::choice::rates(own, all));
    let habits = match (db.habits.get(&p.player), db.habits.get(haifu_imitate::ALL_SCOPE)) {
        (Some(own), Some(all)) => haifu_style::habits::distinctive(own, all),
        _ => Vec::new(),
    };
    let preferences = match (db.discards.players.get(&p.player), &db.discards.everyone) {
        (Some(own), Some(all)) => haifu_style::discards::distinctive(own, all),
        _ => Vec::new(),
    };
    let choice_preferences = db.choice_model.as_ref().map(|m| m.distinctive(&p.player)).unwrap_or_default();
    if a.db.json {
        let seqs: Vec<Value> = top
            .iter()
            .map(|((b, af), n)| json!({"before": shape(*b), "after": shape(*af), "count": n, "share": **n as f64 / dist.total as f64}))
            .collect();
        return print_json(&json!({
            "player": p.player, "counts": p.tally, "rates": rates_json(&p.tally), "everyone": rates_json(&db.all),
            "choices": choice_rates, "habits": habits, "discard_model": preferences,
            "choice_model": choice_preferences, "sequences": dist.total,
            "top_sequences": seqs,
        }));
    }
    println!("{}: {} games, {} rounds, {} chosen discards", p.player, p.tally.games, p.tally.rounds, p.tally.decisions);
    if habits.is_empty() {
        println!("no habit counts (a database built before habits were counted: build it again)");
    } else {
        println!(
            "most distinctive habits (share of the times the hand had the choice; z: standard errors from everyone's):"
        );
        for d in habits.iter().take(a.top.min(10)) {
            println!(
                "  {:<26} {:>6.1}% ({:.1}-{:.1}%) of {:>6}  everyone {:>5.1}%  z {:>+6.1}  {}",
                d.name,
                100.0 * d.share,
                100.0 * d.interval.0,
                100.0 * d.interval.1,
                d.player.offered,
                100.0 * d.everyone_share,
                d.z,
                d.what
            );
        }
    }
    if !preferences.is_empty() {
        println!(
            "most distinctive discard preferences (the discard model's coefficients, log-odds against the other kinds \
             held; spread: how far players differ in it, and where this one stands among them; z: posterior \
             deviations from everyone's):"
        );
        print_distinct(&preferences, a.top.min(10));
    }
    if !choice_preferences.is_empty() {
        println!(
            "the calls, riichi, kans and wins furthest from everyone's (the choice model's coefficients, log-odds of \
             taking; spread: how far players differ in it, and where this one stands among them; z: posterior \
             deviations from everyone's):"
        );
        print_distinct(&choice_preferences, a.top.min(10));
    }
    println!("{:<16} {:>9} {:>9}  what", "rate", "player", "everyone");
    for (r, (mine, all)) in RATES.iter().zip(p.tally.rates().into_iter().zip(db.all.rates())) {
        println!("{:<16} {:>9} {:>9}  {}", r.name, rate_text(r.name, mine), rate_text(r.name, all), r.what);
    }
    match &choice_rates {
        None => println!("no choices (the dataset was ingested with --no-choices): no rate per opportunity"),
        Some(rates) => {
            println!("per opportunity          player (95% interval)       of offers  everyone  what");
            for r in rates {
                let pct = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{:.1}%", 100.0 * x));
                let interval =
                    r.interval.map_or(String::new(), |(lo, hi)| format!("({:.1}-{:.1}%)", 100.0 * lo, 100.0 * hi));
                println!(
                    "{:<24} {:>7} {:<17} {:>10}  {:>8}  {}",
                    r.name,
                    pct(r.share),
                    interval,
                    r.player.offered,
                    pct(r.everyone_share),
                    r.what
                );
            }
        }
    }
    println!("most frequent sequences (a pair and its mirror as one) of {} counted:", dist.total);
    for ((b, af), n) in top {
        println!("  {:>10} -> {:<10} {:>6} ({:.2}%)", shape(*b), shape(*af), n, 100.0 * *n as f64 / dist.total as f64);
    }
    Ok(())
}

fn compare(a: &CompareArgs) -> Result<()> {
    let db = StyleDb::open(&a.db.db)?;
    let (pa, pb) = (db.profile(&a.a)?, db.profile(&a.b)?);
    let (da, dbb) = (distribution_of(&db, &pa.player)?, distribution_of(&db, &pb.player)?);
    let distance = js_distance(&da, &dbb);
    let shapes = shape_differences(&da, &dbb, a.min_count, a.top);
    let rates: Vec<(&str, Option<f64>, Option<f64>)> = RATES
        .iter()
        .zip(pa.tally.rates().into_iter().zip(pb.tally.rates()))
        .map(|(r, (x, y))| (r.name, x, y))
        .collect();
    if a.db.json {
        let rates: Vec<Value> = rates
            .iter()
            .map(|(n, x, y)| json!({"rate": n, "a": x, "b": y, "difference": x.zip(*y).map(|(x, y)| x - y)}))
            .collect();
        return print_json(&json!({
            "a": pa.player, "b": pb.player, "js_distance": distance, "rates": rates, "shapes": shapes,
            "games": [pa.tally.games, pb.tally.games],
        }));
    }
    println!("{} ({} games) and {} ({} games): Jensen-Shannon distance {distance:.4} (0 = the same sequences, 1 = none shared)", pa.player, pa.tally.games, pb.player, pb.tally.games);
    println!("{:<16} {:>9} {:>9}", "rate", "a", "b");
    for (n, x, y) in &rates {
        println!("{:<16} {:>9} {:>9}", n, rate_text(n, *x), rate_text(n, *y));
    }
    println!(
        "shapes where they choose most differently (seen {}+ times by both; total variation of the after):",
        a.min_count
    );
    for s in &shapes {
        println!(
            "  {:>10}  {:.2}  a: -> {} ({:.0}% of {})  b: -> {} ({:.0}% of {})",
            s.before,
            s.distance,
            s.choice[0].0,
            100.0 * s.choice[0].1,
            s.n[0],
            s.choice[1].0,
            100.0 * s.choice[1].1,
            s.n[1]
        );
    }
    Ok(())
}

fn nearest(a: &NearestArgs) -> Result<()> {
    use haifu_style::compare::{Nearest, Nearness};
    let db = StyleDb::open(&a.db.db)?;
    if let Some(dir) = &a.embedding {
        let me = db.profile(&a.player)?;
        return nearest_embedded(a, &db, &me.player, dir);
    }
    let by = match a.by {
        NearBy::Discards => Nearness::Discards,
        NearBy::Sequences => Nearness::Sequences,
    };
    let near = Nearest::of(&db, &a.player, by, a.k)?;
    if a.db.json {
        return print_json(&near.json());
    }
    let what = match by {
        Nearness::Discards => "cosine of the deviations from everyone's discard coefficients",
        Nearness::Sequences => "Jensen-Shannon distance of the sequences",
    };
    println!("nearest to {} ({what}):", near.player);
    for (p, x, g) in &near.rows {
        println!("  {p:<24} {x:.4}  ({g} games)");
    }
    Ok(())
}

/// `style nearest --embedding DIR`: the other players by the cosine of their centroids to the player's.
fn nearest_embedded(a: &NearestArgs, db: &StyleDb, player: &str, dir: &Path) -> Result<()> {
    let reference = haifu_style::embedding::Reference::read(dir)?;
    let Some(mut near) = reference.centroids.nearest(player) else {
        bail!("{}: {player} has no centroid in this embedding (its database: {})", dir.display(), reference.db);
    };
    near.truncate(a.k);
    let games = |p: &str| db.profiles.iter().find(|q| q.player == p).map_or(0, |q| q.tally.games);
    if a.db.json {
        let rows: Vec<Value> = near.iter().map(|(p, c)| json!({"player": p, "cosine": c, "games": games(p)})).collect();
        return print_json(&json!({"player": player, "embedding": dir.display().to_string(), "nearest": rows}));
    }
    println!("nearest to {player} (cosine of the centroids in the embedding {}):", dir.display());
    for (p, c) in near {
        println!("  {p:<24} {c:.4}  ({} games)", games(p));
    }
    Ok(())
}

/// A seat's game as `style identify --network` reads it: where it came from (for notes), its chosen discards, and
/// how many of the seat's network positions it has.
type ReadGame = (String, Discards, usize);

/// `style identify --network RUN`: each player's log-likelihood of the seat's chosen discards under the network
/// tilted by the database's saved refit, over `positions` (the seat's, game after game as `games` count them);
/// the games whose positions do not match the discards left out with a note.
fn refit_scores<'a>(
    db: &'a StyleDb,
    positions: &haifu_encoding::Positions,
    games: &[ReadGame],
    run: &Path,
    network: Option<&dyn Network>,
) -> Result<std::collections::HashMap<&'a str, f64>> {
    let Some((model, _)) = &db.refit else {
        bail!(
            "{}: no refit saved (`haifu style accuracy --network RUN --cross-fit F1,F2 --save-refit` writes one)",
            db.dir.display()
        )
    };
    if let Some(note) = db.refit_for_other(run) {
        eprintln!("{note}");
    }
    let probabilities = crate::needs(network, "haifu style identify --network")?.probabilities(run, positions)?;
    let players: Vec<&str> = db.profiles.iter().map(|p| p.player.as_str()).collect();
    let mut sums = vec![0.0; players.len()];
    let mut at = 0;
    for (from, d, n) in games {
        let reading: Vec<([f32; 34], u8)> =
            (at..at + n).map(|i| (probabilities[i].map(f32::ln), positions.label[i])).collect();
        at += n;
        match model.log_likelihoods_over(d, &reading, &players) {
            Some(ll) => sums.iter_mut().zip(ll).for_each(|(s, x)| *s += x),
            None => eprintln!("note: {from}: the network's positions do not match the seat's discards: left out"),
        }
    }
    Ok(players.into_iter().zip(sums).collect())
}

fn identify(a: &IdentifyArgs, network: Option<&dyn Network>) -> Result<()> {
    let db = StyleDb::open(&a.db.db)?;
    if a.by == RankBy::Refit && a.network.is_none() {
        bail!("--by refit ranks by the network the database's refit was saved over: give it (--network RUN)");
    }
    let mut seen = Observed::default();
    let (mut per_game, mut read) = (Vec::new(), Vec::new());
    // the seat's network positions, read once for the players' networks and the refit's
    let mut positions = haifu_encoding::Positions::default();
    let games = haifu_style::logs::seat_games(&db, &a.log, &a.seat, a.games)?;
    for sg in &games {
        if let Err(why) = &sg.choices {
            eprintln!("note: {}: its calls, riichi and kans could not be read ({why}): scored without them", sg.at);
        }
        let game = sg.observe();
        seen.add(&game);
        if a.models.is_some() || a.network.is_some() {
            let all = haifu_encoding::positions::of_game(sg.index as i64, &sg.record)?;
            let mine = all.select(|k| all.seat[k] == sg.seat);
            read.push((sg.at.clone(), game.discards.clone(), mine.len()));
            positions.extend(mine);
        }
        if a.embedding.is_some() {
            per_game.push(game);
        }
    }
    let used = games.len();
    let scorer = Scorer::new(&db)?;
    let mut ranking = match a.device {
        None => scorer.rank(&seen),
        Some(device) => {
            let tensors =
                crate::needs(network, "haifu style identify --device")?.sequence_likelihoods(&scorer, device)?;
            let sequences = tensors.of_trials(&[&seen.sequences])?;
            scorer.rank_given(&seen, &sequences[0])
        }
    };
    if let Some(dir) = &a.models {
        let scores = crate::needs(network, "haifu style identify --models")?.identify(dir, &db, &positions)?;
        ranking = haifu_style::identify::with_networks(ranking, &scores);
    }
    if let Some(run) = &a.network {
        let scores = refit_scores(&db, &positions, &read, run, network)?;
        ranking = haifu_style::identify::with_refit(ranking, &scores);
    }
    ranking = haifu_style::identify::with_db_baseline(ranking, &db, &seen, a.by.into())?;
    use haifu_style::identify::RankBy as By;
    let by = By::from(a.by).for_db(&db);
    if by != By::from(a.by) {
        eprintln!(
            "note: {} has no discard model (built before it: build it again): the players rank by score",
            a.db.db.display()
        );
    }
    by.rank(&mut ranking);
    if let Some(dir) = &a.embedding {
        let reference = haifu_style::embedding::Reference::read(dir)?;
        let missing = db.profiles.iter().filter(|p| !reference.centroids.players.contains(&p.player)).count();
        if missing > 0 {
            eprintln!(
                "note: {} gives no centroid to {missing} of the database's players (its centroids are of {}'s): \
                 they rank last",
                dir.display(),
                reference.db
            );
        }
        let net = crate::needs(network, "haifu style identify --embedding")?.style_embedding(Some(dir), None)?;
        let inputs: Vec<Vec<f32>> = per_game.iter().map(|o| reference.inputs.of(o)).collect();
        let games = net.fit(&inputs, &[], 0)?.embed(&inputs)?;
        let c = &reference.centroids;
        let cosine = c.players.iter().map(String::as_str).zip(c.similarities(&games)).collect();
        ranking = haifu_style::identify::with_embedding(ranking, &cosine);
    }
    if a.db.json {
        let top: Vec<&haifu_style::Score> = ranking.iter().take(a.top).collect();
        return print_json(&serde_json::to_value(top)?);
    }
    print_identified(a, &ranking, by, used, &seen);
    Ok(())
}

/// `style identify`'s table: the players as ranked, each method's log-likelihood beside.
fn print_identified(
    a: &IdentifyArgs,
    ranking: &[haifu_style::Score],
    by: haifu_style::identify::RankBy,
    used: usize,
    seen: &Observed,
) {
    use haifu_style::identify::RankBy as By;
    println!(
        "seat {:?} over {used} game(s): {} chosen discards the discard model reads, {} sequences, {} rounds; the {} \
         profiled players by {}:",
        a.seat,
        seen.discards.len(),
        seen.sequences.len(),
        seen.tally.rounds,
        ranking.len(),
        match (a.embedding.is_some(), by) {
            (true, _) => "the embedding's cosine",
            (false, By::Discards) => "the discard model's log-likelihood",
            (false, By::Decisions) => "the log-likelihood of every decision (discard model and choices)",
            (false, By::Score) => "the score (log-likelihood of sequences, rates, habits and choices)",
            (false, By::Refit) => "the discards' log-likelihood under the network tilted by the saved refit",
            (false, By::Baseline) => "the plain baseline (30 habit rates a game, linear discriminant analysis)",
            (false, By::DiscardsBaseline) => "the discard model's log-likelihood plus the plain baseline's",
        }
    );
    println!(
        "{:>4} {} {:>12} {:>10} {:>12} {:>12} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "",
        padded("player", 24),
        "discards",
        "choices",
        "score",
        "sequences",
        "rates",
        "baseline",
        "network",
        "refit",
        "embedding"
    );
    for (i, s) in ranking.iter().take(a.top).enumerate() {
        let shown = |x: Option<f64>, digits: usize| x.map_or("-".to_string(), |n| format!("{n:.digits$}"));
        println!(
            "{:>4} {} {:>12.2} {:>10.2} {:>12.2} {:>12.2} {:>10.2} {:>10} {:>10} {:>10} {:>10}",
            i + 1,
            padded(&s.player, 24),
            s.discards,
            s.choices,
            s.score,
            s.sequences,
            s.rates,
            shown(s.baseline, 2),
            shown(s.neural, 2),
            shown(s.network_refit, 2),
            shown(s.embedding, 3)
        );
    }
}

/// `style accuracy --save-refit`: the run's refit written into its database.
fn save_refit(a: &AccuracyArgs, r: &haifu_style::accuracy::AccuracyReport) -> Result<()> {
    let (Some(refit), Some(network)) = (&r.refit, &a.network) else {
        anyhow::bail!("--save-refit: the run made no refit (give --network and --cross-fit)")
    };
    let folds: Vec<&Path> = a.cross_fit.iter().map(PathBuf::as_path).collect();
    refit.save(&a.db.db, haifu_imitate::ALL_SCOPE, network, &folds)?;
    eprintln!(
        "the refit written into {} ({}): review --db and mjai-bot --network-first tilt by it",
        a.db.db.display(),
        haifu_style::discards::REFIT_FILE
    );
    Ok(())
}

/// The global network of `style accuracy --network` and the fold networks of `--cross-fit`, loaded.
type GlobalNetworks = (Option<Box<dyn GlobalNetwork>>, Vec<Box<dyn GlobalNetwork>>);

fn global_networks(a: &AccuracyArgs, network: Option<&dyn Network>, players: u8) -> Result<GlobalNetworks> {
    let load = |run: &PathBuf, what: &str| crate::needs(network, what)?.global_network(run, &a.dataset, players);
    let global = a.network.as_ref().map(|run| load(run, "haifu style accuracy --network")).transpose()?;
    let folds = a.cross_fit.iter().map(|run| load(run, "haifu style accuracy --cross-fit")).collect::<Result<_>>()?;
    Ok((global, folds))
}

fn accuracy(a: &AccuracyArgs, network: Option<&dyn Network>) -> Result<()> {
    let db = StyleDb::open(&a.db.db)?;
    let scorer = Scorer::new(&db)?;
    let tensors = match a.device {
        None => None,
        Some(device) => {
            Some(crate::needs(network, "haifu style accuracy --device")?.sequence_likelihoods(&scorer, device)?)
        }
    };
    let likelihoods: &dyn SequenceLikelihoods = tensors.as_deref().map_or(&scorer, |t| t);
    if a.embedding_out.is_some() && !a.embedding {
        anyhow::bail!("--embedding-out writes the embedding trained in the run: give --embedding");
    }
    let trainer = match a.embeds() {
        false => None,
        true => Some(
            crate::needs(network, "haifu style accuracy --embedding")?
                .style_embedding(a.embedding_from.as_deref(), a.embedding_out.as_deref())?,
        ),
    };
    let vectors = match &a.player_vectors {
        None => None,
        Some(run) => Some(crate::needs(network, "haifu style accuracy --player-vectors")?.player_vectors(
            run,
            &a.dataset,
            db.meta.rules.players,
        )?),
    };
    let (global, folds) = global_networks(a, network, db.meta.rules.players)?;
    let networks = haifu_style::accuracy::Networks {
        embedding: trainer.as_deref(),
        player_vectors: vectors.as_deref(),
        global: global.as_deref(),
        cross_fit: folds.iter().map(|f| f.as_ref()).collect(),
    };
    let r = haifu_style::accuracy::measure(&scorer, likelihoods, &a.dataset, &a.years, &a.games, &networks)?;
    if a.save_refit {
        save_refit(a, &r)?;
    }
    if let Some(path) = &a.html {
        let page = haifu_reports::pages::accuracy_page(
            &r,
            &a.db.db.display().to_string(),
            &a.dataset.display().to_string(),
            &a.years,
        );
        let (_, problems) = page.write(path)?;
        for p in problems {
            eprintln!("note: {p}");
        }
        if !a.db.json {
            println!("HTML: {}", path.display());
        }
    }
    if a.db.json {
        return print_json(&serde_json::to_value(&r)?);
    }
    if !r.overlap.is_empty() {
        println!("warning: test years {:?} are among the database's years: the figures flatter", r.overlap);
    }
    println!(
        "identifying {} profiled players on {} test games of {:?} ({:.0} games/s):",
        db.profiles.len(),
        r.test_games,
        a.years,
        r.games_per_s
    );
    println!(
        "{:>6} {:>8} {:>7} {:>8} {:>15} {:>8} {:>10} {:>10} {:>10} {:>14} {:>14} {:>14} {:>14} {:>14} {:>14}",
        "games",
        "players",
        "trials",
        "top-1",
        "(95% interval)",
        "top-5",
        "chance-1",
        "chance-5",
        "mean rank",
        "seqs 1/5",
        "rates 1/5",
        "habits 1/5",
        "choices 1/5",
        "baseline 1/5",
        if a.embeds() { "embedding 1/5" } else { "" }
    );
    let pair = |x: [f64; 2]| format!("{:>6.1}/{:>5.1}%", 100.0 * x[0], 100.0 * x[1]);
    for x in &r.rows {
        println!(
            "{:>6} {:>8} {:>7} {:>7.1}% {:>15} {:>7.1}% {:>9.1}% {:>9.1}% {:>10.1} {} {} {} {} {} {}",
            x.games,
            x.players,
            x.trials,
            100.0 * x.top1,
            format!("({:.1}-{:.1}%)", 100.0 * x.top1_interval.0, 100.0 * x.top1_interval.1),
            100.0 * x.top5,
            100.0 * x.chance_top1,
            100.0 * x.chance_top5,
            x.mean_rank,
            pair(x.sequences_only),
            pair(x.rates_only),
            pair(x.habits_only),
            pair(x.choices_only),
            pair(x.baseline),
            x.embedding.map_or(String::new(), pair)
        );
    }
    if !r.no_trials.is_empty() {
        println!("no player has enough test games for a block of {:?} games: no trial, no row", r.no_trials);
    }
    print_methods(&r);
    print_personals(&r);
    Ok(())
}

/// The personal models' gains over everyone's, as `style accuracy` prints them.
fn print_personals(r: &haifu_style::accuracy::AccuracyReport) {
    if let Some(p) = &r.personal {
        println!(
            "the discard model as a personal model: each player's own coefficients against everyone's, top-1 on \
             the player's test choices (players with {}+ test games):",
            p.min_test_games
        );
        print_personal(p);
    }
    if let Some(p) = &r.personal_choices {
        println!(
            "the choice model as a personal model: each player's own coefficients against everyone's, the more \
             probable of taking or passing on the player's test choices (players with {}+ test games; profile \
             offers for choices):",
            p.min_test_games
        );
        print_personal(p);
    }
    for n in r.personal_network.iter().chain(&r.personal_network_refit).chain(&r.global_network_refit) {
        // what the refit read, once, before the first of its two models
        if let Some(f) = n.refit.as_ref().filter(|_| n.tilt == haifu_style::discards::Tilt::Refitted) {
            println!(
                "refitted over {} cross-fitted networks: {} profile seats ({} choices) read by a network that did not \
                 train on them; {} unread, {} misaligned, left out",
                f.networks, f.seats, f.choices, f.unread_seats, f.misaligned_seats
            );
        }
        let what = format!("{}, against {}", n.model(), n.against());
        println!(
            "{what}, top-1 on the player's test positions (players with {}+ test games; the model has a choice at \
             {:.1}% of them){}:",
            n.gains.min_test_games,
            100.0 * n.covered,
            match n.misaligned_seats {
                0 => String::new(),
                m => format!("; {m} test seats left out: their positions do not match the discard model's choices"),
            }
        );
        print_personal(&n.gains);
    }
}

/// Every method of `style accuracy` on the same trials, a line per block size.
fn print_methods(r: &haifu_style::accuracy::AccuracyReport) {
    println!("every method on the same trials (top-1 with its 95% interval, top-5, mean place; chance in brackets):");
    for x in &r.rows {
        let methods: Vec<String> = x
            .methods
            .iter()
            .map(|m| {
                format!(
                    "{} {:.1}% ({:.1}-{:.1}) {:.1}% {:.1}",
                    m.method,
                    100.0 * m.top1,
                    100.0 * m.top1_interval.0,
                    100.0 * m.top1_interval.1,
                    100.0 * m.top5,
                    m.mean_place
                )
            })
            .collect();
        println!("  {:>3} game(s) [{:.1}]: {}", x.games, x.chance_mean_rank, methods.join("; "));
    }
}

/// A personal model's gains, as `style accuracy` prints them (all judged, then by thirds of profile choices).
fn print_personal(p: &haifu_style::discards::PersonalGains) {
    let line = |what: &str, g: &haifu_style::discards::Gains| {
        println!(
            "  {what}: {} players, {} better ({:.0}%, {:.0}-{:.0}%; {:.0}% expected if all gained the mean), mean \
             {:+.2} points ({:+.2} to {:+.2}), {:+.4} nats a decision; {}-{} profile choices",
            g.players,
            g.better,
            100.0 * g.share_better,
            100.0 * g.share_better_interval.0,
            100.0 * g.share_better_interval.1,
            100.0 * g.share_better_at_mean,
            g.mean_gain_points,
            g.mean_gain_interval.0,
            g.mean_gain_interval.1,
            g.mean_log_likelihood_gain,
            g.profile_choices.0,
            g.profile_choices.1
        )
    };
    line("all judged", &p.judged);
    for (i, t) in p.thirds.iter().enumerate() {
        line(&format!("third {} by profile choices", i + 1), t);
    }
    if let Some(g) = &p.growth {
        println!(
            "  growth: {:+.2} points a doubling of the profile choices ({:+.2} to {:+.2}, p {:.2}); {:+.2} at the median",
            g.points_per_doubling, g.interval.0, g.interval.1, g.p_value, g.at_median
        );
    }
}
