//! The dataset's list of parts (`_haifu/parts.jsonl`): what every reader reads, exactly.
//!
//! Each commit appends one line per part file it adds (table, partition, file, rows, bytes, xxh3 checksum), then
//! its run line (`_haifu/runs.jsonl`): a part counts once its run has committed. `haifu check --adopt` appends
//! `remove` lines for parts another tool rewrote and `add` lines for their replacements, after checking that
//! they hold the same schema and rows. The list is a log: folding it gives the dataset's parts.
//!
//! Readers ([`listed_files`]) take exactly the listed parts: a listed file that is missing or whose size or
//! checksum differs is an error naming it; a `.parquet` file no line lists (a stray copy, a backup, a part of
//! another tool) is left out and reported once. Every engine still reads the tables as plain hive-partitioned
//! Parquet; the list is what haifu's own readers and `haifu check` hold the folders to.

use std::collections::{BTreeMap, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// The folder of the dataset's own files.
pub const META_DIR: &str = "_haifu";
const PARTS: &str = "parts.jsonl";
const RUNS: &str = "runs.jsonl";

/// One line of the part list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartEntry {
    /// `add` (a commit or an adoption records the file) or `remove` (an adoption replaces it).
    pub op: String,
    pub run: String,
    pub table: String,
    /// The hive partition folder, `year=2019`.
    pub partition: String,
    /// The path below the dataset folder: `decisions/year=2019/part-<run>-0000.parquet`.
    pub file: String,
    pub rows: u64,
    pub bytes: u64,
    /// xxh3-64 of the file's bytes, hex.
    pub xxh3: String,
    /// The version of the tables' schema the part was written with ([`SCHEMA_VERSION`]); lines written before
    /// the version was recorded are version 1.
    #[serde(default = "schema_v1")]
    pub schema: u32,
    /// [`game_id_digest`] of the part's rows, hex: what `haifu check --adopt` holds a rewrite to (the same games,
    /// each as many times). Parts listed before it was recorded have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_ids: Option<String>,
}

/// A digest of the `game_id` column of a batch's rows that does not depend on their order and adds over
/// batches and files (a wrapping sum of each id mixed by splitmix64's finalizer: a nanosecond a row, for the
/// millions of rows of the events table): a rewrite that replaced one game's row by a copy of another's changes
/// it, whatever order its writer chose. A batch without the column gives 0.
pub fn game_id_digest(batch: &arrow::record_batch::RecordBatch) -> u64 {
    use arrow::array::AsArray;
    let Some(ids) = batch.column_by_name("game_id").and_then(|c| c.as_primitive_opt::<arrow::datatypes::Int64Type>())
    else {
        return 0;
    };
    ids.values().iter().fold(0u64, |acc, &id| acc.wrapping_add(mix(id as u64)))
}

/// splitmix64's finalizer: every bit of the id moves about half the bits of the result.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The version of the tables' schema this haifu writes and reads (docs/SCHEMA.md): version 2 added the
/// decisions table's integer shape keys; version 3 dropped its text copies (the hand in Tenhou notation, the
/// discard's kind, the six digit strings: the `shapes` lookup gives the digits of a key) and stores the hand as
/// 34 bytes.
pub const SCHEMA_VERSION: u32 = 3;

fn schema_v1() -> u32 {
    1
}

/// Refuses a dataset whose decisions parts are of an older schema than this haifu's, in one line that says
/// what to do (its readers would not find the columns; an ingest into it would mix two schemas).
pub fn require_current_schema(dataset: &Path, parts: &BTreeMap<String, PartEntry>) -> Result<()> {
    if let Some(old) = parts.values().find(|e| e.table == "decisions" && e.schema < SCHEMA_VERSION) {
        bail!(
            "{}: its decisions table has schema version {} (written by an older haifu); this haifu reads version \
             {SCHEMA_VERSION} (integer shape keys, the hand as 34 bytes): ingest the logs again into a new folder (`haifu ingest LOGS \
             --out NEW_DIR`)",
            dataset.display(),
            old.schema
        );
    }
    Ok(())
}

