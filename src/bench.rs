//! `haifu bench`: throughput measurements that go into docs/PERFORMANCE.md.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Subcommand;

#[derive(Subcommand)]
pub enum BenchCommand {
    /// End-to-end ingest (parse, replay, Parquet) of decompressed files, repeated; reports medians.
    Ingest {
        /// Inputs (files, directories, @lists); gzip files are decompressed to a scratch directory first.
        inputs: Vec<PathBuf>,
        /// Worker threads.
        #[arg(long, short, default_value_t = 1)]
        jobs: usize,
        /// Repetitions (the median is reported).
        #[arg(long, default_value_t = 3)]
        repeat: usize,
        /// Scratch directory (default: a fresh directory under the system temp dir).
        #[arg(long)]
        scratch: Option<PathBuf>,
        /// Also run each repetition's first stages alone, one after the other: reading, parsing and replaying
        /// only, then with the tables' rows built too (dropped unencoded), so that the CPU time of each stage
        /// is the difference: replay, rows, Parquet (encoding, compression, writing, commit).
        #[arg(long)]
        phases: bool,
        /// Ingest as `haifu ingest --no-choices` does (no choices table, no rules' check of every action).
        #[arg(long)]
        no_choices: bool,
        #[arg(long)]
        json: bool,
    },
    /// Sequence mining (`haifu mine`) of a dataset with each engine, repeated; decisions per second and per
    /// CPU-second (medians). Nothing is written.
    Mine {
        /// Dataset written by `haifu ingest`.
        #[arg(long)]
        dataset: PathBuf,
        /// Engines to measure, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "rust,polars")]
        engines: Vec<haifu_mining::Backend>,
        /// Player scopes: players with at least this many games (default: every player).
        #[arg(long)]
        min_games: Option<u32>,
        /// Worker threads.
        #[arg(long, short, default_value_t = 1)]
        jobs: usize,
        /// Repetitions (the median is reported).
        #[arg(long, default_value_t = 3)]
        repeat: usize,
        #[arg(long)]
        json: bool,
    },
    /// The lookup imitator's evaluation: every decision of the years ranked against the ALL/all table and
    /// against each of the `--players` heaviest players' own tables, one thread; and the memory those
    /// tables take.
    Eval {
        /// Dataset written by `haifu ingest` (the test decisions).
        #[arg(long)]
        dataset: PathBuf,
        /// Directory written by `haifu mine`.
        #[arg(long)]
        tables: PathBuf,
        /// Test years, comma-separated (default: every year).
        #[arg(long, value_delimiter = ',')]
        years: Vec<i32>,
        /// How many player tables to load for the memory figure (the players with the most sequences).
        #[arg(long, default_value_t = 100)]
        players: usize,
        /// Repetitions (the median is reported).
        #[arg(long, default_value_t = 5)]
        repeat: usize,
        #[arg(long)]
        json: bool,
    },
    /// The positions `haifu train` learns from (`haifu_encoding::load`), replayed from a dataset's events with
    /// its positions cache removed before each repetition (and written again, as a first `haifu train` does);
    /// positions per second, medians. The Python module's `haifu.positions` runs the same call
    /// (scripts/bench_python_positions.sh sets the two side by side).
    Positions {
        /// Dataset written by `haifu ingest`.
        #[arg(long)]
        dataset: PathBuf,
        /// Training years, comma-separated (default: every year not tested).
        #[arg(long, value_delimiter = ',')]
        years: Vec<i32>,
        /// Test years, comma-separated (default: one game in ten of the training years).
        #[arg(long, value_delimiter = ',')]
        test_years: Vec<i32>,
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(3..=4))]
        players: u8,
        /// Repetitions (the median is reported).
        #[arg(long, default_value_t = 3)]
        repeat: usize,
        #[arg(long)]
        json: bool,
    },
    /// The game engine: hanchan played per second on one thread, in memory (the record is built, not
    /// written), four copies of each bot; medians.
    Sim {
        /// Bots to measure, comma-separated (`haifu sim --help` lists them).
        #[arg(long, value_delimiter = ',', default_value = "greedy,random,tsumogiri")]
        bots: Vec<String>,
        /// Hanchan per repetition.
        #[arg(long, default_value_t = 200)]
        games: usize,
        /// Repetitions (the median is reported).
        #[arg(long, default_value_t = 5)]
        repeat: usize,
        #[command(flatten)]
        table: crate::sim::TableArgs,
        #[arg(long)]
        json: bool,
    },
}

