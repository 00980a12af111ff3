//! Reports: the tables a study reads, built from the dataset, the sequence tables and the evaluations, each
//! written as Markdown, CSV and JSON ([`haifu_mining::report::Table`]).
//!
//! - [`thesis`]: every table of the thesis's chapters 5 and 6 beside its figures.
//! - [`review`]: a player's games decision by decision, the board and the references' candidates.

pub mod bots;
pub mod charts;
pub mod html;
pub mod pages;
pub mod player;
pub mod review;
pub mod thesis;

pub use thesis::{thesis, ThesisOptions, ThesisReport};
