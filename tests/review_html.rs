//! `haifu review` on games the project plays itself (`haifu sim`): the JSON lists every chosen discard of the
//! seat with the references' candidates and ranks, the all-players table's candidates are `haifu imitate
//! suggest`'s, and the page opens in headless Chromium with one decision element per chosen discard, each with
//! its board and three candidate lists (a screenshot is kept at `$CARGO_TARGET_DIR/test-artifacts/review.png`).
//! Without Chromium the browser part says it skipped.

mod common;

use std::path::{Path, PathBuf};

use common::{chromium, error, haifu, headless, json, Scratch};

/// A small dataset and its tables: five style bots, 12 games.
fn made(s: &Scratch) -> (PathBuf, PathBuf, PathBuf) {
    let (logs, ds, tables) = (s.0.join("logs"), s.0.join("ds"), s.0.join("tables"));
    let players = ["Tanaka=tanyao", "Chiba=chanta", "Yagi=yakuhai", "Ito=efficiency", "Oda=folder"];
    let mut sim = vec!["sim", "--games", "12", "--seed", "5", "--out", logs.to_str().unwrap(), "--players"];
    sim.extend(players);
    assert!(haifu(&sim).status.success());
    assert!(haifu(&["ingest", logs.to_str().unwrap(), "--out", ds.to_str().unwrap()]).status.success());
    assert!(haifu(&["mine", "--dataset", ds.to_str().unwrap(), "--out", tables.to_str().unwrap()]).status.success());
    (logs, ds, tables)
}

/// The seat's chosen discards in an mjlog, counted from its tags: every discard of the seat but those after
/// its riichi discard in the same round.
fn chosen_discards(xml: &str, seat: usize) -> usize {
    let (mut n, mut declared, mut in_riichi) = (0, false, false);
    for tag in xml.split('<').skip(1) {
        let name: String = tag.chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        if name == "INIT" {
            (declared, in_riichi) = (false, false);
        } else if name == "REACH" && tag.contains(&format!("who=\"{seat}\"")) && tag.contains("step=\"1\"") {
            declared = true;
        } else if name.len() > 1
            && name.starts_with(['D', 'E', 'F', 'G'])
            && name[1..].chars().all(|c| c.is_ascii_digit())
            && usize::from(name.as_bytes()[0] - b'D') == seat
        {
            // the riichi discard itself is chosen; the discards after it are forced
            if !in_riichi {
                n += 1;
            }
            in_riichi |= declared;
        }
    }
    n
}

