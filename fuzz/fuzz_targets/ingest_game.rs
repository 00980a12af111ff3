//! A whole file through the readers (mjlog, tenhou.net/6, mjai by content) and the replay of every game read:
//! errors are fine, panics are bugs.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(games) = haifu_record::read_games("fuzz.xml", data) {
        for g in &games {
            let _ = haifu_ingest::extract(g);
        }
    }
});
