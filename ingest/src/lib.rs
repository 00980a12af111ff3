//! Ingest: readers of Tenhou mjlog XML, tenhou.net/6 JSON and mjai logs into one event model, replay with
//! validation, and the Parquet dataset (games, rounds, events, decisions).

pub mod convert;
pub mod dataset;
pub mod error;
pub mod event;
pub mod length;
pub mod mjai;
pub mod mjai_write;
pub mod mjlog;
pub mod pipeline;
pub mod read;
pub mod replay;
pub mod source;
pub mod tables;
pub mod tags;
pub mod tenhou6;
pub mod testkit;

pub use error::{ReadError, ReplayError};
pub use event::{Event, Format, GameRecord, Tag};
pub use length::{Length, ReadOptions};
pub use replay::{replay, Decision, Outcome, ReplayedGame, RoundRecord, Source};

/// Reads every game of one decompressed file. `name` (the file name) may supply the Tenhou log id.
pub fn read_games(name: &str, text: &[u8]) -> Result<Vec<GameRecord>, ReadError> {
    read_games_with(name, text, &ReadOptions::default())
}

/// [`read_games`] with the rules the user states for logs that leave them unsaid (mjai).
pub fn read_games_with(name: &str, text: &[u8], opts: &ReadOptions) -> Result<Vec<GameRecord>, ReadError> {
    let format = source::sniff_format(text).map_err(|m| ReadError::at(text, 0, m))?;
    let log_id = source::find_log_id(name);
    match format {
        Format::Mjlog => {
            let events = mjlog::parse(text)?;
            Ok(vec![GameRecord { format, index_in_file: 0, log_id, events, notes: Vec::new() }])
        }
        Format::Tenhou6 => tenhou6::parse(text).map(|mut g| {
            if g.log_id.is_none() {
                g.log_id = log_id;
            }
            vec![g]
        }),
        Format::Mjai => mjai::parse_with(text, opts),
    }
}
