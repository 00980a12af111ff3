//! Shared by the readers of formats that name tiles by kind (tenhou.net/6, mjai): giving each tile a physical
//! id so that their games become the same events as an mjlog.
//!
//! Ids are given per round in order of appearance: a red five takes copy 0 of its five (ids 16, 52, 88),
//! other tiles the lowest free copy (skipping copy 0 of the fives when the game plays with red fives).

use haifu_rules::{Kind, Tile, TileSet};

/// Physical ids of one round, and the concealed hands they are in.
#[derive(Clone, Debug)]
pub struct IdAllocator {
    red_enabled: bool,
    used: TileSet,
    pub hands: [TileSet; 4],
}

impl IdAllocator {
    pub fn new(red_enabled: bool) -> IdAllocator {
        IdAllocator { red_enabled, used: TileSet::new(), hands: [TileSet::new(); 4] }
    }

    /// A fresh id for a tile entering play (dealt, drawn, or a dora indicator).
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

    /// Deals or draws a tile into a seat's hand.
    pub fn draw(&mut self, seat: usize, kind: Kind, red: bool) -> Result<Tile, String> {
        let t = self.fresh(kind, red)?;
        self.hands[seat].insert(t);
        Ok(t)
    }

    /// Takes a tile of this kind (and colour) out of a seat's hand: a discard or a tile going into a meld.
    pub fn take(&mut self, seat: usize, kind: Kind, red: bool) -> Result<Tile, String> {
        let want = if self.red_enabled && !kind.is_honor() && kind.digit() == 5 { Some(red) } else { None };
        let t = self.hands[seat]
            .find_kind(kind, want)
            .ok_or_else(|| format!("seat {seat} has no {}{kind} to give", if red { "red " } else { "" }))?;
        self.hands[seat].remove(t);
        Ok(t)
    }

    /// Takes this exact tile (e.g. the one just drawn, for a tsumogiri) if the seat holds it.
    pub fn take_exact(&mut self, seat: usize, tile: Tile) -> bool {
        self.hands[seat].remove(tile)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn red_fives_take_copy_zero() {
        let five = "5p".parse::<Kind>().unwrap();
        let mut ids = IdAllocator::new(true);
        assert_eq!(ids.draw(0, five, true).unwrap().id(), 52);
        assert_eq!(ids.draw(0, five, false).unwrap().id(), 53);
        assert_eq!(ids.draw(1, five, false).unwrap().id(), 54);
        assert_eq!(ids.draw(1, five, false).unwrap().id(), 55);
        assert!(ids.draw(1, five, false).is_err());
        assert_eq!(ids.take(0, five, true).unwrap().id(), 52);
        assert!(ids.take(0, five, true).is_err());
        let mut plain = IdAllocator::new(false);
        assert_eq!(plain.draw(2, five, false).unwrap().id(), 52);
        assert!(plain.draw(2, five, true).is_err());
    }
}
