//! `haifu` links no libtorch and hands the commands that run a network to the network binary `haifu-neural`
//! (beside itself, else on PATH) with the same arguments, stdin, stdout, stderr and exit status; without it
//! such a command fails saying how to build it, and everything else runs. Checked with a stand-in network
//! binary (a shell script that reports what it got), so these tests need no libtorch.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::Scratch;

/// A folder holding a copy of `haifu` (a hard link where it can), and a stand-in `haifu-neural` when `fake`.
fn install(dir: &Path, fake: bool) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let bin = dir.join("haifu");
    if std::fs::hard_link(env!("CARGO_BIN_EXE_haifu"), &bin).is_err() {
        std::fs::copy(env!("CARGO_BIN_EXE_haifu"), &bin).unwrap();
    }
    if fake {
        stand_in(dir);
    }
    bin
}

/// The stand-in network binary: prints "network:" and its arguments one per line, then what it reads on stdin,
/// says "on stderr" on stderr and exits with status 7.
fn stand_in(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("haifu-neural");
    // shell builtins only: the tests run it with a PATH that holds nothing
    let script = "#!/bin/sh\necho network:\nprintf '%s\\n' \"$@\"\nwhile IFS= read -r l; do echo \"$l\"; done\necho 'on stderr' >&2\nexit 7\n";
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Runs `bin` with `args`, `stdin` on its standard input and PATH set to `path`.
fn run(bin: &Path, args: &[&str], stdin: &str, path: &str) -> Output {
    let mut child = Command::new(bin)
        .args(args)
        .env("PATH", path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("haifu runs");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// The command lines `haifu` must hand off, and some that look alike but run no network.
const NETWORK: &[&[&str]] = &[
    &["train", "--dataset", "d", "--out", "o"],
    &["neural", "inspect", "run"],
    &["neural", "eval", "--model", "m", "--dataset", "d", "--years", "2023"],
    &["imitate", "eval", "--dataset", "d", "--years", "2023", "--tables", "t", "--backoff", "m"],
    &["style", "identify", "--db", "db", "--log", "l", "--seat", "0", "--models", "m"],
    &["mjai-bot", "--db", "db", "--player", "p", "--model", "m"],
    &["review", "--dataset", "d", "--tables", "t", "--player", "p", "--out", "o", "--model", "m"],
    &["demo", "--games", "2", "--out", "o"],
];
const NOT_NETWORK: &[&[&str]] = &[
    &["imitate", "eval", "--dataset", "/nonexistent/d", "--years", "2023", "--tables", "t"],
    &["style", "identify", "--db", "/nonexistent/db", "--log", "l", "--seat", "0"],
    &["mjai-bot", "--db", "/nonexistent/db", "--player", "p"],
    &["check", "/nonexistent/d"],
    &["review", "--dataset", "/nonexistent/d", "--tables", "t", "--player", "p", "--out", "o"],
];

#[test]
fn haifu_links_no_libtorch() {
    let Ok(out) = Command::new("readelf").args(["-d", env!("CARGO_BIN_EXE_haifu")]).output() else {
        eprintln!("SKIPPED: no readelf here (binutils) to read the binary's dynamic section");
        return;
    };
    let dynamic = String::from_utf8_lossy(&out.stdout);
    assert!(dynamic.contains("(NEEDED)"), "readelf read no dynamic section:\n{dynamic}");
    for lib in ["libtorch", "libc10"] {
        assert!(!dynamic.contains(lib), "haifu links {lib}:\n{dynamic}");
    }
}

#[test]
fn network_commands_go_to_the_network_binary_as_typed() {
    let s = Scratch::new("handoff-beside");
    let bin = install(&s.0, true);
    for args in NETWORK {
        let out = run(&bin, args, "from stdin\n", "/nonexistent");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let mut expected = vec!["network:"];
        expected.extend(args.iter());
        expected.push("from stdin");
        assert_eq!(stdout.lines().collect::<Vec<_>>(), expected, "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "on stderr\n", "{args:?}");
        assert_eq!(out.status.code(), Some(7), "{args:?}: the network binary's exit status");
    }
    for args in NOT_NETWORK {
        let out = run(&bin, args, "", "/nonexistent");
        assert!(!String::from_utf8_lossy(&out.stdout).contains("network:"), "{args:?} was handed off");
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let version = run(&bin, &["--version"], "", "/nonexistent");
    assert!(version.status.success());
    assert!(String::from_utf8_lossy(&version.stdout).starts_with("haifu "));
}

#[test]
fn the_network_binary_is_found_on_path() {
    let s = Scratch::new("handoff-path");
    let bin = install(&s.0.join("core"), false);
    stand_in(&s.0.join("core"));
    std::fs::create_dir_all(s.0.join("elsewhere")).unwrap();
    std::fs::rename(s.0.join("core/haifu-neural"), s.0.join("elsewhere/haifu-neural")).unwrap();
    let path = format!("/nonexistent:{}", s.0.join("elsewhere").display());
    let out = run(&bin, &["neural", "inspect", "run"], "", &path);
    assert_eq!(out.status.code(), Some(7));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().collect::<Vec<_>>(),
        ["network:", "neural", "inspect", "run"]
    );
}

#[test]
fn without_the_network_binary_a_network_command_says_how_to_build_it() {
    let s = Scratch::new("handoff-missing");
    let bin = install(&s.0, false);
    for args in NETWORK.iter().filter(|a| a[0] != "demo") {
        let out = run(&bin, args, "", "/nonexistent");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("runs a network") && err.contains("haifu-neural"), "{args:?}: {err}");
        assert!(err.contains("cargo build --release -p haifu-neural-cli"), "{args:?}: {err}");
    }
    // every other command runs: the demo, all but its network step
    let demo = s.0.join("demo");
    let out = run(&bin, &["demo", "--games", "6", "--out", demo.to_str().unwrap(), "--json"], "", "/nonexistent");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("network step is left out") && err.contains("haifu-neural-cli"), "{err}");
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(j["network"].is_null(), "{j}");
    assert!(j["match_rates"].is_object(), "the report without the network: {j}");
    assert!(!demo.join("nn").exists());
}
