//! `haifu train` and `haifu neural eval` end to end on the demo's own games: the network is scored on
//! exactly the decisions `haifu imitate eval` ranks (the same count per player), a run resumes from its last
//! checkpoint, and a resume that does not fit the run is refused.

mod common;

use common::{error, haifu, json, Scratch};

#[test]
#[allow(clippy::too_many_lines)] // a test: one scenario checked step by step
fn train_resume_and_eval_beside_the_imitator() {
    common::needs_network_binary();
    let s = Scratch::new("cli-neural");
    let out = s.0.join("demo");
    let out = out.to_str().unwrap();
    let demo = haifu(&["demo", "--out", out, "--games", "64", "--json"]);
    assert!(demo.status.success(), "{}", String::from_utf8_lossy(&demo.stderr));
    let (ds, tables, run) = (format!("{out}/dataset"), format!("{out}/tables"), format!("{out}/nn"));
    let players = "Honors,Tanyao";

    let train = |epochs: &str, layers: &str, resume: bool| {
        let mut args = vec!["train", "--dataset", &ds, "--years", "2022", "--test-years", "2023", "--out", &run];
        args.extend(["--epochs", epochs, "--layers", layers, "--batch", "256", "--device", "cpu", "--json"]);
        if resume {
            args.push("--resume");
        }
        haifu(&args)
    };
    let first = json(&train("1", "2", false));
    assert_eq!(first["epochs"].as_array().unwrap().len(), 1);
    assert_eq!(first["device"], "cpu");
    for key in ["test_top1", "test_top3", "positions", "positions_per_s"] {
        assert!(first[key].as_f64().is_some_and(|v| v > 0.0), "{key}: {}", first[key]);
    }
    // resumed up to two epochs in all: one more epoch, the checkpoint and metrics line of each
    let second = json(&train("2", "2", true));
    assert_eq!(second["epochs"][0]["epoch"], 2);
    assert!(s.0.join("demo/nn/epoch-2.ot").is_file());
    assert_eq!(std::fs::read_to_string(s.0.join("demo/nn/metrics.csv")).unwrap().lines().count(), 3);
    assert!(error(&train("3", "4", true)).contains("--resume"), "another network is not resumed");

    // the positions were encoded once into the cache beside the dataset, one file per year
    let cache = s.0.join("demo/dataset/_haifu/cache/neural/flat-999-v1");
    for y in [2022, 2023] {
        assert!(cache.join(format!("4p-year={y}.bin")).is_file(), "{y} cached");
    }
    // `haifu neural eval` of the run on the 2023 decisions, with more arguments
    let eval = |extra: &[&str]| {
        let mut args = vec!["neural", "eval", "--model", &run, "--dataset", &ds, "--years", "2023"];
        args.extend(extra);
        haifu(&args)
    };
    // the run's 2023 figures for the two players
    let eval_players = || json(&eval(&["--players", players, "--json"]));
    let nn = eval_players();
    assert_eq!(nn["epochs"], 2);
    // read from the cache or replayed again: the same figures
    std::fs::remove_dir_all(&cache).unwrap();
    let again = eval_players();
    assert_eq!(nn["players"], again["players"]);
    assert!(cache.join("4p-year=2023.bin").is_file());
    let imitate = json(&haifu(&[
        "imitate",
        "eval",
        "--dataset",
        &ds,
        "--tables",
        &tables,
        "--years",
        "2023",
        "--players",
        players,
        "--table",
        "all",
        "--json",
    ]));
    let (a, b) = (nn["players"].as_array().unwrap(), imitate["players"].as_array().unwrap());
    assert_eq!(a.len(), 2);
    for (n, i) in a.iter().zip(b) {
        assert_eq!(n["player"], i["player"]);
        // the same decisions: every discard of the player's 2023 games but those already in riichi
        assert_eq!(n["n_all"], i["variants"]["all"]["n_all"], "{}", n["player"]);
        assert!(n["c_first"].as_u64().unwrap() <= n["c_top3"].as_u64().unwrap());
        assert_eq!(n["coverage"], 1.0);
    }
    backoff_and_blend_beside_the_tables(&run, &ds, &tables, &nn);
    inspect_counts_the_parameters(&run);
    player_vectors_beside_neural_eval(&run, &ds, &format!("{out}/vectors"), &nn);

    // seed 004's protocol: one decision of each 2023 game (every one of the demo's is a four-player game with a
    // discard of choice)
    let one = json(&eval(&["--one-per-game", "--json"]));
    assert_eq!(one["one_per_game"], true);
    assert_eq!(one["overall"]["n_all"].as_u64().unwrap(), demo_games_in(&ds, 2023));
    // a personal model: the global run fine-tuned on Honors's 2022 decisions, tested on Honors's 2023 ones
    let fine_tune = |dir: &str, more: &[&str]| {
        let mut args = vec!["train", "--dataset", &ds, "--years", "2022", "--test-years", "2023", "--out", dir];
        args.extend(["--epochs", "1", "--layers", "2", "--batch", "256", "--device", "cpu", "--player", "Honors"]);
        args.extend(["--init", &run, "--json"]);
        args.extend(more);
        json(&haifu(&args))
    };
    let tuned = fine_tune(&format!("{out}/honors"), &[]);
    // --interpolate 0 trains the same way, then moves every weight back to the global run's: its figures
    // are the global network's, and the fine-tuned ones it reports are the plain run's
    let back = fine_tune(&format!("{out}/honors-0"), &["--interpolate", "0"]);
    assert_eq!(back["fine_tuned"][0], tuned["test_top1"]);
    assert_eq!(back["fine_tuned"][1], tuned["test_top3"]);
    assert_eq!(back["test_top1"], tuned["initial"][0]);
    assert_eq!(back["test_top3"], tuned["initial"][1]);
    let honors = a.iter().find(|p| p["player"] == "Honors").unwrap();
    assert_eq!(tuned["test_positions"], honors["n_all"], "the personal test set is the player's decisions");
    // before its first step the personal run is the global one: the same figures as neural eval's for Honors
    let n = honors["n_all"].as_f64().unwrap();
    assert_eq!(tuned["initial"][0].as_f64().unwrap(), honors["c_first"].as_f64().unwrap() / n);
    assert_eq!(tuned["initial"][1].as_f64().unwrap(), honors["c_top3"].as_f64().unwrap() / n);
    let wrong = haifu(&[
        "train",
        "--dataset",
        &ds,
        "--years",
        "2022",
        "--out",
        &format!("{out}/x"),
        "--layers",
        "3",
        "--device",
        "cpu",
        "--player",
        "Honors",
        "--init",
        &run,
    ]);
    assert!(error(&wrong).contains("--init"));
    assert!(error(&eval(&["--players", "Nobody"])).contains("Nobody"));
}

