//! `haifu style` end to end on the demo's games: the profiles' counts equal those read straight from the
//! dataset's tables, the comparison's distance behaves as a distance, identification names the style bots far
//! above chance on games the database never saw, and bad input is refused in one line with nothing written.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use arrow::array::AsArray;
use arrow::datatypes::{Date32Type, Int64Type, UInt16Type, UInt8Type};
use common::{error, haifu, json, Scratch};

/// Per player, from the dataset's own tables (games, rounds, decisions) for the games of `year`:
/// [games, rounds, chosen discards, riichi rounds, wins, deal-ins, tsumogiri].
fn counts_from_tables(ds: &Path, year: i32) -> HashMap<String, [u64; 7]> {
    let days = |y: i32| haifu_ingest::batches::days_from_civil(y, 1, 1);
    let mut names: HashMap<i64, Vec<String>> = HashMap::new();
    for b in haifu_ingest::stored::read_table(ds, "games").unwrap() {
        let id = b.column_by_name("game_id").unwrap().as_primitive::<Int64Type>();
        let date = b.column_by_name("date").unwrap().as_primitive::<Date32Type>();
        let seats = b.column_by_name("names").unwrap().as_list::<i32>();
        for i in 0..b.num_rows() {
            if date.value(i) >= days(year) && date.value(i) < days(year + 1) {
                let s = seats.value(i);
                names.insert(id.value(i), s.as_string::<i32>().iter().map(|n| n.unwrap().to_string()).collect());
            }
        }
    }
    let mut out: HashMap<String, [u64; 7]> = HashMap::new();
    for seats in names.values() {
        for n in seats {
            out.entry(n.clone()).or_default()[0] += 1;
        }
    }
    for b in haifu_ingest::stored::read_table(ds, "rounds").unwrap() {
        let id = b.column_by_name("game_id").unwrap().as_primitive::<Int64Type>();
        let outcomes = b.column_by_name("outcomes").unwrap().as_list::<i32>();
        for i in 0..b.num_rows() {
            let Some(seats) = names.get(&id.value(i)) else { continue };
            let o = outcomes.value(i);
            for (seat, outcome) in o.as_string::<i32>().iter().enumerate() {
                let c = out.get_mut(&seats[seat]).unwrap();
                c[1] += 1;
                c[4] += u64::from(outcome == Some("win"));
                c[5] += u64::from(outcome == Some("deal_in"));
            }
        }
    }
    let mut riichi_rounds: std::collections::HashSet<(i64, u16, u8)> = Default::default();
    for b in haifu_ingest::stored::read_table(ds, "decisions").unwrap() {
        let id = b.column_by_name("game_id").unwrap().as_primitive::<Int64Type>();
        let round = b.column_by_name("round").unwrap().as_primitive::<UInt16Type>();
        let seat = b.column_by_name("seat").unwrap().as_primitive::<UInt8Type>();
        let flag = |c: &str| b.column_by_name(c).unwrap().as_boolean().clone();
        let (riichi, in_riichi, tsumogiri) = (flag("riichi"), flag("in_riichi"), flag("tsumogiri"));
        for i in 0..b.num_rows() {
            let Some(seats) = names.get(&id.value(i)) else { continue };
            let c = out.get_mut(&seats[usize::from(seat.value(i))]).unwrap();
            if !in_riichi.value(i) {
                c[2] += 1;
                c[6] += u64::from(tsumogiri.value(i));
            }
            if riichi.value(i) && riichi_rounds.insert((id.value(i), round.value(i), seat.value(i))) {
                c[3] += 1;
            }
        }
    }
    out
}

/// `style compare`'s distance is zero to oneself and symmetric; `style nearest` lists the others by it, or (its
/// default) by the cosine of the deviations from everyone's discard coefficients.
fn compare_and_nearest(db_s: &str) {
    // the distance: zero to oneself, symmetric, and nearest lists the others by it
    let cmp = |a: &str, b: &str| {
        json(&haifu(&["style", "compare", a, b, "--db", db_s, "--json"]))["js_distance"].as_f64().unwrap()
    };
    assert_eq!(cmp("Honors", "Honors"), 0.0);
    let (ab, ba) = (cmp("Honors", "Tanyao"), cmp("Tanyao", "Honors"));
    assert!((ab - ba).abs() < 1e-12 && ab > 0.0 && ab <= 1.0, "{ab} {ba}");
    let nearest = |p: &str, by: &str| {
        let near = json(&haifu(&["style", "nearest", p, "--db", db_s, "-k", "7", "--by", by, "--json"]));
        assert_eq!(near["by"], by);
        near["nearest"].as_array().unwrap().clone()
    };
    let near = nearest("Honors", "sequences");
    assert_eq!(near.len(), 7);
    assert!(near.iter().all(|n| n["player"] != "Honors"));
    let d: Vec<f64> = near.iter().map(|n| n["js_distance"].as_f64().unwrap()).collect();
    assert!(d.windows(2).all(|w| w[0] <= w[1]), "{d:?}");
    let tanyao = near.iter().find(|n| n["player"] == "Tanyao").unwrap();
    assert!((tanyao["js_distance"].as_f64().unwrap() - ab).abs() < 1e-12);
    // by the discard coefficients (the default): the seven others, most alike first, the cosine symmetric
    let near = json(&haifu(&["style", "nearest", "Honors", "--db", db_s, "-k", "7", "--json"]))["nearest"].clone();
    assert_eq!(near, serde_json::Value::Array(nearest("Honors", "discards")));
    let by_discards = |n: &serde_json::Value| n["discard_cosine"].as_f64().unwrap();
    let c: Vec<f64> = near.as_array().unwrap().iter().map(by_discards).collect();
    assert!(c.len() == 7 && c.windows(2).all(|w| w[0] >= w[1]) && c.iter().all(|x| x.abs() <= 1.0), "{c:?}");
    let to_honors = nearest("Tanyao", "discards").into_iter().find(|n| n["player"] == "Honors").unwrap();
    let from_honors = near.as_array().unwrap().iter().find(|n| n["player"] == "Tanyao").unwrap();
    assert!((by_discards(&to_honors) - by_discards(from_honors)).abs() < 1e-12);
}

