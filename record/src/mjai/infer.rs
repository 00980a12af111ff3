//! What an mjai log leaves out and the reader infers (see the module notes, "Synthesized"): the game's facts
//! (players, red fives, length, first dealer, names), score changes a line does not give, the kind of a draw
//! and the hands it shows, a win's points, fu and yaku, and the game's `owari`.

use haifu_rules::score;
use haifu_rules::shanten::shanten;
use haifu_rules::table::{self, TableRules};
use haifu_rules::{yaku, Kind, MjaiTile, Tile, TileSet};
use serde_json::Value;

use super::lines::Line;
use super::message::{self as m, Message, Pai};
use super::values::in_range;
use crate::error::ReadError;
use crate::legal::yaochuu_kinds;
use crate::length::{Length, ReadOptions};
use crate::state::{SeatState, TableState};
use crate::tags::{DrawKind, Owari, Yaku};

// ---- the game ----------------------------------------------------------------------------------------------

/// Facts about the whole game, read before its events.
pub(super) struct GameFacts {
    pub n: usize,
    pub red: bool,
    /// The length the log states (`kyoku_first`, `gametype`), and by what; settled after the play is read.
    pub stated_length: Option<(Length, &'static str)>,
    pub first_dealer: usize,
    pub names: Vec<String>,
    /// What was given or guessed rather than read (the games table's `notes`).
    pub notes: Vec<String>,
}

pub(super) fn game_facts(lines: &[Line], opts: &ReadOptions) -> Result<GameFacts, ReadError> {
    let start = lines.iter().find_map(|l| match &l.msg {
        Message::StartGame(s) => Some(s),
        _ => None,
    });
    let (line, first) = lines
        .iter()
        .find_map(|l| match &l.msg {
            Message::StartKyoku(k) => Some((l, k)),
            _ => None,
        })
        .ok_or_else(|| lines[0].error("game without a start_kyoku".into()))?;
    let err = |m: String| line.error(format!("start_kyoku: {m}"));
    let mut notes = Vec::new();
    let n = if let Some(p) = opts.players {
        notes.push(format!("players: {p} (given with --players)"));
        usize::from(p)
    } else {
        players(first, lines).ok_or_else(|| err(format!("\"tehais\" holds {} hands", first.tehais.len())))?
    };
    let red = red_fives(lines, start, opts, &mut notes);
    let stated_length = match (start.and_then(|s| s.kyoku_first), start.and_then(|s| s.gametype.as_deref())) {
        (Some(k), _) => Some((if k == 0 { Length::Hanchan } else { Length::East }, "kyoku_first")),
        (None, Some(g)) => Some((if g == "tonpu" { Length::East } else { Length::Hanchan }, "gametype")),
        (None, None) => None,
    };
    let oya = in_range(first.oya, "oya", n - 1).map_err(err)?;
    let kyoku = in_range(first.kyoku, "kyoku", 4).map_err(err)?.max(1);
    let first_dealer = (usize::from(oya) + 4 * n - usize::from(kyoku - 1)) % n;
    let names = start.and_then(|s| s.names.clone()).unwrap_or_default();
    let unnamed: Vec<usize> = (0..n).filter(|&s| names.get(s).is_none_or(String::is_empty)).collect();
    if !unnamed.is_empty() {
        notes.push(format!("names: seats {unnamed:?} have no name in the log (left empty)"));
    }
    Ok(GameFacts { n, red, stated_length, first_dealer, names, notes })
}

/// The number of players the first deal shows: a 3-player log may keep the fourth hand as an empty or hidden
/// placeholder, and only 3-player games set norths aside.
fn players(first: &m::StartKyoku, lines: &[Line]) -> Option<usize> {
    let hands = &first.tehais;
    let fourth_hidden = hands.get(3).is_some_and(|h| !h.is_empty() && h.iter().all(|&p| p == Pai::Hidden));
    let three_scores = first.scores.as_ref().is_some_and(|s| s.len() == 3 || (s.len() == 4 && s[3] == 0));
    let nuki = lines.iter().any(|l| matches!(l.msg, Message::Nukidora(_)));
    if hands.len() == 3 || (hands.len() == 4 && hands[3].is_empty()) || (fourth_hidden && three_scores) || nuki {
        Some(3)
    } else if hands.len() == 4 {
        Some(4)
    } else {
        None
    }
}

/// Whether red fives are played: given, stated (`aka_flag`), or whether one appears.
fn red_fives(lines: &[Line], start: Option<&m::StartGame>, opts: &ReadOptions, notes: &mut Vec<String>) -> bool {
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    if let Some(r) = opts.red_fives {
        notes.push(format!("red fives: {} (given with --red)", yes_no(r)));
        return r;
    }
    if let Some(r) = start.and_then(|s| s.aka_flag) {
        return r;
    }
    let seen = lines.iter().any(|l| shows_red(&l.msg));
    let why = if seen { "a red five appears" } else { "no red five appears" };
    notes.push(format!("red fives: {} (not stated; {why})", yes_no(seen)));
    seen
}

/// A red five among the tiles a message plays or shows.
fn shows_red(msg: &Message) -> bool {
    let red = |t: &MjaiTile| t.red;
    let shown_red = |p: &Pai| p.tile().is_some_and(|t| t.red);
    match msg {
        Message::StartKyoku(k) => k.dora_marker.is_some_and(|t| t.red) || k.tehais.iter().flatten().any(shown_red),
        Message::Tsumo(t) => shown_red(&t.pai),
        Message::Dahai(d) => d.pai.red,
        Message::Chi(c) | Message::Pon(c) | Message::Daiminkan(c) => c.pai.red || c.consumed.iter().any(red),
        Message::Kakan(k) => k.pai.red || k.consumed.iter().any(red),
        Message::Ankan(a) => a.consumed.iter().any(red),
        Message::Dora(d) => d.dora_marker.red,
        Message::Hora(h) => h.pai.is_some_and(|t| t.red),
        Message::Ryukyoku(d) => d.tehais.iter().flatten().flatten().any(shown_red),
        _ => false,
    }
}

// ---- scores ------------------------------------------------------------------------------------------------

/// Scores by seat as the first dealer numbers the seats (the first dealer first), which Tenhou's ranking breaks
/// ties by; `back` undoes it.
fn from_first_dealer<T: Copy + Default>(v: [T; 4], n: usize, first: usize, back: bool) -> [T; 4] {
    let mut out = [T::default(); 4];
    for i in 0..n {
        let seat = (i + first) % n;
        if back {
            out[seat] = v[i];
        } else {
            out[i] = v[seat];
        }
    }
    out
}

/// Seats from first to last place: by score, ties by seat from the first dealer.
pub(super) fn ranking(scores: [i32; 4], n: usize, first: usize) -> Vec<usize> {
    let order = table::ranking(&from_first_dealer(scores, n, first, false), n as u8);
    order[..n].iter().map(|&s| (usize::from(s) + first) % n).collect()
}

/// Tenhou's `owari` (see the module notes): the sticks left to the first place, game points rounded to
/// thousands with today's uma.
pub(super) fn owari(scores: [i32; 4], kyotaku: u8, n: usize, first: usize) -> Owari {
    let mut rules = TableRules::from_go_type(if n == 3 { 0x10 } else { 0 });
    rules.owari.rounded = true;
    let (fin, points) = table::owari(&rules, &from_first_dealer(scores, n, first, false), kyotaku);
    Owari { scores: from_first_dealer(fin, n, first, true), points: from_first_dealer(points, n, first, true) }
}

// ---- draws -------------------------------------------------------------------------------------------------

/// The kind of a draw: its `reason` in any spelling bots use, else what the record shows.
pub(super) fn draw_kind(reason: Option<&str>, t: &TableState, left: i32) -> Result<DrawKind, String> {
    let reason = reason.unwrap_or_default().to_ascii_lowercase();
    let kind = match reason.as_str() {
        "fanpai" | "howanpai" | "exhaustive" | "ryukyoku" => DrawKind::Exhaustive,
        "kyushukyuhai" | "kyuushukyuuhai" | "kyushu" | "kyuushu" | "yao9" => DrawKind::Yao9,
        "suuchareach" | "suucha_riichi" | "suuchariichi" | "suchariichi" | "sucha_reach" | "reach4" => DrawKind::Reach4,
        "sanchaho" | "sanchahou" | "sancha_ron" | "ron3" => DrawKind::Ron3,
        "suukaikan" | "sukaikan" | "suukantsu" | "kan4" => DrawKind::Kan4,
        "suufonrenta" | "sufonrenda" | "suufonrenda" | "sufonrenta" | "kaze4" => DrawKind::Kaze4,
        "nagashimangan" | "nagashi_mangan" | "nm" => DrawKind::Nagashi,
        // no reason, or a spelling this reader does not know: what the record shows
        other => infer_draw(t, left).ok_or_else(|| {
            format!("\"reason\" {other:?}, and the record shows no known draw ({left} tiles left in the wall)")
        })?,
    };
    if matches!(kind, DrawKind::Exhaustive | DrawKind::Nagashi) && left != 0 {
        return Err(format!("exhaustive draw with {left} tiles left in the wall"));
    }
    Ok(kind)
}

/// An abortive draw the record shows, when the log gives no reason.
fn infer_draw(t: &TableState, left: i32) -> Option<DrawKind> {
    if left == 0 {
        return Some(DrawKind::Exhaustive);
    }
    let seats = &t.seats[..usize::from(t.players)];
    if seats.iter().filter(|s| s.riichi.is_accepted()).count() == 4 {
        return Some(DrawKind::Reach4);
    }
    let kans = |s: &SeatState| s.melds.iter().filter(|m| m.kind.is_kan()).count();
    if seats.iter().map(kans).sum::<usize>() >= 4 && seats.iter().filter(|s| kans(s) > 0).count() > 1 {
        return Some(DrawKind::Kan4);
    }
    // no chi, pon or kan yet (a north set aside is not a call)
    if seats.iter().any(|s| s.sets() > 0) {
        return None;
    }
    let mut first = seats.iter().flat_map(|s| s.river.first());
    if seats.iter().all(|s| s.river.len() == 1) && seats.len() == 4 {
        let k = first.next()?.tile.kind();
        if k.is_wind() && first.all(|r| r.tile.kind() == k) {
            return Some(DrawKind::Kaze4);
        }
    }
    // nine kinds of terminals and honors on a seat's first draw
    let s = seats.iter().find(|s| s.turn == 1 && s.last_draw.is_some())?;
    (yaochuu_kinds(s.hand.counts()) >= 9).then_some(DrawKind::Yao9)
}

/// The hands a draw shows: the tenpai ones at an exhaustive draw or nagashi mangan (from `tenpais`, else the
/// signs of the deltas, else the shanten of the tracked hand), the nine terminals of the seat that declares
/// them.
pub(super) fn shown_hands(
    kind: DrawKind,
    d: &m::Ryukyoku,
    deltas: [i32; 4],
    t: &TableState,
    n: usize,
) -> Result<[Option<Vec<Tile>>; 4], String> {
    let mut shown: [Option<Vec<Tile>>; 4] = Default::default();
    let hand = |s: usize| Some(t.seats[s].hand.tiles().iter().collect());
    let size = |s: usize| t.seats[s].size();
    match kind {
        DrawKind::Exhaustive | DrawKind::Nagashi => {
            let tenpais = d.tenpais.as_deref().filter(|t| t.len() >= n);
            let by_deltas = kind == DrawKind::Exhaustive && deltas[..n].iter().any(|&d| d != 0);
            for (s, slot) in shown.iter_mut().enumerate().take(n) {
                let tenpai = match tenpais {
                    Some(t) => t[s],
                    None if by_deltas => deltas[s] > 0,
                    None => size(s) == 13 && shanten(t.seats[s].hand.counts()) == 0,
                };
                if tenpai {
                    if size(s) != 13 {
                        return Err(format!("seat {s} is tenpai holding {} tiles", size(s)));
                    }
                    *slot = hand(s);
                }
            }
        }
        DrawKind::Yao9 => {
            let who = match d.actor {
                Some(a) => Some(usize::from(in_range(a, "actor", n - 1)?)),
                None => (0..n).find(|&s| size(s) == 14),
            };
            if let Some(s) = who.filter(|&s| size(s) == 14) {
                shown[s] = hand(s);
            }
        }
        // other abortive draws: the hands the log shows (haifu's writer and mjai-manue write `?` for a hand
        // not shown); without `tehais`, four riichi shows all four (Tenhou does), the others none
        _ => {
            for (s, slot) in shown.iter_mut().enumerate().take(n) {
                let listed = d.tehais.as_ref().and_then(|t| t.get(s));
                let show = match listed {
                    Some(h) => !h.is_empty() && h.iter().all(|p| p.tile().is_some()),
                    None => kind == DrawKind::Reach4,
                };
                if show && size(s) == 13 {
                    *slot = hand(s);
                }
            }
        }
    }
    Ok(shown)
}

// ---- wins --------------------------------------------------------------------------------------------------

/// A win's points when the log gives none: the winner's gain less the sticks and the honba, which go to the
/// first winner ([`score::honba_gain`]).
pub(super) fn win_points(gain: i32, first: bool, honba: u8, sticks: u8, players: u8) -> i32 {
    let bonus = if first { score::honba_gain(players, honba) } else { 0 };
    gain - 1000 * i32::from(sticks) - bonus
}

/// RiichiEnv's `meta.score`.
fn meta_score(h: &m::Hora) -> Option<&Value> {
    h.meta.as_ref()?.get("score")
}

/// A win's fu: `fu`, else RiichiEnv's `meta.score.fu`, else 0 (unknown).
pub(super) fn win_fu(h: &m::Hora) -> Result<u32, String> {
    let Some(fu) = h.fu else {
        let Some(v) = meta_score(h).and_then(|s| s.get("fu")) else { return Ok(0) };
        let whole = v.as_i64().or_else(|| v.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 1e15).map(|f| f as i64));
        return whole.and_then(|f| u32::try_from(f).ok()).ok_or_else(|| format!("\"meta.score.fu\" {v} is not a fu"));
    };
    Ok(fu)
}

