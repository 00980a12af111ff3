//! The statistics of the thesis's chapter 5, each as a [`Table`]:
//! - 5.1 [`yaku_frequency`]: share of wins with each yaku;
//! - 5.2 [`strategy_years`]: rounds per year won with tanyao / chanta+junchan / yakuhai;
//! - 5.3 [`top_sequences`]: the most frequent sequences per strategy, with a minimum length;
//! - 5.4 [`histogram`]: how many distinct sequences occur 1, 2, ... times (one player, and all);
//! - 5.5 [`hand_matches`]: exact 14-tile concealed hands of some years found again in other years;
//! - 5.6 [`coverage`]: the part of the sequence space ([`crate::space`]) a table has seen.

use std::path::Path;

use anyhow::{anyhow, bail, Result};
use arrow::array::AsArray;
use arrow::datatypes::{DataType, UInt8Type};
use hashbrown::{HashMap, HashSet};

use crate::dataset::{cast_to, for_each_batch, hand_counts, hands, part_files, part_year, years_text};
use crate::report::{Cell, Table};
use crate::shape::Shape;
use crate::space;
use crate::strategy::Strategy;
use crate::tables::{read_counts, SequenceCounts};
use crate::ALL_SCOPE;

/// One round of the rounds table as the statistics need it.
struct RoundWins {
    year: Option<i32>,
    won: bool,
    /// Per win: its yaku and yakuman ids.
    wins: Vec<Vec<u8>>,
}

fn rounds(dataset: &Path, years: &[i32]) -> Result<Vec<RoundWins>> {
    let mut out = Vec::new();
    for path in part_files(dataset, "rounds", years)? {
        let year = part_year(&path);
        for_each_batch(&path, &["result", "wins"], |b| {
            let result = cast_to(b, "result", &DataType::Utf8, &path)?;
            let result = result.as_string::<i32>();
            let wins = b.column_by_name("wins").and_then(|c| c.as_list_opt::<i32>()).ok_or_else(|| anyhow!("wins"))?;
            let w = wins.values().as_struct_opt().ok_or_else(|| anyhow!("`wins` is not a list of structs"))?;
            let ids = |name: &str| {
                w.column_by_name(name).and_then(|c| c.as_list_opt::<i32>()).ok_or_else(|| anyhow!("wins.{name}"))
            };
            let (yaku, yaku_han, yakuman) = (ids("yaku")?, ids("yaku_han")?, ids("yakuman")?);
            for i in 0..b.num_rows() {
                let range = wins.value_offsets()[i] as usize..wins.value_offsets()[i + 1] as usize;
                let wins = range
                    .map(|k| {
                        let ids = yaku.value(k);
                        let han = yaku_han.value(k);
                        let (ids, han) =
                            (ids.as_primitive::<UInt8Type>().values(), han.as_primitive::<UInt8Type>().values());
                        // Tenhou lists ura dora at 0 han on every riichi win: a yaku counts where it scores
                        let mut v: Vec<u8> =
                            ids.iter().zip(han.iter()).filter(|(_, &h)| h > 0).map(|(&y, _)| y).collect();
                        v.extend(yakuman.value(k).as_primitive::<UInt8Type>().values().iter());
                        v
                    })
                    .collect();
                out.push(RoundWins { year, won: result.value(i) == "agari", wins });
            }
            Ok(())
        })?;
    }
    Ok(out)
}

