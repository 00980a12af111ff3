//! Keeps libtorch's CUDA library linked into the network binary `haifu-neural` (`haifu` links no libtorch).
//! The linker drops a library no symbol of the binary refers to (`--as-needed`), and nothing refers to
//! libtorch_cuda directly: without it libtorch never sees a GPU. Where the libtorch that tch builds against
//! has `libtorch_cuda.so`, the binary is linked with it (`readelf -d haifu-neural | grep torch_cuda`) and
//! gets an rpath to that directory; the same binary runs on a machine without a GPU. The directory is found as torch-sys finds it: `$LIBTORCH/lib`, or the `torch`
//! package of the `python3` first on PATH when `LIBTORCH_USE_PYTORCH` is set.

use std::path::PathBuf;
use std::process::Command;

fn libtorch_lib() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("LIBTORCH") {
        return Some(PathBuf::from(dir).join("lib"));
    }
    std::env::var_os("LIBTORCH_USE_PYTORCH")?;
    let out = Command::new("python3")
        .args(["-c", "import os, torch; print(os.path.join(os.path.dirname(torch.__file__), 'lib'))"])
        .output()
        .ok()?;
    out.status.success().then(|| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
}

fn main() {
    // the debug sections compressed, as for `haifu` (the root package's build.rs says why zlib)
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg=-Wl,--compress-debug-sections=zlib");
    }
    println!("cargo:rerun-if-env-changed=LIBTORCH");
    println!("cargo:rerun-if-env-changed=LIBTORCH_USE_PYTORCH");
    println!("cargo:rerun-if-changed=build.rs");
    let Some(lib) = libtorch_lib() else { return };
    println!("cargo:rustc-link-arg-bins=-Wl,-rpath,{}", lib.display());
    if lib.join("libtorch_cuda.so").is_file() {
        println!("cargo:rustc-link-arg-bins=-L{}", lib.display());
        println!("cargo:rustc-link-arg-bins=-Wl,--no-as-needed");
        println!("cargo:rustc-link-arg-bins=-ltorch_cuda");
        println!("cargo:rustc-link-arg-bins=-Wl,--as-needed");
    }
}
