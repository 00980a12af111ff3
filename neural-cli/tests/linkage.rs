//! The network binary keeps libtorch's CUDA library (issue 11; the linker would drop it, and CUDA would
//! never be seen): where the libtorch it was built against has `libtorch_cuda.so`, `readelf -d haifu-neural`
//! lists it as NEEDED, beside an rpath to that libtorch. (`haifu` links none: tests/handoff.rs.)

use std::path::PathBuf;
use std::process::Command;

#[test]
fn the_binary_links_libtorch_cuda_where_libtorch_has_it() {
    let bin = env!("CARGO_BIN_EXE_haifu-neural");
    let Ok(out) = Command::new("readelf").args(["-d", bin]).output() else {
        eprintln!("SKIPPED: no readelf here (binutils) to read the binary's dynamic section");
        return;
    };
    let dynamic = String::from_utf8_lossy(&out.stdout);
    let runpath = dynamic
        .lines()
        .find(|l| l.contains("(RUNPATH)") || l.contains("(RPATH)"))
        .and_then(|l| l.split('[').nth(1))
        .map(|p| PathBuf::from(p.trim_end_matches(']')))
        .expect("an rpath to libtorch (build.rs adds it)");
    let needed = dynamic.lines().any(|l| l.contains("(NEEDED)") && l.contains("libtorch_cuda.so"));
    if runpath.join("libtorch_cuda.so").is_file() {
        assert!(needed, "{} has libtorch_cuda.so but the binary does not need it:\n{dynamic}", runpath.display());
    } else {
        eprintln!("NOTE: {} has no libtorch_cuda.so (a CPU-only libtorch): nothing to keep", runpath.display());
    }
    assert!(dynamic.contains("libtorch_cpu.so"), "libtorch itself is linked");
}