#[test]
fn style_database_profiles_compares_and_identifies() {
    common::needs_network_binary();
    let s = Scratch::new("cli-style");
    let out = s.0.join("demo");
    let demo = haifu(&["demo", "--out", out.to_str().unwrap(), "--games", "150", "--json"]);
    assert!(demo.status.success(), "{}", String::from_utf8_lossy(&demo.stderr));
    let ds = out.join("dataset");
    let db = s.0.join("db");
    let (ds_s, db_s) = (ds.to_str().unwrap(), db.to_str().unwrap());
    let built = json(&haifu(&[
        "style",
        "build",
        "--dataset",
        ds_s,
        "--out",
        db_s,
        "--years",
        "2022",
        "--min-games",
        "5",
        "--json",
    ]));
    assert_eq!(built["style"]["profiles"], 8, "{built}");

    // every profile's counts as the dataset's tables give them
    let expected = counts_from_tables(&ds, 2022);
    let list = json(&haifu(&["style", "list", "--db", db_s, "--json"]));
    assert_eq!(list["players"].as_array().unwrap().len(), 8);
    for p in list["players"].as_array().unwrap() {
        let name = p["player"].as_str().unwrap();
        let shown = json(&haifu(&["style", "show", name, "--db", db_s, "--json"]));
        let c = &shown["counts"];
        let e = expected[name];
        let got =
            ["games", "rounds", "decisions", "riichi", "wins", "deal_ins", "tsumogiri"].map(|k| c[k].as_u64().unwrap());
        assert_eq!(got, e, "{name}: games, rounds, decisions, riichi, wins, deal-ins, tsumogiri");
        assert!(c["folds"].as_u64().unwrap() <= c["facing_riichi"].as_u64().unwrap());
        let rate = shown["rates"]["riichi_rate"].as_f64().unwrap();
        assert!((rate - e[3] as f64 / e[1] as f64).abs() < 1e-12);
    }

    compare_and_nearest(db_s);

    // identification on the 2023 games, which the database never saw: far above chance (1 in 8)
    let acc = json(&haifu(&[
        "style",
        "accuracy",
        "--db",
        db_s,
        "--dataset",
        ds_s,
        "--years",
        "2023",
        "--games",
        "1,5",
        "--json",
        "--html",
        s.0.join("identification.html").to_str().unwrap(),
    ]));
    let page = std::fs::read_to_string(s.0.join("identification.html")).unwrap();
    assert!(page.contains("data-name=\"identification\"") && page.contains("<svg"));
    // the page opens with its findings, whose first sentence quotes the one-game top-1 of the JSON
    let first = &acc["rows"][0];
    let top1 = format!("named first in {:.1}% of {} trials", 100.0 * first["top1"].as_f64().unwrap(), first["trials"]);
    assert!(page.find("id=\"findings\"").is_some_and(|f| page[f..].contains(&top1)), "{top1} not in the findings");
    let own = format!("own discard model is better than everyone&#39;s for {} of", acc["personal"]["judged"]["better"]);
    assert!(page.find("id=\"findings\"").is_some_and(|f| page[f..].contains(&own)), "{own} not in the findings");
    for row in acc["rows"].as_array().unwrap() {
        assert_eq!(row["players"], 8, "{row}");
        assert!(row["top1"].as_f64().unwrap() > 3.0 * row["chance_top1"].as_f64().unwrap(), "{row}");
        // the discard model alone names the bots (their rules differ in which tile goes) from one game, and so it
        // does with the plain baseline's log-densities added
        for name in ["discards", "discards_baseline"] {
            let m = row["methods"].as_array().unwrap().iter().find(|m| m["method"] == name).unwrap();
            assert!(m["top1"].as_f64().unwrap() > 0.75, "{m}");
        }
    }
    assert!(acc["overlap"].as_array().unwrap().is_empty());
    // the demo's dataset has no choices table: no method ranks by them, and no personal choice model is judged
    for row in acc["rows"].as_array().unwrap() {
        let methods = row["methods"].as_array().unwrap();
        assert!(methods.iter().all(|m| m["method"] != "choices" && m["method"] != "decisions"), "{row}");
    }
    assert!(acc["personal_choices"].is_null());
    // the discard model as a personal model: each bot's own coefficients name its discards better than
    // everyone's on its unseen games (the bots' rules differ in which tile goes)
    let judged = &acc["personal"]["judged"];
    assert!(judged["players"].as_u64().unwrap() >= 4, "{judged}");
    assert_eq!(judged["better"], judged["players"], "{judged}");
    assert!(judged["mean_gain_points"].as_f64().unwrap() > 5.0, "{judged}");
    // the same figures with every trial scored against every table as tensors
    let mut args = vec!["style", "accuracy", "--db", db_s, "--dataset", ds_s, "--years", "2023", "--games", "1,5"];
    args.extend(["--json", "--device", "cpu"]);
    let tensors = json(&haifu(&args));
    assert_eq!(acc["rows"], tensors["rows"], "identification as tensors differs from the lookup's");

    // identify one seat of one log: a ranking of every profiled player, best first
    let log = std::fs::read_dir(out.join("logs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| std::fs::read_to_string(p).is_ok_and(|t| t.contains("20230101")));
    let log = log.unwrap_or_else(|| std::fs::read_dir(out.join("logs")).unwrap().next().unwrap().unwrap().path());
    identify_ranks_every_player(db_s, &log);

    choice_model_names_the_bots_by_their_calls(&out.join("logs"), &s.0.join("choices"));
    player_report_lists_moves_against_the_majority(ds_s, db_s, &s.0.join("honors"));
    identify_with_a_personal_network(ds_s, db_s, &out.join("logs"), &s.0.join("nets"));
    embedding_identifies_the_bots_from_unseen_games(ds_s, db_s, &out.join("logs"), &s.0.join("embedding"));
    player_vectors_identify_the_bots(ds_s, db_s, &s.0.join("vectors"));
    bots_report_sets_bots_beside_humans(db_s, &s.0.join("bots"));

    // bad input: one line naming what is wrong
    assert!(error(&haifu(&["style", "show", "Nobody", "--db", db_s])).contains("Nobody"));
    let empty = s.0.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    assert!(error(&haifu(&["style", "list", "--db", empty.to_str().unwrap()])).contains("not a style database"));
    let wrong_seat = haifu(&["style", "identify", "--db", db_s, "--log", log.to_str().unwrap(), "--seat", "Nobody"]);
    assert!(error(&wrong_seat).contains("no seat named"));
    // a build that fails leaves the database as it was
    let before = std::fs::read(db.join("profiles.parquet")).unwrap();
    let failed =
        haifu(&["style", "build", "--dataset", ds_s, "--out", db_s, "--years", "2022", "--min-games", "100000"]);
    assert!(error(&failed).contains("nothing to profile"));
    assert_eq!(std::fs::read(db.join("profiles.parquet")).unwrap(), before);
}

/// A three-player log against a four-player database is refused, naming both sizes.
#[test]
fn a_log_of_another_table_size_is_refused() {
    let s = Scratch::new("cli-style-3p");
    let out = s.0.join("demo");
    assert!(haifu(&["demo", "--out", out.to_str().unwrap(), "--games", "12", "--json"]).status.success());
    let db = s.0.join("db");
    let built = haifu(&[
        "style",
        "build",
        "--dataset",
        out.join("dataset").to_str().unwrap(),
        "--out",
        db.to_str().unwrap(),
        "--min-games",
        "1",
    ]);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let logs = s.0.join("sanma");
    let sim = haifu(&[
        "sim",
        "--games",
        "1",
        "--sanma",
        "--east",
        "--players",
        "A=greedy",
        "B=greedy",
        "C=greedy",
        "--out",
        logs.to_str().unwrap(),
    ]);
    assert!(sim.status.success(), "{}", String::from_utf8_lossy(&sim.stderr));
    let log = std::fs::read_dir(&logs).unwrap().next().unwrap().unwrap().path();
    let refused =
        haifu(&["style", "identify", "--db", db.to_str().unwrap(), "--log", log.to_str().unwrap(), "--seat", "0"]);
    let e = error(&refused);
    assert!(e.contains("3-player") && e.contains("4-player"), "{e}");
    // a four-player game without red fives (GO type 0x03: vs humans, no red) against the demo's red-five games
    let plain = s.0.join("nored");
    let sim = haifu(&["sim", "--games", "1", "--go-type", "3", "--out", plain.to_str().unwrap()]);
    assert!(sim.status.success(), "{}", String::from_utf8_lossy(&sim.stderr));
    let log = std::fs::read_dir(&plain).unwrap().next().unwrap().unwrap().path();
    let refused =
        haifu(&["style", "identify", "--db", db.to_str().unwrap(), "--log", log.to_str().unwrap(), "--seat", "0"]);
    let e = error(&refused);
    assert!(e.contains("red fives false") && e.contains(log.file_name().unwrap().to_str().unwrap()), "{e}");
}

/// `haifu report player`: the moves by kind and per game add up to the moves found, every listed move chose
/// another kind than the majority and a tile its hand held, and the page holds the tables and the tiles.
fn player_report_lists_moves_against_the_majority(ds: &str, db: &str, out: &Path) {
    let args = ["report", "player", "Honors", "--dataset", ds, "--db", db, "--out", out.to_str().unwrap()];
    let report = |more: &[&str]| haifu(&[&args[..], &["--years", "2022", "--min-count", "5"], more].concat());
    let r = report(&[]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let read = |name: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(out.join(format!("{name}.json"))).unwrap()).unwrap()
    };
    let kinds = read("move_kinds");
    let total: u64 = kinds["rows"].as_array().unwrap().iter().map(|r| r["moves"].as_u64().unwrap()).sum();
    let per_game: u64 =
        read("moves_per_game")["rows"].as_array().unwrap().iter().map(|r| r["moves"].as_u64().unwrap()).sum();
    assert!(total > 0, "the Honors bot goes against the majority somewhere");
    assert_eq!(total, per_game);
    // honors and discards under another's riichi are listed apart from the moves of style
    let apart_kinds = ["honor", "safety"];
    let apart_total: u64 = kinds["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| apart_kinds.contains(&r["kind"].as_str().unwrap()))
        .map(|r| r["moves"].as_u64().unwrap())
        .sum();
    let listed = read("moves")["rows"].as_array().unwrap().clone();
    let apart = read("moves_apart")["rows"].as_array().unwrap().clone();
    assert_eq!(listed.len() as u64, (total - apart_total).min(50));
    assert_eq!(apart.len() as u64, apart_total.min(50));
    assert!(listed.iter().all(|m| !apart_kinds.contains(&m["kind"].as_str().unwrap())));
    assert!(apart.iter().all(|m| apart_kinds.contains(&m["kind"].as_str().unwrap())));
    for m in listed.iter().chain(&apart) {
        // rounds by name: wind, number, honba (E4-1)
        let round = m["round"].as_str().unwrap();
        let (wind, rest) = round.split_at(1);
        assert!(
            "ESWN".contains(wind)
                && rest.split_once('-').is_some_and(|(a, b)| a.parse::<u8>().is_ok() && b.parse::<u8>().is_ok()),
            "{round}"
        );
        let (chose, majority) = (m["chose"].as_str().unwrap(), m["majority"].as_str().unwrap());
        assert_ne!(chose, majority);
        assert!(m["majority share"].as_f64().unwrap() >= 0.6);
        // the chosen kind is in the hand as the report writes it (Tenhou notation: digits then suit letter)
        let hand = m["hand"].as_str().unwrap();
        assert!(holds(hand, chose), "{hand} does not hold {chose}");
    }
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("data-name=\"move_pictures\"") && html.contains(" chosen\""));
    assert!(html.contains("class=\"findings\"") && html.contains("href=\"#moves_apart\""), "findings and contents");
    // --json: the same tables on stdout
    let j = report(&["--json"]);
    assert!(j.status.success(), "{}", String::from_utf8_lossy(&j.stderr));
    let j: serde_json::Value = serde_json::from_slice(&j.stdout).unwrap();
    let names: Vec<&str> = j["tables"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"moves") && names.contains(&"moves_apart"), "{names:?}");
    // the discard model's preferences beside the habits, furthest from everyone's first, each inside its interval
    let preferences = j["tables"].as_array().unwrap().iter().find(|t| t["name"] == "discard_preferences").unwrap();
    let rows = preferences["rows"].as_array().unwrap();
    assert!(!rows.is_empty());
    let z: Vec<f64> = rows.iter().map(|r| r["z"].as_f64().unwrap().abs()).collect();
    assert!(z.windows(2).all(|w| w[0] >= w[1]), "{z:?}");
    for r in rows {
        let (c, lo, hi) =
            (r["player"].as_f64().unwrap(), r["95% low"].as_f64().unwrap(), r["95% high"].as_f64().unwrap());
        assert!(lo <= c && c <= hi, "{r}");
        // where the player stands among players: above the middle exactly where above everyone's
        let (e, above) = (r["everyone"].as_f64().unwrap(), r["above players (%)"].as_f64().unwrap());
        assert!((0.0..=1.0).contains(&above) && (c > e) == (above > 0.5), "{r}");
    }
    assert!(html.contains("data-name=\"discard_preferences\""));
    assert!(html.contains("The discard preference furthest from everyone"), "the findings name it");
    assert!(html.contains("% of players, whose coefficients spread by"), "the findings place the player among players");
    assert_eq!(
        j["tables"].as_array().unwrap().iter().find(|t| t["name"] == "moves").unwrap()["rows"],
        read("moves")["rows"]
    );
}

