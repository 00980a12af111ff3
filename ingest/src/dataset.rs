//! The dataset on disk: hive-partitioned Parquet tables, written atomically, and the manifest of what has
//! been ingested.
//!
//! Layout under the output directory:
//! - `<table>/year=<YYYY>/part-<run>-<seq>.parquet` for `games`, `rounds`, `events`, `decisions`, `choices`
//!   (`year=__HIVE_DEFAULT_PARTITION__` when the date is unknown: Polars and Spark read it as null);
//! - `_haifu/parts.jsonl`: one line per part file a commit adds (table, partition, rows, bytes, checksum): what
//!   readers read, exactly ([`crate::parts`]);
//! - `_haifu/manifest.jsonl`: one line per ingested source file (content hash, path, run, games);
//! - `_haifu/runs.jsonl`: one line per committed run, with its summary;
//! - `_haifu/quarantine.jsonl`: the files and games a run could not ingest, with the reason.
//!
//! A run writes hidden temporary files and renames them when it commits; a run that did not commit leaves
//! no visible part, and the next run removes its leftovers.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use arrow::datatypes::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::ColumnPath;
use serde::{Deserialize, Serialize};

use crate::batches::{GameRow, TableBatch};
use crate::files::{append_atomic, text_column_properties, writer_properties};

/// The tables, in the order they are listed in docs/SCHEMA.md.
pub const TABLES: [&str; 5] = ["games", "rounds", "events", "decisions", "choices"];

/// Hive's name for a null partition value.
pub const NULL_PARTITION: &str = "__HIVE_DEFAULT_PARTITION__";

use crate::parts::{PartEntry, META_DIR};

/// Rows per row group, per table: small enough to stream, large enough to compress well.
fn rows_per_group(table: &str) -> usize {
    match table {
        "events" => 131_072,
        // a row group's columns each make a zstd context (its compressor and decompressor): a row group of
        // 65,536 rows makes half as many as of 32,768
        "decisions" | "choices" => 65_536,
        _ => 16_384,
    }
}

/// One source file recorded in the manifest.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ManifestEntry {
    pub hash: String,
    pub file: String,
    pub run: String,
    pub games: u32,
    pub games_quarantined: u32,
}

/// The dataset's manifest: content hashes of the files its committed runs ingested. A line of a run that did not
/// commit (killed after its manifest lines, before its run line) is left out: that run's parts are removed as
/// stale, so its files must be read again.
pub fn read_manifest(out: &Path) -> Result<Vec<ManifestEntry>> {
    let path = out.join(META_DIR).join("manifest.jsonl");
    if !path.exists() {
        return Ok(Vec::new());
    }
    let runs = crate::parts::committed_runs(out)?;
    let f = File::open(&path).with_context(|| format!("opening {}", path.display()))?;
    let mut v = Vec::new();
    for (i, line) in BufReader::new(f).lines().enumerate() {
        let line = line.with_context(|| format!("reading {}", path.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        let e: ManifestEntry =
            serde_json::from_str(&line).with_context(|| format!("{} line {}", path.display(), i + 1))?;
        if runs.contains(&e.run) {
            v.push(e);
        }
    }
    Ok(v)
}

/// Removes temporary files and parts of runs that never committed; returns how many. Only a writer holding the
/// dataset's lock ([`crate::lock::WriterLock`]) may call it: another writer's staged files look the same.
pub fn clean_uncommitted(out: &Path) -> Result<usize> {
    let runs = crate::parts::committed_runs(out)?;
    let mut removed = remove_run_files(out, |name| {
        // part-<run>-<seq>.parquet
        let run = name.strip_prefix("part-").and_then(|r| r.strip_suffix(".parquet")).and_then(|r| r.rsplit_once('-'));
        name.ends_with(".tmp") || run.is_some_and(|(r, _)| !runs.contains(r))
    })?;
    // a list of `_haifu` rewritten through a temporary file that a kill left
    let meta = out.join(META_DIR);
    if meta.is_dir() {
        for f in std::fs::read_dir(&meta).with_context(|| format!("listing {}", meta.display()))? {
            let p = f?.path();
            if p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".tmp")) {
                std::fs::remove_file(&p).with_context(|| format!("removing {}", p.display()))?;
                removed += 1;
            }
        }
    }
    Ok(removed)
}

