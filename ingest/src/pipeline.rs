//! The ingest run: files are read, parsed and replayed in parallel (rayon), in chunks whose results go, in
//! input order, to one writer thread per table. Memory is bounded by the chunk size and the row groups in
//! flight, not by the number of inputs.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use arrow::array::{Array, AsArray};
use arrow::datatypes::{Int64Type, UInt32Type};
use rayon::prelude::*;
use serde::Serialize;

use crate::batches::{ChoicesBatch, DecisionsBatch, EventsBatch, GameRow, GamesBatch, RoundsBatch};
use crate::dataset::{clean_uncommitted, read_manifest, DatasetWriter, ManifestEntry, Staged};
use crate::extract::{extract_with, ExtractedGame, ReplayOptions};
use crate::lock::WriterLock;
use crate::source;
use haifu_record::event::GameRecord;
use haifu_record::length::ReadOptions;

/// Files handled per parallel chunk.
const CHUNK: usize = 64;

/// How far an ingest goes. Only [`Stage::Dataset`] writes anything; the earlier stages measure what the stages
/// after them cost (`haifu bench ingest --phases`, docs/PERFORMANCE.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// Read, parse and replay every game, with every check; no table row is built.
    Replay,
    /// The same, and every table's rows built in record batches, which are dropped unencoded.
    Rows,
    /// An ingest: the batches encoded as Parquet, written and committed.
    #[default]
    Dataset,
}

#[derive(Default, Clone, Debug)]
pub struct IngestOptions {
    pub out: PathBuf,
    /// Worker threads (0 = all cores).
    pub jobs: usize,
    /// Fail the run (commit nothing) at the first file or game that cannot be ingested.
    pub strict: bool,
    /// Rules the user states for logs that leave them unsaid (mjai).
    pub read: ReadOptions,
    /// Fail the run (commit nothing) when more files and games than this are quarantined.
    pub max_quarantined: Option<QuarantineLimit>,
    /// Write every game, even one whose play the dataset or the run already holds (copies made on purpose:
    /// measurements at several multiples of a corpus).
    pub keep_duplicates: bool,
    /// Keep a win whose recorded value (AGARI `ten`, `yaku`) is not what its hand is worth, with a note in the
    /// games table, instead of quarantining its game.
    pub keep_misscored: bool,
    /// Write the choices table (every moment a seat could call, win, riichi, kan, abort or extract a north,
    /// and what it did), holding every such action of a log to the rules (a game where one is not is
    /// quarantined).
    pub choices: bool,
    /// Where the run stops ([`Stage::Dataset`]: a whole ingest).
    pub stop_after: Stage,
}

/// `--max-quarantined`: a count (`10`) or a share of the files and games read (`5%`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum QuarantineLimit {
    Count(u64),
    Percent(f64),
}

impl std::str::FromStr for QuarantineLimit {
    type Err = String;
    fn from_str(s: &str) -> Result<QuarantineLimit, String> {
        let bad = || format!("{s:?}: expected a count (10) or a percentage (5%)");
        match s.strip_suffix('%') {
            Some(p) => p
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|p| (0.0..=100.0).contains(p))
                .map(QuarantineLimit::Percent)
                .ok_or_else(bad),
            None => s.trim().parse().map(QuarantineLimit::Count).map_err(|_| bad()),
        }
    }
}

impl std::fmt::Display for QuarantineLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QuarantineLimit::Count(n) => write!(f, "{n}"),
            QuarantineLimit::Percent(p) => write!(f, "{p}%"),
        }
    }
}

impl QuarantineLimit {
    /// Whether `quarantined` of `total` files and games goes beyond the limit.
    pub fn exceeded(self, quarantined: u64, total: u64) -> bool {
        match self {
            QuarantineLimit::Count(n) => quarantined > n,
            QuarantineLimit::Percent(p) => total > 0 && quarantined as f64 * 100.0 > p * total as f64,
        }
    }
}

/// A file or game that could not be ingested, and why.
#[derive(Clone, Debug, Serialize)]
pub struct Quarantined {
    pub file: String,
    /// The game within the file, when the file itself was readable.
    pub game: Option<u32>,
    pub reason: String,
}

/// A game kept although it stops early (complete rounds only).
#[derive(Clone, Debug, Serialize)]
pub struct Truncated {
    pub file: String,
    pub game: u32,
    pub rounds_kept: usize,
    pub reason: String,
}

