//! Shanten numbers, table-based.
//!
//! # Definition
//!
//! A concealed hand of `3n+1` or `3n+2` tiles (`n = 0..=4`; `4 - n` melds are called and not passed in) is
//! measured against every *complete* hand `H` of `3n+2` tiles: `n` melds (sequences or triplets) plus a pair,
//! never more than four copies of a kind, and for `n = 4` also seven pairs and thirteen orphans. The distance
//! `d = min_H |H \ hand|` is the number of tiles the hand still has to draw (each one replacing a discard),
//! and the shanten number is `d - 1`: -1 complete, 0 tenpai, 1 iishanten, ...
//!
//! Because `H` may hold at most four copies of a kind, this is the *exact* exchange distance: a hand such as
//! `123m456p789s1111z` (13 tiles) is 1-shanten, not tenpai, since it would wait on a fifth East. Seven pairs
//! follow Tenhou: the seven pairs must be of distinct kinds (four of a kind is one pair, not two).
//!
//! # Method
//!
//! `|H \ hand|` splits over the four groups man / pin / sou / honors, so
//! `d = min over (m_g, p_g) with Σ m_g = n, Σ p_g = 1 of Σ_g D_g(m_g, p_g)`, where `D_g(m, p)` is the least
//! number of tiles to add to the group's tiles so that they contain `m` melds and `p` pairs. This is a
//! min-plus convolution of four 5×2 vectors.
//!
//! * Suits: `D(shape, m, p)` is computed for every suit shape, the nine counts 0..=4 whose sum is at most 14:
//!   405 350 shapes, each with 10 entries (`m = 0..=4`, `p = 0..=1`). The shape's index is its rank in
//!   lexicographic order, computed with a 9×15×5 table of offsets, or at call time with two lookups (the
//!   base-5 numbers of digits 1-5 and of digits 6-9, the latter with the tiles of the former).
//! * Honors form only triplets and pairs of distinct kinds, so the best choice is closed-form: triplets from
//!   the `m` most numerous kinds and the pair from the next one (an exchange argument shows this is optimal).
//!   It depends only on how many kinds are held once, twice, three and four times, so it is read from a
//!   4096-entry table built at compile time, indexed by `Σ 8^(count-1)` over the seven honors.
//!
//! Seven pairs (`6 - pairs + max(0, 7 - kinds)`) and thirteen orphans (`13 - kinds - [some orphan paired]`)
//! are closed formulas.
//!
//! # Classes
//!
//! The 405 350 suit vectors take only 126 distinct values and the honors' 55, so each group is reduced to a
//! one-byte class, and the convolutions are tabulated over classes (see [`Tables`]): man × pin → a class,
//! × sou → a class, × honors → the distance for each `n`. A call is then a vectorised pass over the counts
//! (validity, and the counts seven pairs and thirteen orphans need), three ranks, four class loads and three
//! loads from small tables (180 classes for two suits, 180 for three; 16, 23 and 11.5 kB per hand size). The
//! tables take about 510 kB, 405 kB of it the suit classes; the 4 MB of vectors exist only while the build script runs.
//!
//! # Building the suit table
//!
//! The tables are computed when the crate is compiled (`rules/build.rs` runs `shanten_tables::build` and the
//! library includes its output), nothing is checked in or needs regenerating: writing `E(c)` for the
//! largest overlap `max_{h ∈ T(m,p)} |min(c, h)|` of a shape `c` with a suit target `h` (m melds + p pairs,
//! counts ≤ 4), `D = 3m + 2p - E`, and
//!
//! 1. `c` is a sub-multiset of some target iff `c` is a target or some `c + e_i` (sum ≤ 14) is such a
//!    sub-multiset: one pass in decreasing rank order, a 10-bit mask per shape;
//! 2. then `E(c) = |c|` if `c` is such a sub-multiset, else `E(c) = max_i E(c - e_i)` (the best overlap misses
//!    some tile of `c`): one pass in increasing rank order.
//!
//! This and the classes take about 2 s in the (unoptimised) build script, once per build; at run time they
//! had cost every process 0.5 G instructions at its first shanten. `cargo run --release -p haifu-rules
//! --example shanten_timing` prints the cost per call. The unit tests below build the tables again and check
//! the compiled-in ones against them, and sampled entries against an independent per-shape search;
//! `rules/tests/shanten.rs` checks whole hands against a kind-by-kind dynamic programme, an enumeration of
//! complete hands and an exhaustive exchange BFS.
use crate::hand::Counts;
pub use crate::shanten_tables::SUIT_SHAPES;
use crate::shanten_tables::{fast_rank, honor_index, ENTRY, HONOR_STRIDE, MAX_TILES, SUIT, SUIT_STRIDE};
use crate::tile::KINDS;

