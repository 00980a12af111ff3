//! The mjai reader on small logs written here (JSON lines built in the test): what each event becomes, and
//! that the game replays (the validating replay of `haifu_ingest`).

use serde_json::json;

use haifu_ingest::extract::{extract, ExtractedGame, Outcome};
use haifu_record::event::TagValue;
use haifu_record::mjai::parse;
use haifu_record::tags::{Agari, Init, Yaku};
use haifu_record::{Event, Format, GameRecord, ReadError, Tag};
use haifu_rules::{Kind, MeldKind};
use serde_json::Value;

fn text(lines: &[Value]) -> Vec<u8> {
    lines.iter().map(|v| format!("{v}\n")).collect::<String>().into_bytes()
}
fn hand(s: &str) -> Vec<&str> {
    s.split_whitespace().collect()
}
fn tsumo(actor: usize, pai: &str) -> Value {
    json!({"type": "tsumo", "actor": actor, "pai": pai})
}
fn dahai(actor: usize, pai: &str, tsumogiri: bool) -> Value {
    json!({"type": "dahai", "actor": actor, "pai": pai, "tsumogiri": tsumogiri})
}
fn count(lines: &[Value], kind: &str) -> usize {
    lines.iter().filter(|l| l["type"] == kind).count()
}

/// Reads a log holding one game and replays it, which must succeed.
fn read_one(lines: &[Value]) -> (GameRecord, ExtractedGame) {
    let mut games = parse(&text(lines)).unwrap_or_else(|e| panic!("read: {e}"));
    assert_eq!(games.len(), 1);
    let g = games.remove(0);
    let r = extract(&g).unwrap_or_else(|e| panic!("replay: {e}"));
    (g, r)
}
fn tags<'a>(g: &'a GameRecord, name: &str) -> Vec<&'a Tag> {
    g.events.iter().filter_map(|e| e.as_tag(name)).collect()
}
fn discards(g: &GameRecord) -> usize {
    g.events.iter().filter(|e| matches!(e, Event::Discard { .. })).count()
}

/// Dealt hands: seat 0 waits on 9m (tenpai), the others are far from tenpai.
const TENPAI_TABLE: [&str; 4] = [
    "1m 2m 3m 4p 5p 6p 7s 8s 9s E E E 9m",
    "1m 4m 7m 1p 4p 7p 1s 4s 7s S W N P",
    "2m 5m 8m 2p 5p 8p 2s 5s 8s S W N F",
    "3m 6m 9m 3p 6p 9p 3s 6s 9s S W N C",
];

/// A round of 70 draws, each discarded at once, from the tiles nobody was dealt.
fn exhaustive_round(dealer: usize, dealt: &[&str; 4], dora: &str) -> Vec<Value> {
    let mut left: Vec<String> = Vec::new();
    for k in 0..34u8 {
        let name = Kind::from_index(k).to_string();
        let used = dealt.iter().flat_map(|h| hand(h)).chain([dora]).filter(|t| **t == name).count();
        left.extend(std::iter::repeat_n(name, 4 - used));
    }
    (0..70)
        .flat_map(|i| {
            let seat = (dealer + i) % 4;
            [tsumo(seat, &left[i]), dahai(seat, &left[i], true)]
        })
        .collect()
}

