//! How `haifu` hands a network command to the network binary: `haifu-neural` beside the running `haifu`
//! (where cargo builds both), else the first on PATH, run in place of this process (exec: same process,
//! arguments, stdin, stdout and stderr, so the exit status is the network command's own).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context, Result};

/// The network binary's file name.
pub const NETWORK_BINARY: &str = "haifu-neural";

/// How to get the network binary, for the error where it is missing.
pub const HOW_TO_BUILD: &str = "it is in the network binary haifu-neural (built with libtorch), found neither \
     next to haifu nor on PATH; build it with `source scripts/env.sh && cargo build --release -p haifu-neural-cli` \
     (env.sh installs the torch wheel it links; ./scripts/demo and ./scripts/test build it too) and keep it \
     beside haifu";

/// The network binary: beside the running executable, else on PATH.
pub fn network_binary() -> Option<PathBuf> {
    let beside = std::env::current_exe().ok().and_then(|exe| exe.parent().map(|d| d.join(NETWORK_BINARY)));
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).map(|d| d.join(NETWORK_BINARY)).collect::<Vec<_>>())
        .unwrap_or_default();
    beside.into_iter().chain(on_path).find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The error of a network command where there is no network binary.
pub fn missing(what: &str) -> anyhow::Error {
    anyhow!("`{what}` runs a network: {HOW_TO_BUILD}")
}

/// Runs `bin` with this process's arguments in its place (returns only when that fails). `argv[0]` stays
/// this one, so the network binary's messages name the command the user typed.
pub fn exec(bin: &Path) -> Result<()> {
    use std::os::unix::process::CommandExt;
    let mut args = std::env::args_os();
    let arg0 = args.next().unwrap_or_else(|| OsString::from("haifu"));
    let err = std::process::Command::new(bin).arg0(arg0).args(args).exec();
    Err(err).with_context(|| format!("running the network binary {}", bin.display()))
}