#[test]
fn a_review_lists_every_chosen_discard_with_the_references() {
    let s = Scratch::new("review-json");
    let (logs, ds, tables) = made(&s);
    let out = s.0.join("review");
    let args = ["review", "--dataset", ds.to_str().unwrap(), "--tables", tables.to_str().unwrap()];
    let r = json(&haifu(&[&args[..], &["--player", "Tanaka", "--out", out.to_str().unwrap(), "--json"]].concat()));
    let games = r["games"].as_array().unwrap();
    assert!(!games.is_empty());
    assert!(r["network"].is_null(), "no network was given");
    let mut checked_suggest = false;
    for g in games {
        assert_eq!(g["player"], "Tanaka");
        // the tables were mined from every year: the page warns that they hold the game's own discards
        assert_eq!(g["in_tables"], true);
        let page = std::fs::read_to_string(out.join(g["page"].as_str().unwrap())).unwrap();
        assert!(page.contains("this game's year included"));
        let seat = g["seat"].as_u64().unwrap() as usize;
        let log = g["log_id"].as_str().unwrap();
        let xml = std::fs::read_to_string(logs.join(format!("{log}.xml"))).unwrap();
        let decisions = g["decisions"].as_array().unwrap();
        assert_eq!(decisions.len(), chosen_discards(&xml, seat), "{log}: one decision per chosen discard");
        assert!(out.join(g["page"].as_str().unwrap()).is_file());
        for d in decisions {
            let chosen = d["chosen"].as_str().unwrap();
            for name in ["network", "all", "own"] {
                let x = &d["references"][name];
                let tiles: Vec<&str> =
                    x["candidates"].as_array().unwrap().iter().map(|c| c["tile"].as_str().unwrap()).collect();
                // the rank is the choice's place in the list, as the ranks object repeats it
                let place = tiles.iter().position(|t| *t == chosen).map(|i| i as u64 + 1);
                assert_eq!(x["rank"].as_u64(), place, "{name}: {d}");
                assert_eq!(d["ranks"][name], x["rank"]);
            }
            assert_eq!(d["references"]["network"]["given"], false);
            let agree = d["ranks"]["all"] == 1;
            assert_eq!(d["category"] == "agree", agree, "{d}");
            // a choice against the table, among its suit candidates, is style only without riichi, call or honor
            if d["category"] == "style" {
                assert_eq!(d["source"], "draw");
                assert!(!chosen.ends_with(|c: char| c.is_ascii_uppercase()), "{d}");
                assert!(d["sureness"].as_f64().unwrap() > 0.0 || d["ranks"]["all"].is_null(), "{d}");
            }
            // the all-players candidates are the imitator's: as `imitate suggest` ranks the same state
            if !checked_suggest && d["category"] == "style" {
                let suggest = json(&haifu(&[
                    "imitate",
                    "suggest",
                    "--tables",
                    tables.to_str().unwrap(),
                    "--player",
                    "ALL",
                    "--hand",
                    d["state"].as_str().unwrap(),
                    "--round-wind",
                    d["round_wind"].as_str().unwrap(),
                    "--seat-wind",
                    d["seat_wind"].as_str().unwrap(),
                    "--json",
                ]));
                let theirs: Vec<(&str, u64)> = suggest["candidates"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| (c["tile"].as_str().unwrap(), c["score"].as_u64().unwrap_or(0)))
                    .collect();
                let ours: Vec<(&str, u64)> = d["references"]["all"]["candidates"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| (c["tile"].as_str().unwrap(), c["count"].as_u64().unwrap_or(0)))
                    .collect();
                assert_eq!(ours, theirs, "{d}");
                checked_suggest = true;
            }
        }
    }
    assert!(checked_suggest, "some decision against the table");
    // the same JSON is written beside the pages
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("review.json")).unwrap()).unwrap();
    assert_eq!(file, r);

    // one game by its log id: every seat of it, or the player's
    let log = games[0]["log_id"].as_str().unwrap();
    let one = s.0.join("one");
    let every = json(&haifu(&[&args[..], &["--game", log, "--out", one.to_str().unwrap(), "--json"]].concat()));
    assert_eq!(every["games"].as_array().unwrap().len(), 4);
    let bad = error(&haifu(&[&args[..], &["--game", "2099x", "--out", one.to_str().unwrap()]].concat()));
    assert!(bad.contains("2099x") && bad.contains("log id"), "{bad}");
    let nobody = error(&haifu(&[&args[..], &["--player", "Nobody", "--out", one.to_str().unwrap()]].concat()));
    assert!(nobody.contains("Nobody") && nobody.contains("any year"), "{nobody}");
    let elsewhere =
        error(&haifu(&[&args[..], &["--game", log, "--player", "Nobody", "--out", one.to_str().unwrap()]].concat()));
    assert!(elsewhere.contains("no seat of \"Nobody\"") && elsewhere.contains("Tanaka"), "{elsewhere}");
}

