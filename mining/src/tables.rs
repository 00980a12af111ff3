//! Writing the sequence tables of a mining run (docs/SCHEMA.md, "Sequence tables"): `sequences.parquet`,
//! `players.parquet`, `shapes.parquet` (the digits of every shape key the counts use) and `meta.json`, each
//! written to a hidden temporary file and renamed, so that a reader never sees half a table.

use std::path::Path;

use anyhow::{Context, Result};
use arrow::array::RecordBatch;
use arrow::datatypes::{DataType, SchemaRef};
use haifu_ingest::columns;
use haifu_ingest::columns::{Code, Coded, Names, Table, UInt32, UInt64, Utf8};
pub use haifu_ingest::files::atomic_write;
use parquet::arrow::arrow_writer::ArrowWriterOptions;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::properties::{WriterProperties, WriterPropertiesBuilder};
use parquet::schema::types::ColumnPath;

use crate::mine::{Mined, SeqCount, SOURCES};
use crate::strategy::Strategy;

pub const SEQUENCES: &str = "sequences.parquet";
pub const PLAYERS: &str = "players.parquet";
pub const META: &str = "meta.json";
/// The key -> digits lookup beside the counts (the dataset's `shapes.parquet` schema).
pub const SHAPES: &str = haifu_ingest::shapes::FILE;

/// The version of the tables' layout, in `meta.json` as `tables_version`. 2: shapes as keys only, their digits
/// in [`SHAPES`] (version 1, unnumbered, also held the digits as text in every row).
pub const TABLES_VERSION: u64 = 2;

/// Writes the record batches `next` hands out (until `None`) as one Parquet file with the mining tables'
/// [`table_properties`].
pub fn write_parquet(path: &Path, schema: SchemaRef, next: impl FnMut() -> Option<RecordBatch>) -> Result<()> {
    let props = table_properties(&schema).build();
    write_with(path, schema, props, next)
}

/// Writes the rows `fill` pushes into a fresh table as one Parquet file of one record batch: the small tables
/// (players, profiles, choice and habit counts) that fit in memory whole.
pub fn write_table<T: Table + Default>(path: &Path, fill: impl FnOnce(&mut T)) -> Result<()> {
    let mut fill = Some(fill);
    write_parquet(path, T::schema(), || {
        let mut t = T::default();
        fill.take()?(&mut t);
        Some(t.finish())
    })
}

/// The writer properties of a mining table. Snappy, as DuckDB and Spark write by default: zstd's level 1 took a
/// fifth of a whole `haifu mine` for a table 30% smaller (5.9 against 8.5 MB on the corpus,
/// docs/PERFORMANCE.md), and the tables are remade from the dataset in a second. A [`Coded`] column (a few
/// names in runs of thousands of rows) is written as plain text that zstd shrinks to a few bytes a run:
/// interning every row into a dictionary page was an eighth of the instructions of a `haifu mine`.
fn table_properties(schema: &SchemaRef) -> WriterPropertiesBuilder {
    let props = WriterProperties::builder().set_compression(Compression::SNAPPY).build();
    let mut b = haifu_ingest::files::text_column_properties(schema, props).into_builder();
    for f in schema.fields() {
        if matches!(f.data_type(), DataType::Dictionary(..)) {
            let column = ColumnPath::new(vec![f.name().clone()]);
            b = b
                .set_column_dictionary_enabled(column.clone(), false)
                .set_column_compression(column, Compression::ZSTD(ZstdLevel::default()));
        }
    }
    b
}

/// [`write_parquet`] with `props`. No Arrow schema hint: the file's own types say what every reader gets, so
/// a [`Coded`] column reads back as text.
fn write_with(
    path: &Path,
    schema: SchemaRef,
    props: WriterProperties,
    mut next: impl FnMut() -> Option<RecordBatch>,
) -> Result<()> {
    let options = ArrowWriterOptions::new().with_properties(props).with_skip_arrow_metadata(true);
    atomic_write(path, |f| {
        let mut w = ArrowWriter::try_new_with_options(f, schema, options)?;
        while let Some(b) = next() {
            w.write(&b)?;
        }
        w.close()?;
        Ok(())
    })
}

/// The sequence table's properties: rows sorted by (scope, strategy, source, before, after) make `before_key`
/// ascending in runs, and most counts are small, so both are delta-encoded (a few bits a row) and left
/// uncompressed; `after_key` (ascending only within one before key) is stored plain: snappy took 2% of a
/// `haifu mine` to save a third of its 5 MB. The table is about as large as with snappy on every column (8.56
/// against 8.47 MB on the corpus).
fn sequence_properties(schema: &SchemaRef) -> WriterProperties {
    let mut b = table_properties(schema);
    for (name, encoding) in [
        ("before_key", Some(Encoding::DELTA_BINARY_PACKED)),
        ("count", Some(Encoding::DELTA_BINARY_PACKED)),
        ("after_key", None),
    ] {
        let column = ColumnPath::new(vec![name.to_string()]);
        if let Some(e) = encoding {
            b = b.set_column_encoding(column.clone(), e);
        }
        b = b.set_column_compression(column, Compression::UNCOMPRESSED);
    }
    b.build()
}

