//! Reading the ingest stage's dataset (docs/SCHEMA.md) for mining and evaluation: the part files of chosen
//! years, projected column readers, and the players of those years with their game counts.

use std::fs::File;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use arrow::array::{Array, ArrayRef, AsArray, RecordBatch};
use arrow::datatypes::{DataType, Int64Type};
use hashbrown::{HashMap, HashSet};
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use parquet::arrow::ProjectionMask;
use rayon::prelude::*;

/// Years as text for messages: `2019,2020` or `(all)`.
pub fn years_text(years: &[i32]) -> String {
    if years.is_empty() {
        "(all)".into()
    } else {
        years.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
    }
}

/// The year of a part file from its hive directory (`year=2019`); `None` for the unknown-year partition.
pub fn part_year(path: &Path) -> Option<i32> {
    path.parent()?.file_name()?.to_str()?.strip_prefix("year=")?.parse().ok()
}

/// The part files of `table` for the chosen years (every year, unknown included, when `years` is empty).
/// An empty selection is an error that names the years.
pub fn part_files(dataset: &Path, table: &str, years: &[i32]) -> Result<Vec<PathBuf>> {
    let files: Vec<PathBuf> = haifu_ingest::stored::part_files(dataset, table)?
        .into_iter()
        .filter(|p| years.is_empty() || part_year(p).is_some_and(|y| years.contains(&y)))
        .collect();
    if files.is_empty() {
        bail!("{} has no {table} for years {}", dataset.display(), years_text(years));
    }
    Ok(files)
}

/// A reader of the named columns of one part file, in batches.
pub fn open(path: &Path, columns: &[&str]) -> Result<ParquetRecordBatchReader> {
    let f = File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(f).with_context(|| format!("reading {}", path.display()))?;
    let fields = builder.parquet_schema().root_schema().get_fields();
    let roots: Vec<usize> = columns
        .iter()
        .map(|c| {
            fields
                .iter()
                .position(|f| f.name() == *c)
                .ok_or_else(|| anyhow!("{} has no column `{c}` (docs/SCHEMA.md)", path.display()))
        })
        .collect::<Result<_>>()?;
    let mask = ProjectionMask::roots(builder.parquet_schema(), roots);
    Ok(builder.with_projection(mask).with_batch_size(65_536).build()?)
}

/// Every batch of `columns` of one file, each handed to `f`; errors name the file.
pub fn for_each_batch(path: &Path, columns: &[&str], mut f: impl FnMut(&RecordBatch) -> Result<()>) -> Result<()> {
    for b in open(path, columns)? {
        let b = b.with_context(|| format!("reading {}", path.display()))?;
        f(&b).with_context(|| format!("in {}", path.display()))?;
    }
    Ok(())
}

fn column<'a>(b: &'a RecordBatch, name: &str, path: &Path) -> Result<&'a ArrayRef> {
    b.column_by_name(name).ok_or_else(|| anyhow!("{} has no column `{name}`", path.display()))
}

/// A column cast to `to` (Polars writes string views or large strings, arrow-rs plain ones; integer widths
/// may differ between writers). Nulls are refused: every column read this way is non-null in the schema.
pub fn cast_to(b: &RecordBatch, name: &str, to: &DataType, path: &Path) -> Result<ArrayRef> {
    let c = column(b, name, path)?;
    if c.data_type() == to {
        return Ok(c.clone());
    }
    if c.null_count() > 0 {
        bail!("{}: column `{name}` has nulls", path.display());
    }
    arrow::compute::cast(c, to).with_context(|| format!("{}: column `{name}` is {}", path.display(), c.data_type()))
}

/// Games per player (distinct `game_id` among the player's decisions) in these decisions files, counting
/// the games `keep` accepts.
pub fn games_per_player(files: &[PathBuf], keep: impl Fn(i64) -> bool + Sync) -> Result<HashMap<String, u32>> {
    let partial = files
        .par_iter()
        .map(|path| {
            let mut games: HashMap<String, HashSet<i64>> = HashMap::new();
            for_each_batch(path, &["game_id", "player"], |b| {
                let ids = cast_to(b, "game_id", &DataType::Int64, path)?;
                let ids = ids.as_primitive::<Int64Type>();
                let players = cast_to(b, "player", &DataType::Utf8, path)?;
                let players = players.as_string::<i32>();
                for i in (0..b.num_rows()).filter(|&i| keep(ids.value(i))) {
                    let p = players.value(i);
                    match games.get_mut(p) {
                        Some(s) => {
                            s.insert(ids.value(i));
                        }
                        None => {
                            games.insert(p.to_string(), HashSet::from_iter([ids.value(i)]));
                        }
                    }
                }
                Ok(())
            })?;
            Ok(games)
        })
        .collect::<Result<Vec<_>>>()?;
    // a game lives in one part file, but a player's games spread over many: union the sets
    let mut all: HashMap<String, HashSet<i64>> = HashMap::new();
    for part in partial {
        for (p, g) in part {
            all.entry(p).or_default().extend(g);
        }
    }
    Ok(all.into_iter().map(|(p, g)| (p, g.len() as u32)).collect())
}

/// Which players a command is about: named ones, those with at least `min_games` games, or everyone.
pub fn choose_players(
    games: &HashMap<String, u32>,
    players: Option<&[String]>,
    min_games: Option<u32>,
    dataset: &Path,
    years: &[i32],
) -> Result<Vec<String>> {
    let mut chosen: Vec<String> = match (players, min_games) {
        (Some(names), _) => {
            require_players(names, |p| games.contains_key(p), dataset, years)?;
            names.to_vec()
        }
        (None, Some(n)) => games.iter().filter(|(_, &g)| g >= n).map(|(p, _)| p.clone()).collect(),
        (None, None) => games.keys().cloned().collect(),
    };
    chosen.sort();
    chosen.dedup();
    Ok(chosen)
}

/// An error naming the players of `names` that `known` does not know (none: `Ok`).
pub fn require_players(names: &[String], known: impl Fn(&str) -> bool, dataset: &Path, years: &[i32]) -> Result<()> {
    let missing: Vec<&str> = names.iter().map(String::as_str).filter(|p| !known(p)).collect();
    if missing.is_empty() {
        return Ok(());
    }
    bail!(
        "unknown player{} {}: no decisions in {} for years {}",
        if missing.len() > 1 { "s" } else { "" },
        missing.join(", "),
        dataset.display(),
        years_text(years)
    )
}
