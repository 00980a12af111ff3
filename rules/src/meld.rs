//! Melds (naki): chi, pon, kakan, daiminkan, ankan and nuki, with the mjlog `m` code both ways.
//!
//! The `m` code of an `<N>` tag (SPEC 1.2): bits 0-1 hold the source relative to the caller
//! (0 self, 1 next, 2 across, 3 previous); bit 2 chi, bit 3 pon, bit 4 kakan, bit 5 nuki, else a kan.

use std::fmt;

use crate::tile::{Kind, Tile};

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MeldKind {
    Chi,
    Pon,
    /// Added kan: a tile from the hand joins an earlier pon.
    Kakan,
    /// Open kan on another player's discard.
    Daiminkan,
    /// Closed kan from the hand.
    Ankan,
    /// North extraction in 3-player games.
    Nuki,
}

impl MeldKind {
    pub fn name(self) -> &'static str {
        match self {
            MeldKind::Chi => "chi",
            MeldKind::Pon => "pon",
            MeldKind::Kakan => "kakan",
            MeldKind::Daiminkan => "daiminkan",
            MeldKind::Ankan => "ankan",
            MeldKind::Nuki => "nuki",
        }
    }
    /// A call on another player's discard.
    pub fn takes_discard(self) -> bool {
        matches!(self, MeldKind::Chi | MeldKind::Pon | MeldKind::Daiminkan)
    }
    pub fn is_kan(self) -> bool {
        matches!(self, MeldKind::Kakan | MeldKind::Daiminkan | MeldKind::Ankan)
    }
}

