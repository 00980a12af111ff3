//! Reading the dataset back in Rust: the games and their events, as records that can be written as mjlog XML.

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use arrow::array::{Array, AsArray, RecordBatch};
use arrow::datatypes::{Date32Type, Int64Type, UInt32Type, UInt8Type};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ProjectionMask;

use haifu_rules::table::GameType;
use haifu_rules::{Meld, Tile};

use haifu_record::event::{Event, Format, GameRecord};

/// The part files of a table: exactly the parts the dataset lists, each checked ([`crate::parts::listed_files`]).
pub fn part_files(dataset: &Path, table: &str) -> Result<Vec<PathBuf>> {
    if !dataset.join(table).is_dir() {
        bail!("{} has no {table} table ({} is missing)", dataset.display(), dataset.join(table).display());
    }
    crate::parts::listed_files(dataset, table)
}

/// Reads every record batch of a table.
pub fn read_table(dataset: &Path, table: &str) -> Result<Vec<RecordBatch>> {
    read(dataset, table, None)
}

/// Reads the named top-level columns of a table; a part without one of them gives batches without it.
pub fn read_columns(dataset: &Path, table: &str, columns: &[&str]) -> Result<Vec<RecordBatch>> {
    read(dataset, table, Some(columns))
}

/// The columns of a table as its first part stores them (for a table whose parts hold no rows).
pub fn table_schema(dataset: &Path, table: &str) -> Result<arrow::datatypes::SchemaRef> {
    let parts = part_files(dataset, table)?;
    let first = parts.first().ok_or_else(|| anyhow!("{} lists no part of its {table} table", dataset.display()))?;
    let f = File::open(first).with_context(|| format!("opening {}", first.display()))?;
    let builder =
        ParquetRecordBatchReaderBuilder::try_new(f).with_context(|| format!("reading {}", first.display()))?;
    Ok(builder.schema().clone())
}

fn read(dataset: &Path, table: &str, columns: Option<&[&str]>) -> Result<Vec<RecordBatch>> {
    let mut out = Vec::new();
    for p in part_files(dataset, table)? {
        let f = File::open(&p).with_context(|| format!("opening {}", p.display()))?;
        let mut builder = ParquetRecordBatchReaderBuilder::try_new(f)?.with_batch_size(65_536);
        if let Some(names) = columns {
            let mask = ProjectionMask::columns(builder.parquet_schema(), names.iter().copied());
            builder = builder.with_projection(mask);
        }
        for b in builder.build()? {
            out.push(b.with_context(|| format!("reading {}", p.display()))?);
        }
    }
    Ok(out)
}

fn col<'a>(b: &'a RecordBatch, name: &str) -> Result<&'a dyn Array> {
    b.column_by_name(name).map(|c| c.as_ref()).ok_or_else(|| anyhow!("column {name} missing"))
}

/// The event a row of the events table stores for a tag (its name and its attributes as XML text): read as the
/// mjlog reader reads the tag, typed alike.
fn stored_event(name: &str, attrs: Option<&str>) -> Result<Event> {
    let xml = match attrs {
        Some(a) if !a.is_empty() => format!("<mjloggm><{name} {a}/></mjloggm>"),
        _ => format!("<mjloggm><{name}/></mjloggm>"),
    };
    let events = haifu_record::mjlog::parse(xml.as_bytes()).map_err(|e| anyhow!("<{name}>: {e}"))?;
    events.into_iter().nth(1).ok_or_else(|| anyhow!("<{name}> did not parse"))
}

/// Games of a dataset with their events, in the order of the events table.
pub fn read_games(dataset: &Path) -> Result<Vec<(i64, GameRecord)>> {
    read_games_where(dataset, |_| true)
}

