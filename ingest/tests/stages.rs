//! An ingest stopped after an early stage (`haifu bench ingest --phases` measures each stage's cost by them)
//! reads and replays every game as a whole ingest does, counts the same games and decisions, and writes
//! nothing: no part file, no part list, no manifest.

use std::path::Path;

use haifu_ingest::pipeline::{ingest, IngestOptions, Silent, Stage, Summary};
use haifu_ingest::source::expand_inputs;
use haifu_testkit::{scenes, Scratch};

fn run(logs: &Path, out: &Path, stop_after: Stage) -> Summary {
    let inputs = expand_inputs(&[logs.to_path_buf()], &[]).expect("inputs");
    let opts = IngestOptions { out: out.to_path_buf(), jobs: 2, strict: true, stop_after, ..IngestOptions::default() };
    ingest(&inputs, &opts, &Silent).expect("ingests")
}

/// Every file under `dir`, walked.
fn files(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            if e.path().is_dir() {
                todo.push(e.path());
            } else {
                found.push(e.path().display().to_string());
            }
        }
    }
    found
}

#[test]
fn early_stages_count_what_an_ingest_counts_and_write_nothing() {
    let s = Scratch::new("stages");
    let logs = s.0.join("logs");
    std::fs::create_dir_all(&logs).expect("a directory");
    std::fs::write(logs.join("a.mjlog"), scenes::hanchan().record().to_mjlog()).expect("written");
    std::fs::write(logs.join("b.mjlog"), scenes::east_only().record().to_mjlog()).expect("written");

    let whole = run(&logs, &s.0.join("dataset"), Stage::Dataset);
    assert_eq!(whole.games_ingested, 2);
    assert!(whole.decisions > 0);
    assert!(files(&s.0.join("dataset")).iter().any(|f| f.ends_with(".parquet")));
    for stage in [Stage::Replay, Stage::Rows] {
        let out = s.0.join(format!("{stage:?}"));
        let early = run(&logs, &out, stage);
        assert_eq!(
            (early.files_read, early.games_ingested, early.decisions, early.games_quarantined),
            (whole.files_read, whole.games_ingested, whole.decisions, whole.games_quarantined),
            "{stage:?}"
        );
        let written = files(&out);
        assert!(written.is_empty(), "{stage:?} wrote {written:?}");
    }
}