/// The bots' logs ingested with their choices: the choice model names a bot from the calls and riichi of one
/// unseen game far above chance (the bots' rules differ in what they call), and is judged as a personal model.
fn choice_model_names_the_bots_by_their_calls(logs: &Path, dir: &Path) {
    let (ds, db) = (dir.join("dataset"), dir.join("db"));
    let (ds, db) = (ds.to_str().unwrap(), db.to_str().unwrap());
    let ingested = haifu(&["ingest", logs.to_str().unwrap(), "--out", ds, "--json"]);
    assert!(ingested.status.success(), "{}", String::from_utf8_lossy(&ingested.stderr));
    json(&haifu(&["style", "build", "--dataset", ds, "--out", db, "--years", "2022", "--min-games", "5", "--json"]));
    let acc =
        json(&haifu(&["style", "accuracy", "--db", db, "--dataset", ds, "--years", "2023", "--games", "1", "--json"]));
    let row = &acc["rows"][0];
    let choices = row["methods"].as_array().unwrap().iter().find(|m| m["method"] == "choices").unwrap();
    assert!(choices["top1"].as_f64().unwrap() > 2.0 * row["chance_top1"].as_f64().unwrap(), "{choices}");
    let judged = &acc["personal_choices"]["judged"];
    assert!(judged["players"].as_u64().unwrap() >= 4, "{judged}");
    // the Caller bot's choice coefficients, the furthest from everyone's first, each inside its interval; on its
    // page beside the discard preferences, and named in the findings
    let shown = json(&haifu(&["style", "show", "Caller", "--db", db, "--json"]));
    let rows = shown["choice_model"].as_array().unwrap();
    let z: Vec<f64> = rows.iter().map(|r| r["z"].as_f64().unwrap().abs()).collect();
    assert!(!z.is_empty() && z.windows(2).all(|w| w[0] >= w[1]), "{z:?}");
    for r in rows {
        let (c, (lo, hi)) = (r["coefficient"].as_f64().unwrap(), (&r["interval"][0], &r["interval"][1]));
        assert!(lo.as_f64().unwrap() <= c && c <= hi.as_f64().unwrap(), "{r}");
    }
    let page = dir.join("page");
    let args = ["report", "player", "Caller", "--dataset", ds, "--db", db, "--out", page.to_str().unwrap()];
    let r = haifu(&[&args[..], &["--years", "2022", "--min-count", "5"]].concat());
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let table: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(page.join("choice_preferences.json")).unwrap()).unwrap();
    assert_eq!(table["rows"][0]["preference"], rows[0]["name"], "{table}");
    let html = std::fs::read_to_string(page.join("index.html")).unwrap();
    assert!(html.contains("The choice furthest from everyone"), "the findings name it");
    // `style identify` on logs: their calls, riichi, kans and wins replayed and scored under each player's choice
    // model; from three unseen games the Caller bot's choices name it first, and `--by decisions` ranks by them
    // with the discards
    let mut args = vec!["style", "identify", "--db", db, "--seat", "Caller", "--json"];
    let mut logs: Vec<PathBuf> = std::fs::read_dir(logs).unwrap().map(|e| e.unwrap().path()).collect();
    logs.sort();
    let unseen = |p: &PathBuf| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("2023"));
    let of_caller = |p: &PathBuf| unseen(p) && std::fs::read_to_string(p).is_ok_and(|t| t.contains("\"Caller\""));
    let logs: Vec<String> = logs.iter().filter(|p| of_caller(p)).take(3).map(|p| p.display().to_string()).collect();
    assert_eq!(logs.len(), 3);
    logs.iter().for_each(|l| args.extend(["--log", l.as_str()]));
    let ranked = json(&haifu(&[&args[..], &["--by", "decisions"]].concat()));
    let ranked = ranked.as_array().unwrap();
    assert!(ranked.iter().all(|r| r["choices"].as_f64().unwrap() < 0.0), "{ranked:?}");
    let part = |r: &serde_json::Value, k: &str| r[k].as_f64().unwrap();
    let decisions: Vec<f64> = ranked.iter().map(|r| part(r, "discards") + part(r, "choices")).collect();
    assert!(decisions.windows(2).all(|w| w[0] >= w[1]), "{decisions:?}");
    let by_choices = ranked.iter().max_by(|a, b| part(a, "choices").total_cmp(&part(b, "choices"))).unwrap();
    assert_eq!(by_choices["player"], "Caller", "{ranked:?}");
    // the plain baseline the database stores (30 habit rates a game, calls per round among them) names it too,
    // alone and beside the discards
    for by in ["baseline", "discards_baseline"] {
        let ranked = json(&haifu(&[&args[..], &["--by", by]].concat()));
        let ranked = ranked.as_array().unwrap();
        let key =
            |r: &serde_json::Value| part(r, "baseline") + if by == "baseline" { 0.0 } else { part(r, "discards") };
        assert!(ranked.windows(2).all(|w| key(&w[0]) >= key(&w[1])), "{by}: {ranked:?}");
        assert_eq!(ranked[0]["player"], "Caller", "{by}: {ranked:?}");
    }
}