/// CPU time (user + system) of this process so far, in seconds.
#[allow(unsafe_code)] // libc has no safe call for this
pub fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes into the struct we pass.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    tv(u.ru_utime) + tv(u.ru_stime)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

pub fn run(cmd: &BenchCommand) -> Result<()> {
    match cmd {
        BenchCommand::Ingest { inputs, jobs, repeat, scratch, phases, no_choices, json } => {
            ingest(inputs, *jobs, *repeat, scratch.clone(), (*phases, !*no_choices), *json)
        }
        BenchCommand::Mine { dataset, engines, min_games, jobs, repeat, json } => {
            mine(dataset, engines, *min_games, *jobs, *repeat, *json)
        }
        BenchCommand::Eval { dataset, tables, years, players, repeat, json } => {
            eval(dataset, tables, years, *players, *repeat, *json)
        }
        BenchCommand::Sim { bots, games, repeat, table, json } => sim(bots, *games, *repeat, table, *json),
        BenchCommand::Positions { dataset, years, test_years, players, repeat, json } => {
            let split = haifu_encoding::Split {
                years: years.clone(),
                test_years: test_years.clone(),
                players: *players,
                ..Default::default()
            };
            positions(dataset, &split, *repeat, *json)
        }
    }
}

/// Runs `f` `repeat` times; medians of wall and CPU seconds, and the last result.
fn timed<T>(repeat: usize, mut f: impl FnMut() -> Result<T>) -> Result<(f64, f64, T)> {
    let (mut walls, mut cpus) = (Vec::new(), Vec::new());
    let mut last = None;
    for _ in 0..repeat.max(1) {
        let (t0, c0) = (Instant::now(), cpu_seconds());
        last = Some(f()?);
        walls.push(t0.elapsed().as_secs_f64());
        cpus.push(cpu_seconds() - c0);
    }
    Ok((median(&mut walls), median(&mut cpus), last.expect("at least one repetition")))
}

fn positions(dataset: &std::path::Path, split: &haifu_encoding::Split, repeat: usize, json: bool) -> Result<()> {
    let games = haifu_encoding::Games::read(dataset)?;
    let cache = dataset.join(haifu_ingest::parts::META_DIR).join("cache");
    let (wall, cpu, n) = timed(repeat, || {
        if cache.exists() {
            std::fs::remove_dir_all(&cache).with_context(|| format!("removing {}", cache.display()))?;
        }
        let (train, test) = haifu_encoding::load(dataset, &games, split)?;
        Ok(train.len() + test.len())
    })?;
    let row = serde_json::json!({
        "dataset": dataset.display().to_string(), "positions": n, "repeat": repeat, "wall_s_median": wall,
        "cpu_s_median": cpu, "positions_per_s": n as f64 / wall, "positions_per_cpu_s": n as f64 / cpu,
    });
    if json {
        println!("{}", serde_json::to_string_pretty(&row)?);
    } else {
        println!(
            "positions bench, {}: {n} positions: wall {wall:.3}s, cpu {cpu:.3}s (medians of {repeat}) -> {:.0} \
             positions/s, {:.0} per CPU-second",
            dataset.display(),
            n as f64 / wall,
            n as f64 / cpu
        );
    }
    Ok(())
}

fn sim(bots: &[String], games: usize, repeat: usize, table: &crate::sim::TableArgs, json: bool) -> Result<()> {
    use haifu_sim::generate::{game_seed, play_game, NamedBot};
    let rules = table.rules();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
    let mut rows = Vec::new();
    for bot in bots {
        let player: NamedBot = bot.parse().map_err(|e: String| anyhow::anyhow!(e))?;
        let seats: Vec<&NamedBot> = vec![&player; usize::from(rules.players)];
        let (wall, cpu, rounds) = pool.install(|| {
            timed(repeat, || {
                let mut rounds = 0;
                for g in 0..games as u64 {
                    let record = play_game(rules, game_seed(1, g), &seats).map_err(|e| anyhow::anyhow!(e))?;
                    rounds += record.events.iter().filter(|e| matches!(e, haifu_record::Event::Init(_))).count();
                }
                Ok(rounds)
            })
        })?;
        rows.push(serde_json::json!({
            "bot": bot, "go_type": rules.go_type, "games": games, "rounds": rounds, "repeat": repeat,
            "wall_s_median": wall, "cpu_s_median": cpu, "games_per_s": games as f64 / wall,
            "games_per_cpu_s": games as f64 / cpu,
        }));
        if !json {
            println!(
                "sim bench, {bot} x{}: {games} games ({rounds} rounds), go type {}: wall {wall:.3}s, cpu {cpu:.3}s \
                 (medians of {repeat}) -> {:.0} games/s, {:.0} per CPU-second",
                rules.players,
                rules.go_type,
                games as f64 / wall,
                games as f64 / cpu
            );
        }
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    }
    Ok(())
}

