//! The tenhou.net/6 reader on the real corpus (`../shared/corpus/tenhou6`, or `$HAIFU_CORPUS/tenhou6`).
//!
//! Covers: every file is parsed and replayed; every game the manifest calls `full` must replay without error and
//! reach `owari`; fragments (crafted or partial snippets) either replay or fail with an error naming the round,
//! and are listed. Where the corpus holds the same game as an mjlog (same log id), the two records must agree
//! event by event, up to physical tile ids (the tenhou.net/6 format does not keep them): draws, discards, calls,
//! dora and riichi by seat and tile kind, the round heads, and each result (winner, payer, points, limit, yaku,
//! deltas, hands shown); fu too, except for limit hands whose score string carries none.
//! Skips, with a printed line, when the corpus is absent.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use haifu_ingest::extract;
use haifu_record::event::{Event, GameRecord};
use haifu_record::read_games;
use haifu_rules::Tile;
use haifu_testkit::corpus::{full_games, manifest, outcomes};

fn corpus_root() -> Option<PathBuf> {
    haifu_testkit::corpus_dir().filter(|root| root.join("tenhou6").is_dir())
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn gunzip(path: &Path) -> Result<Vec<u8>, String> {
    haifu_record::source::decompress(std::fs::read(path).map_err(|e| e.to_string())?)
}

fn read_text(path: &Path, text: &[u8]) -> Result<Vec<GameRecord>, String> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    read_games(name, text).map_err(|e| e.to_string())
}

fn read(path: &Path) -> Result<Vec<GameRecord>, String> {
    read_text(path, &gunzip(path)?)
}

/// A tile by kind, red fives marked: what both formats agree on.
fn kind(t: Tile, red: bool) -> String {
    format!("{}{}", t.kind(), if red && t.is_red_id() { "r" } else { "" })
}

fn tiles(s: &str, red: bool) -> String {
    let mut v: Vec<String> = s
        .split(',')
        .filter(|x| !x.is_empty())
        .filter_map(|x| x.parse::<u8>().ok().and_then(Tile::new))
        .map(|t| kind(t, red))
        .collect();
    v.sort();
    v.join("")
}

/// The record as tokens without physical ids, one per event (root, GO, UN, SHUFFLE, BYE and dice left out).
fn tokens(g: &GameRecord) -> Vec<String> {
    let red = g
        .events
        .iter()
        .find_map(|e| e.as_tag("GO"))
        .and_then(|t| t.get("type"))
        .and_then(|t| t.parse::<u32>().ok())
        .is_none_or(|t| t & 0x02 == 0);
    let mut out = Vec::new();
    for e in &g.events {
        let tok = match e {
            Event::Draw { seat, tile } => format!("draw {seat} {}", kind(*tile, red)),
            Event::Discard { seat, tile } => format!("discard {seat} {}", kind(*tile, red)),
            Event::Dora { tile } => format!("dora {}", kind(*tile, red)),
            Event::Call { seat, meld: m, .. } => {
                let mut ts: Vec<String> = m.tiles().iter().map(|t| kind(*t, red)).collect();
                ts.sort();
                let called = m.called.map(|t| kind(t, red)).unwrap_or_default();
                format!("call {seat} {} {} from {} called {called}", m.kind.name(), ts.join(""), m.from)
            }
            // the rich tags compared as written
            _ => {
                let Some(t) = e.written_tag() else { continue };
                let a = |k: &str| t.get(k).unwrap_or("").to_string();
                match t.name.as_str() {
                    "INIT" => {
                        let seed = a("seed");
                        let seed: Vec<&str> = seed.split(',').collect();
                        let dora = seed.get(5).and_then(|x| x.parse::<u8>().ok()).and_then(Tile::new);
                        let hands: Vec<String> = (0..4).map(|i| tiles(&a(&format!("hai{i}")), red)).collect();
                        format!(
                            "INIT {} ten {} oya {} dora {} hands {}",
                            seed.get(..3).map(|s| s.join(",")).unwrap_or_default(),
                            a("ten"),
                            a("oya"),
                            dora.map(|d| kind(d, red)).unwrap_or_default(),
                            hands.join("|")
                        )
                    }
                    "REACH" => format!("REACH {} step {} ten {}", a("who"), a("step"), a("ten")),
                    "AGARI" => {
                        let ten: Vec<String> = a("ten").split(',').map(str::to_string).collect();
                        format!(
                            concat!(
                                "AGARI who {} from {} pao {} ba {} ten {} yaku {} yakuman {} ",
                                "hai {} machi {} m {} dora {} ura {} sc {} owari {}"
                            ),
                            a("who"),
                            a("fromWho"),
                            a("paoWho"),
                            a("ba"),
                            ten.get(1..).map(|x| x.join(",")).unwrap_or_default(),
                            a("yaku"),
                            a("yakuman"),
                            tiles(&a("hai"), red),
                            tiles(&a("machi"), red),
                            a("m").split(',').filter(|x| !x.is_empty()).count(),
                            tiles(&a("doraHai"), red),
                            tiles(&a("doraHaiUra"), red),
                            a("sc"),
                            a("owari")
                        )
                    }
                    "RYUUKYOKU" => {
                        let shown: Vec<String> = (0..4).map(|i| tiles(&a(&format!("hai{i}")), red)).collect();
                        format!(
                            "RYUUKYOKU {} ba {} sc {} shown {} owari {}",
                            a("type"),
                            a("ba"),
                            a("sc"),
                            shown.join("|"),
                            a("owari")
                        )
                    }
                    "TAIKYOKU" => format!("TAIKYOKU {}", a("oya")),
                    _ => continue,
                }
            }
        };
        out.push(tok);
    }
    out
}

