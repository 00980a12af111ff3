//! Positions as a network's input, without libtorch: seed 004's flat features of one seat's view
//! ([`features`], with the per-opponent [`features::Safety`] the mjai player keeps too), the CNN's planes and
//! the augmentations as index maps over them ([`planes`], [`augment`]), the positions of a dataset replayed
//! from its events ([`positions`]; every other decision's in [`choices`]) and cached beside it ([`cache`]), the train/test split, and the names of a
//! run's options ([`options`]). The `haifu-neural` crate builds the networks on these with tch; every crate
//! that only encodes (the mjai player, the command line's argument parsing) depends on this one and never
//! links libtorch.

pub mod augment;
pub mod cache;
pub mod choices;
pub mod features;
pub mod options;
pub mod planes;
pub mod positions;

use std::path::Path;

use anyhow::{bail, Context, Result};
use rayon::prelude::*;

pub use haifu_ingest::stored::{GameIndex as Games, ANONYMOUS};
pub use options::Decisions;
pub use positions::Positions;

/// Which games feed training and which the test.
#[derive(Clone, Debug, Default)]
pub struct Split {
    /// Years of the training games (empty: every year not tested).
    pub years: Vec<i32>,
    /// Years of the test games; empty: one game in ten of the training years, chosen by a hash of its id.
    pub test_years: Vec<i32>,
    /// Four- or three-player games (never mixed in one model, SPEC 5.3).
    pub players: u8,
    /// Only this player's decisions (a personal model).
    pub player: Option<String>,
    /// Train on this share of the training games only (a learning curve), chosen by a hash of the game id so
    /// that a smaller share is part of every larger one; `None`: all of them.
    pub fraction: Option<f64>,
    /// Train on one fold of the training games only: fold K of N (1-based), the games [`in_fold`] puts there,
    /// so that N runs together train on each training game once and each has games the others trained on but
    /// it did not (cross-fitting: a reading of every training game by a network that never saw it).
    pub fold: Option<(u16, u16)>,
    /// The discards, or every other choice ([`choices`]).
    pub decisions: Decisions,
    /// Train on this share of the games of `years`, the test the rest (`test_years` empty): the games
    /// [`haifu_ingest::stored::in_sample`] chooses, as `haifu style build --sample` does, so that a network and
    /// a style database can be trained on the same games and tested on the same others.
    pub sample: Option<f64>,
}

/// What a run records of its split (`model.json`): which games were on its training side and which on its
/// test side, so that a later measurement can refuse a network that trained on its test games.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sides {
    pub years: Vec<i32>,
    pub test_years: Vec<i32>,
    #[serde(default)]
    pub sample: Option<f64>,
    #[serde(default)]
    pub fraction: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fold: Option<(u16, u16)>,
}

impl std::fmt::Display for Sides {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let years = |ys: &[i32]| match ys {
            [] => "every year".to_string(),
            ys => ys.iter().map(i32::to_string).collect::<Vec<_>>().join(","),
        };
        write!(f, "training years {}", years(&self.years))?;
        match (self.sample, self.test_years.is_empty()) {
            (Some(s), _) => write!(f, ", a sample of {s} of their games (the test the rest)")?,
            (None, true) => write!(f, ", one game in ten held out for the test")?,
            (None, false) => write!(f, ", test years {}", years(&self.test_years))?,
        }
        if let Some(fr) = self.fraction {
            write!(f, ", {fr} of the training games")?;
        }
        if let Some((k, n)) = self.fold {
            write!(f, ", fold {k} of {n} of the training games")?;
        }
        Ok(())
    }
}

impl Sides {
    /// Which side game `g` is on: `Some(true)` the test, `Some(false)` training, `None` neither.
    pub fn of(&self, games: &Games, g: i64) -> Option<bool> {
        side_in(&self.years, &self.test_years, self.sample, (self.fraction, self.fold), games, g)
    }
}

