//! `haifu mine --engine spark`: the same counting as PySpark DataFrame code (`cluster/haifu_spark/mine.py`,
//! embedded in the binary), handed to `spark-submit` with the same options; the files it writes are then held
//! to the schema of [`SequencesTable`] and [`PlayersTable`], so that `haifu imitate` reads them unchanged.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{anyhow, bail, Context, Result};
use arrow::datatypes::SchemaRef;
use haifu_ingest::columns::Table;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use crate::mine::MineOptions;
use crate::strategy::Strategy;
use crate::tables::{PlayersTable, SequencesTable, META, PLAYERS, SEQUENCES, SHAPES};

/// The PySpark job, as in the repository's `cluster/haifu_spark/mine.py`.
pub const SCRIPT: &str = include_str!("../../cluster/haifu_spark/mine.py");

/// The line of the job that gives each strategy's yaku ids, generated from [`Strategy::has_yaku`] (the rules
/// crate's yaku): the job carries it as written here, and a test holds the two equal.
pub fn strategy_yaku_line() -> String {
    let entries: Vec<String> = Strategy::YAKU
        .iter()
        .map(|s| {
            let ids: Vec<String> = (0..=54u8).filter(|&id| s.has_yaku(id)).map(|id| id.to_string()).collect();
            format!("\"{}\": [{}]", s.name(), ids.join(", "))
        })
        .collect();
    format!("STRATEGY_YAKU = {{{}}}", entries.join(", "))
}

/// Where and how the job runs.
pub struct SparkJob {
    /// `local[2]`, `spark://host:7077`, `yarn`, `k8s://...`: passed to `spark-submit --master`.
    pub master: String,
    /// The `spark-submit` to run.
    pub spark_submit: PathBuf,
    /// `KEY=VALUE` settings, each passed as `spark-submit --conf KEY=VALUE` (executors, memory, credentials).
    pub conf: Vec<String>,
}

/// The `spark-submit` arguments after the script: the options that change the tables, as the script reads them.
pub fn job_args(dataset: &Path, out: &Path, opts: &MineOptions) -> Vec<String> {
    let mut args = vec!["--dataset".into(), dataset.display().to_string(), "--out".into(), out.display().to_string()];
    if !opts.years.is_empty() {
        let years: Vec<String> = opts.years.iter().map(i32::to_string).collect();
        args.extend(["--years".into(), years.join(",")]);
    }
    if let Some(p) = &opts.players {
        args.extend(["--players".into(), p.join(",")]);
    }
    if let Some(n) = opts.min_games {
        args.extend(["--min-games".into(), n.to_string()]);
    }
    args.extend([
        "--rounds".into(),
        opts.rounds.to_string(),
        "--strategy-rounds".into(),
        opts.strategy_rounds.to_string(),
    ]);
    if let Some(f) = opts.sample {
        args.extend(["--sample".into(), f.to_string()]);
    }
    args.push("--json".into());
    args
}

/// Whether a dataset or output path is a URI for the cluster's file systems (`s3a://`, `hdfs://`, `dbfs:/`, ...)
/// rather than a local path: haifu hands it to the job as it is and cannot read it itself.
pub fn is_uri(path: &Path) -> bool {
    let text = path.to_string_lossy();
    match text.split_once(':') {
        // a scheme of two letters or more (`C:` is a drive), then `//` or `/`
        Some((scheme, rest)) => {
            scheme.len() > 1
                && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
                && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && rest.starts_with('/')
        }
        None => false,
    }
}

/// What the job wrote: its `meta.json`, and whether haifu read the tables back and found its schema (a local
/// OUT; a URI is on the cluster's storage, where the job's own casts are all that holds the schema).
pub struct SparkMined {
    pub meta: serde_json::Value,
    pub schema_checked: bool,
}

/// Runs the job and returns its `meta.json`, once both tables hold haifu's schema (a local OUT).
pub fn mine_spark(dataset: &Path, out: &Path, opts: &MineOptions, job: &SparkJob) -> Result<SparkMined> {
    let local = !is_uri(out);
    if local {
        std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    }
    let script_dir = tempfile_dir(if local { out.to_path_buf() } else { std::env::temp_dir() })?;
    let script = script_dir.join("haifu_spark_mine.py");
    std::fs::write(&script, SCRIPT).with_context(|| format!("writing {}", script.display()))?;
    let mut submit = Command::new(&job.spark_submit);
    // a spark-submit of a Python environment (PyPI's pyspark) finds Spark and runs the driver with that
    // environment's python: its folder goes first on PATH
    if let Some(dir) = job.spark_submit.parent().filter(|d| !d.as_os_str().is_empty()) {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let paths = std::iter::once(dir.to_path_buf()).chain(std::env::split_paths(&path));
        submit.env("PATH", std::env::join_paths(paths).context("PATH")?);
    }
    for c in &job.conf {
        if !c.contains('=') {
            bail!("--spark-conf {c}: not KEY=VALUE");
        }
        submit.arg("--conf").arg(c);
    }
    let output = submit
        .arg("--master")
        .arg(&job.master)
        .arg(&script)
        .args(job_args(dataset, out, opts))
        .env("HAIFU_VERSION", env!("CARGO_PKG_VERSION"))
        .stderr(std::process::Stdio::inherit())
        .output();
    let _ = std::fs::remove_dir_all(&script_dir);
    let output = output
        .with_context(|| format!("running {} (give its path with --spark-submit)", job.spark_submit.display()))?;
    if !output.status.success() {
        bail!("the Spark job failed ({}); its messages are above", output.status);
    }
    if !local {
        // the job printed its meta.json (--json)
        let meta = serde_json::from_slice(&output.stdout).context("the Spark job printed no meta.json on stdout")?;
        return Ok(SparkMined { meta, schema_checked: false });
    }
    check_schema(&out.join(SEQUENCES), &SequencesTable::schema())?;
    check_schema(&out.join(PLAYERS), &PlayersTable::schema())?;
    check_schema(&out.join(SHAPES), &haifu_ingest::shapes::ShapesBatch::schema())?;
    let meta =
        std::fs::read_to_string(out.join(META)).with_context(|| format!("reading {}", out.join(META).display()))?;
    let meta = serde_json::from_str(&meta).with_context(|| format!("{}: not JSON", out.join(META).display()))?;
    Ok(SparkMined { meta, schema_checked: true })
}

