//! mjlog -> mjai -> the same game: a record is replayed as read (A), written with [`to_mjai`], read back with
//! [`mjai::parse`] and replayed again (B); A and B must agree on everything mjai carries.
//!
//! Compared, per game: players, names, completeness, final scores; per round: the deal (round, honba, sticks,
//! dealer, scores, hands, dora indicator), the dora indicators at the end, each win (seats, honba, sticks, fu,
//! points, han, yaku, yakuman, hand, melds, winning tile, dora and ura indicators, scores before, deltas), each
//! draw (kind, sticks, scores before, deltas, hands shown), the score changes, scores and sticks after, outcomes
//! and rivers; every decision (seat, turn, source and its tile, hand, melds, discard, tsumogiri, riichi, shanten,
//! scores, dora count, tiles left, outcome).
//!
//! Tiles are compared as mjai names them (kind and red five), never by id: mjai has no ids.
//!
//! Not compared, because mjai cannot say it (see `haifu_record::mjai::write`): the pao seat (its payment stays in
//! the deltas, so the outcomes of a pao round's seats are left out), the limit code, the order of yaku, yaku
//! with 0 han (dora, ura, red), dice, dan and rate, table level bits, `BYE`. Not compared because the reader
//! does not take what the mjai line holds: `owari` game points, which the reader recomputes with the modern Tenhou rule (rounded to
//! thousands, uma 10-20): logs of 2009 (uma 5-10) and of 2022 on (points to one decimal) read back with other
//! points; the test prints how many.
//!
//! Games excluded, listed with the reason: custom lobbies whose starting scores do not add up to 100000 (3
//! players 105000), which the mjai reader refuses on purpose (it takes them for games under other rules).
//!
//! Games: hand-made ones ([`GameBuilder`]: every meld kind, kan dora orders, riichi, double ron, every draw,
//! pao, 3 players with nuki and calls from each side, red fives and a no-red lobby, a truncated game), every
//! full mjlog game of the shared corpus (when present), and every full mjai game of the corpus read, written and
//! read again.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use haifu_ingest::extract::RoundEnd;
use haifu_ingest::extract::{extract_with, ReplayOptions};
use haifu_ingest::{extract, ExtractedGame, Outcome};
use haifu_record::event::{Event, Tag};
use haifu_record::mjai::write::{to_mjai, WriteError};
use haifu_record::source::decompress;
use haifu_record::tags::GameType;
use haifu_record::{mjai, read_games, Format, GameRecord};
use haifu_rules::{Meld, MeldKind, MjaiTile, Tile};
use haifu_testkit::{corpus_dir, scenes, GameBuilder, Win};
use rayon::prelude::*;

// ---- the comparison ----

/// A tile as mjai names it in a game with or without red fives.
fn name(t: Tile, red: bool) -> String {
    MjaiTile { kind: t.kind(), red: red && t.is_red_id() }.to_string()
}

/// Tiles by name, in id order (within a kind the red five, copy 0, comes first in both records).
fn names(tiles: impl IntoIterator<Item = Tile>, red: bool) -> String {
    let mut v: Vec<Tile> = tiles.into_iter().collect();
    v.sort_unstable();
    v.iter().map(|&t| name(t, red)).collect::<Vec<_>>().join(" ")
}

fn meld(m: &Meld, red: bool) -> String {
    let called = m.called.map(|t| name(t, red)).unwrap_or_default();
    let added = m.added.map(|t| name(t, red)).unwrap_or_default();
    let tiles = names(m.tiles().iter().copied(), red);
    format!("{}[{tiles}] called {called} added {added} from {}", m.kind.name(), m.from)
}

fn outcome(o: Outcome, pao_round: bool) -> &'static str {
    if pao_round {
        "(pao round: not compared)"
    } else {
        o.name()
    }
}