impl Split {
    /// The sides a run of this split records.
    pub fn sides(&self) -> Sides {
        Sides {
            years: self.years.clone(),
            test_years: self.test_years.clone(),
            sample: self.sample,
            fraction: self.fraction,
            fold: self.fold,
        }
    }
}

/// Whether a training game is in the first `fraction` of the games (nested: 1/8 within 1/4 within 1/2),
/// by hash bits independent of [`held_out`]'s.
pub fn in_fraction(game_id: i64, fraction: f64) -> bool {
    ((haifu_ingest::stored::game_hash(game_id) / 10) % 4096) as f64 / 4096.0 < fraction
}

/// Whether a training game is in fold `k` of `n` (1-based): the same hash bits as [`in_fraction`], so that
/// fold 1 of 2 is the fraction 0.5 and fold 2 of 2 the rest.
pub fn in_fold(game_id: i64, (k, n): (u16, u16)) -> bool {
    let bucket = (haifu_ingest::stored::game_hash(game_id) / 10) % 4096;
    let (k, n) = (u64::from(k), u64::from(n.max(1)));
    bucket * n >= (k - 1) * 4096 && bucket * n < k * 4096
}

/// One game in ten, the same ones in every run ([`haifu_ingest::stored::game_hash`]).
pub fn held_out(game_id: i64) -> bool {
    haifu_ingest::stored::game_hash(game_id).is_multiple_of(10)
}

/// Which side of `split` game `g` is on: `Some(true)` the test, `Some(false)` training, `None` neither.
fn side_of(games: &Games, split: &Split, g: i64) -> Option<bool> {
    side_in(&split.years, &split.test_years, split.sample, (split.fraction, split.fold), games, g)
}

/// The side of game `g` by the parts of a split ([`Split`], [`Sides`]), the share and the fold of the training
/// games trained on the last but one.
fn side_in(
    years: &[i32],
    test_years: &[i32],
    sample: Option<f64>,
    (fraction, fold): (Option<f64>, Option<(u16, u16)>),
    games: &Games,
    g: i64,
) -> Option<bool> {
    let in_years = |ys: &[i32]| ys.is_empty() || games.year(g).is_some_and(|y| ys.contains(&y));
    if let Some(f) = sample {
        in_years(years).then(|| !haifu_ingest::stored::in_sample(g, Some(f)))
    } else if test_years.is_empty() {
        in_years(years).then(|| held_out(g))
    } else if games.year(g).is_some_and(|y| test_years.contains(&y)) {
        Some(true)
    } else {
        in_years(years).then_some(false)
    }
    .filter(|&test| test || (fraction.is_none_or(|f| in_fraction(g, f)) && fold.is_none_or(|k| in_fold(g, k))))
}

/// The year partitions that hold the games of either side.
fn partitions(games: &Games, split: &Split) -> Vec<Option<i32>> {
    games.year_partitions(|y| {
        split.years.is_empty() || y.is_some_and(|y| split.years.contains(&y) || split.test_years.contains(&y))
    })
}

/// The training and test positions of a dataset under `split`, from the cache or replayed in parallel.
pub fn load(dataset: &Path, games: &Games, split: &Split) -> Result<(Positions, Positions)> {
    let mut all = cached(dataset, split.decisions, split.players, games, &partitions(games, split))?;
    if let Some(p) = &split.player {
        all = of_player(games, &all, p);
        if all.is_empty() {
            bail!("{p:?} has no decisions in the chosen years of {}", dataset.display());
        }
    }
    let test = all.select(|i| side_of(games, split, all.game[i]) == Some(true));
    Ok((all.select(|i| side_of(games, split, all.game[i]) == Some(false)), test))
}

