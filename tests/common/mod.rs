//! Shared by the end-to-end tests: where the real corpus is, running the binary.

#![allow(dead_code)]

use std::path::PathBuf;

/// The shared corpus, if present (see `haifu_testkit::corpus_dir`).
pub fn corpus() -> Option<PathBuf> {
    haifu_testkit::corpus_dir()
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

/// For the tests that run network commands through `haifu`: it hands them to the network binary beside it,
/// which `cargo test --workspace` (scripts/test) builds with it; a run of this package's tests alone needs it
/// built first (and current).
pub fn needs_network_binary() {
    let beside = std::path::Path::new(env!("CARGO_BIN_EXE_haifu")).with_file_name("haifu-neural");
    assert!(
        beside.is_file(),
        "{} is missing: these tests run network commands through haifu, which hands them to it; build it with \
         `cargo build --release -p haifu-neural-cli` (or test with --workspace, as scripts/test does)",
        beside.display()
    );
}