#[test]
fn exhaustive_draws_show_tenpai_hands() {
    let hands: Vec<Vec<&str>> = TENPAI_TABLE.iter().map(|h| hand(h)).collect();
    let mut lines = vec![
        json!({"type": "start_game", "names": ["A", "B", "C", "D"]}),
        json!({"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
               "dora_marker": "P", "scores": [25000, 25000, 25000, 25000], "tehais": hands}),
    ];
    lines.extend(exhaustive_round(0, &TENPAI_TABLE, "P"));
    lines.push(json!({"type": "ryukyoku", "reason": "fanpai", "tenpais": [true, false, false, false],
                      "deltas": [3000, -1000, -1000, -1000], "scores": [28000, 24000, 24000, 24000]}));
    lines.push(json!({"type": "end_kyoku"}));
    // the second round as akochan writes it: no scores, a bare ryukyoku, the result only in end_game
    lines.push(json!({"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 1, "kyotaku": 0, "oya": 0,
                      "dora_marker": "P", "tehais": hands}));
    lines.extend(exhaustive_round(0, &TENPAI_TABLE, "P"));
    lines.push(json!({"type": "ryukyoku"}));
    lines.push(json!({"type": "hello", "note": "unknown events are skipped"}));
    lines.push(json!({"type": "end_kyoku"}));
    lines.push(json!({"type": "end_game", "scores": [31000, 23000, 23000, 23000]}));
    let (g, r) = read_one(&lines);

    assert_eq!(discards(&g), count(&lines, "dahai"));
    // two rounds and end_game: neither length fits (the log stops early), so hanchan, said in the notes
    assert_eq!(tags(&g, "GO")[0].get("type"), Some("10"), "hanchan, no red fives seen");
    assert!(g.notes[0].contains("neither reading fits"), "{:?}", g.notes);
    assert!(g.notes.iter().any(|n| n == "red fives: no (not stated; no red five appears)"), "{:?}", g.notes);
    assert_eq!(r.rounds.len(), 2);
    for (round, d) in r.rounds.iter().zip(tags(&g, "RYUUKYOKU")) {
        assert_eq!(d.get("type"), None, "exhaustive");
        assert!(d.get("hai0").is_some() && d.get("hai1").is_none() && d.get("hai3").is_none());
        assert_eq!(round.outcomes, [Outcome::DrawTenpai, Outcome::DrawNoten, Outcome::DrawNoten, Outcome::DrawNoten]);
        assert_eq!(round.deltas, [3000, -1000, -1000, -1000,]);
    }
    assert!(r.decisions.iter().all(|d| d.tsumogiri));
    let owari = r.info.owari.expect("end_game writes owari");
    assert_eq!(owari.scores, [31000, 23000, 23000, 23000]);
    // ties rank by seat: 23 - 30 + 10, 23 - 30 - 10, 23 - 30 - 20; the first takes minus the sum
    assert_eq!(owari.points, [41.0, 3.0, -17.0, -27.0]);
}

/// One round with every kind of call, a riichi, kan dora, and a ron.
fn calls_round() -> Vec<Value> {
    let hands = [
        hand("1m 2m 3m 4m 5m 6m 7p 8p 9p 2s 3s 5s 5s"),
        hand("4p 5p C 1m 9m 1p 9p 1s 9s E S P F"),
        hand("C C W 2m 3m 6p 6p 7s 7s 8s 8s E S"),
        hand("W W W N N N 2p 4s 6s 6m 6m 7m 8m"),
    ];
    vec![
        json!({"type": "start_game", "names": ["A", "B", "C", "D"], "kyoku_first": 0, "aka_flag": false}),
        json!({"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
               "dora_marker": "9m", "scores": [25000, 25000, 25000, 25000], "tehais": hands}),
        tsumo(0, "3p"),
        dahai(0, "3p", true),
        json!({"type": "chi", "actor": 1, "target": 0, "pai": "3p", "consumed": ["4p", "5p"]}),
        dahai(1, "C", false),
        json!({"type": "pon", "actor": 2, "target": 1, "pai": "C", "consumed": ["C", "C"]}),
        dahai(2, "W", false),
        json!({"type": "daiminkan", "actor": 3, "target": 2, "pai": "W", "consumed": ["W", "W", "W"]}),
        tsumo(3, "7m"),
        dahai(3, "7m", true),
        json!({"type": "dora", "dora_marker": "2p"}),
        tsumo(0, "9s"),
        json!({"type": "reach", "actor": 0}),
        dahai(0, "9s", true),
        json!({"type": "reach_accepted", "actor": 0, "deltas": [-1000, 0, 0, 0],
               "scores": [24000, 25000, 25000, 25000]}),
        tsumo(1, "1p"),
        dahai(1, "1p", true),
        tsumo(2, "C"),
        json!({"type": "kakan", "actor": 2, "pai": "C", "consumed": ["C", "C", "C"]}),
        tsumo(2, "8m"),
        dahai(2, "8m", true),
        json!({"type": "dora", "dora_marker": "3p"}),
        tsumo(3, "N"),
        json!({"type": "ankan", "actor": 3, "consumed": ["N", "N", "N", "N"]}),
        json!({"type": "dora", "dora_marker": "6s"}),
        tsumo(3, "1s"),
        dahai(3, "1s", true),
        json!({"type": "hora", "actor": 0, "target": 3, "pai": "1s", "uradora_markers": ["E"],
               "yakus": [["reach", 1], ["pinfu", 1]], "fu": 30, "fan": 2, "hora_points": 2900,
               "deltas": [3900, 0, 0, -2900], "scores": [27900, 25000, 25000, 22100]}),
        json!({"type": "end_kyoku"}),
        json!({"type": "end_game", "scores": [27900, 25000, 25000, 22100]}),
    ]
}