/// `style identify` on one seat of one log: every profiled player ranked, by the discard model by default and by the
/// score with `--by score`; as tensors the same players in the same order.
fn identify_ranks_every_player(db_s: &str, log: &Path) {
    let args = ["style", "identify", "--db", db_s, "--log", log.to_str().unwrap(), "--seat", "0", "--json"];
    let ranked = json(&haifu(&args));
    let ranked = ranked.as_array().unwrap();
    assert_eq!(ranked.len(), 8);
    let descending = |rs: &[serde_json::Value], k: &str| {
        let v: Vec<f64> = rs.iter().map(|r| r[k].as_f64().unwrap()).collect();
        v.windows(2).all(|w| w[0] >= w[1])
    };
    assert!(descending(ranked, "discards"));
    let by_score = json(&haifu(&[&args[..], &["--by", "score"]].concat()));
    assert!(descending(by_score.as_array().unwrap(), "score"));
    // as tensors: the same players in the same order, the same scores but for the last bits of a logarithm
    let tensors = json(&haifu(&[&args[..], &["--device", "cpu"]].concat()));
    for (a, b) in ranked.iter().zip(tensors.as_array().unwrap()) {
        assert_eq!(a["player"], b["player"]);
        for k in ["score", "sequences", "rates"] {
            let (x, y) = (a[k].as_f64().unwrap(), b[k].as_f64().unwrap());
            assert!((x - y).abs() <= 1e-9 * x.abs().max(1.0), "{k}: {x} against {y}");
        }
    }
}