/// Everything mjai carries of a replayed game, one fact per line. `pao` = rounds where record A names a pao
/// seat (mjai cannot), whose outcomes are left out.
#[allow(clippy::too_many_lines)] // a test: one scenario checked step by step
fn facts(g: &ExtractedGame, pao: &[u16]) -> Vec<String> {
    let n = usize::from(g.info.n_players);
    let red = g.info.game_type.is_none_or(GameType::red);
    let mut out = Vec::new();
    let names_of: Vec<&str> = g.info.players[..n].iter().map(|p| p.name.as_str()).collect();
    out.push(format!(
        "{n} players {names_of:?} red {red} complete {} truncated {}",
        g.complete,
        g.truncation.is_some()
    ));
    if let Some(o) = &g.info.owari {
        out.push(format!("owari scores {:?}", &o.scores[..n]));
    }
    for r in &g.rounds {
        let i = r.index;
        let p = pao.contains(&i);
        let init = &r.init;
        let hands: Vec<String> = init.hands[..n].iter().map(|h| names(h.iter().copied(), red)).collect();
        out.push(format!(
            "round {i}: kyoku {} honba {} sticks {} dealer {} scores {:?} dora {} hands {hands:?}",
            init.kyoku,
            init.honba,
            init.kyotaku,
            init.dealer,
            &init.scores[..n],
            name(init.dora_indicator, red)
        ));
        out.push(format!("round {i}: dora indicators {}", names(r.dora_indicators.iter().copied(), red)));
        match &r.end {
            RoundEnd::Agari(wins) => {
                for a in wins {
                    // dora, ura and red with 0 han: Tenhou may list them or not (the reader writes dora and red
                    // only when > 0, ura always for a riichi winner)
                    let mut yaku: Vec<(u8, u8)> = a
                        .yaku
                        .iter()
                        .filter(|y| !(matches!(y.id, 52..=54) && y.han == 0))
                        .map(|y| (y.id, y.han))
                        .collect();
                    yaku.sort_unstable();
                    let melds: Vec<String> = a
                        .melds
                        .iter()
                        .filter_map(|&c| Meld::decode(c).ok())
                        .filter(|m| m.kind != MeldKind::Nuki)
                        .map(|m| meld(&m, red))
                        .collect();
                    let mut melds = melds;
                    melds.sort();
                    out.push(format!(
                        "round {i}: win {} from {} ba {},{} fu {} points {} han {} yaku {yaku:?} yakuman {:?} hand {} \
                         machi {} melds {melds:?} dora {} ura {} before {:?} delta {:?}",
                        a.who,
                        a.from_who,
                        a.honba,
                        a.kyotaku,
                        a.fu,
                        a.points,
                        a.han(),
                        a.yakuman,
                        names(a.hand.iter().copied(), red),
                        name(a.machi, red),
                        names(a.dora_indicators.iter().copied(), red),
                        names(a.ura_indicators.iter().copied(), red),
                        &a.before[..n],
                        &a.delta[..n]
                    ));
                }
            }
            RoundEnd::Ryuukyoku(d) => {
                // the hands shown, abortive draws included (four riichi shows all four)
                let shown: Vec<String> = d.shown[..n]
                    .iter()
                    .map(|h| h.as_ref().map_or("-".into(), |h| names(h.iter().copied(), red)))
                    .collect();
                out.push(format!(
                    "round {i}: draw {} ba {},{} before {:?} delta {:?} shown {shown:?}",
                    d.kind.name(),
                    d.honba,
                    d.kyotaku,
                    &d.before[..n],
                    &d.delta[..n]
                ));
            }
        }
        let outcomes: Vec<&str> = r.outcomes[..n].iter().map(|&o| outcome(o, p)).collect();
        out.push(format!(
            "round {i}: deltas {:?} end scores {:?} sticks after {} outcomes {outcomes:?}",
            &r.deltas[..n],
            &r.end_scores[..n],
            r.kyotaku_after
        ));
        for (s, river) in r.rivers[..n].iter().enumerate() {
            let mut line = format!("round {i}: river {s}:");
            for t in river {
                let _ = write!(
                    line,
                    " {}{}{}{}",
                    name(t.tile, red),
                    if t.tsumogiri { "'" } else { "" },
                    if t.riichi { "*" } else { "" },
                    if t.called_away { "^" } else { "" }
                );
            }
            out.push(line);
        }
    }
    for (k, d) in g.decisions.iter().enumerate() {
        let melds: Vec<String> = d.melds.iter().map(|m| meld(m, red)).collect();
        out.push(format!(
            "decision {k}: round {} seat {} turn {} {} {} hand {} melds {melds:?} discard {} tsumogiri {} riichi {} \
             in riichi {} shanten {} -> {} scores {:?} dora {} left {} outcome {}",
            d.round,
            d.seat,
            d.turn,
            d.source.name(),
            name(d.source_tile, red),
            names(d.hand.tiles().iter(), red),
            name(d.discard, red),
            d.tsumogiri,
            d.riichi,
            d.in_riichi,
            d.shanten_before,
            d.shanten_after,
            &d.scores[..n],
            d.dora_count,
            d.tiles_left,
            outcome(d.outcome, pao.contains(&d.round))
        ));
    }
    out
}

