//! Builds the shanten tables (`src/shanten_tables.rs`) when the crate is compiled and writes them where
//! `src/shanten.rs` includes them: a static `TABLES`, its large arrays as `include_bytes!` of files beside it.

use std::fmt::Write as _;
use std::path::Path;

#[allow(dead_code)]
#[path = "src/shanten_tables.rs"]
mod shanten_tables;

fn main() {
    println!("cargo::rerun-if-changed=src/shanten_tables.rs");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let out = Path::new(&out);
    let t = shanten_tables::build();
    let bytes = |name: &str, data: &[u8]| {
        let path = out.join(name);
        std::fs::write(&path, data).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        format!("include_bytes!({:?})", path.display().to_string())
    };
    let mut vecs = String::new();
    for v in &t.suit_vecs {
        write!(vecs, "{v:?}, ").expect("writing to a String");
    }
    let three_n = t.dist.len() / (5 * shanten_tables::HONOR_STRIDE);
    let code = format!(
        "static TABLES: Tables = Tables {{\n    suit: {},\n    suit_vecs: &[{vecs}],\n    honor: {},\n    two: {},\n    \
         three: {},\n    dist: {},\n    three_n: {three_n},\n}};\n",
        bytes("suit.bin", &t.suit),
        bytes("honor.bin", &t.honor),
        bytes("two.bin", &t.two),
        bytes("three.bin", &t.three),
        bytes("dist.bin", &t.dist),
    );
    let path = out.join("shanten_tables.rs");
    std::fs::write(&path, code).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
}
