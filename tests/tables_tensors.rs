//! The tables as tensors (`--device`, issue 33) give the lookup's figures exactly: `imitate eval --device cpu`
//! prints the JSON `imitate eval` prints (every count of every variant, both strategy modes) on games the
//! project plays itself and on the real corpus (skipped, with a line, where it is absent), and `style accuracy
//! --device cpu` places every trial's player where `style accuracy` does on the corpus (`style identify` and
//! the demo's games: `style_cli.rs`).

mod common;

use std::path::Path;

use common::{corpus, haifu, json, Scratch};

/// `imitate eval` with and without `--device cpu`, every variant, both strategy modes: equal JSON but for
/// the timing.
fn eval_alike(ds: &Path, tables: &Path, years: &str, selection: &[&str]) -> usize {
    let mut players = 0;
    for strategy in ["none", "estimated"] {
        let mut args = vec!["imitate", "eval", "--dataset", ds.to_str().unwrap(), "--years", years];
        args.extend(["--tables", tables.to_str().unwrap(), "--strategy", strategy, "--json"]);
        args.extend(selection);
        let mut by_lookup = json(&haifu(&args));
        args.extend(["--device", "cpu"]);
        let mut as_tensors = json(&haifu(&args));
        assert_eq!(as_tensors["timing"]["device"], "cpu");
        for v in [&mut by_lookup, &mut as_tensors] {
            v.as_object_mut().unwrap().remove("timing");
        }
        players = by_lookup["players"].as_array().unwrap().len();
        assert!(players > 0, "no test player: {by_lookup}");
        assert_eq!(by_lookup["variants"].as_array().unwrap().len(), 4);
        assert!(by_lookup == as_tensors, "strategy {strategy}: the tensors' counts differ from the lookup's");
    }
    players
}

#[test]
fn tensors_rank_as_the_lookup_on_simulated_games() {
    common::needs_network_binary();
    let s = Scratch::new("tables-tensors");
    let (logs, ds, tables) = (s.0.join("logs"), s.0.join("ds"), s.0.join("tables"));
    let mut sim = vec!["sim", "--games", "16", "--seed", "11", "--out", logs.to_str().unwrap(), "--players"];
    sim.extend(["Tanaka=tanyao", "Chiba=chanta", "Yagi=yakuhai", "Ito=efficiency", "Oda=folder", "Kato=caller"]);
    assert!(haifu(&sim).status.success());
    assert!(haifu(&["ingest", logs.to_str().unwrap(), "--out", ds.to_str().unwrap()]).status.success());
    assert!(haifu(&["mine", "--dataset", ds.to_str().unwrap(), "--out", tables.to_str().unwrap()]).status.success());
    assert_eq!(eval_alike(&ds, &tables, "2024", &[]), 6);
}

#[test]
fn tensors_rank_as_the_lookup_on_the_corpus() {
    let Some(corpus) = corpus() else {
        eprintln!("SKIPPED: the shared corpus is absent (HAIFU_CORPUS or ../shared/corpus)");
        return;
    };
    common::needs_network_binary();
    let s = Scratch::new("tables-tensors-corpus");
    let (ds, tables) = (s.0.join("ds"), s.0.join("tables"));
    let ingest = haifu(&["ingest", corpus.join("mjlog").to_str().unwrap(), "--out", ds.to_str().unwrap()]);
    assert!(ingest.status.success(), "{}", String::from_utf8_lossy(&ingest.stderr));
    let generation = "2008,2009,2010,2011,2016,2017,2018,2019,2020,2021";
    let mine = ["mine", "--dataset", ds.to_str().unwrap(), "--years", generation, "--out", tables.to_str().unwrap()];
    assert!(haifu(&mine).status.success());
    // the test players of 2022 with the most games: `others` ranks each against every player's table
    let players = eval_alike(&ds, &tables, "2022", &["--min-games", "30"]);
    eprintln!("{players} corpus players of 2022 ranked alike against every variant's tables");

    // identification: every trial's place, by the whole score, the sequences and the rates, alike
    let db = s.0.join("db");
    let build = ["style", "build", "--dataset", ds.to_str().unwrap(), "--years", generation, "--min-games", "20"];
    assert!(haifu(&[&build[..], &["--out", db.to_str().unwrap()]].concat()).status.success());
    let accuracy = ["style", "accuracy", "--db", db.to_str().unwrap(), "--dataset", ds.to_str().unwrap()];
    let accuracy = [&accuracy[..], &["--years", "2022", "--games", "1,5", "--json"]].concat();
    let by_lookup = json(&haifu(&accuracy));
    let as_tensors = json(&haifu(&[&accuracy[..], &["--device", "cpu"]].concat()));
    let trials = by_lookup["rows"][0]["places"].as_array().unwrap().len();
    assert!(trials > 0, "no trial: {by_lookup}");
    assert!(by_lookup["rows"] == as_tensors["rows"], "identification as tensors differs from the lookup's");
    eprintln!("{trials} one-game trials of 2022 identified alike against every profiled player");
}