/// Rows of the sequence table written per batch: the builders' buffers are reused from one to the next
/// instead of a table-sized set of fresh pages (a mining run can count millions of rows).
const SEQUENCE_ROWS_PER_BATCH: usize = 65_536;

/// The names a count's codes stand for: its scope, strategy and source.
pub struct CountNames {
    pub scopes: Names,
    pub strategies: Names,
    pub sources: Names,
}

impl CountNames {
    pub fn new(scopes: &[String]) -> CountNames {
        CountNames {
            scopes: Names::new(scopes.iter().map(String::as_str)),
            strategies: Names::new(Strategy::EVERY.iter().map(|s| s.name())),
            sources: Names::new(SOURCES),
        }
    }
}

/// Some rows of a mining run's counts, with the names of their codes.
pub struct CountRows<'a> {
    pub names: &'a CountNames,
    pub counts: &'a [SeqCount],
}

columns! {
    /// `sequences.parquet`: one row per (scope, strategy, source, before, after) with its count; the shapes as
    /// keys, whose digits `shapes.parquet` holds. The three names are written from their codes (a few dozen
    /// names over a million rows) and read back as text.
    pub struct SequencesTable("sequences") for<'a> |m: CountRows<'a>| {
        let n = m.names;
        for s in m.counts;
    }
    scope: Coded = Code(s.scope, &n.scopes),
    strategy: Coded = Code(u32::from(s.strategy), &n.strategies),
    source: Coded = Code(u32::from(s.source), &n.sources),
    before_key: UInt32 = s.before,
    after_key: UInt32 = s.after,
    count: UInt64 = s.count,
}

columns! {
    /// `players.parquet`: one row per scope and strategy with what was counted.
    pub struct PlayersTable("players") for<'a> |m: Mined| {
        for (sc, st) in (0..m.scopes.len()).flat_map(|sc| (0..Strategy::EVERY.len()).map(move |st| (sc, st)));
        let stats = &m.stats[sc][st];
    }
    scope: Utf8 = m.scopes[sc].as_str(),
    strategy: Utf8 = Strategy::EVERY[st].name(),
    games: UInt32 = m.games[sc],
    rounds: UInt64 = stats.rounds,
    decisions: UInt64 = stats.decisions,
    sequences: UInt64 = stats.sequences,
    distinct: UInt64 = stats.distinct,
}

/// The shape keys that `counts` use, ascending, each once.
fn keys_used(counts: &[SeqCount]) -> Vec<u32> {
    // a bit per possible key (5^9): marking is one pass, and the set bits come out sorted
    let mut seen = vec![0u64; (5usize.pow(9)).div_ceil(64)];
    for c in counts {
        for k in [c.before, c.after] {
            seen[k as usize / 64] |= 1 << (k % 64);
        }
    }
    let mut keys = Vec::new();
    for (i, &word) in seen.iter().enumerate() {
        let mut w = word;
        while w != 0 {
            keys.push(i as u32 * 64 + w.trailing_zeros());
            w &= w - 1;
        }
    }
    keys
}

/// The files of a tables folder.
pub const TABLE_FILES: [&str; 4] = [SEQUENCES, PLAYERS, SHAPES, META];

/// Writes the four files of a mining run as the folder `dir`, replacing an older one as a whole
/// ([`haifu_ingest::folder::replace_folder`]: a kill never leaves new tables beside old ones). `meta` is the
/// JSON object recorded as `meta.json` (options, input, counts), with `tables_version` added.
pub fn write_tables(dir: &Path, mined: &Mined, meta: &serde_json::Value) -> Result<()> {
    haifu_ingest::folder::replace_folder(dir, &TABLE_FILES, |staging| write_tables_into(staging, mined, meta))
}

/// Writes the four files of a mining run into the folder `dir` (created if needed), beside what it holds: the
/// filling of a folder that [`haifu_ingest::folder::replace_folder`] then swaps in.
pub fn write_tables_into(dir: &Path, mined: &Mined, meta: &serde_json::Value) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut chunks = mined.counts.chunks(SEQUENCE_ROWS_PER_BATCH);
    let mut sequences = SequencesTable::default();
    let names = CountNames::new(&mined.scopes);
    let schema = SequencesTable::schema();
    write_with(&dir.join(SEQUENCES), schema.clone(), sequence_properties(&schema), || {
        sequences.push(&CountRows { names: &names, counts: chunks.next()? });
        Some(sequences.finish())
    })?;
    write_table(&dir.join(PLAYERS), |t: &mut PlayersTable| t.push(mined))?;
    haifu_ingest::shapes::write_shapes(&dir.join(SHAPES), &keys_used(&mined.counts))?;
    let mut meta = meta.clone();
    if let Some(o) = meta.as_object_mut() {
        o.insert("tables_version".into(), TABLES_VERSION.into());
    }
    atomic_write(&dir.join(META), |mut f| {
        use std::io::Write;
        serde_json::to_writer_pretty(&mut f, &meta)?;
        f.write_all(b"\n")?;
        Ok(())
    })
}

