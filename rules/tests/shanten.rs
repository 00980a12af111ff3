//! The table-based shanten calculator against independent references:
//!
//! * a kind-by-kind dynamic programme over all complete hands (regular form), plus direct minimisations for
//!   seven pairs and thirteen orphans, on thousands of seeded random hands of every legal size;
//! * a plain enumeration of every complete hand, for hands of up to 8 tiles;
//! * an exhaustive breadth-first search over tile exchanges, for every 1-, 2-, 4- and 5-tile hand made of
//!   man and pin tiles, which checks the definition itself (shanten = exchanges to win - 1).
//!
//! All three implement "the least number of tiles to draw to reach a complete hand holding at most four
//! copies of a kind", none of them reads the tables.
use haifu_rules::shanten::{shanten, shanten_chiitoi, shanten_kokushi, shanten_regular};
use haifu_rules::{format_counts, Counts};
use rand::{rngs::StdRng, seq::SliceRandom, Rng, SeedableRng};
use std::collections::{HashMap, VecDeque};

const INF: u8 = 99;

fn size(c: &Counts) -> usize {
    c.iter().map(|&x| usize::from(x)).sum()
}

/// Regular form by dynamic programming over the 34 kinds: the state is the number of sequences started one
/// and two kinds back (still owed tiles), the melds started and whether the pair is placed; at each kind
/// choose new sequences, a triplet and the pair, never asking more than four copies; the cost is the tiles the
/// hand lacks.
#[allow(clippy::needless_range_loop)] // the indices are the state
fn reference_regular(c: &Counts) -> i8 {
    let n = size(c) / 3;
    // dp[a][b][m][p]: a sequences started two kinds back, b one kind back, m melds, p pairs.
    let mut dp = [[[[INF; 2]; 5]; 5]; 5];
    dp[0][0][0][0] = 0;
    for (k, &have) in c.iter().enumerate() {
        let can_start_sequence = k < 27 && k % 9 <= 6;
        let mut next = [[[[INF; 2]; 5]; 5]; 5];
        for a in 0..5 {
            for b in 0..5 {
                for m in 0..=n {
                    for p in 0..2 {
                        let cur = dp[a][b][m][p];
                        if cur == INF {
                            continue;
                        }
                        let max_new = if can_start_sequence { n - m } else { 0 };
                        for s in 0..=max_new {
                            for t in 0..=1 {
                                for q in 0..=(1 - p) {
                                    let m2 = m + s + t;
                                    let need = a + b + s + 3 * t + 2 * q;
                                    if m2 > n || need > 4 {
                                        continue;
                                    }
                                    let cost = cur + (need as u8).saturating_sub(have);
                                    let e = &mut next[b][s][m2][p + q];
                                    *e = (*e).min(cost);
                                }
                            }
                        }
                    }
                }
            }
        }
        dp = next;
    }
    dp[0][0][n][1] as i8 - 1
}

/// Seven distinct pairs: the seven kinds that lack the fewest tiles.
fn reference_chiitoi(c: &Counts) -> Option<i8> {
    if size(c) < 13 {
        return None;
    }
    let mut lack: Vec<u8> = c.iter().map(|&x| 2 - x.min(2)).collect();
    lack.sort_unstable();
    Some(lack[..7].iter().sum::<u8>() as i8 - 1)
}

/// Thirteen orphans: one of each, plus a second copy of one of them (try each).
fn reference_kokushi(c: &Counts) -> Option<i8> {
    if size(c) < 13 {
        return None;
    }
    let orphans = [0usize, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];
    let best = orphans
        .iter()
        .map(|&pair| orphans.iter().map(|&o| (if o == pair { 2u8 } else { 1 }).saturating_sub(c[o])).sum::<u8>())
        .min()
        .unwrap();
    Some(best as i8 - 1)
}

fn reference(c: &Counts) -> i8 {
    let r = reference_regular(c);
    r.min(reference_chiitoi(c).unwrap_or(i8::MAX)).min(reference_kokushi(c).unwrap_or(i8::MAX))
}

/// The 55 melds as lists of kinds.
fn melds() -> Vec<Vec<usize>> {
    let mut v: Vec<Vec<usize>> = (0..34).map(|k| vec![k, k, k]).collect();
    for suit in 0..3 {
        for d in 0..7 {
            let k = suit * 9 + d;
            v.push(vec![k, k + 1, k + 2]);
        }
    }
    v
}