/// What naming a win's yaku needs to know.
pub(super) struct WinContext {
    /// 0 east .. 3 north.
    pub seat_wind: u8,
    pub round_wind: u8,
    pub riichi: bool,
    pub closed: bool,
    /// Every tile of the winner: concealed with the winning tile, and the meld tiles.
    pub tiles: Vec<Tile>,
    pub dora: Vec<Tile>,
    pub ura: Vec<Tile>,
    pub red: bool,
    /// 3 or 4: with three players the dora after a 1m indicator is the 9m.
    pub players: u8,
}

impl WinContext {
    /// The dragons (Tenhou ids 18-20) the winner holds three or four of.
    fn dragon_ids(&self) -> Vec<u8> {
        let set: TileSet = self.tiles.iter().copied().collect();
        let dragons = (0..3u8).map(|d| Kind::from_index(Kind::HAKU.index() + d));
        dragons.filter(|&k| set.count(k) >= 3).filter_map(yaku::dragon).collect()
    }
    fn count_dora(&self, indicators: &[Tile]) -> u8 {
        let rules = haifu_rules::score::Ruleset { players: self.players, red_fives: self.red, open_tanyao: true };
        let held: TileSet = self.tiles.iter().copied().collect();
        rules.count_dora(&held.counts(), indicators) as u8
    }
    fn count_red(&self) -> u8 {
        if self.red {
            self.tiles.iter().filter(|t| t.is_red_id()).count() as u8
        } else {
            0
        }
    }
}

