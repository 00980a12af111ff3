//! `haifu_play::server` against scripted TCP clients: full games that replay through the engine's oracle, the
//! masking of each client's copy, and each robustness rule (garbage, out of turn, illegal actions,
//! disconnects, timeouts).

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::thread::JoinHandle;
use std::time::Duration;

use haifu_play::server::{serve, ServeReport, ServerOptions};
use haifu_record::mjai::message::{Message, Pai};
use haifu_rules::shanten::shanten;
use haifu_rules::MjaiTile;

/// What a scripted client does wrong (or differently), once.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Script {
    /// Tsumogiri on its own draws, `none` to everything else: never calls nor wins, so games complete.
    Plain,
    /// At its n-th own draw (from 1) answers this line instead of its discard.
    LineAtDraw(usize, &'static str),
    /// At its n-th own draw discards a tile it does not hold.
    IllegalDahai(usize),
    /// At its n-th own draw declares a tsumo win it does not have.
    FalseTsumo(usize),
    /// Answers a discard to the n-th draw of another seat (a line that asks nothing of it).
    OutOfTurn(usize),
    /// Closes the connection after receiving n lines.
    Disconnect(usize),
    /// Stops answering after receiving n lines (and reads on until the server closes).
    Silent(usize),
    /// Discards towards tenpai (shanten) and declares riichi when it can.
    Riichi,
    /// Pons every discard it can, chis from its left when it cannot, then discards a tile kuikae allows.
    Caller,
    /// Says `join` twice, then plays as `Plain`.
    JoinTwice,
    /// Plays as `Plain`, taking this many milliseconds over every answer.
    Slow(u64),
}

/// What a client saw: every line received after `hello`, parsed.
struct Seen {
    lines: Vec<Message>,
}

impl Seen {
    fn errors(&self) -> Vec<String> {
        self.lines
            .iter()
            .filter_map(|m| match m {
                Message::Error(e) => Some(e.message.clone().unwrap_or_default()),
                _ => None,
            })
            .collect()
    }
    /// The game lines (errors left out).
    fn game(&self) -> Vec<&Message> {
        self.lines.iter().filter(|m| !matches!(m, Message::Error(_))).collect()
    }
}

fn tile(s: &str) -> MjaiTile {
    s.parse().unwrap()
}

fn line_of(m: &serde_json::Value) -> String {
    m.to_string()
}