#[test]
fn calls_riichi_kan_dora_and_ron() {
    let lines = calls_round();
    let (g, r) = read_one(&lines);
    assert_eq!(discards(&g), count(&lines, "dahai"));
    assert_eq!(tags(&g, "GO")[0].get("type"), Some("10"), "hanchan (kyoku_first 0), no red (aka_flag false)");

    let calls: Vec<(u8, MeldKind)> = g
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Call { seat, meld, .. } => Some((*seat, meld.kind)),
            _ => None,
        })
        .collect();
    use MeldKind::*;
    assert_eq!(calls, [(1, Chi), (2, Pon), (3, Daiminkan), (2, Kakan), (3, Ankan)]);
    let chi = g.events.iter().find_map(|e| match e {
        Event::Call { seat: 1, meld, .. } => Some(*meld),
        _ => None,
    });
    assert_eq!(chi.unwrap().from, 3, "chi from the previous seat");

    // Tenhou order: the dora of an open or added kan follows the replacement draw, before the discard
    let kinds: Vec<&str> = g.events.iter().map(Event::kind_name).collect();
    let after_open_kans: Vec<&[&str]> =
        kinds.windows(4).filter(|w| w[0] == "call" && w[1] == "draw" && w[2] == "dora").collect();
    assert_eq!(after_open_kans.len(), 2);
    assert!(after_open_kans.iter().all(|w| w[3] == "discard"));
    assert!(kinds.windows(3).any(|w| w == ["call", "dora", "draw"]), "closed kan: dora before the draw");

    let reach = tags(&g, "REACH");
    assert_eq!(reach.len(), 2);
    assert_eq!(reach[1].get("ten"), Some("240,250,250,250"));

    let agari = Agari::parse(tags(&g, "AGARI")[0]).unwrap();
    assert_eq!((agari.who, agari.from_who, agari.fu, agari.points, agari.limit), (0, 3, 30, 2900, 0));
    assert_eq!(agari.yaku, [Yaku { id: 1, han: 1 }, Yaku { id: 7, han: 1 }, Yaku { id: 53, han: 0 }]);
    assert_eq!(agari.dora_indicators.len(), 4);
    assert_eq!(agari.ura_indicators.len(), 1);
    assert_eq!((agari.honba, agari.kyotaku), (0, 1));
    let round = &r.rounds[0];
    assert_eq!(round.end_scores, [27900, 25000, 25000, 22100]);
    assert_eq!(round.outcomes[0], Outcome::Win);
    assert_eq!(round.outcomes[3], Outcome::DealIn);
    let melds_of = |seat: u8| r.decisions.iter().rev().find(|d| d.seat == seat).map(|d| d.melds.len());
    assert_eq!(melds_of(3), Some(2));
    let owari = r.info.owari.unwrap();
    assert_eq!(owari.points, [38.0, 5.0, -15.0, -28.0]);
}