/// 5.1: per yaku id, the wins that include it and their share of all wins (thesis: riichi 42.54%); and
/// one row for the yakuhai strategy as a whole (any of ids 10-20), as the thesis counts it.
pub fn yaku_frequency(dataset: &Path, years: &[i32]) -> Result<Table> {
    let rounds = rounds(dataset, years)?;
    let mut per = [0u64; 55];
    let (mut wins, mut yakuhai) = (0u64, 0u64);
    for w in rounds.iter().flat_map(|r| &r.wins) {
        wins += 1;
        yakuhai += u64::from(w.iter().any(|&y| Strategy::Yakuhai.has_yaku(y)));
        let distinct: HashSet<u8> = w.iter().copied().collect();
        for id in distinct {
            if let Some(n) = per.get_mut(usize::from(id)) {
                *n += 1;
            }
        }
    }
    let mut t = Table::new("yaku_frequency", "Yaku frequency (thesis table 5.1)", &["id", "yaku", "wins", "percent"]);
    t.note(format!("wins: {wins} (a double ron counts two wins), years {}", years_text(years)));
    t.note(
        "percent = wins with the yaku / all wins; dora, aka dora and ura dora (52-54) count as yaku ids, as Tenhou lists \
         them, each only on a win where it scores above 0 han (Tenhou lists ura dora at 0 han on every riichi win)",
    );
    let mut rows: Vec<(u64, String, String)> = (0..per.len())
        .filter(|&i| per[i] > 0)
        .map(|i| (per[i], format!("{i:02}"), haifu_rules::yaku_name(i as u8).unwrap_or("?").to_string()))
        .collect();
    rows.push((yakuhai, "10-20".into(), "yakuhai (any)".into()));
    rows.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    for (n, id, name) in rows {
        t.push(vec![Cell::text(id), Cell::text(name), Cell::int(n), Cell::ratio(n, wins)]);
    }
    Ok(t)
}

/// 5.2: per year, rounds, rounds won, and rounds won with each strategy's yaku (a round counts once per
/// strategy even with two winners).
pub fn strategy_years(dataset: &Path, years: &[i32]) -> Result<Table> {
    let rounds = rounds(dataset, years)?;
    let mut per: std::collections::BTreeMap<Option<i32>, [u64; 5]> = Default::default();
    for r in &rounds {
        let row = per.entry(r.year).or_default();
        row[0] += 1;
        row[1] += u64::from(r.won);
        for (k, s) in Strategy::YAKU.into_iter().enumerate() {
            row[2 + k] += u64::from(r.wins.iter().any(|w| w.iter().any(|&y| s.has_yaku(y))));
        }
    }
    let mut t = Table::new(
        "strategy_years",
        "Rounds won with each strategy, per year (thesis table 5.2)",
        &["year", "rounds", "won", "tanyao", "chanta+junchan", "yakuhai"],
    );
    t.note("tanyao = yaku 8; chanta+junchan = 23 or 33; yakuhai = 10-20 (seat and round winds, dragons)");
    for (year, row) in per {
        let mut cells = vec![Cell::text(year.map_or("unknown".to_string(), |y| y.to_string()))];
        cells.extend(row.iter().map(|&n| Cell::int(n)));
        t.push(cells);
    }
    Ok(t)
}

/// A note naming the tables and the options they were mined with (`meta.json`), for every table statistic.
fn tables_note(dir: &Path) -> String {
    let meta = crate::tables::read_meta(dir).ok().flatten();
    match meta.as_ref().and_then(|m| m.get("options")) {
        Some(serde_json::Value::Object(o)) => {
            // options as words (`years 2019,2020, rounds all, ...`), not as JSON; unset ones left out, a long list
            // of named players summed up by its length (a style database names hundreds)
            let shown: Vec<String> = o
                .iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| {
                    let v = match v {
                        serde_json::Value::Array(a) if k == "years" && a.is_empty() => "every year".to_string(),
                        serde_json::Value::Array(a) if a.len() > 10 => format!("{} named", a.len()),
                        serde_json::Value::Array(a) => a
                            .iter()
                            .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string))
                            .collect::<Vec<_>>()
                            .join(","),
                        serde_json::Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    format!("{} {v}", k.replace('_', " "))
                })
                .collect();
            format!("tables {} mined with {}", dir.display(), shown.join(", "))
        }
        Some(_) => format!("tables {} (meta.json has no options object)", dir.display()),
        None => format!("tables {} (no meta.json: options unknown)", dir.display()),
    }
}