/// Of a review's chosen discards that the network ranks, how many it ranks first, and how many there are.
fn network_first(review: &serde_json::Value) -> (usize, usize) {
    let ranks: Vec<u64> = review["games"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["decisions"].as_array().unwrap().iter().filter_map(|d| d["ranks"]["network"].as_u64()))
        .collect();
    (ranks.iter().filter(|&&k| k == 1).count(), ranks.len())
}

/// `style accuracy --save-refit`: the refit is written into (a copy of) the database, where `review --db`
/// tilts the network by it: the bot's unseen discards named first more often than by the network alone, under
/// a label that says so; a refit fitted for another network is noted; a database built again drops it.
fn saved_refit_tilts_the_review(
    ds: &str,
    db: &str,
    dir: &Path,
    global: &str,
    folds: &str,
    args: &[&str],
    plain: usize,
) {
    let copy = dir.join("db-refit");
    std::fs::create_dir_all(&copy).unwrap();
    for e in std::fs::read_dir(db).unwrap() {
        let e = e.unwrap().path();
        std::fs::copy(&e, copy.join(e.file_name().unwrap())).unwrap();
    }
    let copy_s = copy.to_str().unwrap();
    let stderr = |o: &std::process::Output| String::from_utf8_lossy(&o.stderr).into_owned();
    let at = args.iter().position(|&a| a == db).unwrap();
    let mut args = args.to_vec();
    args[at] = copy_s;
    let saved = haifu(&[&args[..], &["--network", global, "--cross-fit", folds, "--save-refit"]].concat());
    assert!(saved.status.success() && copy.join("discard_refit.parquet").exists(), "{}", stderr(&saved));
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(copy.join("discard_refit.json")).unwrap()).unwrap();
    assert_eq!(meta["folds"].as_array().map(Vec::len), Some(2), "{meta}");
    let review = |model: &str| {
        let out = dir.join("review-refit");
        let args = ["review", "--dataset", ds, "--tables", copy_s, "--player", "Folder", "--years", "2023"];
        haifu(&[&args[..], &["--out", out.to_str().unwrap(), "--model", model, "--db", copy_s, "--json"]].concat())
    };
    let r = review(global);
    assert!(r.status.success() && !stderr(&r).contains("fitted for the network"), "{}", stderr(&r));
    let r: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    let (refitted, n) = network_first(&r);
    assert!(n > 100 && refitted > plain + n / 20, "the network first {plain} of {n}, by the refit {refitted}");
    assert!(r.to_string().contains("refitted over the networks"), "the review names the refit");
    // the refit tilting a network it was not fitted for: said
    let other = review(folds.split(',').next().unwrap());
    assert!(other.status.success() && stderr(&other).contains("fitted for the network"), "{}", stderr(&other));
    identify_by_the_saved_refit(ds, db, copy_s, global);
    // built again, the database has no refit left
    let rebuilt = haifu(&["style", "build", "--dataset", ds, "--out", copy_s, "--years", "2022", "--min-games", "5"]);
    assert!(rebuilt.status.success(), "{}", stderr(&rebuilt));
    assert!(!copy.join("discard_refit.parquet").exists() && !copy.join("discard_refit.json").exists());
}