/// A decoded meld.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Meld {
    pub kind: MeldKind,
    /// Tiles of the meld, ascending by id; `len` of them are used (1 nuki, 3 chi/pon, 4 kans).
    tiles: [Tile; 4],
    len: u8,
    /// The tile taken from another player (chi, pon, daiminkan; for kakan the tile of the original pon).
    pub called: Option<Tile>,
    /// For kakan: the tile added from the hand.
    pub added: Option<Tile>,
    /// Source relative to the caller: 0 self, 1 next (shimocha), 2 across, 3 previous (kamicha).
    pub from: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MeldError {
    #[error("meld code {0}: {1}")]
    BadCode(u32, &'static str),
    #[error("meld tiles do not form a {0}")]
    BadShape(&'static str),
}

impl Meld {
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles[..usize::from(self.len)]
    }
    pub fn base_kind(&self) -> Kind {
        self.tiles[0].kind()
    }
    /// Tiles that leave the concealed hand when the meld is made.
    /// For kakan this is only the added tile; for calls on a discard it excludes the called tile.
    pub fn from_hand(&self) -> impl Iterator<Item = Tile> + '_ {
        let skip = match self.kind {
            MeldKind::Kakan => None,
            _ => self.called,
        };
        self.tiles().iter().copied().filter(move |&t| match self.kind {
            MeldKind::Kakan => Some(t) == self.added,
            _ => Some(t) != skip,
        })
    }

    /// Decodes the `m` attribute of a Tenhou `<N>` tag.
    pub fn decode(m: u32) -> Result<Meld, MeldError> {
        let from = (m & 3) as u8;
        let tile =
            |id: u32| Tile::new(u8::try_from(id).unwrap_or(255)).ok_or(MeldError::BadCode(m, "tile out of range"));
        if m & 0x4 != 0 {
            let mut t = m >> 10;
            let r = t % 3;
            t /= 3;
            if t >= 21 {
                return Err(MeldError::BadCode(m, "chi start out of range"));
            }
            let base = (t / 7) * 9 + t % 7;
            let ids = [
                tile(base * 4 + ((m >> 3) & 3))?,
                tile((base + 1) * 4 + ((m >> 5) & 3))?,
                tile((base + 2) * 4 + ((m >> 7) & 3))?,
            ];
            return Ok(Meld {
                kind: MeldKind::Chi,
                tiles: [ids[0], ids[1], ids[2], ids[2]],
                len: 3,
                called: Some(ids[r as usize]),
                added: None,
                from,
            });
        }
        if m & 0x18 != 0 {
            let unused = (m >> 5) & 3;
            let mut t = m >> 9;
            let r = t % 3;
            t /= 3;
            if t >= 34 {
                return Err(MeldError::BadCode(m, "pon kind out of range"));
            }
            let rest: Vec<Tile> = (0..4).filter(|&c| c != unused).map(|c| tile(t * 4 + c)).collect::<Result<_, _>>()?;
            let called = Some(rest[r as usize]);
            if m & 0x8 != 0 {
                return Ok(Meld {
                    kind: MeldKind::Pon,
                    tiles: [rest[0], rest[1], rest[2], rest[2]],
                    len: 3,
                    called,
                    added: None,
                    from,
                });
            }
            let all = [tile(t * 4)?, tile(t * 4 + 1)?, tile(t * 4 + 2)?, tile(t * 4 + 3)?];
            return Ok(Meld {
                kind: MeldKind::Kakan,
                tiles: all,
                len: 4,
                called,
                added: Some(tile(t * 4 + unused)?),
                from,
            });
        }
        if m & 0x20 != 0 {
            let t = tile(m >> 8)?;
            return Ok(Meld { kind: MeldKind::Nuki, tiles: [t; 4], len: 1, called: None, added: None, from: 0 });
        }
        let t0 = tile(m >> 8)?;
        let k = u32::from(t0.kind().index());
        let all = [tile(k * 4)?, tile(k * 4 + 1)?, tile(k * 4 + 2)?, tile(k * 4 + 3)?];
        if from == 0 {
            Ok(Meld { kind: MeldKind::Ankan, tiles: all, len: 4, called: None, added: None, from })
        } else {
            Ok(Meld { kind: MeldKind::Daiminkan, tiles: all, len: 4, called: Some(t0), added: None, from })
        }
    }

    /// The mjlog `m` code of this meld; `decode(encode(x)) == x`.
    pub fn encode(&self) -> u32 {
        let from = u32::from(self.from);
        let called = self.called.map(|t| u32::from(t.id()));
        match self.kind {
            MeldKind::Chi => {
                let ids: Vec<u32> = self.tiles().iter().map(|t| u32::from(t.id())).collect();
                let base = ids[0] / 4;
                let t = (base / 9) * 7 + base % 9;
                let r = ids.iter().position(|&i| Some(i) == called).unwrap_or(0) as u32;
                ((t * 3 + r) << 10) | 0x4 | ((ids[0] % 4) << 3) | ((ids[1] % 4) << 5) | ((ids[2] % 4) << 7) | from
            }
            MeldKind::Pon | MeldKind::Kakan => {
                let k = u32::from(self.base_kind().index());
                let present: Vec<u32> = self.tiles().iter().map(|t| u32::from(t.id() % 4)).collect();
                let unused = match self.kind {
                    MeldKind::Kakan => u32::from(self.added.map_or(0, |t| t.id() % 4)),
                    _ => (0..4).find(|c| !present.contains(c)).unwrap_or(0),
                };
                let rest: Vec<u32> = (0..4).filter(|&c| c != unused).collect();
                let r = rest.iter().position(|&c| Some(k * 4 + c) == called).unwrap_or(0) as u32;
                let flag = if self.kind == MeldKind::Pon { 0x8 } else { 0x10 };
                ((k * 3 + r) << 9) | flag | (unused << 5) | from
            }
            MeldKind::Nuki => (u32::from(self.tiles[0].id()) << 8) | 0x20,
            MeldKind::Ankan => (u32::from(self.tiles[0].id()) << 8) & !3,
            MeldKind::Daiminkan => (called.unwrap_or(u32::from(self.tiles[0].id())) << 8) | from,
        }
    }

    /// Builds a chi, pon or daiminkan from the tiles taken out of the hand and the called tile.
    pub fn call(kind: MeldKind, from_hand: &[Tile], called: Tile, from: u8) -> Result<Meld, MeldError> {
        // the engine builds candidate calls at every discard: no allocation here
        if from_hand.len() > 3 {
            return Err(MeldError::BadShape(kind.name()));
        }
        let mut buf = [called; 4];
        buf[..from_hand.len()].copy_from_slice(from_hand);
        let tiles = &mut buf[..from_hand.len() + 1];
        tiles.sort();
        let mut all_kinds = [0u8; 4];
        for (k, t) in all_kinds.iter_mut().zip(tiles.iter()) {
            *k = t.kind().index();
        }
        let kinds = &all_kinds[..tiles.len()];
        let ok = match kind {
            MeldKind::Chi => {
                tiles.len() == 3
                    && !tiles[0].kind().is_honor()
                    && kinds[1] == kinds[0] + 1
                    && kinds[2] == kinds[0] + 2
                    && tiles[0].kind().suit() == tiles[2].kind().suit()
            }
            MeldKind::Pon => tiles.len() == 3 && kinds.iter().all(|&k| k == kinds[0]),
            MeldKind::Daiminkan => tiles.len() == 4 && kinds.iter().all(|&k| k == kinds[0]),
            _ => false,
        };
        if !ok {
            return Err(MeldError::BadShape(kind.name()));
        }
        // unused slots repeat the last tile, as `decode` does, so equal melds compare equal
        let mut arr = [tiles[tiles.len() - 1]; 4];
        arr[..tiles.len()].copy_from_slice(tiles);
        Ok(Meld { kind, tiles: arr, len: tiles.len() as u8, called: Some(called), added: None, from })
    }

    /// A closed kan of the given kind.
    pub fn ankan(kind: Kind) -> Meld {
        Meld { kind: MeldKind::Ankan, tiles: kind.ids(), len: 4, called: None, added: None, from: 0 }
    }

    /// A north extraction.
    pub fn nuki(tile: Tile) -> Meld {
        Meld { kind: MeldKind::Nuki, tiles: [tile; 4], len: 1, called: None, added: None, from: 0 }
    }

    /// The added kan made from this pon with the tile `added` from the hand.
    pub fn kakan_of(&self, added: Tile) -> Result<Meld, MeldError> {
        if self.kind != MeldKind::Pon || added.kind() != self.base_kind() {
            return Err(MeldError::BadShape("kakan"));
        }
        Ok(Meld {
            kind: MeldKind::Kakan,
            tiles: added.kind().ids(),
            len: 4,
            called: self.called,
            added: Some(added),
            from: self.from,
        })
    }

    /// The pon this kakan was made from.
    pub fn pon_of_kakan(&self) -> Option<Meld> {
        let added = self.added?;
        let rest: Vec<Tile> = self.tiles().iter().copied().filter(|&t| t != added).collect();
        let mut tiles = [*rest.last()?; 4];
        tiles[..3].copy_from_slice(&rest);
        Some(Meld { kind: MeldKind::Pon, tiles, len: 3, called: self.called, added: None, from: self.from })
    }
}