/// What a run did: printed for people, and as JSON with `--json`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    pub out: String,
    pub run: String,
    pub files_read: u64,
    pub files_skipped: u64,
    pub files_quarantined: u64,
    pub games_ingested: u64,
    pub games_quarantined: u64,
    pub games_truncated: u64,
    pub rounds: u64,
    pub events: u64,
    pub decisions: u64,
    /// Rows of the choices table: moments a seat could do something other than discard.
    pub choices: u64,
    /// Bytes of the files as stored, and after decompression.
    pub input_bytes: u64,
    pub decompressed_bytes: u64,
    pub elapsed_s: f64,
    /// Stale temporary files of an interrupted earlier run, removed at the start.
    pub stale_removed: usize,
    /// Games left out because the same game is in the dataset already, or came earlier in this run (the same
    /// [`GameRecord::play_hash`]: the same game in another format or file).
    pub games_duplicate: u64,
    /// Inputs not read: not regular files (a FIFO, a socket), or the output dataset's own files.
    pub files_ignored: u64,
    pub ignored: Vec<source::Ignored>,
    pub quarantined: Vec<Quarantined>,
    pub truncated: Vec<Truncated>,
    pub duplicates: Vec<Duplicate>,
    pub written: Vec<String>,
}

/// A game ingest left out: the same play as a game it keeps.
#[derive(Clone, Debug, Serialize)]
pub struct Duplicate {
    pub file: String,
    pub game: u32,
    /// The kept game's id in the games table.
    pub same_as_game_id: i64,
    /// The kept game's file and place in it (`FILE game N`), read from the games table once the run is in.
    pub same_as: String,
}

/// Progress of the run, for a progress bar.
pub trait Progress: Sync {
    fn start(&self, _files: u64, _bytes: u64) {}
    fn file_done(&self, _bytes: u64, _games: u64) {}
}

/// No progress display.
pub struct Silent;
impl Progress for Silent {}

struct GameOut {
    record: GameRecord,
    replayed: ExtractedGame,
    play_hash: Option<u64>,
}

struct FileOut {
    /// The path as given, for messages and the `source_file` column.
    name: String,
    hash: String,
    raw_len: u64,
    text_len: u64,
    date: Option<(i32, u32, u32)>,
    games: Vec<GameOut>,
    quarantined: Vec<Quarantined>,
    /// The file could be read at all (it goes into the manifest).
    readable: bool,
    /// Already ingested (same content hash): not parsed again.
    skipped: bool,
}

impl FileOut {
    fn empty(path: &Path, raw_len: u64, hash: String) -> FileOut {
        FileOut {
            name: display(path),
            hash,
            raw_len,
            text_len: 0,
            date: None,
            games: Vec::new(),
            quarantined: Vec::new(),
            readable: false,
            skipped: false,
        }
    }
    fn skipped(path: &Path, raw_len: u64, hash: String) -> FileOut {
        FileOut { skipped: true, ..FileOut::empty(path, raw_len, hash) }
    }
    /// The table row of one of this file's games.
    fn row<'a>(&'a self, g: &'a GameOut) -> GameRow<'a> {
        GameRow {
            game_id: game_id(&self.hash, g.record.index_in_file),
            source_file: &self.name,
            source_hash: &self.hash,
            record: &g.record,
            replayed: &g.replayed,
            date: self.date,
            play_hash: g.play_hash,
        }
    }

    fn unreadable(path: &Path, reason: String) -> FileOut {
        let mut f = FileOut::empty(path, 0, String::new());
        f.quarantined.push(Quarantined { file: display(path), game: None, reason });
        f
    }
}

fn display(p: &Path) -> String {
    source::path_text(p)
}

