//! The HTML report in a real browser: `haifu demo` writes one self-contained file; headless Chromium opens it
//! from disk, its DOM holds every table and chart, and a screenshot of it is kept
//! (`$CARGO_TARGET_DIR/test-artifacts/report.png`). Where there is no Chromium (`scripts/test` installs it
//! when it can) the browser part says so and is skipped; the file's own checks still run.

mod common;

use std::path::PathBuf;

use common::{chromium, haifu, headless, json, Scratch};

#[test]
fn the_demo_report_renders_in_a_browser() {
    common::needs_network_binary();
    let s = Scratch::new("report-html");
    let out = s.0.join("demo");
    let demo = json(&haifu(&["demo", "--out", out.to_str().unwrap(), "--games", "48", "--json"]));
    let html = PathBuf::from(demo["html"].as_str().expect("the demo names its HTML report"));
    // and its review of one bot's games, with the demo's network in the first column
    let review = PathBuf::from(demo["review"].as_str().expect("the demo names its review"));
    let reviewed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(review.with_file_name("review.json")).unwrap()).unwrap();
    assert!(!reviewed["games"].as_array().unwrap().is_empty() && reviewed["network"].is_string(), "{reviewed}");
    let text = std::fs::read_to_string(&html).unwrap();
    // self-contained: no script, nothing fetched (an SVG's xmlns names a namespace, it fetches nothing)
    for banned in ["<script", "src=\"http", "href=\"http", "<link", "url(http", "@import"] {
        assert!(!text.contains(banned), "the report holds {banned:?}");
    }
    let tables = text.matches("<table class=\"data\"").count();
    let charts = text.matches("<figure class=\"chart\"").count();
    assert!(tables >= 10 && charts >= 4, "{tables} tables, {charts} charts");
    // the final places: each test player's shares of the four places make one, over the games the match
    // rates count (every demo game is complete)
    let report = html.parent().unwrap();
    let read = |name: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(report.join(format!("{name}.json"))).unwrap()).unwrap()
    };
    let rates = read("match_rates");
    for p in read("placements")["rows"].as_array().unwrap() {
        let shares: f64 = ["1st", "2nd", "3rd", "4th"].iter().map(|k| p[*k].as_f64().unwrap()).sum();
        assert!((shares - 1.0).abs() < 1e-9, "{p}");
        let r = rates["rows"].as_array().unwrap().iter().find(|r| r["player"] == p["player"]).unwrap();
        assert_eq!(p["games"], r["games"], "{p}");
    }
    let placed: u64 = read("placements")["rows"].as_array().unwrap().iter().map(|p| p["games"].as_u64().unwrap()).sum();
    let binned: u64 =
        read("final_points")["rows"].as_array().unwrap().iter().map(|b| b["games"].as_u64().unwrap()).sum();
    assert_eq!(placed, binned, "every test player's game in one bin of final points");
    // the bins run from the lowest to the highest without a gap (an empty bin is a row with 0 games)
    let froms: Vec<i64> =
        read("final_points")["rows"].as_array().unwrap().iter().map(|b| b["from"].as_i64().unwrap()).collect();
    assert!(froms.windows(2).all(|w| w[1] == w[0] + 10), "{froms:?}");
    // the page opens with its findings (the headline's figures in words), then a table of contents
    let findings = text.find("class=\"findings\"").expect("a findings section");
    let contents = text.find("class=\"toc\"").expect("a table of contents");
    assert!(findings < contents && contents < text.find("<table class=\"data\"").unwrap());
    let all_top3 = rates["rows"].as_array().map(|_| read("headline")).unwrap()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["table"] == "all")
        .map(|r| format!("{:.1}%", 100.0 * r["R_top3"].as_f64().unwrap()))
        .unwrap();
    assert!(text[findings..contents].contains(&format!("one of its first three {all_top3}")), "{all_top3}");
    // the demo's small network: its epochs in the report, as its metrics.csv has them
    let epochs = read("neural_runs")["rows"].as_array().unwrap().len();
    let csv = std::fs::read_to_string(html.parent().unwrap().parent().unwrap().join("nn/metrics.csv")).unwrap();
    assert_eq!(epochs, csv.lines().count() - 1);
    for name in ["match_rates", "turns", "learning_curve", "occurrences", "placements", "final_points", "neural"] {
        assert!(text.contains(&format!("data-name=\"{name}\"")), "chart {name}");
        assert!(html.with_file_name("charts").join(format!("{name}.png")).is_file(), "{name}.png");
    }

    let Some(browser) = chromium() else {
        eprintln!("SKIPPED the browser check: no chromium here (scripts/test installs it where it can)");
        return;
    };
    let url = format!("file://{}", html.canonicalize().unwrap().display());
    let dom = headless(&browser, &["--dump-dom", &url]);
    assert!(dom.status.success(), "{}", String::from_utf8_lossy(&dom.stderr));
    let dom = String::from_utf8_lossy(&dom.stdout);
    // the browser parsed every table and every chart as SVG with its drawing
    assert_eq!(dom.matches("<table class=\"data\"").count(), tables);
    assert_eq!(dom.matches("<figure class=\"chart\"").count(), charts);
    assert!(dom.matches("<svg").count() >= charts);
    assert!(dom.contains("<rect") && dom.contains("<polyline"), "bars and lines drawn");
    assert!(dom.contains("Honors"), "a player's name in the tables");

    let keep = common::artifacts();
    let shot = keep.join("report.png");
    let _ = std::fs::remove_file(&shot);
    let taken = headless(&browser, &[&format!("--screenshot={}", shot.display()), "--window-size=1200,2400", &url]);
    assert!(taken.status.success(), "{}", String::from_utf8_lossy(&taken.stderr));
    let png = std::fs::read(&shot).expect("the screenshot");
    assert_eq!(&png[1..4], b"PNG");
    // a page of tables and charts compresses far less than a blank one (a blank 1200x2400 PNG is a few kB)
    assert!(png.len() > 60_000, "screenshot of {} bytes: the page looks empty", png.len());
    eprintln!("screenshot kept at {}", shot.display());

    // the page a player reads: their report, from a style database of the same games
    let (ds, db, me) = (out.join("dataset"), s.0.join("db"), s.0.join("honors"));
    let built = haifu(&[
        "style",
        "build",
        "--dataset",
        ds.to_str().unwrap(),
        "--out",
        db.to_str().unwrap(),
        "--min-games",
        "5",
    ]);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let args = [
        "report",
        "player",
        "Honors",
        "--dataset",
        ds.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
        "--out",
        me.to_str().unwrap(),
    ];
    let report = haifu(&args);
    assert!(report.status.success(), "{}", String::from_utf8_lossy(&report.stderr));
    let url = format!("file://{}", me.join("index.html").canonicalize().unwrap().display());
    let dom = headless(&browser, &["--dump-dom", &url]);
    let dom = String::from_utf8_lossy(&dom.stdout);
    for name in ["rates", "move_kinds", "move_pictures", "moves", "characteristic", "nearest"] {
        assert!(dom.contains(&format!("data-name=\"{name}\"")), "{name} in the player's page");
    }
    // the hands drawn as tiles, the choice and the majority marked
    assert!(dom.contains("class=\"tile ") && dom.contains(" chosen\"") && dom.contains(" majority\""));
    let shot = keep.join("player.png");
    let _ = std::fs::remove_file(&shot);
    let taken = headless(&browser, &[&format!("--screenshot={}", shot.display()), "--window-size=1200,2400", &url]);
    assert!(taken.status.success() && std::fs::metadata(&shot).unwrap().len() > 60_000);
}
