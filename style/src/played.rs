//! What style counts of a game, read from the dataset's tables: its seats (games table), each round's kyoku,
//! outcomes and wins (rounds table) and each discard's flags and suit shapes (decisions table). The tables hold
//! all of it, so nothing is replayed here; a log that is not in a dataset (`haifu style identify --log`) is
//! replayed by ingest's extractor and turned into the same thing ([`Played::of_replay`]).

use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use arrow::array::{Array, AsArray, RecordBatch};
use arrow::datatypes::{DataType, Int32Type, Int64Type, UInt16Type, UInt32Type, UInt8Type};
use hashbrown::HashMap;
use rayon::prelude::*;

use haifu_ingest::batches::after_discard;
use haifu_ingest::extract::{ExtractedGame, Outcome, TileSource};
use haifu_ingest::stored::GameIndex;
use haifu_mining::dataset::{cast_to, dictionary, for_each_batch, for_each_batch_as, hand_counts, hands, year_parts};
use haifu_rules::hand::{shape_digits, suit_key};
use haifu_rules::table::GameType;
use haifu_rules::{Counts, Kind, Suit, Tile};

/// One game as style sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    pub game_id: i64,
    /// The Tenhou log id (`2019010100gm-00a9-0000-...`), where the file named one.
    pub log_id: Option<String>,
    pub n_players: u8,
    /// The players' names by seat ("" where the log gives none).
    pub names: Vec<String>,
    pub game_type: Option<GameType>,
    /// The completed rounds, in order: a decision's `round` is its place here.
    pub rounds: Vec<RoundOutcome>,
    /// Every discard, in the order of play.
    pub decisions: Vec<DecisionRow>,
}

/// How a completed round ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundOutcome {
    pub kyoku: u8,
    /// The round's counters at its start (E4-1: kyoku 3, honba 1).
    pub honba: u8,
    /// By seat, `n_players` of them.
    pub outcomes: Vec<Outcome>,
    /// In the order of the record (two for a double ron).
    pub wins: Vec<Win>,
}

/// One win of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Win {
    pub who: u8,
    pub from_who: u8,
    /// The hand's points (`AGARI ten`: no honba, no sticks).
    pub points: i32,
}

/// One discard (a row of the decisions table, the columns style reads).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecisionRow {
    pub event_index: u32,
    pub round: u16,
    pub seat: u8,
    pub turn: u8,
    pub source: TileSource,
    pub tsumogiri: bool,
    pub riichi: bool,
    pub in_riichi: bool,
    /// Per suit (man, pin, sou), the shape keys before and after the discard (SPEC 2).
    pub keys: [(u32, u32); 3],
    /// The tiles, read only when asked ([`Reading::tiles`]: the player report draws the hands).
    pub tiles: Option<Box<DecisionTiles>>,
}

/// The tiles of a discard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecisionTiles {
    /// The concealed hand before the discard (after the draw or call).
    pub hand: Counts,
    /// The state a sequence starts from (SPEC 2): the hand, or after a call the hand before it plus the called
    /// tile.
    pub before: Counts,
    pub discard: Tile,
    /// The tile drawn or called before the discard.
    pub source_tile: Tile,
    /// The kinds of the visible dora indicators, bit `k` for kind `k` ([`DecisionTiles::dora`] the dora).
    pub indicators: u64,
    /// Shanten of the hand before the discard (its 3n+2 tiles: the best discard's) and after it.
    pub shanten_before: i8,
    pub shanten_after: i8,
    pub tiles_left: u8,
    /// The seat has a meld (an open hand, or a closed kan).
    pub melds: bool,
}

impl DecisionTiles {
    /// The dora kinds at a table of `players` seats, bit `k` for kind `k`.
    pub fn dora(&self, players: u8) -> u64 {
        (0..34u8)
            .filter(|&k| self.indicators & 1 << k != 0)
            .fold(0, |m, k| m | 1 << Kind::from_index(k).dora_indicated(players).index())
    }
}