/// A fresh hidden folder in `dir` for the script's copy.
fn tempfile_dir(dir: PathBuf) -> Result<PathBuf> {
    let dir = dir.join(format!(".haifu-spark-{}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    Ok(dir)
}

/// The file's columns must be `want`'s as read ([`haifu_ingest::columns::as_read`]): names, order, types and
/// nullability; each difference is named.
pub fn check_schema(path: &Path, want: &SchemaRef) -> Result<()> {
    let want = haifu_ingest::columns::as_read(want);
    let file = std::fs::File::open(path).with_context(|| format!("the Spark job wrote no {}", path.display()))?;
    let got = ParquetRecordBatchReaderBuilder::try_new(file)
        .with_context(|| format!("reading {}", path.display()))?
        .schema()
        .clone();
    let mut problems = Vec::new();
    for (i, w) in want.fields().iter().enumerate() {
        match got.fields().get(i) {
            None => problems.push(format!("column {i} `{}` missing", w.name())),
            Some(g) if g.name() != w.name() => {
                problems.push(format!("column {i} is `{}`, not `{}`", g.name(), w.name()))
            }
            Some(g) if g.data_type() != w.data_type() || g.is_nullable() != w.is_nullable() => problems.push(format!(
                "`{}` is {}{}, not {}{}",
                w.name(),
                g.data_type(),
                if g.is_nullable() { " (nullable)" } else { "" },
                w.data_type(),
                if w.is_nullable() { " (nullable)" } else { "" }
            )),
            Some(_) => {}
        }
    }
    if got.fields().len() > want.fields().len() {
        problems.push(format!("{} columns more than haifu's", got.fields().len() - want.fields().len()));
    }
    if !problems.is_empty() {
        return Err(anyhow!("{}: not haifu's schema: {}", path.display(), problems.join("; ")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow::datatypes::{DataType, Field, Schema};
    use parquet::arrow::ArrowWriter;

    use super::*;

    fn write_empty(path: &Path, schema: SchemaRef) {
        let mut w = ArrowWriter::try_new(std::fs::File::create(path).unwrap(), schema, None).unwrap();
        w.flush().unwrap();
        w.close().unwrap();
    }

    #[test]
    fn a_table_of_another_schema_is_refused_with_its_columns_named() {
        let dir = std::env::temp_dir().join(format!("haifu-spark-schema-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // haifu's own writer: its coded text columns read back as text
        crate::tables::write_tables(&dir, &crate::Mined::default(), &serde_json::json!({})).unwrap();
        let good = dir.join(SEQUENCES);
        check_schema(&good, &SequencesTable::schema()).unwrap();
        // what Spark's own writer gives: signed, nullable columns
        let fields: Vec<Field> = haifu_ingest::columns::as_read(&SequencesTable::schema())
            .fields()
            .iter()
            .map(|f| match f.data_type() {
                DataType::UInt32 => Field::new(f.name(), DataType::Int32, true),
                _ => f.as_ref().clone(),
            })
            .collect();
        let bad = dir.join("bad.parquet");
        write_empty(&bad, Arc::new(Schema::new(fields)));
        let e = check_schema(&bad, &SequencesTable::schema()).unwrap_err().to_string();
        assert!(e.contains("not haifu's schema") && e.contains("Int32 (nullable), not UInt32"), "{e}");
        let e = check_schema(&good, &PlayersTable::schema()).unwrap_err().to_string();
        assert!(e.contains("not haifu's schema"), "{e}");
        assert!(check_schema(&dir.join("none.parquet"), &PlayersTable::schema()).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn uris_are_told_from_local_paths() {
        for uri in ["s3a://bucket/haifu", "gs://b/d", "abfss://c@acct.dfs.core.windows.net/d", "hdfs:///d", "dbfs:/d"] {
            assert!(is_uri(Path::new(uri)), "{uri}");
        }
        for local in ["/tmp/d", "d", "./s3a/d", "C:/d", "a:b", "tables:2024"] {
            assert!(!is_uri(Path::new(local)), "{local}");
        }
    }

    /// The job's strategy ids are the rules crate's, as generated: edit them in Rust, then paste the line.
    #[test]
    fn the_job_carries_the_strategy_yaku_of_the_rules() {
        let line = strategy_yaku_line();
        assert!(line.contains("\"yakuhai\": [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]"), "{line}");
        assert!(SCRIPT.lines().any(|l| l == line), "cluster/haifu_spark/mine.py must carry the generated line\n{line}");
    }

    #[test]
    fn the_job_gets_the_options_that_change_the_tables() {
        let opts = MineOptions {
            years: vec![2019, 2020],
            min_games: Some(5),
            rounds: crate::RoundsMode::Won,
            sample: Some(0.5),
            ..MineOptions::default()
        };
        let args = job_args(Path::new("D"), Path::new("O"), &opts).join(" ");
        assert_eq!(
            args,
            "--dataset D --out O --years 2019,2020 --min-games 5 --rounds won --strategy-rounds winner --sample 0.5 --json"
        );
    }
}
