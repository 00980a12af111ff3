//! Writing the sequence tables of a mining run (docs/SCHEMA.md, "Sequence tables"): `sequences.parquet`,
//! `players.parquet` and `meta.json`, each written to a hidden temporary file and renamed, so that a reader
//! never sees half a table.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use arrow::array::{ArrayRef, RecordBatch, StringArray, UInt32Array, UInt64Array, UInt8Array};
use arrow::datatypes::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;

use crate::mine::{Mined, SOURCES};
use crate::shape::Shape;
use crate::strategy::Strategy;

pub const SEQUENCES: &str = "sequences.parquet";
pub const PLAYERS: &str = "players.parquet";
pub const META: &str = "meta.json";

fn field(name: &str, t: DataType) -> Field {
    Field::new(name, t, false)
}

fn strings<'a>(values: impl Iterator<Item = &'a str>) -> ArrayRef {
    Arc::new(StringArray::from_iter_values(values))
}

/// Writes `path` through a hidden temporary file in the same directory, renamed at the end.
fn atomic_write(path: &Path, write: impl FnOnce(File) -> Result<()>) -> Result<()> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("table");
    let tmp: PathBuf = path.with_file_name(format!(".{name}.tmp"));
    let f = File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
    write(f).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("renaming {} to {}", tmp.display(), path.display()))
}

fn write_parquet(path: &Path, batch: &RecordBatch) -> Result<()> {
    let props = WriterProperties::builder().set_compression(Compression::ZSTD(ZstdLevel::try_new(3)?)).build();
    atomic_write(path, |f| {
        let mut w = ArrowWriter::try_new(f, batch.schema(), Some(props))?;
        w.write(batch)?;
        w.close()?;
        Ok(())
    })
}

/// Writes the three files of a mining run into `dir` (created if needed). `meta` is the JSON object
/// recorded as `meta.json` (options, input, counts).
pub fn write_tables(dir: &Path, mined: &Mined, meta: &serde_json::Value) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let c = &mined.counts;
    let shapes: Vec<(String, String, u8)> = c
        .iter()
        .map(|s| {
            let (b, a) = (Shape::from_key(s.before), Shape::from_key(s.after));
            (b.to_string(), a.to_string(), b.len() as u8)
        })
        .collect();
    let schema = Schema::new(vec![
        field("scope", DataType::Utf8),
        field("strategy", DataType::Utf8),
        field("source", DataType::Utf8),
        field("before", DataType::Utf8),
        field("after", DataType::Utf8),
        field("before_key", DataType::UInt32),
        field("after_key", DataType::UInt32),
        field("length", DataType::UInt8),
        field("count", DataType::UInt64),
    ]);
    let batch = RecordBatch::try_new(
        Arc::new(schema),
        vec![
            strings(c.iter().map(|s| mined.scopes[s.scope as usize].as_str())),
            strings(c.iter().map(|s| Strategy::EVERY[usize::from(s.strategy)].name())),
            strings(c.iter().map(|s| SOURCES[usize::from(s.source)])),
            strings(shapes.iter().map(|s| s.0.as_str())),
            strings(shapes.iter().map(|s| s.1.as_str())),
            Arc::new(UInt32Array::from_iter_values(c.iter().map(|s| s.before))),
            Arc::new(UInt32Array::from_iter_values(c.iter().map(|s| s.after))),
            Arc::new(UInt8Array::from_iter_values(shapes.iter().map(|s| s.2))),
            Arc::new(UInt64Array::from_iter_values(c.iter().map(|s| s.count))),
        ],
    )?;
    write_parquet(&dir.join(SEQUENCES), &batch)?;

    let rows: Vec<(usize, usize)> =
        (0..mined.scopes.len()).flat_map(|sc| (0..Strategy::EVERY.len()).map(move |st| (sc, st))).collect();
    let stat = |f: fn(&crate::mine::ScopeStats) -> u64| -> ArrayRef {
        Arc::new(UInt64Array::from_iter_values(rows.iter().map(|&(sc, st)| f(&mined.stats[sc][st]))))
    };
    let schema = Schema::new(vec![
        field("scope", DataType::Utf8),
        field("strategy", DataType::Utf8),
        field("games", DataType::UInt32),
        field("rounds", DataType::UInt64),
        field("decisions", DataType::UInt64),
        field("sequences", DataType::UInt64),
        field("distinct", DataType::UInt64),
    ]);
    let batch = RecordBatch::try_new(
        Arc::new(schema),
        vec![
            strings(rows.iter().map(|&(sc, _)| mined.scopes[sc].as_str())),
            strings(rows.iter().map(|&(_, st)| Strategy::EVERY[st].name())),
            Arc::new(UInt32Array::from_iter_values(rows.iter().map(|&(sc, _)| mined.games[sc]))),
            stat(|s| s.rounds),
            stat(|s| s.decisions),
            stat(|s| s.sequences),
            stat(|s| s.distinct),
        ],
    )?;
    write_parquet(&dir.join(PLAYERS), &batch)?;

    atomic_write(&dir.join(META), |mut f| {
        use std::io::Write;
        serde_json::to_writer_pretty(&mut f, meta)?;
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
