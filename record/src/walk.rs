//! The one game walker: a record's events in order over one [`TableState`], each event shown to a visitor
//! with the state before it and again with the state after it.
//!
//! Whatever reads a game event by event goes through here (the decision extractor of `ingest`, the neural
//! positions), so that all of them see the same state at the same event: the state is advanced only by
//! [`TableState::apply`]. A visitor's checks and what it cuts from the state live in its two hooks.

use crate::event::Event;
use crate::state::TableState;

/// What a walk does at each event beside advancing the state. Both hooks default to nothing.
pub trait Visitor {
    /// Before `event` (the `i`th of the record) is applied: `table` is the state it is chosen from.
    fn before(&mut self, _i: usize, _event: &Event, _table: &TableState) -> Result<(), String> {
        Ok(())
    }
    /// After `event` is applied: `table` is the state it left.
    fn after(&mut self, _i: usize, _event: &Event, _table: &TableState) -> Result<(), String> {
        Ok(())
    }
}

/// Where a walk stopped: the event's index, and why (the visitor's reason or the state's refusal).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WalkError {
    pub event: usize,
    pub message: String,
}

/// Walks `events` from `table` (a fresh [`TableState::default`] for a whole record, or a player's view), stopping
/// at the first event the visitor or the state refuses. Returns the state after the last event.
pub fn walk(events: &[Event], mut table: TableState, visitor: &mut impl Visitor) -> Result<TableState, WalkError> {
    for (i, e) in events.iter().enumerate() {
        let at = |message: String| WalkError { event: i, message };
        visitor.before(i, e, &table).map_err(at)?;
        table.apply(e).map_err(at)?;
        visitor.after(i, e, &table).map_err(at)?;
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mjlog;

    /// Counts what it is shown: the hand size before each discard and the river after it.
    #[derive(Default)]
    struct Seen {
        hand_before_discards: Vec<usize>,
        river_after_discards: Vec<usize>,
    }

    impl Visitor for Seen {
        fn before(&mut self, _: usize, e: &Event, t: &TableState) -> Result<(), String> {
            if let Event::Discard { seat, .. } = e {
                self.hand_before_discards.push(t.seats[usize::from(*seat)].hand.len());
            }
            Ok(())
        }
        fn after(&mut self, _: usize, e: &Event, t: &TableState) -> Result<(), String> {
            if let Event::Discard { seat, .. } = e {
                self.river_after_discards.push(t.seats[usize::from(*seat)].river.len());
            }
            Ok(())
        }
    }

    use crate::state::tests::DEALT;

    #[test]
    fn the_visitor_sees_the_state_before_and_after_each_event() {
        let events = mjlog::parse(format!("{DEALT}<T52/><D52/><U60/><E60/></mjloggm>").as_bytes()).expect("parses");
        let mut seen = Seen::default();
        let t = walk(&events, TableState::default(), &mut seen).expect("a clean walk");
        assert_eq!(seen.hand_before_discards, vec![14, 14]);
        assert_eq!(seen.river_after_discards, vec![1, 1]);
        assert_eq!(t.draws_left, 68);
    }

    #[test]
    fn a_refused_step_names_its_event() {
        // seat 0 discards 110, a tile seat 1 holds
        let events = mjlog::parse(format!("{DEALT}<T52/><D110/></mjloggm>").as_bytes()).expect("parses");
        let e = walk(&events, TableState::default(), &mut Seen::default()).expect_err("refused");
        assert_eq!(e.event, 4);
        assert!(e.message.contains("110"), "{e:?}");
    }
}
