//! Reading the ingest stage's dataset (docs/SCHEMA.md) for mining and evaluation: the part files of chosen
//! years, projected column readers, and the players of those years with their game counts.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{anyhow, bail, Context, Result};
use arrow::array::{Array, ArrayRef, AsArray, FixedSizeBinaryArray, RecordBatch};
use arrow::buffer::ScalarBuffer;
use arrow::datatypes::{DataType, Field, Int32Type, Int64Type, Schema};
use hashbrown::{HashMap, HashSet};
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder,
};
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

/// The part files of `table` for the chosen years (every year, unknown included, when `years` is empty); none
/// is not an error here.
pub fn year_parts(dataset: &Path, table: &str, years: &[i32]) -> Result<Vec<PathBuf>> {
    Ok(haifu_ingest::stored::part_files(dataset, table)?
        .into_iter()
        .filter(|p| years.is_empty() || part_year(p).is_some_and(|y| years.contains(&y)))
        .collect())
}

/// [`year_parts`], where an empty selection is an error that names the years.
pub fn part_files(dataset: &Path, table: &str, years: &[i32]) -> Result<Vec<PathBuf>> {
    let files = year_parts(dataset, table, years)?;
    if files.is_empty() {
        let there: std::collections::BTreeSet<i32> =
            year_parts(dataset, table, &[]).unwrap_or_default().iter().filter_map(|p| part_year(p)).collect();
        let there: Vec<String> = there.iter().map(i32::to_string).collect();
        bail!(
            "{} has no {table} for years {} (years there: {})",
            dataset.display(),
            years_text(years),
            if there.is_empty() { "none".to_string() } else { there.join(",") }
        );
    }
    Ok(files)
}

/// A reader of the named columns of one part file, in batches.
pub fn open(path: &Path, columns: &[&str]) -> Result<ParquetRecordBatchReader> {
    let (file, meta, mask) = reader_parts(path, columns, &[])?;
    Ok(ParquetRecordBatchReaderBuilder::new_with_metadata(file, meta)
        .with_projection(mask)
        .with_batch_size(65_536)
        .build()?)
}

/// The file, its metadata with the Arrow schema the reader should produce, and the projection of `columns`.
fn reader_parts(
    path: &Path,
    columns: &[&str],
    dictionaries: &[&str],
) -> Result<(File, ArrowReaderMetadata, ProjectionMask)> {
    let file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let reading = || format!("reading {}", path.display());
    let mut meta = ArrowReaderMetadata::load(&file, ArrowReaderOptions::new()).with_context(reading)?;
    if !dictionaries.is_empty() {
        let dict = DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8));
        let fields: Vec<Field> = meta
            .schema()
            .fields()
            .iter()
            .map(|f| match f.data_type() {
                DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
                    if dictionaries.contains(&f.name().as_str()) =>
                {
                    f.as_ref().clone().with_data_type(dict.clone())
                }
                _ => f.as_ref().clone(),
            })
            .collect();
        let options = ArrowReaderOptions::new().with_schema(Arc::new(Schema::new(fields)));
        meta = ArrowReaderMetadata::try_new(meta.metadata().clone(), options).with_context(reading)?;
    }
    // a column is a top-level name, or a field within one (`wins.yaku`: the leaves under it, lists' wrappers
    // aside), so that a struct column's other fields are not read
    let descr = meta.parquet_schema();
    let mut leaves = Vec::new();
    for c in columns {
        let want: Vec<&str> = c.split('.').collect();
        let before = leaves.len();
        leaves.extend((0..descr.num_columns()).filter(|&i| {
            let column = descr.column(i);
            let named =
                column.path().parts().iter().map(String::as_str).filter(|p| !matches!(*p, "list" | "item" | "element"));
            named.take(want.len()).eq(want.iter().copied())
        }));
        if leaves.len() == before {
            bail!("{} has no column `{c}` (docs/SCHEMA.md)", path.display());
        }
    }
    let mask = ProjectionMask::leaves(descr, leaves);
    Ok((file, meta, mask))
}

/// Every batch of `columns` of one file, each handed to `f`; errors name the file. A column is a top-level
/// name or a field within one (`wins.yaku`: only that field of the struct is read).
pub fn for_each_batch(path: &Path, columns: &[&str], f: impl FnMut(&RecordBatch) -> Result<()>) -> Result<()> {
    for_each_batch_as(path, columns, &[], f)
}