#[test]
fn the_review_page_opens_in_a_browser() {
    let s = Scratch::new("review-html");
    let (_, ds, tables) = made(&s);
    let out = s.0.join("review");
    let r = json(&haifu(&[
        "review",
        "--dataset",
        ds.to_str().unwrap(),
        "--tables",
        tables.to_str().unwrap(),
        "--player",
        "Yagi",
        "--max-games",
        "1",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]));
    let g = &r["games"][0];
    let n = g["decisions"].as_array().unwrap().len();
    let page = out.join(g["page"].as_str().unwrap());
    let text = std::fs::read_to_string(&page).unwrap();
    // self-contained: nothing fetched (the replay link is a link, not a resource)
    for banned in ["src=\"http", "<link", "url(http", "@import"] {
        assert!(!text.contains(banned), "the page holds {banned:?}");
    }
    assert!(text.contains(&format!("https://tenhou.net/0/?log={}", g["log_id"].as_str().unwrap())));
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(index.contains(&format!("href=\"{}\"", g["page"].as_str().unwrap())), "the index links the game");

    let Some(browser) = chromium() else {
        eprintln!("SKIPPED the browser check: no chromium here (scripts/test installs it where it can)");
        return;
    };
    let url = format!("file://{}", page.canonicalize().unwrap().display());
    let dom = headless(&browser, &["--dump-dom", &url]);
    assert!(dom.status.success(), "{}", String::from_utf8_lossy(&dom.stderr));
    let dom = String::from_utf8_lossy(&dom.stdout);
    // one decision element per chosen discard, each with its board (four seats, a hand) and three lists
    let sections: Vec<&str> = dom.split("<section class=\"decision").skip(1).collect();
    assert_eq!(sections.len(), n);
    for s in &sections {
        let s = s.split("</section>").next().unwrap();
        assert!(s.contains("class=\"board\"") && s.contains("class=\"hand\""), "a board");
        assert_eq!(s.matches("<div class=\"seat ").count(), 4, "four seats");
        assert_eq!(s.matches("<ol class=\"cands\"").count(), 3, "three candidate lists");
        for r in ["network", "all", "own"] {
            assert!(s.contains(&format!("data-ref=\"{r}\"")), "{r}");
        }
        assert!(s.contains("class=\"hand-tiles\""), "the hand drawn as tiles");
    }
    // the script ran: one decision shown, the first, and the timeline marks it
    assert!(dom.contains("<body class=\"js\">"), "the navigation script ran");
    assert_eq!(dom.matches("class=\"decision current\"").count(), 1);
    // a mark on the timeline per decision, beside the decisions' own attribute
    assert_eq!(dom.matches("data-category=").count(), 2 * n);
    assert!(dom.contains("network: not given"));
    // a link to a decision opens it
    let k = n / 2;
    let dom = headless(&browser, &["--dump-dom", &format!("{url}#d{k}")]);
    let dom = String::from_utf8_lossy(&dom.stdout);
    assert!(dom.contains(&format!("<section class=\"decision current\" id=\"d{k}\"")), "decision {k} shown");
    keys_and_clicks_step_through_the_decisions(&browser, &text, n, &s.0.join("pressed.html"));

    let keep = common::artifacts();
    let shot = keep.join("review.png");
    let _ = std::fs::remove_file(&shot);
    // a decision well into the game, opened by its hash
    let url = format!("{url}#d{k}");
    let taken = headless(&browser, &[&format!("--screenshot={}", shot.display()), "--window-size=1400,1000", &url]);
    assert!(taken.status.success(), "{}", String::from_utf8_lossy(&taken.stderr));
    let png = std::fs::read(&shot).expect("the screenshot");
    assert_eq!(&png[1..4], b"PNG");
    assert!(png.len() > 60_000, "screenshot of {} bytes: the page looks empty", png.len());
    eprintln!("screenshot kept at {}", shot.display());
}

/// The page's own script answers key presses and clicks on the timeline: a copy of the page with a script at
/// its end that presses keys (as events, which is what a browser hands the page's listener) and clicks the
/// timeline's third mark, writing the decision shown after each into the body's attributes.
fn keys_and_clicks_step_through_the_decisions(browser: &Path, page: &str, n: usize, copy: &Path) {
    assert!(n >= 4, "a game of {n} decisions is too short to step through");
    let presser = "<script>(function(){var seen=[];\
        function shown(){return document.querySelector('.decision.current').id;}\
        ['ArrowRight','ArrowRight','j','ArrowLeft','k','End','ArrowRight','Home','ArrowLeft'].forEach(function(k){\
          document.dispatchEvent(new KeyboardEvent('keydown',{key:k,bubbles:true}));seen.push(shown());});\
        document.body.setAttribute('data-keys',seen.join(' '));\
        document.querySelectorAll('.timeline a')[2].dispatchEvent(new MouseEvent('click',{bubbles:true,cancelable:true,view:window}));\
        setTimeout(function(){document.body.setAttribute('data-click',shown());},100);})();</script>";
    let at = page.rfind("</body>").expect("the page's end");
    std::fs::write(copy, format!("{}{presser}{}", &page[..at], &page[at..])).unwrap();
    let url = format!("file://{}", copy.canonicalize().unwrap().display());
    let dom = headless(browser, &["--virtual-time-budget=3000", "--dump-dom", &url]);
    assert!(dom.status.success(), "{}", String::from_utf8_lossy(&dom.stderr));
    let dom = String::from_utf8_lossy(&dom.stdout);
    let last = n - 1;
    let keys = format!("data-keys=\"d1 d2 d3 d2 d1 d{last} d{last} d0 d0\"");
    assert!(dom.contains(&keys), "keys: expected {keys} in {}", &dom[..dom.find("<body").map_or(0, |b| b + 200)]);
    assert!(dom.contains("data-click=\"d2\""), "a click on the third mark shows the third decision");
}