/// The fu of each AGARI, to compare where the tenhou.net/6 side knows it (non-zero).
fn fus(g: &GameRecord) -> Vec<u32> {
    g.events
        .iter()
        .filter_map(|e| e.as_tag("AGARI"))
        .map(|t| t.get("ten").and_then(|x| x.split(',').next()).and_then(|f| f.parse().ok()).unwrap_or(0))
        .collect()
}

/// Compares a tenhou.net/6 game with its mjlog twin; the first difference, if any.
fn compare(t6: &GameRecord, ml: &GameRecord) -> Option<String> {
    let (a, b) = (tokens(t6), tokens(ml));
    if let Some(i) = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)) {
        let show = |v: &[String]| {
            v.get(i.saturating_sub(3)..(i + 1).min(v.len())).map(|s| s.join("\n    ")).unwrap_or_default()
        };
        return Some(format!("token {i} differs:\n  tenhou6:\n    {}\n  mjlog:\n    {}", show(&a), show(&b)));
    }
    for (i, (x, y)) in fus(t6).iter().zip(fus(ml)).enumerate() {
        if *x != 0 && *x != y {
            return Some(format!("AGARI {i}: fu {x} but the mjlog says {y}"));
        }
    }
    // names (percent-encoded differently: compare decoded), dan, rate, sex, when the file gives them
    let un = |g: &GameRecord| {
        g.events.iter().find_map(|e| match e {
            Event::Players(un) => Some(un.0.clone()),
            _ => None,
        })
    };
    if let (Some(a), Some(b)) = (un(t6), un(ml)) {
        let given = a.iter().flatten().any(|p| p.dan.is_some_and(|d| d != 0));
        if given && a != b {
            return Some(format!("UN {a:?} but the mjlog says {b:?}"));
        }
    }
    let go = |g: &GameRecord, k: &str| {
        g.events.iter().find_map(|e| e.as_tag("GO")).and_then(|t| t.get(k)).map(str::to_string)
    };
    if go(t6, "type") != go(ml, "type") {
        return Some(format!("GO type {:?} but the mjlog says {:?}", go(t6, "type"), go(ml, "type")));
    }
    None
}