/// A file's size and xxh3-64 checksum.
pub fn fingerprint(path: &Path) -> Result<(u64, String)> {
    let mut f = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut bytes = 0u64;
    loop {
        let n = f.read(&mut buf).with_context(|| format!("reading {}", path.display()))?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
        bytes += n as u64;
    }
    Ok((bytes, format!("{:016x}", h.digest())))
}

/// Runs that committed (their line is in `runs.jsonl`).
pub fn committed_runs(dataset: &Path) -> Result<HashSet<String>> {
    let path = dataset.join(META_DIR).join(RUNS);
    if !path.exists() {
        return Ok(HashSet::new());
    }
    let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let mut runs = HashSet::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let v: serde_json::Value =
            serde_json::from_str(line).with_context(|| format!("{} line {}", path.display(), i + 1))?;
        if let Some(r) = v.get("run").and_then(|r| r.as_str()) {
            runs.insert(r.to_string());
        }
    }
    Ok(runs)
}

/// Whether the dataset keeps a part list (datasets written before it existed do not).
pub fn has_part_list(dataset: &Path) -> bool {
    dataset.join(META_DIR).join(PARTS).is_file()
}

/// The dataset's parts: the part list folded (adds less removes), committed runs only, by file.
pub fn listed_parts(dataset: &Path) -> Result<BTreeMap<String, PartEntry>> {
    let path = dataset.join(META_DIR).join(PARTS);
    if !path.is_file() {
        if committed_runs(dataset)?.is_empty() {
            bail!("{} is not a haifu dataset (no {META_DIR}/{RUNS}): write one with `haifu ingest`", dataset.display());
        }
        bail!(
            "{} was written before datasets listed their parts (no {META_DIR}/{PARTS}): ingest the logs again, or \
             run `haifu check --adopt {}` to record the parts it holds",
            dataset.display(),
            dataset.display()
        );
    }
    let runs = committed_runs(dataset)?;
    let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let mut parts = BTreeMap::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let e: PartEntry = serde_json::from_str(line).with_context(|| format!("{} line {}", path.display(), i + 1))?;
        if !runs.contains(&e.run) {
            continue;
        }
        match e.op.as_str() {
            "add" => {
                parts.insert(e.file.clone(), e);
            }
            "remove" => {
                parts.remove(&e.file);
            }
            op => bail!("{} line {}: unknown op {op:?}", path.display(), i + 1),
        }
    }
    Ok(parts)
}

/// Appends lines to the part list (atomically, as every file of `_haifu`).
pub fn append(dataset: &Path, entries: &[PartEntry]) -> Result<()> {
    let mut text = String::new();
    for e in entries {
        text.push_str(&serde_json::to_string(e)?);
        text.push('\n');
    }
    crate::files::append_atomic(&dataset.join(META_DIR).join(PARTS), &text)
}

