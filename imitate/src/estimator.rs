//! The strategy estimator (SPEC 3): a transparent rule-based stand-in for the thesis's unpublished heuristic.
//!
//! It looks at the whole hand: the concealed tiles plus the melded ones (a kan counted as three tiles, so the
//! thresholds read on a 14-tile hand). The rules, tried in this order, first match wins:
//! 1. **yakuhai**: two or more tiles of one value honor (a dragon, the round wind or the seat wind), in hand or
//!    melded (a pair is one step from the yaku; a pon is the yaku).
//! 2. **tanyao**: at most one terminal or honor tile in the whole hand ([`TANYAO_MAX_YAOCHUU`]), and none of
//!    them melded (a melded one can never leave).
//! 3. **chanta**: at most [`CHANTA_MAX_MIDDLE`] tiles of 4, 5 or 6, at least [`CHANTA_MIN_YAOCHUU`] terminal or
//!    honor tiles, and every meld holds a terminal or honor (a meld without one breaks chanta for good).
//! 4. otherwise **undetermined**.
//!
//! In a round the estimate is tried at each of the player's decisions while undetermined, and stays fixed for
//! the rest of the round once decided ([`RoundEstimator`]).

use haifu_mining::Strategy;
use haifu_rules::{Kind, MjaiTile, KINDS};
use serde::Serialize;

use crate::rank::Winds;

/// The rules in one line, for reports.
pub const RULES: &str = "yakuhai: a pair or more of a value honor (dragon, round wind, seat wind), melds included; \
tanyao: at most 1 terminal/honor tile, none melded; chanta: no 4-6 tile, at least 5 terminal/honor tiles, every \
meld with a terminal/honor; else undetermined (first match; fixed for the round once decided)";

/// Rule 2: most terminal or honor tiles a tanyao hand may still hold.
pub const TANYAO_MAX_YAOCHUU: u8 = 1;
/// Rule 3: most tiles of 4-6 a chanta hand may still hold.
pub const CHANTA_MAX_MIDDLE: u8 = 0;
/// Rule 3: fewest terminal or honor tiles for chanta.
pub const CHANTA_MIN_YAOCHUU: u8 = 5;

/// What the melds add to the concealed hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeldSummary {
    /// Melded tiles by kind, a kan counted as three (nuki north tiles are not counted: they are bonus tiles).
    pub tiles: [u8; KINDS],
    /// Melds (chi, pon, kans) held.
    pub melds: u8,
    /// Melds with a terminal or honor tile.
    pub melds_with_yaochuu: u8,
}

impl Default for MeldSummary {
    fn default() -> MeldSummary {
        MeldSummary { tiles: [0; KINDS], melds: 0, melds_with_yaochuu: 0 }
    }
}

impl MeldSummary {
    /// From the decisions table's `melds` strings (`chi:3p4p5p`, `pon:PPP`, `kakan:5m5m5m5mr`, `nuki:N`).
    /// Unreadable entries are skipped.
    pub fn from_strings<'a>(melds: impl IntoIterator<Item = &'a str>) -> MeldSummary {
        let mut m = MeldSummary::default();
        for text in melds {
            let Some((kind, tiles)) = text.split_once(':') else { continue };
            if kind == "nuki" {
                continue;
            }
            let kinds = parse_tiles(tiles);
            if kinds.is_empty() {
                continue;
            }
            m.add(&kinds);
        }
        m
    }

    /// From the kinds of each meld's tiles.
    pub fn from_kinds(melds: &[&[Kind]]) -> MeldSummary {
        let mut m = MeldSummary::default();
        for k in melds {
            m.add(k);
        }
        m
    }

    fn add(&mut self, kinds: &[Kind]) {
        // a kan counts as three tiles so that the hand reads as 14
        for k in kinds.iter().take(3) {
            self.tiles[usize::from(k.index())] += 1;
        }
        self.melds += 1;
        if kinds.iter().any(|k| k.is_yaochuu()) {
            self.melds_with_yaochuu += 1;
        }
    }
}

/// `3p4p5p`, `PPP`, `5m5m5m5mr` -> kinds.
fn parse_tiles(s: &str) -> Vec<Kind> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(4);
    let mut i = 0;
    while i < b.len() {
        let len = if b[i].is_ascii_digit() {
            if b.get(i + 2) == Some(&b'r') {
                3
            } else {
                2
            }
        } else {
            1
        };
        let Some(t) = s.get(i..(i + len).min(b.len())).and_then(|t| t.parse::<MjaiTile>().ok()) else {
            return Vec::new();
        };
        out.push(t.kind);
        i += len;
    }
    out
}

