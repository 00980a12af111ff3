//! Shared by the readers of formats that name tiles by kind (tenhou.net/6, mjai): giving each tile a physical
//! id so that their games become the same events as an mjlog.
//!
//! Ids are given per round in order of appearance: a red five takes copy 0 of its five (ids 16, 52, 88),
//! other tiles the lowest free copy (skipping copy 0 of the fives when the game plays with red fives).

use haifu_rules::{Kind, Tile, TileSet};

/// Physical ids given in one round. Which seat holds which tile is the [`crate::state::TableState`]'s to know.
#[derive(Clone, Debug)]
pub struct IdAllocator {
    red_enabled: bool,
    used: TileSet,
}

impl IdAllocator {
    pub fn new(red_enabled: bool) -> IdAllocator {
        IdAllocator { red_enabled, used: TileSet::new() }
    }

    /// A fresh id for a tile entering play (dealt, drawn, a dora indicator, or shown from a hidden hand).
    pub fn fresh(&mut self, kind: Kind, red: bool) -> Result<Tile, String> {
        let ids = kind.ids();
        let is_five = !kind.is_honor() && kind.digit() == 5;
        let tile = if red {
            if !self.red_enabled || !is_five {
                return Err(format!("red {kind} in a game without it"));
            }
            Some(ids[0]).filter(|t| !self.used.contains(*t))
        } else {
            let skip_red = self.red_enabled && is_five;
            ids.into_iter().skip(usize::from(skip_red)).find(|t| !self.used.contains(*t))
        };
        let tile = tile.ok_or_else(|| format!("a fifth {}{kind} in play", if red { "red " } else { "" }))?;
        self.used.insert(tile);
        Ok(tile)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn red_fives_take_copy_zero() {
        let five = "5p".parse::<Kind>().unwrap();
        let mut ids = IdAllocator::new(true);
        assert_eq!(ids.fresh(five, true).unwrap().id(), 52);
        assert!(ids.fresh(five, true).is_err());
        assert_eq!(ids.fresh(five, false).unwrap().id(), 53);
        assert_eq!(ids.fresh(five, false).unwrap().id(), 54);
        assert_eq!(ids.fresh(five, false).unwrap().id(), 55);
        assert!(ids.fresh(five, false).is_err());
        let mut plain = IdAllocator::new(false);
        assert_eq!(plain.fresh(five, false).unwrap().id(), 52);
        assert!(plain.fresh(five, true).is_err());
    }
}