/// Rounds of a replayed game where a win names a pao seat.
fn pao_rounds(g: &ExtractedGame) -> Vec<u16> {
    g.rounds.iter().filter(|r| r.wins().iter().any(|w| w.pao_who.is_some())).map(|r| r.index).collect()
}

/// The replay of both sides of a round trip: with the rules' bookkeeping, whose choices must agree too.
const WITH_CHOICES: ReplayOptions = ReplayOptions { keep_misscored: false, choices: true };

/// The choices of a replayed game, one line each ([`haifu_ingest::choices::Choice`]'s `Display`); in a pao round
/// the outcomes are not compared (as the decisions'), nor any choice of a rule variant's game (`source`), whose
/// rules the bookkeeping does not follow while the read-back game, which mjai cannot mark, is held to them.
fn choice_facts<'g>(g: &'g ExtractedGame, source: &ExtractedGame, pao: &'g [u16]) -> Vec<String> {
    if source.info.game_type.is_some_and(|t| t.is_variant()) {
        return Vec::new();
    }
    let line = |k: usize, c: &haifu_ingest::choices::Choice| {
        let l = format!("choice {k}: {c}");
        match (pao.contains(&c.round), l.rsplit_once(" outcome ")) {
            (true, Some((head, _))) => format!("{head} outcome (pao round: not compared)"),
            _ => l,
        }
    };
    g.choices.iter().enumerate().map(|(k, c)| line(k, c)).collect()
}

/// Why a game did not round-trip.
#[derive(Debug)]
enum Trip {
    /// The reader refuses the game for a documented reason (see the module notes): listed, not a failure.
    Excluded(String),
    Failed(String),
}

/// A record written as mjai and read back.
struct Tripped {
    text: String,
    /// Game points of `owari` when they differ (record, read back): the reader recomputes them (mjai has no
    /// field for Tenhou's).
    points_differ: Option<String>,
}

/// Total of the first deal's scores and sticks, when it is not Tenhou's standard one.
fn custom_total(a: &ExtractedGame) -> Option<i32> {
    let init = &a.rounds.first()?.init;
    let total = init.scores.iter().sum::<i32>() + 1000 * i32::from(init.kyotaku);
    let standard = if a.info.n_players == 3 { 105_000 } else { 100_000 };
    (total != standard).then_some(total)
}

/// Writes a record as mjai, reads it back, replays both and compares.
fn round_trip(record: &GameRecord) -> Result<Tripped, Trip> {
    let a = extract_with(record, WITH_CHOICES).map_err(|e| Trip::Failed(format!("the record does not replay: {e}")))?;
    let text = to_mjai(record).map_err(|e| Trip::Failed(format!("to_mjai: {e}")))?;
    let mut games = match mjai::parse(text.as_bytes()) {
        Ok(g) => g,
        Err(e) if e.message.contains("not Tenhou's starting scores") && custom_total(&a).is_some() => {
            return Err(Trip::Excluded(format!(
                "a custom lobby's starting total {}: the mjai reader accepts only Tenhou's standard totals \
                 (100000, 3 players 105000)",
                custom_total(&a).unwrap_or_default()
            )));
        }
        Err(e) => return Err(Trip::Failed(format!("mjai::parse: {e}\n{}", excerpt(&text, e.line)))),
    };
    if games.len() != 1 {
        return Err(Trip::Failed(format!("the mjai text holds {} games", games.len())));
    }
    let back = games.remove(0);
    let b =
        extract_with(&back, WITH_CHOICES).map_err(|e| Trip::Failed(format!("the mjai game does not replay: {e}")))?;
    if a.complete && back.play_hash() != record.play_hash() {
        return Err(Trip::Failed("the mjai game has another play hash: ingest would keep both".into()));
    }
    let pao = pao_rounds(&a);
    let fa: Vec<String> = facts(&a, &pao).into_iter().chain(choice_facts(&a, &a, &pao)).collect();
    let fb: Vec<String> = facts(&b, &pao).into_iter().chain(choice_facts(&b, &a, &pao)).collect();
    if let Some(k) = (0..fa.len().max(fb.len())).find(|&k| fa.get(k) != fb.get(k)) {
        return Err(Trip::Failed(format!(
            "differ at fact {k}:\n  mjlog: {}\n  mjai:  {}",
            fa.get(k).map_or("(none)", String::as_str),
            fb.get(k).map_or("(none)", String::as_str)
        )));
    }
    let n = usize::from(a.info.n_players);
    let points_differ = match (&a.info.owari, &b.info.owari) {
        (Some(x), Some(y)) if x.points != y.points => {
            Some(format!("scores {:?}: points {:?} read back as {:?}", &x.scores[..n], &x.points[..n], &y.points[..n]))
        }
        _ => None,
    };
    Ok(Tripped { text, points_differ })
}

