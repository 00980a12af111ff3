//! Positions for training: every discard a seat chose (not the forced ones of a seat already in riichi),
//! replayed from a game's events with the table state of the record crate, each with its flat features
//! ([`crate::features`]), the kinds it could discard and the kind it did.

use anyhow::{anyhow, Result};
use haifu_record::event::{Event, GameRecord};
use haifu_record::state::{Riichi, TableState};
use haifu_record::walk::{walk, Visitor};

use crate::features::{encode, legal, Safety, FLAT};

/// Bytes of one position's features, bit-packed: feature `i` is bit `i % 8` of byte `i / 8`.
pub const PACKED: usize = FLAT.div_ceil(8);

/// Positions of many games, stored flat: position `i`'s features are `features[i * PACKED..(i + 1) *
/// PACKED]`, bit-packed (the features are 0 or 1: an eighth of the memory, and of what goes to a GPU, which
/// unpacks them per batch).
#[derive(Clone, Debug, Default)]
pub struct Positions {
    pub features: Vec<u8>,
    /// Legal discards as a 34-bit mask per position.
    pub legal: Vec<u64>,
    /// The kind discarded (0..34).
    pub label: Vec<u8>,
    /// The game each position comes from, and the seat that discarded.
    pub game: Vec<i64>,
    pub seat: Vec<u8>,
    /// Three-player positions are never mixed with four-player ones (SPEC 5.3): the seats at the table.
    pub players: Vec<u8>,
}

impl Positions {
    pub fn len(&self) -> usize {
        self.label.len()
    }

    pub fn is_empty(&self) -> bool {
        self.label.is_empty()
    }

    /// Position `i`'s features, unpacked.
    pub fn row(&self, i: usize) -> [u8; FLAT] {
        let bits = self.packed(i);
        std::array::from_fn(|f| (bits[f / 8] >> (f % 8)) & 1)
    }

    /// Position `i`'s features as stored.
    pub fn packed(&self, i: usize) -> &[u8] {
        &self.features[i * PACKED..(i + 1) * PACKED]
    }

    /// Appends a position: its features (`FLAT` of 0 or 1), legal kinds, the kind discarded, its game, seat and
    /// table size.
    pub fn push(&mut self, row: &[u8], legal: u64, label: u8, game: i64, seat: u8, players: u8) {
        assert_eq!(row.len(), FLAT, "a position has {FLAT} features");
        let mut bits = [0u8; PACKED];
        for (i, &f) in row.iter().enumerate() {
            bits[i / 8] |= (f & 1) << (i % 8);
        }
        self.features.extend_from_slice(&bits);
        self.legal.push(legal);
        self.label.push(label);
        self.game.push(game);
        self.seat.push(seat);
        self.players.push(players);
    }

    /// Appends another set's positions.
    pub fn extend(&mut self, o: Positions) {
        self.features.extend(o.features);
        self.legal.extend(o.legal);
        self.label.extend(o.label);
        self.game.extend(o.game);
        self.seat.extend(o.seat);
        self.players.extend(o.players);
    }

    /// The first `n` positions (all when fewer), taken off the front.
    pub fn take_front(&mut self, n: usize) -> Positions {
        let n = n.min(self.len());
        let rest = Positions {
            features: self.features.split_off(n * PACKED),
            legal: self.legal.split_off(n),
            label: self.label.split_off(n),
            game: self.game.split_off(n),
            seat: self.seat.split_off(n),
            players: self.players.split_off(n),
        };
        std::mem::replace(self, rest)
    }

    /// The positions `keep` accepts, by index.
    pub fn select(&self, keep: impl Fn(usize) -> bool) -> Positions {
        let mut p = Positions::default();
        for i in (0..self.len()).filter(|&i| keep(i)) {
            p.features.extend_from_slice(self.packed(i));
            p.legal.push(self.legal[i]);
            p.label.push(self.label[i]);
            p.game.push(self.game[i]);
            p.seat.push(self.seat[i]);
            p.players.push(self.players[i]);
        }
        p
    }
}

/// Whether the seat's discard is its own choice: a seat whose riichi discard is out discards what it draws.
fn chooses(table: &TableState, seat: u8) -> bool {
    !matches!(table.seats[usize::from(seat)].riichi, Riichi::Discarded { .. } | Riichi::Accepted { .. })
}

/// The positions of one game, cut by the game walker: each chosen discard's features from the state before
/// it, the safe kinds kept as the discards happen.
struct Cutter {
    game_id: i64,
    positions: Positions,
    safety: Safety,
    row: [u8; FLAT],
}

impl Visitor for Cutter {
    fn before(&mut self, _: usize, e: &Event, table: &TableState) -> Result<(), String> {
        if let Event::Discard { seat, tile } = e {
            if chooses(table, *seat) {
                encode(table, *seat, &self.safety, &mut self.row);
                let mask = legal(table, *seat).iter().enumerate().fold(0u64, |m, (k, &l)| m | (u64::from(l) << k));
                self.positions.push(&self.row, mask, tile.kind().index(), self.game_id, *seat, table.players);
            }
        }
        Ok(())
    }
    fn after(&mut self, _: usize, e: &Event, table: &TableState) -> Result<(), String> {
        match e {
            Event::Init(_) => self.safety.clear(),
            Event::Discard { seat, tile } => self.safety.discarded(table, *seat, *tile),
            _ => {}
        }
        Ok(())
    }
}

/// Every chosen discard of one game, replayed from its events. A record the table state refuses is an error
/// naming the event (the dataset's games were replayed at ingest, so this means a damaged dataset).
pub fn of_game(game_id: i64, record: &GameRecord) -> Result<Positions> {
    let mut cut = Cutter { game_id, positions: Positions::default(), safety: Safety::default(), row: [0u8; FLAT] };
    walk(&record.events, TableState::default(), &mut cut)
        .map_err(|e| anyhow!("game {game_id}, event {}: {}", e.event, e.message))?;
    Ok(cut.positions)
}
