//! `haifu check`: the dataset against its own part list. Every listed part present, readable, with the rows,
//! size and checksum recorded; files no commit lists named; the rows of each table equal to what the runs
//! ingested. With `adopt`, parts that another tool rewrote (Spark compacting a partition, pyarrow re-encoding
//! with snappy) are recorded in place of the originals, once their schema and rows equal the recorded ones;
//! a dataset written before part lists existed gets its list that way too.

use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::path::Path;

use anyhow::{Context, Result};
use arrow::datatypes::{DataType, Fields, SchemaRef};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde::Serialize;

use crate::dataset::TABLES;
use crate::parts::{self, PartEntry, META_DIR};

/// One thing `haifu check` found wrong.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// `missing`, `changed`, `unreadable`, `rows`, `schema`, `unlisted`, `totals`, `adopt`, `no_part_list`.
    pub kind: String,
    /// The file (below the dataset folder) or the table it is about.
    pub what: String,
    pub detail: String,
}

/// What `haifu check` saw.
#[derive(Clone, Debug, Default, Serialize)]
pub struct CheckReport {
    pub dataset: String,
    pub parts_listed: usize,
    pub parts_ok: usize,
    /// Rows found in the listed parts, by table.
    pub rows: BTreeMap<String, u64>,
    pub findings: Vec<Finding>,
    /// Files recorded by `--adopt`.
    pub adopted: Vec<String>,
}

impl CheckReport {
    fn find(&mut self, kind: &str, what: &str, detail: String) {
        self.findings.push(Finding { kind: kind.into(), what: what.into(), detail });
    }
}

/// The schema of a dataset table as haifu writes it.
fn expected_schema(table: &str) -> Option<SchemaRef> {
    use crate::batches::{ChoicesBatch, DecisionsBatch, EventsBatch, GamesBatch, RoundsBatch};
    use crate::columns::Table;
    Some(match table {
        "games" => GamesBatch::schema(),
        "rounds" => RoundsBatch::schema(),
        "events" => EventsBatch::schema(),
        "decisions" => DecisionsBatch::schema(),
        "choices" => ChoicesBatch::schema(),
        _ => return None,
    })
}

/// Rows and schema of a Parquet file, from its footer.
fn footer(path: &Path) -> Result<(u64, SchemaRef)> {
    let f = File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let b = ParquetRecordBatchReaderBuilder::try_new(f).with_context(|| format!("reading {}", path.display()))?;
    Ok((b.metadata().file_metadata().num_rows() as u64, b.schema().clone()))
}

/// [`parts::game_id_digest`] of a file's rows, reading its `game_id` column alone.
fn file_game_ids(path: &Path) -> Result<u64> {
    let f = File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let b = ParquetRecordBatchReaderBuilder::try_new(f).with_context(|| format!("reading {}", path.display()))?;
    let at = b.schema().index_of("game_id").with_context(|| format!("{}: no game_id column", path.display()))?;
    let only = parquet::arrow::ProjectionMask::roots(b.parquet_schema(), [at]);
    let mut digest = 0u64;
    for batch in b.with_projection(only).build()? {
        let batch = batch.with_context(|| format!("reading {}", path.display()))?;
        digest = digest.wrapping_add(parts::game_id_digest(&batch));
    }
    Ok(digest)
}

/// How a file's columns differ from the table's (`None`: the same names and types in the same order, nested
/// columns compared by their children, nullability and metadata aside: other writers mark them their own way).
fn column_difference(found: &SchemaRef, table: &SchemaRef, partition: &str) -> Option<String> {
    if same_fields(found.fields(), table.fields()) {
        return None;
    }
    let named = |s: &SchemaRef, name: &str| s.field_with_name(name).ok().map(|f| f.data_type().clone());
    let mut says = Vec::new();
    for f in found.fields().iter().filter(|f| named(table, f.name()).is_none()) {
        // pyarrow's `pq.read_table(path)` adds the hive folder's key (`year`) as a column of every file it reads
        let hint = if partition.split('=').next() == Some(f.name().as_str()) {
            " (the partition folder's key: pyarrow's `read_table` adds it; rewrite with `partitioning=None`)"
        } else {
            ""
        };
        says.push(format!("an extra column `{}`{hint}", f.name()));
    }
    for f in table.fields().iter().filter(|f| named(found, f.name()).is_none()) {
        says.push(format!("no column `{}`", f.name()));
    }
    for f in found.fields() {
        if let Some(t) = named(table, f.name()).filter(|t| !same_type(f.data_type(), t)) {
            says.push(format!("`{}` is {}, the table's is {t}", f.name(), f.data_type()));
        }
    }
    if says.is_empty() {
        says.push("the columns are in another order".into());
    }
    Some(says.join("; "))
}