/// `style identify --network RUN --by refit`: three unseen games of the Folder bot, ranked by the network tilted
/// by each bot's saved refit, name it first, every player with its log-likelihood beside; refused without the
/// network, and for a database that holds no refit.
fn identify_by_the_saved_refit(ds: &str, db: &str, with_refit: &str, global: &str) {
    let logs = Path::new(ds).parent().unwrap().join("logs");
    let mut logs: Vec<PathBuf> = std::fs::read_dir(logs).unwrap().map(|e| e.unwrap().path()).collect();
    logs.sort();
    let of_folder = |p: &PathBuf| {
        p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("2023"))
            && std::fs::read_to_string(p).is_ok_and(|t| t.contains("\"Folder\""))
    };
    let logs: Vec<String> = logs.iter().filter(|p| of_folder(p)).take(3).map(|p| p.display().to_string()).collect();
    assert_eq!(logs.len(), 3);
    let identify = |db: &str, more: &[&str]| {
        let mut args = vec!["style", "identify", "--db", db, "--seat", "Folder", "--json"];
        logs.iter().for_each(|l| args.extend(["--log", l.as_str()]));
        haifu(&[&args[..], more].concat())
    };
    let ranked = json(&identify(with_refit, &["--network", global, "--by", "refit"]));
    let ranked = ranked.as_array().unwrap();
    let refit: Vec<f64> = ranked.iter().map(|r| r["network_refit"].as_f64().unwrap()).collect();
    assert!(refit.len() == 8 && refit.windows(2).all(|w| w[0] >= w[1]) && refit[0] < 0.0, "{refit:?}");
    assert_eq!(ranked[0]["player"], "Folder", "{ranked:?}");
    let without = identify(with_refit, &["--by", "refit"]);
    assert!(error(&without).contains("--network RUN"), "{}", error(&without));
    let no_refit = identify(db, &["--network", global, "--by", "refit"]);
    assert!(error(&no_refit).contains("no refit saved"), "{}", error(&no_refit));
}

/// `style accuracy --player-vectors RUN`: a network conditioned on the players, trained on the database's year
/// (2022) and tested on the next, ranks the bots' unseen blocks by each bot's vector far above chance;
/// `--network RUN`: the global network tilted by each bot's discard coefficients predicts the bots better than
/// the network as it is. A run that trained on the test games is refused, naming how many.
fn player_vectors_identify_the_bots(ds: &str, db: &str, dir: &Path) {
    let at = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (global, vectors, leaky_global, leaky) = (at("global"), at("vectors"), at("leaky-global"), at("leaky"));
    let (global, vectors, leaky_global, leaky) =
        (global.as_str(), vectors.as_str(), leaky_global.as_str(), leaky.as_str());
    let run = |out: &str, years: &[&str], more: &[&str]| {
        let mut args =
            vec!["train", "--dataset", ds, "--out", out, "--epochs", "2", "--batch", "256", "--device", "cpu"];
        args.extend(years);
        args.extend(more);
        haifu(&args)
    };
    let train = |out: &str, years: &[&str], more: &[&str]| {
        let r = run(out, years, more);
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    };
    let split = ["--years", "2022", "--test-years", "2023"];
    train(global, &split, &["--layers", "2"]);
    train(vectors, &split, &["--init", global, "--player-vectors", "4", "--player-min-games", "3"]);
    let args = ["style", "accuracy", "--db", db, "--dataset", ds, "--years", "2023", "--games", "1,5", "--json"];
    let acc = json(&haifu(&[&args[..], &["--player-vectors", vectors]].concat()));
    for row in acc["rows"].as_array().unwrap() {
        let m = row["methods"].as_array().unwrap().iter().find(|m| m["method"] == "player_vectors").unwrap();
        let floor = 3.0 * row["chance_top1"].as_f64().unwrap();
        assert!(m["top1"].as_f64().unwrap() >= floor, "{m} from {} games", row["games"]);
        let places = row["places"].as_array().unwrap();
        assert!(places.iter().all(|p| p["player_vectors"].as_u64().is_some_and(|v| (1..=8).contains(&v))));
    }
    // the global network tilted by each bot's discard coefficients: every position matched to the model's
    // choices, and the bots (each its own style) predicted better than by the network as it is
    let tilted = json(&haifu(&[&args[..], &["--network", global]].concat()));
    let n = &tilted["personal_network"];
    assert_eq!(n["misaligned_seats"], 0, "{n}");
    let covered = n["covered"].as_f64().unwrap();
    assert!(covered > 0.5 && covered < 1.0, "{n}");
    let judged = &n["gains"]["judged"];
    let players = judged["players"].as_u64().unwrap();
    assert!(players >= 6 && judged["better"].as_u64().unwrap() + 1 >= players, "{judged}");
    assert!(judged["mean_gain_points"].as_f64().unwrap() > 3.0, "{judged}");
    assert_eq!(n["vectors"], false);
    // the same network tilted by the coefficients refitted over two fold networks of the profile year: every
    // profile seat read by the fold that did not train on it, and the bots predicted better than by the network
    let fold = |k: &str| {
        let out = at(&format!("fold{k}"));
        train(&out, &split, &["--layers", "2", "--fold", &format!("{k}/2")]);
        out
    };
    let folds = format!("{},{}", fold("1"), fold("2"));
    let refit = json(&haifu(&[&args[..], &["--network", global, "--cross-fit", &folds]].concat()));
    let r = &refit["personal_network_refit"];
    let read = &r["refit"];
    assert_eq!((read["networks"].as_u64(), read["unread_seats"].as_u64()), (Some(2), Some(0)), "{read}");
    assert_eq!((read["misaligned_seats"].as_u64(), &r["misaligned_seats"]), (Some(0), &serde_json::json!(0)), "{r}");
    assert!(read["seats"].as_u64().unwrap() > 100, "{read}");
    let judged = &r["gains"]["judged"];
    let players = judged["players"].as_u64().unwrap();
    assert!(players >= 6 && judged["better"].as_u64().unwrap() + 1 >= players, "{judged}");
    assert!(judged["mean_gain_points"].as_f64().unwrap() > 3.0, "{judged}");
    assert_eq!(
        (&r["tilt"], &refit["global_network_refit"]["tilt"]),
        (&serde_json::json!("refitted"), &serde_json::json!("everyone_refitted"))
    );
    assert_eq!(refit["personal_network"]["gains"]["judged"], tilted["personal_network"]["gains"]["judged"]);
    // the players ranked by the network tilted by each one's refitted coefficients: far above chance, beside
    // every other method of the run (and absent from the run without --cross-fit)
    for (row, plain) in refit["rows"].as_array().unwrap().iter().zip(tilted["rows"].as_array().unwrap()) {
        let m = row["methods"].as_array().unwrap().iter().find(|m| m["method"] == "network_refit").unwrap();
        assert!(m["top1"].as_f64().unwrap() >= 3.0 * row["chance_top1"].as_f64().unwrap(), "{m}");
        assert!(row["places"].as_array().unwrap().iter().all(|p| p["network_refit"].as_u64().is_some()));
        assert!(plain["methods"].as_array().unwrap().iter().all(|m| m["method"] != "network_refit"));
        assert!(plain["places"].as_array().unwrap().iter().all(|p| p["network_refit"].is_null()));
    }
    // a network that trained on every profile game reads none of them
    let refused = haifu(&[&args[..], &["--network", global, "--cross-fit", global]].concat());
    assert!(error(&refused).contains("trained on every profile game"), "{}", error(&refused));
    // `review --model --db`: the same tilt on the pages of a bot's unseen games names its discards first more often
    let first = |more: &[&str]| {
        let out = dir.join(format!("review{}", more.len()));
        let args = ["review", "--dataset", ds, "--tables", db, "--player", "Folder", "--years", "2023"];
        network_first(&json(&haifu(
            &[&args[..], &["--out", out.to_str().unwrap(), "--model", global, "--json"], more].concat(),
        )))
    };
    let ((plain, n), (tilted, m)) = (first(&[]), first(&["--db", db]));
    assert!(n > 100 && n == m && tilted > plain + n / 20, "the network first {plain} of {n}, tilted {tilted}");
    saved_refit_tilts_the_review(ds, db, dir, global, &folds, &args, plain);
    // the network with each bot's own vector, tilted, against its row for everyone
    let own = json(&haifu(&[&args[..], &["--network", vectors]].concat()));
    let n = &own["personal_network"];
    assert_eq!((&n["vectors"], &n["misaligned_seats"]), (&serde_json::json!(true), &serde_json::json!(0)), "{n}");
    let judged = &n["gains"]["judged"];
    let players = judged["players"].as_u64().unwrap();
    assert!(players >= 6 && judged["better"].as_u64().unwrap() + 1 >= players, "{judged}");
    assert!(judged["mean_gain_points"].as_f64().unwrap() > 3.0, "{judged}");
    // vectors are not trained on another split than their global network's
    let mismatched = run(leaky, &[], &["--init", global, "--player-vectors", "4", "--player-min-games", "3"]);
    assert!(error(&mismatched).contains("another split"), "{}", error(&mismatched));
    // the same networks trained on every year saw the test games: refused, naming how many
    train(leaky_global, &[], &["--layers", "2"]);
    train(leaky, &[], &["--init", leaky_global, "--player-vectors", "4", "--player-min-games", "3"]);
    let refused = haifu(&[&args[..], &["--player-vectors", leaky]].concat());
    assert!(error(&refused).contains("test games are among the games it trained on"), "{}", error(&refused));
    let refused = haifu(&[&args[..], &["--network", leaky_global]].concat());
    assert!(error(&refused).contains("test games are among the games it trained on"), "{}", error(&refused));
}