/// The sequence-table counts of one scope and strategy, summed over sources.
fn table<'a>(counts: &'a SequenceCounts, scope: &str, s: Strategy, dir: &Path) -> Result<&'a HashMap<(u32, u32), u64>> {
    counts.get(&(scope.to_string(), s)).ok_or_else(|| {
        anyhow!("{} holds no {} table for scope {scope:?}", dir.join(crate::tables::SEQUENCES).display(), s.name())
    })
}

/// 5.3: the `k` most frequent sequences of each strategy with at least `min_length` tiles in `before`
/// (ties by before, then after, as text).
pub fn top_sequences(dir: &Path, scope: &str, k: usize, min_length: usize) -> Result<Table> {
    let counts = read_counts(dir, Some(&[scope.to_string()]))?;
    let mut t = Table::new(
        "top_sequences",
        "Most frequent sequences per strategy (thesis table 5.3)",
        &["strategy", "rank", "before", "after", "count"],
    );
    t.note(tables_note(dir));
    t.note(format!("scope {scope}; before length >= {min_length}; raw counts (no mirror folding), every source"));
    t.note("before and after are the digits of one suit, the three suits counted together (SPEC 2): 3336678 is 3336678m, 3336678p or 3336678s");
    for s in Strategy::EVERY {
        let Ok(m) = table(&counts, scope, s, dir) else { continue };
        let mut rows: Vec<(u64, String, String)> = m
            .iter()
            .filter(|(&(b, _), _)| Shape::from_key(b).len() >= min_length)
            .map(|(&(b, a), &n)| (n, Shape::from_key(b).to_string(), Shape::from_key(a).to_string()))
            .collect();
        rows.sort_by(|x, y| y.0.cmp(&x.0).then_with(|| (&x.1, &x.2).cmp(&(&y.1, &y.2))));
        for (i, (n, b, a)) in rows.into_iter().take(k).enumerate() {
            t.push(vec![Cell::text(s.name()), Cell::int(i as i64 + 1), Cell::text(b), Cell::text(a), Cell::int(n)]);
        }
    }
    Ok(t)
}

/// The buckets of thesis table 5.4, as (label, low, high) inclusive.
pub const BUCKETS: [(&str, u64, u64); 12] = [
    (">=100", 100, u64::MAX),
    ("50-99", 50, 99),
    ("10-49", 10, 49),
    ("9", 9, 9),
    ("8", 8, 8),
    ("7", 7, 7),
    ("6", 6, 6),
    ("5", 5, 5),
    ("4", 4, 4),
    ("3", 3, 3),
    ("2", 2, 2),
    ("1", 1, 1),
];

/// 5.4: for each scope, how many distinct (before, after) pairs of the `all` table occur in each count
/// bucket, with their share, and the most frequent pair.
pub fn histogram(dir: &Path, scopes: &[String]) -> Result<Table> {
    let counts = read_counts(dir, Some(scopes))?;
    let mut t = Table::new(
        "histogram",
        "Distinct sequences by occurrence count (thesis table 5.4)",
        &["scope", "occurrences", "sequences", "percent"],
    );
    t.note(tables_note(dir));
    t.note("strategy all, every source; a sequence = a distinct (before, after) pair");
    for scope in scopes {
        let m = table(&counts, scope, Strategy::All, dir)?;
        let total = m.len() as u64;
        for (label, lo, hi) in BUCKETS {
            let n = m.values().filter(|&&c| (lo..=hi).contains(&c)).count() as u64;
            t.push(vec![Cell::text(scope), Cell::text(label), Cell::int(n), Cell::ratio(n, total)]);
        }
        if let Some((&(b, a), &n)) = m.iter().max_by_key(|(&k, &n)| (n, std::cmp::Reverse(k))) {
            t.note(format!(
                "{scope}: {total} distinct sequences; the most frequent ({}, {}) {n} times",
                Shape::from_key(b),
                Shape::from_key(a)
            ));
        }
    }
    Ok(t)
}