/// `review --model RUN`: the network's column holds the legal kinds by probability (summing to one), the
/// choice's rank among them, and `haifu` handed the command to the network binary.
#[test]
fn a_network_fills_the_first_column() {
    common::needs_network_binary();
    let s = Scratch::new("review-network");
    let (_, ds, tables) = made(&s);
    let (run, out) = (s.0.join("nn"), s.0.join("review"));
    let (ds, tables, run, out) =
        (ds.to_str().unwrap(), tables.to_str().unwrap(), run.to_str().unwrap(), out.to_str().unwrap());
    let train = ["train", "--dataset", ds, "--out", run, "--epochs", "1", "--layers", "2", "--batch", "256"];
    json(&haifu(&[&train[..], &["--device", "cpu", "--json"]].concat()));
    let args = ["review", "--dataset", ds, "--tables", tables, "--player", "Ito", "--max-games", "2", "--out", out];
    let r = json(&haifu(&[&args[..], &["--model", run, "--json"]].concat()));
    assert_eq!(r["network"], run);
    let mut seen = 0;
    for d in r["games"].as_array().unwrap().iter().flat_map(|g| g["decisions"].as_array().unwrap()) {
        let net = &d["references"]["network"];
        assert_eq!(net["given"], true);
        let cands = net["candidates"].as_array().unwrap();
        let total: f64 = cands.iter().map(|c| c["share"].as_f64().unwrap()).sum();
        assert!((total - 1.0).abs() < 1e-3, "{total}: {net}");
        let shares: Vec<f64> = cands.iter().map(|c| c["share"].as_f64().unwrap()).collect();
        assert!(shares.windows(2).all(|w| w[0] >= w[1]), "by probability: {shares:?}");
        // the choice is always legal, so always ranked; the mass above it is what the ranks above hold
        let rank = net["rank"].as_u64().expect("the choice is a legal kind") as usize;
        let above: f64 = shares[..rank - 1].iter().sum();
        assert!((d["network_mass_above"].as_f64().unwrap() - above).abs() < 1e-3);
        seen += 1;
    }
    assert!(seen > 20, "{seen} decisions");
    let page = std::fs::read_to_string(std::path::Path::new(out).join("index.html")).unwrap();
    assert!(page.contains(&format!("network {run}")) && !page.contains("network: not given"));

    // a choices run beside the calls, riichi and wins: its probability of each choice; a discard run is refused
    let choices_run = s.0.join("nn-choices");
    let choices_run = choices_run.to_str().unwrap();
    let train = ["train", "--dataset", ds, "--out", choices_run, "--decisions", "choices", "--epochs", "1"];
    json(&haifu(&[&train[..], &["--layers", "2", "--batch", "256", "--device", "cpu", "--json"]].concat()));
    let r = json(&haifu(&[&args[..], &["--choices-model", choices_run, "--json"]].concat()));
    assert_eq!(r["choice_network"], choices_run);
    let choices: Vec<&serde_json::Value> =
        r["games"].as_array().unwrap().iter().flat_map(|g| g["choices"].as_array().unwrap()).collect();
    assert!(!choices.is_empty());
    for c in &choices {
        let p = c["network"].as_f64().unwrap_or_else(|| panic!("{c}"));
        assert!((0.0..=1.0).contains(&p) && c["agrees_network"].is_boolean(), "{c}");
        // the network's first class has at least the choice's probability
        if c["agrees_network"] == true {
            assert!(p > 0.0, "{c}");
        }
    }
    let wrong = error(&haifu(&[&args[..], &["--choices-model", run]].concat()));
    assert!(wrong.contains("Discards") && wrong.contains("Choices"), "{wrong}");
}