#[test]
fn tsumo_with_red_fives_and_hand_discards() {
    let lines = vec![
        json!({"type": "start_game", "names": ["A", "B", "C", "D"], "aka_flag": true}),
        json!({"type": "start_kyoku", "bakaze": "E", "kyoku": 2, "honba": 0, "kyotaku": 0, "oya": 1,
        "dora_marker": "1p", "scores": [25000, 25000, 25000, 25000], "tehais": [
            hand("1m 9m 1p 9p 1s 9s E S W N P F C"),
            hand("2m 3m 4m 5pr 6p 7p 2s 3s 4s 6s 7s 8s 5m"),
            hand("5s 5s 1m 9m 1p 9p 1s 9s E S W N 8p"),
            hand("1m 9m 1p 9p 1s 9s E S W N P 2p 3p"),
        ]}),
        tsumo(1, "C"),
        dahai(1, "C", true),
        tsumo(2, "5s"),
        // a third 5s, discarded from the hand: not the copy just drawn
        dahai(2, "5s", false),
        tsumo(3, "F"),
        dahai(3, "F", true),
        tsumo(0, "5p"),
        dahai(0, "5p", true),
        tsumo(1, "5m"),
        json!({"type": "hora", "actor": 1, "target": 1, "pai": "5m",
               "yakus": [["menzenchin_tsumoho", 1], ["tanyaochu", 1], ["akadora", 1]],
               "fu": 30, "fan": 3, "deltas": [-2000, 6000, -2000, -2000]}),
        json!({"type": "end_kyoku"}),
        json!({"type": "end_game"}),
    ];
    let (g, r) = read_one(&lines);
    assert_eq!(discards(&g), count(&lines, "dahai"));
    assert_eq!(tags(&g, "GO")[0].get("type"), Some("8"), "hanchan (not stated, the log stops early), red fives");
    let init = Init::parse(tags(&g, "INIT")[0]).unwrap();
    assert_eq!(init.kyoku, 1);
    assert!(init.hands[1].iter().any(|t| t.id() == 52), "the red 5p is copy 0");
    let discarded: Vec<(u8, u8)> = g
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Discard { seat, tile } => Some((*seat, tile.id())),
            _ => None,
        })
        .collect();
    assert!(discarded.contains(&(0, 53)), "a plain 5p is not the red one");
    let d2 = r.decisions.iter().find(|d| d.seat == 2).unwrap();
    assert!(!d2.tsumogiri, "discard from the hand keeps its flag");
    assert_eq!(r.decisions.iter().filter(|d| d.tsumogiri).count(), 3);

    let agari = Agari::parse(tags(&g, "AGARI")[0]).unwrap();
    assert!(agari.is_tsumo());
    assert_eq!(agari.machi.kind().to_string(), "5m");
    assert_eq!(agari.points, 6000, "from the deltas");
    assert_eq!(agari.yaku.iter().map(|y| y.id).collect::<Vec<_>>(), [0, 8, 54]);
    assert_eq!(agari.han(), 3);
    let owari = r.info.owari.unwrap();
    assert_eq!(owari.scores, [23000, 31000, 23000, 23000]);
    assert_eq!(owari.points, [3.0, 41.0, -17.0, -27.0], "ties rank from the first dealer, seat 0");
}

#[test]
fn three_players_with_north_extraction() {
    let lines = vec![
        json!({"type": "start_game", "names": ["A", "B", "C"], "kyoku_first": 0}),
        json!({"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
        "dora_marker": "E", "scores": [35000, 35000, 35000], "tehais": [
            hand("1p 2p 3p 4p 5p 6p 7p 8p 9p 1s 2s 3s N"),
            hand("1m 9m 1s 9s E S W P F C 4s 5s 6s"),
            hand("1m 9m 1s 9s E S W P F C 7s 8s 9p"),
        ]}),
        tsumo(0, "9m"),
        json!({"type": "nukidora", "actor": 0, "pai": "N"}),
        tsumo(0, "9m"),
        json!({"type": "hora", "actor": 0, "target": 0, "pai": "9m",
               "yakus": [["menzenchin_tsumoho", 1], ["rinshankaiho", 1], ["ikkitsukan", 2], ["dora", 1]],
               "fu": 30, "fan": 5, "hora_points": 8000, "deltas": [8000, -4000, -4000]}),
        json!({"type": "end_kyoku"}),
        json!({"type": "end_game"}),
    ];
    let (g, r) = read_one(&lines);
    assert_eq!(r.info.n_players, 3);
    assert_eq!(tags(&g, "GO")[0].get("type"), Some("26"), "3 players, hanchan, no red");
    assert_eq!(tags(&g, "INIT")[0].get("hai3"), Some(""));
    let nuki = g.events.iter().find_map(|e| match e {
        Event::Call { meld, .. } => Some(*meld),
        _ => None,
    });
    assert_eq!(nuki.unwrap().kind, MeldKind::Nuki);
    let agari = Agari::parse(tags(&g, "AGARI")[0]).unwrap();
    // a 3-player tsumo's points are what the two others paid (Tenhou's sanma, tsumo loss: the corpus's 3-player
    // AGARI tags replay so): the dealer's mangan is 4000 from each
    assert_eq!((agari.points, agari.limit), (8000, 1));
    assert_eq!(r.rounds[0].end_scores[..3], [43000, 31000, 31000]);
    let owari = r.info.owari.unwrap();
    // 3 players: return 40000, uma 0 / -20
    assert_eq!(owari.points[..3], [38.0, -9.0, -29.0]);
}

