//! The real corpus as the engine's oracle (../shared/corpus, MANIFEST kind=full): every full mjlog,
//! tenhou.net/6 and mjai game is played again through `haifu_sim::Engine` by `haifu_sim::verify`; every logged
//! action must be legal, every win, draw, round start and `owari` must equal the engine's. Prints the counts
//! and the first mismatches by category; passes (checking nothing) when the corpus is absent.
//! `SIM_CORPUS_LIMIT=n` checks only the first n files (for quick runs).

use std::collections::BTreeMap;
use std::path::Path;

use haifu_sim::verify::{verify_game, Category, VerifyReport};

/// Independent evidence that an mjai log was not scored by Tenhou's rules: a win with a fu Tenhou never
/// writes (not rounded up to ten, and not 25). akochan's self-play logs are such.
fn fu_not_tenhou(text: &[u8]) -> bool {
    text.split(|&b| b == b'\n').filter_map(|l| serde_json::from_slice::<serde_json::Value>(l).ok()).any(|e| {
        e.get("type").and_then(|t| t.as_str()) == Some("hora")
            && e.get("fu").and_then(|f| f.as_i64()).is_some_and(|f| f % 10 != 0 && f != 25)
    })
}

/// The report of one file, and whether its own scores are Tenhou's (mjai logs of other engines may not be).
fn check_file(root: &Path, rel: &str) -> (VerifyReport, bool) {
    let mut rep = VerifyReport::default();
    let raw = std::fs::read(root.join(rel)).expect("corpus file readable");
    let text = haifu_record::source::decompress(raw).expect("corpus file decompresses");
    let tenhou_scored = !fu_not_tenhou(&text);
    let games = match haifu_record::read_games(rel, &text) {
        Ok(g) => g,
        Err(e) => {
            rep.skipped.push(format!("{rel}: unreadable: {e}"));
            return (rep, tenhou_scored);
        }
    };
    for (i, g) in games.iter().enumerate() {
        let name = if games.len() > 1 { format!("{rel}#{i}") } else { rel.to_string() };
        rep.merge(verify_game(&name, g));
    }
    (rep, tenhou_scored)
}

#[test]
fn every_full_game_replays_through_the_engine() {
    let Some(root) = haifu_testkit::corpus_dir() else { return };
    let mut files: Vec<(String, String)> =
        haifu_testkit::corpus::manifest(&root).into_iter().filter(|e| e.full).map(|e| (e.path, e.format)).collect();
    files.sort();
    if let Some(n) = std::env::var("SIM_CORPUS_LIMIT").ok().and_then(|v| v.parse().ok()) {
        files.truncate(n);
    }
    let t = std::time::Instant::now();
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).min(8);
    let chunks: Vec<Vec<(String, String)>> =
        (0..workers).map(|w| files.iter().skip(w).step_by(workers).cloned().collect()).collect();
    let mut per_format: BTreeMap<String, VerifyReport> = BTreeMap::new();
    let mut other_scoring: Vec<(String, VerifyReport)> = Vec::new();
    std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|chunk| {
                let root = &root;
                s.spawn(move || {
                    let mut out: BTreeMap<String, VerifyReport> = BTreeMap::new();
                    let mut other_scoring = Vec::new();
                    for (rel, format) in chunk {
                        let (rep, tenhou_scored) = check_file(root, rel);
                        if tenhou_scored {
                            out.entry(format.clone()).or_default().merge(rep);
                        } else {
                            other_scoring.push((rel.clone(), rep));
                        }
                    }
                    (out, other_scoring)
                })
            })
            .collect();
        for h in handles {
            let (reps, other) = h.join().expect("worker");
            for (f, r) in reps {
                per_format.entry(f).or_default().merge(r);
            }
            other_scoring.extend(other);
        }
    });
    // logs scored by another engine are replayed too (legality, round ends) but not held to Tenhou's scores
    other_scoring.sort_by(|a, b| a.0.cmp(&b.0));
    for (rel, r) in &other_scoring {
        let engine: Vec<_> = r.mismatches.iter().filter(|m| !m.category.is_scoring()).collect();
        println!(
            "{rel}: scored by another engine (fu not Tenhou's): {} agari, {} scoring differences, {} other",
            r.agari_checked,
            r.mismatches.len() - engine.len(),
            engine.len()
        );
        let follow_ups =
            |c: Category| matches!(c, Category::RoundStart | Category::GameEnd | Category::Owari | Category::Record);
        let real: Vec<_> = engine.iter().filter(|m| !follow_ups(m.category)).collect();
        assert!(real.is_empty(), "{rel}: {real:#?}");
    }
    let mut all = VerifyReport::default();
    for (format, r) in &per_format {
        println!(
            "{format}: {} games ({} skipped), {} rounds ({} written as the log), {} actions, {} agari, {} draws, {} owari checked; {} mismatches {:?}",
            r.games,
            r.skipped.len(),
            r.rounds,
            r.records_checked,
            r.actions,
            r.agari_checked,
            r.draws_checked,
            r.owari_checked,
            r.mismatches.len(),
            r.by_category().iter().map(|(c, n)| format!("{}={n}", c.name())).collect::<Vec<_>>()
        );
        all.merge(r.clone());
    }
    println!("{:.1}s; tenpai rule put to the test: {:?}", t.elapsed().as_secs_f64(), all.tenpai_rule_cases);
    for s in all.skipped.iter().take(10) {
        println!("  skipped: {s}");
    }
    let mut by: BTreeMap<Category, Vec<&haifu_sim::verify::Mismatch>> = BTreeMap::new();
    for m in &all.mismatches {
        by.entry(m.category).or_default().push(m);
    }
    let per = (30 / by.len().max(1)).max(3);
    for (c, ms) in &by {
        println!("== {} ({} mismatches{})", c.name(), ms.len(), if c.is_scoring() { ", scoring" } else { "" });
        for m in ms.iter().take(per) {
            println!(
                "  {} {} ev{}: {}\n      expected {}\n      computed {}",
                m.game, m.round_name, m.event, m.what, m.expected, m.computed
            );
        }
    }
    if let Ok(p) = std::env::var("SIM_REPORT_JSON") {
        let f = std::fs::File::create(&p).expect("report file");
        serde_json::to_writer(f, &all).expect("report written");
    }
    // every full game was played through; the only ones left out are mjai logs under other rules than riichi
    // and Tenhou's ratio variant (GO bit 0x800), whose rules the engine does not model
    let by_design = |s: &&String| s.contains("not a riichi-rule game") || s.contains("a rule variant the ranked");
    let left_out: Vec<&String> = all.skipped.iter().filter(|s| !by_design(s)).collect();
    assert!(left_out.is_empty(), "full games skipped: {left_out:?}");
    let played = all.games + other_scoring.iter().map(|(_, r)| r.games).sum::<usize>();
    // a file the reader refuses is skipped without a game; a game of the ratio variant is counted, then skipped
    let unread = all.skipped.iter().filter(|s| s.contains(": unreadable: ")).count();
    assert_eq!(played + unread, files.len(), "every full game of the manifest is played through the engine");
    assert!(all.mismatches.is_empty(), "{} mismatches (see above)", all.mismatches.len());
}