/// Reads, parses and replays one file.
fn process(path: &Path, raw: Vec<u8>, hash: String, read: &ReadOptions, replay: ReplayOptions) -> FileOut {
    let name = display(path);
    let raw_len = raw.len() as u64;
    let file_name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut out = FileOut::empty(path, raw_len, hash);
    let text = match haifu_record::source::decompress(raw) {
        Ok(t) => t,
        Err(e) => {
            out.quarantined.push(Quarantined { file: name, game: None, reason: e });
            return out;
        }
    };
    out.text_len = text.len() as u64;
    let records = match haifu_record::read_games_with(&file_name, &text, read) {
        Ok(r) => r,
        Err(e) => {
            out.quarantined.push(Quarantined { file: name, game: None, reason: e.to_string() });
            return out;
        }
    };
    out.readable = true;
    out.date = haifu_record::source::find_log_id(&file_name)
        .and_then(|id| haifu_record::source::log_id_date(&id))
        .or_else(|| haifu_record::source::name_date(&file_name));
    for record in records {
        match extract_with(&record, replay) {
            Ok(replayed) => out.games.push(GameOut { play_hash: record.play_hash(), record, replayed }),
            Err(e) => out.quarantined.push(Quarantined {
                file: name.clone(),
                game: Some(record.index_in_file),
                reason: e.to_string(),
            }),
        }
    }
    out
}

/// Adds a file to the summary, the manifest and the quarantine list, and leaves out its games whose play is
/// in `plays` already (adding the others; no `plays`: every game stays); under `--strict` the first problem is
/// an error.
fn account(
    summary: &mut Summary,
    writer: &mut DatasetWriter,
    plays: Option<&mut HashMap<u64, i64>>,
    f: &mut FileOut,
    strict: bool,
) -> Result<()> {
    if f.skipped {
        summary.files_skipped += 1;
        return Ok(());
    }
    summary.files_read += 1;
    summary.input_bytes += f.raw_len;
    summary.decompressed_bytes += f.text_len;
    if !f.readable {
        summary.files_quarantined += 1;
    }
    if let (true, Some(q)) = (strict, f.quarantined.first()) {
        bail!("--strict: {}: {}", q.file, q.reason);
    }
    summary.games_quarantined += f.quarantined.iter().filter(|q| q.game.is_some()).count() as u64;
    for q in &f.quarantined {
        writer.record_quarantine(serde_json::to_value(q)?);
    }
    summary.quarantined.extend(f.quarantined.iter().cloned());
    if let Some(plays) = plays {
        leave_out_duplicates(plays, f, summary);
    }
    for g in &f.games {
        summary.games_ingested += 1;
        summary.rounds += g.replayed.rounds.len() as u64;
        summary.events += g.record.events.len() as u64;
        summary.decisions += g.replayed.decisions.len() as u64;
        summary.choices += g.replayed.choices.len() as u64;
        if let Some(reason) = &g.replayed.truncation {
            summary.games_truncated += 1;
            summary.truncated.push(Truncated {
                file: f.name.clone(),
                game: g.record.index_in_file,
                rounds_kept: g.replayed.rounds.len(),
                reason: reason.clone(),
            });
        }
    }
    if f.readable {
        let run = writer.run_id().to_string();
        writer.record_source(ManifestEntry {
            hash: f.hash.clone(),
            file: f.name.clone(),
            run,
            games: f.games.len() as u32,
            games_quarantined: f.quarantined.len() as u32,
        });
    }
    Ok(())
}

/// Drops the file's games whose play is in `plays` (listing each in the summary with the id of the game it
/// repeats) and adds the plays of the others. The map holds 16 bytes a game: names are looked up at the end,
/// for the duplicates alone ([`name_kept_games`]).
fn leave_out_duplicates(plays: &mut HashMap<u64, i64>, f: &mut FileOut, summary: &mut Summary) {
    let (name, hash) = (&f.name, &f.hash);
    f.games.retain(|g| {
        let Some(play) = g.play_hash else { return true };
        let at = g.record.index_in_file;
        match plays.entry(play) {
            Entry::Occupied(kept) => {
                let (same_as_game_id, same_as) = (*kept.get(), String::new());
                summary.duplicates.push(Duplicate { file: name.clone(), game: at, same_as_game_id, same_as });
                false
            }
            Entry::Vacant(v) => {
                v.insert(game_id(hash, at));
                true
            }
        }
    });
}