/// Whether a hand in Tenhou notation (`123m45p11z`) holds a kind in mjai notation (`3m`, `E`, `C`).
fn holds(hand: &str, kind: &str) -> bool {
    let honors = ["E", "S", "W", "N", "P", "F", "C"];
    let (digit, suit) = match honors.iter().position(|h| *h == kind) {
        Some(i) => (char::from(b'1' + i as u8), 'z'),
        None => (kind.chars().next().unwrap(), kind.chars().nth(1).unwrap()),
    };
    let mut digits = Vec::new();
    for c in hand.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            if c == suit && digits.contains(&digit) {
                return true;
            }
            digits.clear();
        }
    }
    false
}

/// `haifu report bots`: each bot's rates column equals its profile's, its distance from the humans lies in
/// (0, 1], and the decisiveness table has the humans' row and one per bot.
fn bots_report_sets_bots_beside_humans(db: &str, out: &Path) {
    let r = haifu(&[
        "report",
        "bots",
        "--humans",
        db,
        "--bots-db",
        db,
        "--bots",
        "Honors,Tanyao",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let read = |name: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(out.join(format!("{name}.json"))).unwrap()).unwrap()
    };
    let honors = json(&haifu(&["style", "show", "Honors", "--db", db, "--json"]));
    let rates = read("rates");
    let riichi = rates["rows"].as_array().unwrap().iter().find(|r| r["rate"] == "riichi_rate").unwrap();
    assert_eq!(riichi["Honors"], honors["rates"]["riichi_rate"]);
    for row in read("distance")["rows"].as_array().unwrap() {
        let d = row["Jensen-Shannon distance"].as_f64().unwrap();
        assert!(d > 0.0 && d <= 1.0, "{row}");
    }
    let scopes: Vec<String> = read("decisiveness")["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["scope"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(scopes, ["ALL", "Honors (bot)", "Tanyao (bot)"]);
    let page = std::fs::read_to_string(out.join("index.html")).unwrap().replace("&#39;", "'");
    assert!(page.contains("data-name=\"bot_rates\""));
    // the findings name the bot nearer the humans by the distance table
    let distance = read("distance");
    let d = |r: &serde_json::Value| r["Jensen-Shannon distance"].as_f64().unwrap();
    let rows = distance["rows"].as_array().unwrap();
    let near = rows.iter().min_by(|a, b| d(a).total_cmp(&d(b))).unwrap();
    let sentence = format!(
        "{} plays the sequences nearest to the humans' (Jensen-Shannon distance {:.3})",
        near["bot"].as_str().unwrap(),
        d(near)
    );
    assert!(
        page.find("id=\"findings\"").is_some_and(|f| page[f..].contains(&sentence)),
        "{sentence} not in the findings"
    );
}

/// `style identify --models`: a player's own network adds its log-likelihood to that player's score only.
fn identify_with_a_personal_network(ds: &str, db: &str, logs: &Path, nets: &Path) {
    let global = nets.join("global");
    let train = |extra: &[&str], out: &Path| {
        let mut args = vec!["train", "--dataset", ds, "--years", "2022", "--test-years", "2023", "--layers", "2"];
        args.extend(["--epochs", "1", "--batch", "256", "--device", "cpu", "--json", "--out", out.to_str().unwrap()]);
        args.extend(extra);
        let r = haifu(&args);
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    };
    train(&[], &global);
    train(&["--player", "Honors", "--init", global.to_str().unwrap()], &nets.join("Honors"));
    // a 2023 game where Honors plays
    let log = std::fs::read_dir(logs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name().unwrap().to_str().unwrap().starts_with("2023")
                && std::fs::read_to_string(p).is_ok_and(|t| t.contains("\"Honors\""))
        })
        .expect("a 2023 game of Honors");
    let ranked = json(&haifu(&[
        "style",
        "identify",
        "--db",
        db,
        "--log",
        log.to_str().unwrap(),
        "--seat",
        "Honors",
        "--models",
        nets.to_str().unwrap(),
        "--json",
    ]));
    for r in ranked.as_array().unwrap() {
        let parts = ["sequences", "rates", "habits", "choices"].iter().map(|k| r[k].as_f64().unwrap()).sum::<f64>();
        match r["neural"].as_f64() {
            Some(ll) => {
                assert_eq!(r["player"], "Honors", "only Honors has a network");
                assert!(ll < 0.0 && (r["score"].as_f64().unwrap() - parts - ll).abs() < 1e-9, "{r}");
            }
            None => assert!((r["score"].as_f64().unwrap() - parts).abs() < 1e-9, "{r}"),
        }
    }
    assert!(ranked.as_array().unwrap().iter().any(|r| r["player"] == "Honors" && r["neural"].is_number()));
}