fn mine(
    dataset: &std::path::Path,
    engines: &[haifu_mining::Backend],
    min_games: Option<u32>,
    jobs: usize,
    repeat: usize,
    json: bool,
) -> Result<()> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build()?;
    haifu_mining::polars_engine::set_threads(jobs);
    let mut rows = Vec::new();
    for &engine in engines {
        let opts = haifu_mining::MineOptions { engine, min_games, ..Default::default() };
        let (wall, cpu, m) = pool.install(|| timed(repeat, || haifu_mining::mine(dataset, &opts)))?;
        let n = m.decisions_read as f64;
        rows.push(serde_json::json!({
            "engine": engine.to_string(), "decisions": m.decisions_read, "scopes": m.scopes.len(),
            "rows": m.counts.len(), "jobs": jobs, "repeat": repeat, "wall_s_median": wall, "cpu_s_median": cpu,
            "decisions_per_s": n / wall, "decisions_per_cpu_s": n / cpu,
        }));
        if !json {
            println!(
                "mine bench, engine {engine}: {} decisions, {} scopes, {} rows, jobs={jobs}: wall {wall:.3}s, cpu {cpu:.3}s \
                 (medians of {repeat}) -> {:.2}M decisions/s, {:.2}M per CPU-second",
                m.decisions_read,
                m.scopes.len(),
                m.counts.len(),
                n / wall / 1e6,
                n / cpu / 1e6
            );
        }
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    }
    Ok(())
}

fn eval(
    dataset: &std::path::Path,
    tables: &std::path::Path,
    years: &[i32],
    players: usize,
    repeat: usize,
    json: bool,
) -> Result<()> {
    use haifu_imitate::eval::{evaluate, table_sets};
    use haifu_imitate::{EvalOptions, LoadOptions, Selection, StrategyMode, TableVariant, Tables, TestData};
    use haifu_mining::Strategy;
    let data = TestData::load(dataset, &Selection { years: years.to_vec(), ..Default::default() })?;
    let all = Tables::load(tables, &LoadOptions { strategies: vec![Strategy::All], ..Default::default() })?;
    let set = &table_sets(&all, "", TableVariant::All, &[Strategy::All])?[0];
    let opts = EvalOptions { strategy: StrategyMode::None, include_riichi: true };
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
    let (wall, cpu, answered) = one.install(|| {
        timed(repeat, || {
            Ok((0..data.players.len())
                .map(|p| evaluate(data.player_decisions(p), set, &opts, |_| {}).answered())
                .sum::<u64>())
        })
    })?;
    let n = data.decisions.len() as f64;

    // memory: the heaviest players' tables, every strategy
    let heaviest = haifu_mining::stats::heaviest_scopes(tables, players)?;
    let t0 = Instant::now();
    let loaded = Tables::load(tables, &LoadOptions { scopes: Some(heaviest.clone()), ..Default::default() })?;
    let load_s = t0.elapsed().as_secs_f64();
    let report = serde_json::json!({
        "decisions": data.decisions.len(), "answered": answered, "repeat": repeat,
        "wall_s_median": wall, "cpu_s_median": cpu, "decisions_per_s": n / wall, "decisions_per_cpu_s": n / cpu,
        "player_tables": heaviest.len(), "player_tables_bytes": loaded.heap_bytes(), "player_tables_load_s": load_s,
    });
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "eval bench: {} decisions ranked against ALL/all on one thread ({answered} answered): wall {wall:.4}s, \
             cpu {cpu:.4}s (medians of {repeat}) -> {:.2}M decisions/s, {:.2}M per CPU-second",
            data.decisions.len(),
            n / wall / 1e6,
            n / cpu / 1e6
        );
        println!(
            "tables of the {} heaviest players (4 strategies each): {:.1} MB in memory, loaded in {load_s:.2}s",
            heaviest.len(),
            loaded.heap_bytes() as f64 / 1e6
        );
    }
    Ok(())
}