/// Removes what a run that fails leaves: its staged and its renamed parts (no run line lists them), so that a
/// failure (a full disk) leaves no file behind.
pub fn discard_run(out: &Path, run: &str) {
    let (hidden, shown) = (format!(".part-{run}-"), format!("part-{run}-"));
    let _ = remove_run_files(out, |name| name.starts_with(&hidden) || name.starts_with(&shown));
}

/// Removes the files of the tables' partition folders whose name `stale` takes; returns how many.
fn remove_run_files(out: &Path, stale: impl Fn(&str) -> bool) -> Result<usize> {
    let mut removed = 0;
    for table in TABLES {
        let dir = out.join(table);
        if !dir.exists() {
            continue;
        }
        for part in std::fs::read_dir(&dir)? {
            let part = part?.path();
            if !part.is_dir() {
                continue;
            }
            for f in std::fs::read_dir(&part)? {
                let p = f?.path();
                if p.file_name().and_then(|n| n.to_str()).is_some_and(&stale) {
                    std::fs::remove_file(&p).with_context(|| format!("removing {}", p.display()))?;
                    removed += 1;
                }
            }
        }
    }
    Ok(removed)
}

struct Part<B: TableBatch> {
    batch: B,
    writer: Option<ArrowWriter<File>>,
    dir: PathBuf,
    run: String,
    /// Files of this partition so far: the closed ones, then the open one (last).
    files: Vec<Staged>,
    row_groups: usize,
}

/// A closed part file waiting for the run to commit: hidden under `tmp` until renamed to `path`.
#[derive(Debug)]
pub struct Staged {
    tmp: PathBuf,
    path: PathBuf,
    rows: u64,
    /// [`crate::parts::game_id_digest`] of its rows.
    game_ids: u64,
}

impl Staged {
    fn commit(&self) -> Result<Option<PathBuf>> {
        if self.rows == 0 {
            return Ok(None);
        }
        std::fs::rename(&self.tmp, &self.path).with_context(|| format!("renaming {}", self.tmp.display()))?;
        Ok(Some(self.path.clone()))
    }
    /// Removes the temporary file (a run that does not commit).
    pub fn discard(&self) {
        let _ = std::fs::remove_file(&self.tmp);
    }
}

/// Row groups per part file: a writer keeps every row group's metadata until it closes the file, so long
/// runs roll over to a new file to keep memory flat.
const ROW_GROUPS_PER_FILE: usize = 64;

impl<B: TableBatch> Part<B> {
    fn new(dir: &Path, run: &str) -> Part<B> {
        Part {
            batch: B::default(),
            writer: None,
            dir: dir.to_path_buf(),
            run: run.to_string(),
            files: Vec::new(),
            row_groups: 0,
        }
    }

    fn push(&mut self, g: &GameRow<'_>, props: &WriterProperties) -> Result<()> {
        self.batch.push(g);
        if self.batch.len() >= rows_per_group(B::NAME) {
            self.flush(props)?;
        }
        Ok(())
    }

    fn flush(&mut self, props: &WriterProperties) -> Result<()> {
        if self.batch.is_empty() {
            return Ok(());
        }
        if self.writer.is_none() {
            std::fs::create_dir_all(&self.dir).with_context(|| format!("creating {}", self.dir.display()))?;
            let seq = self.files.len();
            let staged = Staged {
                tmp: self.dir.join(format!(".part-{}-{seq:04}.parquet.tmp", self.run)),
                path: self.dir.join(format!("part-{}-{seq:04}.parquet", self.run)),
                rows: 0,
                game_ids: 0,
            };
            let file = File::create(&staged.tmp).with_context(|| format!("creating {}", staged.tmp.display()))?;
            self.writer = Some(ArrowWriter::try_new(file, B::schema(), Some(props.clone()))?);
            self.files.push(staged);
            self.row_groups = 0;
        }
        let rb = self.batch.finish();
        let staged = self.files.last_mut().expect("file opened with the writer");
        let w = self.writer.as_mut().expect("writer opened above");
        // one batch = one row group, so that readers can stream
        w.write(&rb).and_then(|_| w.flush()).with_context(|| format!("writing {}", staged.tmp.display()))?;
        staged.rows += rb.num_rows() as u64;
        staged.game_ids = staged.game_ids.wrapping_add(crate::parts::game_id_digest(&rb));
        self.row_groups += 1;
        if self.row_groups >= ROW_GROUPS_PER_FILE {
            self.close_file()?;
        }
        Ok(())
    }