/// Every `.parquet` file under a table's folder, as paths below the dataset folder (`decisions/year=.../x`).
pub fn files_on_disk(dataset: &Path, table: &str) -> Result<Vec<String>> {
    let dir = dataset.join(table);
    let mut out = Vec::new();
    if !dir.is_dir() {
        return Ok(out);
    }
    for part in std::fs::read_dir(&dir).with_context(|| format!("listing {}", dir.display()))? {
        let part = part?.path();
        if !part.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&part).with_context(|| format!("listing {}", part.display()))? {
            let p = f?.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let partition = part.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.ends_with(".parquet") && !name.starts_with('.') {
                out.push(format!("{table}/{partition}/{name}"));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Files already reported as unlisted in this process (each is reported once).
static REPORTED: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);

/// The listed part files of `table`, sorted, each checked against the list (present, same size and checksum),
/// and their rows against what the runs ingested ([`run_totals`]): a part whose line is lost would otherwise
/// shrink every answer without a word. Files in the table's folders that no commit lists are left out, with
/// one line on stderr each.
pub fn listed_files(dataset: &Path, table: &str) -> Result<Vec<PathBuf>> {
    let parts = listed_parts(dataset)?;
    require_current_schema(dataset, &parts)?;
    let listed: Vec<&PartEntry> = parts.values().filter(|e| e.table == table).collect();
    listed.par_iter().try_for_each(|e| check_part(dataset, e))?;
    let known: HashSet<&str> = listed.iter().map(|e| e.file.as_str()).collect();
    let unlisted: Vec<String> =
        files_on_disk(dataset, table)?.into_iter().filter(|f| !known.contains(f.as_str())).collect();
    // the listed rows are the parts' own (each part's checksum held above): only the small run lines are read
    let held: u64 = listed.iter().map(|e| e.rows).sum();
    let ingested = run_totals(dataset)?.get(table).copied().unwrap_or(0);
    if held != ingested {
        let why = if held < ingested {
            format!("{} rows missing: {META_DIR}/{PARTS} lacks the line of a part", ingested - held)
        } else {
            format!("{} rows more than the summaries of {META_DIR}/{RUNS} say", held - ingested)
        };
        let on_disk = if unlisted.is_empty() {
            "no unlisted file is in its folders".to_string()
        } else {
            format!("files no line lists: {}", unlisted.join(", "))
        };
        bail!(
            "{}: the {table} table's listed parts hold {held} rows, the runs ingested {ingested} ({why}; {on_disk}): \
             restore the list, or ingest again into a new folder (`haifu check` lists what differs)",
            dataset.display()
        );
    }
    for f in unlisted {
        let path = dataset.join(&f);
        let mut reported = REPORTED.lock().unwrap_or_else(|e| e.into_inner());
        if reported.get_or_insert_with(HashSet::new).insert(path.clone()) {
            eprintln!(
                "haifu: note: {} is not one of the dataset's parts (no commit lists it): left out \
                 (`haifu check` lists such files; `haifu check --adopt` records parts another tool rewrote)",
                path.display()
            );
        }
    }
    Ok(listed.iter().map(|e| dataset.join(&e.file)).collect())
}

/// Rows each table should hold: the sums of the committed runs' summaries (`runs.jsonl`, one line a run).
pub fn run_totals(dataset: &Path) -> Result<BTreeMap<String, u64>> {
    let path = dataset.join(META_DIR).join(RUNS);
    let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let mut sums = BTreeMap::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let v: serde_json::Value =
            serde_json::from_str(line).with_context(|| format!("{} line {}", path.display(), i + 1))?;
        for (table, key) in [
            ("games", "games_ingested"),
            ("rounds", "rounds"),
            ("events", "events"),
            ("decisions", "decisions"),
            ("choices", "choices"),
        ] {
            *sums.entry(table.to_string()).or_insert(0) += v.get(key).and_then(serde_json::Value::as_u64).unwrap_or(0);
        }
    }
    Ok(sums)
}

/// A listed part is there, with the size and checksum the list records.
pub fn check_part(dataset: &Path, e: &PartEntry) -> Result<()> {
    let path = dataset.join(&e.file);
    if !path.is_file() {
        bail!(
            "{} is missing: the dataset lists it ({} rows of {}, run {}); restore it, or ingest again into a new folder",
            path.display(),
            e.rows,
            e.table,
            e.run
        );
    }
    let (bytes, xxh3) = fingerprint(&path)?;
    if (bytes, xxh3.as_str()) != (e.bytes, e.xxh3.as_str()) {
        bail!(
            "{} differs from the part the dataset lists ({} bytes, xxh3 {}; found {bytes} bytes, xxh3 {xxh3}): \
             restore it, or record a rewrite with `haifu check --adopt`",
            path.display(),
            e.bytes,
            e.xxh3
        );
    }
    Ok(())
}
