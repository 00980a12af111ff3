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

/// Headless Chromium, where the system has one (`scripts/test` installs Debian's when it can).
pub fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"].iter().find_map(|b| {
        let out = std::process::Command::new("which").arg(b).output().ok()?;
        out.status.success().then(|| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
    })
}

/// Runs the browser headless with `args` (`--dump-dom URL`, `--screenshot=FILE ... URL`).
pub fn headless(browser: &std::path::Path, args: &[&str]) -> std::process::Output {
    let mut cmd = std::process::Command::new(browser);
    cmd.args(["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars"]);
    cmd.args(args);
    cmd.output().expect("running chromium")
}

/// Where the tests keep what a person looks at afterwards (screenshots): `$CARGO_TARGET_DIR/test-artifacts`.
pub fn artifacts() -> PathBuf {
    let keep = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"))
        .join("test-artifacts");
    std::fs::create_dir_all(&keep).unwrap();
    keep
}
