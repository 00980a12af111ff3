//! The plain yardstick of identification (issue 50): 30 habit rates per game and seat, read straight from the
//! decisions table's columns (no replay, no sequence, no choice), and linear discriminant analysis over the
//! profiled players. The same features as `../shared/bench/stylometry_baseline.py` (which computes this baseline
//! independently, with DuckDB and scikit-learn), computed here in the same run as haifu's own methods so that
//! `haifu style accuracy` sets them side by side on the same trials.
//!
//! The model: each profiled player's games are draws of one Gaussian whose mean is the player's and whose
//! covariance all players share (pooled within players, from the profile games); a block of games scores each
//! player by the sum of its games' log-densities. A rate with no opportunity in a game (no riichi: no riichi
//! turn) takes the profile games' mean.
//!
//! One difference from the script: its `melds is null` never holds on a haifu dataset (a hand without melds has
//! an empty list), so its `dama_tenpai` is empty and its `open_tenpai` counts every hand. Here the two split by
//! whether the seat has a meld, as they were meant to.

use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context, Result};
use hashbrown::HashMap;
use nalgebra::{DMatrix, DVector};
use serde::{Deserialize, Serialize};

use haifu_ingest::extract::{Outcome, TileSource};

use crate::played::Played;

/// The features, in the script's order.
pub const FEATURES: [&str; 30] = [
    "tsumogiri",
    "riichi_per_round",
    "chi_per_round",
    "pon_per_round",
    "early_honor",
    "early_term",
    "early_28",
    "mid_share",
    "dragon_share",
    "wind_share",
    "riichi_turn",
    "backoff",
    "mid_shanten",
    "dama_tenpai",
    "open_tenpai",
    "win",
    "deal_in",
    "late_backoff",
    "term_share",
    "d28_share",
    "d37_share",
    "first_honor",
    "first_dragon",
    "honor_t6",
    "draw_backoff",
    "called_share",
    "riichi_tiles_left",
    "early_5",
    "mean_shanten",
    "mean_turn",
];
const D: usize = FEATURES.len();

/// One game's features of one seat (`NaN`: no opportunity in the game).
pub type GameFeatures = [f64; D];

/// Sums and counts of each feature's average.
#[derive(Clone, Copy)]
struct Means([(f64, u32); D]);

impl Means {
    fn add(&mut self, f: usize, x: f64) {
        self.0[f].0 += x;
        self.0[f].1 += 1;
    }
    fn flag(&mut self, f: usize, b: bool) {
        self.add(f, f64::from(u8::from(b)));
    }
    fn value(&self, f: usize) -> f64 {
        let (s, n) = self.0[f];
        if n == 0 {
            f64::NAN
        } else {
            s / f64::from(n)
        }
    }
}

/// Each seat's features in a game, by seat. Needs the discards' tiles ([`crate::played::Reading`] `tiles`).
pub fn of_game(g: &Played) -> Vec<GameFeatures> {
    let n = usize::from(g.n_players);
    let mut m = vec![Means([(0.0, 0); D]); n];
    let mut rounds = vec![Vec::<u16>::new(); n];
    let mut counts = vec![[0u32; 3]; n]; // riichi, chi, pon
    for d in &g.decisions {
        let s = usize::from(d.seat);
        if !rounds[s].contains(&d.round) {
            rounds[s].push(d.round);
        }
        counts[s][0] += u32::from(d.riichi);
        counts[s][1] += u32::from(d.source == TileSource::Chi);
        counts[s][2] += u32::from(d.source == TileSource::Pon);
        let Some(t) = &d.tiles else { continue };
        let x = &mut m[s];
        let k = t.discard.kind().index();
        let (honor, digit) = (k >= 27, k % 9);
        let suited = |ds: &[u8]| !honor && ds.contains(&digit);
        let (sb, sa) = (t.shanten_before, t.shanten_after);
        let free = !d.in_riichi;
        if d.turn == 1 {
            x.flag(21, honor);
            x.flag(22, k >= 31);
        }
        if d.riichi {
            x.add(10, f64::from(d.turn));
            x.add(26, f64::from(t.tiles_left));
        }
        x.flag(25, free && d.source != TileSource::Draw);
        if !free {
            continue;
        }
        x.flag(0, d.tsumogiri);
        if d.turn <= 4 {
            x.flag(4, honor);
            x.flag(5, suited(&[0, 8]));
            x.flag(6, suited(&[1, 7]));
        }
        x.flag(7, suited(&[3, 4, 5]));
        x.flag(8, k >= 31);
        x.flag(9, honor && k < 31);
        x.flag(11, sa > sb);
        if (6..=9).contains(&d.turn) {
            x.add(12, f64::from(sa));
        }
        if !t.melds && !d.riichi {
            x.flag(13, sa == 0);
        }
        if t.melds {
            x.flag(14, sa == 0);
        }
        if t.tiles_left < 30 {
            x.flag(17, sa > sb);
        }
        x.flag(18, suited(&[0, 8]));
        x.flag(19, suited(&[1, 7]));
        x.flag(20, suited(&[2, 6]));
        if d.turn <= 6 {
            x.flag(23, honor);
        }
        if d.source == TileSource::Draw {
            x.flag(24, sa > sb);
        }
        if d.turn <= 3 {
            x.flag(27, suited(&[4]));
        }
        x.add(28, f64::from(sa));
        x.add(29, f64::from(d.turn));
    }
    (0..n)
        .map(|s| {
            let mut f: GameFeatures = std::array::from_fn(|i| m[s].value(i));
            let r = rounds[s].len() as f64;
            let outcome = |o: Outcome| {
                rounds[s].iter().filter(|&&i| g.rounds.get(usize::from(i)).is_some_and(|x| x.outcomes[s] == o)).count()
                    as f64
            };
            if r > 0.0 {
                f[1] = f64::from(counts[s][0]) / r;
                f[2] = f64::from(counts[s][1]) / r;
                f[3] = f64::from(counts[s][2]) / r;
                f[15] = outcome(Outcome::Win) / r;
                f[16] = outcome(Outcome::DealIn) / r;
            } else {
                for i in [1, 2, 3, 15, 16] {
                    f[i] = f64::NAN;
                }
            }
            f
        })
        .collect()
}