/// The estimate for one decision (rules in the module documentation). `concealed`: the concealed hand at the
/// decision (after the draw or call, before the discard).
// the chanta limit on middle tiles is a tunable constant, 0 today
#[allow(clippy::absurd_extreme_comparisons)]
pub fn estimate(concealed: &[u8; KINDS], melds: &MeldSummary, winds: Winds) -> Option<Strategy> {
    let mut all = *concealed;
    for (a, m) in all.iter_mut().zip(melds.tiles) {
        *a += m;
    }
    let kind = |i: usize| Kind::from_index(i as u8);
    if (27..KINDS).any(|i| all[i] >= 2 && winds.is_value(kind(i))) {
        return Some(Strategy::Yakuhai);
    }
    let yaochuu: u8 = (0..KINDS).filter(|&i| kind(i).is_yaochuu()).map(|i| all[i]).sum();
    let melded_yaochuu = melds.melds_with_yaochuu > 0;
    if yaochuu <= TANYAO_MAX_YAOCHUU && !melded_yaochuu {
        return Some(Strategy::Tanyao);
    }
    let middle: u8 = (0..27).filter(|&i| (4..=6).contains(&kind(i).digit())).map(|i| all[i]).sum();
    if middle <= CHANTA_MAX_MIDDLE && yaochuu >= CHANTA_MIN_YAOCHUU && melds.melds_with_yaochuu == melds.melds {
        return Some(Strategy::Chanta);
    }
    None
}

/// Per round: retried while undetermined, fixed once decided.
#[derive(Clone, Copy, Debug, Default)]
pub struct RoundEstimator {
    fixed: Option<Strategy>,
}

impl RoundEstimator {
    /// The strategy at this decision, given the decision's own estimate.
    pub fn next(&mut self, estimate: Option<Strategy>) -> Option<Strategy> {
        if self.fixed.is_none() {
            self.fixed = estimate;
        }
        self.fixed
    }
    pub fn fixed(&self) -> Option<Strategy> {
        self.fixed
    }
}

/// Index of an estimate in [`Confusion`]: 0 undetermined, 1 tanyao, 2 chanta, 3 yakuhai.
pub fn estimate_index(s: Option<Strategy>) -> usize {
    match s {
        None | Some(Strategy::All) => 0,
        Some(Strategy::Tanyao) => 1,
        Some(Strategy::Chanta) => 2,
        Some(Strategy::Yakuhai) => 3,
    }
}

/// The strategies a win realised, as bits: 1 tanyao, 2 chanta, 4 yakuhai.
pub fn realised_bits(yaku: &[u8]) -> u8 {
    Strategy::yaku_bits(yaku)
}

/// How the estimate compares with the realised strategy yaku on won rounds.
///
/// `rounds[e][r]`: rounds the player won, `e` the round's fixed estimate ([`estimate_index`]; 0 = still
/// undetermined at the last decision), `r` the realised strategies as bits ([`realised_bits`]; 0 = none of
/// the three, 5 = tanyao and yakuhai, ...). `decisions[e][r]`: the same per decision, `e` the strategy in
/// force at that decision.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Confusion {
    pub rounds: [[u64; 8]; 4],
    pub decisions: [[u64; 8]; 4],
}

impl Confusion {
    /// Counts one won round: the estimates of its decisions in order, and the realised bits.
    pub fn add_round(&mut self, estimates: impl IntoIterator<Item = Option<Strategy>>, realised: u8) {
        let r = usize::from(realised & 7);
        let mut est = RoundEstimator::default();
        for e in estimates {
            self.decisions[estimate_index(est.next(e))][r] += 1;
        }
        self.rounds[estimate_index(est.fixed())][r] += 1;
    }

    pub fn total_rounds(&self) -> u64 {
        self.rounds.iter().flatten().sum()
    }

    /// Won rounds whose fixed estimate is one of the strategies realised.
    pub fn rounds_agree(&self) -> u64 {
        (1..4).map(|e| (0..8).filter(|r| r & (1 << (e - 1)) != 0).map(|r| self.rounds[e][r]).sum::<u64>()).sum()
    }

    /// Won rounds with a decided estimate.
    pub fn rounds_decided(&self) -> u64 {
        self.rounds[1..].iter().flatten().sum()
    }

    /// Won rounds that realised at least one of the three strategies.
    pub fn rounds_with_strategy(&self) -> u64 {
        self.rounds.iter().map(|row| row[1..].iter().sum::<u64>()).sum()
    }