/// Corpus players: two four-player and one three-player Tenhou game of the real corpus (read in place),
/// every seat of each by its log id, one decision per chosen discard as the file's own tags count them, and
/// the all-players table's candidates ranked for each. Skipped, saying so, where the corpus is absent.
#[test]
fn corpus_games_are_reviewed_seat_by_seat() {
    let Some(corpus) = common::corpus() else { return };
    let games = haifu_testkit::corpus::full_games(&corpus, "mjlog");
    let pick = |players: u8, n: usize| games.iter().filter(move |e| e.players == Some(players)).take(n);
    let chosen: Vec<_> = pick(4, 2).chain(pick(3, 1)).collect();
    assert_eq!(chosen.len(), 3, "the corpus has four- and three-player mjlog games");
    let s = Scratch::new("review-corpus");
    let (ds, tables, out) = (s.0.join("ds"), s.0.join("tables"), s.0.join("review"));
    let mut ingest = vec!["ingest".to_string(), "--out".into(), ds.display().to_string()];
    ingest.extend(chosen.iter().map(|e| corpus.join(&e.path).display().to_string()));
    let ingest: Vec<&str> = ingest.iter().map(String::as_str).collect();
    assert!(haifu(&ingest).status.success());
    assert!(haifu(&["mine", "--dataset", ds.to_str().unwrap(), "--out", tables.to_str().unwrap()]).status.success());
    for e in chosen {
        let name = e.path.rsplit('/').next().unwrap();
        let log = name.split('.').next().unwrap();
        let args = ["review", "--dataset", ds.to_str().unwrap(), "--tables", tables.to_str().unwrap(), "--game", log];
        let r = json(&haifu(&[&args[..], &["--out", out.to_str().unwrap(), "--json"]].concat()));
        let seats = r["games"].as_array().unwrap();
        assert_eq!(seats.len(), usize::from(e.players.unwrap()), "{log}: every seat");
        let xml = String::from_utf8(e.text(&corpus)).unwrap();
        for g in seats {
            let seat = g["seat"].as_u64().unwrap() as usize;
            let decisions = g["decisions"].as_array().unwrap();
            assert_eq!(decisions.len(), chosen_discards(&xml, seat), "{log} seat {seat}");
            // every seat plays in these tables: both tables answer nearly every decision
            let answered =
                decisions.iter().filter(|d| !d["references"]["all"]["candidates"].as_array().unwrap().is_empty());
            assert!(answered.count() * 10 >= decisions.len() * 9, "{log} seat {seat}");
            assert!(decisions.iter().all(|d| d["references"]["own"]["given"] == true));
        }
    }
}

/// A game without a Tenhou log id (an mjai log) is named and chosen by its game id in hex, and has no replay
/// link.
#[test]
fn an_mjai_game_goes_by_its_game_id() {
    let s = Scratch::new("review-mjai");
    let (logs, ds, tables) = (s.0.join("logs"), s.0.join("ds"), s.0.join("tables"));
    let sim = ["sim", "--games", "1", "--format", "mjai", "--seed", "9", "--out", logs.to_str().unwrap()];
    assert!(haifu(&sim).status.success());
    assert!(haifu(&["ingest", logs.to_str().unwrap(), "--out", ds.to_str().unwrap()]).status.success());
    assert!(haifu(&["mine", "--dataset", ds.to_str().unwrap(), "--out", tables.to_str().unwrap()]).status.success());
    let args = ["review", "--dataset", ds.to_str().unwrap(), "--tables", tables.to_str().unwrap()];
    let out = s.0.join("review");
    let r = json(&haifu(&[&args[..], &["--player", "Greedy1", "--out", out.to_str().unwrap(), "--json"]].concat()));
    let g = &r["games"][0];
    assert!(g["log_id"].is_null() && g["replay"].is_null(), "{g}");
    let hex = format!("{:016x}", g["game_id"].as_i64().unwrap());
    assert_eq!(g["page"], format!("games/{hex}-seat{}.html", g["seat"]));
    let every = json(&haifu(&[&args[..], &["--game", &hex, "--out", out.to_str().unwrap(), "--json"]].concat()));
    assert_eq!(every["games"].as_array().unwrap().len(), 4);
}

