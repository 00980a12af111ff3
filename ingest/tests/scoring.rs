//! Tenhou as the oracle of `rules::score`: every AGARI of the corpus's mjlog and tenhou.net/6 games is rescored from its own
//! tiles (closed hand, melds, winning tile, dora and ura indicators, seat and round wind, rules of the table)
//! and the yaku with their han (in Tenhou's order), the yakuman, the fu, the points, the limit and the score changes must equal
//! the tag's. The situational yaku (riichi, ippatsu, chankan, rinshan, haitei/houtei, tenhou/chiihou) are
//! the one input taken from the tag here: the game engine's replay (`sim`) finds them from the play itself.
//! Prints a clear line and passes when the corpus is absent.

use std::collections::BTreeMap;

use haifu_ingest::extract::RoundEnd;
use haifu_ingest::ExtractedGame;
use haifu_record::event::GameRecord;
use haifu_record::tags::Agari;
use haifu_record::Format;
use haifu_rules::score::{score, win_deltas, RiichiKind, Ruleset, WinContext};
use haifu_rules::table::TableRules;
use haifu_rules::{Kind, Meld};
use haifu_testkit::corpus::{manifest, outcomes, Outcomes};

/// One rescored win that differs from the tag.
struct Mismatch {
    file: String,
    round: u16,
    what: String,
}

fn context(a: &Agari, rules: Ruleset, seat_wind: Kind, round_wind: Kind) -> WinContext {
    let has = |id: u8| a.yaku.iter().any(|y| y.id == id);
    WinContext {
        ruleset: rules,
        tsumo: a.is_tsumo(),
        seat_wind,
        round_wind,
        riichi: if has(21) {
            RiichiKind::Double
        } else if has(1) {
            RiichiKind::Riichi
        } else {
            RiichiKind::None
        },
        ippatsu: has(2),
        rinshan: has(4),
        chankan: has(3),
        last_tile: has(5) || has(6),
        first_draw: a.yakuman.iter().any(|&y| y == 37 || y == 38),
        dora_indicators: a.dora_indicators.clone(),
        ura_indicators: a.ura_indicators.clone(),
    }
}

/// Rescores one win; `None` when everything agrees, else what differs.
/// tenhou.net/6 JSON writes a limit hand's value by name (満貫...) without its fu: the reader's tag has fu 0.
#[allow(clippy::too_many_arguments)]
fn rescore(
    a: &Agari,
    rules: Ruleset,
    dealer: u8,
    kyoku: u8,
    first_winner: bool,
    fu_known: bool,
    ordered: bool,
) -> Option<String> {
    let n = rules.players;
    let seat_wind = Kind::from_index(Kind::EAST.index() + (a.who + n - dealer) % n);
    let round_wind = Kind::from_index(Kind::EAST.index() + kyoku / 4);
    let ctx = context(a, rules, seat_wind, round_wind);
    // AGARI `m` lists the melds newest first; `score` takes them as called
    let melds: Vec<Meld> = match a.melds.iter().rev().map(|&m| Meld::decode(m)).collect() {
        Ok(m) => m,
        Err(e) => return Some(format!("bad meld code: {e}")),
    };
    let win = *a.hand.iter().find(|t| **t == a.machi).unwrap_or(&a.machi);
    let Some(s) = score(&a.hand, win, &melds, &ctx) else {
        return Some("not scored (no yaku or not complete)".into());
    };
    // in Tenhou's order, as the tag lists them; tenhou.net/6 files are written by other programs too (mjx,
    // majiang), whose yaku lists keep an order of their own: compared as sets
    let mut want_yaku: Vec<(u8, u8)> = a.yaku.iter().map(|y| (y.id, y.han)).collect();
    let mut want_yakuman = a.yakuman.clone();
    let mut s = s;
    if !ordered {
        for v in [&mut want_yaku, &mut s.yaku] {
            v.sort_unstable();
        }
        for v in [&mut want_yakuman, &mut s.yakuman] {
            v.sort_unstable();
        }
    }
    let (honba, kyotaku) = if first_winner { (a.honba, a.kyotaku) } else { (0, 0) };
    let deltas = win_deltas(&s, rules, a.who, a.from_who, dealer, a.pao_who, honba, kyotaku);
    let mut diffs = Vec::new();
    if s.yaku != want_yaku || s.yakuman != want_yakuman {
        diffs.push(format!("yaku {:?}/{:?} vs tag {:?}/{:?}", s.yaku, s.yakuman, want_yaku, want_yakuman));
    }
    let fu = if fu_known { s.fu } else { a.fu };
    if (fu, s.points, s.limit) != (a.fu, a.points, a.limit) {
        diffs.push(format!("ten {},{},{} vs tag {},{},{}", s.fu, s.points, s.limit, a.fu, a.points, a.limit));
    }
    if deltas != a.delta {
        diffs.push(format!("deltas {deltas:?} vs tag {:?}", a.delta));
    }
    (!diffs.is_empty()).then(|| {
        let hand: Vec<String> = a.hand.iter().map(|t| t.to_string()).collect();
        let melds: Vec<String> = melds.iter().map(|m| m.to_string()).collect();
        format!(
            "{} | hand {} melds [{}] win {} {} dealer {dealer} who {} from {} ba {},{}",
            diffs.join("; "),
            hand.join(""),
            melds.join(" "),
            a.machi,
            if a.is_tsumo() { "tsumo" } else { "ron" },
            a.who,
            a.from_who,
            a.honba,
            a.kyotaku
        )
    })
}

