//! The lookup imitator (SPEC 4, thesis Algorithm 2): a decision's 14-tile state and a sequence table give a
//! ranked list of discard candidates (tile kinds), possibly empty.
//!
//! Order of the list:
//! 1. isolated honors (an honor held exactly once): non-value winds first, then value honors (dragons, the
//!    round wind, the seat wind), each group by kind (E S W N P F C);
//! 2. then the suit candidates of every suit whose exact `before` is in the table (a known mirror alone does
//!    not count): each distinct digit d held gives `after` = before minus one d, scored
//!    `count(before, after) + count(mirror(before), mirror(after))` (a self-mirror pair is counted twice,
//!    as the thesis writes it); all suits merged, by score descending, ties to the lower tile kind
//!    (1m..9m, 1p..9p, 1s..9s). Zero scores are ranked too.
//!
//! Each kind appears once: distinct digits of one suit give distinct kinds and suits and honors do not
//! overlap, so "duplicates keep their first place" never has to act.
//!
//! After a call the state is the hand before the call plus the called tile (the decisions table's `*_before`
//! shapes); the candidates are not filtered by what is left in hand after the call (applied as written).

use haifu_mining::Shape;
use haifu_rules::{HandNotation, Kind, Suit, KINDS};
use serde_json::{json, Value};

use crate::table::{count_in, SeqTable};

/// 5^i: the key weight of digit i+1.
pub const POW5: [u32; 9] = [1, 5, 25, 125, 625, 3_125, 15_625, 78_125, 390_625];

/// The winds that make a wind a value honor at this decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Winds {
    pub round: Kind,
    pub seat: Kind,
}

impl Default for Winds {
    /// East round, East seat (the dealer in East 1).
    fn default() -> Winds {
        Winds { round: Kind::EAST, seat: Kind::EAST }
    }
}

impl Winds {
    /// Winds of a seat (absolute, 0 = first dealer) in a round (`kyoku` from 0: East 1..4, South 1..4, ...).
    pub fn of_seat(kyoku: u8, seat: u8, players: u8) -> Winds {
        let np = players.clamp(3, 4);
        let dealer = kyoku % 4;
        let round = Kind::from_index(27 + (kyoku / 4).min(3));
        let seat = Kind::from_index(27 + (seat + np - dealer % np) % np);
        Winds { round, seat }
    }

    /// The winds named `round` and `seat` (E, S, W, N or 1z..4z); the error names the one that is not a wind.
    pub fn parse(round: &str, seat: &str) -> Result<Winds, String> {
        let wind = |text: &str, what: &str| -> Result<Kind, String> {
            match text.parse::<Kind>() {
                Ok(k) if k.is_wind() => Ok(k),
                _ => Err(format!("{what} {text:?} is not a wind (E, S, W or N)")),
            }
        };
        Ok(Winds { round: wind(round, "round wind")?, seat: wind(seat, "seat wind")? })
    }

    /// Dragons, the round wind and the seat wind.
    pub fn is_value(&self, k: Kind) -> bool {
        k.is_dragon() || k == self.round || k == self.seat
    }
}

/// One suit of a prepared state: its shape key, the mirror's key, and the digits held (bit d-1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SuitState {
    pub key: u32,
    pub mirror: u32,
    pub digits: u16,
}

impl SuitState {
    pub fn new(shape: Shape) -> SuitState {
        let digits = shape.digits().fold(0u16, |m, d| m | 1 << (d - 1));
        SuitState { key: shape.key(), mirror: shape.mirror().key(), digits }
    }
    pub fn shape(&self) -> Shape {
        Shape::from_key(self.key)
    }
}

/// A decision's state prepared once for ranking against any number of tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prepared {
    pub suits: [SuitState; 3],
    /// Isolated honors (kind indices) in ranking order; the first `n_iso` are used.
    iso: [u8; 7],
    n_iso: u8,
    /// Bit i: isolated honor `iso[i]` is a value honor.
    iso_value: u8,
}

impl Prepared {
    /// From a 34-count state.
    pub fn new(state: &[u8; KINDS], winds: Winds) -> Prepared {
        let shape = |s: usize| {
            let mut c = [0u8; 9];
            c.copy_from_slice(&state[s * 9..s * 9 + 9]);
            Shape(c)
        };
        let mut honors = [0u8; 7];
        honors.copy_from_slice(&state[27..]);
        Prepared::from_parts([shape(0), shape(1), shape(2)], &honors, winds)
    }

    /// From the three suit shapes (man, pin, sou) and the honor counts (E S W N P F C).
    pub fn from_parts(suits: [Shape; 3], honors: &[u8; 7], winds: Winds) -> Prepared {
        let mut iso = [0u8; 7];
        let mut n = 0usize;
        // non-value winds, then value honors; within each, by kind
        for value in [false, true] {
            for (i, &c) in honors.iter().enumerate() {
                let k = Kind::from_index(27 + i as u8);
                if c == 1 && winds.is_value(k) == value {
                    iso[n] = k.index();
                    n += 1;
                }
            }
        }
        let iso_value = (0..n).filter(|&i| winds.is_value(Kind::from_index(iso[i]))).fold(0u8, |m, i| m | 1 << i);
        Prepared { suits: suits.map(SuitState::new), iso, n_iso: n as u8, iso_value }
    }