fn same_fields(a: &Fields, b: &Fields) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.name() == y.name() && same_type(x.data_type(), y.data_type()))
}

/// The same type, a list's child field's name aside: arrow-rs names it `item`, pyarrow and Spark `element`
/// (the Parquet LIST convention); the values' type is what a reader depends on.
fn same_type(a: &DataType, b: &DataType) -> bool {
    match (a, b) {
        (DataType::List(x), DataType::List(y)) | (DataType::LargeList(x), DataType::LargeList(y)) => {
            same_type(x.data_type(), y.data_type())
        }
        (DataType::FixedSizeList(x, n), DataType::FixedSizeList(y, m)) => {
            n == m && same_type(x.data_type(), y.data_type())
        }
        (DataType::Struct(x), DataType::Struct(y)) => same_fields(x, y),
        _ => a == b,
    }
}

/// Checks the dataset; with `adopt`, records rewritten parts first (see the module documentation).
pub fn check(dataset: &Path, adopt: bool) -> Result<CheckReport> {
    let mut rep = CheckReport { dataset: dataset.display().to_string(), ..CheckReport::default() };
    if adopt {
        // adopting appends to the part list: one writer at a time, as for an ingest
        let _lock = crate::lock::WriterLock::acquire(dataset, "haifu check --adopt")?;
        rep.adopted = adopt_parts(dataset, &mut rep)?;
    }
    let listed = match parts::listed_parts(dataset) {
        Ok(l) => l,
        Err(e) => {
            rep.find("no_part_list", META_DIR, format!("{e:#}"));
            return Ok(rep);
        }
    };
    rep.parts_listed = listed.len();
    for e in listed.values() {
        let path = dataset.join(&e.file);
        if !path.is_file() {
            rep.find("missing", &e.file, format!("listed with {} rows of {} (run {})", e.rows, e.table, e.run));
            continue;
        }
        if let Err(err) = parts::check_part(dataset, e) {
            rep.find("changed", &e.file, format!("{err:#}"));
            continue;
        }
        match footer(&path) {
            Err(err) => rep.find("unreadable", &e.file, format!("{err:#}")),
            Ok((rows, _)) if rows != e.rows => {
                rep.find("rows", &e.file, format!("holds {rows} rows, the list records {}", e.rows))
            }
            Ok((rows, _)) => {
                rep.parts_ok += 1;
                *rep.rows.entry(e.table.clone()).or_insert(0) += rows;
            }
        }
    }
    let known: HashSet<&str> = listed.keys().map(String::as_str).collect();
    for table in TABLES {
        for f in parts::files_on_disk(dataset, table)? {
            if !known.contains(f.as_str()) {
                rep.find("unlisted", &f, "no commit lists this file: haifu's readers leave it out".into());
            }
        }
    }
    if rep.findings.is_empty() {
        for (table, want) in parts::run_totals(dataset)? {
            let found = rep.rows.get(&table).copied().unwrap_or(0);
            if found != want {
                rep.find("totals", &table, format!("{found} rows in the parts, the runs ingested {want}"));
            }
        }
    }
    Ok(rep)
}