/// Lines around a 1-based line of the text, for an error message.
fn excerpt(text: &str, line: u32) -> String {
    let line = line as usize;
    text.lines()
        .enumerate()
        .skip(line.saturating_sub(4))
        .take(5)
        .map(|(i, l)| format!("{:>5} {l}", i + 1))
        .collect::<Vec<_>>()
        .join("\n")
}

fn check(label: &str, g: &GameBuilder) -> String {
    round_trip(&g.record()).unwrap_or_else(|e| panic!("{label}: {e:?}")).text
}

fn lines(text: &str) -> Vec<serde_json::Value> {
    text.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect()
}

fn of_type<'a>(lines: &'a [serde_json::Value], t: &str) -> Vec<&'a serde_json::Value> {
    lines.iter().filter(|l| l["type"] == t).collect()
}

// ---- hand-made games ----

/// An open kan whose replacement draw is followed by a closed kan of a red five (the open kan's dora is turned
/// before it), then a pon and an added kan with its replacement discard.
fn case_kan_after_kan() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    g.deal(["2m147p258s36s4567z", "222m33m055p19s123z", "147m999p999s6677z", "456m888p788s1122z"]);
    g.draw(0, "9m").discard(0, "2m");
    g.daiminkan(1).draw(1, "5p").ankan(1, "5p").draw(1, "8m").discard(1, "9s");
    g.draw(2, "3m").discard(2, "3m");
    g.pon(1).discard(1, "1s");
    g.draw(2, "1p").discard(2, "1p");
    g.draw(3, "2p").discard(3, "2p");
    g.draw(0, "6m").discard(0, "6m");
    g.draw(1, "3m").kakan(1, "3m").draw(1, "7m").discard(1, "7m");
    g.exhaust_wall().exhaustive(&[]).finish();
    g
}

/// A riichi discard called by a pon: the stick is paid (reach_accepted) before the call.
fn case_riichi_discard_called() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    g.deal(["123m456p789s1122z", "456m123p345s3667z", "777m888p6s455577z", "111m999p11222s44z"]);
    g.draw(0, "7z").riichi(0, "7z");
    g.pon(2).discard(2, "6s");
    g.draw_tsumogiri(3, "9s");
    g.draw_tsumogiri(0, "9s");
    g.exhaust_wall().exhaustive(&[]).finish();
    g
}

/// 3 players: a north set aside then a ron, then a tsumo with a red five; the game ends with owari.
fn case_three_player_wins() -> GameBuilder {
    let mut g = GameBuilder::new(185);
    g.deal(["19m19p19s1235567z", "123456789p11s44z", "19m19p19s2345677z", ""]);
    g.draw(0, "4z").nuki(0).draw(0, "9s").discard(0, "9s");
    g.draw_tsumogiri(1, "8s");
    g.draw(2, "2s").discard(2, "4z");
    // straight, 40 fu (20, 10 closed ron, 4 the north triplet completed by the ron)
    g.ron(2, &[(1, Win::new(2600).fu(40).yaku(&[(24, 2)]))]);
    g.deal(["19m19p19s1235567z", "123456789p11s44z", "123s406s789s1166z", ""]);
    g.draw_tsumogiri(1, "2z");
    g.draw(2, "7z").discard(2, "7z");
    g.draw_tsumogiri(0, "3z");
    g.draw(1, "4z").discard(1, "1s");
    // tsumo, straight, hatsu, half flush, red five (in the order Tenhou lists them): baiman, 40 fu (20, 2 tsumo,
    // 8 concealed hatsu, 2 east pair);
    // base 4,000: the dealer pays 8,000, seat 0 4,000 (tsumo loss: no third payer)
    g.draw(2, "6z").tsumo(2, Win::new(12000).fu(40).yaku(&[(0, 1), (24, 2), (19, 1), (34, 3), (54, 1)]));
    g.finish();
    g
}

