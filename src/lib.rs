//! The `haifu` command line as a library: every command's arguments ([`Cli`]) and the commands themselves
//! ([`run`]), each a thin layer over a workspace crate. Two binaries are built on it. `haifu` (src/main.rs)
//! links no libtorch: it runs every command that runs no network and hands those that do (`train`,
//! `neural ...`, `imitate eval --backoff`, `style identify --models`, `mjai-bot --model`, `review --model`, the
//! demo's network step; [`Command::network`]) to `haifu-neural` (neural-cli/), which runs them with its [`Network`], the
//! network parts of these commands, built with libtorch through tch.

use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use clap::{Parser, Subcommand};
use haifu_encoding::options::DeviceChoice;

// the ingest allocates and frees many small buffers per row; mimalloc keeps them cheap (for both binaries)
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod args;
pub mod bench;
pub mod check;
pub mod demo;
pub mod export;
pub mod handoff;
pub mod imitate;
pub mod mine;
pub mod mjai_bot;
pub mod mjai_server;
pub mod neural;
pub mod progress;
pub mod report;
pub mod review;
pub mod rules_args;
pub mod sim;
pub mod stats;
pub mod style;
pub mod train;
pub mod verify;

#[derive(Parser)]
#[command(
    name = "haifu",
    version,
    about = "Tenhou game records to Parquet, and the study of how players play",
    after_help = "The commands that run a network (train, neural, imitate eval --backoff, style identify --models, \
                  mjai-bot --model, review --model, the demo's network step) run in the network binary haifu-neural, built with \
                  libtorch, which haifu finds beside itself or on PATH."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Read mjlog XML, tenhou.net/6 JSON and mjai logs, replay and check every game, write the Parquet dataset.
    Ingest(IngestArgs),
    /// Check a dataset against its part list: every part there and unchanged, nothing unlisted, the rows the
    /// runs ingested; `--adopt` records parts another tool rewrote. Exit status 1 on any finding.
    Check(check::CheckArgs),
    /// Write the games of a dataset back as mjlog XML files (from the lossless events table) or mjai JSON lines.
    Export(export::ExportArgs),
    /// Benchmarks: ingest, mining (both engines), evaluation, and the game engine's self-play speed.
    Bench {
        #[command(subcommand)]
        what: bench::BenchCommand,
    },
    /// The main job on logs it makes itself: style bots play east-only games, then ingest, mine (2022),
    /// imitate (2023), a small network (in haifu-neural, left out without it) and the thesis report; needs no
    /// data.
    Demo(demo::DemoArgs),
    /// Count the sequences (SPEC 2) of each player and of everyone, per strategy, into sequence tables.
    Mine(mine::MineArgs),
    /// Statistics of the thesis's chapter 5 (CSV, Markdown and JSON).
    Stats {
        #[command(subcommand)]
        what: stats::StatsCommand,
    },
    /// The lookup imitator: suggest discards, evaluate match rates and coverage.
    Imitate {
        #[command(subcommand)]
        what: imitate::ImitateCommand,
    },
    /// Reports: the thesis's tables of chapters 5 and 6 on your data.
    Report {
        #[command(subcommand)]
        what: report::ReportCommand,
    },
    /// A player's games, or one game, decision by decision: the board, the choice beside the ranked candidates
    /// of a network (--model, in haifu-neural), the all-players table and the player's own, a timeline of
    /// agreement, deviations ranked by how surely the table disagrees. One HTML page per game, an index, JSON.
    Review(review::ReviewArgs),
    /// Neural baselines: evaluate a trained run beside the imitator (runs in the network binary, haifu-neural).
    Neural {
        #[command(subcommand)]
        what: neural::NeuralCommand,
    },
    /// The per-player style database: build, list, show, compare, nearest, identify, accuracy.
    Style {
        #[command(subcommand)]
        what: style::StyleCommand,
    },
    /// Train a neural baseline (SPEC 5.1: MLP, DenseMLP) on a dataset's positions, on CPU or CUDA (runs in the
    /// network binary, haifu-neural).
    Train(train::TrainArgs),
    /// Self-play: bots play seeded games under Tenhou rules, written as mjlog or mjai logs.
    Sim(sim::SimArgs),
    /// Two bots against each other (two copies each, seated opposite): ranks, points and a Welch t-test.
    Battle(sim::BattleArgs),
    /// Replay logs through the game engine and rescore every win; lists every mismatch with the log.
    Verify(verify::VerifyArgs),
    /// The game engine as an mjai game server (TCP): clients join, play Tenhou-rule games, each game written.
    MjaiServer(mjai_server::MjaiServerArgs),
    /// A player over mjai (stdin/stdout or TCP): imitates a player of a style database, or plays a sim bot
    /// (with --model in the network binary, haifu-neural).
    MjaiBot(mjai_bot::MjaiBotArgs),
}

