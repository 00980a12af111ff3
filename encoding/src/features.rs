//! The flat input of seed 004's MLP and DenseMLP (SPEC 5.1): 999 binary features of one seat's view of the
//! table just before it discards. Every feature is 0 or 1, so a position is stored as 999 bytes and becomes
//! floats only on the device.
//!
//! | offset | width | feature |
//! |---|---|---|
//! | 0 | 136 | own concealed hand: per kind, 4 bits "at least k copies" |
//! | 136 | 136 | own melds, the same way |
//! | 272 | 136 | visible tiles: own hand, every meld, every river (a called tile once, in its meld), dora indicators |
//! | 408 | 3 | the others' riichi (next seat first) |
//! | 411 | 3 | the others' double riichi |
//! | 414 | 3 | the others' ippatsu |
//! | 417 | 3x34 | the others' safe kinds (genbutsu, see [`Safety`]) |
//! | 519 | 3x136 | the others' melds |
//! | 927 | 4 | starting seat (the seat's index; seat 0 deals first) |
//! | 931 | 4 | seat wind |
//! | 935 | 3 | round wind (East, South, West) |
//! | 938 | 4 | kyoku within the wind |
//! | 942 | 10 | riichi sticks on the table (9 = nine or more) |
//! | 952 | 10 | honba (9 = nine or more) |
//! | 962 | 34 | kinds that are dora |
//! | 996 | 3 | red fives held (5m, 5p, 5s) |
//!
//! With three players the absent seat's slots stay 0.

use haifu_record::state::{Riichi, TableState};
use haifu_rules::{Counts, Kind, Tile};

/// Features of one position.
pub const FLAT: usize = 999;
/// The encoding, by name: a checkpoint or a cache file of another encoding is refused.
pub const FEATURES: &str = "flat-999-v1";

pub const HAND: usize = 0;
pub const OWN_MELDS: usize = 136;
pub const VISIBLE: usize = 272;
pub const RIICHI: usize = 408;
pub const DOUBLE: usize = 411;
pub const IPPATSU: usize = 414;
pub const SAFE: usize = 417;
pub const MELDS: usize = 519;
pub const START_SEAT: usize = 927;
pub const SEAT_WIND: usize = 931;
pub const ROUND_WIND: usize = 935;
pub const KYOKU: usize = 938;
pub const STICKS: usize = 942;
pub const HONBA: usize = 952;
pub const DORA: usize = 962;
pub const RED: usize = 996;

/// Each seat's safe kinds, which the replay keeps as discards happen: the kinds in its own river (furiten), and
/// once it has declared riichi every kind discarded by anyone after that.
#[derive(Clone, Debug)]
pub struct Safety {
    safe: [[bool; 34]; 4],
}

impl Default for Safety {
    fn default() -> Safety {
        Safety { safe: [[false; 34]; 4] }
    }
}

impl Safety {
    /// A new round: nothing is safe yet.
    pub fn clear(&mut self) {
        self.safe = [[false; 34]; 4];
    }

    /// `seat` discarded `tile`; `table` is the state after the discard.
    pub fn discarded(&mut self, table: &TableState, seat: u8, tile: Tile) {
        let k = usize::from(tile.kind().index());
        self.safe[usize::from(seat)][k] = true;
        for (o, s) in table.seats.iter().enumerate().take(usize::from(table.players)) {
            if matches!(s.riichi, Riichi::Discarded { .. } | Riichi::Accepted { .. }) {
                self.safe[o][k] = true;
            }
        }
    }

    pub fn is_safe(&self, seat: u8, kind: Kind) -> bool {
        self.safe[usize::from(seat)][usize::from(kind.index())]
    }
}

/// Sets the "at least k copies" bits of `counts` (capped at 4) at `at`.
fn at_least(out: &mut [u8], at: usize, counts: &Counts) {
    for (k, &c) in counts.iter().enumerate() {
        for j in 0..usize::from(c.min(4)) {
            out[at + 4 * k + j] = 1;
        }
    }
}

fn one_hot(out: &mut [u8], at: usize, width: usize, value: usize) {
    out[at + value.min(width - 1)] = 1;
}

fn add(counts: &mut Counts, tile: Tile) {
    counts[usize::from(tile.kind().index())] += 1;
}

