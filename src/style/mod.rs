//! `haifu style`: the per-player style database (docs/STYLE.md).

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use serde_json::{json, Value};

use haifu_style::compare::{js_distance, shape_differences, Distribution};
use haifu_style::db::rates_json;
use haifu_style::{build, BuildOptions, Profile, StyleDb, RATES};

use crate::args::DatasetOut;
use crate::Network;

mod accuracy;
mod identify;

pub use accuracy::AccuracyArgs;
pub use identify::{IdentifyArgs, RankBy};

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

pub fn run(c: &StyleCommand, network: Option<&dyn Network>) -> Result<()> {
    match c {
        StyleCommand::Build(a) => build_cmd(a),
        StyleCommand::List(a) => list(a),
        StyleCommand::Show(a) => show(a),
        StyleCommand::Compare(a) => compare(a),
        StyleCommand::Nearest(a) => nearest(a),
        StyleCommand::Identify(a) => identify::identify(a, network),
        StyleCommand::Accuracy(a) => accuracy::accuracy(a, network),
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