/// Tenhou id of an mjai yaku name (any spelling of [`yaku::YAKU`]); `jikaze`, `bakaze` and `sangenpai` are
/// resolved by the caller. A double yakuman written under its base name with 26 han is the double one's id.
/// Names it does not know are left out of the `yaku` written.
fn tenhou_id(name: &str, han: u8) -> Option<u8> {
    let id = yaku::id_by_name(name)?;
    Some(if han >= 26 && matches!(id, 40 | 45 | 47) { id + 1 } else { id })
}

/// The Tenhou id of a RiichiEnv yaku id (its winds as seat / round wind east: the caller resolves them); the
/// han come from [`yaku::han`].
fn riichienv_yaku(id: i64) -> Option<u8> {
    Some(match id {
        1 => 0,
        2 => 1,
        3 => 3,
        4 => 4,
        5 => 5,
        6 => 6,
        7 => 18,
        8 => 19,
        9 => 20,
        10 => 10,
        11 => 14,
        12 => 8,
        13 => 9,
        14 => 7,
        15 => 23,
        16 => 24,
        17 => 25,
        18 => 21,
        19 => 26,
        20 => 27,
        21 => 28,
        22 => 29,
        23 => 30,
        24 => 31,
        25 => 22,
        26 => 33,
        27 => 34,
        28 => 32,
        29 => 35,
        30 => 2,
        31 | 34 => 52,
        32 => 54,
        33 => 53,
        35 => 37,
        36 => 38,
        37 => 39,
        38 => 40,
        39 => 42,
        40 => 43,
        41 => 44,
        42 => 47,
        43 => 50,
        44 => 51,
        45 => 45,
        47 => 46,
        48 => 41,
        49 => 48,
        50 => 49,
        _ => return None,
    })
}