    /// The isolated honors in ranking order.
    pub fn isolated_honors(&self) -> &[u8] {
        &self.iso[..usize::from(self.n_iso)]
    }
}

/// Where the true discard landed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ranked {
    /// The list is not empty (some suit's `before` is known, or an isolated honor exists).
    pub answered: bool,
    /// 1-based place of the kind in the list; `None` when it is not listed.
    pub rank: Option<u16>,
}

/// Scores of one suit's candidates into `out` (kind, score); returns whether the suit's `before` is known.
#[inline]
fn suit_scores(s: &SuitState, suit: usize, table: &SeqTable, out: &mut [(u8, u64); 27], n: &mut usize) -> bool {
    if s.digits == 0 {
        return false;
    }
    let run = table.afters(s.key);
    if run.is_empty() {
        return false;
    }
    let mirror_run = table.afters(s.mirror);
    let mut m = s.digits;
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        let after = s.key - POW5[i];
        // the mirror of "remove digit i+1" removes digit 9-i, whose weight is 5^(8-i)
        let mirror_after = s.mirror - POW5[8 - i];
        let score = u64::from(count_in(run, after)) + u64::from(count_in(mirror_run, mirror_after));
        out[*n] = ((suit * 9 + i) as u8, score);
        *n += 1;
    }
    true
}

/// The place of tile kind `kind` (0..34) in the candidate list, without building the list: the hot path of
/// the evaluation.
#[inline]
pub fn rank_of(p: &Prepared, table: &SeqTable, kind: u8) -> Ranked {
    let mut scores = [(0u8, 0u64); 27];
    let mut n = 0usize;
    let mut known = false;
    for (suit, s) in p.suits.iter().enumerate() {
        known |= suit_scores(s, suit, table, &mut scores, &mut n);
    }
    let n_iso = u16::from(p.n_iso);
    let answered = known || n_iso > 0;
    let rank = if usize::from(kind) >= 27 {
        p.isolated_honors().iter().position(|&k| k == kind).map(|i| i as u16 + 1)
    } else {
        scores[..n].iter().find(|&&(k, _)| k == kind).map(|&(_, st)| {
            let ahead = scores[..n].iter().filter(|&&(k, s)| s > st || (s == st && k < kind)).count();
            n_iso + ahead as u16 + 1
        })
    };
    Ranked { answered, rank }
}

/// Why a candidate is where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// An honor held once; `value`: dragon, round wind or seat wind (ranked after the other winds).
    IsolatedHonor { value: bool },
    /// A suit candidate: the sequence (before, after) and its mirror with their counts.
    Sequence {
        suit: Suit,
        before: Shape,
        after: Shape,
        count: u32,
        mirror_before: Shape,
        mirror_after: Shape,
        mirror_count: u32,
        /// count + mirror_count.
        score: u64,
    },
}

/// One entry of the ranked list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub kind: Kind,
    pub reason: Reason,
}

/// What each suit contributed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SuitNote {
    /// No tile of the suit in the state.
    Empty,
    /// The suit's `before` is not in the table (even if its mirror is): no candidates from it.
    Unknown { before: Shape, mirror_known: bool },
    /// The suit's `before` is known: one candidate per distinct digit.
    Known { before: Shape, afters_seen: usize },
}

/// The full ranked list with its reasons.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranking {
    pub candidates: Vec<Candidate>,
    /// Man, pin, sou.
    pub suits: [SuitNote; 3],
}

impl Ranking {
    /// The 1-based place of a kind, if listed.
    pub fn rank_of(&self, kind: Kind) -> Option<usize> {
        self.candidates.iter().position(|c| c.kind == kind).map(|i| i + 1)
    }
    pub fn kinds(&self) -> Vec<Kind> {
        self.candidates.iter().map(|c| c.kind).collect()
    }

    /// The candidates (`rank`, `tile`, `reason` and the sequences' counts) and each suit's note, as
    /// `haifu imitate suggest --json` prints them.
    pub fn to_json(&self) -> (Vec<Value>, Vec<Value>) {
        let candidates = self
            .candidates
            .iter()
            .enumerate()
            .map(|(i, c)| match &c.reason {
                Reason::IsolatedHonor { value } => {
                    json!({"rank": i + 1, "tile": c.kind.name(), "reason": "isolated_honor", "value_honor": value})
                }
                Reason::Sequence { suit, before, after, count, mirror_before, mirror_after, mirror_count, score } => {
                    json!({
                        "rank": i + 1, "tile": c.kind.name(), "reason": "sequence", "suit": suit.name(),
                        "before": before.to_string(), "after": after.to_string(), "count": count,
                        "mirror_before": mirror_before.to_string(), "mirror_after": mirror_after.to_string(),
                        "mirror_count": mirror_count, "score": score,
                    })
                }
            })
            .collect();
        let suits = self
            .suits
            .iter()
            .zip(["man", "pin", "sou"])
            .map(|(n, suit)| match n {
                SuitNote::Empty => json!({"suit": suit, "status": "empty"}),
                SuitNote::Unknown { before, mirror_known } => {
                    json!({"suit": suit, "before": before.to_string(), "status": "unknown", "mirror_known": mirror_known})
                }
                SuitNote::Known { before, afters_seen } => {
                    json!({"suit": suit, "before": before.to_string(), "status": "known", "afters_seen": afters_seen})
                }
            })
            .collect();
        (candidates, suits)
    }
}

