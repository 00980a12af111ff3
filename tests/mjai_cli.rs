//! Play over mjai end to end, with the real binary: `haifu mjai-server` on loopback and `haifu mjai-bot`
//! clients as separate processes over TCP. Imitators of players of a style database (built from self-play
//! games) and `haifu sim`'s bots finish full games, 4-player and 3-player; every game the server writes
//! (mjlog and mjai) verifies; nobody gets a protocol error. The bot on stdin names the lines it cannot use and
//! still answers each with one line.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use common::{haifu, json, Scratch};

/// A style database of five style-bot "players" from 40 self-play hanchan.
fn style_db(dir: &Path) -> String {
    let (logs, ds, db) = (dir.join("logs"), dir.join("ds"), dir.join("db"));
    let sim = haifu(&[
        "sim",
        "--games",
        "40",
        "--players",
        "Tanaka=tanyao",
        "Chiba=chanta",
        "Yagi=yakuhai",
        "Ito=efficiency",
        "Oda=folder",
        "--out",
        logs.to_str().unwrap(),
        "--date",
        "20230101",
    ]);
    assert!(sim.status.success(), "{}", String::from_utf8_lossy(&sim.stderr));
    let ingest = haifu(&["ingest", logs.to_str().unwrap(), "--out", ds.to_str().unwrap(), "--choices"]);
    assert!(ingest.status.success(), "{}", String::from_utf8_lossy(&ingest.stderr));
    let build = haifu(&["style", "build", "--dataset", ds.to_str().unwrap(), "--out", db.to_str().unwrap()]);
    assert!(build.status.success(), "{}", String::from_utf8_lossy(&build.stderr));
    db.to_str().unwrap().to_string()
}

/// The chi and pon each player made in the mjai logs of a match folder, by name.
fn calls_by_name(out: &Path) -> std::collections::HashMap<String, usize> {
    let mut calls = std::collections::HashMap::new();
    for e in std::fs::read_dir(out).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "mjson") {
            continue;
        }
        let mut names: Vec<String> = Vec::new();
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let m: serde_json::Value = serde_json::from_str(line).unwrap();
            match m["type"].as_str() {
                Some("start_game") => {
                    names = m["names"].as_array().unwrap().iter().map(|n| n.as_str().unwrap().to_string()).collect();
                    for n in &names {
                        calls.entry(n.clone()).or_insert(0);
                    }
                }
                Some("chi" | "pon") => *calls.get_mut(&names[m["actor"].as_u64().unwrap() as usize]).unwrap() += 1,
                _ => {}
            }
        }
    }
    calls
}