/// Tenhou ids with han of what the log names: mjai `yakus` names, else RiichiEnv's `meta.score.yaku` ids;
/// `None` when it names nothing.
fn named_yaku(h: &m::Hora, ctx: &WinContext) -> Option<Vec<(u8, u8)>> {
    let mut named: Vec<(u8, u8)> = Vec::new();
    if let Some(list) = &h.yakus {
        for (name, han) in list {
            let han = (*han).min(255) as u8;
            match name.as_str() {
                "jikaze" => named.push((yaku::seat_wind(ctx.seat_wind), han)),
                "bakaze" => named.push((yaku::round_wind(ctx.round_wind), han)),
                // one entry per dragon triplet, but the names do not say which: the held dragons, each once
                "sangenpai" | "yakuhai" => {
                    for d in ctx.dragon_ids() {
                        if !named.iter().any(|&(i, _)| i == d) {
                            named.push((d, 1));
                        }
                    }
                }
                other => named.extend(tenhou_id(other, han).map(|id| (id, han))),
            }
        }
    } else if let Some(Value::Array(ids)) = meta_score(h).and_then(|s| s.get("yaku")) {
        for id in ids.iter().filter_map(Value::as_i64) {
            let Some(tid) = riichienv_yaku(id) else { continue };
            let han = yaku::han(tid, ctx.closed);
            let entry = match tid {
                10 => (yaku::seat_wind(ctx.seat_wind), han),
                14 => (yaku::round_wind(ctx.round_wind), han),
                52 => (52, ctx.count_dora(&ctx.dora)),
                54 => (54, ctx.count_red()),
                53 => (53, ctx.count_dora(&ctx.ura)),
                _ => (tid, han),
            };
            if !named.iter().any(|&(i, _)| i == entry.0) {
                named.push(entry);
            }
        }
    } else {
        return None;
    }
    Some(named)
}

