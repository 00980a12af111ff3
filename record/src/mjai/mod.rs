//! Reader of mjai JSON lines (bot logs: akochan, mjai-manue, RiichiEnv, Mortal ...) into the one event model.
//!
//! Each game becomes the tags a Tenhou mjlog of the same game would hold, so that replay, decisions and tables
//! treat bot games like Tenhou games.
//!
//! # Reading
//! - Each line is a [`Message`] ([`message`]): one serde type for every mjai message, which the writer
//!   ([`write`]) writes too. Lines of a type mjai does not have are skipped, and so are the messages that carry
//!   nothing for the record (`none`, `error`, `hello`, `join`, `end_kyoku`).
//! - One [`GameRecord`] per `start_game` .. `end_game`. A `start_kyoku` with no game open starts one; a file
//!   that stops before `end_game` (or an `end_game` inside an unfinished round) gives a record without `owari`,
//!   which replay reports as truncated.
//! - Each message becomes an event by [`tiles::Tiles`] and advances one [`crate::state::TableState`], which
//!   holds the hands, melds, rivers, riichi and scores and refuses a step they make impossible; the reader keeps
//!   beside it only what the log's order needs (what can be robbed, the ura shown, a kan dora to move).
//! - Tiles get physical ids per round with [`crate::ids::IdAllocator`] (red fives take copy 0). A discard marked
//!   `tsumogiri` takes the tile just drawn, any other discard another copy when there is one, so that replay's
//!   tsumogiri flag agrees with the log.
//! - mjai announces the dora of an open or added kan after the discard that follows the replacement draw;
//!   Tenhou writes it right after the replacement draw, so it is moved there.
//!
//! # Synthesized (the log does not say it)
//! - `GO type`: 0x08 hanchan (`kyoku_first` 0 or `gametype` tonnan; without them, the reading the play
//!   does not contradict, hanchan when both fit: [`crate::length`]), 0x02 without red fives (`aka_flag:
//!   false`; without the flag, when no red five appears in the game), 0x10 with 3 players; no table level
//!   bits. `haifu ingest --length/--red/--players` ([`ReadOptions`]) win over all of these. What was settled
//!   or guessed goes to the game's notes. `UN`: the names, dan 0, rate 1500, sex C.
//!   `TAIKYOKU oya` = the first dealer.
//! - `INIT` dice are 0,0 (unknown). The first round's scores default to 25000 (3 players: 35000) each.
//! - Score changes: `deltas`, else `scores` after the event less the tracked scores, else the scores of the
//!   next `start_kyoku` or of `end_game` (akochan's samples write only those).
//! - `AGARI ten`: fu from `fu` (or RiichiEnv's `meta.score.fu`; 0 when absent); points from `hora_points`,
//!   else the winner's gain less the sticks and honba; the limit (mangan ...) from the points and whether the
//!   winner deals ([`haifu_rules::score::limit_of_points`]; a 3-player tsumo's points are what two players paid:
//!   [`haifu_rules::score::limit_of_sanma_tsumo`]). No `paoWho`.
//! - `AGARI yaku`: from mjai `yakus` names (the spelling of mjai's TenhouArchive, plus a few aliases) or
//!   RiichiEnv's `meta.score.yaku` ids (dora, red and ura then counted from the tiles). As Tenhou writes them:
//!   dora and red only when > 0, ura always for riichi winners, these three last; yakuman wins write only
//!   `yakuman`. A log that names no yaku gets no `yaku` attribute: unknown, not "none".
//! - `doraHaiUra` from `uradora_markers` / `ura_markers` / `uradora_marker`, for riichi winners only. Kan dora
//!   the log does not announce (akochan omits them) are missing from `doraHai`.
//! - `RYUUKYOKU` type from `reason`; without it: exhaustive when the wall is empty, else four riichi, four
//!   kans, four winds or nine terminals when the record shows one. Tenpai hands from `tenpais`, else the signs
//!   of the deltas, else the shanten of the tracked hand.
//! - `owari` (only when `end_game` closes the game): the final scores, sticks left on the table to the first
//!   place (ties rank by seat from the first dealer), and points as Tenhou computes them, read off the mjlog
//!   corpus: a non-first player's score rounded to thousands (half away from zero), less the return 30000
//!   (3 players: 40000), plus uma +10 / -10 / -20 (3 players: 0 / -20); the first place takes minus the sum
//!   ([`haifu_rules::table::owari`], its ranking counting seats from the first dealer).
//!
//! # Errors
//! A line that is not a JSON object with a `type`, a message of a known type whose field is missing or does not
//! read (the error names the field and its column), hidden tiles (`?`: a one-player view, not a full log), a game
//! under other rules (no dora indicator, scores not in hundreds: akochan's Chinese-rules self-play), scores and
//! sticks that do not add up to 100000 (3 players: 105000), and events that contradict the tracked hands or
//! scores are errors naming the line (its number and the byte offset of its start).
//!
//! # Code
//! [`message`] the message type; `lines` the file's lines as messages, cut into games; [`tiles`] a message of
//! play as an event against the table state (shared with the mjai player of `haifu-play`); `read` the game
//! reader (rounds, wins, draws); `infer` what the log leaves out (see "Synthesized"); `values` the numbers a
//! log gives, checked; [`answer`] a bot's answer as an action; [`write`] the writer. `read` uses `infer`,
//! `tiles` and `values`; none of them uses `read`.

pub mod answer;
mod infer;
mod lines;
pub mod message;
mod read;
pub mod tiles;
mod values;
pub mod write;

pub use message::Message;

use crate::error::ReadError;
use crate::event::{Format, GameRecord};
use crate::length::ReadOptions;

/// Reads every game of an mjai log.
pub fn parse(text: &[u8]) -> Result<Vec<GameRecord>, ReadError> {
    parse_with(text, &ReadOptions::default())
}

/// Reads every game of an mjai log, with the rules the user states for what the log leaves unsaid.
pub fn parse_with(text: &[u8], opts: &ReadOptions) -> Result<Vec<GameRecord>, ReadError> {
    let games = lines::split_games(lines::read_lines(text)?)?;
    let mut out = Vec::with_capacity(games.len());
    for (index, lines) in games.into_iter().enumerate() {
        let (events, notes) = read::GameReader::new(&lines, opts)?.run()?;
        out.push(GameRecord { format: Format::Mjai, index_in_file: index as u32, log_id: None, events, notes });
    }
    Ok(out)
}