/// Every mjlog and tenhou.net/6 game of the corpus (MANIFEST.tsv), read and replayed, handed to `visit` with
/// whether it is a full game. Returns what the full games' files hold, counted from their raw text, and the
/// full games that did not read or replay (a fragment that does not is passed over: some are cut on purpose).
fn each_replayed_game(
    corpus: &std::path::Path,
    mut visit: impl FnMut(bool, &str, &GameRecord, &ExtractedGame),
) -> (Outcomes, Vec<String>) {
    let (mut want, mut failed) = (Outcomes::default(), Vec::new());
    for e in manifest(corpus).iter().filter(|e| e.format != "mjai") {
        let text = e.text(corpus);
        if e.full {
            want += outcomes(&e.format, &text);
        }
        let records = match haifu_record::read_games(&e.path, &text) {
            Ok(r) => r,
            Err(err) => {
                failed.extend(e.full.then(|| format!("{}: {err}", e.path)));
                continue;
            }
        };
        for rec in records {
            match haifu_ingest::extract(&rec) {
                Ok(g) => visit(e.full, &e.path, &rec, &g),
                Err(err) => failed.extend(e.full.then(|| format!("{}: {err}", e.path))),
            }
        }
    }
    (want, failed)
}

#[test]
fn every_corpus_win_scores_as_tenhou_scored_it() {
    let Some(corpus) = haifu_testkit::corpus_dir() else { return };
    let (mut checked, mut checked_full, mut games) = (0usize, 0usize, 0usize);
    let mut mismatches: Vec<Mismatch> = Vec::new();
    let (want, failed) = each_replayed_game(&corpus, |full, name, rec, g| {
        games += 1;
        let go = g.info.game_type.map_or(0x09, |t| t.0);
        let rules = TableRules::from_go_type(go).ruleset();
        for r in &g.rounds {
            let RoundEnd::Agari(wins) = &r.end else { continue };
            for (i, a) in wins.iter().enumerate() {
                checked += 1;
                checked_full += usize::from(full);
                let fu_known = rec.format != Format::Tenhou6 || a.limit == 0;
                if let Some(what) =
                    rescore(a, rules, r.init.dealer, r.init.kyoku, i == 0, fu_known, rec.format == Format::Mjlog)
                {
                    mismatches.push(Mismatch { file: name.to_string(), round: r.index, what });
                }
            }
        }
    });
    println!("{games} games, {checked} wins rescored, {} mismatches", mismatches.len());
    let mut by_kind: BTreeMap<String, usize> = BTreeMap::new();
    for m in &mismatches {
        let kind = m.what.split(" | ").next().unwrap_or("").split(' ').next().unwrap_or("").to_string();
        *by_kind.entry(kind).or_default() += 1;
    }
    println!("by kind: {by_kind:?}");
    for m in mismatches.iter().take(40) {
        println!("  {} round {}: {}", m.file, m.round, m.what);
    }
    assert!(failed.is_empty(), "full games that did not read or replay:\n{}", failed.join("\n"));
    assert_eq!(
        checked_full, want.wins,
        "every win of the full games (AGARI tags and tenhou.net/6 results counted in the files)"
    );
    assert!(mismatches.is_empty(), "{} of {checked} wins scored unlike Tenhou", mismatches.len());
}

/// Every draw of the corpus: the tenpai payments of an exhaustive draw (tenpai = the hands shown), nagashi
/// mangan (seats whose river is all terminals and honors, none called away), and nothing for abortive draws.
#[test]
fn every_corpus_draw_pays_as_tenhou_paid() {
    use haifu_record::tags::DrawKind;
    use haifu_rules::score::{exhaustive_draw_deltas, nagashi_deltas};
    let Some(corpus) = haifu_testkit::corpus_dir() else { return };
    let (mut checked, mut checked_full, mut nagashi) = (0usize, 0usize, 0usize);
    let mut mismatches = Vec::new();
    let (want, failed) = each_replayed_game(&corpus, |full, name, _, g| {
        let rules = TableRules::from_go_type(g.info.game_type.map_or(0x09, |t| t.0)).ruleset();
        for r in &g.rounds {
            let RoundEnd::Ryuukyoku(d) = &r.end else { continue };
            let n = usize::from(rules.players);
            let computed = match d.kind {
                DrawKind::Exhaustive | DrawKind::Nagashi => {
                    let who: Vec<u8> = (0..n as u8)
                        .filter(|&s| {
                            let river = &r.rivers[usize::from(s)];
                            !river.is_empty() && river.iter().all(|t| t.tile.kind().is_yaochuu() && !t.called_away)
                        })
                        .collect();
                    if who.is_empty() {
                        exhaustive_draw_deltas(std::array::from_fn(|s| d.shown[s].is_some()), rules.players)
                    } else {
                        nagashi += 1;
                        nagashi_deltas(&who, r.init.dealer, rules)
                    }
                }
                _ => [0; 4],
            };
            checked += 1;
            checked_full += usize::from(full);
            if computed != d.delta {
                mismatches
                    .push(format!("{name} round {}: {:?} computed {computed:?} tag {:?}", r.index, d.kind, d.delta));
            }
        }
    });
    println!("{checked} draws checked ({nagashi} nagashi mangan), {} mismatches", mismatches.len());
    for m in mismatches.iter().take(30) {
        println!("  {m}");
    }
    assert!(failed.is_empty(), "full games that did not read or replay:\n{}", failed.join("\n"));
    assert_eq!(
        checked_full, want.draws,
        "every draw of the full games (RYUUKYOKU tags and tenhou.net/6 results counted in the files)"
    );
    assert!(mismatches.is_empty(), "{} draws paid unlike Tenhou", mismatches.len());
}
