//! Winning-hand decomposition: every way the concealed part of a complete hand splits into one pair and
//! sets (sequences and triplets). Scoring (fu, yaku such as pinfu, iipeikou or sanankou) needs all of them,
//! since the same tiles can read several ways (111222333m: three triplets or three identical sequences).
//! Seven pairs and thirteen orphans are forms of their own ([`Form`]).

use crate::hand::Counts;
use crate::tile::{Kind, KINDS};

/// A set of three tiles in the concealed hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Set {
    /// A sequence starting at this kind (its digit is 1..7).
    Sequence(Kind),
    Triplet(Kind),
}

/// One reading of a regular hand: the pair and the sets, sets in ascending order.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Decomposition {
    pub pair: Kind,
    pub sets: Vec<Set>,
}

/// The complete forms a concealed hand takes (several at once: 22334455m + ... can be both regular and
/// seven pairs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Forms {
    /// Every regular reading (pair + sets), sorted; empty when there is none.
    pub regular: Vec<Decomposition>,
    /// Seven distinct pairs (14 tiles, no melds).
    pub seven_pairs: bool,
    /// Thirteen orphans (14 tiles, no melds).
    pub thirteen_orphans: bool,
}

impl Forms {
    pub fn is_complete(&self) -> bool {
        !self.regular.is_empty() || self.seven_pairs || self.thirteen_orphans
    }
}

/// Every complete form of a concealed hand of 3n + 2 tiles (the melds are not part of `counts`).
pub fn forms(counts: &Counts) -> Forms {
    let tiles: u32 = counts.iter().map(|&c| u32::from(c)).sum();
    let mut f = Forms { regular: decompositions(counts), ..Forms::default() };
    if tiles == 14 {
        f.seven_pairs = counts.iter().filter(|&&c| c == 2).count() == 7;
        let orphans = (0..KINDS as u8).map(Kind::from_index).filter(|k| k.is_yaochuu());
        let mut pair = false;
        f.thirteen_orphans = orphans.clone().all(|k| counts[usize::from(k.index())] >= 1)
            && orphans.clone().all(|k| {
                let c = counts[usize::from(k.index())];
                pair |= c == 2;
                c <= 2
            })
            && pair;
    }
    f
}

/// Tenpai as Tenhou counts it at an exhaustive draw (who shows the hand and is paid): a concealed hand of
/// 3n + 1 tiles that one more tile completes, unless every tile that would complete it is a fifth copy of a
/// kind the concealed hand already holds four times (1111m 23p ... waiting only on 1m: noten).
///
/// Only the concealed hand counts. Copies in the player's own melds do not (a pon of 5p beside a single wait
/// on the fourth 5p, or chi 123s and pon 333s beside a 2s-4s wait: Tenhou shows and pays both as tenpai),
/// nor do copies other players show or discard, nor dora indicators. Read off Tenhou's records: the corpus
/// has one noten hand whose only wait is held four times in the hand; unseen houou games show the meld
/// cases paid as tenpai.
pub fn tenpai_at_draw(counts: &Counts) -> bool {
    let tiles: u32 = counts.iter().map(|&c| u32::from(c)).sum();
    if tiles % 3 != 1 {
        return false;
    }
    let mut c = *counts;
    (0..KINDS).any(|k| {
        if c[k] >= 4 {
            return false;
        }
        c[k] += 1;
        let complete = forms(&c).is_complete();
        c[k] -= 1;
        complete
    })
}

