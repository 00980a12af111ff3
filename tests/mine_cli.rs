//! `haifu mine`, `haifu stats` and `haifu report thesis` end to end on the demo's logs (written by the
//! project): the JSON summaries, the options recorded with the tables, the statistics' files, clear errors.

mod common;

use std::path::Path;

use common::{haifu, json, Scratch};
use serde_json::Value;

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn mine_stats_and_report() {
    let s = Scratch::new("cli-mine");
    let demo = s.0.join("demo");
    let d = json(&haifu(&["demo", "--out", p(&demo), "--games", "24", "--json"]));
    assert_eq!(d["ingest"]["games_ingested"], 24);
    // the demo's own report: every bot of the test year, with rates in [0, 1]
    let rows = d["match_rates"]["rows"].as_array().unwrap();
    assert!(!rows.is_empty());
    for r in rows {
        let (first, top3) = (r["R_first own"].as_f64(), r["R_top3 own"].as_f64());
        if let (Some(f), Some(t)) = (first, top3) {
            assert!((0.0..=1.0).contains(&f) && f <= t && t <= 1.0, "{r}");
        }
    }
    let dataset = demo.join("dataset");
    let tables = s.0.join("tables");

    let m = json(&haifu(&[
        "mine",
        "--dataset",
        p(&dataset),
        "--out",
        p(&tables),
        "--years",
        "2022",
        "--min-games",
        "3",
        "--rounds",
        "won",
        "--json",
    ]));
    assert_eq!(m["options"]["years"], serde_json::json!([2022]));
    assert_eq!(m["options"]["rounds"], "won");
    assert_eq!(m["options"]["min_games"], 3);
    let meta: Value = serde_json::from_str(&std::fs::read_to_string(tables.join("meta.json")).unwrap()).unwrap();
    assert_eq!(meta["options"], m["options"], "meta.json records the options");
    // the all table of won rounds holds at most the decisions read
    let all = &m["all"]["all"];
    assert!(all["decisions"].as_u64().unwrap() <= m["decisions_read"].as_u64().unwrap());
    assert!(all["sequences"].as_u64().unwrap() > 0);

    // the polars engine writes the same summary counts
    let tables2 = s.0.join("tables-polars");
    let m2 = json(&haifu(&[
        "mine",
        "--dataset",
        p(&dataset),
        "--out",
        p(&tables2),
        "--years",
        "2022",
        "--min-games",
        "3",
        "--rounds",
        "won",
        "--engine",
        "polars",
        "--json",
    ]));
    assert_eq!(m2["all"], m["all"]);
    assert_eq!(m2["rows"], m["rows"]);

    let stats_dir = s.0.join("stats");
    let top = json(&haifu(&["stats", "top", "--tables", p(&tables), "--k", "3", "--out", p(&stats_dir), "--json"]));
    for r in top["rows"].as_array().unwrap() {
        assert!(r["before"].as_str().unwrap().len() >= 3, "min length 3: {r}");
        assert!(r["rank"].as_u64().unwrap() <= 3);
    }
    for ext in ["csv", "md", "json"] {
        assert!(stats_dir.join(format!("top_sequences.{ext}")).is_file(), "{ext}");
    }
    let cov = json(&haifu(&["stats", "coverage", "--tables", p(&tables), "--json"]));
    let notes: Vec<&str> = cov["notes"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
    assert!(notes.iter().any(|n| n.contains("405349")), "{cov}");
    // the tables' options in words, not as JSON
    assert!(
        notes.iter().any(|n| n.contains("rounds won, ") && !n.contains('{')),
        "the tables' options are named: {cov}"
    );
    let hist = json(&haifu(&["stats", "histogram", "--tables", p(&tables), "--scopes", "ALL", "--json"]));
    let total: u64 = hist["rows"].as_array().unwrap().iter().map(|r| r["sequences"].as_u64().unwrap()).sum();
    assert!(total > 0);
    let yaku = json(&haifu(&["stats", "yaku", "--dataset", p(&dataset), "--json"]));
    // riichi's share of the wins equals a plain scan of the logs' AGARI tags
    let (mut wins, mut riichi) = (0, 0);
    for f in std::fs::read_dir(demo.join("logs")).unwrap() {
        let xml = std::fs::read_to_string(f.unwrap().path()).unwrap();
        for tag in xml.split("<AGARI ").skip(1) {
            wins += 1;
            let yaku = tag.split("yaku=\"").nth(1).map_or("", |v| v.split('"').next().unwrap_or(""));
            let ids: Vec<&str> = yaku.split(',').step_by(2).collect();
            riichi += usize::from(ids.contains(&"1"));
        }
    }
    assert!(wins > 0 && riichi > 0, "{wins} wins, {riichi} with riichi");
    let row = yaku["rows"].as_array().unwrap().iter().find(|r| r["id"] == "01").expect("riichi row");
    let share = row["percent"].as_f64().unwrap();
    assert!((share - riichi as f64 / wins as f64).abs() < 1e-9, "{row} vs {riichi}/{wins}");

    // errors name what is wrong
    let bad = haifu(&["mine", "--dataset", p(&s.0.join("nowhere")), "--out", p(&tables)]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("nowhere"), "{}", String::from_utf8_lossy(&bad.stderr));
    let bad = haifu(&["stats", "top", "--tables", p(&tables), "--scope", "Nobody"]);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("Nobody"));
    let overlap = haifu(&[
        "report",
        "thesis",
        "--dataset",
        p(&dataset),
        "--tables",
        p(&tables),
        "--out",
        p(&s.0.join("r")),
        "--test-years",
        "2022",
    ]);
    assert!(
        String::from_utf8_lossy(&overlap.stderr).contains("overlap"),
        "{}",
        String::from_utf8_lossy(&overlap.stderr)
    );
}