/// Runs one scripted client to the end of the match.
#[allow(clippy::too_many_lines)] // a test: one scenario checked step by step
fn client(addr: SocketAddr, name: &str, script: Script) -> Seen {
    let stream = TcpStream::connect(addr).unwrap();
    stream.set_nodelay(true).unwrap();
    // a server that hangs fails the test instead of hanging it
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut w = stream.try_clone().unwrap();
    let mut r = BufReader::new(stream);
    let mut buf = String::new();
    r.read_line(&mut buf).unwrap();
    assert!(buf.contains(r#""type":"hello""#), "{buf}");
    writeln!(w, r#"{{"type":"join","name":"{name}","room":"default"}}"#).unwrap();
    if script == Script::JoinTwice {
        writeln!(w, r#"{{"type":"join","name":"{name}","room":"default"}}"#).unwrap();
    }
    let mut seen = Seen { lines: Vec::new() };
    let (mut me, mut own_draws, mut other_draws) = (0u8, 0usize, 0usize);
    let mut hand: Vec<MjaiTile> = Vec::new();
    // riichi: my score at the round's start, draws left in the wall, whether I declared
    let (mut score, mut draws_left, mut in_riichi) = (0i32, 0i32, false);
    let mut silent = false;
    let mut kans = 0;
    loop {
        buf.clear();
        match r.read_line(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let msg = Message::from_line(buf.as_bytes()).unwrap().unwrap_or_else(|| panic!("unknown line {buf}"));
        seen.lines.push(msg.clone());
        let n = seen.lines.len();
        if script == Script::Disconnect(n) {
            return seen;
        }
        if script == Script::Silent(n) {
            silent = true;
        }
        if silent {
            continue;
        }
        let none = r#"{"type":"none"}"#.to_string();
        let answer = match &msg {
            Message::StartGame(s) => {
                me = s.id.unwrap();
                none
            }
            Message::StartKyoku(k) => {
                hand = k.tehais[usize::from(me)].iter().map(|p| p.tile().unwrap()).collect();
                score = k.scores.as_ref().unwrap()[usize::from(me)];
                draws_left = if k.tehais.len() == 4 { 70 } else { 55 };
                in_riichi = false;
                kans = 0;
                none
            }
            Message::Tsumo(t) if t.actor != me => {
                draws_left -= 1;
                other_draws += 1;
                if script == Script::OutOfTurn(other_draws) {
                    line_of(&serde_json::json!({"type":"dahai","actor":me,"pai":hand[0],"tsumogiri":false}))
                } else {
                    none
                }
            }
            Message::Tsumo(t) => {
                draws_left -= 1;
                own_draws += 1;
                let pai = t.pai.tile().expect("my own draw is shown");
                hand.push(pai);
                let tsumogiri = serde_json::json!({"type":"dahai","actor":me,"pai":pai,"tsumogiri":true});
                match script {
                    Script::LineAtDraw(k, line) if k == own_draws => line.to_string(),
                    Script::IllegalDahai(k) if k == own_draws => {
                        let absent = ["1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "P", "F", "C"]
                            .into_iter()
                            .map(tile)
                            .find(|t| !hand.contains(t))
                            .unwrap();
                        line_of(&serde_json::json!({"type":"dahai","actor":me,"pai":absent,"tsumogiri":false}))
                    }
                    Script::FalseTsumo(k) if k == own_draws => {
                        line_of(&serde_json::json!({"type":"hora","actor":me,"target":me,"pai":pai}))
                    }
                    Script::Riichi if !in_riichi => {
                        let (discard, sh) = best_discard(&hand);
                        if sh == 0 && score >= 1000 && draws_left >= 4 {
                            "RIICHI".to_string()
                        } else {
                            let tg = discard == pai;
                            line_of(&serde_json::json!({"type":"dahai","actor":me,"pai":discard,"tsumogiri":tg}))
                        }
                    }
                    _ => line_of(&tsumogiri),
                }
            }
            Message::Reach(x) if x.actor == me => {
                in_riichi = true;
                let (discard, _) = best_discard(&hand);
                let tg = Some(&discard) == hand.last();
                line_of(&serde_json::json!({"type":"dahai","actor":me,"pai":discard,"tsumogiri":tg}))
            }
            Message::Dahai(d) if d.actor != me && script == Script::Caller && draws_left > 0 => {
                let copies: Vec<MjaiTile> = hand.iter().filter(|t| t.kind == d.pai.kind).copied().collect();
                let call = if copies.len() == 3 && kans < 4 {
                    Some(("daiminkan", copies, Vec::new()))
                } else {
                    call_for(&hand, d.pai, (d.actor + 1) % 4 == me)
                };
                match call {
                    Some((kind, consumed, _)) => line_of(
                        &serde_json::json!({"type":kind,"actor":me,"target":d.actor,"pai":d.pai,"consumed":consumed}),
                    ),
                    None => none,
                }
            }
            Message::Daiminkan(_) | Message::Ankan(_) | Message::Kakan(_) => {
                kans += 1;
                if let Message::Daiminkan(c) = &msg {
                    if c.actor == me {
                        for t in &c.consumed {
                            let i = hand.iter().position(|h| h == t).expect("consumed tiles are mine");
                            hand.remove(i);
                        }
                    }
                }
                none
            }
            Message::Pon(c) | Message::Chi(c) if c.actor == me => {
                let (_, _, forbidden) = call_for(&hand, c.pai, matches!(msg, Message::Chi(_))).expect("a call I made");
                for t in &c.consumed {
                    let i = hand.iter().position(|h| h == t).expect("consumed tiles are mine");
                    hand.remove(i);
                }
                let discard = *hand.iter().find(|t| !forbidden.contains(&t.kind.index())).expect("kuikae leaves one");
                line_of(&serde_json::json!({"type":"dahai","actor":me,"pai":discard,"tsumogiri":false}))
            }
            Message::Dahai(d) if d.actor == me => {
                let i = hand.iter().rposition(|&t| t == d.pai).expect("my discard is in my hand");
                hand.remove(i);
                none
            }
            _ => none,
        };
        if let Script::Slow(ms) = script {
            std::thread::sleep(Duration::from_millis(ms));
        }
        let answer = if answer == "RIICHI" { format!(r#"{{"type":"reach","actor":{me}}}"#) } else { answer };
        if writeln!(w, "{answer}").is_err() {
            break;
        }
    }
    seen
}

/// The call a Caller makes on `pai` (a pon, else a chi when `left`, the discarder being on its left): the
/// message type, the tiles from its hand, and the kinds kuikae then forbids. None when the call would leave
/// nothing to discard (the engine does not offer it).
fn call_for(hand: &[MjaiTile], pai: MjaiTile, left: bool) -> Option<(&'static str, Vec<MjaiTile>, Vec<u8>)> {
    let k = pai.kind.index();
    let take = |kinds: &[u8]| -> Option<Vec<MjaiTile>> {
        let mut rest = hand.to_vec();
        let mut out = Vec::new();
        for &want in kinds {
            let i = rest.iter().position(|t| t.kind.index() == want)?;
            out.push(rest.remove(i));
        }
        Some(out)
    };
    let leaves = |consumed: &[MjaiTile], forbidden: &[u8]| {
        let mut rest = hand.to_vec();
        for t in consumed {
            let i = rest.iter().position(|h| h == t).unwrap();
            rest.remove(i);
        }
        rest.iter().any(|t| !forbidden.contains(&t.kind.index()))
    };
    if let Some(c) = take(&[k, k]) {
        if leaves(&c, &[k]) {
            return Some(("pon", c, vec![k]));
        }
    }
    if !left || k >= 27 {
        return None;
    }
    let d = k % 9 + 1;
    // (the two kinds from the hand, the kinds kuikae forbids)
    let mut runs: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    if d >= 3 {
        runs.push((vec![k - 2, k - 1], if d >= 4 { vec![k, k - 3] } else { vec![k] }));
    }
    if (2..=8).contains(&d) {
        runs.push((vec![k - 1, k + 1], vec![k]));
    }
    if d <= 7 {
        runs.push((vec![k + 1, k + 2], if d <= 6 { vec![k, k + 3] } else { vec![k] }));
    }
    runs.into_iter().find_map(|(kinds, forbidden)| {
        let c = take(&kinds)?;
        leaves(&c, &forbidden).then_some(("chi", c, forbidden))
    })
}

/// The discard that leaves the lowest shanten (the last such tile of the hand).
fn best_discard(hand: &[MjaiTile]) -> (MjaiTile, i8) {
    let mut counts = [0u8; 34];
    for t in hand {
        counts[usize::from(t.kind.index())] += 1;
    }
    let mut best = (hand[hand.len() - 1], i8::MAX);
    for &t in hand.iter().rev() {
        counts[usize::from(t.kind.index())] -= 1;
        let sh = shanten(&counts);
        counts[usize::from(t.kind.index())] += 1;
        if sh < best.1 {
            best = (t, sh);
        }
    }
    best
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("haifu-server-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Plays a match of these scripted clients (joining in order); the report and what each client saw.
fn run_match(
    name: &str,
    players: u8,
    hanchan: bool,
    games: usize,
    scripts: &[Script],
    timeout_ms: u64,
) -> (ServeReport, Vec<Seen>) {
    let opts = ServerOptions {
        games,
        seed: 7,
        hanchan,
        out: Some(scratch(name)),
        timeout: Duration::from_millis(timeout_ms),
        join_timeout: Some(Duration::from_secs(30)),
        ..ServerOptions::new(players)
    };
    run_match_with(opts, scripts)
}

/// [`run_match`] with every option given.
fn run_match_with(opts: ServerOptions, scripts: &[Script]) -> (ServeReport, Vec<Seen>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let server: JoinHandle<ServeReport> = std::thread::spawn(move || serve(listener, &opts, |_| {}).unwrap());
    let mut seen = Vec::new();
    // join one at a time, so that the client index is the order in `scripts`
    let mut clients = Vec::new();
    for (i, &s) in scripts.iter().enumerate() {
        let name = format!("P{i}");
        clients.push(std::thread::spawn(move || client(addr, &name, s)));
        std::thread::sleep(Duration::from_millis(50));
    }
    for c in clients {
        seen.push(c.join().unwrap());
    }
    (server.join().unwrap(), seen)
}

/// The written game replays through the engine's oracle with no mismatch, and its mjai log reads back to
/// the same rounds.
fn check_files(report: &ServeReport) {
    for g in &report.games {
        let xml = std::fs::read(g.mjlog.as_ref().unwrap()).unwrap();
        let games = haifu_record::read_games("game.mjlog", &xml).unwrap();
        let rep = haifu_sim::verify::verify_game("game", &games[0]);
        assert!(rep.mismatches.is_empty() && rep.skipped.is_empty(), "{:#?}", rep.mismatches);
        assert_eq!(rep.owari_checked, 1, "the game reached its end");
        assert_eq!(rep.rounds, g.rounds);
        let mjson = std::fs::read(g.mjson.as_ref().unwrap()).unwrap();
        let back = haifu_record::mjai::parse(&mjson).unwrap();
        assert_eq!(back.len(), 1);
        let rounds = back[0].events.iter().filter(|e| matches!(e, haifu_record::Event::Init(_))).count();
        assert_eq!(rounds, g.rounds);
    }
}

/// Each client's copy is the game's mjai log masked for its seat: its own hand and draws only.
fn check_masking(report: &ServeReport, seen: &[Seen], players: usize) {
    for (i, s) in seen.iter().enumerate() {
        let mut got = s.game().into_iter();
        for g in &report.games {
            let seat = (i + g.game) % players;
            let text = std::fs::read_to_string(g.mjson.as_ref().unwrap()).unwrap();
            for line in text.lines() {
                let full = Message::from_line(line.as_bytes()).unwrap().unwrap();
                let m = got.next().unwrap_or_else(|| panic!("client {i} stopped before {line}"));
                match (m, &full) {
                    (Message::StartGame(a), Message::StartGame(b)) => {
                        assert_eq!(a.id, Some(seat as u8));
                        assert_eq!(a.names, b.names);
                        let names: Vec<String> =
                            (0..players).map(|s| format!("P{}", (s + players - g.game % players) % players)).collect();
                        assert_eq!(a.names.as_ref(), Some(&names), "names by seat");
                    }
                    (Message::StartKyoku(a), Message::StartKyoku(b)) => {
                        for (s, (ha, hb)) in a.tehais.iter().zip(&b.tehais).enumerate() {
                            if s == seat {
                                assert_eq!(ha, hb, "own hand");
                            } else {
                                assert!(ha.iter().all(|p| *p == Pai::Hidden) && ha.len() == hb.len(), "{ha:?}");
                            }
                        }
                        assert_eq!((a.kyoku, a.honba, &a.scores), (b.kyoku, b.honba, &b.scores));
                    }
                    (Message::Tsumo(a), Message::Tsumo(b)) => {
                        assert_eq!(a.actor, b.actor);
                        if usize::from(a.actor) == seat {
                            assert_eq!(a.pai, b.pai);
                        } else {
                            assert_eq!(a.pai, Pai::Hidden, "another seat's draw is hidden");
                        }
                    }
                    (a, b) => assert_eq!(a, b, "client {i}, game {}", g.game),
                }
            }
        }
        assert!(got.next().is_none(), "client {i} got lines after the last game");
    }
}

fn errors_of(report: &ServeReport) -> Vec<usize> {
    report.clients.iter().map(|c| c.errors).collect()
}

/// (a) + (b): a full 4-player hanchan of plain clients: no error, the files verify, every copy masked.
#[test]
fn four_player_hanchan() {
    let (report, seen) = run_match("hanchan4", 4, true, 1, &[Script::Plain; 4], 10_000);
    assert_eq!(report.games.len(), 1);
    let g = &report.games[0];
    assert_eq!((g.go_type, g.seed), (169, 7));
    assert!(g.rounds >= 8, "a hanchan: {} rounds", g.rounds);
    assert_eq!(g.scores.iter().sum::<i32>(), 100_000);
    assert_eq!(errors_of(&report), [0; 4]);
    assert!(report.clients.iter().all(|c| c.dropped.is_none()));
    check_files(&report);
    check_masking(&report, &seen, 4);
}

/// (a) + (b): a full 3-player hanchan (go type 185).
#[test]
fn three_player_hanchan() {
    let (report, seen) = run_match("hanchan3", 3, true, 1, &[Script::Plain; 3], 10_000);
    let g = &report.games[0];
    assert_eq!(g.go_type, 185);
    assert_eq!(g.scores.len(), 3);
    assert_eq!(errors_of(&report), [0; 3]);
    check_files(&report);
    check_masking(&report, &seen, 3);
}

/// Seats rotate between games (east-only games: the length is not the point): client i sits at (i + g) % 4.
#[test]
fn seats_rotate_between_games() {
    let (report, seen) = run_match("rotate", 4, false, 2, &[Script::Plain; 4], 10_000);
    assert_eq!(report.games.len(), 2);
    for g in &report.games {
        assert_eq!(g.go_type, 0xA1);
        for s in &g.seats {
            assert_eq!(usize::from(s.seat), (s.client + g.game) % 4);
            assert_eq!(s.name, format!("P{}", s.client));
        }
    }
    check_files(&report);
    check_masking(&report, &seen, 4);
}

/// Riichi over the protocol (east-only): `reach`, sent to everyone once, then the riichi discard; the log
/// the clients saw is the record's, so the engine's own reach line was not sent twice.
#[test]
fn riichi_is_declared_once() {
    let scripts = [Script::Riichi, Script::Plain, Script::Riichi, Script::Plain];
    let (report, seen) = run_match("riichi", 4, false, 1, &scripts, 10_000);
    assert_eq!(errors_of(&report), [0; 4], "{:?}", report.games[0].seats);
    let accepted = seen[0].lines.iter().filter(|m| matches!(m, Message::ReachAccepted(_))).count();
    assert!(accepted > 0, "somebody declared riichi");
    check_files(&report);
    check_masking(&report, &seen, 4);
}

/// Pon, chi and open kan over the protocol (east-only): the consumed tiles name the hand's tiles, the caller then
/// discards; no error, and the game replays.
#[test]
fn calls_are_played() {
    let scripts = [Script::Caller, Script::Caller, Script::Plain, Script::Caller];
    let (report, seen) = run_match("calls", 4, false, 1, &scripts, 10_000);
    assert_eq!(errors_of(&report), [0; 4], "{:?}", report.games[0].seats);
    let count = |kind: &str| seen[2].lines.iter().filter(|m| m.kind() == kind).count();
    assert!(count("pon") > 0 && count("chi") > 0, "pons {} chis {}", count("pon"), count("chi"));
    // an open kan: its dora comes after the discard that follows the replacement draw (answers to that
    // discard may come with the `dora` line)
    assert!(count("daiminkan") > 0 && count("dora") > 0, "kans {}", count("daiminkan"));
    check_files(&report);
    check_masking(&report, &seen, 4);
}

/// (c) Lines that are not JSON, not an mjai message, or of an unknown type: an error naming the line, and the
/// server discards the drawn tile for the client. East-only games.
#[test]
fn garbage_lines_get_errors() {
    for (k, line, says) in [
        (0, "this is not json", "not a JSON line"),
        (1, "[1, 2]", "not an mjai event"),
        (2, r#"{"type":"bogus","actor":1}"#, "not an mjai message type"),
        (3, r#"{"type":"dahai","actor":0}"#, "missing field `pai`"),
    ] {
        let scripts = [Script::Plain, Script::LineAtDraw(2, line), Script::Plain, Script::Plain];
        let (report, seen) = run_match(&format!("garbage{k}"), 4, false, 1, &scripts, 10_000);
        let errors = seen[1].errors();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].contains(line) && errors[0].contains(says), "{}", errors[0]);
        assert_eq!(errors_of(&report), [0, 1, 0, 0]);
        assert_eq!(report.games[0].seats[1].errors, errors, "seat 1 in game 0");
        assert!(report.clients.iter().all(|c| c.dropped.is_none()));
        check_files(&report);
        check_masking(&report, &seen, 4);
    }
}

/// (c) A discard out of turn is refused and ignored.
#[test]
fn out_of_turn_is_refused() {
    let scripts = [Script::Plain, Script::Plain, Script::OutOfTurn(3), Script::Plain];
    let (report, seen) = run_match("outofturn", 4, false, 1, &scripts, 10_000);
    let errors = seen[2].errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("out of turn") && errors[0].contains(r#""type":"dahai""#), "{}", errors[0]);
    assert_eq!(errors_of(&report), [0, 0, 1, 0]);
    check_files(&report);
    check_masking(&report, &seen, 4);
}

/// (c) A discard of a tile not held, and a tsumo that is no win: errors, and the drawn tile is discarded.
#[test]
fn illegal_actions_are_played_for() {
    let scripts = [Script::IllegalDahai(2), Script::FalseTsumo(1), Script::Plain, Script::Plain];
    let (report, seen) = run_match("illegal", 4, false, 1, &scripts, 10_000);
    let e0 = seen[0].errors();
    assert_eq!(e0.len(), 1, "{e0:?}");
    assert!(e0[0].contains("not in your hand") && e0[0].contains("the server plays discard"), "{}", e0[0]);
    let e1 = seen[1].errors();
    assert_eq!(e1.len(), 1, "{e1:?}");
    assert!(e1[0].contains(r#""type":"hora""#) && e1[0].contains("tsumo is not legal now"), "{}", e1[0]);
    assert_eq!(errors_of(&report), [1, 1, 0, 0]);
    // the stand-in discards were the drawn tiles
    let log = std::fs::read_to_string(report.games[0].mjson.as_ref().unwrap()).unwrap();
    let discards: Vec<Message> = log
        .lines()
        .map(|l| Message::from_line(l.as_bytes()).unwrap().unwrap())
        .filter(|m| matches!(m, Message::Dahai(_)))
        .collect();
    assert!(discards.iter().all(|m| matches!(m, Message::Dahai(d) if d.tsumogiri == Some(true))));
    check_files(&report);
    check_masking(&report, &seen, 4);
}

/// (c) A client that disconnects mid-game is dropped and played tsumogiri; the game completes.
#[test]
fn a_disconnect_is_played_for() {
    let scripts = [Script::Plain, Script::Plain, Script::Plain, Script::Disconnect(40)];
    let (report, seen) = run_match("disconnect", 4, false, 1, &scripts, 10_000);
    assert_eq!(seen[3].lines.len(), 40);
    let why = report.clients[3].dropped.as_deref().expect("client 3 dropped");
    assert!(why.contains("disconnected") || why.contains("error"), "{why}");
    assert!(report.clients[..3].iter().all(|c| c.dropped.is_none() && c.errors == 0));
    assert!(report.games[0].seats[3].dropped);
    check_files(&report);
}

/// (c) A client that stops answering is dropped after the timeout and played tsumogiri.
#[test]
fn a_silent_client_times_out() {
    let scripts = [Script::Plain, Script::Silent(30), Script::Plain, Script::Plain];
    let (report, _) = run_match("timeout", 4, false, 1, &scripts, 1_000);
    let why = report.clients[1].dropped.as_deref().expect("client 1 dropped");
    assert!(why.contains("no answer within 1000 ms"), "{why}");
    assert!(report.clients.iter().enumerate().all(|(i, c)| i == 1 || c.dropped.is_none()));
    check_files(&report);
}

/// A client that answers every line just under the timeout spends the game's budget and is dropped, its seat
/// played for; the others play the game to its end (issue 48: such a client held the table for hours).
#[test]
fn a_slow_client_spends_its_game_budget() {
    let opts = ServerOptions {
        hanchan: false,
        seed: 7,
        out: Some(scratch("budget")),
        // every answer in time (20 ms of 1 s), but a game is hundreds of lines
        timeout: Duration::from_secs(1),
        game_budget: Some(Duration::from_millis(1_500)),
        join_timeout: Some(Duration::from_secs(30)),
        ..ServerOptions::new(4)
    };
    let scripts = [Script::Plain, Script::Plain, Script::Slow(20), Script::Plain];
    let (report, seen) = run_match_with(opts, &scripts);
    let why = report.clients[2].dropped.as_deref().expect("the slow client is dropped");
    assert!(why.contains("budget"), "{why}");
    assert!(report.clients.iter().enumerate().all(|(i, c)| i == 2 || c.dropped.is_none()));
    // it answered in time until its budget was spent: 1.5 s at 20 ms a line is at most 75 answers
    assert!(seen[2].lines.len() <= 80, "{} lines reached the slow client", seen[2].lines.len());
    assert!(seen[0].lines.len() > 200, "the game went on without it");
    check_files(&report);
}

/// A client that says `join` twice gets one error and is in step again (issue 30: it stayed one line behind
/// for the whole game, its every discard played for it).
#[test]
fn a_second_join_is_one_error() {
    let scripts = [Script::Plain, Script::JoinTwice, Script::Plain, Script::Plain];
    let (report, seen) = run_match("jointwice", 4, false, 1, &scripts, 10_000);
    let errors = seen[1].errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("a second `join`"), "{}", errors[0]);
    assert_eq!(errors_of(&report), [0, 1, 0, 0]);
    assert!(report.clients.iter().all(|c| c.dropped.is_none()));
    check_files(&report);
    check_masking(&report, &seen, 4);
}

/// A client that connects to a full table gets an `error` saying so and is closed at once, and the server
/// reports it (issue 30: it got nothing until the match ended).
#[test]
fn a_fifth_client_is_turned_away() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    // the last player never answers: the server waits 3 s for it, so the match is still on when the fifth comes
    let opts = ServerOptions {
        hanchan: false,
        out: Some(scratch("fifth")),
        timeout: Duration::from_secs(3),
        join_timeout: Some(Duration::from_secs(30)),
        ..ServerOptions::new(4)
    };
    let server = std::thread::spawn(move || serve(listener, &opts, |_| {}).unwrap());
    let scripts = [Script::Plain, Script::Plain, Script::Plain, Script::Silent(1)];
    let players: Vec<JoinHandle<Seen>> = (0..4)
        .map(|i| {
            let c = std::thread::spawn(move || client(addr, &format!("P{i}"), scripts[i]));
            std::thread::sleep(Duration::from_millis(50));
            c
        })
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let fifth = TcpStream::connect(addr).unwrap();
    fifth.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
    let mut r = BufReader::new(fifth);
    let mut line = String::new();
    r.read_line(&mut line).expect("an answer within 2 s, while the match goes on");
    let msg = Message::from_line(line.as_bytes()).unwrap();
    assert!(
        matches!(&msg, Some(Message::Error(e)) if e.message.as_deref().is_some_and(|m| m.contains("the table is full"))),
        "{line}"
    );
    line.clear();
    assert_eq!(r.read_line(&mut line).unwrap_or(0), 0, "closed: {line}");
    let still_playing = players.iter().any(|p| !p.is_finished());
    for p in players {
        p.join().unwrap();
    }
    let report = server.join().unwrap();
    assert!(still_playing, "the fifth was answered while the match went on");
    assert_eq!(report.turned_away.len(), 1, "{:?}", report.turned_away);
    assert_eq!(report.games.len(), 1);
    assert_eq!(errors_of(&report), [0; 4]);
    assert!(report.clients[3].dropped.is_some() && report.clients[..3].iter().all(|c| c.dropped.is_none()));
    check_files(&report);
}