/// The profile games' mean and spread of each feature (over the games where it had an opportunity): what a
/// game's features are standardised by.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Spread {
    fill: [f64; D],
    scale: [f64; D],
}

impl Spread {
    pub fn of<'a>(games: impl IntoIterator<Item = &'a GameFeatures>) -> Spread {
        let (mut sum, mut sq, mut n) = ([0.0; D], [0.0; D], [0u32; D]);
        let games: Vec<&GameFeatures> = games.into_iter().collect();
        for x in &games {
            for f in (0..D).filter(|&f| x[f].is_finite()) {
                sum[f] += x[f];
                n[f] += 1;
            }
        }
        let fill: [f64; D] = std::array::from_fn(|f| if n[f] == 0 { 0.0 } else { sum[f] / f64::from(n[f]) });
        for x in &games {
            for f in (0..D).filter(|&f| x[f].is_finite()) {
                sq[f] += (x[f] - fill[f]).powi(2);
            }
        }
        let scale = std::array::from_fn(|f| {
            let var = sq[f] / f64::from(n[f].max(1));
            if var > 1e-12 {
                var.sqrt()
            } else {
                1.0
            }
        });
        Spread { fill, scale }
    }

    /// A game's features less the means, over the spreads; a missing one at the mean.
    pub fn standardised(&self, x: &GameFeatures) -> DVector<f64> {
        let (fill, scale) = (&self.fill, &self.scale);
        DVector::from_iterator(D, (0..D).map(|f| if x[f].is_finite() { (x[f] - fill[f]) / scale[f] } else { 0.0 }))
    }
}

/// The database's file of the discriminant fitted on its profile games (`style build`): what `style identify
/// --by baseline` reads, as `style accuracy` fits the same in its run.
pub const BASELINE_FILE: &str = "baseline.json";

/// The discriminant as its file holds it: the features' names, the players in order, the spread, each player's
/// mean and the precision by rows.
#[derive(Serialize, Deserialize)]
struct Stored {
    features: Vec<String>,
    players: Vec<String>,
    spread: Spread,
    means: Vec<Vec<f64>>,
    precision: Vec<Vec<f64>>,
}

/// The discriminant fitted on the profile games: each player's mean, the shared precision, and the means that
/// stand in for a missing feature. Features are standardised by the profile games' spread first (for the
/// arithmetic; the ranking does not depend on it).
#[derive(Clone, Debug)]
pub struct Discriminant {
    pub players: Vec<String>,
    spread: Spread,
    means: Vec<DVector<f64>>,
    precision: DMatrix<f64>,
}

impl Discriminant {
    /// Fits on `games` (player, features) for `players` (their order is the order of the scores).
    pub fn fit(players: &[String], games: &[(&str, GameFeatures)]) -> Result<Discriminant> {
        let place: HashMap<&str, usize> = players.iter().enumerate().map(|(i, p)| (p.as_str(), i)).collect();
        let rows: Vec<(usize, &GameFeatures)> =
            games.iter().filter_map(|(p, x)| place.get(p).map(|&i| (i, x))).collect();
        if rows.len() <= players.len() {
            bail!("the plain baseline needs more profile games ({}) than players ({})", rows.len(), players.len());
        }
        let spread = Spread::of(rows.iter().map(|(_, x)| *x));
        let xs: Vec<(usize, DVector<f64>)> = rows.iter().map(|(i, x)| (*i, spread.standardised(x))).collect();
        let mut sums = vec![DVector::zeros(D); players.len()];
        let mut n = vec![0usize; players.len()];
        for (i, x) in &xs {
            sums[*i] += x;
            n[*i] += 1;
        }
        let means: Vec<DVector<f64>> =
            sums.into_iter().zip(&n).map(|(s, &k)| if k > 0 { s / k as f64 } else { DVector::zeros(D) }).collect();
        let mut within = DMatrix::zeros(D, D);
        for (i, x) in &xs {
            let c = x - &means[*i];
            within += &c * c.transpose();
        }
        within /= (xs.len() - players.len()) as f64;
        // a feature constant within every player (or a combination of others) leaves the covariance singular: a
        // little of the identity keeps it invertible without moving the others
        for f in 0..D {
            within[(f, f)] += 1e-6;
        }
        let Some(precision) = within.try_inverse() else { bail!("the plain baseline's covariance is singular") };
        Ok(Discriminant { players: players.to_vec(), spread, means, precision })
    }

