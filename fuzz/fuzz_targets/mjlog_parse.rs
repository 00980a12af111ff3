//! The mjlog reader on arbitrary bytes: it may refuse them, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = haifu_record::mjlog::parse(data);
});