/// The seat's calls, riichi declarations and wins in an mjlog, counted from its tags: `N` (every call and kan),
/// `REACH step="1"`, `AGARI` (who).
fn taken_in_log(xml: &str, seat: usize) -> usize {
    let who = format!("who=\"{seat}\"");
    xml.split('<')
        .skip(1)
        .filter(|tag| {
            let name: String = tag.chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
            let mine = tag.contains(&who);
            mine && (name == "N" || name == "AGARI" || (name == "REACH" && tag.contains("step=\"1\"")))
        })
        .count()
}

#[test]
fn calls_riichi_kans_and_wins_are_reviewed_beside_everyones_rates() {
    let s = Scratch::new("review-choices");
    let (logs, ds, db) = (s.0.join("logs"), s.0.join("ds"), s.0.join("db"));
    let players = ["Tanaka=tanyao", "Yagi=yakuhai", "Ito=efficiency", "Oda=folder"];
    let mut sim = vec!["sim", "--games", "8", "--seed", "9", "--out", logs.to_str().unwrap(), "--players"];
    sim.extend(players);
    assert!(haifu(&sim).status.success());
    let ingest = haifu(&["ingest", logs.to_str().unwrap(), "--out", ds.to_str().unwrap(), "--choices"]);
    assert!(ingest.status.success());
    let build = haifu(&[
        "style",
        "build",
        "--dataset",
        ds.to_str().unwrap(),
        "--out",
        db.to_str().unwrap(),
        "--min-games",
        "1",
    ]);
    assert!(build.status.success(), "{}", String::from_utf8_lossy(&build.stderr));
    for player in ["Yagi", "Oda"] {
        let out = s.0.join(player);
        let r = json(&haifu(&[
            "review",
            "--dataset",
            ds.to_str().unwrap(),
            "--tables",
            db.to_str().unwrap(),
            "--player",
            player,
            "--out",
            out.to_str().unwrap(),
            "--json",
        ]));
        assert_eq!(r["choice_counts"], true);
        for g in r["games"].as_array().unwrap() {
            let seat = g["seat"].as_u64().unwrap() as usize;
            let xml = std::fs::read_to_string(logs.join(format!("{}.xml", g["log_id"].as_str().unwrap()))).unwrap();
            let choices = g["choices"].as_array().unwrap();
            // every call, kan, riichi and win of the seat is a choice it took
            let taken = choices.iter().filter(|c| !matches!(c["chosen"].as_str().unwrap(), "pass" | "discard")).count();
            assert_eq!(taken, taken_in_log(&xml, seat), "{player} {}", g["log_id"]);
            for c in choices {
                let (p, own) = (c["everyone"].as_f64().unwrap(), c["own"].as_f64().unwrap());
                assert!((0.0..=1.0).contains(&p) && (0.0..=1.0).contains(&own), "{c}");
                let offered: Vec<&str> = c["options"].as_array().unwrap().iter().map(|o| o.as_str().unwrap()).collect();
                // the folder never calls: its own counts agree with every pass of a call it was offered
                let only_calls = offered.iter().all(|o| o.starts_with("chi") || o.starts_with("pon"));
                if player == "Oda" && only_calls {
                    assert_eq!((c["chosen"].as_str(), c["agrees_own"].as_bool()), (Some("pass"), Some(true)), "{c}");
                }
            }
            let page = std::fs::read_to_string(out.join(g["page"].as_str().unwrap())).unwrap();
            assert!(page.contains("id=\"choices\"") && page.contains("less than 5%"));
            assert_eq!(page.matches("<tr id=\"c").count(), choices.len());
        }
        let index = std::fs::read_to_string(out.join("index.html")).unwrap();
        assert!(index.contains("rare (&lt;5%)") && index.contains("less than 5%"));
    }
}