/// Counts read back from `sequences.parquet`: (scope, strategy) -> (before key, after key) -> count, summed
/// over sources.
pub type SequenceCounts = hashbrown::HashMap<(String, Strategy), hashbrown::HashMap<(u32, u32), u64>>;

/// `dir/meta.json` as written by `haifu mine`; `None` when the file is absent.
pub fn read_meta(dir: &Path) -> Result<Option<serde_json::Value>> {
    let path = dir.join(META);
    match std::fs::read_to_string(&path) {
        Ok(text) => Ok(Some(serde_json::from_str(&text).with_context(|| format!("{} is not JSON", path.display()))?)),
        Err(_) => Ok(None),
    }
}

/// One row of `sequences.parquet` as the readers see it.
#[derive(Clone, Copy, Debug)]
pub struct CountRow<'a> {
    pub scope: &'a str,
    pub strategy: &'a str,
    pub source: &'a str,
    pub before: u32,
    pub after: u32,
    pub count: u64,
}

/// Calls `f` with every row of `dir/sequences.parquet`, in file order; a missing file is an error that says
/// how to make it.
pub fn for_each_count(dir: &Path, mut f: impl FnMut(CountRow<'_>) -> Result<()>) -> Result<()> {
    use crate::dataset::cast_to;
    use arrow::array::AsArray;
    use arrow::datatypes::{UInt32Type, UInt64Type};
    let path = dir.join(SEQUENCES);
    if !path.is_file() {
        anyhow::bail!("no sequence table at {} (write it with `haifu mine --out {}`)", path.display(), dir.display());
    }
    // the four files are one result: counts without their statistics, options or shapes are not read as whole
    for other in [PLAYERS, SHAPES, META] {
        if !dir.join(other).is_file() {
            let older = other == SHAPES && dir.join(META).is_file();
            anyhow::bail!(
                "the tables at {} are {}: {other} is missing ({SEQUENCES}, {PLAYERS}, {SHAPES} and {META} are \
                 written together by `haifu mine --out {}`; mine again)",
                dir.display(),
                if older { "from an older haifu, with the shapes as text in every row" } else { "incomplete" },
                dir.display()
            );
        }
    }
    let version = read_meta(dir)?.and_then(|m| m["tables_version"].as_u64()).unwrap_or(1);
    if version != TABLES_VERSION {
        anyhow::bail!(
            "the tables at {} have layout version {version}, this haifu reads version {TABLES_VERSION} (shapes as \
             keys, their digits in {SHAPES}): mine again (`haifu mine --out {}`)",
            dir.display(),
            dir.display()
        );
    }
    let columns = ["scope", "strategy", "source", "before_key", "after_key", "count"];
    crate::dataset::for_each_batch(&path, &columns, |b| {
        let text = |n: &str| cast_to(b, n, &DataType::Utf8, &path);
        let (scope, strategy, source) = (text("scope")?, text("strategy")?, text("source")?);
        let (scope, strategy, source) =
            (scope.as_string::<i32>(), strategy.as_string::<i32>(), source.as_string::<i32>());
        let before = cast_to(b, "before_key", &DataType::UInt32, &path)?;
        let after = cast_to(b, "after_key", &DataType::UInt32, &path)?;
        let count = cast_to(b, "count", &DataType::UInt64, &path)?;
        let (before, after) = (before.as_primitive::<UInt32Type>(), after.as_primitive::<UInt32Type>());
        let count = count.as_primitive::<UInt64Type>();
        for i in 0..b.num_rows() {
            f(CountRow {
                scope: scope.value(i),
                strategy: strategy.value(i),
                source: source.value(i),
                before: before.value(i),
                after: after.value(i),
                count: count.value(i),
            })?;
        }
        Ok(())
    })
}

/// Reads `dir/sequences.parquet`, keeping the given scopes (all when `None`). A named scope that the file
/// does not hold is an error naming the file.
pub fn read_counts(dir: &Path, scopes: Option<&[String]>) -> Result<SequenceCounts> {
    let mut out = SequenceCounts::new();
    let mut seen: hashbrown::HashSet<String> = hashbrown::HashSet::new();
    for_each_count(dir, |r| {
        if !seen.contains(r.scope) {
            seen.insert(r.scope.to_string());
        }
        if scopes.is_some_and(|s| !s.iter().any(|x| x == r.scope)) {
            return Ok(());
        }
        let st: Strategy = r.strategy.parse().map_err(|e: String| anyhow::anyhow!("{e}"))?;
        *out.entry((r.scope.to_string(), st)).or_default().entry((r.before, r.after)).or_insert(0) += r.count;
        Ok(())
    })?;
    if let Some(missing) = scopes.and_then(|s| s.iter().find(|x| !seen.contains(x.as_str()))) {
        anyhow::bail!("{} holds no scope {missing:?}", dir.join(SEQUENCES).display());
    }
    Ok(out)
}
