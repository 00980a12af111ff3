//! The engine's rule bookkeeping for each seat, beside the public table state of `haifu_record::state`:
//! furiten, waits, kuikae, nagashi, pao. Kept incrementally (bit masks of kinds) so that a step allocates
//! nothing.

use haifu_record::state::SeatState;
use haifu_rules::shanten::{shanten, shanten_each};
use haifu_rules::{Counts, Kind, Meld, MeldKind, Tile};

/// A set of tile kinds, bit `k` for kind `k`.
pub type KindMask = u64;

pub fn bit(k: Kind) -> KindMask {
    1u64 << k.index()
}

/// What the engine keeps for one seat beside the table state ([`haifu_record::state::SeatState`]): the rules'
/// bookkeeping that nothing public shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatRules {
    /// Kinds this seat has discarded (discard furiten).
    pub discarded: KindMask,
    /// Kinds that complete the hand while it holds 3n+1 tiles, without the kinds the seat holds all four of
    /// (no copy of those can come).
    pub waits: KindMask,
    /// Passed a winning tile since its last discard.
    pub temp_furiten: bool,
    /// Passed a winning tile after riichi: furiten for the rest of the round.
    pub riichi_furiten: bool,
    /// Kinds the seat may not discard right after a chi or pon (kuikae).
    pub kuikae: KindMask,
    /// Every discard a terminal or honor and none called away (nagashi mangan).
    pub nagashi: bool,
    /// The seat liable for a daisangen / daisuushii completed by a call on its discard.
    pub pao: Option<u8>,
}

/// The one update of a seat's rule bookkeeping: the engine and a player following the game from its seat (the
/// mjai bot of `haifu-play`) call these same functions at the same moments, each after the table state has
/// taken the step.
impl SeatRules {
    /// A round is dealt: the dealt hand's waits.
    pub fn dealt(seat: &SeatState) -> SeatRules {
        let mut r = SeatRules { nagashi: true, ..SeatRules::default() };
        r.update_waits(seat);
        r
    }
    pub fn furiten(&self) -> bool {
        self.temp_furiten || self.riichi_furiten || self.waits & self.discarded != 0
    }
    /// The seat discarded `tile`: discard furiten, nagashi, the end of a temporary furiten and of kuikae, and
    /// the waits of the hand left (a hand in riichi discards what it draws: its waits stay).
    pub fn discarded(&mut self, seat: &SeatState, tile: Tile) {
        self.discarded |= bit(tile.kind());
        self.nagashi &= tile.kind().is_yaochuu();
        self.temp_furiten = false;
        self.kuikae = 0;
        if !seat.riichi.is_accepted() {
            self.update_waits(seat);
        }
    }
    /// The seat made `meld`: kuikae after a chi or pon; after a kan or a north, the waits of the hand left.
    pub fn called(&mut self, seat: &SeatState, meld: &Meld) {
        match meld.kind {
            MeldKind::Chi | MeldKind::Pon => self.kuikae = kuikae_of(meld),
            _ => self.update_waits(seat),
        }
    }
    /// The seat let a tile it waits on go by (whether or not a yaku allowed the win): furiten until its next
    /// discard, and for the rest of the round in riichi.
    pub fn let_pass(&mut self, seat: &SeatState) {
        self.temp_furiten = true;
        if seat.riichi.is_accepted() {
            self.riichi_furiten = true;
        }
    }
    /// Another seat called this seat's discard: no nagashi mangan.
    pub fn discard_called(&mut self) {
        self.nagashi = false;
    }
    /// Recomputes [`SeatRules::waits`] for a hand of 3n+1 tiles.
    fn update_waits(&mut self, seat: &SeatState) {
        self.waits = waits_of(seat.hand.counts(), &seat.held());
    }
}

/// Kinds completing a 3n+1 hand, skipping kinds of which `held` already has four.
pub fn waits_of(counts: &Counts, held: &Counts) -> KindMask {
    let n: u8 = counts.iter().sum();
    if n % 3 != 1 || shanten(counts) != 0 {
        return 0;
    }
    let after = shanten_each(counts, 1);
    let mut mask = 0;
    for k in 0..34 {
        if after[k] == -1 && held[k] < 4 {
            mask |= 1 << k;
        }
    }
    mask
}

/// Distinct terminal and honor kinds in a hand (kyuushu kyuuhai needs nine).
pub fn yaochuu_kinds(counts: &Counts) -> usize {
    (0..34u8).filter(|&k| counts[usize::from(k)] > 0 && Kind::from_index(k).is_yaochuu()).count()
}