/// Fills in each duplicate's `same_as` from the games table (the kept game is there once the run is in); a
/// game the table cannot name is called by its id.
fn name_kept_games(dataset: &Path, duplicates: &mut [Duplicate]) {
    let wanted: HashSet<i64> = duplicates.iter().map(|d| d.same_as_game_id).collect();
    let mut names: HashMap<i64, String> = HashMap::new();
    let columns = ["game_id", "source_file", "index_in_file"];
    for batch in crate::stored::read_columns(dataset, "games", &columns).unwrap_or_default() {
        let (Some(id), Some(file), Some(at)) = (
            batch.column_by_name("game_id").and_then(|c| c.as_primitive_opt::<Int64Type>()),
            batch.column_by_name("source_file").and_then(|c| c.as_string_opt::<i32>()),
            batch.column_by_name("index_in_file").and_then(|c| c.as_primitive_opt::<UInt32Type>()),
        ) else {
            continue;
        };
        for i in (0..batch.num_rows()).filter(|&i| wanted.contains(&id.value(i))) {
            names.insert(id.value(i), format!("{} game {}", file.value(i), at.value(i)));
        }
    }
    for d in duplicates {
        d.same_as = names.get(&d.same_as_game_id).cloned().unwrap_or_else(|| format!("game id {}", d.same_as_game_id));
    }
}

/// [`process`], with a panic turned into a quarantine entry: a bug met on one file must not take down the
/// batch (the reason asks for a report).
fn process_guarded(path: &Path, raw: Vec<u8>, hash: String, read: &ReadOptions, replay: ReplayOptions) -> FileOut {
    let len = raw.len() as u64;
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| process(path, raw, hash.clone(), read, replay)))
        .unwrap_or_else(|e| {
            let what = e
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| e.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            let mut f = FileOut::empty(path, len, hash);
            f.quarantined.push(Quarantined {
                file: display(path),
                game: None,
                reason: format!("internal error while reading this file (please report it): {what}"),
            });
            f
        })
}

/// The plays of the games a dataset holds ([`GameRecord::play_hash`]), each with its game's id. A dataset
/// written before the games table had `play_hash` gives none: its games are not matched.
fn stored_plays(dataset: &Path) -> Result<HashMap<u64, i64>> {
    let mut plays = HashMap::new();
    if !crate::parts::has_part_list(dataset) {
        return Ok(plays);
    }
    // a first run that ingested no game (every file quarantined) commits a part list without a games part:
    // the next run starts from there, it does not fail on the missing table
    if !crate::parts::listed_parts(dataset)?.values().any(|p| p.table == "games") {
        return Ok(plays);
    }
    for batch in crate::stored::read_columns(dataset, "games", &["play_hash", "game_id"])? {
        let (Some(play), Some(id)) = (batch.column_by_name("play_hash"), batch.column_by_name("game_id")) else {
            continue;
        };
        let play = play.as_primitive_opt::<Int64Type>().context("games.play_hash is not Int64")?;
        let id = id.as_primitive_opt::<Int64Type>().context("games.game_id is not Int64")?;
        for i in (0..batch.num_rows()).filter(|&i| play.is_valid(i)) {
            plays.insert(play.value(i) as u64, id.value(i));
        }
    }
    Ok(plays)
}

/// A game id stable across runs: from the file's content hash and the game's place in the file.
pub fn game_id(hash: &str, index: u32) -> i64 {
    let h = xxhash_rust::xxh3::xxh3_64(format!("{hash}:{index}").as_bytes());
    (h >> 1) as i64
}

fn run_id() -> String {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    // no '-' inside: part files are named part-<run>-<seq>
    format!("{}{:09}p{}", now.as_secs(), now.subsec_nanos(), std::process::id())
}

/// Ingests the inputs into the dataset at `opts.out`, holding its writer lock ([`WriterLock`]) from the clean-up
/// of an earlier run's leftovers to the commit. A run that fails removes every file it wrote.
pub fn ingest(inputs: &[PathBuf], opts: &IngestOptions, progress: &dyn Progress) -> Result<Summary> {
    let started = Instant::now();
    std::fs::create_dir_all(&opts.out).with_context(|| format!("creating {}", opts.out.display()))?;
    // the measuring stages write nothing, not even the lock
    let writes = opts.stop_after == Stage::Dataset;
    let _lock = writes.then(|| WriterLock::acquire(&opts.out, "haifu ingest")).transpose()?;
    let (inputs, ignored) = source::screen_inputs(inputs, &opts.out);
    let run = run_id();
    let result = ingest_run(&inputs, ignored, &run, opts, progress, started);
    if result.is_err() {
        crate::dataset::discard_run(&opts.out, &run);
    }
    result
}