#[test]
fn tenhou6_corpus_replays_and_matches_mjlog() {
    let Some(root) = corpus_root() else { return };
    let kinds: HashMap<String, bool> = manifest(&root).into_iter().map(|e| (e.path, e.full)).collect();
    let want_full = full_games(&root, "tenhou6");
    let mut paths = Vec::new();
    files(&root.join("tenhou6"), &mut paths);
    paths.retain(|p| p.extension().is_some_and(|e| e == "gz" || e == "json"));
    let mut mjlogs: HashMap<String, PathBuf> = HashMap::new();
    let mut all_mjlogs = Vec::new();
    files(&root.join("mjlog"), &mut all_mjlogs);
    for p in all_mjlogs {
        if let Some(id) = p.file_name().and_then(|n| n.to_str()).and_then(haifu_record::source::find_log_id) {
            mjlogs.entry(id).or_insert(p);
        }
    }

    let (mut full_ok, mut fragments_ok, mut compared, mut wins, mut fu_unknown) = (0, 0, 0, 0, 0);
    let mut failures = Vec::new();
    let mut fragment_errors = Vec::new();
    for path in &paths {
        let rel = path.strip_prefix(&root).unwrap_or(path).to_string_lossy().replace('\\', "/");
        let full = match kinds.get(&rel) {
            Some(&full) => full,
            None => !rel.contains("/fragments/"),
        };
        let text = gunzip(path);
        let outcome = text.as_ref().map_err(String::clone).and_then(|text| read_text(path, text)).and_then(|games| {
            let g = games.into_iter().next().ok_or("no game in the file")?;
            let r = extract(&g).map_err(|e| format!("replay: {e}"))?;
            Ok((g, r))
        });
        match (outcome, full) {
            (Ok((g, r)), true) => {
                if !r.complete {
                    failures.push(format!("{rel}: full game ends without owari ({:?})", r.truncation));
                    continue;
                }
                full_ok += 1;
                // the rounds and discards the file holds, counted from its JSON without the reader
                let want = outcomes("tenhou6", text.as_deref().unwrap_or_default());
                if (r.rounds.len(), r.decisions.len()) != (want.rounds, want.discards) {
                    failures.push(format!(
                        "{rel}: replayed {} rounds and {} discards, the file holds {} and {}",
                        r.rounds.len(),
                        r.decisions.len(),
                        want.rounds,
                        want.discards
                    ));
                }
                let twin = g.log_id.as_ref().and_then(|id| mjlogs.get(id));
                if let Some(twin) = twin {
                    let ml = read(twin).unwrap_or_else(|e| panic!("{}: {e}", twin.display()));
                    compared += 1;
                    fu_unknown += fus(&g).iter().filter(|&&f| f == 0).count();
                    wins += fus(&g).len();
                    if let Some(diff) = compare(&g, &ml[0]) {
                        failures.push(format!("{rel} vs {}: {diff}", twin.display()));
                    }
                    // the same game, so ingest keeps one of the two
                    if g.play_hash() != ml[0].play_hash() {
                        failures.push(format!("{rel} vs {}: another play hash", twin.display()));
                    }
                }
                println!("full     {rel}: {} rounds, {} discards", r.rounds.len(), r.decisions.len());
            }
            (Ok((_, r)), false) => {
                fragments_ok += 1;
                println!(
                    "fragment {rel}: {} rounds, {} discards, complete {}",
                    r.rounds.len(),
                    r.decisions.len(),
                    r.complete
                );
            }
            (Err(e), true) => failures.push(format!("{rel}: {e}")),
            (Err(e), false) => {
                assert!(!e.is_empty());
                fragment_errors.push(format!("{rel}: {e}"));
            }
        }
    }
    for e in &fragment_errors {
        println!("fragment error (expected for inconsistent snippets): {e}");
    }
    println!(
        "tenhou6 corpus: {} files, {full_ok} full games replayed ({compared} matched against their mjlog; fu of \
         {fu_unknown} limit hands of {wins} wins not in the score string), {fragments_ok} fragments replayed, \
         {} fragments refused",
        paths.len(),
        fragment_errors.len()
    );
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(full_ok, want_full.len(), "every full game of the manifest replayed");
}