    /// Fits on every seat of `games` whose player is one of `players`: the database's profile games.
    pub fn of_games<'a>(players: &[String], games: impl IntoIterator<Item = &'a Played>) -> Result<Discriminant> {
        let mut rows = Vec::new();
        for game in games {
            for (seat, x) in of_game(game).into_iter().enumerate() {
                rows.push((game.names[seat].as_str(), x));
            }
        }
        Discriminant::fit(players, &rows)
    }

    /// Writes it to `path` whole or not at all.
    pub fn write(&self, path: &Path) -> Result<()> {
        let stored = Stored {
            features: FEATURES.iter().map(|f| f.to_string()).collect(),
            players: self.players.clone(),
            spread: self.spread.clone(),
            means: self.means.iter().map(|m| m.iter().copied().collect()).collect(),
            precision: self.precision.row_iter().map(|r| r.iter().copied().collect()).collect(),
        };
        let text = serde_json::to_string(&stored)?;
        haifu_ingest::files::atomic_write(path, |mut f| Ok(f.write_all(text.as_bytes())?))
    }

    /// A database's discriminant; `None` for a database built before it was stored (or of too few games).
    pub fn read_db(dir: &Path) -> Result<Option<Discriminant>> {
        let path = dir.join(BASELINE_FILE);
        let Ok(text) = std::fs::read_to_string(&path) else { return Ok(None) };
        let s: Stored = serde_json::from_str(&text).with_context(|| path.display().to_string())?;
        let shaped = s.features.len() == D
            && s.means.len() == s.players.len()
            && s.means.iter().all(|m| m.len() == D)
            && s.precision.len() == D
            && s.precision.iter().all(|r| r.len() == D);
        if !shaped || s.features.iter().zip(FEATURES).any(|(a, b)| a != b) {
            bail!("{}: not this version's {D} features (build the database again)", path.display());
        }
        Ok(Some(Discriminant {
            players: s.players,
            spread: s.spread,
            means: s.means.into_iter().map(DVector::from_vec).collect(),
            precision: DMatrix::from_row_iterator(D, D, s.precision.into_iter().flatten()),
        }))
    }

    /// The sum of each player's log-densities over `games` (each a game's features), by player.
    pub fn log_density_sums<'a>(&'a self, games: &[GameFeatures]) -> HashMap<&'a str, f64> {
        let mut sums = vec![0.0; self.players.len()];
        for x in games {
            sums.iter_mut().zip(self.log_densities(x)).for_each(|(s, d)| *s += d);
        }
        self.players.iter().map(String::as_str).zip(sums).collect()
    }

    /// The log-density of one game's features under each player's Gaussian (up to one constant shared by all).
    pub fn log_densities(&self, x: &GameFeatures) -> Vec<f64> {
        let v = self.spread.standardised(x);
        self.means
            .iter()
            .map(|m| {
                let c = &v - m;
                -0.5 * (c.transpose() * &self.precision * &c)[(0, 0)]
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two players whose first feature differs by two of its spreads: a game of each lands nearer its own mean.
    #[test]
    fn the_discriminant_ranks_the_nearer_mean_first() {
        let players = vec!["a".to_string(), "b".to_string()];
        let mut games = Vec::new();
        for i in 0..200 {
            let noise = ((i * 37) % 11) as f64 / 10.0 - 0.5;
            for (p, centre) in [("a", 0.0), ("b", 2.0)] {
                let mut x = [0.0; D];
                for (f, v) in x.iter_mut().enumerate() {
                    *v = ((i * (f + 3)) % 7) as f64 / 7.0;
                }
                x[0] = centre + noise;
                games.push((p, x));
            }
        }
        let lda = Discriminant::fit(&players, &games).unwrap();
        // written and read back, the same densities (to 1e-9: JSON's decimals may round a last bit)
        let dir = std::env::temp_dir().join(format!("haifu-baseline-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        lda.write(&dir.join(BASELINE_FILE)).unwrap();
        let back = Discriminant::read_db(&dir).unwrap().unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        for (_, x) in games.iter().take(20) {
            for (a, b) in back.log_densities(x).into_iter().zip(lda.log_densities(x)) {
                assert!((a - b).abs() <= 1e-9 * b.abs().max(1.0), "{a} against {b}");
            }
        }
        assert_eq!(back.players, lda.players);
        let mut probe = games[0].1;
        probe[0] = 0.1;
        let s = lda.log_densities(&probe);
        assert!(s[0] > s[1], "{s:?}");
        probe[0] = 1.9;
        let s = lda.log_densities(&probe);
        assert!(s[1] > s[0], "{s:?}");
    }
}