/// 5.5: exact 14-tile concealed hands (no melds; 34 counts, red fives as fives) of the decisions of
/// `a_years` looked up among those of `b_years`, optionally for some players only.
pub fn hand_matches(dataset: &Path, a_years: &[i32], b_years: &[i32], players: Option<&[String]>) -> Result<Table> {
    if a_years.iter().any(|y| b_years.contains(y)) {
        bail!("the two sets of years overlap: {} and {}", years_text(a_years), years_text(b_years));
    }
    let read = |years: &[i32]| -> Result<(u64, HashSet<[u8; 34]>)> {
        let mut n = 0u64;
        let mut set = HashSet::new();
        for path in part_files(dataset, "decisions", years)? {
            for_each_batch(&path, &["player", "hand"], |b| {
                let player = cast_to(b, "player", &DataType::Utf8, &path)?;
                let player = player.as_string::<i32>();
                let hand = hands(b, &path)?;
                for i in 0..b.num_rows() {
                    if players.is_some_and(|p| !p.iter().any(|x| x == player.value(i))) {
                        continue;
                    }
                    let c = hand_counts(hand, i);
                    if c.iter().map(|&x| u32::from(x)).sum::<u32>() == 14 {
                        n += 1;
                        set.insert(c);
                    }
                }
                Ok(())
            })?;
        }
        Ok((n, set))
    };
    let (na, a) = read(a_years)?;
    let (nb, b) = read(b_years)?;
    let matched = a.iter().filter(|h| b.contains(*h)).count();
    let mut t = Table::new(
        "hand_matches",
        "Exact 14-tile hands found again in other years (thesis 5.5)",
        &[
            "years A",
            "decisions A",
            "distinct hands A",
            "years B",
            "decisions B",
            "distinct hands B",
            "hands of A in B",
        ],
    );
    t.note("a hand = the 34 counts of a 14-tile concealed state (no melds); red fives count as fives");
    if let Some(p) = players {
        t.note(format!("players: {}", p.join(", ")));
    }
    t.push(vec![
        Cell::text(years_text(a_years)),
        Cell::int(na),
        Cell::int(a.len() as u64),
        Cell::text(years_text(b_years)),
        Cell::int(nb),
        Cell::int(b.len() as u64),
        Cell::int(matched as u64),
    ]);
    Ok(t)
}

/// 5.6: for each scope, the distinct shapes (`before`) and one-tile (before, after) pairs its `all` table
/// has seen, against the space of SPEC 2; pairs from calls (more than one tile leaves) are counted apart.
pub fn coverage(dir: &Path, scopes: &[String]) -> Result<Table> {
    let counts = read_counts(dir, Some(scopes))?;
    let (space_shapes, space_pairs) = (space::shapes(), space::pairs());
    let mut t = Table::new(
        "coverage",
        "Coverage of the sequence space (thesis 5.6)",
        &["scope", "sequences", "one-tile pairs", "percent of pairs", "befores", "percent of shapes", "call pairs"],
    );
    t.note(tables_note(dir));
    t.note(format!(
        "space: {space_shapes} suit shapes of 1-14 tiles (at most 4 of a digit); {space_pairs} (before, after) pairs \
         removing one tile. Strategy all, every source."
    ));
    for scope in scopes {
        let m = table(&counts, scope, Strategy::All, dir)?;
        let one_tile = |&(b, a): &(u32, u32)| Shape::from_key(b).len() == Shape::from_key(a).len() + 1;
        let pairs = m.keys().filter(|k| one_tile(k)).count() as u64;
        let befores: HashSet<u32> = m.keys().map(|&(b, _)| b).collect();
        t.push(vec![
            Cell::text(scope),
            Cell::int(m.len() as u64),
            Cell::int(pairs),
            Cell::ratio(pairs, space_pairs),
            Cell::int(befores.len() as u64),
            Cell::ratio(befores.len() as u64, space_shapes),
            Cell::int(m.len() as u64 - pairs),
        ]);
    }
    Ok(t)
}