/// [`for_each_batch`] with the text columns named in `dictionaries` read as `Dictionary<Int32, Utf8>`:
/// their dictionary pages come through as stored, so a reader looks each distinct name up once per batch
/// instead of copying and comparing the text of every row. A batch never spans two row groups (each has a
/// dictionary of its own, and one that spans two makes the reader copy the values).
pub fn for_each_batch_as(
    path: &Path,
    columns: &[&str],
    dictionaries: &[&str],
    mut f: impl FnMut(&RecordBatch) -> Result<()>,
) -> Result<()> {
    let (file, meta, mask) = reader_parts(path, columns, dictionaries)?;
    for group in 0..meta.metadata().num_row_groups() {
        let file = file.try_clone().with_context(|| format!("reading {}", path.display()))?;
        let rows = (meta.metadata().row_group(group).num_rows().max(1) as usize).min(65_536);
        let reader = ParquetRecordBatchReaderBuilder::new_with_metadata(file, meta.clone())
            .with_projection(mask.clone())
            .with_row_groups(vec![group])
            .with_batch_size(rows)
            .build()?;
        for b in reader {
            let b = b.with_context(|| format!("reading {}", path.display()))?;
            f(&b).with_context(|| format!("in {}", path.display()))?;
        }
    }
    Ok(())
}

/// A text column read as a dictionary (see [`for_each_batch_as`]): its keys, and its distinct values mapped once by
/// `map` (a key's value is `mapped[key]`).
pub fn dictionary<T>(
    b: &RecordBatch,
    name: &str,
    path: &Path,
    map: impl FnMut(&str) -> T,
) -> Result<(ScalarBuffer<i32>, Vec<T>)> {
    let c = column(b, name, path)?;
    let d = c
        .as_dictionary_opt::<Int32Type>()
        .ok_or_else(|| anyhow!("{}: column `{name}` is {}, not a dictionary", path.display(), c.data_type()))?;
    if d.null_count() > 0 {
        bail!("{}: column `{name}` has nulls", path.display());
    }
    let values =
        d.values().as_string_opt::<i32>().ok_or_else(|| anyhow!("{}: `{name}` is not text", path.display()))?;
    Ok((d.keys().values().clone(), values.iter().map(|v| v.unwrap_or_default()).map(map).collect()))
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

/// The decisions table's `hand` column: 34 counts per row, one byte per tile kind (schema 3).
pub fn hands<'a>(b: &'a RecordBatch, path: &Path) -> Result<&'a FixedSizeBinaryArray> {
    let c = column(b, "hand", path)?;
    c.as_fixed_size_binary_opt().filter(|h| h.value_length() == 34).ok_or_else(|| {
        anyhow!("{}: column `hand` is {}, not 34 counts (FixedSizeBinary(34))", path.display(), c.data_type())
    })
}

/// Row `i`'s hand as 34 counts.
pub fn hand_counts(hands: &FixedSizeBinaryArray, i: usize) -> [u8; 34] {
    // the width is checked by `hands`
    hands.value(i).try_into().expect("34 counts")
}

/// Games per player (distinct `game_id` among the player's decisions) in these decisions files, counting
/// the games `keep` accepts.
pub fn games_per_player(files: &[PathBuf], keep: impl Fn(i64) -> bool + Sync) -> Result<HashMap<String, u32>> {
    let partial = files
        .par_iter()
        .map(|path| {
            let mut games: HashMap<String, u32> = HashMap::new();
            // a game's rows are consecutive in its file (the writer flushes whole games), so a player's
            // game is new when the game id changes; the players seen in the current game, by name
            let mut current: (i64, Vec<u32>) = (i64::MIN, Vec::new());
            let mut names: Vec<String> = Vec::new();
            let mut index: HashMap<String, u32> = HashMap::new();
            for_each_batch_as(path, &["game_id", "player"], &["player"], |b| {
                let ids = cast_to(b, "game_id", &DataType::Int64, path)?;
                let ids = ids.as_primitive::<Int64Type>();
                let (keys, players) = dictionary(b, "player", path, |p| {
                    *index.entry_ref(p).or_insert_with(|| {
                        names.push(p.to_string());
                        names.len() as u32 - 1
                    })
                })?;
                for i in (0..b.num_rows()).filter(|&i| keep(ids.value(i))) {
                    let (g, p) = (ids.value(i), players[keys[i] as usize]);
                    if current.0 != g {
                        current = (g, Vec::new());
                    }
                    if !current.1.contains(&p) {
                        current.1.push(p);
                        *games.entry_ref(names[p as usize].as_str()).or_insert(0) += 1;
                    }
                }
                Ok(())
            })?;
            Ok(games)
        })
        .collect::<Result<Vec<_>>>()?;
    // a game lives in one part file, but a player's games spread over many
    let mut all: HashMap<String, u32> = HashMap::new();
    for part in partial {
        for (p, g) in part {
            *all.entry(p).or_default() += g;
        }
    }
    Ok(all)
}