/// The lookup tables, compiled in from the build script's output.
///
/// Many shapes share one `(m, p)` vector, so each group's vector is replaced by a small *class* number, and
/// the min-plus convolutions are tabulated over classes: man and pin give a class of their convolution, that
/// and sou a class of the three suits' convolution, and that and the honors' class the distance for each
/// `n`. A regular-form shanten is then four class loads and three small-table loads, no arithmetic on
/// vectors. (The same reduction is the heart of Cryolite's Nyanten tables, which riichienv-core and
/// xiangting ship precomputed; here the classes are found by deduplicating the vectors at build time.)
struct Tables {
    /// Class of each suit shape, by rank.
    suit: &'static [u8; SUIT_SHAPES],
    /// The `(m, p)` vector of each suit class.
    suit_vecs: &'static [[u8; ENTRY]],
    /// Class of the honors, by [`honor_index`].
    honor: &'static [u8; 4096],
    /// `two[man * SUIT_STRIDE + pin]`: class of the convolution of two suits.
    two: &'static [u8],
    /// `three[two * SUIT_STRIDE + sou]`: class of the convolution of the three suits.
    three: &'static [u8],
    /// `dist[(n * three_n + three) * HONOR_STRIDE + honors]`: the least tiles to draw for `n` melds and a
    /// pair (`n` outermost: hands of one size, mostly 13 and 14 tiles, use one fifth of the table).
    dist: &'static [u8],
    /// Number of three-suit classes.
    three_n: usize,
}

// `static TABLES: Tables`, written by rules/build.rs
include!(concat!(env!("OUT_DIR"), "/shanten_tables.rs"));

#[inline(always)]
fn tables() -> &'static Tables {
    &TABLES
}

/// Least tiles to add to one suit (nine counts) for each `(m, p)`, index `2m + p`; the suit must hold ≤ 14
/// tiles and each count must be ≤ 4.
pub fn suit_entry(suit: &[u8; SUIT]) -> [u8; ENTRY] {
    assert!(suit.iter().all(|&c| c <= 4) && suit.iter().map(|&c| usize::from(c)).sum::<usize>() <= MAX_TILES);
    let t = tables();
    t.suit_vecs[usize::from(t.suit[fast_rank(suit)])]
}

/// Regular-form shanten for `n` concealed melds and a pair; the hand must be valid ([`hand_size`]).
#[inline(always)]
fn regular(counts: &Counts, n: usize) -> i8 {
    Groups::new(counts, n).regular()
}

/// Number of tiles in the hand, after checking the hand is a valid concealed hand.
#[inline(always)]
fn hand_size(counts: &Counts) -> usize {
    // byte sums vectorise; with every count ≤ 4 the sum (≤ 136) cannot wrap
    let mut total = 0u8;
    let mut max = 0u8;
    for &c in counts {
        total = total.wrapping_add(c);
        max = max.max(c);
    }
    checked_size(total, max)
}

/// The hand's size from the wrapping byte sum of its counts and their maximum, after checking the hand is
/// valid (the sum is exact when every count is at most 4).
#[inline(always)]
fn checked_size(total: u8, max: u8) -> usize {
    let total = usize::from(total);
    assert!(
        max <= 4 && total <= MAX_TILES && !total.is_multiple_of(3),
        "shanten of an invalid hand: {} tiles, a kind held {} times",
        total,
        max
    );
    total
}