/// Which games to read, and how much of them.
pub struct Reading<'a> {
    /// Years of the games (empty: every year, games without a date included).
    pub years: &'a [i32],
    /// Seats at the table (4 or 3).
    pub players: u8,
    /// Also read each discard's tiles.
    pub tiles: bool,
}

/// Every game of `r.years` at tables of `r.players` seats that `keep` accepts (it sees the games index: year,
/// names), in the order of the games table. Only the columns style counts are read, and only the partitions
/// of those years.
pub fn read(dataset: &Path, r: &Reading, keep: impl Fn(&GameIndex, i64) -> bool) -> Result<Vec<Played>> {
    let index = GameIndex::read(dataset)?;
    let wanted = |g: i64| {
        index.players(g) == Some(r.players)
            && (r.years.is_empty() || index.year(g).is_some_and(|y| r.years.contains(&y)))
            && keep(&index, g)
    };
    let mut games: Vec<Played> = index
        .games()
        .iter()
        .filter(|&&g| wanted(g))
        .map(|&g| {
            let n_players = r.players;
            let names = (0..n_players).map(|s| index.name(g, s).to_string()).collect();
            let log_id = index.log_id(g).map(str::to_string);
            Played {
                game_id: g,
                log_id,
                n_players,
                names,
                game_type: index.game_type(g),
                rounds: vec![],
                decisions: vec![],
            }
        })
        .collect();
    if games.is_empty() {
        return Ok(games);
    }
    let place: HashMap<i64, usize> = games.iter().enumerate().map(|(i, g)| (g.game_id, i)).collect();
    let at = |g: i64| place.get(&g).copied();
    // each part's rows are read in parallel, then placed in the order of the parts
    let rounds: Vec<Placed<(u16, RoundOutcome)>> =
        year_parts(dataset, "rounds", r.years)?.par_iter().map(|p| rounds_of(p, &at)).collect::<Result<_>>()?;
    let mut numbered: Vec<Vec<(u16, RoundOutcome)>> = vec![Vec::new(); games.len()];
    for (i, round) in rounds.into_iter().flatten() {
        numbered[i].push(round);
    }
    let decisions: Vec<Placed<DecisionRow>> = year_parts(dataset, "decisions", r.years)?
        .par_iter()
        .map(|p| decisions_of(p, &at, r.tiles))
        .collect::<Result<_>>()?;
    for (i, d) in decisions.into_iter().flatten() {
        games[i].decisions.push(d);
    }
    for (g, mut rounds) in games.iter_mut().zip(numbered) {
        // ingest writes both in order; a table another tool rewrote may not be
        rounds.sort_by_key(|(round, _)| *round);
        g.decisions.sort_by_key(|d| d.event_index);
        let n = usize::from(g.n_players);
        let numbered =
            rounds.iter().enumerate().all(|(i, (round, r))| usize::from(*round) == i && r.outcomes.len() == n);
        let seated = g.decisions.iter().all(|d| usize::from(d.round) < rounds.len() && usize::from(d.seat) < n);
        if !numbered || !seated {
            bail!(
                "{}: game {}: its rounds and decisions do not match its games row (`haifu check`)",
                dataset.display(),
                g.game_id
            );
        }
        g.rounds = rounds.into_iter().map(|(_, r)| r).collect();
    }
    Ok(games)
}

/// Rows of the kept games, each with its game's place among them.
type Placed<T> = Vec<(usize, T)>;

