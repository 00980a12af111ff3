//! The tenhou.net/6 reader on small files written by hand (`tests/data/tenhou6/`): what each round becomes,
//! that the game replays, and that bad input is refused clearly.

use haifu_ingest::extract::{extract, ExtractedGame, RoundEnd};
use haifu_record::tags::{DrawKind, Yaku};
use haifu_record::tenhou6::parse;
use haifu_record::{Event, Format, GameRecord, Tag};
use haifu_rules::{Meld, MeldKind};

fn read(json: &str) -> (GameRecord, ExtractedGame) {
    let game = parse(json.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let replayed = extract(&game).unwrap_or_else(|e| panic!("{e}"));
    (game, replayed)
}

fn tags<'g>(g: &'g GameRecord, name: &str) -> Vec<&'g Tag> {
    g.events.iter().filter_map(|e| e.as_tag(name)).collect()
}

fn melds(g: &GameRecord) -> Vec<(u8, Meld)> {
    let call = |e: &Event| match e {
        Event::Call { seat, meld, .. } => Some((*seat, *meld)),
        _ => None,
    };
    g.events.iter().filter_map(call).collect()
}

/// Names of the events, `T0 D0 N1 ...`, to check their order.
fn order(g: &GameRecord) -> Vec<String> {
    g.events
        .iter()
        .map(|e| match e {
            Event::Draw { seat, .. } => format!("T{seat}"),
            Event::Discard { seat, .. } => format!("D{seat}"),
            Event::Call { seat, .. } => format!("N{seat}"),
            Event::Dora { .. } => "DORA".into(),
            Event::Reach(r) => format!("R{}.{}", r.who, r.step),
            other => other.kind_name().to_string(),
        })
        .collect()
}

#[test]
fn ron_then_tsumo_in_one_object_per_round() {
    let (g, r) = read(include_str!("data/tenhou6/ron_tsumo.json"));
    assert_eq!(g.format, Format::Tenhou6);
    assert_eq!(r.rounds.len(), 2);
    // the second round goes around once before the tsumo (a tsumo on the first draw would be chiihou)
    assert_eq!(r.decisions.len(), 8);
    let ron = &r.rounds[0].wins()[0];
    assert_eq!((ron.who, ron.from_who, ron.fu, ron.points, ron.limit), (0, 1, 40, 3900, 0));
    assert_eq!(ron.yaku, vec![Yaku { id: 24, han: 2 }]);
    let tsumo = &r.rounds[1].wins()[0];
    assert!(tsumo.is_tsumo());
    // 400-700 from a non-dealer's tsumo: 2 x 400 + 700
    assert_eq!((tsumo.who, tsumo.fu, tsumo.points, tsumo.honba), (2, 20, 1500, 1));
    assert_eq!(r.rounds[1].end_scores, [28100, 20600, 26800, 24500]);
    // East 1 of an east-only game is not the end: no owari is made up
    assert!(!r.complete);
}

#[test]
fn calls_of_every_kind() {
    let (g, r) = read(include_str!("data/tenhou6/calls.json"));
    let kinds: Vec<(u8, MeldKind)> = melds(&g).iter().map(|(s, m)| (*s, m.kind)).collect();
    assert_eq!(
        kinds,
        [(1, MeldKind::Chi), (3, MeldKind::Pon), (2, MeldKind::Daiminkan), (3, MeldKind::Ankan), (3, MeldKind::Kakan)]
    );
    let m = melds(&g);
    // sources: chi from kamicha, the pon from toimen, the daiminkan from toimen; the kakan keeps its pon's
    assert_eq!((m[0].1.from, m[1].1.from, m[2].1.from, m[4].1.from), (3, 2, 2, 2));
    let o = order(&g).join(" ");
    // closed kan: indicator before the replacement draw; open and added kans: after it, before the discard
    assert!(o.contains("N2 T2 DORA D2"), "{o}");
    assert!(o.contains("N3 DORA T3 D3"), "{o}");
    assert!(o.matches("DORA").count() == 3, "{o}");
    assert_eq!(r.rounds[0].dora_indicators.len(), 4);
    assert_eq!(r.decisions.len(), 11);
    let win = &r.rounds[0].wins()[0];
    assert_eq!((win.who, win.from_who, win.points), (1, 0, 2000));
    // the winning tile is the red 5s
    assert_eq!(win.machi.id(), 88);
    assert_eq!(win.yaku, vec![Yaku { id: 8, han: 1 }, Yaku { id: 54, han: 1 }]);
    assert_eq!(win.melds.len(), 1);
    // the chi and the pon leave the rivers; the calls are made on the last discard
    assert!(r.rounds[0].rivers[0][0].called_away && r.rounds[0].rivers[1][0].called_away);
}

