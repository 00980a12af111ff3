//! The shanten tables' construction (the method is in `shanten`'s module doc). `rules/build.rs` includes this
//! file and runs [`build`] when the crate is compiled, so a process reads the tables from its binary instead
//! of building them at its first shanten (0.5 G instructions, a tenth of a 600-file ingest; callgrind,
//! docs/PERFORMANCE.md). The library includes it too: the lookups use the ranks and the honors' index, and
//! the tests build the tables again to check the ones compiled in.
//!
//! Only `std`, no `crate::` paths: the build script compiles this file on its own.

/// Digits in a suit.
pub(crate) const SUIT: usize = 9;
/// Largest concealed hand, hence largest number of tiles of one suit.
pub(crate) const MAX_TILES: usize = 14;
/// Entries per shape: index `2 * m + p` for `m` melds (0..=4) and `p` pairs (0..=1).
pub(crate) const ENTRY: usize = 10;
/// Number of suit shapes: nine counts 0..=4 with sum ≤ 14.
pub const SUIT_SHAPES: usize = 405_350;

/// `COUNT[k][s]`: number of `k`-digit shapes (digits 0..=4) with digit sum ≤ `s`.
pub(crate) const COUNT: [[u32; MAX_TILES + 1]; SUIT + 1] = {
    let mut t = [[0u32; MAX_TILES + 1]; SUIT + 1];
    let mut s = 0;
    while s <= MAX_TILES {
        t[0][s] = 1;
        s += 1;
    }
    let mut k = 1;
    while k <= SUIT {
        let mut s = 0;
        while s <= MAX_TILES {
            let mut v = 0;
            while v <= 4 && v <= s {
                t[k][s] += t[k - 1][s - v];
                v += 1;
            }
            s += 1;
        }
        k += 1;
    }
    t
};

/// `OFFSET[i][s][d]`: how many shapes come before digit `i` = `d` given the digits before `i` sum to `s`
/// (lexicographic order, digit 0 most significant); 0 where `s + d > 14`.
pub(crate) const OFFSET: [[[u32; 5]; MAX_TILES + 1]; SUIT] = {
    let mut t = [[[0u32; 5]; MAX_TILES + 1]; SUIT];
    let mut i = 0;
    while i < SUIT {
        let mut s = 0;
        while s <= MAX_TILES {
            let mut acc = 0;
            let mut d = 0;
            while d <= 4 && s + d <= MAX_TILES {
                t[i][s][d] = acc;
                acc += COUNT[SUIT - 1 - i][MAX_TILES - s - d];
                d += 1;
            }
            s += 1;
        }
        i += 1;
    }
    t
};

const _: () = assert!(COUNT[SUIT][MAX_TILES] as usize == SUIT_SHAPES);

/// Rank of a suit shape (nine counts ≤ 4 summing to ≤ 14) among all such shapes, in `0..SUIT_SHAPES`.
#[inline(always)]
pub(crate) fn rank(shape: &[u8]) -> usize {
    let mut r = 0u32;
    let mut s = 0usize;
    for (offsets, &d) in OFFSET.iter().zip(&shape[..SUIT]) {
        r += offsets[s][usize::from(d)];
        s += usize::from(d);
    }
    r as usize
}

/// [`rank`] in two lookups: `RANK_HEAD[key]` is the rank offset of digits 0..5 given as the base-5 number
/// `key = Σ d_i 5^i`, and `RANK_TAIL[s][key]` that of digits 5..9 (`key = Σ d_{5+i} 5^i`) after a head of
/// `s` tiles. The two keys are plain arithmetic, so the nine dependent loads of [`rank`] become two
/// independent ones. Entries for heads or tails of more than 14 tiles are 0 and never read.
pub(crate) static RANK_HEAD: [u32; 3125] = {
    let mut t = [0u32; 3125];
    let mut key = 0;
    while key < 3125 {
        let (mut x, mut s, mut r, mut i) = (key, 0usize, 0u32, 0);
        while i < 5 && s <= MAX_TILES {
            let d = x % 5;
            r += OFFSET[i][s][d];
            s += d;
            x /= 5;
            i += 1;
        }
        t[key] = if s <= MAX_TILES { r } else { 0 };
        key += 1;
    }
    t
};

/// See [`RANK_HEAD`].
pub(crate) static RANK_TAIL: [[u32; 625]; MAX_TILES + 1] = {
    let mut t = [[0u32; 625]; MAX_TILES + 1];
    let mut head = 0;
    while head <= MAX_TILES {
        let mut key = 0;
        while key < 625 {
            let (mut x, mut s, mut r, mut i) = (key, head, 0u32, 5);
            while i < SUIT && s <= MAX_TILES {
                let d = x % 5;
                r += OFFSET[i][s][d];
                s += d;
                x /= 5;
                i += 1;
            }
            t[head][key] = if s <= MAX_TILES { r } else { 0 };
            key += 1;
        }
        head += 1;
    }
    t
};

