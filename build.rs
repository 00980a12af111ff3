//! Compresses the debug sections of every binary this package links (`haifu` and its test binaries): the
//! line tables of the workspace's own crates, which name our lines in backtraces and profiles, take a third
//! of the space in zlib (`readelf -S`: flag C). zlib, not zstd: std's backtraces read zlib-compressed
//! sections but not zstd ones (gdb and perf read both).
//!
//! The release profile strips this package's binaries (Cargo.toml, `[profile.release.package.haifu]`), so this
//! holds for a build with `--config 'profile.release.package.haifu.strip="none"'`.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg=-Wl,--compress-debug-sections=zlib");
    }
}
