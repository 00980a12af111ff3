//! Reads every mjai log of the shared corpus (when present): files marked `full` in MANIFEST.tsv must parse and
//! replay without an error; fragments must either replay or fail with a clear error (printed).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use haifu_ingest::extract;
use haifu_record::mjai;
use haifu_record::source::decompress;
use haifu_testkit::corpus::{full_games, manifest, outcomes};

/// The reader's words for a game played under other rules than riichi's.
const NOT_RIICHI: &str = "not a riichi-rule game";

/// Independent evidence that a log is not a riichi game: some score or delta not in hundreds.
fn scores_not_in_hundreds(text: &[u8]) -> bool {
    text.split(|&b| b == b'\n').filter_map(|l| serde_json::from_slice::<serde_json::Value>(l).ok()).any(|e| {
        ["scores", "deltas"].iter().any(|k| {
            e.get(*k)
                .and_then(|v| v.as_array())
                .is_some_and(|a| a.iter().any(|x| x.as_i64().is_some_and(|x| x % 100 != 0)))
        })
    })
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[test]
fn mjai_corpus_replays() {
    let Some(root) = haifu_testkit::corpus_dir() else { return };
    let dir = root.join("mjai");
    assert!(dir.is_dir(), "the corpus at {} has no mjai folder", root.display());
    let kinds: BTreeMap<String, &str> = manifest(&root)
        .into_iter()
        .filter(|e| e.format == "mjai")
        .map(|e| (e.path, if e.full { "full" } else { "fragment" }))
        .collect();
    let want_full = full_games(&root, "mjai").len();
    let mut full_done = 0;
    let mut files = Vec::new();
    files_under(&dir, &mut files);
    files.sort();
    let mut failures = Vec::new();
    let (mut n_files, mut n_games, mut n_decisions, mut n_other_rules) = (0, 0, 0, 0);
    for path in &files {
        let rel = path.strip_prefix(&root).unwrap_or(path).to_string_lossy().replace('\\', "/");
        let kind = kinds.get(&rel).copied().unwrap_or("unlisted");
        n_files += 1;
        let raw = std::fs::read(path).expect("corpus file readable");
        let text = match decompress(raw) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{rel}: {e}"));
                continue;
            }
        };
        let games = match mjai::parse(&text) {
            Ok(g) => g,
            // a full game under other rules (akochan's Chinese-rules self-play) must be refused as such
            Err(e) if kind == "full" && e.message.contains(NOT_RIICHI) && scores_not_in_hundreds(&text) => {
                n_other_rules += 1;
                full_done += 1;
                println!("{rel} [{kind}]: refused, other rules: {e}");
                continue;
            }
            Err(e) => {
                println!("{rel} [{kind}]: read error: {e}");
                if kind == "full" {
                    failures.push(format!("{rel}: {e}"));
                }
                continue;
            }
        };
        // the discards the file holds, counted from its message types without the reader
        let (want, mut decisions) = (outcomes("mjai", &text), 0);
        for g in &games {
            n_games += 1;
            match extract(g) {
                Ok(r) => {
                    n_decisions += r.decisions.len();
                    decisions += r.decisions.len();
                    println!(
                        "{rel} [{kind}] game {}: {} rounds, {} decisions, {}",
                        g.index_in_file,
                        r.rounds.len(),
                        r.decisions.len(),
                        r.truncation.as_deref().unwrap_or("complete")
                    );
                    if kind == "full" && !r.complete {
                        failures.push(format!("{rel} game {}: incomplete: {:?}", g.index_in_file, r.truncation));
                    }
                }
                Err(e) => {
                    println!("{rel} [{kind}] game {}: replay error: {e}", g.index_in_file);
                    if kind == "full" {
                        failures.push(format!("{rel} game {}: {e}", g.index_in_file));
                    }
                }
            }
        }
        if kind == "full" {
            full_done += 1;
            if decisions != want.discards {
                failures.push(format!("{rel}: {decisions} decisions, the file holds {} dahai", want.discards));
            }
        }
    }
    assert!(n_files > 0, "{} holds no file", dir.display());
    println!(
        "mjai corpus: {n_files} files, {n_games} games replayed, {n_decisions} decisions, {n_other_rules} full games \
         under other rules refused, {} failures",
        failures.len()
    );
    assert!(failures.is_empty(), "full mjai logs that failed:\n{}", failures.join("\n"));
    assert_eq!(full_done, want_full, "every full mjai game of the manifest read (or refused as other rules)");
}
