//! The sequence space (SPEC 2): suit shapes of 1..14 tiles with at most four copies of a digit, and the
//! (before, after) pairs made by removing one tile. Counted here by dynamic programming over the nine digits
//! (no enumeration), so that a test can check these numbers against a plain enumeration.

/// Distinct suit shapes of 1..=14 tiles: 405,349.
pub fn shapes() -> u64 {
    let (shapes, _) = count();
    shapes
}

/// Distinct (before, after) pairs by removing one tile from a shape of 1..=14 tiles: 2,395,800 (a shape
/// yields one pair per distinct digit it holds).
pub fn pairs() -> u64 {
    let (_, pairs) = count();
    pairs
}

/// `(shapes, pairs)`: after each digit, `n[t]` = shapes of `t` tiles so far and `d[t]` = the sum over them
/// of their distinct digits.
fn count() -> (u64, u64) {
    const MAX: usize = 14;
    let mut n = [0u64; MAX + 1];
    let mut d = [0u64; MAX + 1];
    n[0] = 1;
    for _digit in 1..=9 {
        let (mut n2, mut d2) = ([0u64; MAX + 1], [0u64; MAX + 1]);
        for t in 0..=MAX {
            for copies in 0..=4usize {
                if t + copies > MAX {
                    break;
                }
                n2[t + copies] += n[t];
                // holding this digit adds one distinct digit to each of the n[t] shapes
                d2[t + copies] += d[t] + if copies > 0 { n[t] } else { 0 };
            }
        }
        (n, d) = (n2, d2);
    }
    (n[1..].iter().sum(), d[1..].iter().sum())
}

#[cfg(test)]
mod tests {
    #[test]
    fn matches_a_plain_enumeration() {
        // every count vector in 0..=4 for the nine digits: 5^9 = 1,953,125 of them
        let (mut shapes, mut pairs) = (0u64, 0u64);
        for code in 0..5u32.pow(9) {
            let (mut c, mut tiles, mut distinct) = (code, 0, 0);
            for _ in 0..9 {
                let k = c % 5;
                c /= 5;
                tiles += k;
                distinct += u64::from(k > 0);
            }
            if (1..=14).contains(&tiles) {
                shapes += 1;
                pairs += distinct;
            }
        }
        assert_eq!((super::shapes(), super::pairs()), (shapes, pairs));
        assert_eq!((shapes, pairs), (405_349, 2_395_800), "SPEC 2's figures");
    }
}