/// Regular form by listing every complete hand of `n` melds and a pair (`n ≤ 2`).
fn enumerate_regular(c: &Counts, melds: &[Vec<usize>]) -> i8 {
    let n = size(c) / 3;
    assert!(n <= 2);
    let mut best = INF;
    let mut h = [0u8; 34];
    let mut consider = |h: &mut [u8; 34]| {
        if h.iter().any(|&x| x > 4) {
            return;
        }
        let melds_cost = h.iter().zip(c).map(|(&x, &y)| x.saturating_sub(y)).sum::<u8>();
        for pair in 0..34 {
            if h[pair] + 2 <= 4 {
                let extra = (h[pair] + 2).saturating_sub(c[pair]) - h[pair].saturating_sub(c[pair]);
                best = best.min(melds_cost + extra);
            }
        }
    };
    match n {
        0 => consider(&mut h),
        1 => {
            for m in melds {
                m.iter().for_each(|&k| h[k] += 1);
                consider(&mut h);
                m.iter().for_each(|&k| h[k] -= 1);
            }
        }
        _ => {
            for (i, m1) in melds.iter().enumerate() {
                for m2 in &melds[i..] {
                    m1.iter().chain(m2).for_each(|&k| h[k] += 1);
                    consider(&mut h);
                    m1.iter().chain(m2).for_each(|&k| h[k] -= 1);
                }
            }
        }
    }
    best as i8 - 1
}

/// A random hand of `len` tiles, drawn from the full wall or, to get more pairs, triplets and quads, from
/// the four copies of a few kinds.
fn random_hand(rng: &mut StdRng, len: usize) -> Counts {
    let pool: Vec<usize> = match rng.random_range(0..4) {
        0 | 1 => (0..34).collect(),
        2 => {
            // one suit and the honors
            let suit = rng.random_range(0..3) * 9;
            (suit..suit + 9).chain(27..34).collect()
        }
        _ => {
            let mut kinds: Vec<usize> = (0..34).collect();
            kinds.shuffle(rng);
            kinds.truncate(rng.random_range(4..=10));
            kinds
        }
    };
    let mut wall: Vec<usize> = pool.iter().flat_map(|&k| [k; 4]).collect();
    wall.shuffle(rng);
    let mut c = [0u8; 34];
    for &k in &wall[..len] {
        c[k] += 1;
    }
    c
}

const SIZES: [usize; 10] = [1, 2, 4, 5, 7, 8, 10, 11, 13, 14];

#[test]
fn random_hands_match_dynamic_programme() {
    let mut rng = StdRng::seed_from_u64(20240601);
    let mut seen = [[0usize; 10]; 15]; // [size][shanten + 1]
    for i in 0..6000 {
        let c = random_hand(&mut rng, SIZES[i % SIZES.len()]);
        let want_regular = reference_regular(&c);
        let h = format_counts(&c);
        assert_eq!(shanten_regular(&c), want_regular, "regular {h}");
        assert_eq!(shanten_chiitoi(&c), reference_chiitoi(&c), "chiitoi {h}");
        assert_eq!(shanten_kokushi(&c), reference_kokushi(&c), "kokushi {h}");
        let want = reference(&c);
        assert_eq!(shanten(&c), want, "shanten {h}");
        seen[size(&c)][(want + 1) as usize] += 1;
    }
    // The sample reaches complete hands (3n+2 tiles), tenpai and 1-shanten (3n+1 tiles, a single tile is
    // always tenpai), and deep shanten for full hands.
    for s in SIZES {
        let want: &[usize] = match s {
            1 => &[1],
            _ if s % 3 == 2 => &[0, 1],
            _ => &[1, 2],
        };
        assert!(want.iter().all(|&i| seen[s][i] > 0), "size {s}: {:?}", seen[s]);
    }
    assert!(seen[13][5..].iter().sum::<usize>() > 0 && seen[14][5..].iter().sum::<usize>() > 0);
}

#[test]
fn small_random_hands_match_enumeration() {
    let melds = melds();
    let mut rng = StdRng::seed_from_u64(99);
    for i in 0..1200 {
        let c = random_hand(&mut rng, [1, 2, 4, 5, 7, 8][i % 6]);
        let want = enumerate_regular(&c, &melds);
        assert_eq!(reference_regular(&c), want, "dp {}", format_counts(&c));
        assert_eq!(shanten_regular(&c), want, "{}", format_counts(&c));
        assert_eq!(shanten(&c), want, "{}", format_counts(&c));
    }
}

