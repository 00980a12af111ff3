//! Game records: the one event model every format is read into and written from, and the formats themselves.
//!
//! - [`event`], [`tags`]: the event model (the tags of a Tenhou mjlog, typed when read, each rich tag kept as
//!   written) and the typed values of its rich tags (`INIT`, `AGARI`, `RYUUKYOKU` ...).
//! - [`mjlog`], [`tenhou6`], [`mjai`]: one folder per format, each with its reader and its writer.
//! - [`state`]: the public state of a round, advanced event by event (the decision extractor, the engine and
//!   the players all read it); [`walk`]: the one game walker over it.
//! - [`ids`]: physical tile ids for formats that name tiles by kind; [`length`]: the rules a log may leave
//!   unsaid and how they are settled; [`source`]: gzip, the format from the content, the log id from the name.
//!
//! - [`action`]: what a seat may do (the engine's moves); [`legal`]: which of them it may do now, from the table
//!   state and its rule bookkeeping (furiten, waits, kuikae), the one home of those rules; [`mjai::answer`]: the
//!   moves as mjai answers and back.
//!
//! Nothing here knows Arrow or Parquet: the engine, the bots and the mjai player build on this crate alone.

pub mod action;
pub mod error;
pub mod event;
pub mod ids;
pub mod legal;
pub mod length;
pub mod mjai;
pub mod mjlog;
pub mod source;
pub mod state;
pub mod tags;
pub mod tenhou6;
pub mod walk;

pub use error::ReadError;
pub use event::{Event, Format, GameRecord, Tag};
pub use length::{Length, ReadOptions};

/// Reads every game of one decompressed file. `name` (the file name) may supply the Tenhou log id.
pub fn read_games(name: &str, text: &[u8]) -> Result<Vec<GameRecord>, ReadError> {
    read_games_with(name, text, &ReadOptions::default())
}

/// [`read_games`] with the rules the user states for logs that leave them unsaid (mjai).
pub fn read_games_with(name: &str, text: &[u8], opts: &ReadOptions) -> Result<Vec<GameRecord>, ReadError> {
    let format = source::sniff_format(text).map_err(|m| ReadError::at(text, 0, m))?;
    let log_id = source::find_log_id(name);
    if format == Format::Tenhou6 && text.len() > source::MAX_TENHOU6_BYTES {
        let why = format!(
            "a tenhou.net/6 document of {} bytes: beyond haifu's limit of {} MiB for one",
            text.len(),
            source::MAX_TENHOU6_BYTES >> 20
        );
        return Err(ReadError::at(text, 0, why));
    }
    let games = match format {
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
    }?;
    // the mjlog reader stops at the limit as it goes; the others' games are held to it once read
    if let Some(g) = games.iter().find(|g| g.events.len() > source::MAX_GAME_EVENTS) {
        let why = format!("game {}: {}", g.index_in_file, source::too_many_events(g.events.len()));
        return Err(ReadError::at(text, text.len() as u64, why));
    }
    Ok(games)
}
