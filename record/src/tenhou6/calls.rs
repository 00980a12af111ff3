//! The notation of a seat's takes and outs: tiles as numbers, calls as strings whose letter stands before the
//! called tile (`c` chi, `p` pon, `m` daiminkan, `k` kakan, `a` ankan, `f` nuki), riichi as `r` + tile.

use haifu_rules::{Kind, Meld, MeldKind, Tile};
use serde_json::Value;

use super::json::{array, int};

/// A tile as tenhou.net/6 writes it: 11-19, 21-29, 31-39, 41-47, 51-53 (red fives).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Code(pub(super) u8);

impl Code {
    pub(super) fn new(n: i64) -> Option<Code> {
        matches!(n, 11..=19 | 21..=29 | 31..=39 | 41..=47 | 51..=53).then_some(Code(n as u8))
    }
    pub(super) fn kind(self) -> Kind {
        let (suit, digit) = if self.0 >= 51 { (self.0 - 51, 5) } else { (self.0 / 10 - 1, self.0 % 10) };
        Kind::from_index(suit * 9 + digit - 1)
    }
    pub(super) fn red(self) -> bool {
        self.0 >= 51
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.kind(), if self.red() { "r" } else { "" })
    }
}

pub(super) fn code(v: &Value, what: &str) -> Result<Code, String> {
    let n = int(v, what)?;
    Code::new(n).ok_or_else(|| format!("{what}: {n} is not a tile"))
}

pub(super) fn codes(v: &Value, what: &str) -> Result<Vec<Code>, String> {
    array(v, what)?.iter().map(|x| code(x, what)).collect()
}