/// `train --player-vectors`: every bot of the demo gets a vector; each player's test positions are those `neural
/// eval` scores for the player, and the report's global figure on them is the global run's own, computed by
/// `neural eval`; the run is refused by the commands that read plain networks.
fn player_vectors_beside_neural_eval(run: &str, ds: &str, dir: &str, nn: &serde_json::Value) {
    let mut args = vec!["train", "--dataset", ds, "--years", "2022", "--test-years", "2023", "--out", dir];
    args.extend(["--init", run, "--player-vectors", "4", "--player-min-games", "3", "--epochs", "1"]);
    args.extend(["--batch", "256", "--device", "cpu", "--json"]);
    let r = json(&haifu(&args));
    assert_eq!(r["vectors"]["dims"], 4);
    let players = r["players"].as_array().unwrap();
    assert_eq!(players.len(), 8, "the eight bots, each with games on both sides");
    assert_eq!(r["judged"]["players"], 8);
    for want in nn["players"].as_array().unwrap() {
        let got = players.iter().find(|p| p["player"] == want["player"]).unwrap();
        assert_eq!(got["test_positions"], want["n_all"], "{}", want["player"]);
        let n = want["n_all"].as_f64().unwrap();
        // (neural eval's count is a sum of floats: equal to rounding)
        let (global, eval) = (got["global_top1"].as_f64().unwrap(), want["c_first"].as_f64().unwrap() / n);
        assert!((global - eval).abs() < 1e-12, "{}: {global} against {eval}", want["player"]);
    }
    let names: Vec<String> =
        serde_json::from_str(&std::fs::read_to_string(format!("{dir}/players.json")).unwrap()).unwrap();
    assert_eq!(names.len(), 8);
    let refused = haifu(&["neural", "eval", "--model", dir, "--dataset", ds, "--years", "2023"]);
    assert!(error(&refused).contains("--player-vectors"));
    // its weights are read: the eight bots' vectors and everyone's row 0, four numbers each
    let inspected = json(&haifu(&["neural", "inspect", dir, "--json"]));
    let tensors = inspected["tensors"].as_array().unwrap();
    let vectors = tensors.iter().find(|t| t["name"] == "player.vectors.weight").unwrap();
    assert_eq!(vectors["shape"], serde_json::json!([9, 4]));
    // a network of the other choices takes vectors too; its global figure on every test position is the
    // choices run's own last evaluation
    let choices = format!("{dir}-choices-global");
    let mut args = vec!["train", "--dataset", ds, "--years", "2022", "--test-years", "2023", "--out", &choices];
    args.extend(["--decisions", "choices", "--epochs", "1", "--layers", "2", "--batch", "256", "--device", "cpu"]);
    let global = json(&haifu(&[args.as_slice(), &["--json"]].concat()));
    let on_choices = format!("{dir}-choices");
    let mut args = vec!["train", "--dataset", ds, "--years", "2022", "--test-years", "2023", "--out", &on_choices];
    args.extend(["--decisions", "choices", "--init", &choices, "--player-vectors", "4", "--player-min-games", "3"]);
    args.extend(["--epochs", "1", "--batch", "256", "--device", "cpu", "--json"]);
    let r = json(&haifu(&args));
    assert_eq!(r["test_positions"], global["test_positions"]);
    let (a, b) = (r["global_test_top1"].as_f64().unwrap(), global["test_top1"].as_f64().unwrap());
    assert!((a - b).abs() < 1e-12, "{a} against the run's own {b}");
    assert_eq!(r["players"].as_array().unwrap().len(), 8);
    // and a discard network is refused for choices positions
    let init = args.iter().position(|a| *a == choices).unwrap();
    args[init] = run;
    assert!(error(&haifu(&args)).contains("--decisions"));
}