/// Kinds a seat may not discard after calling `called` into `meld` (Tenhou forbids kuikae): the called kind,
/// and for a chi taken at one end, the kind beyond the other end (chi 3-4 on a 5: no 2 either).
pub fn kuikae_of(meld: &Meld) -> KindMask {
    let Some(called) = meld.called else { return 0 };
    let k = called.kind();
    let mut mask = bit(k);
    if meld.kind == MeldKind::Chi {
        let base = meld.base_kind().index();
        let d = k.digit();
        if k.index() == base && d <= 6 {
            mask |= bit(Kind::from_index(base + 3));
        } else if k.index() == base + 2 && d >= 4 {
            mask |= bit(Kind::from_index(base - 1));
        }
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;
    use haifu_rules::HandNotation;

    fn counts(s: &str) -> Counts {
        s.parse::<HandNotation>().unwrap().counts
    }

    #[test]
    fn waits_skip_a_fifth_copy() {
        // tanki on 1m
        let c = counts("1m234p567s789s999p");
        assert_eq!(waits_of(&c, &c), 1);
        // the same hand beside a pon of 1m: the wait would be a fifth copy
        let mut held = c;
        held[0] += 3;
        assert_eq!(waits_of(&c, &held), 0);
        let c = counts("123m456p789s1112z");
        assert_eq!(waits_of(&c, &c), 1 << 28);
    }

    #[test]
    fn waits_agree_with_a_full_scan() {
        use rand::{rngs::StdRng, seq::SliceRandom, SeedableRng};
        let mut rng = StdRng::seed_from_u64(7);
        let mut tiles: Vec<u8> = (0..136).collect();
        let mut found = 0;
        for round in 0..20_000 {
            let mut c = [0u8; 34];
            if round % 2 == 0 {
                tiles.shuffle(&mut rng);
                for &t in &tiles[..13] {
                    c[usize::from(t / 4)] += 1;
                }
            } else {
                // a complete hand (four sets and a pair) less one tile: tenpai
                let mut k = 0usize;
                while k < 4 {
                    let start = usize::from(tiles[k * 7 + round % 5] % 34);
                    let seq = start < 27 && start % 9 <= 6 && round % 3 != 0;
                    let add: &[usize] = if seq { &[0, 1, 2] } else { &[0, 0, 0] };
                    let room = if seq { add.iter().all(|&d| c[start + d] < 4) } else { c[start] == 0 };
                    if room {
                        for &d in add {
                            c[start + d] += 1;
                        }
                        k += 1;
                    } else {
                        tiles.shuffle(&mut rng);
                    }
                }
                let pair = (0..34).find(|&p| c[(p + round) % 34] <= 2).map(|p| (p + round) % 34).unwrap();
                c[pair] += 2;
                tiles.shuffle(&mut rng);
                let drop = (0..34).find(|&p| c[(p + usize::from(tiles[0])) % 34] > 0).unwrap();
                c[(drop + usize::from(tiles[0])) % 34] -= 1;
            }
            let fast = waits_of(&c, &c);
            let mut slow = 0u64;
            if shanten(&c) == 0 {
                for k in 0..34 {
                    if c[k] < 4 {
                        c[k] += 1;
                        if shanten(&c) == -1 {
                            slow |= 1 << k;
                        }
                        c[k] -= 1;
                    }
                }
            }
            assert_eq!(fast, slow, "{c:?}");
            found += usize::from(fast != 0);
        }
        assert!(found > 0);
        // thirteen orphans, thirteen-sided
        let c = counts("19m19p19s1234567z");
        // thirteen orphans waiting on all thirteen
        assert_eq!(waits_of(&c, &c), 1 | 1 << 8 | 1 << 9 | 1 << 17 | 1 << 18 | 1 << 26 | 0x7f << 27);
    }

    #[test]
    fn kuikae_masks() {
        let t = |i| Tile::from_id(i);
        // chi 3m4m taking 5m: 5m and 2m forbidden
        let m = Meld::call(MeldKind::Chi, &[t(8), t(12)], t(16), 3).unwrap();
        assert_eq!(kuikae_of(&m), bit(Kind::from_index(4)) | bit(Kind::from_index(1)));
        // chi 4m5m taking 3m: 3m and 6m
        let m = Meld::call(MeldKind::Chi, &[t(12), t(17)], t(8), 3).unwrap();
        assert_eq!(kuikae_of(&m), bit(Kind::from_index(2)) | bit(Kind::from_index(5)));
        // middle: only the called kind
        let m = Meld::call(MeldKind::Chi, &[t(8), t(17)], t(12), 3).unwrap();
        assert_eq!(kuikae_of(&m), bit(Kind::from_index(3)));
        // 7m8m taking 9m: 9m and 6m; 1m2m taking 3m: 3m only... and 4m
        let m = Meld::call(MeldKind::Chi, &[t(24), t(28)], t(32), 3).unwrap();
        assert_eq!(kuikae_of(&m), bit(Kind::from_index(8)) | bit(Kind::from_index(5)));
    }
}