/// One side of a split as [`load`] gives it, the same positions in the same order, in batches of a size (the
/// last one shorter), read from the cache files a batch at a time: for positions larger than memory. A
/// partition without a current cache file is replayed and cached first, as [`load`] does.
pub struct Batches {
    games: Games,
    split: Split,
    test: bool,
    size: usize,
    files: std::collections::VecDeque<(std::path::PathBuf, u64)>,
    reader: Option<cache::Reader>,
    pending: Positions,
}

/// [`Batches`] of `size` positions of the test side (`test`) or the training side of `split`.
pub fn batches(dataset: &Path, games: &Games, split: &Split, test: bool, size: usize) -> Result<Batches> {
    if size == 0 {
        bail!("a batch of 0 positions");
    }
    let files = current_files(dataset, split.decisions, split.players, games, &partitions(games, split))?;
    Ok(Batches {
        games: games.clone(),
        split: split.clone(),
        test,
        size,
        files: files.into(),
        reader: None,
        pending: Positions::default(),
    })
}

/// The cache files of the `wanted` partitions with their keys, each current: a partition without a current
/// file is replayed and cached first.
fn current_files(
    dataset: &Path,
    decisions: Decisions,
    players: u8,
    games: &Games,
    wanted: &[Option<i32>],
) -> Result<Vec<(std::path::PathBuf, u64)>> {
    let keys = cache::keys(dataset, decisions, wanted)?;
    let path = |y| cache::path(dataset, decisions, players, y);
    let missing: Vec<(Option<i32>, u64)> = wanted
        .iter()
        .zip(&keys)
        .filter(|(&y, &k)| cache::Reader::open(&path(y), k).is_none())
        .map(|(&y, &k)| (y, k))
        .collect();
    if !missing.is_empty() {
        build(dataset, decisions, players, games, missing)?;
    }
    Ok(wanted.iter().zip(keys).map(|(&y, k)| (path(y), k)).collect())
}

/// The positions of the games of `years` (every year when empty) at tables of `players` seats whose (game id,
/// seat) `keep` accepts, in the order [`load_years`] gives them. The cache files are read a chunk at a time, so
/// that the memory it takes is the kept positions', not the years'.
pub fn load_seats(
    dataset: &Path,
    games: &Games,
    years: &[i32],
    players: u8,
    keep: impl Fn(i64, u8) -> bool,
) -> Result<Positions> {
    let wanted = games.year_partitions(|y| years.is_empty() || y.is_some_and(|y| years.contains(&y)));
    let mut kept = Positions::default();
    for (path, key) in current_files(dataset, Decisions::Discards, players, games, &wanted)? {
        let Some(mut reader) = cache::Reader::open(&path, key) else {
            bail!(
                "{}: the positions cache changed while it was read (another run rebuilt it): read again",
                path.display()
            )
        };
        while let Some(p) = reader.next_rows(1 << 16)? {
            kept.extend(p.select(|i| keep(p.game[i], p.seat[i])));
        }
    }
    Ok(kept)
}

impl Batches {
    fn keeps(&self, p: &Positions, i: usize) -> bool {
        let (g, s) = (p.game[i], p.seat[i]);
        side_of(&self.games, &self.split, g) == Some(self.test)
            && self.split.player.as_ref().is_none_or(|name| self.games.name(g, s) == name)
    }
}

impl Iterator for Batches {
    type Item = Result<Positions>;

    fn next(&mut self) -> Option<Result<Positions>> {
        loop {
            if self.pending.len() >= self.size {
                return Some(Ok(self.pending.take_front(self.size)));
            }
            let Some(reader) = &mut self.reader else {
                let Some((path, key)) = self.files.pop_front() else {
                    return (!self.pending.is_empty()).then(|| Ok(std::mem::take(&mut self.pending)));
                };
                match cache::Reader::open(&path, key) {
                    Some(r) => self.reader = Some(r),
                    None => {
                        self.files.clear();
                        return Some(Err(anyhow::anyhow!(
                            "{}: the positions cache changed while it was read (another run rebuilt it): read again",
                            path.display()
                        )));
                    }
                }
                continue;
            };
            match reader.next_rows(self.size) {
                Err(e) => {
                    self.files.clear();
                    self.reader = None;
                    return Some(Err(e));
                }
                Ok(None) => self.reader = None,
                Ok(Some(p)) => {
                    let kept = p.select(|i| self.keeps(&p, i));
                    self.pending.extend(kept);
                }
            }
        }
    }
}