/// Starts the server on a free port; returns it and the port its first line names.
fn server(args: &[&str]) -> (Child, BufReader<std::process::ChildStdout>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_haifu"))
        .args(["mjai-server", "--bind", "127.0.0.1:0", "--json"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let addr =
        first.trim().strip_prefix("listening on ").unwrap_or_else(|| panic!("first line: {first:?}")).to_string();
    (child, out, addr)
}

fn bot(addr: &str, who: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_haifu"))
        .args(["mjai-bot", "--tcp", addr, "--json", "--connect-timeout-ms", "5000"])
        .args(who)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the bot starts")
}

/// Plays a match; returns the server's report and each bot's summary.
fn play(args: &[&str], players: &[Vec<&str>]) -> (serde_json::Value, Vec<serde_json::Value>) {
    let (mut srv, mut out, addr) = server(args);
    let bots: Vec<Child> = players.iter().map(|p| bot(&addr, p)).collect();
    let summaries: Vec<serde_json::Value> = bots
        .into_iter()
        .map(|b| {
            let o = b.wait_with_output().unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(o.status.success(), "bot failed: {err}");
            serde_json::from_str(err.lines().last().unwrap_or_default()).unwrap_or_else(|e| panic!("{e}: {err}"))
        })
        .collect();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    assert!(srv.wait().unwrap().success(), "the server failed: {rest}");
    (serde_json::from_str(&rest).unwrap_or_else(|e| panic!("{e}: {rest}")), summaries)
}

/// Every game of the report finished without a protocol error or a dropped client, and every file verifies.
fn check_match(report: &serde_json::Value, bots: &[serde_json::Value], games: usize, out: &Path) {
    let g = report["games"].as_array().unwrap();
    assert_eq!(g.len(), games);
    for c in report["clients"].as_array().unwrap() {
        assert_eq!(c["errors"], 0, "{c}");
        assert!(c["dropped"].is_null(), "{c}");
    }
    for b in bots {
        assert_eq!(b["games"], games as u64, "{b}");
        assert!(b["problems"].as_array().unwrap().is_empty(), "{b}");
        assert!(b["server_errors"].as_array().unwrap().is_empty(), "{b}");
        // (the seats go to the clients in the order they connect, so the games differ from run to run)
        assert!(b["decisions"].as_u64().unwrap() > 0, "{b}");
    }
    let v = json(&haifu(&["verify", out.to_str().unwrap(), "--json"]));
    // each game twice: its mjlog and its mjai log
    assert_eq!(v["games"], 2 * games as u64, "{v}");
    assert_eq!(v["agari_mismatches"], 0, "{v}");
    assert_eq!(v["replay_mismatches"], 0, "{v}");
    assert_eq!(v["owari_checked"], 2 * games as u64, "{v}");
}

#[test]
fn imitators_and_sim_bots_play_full_games_over_tcp() {
    common::needs_network_binary();
    let s = Scratch::new("mjai-play");
    let db = style_db(&s.0);
    let imitator = |p: &'static str| vec!["--db", db.as_str(), "--player", p];

    // four imitators of the database's players, two hanchan (the seats rotate)
    let out = s.0.join("four");
    let (report, bots) = play(
        &["--players", "4", "--games", "2", "--out", out.to_str().unwrap()],
        &[imitator("Tanaka"), imitator("Chiba"), imitator("Yagi"), imitator("Oda")],
    );
    check_match(&report, &bots, 2, &out);
    for b in &bots {
        // the player's own table decided most discards, its own choices the calls and riichi; its fold rate came
        // from the database
        assert!(b["sources"]["own_table"].as_u64().unwrap() > b["sources"]["shanten"].as_u64().unwrap(), "{b}");
        assert!(b["sources"]["own_choices"].as_u64().unwrap() > 0, "{b}");
        assert_eq!(b["sources"]["rule_choices"], 0, "{b}");
        assert!(b["rates"]["fold"].as_f64().unwrap() > 0.0, "{b}");
    }
    // the folder bot never called in the self-play games, so its imitator never calls; the callers' do
    let calls = calls_by_name(&out);
    assert_eq!(calls["Oda"], 0, "{calls:?}");
    assert!(calls["Tanaka"] + calls["Chiba"] + calls["Yagi"] > 0, "{calls:?}");

    // three players (north extraction): two imitators and a sim bot
    let out3 = s.0.join("three");
    let (report, bots) = play(
        &["--players", "3", "--games", "1", "--out", out3.to_str().unwrap()],
        &[imitator("Tanaka"), imitator("Yagi"), vec!["--bot", "yakuhai"]],
    );
    check_match(&report, &bots, 1, &out3);
    assert_eq!(report["games"][0]["go_type"], 185);

    // a neural model where the tables have no candidate: a small MLP trained on the same games
    let net = s.0.join("net");
    let ds = s.0.join("ds");
    let train = haifu(&[
        "train",
        "--dataset",
        ds.to_str().unwrap(),
        "--model",
        "mlp",
        "--layers",
        "2",
        "--epochs",
        "1",
        "--batch",
        "512",
        "--device",
        "cpu",
        "--out",
        net.to_str().unwrap(),
    ]);
    assert!(train.status.success(), "{}", String::from_utf8_lossy(&train.stderr));
    let outn = s.0.join("net-games");
    let mut with_net = imitator("Tanaka");
    with_net.extend(["--model", net.to_str().unwrap()]);
    let (report, bots) = play(
        &["--players", "4", "--games", "1", "--length", "east", "--out", outn.to_str().unwrap()],
        &[with_net, imitator("Chiba"), imitator("Yagi"), imitator("Oda")],
    );
    check_match(&report, &bots, 1, &outn);
    // the network answers every discard the tables cannot rank: the shanten rule is never reached
    assert!(bots[0]["sources"]["network"].as_u64().unwrap() > 0, "{}", bots[0]);
    assert_eq!(bots[0]["sources"]["shanten"], 0, "{}", bots[0]);

    // the player's personal network first: every discard the network's, tilted by the player's discard model
    // wherever that has the choice (after a draw, out of riichi); the tables never reached
    let outp = s.0.join("personal-games");
    let mut personal = imitator("Tanaka");
    personal.extend(["--model", net.to_str().unwrap(), "--network-first"]);
    let (report, bots) = play(
        &["--players", "4", "--games", "1", "--length", "east", "--out", outp.to_str().unwrap()],
        &[personal, imitator("Chiba"), imitator("Yagi"), imitator("Oda")],
    );
    check_match(&report, &bots, 1, &outp);
    let sources = &bots[0]["sources"];
    let (network, tilted) = (sources["network"].as_u64().unwrap(), sources["tilted"].as_u64().unwrap());
    assert!(network > 0 && tilted > network / 2 && tilted <= network, "{sources}");
    assert_eq!((&sources["own_table"], &sources["all_table"], &sources["shanten"]), (&0.into(), &0.into(), &0.into()));

    // haifu sim's bots through the same protocol, east-only
    let outb = s.0.join("bots");
    let (report, bots) = play(
        &["--players", "4", "--games", "1", "--length", "east", "--out", outb.to_str().unwrap()],
        &[vec!["--bot", "greedy"], vec!["--bot", "tanyao"], vec!["--bot", "caller"], vec!["--bot", "folder"]],
    );
    check_match(&report, &bots, 1, &outb);
}

#[test]
fn the_bot_names_what_it_cannot_read_and_answers_every_line() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_haifu"))
        .args(["mjai-bot", "--bot", "greedy", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let hand = r#"["1m","2m","3m","4p","5p","6p","7s","8s","9s","E","E","S","W"]"#;
    let hidden = r#"["?","?","?","?","?","?","?","?","?","?","?","?","?"]"#;
    let lines = [
        r#"{"type":"hello","protocol":"mjsonp","protocol_version":3}"#.to_string(),
        r#"{"type":"start_game","id":1,"names":["A","B","C","D"]}"#.to_string(),
        format!(
            r#"{{"type":"start_kyoku","bakaze":"E","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"dora_marker":"1p","tehais":[{hidden},{hand},{hidden},{hidden}]}}"#
        ),
        "this is not json".to_string(),
        r#"{"type":"teleport","actor":0}"#.to_string(),
        r#"{"type":"tsumo","actor":0,"pai":"?"}"#.to_string(),
        r#"{"type":"dahai","actor":0,"pai":"N","tsumogiri":true}"#.to_string(),
        r#"{"type":"tsumo","actor":1,"pai":"N"}"#.to_string(),
        // the seat is told it discards a tile it does not hold
        r#"{"type":"dahai","actor":1,"pai":"9p","tsumogiri":false}"#.to_string(),
    ];
    {
        let mut stdin = child.stdin.take().unwrap();
        for l in &lines {
            writeln!(stdin, "{l}").unwrap();
        }
    }
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    let answers: Vec<serde_json::Value> =
        String::from_utf8_lossy(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(answers.len(), lines.len(), "one answer per line");
    assert_eq!(answers[0]["type"], "join");
    assert_eq!(answers[3]["type"], "none");
    assert_eq!(answers[4]["type"], "none");
    // its own draw: it discards (a tile of its hand)
    assert_eq!(answers[7]["type"], "dahai");
    assert_eq!(answers[7]["actor"], 1);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("line 4: cannot read the message"), "{err}");
    assert!(err.contains("line 5:") && err.contains("teleport"), "{err}");
    assert!(err.contains("line 9: dahai:") && err.contains("holds no 9p"), "{err}");
    let summary: serde_json::Value = serde_json::from_str(err.lines().last().unwrap()).unwrap();
    assert_eq!(summary["problems"].as_array().unwrap().len(), 3, "{summary}");
}

/// Four imitators of real players (the corpus's players with the most games) finish a hanchan against the
/// server, and the game verifies.
#[test]
fn imitators_of_real_players_finish_a_hanchan() {
    let Some(corpus) = common::corpus() else { return };
    let s = Scratch::new("mjai-real");
    let (ds, db) = (s.0.join("ds"), s.0.join("db"));
    let ingest = haifu(&["ingest", corpus.join("mjlog").to_str().unwrap(), "--out", ds.to_str().unwrap(), "--choices"]);
    assert!(ingest.status.success(), "{}", String::from_utf8_lossy(&ingest.stderr));
    let build = haifu(&["style", "build", "--dataset", ds.to_str().unwrap(), "--out", db.to_str().unwrap()]);
    assert!(build.status.success(), "{}", String::from_utf8_lossy(&build.stderr));
    let list = json(&haifu(&["style", "list", "--db", db.to_str().unwrap(), "--json"]));
    let mut players: Vec<(u64, String)> = list
        .as_array()
        .or_else(|| list["players"].as_array())
        .expect("a list of players")
        .iter()
        .map(|p| (p["games"].as_u64().unwrap(), p["player"].as_str().unwrap().to_string()))
        .collect();
    players.sort_by(|a, b| b.cmp(a));
    assert!(players.len() >= 4, "{players:?}");
    let dbs = db.to_str().unwrap();
    let clients: Vec<Vec<&str>> = players[..4].iter().map(|(_, p)| vec!["--db", dbs, "--player", p.as_str()]).collect();
    let out = s.0.join("games");
    let (report, bots) = play(&["--players", "4", "--games", "1", "--out", out.to_str().unwrap()], &clients);
    check_match(&report, &bots, 1, &out);
    let names: Vec<&str> =
        report["games"][0]["seats"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    for (_, p) in &players[..4] {
        assert!(names.contains(&p.as_str()), "{p} at the table: {names:?}");
    }
    for b in &bots {
        assert!(b["sources"]["own_table"].as_u64().unwrap() > 0, "{b}");
        // calls, riichi and kans by the real player's own choices, where it met a situation it had met before
        assert!(b["sources"]["own_choices"].as_u64().unwrap() > 0, "{b}");
    }
}
