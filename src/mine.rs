//! `haifu mine`: the sequence tables (SPEC 2, 3) of a dataset, per player and over everyone, per strategy.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::Result;
use serde_json::json;

use haifu_mining::mine::{Backend, RoundsMode, StrategyRounds};
use haifu_mining::tables::{write_tables, META, PLAYERS, SEQUENCES, SHAPES};
use haifu_mining::{MineOptions, Mined, Strategy};

use crate::args::DatasetOut;

#[derive(clap::Args)]
#[command(
    mut_arg("dataset", |a| a.help("Dataset written by `haifu ingest` (with --engine spark also a URI the cluster reads: s3a://, gs://, ...)")),
    mut_arg("out", |a| a.help("Output directory for sequences.parquet, shapes.parquet, players.parquet and meta.json (with --engine spark also a URI)"))
)]
pub struct MineArgs {
    #[command(flatten)]
    pub games: DatasetOut,
    /// Player tables for these players, comma-separated (default: every player, or --min-games).
    #[arg(long, value_delimiter = ',', conflicts_with = "min_games")]
    pub players: Option<Vec<String>>,
    /// Player tables for players with at least this many games in the years.
    #[arg(long)]
    pub min_games: Option<u32>,
    /// Rounds feeding the `all` table: all, or won (only rounds that ended in a win, as the thesis did).
    #[arg(long, default_value = "all")]
    pub rounds: RoundsMode,
    /// Decisions feeding a strategy's table: the winner's (winner) or all players' (all) in rounds won
    /// with that strategy's yaku.
    #[arg(long, default_value = "winner")]
    pub strategy_rounds: StrategyRounds,
    /// Counting engine: rust (fast path), polars (lazy queries) or spark (PySpark code handed to
    /// spark-submit, cluster/README.md); all give the same tables.
    #[arg(long, default_value = "rust")]
    pub engine: Backend,
    /// Spark master for --engine spark: local[N], spark://HOST:PORT, yarn, k8s://...
    #[arg(long, default_value = "local[2]")]
    pub master: String,
    /// The spark-submit to run for --engine spark.
    #[arg(long, default_value = "spark-submit")]
    pub spark_submit: PathBuf,
    /// A Spark setting for --engine spark, KEY=VALUE, handed to spark-submit as --conf (repeatable), e.g.
    /// spark.executor.instances=16 or spark.hadoop.fs.s3a.endpoint=URL.
    #[arg(long = "spark-conf", value_name = "KEY=VALUE")]
    pub spark_conf: Vec<String>,
    /// Keep only this share of the games (0 < F <= 1), the same games every run (a hash of the game id);
    /// a smaller share's games are part of a larger one's. Rust engine only.
    #[arg(long)]
    pub sample: Option<f64>,
    /// Worker threads (default: all cores).
    #[arg(long, short, default_value_t = 0)]
    pub jobs: usize,
    /// Print one JSON object with the summary on stdout.
    #[arg(long)]
    pub json: bool,
}

impl MineArgs {
    pub fn options(&self) -> MineOptions {
        MineOptions {
            years: self.games.years.clone(),
            players: self.players.clone(),
            min_games: self.min_games,
            rounds: self.rounds,
            strategy_rounds: self.strategy_rounds,
            engine: self.engine,
            sample: self.sample,
        }
    }
}

/// `--engine spark`: the job writes the tables; haifu checks their schema and prints the job's summary.
fn run_spark(a: &MineArgs, opts: &MineOptions) -> Result<()> {
    let job = haifu_mining::spark::SparkJob {
        master: a.master.clone(),
        spark_submit: a.spark_submit.clone(),
        conf: a.spark_conf.clone(),
    };
    let mined = haifu_mining::spark::mine_spark(&a.games.dataset, &a.games.out, opts, &job)?;
    if !mined.schema_checked {
        eprintln!(
            "note: {} is a URI for the cluster's storage, which haifu does not read: the job cast the tables to \
             haifu's schema; copy the folder to a local one for `haifu imitate` and `haifu stats`",
            a.games.out.display()
        );
    }
    let meta = mined.meta;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&meta)?);
        return Ok(());
    }
    println!(
        "mined {} decisions of {} into {} scopes, {} rows, on Spark ({}) in {:.1}s",
        meta["decisions_read"],
        a.games.dataset.display(),
        meta["scopes"],
        meta["rows"],
        a.master,
        meta["elapsed_s"].as_f64().unwrap_or(0.0)
    );
    let checked = if mined.schema_checked { "; schema checked" } else { "" };
    println!("tables: {} ({SEQUENCES}, {SHAPES}, {PLAYERS}, {META}{checked})", a.games.out.display());
    Ok(())
}

/// The JSON object of `meta.json` and of `--json`.
pub fn meta(a: &MineArgs, opts: &MineOptions, m: &Mined) -> serde_json::Value {
    let per_strategy = |scope: usize| {
        let mut o = serde_json::Map::new();
        for (i, s) in Strategy::EVERY.into_iter().enumerate() {
            o.insert(s.name().into(), serde_json::to_value(m.stats[scope][i]).unwrap_or_default());
        }
        o
    };
    json!({
        "haifu": env!("CARGO_PKG_VERSION"),
        "dataset": a.games.dataset.display().to_string(),
        "created": humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        "options": opts,
        "decisions_read": m.decisions_read,
        "scopes": m.scopes.len(),
        "players": m.scopes.len() - 1,
        "rows": m.counts.len(),
        "all": per_strategy(0),
        "elapsed_s": m.elapsed_s,
    })
}

pub fn run(a: &MineArgs) -> Result<()> {
    let opts = a.options();
    if opts.engine == Backend::Spark {
        return run_spark(a, &opts);
    }
    let spinner = crate::progress::spinner(std::io::stderr().is_terminal() && !a.json, "mining sequences");
    let pool = rayon::ThreadPoolBuilder::new().num_threads(a.jobs).build()?;
    haifu_mining::polars_engine::set_threads(a.jobs);
    let mined = pool.install(|| haifu_mining::mine(&a.games.dataset, &opts))?;
    let meta = meta(a, &opts, &mined);
    write_tables(&a.games.out, &mined, &meta)?;
    if let Some(s) = spinner {
        s.finish_and_clear();
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&meta)?);
        return Ok(());
    }
    println!(
        "mined {} decisions of {} into {} scopes ({} players + ALL), {} rows, in {:.2}s ({:.1}M decisions/s)",
        mined.decisions_read,
        a.games.dataset.display(),
        mined.scopes.len(),
        mined.scopes.len() - 1,
        mined.counts.len(),
        mined.elapsed_s,
        mined.decisions_read as f64 / mined.elapsed_s.max(1e-9) / 1e6
    );
    println!(
        "options: years {} | rounds {} | strategy rounds {} | engine {}",
        haifu_mining::dataset::years_text(&opts.years),
        opts.rounds,
        opts.strategy_rounds,
        opts.engine
    );
    println!("{:<8} {:>8} {:>10} {:>11} {:>9}", "strategy", "rounds", "decisions", "sequences", "distinct");
    for (i, s) in Strategy::EVERY.into_iter().enumerate() {
        let st = mined.stats[0][i];
        println!("{:<8} {:>8} {:>10} {:>11} {:>9}", s.name(), st.rounds, st.decisions, st.sequences, st.distinct);
    }
    println!("tables: {} ({SEQUENCES}, {SHAPES}, {PLAYERS}, {META})", a.games.out.display());
    Ok(())
}
