//! Positions of every decision but the discard, for `haifu train --decisions choices`: each moment the rules'
//! bookkeeping offered a seat a call, riichi, a kan, a win, an abort or a north (the rows of the dataset's
//! choices table, cut by the same replay: `haifu_ingest::choices`), with the seat's 999 flat features at the
//! moment, the kinds of option it had as the legal mask and the kind it chose as the label.
//!
//! The classes are the kinds of option ([`CLASSES`]): 0 declines (a pass, or a discard without riichi in its
//! turn), the others take a kind. Which of several chi (or closed kans) the seat took is not a class: the
//! choice learnt is the kind, as the style database counts it. The legal mask says which kinds the seat may
//! take. The features are the discards' 999 (the hand as it is: after the draw, or before the shown tile)
//! with one change: the twenty slots of the riichi sticks and the honba ([`STICKS`], [`HONBA`]) name the tile
//! of the moment instead, the one drawn or shown: its digit (9 slots, an honor's 1-7), its suit or honors (4)
//! and whether another seat showed it (1; the other 6 stay 0). A moment whose answer the log cannot say (a chi
//! another seat's pon took first) is no position.
//!
//! The networks are the discard networks' (34 outputs, the mask leaving the classes offered); a run records
//! [`CHOICE_FEATURES`] so that it is never taken for a discard model.

use std::collections::BTreeMap;

use anyhow::{anyhow, Result};
use haifu_ingest::choices::{Choice, Chosen, MomentKind};
use haifu_ingest::extract::{extract_with, ReplayOptions};
use haifu_record::action::Action;
use haifu_record::event::{Event, GameRecord};
use haifu_record::state::TableState;
use haifu_record::walk::{walk, Visitor};

use crate::features::{encode, Safety, DORA, FLAT, HONBA, STICKS};
use crate::positions::Positions;

/// The encoding of a choice position, by name (the discards' is [`crate::features::FEATURES`]).
pub const CHOICE_FEATURES: &str = "choices-flat-999-v1";

/// The classes a choice network ranks, by label.
pub const CLASSES: [&str; 11] =
    ["decline", "chi", "pon", "daiminkan", "riichi", "ankan", "kakan", "tsumo", "ron", "kyuushu", "nuki"];

/// The class of an option (`None`: a plain discard or a pass, class 0).
pub fn class_of(a: &Action) -> Option<u8> {
    Some(match a {
        Action::Discard { riichi: false, .. } | Action::Pass => return None,
        Action::Chi { .. } => 1,
        Action::Pon { .. } => 2,
        Action::Daiminkan => 3,
        Action::Discard { riichi: true, .. } => 4,
        Action::Ankan { .. } => 5,
        Action::Kakan { .. } => 6,
        Action::Tsumo => 7,
        Action::Ron => 8,
        Action::KyuushuKyuuhai => 9,
        Action::Nuki { .. } => 10,
    })
}

/// Where the tile of the moment is written: the sticks' and honba's slots.
pub const TILE: usize = STICKS;
const _: () = assert!(HONBA + 10 == DORA && STICKS + 10 == HONBA, "the sticks and the honba: twenty slots in a row");

/// Writes the tile of the moment over the sticks' and honba's slots: digit, suit (man, pin, sou, honors), shown.
fn tile_slots(row: &mut [u8], kind: haifu_rules::Kind, shown: bool) {
    row[STICKS..DORA].fill(0);
    let k = usize::from(kind.index());
    row[TILE + k % 9] = 1;
    row[TILE + 9 + k / 9] = 1;
    row[TILE + 13] = u8::from(shown);
}

/// The choices of one game cut by the walker: each from the state after the event that opened its moment.
struct Cutter {
    game_id: i64,
    /// The choices by the index of the event that opened them.
    at: BTreeMap<u32, Vec<Choice>>,
    positions: Positions,
    safety: Safety,
    row: [u8; FLAT],
}

impl Visitor for Cutter {
    fn after(&mut self, i: usize, e: &Event, table: &TableState) -> Result<(), String> {
        match e {
            Event::Init(_) => self.safety.clear(),
            Event::Discard { seat, tile } => self.safety.discarded(table, *seat, *tile),
            _ => {}
        }
        let Some(choices) = self.at.remove(&(i as u32)) else { return Ok(()) };
        for c in choices {
            let seat = &table.seats[usize::from(c.seat)];
            if seat.hand.counts() != c.hand.counts() {
                return Err(format!("the choice of seat {} does not hold the hand the walk holds", c.seat));
            }
            encode(table, c.seat, &self.safety, &mut self.row);
            tile_slots(&mut self.row, c.tile.kind(), matches!(c.moment, MomentKind::Shown(_)));
            let mask = c.options.iter().filter_map(class_of).fold(1u64, |m, k| m | (1 << k));
            let label = match c.chosen {
                Chosen::Took(a) => class_of(&a).unwrap_or(0),
                Chosen::Declined => 0,
                Chosen::Unknown => continue,
            };
            self.positions.push(&self.row, mask, label, self.game_id, c.seat, table.players);
        }
        Ok(())
    }
}

/// Every choice of one game whose answer the log gives, replayed from its events. A record the replay refuses
/// is an error naming the event (the dataset's games were replayed at ingest: a damaged dataset).
pub fn of_game(game_id: i64, record: &GameRecord) -> Result<Positions> {
    let game = extract_with(record, ReplayOptions { keep_misscored: true, choices: true })
        .map_err(|e| anyhow!("game {game_id}: {e}"))?;
    let mut at: BTreeMap<u32, Vec<Choice>> = BTreeMap::new();
    for c in game.choices {
        at.entry(c.event_index).or_default().push(c);
    }
    let mut cut = Cutter { game_id, at, positions: Positions::default(), safety: Safety::default(), row: [0u8; FLAT] };
    walk(&record.events, TableState::default(), &mut cut)
        .map_err(|e| anyhow!("game {game_id}, event {}: {}", e.event, e.message))?;
    Ok(cut.positions)
}