/// The rounds of the kept games (`at`: a game's place) in one part file, with their number in the game.
fn rounds_of(path: &Path, at: &(impl Fn(i64) -> Option<usize> + Sync)) -> Result<Placed<(u16, RoundOutcome)>> {
    let mut out = Vec::new();
    for_each_batch(path, &["game_id", "round", "kyoku", "honba", "outcomes", "wins"], |b| {
        let ids = cast_to(b, "game_id", &DataType::Int64, path)?;
        let rounds = cast_to(b, "round", &DataType::UInt16, path)?;
        let kyoku = cast_to(b, "kyoku", &DataType::UInt8, path)?;
        let honba = cast_to(b, "honba", &DataType::UInt8, path)?;
        let (ids, rounds, kyoku) =
            (ids.as_primitive::<Int64Type>(), rounds.as_primitive::<UInt16Type>(), kyoku.as_primitive::<UInt8Type>());
        let honba = honba.as_primitive::<UInt8Type>();
        let outcomes = list(b, "outcomes", path)?;
        let names = outcomes.values().as_string_opt::<i32>().ok_or_else(|| anyhow!("`outcomes` is not text"))?;
        let wins = list(b, "wins", path)?;
        let win = wins.values().as_struct_opt().ok_or_else(|| anyhow!("`wins` is not a list of structs"))?;
        let field = |name: &str, to: &DataType| {
            let c = win.column_by_name(name).ok_or_else(|| anyhow!("`wins` has no `{name}`"))?;
            arrow::compute::cast(c, to).with_context(|| format!("`wins.{name}` is {}", c.data_type()))
        };
        let (who, from_who, points) =
            (field("who", &DataType::UInt8)?, field("from_who", &DataType::UInt8)?, field("points", &DataType::Int32)?);
        let (who, from_who, points) =
            (who.as_primitive::<UInt8Type>(), from_who.as_primitive::<UInt8Type>(), points.as_primitive::<Int32Type>());
        for i in 0..b.num_rows() {
            let Some(place) = at(ids.value(i)) else { continue };
            let seats = outcomes.value_offsets()[i] as usize..outcomes.value_offsets()[i + 1] as usize;
            let outcomes = seats.map(|s| outcome_named(names.value(s))).collect::<Result<_>>()?;
            let ws = wins.value_offsets()[i] as usize..wins.value_offsets()[i + 1] as usize;
            let wins =
                ws.map(|w| Win { who: who.value(w), from_who: from_who.value(w), points: points.value(w) }).collect();
            out.push((
                place,
                (rounds.value(i), RoundOutcome { kyoku: kyoku.value(i), honba: honba.value(i), outcomes, wins }),
            ));
        }
        Ok(())
    })?;
    Ok(out)
}

