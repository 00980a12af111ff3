//! Mahjong rules under Tenhou's conventions: tiles, concealed hands, melds, shanten and yaku ids.
//!
//! Everything here is pure and allocation-light; the ingest, mining and simulation stages build on it.

pub mod agari;
pub mod hand;
pub mod meld;
pub mod score;
pub mod shanten;
// the builders run in build.rs; in the library only the lookups' helpers and the tests use them
#[cfg_attr(not(test), allow(dead_code))]
mod shanten_tables;
pub mod table;
pub mod tile;
pub mod yaku;

pub use hand::{format_counts, suit_digits, write_counts, write_suit_digits, Counts, Hand, HandNotation, TileSet};
pub use meld::{Meld, MeldError, MeldKind};
pub use tile::{Kind, MjaiTile, Suit, Tile, KINDS, TILES};
pub use yaku::{yaku_name, YAKU};