/// A call on a discard: the tiles from the hand (2 or 3), the called tile and its source relative to the caller
/// (1 shimocha, 2 toimen, 3 kamicha: the mjlog `from`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Call {
    pub(super) kind: MeldKind,
    pub(super) called: Code,
    pub(super) hand: [Code; 3],
    pub(super) n_hand: usize,
    pub(super) from: u8,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Take {
    Draw(Code),
    Call(Call),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Out {
    Discard(Code),
    Tsumogiri,
    /// Riichi with this discard; `None` = `r60`, riichi tsumogiri.
    Riichi(Option<Code>),
    Ankan(Kind),
    /// Kakan: the tile added from the hand.
    Kakan(Code),
    Nuki(Code),
    /// `0`: the out slot of a daiminkan.
    KanSlot,
}

/// Where the letter of a call on a discard stands (the place of the called tile), by its source `from`: kamicha
/// first, toimen second, shimocha last (a kakan's `k` stands where its pon's `p` stood).
fn letter_at(kind: MeldKind, from: u8) -> Option<usize> {
    match (kind, from) {
        (MeldKind::Chi | MeldKind::Pon | MeldKind::Daiminkan, 3) => Some(0),
        (MeldKind::Pon | MeldKind::Daiminkan, 2) => Some(1),
        (MeldKind::Pon, 1) => Some(2),
        (MeldKind::Daiminkan, 1) => Some(3),
        _ => None,
    }
}

/// Splits a meld string (`"4545p45"`) into its letter, the letter's tile position, and the tiles.
pub(super) fn meld_string(s: &str) -> Result<(char, usize, Vec<Code>), String> {
    let bad = || format!("{s:?} is not a call string");
    let letter_at = s.find(|c: char| c.is_ascii_alphabetic()).ok_or_else(bad)?;
    let letter = s[letter_at..].chars().next().ok_or_else(bad)?;
    let digits: String = s.chars().filter(|c| !c.is_ascii_alphabetic()).collect();
    let letters = s.chars().filter(char::is_ascii_alphabetic).count();
    if !letter_at.is_multiple_of(2)
        || !digits.len().is_multiple_of(2)
        || letters != 1
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    let tiles = (0..digits.len() / 2)
        .map(|i| digits[2 * i..2 * i + 2].parse::<i64>().ok().and_then(Code::new).ok_or_else(bad))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((letter, letter_at / 2, tiles))
}

pub(super) fn take(v: &Value) -> Result<Take, String> {
    let s = match v {
        Value::String(s) => s,
        _ => return code(v, "take").map(Take::Draw),
    };
    let (letter, at, tiles) = meld_string(s)?;
    let not_a_call = || format!("take {s:?} is not a chi, pon or daiminkan");
    let kind = match (letter, tiles.len()) {
        ('c', 3) => MeldKind::Chi,
        ('p', 3) => MeldKind::Pon,
        ('m', 4) => MeldKind::Daiminkan,
        _ => return Err(not_a_call()),
    };
    let from = [3, 2, 1].into_iter().find(|&f| letter_at(kind, f) == Some(at)).ok_or_else(not_a_call)?;
    let mut hand = [tiles[0]; 3];
    let mut n_hand = 0;
    for (i, &t) in tiles.iter().enumerate() {
        if i != at {
            hand[n_hand] = t;
            n_hand += 1;
        }
    }
    Ok(Take::Call(Call { kind, called: tiles[at], hand, n_hand, from }))
}

pub(super) fn out(v: &Value) -> Result<Out, String> {
    let s = match v {
        Value::String(s) => s,
        _ => {
            return match int(v, "discard")? {
                0 => Ok(Out::KanSlot),
                60 => Ok(Out::Tsumogiri),
                n => Code::new(n).map(Out::Discard).ok_or_else(|| format!("discard {n} is not a tile")),
            }
        }
    };
    if let Some(rest) = s.strip_prefix('r') {
        return match rest.parse::<i64>() {
            Ok(60) => Ok(Out::Riichi(None)),
            Ok(n) => Code::new(n).map(|c| Out::Riichi(Some(c))).ok_or_else(|| format!("riichi discard {s:?}")),
            Err(_) => Err(format!("{s:?} is not a riichi discard")),
        };
    }
    let (letter, at, tiles) = meld_string(s)?;
    let same_kind = tiles.iter().all(|t| t.kind() == tiles[0].kind());
    match (letter, tiles.len()) {
        ('a', 4) if same_kind => Ok(Out::Ankan(tiles[0].kind())),
        ('k', 4) if same_kind && at < 3 => Ok(Out::Kakan(tiles[at])),
        ('f', 1) if tiles[0].kind() == Kind::NORTH => Ok(Out::Nuki(tiles[0])),
        _ => Err(format!("out {s:?} is not a discard, ankan, kakan or nuki")),
    }
}

/// The tenhou.net/6 code of a physical tile (red fives as 51-53 in games with them).
pub(super) fn tile_code(t: Tile, red: bool) -> i64 {
    let k = t.kind();
    if red && t.is_red_id() {
        return 51 + i64::from(k.index() / 9);
    }
    i64::from(k.index() / 9 + 1) * 10 + i64::from(k.digit())
}

/// A meld as the format spells it: the take of a call on a discard (`c` chi, `p` pon, `m` daiminkan), or the out
/// of an ankan (`a` before the fourth tile, as Tenhou writes it), a kakan (`k` and the added tile where the pon's
/// `p` stood) or a nuki (`f`). The letter stands before the tile it names; tiles from the hand in id order.
pub(super) fn meld_notation(m: &Meld, red: bool) -> Result<String, String> {
    let code = |t: Tile| tile_code(t, red);
    let called = m.called.map(code).ok_or_else(|| format!("{} without its called tile", m.kind.name()));
    let place = |kind: MeldKind| {
        letter_at(kind, m.from).ok_or_else(|| format!("{} from relative seat {}", m.kind.name(), m.from))
    };
    let (letter, tiles, at) = match m.kind {
        MeldKind::Chi | MeldKind::Pon | MeldKind::Daiminkan => {
            let at = place(m.kind)?;
            let mut tiles: Vec<i64> = m.from_hand().map(code).collect();
            tiles.insert(at, called?);
            let letter = match m.kind {
                MeldKind::Chi => 'c',
                MeldKind::Pon => 'p',
                _ => 'm',
            };
            (letter, tiles, at)
        }
        MeldKind::Kakan => {
            let pon = m.pon_of_kakan().ok_or("kakan without its added tile")?;
            let at = place(MeldKind::Pon)?;
            let mut tiles: Vec<i64> = pon.from_hand().map(code).collect();
            tiles.insert(at, called?);
            tiles.insert(at, code(m.added.ok_or("kakan without its added tile")?));
            ('k', tiles, at)
        }
        MeldKind::Ankan => ('a', m.tiles().iter().copied().map(code).collect(), 3),
        MeldKind::Nuki => ('f', vec![code(m.tiles()[0])], 0),
    };
    let mut s = String::with_capacity(2 * tiles.len() + 1);
    for (i, t) in tiles.iter().enumerate() {
        if i == at {
            s.push(letter);
        }
        s.push_str(&t.to_string());
    }
    Ok(s)
}
