//! Shared by the end-to-end tests: where the real corpus is, and its manifest.

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;

/// The shared corpus, if present (see `haifu_testkit::corpus_dir`).
pub fn corpus() -> Option<PathBuf> {
    haifu_testkit::corpus_dir()
}

/// One row of the corpus manifest.
#[derive(Clone, Debug)]
pub struct Entry {
    pub path: PathBuf,
    pub format: String,
    /// `full` or `fragment`.
    pub kind: String,
    pub players: String,
}

/// The manifest, keyed by absolute path.
pub fn manifest(corpus: &std::path::Path) -> HashMap<PathBuf, Entry> {
    let text = std::fs::read_to_string(corpus.join("MANIFEST.tsv")).expect("MANIFEST.tsv readable");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("no column {name}"));
    let (p, f, k, pl) = (col("path"), col("format"), col("kind"), col("players"));
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            let path = corpus.join(c[p]);
            (path.clone(), Entry { path, format: c[f].into(), kind: c[k].into(), players: c[pl].into() })
        })
        .collect()
}

pub use haifu_testkit::Scratch;

/// Runs the `haifu` binary built for the tests.
pub fn haifu(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_haifu")).args(args).output().expect("haifu runs")
}

/// The JSON a successful run printed.
pub fn json(out: &std::process::Output) -> serde_json::Value {
    assert!(out.status.success(), "haifu failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

/// The message of a failed run.
pub fn error(out: &std::process::Output) -> String {
    assert!(!out.status.success(), "expected a failure: {}", String::from_utf8_lossy(&out.stdout));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Counts discard tags (`<D12/>`, `<E..`, `<F..`, `<G..`) in mjlog text by a plain byte scan, independent
/// of the XML reader under test.
pub fn count_discard_tags(xml: &[u8]) -> usize {
    xml.windows(3).filter(|w| w[0] == b'<' && b"DEFG".contains(&w[1]) && w[2].is_ascii_digit()).count()
}