/// Shanten of the regular form (`n` melds and a pair, `n = tiles / 3`): -1 complete, 0 tenpai, ...
///
/// # Panics
/// When the hand does not hold 3n+1 or 3n+2 tiles (at most 14) or holds more than four copies of a kind.
pub fn shanten_regular(counts: &Counts) -> i8 {
    let n = hand_size(counts) / 3;
    regular(counts, n)
}

/// Shanten of seven pairs (seven *distinct* kinds, Tenhou's rule); `None` unless the hand holds 13 or 14 tiles.
///
/// # Panics
/// As [`shanten_regular`].
pub fn shanten_chiitoi(counts: &Counts) -> Option<i8> {
    (hand_size(counts) >= 13).then(|| chiitoi(counts))
}

#[inline(always)]
fn chiitoi(counts: &Counts) -> i8 {
    let (mut pairs, mut kinds) = (0i8, 0i8);
    for &c in counts {
        pairs += i8::from(c >= 2);
        kinds += i8::from(c >= 1);
    }
    6 - pairs + (7 - kinds).max(0)
}

/// Shanten of thirteen orphans; `None` unless the hand holds 13 or 14 tiles.
///
/// # Panics
/// As [`shanten_regular`].
pub fn shanten_kokushi(counts: &Counts) -> Option<i8> {
    (hand_size(counts) >= 13).then(|| kokushi(counts))
}

const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

#[inline(always)]
fn kokushi(counts: &Counts) -> i8 {
    let (mut kinds, mut pair) = (0i8, 0i8);
    for k in ORPHANS {
        kinds += i8::from(counts[k] >= 1);
        pair |= i8::from(counts[k] >= 2);
    }
    13 - kinds - pair
}

/// Shanten of a concealed hand of 3n+1 or 3n+2 tiles (`4 - n` melds called): -1 complete, 0 tenpai, ...
/// The minimum of the regular form, seven pairs and thirteen orphans (the last two only for 13/14 tiles).
///
/// # Panics
/// When the hand does not hold 3n+1 or 3n+2 tiles (at most 14) or holds more than four copies of a kind.
pub fn shanten(counts: &Counts) -> i8 {
    // one branch-free pass: validity, and the counts seven pairs and thirteen orphans need
    let (mut total, mut max, mut pairs, mut kinds, mut orphan_kinds, mut orphan_pairs) = (0u8, 0u8, 0u8, 0u8, 0u8, 0u8);
    for (&c, &orphan) in counts.iter().zip(&ORPHAN_MASK) {
        let (one, two) = (u8::from(c >= 1), u8::from(c >= 2));
        total = total.wrapping_add(c);
        max = max.max(c);
        kinds += one;
        pairs += two;
        orphan_kinds += one & orphan;
        orphan_pairs |= two & orphan;
    }
    let size = checked_size(total, max);
    let r = regular(counts, size / 3);
    if size >= 13 {
        let chiitoi = 6 - pairs as i8 + (7 - kinds as i8).max(0);
        let kokushi = 13 - orphan_kinds as i8 - orphan_pairs as i8;
        r.min(chiitoi).min(kokushi)
    } else {
        r
    }
}

/// The shanten of a hand of 3n+2 tiles and of the hand left by discarding one tile of kind `discard`:
/// `(shanten(counts), shanten(counts - discard))`, the pair the replay records at every discard. The groups
/// the discard leaves alone are ranked and looked up once for both (two `shanten` calls were 4% of an
/// ingest's time, `perf record`, docs/PERFORMANCE.md).
///
/// # Panics
/// As [`shanten`], and when the hand does not hold 3n+2 tiles or holds no tile of kind `discard`.
pub fn shanten_discard(counts: &Counts, discard: usize) -> (i8, i8) {
    let size = hand_size(counts);
    let held = counts[discard];
    assert!(size % 3 == 2 && held > 0, "a discard of kind {discard} from {size} tiles holding {held}");
    // both hands have n melds to make: 3n+2 and 3n+1 tiles
    let groups = Groups::new(counts, size / 3);
    let mut left = *counts;
    left[discard] -= 1;
    let (mut before, mut after) = (groups.regular(), groups.changed(&left, discard, held, held - 1));
    if size == MAX_TILES {
        let singles = Singles::of(counts);
        before = before.min(singles.shanten());
        after = after.min(singles.changed(discard, held, held - 1).shanten());
    }
    (before, after)
}

