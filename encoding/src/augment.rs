//! Augmentation (seed 003, SPEC 5.4) as constant permutations of the flat input: swapping pin and sou,
//! mirroring the digits (d -> 10 - d in every suit) and rotating the three dragons give positions that are
//! as good as the original, with the discard moved the same way. Each is a permutation of the 34 kinds; the
//! flat features follow it (every per-kind block, the red fives per suit), the table's scalars stay.

use crate::features::{DORA, FLAT, HAND, MELDS, OWN_MELDS, RED, SAFE, VISIBLE};

/// A permutation of the kinds: `kind[k]` is where kind `k` goes.
pub type KindMap = [usize; 34];

fn identity() -> KindMap {
    std::array::from_fn(|k| k)
}

/// One of the twelve transformations: pin and sou swapped or not, digits mirrored or not, the dragons rotated
/// 0, 1 or 2 steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transform {
    pub swap_pin_sou: bool,
    pub mirror: bool,
    pub dragons: u8,
}

impl Transform {
    pub const COUNT: usize = 12;

    /// The `i`-th of the twelve (0 is the identity).
    pub fn nth(i: usize) -> Transform {
        Transform { swap_pin_sou: i & 1 == 1, mirror: i & 2 == 2, dragons: (i / 4 % 3) as u8 }
    }

    pub fn kinds(self) -> KindMap {
        let mut m = identity();
        for (k, to) in m.iter_mut().enumerate() {
            let mut t = k;
            if t < 27 {
                let (mut suit, mut digit) = (t / 9, t % 9);
                if self.swap_pin_sou && suit > 0 {
                    suit = 3 - suit;
                }
                if self.mirror {
                    digit = 8 - digit;
                }
                t = 9 * suit + digit;
            } else if t >= 31 {
                t = 31 + (t - 31 + usize::from(self.dragons)) % 3;
            }
            *to = t;
        }
        m
    }

    /// For each flat feature of the transformed position, the feature of the original it copies.
    pub fn feature_source(self) -> Vec<i64> {
        let kinds = self.kinds();
        let mut src: Vec<i64> = (0..FLAT as i64).collect();
        for (k, &to) in kinds.iter().enumerate() {
            for block in [HAND, OWN_MELDS, VISIBLE, MELDS, MELDS + 136, MELDS + 272] {
                for j in 0..4 {
                    src[block + 4 * to + j] = (block + 4 * k + j) as i64;
                }
            }
            for i in 0..3 {
                src[SAFE + 34 * i + to] = (SAFE + 34 * i + k) as i64;
            }
            src[DORA + to] = (DORA + k) as i64;
        }
        // red fives per suit: the five stays a five under the mirror; the suits follow the swap
        for s in 0..3 {
            let to = kinds[9 * s + 4] / 9;
            src[RED + to] = (RED + s) as i64;
        }
        src
    }

    /// For each kind of the transformed position, the kind of the original it comes from (for the legal mask).
    pub fn kind_source(self) -> Vec<i64> {
        let kinds = self.kinds();
        let mut src = vec![0i64; 34];
        for (k, &to) in kinds.iter().enumerate() {
            src[to] = k as i64;
        }
        src
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_twelve_are_permutations_and_move_what_they_should() {
        for i in 0..Transform::COUNT {
            let t = Transform::nth(i);
            let mut f = t.feature_source();
            f.sort_unstable();
            assert_eq!(f, (0..FLAT as i64).collect::<Vec<_>>(), "{t:?} is a permutation of the features");
            let mut k = t.kinds().to_vec();
            k.sort_unstable();
            assert_eq!(k, (0..34).collect::<Vec<_>>());
        }
        assert_eq!(Transform::nth(0).kinds(), identity());
        let swap = Transform { swap_pin_sou: true, mirror: false, dragons: 0 }.kinds();
        assert_eq!((swap[0], swap[9], swap[22], swap[27]), (0, 18, 13, 27), "1m stays, 1p -> 1s, 5s -> 5p, E stays");
        let mirror = Transform { swap_pin_sou: false, mirror: true, dragons: 0 }.kinds();
        assert_eq!((mirror[0], mirror[4], mirror[17]), (8, 4, 9), "1m -> 9m, 5m stays, 9p -> 1p");
        let rot = Transform { swap_pin_sou: false, mirror: false, dragons: 1 }.kinds();
        assert_eq!((rot[31], rot[32], rot[33], rot[30]), (32, 33, 31, 30), "haku -> hatsu -> chun -> haku, N stays");
        // the red five of pin moves to sou under the swap; the table's scalars never move
        let f = Transform { swap_pin_sou: true, mirror: true, dragons: 2 }.feature_source();
        assert_eq!((f[RED + 2], f[RED], f[930]), ((RED + 1) as i64, RED as i64, 930));
    }
}
