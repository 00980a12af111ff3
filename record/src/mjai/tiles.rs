//! One mjai message of play as the record's event (a call as its meld), asked of the one state. mjai names tiles by kind (and red
//! five); the event needs the physical tile. A seat whose hand the [`TableState`] knows gives a tile it holds
//! (the one just drawn for a tsumogiri), a seat whose hand is hidden (another player, in a player's view) shows a
//! fresh id. The checks that need the table are made against it: a call takes the last discard, a kakan has its
//! pon, a north is set aside only with three players.
//!
//! The game reader of `ingest` and the mjai player of `haifu-play` both turn messages into events here and then
//! advance one [`TableState`] by them ([`TableState::apply`]), so a log and a live game are read by the same
//! steps; the reader knows every hand, the player only its own.

use haifu_rules::{Kind, Meld, MeldKind, MjaiTile, Tile};

use super::message::{self as m, Pai};
use crate::event::Event;
use crate::ids::IdAllocator;
use crate::state::{SeatState, TableState};

/// The physical ids of one round's tiles, given as mjai names them.
#[derive(Clone, Debug)]
pub struct Tiles {
    ids: IdAllocator,
    red: bool,
}

impl Tiles {
    /// A round's tiles; `red`: the game plays with red fives.
    pub fn new(red: bool) -> Tiles {
        Tiles { ids: IdAllocator::new(red), red }
    }

    /// The tile is the one mjai names (its colour counts only where the game has red fives).
    pub fn same(&self, t: Tile, m: MjaiTile) -> bool {
        t.kind() == m.kind && (!self.red || t.is_red_id() == m.red)
    }

    /// The tile as mjai names it.
    pub fn mjai(&self, t: Tile) -> MjaiTile {
        MjaiTile { kind: t.kind(), red: self.red && t.is_red_id() }
    }

    /// A fresh id for a tile entering play: dealt, drawn, a dora indicator, or shown from a hidden hand.
    pub fn fresh(&mut self, t: MjaiTile) -> Result<Tile, String> {
        self.ids.fresh(t.kind, t.red).map_err(|e| {
            if self.red && !t.red && !t.kind.is_honor() && t.kind.digit() == 5 {
                format!("{e} (the game plays with red fives, so only three plain {} exist)", t.kind)
            } else {
                e
            }
        })
    }

    /// The ids of a dealt hand (sorted).
    pub fn deal(&mut self, hand: &[Pai]) -> Result<Vec<Tile>, String> {
        let mut out = Vec::with_capacity(hand.len());
        for p in hand {
            out.push(self.fresh(p.tile().ok_or("a hidden tile (\"?\") in a hand the table should know")?)?);
        }
        out.sort_unstable();
        Ok(out)
    }

    /// A tile of this kind and colour from `hand` (the lowest id).
    fn held(&self, hand: &haifu_rules::TileSet, seat: u8, t: MjaiTile) -> Result<Tile, String> {
        let want = (self.red && !t.kind.is_honor() && t.kind.digit() == 5).then_some(t.red);
        hand.find_kind(t.kind, want).ok_or_else(|| format!("seat {seat} holds no {t}"))
    }

    /// A tile leaving `seat`'s hand: one it holds when the table knows the hand, else a fresh id.
    fn given(&mut self, table: &TableState, seat: u8, t: MjaiTile) -> Result<Tile, String> {
        if table.knows_hand(seat) {
            self.held(seat_of(table, seat)?.hand.tiles(), seat, t)
        } else {
            self.fresh(t)
        }
    }

    /// `tsumo`. A hidden seat's draw is any tile (its hand is not kept).
    pub fn draw(&mut self, table: &TableState, seat: u8, pai: Pai) -> Result<Event, String> {
        seat_of(table, seat)?;
        let tile = if table.knows_hand(seat) {
            self.fresh(
                pai.tile()
                    .ok_or("\"pai\" is hidden (\"?\") where the hand is known: a one-player view, not a full log")?,
            )?
        } else {
            Tile::from_id(0)
        };
        Ok(Event::Draw { seat, tile })
    }