    /// Per strategy (tanyao, chanta, yakuhai): (estimated, estimated and realised, realised).
    pub fn per_strategy(&self) -> [(u64, u64, u64); 3] {
        std::array::from_fn(|i| {
            let e = i + 1;
            let bit = 1usize << i;
            let estimated: u64 = self.rounds[e].iter().sum();
            let hit: u64 = (0..8).filter(|r| r & bit != 0).map(|r| self.rounds[e][r]).sum();
            let realised: u64 =
                self.rounds.iter().map(|row| (0..8).filter(|r| r & bit != 0).map(|r| row[r]).sum::<u64>()).sum();
            (estimated, hit, realised)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use haifu_rules::HandNotation;

    fn counts(s: &str) -> [u8; KINDS] {
        s.parse::<HandNotation>().unwrap().counts
    }

    #[test]
    fn rules_in_order() {
        let w = Winds::default(); // East round, East seat
                                  // a pair of chun: yakuhai
        assert_eq!(estimate(&counts("123m456p789s1277z"), &MeldSummary::default(), w), Some(Strategy::Yakuhai));
        // a pair of South is no value for East/East: falls through (two honors: no tanyao; middles: no chanta)
        assert_eq!(estimate(&counts("123m456p789s1322z"), &MeldSummary::default(), w), None);
        // South seat makes it value
        let south = Winds { round: Kind::EAST, seat: "S".parse().unwrap() };
        assert_eq!(estimate(&counts("123m456p789s1322z"), &MeldSummary::default(), south), Some(Strategy::Yakuhai));
        // one terminal: tanyao; two: not
        assert_eq!(estimate(&counts("234m456p678s23459m"), &MeldSummary::default(), w), Some(Strategy::Tanyao));
        assert_eq!(estimate(&counts("234m456p678s2349m1p"), &MeldSummary::default(), w), None);
        // only 1-2-3 / 7-8-9 and honors, five of them terminal or honor: chanta
        assert_eq!(estimate(&counts("123m789p12399s123z"), &MeldSummary::default(), w), Some(Strategy::Chanta));
        // one 4: no chanta
        assert_eq!(estimate(&counts("123m789p12349s123z"), &MeldSummary::default(), w), None);
    }

    #[test]
    fn melds_count() {
        let w = Winds::default();
        // a pon of haku, nothing of it in hand
        let pon = MeldSummary::from_strings(["pon:PPP"]);
        assert_eq!(pon.tiles[31], 3);
        assert_eq!(estimate(&counts("234m456p678s55m"), &pon, w), Some(Strategy::Yakuhai));
        // a chi with a terminal forbids tanyao
        let chi = MeldSummary::from_strings(["chi:1m2m3m"]);
        assert_eq!((chi.melds, chi.melds_with_yaochuu), (1, 1));
        assert_eq!(estimate(&counts("456p678s55m688p"), &chi, w), None);
        // a meld without terminal or honor breaks chanta: the same tiles closed would be chanta
        let mid = MeldSummary::from_strings(["pon:2p2p2p", "nuki:N"]);
        assert_eq!((mid.melds, mid.melds_with_yaochuu), (1, 0));
        assert_eq!(estimate(&counts("123m789s99p123z"), &mid, w), None);
        assert_eq!(estimate(&counts("123m789s99p123z222p"), &MeldSummary::default(), w), Some(Strategy::Chanta));
        // a kan counts three
        let kan = MeldSummary::from_strings(["kakan:5m5m5m5mr"]);
        assert_eq!(kan.tiles[4], 3);
    }

    #[test]
    fn confusion_fixes_the_first_decided() {
        let mut c = Confusion::default();
        // undetermined, then yakuhai, then tanyao (ignored: fixed); the round realised yakuhai + chanta
        c.add_round([None, Some(Strategy::Yakuhai), Some(Strategy::Tanyao)], realised_bits(&[18, 23]));
        // never decided; realised tanyao
        c.add_round([None, None], realised_bits(&[8]));
        assert_eq!(realised_bits(&[18, 23]), 6);
        assert_eq!(c.rounds[3][6], 1);
        assert_eq!(c.rounds[0][1], 1);
        assert_eq!(c.decisions[0][6], 1);
        assert_eq!(c.decisions[3][6], 2);
        assert_eq!(c.decisions[0][1], 2);
        assert_eq!((c.total_rounds(), c.rounds_agree(), c.rounds_decided(), c.rounds_with_strategy()), (2, 1, 1, 2));
        assert_eq!(c.per_strategy()[2], (1, 1, 1));
        assert_eq!(c.per_strategy()[0], (0, 0, 1));
    }
}