impl fmt::Display for Meld {
    /// `chi:3p4p5p`, `pon:PPP`, with red fives as `5mr`: readable in tables.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.name())?;
        f.write_str(":")?;
        for t in self.tiles() {
            fmt::Display::fmt(&t, f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_known_codes() {
        // chi 2s-3s-4s (copies 0) taking the 3s from the previous player, encoded by hand from SPEC 1.2:
        // start kind 19 -> (19 / 9) * 7 + 19 % 9 = 15; called index 1; ((15 * 3 + 1) << 10) | 0x4 | 3
        let chi = Meld::decode(47111).unwrap();
        assert_eq!(chi.kind, MeldKind::Chi);
        assert_eq!(chi.from, 3);
        assert_eq!(chi.tiles().iter().map(|t| t.id()).collect::<Vec<_>>(), vec![76, 80, 84]);
        assert_eq!(chi.called, Some(Tile::from_id(80)));
        // pon of haku (kind 31) taking copy 2 from across, copy 3 unused:
        // ((31 * 3 + 2) << 9) | 0x8 | (3 << 5) | 2
        let pon = Meld::decode(((31 * 3 + 2) << 9) | 0x8 | (3 << 5) | 2).unwrap();
        assert_eq!(pon.kind, MeldKind::Pon);
        assert_eq!(pon.tiles().iter().map(|t| t.id()).collect::<Vec<_>>(), vec![124, 125, 126]);
        assert_eq!((pon.called, pon.from), (Some(Tile::from_id(126)), 2));
        // the same with bit 4: kakan, the unused copy 3 is the added tile
        let kakan = Meld::decode(((31 * 3 + 2) << 9) | 0x10 | (3 << 5) | 2).unwrap();
        assert_eq!((kakan.kind, kakan.added), (MeldKind::Kakan, Some(Tile::from_id(127))));
        // closed kan of 1m (from 0) and open kan of 1m called from the next player
        assert_eq!(Meld::decode(0 << 8).unwrap().kind, MeldKind::Ankan);
        let dmk = Meld::decode((2 << 8) | 1).unwrap();
        assert_eq!((dmk.kind, dmk.called, dmk.from), (MeldKind::Daiminkan, Some(Tile::from_id(2)), 1));
        // nuki of a north (id 121): bit 5
        let n = Meld::decode((121 << 8) | 0x20).unwrap();
        assert_eq!((n.kind, n.tiles()), (MeldKind::Nuki, &[Tile::from_id(121)][..]));
        // every code round-trips
        for code in [47111u32, 47723, 34314, 19527, 51723, 9386, 40521, 31744, 6656, 8224] {
            let meld = Meld::decode(code).unwrap();
            assert_eq!(Meld::decode(meld.encode()).unwrap(), meld, "code {code}");
        }
    }

    #[test]
    fn round_trips_every_shape() {
        for k in 0..34u8 {
            let kind = Kind::from_index(k);
            for from in 1..=3u8 {
                for called in kind.ids() {
                    let hand: Vec<Tile> = kind.ids().into_iter().filter(|&t| t != called).take(2).collect();
                    let pon = Meld::call(MeldKind::Pon, &hand, called, from).unwrap();
                    assert_eq!(Meld::decode(pon.encode()).unwrap(), pon);
                    let added = kind.ids().into_iter().find(|t| !pon.tiles().contains(t)).unwrap();
                    let kakan = pon.kakan_of(added).unwrap();
                    assert_eq!(Meld::decode(kakan.encode()).unwrap(), kakan);
                    assert_eq!(kakan.pon_of_kakan().unwrap(), pon);
                    let hand3: Vec<Tile> = kind.ids().into_iter().filter(|&t| t != called).collect();
                    let dmk = Meld::call(MeldKind::Daiminkan, &hand3, called, from).unwrap();
                    assert_eq!(Meld::decode(dmk.encode()).unwrap(), dmk);
                }
            }
            let an = Meld::ankan(kind);
            assert_eq!(Meld::decode(an.encode()).unwrap(), an);
            if k < 27 && k % 9 <= 6 {
                for c in 0..64u8 {
                    let ids: Vec<Tile> = (0..3).map(|i| Tile::from_id((k + i) * 4 + (c >> (2 * i)) % 4)).collect();
                    for r in 0..3 {
                        let hand: Vec<Tile> = ids.iter().copied().filter(|&t| t != ids[r]).collect();
                        let chi = Meld::call(MeldKind::Chi, &hand, ids[r], 3).unwrap();
                        assert_eq!(Meld::decode(chi.encode()).unwrap(), chi);
                    }
                }
            }
        }
        let n = Meld::nuki(Tile::from_id(122));
        assert_eq!(Meld::decode(n.encode()).unwrap(), n);
    }

    #[test]
    fn rejects_bad_shapes() {
        let t = |i| Tile::from_id(i);
        assert!(Meld::call(MeldKind::Chi, &[t(108), t(112)], t(116), 3).is_err());
        assert!(Meld::call(MeldKind::Chi, &[t(28), t(32)], t(36), 3).is_err()); // 8m 9m 1p
        assert!(Meld::call(MeldKind::Pon, &[t(0), t(4)], t(8), 1).is_err());
    }
}