/// The decisions of the kept games in one part file.
fn decisions_of(path: &Path, at: &(impl Fn(i64) -> Option<usize> + Sync), tiles: bool) -> Result<Placed<DecisionRow>> {
    const FLAGS: [&str; 8] = ["game_id", "event_index", "round", "seat", "turn", "tsumogiri", "riichi", "in_riichi"];
    const KEYS: [&str; 6] =
        ["man_before_key", "man_after_key", "pin_before_key", "pin_after_key", "sou_before_key", "sou_after_key"];
    let mut columns: Vec<&str> = FLAGS.iter().chain(&KEYS).copied().collect();
    columns.push("source");
    if tiles {
        columns.extend(["hand", "discard", "source_tile", "shanten_before", "shanten_after", "tiles_left", "melds"]);
        columns.push("dora_indicators");
    }
    let mut out = Vec::new();
    for_each_batch_as(path, &columns, &["source"], |b| {
        let int = |c: &str, to: &DataType| cast_to(b, c, to, path);
        let ids = int("game_id", &DataType::Int64)?;
        let ids = ids.as_primitive::<Int64Type>();
        let event = int("event_index", &DataType::UInt32)?;
        let event = event.as_primitive::<UInt32Type>();
        let round = int("round", &DataType::UInt16)?;
        let round = round.as_primitive::<UInt16Type>();
        let [seat, turn] = ["seat", "turn"].map(|c| int(c, &DataType::UInt8));
        let (seat, turn) = (seat?, turn?);
        let (seat, turn) = (seat.as_primitive::<UInt8Type>(), turn.as_primitive::<UInt8Type>());
        let [tsumogiri, riichi, in_riichi] = ["tsumogiri", "riichi", "in_riichi"].map(|c| int(c, &DataType::Boolean));
        let (tsumogiri, riichi, in_riichi) = (tsumogiri?, riichi?, in_riichi?);
        let (tsumogiri, riichi, in_riichi) = (tsumogiri.as_boolean(), riichi.as_boolean(), in_riichi.as_boolean());
        let keys = KEYS.map(|c| int(c, &DataType::UInt32));
        let keys: Vec<_> = keys.into_iter().collect::<Result<_>>()?;
        let keys: Vec<&[u32]> = keys.iter().map(|k| &k.as_primitive::<UInt32Type>().values()[..]).collect();
        let (source_keys, sources) = dictionary(b, "source", path, source_named)?;
        let tile_columns = if tiles {
            let discard = int("discard", &DataType::UInt8)?;
            let called = int("source_tile", &DataType::UInt8)?;
            let shanten = [int("shanten_before", &DataType::Int8)?, int("shanten_after", &DataType::Int8)?];
            let left = int("tiles_left", &DataType::UInt8)?;
            let dora = list(b, "dora_indicators", path)?;
            let indicators = arrow::compute::cast(dora.values(), &DataType::UInt8)
                .with_context(|| format!("{}: column `dora_indicators` is not tiles", path.display()))?;
            Some((hands(b, path)?, discard, called, shanten, left, list(b, "melds", path)?, dora, indicators))
        } else {
            None
        };
        for i in 0..b.num_rows() {
            let Some(place) = at(ids.value(i)) else { continue };
            let source = *sources[source_keys[i] as usize].as_ref().map_err(|e| anyhow!("{e}"))?;
            let keys = [0, 1, 2].map(|s| (keys[2 * s][i], keys[2 * s + 1][i]));
            let tiles = match &tile_columns {
                None => None,
                Some((hand, discard, called, shanten, left, melds, dora, indicators)) => {
                    let tile = |c: &arrow::array::ArrayRef| {
                        Tile::new(c.as_primitive::<UInt8Type>().value(i))
                            .ok_or_else(|| anyhow!("{}: game {}: a tile id above 135", path.display(), ids.value(i)))
                    };
                    let hand = hand_counts(hand, i);
                    let source_tile = tile(called)?;
                    let before = before_of(&hand, &keys, source, source_tile);
                    let sh = |c: &arrow::array::ArrayRef| c.as_primitive::<arrow::datatypes::Int8Type>().value(i);
                    let shown = if dora.is_null(i) {
                        0..0
                    } else {
                        dora.value_offsets()[i] as usize..dora.value_offsets()[i + 1] as usize
                    };
                    let shown = shown.filter_map(|j| Tile::new(indicators.as_primitive::<UInt8Type>().value(j)));
                    let indicators = shown.fold(0u64, |m, t| m | 1 << t.kind().index());
                    Some(Box::new(DecisionTiles {
                        hand,
                        before,
                        discard: tile(discard)?,
                        source_tile,
                        indicators,
                        shanten_before: sh(&shanten[0]),
                        shanten_after: sh(&shanten[1]),
                        tiles_left: left.as_primitive::<UInt8Type>().value(i),
                        melds: !melds.is_null(i) && !melds.value(i).is_empty(),
                    }))
                }
            };
            out.push((
                place,
                DecisionRow {
                    event_index: event.value(i),
                    round: round.value(i),
                    seat: seat.value(i),
                    turn: turn.value(i),
                    source,
                    tsumogiri: tsumogiri.value(i),
                    riichi: riichi.value(i),
                    in_riichi: in_riichi.value(i),
                    keys,
                    tiles,
                },
            ));
        }
        Ok(())
    })?;
    Ok(out)
}