/// The positions where `player` discarded.
pub fn of_player(games: &Games, p: &Positions, player: &str) -> Positions {
    p.select(|i| games.name(p.game[i], p.seat[i]) == player)
}

/// The positions of the games of `years` (every year when empty) at tables of `players` seats.
pub fn load_years(dataset: &Path, games: &Games, years: &[i32], players: u8) -> Result<Positions> {
    let wanted = games.year_partitions(|y| years.is_empty() || y.is_some_and(|y| years.contains(&y)));
    cached(dataset, Decisions::Discards, players, games, &wanted)
}

/// The positions of the chosen partitions, each from its cache file when that is current; the others are
/// replayed from the events (in parallel) and cached.
fn cached(
    dataset: &Path,
    decisions: Decisions,
    players: u8,
    games: &Games,
    wanted: &[Option<i32>],
) -> Result<Positions> {
    let mut found: hashbrown::HashMap<Option<i32>, Positions> = hashbrown::HashMap::new();
    let mut missing = Vec::new();
    for (&y, key) in wanted.iter().zip(cache::keys(dataset, decisions, wanted)?) {
        match cache::read(&cache::path(dataset, decisions, players, y), key) {
            Some(p) => {
                found.insert(y, p);
            }
            None => missing.push((y, key)),
        }
    }
    if !missing.is_empty() {
        found.extend(build(dataset, decisions, players, games, missing)?);
    }
    let mut all = Positions::default();
    for y in wanted {
        all.extend(found.remove(y).unwrap_or_default());
    }
    Ok(all)
}

/// Replays the `missing` partitions (year, cache key) and writes their cache files; returns their positions.
fn build(
    dataset: &Path,
    decisions: Decisions,
    players: u8,
    games: &Games,
    missing: Vec<(Option<i32>, u64)>,
) -> Result<hashbrown::HashMap<Option<i32>, Positions>> {
    let todo: Vec<Option<i32>> = missing.iter().map(|m| m.0).collect();
    let mut fresh = replay(dataset, decisions, players, |g| {
        let y = games.year(g);
        todo.contains(&y).then_some(y)
    })?;
    missing
        .into_iter()
        .map(|(y, key)| {
            let p = fresh.remove(&y).unwrap_or_default();
            cache::write(&cache::path(dataset, decisions, players, y), key, &p)?;
            Ok((y, p))
        })
        .collect()
}