#[test]
fn riichi_and_double_ron_on_a_riichi_discard() {
    let (g, r) = read(include_str!("data/tenhou6/double_ron.json"));
    let o = order(&g).join(" ");
    // seat 1's riichi stands; seat 2's riichi tile (r60, its draw) is ronned: no step 2
    assert!(o.contains("R1.1 D1 R1.2 T2"), "{o}");
    assert!(o.ends_with("R2.1 D2 AGARI AGARI"), "{o}");
    let riichi_discard = r.decisions.iter().find(|d| d.seat == 2 && d.riichi).unwrap();
    assert!(riichi_discard.tsumogiri);
    let wins = r.rounds[0].wins();
    assert_eq!(wins.len(), 2);
    // the first winner in turn order from the discarder takes the stick
    assert_eq!((wins[0].who, wins[0].kyotaku, wins[1].who, wins[1].kyotaku), (3, 1, 1, 0));
    assert!(wins[0].ura_indicators.is_empty() && wins[1].ura_indicators.len() == 1);
    // seat 1's riichi was its first discard: double riichi, pinfu, tanyao, sanshoku: haneman
    assert_eq!((wins[1].limit, wins[1].points), (2, 12000));
    assert_eq!(wins[1].yaku.last(), Some(&Yaku { id: 53, han: 0 }));
    assert_eq!(r.rounds[0].end_scores, [25000, 36000, 11700, 27300]);
    let owari = r.info.owari.as_ref().unwrap();
    assert_eq!(owari.points, [-15.0, 46.0, -38.0, 7.0]);
    assert!(r.complete);
}

#[test]
fn exhaustive_draw_shows_tenpai_hands_and_ends_the_game() {
    let (g, r) = read(include_str!("data/tenhou6/exhaustive.json"));
    assert_eq!(r.decisions.len(), 70);
    let RoundEnd::Ryuukyoku(draw) = &r.rounds[0].end else { panic!("not a draw") };
    assert_eq!(draw.kind, DrawKind::Exhaustive);
    let shown: Vec<bool> = draw.shown.iter().map(Option::is_some).collect();
    assert_eq!(shown, [true, true, false, false]);
    assert_eq!(draw.kyotaku, 1);
    // seat 0 declared riichi on its first draw with r60
    let first = r.decisions.iter().find(|d| d.seat == 0).unwrap();
    assert!(first.riichi && first.tsumogiri);
    assert_eq!(tags(&g, "REACH").len(), 2);
    // East 4 of an east-only game: owari, the leftover stick to the top (seat 1)
    let owari = r.info.owari.as_ref().unwrap();
    assert_eq!(owari.scores, [25500, 27500, 23500, 23500]);
    assert_eq!(owari.points, [6.0, 36.0, -16.0, -26.0]);
}

