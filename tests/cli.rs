//! The `haifu` command line, end to end, on logs the project writes itself (the demo's bots): the JSON
//! summary, re-runs that skip what is ingested, bad input quarantined with its reason, `--strict`, leftovers
//! of an interrupted run, and Polars reading the tables back.

mod common;

use std::io::Write;
use std::path::Path;

use common::{haifu, json, Scratch};
use polars::prelude::*;

/// Writes `games` demo logs under `dir/logs` and returns that directory.
fn demo_logs(dir: &Path, games: usize) -> std::path::PathBuf {
    let out = dir.join("demo");
    let j = json(&haifu(&["demo", "--out", out.to_str().unwrap(), "--games", &games.to_string(), "--json"]));
    assert_eq!(j["ingest"]["games_ingested"], games as u64);
    out.join("logs")
}

fn count_rows(dataset: &Path, table: &str) -> u32 {
    let lf = LazyFrame::scan_parquet(
        PlRefPath::from(format!("{}/{table}/", dataset.display()).as_str()),
        Default::default(),
    )
    .unwrap();
    let df = lf.select([len()]).collect().unwrap();
    df.column("len").unwrap().u32().unwrap().get(0).unwrap()
}

#[test]
fn demo_shows_every_player() {
    let s = Scratch::new("cli-demo");
    let out = s.0.join("demo");
    let j = json(&haifu(&["demo", "--out", out.to_str().unwrap(), "--games", "12", "--json"]));
    assert_eq!(j["ingest"]["games_ingested"], 12);
    assert_eq!(j["ingest"]["games_quarantined"], 0);
    let players = j["top_sequences"].as_array().unwrap();
    assert_eq!(players.len(), 8, "eight bots, each with its sequences: {players:?}");
    for p in players {
        let seqs = p[1].as_array().unwrap();
        assert!(!seqs.is_empty(), "{p}");
        for s in seqs {
            // a sequence: the suit's digits changed, and `after` is `before` with one or more tiles removed
            let (before, after) = (s[0].as_str().unwrap(), s[1].as_str().unwrap());
            assert_ne!(before, after);
            assert!(after == "-" || after.len() < before.len(), "{before} -> {after}");
        }
    }
}

/// What the demo must show (issue 4): the style bots really play differently, so each bot's discards are
/// imitated better (top-3 match rate) by its own sequence table than by the average other bot's.
#[test]
fn demo_bots_are_imitated_best_by_their_own_tables() {
    let s = Scratch::new("cli-demo-claim");
    let out = s.0.join("demo");
    let j = json(&haifu(&["demo", "--out", out.to_str().unwrap(), "--json"]));
    assert_eq!(j["ingest"]["games_quarantined"], 0);
    let rows = j["match_rates"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 8, "eight bots in the test year: {rows:?}");
    for r in rows {
        let own = 100.0 * r["R_top3 own"].as_f64().unwrap();
        let others = 100.0 * r["R_top3 others"].as_f64().unwrap();
        println!("{}: own {own:.2}% vs others {others:.2}%", r["player"]);
        assert!(own > others, "{} is imitated no better by its own table: {r}", r["player"]);
    }
    // the small network's rows: the same decisions as the thesis table's, its table columns the same figures
    let beside = j["network"]["beside_tables"]["all"]["players"].as_array().unwrap();
    assert_eq!(beside.len(), 8);
    for (b, r) in beside.iter().zip(rows) {
        assert_eq!(b["player"], r["player"]);
        assert_eq!(b["n_all"], r["N_all"]);
        assert_eq!(b["table"]["r_first"], r["R_first all"]);
        assert_eq!(b["table"]["r_top3"], r["R_top3 all"]);
        assert_eq!(b["network"]["n"], r["N_all"], "the network answers every decision");
    }
    assert!(j["network"]["run"]["epochs"].as_array().is_some_and(|e| e.len() == 3));
}