#[test]
fn double_ron_gives_sticks_and_honba_to_the_first_winner() {
    let lines = vec![
        json!({"type": "start_game", "names": ["A", "B", "C", "D"]}),
        json!({"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 1, "kyotaku": 1, "oya": 0,
        "dora_marker": "N", "scores": [25000, 25000, 24000, 25000], "tehais": [
            hand("4p 1m 9m 1p 9p 1s 9s S W N P F C"),
            hand("1m 2m 3m 4p 5p 6p 7s 8s 9s 2p 3p 5s 5s"),
            hand("1s 2s 3s 4s 5s 6s 7s 8s 9s 2p 3p E E"),
            hand("2m 3m 4m 6m 7m 8m 2s 3s 4s 6s 6p 7p 8p"),
        ]}),
        tsumo(0, "5m"),
        dahai(0, "4p", false),
        json!({"type": "hora", "actor": 1, "target": 0, "pai": "4p", "yakus": [["pinfu", 1]], "fu": 30,
               "deltas": [-1300, 2300, 0, 0]}),
        json!({"type": "hora", "actor": 2, "target": 0, "pai": "4p", "yakus": [["ikkitsukan", 2]], "fu": 40,
               "deltas": [-2600, 0, 2600, 0]}),
        json!({"type": "end_kyoku"}),
        json!({"type": "end_game", "scores": [21100, 27300, 26600, 25000]}),
    ];
    let (g, r) = read_one(&lines);
    let wins: Vec<Agari> = tags(&g, "AGARI").into_iter().map(|t| Agari::parse(t).unwrap()).collect();
    assert_eq!(wins.len(), 2);
    assert_eq!((wins[0].honba, wins[0].kyotaku, wins[0].points), (1, 1, 1000));
    assert_eq!((wins[1].honba, wins[1].kyotaku, wins[1].points), (1, 0, 2600));
    assert!(wins[1].owari.is_some() && wins[0].owari.is_none(), "owari goes on the last tag");
    let round = &r.rounds[0];
    assert_eq!(round.wins().len(), 2);
    assert_eq!(round.outcomes, [Outcome::DealIn, Outcome::Win, Outcome::Win, Outcome::Bystander]);
    assert_eq!(round.kyotaku_after, 0);
    assert_eq!(r.info.owari.unwrap().points, [-29.0, 37.0, 7.0, -15.0]);
}

#[test]
fn three_players_ron_on_a_north() {
    let lines = vec![
        json!({"type": "start_game", "names": ["A", "B", "C"]}),
        json!({"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
        "dora_marker": "E", "scores": [35000, 35000, 35000], "tehais": [
            hand("1m 9m 1s 9s E S W P F C 4s 5s 6s"),
            hand("1p 2p 3p 4p 5p 6p 7p 8p 9p 1s 1s N N"),
            hand("1m 9m 9s E S W P F C 7s 8s 9p 2s"),
        ]}),
        tsumo(0, "N"),
        json!({"type": "nukidora", "actor": 0, "pai": "N"}),
        json!({"type": "hora", "actor": 1, "target": 0, "pai": "N", "yakus": [["ikkitsukan", 2]], "fu": 40,
               "deltas": [-2600, 2600, 0]}),
        json!({"type": "end_kyoku"}),
    ];
    let (g, r) = read_one(&lines);
    let agari = Agari::parse(tags(&g, "AGARI")[0]).unwrap();
    assert_eq!(agari.machi.kind(), Kind::NORTH);
    assert_eq!(r.rounds[0].end_scores[..3], [32400, 37600, 35000]);
    assert!(!r.complete, "no end_game: no owari");
}