fn ingest_run(
    inputs: &[(PathBuf, u64)],
    ignored: Vec<source::Ignored>,
    run: &str,
    opts: &IngestOptions,
    progress: &dyn Progress,
    started: Instant,
) -> Result<Summary> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(opts.jobs).build()?;
    if crate::parts::has_part_list(&opts.out) {
        crate::parts::require_current_schema(&opts.out, &crate::parts::listed_parts(&opts.out)?)?;
    }
    let stale_removed = if opts.stop_after == Stage::Dataset { clean_uncommitted(&opts.out)? } else { 0 };
    let mut seen: HashSet<String> = read_manifest(&opts.out)?.into_iter().map(|e| e.hash).collect();
    let mut plays = if opts.keep_duplicates { None } else { Some(stored_plays(&opts.out)?) };
    let total_bytes: u64 = inputs.iter().map(|(_, len)| len).sum();
    progress.start(inputs.len() as u64, total_bytes);

    let mut writer = DatasetWriter::new(&opts.out, run)?;
    let files_ignored = ignored.len() as u64;
    let mut summary = Summary { out: display(&opts.out), stale_removed, files_ignored, ignored, ..Summary::default() };
    let (tx, rx) = crossbeam_channel::bounded::<Vec<FileOut>>(1);
    let strict = opts.strict;
    let read_opts = opts.read;
    let replay = ReplayOptions { keep_misscored: opts.keep_misscored, choices: opts.choices };
    // one thread per table: encoding Parquet is most of the work, and the tables are independent
    let (mut games, mut rounds, mut events, mut decisions, mut choices) = (
        writer.table::<GamesBatch>(),
        writer.table::<RoundsBatch>(),
        writer.table::<EventsBatch>(),
        writer.table::<DecisionsBatch>(),
        writer.table::<ChoicesBatch>(),
    );
    if opts.stop_after == Stage::Rows {
        (games, rounds, events, decisions, choices) =
            (games.rows_only(), rounds.rows_only(), events.rows_only(), decisions.rows_only(), choices.rows_only());
    }
    let replay_only = opts.stop_after == Stage::Replay;

    let result: Result<Vec<Staged>> = std::thread::scope(|scope| {
        let reader = scope.spawn(move || read_and_replay(inputs, &mut seen, &pool, &tx, &read_opts, replay));
        let mut senders = Vec::new();
        let mut tables = Vec::new();
        macro_rules! table_thread {
            ($w:expr) => {{
                let (ttx, trx) = crossbeam_channel::bounded::<Arc<Vec<FileOut>>>(1);
                senders.push(ttx);
                let mut w = $w;
                tables.push(scope.spawn(move || -> Result<Vec<Staged>> {
                    for chunk in trx {
                        for f in chunk.iter() {
                            for g in &f.games {
                                w.write_game(&f.row(g))?;
                            }
                        }
                    }
                    w.close()
                }));
            }};
        }
        table_thread!(games);
        table_thread!(rounds);
        table_thread!(events);
        table_thread!(decisions);
        table_thread!(choices);

        let mut failure: Option<anyhow::Error> = None;
        'chunks: for mut outs in rx.iter() {
            for f in outs.iter_mut() {
                progress.file_done(f.raw_len, f.games.len() as u64);
                if let Err(e) = account(&mut summary, &mut writer, plays.as_mut(), f, strict) {
                    failure = Some(e);
                    break 'chunks;
                }
            }
            outs.retain(|f| !f.skipped);
            if replay_only {
                continue;
            }
            let chunk = Arc::new(outs);
            for t in &senders {
                // a table thread that stopped has an error to report when joined
                if t.send(Arc::clone(&chunk)).is_err() {
                    break 'chunks;
                }
            }
        }
        drop(rx);
        drop(senders);
        reader.join().map_err(|_| anyhow::anyhow!("reader thread panicked"))?;
        let mut staged = Vec::new();
        for t in tables {
            match t.join().map_err(|_| anyhow::anyhow!("table writer panicked"))? {
                Ok(s) => staged.extend(s),
                Err(e) => {
                    failure.get_or_insert(e);
                }
            }
        }
        match failure {
            Some(e) => {
                staged.iter().for_each(Staged::discard);
                Err(e)
            }
            None => Ok(staged),
        }
    });
    let staged = result?;
    if opts.stop_after < Stage::Dataset {
        // a measurement of the first stages: no part was written, nothing is committed
        summary.elapsed_s = started.elapsed().as_secs_f64();
        return Ok(summary);
    }
    commit_run(staged, summary, writer, opts, started)
}