/// A hand's four groups looked up once, for hands of `n` melds: the classes of its suits and of its honors;
/// a hand one tile away differs in one group and looks up only that one and the convolutions after it.
struct Groups {
    /// The distances for `n` melds, by [three-suit class][honor class].
    dist: &'static [u8],
    man: u8,
    pin: u8,
    sou: u8,
    man_pin: u8,
    all_suits: u8,
    honor_idx: usize,
}

impl Groups {
    #[inline(always)]
    fn new(counts: &Counts, n: usize) -> Groups {
        let t = tables();
        let part = t.three_n * HONOR_STRIDE;
        let [man, pin, sou] = [0, 1, 2].map(|g| Groups::class(counts, g));
        let man_pin = Groups::two(man, pin);
        let all_suits = Groups::three(man_pin, sou);
        let honor_idx = honor_index(&counts[27..34]);
        Groups { dist: &t.dist[n * part..(n + 1) * part], man, pin, sou, man_pin, all_suits, honor_idx }
    }
    #[inline(always)]
    fn class(counts: &Counts, g: usize) -> u8 {
        tables().suit[fast_rank(&counts[g * 9..g * 9 + 9])]
    }
    #[inline(always)]
    fn two(man: u8, pin: u8) -> u8 {
        tables().two[usize::from(man) * SUIT_STRIDE + usize::from(pin)]
    }
    #[inline(always)]
    fn three(two: u8, sou: u8) -> u8 {
        tables().three[usize::from(two) * SUIT_STRIDE + usize::from(sou)]
    }
    #[inline(always)]
    fn distance(&self, three: u8, honor_idx: usize) -> i8 {
        let hon = tables().honor[honor_idx];
        self.dist[usize::from(three) * HONOR_STRIDE + usize::from(hon)] as i8 - 1
    }
    /// The regular-form shanten of the hand itself.
    #[inline(always)]
    fn regular(&self) -> i8 {
        self.distance(self.all_suits, self.honor_idx)
    }
    /// The regular-form shanten of `changed`, the hand with kind `k` held `after` times instead of `before`.
    #[inline(always)]
    fn changed(&self, changed: &Counts, k: usize, before: u8, after: u8) -> i8 {
        // an honor held c times weighs 8^(c-1) in its index, none 0
        let weight = |c: u8| (1usize << (3 * u32::from(c))) >> 3;
        match k / 9 {
            0 => {
                self.distance(Groups::three(Groups::two(Groups::class(changed, 0), self.pin), self.sou), self.honor_idx)
            }
            1 => {
                self.distance(Groups::three(Groups::two(self.man, Groups::class(changed, 1)), self.sou), self.honor_idx)
            }
            2 => self.distance(Groups::three(self.man_pin, Groups::class(changed, 2)), self.honor_idx),
            _ => self.distance(self.all_suits, self.honor_idx - weight(before) + weight(after)),
        }
    }
}

/// What seven pairs and thirteen orphans count of a hand of 13 or 14 tiles: its pairs and kinds, over all
/// kinds and over the orphans.
#[derive(Clone, Copy)]
struct Singles {
    pairs: i8,
    kinds: i8,
    orphan_pairs: i8,
    orphan_kinds: i8,
}