#[derive(clap::Args)]
pub struct IngestArgs {
    /// Files, directories (walked recursively) or @LIST files (one path per line).
    #[arg(required_unless_present = "list")]
    pub inputs: Vec<PathBuf>,
    /// A file listing input paths, one per line (`#` starts a comment).
    #[arg(long)]
    pub list: Vec<PathBuf>,
    /// Output dataset directory.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(long, short, default_value_t = 0)]
    pub jobs: usize,
    /// Fail (and commit nothing) at the first file or game that cannot be ingested.
    #[arg(long)]
    pub strict: bool,
    /// Fail (and commit nothing) when more files and games are quarantined than this count (`10`) or share of
    /// those read (`5%`).
    #[arg(long, value_name = "N|P%")]
    pub max_quarantined: Option<haifu_ingest::pipeline::QuarantineLimit>,
    /// Write every game, even one whose play (every draw and discard) the dataset or the run already holds;
    /// without it such a game comes in once and the others are listed as duplicates.
    #[arg(long)]
    pub keep_duplicates: bool,
    /// Keep a game with a win whose recorded value (AGARI `ten`, `yaku`) is not what its hand is worth, with a
    /// note in the games table (`notes`); without it such a game is quarantined.
    #[arg(long)]
    pub keep_misscored: bool,
    /// Leave out the choices table (every moment a seat could call, win, declare riichi, make a kan, abort or
    /// extract a north beside its discard, what it was offered and what it did; docs/SCHEMA.md) and the rules'
    /// check of every such action of a log (a game where one is not among the options is quarantined naming
    /// it). Both are written and run by default; leaving them out saves about a quarter of the CPU
    /// (docs/PERFORMANCE.md).
    #[arg(long)]
    pub no_choices: bool,
    /// The choices table, as by default (kept for the scripts written when it had to be asked for).
    #[arg(long, hide = true, conflicts_with = "no_choices")]
    pub choices: bool,
    #[command(flatten)]
    pub rules: rules_args::RulesArgs,
    /// Print one JSON object with the summary on stdout.
    #[arg(long)]
    pub json: bool,
    /// Print nothing (for callers that report themselves).
    #[arg(skip)]
    pub quiet: bool,
}

/// The network parts of the commands that run one, implemented by the network binary (`haifu-neural`, with
/// libtorch); the rest of each command (reading, the tables, printing) is here, shared by both binaries.
pub trait Network {
    /// `haifu train`.
    fn train(&self, a: &train::TrainArgs) -> Result<()>;
    /// `haifu neural ...`.
    fn neural(&self, c: &neural::NeuralCommand) -> Result<()>;
    /// `imitate eval --backoff MODEL`: the network's rows beside the tables, on the decisions the tables' rows
    /// count.
    fn backoff(&self, a: &imitate::EvalArgs, beside: imitate::Beside) -> Result<NetworkRows>;
    /// `style identify --models DIR`: per player with a network in `dir`, the log-likelihood of the seat's
    /// discards (`positions`) under it.
    fn identify(
        &self,
        dir: &Path,
        db: &haifu_style::StyleDb,
        positions: &haifu_encoding::Positions,
    ) -> Result<HashMap<String, f64>>;
    /// `mjai-bot --model RUN`: the network proposing the discards the tables cannot rank.
    fn mjai_backoff(&self, model: &Path) -> Result<Box<dyn haifu_play::policy::Backoff + Send>>;
    /// `review --model RUN`: the network's probabilities over the 34 kinds at each position.
    fn probabilities(&self, model: &Path, positions: &haifu_encoding::Positions) -> Result<Vec<[f32; 34]>>;
    /// `review --choices-model RUN`: a choices run's probabilities of the classes at each choice position
    /// (`haifu_encoding::choices`).
    fn choice_probabilities(&self, model: &Path, positions: &haifu_encoding::Positions) -> Result<Vec<[f32; 34]>>;
    /// The demo's network step: a small network trained on the generation year's decisions, beside the
    /// all-players table on the test year's.
    fn demo(&self, step: &demo::NetworkStep) -> Result<NetworkRows>;
    /// `imitate eval --device`: the tables as tensors on `device`, ranking a player's decisions against every
    /// table of a variant at once (the counts of the lookup in Rust).
    fn table_ranker(
        &self,
        tables: &haifu_imitate::Tables,
        device: DeviceChoice,
    ) -> Result<Box<dyn haifu_imitate::TableRanker>>;
    /// `style identify --device`, `style accuracy --device`: the sequences' log-likelihoods of every trial
    /// under every profiled player's table, as tensor lookups on `device`.
    fn sequence_likelihoods<'a>(
        &self,
        scorer: &'a haifu_style::Scorer<'a>,
        device: DeviceChoice,
    ) -> Result<Box<dyn haifu_style::SequenceLikelihoods + 'a>>;
    /// `style accuracy --embedding`: the learned style embedding, trained on the reference games it is given
    /// (written to `save` when given), or the one trained before in `from`.
    fn style_embedding(
        &self,
        from: Option<&Path>,
        save: Option<&Path>,
    ) -> Result<Box<dyn haifu_style::embedding::Trainer>>;
    /// `style accuracy --player-vectors RUN`: the network conditioned on the players (`haifu train
    /// --player-vectors`) scoring the trials' discards, read from `dataset` at tables of `players` seats.
    fn player_vectors(
        &self,
        run: &Path,
        dataset: &Path,
        players: u8,
    ) -> Result<Box<dyn haifu_style::accuracy::PlayerVectors>>;
    /// `style accuracy --network RUN`: the global network personal models are judged against, scoring the test
    /// seats' discards read from `dataset` at tables of `players` seats.
    fn global_network(
        &self,
        run: &Path,
        dataset: &Path,
        players: u8,
    ) -> Result<Box<dyn haifu_style::accuracy::GlobalNetwork>>;
}

