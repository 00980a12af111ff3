//! Ingest: input discovery, the validating replay that turns each game record (`haifu_record`) into decision
//! rows, and the Parquet dataset (games, rounds, events, decisions) with its pipeline.

pub mod batches;
pub mod check;
pub mod choices;
pub mod columns;
pub mod dataset;
pub mod error;
pub mod extract;
pub mod files;
pub mod folder;
pub mod lock;
pub mod parts;
pub mod pipeline;
pub mod progress;
pub mod shapes;
pub mod source;
pub mod stored;

pub use error::ExtractError;
pub use extract::{extract, Decision, ExtractedGame, Outcome, RoundRecord, TileSource};