/// The games `keep` accepts (by id), with their events: the other games' rows are passed over unparsed, so
/// reading a few games of a large dataset costs one scan of the events table.
pub fn read_games_where(dataset: &Path, keep: impl Fn(i64) -> bool) -> Result<Vec<(i64, GameRecord)>> {
    let mut meta: HashMap<i64, (Format, Option<String>, u32)> = HashMap::new();
    for b in read_table(dataset, "games")? {
        let ids = col(&b, "game_id")?.as_primitive::<Int64Type>();
        let formats = col(&b, "format")?.as_string::<i32>();
        let log_ids = col(&b, "log_id")?.as_string::<i32>();
        let index = col(&b, "index_in_file")?.as_primitive::<UInt32Type>();
        for i in 0..b.num_rows() {
            let format = match formats.value(i) {
                "tenhou6" => Format::Tenhou6,
                "mjai" => Format::Mjai,
                _ => Format::Mjlog,
            };
            let log_id = (!log_ids.is_null(i)).then(|| log_ids.value(i).to_string());
            meta.insert(ids.value(i), (format, log_id, index.value(i)));
        }
    }
    let mut games: Vec<(i64, GameRecord)> = Vec::new();
    for b in read_table(dataset, "events")? {
        let ids = col(&b, "game_id")?.as_primitive::<Int64Type>();
        let kinds = col(&b, "kind")?.as_string::<i32>();
        let seats = col(&b, "seat")?.as_primitive::<UInt8Type>();
        let tiles = col(&b, "tile")?.as_primitive::<UInt8Type>();
        let melds = col(&b, "meld")?.as_primitive::<UInt32Type>();
        let attrs = col(&b, "attrs")?.as_string::<i32>();
        for i in 0..b.num_rows() {
            let id = ids.value(i);
            if !keep(id) {
                continue;
            }
            if games.last().is_none_or(|(g, _)| *g != id) {
                let (format, log_id, index_in_file) =
                    meta.get(&id).cloned().ok_or_else(|| anyhow!("events of game {id} which games does not list"))?;
                games.push((id, GameRecord { format, index_in_file, log_id, events: Vec::new(), notes: Vec::new() }));
            }
            let tile = || {
                (!tiles.is_null(i))
                    .then(|| Tile::new(tiles.value(i)))
                    .flatten()
                    .ok_or_else(|| anyhow!("game {id}: event without a valid tile"))
            };
            let seat = || (!seats.is_null(i)).then(|| seats.value(i)).ok_or_else(|| anyhow!("game {id}: no seat"));
            let ev = match kinds.value(i) {
                "draw" => Event::Draw { seat: seat()?, tile: tile()? },
                "discard" => Event::Discard { seat: seat()?, tile: tile()? },
                "call" => {
                    let code = melds.value(i);
                    let meld = Meld::decode(code).map_err(|e| anyhow!("game {id}: {e}"))?;
                    Event::Call { seat: seat()?, meld, code }
                }
                "dora" => Event::Dora { tile: tile()? },
                name => stored_event(name, (!attrs.is_null(i)).then(|| attrs.value(i)))
                    .with_context(|| format!("game {id}, event {}", games.last().map_or(0, |g| g.1.events.len())))?,
            };
            games.last_mut().expect("pushed above").1.events.push(ev);
        }
    }
    Ok(games)
}

/// Names that stand for many people (Tenhou's anonymous seat): counted in everyone's figures, never a
/// player of their own (no profile, no player vector).
pub const ANONYMOUS: [&str; 2] = ["", "NoName"];

/// What many readers need from the games table, read once: its games in order, each game's year (none without a
/// date), its seats' names, its table size and its `GO type`.
#[derive(Clone, Debug, Default)]
pub struct GameIndex {
    ids: Vec<i64>,
    years: HashMap<i64, i32>,
    names: HashMap<i64, Vec<String>>,
    players: HashMap<i64, u8>,
    game_types: HashMap<i64, GameType>,
    log_ids: HashMap<i64, String>,
}