/// [`rank`] by [`RANK_HEAD`] and [`RANK_TAIL`]; the shape must be valid (each count ≤ 4, sum ≤ 14).
#[inline(always)]
pub(crate) fn fast_rank(shape: &[u8]) -> usize {
    let d = |i: usize| u32::from(shape[i]);
    let head = d(0) + 5 * d(1) + 25 * d(2) + 125 * d(3) + 625 * d(4);
    let head_tiles = d(0) + d(1) + d(2) + d(3) + d(4);
    let tail = d(5) + 5 * d(6) + 25 * d(7) + 125 * d(8);
    (RANK_HEAD[head as usize] + RANK_TAIL[head_tiles as usize][tail as usize]) as usize
}

/// Strides of the class tables: powers of two at least the number of suit (126) and honor (55) classes.
pub(crate) const SUIT_STRIDE: usize = 128;
pub(crate) const HONOR_STRIDE: usize = 64;

/// Class numbers for a sequence of vectors (equal vectors, equal classes), and the vector of each class.
pub(crate) fn classify(vecs: impl Iterator<Item = [u8; ENTRY]>) -> (Vec<u8>, Vec<[u8; ENTRY]>) {
    let mut ids = std::collections::HashMap::new();
    let mut list = Vec::new();
    let classes = vecs
        .map(|v| {
            let id = *ids.entry(v).or_insert_with(|| {
                list.push(v);
                list.len() - 1
            });
            u8::try_from(id).expect("at most 256 classes")
        })
        .collect();
    (classes, list)
}

/// The class tables (see the library's `Tables`, which holds them as built here).
pub(crate) struct Built {
    pub(crate) suit: Vec<u8>,
    pub(crate) suit_vecs: Vec<[u8; ENTRY]>,
    pub(crate) honor: Vec<u8>,
    pub(crate) two: Vec<u8>,
    pub(crate) three: Vec<u8>,
    /// `5 * three_n * HONOR_STRIDE` entries.
    pub(crate) dist: Vec<u8>,
}

pub(crate) fn build() -> Built {
    let (suit, suit_vecs) = classify(build_suit_table().into_vec().into_iter());
    let (honor, honor_vecs) = classify(HONORS.iter().copied());
    assert!(suit_vecs.len() <= SUIT_STRIDE && honor_vecs.len() <= HONOR_STRIDE);
    // a ⊕ b for every class a and every b < SUIT_STRIDE (the columns past the last suit class repeat it)
    let by_suit = |a: &[[u8; ENTRY]]| {
        let (a, b) = (a.to_vec(), suit_vecs.clone());
        (0..a.len() * SUIT_STRIDE)
            .map(move |i| combine::<4>(&a[i / SUIT_STRIDE], &b[(i % SUIT_STRIDE).min(b.len() - 1)]))
    };
    let (two, two_vecs) = classify(by_suit(&suit_vecs));
    let (three, three_vecs) = classify(by_suit(&two_vecs));
    let three_n = three_vecs.len();
    let mut dist = vec![u8::MAX; 5 * three_n * HONOR_STRIDE];
    for n in 0..=4 {
        for (t, suits) in three_vecs.iter().enumerate() {
            for (h, hon) in honor_vecs.iter().enumerate() {
                dist[(n * three_n + t) * HONOR_STRIDE + h] = (finish_n(suits, hon, n) + 1) as u8;
            }
        }
    }
    Built { suit, suit_vecs, honor, two, three, dist }
}

/// Every shape in rank order.
pub(crate) fn all_shapes() -> Vec<[u8; SUIT]> {
    fn go(i: usize, left: u8, cur: &mut [u8; SUIT], out: &mut Vec<[u8; SUIT]>) {
        if i == SUIT {
            out.push(*cur);
            return;
        }
        for d in 0..=left.min(4) {
            cur[i] = d;
            go(i + 1, left - d, cur, out);
        }
        cur[i] = 0;
    }
    let mut out = Vec::with_capacity(SUIT_SHAPES);
    go(0, MAX_TILES as u8, &mut [0; SUIT], &mut out);
    out
}

/// Marks, in `mask`, every suit target (`m` melds and `p` pairs, counts ≤ 4) with bit `2m + p`.
pub(crate) fn mark_targets(mask: &mut [u16]) {
    // The 16 melds of a suit: sequences 0..7 start at digit i, triplets 7..16 at digit i - 7.
    fn add_meld(h: &mut [u8; SUIT], meld: usize, sign: i8) {
        let cells: &[usize] = &if meld < 7 { [meld, meld + 1, meld + 2] } else { [meld - 7; 3] };
        for &c in cells {
            h[c] = h[c].wrapping_add_signed(sign);
        }
    }
    fn go(h: &mut [u8; SUIT], m: usize, from: usize, mask: &mut [u16]) {
        if h.iter().any(|&c| c > 4) {
            return; // adding melds never lowers a count
        }
        mask[rank(h)] |= 1 << (2 * m);
        for j in 0..SUIT {
            if h[j] <= 2 {
                h[j] += 2;
                mask[rank(h)] |= 1 << (2 * m + 1);
                h[j] -= 2;
            }
        }
        if m == 4 {
            return;
        }
        for meld in from..16 {
            add_meld(h, meld, 1);
            go(h, m + 1, meld, mask);
            add_meld(h, meld, -1);
        }
    }
    go(&mut [0; SUIT], 0, 0, mask);
}

