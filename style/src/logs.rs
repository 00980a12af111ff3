//! The games of log files that a seat is identified from (`haifu style identify`, the Python module's
//! `StyleDb.identify`): each game read and replayed, held to the database's table size and rules, and the seat
//! named resolved in it.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use haifu_ingest::extract::{extract, extract_with, ReplayOptions};
use haifu_record::GameRecord;

use crate::choice::{self, ChoiceCounts};
use crate::db::Rules;
use crate::identify::Observed;
use crate::played::Played;
use crate::StyleDb;

/// One game of a log, and the seat to identify in it.
pub struct SeatGame {
    /// `FILE game N` (N from 1), for messages.
    pub at: String,
    /// The game's index in its file.
    pub index: usize,
    pub record: GameRecord,
    pub played: Played,
    pub seat: u8,
    /// The seat's calls, riichi, kans and wins as the replay cut them, or why it could not (the rules' bookkeeping
    /// refused an action of the log): the seat is then scored without them.
    pub choices: Result<ChoiceCounts, String>,
}

impl SeatGame {
    /// What the seat shows of its player's style: its discards and habits, and its choices where the replay cut
    /// them.
    pub fn observe(&self) -> Observed {
        let mut o = crate::observe(&self.played, self.seat);
        if let Ok(c) = &self.choices {
            o.choices = c.clone();
        }
        o
    }
}

/// A game of a log replayed: its record, its play, and each seat's choice counts (or why they could not be cut).
type Replayed = (GameRecord, Played, Result<Vec<ChoiceCounts>, String>);

/// The games of a log file, as records and replayed with their choices cut; a file that cannot be read or replayed
/// is an error naming it. A game whose choices the rules' bookkeeping refuses is replayed without them.
fn read_log(path: &Path) -> Result<Vec<Replayed>> {
    let raw = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let text = haifu_record::source::decompress(raw).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let records = haifu_record::read_games(name, &text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    records
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            let with_choices = extract_with(&r, ReplayOptions { choices: true, ..ReplayOptions::default() });
            let (g, choices) = match with_choices {
                Ok(g) => {
                    let choices = choice::of_replay(&g);
                    (g, Ok(choices))
                }
                Err(refused) => (
                    extract(&r).map_err(|e| anyhow::anyhow!("{} game {}: {e}", path.display(), i + 1))?,
                    Err(refused.to_string()),
                ),
            };
            Ok((r, Played::of_replay(i as i64, &g), choices))
        })
        .collect()
}

/// The seat a seat argument names in one game: a number, or the seat whose player has that name.
fn seat_in(g: &Played, seat: &str, at: &str) -> Result<u8> {
    let n = g.n_players;
    if let Ok(s) = seat.parse::<u8>() {
        if s >= n {
            bail!("{at}: seat {s}, but the game has {n} seats (0-{})", n - 1);
        }
        return Ok(s);
    }
    (0..n).find(|&s| g.names[usize::from(s)] == seat).with_context(|| format!("{at}: no seat named {seat:?}"))
}

/// The games of `logs` in order (at most `limit`), each with the seat `seat` names in it (a number, or a
/// player's name). A game of another table size or other rules than the database's is an error naming it.
pub fn seat_games(db: &StyleDb, logs: &[PathBuf], seat: &str, limit: Option<usize>) -> Result<Vec<SeatGame>> {
    let mut out = Vec::new();
    for path in logs {
        for (index, (record, played, choices)) in read_log(path)?.into_iter().enumerate() {
            if limit.is_some_and(|k| out.len() >= k) {
                return Ok(out);
            }
            let at = format!("{} game {}", path.display(), index + 1);
            if played.n_players != db.meta.rules.players {
                bail!(
                    "{at}: a {}-player game; the database profiles {}-player games",
                    played.n_players,
                    db.meta.rules.players
                );
            }
            let rules = Rules::of(played.game_type);
            if !db.meta.rules.sets.contains(&rules) {
                bail!(
                    "{at}: rules red fives {}, open tanyao {}; the database's games have {:?} (red, open tanyao)",
                    rules.0,
                    rules.1,
                    db.meta.rules.sets
                );
            }
            let seat = seat_in(&played, seat, &at)?;
            let choices = choices.map(|mut c| c.swap_remove(usize::from(seat)));
            out.push(SeatGame { at, index, record, played, seat, choices });
        }
    }
    if out.is_empty() {
        bail!("no game in {logs:?}");
    }
    Ok(out)
}