impl GameIndex {
    pub fn read(dataset: &Path) -> Result<GameIndex> {
        let mut g = GameIndex::default();
        for b in read_table(dataset, "games")? {
            let id = b.column_by_name("game_id").and_then(|c| c.as_primitive_opt::<Int64Type>());
            let date = b.column_by_name("date").and_then(|c| c.as_primitive_opt::<Date32Type>());
            let list = b.column_by_name("names").and_then(|c| c.as_list_opt::<i32>());
            let players = b.column_by_name("players").and_then(|c| c.as_primitive_opt::<UInt8Type>());
            let go_type = b.column_by_name("go_type").and_then(|c| c.as_primitive_opt::<UInt32Type>());
            let log_id = b.column_by_name("log_id").and_then(|c| c.as_string_opt::<i32>());
            let (Some(id), Some(date), Some(list), Some(players), Some(go_type)) = (id, date, list, players, go_type)
            else {
                bail!("{}: games table without game_id, date, names, players or go_type", dataset.display())
            };
            for i in 0..b.num_rows() {
                g.ids.push(id.value(i));
                g.players.insert(id.value(i), players.value(i));
                if go_type.is_valid(i) {
                    g.game_types.insert(id.value(i), GameType(go_type.value(i)));
                }
                if let Some(l) = log_id.filter(|l| l.is_valid(i)) {
                    g.log_ids.insert(id.value(i), l.value(i).to_string());
                }
                if date.is_valid(i) {
                    g.years.insert(id.value(i), crate::batches::year_of_days(date.value(i)));
                }
                let seats = list.value(i);
                let seats = seats.as_string_opt::<i32>().ok_or_else(|| anyhow::anyhow!("games.names is not text"))?;
                g.names.insert(id.value(i), seats.iter().map(|n| n.unwrap_or_default().to_string()).collect());
            }
        }
        Ok(g)
    }

    /// The games, in the order of the games table (that of the other tables: a run writes each game to all four
    /// in turn).
    pub fn games(&self) -> &[i64] {
        &self.ids
    }

    pub fn year(&self, game: i64) -> Option<i32> {
        self.years.get(&game).copied()
    }

    /// The name of the player at `seat` ("" when the table does not say).
    pub fn name(&self, game: i64, seat: u8) -> &str {
        self.names.get(&game).and_then(|n| n.get(usize::from(seat))).map_or("", String::as_str)
    }

    /// Seats at the game's table (4 or 3).
    pub fn players(&self, game: i64) -> Option<u8> {
        self.players.get(&game).copied()
    }

    /// The game's Tenhou log id (none when its file name gives none).
    pub fn log_id(&self, game: i64) -> Option<&str> {
        self.log_ids.get(&game).map(String::as_str)
    }

    /// The game of a Tenhou log id.
    pub fn by_log_id(&self, log_id: &str) -> Option<i64> {
        self.ids.iter().copied().find(|g| self.log_id(*g) == Some(log_id))
    }

    /// The game's `GO type` (none when its log does not say).
    pub fn game_type(&self, game: i64) -> Option<GameType> {
        self.game_types.get(&game).copied()
    }

    /// The year partitions (a game without a date has none) that `keep` accepts, in order.
    pub fn year_partitions(&self, keep: impl Fn(Option<i32>) -> bool) -> Vec<Option<i32>> {
        let mut all: Vec<Option<i32>> = self.years.values().copied().map(Some).collect();
        all.push(None);
        all.sort_unstable();
        all.dedup();
        all.into_iter().filter(|&y| keep(y)).collect()
    }
}

/// A game's place in a fixed pseudo-random order (splitmix64 of its id): what samples and held-out splits
/// choose by, so that they pick the same games in every run. Game ids are hashes already, but mixing again
/// keeps the order uniform whatever their origin.
pub fn game_hash(game_id: i64) -> u64 {
    let mut z = (game_id as u64).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Whether a game is in the sample `fraction` of the games (every game for `None`): the games whose
/// [`game_hash`] lies in the first `fraction` of its range, so that a smaller fraction's games are among a
/// larger one's. `haifu mine --sample`, `haifu style build --sample` and `haifu train --sample` choose by it.
#[inline]
pub fn in_sample(game_id: i64, fraction: Option<f64>) -> bool {
    let Some(f) = fraction else { return true };
    (game_hash(game_id) as f64) < f * (u64::MAX as f64)
}
