//! `haifu export`, end to end: a dataset back to mjlog XML (the default) and to mjai JSON lines, plain and
//! gzipped; the mjai files ingest again into the same rounds and decisions.

mod common;

use std::path::Path;

use common::{haifu, json, Scratch};
use haifu_testkit::{thesis_round, GameBuilder};

/// Two games: the thesis round (a riichi and a tsumo), and a 3-player game with a north extraction and a pon.
fn dataset(dir: &Path) -> std::path::PathBuf {
    let mut sanma = GameBuilder::new(185);
    sanma.deal(["199m11p234p9s4z556z", "19m22p678p1234s77z", "9m33p789p5678s666z", ""]);
    sanma.draw(0, "4z").nuki(0).draw(0, "1s").discard(0, "1s");
    sanma.draw(1, "3p").discard(1, "3p");
    sanma.pon(2).discard(2, "9m");
    sanma.exhaust_wall().exhaustive(&[]).finish();
    let thesis = thesis_round();
    haifu_ingest::pipeline::ingest_logs(
        dir,
        &[("2019060813gm-00a9-0000-08bb0ec3.xml", thesis.xml()), ("2019060814gm-00b9-0000-0000abcd.xml", sanma.xml())],
    )
    .expect("the logs ingest")
}

fn files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    v.sort();
    v
}

#[test]
fn export_writes_mjlog_or_mjai_and_mjai_ingests_again() {
    let s = Scratch::new("cli-export");
    let data = dataset(&s.0);
    let d = data.to_str().unwrap();

    let xml = s.0.join("xml");
    let j = json(&haifu(&["export", "--dataset", d, "--out", xml.to_str().unwrap(), "--json"]));
    assert_eq!((j["games"].as_u64(), j["format"].as_str()), (Some(2), Some("mjlog")));
    assert_eq!(files(&xml), ["2019060813gm-00a9-0000-08bb0ec3.xml", "2019060814gm-00b9-0000-0000abcd.xml"]);

    let mjai = s.0.join("mjai");
    let j = json(&haifu(&["export", "--dataset", d, "--out", mjai.to_str().unwrap(), "--format", "mjai", "--json"]));
    assert_eq!((j["games"].as_u64(), j["format"].as_str()), (Some(2), Some("mjai")));
    assert_eq!(files(&mjai), ["2019060813gm-00a9-0000-08bb0ec3.mjson", "2019060814gm-00b9-0000-0000abcd.mjson"]);
    let text = std::fs::read_to_string(mjai.join("2019060813gm-00a9-0000-08bb0ec3.mjson")).unwrap();
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["type"], "start_game");
    assert!(text.lines().all(|l| serde_json::from_str::<serde_json::Value>(l).is_ok()), "one JSON event a line");

    let gz = s.0.join("gz");
    let out = haifu(&["export", "--dataset", d, "--out", gz.to_str().unwrap(), "--format", "mjai", "--gzip"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("mjai"));
    assert_eq!(files(&gz), ["2019060813gm-00a9-0000-08bb0ec3.mjson.gz", "2019060814gm-00b9-0000-0000abcd.mjson.gz"]);
    assert!(std::fs::read(gz.join("2019060813gm-00a9-0000-08bb0ec3.mjson.gz")).unwrap().starts_with(&[0x1f, 0x8b]));

    // the mjai files (gzipped) ingest again: the same games, rounds and decisions
    let again = s.0.join("again");
    let a = json(&haifu(&["ingest", gz.to_str().unwrap(), "--out", again.to_str().unwrap(), "--strict", "--json"]));
    let b = json(&haifu(&["ingest", xml.to_str().unwrap(), "--out", s.0.join("xml-data").to_str().unwrap(), "--json"]));
    for key in ["games_ingested", "rounds", "decisions"] {
        assert_eq!(a[key], b[key], "{key}");
    }
    assert_eq!(a["games_ingested"], 2);
    assert_eq!(a["games_quarantined"], 0);
}
