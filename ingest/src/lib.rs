//! Ingest: input discovery, the validating replay that turns each game record (`haifu_record`) into decision
//! rows, and the Parquet dataset (games, rounds, events, decisions) with its pipeline.

pub mod check;
pub mod dataset;
pub mod error;
pub mod parts;
pub mod pipeline;
pub mod read;
pub mod replay;
pub mod source;
pub mod tables;

pub use error::ReplayError;
pub use replay::{replay, Decision, Outcome, ReplayedGame, RoundRecord, Source};