/// The players with a decision in these decisions files, each once. A row group's `player` chunk whose data
/// pages are all dictionary-encoded (what `haifu ingest` writes) gives them from its dictionary page alone,
/// without decoding a row (reading the column was 2% of a `haifu mine`); other chunks are read row by row.
pub fn player_names(files: &[PathBuf]) -> Result<HashSet<String>> {
    let partial = files
        .par_iter()
        .map(|path| {
            let mut names: HashSet<String> = HashSet::new();
            if !dictionary_names(path, "player", &mut names)? {
                for_each_batch_as(path, &["player"], &["player"], |b| {
                    let (keys, players) = dictionary(b, "player", path, |p| p.to_string())?;
                    // a batch's dictionary may hold a name none of its rows uses
                    let mut used = vec![false; players.len()];
                    for &k in keys.iter() {
                        used[k as usize] = true;
                    }
                    names.extend(players.into_iter().zip(used).filter(|(_, u)| *u).map(|(p, _)| p));
                    Ok(())
                })?;
            }
            Ok(names)
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(partial.into_iter().flatten().collect())
}

/// Adds the values of every row group's dictionary page of text column `name` to `names`. `false` when a chunk
/// has a data page that is not dictionary-encoded (its values may be missing from its dictionary): the caller
/// reads the rows then (whatever was added is the file's all the same).
fn dictionary_names(path: &Path, name: &str, names: &mut HashSet<String>) -> Result<bool> {
    use parquet::basic::Encoding;
    use parquet::column::page::Page;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let reading = || format!("reading {}", path.display());
    let file = File::open(path).with_context(reading)?;
    let reader = SerializedFileReader::new(file).with_context(reading)?;
    let schema = reader.metadata().file_metadata().schema_descr();
    let Some(column) = (0..schema.num_columns()).find(|&c| schema.column(c).path().string() == name) else {
        bail!("{} has no column `{name}` (docs/SCHEMA.md)", path.display());
    };
    let all_dictionary = reader.metadata().row_groups().iter().all(|g| {
        let c = g.column(column);
        c.dictionary_page_offset().is_some()
            && c.page_encoding_stats_mask()
                .is_some_and(|m| m.is_only(Encoding::RLE_DICTIONARY) || m.is_only(Encoding::PLAIN_DICTIONARY))
    });
    if !all_dictionary {
        return Ok(false);
    }
    for group in 0..reader.num_row_groups() {
        let mut pages =
            reader.get_row_group(group).with_context(reading)?.get_column_page_reader(column).with_context(reading)?;
        let Some(Page::DictionaryPage { buf, num_values, .. }) = pages.get_next_page().with_context(reading)? else {
            return Ok(false);
        };
        // PLAIN byte arrays: each value's length (4 bytes, little-endian), then its bytes
        let mut rest = &buf[..];
        for _ in 0..num_values {
            let bad = || anyhow!("{}: row group {group}: a broken dictionary page of `{name}`", path.display());
            let (len, tail) = rest.split_first_chunk::<4>().ok_or_else(bad)?;
            let len = u32::from_le_bytes(*len) as usize;
            let value = tail.get(..len).ok_or_else(bad)?;
            let value = std::str::from_utf8(value).map_err(|_| bad())?;
            if !names.contains(value) {
                names.insert(value.to_string());
            }
            rest = &tail[len..];
        }
    }
    Ok(true)
}

/// Which players a command is about: named ones, those with at least `min_games` games, or everyone. `games`
/// holds every known player, with their games where they were counted (they must be, for `min_games`).
pub fn choose_players(
    games: &HashMap<String, Option<u32>>,
    players: Option<&[String]>,
    min_games: Option<u32>,
    dataset: &Path,
    years: &[i32],
) -> Result<Vec<String>> {
    let mut chosen: Vec<String> = match (players, min_games) {
        (Some(names), _) => {
            require_players(names, games, dataset, years)?;
            names.to_vec()
        }
        (None, Some(n)) => games.iter().filter(|(_, g)| g.is_some_and(|g| g >= n)).map(|(p, _)| p.clone()).collect(),
        (None, None) => games.keys().cloned().collect(),
    };
    chosen.sort();
    chosen.dedup();
    Ok(chosen)
}

/// An error naming the players of `names` that `known` does not hold (none: `Ok`), with the nearest known name.
pub fn require_players<V>(names: &[String], known: &HashMap<String, V>, dataset: &Path, years: &[i32]) -> Result<()> {
    let missing: Vec<&str> = names.iter().map(String::as_str).filter(|p| !known.contains_key(*p)).collect();
    if missing.is_empty() {
        return Ok(());
    }
    bail!(
        "unknown player{} {}: no decisions in {} for years {}{}",
        if missing.len() > 1 { "s" } else { "" },
        missing.join(", "),
        dataset.display(),
        years_text(years),
        did_you_mean(missing[0], known.keys().map(String::as_str))
    )
}

/// "; did you mean "X"?" for an unknown name, or nothing: `X` is the known name that differs only in case, or
/// else the most similar one (Jaro-Winkler similarity at least 0.85: `tanyao` finds `Tanyao`, a typo finds its
/// name, an unrelated name finds nothing).
pub fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    let lower = name.to_lowercase();
    let mut best: Option<(f64, &str)> = None;
    for k in known {
        let score = if k.to_lowercase() == lower { 2.0 } else { strsim::jaro_winkler(&lower, &k.to_lowercase()) };
        if score >= 0.85 && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, k));
        }
    }
    best.map_or_else(String::new, |(_, k)| format!("; did you mean {k:?}?"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet::arrow::ArrowWriter;
    use parquet::file::properties::WriterProperties;

    /// A `player` column in two row groups, with or without dictionary pages.
    fn players_file(dir: &Path, dictionary: bool) -> PathBuf {
        let path = dir.join(format!("players-{dictionary}.parquet"));
        let schema = Arc::new(Schema::new(vec![Field::new("player", DataType::Utf8, false)]));
        let props = WriterProperties::builder().set_dictionary_enabled(dictionary).build();
        let mut w = ArrowWriter::try_new(File::create(&path).unwrap(), schema.clone(), Some(props)).unwrap();
        for rows in [vec!["b", "a", "b"], vec!["c", "b"]] {
            let column: ArrayRef = Arc::new(arrow::array::StringArray::from(rows));
            w.write(&RecordBatch::try_new(schema.clone(), vec![column]).unwrap()).unwrap();
            w.flush().unwrap();
        }
        w.close().unwrap();
        path
    }

    #[test]
    fn a_field_of_a_list_of_structs_is_read_alone() {
        use arrow::array::{ListBuilder, StructBuilder, UInt8Builder};
        let path = std::env::temp_dir().join(format!("haifu-leaves-{}.parquet", std::process::id()));
        let fields = vec![Field::new("who", DataType::UInt8, false), Field::new("han", DataType::UInt8, false)];
        let mut wins = ListBuilder::new(StructBuilder::from_fields(fields, 1));
        let win = wins.values();
        win.field_builder::<UInt8Builder>(0).unwrap().append_value(2);
        win.field_builder::<UInt8Builder>(1).unwrap().append_value(3);
        win.append(true);
        wins.append(true);
        let wins: ArrayRef = Arc::new(wins.finish());
        let batch = RecordBatch::try_from_iter([("wins", wins)]).unwrap();
        let mut w = ArrowWriter::try_new(File::create(&path).unwrap(), batch.schema(), None).unwrap();
        w.write(&batch).unwrap();
        w.close().unwrap();
        let mut read = Vec::new();
        for_each_batch(&path, &["wins.who"], |b| {
            let win = b.column(0).as_list::<i32>().values().as_struct().clone();
            read.push((
                win.column_names().join(","),
                win.column(0).as_primitive::<arrow::datatypes::UInt8Type>().value(0),
            ));
            Ok(())
        })
        .unwrap();
        assert_eq!(read, vec![("who".to_string(), 2)]);
        let e = for_each_batch(&path, &["wins.yaku"], |_| Ok(())).unwrap_err().to_string();
        assert!(e.contains("no column `wins.yaku`"), "{e}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn player_names_come_from_dictionary_pages_or_from_the_rows() {
        let dir = std::env::temp_dir().join(format!("haifu-player-names-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let want: HashSet<String> = ["a", "b", "c"].map(String::from).into();
        let (with, without) = (players_file(&dir, true), players_file(&dir, false));
        let mut names = HashSet::new();
        assert!(dictionary_names(&with, "player", &mut names).unwrap());
        assert_eq!(names, want);
        // plain pages: the dictionary path declines, the rows give the same names
        assert!(!dictionary_names(&without, "player", &mut HashSet::new()).unwrap());
        assert_eq!(player_names(&[with, without]).unwrap(), want);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
