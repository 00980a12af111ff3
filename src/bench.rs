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
        #[arg(long)]
        json: bool,
    },
}

/// CPU time (user + system) of this process so far, in seconds.
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
    let BenchCommand::Ingest { inputs, jobs, repeat, scratch, json } = cmd;
    if inputs.is_empty() {
        bail!("give the files to measure, e.g. haifu bench ingest ../shared/corpus/mjlog");
    }
    let files = haifu_ingest::source::expand_inputs(inputs, &[])?;
    let scratch =
        scratch.clone().unwrap_or_else(|| std::env::temp_dir().join(format!("haifu-bench-{}", std::process::id())));
    let plain = scratch.join("input");
    std::fs::create_dir_all(&plain).with_context(|| format!("creating {}", plain.display()))?;
    let mut bytes = 0u64;
    let mut paths = Vec::with_capacity(files.len());
    for (i, f) in files.iter().enumerate() {
        let raw = std::fs::read(f).with_context(|| format!("reading {}", f.display()))?;
        let Ok(text) = haifu_ingest::source::decompress(raw) else { continue };
        let name = f.file_name().map(|n| n.to_string_lossy().replace(".gz", "")).unwrap_or_default();
        let p = plain.join(format!("{i:06}-{name}"));
        bytes += text.len() as u64;
        std::fs::write(&p, text)?;
        paths.push(p);
    }
    let (mut walls, mut cpus) = (Vec::new(), Vec::new());
    let mut last = None;
    for k in 0..(*repeat).max(1) {
        let out = scratch.join(format!("out-{k}"));
        let opts = haifu_ingest::pipeline::IngestOptions { out: out.clone(), jobs: *jobs, strict: false };
        let (t0, c0) = (Instant::now(), cpu_seconds());
        let s = haifu_ingest::pipeline::ingest(&paths, &opts, &haifu_ingest::pipeline::Silent)?;
        walls.push(t0.elapsed().as_secs_f64());
        cpus.push(cpu_seconds() - c0);
        std::fs::remove_dir_all(&out).ok();
        last = Some(s);
    }
    std::fs::remove_dir_all(&scratch).ok();
    let s = last.expect("at least one repetition");
    let (wall, cpu) = (median(&mut walls), median(&mut cpus));
    let mb = bytes as f64 / 1e6;
    let report = serde_json::json!({
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
    }
    Ok(())
}