/// The `n` player scopes with the most sequence occurrences in their `all` table (ties by name), from
/// `players.parquet`.
pub fn heaviest_scopes(dir: &Path, n: usize) -> Result<Vec<String>> {
    use arrow::datatypes::UInt64Type;
    let path = dir.join(crate::tables::PLAYERS);
    let mut all: Vec<(u64, String)> = Vec::new();
    for_each_batch(&path, &["scope", "strategy", "sequences"], |b| {
        let scope = cast_to(b, "scope", &DataType::Utf8, &path)?;
        let strategy = cast_to(b, "strategy", &DataType::Utf8, &path)?;
        let seqs = cast_to(b, "sequences", &DataType::UInt64, &path)?;
        let (scope, strategy) = (scope.as_string::<i32>(), strategy.as_string::<i32>());
        let seqs = seqs.as_primitive::<UInt64Type>();
        for i in 0..b.num_rows() {
            if strategy.value(i) == Strategy::All.name() && scope.value(i) != ALL_SCOPE {
                all.push((seqs.value(i), scope.value(i).to_string()));
            }
        }
        Ok(())
    })?;
    all.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    Ok(all.into_iter().take(n).map(|(_, s)| s).collect())
}

/// Scopes for the table statistics: the named ones, else `ALL` and the player with the most sequences.
pub fn default_scopes(dir: &Path, named: Option<&[String]>) -> Result<Vec<String>> {
    if let Some(n) = named {
        return Ok(n.to_vec());
    }
    Ok(std::iter::once(ALL_SCOPE.to_string()).chain(heaviest_scopes(dir, 1)?).collect())
}

/// How decisive a player is (thesis 6.5: the bot spreads its choices among equal options): over the
/// `before` shapes its `all` table saw at least `min_count` times, the entropy of `after` given `before`
/// (bits, weighted by occurrences) and the mean share of the most frequent `after`.
pub fn decisiveness(dir: &Path, scopes: &[String], min_count: u64) -> Result<Table> {
    let counts = read_counts(dir, Some(scopes))?;
    let mut t = Table::new(
        "decisiveness",
        "Decisiveness: entropy of the discard given the suit shape (thesis 6.5)",
        &["scope", "befores", "occurrences", "entropy bits", "top share", "befores seen once"],
    );
    t.note(tables_note(dir));
    t.note(format!(
        "over the befores of each scope's `all` table seen >= {min_count} times; entropy of after | before \
         weighted by occurrences (0 = always the same choice); top share = mean share of the most frequent after"
    ));
    t.note("small samples lower the entropy: compare scopes with similar occurrences, or raise the minimum");
    for scope in scopes {
        let m = table(&counts, scope, Strategy::All, dir)?;
        let mut per: HashMap<u32, Vec<u64>> = HashMap::new();
        for (&(b, _), &n) in m {
            per.entry(b).or_default().push(n);
        }
        let once = per.values().filter(|v| v.iter().sum::<u64>() == 1).count();
        let (mut befores, mut occ, mut h_sum, mut top_sum) = (0u64, 0u64, 0.0f64, 0.0f64);
        for v in per.values() {
            let n: u64 = v.iter().sum();
            if n < min_count {
                continue;
            }
            let h: f64 = v.iter().map(|&c| c as f64 / n as f64).map(|p| -p * p.log2()).sum();
            befores += 1;
            occ += n;
            h_sum += h * n as f64;
            top_sum += *v.iter().max().unwrap_or(&0) as f64 / n as f64;
        }
        t.push(vec![
            Cell::text(scope),
            Cell::int(befores),
            Cell::int(occ),
            if occ > 0 { Cell::Float(h_sum / occ as f64, 3) } else { Cell::Empty },
            if befores > 0 { Cell::Percent(top_sum / befores as f64) } else { Cell::Empty },
            Cell::int(once as u64),
        ]);
    }
    Ok(t)
}