#[test]
fn ingest_json_summary_and_rerun_skips() {
    let s = Scratch::new("cli-ingest");
    let logs = demo_logs(&s.0, 6);
    let data = s.0.join("data");
    let j = json(&haifu(&["ingest", logs.to_str().unwrap(), "--out", data.to_str().unwrap(), "--json"]));
    for key in
        ["files_read", "games_ingested", "games_quarantined", "decisions", "input_bytes", "elapsed_s", "quarantined"]
    {
        assert!(j.get(key).is_some(), "--json lacks {key}: {j}");
    }
    assert_eq!(j["files_read"], 6);
    assert_eq!(j["games_ingested"], 6);
    let decisions = j["decisions"].as_u64().unwrap();
    assert!(decisions > 6 * 4 * 20, "four rounds of play per game: {decisions}");
    assert_eq!(u64::from(count_rows(&data, "decisions")), decisions);
    assert_eq!(u64::from(count_rows(&data, "games")), 6);
    // the same inputs again: nothing new
    let again = json(&haifu(&["ingest", logs.to_str().unwrap(), "--out", data.to_str().unwrap(), "--json"]));
    assert_eq!(again["files_skipped"], 6);
    assert_eq!(again["games_ingested"], 0);
    assert_eq!(u64::from(count_rows(&data, "decisions")), decisions);
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

#[test]
fn bad_input_is_quarantined_and_the_batch_goes_on() {
    let s = Scratch::new("cli-bad");
    let logs = demo_logs(&s.0, 2);
    let good: Vec<_> = std::fs::read_dir(&logs).unwrap().map(|e| e.unwrap().path()).collect();
    let xml = std::fs::read(&good[0]).unwrap();
    let bad = s.0.join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("truncated.xml"), &xml[..xml.len() / 2]).unwrap();
    std::fs::write(bad.join("malformed.xml"), b"<mjloggm ver=\"2.3\">\n<INIT seed=\"0\" <T1/>\n</mjloggm>").unwrap();
    let gz = gzip(&xml);
    std::fs::write(bad.join("cut.mjlog"), &gz[..gz.len() / 2]).unwrap();
    std::fs::write(bad.join("empty.xml"), b"").unwrap();
    std::fs::write(bad.join("notagame.json"), b"{\"hello\": \"world\"}").unwrap();
    std::fs::copy(&good[1], bad.join("good.xml")).unwrap();

    let data = s.0.join("data");
    let j = json(&haifu(&["ingest", bad.to_str().unwrap(), "--out", data.to_str().unwrap(), "--json"]));
    assert_eq!(j["games_ingested"], 1, "{j}");
    let q = j["quarantined"].as_array().unwrap();
    assert_eq!(q.len(), 5, "{q:?}");
    for item in q {
        let (file, reason) = (item["file"].as_str().unwrap(), item["reason"].as_str().unwrap());
        assert!(!reason.is_empty() && !reason.contains('\n'), "one-line reason: {item}");
        if !file.ends_with("cut.mjlog") {
            assert!(reason.contains("line "), "position named: {item}");
        }
    }
    let reason_of = |name: &str| {
        q.iter().find(|i| i["file"].as_str().unwrap().ends_with(name)).unwrap()["reason"].as_str().unwrap().to_string()
    };
    assert!(reason_of("truncated.xml").contains("truncated") || reason_of("truncated.xml").contains("end"));
    assert!(reason_of("cut.mjlog").contains("gzip"));
    assert!(reason_of("empty.xml").contains("empty"));
    let listed = std::fs::read_to_string(data.join("_haifu/quarantine.jsonl")).unwrap();
    assert_eq!(listed.lines().count(), 5);

    // --strict: the run fails and commits nothing
    let strict = s.0.join("strict");
    let out = haifu(&["ingest", bad.to_str().unwrap(), "--out", strict.to_str().unwrap(), "--strict"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--strict"));
    assert!(!strict.join("games").exists() || std::fs::read_dir(strict.join("games")).unwrap().next().is_none());
}

/// A first run whose every file is quarantined leaves a dataset with no games table; the next run with good
/// logs into the same folder ingests them (it failed on the missing table before, issue 32).
#[test]
fn a_failed_first_ingest_can_be_retried() {
    let s = Scratch::new("cli-retry");
    let logs = demo_logs(&s.0, 1);
    let bad = s.0.join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("empty.xml"), b"").unwrap();
    let data = s.0.join("data");
    let first = haifu(&["ingest", bad.to_str().unwrap(), "--out", data.to_str().unwrap(), "--json"]);
    assert!(!first.status.success(), "nothing ingested is exit 1");
    let j = json(&haifu(&["ingest", logs.to_str().unwrap(), "--out", data.to_str().unwrap(), "--json"]));
    assert_eq!(j["games_ingested"], 1, "{j}");
    assert_eq!(count_rows(&data, "games"), 1);
}

#[test]
fn leftovers_of_an_interrupted_run_are_removed() {
    let s = Scratch::new("cli-stale");
    let logs = demo_logs(&s.0, 2);
    let data = s.0.join("data");
    let part = data.join("decisions/year=2023");
    std::fs::create_dir_all(&part).unwrap();
    // what a run killed before its commit leaves: a hidden temporary file and a part of an uncommitted run
    std::fs::write(part.join(".part-123p1-0000.parquet.tmp"), b"half a file").unwrap();
    std::fs::write(part.join("part-123p1-0000.parquet"), b"not committed").unwrap();
    let j = json(&haifu(&["ingest", logs.to_str().unwrap(), "--out", data.to_str().unwrap(), "--json"]));
    assert_eq!(j["stale_removed"], 2);
    assert!(!part.join("part-123p1-0000.parquet").exists());
    assert_eq!(count_rows(&data, "games"), 2);
}

/// `haifu verify` holds every check ingest holds (issue 30): a deal that gives one tile to two seats and a tile
/// id out of range are refused with ingest's reason (the engine replayed the first without a word and skipped
/// the second as a wall that ran out; the id is now refused when the file is read, as ingest refuses it); a
/// refused, skipped or unreadable file makes the exit status 2.
#[test]
fn verify_refuses_what_ingest_quarantines() {
    let s = Scratch::new("cli-verify-refuses");
    let logs = s.0.join("logs");
    json(&haifu(&["sim", "--games", "1", "--out", logs.to_str().unwrap(), "--seed", "3", "--json"]));
    let log = std::fs::read_dir(&logs).unwrap().next().unwrap().unwrap().path();
    let xml = std::fs::read_to_string(&log).unwrap();
    let clean = haifu(&["verify", log.to_str().unwrap(), "--json"]);
    assert!(clean.status.success(), "{}", String::from_utf8_lossy(&clean.stdout));

    // the first INIT's hands: seat 1's first tile becomes seat 0's first (dealt twice), or id 136
    let attr = |name: &str| {
        let at = xml.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        (at, at + xml[at..].find(['"', ',']).unwrap())
    };
    let ((h0, h0_end), (h1, h1_end)) = (attr("hai0"), attr("hai1"));
    let first = &xml[h0..h0_end];
    let twice = format!("{}{first}{}", &xml[..h1], &xml[h1_end..]);
    let out_of_range = format!("{}136{}", &xml[..h0], &xml[h0_end..]);
    let variant = xml.replacen("<GO type=\"169\"", "<GO type=\"2217\"", 1);
    assert_ne!(variant, xml, "a GO tag of type 169: {}", &xml[..200]);
    let bad = s.0.join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    let check = |name: &str, text: &str| {
        let f = bad.join(name);
        std::fs::write(&f, text).unwrap();
        let out = haifu(&["verify", f.to_str().unwrap(), "--json"]);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", String::from_utf8_lossy(&out.stdout));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let v = check("twice.xml", &twice);
    let reason = v["refused"][0]["reason"].as_str().unwrap_or_default();
    assert_eq!(reason, format!("tile {first} dealt twice"), "{v}");
    assert_eq!(v["refused"][0]["tag"].as_str().map(|t| t.starts_with("<INIT")), Some(true), "{v}");
    let v = check("range.xml", &out_of_range);
    // the INIT is typed when read (issue 29): the id is refused by the reader, with the position, as ingest does
    let unreadable = v["unreadable"][0].as_str().unwrap_or_default();
    assert!(unreadable.contains("tile id 136 out of range") && unreadable.contains("line 1, column"), "{v}");
    assert_eq!(v["skipped"].as_array().map(Vec::len), Some(0), "refused, not skipped with another reason: {v}");
    let v = check("variant.xml", &variant);
    assert!(v["skipped"][0].as_str().unwrap_or_default().contains("GO type 2217"), "{v}");
    let v = check("unreadable.xml", "<mjloggm ver=\"2.3\"><T12");
    assert_eq!(v["unreadable"].as_array().map(Vec::len), Some(1), "{v}");

    // the text report names the refused game and its reason
    let out = haifu(&["verify", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8_lossy(&out.stdout);
    // the tile dealt twice is refused; the id out of range is unreadable
    assert!(text.contains("1 games refused") && text.contains("dealt twice"), "{text}");
    assert!(text.contains("unreadable:") && text.contains("tile id 136 out of range"), "{text}");
}

/// `haifu sim` writes games that `haifu verify` replays clean and `haifu ingest` reads in both formats;
/// `haifu battle` prints its test; a bot that does not exist is named in the error.
#[test]
fn sim_verify_ingest_and_battle() {
    let s = Scratch::new("cli-sim");
    let (xml, mjai) = (s.0.join("xml"), s.0.join("mjai"));
    let players = ["Ann=tanyao", "Bob=chanta", "Cy=efficiency", "Dee=folder", "Eve=caller"];
    let run = |out: &Path, format: &str| {
        let mut args =
            vec!["sim", "--games", "6", "--out", out.to_str().unwrap(), "--format", format, "--json", "--players"];
        args.extend(players);
        json(&haifu(&args))
    };
    let j = run(&xml, "mjlog");
    assert_eq!(j["games"], 6);
    assert_eq!(std::fs::read_dir(&xml).unwrap().count(), 6, "one file per game");
    run(&mjai, "mjai");

    let out = haifu(&["verify", xml.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let v = json(&out);
    assert_eq!(v["games"], 6);
    assert!(v["agari_checked"].as_u64().unwrap() > 0, "{v}");
    assert_eq!((v["agari_mismatches"].as_u64(), v["replay_mismatches"].as_u64()), (Some(0), Some(0)), "{v}");

    for (dir, name) in [(&xml, "from-xml"), (&mjai, "from-mjai")] {
        let data = s.0.join(name);
        let i = json(&haifu(&["ingest", dir.to_str().unwrap(), "--out", data.to_str().unwrap(), "--json"]));
        assert_eq!((i["games_ingested"].as_u64(), i["games_quarantined"].as_u64()), (Some(6), Some(0)), "{i}");
    }

    let b =
        json(&haifu(&["battle", "--a", "tanyao", "--b", "greedy", "--sets", "2", "--games-per-set", "2", "--json"]));
    let tests = b["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 3, "{b}");
    for t in tests {
        let p = t["p"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p), "{t}");
    }
    let ranks = b["a"]["mean_rank"].as_f64().unwrap() + b["b"]["mean_rank"].as_f64().unwrap();
    assert!((ranks - 5.0).abs() < 1e-9, "the two sides' mean ranks add up to 1+2+3+4 over 2: {b}");

    let bad = haifu(&["sim", "--games", "1", "--out", s.0.join("bad").to_str().unwrap(), "--players", "nobot"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("nobot"), "{}", String::from_utf8_lossy(&bad.stderr));
}

/// Exit status as the README states it: a usage error is an error like any other (1; clap's own 2 is
/// `haifu verify`'s "it listed something"), `--help` and `--version` succeed.
#[test]
fn usage_errors_exit_1_and_help_exits_0() {
    for args in [&["--no-such-option"][..], &["mine"][..], &["imitate", "suggest", "--hand"][..]] {
        let out = haifu(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stderr).contains("error"), "{args:?}");
    }
    for args in [&["--help"][..], &["--version"][..], &["mine", "--help"][..]] {
        let out = haifu(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(!out.stdout.is_empty(), "{args:?}");
    }
}

/// `encoding::load_seats` (what `style accuracy --network` and `--player-vectors` read) gives the positions of
/// the seats asked for, in the order and with the contents `load_years` gives them, whether it builds the
/// positions cache or reads it.
#[test]
fn the_seats_positions_are_those_of_their_years() {
    let s = Scratch::new("cli-load-seats");
    let (logs, ds) = (s.0.join("logs"), s.0.join("ds"));
    json(&haifu(&["sim", "--games", "4", "--out", logs.to_str().unwrap(), "--seed", "5", "--json"]));
    json(&haifu(&["ingest", logs.to_str().unwrap(), "--out", ds.to_str().unwrap(), "--json"]));
    let games = haifu_encoding::Games::read(&ds).unwrap();
    let keep = |g: i64, seat: u8| (g + i64::from(seat)) % 3 != 0;
    // no cache yet: load_seats builds it
    let seats = haifu_encoding::load_seats(&ds, &games, &[], 4, keep).unwrap();
    let all = haifu_encoding::load_years(&ds, &games, &[], 4).unwrap();
    let kept = all.select(|i| keep(all.game[i], all.seat[i]));
    assert!(seats.len() > 100 && seats.len() < all.len(), "{} of {}", seats.len(), all.len());
    for (a, b) in [(&seats, &kept), (&haifu_encoding::load_seats(&ds, &games, &[], 4, keep).unwrap(), &kept)] {
        assert_eq!((&a.game, &a.seat, &a.label, &a.legal), (&b.game, &b.seat, &b.label, &b.legal));
        assert_eq!(a.features, b.features);
    }
}