/// `imitate eval --backoff`: on the same decisions, the table's rows equal imitate eval's own, the network's
/// equal `neural eval`'s, the backoff is the table where it answers and the network elsewhere, and the blend
/// is the network at weight 0 and the table's first choice (where it answers) at weight 1.
fn backoff_and_blend_beside_the_tables(run: &str, ds: &str, tables: &str, nn: &serde_json::Value) {
    let eval = |blend: &str| {
        json(&haifu(&[
            "imitate",
            "eval",
            "--dataset",
            ds,
            "--tables",
            tables,
            "--years",
            "2023",
            "--players",
            "Honors,Tanyao",
            "--table",
            "all",
            "--backoff",
            run,
            "--blend",
            blend,
            "--device",
            "cpu",
            "--json",
        ]))
    };
    let (zero, one) = (eval("0"), eval("1"));
    for (name, imitate) in [("w=0", &zero), ("w=1", &one)] {
        let b = &imitate["backoff"]["variants"]["all"];
        let (players, table) = (b["players"].as_array().unwrap(), &imitate["players"]);
        assert_eq!(players.len(), 2, "{name}");
        for (i, p) in players.iter().enumerate() {
            let own = &table[i]["variants"]["all"];
            assert_eq!(p["player"], table[i]["player"]);
            assert_eq!(p["n_all"], own["n_all"], "{name}");
            assert_eq!(p["table"]["c_first"], own["c_first"], "{name}");
            assert_eq!(p["table"]["c_top3"], own["c_top3"], "{name}");
            let answered = own["n_all"].as_u64().unwrap() - own["n_none_hand"].as_u64().unwrap();
            assert_eq!(p["answered"], answered, "{name}");
            assert_eq!(p["network_covered"]["n"], answered);
            let net = nn["players"].as_array().unwrap().iter().find(|n| n["player"] == p["player"]).unwrap();
            assert_eq!(p["network"]["c_first"], net["c_first"], "{name}");
            assert_eq!(p["network"]["c_top3"], net["c_top3"], "{name}");
            // backoff = table on what it answers + network on the rest
            let rest = |k: &str| p["network"][k].as_u64().unwrap() - p["network_covered"][k].as_u64().unwrap();
            for k in ["c_first", "c_top3"] {
                assert_eq!(p["backoff"][k].as_u64().unwrap(), p["table"][k].as_u64().unwrap() + rest(k), "{k}");
            }
        }
    }
    let all = |v: &serde_json::Value, k: &str| v["backoff"]["variants"]["all"]["overall"][k].clone();
    assert_eq!(all(&zero, "blend"), all(&zero, "network"), "weight 0: the network alone");
    assert_eq!(all(&one, "blend")["c_first"], all(&one, "backoff")["c_first"], "weight 1: the table's first");
    let refused = haifu(&[
        "imitate",
        "eval",
        "--dataset",
        ds,
        "--tables",
        tables,
        "--years",
        "2023",
        "--table",
        "others",
        "--backoff",
        run,
    ]);
    assert!(error(&refused).contains("--table own, all or all-but-own"));
}

/// `neural inspect`: the flat network's trained values counted by hand (linear + batch norm per hidden layer
/// of 512, a linear output of 34).
fn inspect_counts_the_parameters(run: &str) {
    let info = json(&haifu(&["neural", "inspect", run, "--json"]));
    let layers = info["run"]["layers"].as_u64().unwrap();
    let hidden = |inputs: u64| inputs * 512 + 512 + 2 * 512;
    let expected = hidden(999) + (1..layers).map(|_| hidden(512)).sum::<u64>() + 512 * 34 + 34;
    assert_eq!(info["parameters"].as_u64().unwrap(), expected);
    assert!(info["topology_scales"].is_null());
}

/// Games of a year in the dataset's games table.
fn demo_games_in(ds: &str, year: i32) -> u64 {
    let days = |y: i32| haifu_ingest::batches::days_from_civil(y, 1, 1);
    haifu_ingest::stored::read_table(std::path::Path::new(ds), "games")
        .unwrap()
        .iter()
        .map(|b| {
            use arrow::array::AsArray;
            let d = b.column_by_name("date").unwrap().as_primitive::<arrow::datatypes::Date32Type>();
            d.iter().filter(|v| v.is_some_and(|v| v >= days(year) && v < days(year + 1))).count() as u64
        })
        .sum()
}