/// What a network step adds to a command's output: its JSON and its text.
pub struct NetworkRows {
    pub json: serde_json::Value,
    pub text: String,
}

impl Command {
    /// The command line of a command that runs a network (so the `haifu` binary hands it to `haifu-neural`),
    /// or `None`. The demo is not one: its network step is left out where there is no network binary.
    pub fn network(&self) -> Option<&'static str> {
        match self {
            Command::Train(_) => Some("haifu train"),
            Command::Neural { .. } => Some("haifu neural"),
            Command::Imitate { what: imitate::ImitateCommand::Eval(a) } if a.backoff.is_some() => {
                Some("haifu imitate eval --backoff")
            }
            Command::Imitate { what: imitate::ImitateCommand::Eval(a) } if a.device.is_some() => {
                Some("haifu imitate eval --device")
            }
            Command::Style { what: style::StyleCommand::Identify(a) } if a.models.is_some() => {
                Some("haifu style identify --models")
            }
            Command::Style { what: style::StyleCommand::Identify(a) } if a.device.is_some() => {
                Some("haifu style identify --device")
            }
            Command::Style { what: style::StyleCommand::Identify(a) } if a.embedding.is_some() => {
                Some("haifu style identify --embedding")
            }
            Command::Style { what: style::StyleCommand::Identify(a) } if a.network.is_some() => {
                Some("haifu style identify --network")
            }
            Command::Style { what: style::StyleCommand::Accuracy(a) } if a.device.is_some() => {
                Some("haifu style accuracy --device")
            }
            Command::Style { what: style::StyleCommand::Accuracy(a) } if a.embeds() => {
                Some("haifu style accuracy --embedding")
            }
            Command::Style { what: style::StyleCommand::Accuracy(a) } if a.player_vectors.is_some() => {
                Some("haifu style accuracy --player-vectors")
            }
            Command::Style { what: style::StyleCommand::Accuracy(a) } if a.network.is_some() => {
                Some("haifu style accuracy --network")
            }
            Command::MjaiBot(a) if a.model.is_some() => Some("haifu mjai-bot --model"),
            Command::Review(a) if a.model.is_some() => Some("haifu review --model"),
            Command::Review(a) if a.choices_model.is_some() => Some("haifu review --choices-model"),
            _ => None,
        }
    }
}