#[test]
fn three_players_with_nuki() {
    let (g, r) = read(include_str!("data/tenhou6/sanma_nuki.json"));
    assert_eq!(r.info.n_players, 3);
    let go: u32 = tags(&g, "GO")[0].get("type").unwrap().parse().unwrap();
    assert_eq!(go & 0x10, 0x10);
    assert_eq!(tags(&g, "INIT")[0].get("hai3"), Some(""));
    let m = melds(&g);
    assert_eq!((m[0].0, m[0].1.kind), (0, MeldKind::Nuki));
    // seat 1 pons seat 0's discard: kamicha in Tenhou's four-seat numbering
    assert_eq!((m[1].0, m[1].1.kind, m[1].1.from), (1, MeldKind::Pon, 3));
    let win = &r.rounds[0].wins()[0];
    // a dealer's mangan tsumo in 3p: two payers of 4000 (a limit hand's fu is not written)
    assert_eq!((win.points, win.fu, win.limit), (8000, 0, 1));
    assert_eq!(win.melds.len(), 1);
    assert_eq!(win.yaku, vec![Yaku { id: 0, han: 1 }, Yaku { id: 23, han: 2 }, Yaku { id: 52, han: 1 }]);
    assert_eq!(tags(&g, "AGARI")[0].get("sc"), Some("350,80,350,-40,350,-40,0,0"));
}

#[test]
fn a_pon_can_wait_for_a_later_copy() {
    // seat 2's pon of East is on seat 3's second East: the first must be passed for the sequences to fit
    let (g, r) = read(include_str!("data/tenhou6/late_pon.json"));
    let o = order(&g).join(" ");
    assert!(o.contains("T3 D3 T0 D0 N3 D3 N2 D2 AGARI"), "{o}");
    assert_eq!(r.rounds[0].wins()[0].who, 0);
}

#[test]
fn bad_input_is_refused_clearly() {
    let calls = include_str!("data/tenhou6/calls.json");
    let cases: &[(&str, &str)] = &[
        ("", "no JSON object"),
        ("hello", "not valid JSON"),
        ("{\"log\": [[", "not valid JSON"),
        ("[1, 2]", "a number where a tenhou.net/6 game"),
        ("{\"title\": \"x\"}", "without \"log\""),
        ("{\"log\": []}", "no round"),
        ("{\"log\": [[1, 2]]}", "round 0: round has 2 entries"),
    ];
    for (text, want) in cases {
        let e = parse(text.as_bytes()).expect_err(text);
        assert!(e.message.contains(want), "{text:?}: {e}");
    }
    // a tile that does not exist, a seat playing a tile it does not hold, a result that does not fit
    for (from, to, want) in [
        ("[31,32,33,53]", "[31,32,33,99]", "99 is not a tile"),
        ("[18,45,60,60]", "[29,45,60,60]", "seat 0: discards 9p, which is not in hand"),
        ("[1,0,1,", "[1,1,1,", "does not fit"),
    ] {
        let e = parse(calls.replacen(from, to, 1).as_bytes()).expect_err(to);
        assert!(e.message.contains(want) && e.message.contains("E1-0"), "{e}");
    }
}

#[test]
fn damaged_records_never_panic() {
    for text in [include_str!("data/tenhou6/calls.json"), include_str!("data/tenhou6/sanma_nuki.json")] {
        for cut in 0..text.len() {
            let _ = parse(&text.as_bytes()[..cut]);
        }
        // each digit replaced by another: tiles, scores and seats out of place
        let bytes = text.as_bytes();
        for i in (0..bytes.len()).filter(|&i| bytes[i].is_ascii_digit()) {
            for d in [b'0', b'4', b'9'] {
                let mut b = bytes.to_vec();
                b[i] = d;
                if let Ok(g) = parse(&b) {
                    let _ = extract(&g);
                }
            }
        }
    }
}

#[test]
fn what_the_file_leaves_out_is_noted() {
    // a game object without `name` and without a log id: both said in the notes, nothing silent
    let text = include_str!("data/tenhou6/calls.json").replacen("\"name\":[\"A\",\"B\",\"C\",\"D\"],", "", 1);
    assert!(!text.contains("\"name\""), "the fixture lost its names");
    let g = parse(text.as_bytes()).expect("reads");
    assert!(g.notes.iter().any(|n| n.starts_with("names: seats [0, 1, 2, 3]")), "{:?}", g.notes);
    assert!(g.notes.iter().any(|n| n.starts_with("rules: from the lobby name")), "{:?}", g.notes);
}
