//! Strategies (SPEC 3): the yaku a round was won with decide which tables its decisions feed.

use std::fmt;
use std::str::FromStr;

use haifu_rules::yaku;

/// A table's strategy: every decision (`all`), or the decisions of rounds won with a strategy's yaku.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Strategy {
    All,
    /// Yaku 8.
    Tanyao,
    /// Yaku 23 (chanta) or 33 (junchan).
    Chanta,
    /// Yaku 10-20 ([`yaku::YAKUHAI`]): seat wind, round wind, haku, hatsu, chun.
    Yakuhai,
}

impl Strategy {
    /// The three strategies of SPEC 3 (without `all`).
    pub const YAKU: [Strategy; 3] = [Strategy::Tanyao, Strategy::Chanta, Strategy::Yakuhai];
    pub const EVERY: [Strategy; 4] = [Strategy::All, Strategy::Tanyao, Strategy::Chanta, Strategy::Yakuhai];

    /// The strategy's place in [`Strategy::EVERY`] (the tables' slot of a scope's four strategies).
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Strategy::All => "all",
            Strategy::Tanyao => "tanyao",
            Strategy::Chanta => "chanta",
            Strategy::Yakuhai => "yakuhai",
        }
    }

    /// Whether a Tenhou yaku id (SPEC 1.3) belongs to this strategy (`all` takes none).
    pub fn has_yaku(self, id: u8) -> bool {
        match self {
            Strategy::All => false,
            Strategy::Tanyao => id == 8,
            Strategy::Chanta => id == 23 || id == 33,
            Strategy::Yakuhai => yaku::is_yakuhai(id),
        }
    }

    /// The strategies a win with these yaku realises, as bits: bit `s` for `Strategy::YAKU[s]` (1 tanyao,
    /// 2 chanta, 4 yakuhai).
    pub fn yaku_bits(ids: &[u8]) -> u8 {
        let mut bits = 0;
        for (s, strategy) in Strategy::YAKU.into_iter().enumerate() {
            if ids.iter().any(|&y| strategy.has_yaku(y)) {
                bits |= 1 << s;
            }
        }
        bits
    }

    /// The strategies a win with these yaku realises.
    pub fn of_yaku(ids: &[u8]) -> Vec<Strategy> {
        Strategy::YAKU.into_iter().filter(|s| ids.iter().any(|&y| s.has_yaku(y))).collect()
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Strategy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Strategy::EVERY
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or_else(|| format!("unknown strategy {s:?}: all, tanyao, chanta or yakuhai"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_is_the_place_in_every() {
        for (i, s) in Strategy::EVERY.into_iter().enumerate() {
            assert_eq!(s.index(), i);
        }
    }

    #[test]
    fn yaku_map_to_strategies() {
        assert_eq!(Strategy::of_yaku(&[1, 8, 52]), vec![Strategy::Tanyao]);
        assert_eq!(Strategy::of_yaku(&[33, 18]), vec![Strategy::Chanta, Strategy::Yakuhai]);
        assert_eq!(Strategy::of_yaku(&[10]), vec![Strategy::Yakuhai]);
        assert_eq!(Strategy::of_yaku(&[20, 21]), vec![Strategy::Yakuhai]);
        assert_eq!(
            (Strategy::yaku_bits(&[8, 1]), Strategy::yaku_bits(&[33, 18]), Strategy::yaku_bits(&[7])),
            (1, 6, 0)
        );
        assert!(Strategy::of_yaku(&[1, 0, 7, 9, 21, 22]).is_empty());
        for s in Strategy::EVERY {
            assert_eq!(s.name().parse::<Strategy>().unwrap(), s);
        }
    }
}
