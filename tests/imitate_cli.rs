//! `haifu imitate suggest | eval | estimator` end to end: a game written with the ingest testkit, sequence
//! tables written in the documented schema, the figures checked by hand, and the error messages.

mod common;

use std::path::{Path, PathBuf};

use common::{error, haifu, json, Scratch};
use haifu_imitate::table::{write_sequences, SequenceRow};
use haifu_mining::Strategy;
use haifu_testkit::thesis_round;

/// The thesis round ([`thesis_round`]): A (dealer) draws 5s into the thesis hand 3336678p33345s22z and
/// discards 6p; later A declares riichi with 1s (333678p133345s22z) and wins. B discards N from seven
/// isolated honors.
fn dataset(dir: &Path) -> PathBuf {
    haifu_ingest::pipeline::ingest_logs(dir, &[("2024010112gm-00a9-0000-0000aaaa.xml", thesis_round().xml())])
        .expect("the logs ingest")
}

fn tables(dir: &Path) -> PathBuf {
    let t = dir.join("tables");
    let r = |scope, before, after, count| SequenceRow {
        scope,
        strategy: Strategy::All,
        source: "draw",
        before,
        after,
        count,
    };
    let rows = [
        r("A", "3336678", "333678", 5),
        r("A", "2344777", "234777", 3),
        r("A", "3336678", "336678", 7),
        r("A", "133345", "33345", 2),
        r("B", "1289", "129", 1),
        r("ALL", "3336678", "333678", 5),
        r("ALL", "2344777", "234777", 3),
        r("ALL", "3336678", "336678", 17),
        r("ALL", "133345", "33345", 2),
        r("ALL", "133345", "13334", 5),
        r("ALL", "1289", "129", 1),
    ];
    write_sequences(&t, &rows).unwrap();
    std::fs::write(t.join("meta.json"), r#"{"options": {"years": [2023], "rounds": "all"}, "tables_version": 2}"#)
        .unwrap();
    t
}

#[test]
fn suggest_explains_the_thesis_example() {
    let s = Scratch::new("cli-imitate-suggest");
    let t = tables(&s.0);
    let t = t.to_str().unwrap();
    let j =
        json(&haifu(&["imitate", "suggest", "--tables", t, "--player", "A", "--hand", "3336678p33345s22z", "--json"]));
    let c = j["candidates"].as_array().unwrap();
    let tiles: Vec<&str> = c.iter().map(|c| c["tile"].as_str().unwrap()).collect();
    // 6p 5 + 3 = 8, 3p 7, then 7p and 8p at 0 in kind order; sou 33345 unknown
    assert_eq!(tiles, ["6p", "3p", "7p", "8p"]);
    assert_eq!(
        (c[0]["count"].as_u64(), c[0]["mirror_count"].as_u64(), c[0]["score"].as_u64()),
        (Some(5), Some(3), Some(8))
    );
    assert_eq!(c[0]["mirror_before"], "2344777");
    assert_eq!(j["suits"][2]["status"], "unknown");

    let out = haifu(&["imitate", "suggest", "--tables", t, "--player", "A", "--hand", "3336678p33345s22z"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("6p  pin (3336678, 333678) 5 + mirror (2344777, 234777) 3 = 8"), "{text}");
    assert!(text.contains("sou 33345: not in the table"), "{text}");

    // isolated honors: South seat makes S a value honor, after W and N
    let j = json(&haifu(&[
        "imitate",
        "suggest",
        "--tables",
        t,
        "--player",
        "B",
        "--hand",
        "129m19p19s1234567z",
        "--seat-wind",
        "S",
        "--json",
    ]));
    let tiles: Vec<&str> = j["candidates"].as_array().unwrap().iter().map(|c| c["tile"].as_str().unwrap()).collect();
    assert_eq!(tiles, ["W", "N", "E", "S", "P", "F", "C"]);

    let e = error(&haifu(&["imitate", "suggest", "--tables", t, "--player", "Z", "--hand", "3336678p33345s22z"]));
    assert!(e.contains("unknown player \"Z\""), "{e}");
    let missing = s.0.join("none");
    let e = error(&haifu(&[
        "imitate",
        "suggest",
        "--tables",
        missing.to_str().unwrap(),
        "--player",
        "A",
        "--hand",
        "3336678p33345s22z",
    ]));
    assert!(e.contains(&format!("{}/sequences.parquet", missing.display())), "{e}");
    let e = error(&haifu(&["imitate", "suggest", "--tables", t, "--player", "A", "--hand", "3336678p33345s2z"]));
    assert!(e.contains("13 tiles"), "{e}");
}

#[test]
fn eval_reports_every_variant() {
    let s = Scratch::new("cli-imitate-eval");
    let data = dataset(&s.0);
    let t = tables(&s.0);
    let (d, t) = (data.to_str().unwrap(), t.to_str().unwrap());
    let j = json(&haifu(&[
        "imitate",
        "eval",
        "--dataset",
        d,
        "--tables",
        t,
        "--years",
        "2024",
        "--players",
        "A,B",
        "--json",
    ]));
    let players = j["players"].as_array().unwrap();
    assert_eq!(players.len(), 2);
    for p in players {
        for v in ["own", "all", "others", "all-but-own"] {
            let row = &p["variants"][v];
            for k in ["n_all", "n_none_strategy", "n_none_hand", "c_first", "c_top3", "r_first", "r_top3", "coverage"] {
                assert!(row.get(k).is_some(), "{} {v} lacks {k}: {row}", p["player"]);
            }
        }
    }
    let a = &players[0];
    assert_eq!(a["player"], "A");
    // own: both of A's non-riichi discards first; all: both second (3p 17 and 5s 5 ahead); the riichi one out
    assert_eq!(a["variants"]["own"]["c_first"], 2);
    assert_eq!(a["variants"]["own"]["riichi_left_out"], 1);
    assert_eq!(a["variants"]["all"]["c_first"], 0);
    assert_eq!(a["variants"]["all"]["c_top3"], 2);
    assert_eq!(a["variants"]["all"]["r_top3"], 1.0);
    // all-but-own: ALL minus A leaves (3336678, 336678) 10 and (133345, 13334) 5: again second
    assert_eq!(a["variants"]["all-but-own"]["c_second"], 2);
    // others = B's table only, which answers nothing for A
    assert_eq!(a["variants"]["others"]["tables"], 1);
    assert_eq!(a["variants"]["others"]["coverage"], 0.0);
    assert_eq!(j["overall"]["own"]["n_all"], 5);
    assert_eq!(j["tables_options"]["years"][0], 2023);

    let out = haifu(&[
        "imitate",
        "eval",
        "--dataset",
        d,
        "--tables",
        t,
        "--years",
        "2024",
        "--players",
        "A",
        "--table",
        "own",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("100.00%") && text.contains("in-riichi discards left out"), "{text}");

    let e = error(&haifu(&["imitate", "eval", "--dataset", d, "--tables", t, "--years", "2024", "--players", "Z"]));
    assert!(e.contains("unknown player Z"), "{e}");
    let e = error(&haifu(&[
        "imitate",
        "eval",
        "--dataset",
        d,
        "--tables",
        t,
        "--years",
        "2024",
        "--players",
        "C",
        "--table",
        "own",
    ]));
    assert!(e.contains("unknown player \"C\"") && e.contains("sequences.parquet"), "{e}");
    let e = error(&haifu(&["imitate", "eval", "--dataset", d, "--tables", "/nonexistent/t", "--years", "2024"]));
    assert!(e.contains("/nonexistent/t/sequences.parquet"), "{e}");

    let j = json(&haifu(&["imitate", "estimator", "--dataset", d, "--years", "2024", "--json"]));
    assert_eq!(j["won_rounds"], 1);
    assert_eq!(j["rounds"]["undetermined"]["none"], 1);
}

/// Tables missing one of the four files a mining run writes are refused by name, by every reader.
#[test]
fn incomplete_tables_are_refused() {
    let s = Scratch::new("cli-imitate-incomplete");
    let data = dataset(&s.0);
    for missing in ["players.parquet", "shapes.parquet", "meta.json"] {
        let t = tables(&s.0.join(missing));
        std::fs::remove_file(t.join(missing)).unwrap();
        let (d, t) = (data.to_str().unwrap(), t.to_str().unwrap());
        let e = error(&haifu(&["imitate", "eval", "--dataset", d, "--tables", t, "--years", "2024", "--players", "A"]));
        assert!(e.contains(&format!("{missing} is missing")), "{e}");
        let e = error(&haifu(&["imitate", "suggest", "--tables", t, "--player", "A", "--hand", "3336678p33345s22z"]));
        assert!(e.contains(&format!("{missing} is missing")), "{e}");
    }
}