/// `style accuracy --embedding`: a network trained on the eight bots' 2022 games names them from their 2023
/// games, which it never saw; the network written by --embedding-out, loaded by --embedding-from, places every
/// trial the same.
fn embedding_identifies_the_bots_from_unseen_games(ds: &str, db: &str, logs: &Path, saved: &Path) {
    let args = ["style", "accuracy", "--db", db, "--dataset", ds, "--years", "2023", "--games", "1,5", "--json"];
    let trained = json(&haifu(&[&args[..], &["--embedding", "--embedding-out", saved.to_str().unwrap()]].concat()));
    let rows = trained["rows"].as_array().unwrap();
    for row in rows {
        let top1 = row["embedding"][0].as_f64().unwrap();
        let (lo, hi) =
            (row["embedding_top1_interval"][0].as_f64().unwrap(), row["embedding_top1_interval"][1].as_f64().unwrap());
        assert!(lo <= top1 && top1 <= hi, "{row}");
        assert!(row["places"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["embedding"].as_u64().is_some_and(|e| (1..=8).contains(&e))));
        // far above chance (1 in 8) from one game, and most blocks of five named right
        let floor = if row["games"] == 1 { 3.0 * row["chance_top1"].as_f64().unwrap() } else { 0.75 };
        assert!(top1 >= floor, "embedding top-1 {top1} from {} games", row["games"]);
    }
    let loaded = json(&haifu(&[&args[..], &["--embedding-from", saved.to_str().unwrap()]].concat()));
    for (a, b) in rows.iter().zip(loaded["rows"].as_array().unwrap()) {
        assert_eq!(a["places"], b["places"], "the saved embedding places the trials otherwise");
    }
    // a folder without an embedding is named
    let wrong = haifu(&[&args[..], &["--embedding-from", ds]].concat());
    assert!(error(&wrong).contains("no embedding here"), "{}", error(&wrong));

    // nearest by the centroids: the seven others, nearest first, each a cosine
    let dir = saved.to_str().unwrap();
    let near = json(&haifu(&["style", "nearest", "Honors", "--db", db, "-k", "7", "--embedding", dir, "--json"]));
    let cos: Vec<f64> = near["nearest"].as_array().unwrap().iter().map(|n| n["cosine"].as_f64().unwrap()).collect();
    assert_eq!(cos.len(), 7);
    assert!(cos.windows(2).all(|w| w[0] >= w[1]) && cos.iter().all(|c| c.abs() <= 1.0 + 1e-9), "{cos:?}");
    // identify five 2023 games of Honors from their logs: ranked by the cosine, Honors first
    let mut args = vec!["style".to_string(), "identify".into(), "--db".into(), db.into()];
    let mut games = std::fs::read_dir(logs).unwrap().map(|e| e.unwrap().path()).collect::<Vec<_>>();
    games.sort();
    for log in games
        .iter()
        .filter(|p| {
            p.file_name().unwrap().to_str().unwrap().starts_with("2023")
                && std::fs::read_to_string(p).is_ok_and(|t| t.contains("\"Honors\""))
        })
        .take(5)
    {
        args.extend(["--log".to_string(), log.display().to_string()]);
    }
    args.extend(["--seat", "Honors", "--embedding", dir, "--json"].map(String::from));
    let ranked = json(&haifu(&args.iter().map(String::as_str).collect::<Vec<_>>()));
    let ranked = ranked.as_array().unwrap();
    let cos: Vec<f64> = ranked.iter().map(|r| r["embedding"].as_f64().unwrap()).collect();
    assert!(cos.windows(2).all(|w| w[0] >= w[1]), "{cos:?}");
    assert_eq!(ranked[0]["player"], "Honors", "{ranked:?}");
}
