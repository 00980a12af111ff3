//! How every file haifu writes is written: whole or not at all (a hidden temporary file renamed at the end), and
//! the Parquet writer properties every table starts from. The dataset's parts, its part list and run log, the
//! shapes lookup, the sequence tables and the position cache all write through here.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use arrow::datatypes::{DataType, SchemaRef};
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterPropertiesBuilder, WriterVersion};
use parquet::schema::types::ColumnPath;

/// Writes `path` through a hidden temporary file in the same directory, renamed at the end; a failure (a full
/// disk) removes the temporary file and names it.
pub fn atomic_write(path: &Path, write: impl FnOnce(File) -> Result<()>) -> Result<()> {
    // a name of this process and call: two writers of the same file (two runs sharing a dataset's cache or
    // lookup) each rename a whole file of their own, the last one wins
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("table");
    let tmp: PathBuf = path.with_file_name(format!(".{name}.{}-{call}.tmp", std::process::id()));
    let written = File::create(&tmp)
        .with_context(|| format!("creating {}", tmp.display()))
        .and_then(|f| write(f).with_context(|| format!("writing {}", tmp.display())))
        .and_then(|_| {
            std::fs::rename(&tmp, path).with_context(|| format!("renaming {} to {}", tmp.display(), path.display()))
        });
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Appends text to a file by writing the whole new content through [`atomic_write`], synced before the rename.
pub fn append_atomic(path: &Path, text: &str) -> Result<()> {
    let mut content = if path.exists() {
        std::fs::read(path).with_context(|| format!("reading {}", path.display()))?
    } else {
        Vec::new()
    };
    content.extend_from_slice(text.as_bytes());
    atomic_write(path, |mut f| {
        f.write_all(&content)?;
        Ok(f.sync_all()?)
    })
}

/// The per-column writer properties every haifu table uses: dictionary encoding for the text columns only. Text
/// repeats (player names, kinds, melds) and a dictionary stores each once; numbers and the hand's 34 bytes gain
/// little over zstd alone, and interning every value in the dictionary was a tenth of a whole ingest's time
/// (`perf record`, docs/PERFORMANCE.md).
///
/// The text columns carry no minimum and maximum: computing them compares every value, which was 8% of the
/// instructions of a whole `haifu mine` (callgrind, docs/PERFORMANCE.md), and no reader could skip a row group
/// by them: a row group of decisions holds dozens of players, every kind of event, and a table's scopes in a
/// few row groups.
pub fn text_column_properties(schema: &SchemaRef, props: WriterProperties) -> WriterProperties {
    let mut b = props.into_builder();
    for f in schema.fields() {
        let leaf: Vec<String> = match f.data_type() {
            DataType::Utf8 | DataType::Dictionary(..) => {
                b = b.set_column_statistics_enabled(ColumnPath::new(vec![f.name().clone()]), EnabledStatistics::None);
                continue;
            }
            DataType::List(item) if item.data_type() == &DataType::Utf8 => continue,
            DataType::List(item) => vec![f.name().clone(), "list".into(), item.name().clone()],
            // a struct column's leaves keep the default
            DataType::Struct(_) => continue,
            _ => vec![f.name().clone()],
        };
        b = b.set_column_dictionary_enabled(ColumnPath::new(leaf), false);
    }
    b.build()
}

/// The writer properties every file of a dataset starts from (its tables and `shapes.parquet`).
pub fn writer_properties() -> WriterPropertiesBuilder {
    WriterProperties::builder()
        // zstd at level 1, its fastest positive level (ZstdLevel::default)
        .set_compression(Compression::ZSTD(ZstdLevel::default()))
        .set_created_by(format!("haifu {}", env!("CARGO_PKG_VERSION")))
        // a column's values reach the encoder in runs of up to 32,768, not 1,024: a tenth of the per-run
        // bookkeeping (-1.2% of an ingest's instructions, callgrind, docs/PERFORMANCE.md); a page still ends
        // near its size limit, as pages of our row groups stay well under it
        .set_write_batch_size(32_768)
        // data pages v2: the values are compressed where they lie, where a v1 page copies them behind the
        // levels, compresses into a buffer grown by copying and shrinks it by copying again (-3.5% of an
        // ingest's instructions; the levels stay uncompressed, +5% on the decisions' bytes; DuckDB, Polars,
        // Spark 3.3+ and arrow-rs read them). PLAIN where no dictionary is used, as under v1: v2's default
        // delta encodings cost more than zstd saves on these columns (docs/PERFORMANCE.md).
        .set_writer_version(WriterVersion::PARQUET_2_0)
        .set_encoding(Encoding::PLAIN)
}