impl Singles {
    #[inline(always)]
    fn of(counts: &Counts) -> Singles {
        let mut s = Singles { pairs: 0, kinds: 0, orphan_pairs: 0, orphan_kinds: 0 };
        for (&c, &orphan) in counts.iter().zip(&ORPHAN_MASK) {
            let (one, two) = (i8::from(c >= 1), i8::from(c >= 2));
            s.kinds += one;
            s.pairs += two;
            s.orphan_kinds += one * orphan as i8;
            s.orphan_pairs += two * orphan as i8;
        }
        s
    }
    /// The counts with kind `k` held `after` times instead of `before`.
    #[inline(always)]
    fn changed(self, k: usize, before: u8, after: u8) -> Singles {
        let (one, two) = (i8::from(after >= 1) - i8::from(before >= 1), i8::from(after >= 2) - i8::from(before >= 2));
        let orphan = ORPHAN_MASK[k] as i8;
        Singles {
            pairs: self.pairs + two,
            kinds: self.kinds + one,
            orphan_pairs: self.orphan_pairs + orphan * two,
            orphan_kinds: self.orphan_kinds + orphan * one,
        }
    }
    /// The lesser of the seven pairs' and the thirteen orphans' shanten.
    #[inline(always)]
    fn shanten(self) -> i8 {
        let chiitoi = 6 - self.pairs + (7 - self.kinds).max(0);
        chiitoi.min(13 - self.orphan_kinds - i8::from(self.orphan_pairs > 0))
    }
}

/// 1 at the orphans (terminals and honors), 0 elsewhere.
const ORPHAN_MASK: [u8; KINDS] = {
    let mut m = [0u8; KINDS];
    let mut i = 0;
    while i < ORPHANS.len() {
        m[ORPHANS[i]] = 1;
        i += 1;
    }
    m
};

/// Shanten after one more or one fewer tile of each kind: `delta = -1` gives the shanten after discarding
/// one tile of kind `k` (for a hand of 3n+2 tiles), `delta = +1` after drawing one (3n+1 tiles). Kinds that
/// cannot change so (none held, or four held) get `i8::MAX`. Equal to calling [`shanten`] on each changed
/// hand, but the unchanged groups' classes and their convolutions are looked up once: a changed hand costs
/// the rank of its changed group and two or three loads.
///
/// # Panics
/// As [`shanten`], and when the changed hands would not be valid (`delta` other than -1 or +1).
pub fn shanten_each(counts: &Counts, delta: i8) -> [i8; KINDS] {
    shanten_each_among(counts, delta, u64::MAX)
}

