//! The error of the validating replay: a game whose record disagrees with itself.

use std::fmt;

/// A game broke a replay check: the record disagrees with itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtractError {
    /// Index of the offending event in the game's event list.
    pub event: usize,
    /// The event as XML, e.g. `<D45/>`.
    pub tag: String,
    pub message: String,
}

impl fmt::Display for ExtractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "event {} {}: {}", self.event, self.tag, self.message)
    }
}

impl std::error::Error for ExtractError {}