/// Every regular reading of a concealed hand of 3n + 2 tiles, sorted and without repeats; empty when the hand
/// is not complete that way (or has the wrong number of tiles).
pub fn decompositions(counts: &Counts) -> Vec<Decomposition> {
    let tiles: u32 = counts.iter().map(|&c| u32::from(c)).sum();
    let mut out = Vec::new();
    if tiles % 3 != 2 {
        return out;
    }
    let mut work = *counts;
    for p in 0..KINDS {
        if work[p] < 2 {
            continue;
        }
        work[p] -= 2;
        let mut sets = Vec::with_capacity(4);
        sets_from(&mut work, 0, &mut sets, &mut |sets| {
            let mut sets = sets.to_vec();
            sets.sort_unstable();
            out.push(Decomposition { pair: Kind::from_index(p as u8), sets });
        });
        work[p] += 2;
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Splits `work` (from kind `from` on) into sets; calls `found` with each complete split.
fn sets_from(work: &mut Counts, from: usize, sets: &mut Vec<Set>, found: &mut dyn FnMut(&[Set])) {
    // the lowest kind left must start a set: a triplet of it, or a sequence from it
    let Some(k) = (from..KINDS).find(|&k| work[k] > 0) else {
        found(sets);
        return;
    };
    let kind = Kind::from_index(k as u8);
    if work[k] >= 3 {
        work[k] -= 3;
        sets.push(Set::Triplet(kind));
        sets_from(work, k, sets, found);
        sets.pop();
        work[k] += 3;
    }
    if !kind.is_honor() && kind.digit() <= 7 && work[k + 1] > 0 && work[k + 2] > 0 {
        work[k..k + 3].iter_mut().for_each(|c| *c -= 1);
        sets.push(Set::Sequence(kind));
        sets_from(work, k, sets, found);
        sets.pop();
        work[k..k + 3].iter_mut().for_each(|c| *c += 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::HandNotation;

    fn counts(s: &str) -> Counts {
        s.parse::<HandNotation>().unwrap().counts
    }

    fn k(s: &str) -> Kind {
        s.parse().unwrap()
    }

    #[test]
    fn tenpai_at_the_draw_counts_the_concealed_hand_only() {
        // the only wait is a fifth 1z: the hand holds four
        assert!(!tenpai_at_draw(&counts("1111z123m456p789s")));
        // 1111234m: waits on 1m (a fifth) and 4m: tenpai
        assert!(tenpai_at_draw(&counts("1111234m456p789s")));
        // beside a pon of 5p (not part of the concealed counts): a single wait on the fourth 5p is tenpai
        assert!(tenpai_at_draw(&counts("678m5p678s")));
        // 2s-4s kanchan beside chi 123s and pon 333s
        assert!(tenpai_at_draw(&counts("24678s99s")));
        assert!(!tenpai_at_draw(&counts("13579m13579p135s")), "far from ready");
        assert!(!tenpai_at_draw(&counts("123m456p789s11z")), "3n+2 tiles");
    }

    #[test]
    fn readings_of_ambiguous_hands() {
        // three triplets or three identical sequences
        let d = decompositions(&counts("111222333m456p77s"));
        assert_eq!(d.len(), 2, "{d:?}");
        assert!(d.iter().all(|x| x.pair == k("7s")));
        assert!(d.iter().any(|x| x.sets.contains(&Set::Triplet(k("1m")))));
        assert!(d.iter().any(|x| x.sets.iter().filter(|s| **s == Set::Sequence(k("1m"))).count() == 3));
        // 1112345678999m: the pure nine gates with 5m: one reading per pair place
        let d = decompositions(&counts("11123455678999m"));
        assert!(!d.is_empty());
        assert!(d.iter().all(|x| x.sets.len() == 4));
        // not complete
        assert!(decompositions(&counts("123m456p789s1234z")).is_empty());
        assert!(decompositions(&counts("123m")).is_empty(), "3n tiles");
        // honors never make sequences
        assert!(decompositions(&counts("123z55m")).is_empty());
        // after calls: 2 or 5 concealed tiles
        assert_eq!(decompositions(&counts("55z")), vec![Decomposition { pair: k("P"), sets: vec![] }]);
    }

    #[test]
    fn special_forms() {
        let f = forms(&counts("119m19p19s1234567z"));
        assert!(f.thirteen_orphans && !f.seven_pairs && f.regular.is_empty());
        assert!(forms(&counts("19m19p19s12345677z")).thirteen_orphans, "the pair may be any of the 13");
        assert!(!forms(&counts("19m19p19s12345666z")).thirteen_orphans, "no 7z");
        let f = forms(&counts("223344m556677p11z"));
        assert!(f.seven_pairs && !f.regular.is_empty(), "both readings: {f:?}");
        assert!(!forms(&counts("11112233m445566p")).seven_pairs, "four of a kind is not two pairs");
    }
}