/// Replays the games `side` gives a side to, in parallel, into one position set per side, in the order of
/// the events table.
fn replay<S: Copy + Eq + std::hash::Hash + Send + Sync>(
    dataset: &Path,
    decisions: Decisions,
    players: u8,
    side: impl Fn(i64) -> Option<S> + Sync,
) -> Result<hashbrown::HashMap<S, Positions>> {
    let games = haifu_ingest::stored::read_games(dataset).with_context(|| format!("reading {}", dataset.display()))?;
    let parts: Vec<(S, Positions)> = games
        .par_iter()
        .filter_map(|(g, r)| side(*g).map(|s| (s, g, r)))
        .map(|(s, g, r)| {
            let p = match decisions {
                Decisions::Discards => positions::of_game(*g, r)?,
                Decisions::Choices => choices::of_game(*g, r)?,
            };
            Ok((s, p))
        })
        .collect::<Result<_>>()?;
    let mut sides: hashbrown::HashMap<S, Positions> = hashbrown::HashMap::new();
    for (s, p) in parts {
        let p = p.select(|i| p.players[i] == players);
        sides.entry(s).or_default().extend(p);
    }
    Ok(sides)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_are_nested_shares_independent_of_the_held_out_games() {
        let ids: Vec<i64> = (0..40_000).map(|i| i * 7_919 + 13).collect();
        for (small, large) in [(0.125, 0.25), (0.25, 0.5), (0.5, 1.0)] {
            assert!(ids.iter().filter(|&&g| in_fraction(g, small)).all(|&g| in_fraction(g, large)));
        }
        for f in [0.125, 0.25, 0.5] {
            let share = ids.iter().filter(|&&g| in_fraction(g, f)).count() as f64 / ids.len() as f64;
            assert!((share - f).abs() < 0.01, "{f}: {share}");
            // the held-out tenth is cut by the same share: the two choices do not lean on each other
            let held: Vec<&i64> = ids.iter().filter(|&&g| held_out(g)).collect();
            let within = held.iter().filter(|&&&g| in_fraction(g, f)).count() as f64 / held.len() as f64;
            assert!((within - f).abs() < 0.03, "{f}: {within} of the held-out games");
        }
        assert!(ids.iter().all(|&g| in_fraction(g, 1.0)));
    }

    /// Folds split the training games: each game in exactly one fold of N, about 1/N of them each, fold 1 of 2
    /// the fraction 0.5; a run of one fold trains on none of another's games, and tests on the same games.
    #[test]
    fn folds_split_the_training_games_once_each() {
        let ids: Vec<i64> = (0..40_000).map(|i| i * 7_919 + 13).collect();
        for n in [2u16, 3, 5] {
            for &g in &ids {
                assert_eq!((1..=n).filter(|&k| in_fold(g, (k, n))).count(), 1, "game {g}, {n} folds");
            }
            for k in 1..=n {
                let share = ids.iter().filter(|&&g| in_fold(g, (k, n))).count() as f64 / ids.len() as f64;
                assert!((share - 1.0 / f64::from(n)).abs() < 0.01, "fold {k} of {n}: {share}");
            }
        }
        assert!(ids.iter().all(|&g| in_fold(g, (1, 2)) == in_fraction(g, 0.5)));
        let games = Games::default();
        let fold = |k| Split { sample: Some(0.8), fold: Some((k, 2)), players: 4, ..Split::default() }.sides();
        let (one, two) = (fold(1), fold(2));
        for &g in &ids {
            let (a, b) = (one.of(&games, g), two.of(&games, g));
            assert!(!(a == Some(false) && b == Some(false)), "game {g} trained on by both folds");
            assert_eq!(a == Some(true), b == Some(true), "game {g}: the folds' tests differ");
            assert!(a.is_some() || b.is_some(), "game {g}: on no side of either fold");
        }
    }

    /// `--sample F` trains on the games `haifu style build --sample F` profiles and tests on the others, and the
    /// sides a run records place every game as the split did.
    #[test]
    fn a_sample_split_trains_on_the_sampled_games_and_tests_on_the_rest() {
        let games = Games::default();
        let split = Split { sample: Some(0.8), players: 4, ..Split::default() };
        let sides = split.sides();
        let ids: Vec<i64> = (0..20_000).map(|i| i * 104_729 + 7).collect();
        for &g in &ids {
            let side = side_of(&games, &split, g);
            assert_eq!(side, Some(!haifu_ingest::stored::in_sample(g, Some(0.8))));
            assert_eq!(side, sides.of(&games, g));
        }
        let trained = ids.iter().filter(|&&g| side_of(&games, &split, g) == Some(false)).count() as f64;
        assert!((trained / ids.len() as f64 - 0.8).abs() < 0.01);
        // the recorded sides are read back as written
        let back: Sides = serde_json::from_str(&serde_json::to_string(&sides).unwrap()).unwrap();
        assert_eq!(back, sides);
        assert!(sides.to_string().contains("a sample of 0.8"), "{sides}");
    }
}