/// A decision's state in Tenhou notation (`0` = red five): 14 tiles, or 3n+2 after calls.
pub fn decision_state(text: &str) -> Result<HandNotation, String> {
    let hand: HandNotation = text.parse().map_err(|e| format!("hand {text:?}: {e}"))?;
    let tiles: u32 = hand.counts.iter().map(|&n| u32::from(n)).sum();
    if tiles % 3 != 2 {
        return Err(format!("hand {text:?} holds {tiles} tiles: a decision's state holds 14 (3n+2 after calls)"));
    }
    Ok(hand)
}

/// Ranks the discard candidates of a 34-count state (SPEC 4), with the reason for each.
pub fn rank(state: &[u8; KINDS], winds: Winds, table: &SeqTable) -> Ranking {
    rank_prepared(&Prepared::new(state, winds), table)
}

/// As [`rank`], from a prepared state.
pub fn rank_prepared(p: &Prepared, table: &SeqTable) -> Ranking {
    let mut candidates: Vec<Candidate> = p
        .isolated_honors()
        .iter()
        .enumerate()
        .map(|(i, &k)| Candidate {
            kind: Kind::from_index(k),
            reason: Reason::IsolatedHonor { value: p.iso_value & (1 << i) != 0 },
        })
        .collect();
    let mut suit_cands: Vec<(u64, Candidate)> = Vec::new();
    let suits = std::array::from_fn(|si| {
        let s = &p.suits[si];
        let suit = Suit::ALL[si];
        let before = s.shape();
        if s.digits == 0 {
            return SuitNote::Empty;
        }
        let run = table.afters(s.key);
        if run.is_empty() {
            return SuitNote::Unknown { before, mirror_known: table.knows(s.mirror) };
        }
        let mirror_run = table.afters(s.mirror);
        for d in before.digits() {
            let i = usize::from(d - 1);
            let after = before.without(d).expect("digit held");
            let mirror_before = before.mirror();
            let mirror_after = after.mirror();
            let count = count_in(run, s.key - POW5[i]);
            let mirror_count = count_in(mirror_run, s.mirror - POW5[8 - i]);
            debug_assert_eq!(mirror_after.key(), s.mirror - POW5[8 - i]);
            let score = u64::from(count) + u64::from(mirror_count);
            let reason =
                Reason::Sequence { suit, before, after, count, mirror_before, mirror_after, mirror_count, score };
            suit_cands.push((score, Candidate { kind: suit.kind(d), reason }));
        }
        SuitNote::Known { before, afters_seen: run.len() }
    });
    // score descending, ties to the lower tile kind
    suit_cands.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.kind.cmp(&b.1.kind)));
    for (_, c) in suit_cands {
        if !candidates.iter().any(|x| x.kind == c.kind) {
            candidates.push(c);
        }
    }
    Ranking { candidates, suits }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winds_of_seats() {
        // East 1, dealer seat 0: seat 1 is South
        assert_eq!(Winds::of_seat(0, 1, 4), Winds { round: Kind::EAST, seat: "S".parse().unwrap() });
        // South 2 (kyoku 5), dealer seat 1: seat 0 is North
        assert_eq!(Winds::of_seat(5, 0, 4), Winds { round: "S".parse().unwrap(), seat: "N".parse().unwrap() });
        // 3 players, South 3 (kyoku 6), dealer seat 2: seat 0 is South, seat 1 West
        assert_eq!(Winds::of_seat(6, 0, 3).seat, "S".parse().unwrap());
        assert_eq!(Winds::of_seat(6, 1, 3).seat, "W".parse().unwrap());
    }

    #[test]
    fn prepared_keys_match_shapes() {
        let mut state = [0u8; KINDS];
        for k in [0, 0, 4, 8, 20, 33] {
            state[k] += 1;
        }
        let p = Prepared::new(&state, Winds::default());
        assert_eq!(p.suits[0].shape().to_string(), "1159");
        assert_eq!(Shape::from_key(p.suits[0].mirror).to_string(), "1599");
        assert_eq!(p.suits[0].digits, 0b1_0001_0001);
        assert_eq!(p.suits[1], SuitState::default());
        assert_eq!(p.isolated_honors(), &[33]);
    }
}