fn case_newer_log() -> GameBuilder {
    let go = Tag::new("GO").with("type", (0x200 | 169).to_string()).with("lobby", "0").with("rule", "x&y");
    let mut g = GameBuilder::with_go(go);
    g.tag(Tag::new("SHUFFLE").with("seed", "mt19937ar-sha512-n288-base64,AAAA").with("ref", ""));
    scenes::quick_round(&mut g, 0, 2);
    g.finish();
    g.tag(Tag::new("FUTURETAG").with("a", "1"));
    g
}

fn named_game() -> GameBuilder {
    let mut g = GameBuilder::new(169).named(&["あさひ", "B b", "C\"c", "D%d"]);
    scenes::quick_round(&mut g, 0, 3);
    g.finish();
    g
}

fn all_cases() -> Vec<(&'static str, GameBuilder)> {
    let mut cases = scenes::shared_cases();
    cases.extend([
        ("kan_after_kan", case_kan_after_kan()),
        ("riichi_discard_called", case_riichi_discard_called()),
        ("bye", scenes::bye()),
        ("three_player_wins", case_three_player_wins()),
        ("newer_log", case_newer_log()),
        ("named", named_game()),
    ]);
    cases
}

// ---- tests ----

#[test]
fn hand_made_games_round_trip() {
    let cases = all_cases();
    for (label, g) in &cases {
        check(label, g);
    }
    println!("{} hand-made games round-tripped through mjai", cases.len());
}