fn list<'a>(b: &'a RecordBatch, name: &str, path: &Path) -> Result<&'a arrow::array::ListArray> {
    b.column_by_name(name)
        .and_then(|c| c.as_list_opt::<i32>())
        .ok_or_else(|| anyhow!("{}: column `{name}` is missing or not a list", path.display()))
}

const SOURCES: [TileSource; 5] =
    [TileSource::Draw, TileSource::Chi, TileSource::Pon, TileSource::Kan, TileSource::Nuki];

const OUTCOMES: [Outcome; 8] = [
    Outcome::Win,
    Outcome::DealIn,
    Outcome::TsumoLoss,
    Outcome::Pao,
    Outcome::Bystander,
    Outcome::DrawTenpai,
    Outcome::DrawNoten,
    Outcome::Abortive,
];

fn source_named(name: &str) -> Result<TileSource, String> {
    SOURCES.into_iter().find(|s| s.name() == name).ok_or_else(|| format!("unknown decision source {name:?}"))
}

fn outcome_named(name: &str) -> Result<Outcome> {
    OUTCOMES.into_iter().find(|o| o.name() == name).ok_or_else(|| anyhow!("unknown round outcome {name:?}"))
}

/// The state a sequence starts from, from the decisions table: the suits' `before` keys, and the honors of the
/// hand, which after a pon of an honor held the pon's three tiles too (a chi takes no honor, and after a draw
/// the state is the hand).
fn before_of(hand: &Counts, keys: &[(u32, u32); 3], source: TileSource, called: Tile) -> Counts {
    let mut before = *hand;
    for (suit, (key, _)) in Suit::ALL.into_iter().zip(keys) {
        let base = usize::from(suit.kind(1).index());
        before[base..base + 9].copy_from_slice(&shape_digits(*key));
    }
    if source == TileSource::Pon && called.kind().is_honor() {
        before[usize::from(called.kind().index())] += 3;
    }
    before
}

impl Played {
    /// A replayed game (its tiles included), the same as [`read`] gives for it from the tables.
    pub fn of_replay(game_id: i64, g: &ExtractedGame) -> Played {
        let n = usize::from(g.info.n_players);
        let rounds = g
            .rounds
            .iter()
            .map(|r| RoundOutcome {
                kyoku: r.init.kyoku,
                honba: r.init.honba,
                outcomes: r.outcomes[..n].to_vec(),
                wins: r.wins().iter().map(|w| Win { who: w.who, from_who: w.from_who, points: w.points }).collect(),
            })
            .collect();
        let decisions = g
            .decisions
            .iter()
            .map(|d| {
                let after = after_discard(*d.hand.counts(), d.discard);
                DecisionRow {
                    event_index: d.event_index,
                    round: d.round,
                    seat: d.seat,
                    turn: d.turn,
                    source: d.source,
                    tsumogiri: d.tsumogiri,
                    riichi: d.riichi,
                    in_riichi: d.in_riichi,
                    keys: Suit::ALL.map(|s| (suit_key(&d.before, s), suit_key(&after, s))),
                    tiles: Some(Box::new(DecisionTiles {
                        hand: *d.hand.counts(),
                        before: d.before,
                        discard: d.discard,
                        source_tile: d.source_tile,
                        indicators: g.rounds.get(usize::from(d.round)).map_or(0, |r| {
                            let shown = r.dora_indicators.iter().take(usize::from(d.dora_count));
                            shown.fold(0u64, |m, t| m | 1 << t.kind().index())
                        }),
                        shanten_before: d.shanten_before,
                        shanten_after: d.shanten_after,
                        tiles_left: d.tiles_left,
                        melds: !d.melds.is_empty(),
                    })),
                }
            })
            .collect();
        Played {
            game_id,
            // a replay carries no file name; the caller that has one sets it
            log_id: None,
            n_players: g.info.n_players,
            names: g.info.players[..n].iter().map(|p| p.name.clone()).collect(),
            game_type: g.info.game_type,
            rounds,
            decisions,
        }
    }
}