    fn close_file(&mut self) -> Result<()> {
        if let Some(w) = self.writer.take() {
            let tmp = &self.files.last().expect("file opened with the writer").tmp;
            w.close().with_context(|| format!("writing {}", tmp.display()))?;
        }
        Ok(())
    }

    /// Writes the footers; the files stay hidden until the run commits.
    fn close(mut self, props: &WriterProperties) -> Result<Vec<Staged>> {
        self.flush(props)?;
        self.close_file()?;
        Ok(self.files)
    }
}

/// The hive folder name of a year partition (`year=2019`; a game without a date goes to the null partition).
pub fn partition_name(year: Option<i32>) -> String {
    match year {
        Some(y) => format!("year={y}"),
        None => format!("year={NULL_PARTITION}"),
    }
}

/// One table of one run: a part file per year partition. Each table can be written on its own thread.
pub struct TableWriter<B: TableBatch> {
    dir: PathBuf,
    run: String,
    props: WriterProperties,
    parts: HashMap<Option<i32>, Part<B>>,
    /// Rows built and dropped unencoded ([`TableWriter::rows_only`]); `None` in an ingest.
    rows_only: Option<B>,
}

impl<B: TableBatch> TableWriter<B> {
    pub fn write_game(&mut self, g: &GameRow<'_>) -> Result<()> {
        if let Some(b) = &mut self.rows_only {
            b.push(g);
            if b.len() >= rows_per_group(B::NAME) {
                let _unencoded = b.finish();
            }
            return Ok(());
        }
        let year = g.date.map(|d| d.0);
        let (dir, run) = (&self.dir, &self.run);
        let part = self.parts.entry(year).or_insert_with(|| Part::new(&dir.join(partition_name(year)), run));
        part.push(g, &self.props)
    }

    /// A writer that builds the table's rows batch by batch, as an ingest does, and drops each batch instead of
    /// encoding it: what encoding and writing cost is an ingest's time less this one's (`haifu bench ingest
    /// --phases`). It writes no file.
    pub fn rows_only(mut self) -> Self {
        self.rows_only = Some(B::default());
        self
    }

    /// Closes every part file; they stay hidden until [`DatasetWriter::commit`].
    pub fn close(self) -> Result<Vec<Staged>> {
        let props = self.props;
        let mut staged = Vec::new();
        for p in self.parts.into_values() {
            staged.extend(p.close(&props)?);
        }
        Ok(staged)
    }
}

/// The dataset tables' writer properties: [`text_column_properties`], and min/max statistics only where a
/// reader can skip a row group by them. A table's rows come in game order, so `game_id` and the games'
/// `date` do; every other column spans nearly its whole range in any row group (all seats, tiles, turns and
/// ratings), and comparing each value for its statistics was 2.7% of an ingest's instructions (callgrind,
/// docs/PERFORMANCE.md). The events' `attrs` text has no dictionary: it seldom repeats (each `INIT` has its
/// seed, each `AGARI` its hand), so a dictionary only filled up and was dropped. Nor has their `kind`: a draw
/// and a discard alternate, which zstd takes to a few bits each, and interning every event's kind was 1.1% of
/// an ingest's instructions for 1.5% of the events' bytes (callgrind, docs/PERFORMANCE.md).
fn table_properties(schema: &SchemaRef, props: WriterProperties) -> WriterProperties {
    let mut b = text_column_properties(schema, props).into_builder().set_statistics_enabled(EnabledStatistics::None);
    for ordered in ["game_id", "date"] {
        b = b.set_column_statistics_enabled(ColumnPath::from(ordered), EnabledStatistics::Page);
    }
    for plain in ["attrs", "kind"] {
        b = b.set_column_dictionary_enabled(ColumnPath::from(plain), false);
    }
    b.build()
}

