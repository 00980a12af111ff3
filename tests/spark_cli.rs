//! `haifu mine --engine spark`: the PySpark job (cluster/haifu_spark/mine.py, embedded in the binary) run by
//! spark-submit in local mode gives the Rust engine's tables row for row, and haifu holds its output to the
//! tables' schema. Needs Java and PySpark (`cluster/setup.sh` makes the venv that `scripts/test` uses); where
//! there are none the Spark part says so and passes, unless HAIFU_REQUIRE_SPARK is set.

mod common;

use std::path::{Path, PathBuf};

use common::{error, haifu, json, Scratch};
use polars::prelude::*;

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The spark-submit to use: $HAIFU_SPARK_SUBMIT, else the venv `cluster/setup.sh` makes.
fn spark_submit() -> Option<PathBuf> {
    if let Some(s) = std::env::var_os("HAIFU_SPARK_SUBMIT") {
        return Some(PathBuf::from(s));
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from)?;
    let s = target.join("cluster-venv/bin/spark-submit");
    let java = std::process::Command::new("java").arg("-version").output().is_ok_and(|o| o.status.success());
    (s.is_file() && java).then_some(s)
}

fn read(path: &Path) -> DataFrame {
    ParquetReader::new(std::fs::File::open(path).unwrap()).finish().unwrap()
}

#[test]
fn the_spark_engine_gives_the_rust_engines_tables() {
    let s = Scratch::new("cli-spark");
    let missing = haifu(&[
        "mine",
        "--dataset",
        p(&s.0),
        "--out",
        p(&s.0.join("t")),
        "--engine",
        "spark",
        "--spark-submit",
        "/nonexistent/spark-submit",
    ]);
    let e = error(&missing);
    assert!(e.contains("/nonexistent/spark-submit") && e.contains("--spark-submit"), "{e}");
    let t = s.0.join("t");
    let bad_conf = ["mine", "--dataset", p(&s.0), "--out", p(&t), "--engine", "spark", "--spark-conf", "spark.ui"];
    let e = error(&haifu(&bad_conf));
    assert!(e.contains("spark.ui: not KEY=VALUE"), "{e}");

    let Some(submit) = spark_submit() else {
        assert!(
            std::env::var_os("HAIFU_REQUIRE_SPARK").is_none(),
            "HAIFU_REQUIRE_SPARK is set but there is no spark-submit (cluster/setup.sh) or no java"
        );
        eprintln!(
            "spark_cli: NOTE: no spark-submit (run cluster/setup.sh) or no java: the Spark engine is not checked"
        );
        return;
    };
    let demo = s.0.join("demo");
    json(&haifu(&["demo", "--out", p(&demo), "--games", "24", "--json"]));
    let dataset = demo.join("dataset");
    let options = ["--min-games", "3", "--rounds", "won", "--strategy-rounds", "all"];
    let (rust, spark) = (s.0.join("rust"), s.0.join("spark"));
    let mut args = vec!["mine", "--dataset", p(&dataset), "--out", p(&rust), "--json"];
    args.extend(options);
    let r = json(&haifu(&args));
    let mut args = vec!["mine", "--dataset", p(&dataset), "--out", p(&spark), "--json", "--engine", "spark"];
    args.extend(options);
    args.extend(["--master", "local[2]", "--spark-submit", p(&submit)]);
    let k = json(&haifu(&args));

    for key in ["decisions_read", "scopes", "players", "rows", "all"] {
        assert_eq!(r[key], k[key], "{key}");
    }
    assert_eq!(k["options"]["engine"], "spark");
    assert_eq!(r["options"]["rounds"], k["options"]["rounds"]);
    assert!(r["rows"].as_u64().unwrap() > 0);
    for table in ["sequences.parquet", "players.parquet", "shapes.parquet"] {
        let (a, b) = (read(&rust.join(table)), read(&spark.join(table)));
        assert_eq!(a.schema(), b.schema(), "{table}");
        assert!(a.equals_missing(&b), "{table}: the rows differ");
    }

    // the dataset and the output as URIs (as on object storage): the job reads and writes them through the
    // cluster's file systems (Hadoop's), haifu hands them over untouched and does not read the output
    let uri = s.0.join("uri");
    let (dataset_uri, out_uri) = (format!("file://{}", p(&dataset)), format!("file://{}", p(&uri)));
    let mut args = vec!["mine", "--dataset", &dataset_uri, "--out", &out_uri, "--json", "--engine", "spark"];
    args.extend(options);
    args.extend(["--master", "local[2]", "--spark-submit", p(&submit), "--spark-conf", "spark.ui.enabled=false"]);
    let out = haifu(&args);
    let u = json(&out);
    assert_eq!(r["rows"], u["rows"]);
    assert_eq!(u["dataset"], dataset_uri.as_str());
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a URI for the cluster's storage"));
    for table in ["sequences.parquet", "players.parquet", "shapes.parquet"] {
        let (a, b) = (read(&rust.join(table)), read(&uri.join(table)));
        assert_eq!(a.schema(), b.schema(), "{table}");
        assert!(a.equals_missing(&b), "{table}: the rows differ (URIs)");
    }
    let left: Vec<_> = std::fs::read_dir(&uri).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 4, "only the four files are left in the output: {left:?}");
}