fn ingest(
    inputs: &[PathBuf],
    jobs: usize,
    repeat: usize,
    scratch: Option<PathBuf>,
    (phases, choices): (bool, bool),
    json: bool,
) -> Result<()> {
    use haifu_ingest::pipeline::Stage;
    let (jobs, repeat, json) = (&jobs, &repeat, &json);
    if inputs.is_empty() {
        bail!("give the files to measure, e.g. haifu bench ingest ../shared/corpus/mjlog");
    }
    let files = haifu_ingest::source::expand_inputs(inputs, &[])?;
    let scratch = scratch.unwrap_or_else(|| std::env::temp_dir().join(format!("haifu-bench-{}", std::process::id())));
    let plain = scratch.join("input");
    std::fs::create_dir_all(&plain).with_context(|| format!("creating {}", plain.display()))?;
    let mut bytes = 0u64;
    let mut paths = Vec::with_capacity(files.len());
    for (i, f) in files.iter().enumerate() {
        let raw = std::fs::read(f).with_context(|| format!("reading {}", f.display()))?;
        let Ok(text) = haifu_record::source::decompress(raw) else { continue };
        let name = f.file_name().map(|n| n.to_string_lossy().replace(".gz", "")).unwrap_or_default();
        let p = plain.join(format!("{i:06}-{name}"));
        bytes += text.len() as u64;
        std::fs::write(&p, text)?;
        paths.push(p);
    }
    // the stages of each repetition run one after the other, so that a drift of the machine's speed touches all
    let stages: &[Stage] = if phases { &[Stage::Replay, Stage::Rows, Stage::Dataset] } else { &[Stage::Dataset] };
    let (mut walls, mut cpus) = (Vec::new(), vec![Vec::new(); stages.len()]);
    let mut last = None;
    for k in 0..(*repeat).max(1) {
        for (i, &stage) in stages.iter().enumerate() {
            let out = scratch.join(format!("out-{k}-{i}"));
            let opts = haifu_ingest::pipeline::IngestOptions {
                out: out.clone(),
                jobs: *jobs,
                stop_after: stage,
                choices,
                ..Default::default()
            };
            let (t0, c0) = (Instant::now(), cpu_seconds());
            let s = haifu_ingest::pipeline::ingest(&paths, &opts, &haifu_ingest::pipeline::Silent)?;
            let wall = t0.elapsed().as_secs_f64();
            cpus[i].push(cpu_seconds() - c0);
            std::fs::remove_dir_all(&out).ok();
            if stage == Stage::Dataset {
                walls.push(wall);
                last = Some(s);
            }
        }
    }
    std::fs::remove_dir_all(&scratch).ok();
    let s = last.expect("at least one repetition");
    let stage_cpu: Vec<f64> = cpus.iter_mut().map(|c| median(c)).collect();
    let (wall, cpu) = (median(&mut walls), *stage_cpu.last().expect("the whole ingest is a stage"));
    let mb = bytes as f64 / 1e6;
    let mut report = serde_json::json!({
        "files": paths.len(),
        "games": s.games_ingested,
        "decisions": s.decisions,
        "quarantined": s.games_quarantined + s.files_quarantined,
        "mb": mb,
        "jobs": jobs,
        "repeat": repeat,
        "wall_s_median": wall,
        "cpu_s_median": cpu,
        "mb_per_s": mb / wall,
        "mb_per_cpu_s": mb / cpu,
        "games_per_s": s.games_ingested as f64 / wall,
        "games_per_cpu_s": s.games_ingested as f64 / cpu,
    });
    // each stage's own CPU time: the run that stops after it less the run that stops before it
    let phase_cpu = phases.then(|| [stage_cpu[0], stage_cpu[1] - stage_cpu[0], stage_cpu[2] - stage_cpu[1]]);
    if let Some([replay, rows, parquet]) = phase_cpu {
        report["phases_cpu_s"] = serde_json::json!({ "replay": replay, "rows": rows, "parquet": parquet });
    }
    if *json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "ingest bench: {} files, {:.1} MB, {} games, jobs={jobs}: wall {wall:.3}s, cpu {cpu:.3}s (medians of {repeat}) \
             -> {:.1} MB/s, {:.1} MB per CPU-second, {:.0} games/s",
            paths.len(),
            mb,
            s.games_ingested,
            mb / wall,
            mb / cpu,
            s.games_ingested as f64 / wall
        );
        if let Some([replay, rows, parquet]) = phase_cpu {
            let share = |x: f64| 100.0 * x / cpu;
            println!(
                "  by stage (CPU medians, each the difference of two runs): read, parse and replay {replay:.3}s \
                 ({:.0}%), the tables' rows {rows:.3}s ({:.0}%), Parquet (encode, compress, write, commit) \
                 {parquet:.3}s ({:.0}%)",
                share(replay),
                share(rows),
                share(parquet)
            );
        }
    }
    Ok(())
}