pub(crate) fn build_suit_table() -> Box<[[u8; ENTRY]]> {
    let shapes = all_shapes();
    debug_assert_eq!(shapes.len(), SUIT_SHAPES);
    // 1. mask[c] bit 2m+p: c is a sub-multiset of some target with m melds and p pairs.
    let mut mask = vec![0u16; SUIT_SHAPES];
    mark_targets(&mut mask);
    for r in (0..SUIT_SHAPES).rev() {
        let mut c = shapes[r];
        if c.iter().map(|&x| usize::from(x)).sum::<usize>() == MAX_TILES {
            continue;
        }
        let mut acc = mask[r];
        for i in 0..SUIT {
            if c[i] < 4 {
                c[i] += 1;
                // valid: a count ≤ 4 and at most 14 tiles (full shapes are skipped above)
                acc |= mask[fast_rank(&c)];
                c[i] -= 1;
            }
        }
        mask[r] = acc;
    }
    // 2. best overlap E, then D = 3m + 2p - E.
    let mut overlap = vec![[0u8; ENTRY]; SUIT_SHAPES];
    for r in 0..SUIT_SHAPES {
        let mut c = shapes[r];
        let size = c.iter().sum::<u8>();
        let mut best = [0u8; ENTRY];
        if mask[r] != (1 << ENTRY) - 1 {
            for i in 0..SUIT {
                if c[i] > 0 {
                    c[i] -= 1;
                    let sub = &overlap[fast_rank(&c)];
                    c[i] += 1;
                    for k in 0..ENTRY {
                        best[k] = best[k].max(sub[k]);
                    }
                }
            }
        }
        for (k, e) in best.iter_mut().enumerate() {
            if mask[r] & (1 << k) != 0 {
                *e = size;
            }
        }
        overlap[r] = best;
    }
    overlap.into_iter().map(|e| std::array::from_fn(|k| (3 * (k / 2) + 2 * (k % 2)) as u8 - e[k])).collect()
}

/// Honors: `D(m, p)` depends only on how many kinds are held once, twice, three and four times
/// (`n1 + 8 n2 + 64 n3 + 512 n4`, each at most 7): triplets from the most numerous kinds, the pair from the
/// next one (swapping a pair kind with a more numerous triplet kind never helps).
pub(crate) static HONORS: [[u8; ENTRY]; 4096] = {
    let mut t = [[0u8; ENTRY]; 4096];
    let mut idx = 0;
    while idx < 4096 {
        let n = [idx % 8, idx / 8 % 8, idx / 64 % 8, idx / 512];
        if n[0] + n[1] + n[2] + n[3] <= 7 {
            // The five largest counts, descending.
            let mut top = [0u8; 5];
            let mut j = 0;
            let mut v = 4;
            while v >= 1 {
                let mut k = 0;
                while k < n[v - 1] && j < 5 {
                    top[j] = v as u8;
                    j += 1;
                    k += 1;
                }
                v -= 1;
            }
            let mut trip = 0u8;
            let mut m = 0;
            while m < 5 {
                let c = top[m];
                t[idx][2 * m] = trip;
                t[idx][2 * m + 1] = trip + 2 - if c < 2 { c } else { 2 };
                trip += 3 - if c < 3 { c } else { 3 };
                m += 1;
            }
        }
        idx += 1;
    }
    t
};

/// The honors' index into [`HONORS`], `Σ 8^(count-1)` over the seven counts (each ≤ 4): `(1 << 3c) >> 3`
/// is 0 for c = 0 and `8^(c-1)` otherwise.
#[inline(always)]
pub(crate) fn honor_index(h: &[u8]) -> usize {
    h[..7].iter().map(|&c| (1usize << (3 * u32::from(c))) >> 3).sum()
}

/// Min-plus convolution of two `(m, p)` vectors, for `m ≤ N`.
#[inline(always)]
pub(crate) fn combine<const N: usize>(a: &[u8; ENTRY], b: &[u8; ENTRY]) -> [u8; ENTRY] {
    let mut r = [u8::MAX; ENTRY];
    for m in 0..=N {
        let (mut best0, mut best1) = (u8::MAX, u8::MAX);
        for x in 0..=m {
            let y = m - x;
            best0 = best0.min(a[2 * x] + b[2 * y]);
            best1 = best1.min(a[2 * x] + b[2 * y + 1]).min(a[2 * x + 1] + b[2 * y]);
        }
        r[2 * m] = best0;
        r[2 * m + 1] = best1;
    }
    r
}

/// Regular-form shanten from the suits' combined vector and the honors' entry, for `n` melds.
#[inline(always)]
pub(crate) fn finish_n(suits: &[u8; ENTRY], hon: &[u8; ENTRY], n: usize) -> i8 {
    let mut d = u8::MAX;
    for m in 0..=n {
        d = d.min(suits[2 * (n - m) + 1] + hon[2 * m]).min(suits[2 * (n - m)] + hon[2 * m + 1]);
    }
    d as i8 - 1
}