/// Records the parts of every partition whose listed files were rewritten: the files now in it must hold the
/// table's schema and, together, the rows the replaced parts held. Returns the files recorded.
fn adopt_parts(dataset: &Path, rep: &mut CheckReport) -> Result<Vec<String>> {
    let legacy = !parts::has_part_list(dataset);
    let listed = if legacy { BTreeMap::new() } else { parts::listed_parts(dataset)? };
    let want_rows = parts::run_totals(dataset)?;
    let run = format!("adopt-{}", std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH)?.as_millis());
    let mut lines: Vec<PartEntry> = Vec::new();
    for table in TABLES {
        let Some(schema) = expected_schema(table) else { continue };
        // partition -> (listed parts that no longer hold, files on disk not listed and intact)
        let mut by_partition: BTreeMap<String, (Vec<&PartEntry>, Vec<String>)> = BTreeMap::new();
        for e in listed.values().filter(|e| e.table == table) {
            if parts::check_part(dataset, e).is_err() {
                by_partition.entry(e.partition.clone()).or_default().0.push(e);
            }
        }
        let known: HashSet<&str> = listed.keys().map(String::as_str).collect();
        for f in parts::files_on_disk(dataset, table)? {
            let intact =
                known.contains(f.as_str()) && listed.get(&f).is_some_and(|e| parts::check_part(dataset, e).is_ok());
            if !intact {
                let partition = f.split('/').nth(1).unwrap_or_default().to_string();
                by_partition.entry(partition).or_default().1.push(f);
            }
        }
        let mut table_rows = 0u64;
        for (partition, (gone, found)) in by_partition {
            if gone.is_empty() && !legacy {
                continue;
            }
            let want: u64 = gone.iter().map(|e| e.rows).sum();
            let mut adds = Vec::new();
            let (mut rows, mut game_ids) = (0u64, 0u64);
            for f in &found {
                let path = dataset.join(f);
                let (n, s) = footer(&path)?;
                if let Some(differs) = column_difference(&s, &schema, &partition) {
                    rep.find("schema", f, format!("its columns are not the {table} table's ({differs}): not adopted"));
                    adds.clear();
                    break;
                }
                let (bytes, xxh3) = parts::fingerprint(&path)?;
                let ids = file_game_ids(&path)?;
                game_ids = game_ids.wrapping_add(ids);
                rows += n;
                let (table, partition, file) = (table.to_string(), partition.clone(), f.clone());
                adds.push(PartEntry {
                    op: "add".into(),
                    run: run.clone(),
                    table,
                    partition,
                    file,
                    rows: n,
                    bytes,
                    xxh3,
                    schema: parts::SCHEMA_VERSION,
                    game_ids: Some(format!("{ids:016x}")),
                });
            }
            if !legacy && rows != want {
                let what = format!("{table}/{partition}");
                rep.find(
                    "adopt",
                    &what,
                    format!("the files there hold {rows} rows, the replaced parts {want}: not adopted"),
                );
                continue;
            }
            // the same games, each as many times: a row replaced by a copy of another keeps the count
            let recorded: Option<u64> = gone.iter().try_fold(0u64, |acc, e| {
                let d = u64::from_str_radix(e.game_ids.as_deref()?, 16).ok()?;
                Some(acc.wrapping_add(d))
            });
            if let Some(want_ids) = recorded.filter(|&d| !legacy && !gone.is_empty() && d != game_ids) {
                rep.find(
                    "adopt",
                    &format!("{table}/{partition}"),
                    format!(
                        "the files there hold {rows} rows as the replaced parts did, but not the same games (game ids \
                         digest {game_ids:016x}, the replaced parts' {want_ids:016x}): not adopted"
                    ),
                );
                continue;
            }
            table_rows += rows;
            for e in gone {
                lines.push(PartEntry { op: "remove".into(), run: run.clone(), ..e.clone() });
            }
            lines.extend(adds);
        }
        if legacy && table_rows != want_rows.get(table).copied().unwrap_or(0) {
            rep.find(
                "adopt",
                table,
                format!(
                    "{table_rows} rows on disk, the runs ingested {}: not adopted",
                    want_rows.get(table).copied().unwrap_or(0)
                ),
            );
            return Ok(Vec::new());
        }
    }
    if lines.is_empty() || !rep.findings.is_empty() {
        return Ok(Vec::new());
    }
    parts::append(dataset, &lines)?;
    let run_line = serde_json::json!({ "run": run, "adopted": lines.iter().filter(|e| e.op == "add").count() });
    crate::files::append_atomic(&dataset.join(META_DIR).join("runs.jsonl"), &format!("{run_line}\n"))?;
    Ok(lines.into_iter().filter(|e| e.op == "add").map(|e| e.file).collect())
}