/// [`shanten_each`] for the kinds of `among` only (bit `k` for kind `k`); the others get `i8::MAX`.
pub fn shanten_each_among(counts: &Counts, delta: i8, among: u64) -> [i8; KINDS] {
    assert!(delta == -1 || delta == 1, "delta must be -1 or +1");
    let size = hand_size(counts);
    let new_size = (size as isize + isize::from(delta)) as usize;
    assert!(new_size <= MAX_TILES && !new_size.is_multiple_of(3), "changed hands of {new_size} tiles");
    let groups = Groups::new(counts, new_size / 3);
    let singles = Singles::of(counts);
    let mut out = [i8::MAX; KINDS];
    let mut c = *counts;
    for k in 0..KINDS {
        let before = c[k];
        if among & (1 << k) == 0 || (delta < 0 && before == 0) || (delta > 0 && before >= 4) {
            continue;
        }
        let after = (before as i8 + delta) as u8;
        c[k] = after;
        let regular = groups.changed(&c, k, before, after);
        out[k] = if new_size >= 13 { regular.min(singles.changed(k, before, after).shanten()) } else { regular };
        c[k] = before;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::HandNotation;
    use crate::shanten_tables::{all_shapes, build, build_suit_table, combine, finish_n, rank, HONORS};
    use rand::{rngs::StdRng, Rng, SeedableRng};

    /// The honors' entry, from their seven counts.
    fn honor_entry(h: &[u8]) -> &'static [u8; ENTRY] {
        &HONORS[honor_index(h)]
    }

    #[test]
    fn the_compiled_tables_are_the_tables_built_now() {
        let (t, b) = (tables(), build());
        assert_eq!(&t.suit[..], &b.suit[..]);
        assert_eq!(t.suit_vecs, &b.suit_vecs[..]);
        assert_eq!(&t.honor[..], &b.honor[..]);
        assert_eq!((t.two, t.three, t.dist), (&b.two[..], &b.three[..], &b.dist[..]));
        assert_eq!(t.three_n * 5 * HONOR_STRIDE, b.dist.len());
    }

    fn counts(s: &str) -> Counts {
        s.parse::<HandNotation>().unwrap().counts
    }

    #[test]
    fn ranking_is_a_bijection_in_lexicographic_order() {
        let shapes = all_shapes();
        assert_eq!(shapes.len(), SUIT_SHAPES);
        for (r, s) in shapes.iter().enumerate() {
            assert_eq!(rank(s), r, "{s:?}");
        }
        assert_eq!(rank(&[4, 4, 4, 2, 0, 0, 0, 0, 0]), SUIT_SHAPES - 1);
    }

    #[test]
    fn fast_rank_equals_rank() {
        for (r, s) in all_shapes().iter().enumerate() {
            assert_eq!(fast_rank(s), r, "{s:?}");
        }
    }

    #[test]
    fn class_tables_equal_the_convolution() {
        // every suit shape's class holds its own vector, and the class tables give the convolution of the
        // vectors for every combination of classes met in random hands
        let t = tables();
        let table = build_suit_table();
        for (r, e) in table.iter().enumerate() {
            assert_eq!(&t.suit_vecs[usize::from(t.suit[r])], e);
        }
        // the class chain against the convolution of the vectors, on random class combinations
        let mut rng = StdRng::seed_from_u64(3);
        let hon_classes: Vec<(usize, [u8; ENTRY])> =
            (0..4096).filter(|&i| HONORS[i] != [0; ENTRY]).map(|i| (usize::from(t.honor[i]), HONORS[i])).collect();
        for _ in 0..200_000 {
            let [m, p, s] = [0; 3].map(|_| rng.random_range(0..t.suit_vecs.len()));
            let (h, hv) = hon_classes[rng.random_range(0..hon_classes.len())];
            let n = rng.random_range(0..=4);
            let two = usize::from(t.two[m * SUIT_STRIDE + p]);
            let three = usize::from(t.three[two * SUIT_STRIDE + s]);
            let got = t.dist[(n * t.three_n + three) * HONOR_STRIDE + h];
            let suits = combine::<4>(&combine::<4>(&t.suit_vecs[m], &t.suit_vecs[p]), &t.suit_vecs[s]);
            assert_eq!(got as i8 - 1, finish_n(&suits, &hv, n), "classes {m} {p} {s} {h}, n = {n}");
        }
        println!(
            "classes: {} suit, {} honor, {} two suits, {} three suits; bytes: {}",
            t.suit_vecs.len(),
            t.honor.iter().max().unwrap() + 1,
            t.two.iter().max().unwrap() + 1,
            t.three_n,
            t.suit.len() + t.two.len() + t.three.len() + t.dist.len() + 4096
        );
    }

    /// Independent per-shape reference: the least additions over all ways to pick `m` melds and `p` pairs,
    /// by trying every meld/pair that starts at the lowest digit still needed (tiles may be added).
    fn reference_entry(c: &[u8; SUIT], m: usize, p: usize) -> u8 {
        // Search over targets directly: choose melds in nondecreasing order, then the pair, cost = Σ max(0, h-c).
        fn go(h: &mut [u8; SUIT], c: &[u8; SUIT], left: usize, from: usize, p: usize, best: &mut u8) {
            if h.iter().any(|&x| x > 4) {
                return;
            }
            if left == 0 {
                let cost = |h: &[u8; SUIT]| h.iter().zip(c).map(|(&x, &y)| x.saturating_sub(y)).sum::<u8>();
                if p == 0 {
                    *best = (*best).min(cost(h));
                } else {
                    for j in 0..SUIT {
                        h[j] += 2;
                        if h[j] <= 4 {
                            *best = (*best).min(cost(h));
                        }
                        h[j] -= 2;
                    }
                }
                return;
            }
            for meld in from..16 {
                let cells = if meld < 9 { [meld; 3] } else { [meld - 9, meld - 8, meld - 7] };
                for &x in &cells {
                    h[x] += 1;
                }
                go(h, c, left - 1, meld, p, best);
                for &x in &cells {
                    h[x] -= 1;
                }
            }
        }
        let mut best = u8::MAX;
        go(&mut [0; SUIT], c, m, 0, p, &mut best);
        best
    }

    #[test]
    fn suit_table_matches_reference_on_samples() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut checked = 0;
        let mut fixed: Vec<[u8; SUIT]> = vec![
            [0; SUIT],
            [1, 1, 1, 0, 0, 0, 0, 0, 0],
            [4, 4, 4, 2, 0, 0, 0, 0, 0],
            [1, 0, 0, 0, 0, 0, 0, 0, 1],
            [3, 1, 1, 1, 1, 1, 1, 1, 3],
            [0, 4, 0, 4, 0, 4, 0, 2, 0],
        ];
        while fixed.len() < 300 {
            let mut c = [0u8; SUIT];
            let want = rng.random_range(0..=MAX_TILES);
            let mut got = 0;
            while got < want {
                let i = rng.random_range(0..SUIT);
                if c[i] < 4 {
                    c[i] += 1;
                    got += 1;
                }
            }
            fixed.push(c);
        }
        for c in &fixed {
            let e = suit_entry(c);
            for m in 0..=4 {
                for p in 0..=1 {
                    assert_eq!(e[2 * m + p], reference_entry(c, m, p), "{c:?} m={m} p={p}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 3000);
    }

    #[test]
    fn honor_table_matches_brute_force() {
        // The entry depends only on how many kinds are held 1..=4 times: try one shape per such histogram
        // (including over 14 tiles, harmless), against every assignment of kinds to nothing / triplet / pair.
        let mut histograms = 0;
        for idx in 0..4096usize {
            let n = [idx % 8, idx / 8 % 8, idx / 64 % 8, idx / 512];
            if n.iter().sum::<usize>() > 7 {
                continue;
            }
            histograms += 1;
            let mut h = [0u8; 7];
            let mut j = 0;
            for (v, &k) in n.iter().enumerate() {
                for _ in 0..k {
                    h[j] = v as u8 + 1;
                    j += 1;
                }
            }
            let mut best = [u8::MAX; ENTRY];
            for code in 0..3u32.pow(7) {
                let (mut x, mut t, mut q, mut cost) = (code, 0, 0, 0u8);
                for &c in &h {
                    match x % 3 {
                        1 => {
                            t += 1;
                            cost += 3u8.saturating_sub(c);
                        }
                        2 => {
                            q += 1;
                            cost += 2u8.saturating_sub(c);
                        }
                        _ => {}
                    }
                    x /= 3;
                }
                if t <= 4 && q <= 1 {
                    best[2 * t + q] = best[2 * t + q].min(cost);
                }
            }
            assert_eq!(*honor_entry(&h), best, "{h:?}");
        }
        assert_eq!(histograms, 330);
    }

    #[test]
    fn hand_written_cases() {
        // (hand, regular, chiitoi, kokushi, overall), all worked out by hand.
        type Case = (&'static str, i8, Option<i8>, Option<i8>, i8);
        let cases: &[Case] = &[
            // complete hands
            ("123m456p789s11122z", -1, Some(4), Some(8), -1),
            ("11223344556677z", 3, Some(-1), Some(5), -1),
            ("19m19p19s12345677z", 7, Some(5), Some(-1), -1),
            ("22334455667788m", -1, Some(-1), Some(13), -1),
            // tenpai: tanki, nine gates, thirteen-sided kokushi, seven pairs
            ("123m456p789s1112z", 0, Some(5), Some(8), 0),
            ("1112345678999m", 0, Some(4), Some(10), 0),
            ("19m19p19s1234567z", 8, Some(6), Some(0), 0),
            ("1122334455667m", 0, Some(0), Some(11), 0),
            // four copies are one pair for seven pairs: 6 kinds, 6 pairs -> 6 - 6 + (7 - 6) = 1, not -1;
            // the regular form is tenpai after cutting 1m (111m 234p 234p 5566s).
            ("1111m223344p5566s", 0, Some(1), Some(11), 0),
            // 13 tiles: 6 kinds, 5 pairs -> chiitoi 2 (not a 6s wait); regular 111m 234p 234p 55s + 1m 6s: 2 tiles
            ("1111m223344p556s", 1, Some(2), Some(11), 1),
            // a tanki on a fifth East does not exist: 111z + a new pair needs 2 tiles
            ("123m456p789s1111z", 1, Some(5), Some(9), 1),
            // 123m 456p 78s 77z + three isolated honors: 9s and a honor triplet (2) -> 3 tiles
            ("123m456p78s12377z", 2, Some(5), Some(7), 2),
            // nothing connects: 4 melds x 2 + pair 1 = 9 tiles; seven pairs is better
            ("147m258p369s1234z", 8, Some(6), Some(7), 6),
            // hands after calls (fewer tiles; chiitoi / kokushi do not apply)
            ("1m", 0, None, None, 0),
            ("11m", -1, None, None, -1),
            ("19m", 0, None, None, 0),
            ("1112m", 0, None, None, 0),
            // 111m + 1m cannot wait on a fifth 1m; 11m + 1m(23m) or 111m + a new pair need 2 tiles
            ("1111m", 1, None, None, 1),
            ("123m55p", -1, None, None, -1),
            ("1234567m", 0, None, None, 0),
            ("11122233m", -1, None, None, -1),
            ("123456789m1z", 0, None, None, 0),
            ("123456789m11z", -1, None, None, -1),
            ("1357m1357p", 2, None, None, 2),
        ];
        for &(s, reg, chi, kok, all) in cases {
            let c = counts(s);
            assert_eq!(shanten_regular(&c), reg, "regular {s}");
            assert_eq!(shanten_chiitoi(&c), chi, "chiitoi {s}");
            assert_eq!(shanten_kokushi(&c), kok, "kokushi {s}");
            assert_eq!(shanten(&c), all, "shanten {s}");
        }
    }

    #[test]
    fn shanten_discard_equals_shanten_before_and_after() {
        let mut rng = StdRng::seed_from_u64(5);
        let mut hands: Vec<Counts> =
            ["11223344556677z", "19m19p19s12345677z", "1111m223344p556s7s", "11m"].iter().map(|s| counts(s)).collect();
        for trial in 0..20_000 {
            let size = [14, 11, 8, 5, 2][trial % 5];
            let mut wall: Vec<usize> = (0..136).collect();
            let mut c: Counts = [0; KINDS];
            for _ in 0..size {
                c[wall.swap_remove(rng.random_range(0..wall.len())) / 4] += 1;
            }
            hands.push(c);
        }
        for c in &hands {
            for k in (0..KINDS).filter(|&k| c[k] > 0) {
                let mut left = *c;
                left[k] -= 1;
                assert_eq!(shanten_discard(c, k), (shanten(c), shanten(&left)), "{} -{k}", crate::format_counts(c));
            }
        }
    }

    #[test]
    fn shanten_each_equals_shanten_of_each_changed_hand() {
        let mut rng = StdRng::seed_from_u64(99);
        for trial in 0..20_000 {
            // 14, 11, 8, 5 or 2 tiles to discard from; 13, 10, ... to draw to
            let size = [14, 13, 11, 10, 8, 7, 5, 4, 2, 1][trial % 10];
            let mut wall: Vec<usize> = (0..136).collect();
            let mut c: Counts = [0; KINDS];
            for _ in 0..size {
                let i = rng.random_range(0..wall.len());
                c[wall.swap_remove(i) / 4] += 1;
            }
            let delta = if size % 3 == 2 { -1 } else { 1 };
            let each = shanten_each(&c, delta);
            for k in 0..KINDS {
                let mut d = c;
                let ok = if delta < 0 { d[k] > 0 } else { d[k] < 4 };
                if !ok {
                    assert_eq!(each[k], i8::MAX);
                    continue;
                }
                d[k] = (d[k] as i8 + delta) as u8;
                assert_eq!(each[k], shanten(&d), "{} {delta:+} kind {k}", crate::format_counts(&c));
            }
        }
    }
}