/// The bookkeeping of one run: table writers, the manifest lines and the quarantine list, and the commit.
pub struct DatasetWriter {
    out: PathBuf,
    run: String,
    props: WriterProperties,
    manifest: Vec<ManifestEntry>,
    quarantine: Vec<serde_json::Value>,
}

impl DatasetWriter {
    pub fn new(out: &Path, run: &str) -> Result<DatasetWriter> {
        std::fs::create_dir_all(out.join(META_DIR)).with_context(|| format!("creating {}", out.display()))?;
        let props = writer_properties().build();
        Ok(DatasetWriter {
            out: out.to_path_buf(),
            run: run.to_string(),
            props,
            manifest: Vec::new(),
            quarantine: Vec::new(),
        })
    }

    pub fn run_id(&self) -> &str {
        &self.run
    }

    /// A writer for one table of this run.
    pub fn table<B: TableBatch>(&self) -> TableWriter<B> {
        TableWriter {
            dir: self.out.join(B::NAME),
            run: self.run.clone(),
            props: table_properties(&B::schema(), self.props.clone()),
            parts: HashMap::new(),
            rows_only: None,
        }
    }

    /// Records a source file for the manifest (written at commit).
    pub fn record_source(&mut self, entry: ManifestEntry) {
        self.manifest.push(entry);
    }

    /// Records a quarantined file or game for `_haifu/quarantine.jsonl` (written at commit).
    pub fn record_quarantine(&mut self, item: serde_json::Value) {
        self.quarantine.push(item);
    }

    /// Renames the closed part files into place, then appends the part list, the manifest, the quarantine
    /// list and the run line (the run, and its parts, count as committed once its line is there).
    pub fn commit(self, staged: &[Staged], summary: &serde_json::Value) -> Result<Vec<PathBuf>> {
        let mut written = Vec::new();
        let mut parts = Vec::new();
        for s in staged {
            if let Some(path) = s.commit()? {
                parts.push(self.part_entry(&path, s.rows, s.game_ids)?);
                written.push(path);
            }
        }
        crate::parts::append(&self.out, &parts)?;
        crate::shapes::write_lookup(&self.out)?;
        let meta = self.out.join(META_DIR);
        let mut lines = String::new();
        for e in &self.manifest {
            lines.push_str(&serde_json::to_string(e)?);
            lines.push('\n');
        }
        append_atomic(&meta.join("manifest.jsonl"), &lines)?;
        let mut quarantine = String::new();
        for q in &self.quarantine {
            quarantine.push_str(&serde_json::to_string(&serde_json::json!({ "run": self.run, "item": q }))?);
            quarantine.push('\n');
        }
        if !quarantine.is_empty() {
            append_atomic(&meta.join("quarantine.jsonl"), &quarantine)?;
        }
        let mut run_line = serde_json::json!({ "run": self.run });
        if let (Some(obj), Some(s)) = (run_line.as_object_mut(), summary.as_object()) {
            obj.extend(s.clone());
        }
        append_atomic(&meta.join("runs.jsonl"), &format!("{run_line}\n"))?;
        written.sort();
        Ok(written)
    }
}

impl DatasetWriter {
    /// The part list's line for a committed file of this run.
    fn part_entry(&self, path: &Path, rows: u64, game_ids: u64) -> Result<PartEntry> {
        let rel = path.strip_prefix(&self.out).with_context(|| format!("{} outside the dataset", path.display()))?;
        let rel = rel.to_string_lossy().replace('\\', "/");
        let mut parts = rel.split('/');
        let (table, partition) = (parts.next().unwrap_or_default(), parts.next().unwrap_or_default());
        let (bytes, xxh3) = crate::parts::fingerprint(path)?;
        Ok(PartEntry {
            op: "add".into(),
            run: self.run.clone(),
            table: table.to_string(),
            partition: partition.to_string(),
            file: rel.clone(),
            rows,
            bytes,
            xxh3,
            schema: crate::parts::SCHEMA_VERSION,
            game_ids: Some(format!("{game_ids:016x}")),
        })
    }
}