/// Runs a command; `network` is the network binary's, `None` in `haifu`, where a network command never gets
/// here ([`Command::network`]).
pub fn run(command: &Command, network: Option<&dyn Network>) -> Result<()> {
    match command {
        Command::Ingest(a) => ingest(a).map(|_| ()),
        Command::Export(a) => export::run(a),
        Command::Check(a) => check::run(a),
        Command::Bench { what } => bench::run(what),
        Command::Demo(a) => demo::run(a, network),
        Command::Mine(a) => mine::run(a),
        Command::Stats { what } => stats::run(what),
        Command::Imitate { what } => imitate::run(what, network),
        Command::Report { what } => report::run(what),
        Command::Review(a) => review::run(a, network),
        Command::Train(a) => needs(network, "haifu train")?.train(a),
        Command::Style { what } => style::run(what, network),
        Command::Neural { what } => needs(network, "haifu neural")?.neural(what),
        Command::Sim(a) => sim::run_sim(a),
        Command::Battle(a) => sim::run_battle(a),
        Command::Verify(a) => verify::run(a),
        Command::MjaiServer(a) => mjai_server::run(a),
        Command::MjaiBot(a) => mjai_bot::run(a, network),
    }
}

/// The network binary's [`Network`], or the error that says this binary has none.
pub fn needs<'a>(network: Option<&'a dyn Network>, what: &str) -> Result<&'a dyn Network> {
    match network {
        Some(n) => Ok(n),
        None => bail!("`{what}` runs a network: {}", handoff::HOW_TO_BUILD),
    }
}

/// The start of both binaries. A closed pipe (`haifu style list ... | head`) ends the process quietly, as for
/// any Unix tool, instead of a panic in println!. Transparent huge pages are off for the process: mimalloc
/// commits its arena at once, and each first touch of a 2 MiB region then had the kernel zero all of it (a
/// fifth of a `haifu mine`'s CPU time in `perf record`, docs/PERFORMANCE.md); with 4 KiB pages only the memory
/// used is cleared. zstd's contexts (one per Parquet column chunk) come from the C allocator, which mapped each
/// one afresh and returned it at once: 9 of the 42 thousand page faults of a `haifu mine`; kept in its heap,
/// they reuse the same pages.
#[allow(unsafe_code)] // libc has no safe call for these
pub fn start() {
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of one signal before any thread starts
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    #[cfg(target_os = "linux")]
    // SAFETY: prctl(PR_SET_THP_DISABLE) takes integers only and touches no memory of ours; a kernel without it
    // returns an error, which changes nothing
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt sets two integers of glibc's allocator before any thread allocates; a value it refuses
    // leaves its default
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 64 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 256 << 20);
    }
}

/// mimalloc keeps the memory freed during an ingest instead of handing it back to the kernel 10 ms later: the
/// next table batch took the same pages again, each one a page fault and a zeroing (a fifth of an ingest's page
/// faults and about 7% of its CPU, docs/PERFORMANCE.md). The process ends when the ingest does, so the memory
/// it keeps is its peak, as before.
#[allow(unsafe_code)] // mimalloc's option setter is a C function
fn keep_freed_memory() {
    // `mi_option_purge_delay` of mimalloc's `mi_option_e` (v2 and v3 alike: between `eager_commit_delay`, 14,
    // and `use_numa_nodes`, 16, the constants libmimalloc-sys names); -1: never purge
    const PURGE_DELAY: std::ffi::c_int = 15;
    extern "C" {
        fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
    }
    // SAFETY: sets one integer of mimalloc's options table; an option set while other threads allocate takes
    // effect at their next purge
    unsafe { mi_option_set(PURGE_DELAY, -1) }
}

/// The command line of both binaries. A usage error (an unknown option, a missing argument) exits 1 like every
/// other error, as the README states: clap's own 2 is `haifu verify`'s "it listed something". `--help` and
/// `--version` exit 0.
pub fn parse_cli() -> Cli {
    use clap::Parser;
    Cli::try_parse().unwrap_or_else(|e| {
        let _ = e.print();
        exit_now(if e.use_stderr() { 1 } else { 0 })
    })
}

/// The end of both binaries: the error on stderr and exit status 1, or 0.
pub fn finish(result: Result<()>) -> ! {
    if let Err(e) = result {
        eprintln!("haifu: error: {e:#}");
        exit_now(1);
    }
    exit_now(0);
}

/// Ends the process once stdout and stderr are flushed, without running the static destructors of the
/// loaded libraries: in the network binary libtorch's and CUDA's took about 0.1 CPU-second at every exit,
/// whatever the command (docs/PERFORMANCE.md). Everything haifu writes is flushed and closed before this (each writer is dropped
/// at the end of its command); the operating system reclaims the rest.
#[allow(unsafe_code)] // libc has no safe call for this
pub fn exit_now(code: i32) -> ! {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: `_exit` ends the process at once; no Rust object is used after it
    unsafe { libc::_exit(code) }
}