/// Every multiset of `len` tiles over `kinds` kinds (at most four copies).
fn all_hands(kinds: usize, len: usize) -> Vec<Vec<u8>> {
    fn go(k: usize, left: usize, cur: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if k == cur.len() {
            if left == 0 {
                out.push(cur.clone());
            }
            return;
        }
        for x in 0..=left.min(4) {
            cur[k] = x as u8;
            go(k + 1, left - x, cur, out);
        }
        cur[k] = 0;
    }
    let mut out = Vec::new();
    go(0, len, &mut vec![0; kinds], &mut out);
    out
}

/// Exchanges (discard one tile, draw another) from every `3n+2`-tile hand over man and pin to the nearest
/// complete hand, by breadth-first search from the complete hands.
fn exchange_distances(len: usize) -> HashMap<Vec<u8>, u8> {
    const K: usize = 18;
    let hands = all_hands(K, len);
    let is_complete = |h: &[u8]| {
        let mut c = [0u8; 34];
        c[..K].copy_from_slice(h);
        // decomposition by the lowest tile: it is the pair, a triplet or starts a sequence
        fn decompose(c: &mut [u8; 34], pair: bool) -> bool {
            let Some(k) = c.iter().position(|&x| x > 0) else { return true };
            if !pair && c[k] >= 2 {
                c[k] -= 2;
                let ok = decompose(c, true);
                c[k] += 2;
                if ok {
                    return true;
                }
            }
            if c[k] >= 3 {
                c[k] -= 3;
                let ok = decompose(c, pair);
                c[k] += 3;
                if ok {
                    return true;
                }
            }
            if k % 9 <= 6 && c[k + 1] > 0 && c[k + 2] > 0 {
                (c[k], c[k + 1], c[k + 2]) = (c[k] - 1, c[k + 1] - 1, c[k + 2] - 1);
                let ok = decompose(c, pair);
                (c[k], c[k + 1], c[k + 2]) = (c[k] + 1, c[k + 1] + 1, c[k + 2] + 1);
                return ok;
            }
            false
        }
        decompose(&mut c, false)
    };
    let mut dist: HashMap<Vec<u8>, u8> = HashMap::with_capacity(hands.len());
    let mut queue = VecDeque::new();
    for h in &hands {
        if is_complete(h) {
            dist.insert(h.clone(), 0);
            queue.push_back(h.clone());
        }
    }
    assert!(!queue.is_empty());
    while let Some(h) = queue.pop_front() {
        let d = dist[&h];
        for out in 0..K {
            if h[out] == 0 {
                continue;
            }
            for inn in 0..K {
                if inn == out || h[inn] == 4 {
                    continue;
                }
                let mut g = h.clone();
                g[out] -= 1;
                g[inn] += 1;
                if !dist.contains_key(&g) {
                    dist.insert(g.clone(), d + 1);
                    queue.push_back(g);
                }
            }
        }
    }
    assert_eq!(dist.len(), hands.len(), "every hand reaches a complete one");
    dist
}

fn widen(h: &[u8]) -> Counts {
    let mut c = [0u8; 34];
    c[..h.len()].copy_from_slice(h);
    c
}

#[test]
fn exhaustive_exchange_search_on_small_hands() {
    for len in [2usize, 5] {
        let dist = exchange_distances(len);
        // 3n+2 tiles: shanten = exchanges - 1.
        for (h, &d) in &dist {
            let c = widen(h);
            assert_eq!(shanten(&c), d as i8 - 1, "{}", format_counts(&c));
        }
        // 3n+1 tiles: shanten = the best draw's exchanges.
        let mut checked = 0;
        for h in all_hands(18, len - 1) {
            let best = (0..18)
                .filter(|&k| h[k] < 4)
                .map(|k| {
                    let mut g = h.clone();
                    g[k] += 1;
                    dist[&g]
                })
                .min()
                .unwrap();
            let c = widen(&h);
            assert_eq!(shanten(&c), best as i8, "{}", format_counts(&c));
            checked += 1;
        }
        assert!(checked > 0);
    }
}