#[test]
fn several_games_in_one_file() {
    let mut lines = calls_round();
    lines.extend(calls_round());
    let games = parse(&text(&lines)).unwrap();
    assert_eq!(games.iter().map(|g| g.index_in_file).collect::<Vec<_>>(), [0, 1]);
    assert!(games.iter().all(|g| g.format == Format::Mjai && g.log_id.is_none()));
    for g in &games {
        assert!(extract(g).unwrap().complete);
    }
}

#[test]
fn a_game_cut_short_in_its_first_round_holds_nothing_and_is_refused() {
    let mut lines = calls_round();
    lines.truncate(12);
    lines.push(json!({"type": "error", "message": "a bot crashed"}));
    let mut games = parse(&text(&lines)).unwrap_or_else(|e| panic!("read: {e}"));
    assert_eq!(games.len(), 1);
    let g = games.remove(0);
    assert_eq!(discards(&g), count(&lines, "dahai"), "the reader keeps what the log holds");
    // no round ended: a game of no round would be a games row with nothing behind it (issue 48)
    let e = extract(&g).expect_err("a game of no complete round is refused");
    assert!(e.message.contains("no complete round"), "{e}");
}

fn read_error(lines: &[&str]) -> ReadError {
    let text = lines.iter().map(|l| format!("{l}\n")).collect::<String>();
    parse(text.as_bytes()).expect_err("must not read")
}

#[test]
fn bad_input_names_the_line() {
    let start = r#"{"type":"start_game","names":["A","B","C","D"]}"#;
    let e = read_error(&[start, r#"{"type":"start_kyoku", "bakaze":"#]);
    assert_eq!(e.line, 2);
    assert!(e.message.contains("not a JSON line"), "{e}");

    let e = read_error(&[start, "[1, 2]"]);
    assert_eq!(e.line, 2);

    let hidden = json!({"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
        "dora_marker": "1m", "tehais": [hand("? ? ? ? ? ? ? ? ? ? ? ? ?"), hand(TENPAI_TABLE[1]),
        hand(TENPAI_TABLE[2]), hand(TENPAI_TABLE[3])]});
    let e = read_error(&[start, &hidden.to_string()]);
    assert_eq!(e.line, 2);
    assert!(e.message.contains("not a full log"), "{e}");

    let kyoku = json!({"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
        "dora_marker": "P", "tehais": TENPAI_TABLE.iter().map(|h| hand(h)).collect::<Vec<_>>()})
    .to_string();
    let e = read_error(&[start, &kyoku, r#"{"type":"tsumo","actor":0,"pai":"?"}"#]);
    assert_eq!(e.line, 3);
    assert!(e.message.contains("not a full log"), "{e}");

    // a pon with no discard to take, a discard of a tile the hand does not hold
    let e = read_error(&[start, &kyoku, r#"{"type":"pon","actor":1,"target":0,"pai":"E","consumed":["E","E"]}"#]);
    assert_eq!(e.line, 3);
    let e = read_error(&[
        start,
        &kyoku,
        r#"{"type":"tsumo","actor":0,"pai":"1s"}"#,
        r#"{"type":"dahai","actor":0,"pai":"C","tsumogiri":false}"#,
    ]);
    assert_eq!(e.line, 4);
    assert!(e.message.contains("dahai"), "{e}");

    let odd = kyoku.replace(r#""oya":0"#, r#""oya":0,"scores":[25001,24999,25000,25000]"#);
    let e = read_error(&[start, &odd]);
    assert!(e.message.contains("not a riichi-rule game"), "{e}");

    let e = read_error(&[r#"{"type":"tsumo","actor":0,"pai":"1m"}"#]);
    assert!(e.message.contains("outside a game"), "{e}");
    let e = read_error(&[]);
    assert!(e.message.contains("no game"), "{e}");
    let e = read_error(&[start, r#"{"type":"end_game"}"#]);
    assert!(e.message.contains("start_kyoku"), "{e}");
}