/// Reads the inputs chunk by chunk and sends each chunk's files parsed and replayed: reading is sequential
/// (the content hash decides what to skip), parsing and replay are parallel.
fn read_and_replay(
    inputs: &[(PathBuf, u64)],
    seen: &mut HashSet<String>,
    pool: &rayon::ThreadPool,
    tx: &crossbeam_channel::Sender<Vec<FileOut>>,
    read_opts: &ReadOptions,
    replay: ReplayOptions,
) {
    for chunk in inputs.chunks(CHUNK) {
        let mut todo = Vec::with_capacity(chunk.len());
        for (p, _) in chunk {
            let read = source::read_log(p);
            let hash = read.as_ref().map(|raw| source::content_hash(raw)).unwrap_or_default();
            let skip = read.is_ok() && !seen.insert(hash.clone());
            todo.push((p, read, hash, skip));
        }
        let outs: Vec<FileOut> = pool.install(|| {
            todo.into_par_iter()
                .map(|(p, read, hash, skip)| match read {
                    Ok(raw) if skip => FileOut::skipped(p, raw.len() as u64, hash),
                    Ok(raw) => process_guarded(p, raw, hash, read_opts, replay),
                    Err(reason) => FileOut::unreadable(p, reason),
                })
                .collect()
        });
        if tx.send(outs).is_err() {
            break;
        }
    }
}

/// Holds the run to `--max-quarantined`, then commits its staged parts and the run line.
fn commit_run(
    staged: Vec<Staged>,
    mut summary: Summary,
    writer: DatasetWriter,
    opts: &IngestOptions,
    started: Instant,
) -> Result<Summary> {
    let quarantined = summary.files_quarantined + summary.games_quarantined;
    let total = summary.games_ingested + quarantined;
    if let Some(limit) = opts.max_quarantined.filter(|l| l.exceeded(quarantined, total)) {
        staged.iter().for_each(Staged::discard);
        let first: Vec<String> =
            summary.quarantined.iter().take(5).map(|q| format!("{}: {}", q.file, q.reason)).collect();
        bail!(
            "{quarantined} of {total} files and games quarantined, beyond --max-quarantined {limit}: nothing \
             committed; the first: {}",
            first.join("; ")
        );
    }
    summary.games_duplicate = summary.duplicates.len() as u64;
    summary.run = writer.run_id().to_string();
    summary.elapsed_s = started.elapsed().as_secs_f64();
    let mut brief = serde_json::to_value(&summary)?;
    if let Some(o) = brief.as_object_mut() {
        // the run line keeps counts, not the lists
        for k in ["quarantined", "truncated", "duplicates", "written"] {
            o.remove(k);
        }
    }
    let written = writer.commit(&staged, &brief)?;
    summary.written = written.iter().map(|p| display(p)).collect();
    if !summary.duplicates.is_empty() {
        name_kept_games(&opts.out, &mut summary.duplicates);
    }
    Ok(summary)
}

/// Writes each `(file name, log text)` as `dir/logs/<file name>` (a Tenhou log id in the name gives the year)
/// and ingests them with `--strict` into `dir/data`, which it returns: a dataset from logs made in memory (the
/// scripted games of tests, a user's generated logs).
pub fn ingest_logs(dir: &Path, logs: &[(&str, String)]) -> Result<PathBuf> {
    let log_dir = dir.join("logs");
    std::fs::create_dir_all(&log_dir).with_context(|| format!("creating {}", log_dir.display()))?;
    for (name, text) in logs {
        std::fs::write(log_dir.join(name), text).with_context(|| format!("writing {name}"))?;
    }
    let out = dir.join("data");
    let inputs = crate::source::expand_inputs(&[log_dir], &[])?;
    let opts = IngestOptions { out: out.clone(), jobs: 1, strict: true, ..IngestOptions::default() };
    let s = ingest(&inputs, &opts, &Silent)?;
    anyhow::ensure!(s.games_ingested as usize == logs.len(), "{} of {} logs ingested", s.games_ingested, logs.len());
    Ok(out)
}