/// The tiles of a seat's melds as counts.
fn meld_counts(table: &TableState, seat: usize) -> Counts {
    let mut c = [0u8; 34];
    for m in &table.seats[seat].melds {
        for &t in m.tiles() {
            add(&mut c, t);
        }
    }
    c
}

/// Writes the 999 features of `seat`'s view into `out` (`out.len() == FLAT`; every byte is set).
pub fn encode(table: &TableState, seat: u8, safety: &Safety, out: &mut [u8]) {
    assert_eq!(out.len(), FLAT, "a flat position has {FLAT} features");
    out.fill(0);
    let n = usize::from(table.players.max(1));
    let me = usize::from(seat);
    let own = &table.seats[me];
    let hand = *own.hand.counts();
    at_least(out, HAND, &hand);
    at_least(out, OWN_MELDS, &meld_counts(table, me));

    let mut visible = hand;
    for s in &table.seats[..n] {
        for m in &s.melds {
            for &t in m.tiles() {
                add(&mut visible, t);
            }
        }
        for r in s.river.iter().filter(|r| !r.called_away) {
            add(&mut visible, r.tile);
        }
    }
    for &t in &table.dora {
        add(&mut visible, t);
    }
    at_least(out, VISIBLE, &visible);

    for i in 0..3 {
        if i + 1 >= n {
            break;
        }
        let o = (me + 1 + i) % n;
        let other = &table.seats[o];
        out[RIICHI + i] = u8::from(other.riichi.is_declared());
        out[DOUBLE + i] = u8::from(other.riichi.is_double());
        out[IPPATSU + i] = u8::from(other.ippatsu);
        for k in 0..34u8 {
            out[SAFE + 34 * i + usize::from(k)] = u8::from(safety.is_safe(o as u8, Kind::from_index(k)));
        }
        at_least(out, MELDS + 136 * i, &meld_counts(table, o));
    }

    one_hot(out, START_SEAT, 4, me);
    one_hot(out, SEAT_WIND, 4, (me + n - usize::from(table.dealer)) % n);
    one_hot(out, ROUND_WIND, 3, usize::from(table.kyoku / 4));
    one_hot(out, KYOKU, 4, usize::from(table.kyoku % 4));
    one_hot(out, STICKS, 10, usize::from(table.kyotaku));
    one_hot(out, HONBA, 10, usize::from(table.honba));
    for &t in &table.dora {
        out[DORA + usize::from(t.kind().dora_indicated(table.players).index())] = 1;
    }
    let red = own.hand.tiles().red_mask();
    for (i, bit) in [1u8, 2, 4].into_iter().enumerate() {
        out[RED + i] = u8::from(red & bit != 0);
    }
}

/// The kinds `seat` may discard now: those in its concealed hand.
pub fn legal(table: &TableState, seat: u8) -> [bool; 34] {
    table.seats[usize::from(seat)].hand.counts().map(|c| c > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_adds_up_to_999() {
        assert_eq!(RED + 3, FLAT);
        assert_eq!(MELDS + 3 * 136, START_SEAT);
        assert_eq!(SAFE + 3 * 34, MELDS);
    }

    /// A dora indicator as the table's rule reads it: with three players 1m indicates 9m (no 2m is in play),
    /// with four it indicates 2m.
    #[test]
    fn dora_follows_the_table_size() {
        use haifu_record::tags::Init;
        let dora_of = |players: u8| {
            let ids = |from: u8| (from..from + 13).map(Tile::from_id).collect::<Vec<_>>();
            let mut hands: [Vec<Tile>; 4] = [ids(36), ids(52), ids(68), Vec::new()];
            if players == 4 {
                hands[3] = ids(84);
            }
            let init = Init {
                kyoku: 0,
                honba: 0,
                kyotaku: 0,
                dice: [1, 1],
                dora_indicator: Tile::from_id(1),
                scores: [35_000; 4],
                dealer: 0,
                hands,
            };
            let mut table = TableState::new(players, 35_000);
            table.start(&init, players);
            let mut out = [0u8; FLAT];
            encode(&table, 0, &Safety::default(), &mut out);
            (0..34).filter(|&k| out[DORA + k] == 1).collect::<Vec<_>>()
        };
        assert_eq!(dora_of(3), vec![8], "three players: 1m indicates 9m");
        assert_eq!(dora_of(4), vec![1], "four players: 1m indicates 2m");
    }
}