    /// `dahai`: the tile just drawn when mjai says tsumogiri (or says nothing and it fits), another copy for a
    /// hand discard when the hand holds one.
    pub fn discard(&mut self, table: &TableState, d: &m::Dahai) -> Result<Event, String> {
        let (seat, t) = (d.actor, d.pai);
        if !table.knows_hand(seat) {
            return Ok(Event::Discard { seat, tile: self.fresh(t)? });
        }
        let s = seat_of(table, seat)?;
        let hand = s.hand.tiles();
        let drawn = s.last_draw.filter(|&x| hand.contains(x) && self.same(x, t));
        let tile = match (d.tsumogiri, drawn) {
            (Some(true) | None, Some(x)) => x,
            (Some(false), Some(x)) => hand.iter().find(|&y| y != x && self.same(y, t)).unwrap_or(x),
            (_, None) => self.held(hand, seat, t)?,
        };
        Ok(Event::Discard { seat, tile })
    }

    /// `chi`, `pon`, `daiminkan`: the last discard, with the `consumed` tiles of the caller's hand.
    pub fn call(&mut self, table: &TableState, kind: MeldKind, c: &m::Call) -> Result<Meld, String> {
        let (seat, target) = (c.actor, c.target);
        seat_of(table, target)?;
        let (from_seat, last) = table.last_discard.ok_or("no discard to call")?;
        if from_seat != target || !self.same(last, c.pai) {
            return Err(format!(
                "calls {} from seat {target}, but the last discard is seat {from_seat}'s {}",
                c.pai,
                self.mjai(last)
            ));
        }
        if target == seat {
            return Err("calls its own discard".into());
        }
        let mut hand = *seat_of(table, seat)?.hand.tiles();
        let mut from_hand = Vec::with_capacity(c.consumed.len());
        for &t in &c.consumed {
            let id = if table.knows_hand(seat) { self.held(&hand, seat, t)? } else { self.fresh(t)? };
            hand.remove(id);
            from_hand.push(id);
        }
        // Tenhou's meld code counts seats to the right in its 4-slot numbering, in 3-player games too
        let from = (target + 4 - seat) % 4;
        Meld::call(kind, &from_hand, last, from).map_err(|e| e.to_string())
    }

    /// `ankan`: four tiles of one kind (a hidden hand shows them here).
    pub fn ankan(&mut self, table: &TableState, a: &m::Ankan) -> Result<Meld, String> {
        let kind = a.consumed.first().ok_or("\"consumed\" is empty")?.kind;
        if a.consumed.len() != 4 || a.consumed.iter().any(|c| c.kind != kind) {
            return Err(format!("\"consumed\" of a closed kan must be four {kind}"));
        }
        seat_of(table, a.actor)?;
        if !table.knows_hand(a.actor) {
            for &c in &a.consumed {
                self.fresh(c)?;
            }
        }
        Ok(Meld::ankan(kind))
    }

    /// `kakan`: a tile added to the seat's pon of its kind.
    pub fn kakan(&mut self, table: &TableState, k: &m::Kakan) -> Result<Meld, String> {
        let (seat, added) = (k.actor, k.pai);
        let pon = seat_of(table, seat)?
            .melds
            .iter()
            .find(|m| m.kind == MeldKind::Pon && m.base_kind() == added.kind)
            .copied()
            .ok_or_else(|| format!("seat {seat} adds {added} to a pon it does not have"))?;
        let tile = self.given(table, seat, added)?;
        pon.kakan_of(tile).map_err(|e| e.to_string())
    }

    /// `nukidora`: a north set aside (3 players).
    pub fn nukidora(&mut self, table: &TableState, nd: &m::Nukidora) -> Result<Meld, String> {
        let t = nd.pai.unwrap_or(MjaiTile { kind: Kind::NORTH, red: false });
        if t.kind != Kind::NORTH {
            return Err(format!("extracts {t}, not a north"));
        }
        if table.players != 3 {
            return Err("north extraction in a 4-player game".into());
        }
        Ok(Meld::nuki(self.given(table, nd.actor, t)?))
    }

    /// `dora`: a new indicator.
    pub fn dora(&mut self, marker: MjaiTile) -> Result<Event, String> {
        Ok(Event::Dora { tile: self.fresh(marker)? })
    }
}

/// A seat that plays at this table.
fn seat_of(table: &TableState, seat: u8) -> Result<&SeatState, String> {
    if seat >= table.players {
        return Err(format!("seat {seat} does not play in a {}-player game", table.players));
    }
    Ok(&table.seats[usize::from(seat)])
}
