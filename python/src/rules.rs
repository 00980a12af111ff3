//! The rules from Python, on hands in the usual notation (`123m456p789s1122z`, `0` a red five): shanten,
//! the tiles that lower it, and the score of a win, by the functions the replay checks every AGARI with.

use haifu_rules::score::{score as score_win, RiichiKind, Ruleset, WinContext};
use haifu_rules::shanten::{shanten as shanten_of, shanten_each};
use haifu_rules::{Counts, HandNotation, Kind, Meld, MeldKind, Tile, KINDS};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::bad_argument;

/// The counts of a concealed hand in notation, refused unless it holds 3n+1 or 3n+2 tiles (at most 14).
fn counts_of(hand: &str) -> PyResult<Counts> {
    let h: HandNotation = hand.parse().map_err(|e: haifu_rules::hand::HandParseError| bad_argument(e.to_string()))?;
    let n: u32 = h.counts.iter().map(|&c| u32::from(c)).sum();
    if n > 14 || n.is_multiple_of(3) {
        return Err(bad_argument(format!("{hand:?}: {n} tiles; a concealed hand holds 3n+1 or 3n+2 (at most 14)")));
    }
    Ok(h.counts)
}

/// Shanten of a concealed hand: -1 complete, 0 tenpai, 1 one tile from tenpai ... (the least of the regular
/// form, seven pairs and thirteen orphans).
#[pyfunction]
fn shanten(hand: &str) -> PyResult<i8> {
    Ok(shanten_of(&counts_of(hand)?))
}

/// The kinds whose draw lowers the shanten of a hand of 3n+1 tiles, each with the copies still unseen: four
/// less those in the hand and those in `seen` (discards, melds, dora indicators, in notation).
#[pyfunction]
#[pyo3(signature = (hand, seen = ""))]
fn ukeire<'py>(py: Python<'py>, hand: &str, seen: &str) -> PyResult<Bound<'py, PyDict>> {
    let counts = counts_of(hand)?;
    if counts.iter().map(|&c| u32::from(c)).sum::<u32>() % 3 != 1 {
        return Err(bad_argument(format!("{hand:?}: ukeire is of a hand of 3n+1 tiles (before the draw)")));
    }
    let seen: HandNotation =
        seen.parse().map_err(|e: haifu_rules::hand::HandParseError| bad_argument(e.to_string()))?;
    let now = shanten_of(&counts);
    let after = shanten_each(&counts, 1);
    let d = PyDict::new(py);
    for k in 0..KINDS {
        if after[k] < now {
            let left = 4u8.saturating_sub(counts[k]).saturating_sub(seen.counts[k]);
            d.set_item(Kind::from_index(k as u8).name(), left)?;
        }
    }
    Ok(d)
}

/// Physical tiles for the kinds of a notation, copies not yet `used`: a red five is copy 0 of its five (the
/// red id), a plain five one of the other three.
fn take_tiles(notation: &str, used: &mut [bool; 136]) -> PyResult<Vec<Tile>> {
    let h: HandNotation =
        notation.parse().map_err(|e: haifu_rules::hand::HandParseError| bad_argument(e.to_string()))?;
    let mut tiles = Vec::new();
    for (k, &n) in h.counts.iter().enumerate() {
        let kind = Kind::from_index(k as u8);
        let red_of_suit = kind.suit().filter(|_| kind.digit() == 5).map(|s| h.red >> (s as u8) & 1 == 1);
        let mut order: Vec<Tile> = kind.ids().to_vec();
        if red_of_suit == Some(false) {
            order.rotate_left(1); // the red copy last
        }
        for _ in 0..n {
            let t = order.iter().copied().find(|t| !used[usize::from(t.id())]).ok_or_else(|| {
                bad_argument(format!("{notation:?}: more than four {kind} in the hand, its melds and the win tile"))
            })?;
            used[usize::from(t.id())] = true;
            tiles.push(t);
        }
    }
    Ok(tiles)
}

/// A meld: Tenhou's code (mjlog `m`, SPEC 1.2), or in notation: `chi 234m`, `pon 555z`, `kan 5555m` (open), `ankan 1111p`, `kakan 7777s`, `nuki 4z`.
/// The called tile is the meld's first; for a pon or an open kan it came from across, for a chi from the left.
fn meld_of(meld: &Bound<'_, PyAny>, used: &mut [bool; 136]) -> PyResult<Meld> {
    if let Ok(code) = meld.extract::<u32>() {
        let m = Meld::decode(code).map_err(|e| bad_argument(e.to_string()))?;
        for t in m.tiles() {
            used[usize::from(t.id())] = true;
        }
        return Ok(m);
    }
    let text: String = meld.extract()?;
    let text = text.as_str();
    let (kind, tiles) = text
        .split_once(' ')
        .ok_or_else(|| bad_argument(format!("{text:?}: a meld is its kind and its tiles, as \"pon 555z\"")))?;
    let tiles = take_tiles(tiles, used)?;
    let bad = |e: haifu_rules::MeldError| bad_argument(format!("{text:?}: {e}"));
    let kinds_equal = tiles.iter().all(|t| t.kind() == tiles[0].kind());
    match (kind, tiles.len()) {
        ("chi", 3) => Meld::call(MeldKind::Chi, &tiles[1..], tiles[0], 3).map_err(bad),
        ("pon", 3) => Meld::call(MeldKind::Pon, &tiles[1..], tiles[0], 2).map_err(bad),
        ("kan", 4) => Meld::call(MeldKind::Daiminkan, &tiles[1..], tiles[0], 2).map_err(bad),
        ("ankan", 4) if kinds_equal => Ok(Meld::ankan(tiles[0].kind())),
        ("kakan", 4) => {
            Meld::call(MeldKind::Pon, &tiles[1..3], tiles[0], 2).map_err(bad)?.kakan_of(tiles[3]).map_err(bad)
        }
        ("nuki", 1) if tiles[0].kind() == Kind::NORTH => Ok(Meld::nuki(tiles[0])),
        _ => Err(bad_argument(format!(
            "{text:?}: chi or pon of 3 tiles, kan, ankan or kakan of 4 of one kind, nuki of 4z"
        ))),
    }
}