/// Final places and points of the players of `players` in the complete games of `years` (every year when
/// empty): games, the share of each place, the mean place and the mean final points (with uma); and the
/// distribution of those final points, pooled, in bins of 10.
pub fn placements(dataset: &Path, years: &[i32], players: &[String]) -> Result<(Table, Table)> {
    use arrow::array::Array;
    use arrow::datatypes::{Float64Type, Int64Type};
    let index = haifu_ingest::stored::GameIndex::read(dataset)?;
    // per player: games, places 1..4, sum of places, sum of points
    let mut per: HashMap<&str, (u64, [u64; 4], u64, f64)> =
        players.iter().map(|p| (p.as_str(), Default::default())).collect();
    // bins of 10 points: bin b holds [10 b, 10 b + 10)
    let mut bins: std::collections::BTreeMap<i64, u64> = std::collections::BTreeMap::new();
    for b in haifu_ingest::stored::read_table(dataset, "games")? {
        let ids = b.column_by_name("game_id").and_then(|c| c.as_primitive_opt::<Int64Type>());
        let names = b.column_by_name("names").and_then(|c| c.as_list_opt::<i32>());
        let ranks = b.column_by_name("ranks").and_then(|c| c.as_list_opt::<i32>());
        let points = b.column_by_name("final_points").and_then(|c| c.as_list_opt::<i32>());
        let (Some(ids), Some(names), Some(ranks), Some(points)) = (ids, names, ranks, points) else {
            bail!("{}: games table without game_id, names, ranks or final_points", dataset.display());
        };
        for i in 0..b.num_rows() {
            let g = ids.value(i);
            if !years.is_empty() && !index.year(g).is_some_and(|y| years.contains(&y)) {
                continue;
            }
            if names.is_null(i) || ranks.is_null(i) || points.is_null(i) {
                continue; // an incomplete game has no final places
            }
            let (n, r, p) = (names.value(i), ranks.value(i), points.value(i));
            let (n, r, p) = (n.as_string::<i32>(), r.as_primitive::<UInt8Type>(), p.as_primitive::<Float64Type>());
            for seat in 0..n.len().min(r.len()).min(p.len()) {
                if let Some(e) = per.get_mut(n.value(seat)) {
                    let place = usize::from(r.value(seat).clamp(1, 4));
                    e.0 += 1;
                    e.1[place - 1] += 1;
                    e.2 += place as u64;
                    e.3 += p.value(seat);
                    *bins.entry((p.value(seat) / 10.0).floor() as i64).or_default() += 1;
                }
            }
        }
    }
    let mut t = Table::new(
        "placements",
        "Final places and points of the test players",
        &["player", "games", "1st", "2nd", "3rd", "4th", "mean place", "mean points"],
    );
    t.note(format!(
        "complete games of years {}; points are the final game points with uma (`owari`)",
        years_text(years)
    ));
    for p in players {
        let (games, places, sum, points) = per[p.as_str()];
        let mut row = vec![Cell::text(p.clone()), Cell::int(games)];
        row.extend(places.iter().map(|&k| Cell::ratio(k, games)));
        row.push(if games > 0 { Cell::Float(sum as f64 / games as f64, 2) } else { Cell::Empty });
        row.push(if games > 0 { Cell::Float(points / games as f64, 1) } else { Cell::Empty });
        t.push(row);
    }
    let total: u64 = bins.values().sum();
    let mut d = Table::new(
        "final_points",
        "Final points of the test players' games, pooled",
        &["from", "to", "games", "percent"],
    );
    d.note("final game points with uma (`owari`), in bins of 10: from <= points < to; empty bins between kept");
    let span = bins.keys().next().zip(bins.keys().next_back()).map(|(&lo, &hi)| lo..=hi);
    for b in span.into_iter().flatten() {
        let n = bins.get(&b).copied().unwrap_or(0);
        d.push(vec![Cell::int(b * 10), Cell::int(b * 10 + 10), Cell::int(n), Cell::ratio(n, total)]);
    }
    Ok((t, d))
}