/// `haifu ingest`: returns the summary after printing it.
pub fn ingest(a: &IngestArgs) -> Result<haifu_ingest::pipeline::Summary> {
    keep_freed_memory();
    let inputs = haifu_ingest::source::expand_inputs(&a.inputs, &a.list)?;
    let opts = haifu_ingest::pipeline::IngestOptions {
        out: a.out.clone(),
        jobs: a.jobs,
        strict: a.strict,
        read: a.rules.read_options(),
        max_quarantined: a.max_quarantined,
        keep_duplicates: a.keep_duplicates,
        keep_misscored: a.keep_misscored,
        choices: !a.no_choices,
        stop_after: haifu_ingest::pipeline::Stage::Dataset,
    };
    let bar = haifu_ingest::progress::IngestBar::new(std::io::stderr().is_terminal() && !a.json && !a.quiet);
    let summary = haifu_ingest::pipeline::ingest(&inputs, &opts, &bar)?;
    bar.finish();
    if a.quiet {
        return Ok(summary);
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        print_summary(&summary);
    }
    // what could not be ingested also goes to stderr, where a script or a CI log sees it
    if !summary.ignored.is_empty() {
        eprintln!("haifu ingest: note: {} inputs not read:", summary.files_ignored);
        for i in summary.ignored.iter().take(10) {
            eprintln!("  {}: {}", i.file, i.reason);
        }
        if summary.ignored.len() > 10 {
            eprintln!("  ... and {} more (`--json` lists them all)", summary.ignored.len() - 10);
        }
    }
    if !summary.quarantined.is_empty() {
        eprintln!(
            "haifu ingest: quarantined {} files and {} games ({}/_haifu/quarantine.jsonl):",
            summary.files_quarantined, summary.games_quarantined, summary.out
        );
        for q in summary.quarantined.iter().take(10) {
            match q.game {
                Some(g) => eprintln!("  {} game {}: {}", q.file, g, q.reason),
                None => eprintln!("  {}: {}", q.file, q.reason),
            }
        }
    }
    if summary.files_read > 0 && summary.games_ingested == 0 && summary.games_duplicate == 0 {
        eprintln!("haifu ingest: error: no game was ingested from the {} files read", summary.files_read);
        exit_now(1);
    }
    Ok(summary)
}

fn print_summary(s: &haifu_ingest::pipeline::Summary) {
    let mb = s.decompressed_bytes as f64 / 1e6;
    println!(
        "ingested {} games ({} rounds, {} decisions, {} events) from {} files, {:.1} MB, in {:.2}s ({:.1} MB/s, {:.0} games/s)",
        s.games_ingested,
        s.rounds,
        s.decisions,
        s.events,
        s.files_read,
        mb,
        s.elapsed_s,
        mb / s.elapsed_s.max(1e-9),
        s.games_ingested as f64 / s.elapsed_s.max(1e-9)
    );
    if s.files_skipped > 0 {
        println!("skipped {} files already in the dataset (same content)", s.files_skipped);
    }
    if s.stale_removed > 0 {
        println!("removed {} leftover files of an interrupted run", s.stale_removed);
    }
    const SHOWN: usize = 10;
    let more = |n: usize| {
        if n > SHOWN {
            println!("  ... and {} more (`--json` lists them all)", n - SHOWN);
        }
    };
    if !s.truncated.is_empty() {
        println!("{} games stop early (complete rounds kept):", s.truncated.len());
        for t in s.truncated.iter().take(SHOWN) {
            println!("  {} game {}: {} ({} rounds kept)", t.file, t.game, t.reason, t.rounds_kept);
        }
        more(s.truncated.len());
    }
    if !s.duplicates.is_empty() {
        println!("left out {} games already in the dataset or read earlier (the same play):", s.duplicates.len());
        for d in s.duplicates.iter().take(SHOWN) {
            println!("  {} game {}: the same game as {}", d.file, d.game, d.same_as);
        }
        more(s.duplicates.len());
    }
    if !s.quarantined.is_empty() {
        println!(
            "quarantined {} files and {} games (listed on stderr; all in {}/_haifu/quarantine.jsonl)",
            s.files_quarantined, s.games_quarantined, s.out
        );
    }
    println!("dataset: {}", s.out);
}