#[test]
fn lines_follow_the_bots_field_order() {
    let text = check("riichi", &scenes::riichi());
    let first: Vec<&str> = text.lines().take(3).collect();
    assert_eq!(first[0], r#"{"type":"start_game","names":["A","B","C","D"],"aka_flag":true,"kyoku_first":0}"#);
    assert!(
        first[1].starts_with(r#"{"type":"start_kyoku","bakaze":"E","dora_marker":""#)
            && first[1]
                .contains(r#","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"scores":[25000,25000,25000,25000],"tehais":[["#),
        "{}",
        first[1]
    );
    assert_eq!(first[2], r#"{"type":"tsumo","actor":0,"pai":"9m"}"#);
    let l = lines(&text);
    assert_eq!(l[3], serde_json::json!({"type": "reach", "actor": 0}));
    assert_eq!(l[4], serde_json::json!({"type": "dahai", "actor": 0, "pai": "9m", "tsumogiri": true}));
    assert_eq!(
        l[5],
        serde_json::json!({"type": "reach_accepted", "actor": 0, "deltas": [-1000, 0, 0, 0],
                           "scores": [24000, 25000, 25000, 25000]})
    );
    let hora = of_type(&l, "hora");
    assert_eq!(hora.len(), 2);
    assert_eq!((hora[0]["actor"].as_u64(), hora[0]["target"].as_u64()), (Some(0), Some(0)));
    assert_eq!(
        hora[0]["yakus"],
        serde_json::json!([
            ["double_reach", 2],
            ["menzenchin_tsumoho", 1],
            ["bakaze", 1],
            ["jikaze", 1],
            ["uradora", 0]
        ])
    );
    assert_eq!(hora[0]["hora_points"], 12000);
    assert_eq!(hora[0]["uradora_markers"].as_array().map(Vec::len), Some(1));
    let tehais = hora[0]["hora_tehais"].as_array().unwrap();
    assert_eq!((tehais.len(), tehais.last().unwrap().as_str()), (14, Some("E")), "a tsumo: the winning tile last");
    assert_eq!(hora[1]["hora_tehais"].as_array().map(Vec::len), Some(13), "a ron: without the winning tile");
    assert_eq!(of_type(&l, "end_kyoku").len(), 2);
    assert_eq!(l.last().unwrap()["type"], "end_game");
    assert!(text.ends_with('\n'));
}

#[test]
fn kan_dora_in_mjai_order() {
    let l = lines(&check("closed_and_open_kan", &scenes::closed_and_open_kan()));
    let types: Vec<&str> = l.iter().map(|x| x["type"].as_str().unwrap()).collect();
    // closed kan: the dora before the replacement draw; open kan: after the discard that follows it
    assert!(types.windows(3).any(|w| w == ["ankan", "dora", "tsumo"]), "{types:?}");
    assert!(types.windows(4).any(|w| w == ["daiminkan", "tsumo", "dahai", "dora"]), "{types:?}");
    let l = lines(&check("kan_after_kan", &case_kan_after_kan()));
    let types: Vec<&str> = l.iter().map(|x| x["type"].as_str().unwrap()).collect();
    // the open kan's dora is owed when its seat calls again: it comes before that call
    assert!(types.windows(5).any(|w| w == ["daiminkan", "tsumo", "dora", "ankan", "dora"]), "{types:?}");
    assert!(types.windows(4).any(|w| w == ["kakan", "tsumo", "dahai", "dora"]), "{types:?}");
    // chankan: no dora for the robbed kan
    let l = lines(&check("chankan", &scenes::chankan()));
    assert!(of_type(&l, "dora").is_empty());
}

#[test]
fn calls_name_their_target_and_consumed_tiles() {
    let l = lines(&check("open_melds", &scenes::open_melds()));
    assert_eq!(
        of_type(&l, "chi")[0],
        &serde_json::json!({"type": "chi", "actor": 1, "target": 0, "pai": "2m", "consumed": ["1m", "3m"]})
    );
    let kakan = of_type(&l, "kakan")[0];
    assert_eq!(kakan["pai"], "9p");
    assert_eq!(kakan["consumed"], serde_json::json!(["9p", "9p", "9p"]));
    let l = lines(&check("closed_and_open_kan", &scenes::closed_and_open_kan()));
    assert_eq!(of_type(&l, "ankan")[0]["consumed"], serde_json::json!(["1m", "1m", "1m", "1m"]));
    let kan = of_type(&l, "daiminkan")[0];
    assert_eq!((kan["actor"].as_u64(), kan["target"].as_u64()), (Some(1), Some(0)));
    assert_eq!(kan["pai"], "5pr", "the red five called");
    // 3 players: targets in 0..2, a pon from the previous seat, nukidora
    let l = lines(&check("three_player", &scenes::three_player()));
    let pons: Vec<(u64, u64)> =
        of_type(&l, "pon").iter().map(|p| (p["actor"].as_u64().unwrap(), p["target"].as_u64().unwrap())).collect();
    assert_eq!(pons, [(2, 1), (0, 2)]);
    assert_eq!(of_type(&l, "nukidora")[0], &serde_json::json!({"type": "nukidora", "actor": 0, "pai": "N"}));
    let start = of_type(&l, "start_kyoku")[0];
    assert_eq!(start["scores"], serde_json::json!([35000, 35000, 35000]));
    assert_eq!(start["tehais"].as_array().map(Vec::len), Some(3));
}

#[test]
fn draws_name_their_reason() {
    let reasons = |g: &GameBuilder| -> Vec<String> {
        of_type(&lines(&check("draw", g)), "ryukyoku")
            .iter()
            .map(|r| r["reason"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(reasons(&scenes::exhaustive()), ["fanpai"]);
    assert_eq!(reasons(&scenes::double_ron()), ["kyushukyuhai"]);
    assert_eq!(reasons(&scenes::reach4()), ["suuchareach"]);
    assert_eq!(reasons(&scenes::ron3()), ["sanchaho"]);
    assert_eq!(reasons(&scenes::kan4()), ["suukaikan"]);
    assert_eq!(reasons(&scenes::kaze4()), ["suufonrenta"]);
    assert_eq!(reasons(&scenes::nagashi()), ["nagashimangan"]);
    let l = lines(&check("exhaustive", &scenes::exhaustive()));
    let d = of_type(&l, "ryukyoku")[0];
    assert_eq!(d["tenpais"], serde_json::json!([false, true, false, false]));
    assert_eq!(d["deltas"], serde_json::json!([-1000, 3000, -1000, -1000]));
    assert_eq!(d["tehais"][0].as_array().unwrap()[0], "?", "a hand not shown");
    assert!(d["tehais"][1].as_array().unwrap().iter().all(|t| t != "?"));
}

#[test]
fn pao_and_truncation() {
    // pao: the payment is in the deltas; the read-back game has no pao seat
    let l = lines(&check("pao", &scenes::pao()));
    let hora = of_type(&l, "hora")[0];
    assert_eq!(hora["deltas"], serde_json::json!([0, 32000, 0, -32000]));
    assert_eq!(hora["yakus"], serde_json::json!([["daisangen", 13]]));
    // a truncated game: no end_kyoku for the open round, no end_game
    let l = lines(&check("truncated", &scenes::truncated()));
    assert_eq!(of_type(&l, "end_kyoku").len(), 1);
    assert!(of_type(&l, "end_game").is_empty());
    assert_eq!(l.last().unwrap()["type"], "dahai");
}

#[test]
fn a_record_that_cannot_be_written_names_the_event() {
    let mut g = GameBuilder::new(169);
    g.deal(["147m258p369s1234z", "258m369p147s1236z", "999s999p888s777s4z", "123456789m111p5z"]);
    g.draw_tsumogiri(0, "5z");
    // a pon by seat 2 of a tile it does not hold (the code names 9m from seat 0)
    let bad = Meld::call(MeldKind::Pon, &[Tile::from_id(32), Tile::from_id(33)], Tile::from_id(34), 2).unwrap();
    g.raw(Event::call(2, bad));
    let record = g.record();
    let at = record.events.len() - 1;
    let e: WriteError = to_mjai(&record).expect_err("must not write");
    assert_eq!(e.event, at, "{e}");
    assert!(e.to_string().contains("pon"), "{e}");

    // an undecodable meld code, and a discard outside a round
    let mut g = GameBuilder::new(169);
    g.deal(["147m258p369s1234z", "258m369p147s1236z", "999s999p888s777s4z", "123456789m111p5z"]);
    // an undecodable meld code is in no record: the reader refuses it where it stands
    let bad = "<N who=\"1\" m=\"71684\" />"; // chi start 23: out of range
    let xml = g.xml().replace("</mjloggm>", &format!("{bad}</mjloggm>"));
    let e = haifu_record::mjlog::parse(xml.as_bytes()).expect_err("an undecodable meld");
    assert!(e.message.contains("chi start out of range"), "{e}");
    assert_eq!(e.offset as usize, xml.find(bad).expect("the tag"), "{e}");
    let record = GameRecord {
        format: Format::Mjlog,
        index_in_file: 0,
        log_id: None,
        events: vec![Event::Discard { seat: 0, tile: Tile::from_id(0) }],
        notes: Vec::new(),
    };
    assert_eq!(to_mjai(&record).expect_err("must not write").event, 0);
}

// ---- the corpus ----

/// Files of the corpus manifest in a format, with their kind (`full` / `fragment`).
fn manifest(root: &Path, format: &str) -> BTreeMap<PathBuf, String> {
    let text = std::fs::read_to_string(root.join("MANIFEST.tsv")).unwrap_or_default();
    let mut rows = text.lines();
    let header: Vec<&str> = rows.next().unwrap_or_default().split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name);
    let (Some(p), Some(f), Some(k)) = (col("path"), col("format"), col("kind")) else { return BTreeMap::new() };
    rows.map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|c| c.get(f) == Some(&format))
        .filter_map(|c| Some((root.join(c.get(p)?), c.get(k)?.to_string())))
        .collect()
}

/// What happened to one game of the corpus.
enum Checked {
    Ok {
        decisions: usize,
        three: bool,
        points_differ: Option<String>,
    },
    /// The game was not checked, with the reason: a record this test cannot use as the oracle, or a game the
    /// reader refuses for a documented reason.
    Skipped(String),
    Failed(String),
}

fn check_file(
    path: &Path,
    root: &Path,
    read: impl Fn(&str, &[u8]) -> Result<Vec<GameRecord>, String>,
) -> Vec<(String, Checked)> {
    let rel = path.strip_prefix(root).unwrap_or(path).display().to_string();
    let raw = match std::fs::read(path) {
        Ok(r) => r,
        Err(e) => return vec![(rel, Checked::Failed(format!("unreadable: {e}")))],
    };
    let text = match decompress(raw) {
        Ok(t) => t,
        Err(e) => return vec![(rel, Checked::Failed(e))],
    };
    let file_name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let games = match read(&file_name, &text) {
        Ok(g) => g,
        Err(e) => return vec![(rel, Checked::Skipped(format!("the file does not read: {e}")))],
    };
    games
        .iter()
        .map(|g| {
            let label = format!("{rel} game {}", g.index_in_file);
            let a = match extract(g) {
                Ok(a) => a,
                Err(e) => return (label, Checked::Skipped(format!("the record does not replay: {e}"))),
            };
            let three = a.info.n_players == 3;
            match round_trip(g) {
                Ok(t) => (label, Checked::Ok { decisions: a.decisions.len(), three, points_differ: t.points_differ }),
                Err(Trip::Excluded(why)) => (label, Checked::Skipped(why)),
                Err(Trip::Failed(why)) => (label, Checked::Failed(why)),
            }
        })
        .collect()
}

fn report(what: &str, results: &[(String, Checked)]) -> (usize, Vec<String>) {
    let (mut games, mut three, mut decisions, mut points) = (0, 0, 0, 0);
    let mut skipped = Vec::new();
    let mut failed = Vec::new();
    for (label, c) in results {
        match c {
            Checked::Ok { decisions: d, three: t, points_differ: p } => {
                games += 1;
                decisions += d;
                three += usize::from(*t);
                if let Some(p) = p {
                    if points < 10 {
                        println!("other game points: {label}: {p}");
                    }
                    points += 1;
                }
            }
            Checked::Skipped(why) => skipped.push(format!("{label}: {why}")),
            Checked::Failed(why) => failed.push(format!("{label}: {why}")),
        }
    }
    for s in &skipped {
        println!("excluded {s}");
    }
    for f in failed.iter().take(20) {
        println!("FAILED {f}");
    }
    println!(
        "{what}: {games} games round-tripped through mjai ({three} with 3 players), {decisions} decisions identical; \
         {points} of them with other owari game points (recomputed by the reader, not carried by mjai); \
         {} excluded, {} failed",
        skipped.len(),
        failed.len()
    );
    (games, failed)
}

#[test]
fn every_full_mjlog_game_of_the_corpus_round_trips() {
    let Some(root) = corpus_dir() else { return };
    let files: Vec<PathBuf> =
        manifest(&root, "mjlog").into_iter().filter(|(_, k)| k == "full").map(|(p, _)| p).collect();
    assert!(!files.is_empty(), "the manifest lists no full mjlog game");
    let results: Vec<(String, Checked)> = files
        .par_iter()
        .flat_map_iter(|p| check_file(p, &root, |name, text| read_games(name, text).map_err(|e| e.to_string())))
        .collect();
    let (games, failed) = report("mjlog corpus", &results);
    assert!(failed.is_empty(), "{} games differ after the mjai round trip, first: {}", failed.len(), failed[0]);
    let excluded = results.iter().filter(|(_, c)| matches!(c, Checked::Skipped(_))).count();
    assert!(games + excluded >= files.len(), "every full file holds a game: {games} games from {} files", files.len());
}

#[test]
fn every_full_mjai_game_of_the_corpus_reads_writes_and_reads_back() {
    let Some(root) = corpus_dir() else { return };
    let files: Vec<PathBuf> =
        manifest(&root, "mjai").into_iter().filter(|(_, k)| k == "full").map(|(p, _)| p).collect();
    let results: Vec<(String, Checked)> = files
        .par_iter()
        .flat_map_iter(|p| check_file(p, &root, |_, text| mjai::parse(text).map_err(|e| e.to_string())))
        .collect();
    let (games, failed) = report("mjai corpus", &results);
    assert!(failed.is_empty(), "{} games differ after writing them again, first: {}", failed.len(), failed[0]);
    assert!(games > 0 || files.is_empty(), "no mjai game checked");
}
