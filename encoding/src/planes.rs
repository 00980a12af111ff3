//! Seed 004's CNN input (SPEC 5.1) as a re-layout of the flat features, done on the device by one gather
//! with a constant index (SPEC 5.4: rules as constant tensors, no per-position code): each suit as 20 planes
//! of 9 tiles x 4 "at least k copies" columns, the honors as 21 planes of 7 x 4, and the 35 scalars.
//!
//! Suit planes: hand, own melds, the three others' melds, visible tiles, the three others' safe kinds, dora,
//! red five held, the three others' riichi, double riichi and ippatsu. Honor planes: the same without the red
//! five, plus the round wind and the seat wind (a plane marking that honor). A plane of a per-kind or
//! per-table feature repeats it over the columns (and the tiles).

use crate::features::{
    DORA, DOUBLE, FLAT, HAND, IPPATSU, MELDS, OWN_MELDS, RED, RIICHI, ROUND_WIND, SAFE, SEAT_WIND, START_SEAT, VISIBLE,
};

/// Planes of a suit, and of the honors.
pub const SUIT_PLANES: usize = 20;
pub const HONOR_PLANES: usize = 21;
/// The scalars: starting seat, seat wind, round wind, kyoku, sticks, honba (offsets 927..962 of the flat input).
pub const SCALARS: usize = 35;
pub const SCALAR_START: usize = START_SEAT;
/// The index of a cell that is always 0: one column appended to the flat input.
pub const ZERO: i64 = FLAT as i64;

/// Where the planes shared by suits and honors read kind `k`, column `j`.
fn common(plane: usize, k: usize, j: usize) -> Option<usize> {
    Some(match plane {
        0 => HAND + 4 * k + j,
        1 => OWN_MELDS + 4 * k + j,
        2..=4 => MELDS + 136 * (plane - 2) + 4 * k + j,
        5 => VISIBLE + 4 * k + j,
        6..=8 => SAFE + 34 * (plane - 6) + k,
        9 => DORA + k,
        _ => return None,
    })
}

/// The riichi, double riichi and ippatsu planes from `first` on (three each, per other seat).
fn table_flags(plane: usize, first: usize) -> usize {
    let i = plane - first;
    [RIICHI, DOUBLE, IPPATSU][i / 3] + i % 3
}

/// For every cell of the three suits' planes (`[3][20][9][4]`, row-major), the flat index it copies.
pub fn suit_index() -> Vec<i64> {
    let mut idx = Vec::with_capacity(3 * SUIT_PLANES * 9 * 4);
    for s in 0..3 {
        for plane in 0..SUIT_PLANES {
            for d in 0..9 {
                for j in 0..4 {
                    let k = 9 * s + d;
                    let at = common(plane, k, j).map_or_else(
                        || match plane {
                            10 if d == 4 => RED as i64 + s as i64,
                            10 => ZERO,
                            _ => table_flags(plane, 11) as i64,
                        },
                        |i| i as i64,
                    );
                    idx.push(at);
                }
            }
        }
    }
    idx
}

/// For every cell of the honors' planes (`[21][7][4]`), the flat index it copies.
pub fn honor_index() -> Vec<i64> {
    let mut idx = Vec::with_capacity(HONOR_PLANES * 7 * 4);
    for plane in 0..HONOR_PLANES {
        for h in 0..7 {
            for j in 0..4 {
                let k = 27 + h;
                let at = common(plane, k, j).map_or_else(
                    || match plane {
                        10..=18 => table_flags(plane, 10) as i64,
                        // East, South, West rounds mark the first three winds; seat winds the four
                        19 if h < 3 => (ROUND_WIND + h) as i64,
                        20 if h < 4 => (SEAT_WIND + h) as i64,
                        _ => ZERO,
                    },
                    |i| i as i64,
                );
                idx.push(at);
            }
        }
    }
    idx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_reads_a_feature_or_zero() {
        let (s, h) = (suit_index(), honor_index());
        assert_eq!(s.len(), 3 * 20 * 9 * 4);
        assert_eq!(h.len(), 21 * 7 * 4);
        assert!(s.iter().chain(&h).all(|&i| (0..=ZERO).contains(&i)));
        // the suits' hand planes together read the 108 number-tile bits of the hand, each once
        let mut hand: Vec<i64> = Vec::new();
        for suit in 0..3 {
            hand.extend(&s[suit * 720..suit * 720 + 36]);
        }
        hand.sort();
        assert_eq!(hand, (0..108).collect::<Vec<i64>>());
        assert_eq!(SCALAR_START + SCALARS, DORA);
    }
}