/// The yaku and yakuman of a win as Tenhou lists them, from whatever the log names (see the module notes).
pub(super) fn win_yaku(h: &m::Hora, ctx: &WinContext) -> (Vec<Yaku>, Vec<u8>) {
    let Some(named) = named_yaku(h, ctx) else { return (Vec::new(), Vec::new()) };
    let yakuman: Vec<u8> =
        named.iter().filter(|&&(id, han)| yaku::is_yakuman(id) && han >= 13).map(|&(id, _)| id).collect();
    if !yakuman.is_empty() {
        return (Vec::new(), yakuman);
    }
    let han_of = |id: u8| named.iter().find(|&&(i, _)| i == id).map(|&(_, h)| h);
    let mut yaku: Vec<Yaku> = named.iter().filter(|&&(id, _)| id < 52).map(|&(id, han)| Yaku { id, han }).collect();
    for id in [52, 54] {
        if let Some(han) = han_of(id).filter(|&h| h > 0) {
            yaku.push(Yaku { id, han });
        }
    }
    if ctx.riichi {
        yaku.push(Yaku { id: 53, han: han_of(53).unwrap_or(0) });
    }
    (yaku, Vec::new())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn yaku_names_map_to_tenhou_ids() {
        let line = |mut v: Value| -> m::Hora {
            v["actor"] = json!(0);
            v["target"] = json!(0);
            serde_json::from_value(v).unwrap()
        };
        let ids = |s: &str| -> Vec<Tile> { s.split_whitespace().map(|t| Tile::from_id(t.parse().unwrap())).collect() };
        // a closed hand with the red 5p (52), a pon of chun; dora indicator 4p -> 5p (52 and 53 count)
        let ctx = WinContext {
            seat_wind: 2,
            round_wind: 1,
            riichi: true,
            closed: true,
            tiles: ids("0 4 8 52 53 56 60 64 68 72 132 133 134 100"),
            dora: ids("48"),
            ura: ids("1"),
            red: true,
            players: 4,
        };
        let ids_of = |y: Vec<Yaku>| y.into_iter().map(|y| (y.id, y.han)).collect::<Vec<_>>();
        let (y, ym) = win_yaku(
            &line(json!({"yakus": [["reach", 1], ["jikaze", 1], ["bakaze", 1], ["sangenpai", 1], ["dora", 2]]})),
            &ctx,
        );
        assert!(ym.is_empty());
        assert_eq!(ids_of(y), [(1, 1), (12, 1), (15, 1), (20, 1), (52, 2), (53, 0)]);
        // two dragon triplets are two `sangenpai` entries: each dragon counts once
        let (y, _) = win_yaku(&line(json!({"yakus": [["sangenpai", 1], ["sangenpai", 1]]})), &ctx);
        assert_eq!(ids_of(y).iter().filter(|(id, _)| (18..=20).contains(id)).count(), ctx.dragon_ids().len());
        let (y, ym) = win_yaku(&line(json!({"yakus": [["suanko", 26], ["dora", 1]]})), &ctx);
        assert!(y.is_empty());
        assert_eq!(ym, [41]);
        // RiichiEnv: riichi, red, tanyao, dora, ura, counted from the tiles
        let (y, _) = win_yaku(&line(json!({"meta": {"score": {"han": 6, "yaku": [2, 32, 12, 31, 33]}}})), &ctx);
        assert_eq!(ids_of(y), [(1, 1), (8, 1), (52, 2), (54, 1), (53, 1)]);
        let (y, ym) = win_yaku(&line(json!({"fan": 3})), &ctx);
        assert!(y.is_empty() && ym.is_empty(), "no names: yaku unknown");
    }

    #[test]
    fn owari_rounds_like_tenhou() {
        // half away from zero on the score: 29500 -> 30 (0), 30500 -> 31 (+1), -500 -> -1 (-31)
        let pts = owari([50000, 30500, 29500, -500], 0, 4, 0).points;
        assert_eq!(pts, [50.0, 11.0, -10.0, -51.0]);
        assert_eq!(pts.iter().sum::<f64>(), 0.0);
        // ties rank by seat from the first dealer (seat 2 here), who takes the sticks left
        assert_eq!(ranking([25000, 25000, 25000, 25000], 4, 2), [2, 3, 0, 1]);
        let o = owari([25000, 25000, 24000, 25000], 1, 4, 3);
        assert_eq!(o.scores, [25000, 25000, 24000, 26000]);
        assert_eq!(o.points, [5.0, -15.0, -26.0, 36.0]);
        // three players: return 40000, uma 0 / -20
        assert_eq!(owari([43000, 31000, 31000, 0], 0, 3, 0).points, [38.0, -9.0, -29.0, 0.0]);
    }
}