fn wind_of(name: &str) -> PyResult<Kind> {
    match name {
        "E" | "1z" => Ok(Kind::EAST),
        "S" | "2z" => Ok(Kind::from_index(28)),
        "W" | "3z" => Ok(Kind::from_index(29)),
        "N" | "4z" => Ok(Kind::NORTH),
        _ => Err(bad_argument(format!("{name:?}: a wind is E, S, W or N"))),
    }
}

/// The score of a win, as the replay scores every AGARI of a log: `hand` the concealed tiles with the winning
/// tile `win`, `melds` the calls in the order made (`["pon 555z", "chi 234m"]`, or Tenhou's codes), the situation as keywords;
/// `riichi` 0, 1 or 2 (double). A dict of the yaku (`[(name, han)]`, or the yakuman names, and both as
/// Tenhou's ids), `han`, `fu`,
/// `points` (before honba and sticks, as AGARI `ten` shows them) and `limit` (0 none ... 5 yakuman); `None`
/// when the hand is not complete or has no yaku.
#[pyfunction]
#[pyo3(signature = (hand, win, *, melds = Vec::new(), tsumo = false, seat_wind = "E", round_wind = "E",
    riichi = 0, ippatsu = false, rinshan = false, chankan = false, last_tile = false, first_draw = false,
    dora = "", ura = "", players = 4, red_fives = true, open_tanyao = true))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments, one per part of the situation
fn score<'py>(
    py: Python<'py>,
    hand: &str,
    win: &str,
    melds: Vec<Bound<'py, PyAny>>,
    tsumo: bool,
    seat_wind: &str,
    round_wind: &str,
    riichi: u8,
    ippatsu: bool,
    rinshan: bool,
    chankan: bool,
    last_tile: bool,
    first_draw: bool,
    dora: &str,
    ura: &str,
    players: u8,
    red_fives: bool,
    open_tanyao: bool,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let mut used = [false; 136];
    let win_tiles = take_tiles(win, &mut used)?;
    let [win_tile] = win_tiles[..] else {
        return Err(bad_argument(format!("win={win:?}: one tile, as \"5m\"")));
    };
    let mut concealed = take_tiles(hand, &mut used)?;
    concealed.push(win_tile);
    let melds: Vec<Meld> = melds.iter().map(|m| meld_of(m, &mut used)).collect::<PyResult<_>>()?;
    let called: usize = melds.iter().filter(|m| m.kind != MeldKind::Nuki).count();
    if concealed.len() + 3 * called != 14 {
        return Err(bad_argument(format!(
            "{hand:?} with the win tile and {called} melds: {} concealed tiles, not {}",
            concealed.len(),
            14 - 3 * called
        )));
    }
    let riichi = match riichi {
        0 => RiichiKind::None,
        1 => RiichiKind::Riichi,
        2 => RiichiKind::Double,
        r => return Err(bad_argument(format!("riichi={r}: 0, 1 or 2 (double)"))),
    };
    let mut indicators = [false; 136];
    let ctx = WinContext {
        ruleset: Ruleset { players, red_fives, open_tanyao },
        tsumo,
        seat_wind: wind_of(seat_wind)?,
        round_wind: wind_of(round_wind)?,
        riichi,
        ippatsu,
        rinshan,
        chankan,
        last_tile,
        first_draw,
        dora_indicators: take_tiles(dora, &mut indicators)?,
        ura_indicators: take_tiles(ura, &mut indicators)?,
    };
    let Some(s) = score_win(&concealed, win_tile, &melds, &ctx) else { return Ok(None) };
    let d = PyDict::new(py);
    let name = |id: u8| haifu_rules::yaku_name(id).unwrap_or("?");
    let yaku: Vec<(&str, u8)> = s.yaku.iter().map(|&(id, han)| (name(id), han)).collect();
    let yakuman: Vec<&str> = s.yakuman.iter().map(|&id| name(id)).collect();
    d.set_item("yaku", yaku)?;
    d.set_item("yakuman", yakuman)?;
    // Tenhou's ids (AGARI `yaku`, `yakuman`), in Tenhou's order
    d.set_item("yaku_ids", s.yaku.clone())?;
    d.set_item("yakuman_ids", s.yakuman.iter().map(|&y| u16::from(y)).collect::<Vec<u16>>())?; // a list, not bytes
    d.set_item("han", s.han)?;
    d.set_item("fu", s.fu)?;
    d.set_item("points", s.points)?;
    d.set_item("limit", s.limit)?;
    d.set_item("dealer", s.dealer)?;
    Ok(Some(d))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(shanten, m)?)?;
    m.add_function(wrap_pyfunction!(ukeire, m)?)?;
    m.add_function(wrap_pyfunction!(score, m)?)?;
    Ok(())
}
