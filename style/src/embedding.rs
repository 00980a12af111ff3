//! The learned style embedding (issue 50), on the tch-free side: what a network reads of one game of one seat
//! ([`Inputs`]), the network's contract ([`Embedding`], [`Trainer`]; the network binary implements them with
//! libtorch, `haifu_neural::embedding`), and identification by centroids ([`Centroids`]): a player's reference
//! games give the mean of their embeddings, a block of games to identify gives its own, and players rank by the
//! cosine between the two. A centroid needs no training on the player, so an embedding serves players it never
//! saw.
//!
//! One game of one seat is read as a fixed vector of what its decisions show: each habit's share (smoothed
//! towards everyone's by two pseudo-opportunities, centred on everyone's) and how often the game offered it,
//! the plain baseline's 30 rates (standardised on the reference games), each choice rate per opportunity the
//! same way as the habits, and the game's discard sequences hashed into [`SEQUENCE_BUCKETS`] buckets (their
//! shares). The network learns which combinations of these tell players apart.

use std::path::Path;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::baseline::{GameFeatures, Spread, FEATURES};
use crate::choice::{ChoiceCounts, Count, CHOICE_RATES};
use crate::habits::{HabitCounts, HABITS};
use crate::identify::Observed;

/// Buckets the game's discard sequences are hashed into (a sequence and its mirror share one).
pub const SEQUENCE_BUCKETS: usize = 64;
/// Length of one game's input vector.
pub const INPUTS: usize = 2 * HABITS + FEATURES.len() + 2 * CHOICE_RATES.len() + SEQUENCE_BUCKETS;
/// Pseudo-opportunities at everyone's share that smooth one game's share of a habit or a choice.
const GAME_PRIOR: f64 = 2.0;

/// What a network reads of one game of one seat, relative to everyone's habits and choices and to the spread
/// of the reference games' baseline rates.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Inputs {
    habits: Vec<f64>,
    choices: Vec<f64>,
    rates: Spread,
}

/// One game's share of a count smoothed towards everyone's `p`, less `p`; and how often it was offered.
fn deviation(c: Count, p: f64) -> [f32; 2] {
    let smoothed = (c.taken as f64 + GAME_PRIOR * p) / (c.offered as f64 + GAME_PRIOR);
    [(smoothed - p) as f32, (c.offered as f64).ln_1p() as f32]
}

impl Inputs {
    /// Everyone's habits and choices (the database's), and the reference games' baseline rates.
    pub fn new(habits: &HabitCounts, choices: Option<&ChoiceCounts>, reference: &[GameFeatures]) -> Inputs {
        let none = ChoiceCounts::default();
        let choices = choices.unwrap_or(&none);
        Inputs {
            habits: habits.0.iter().map(|c| c.even_share()).collect(),
            choices: CHOICE_RATES.iter().map(|r| choices.summed(r.of).even_share()).collect(),
            rates: Spread::of(reference),
        }
    }

    /// The input vector of one game of one seat (`seen` of that game alone: [`crate::observe_game`]).
    pub fn of(&self, seen: &Observed) -> Vec<f32> {
        let mut x = Vec::with_capacity(INPUTS);
        for (c, &p) in seen.habits.0.iter().zip(&self.habits) {
            x.extend(deviation(*c, p));
        }
        let rates = seen.baseline.first().copied().unwrap_or([f64::NAN; FEATURES.len()]);
        x.extend(self.rates.standardised(&rates).iter().map(|&v| v as f32));
        for (r, &p) in CHOICE_RATES.iter().zip(&self.choices) {
            x.extend(deviation(seen.choices.summed(r.of), p));
        }
        let mut bag = [0.0f32; SEQUENCE_BUCKETS];
        for &(b, a) in &seen.sequences {
            bag[bucket(b, a)] += 1.0;
        }
        let n = seen.sequences.len().max(1) as f32;
        x.extend(bag.iter().map(|c| c / n));
        x
    }
}

/// The bucket of a discard sequence, the same for its mirror (a fixed multiplicative hash of the smaller pair).
fn bucket(b: u32, a: u32) -> usize {
    use haifu_mining::Shape;
    let mirrored = (Shape::from_key(b).mirror().key(), Shape::from_key(a).mirror().key());
    let (b, a) = (b, a).min(mirrored);
    let h = (u64::from(b) << 32 | u64::from(a)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> 58) as usize % SEQUENCE_BUCKETS
}

/// A trained network that maps games' input vectors to embeddings (unit length).
pub trait Embedding {
    fn embed(&self, inputs: &[Vec<f32>]) -> Result<Vec<Vec<f32>>>;
}

/// Trains an embedding on reference games (`inputs`, each labelled with its player's place in `players`), or
/// hands back one trained before (then the reference games only give the centroids).
pub trait Trainer {
    fn fit(&self, inputs: &[Vec<f32>], labels: &[usize], players: usize) -> Result<Box<dyn Embedding>>;
    /// The folder the trained network is written to, where the centroids and the inputs' reference go too.
    fn folder(&self) -> Option<&Path>;
}

/// What `style identify --embedding` and `style nearest --embedding` read beside the network: the players'
/// centroids and the inputs' reference they were computed with.
#[derive(Serialize, Deserialize)]
pub struct Reference {
    /// The database whose games gave the centroids.
    pub db: String,
    pub inputs: Inputs,
    pub centroids: Centroids,
}

const REFERENCE_FILE: &str = "centroids.json";

impl Reference {
    pub fn write(&self, dir: &Path) -> Result<()> {
        let at = dir.join(REFERENCE_FILE);
        std::fs::write(&at, serde_json::to_string(self)?).with_context(|| format!("{}: cannot write", at.display()))
    }

    pub fn read(dir: &Path) -> Result<Reference> {
        let at = dir.join(REFERENCE_FILE);
        let text = std::fs::read_to_string(&at).with_context(|| {
            format!("{}: no centroids here (written by `style accuracy --embedding --embedding-out`)", at.display())
        })?;
        serde_json::from_str(&text).with_context(|| format!("{}: not an embedding's centroids", at.display()))
    }
}

/// Each player's centroid: the mean of the embeddings of the player's reference games, made unit length.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Centroids {
    pub players: Vec<String>,
    pub vectors: Vec<Vec<f32>>,
}

/// The mean of unit vectors, made unit length (zero where they cancel or there are none).
pub fn mean_direction<'a>(vs: impl IntoIterator<Item = &'a Vec<f32>>) -> Vec<f32> {
    let mut sum: Vec<f32> = Vec::new();
    for v in vs {
        if sum.is_empty() {
            sum = vec![0.0; v.len()];
        }
        for (s, x) in sum.iter_mut().zip(v) {
            *s += x;
        }
    }
    let norm = sum.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        sum.iter_mut().for_each(|x| *x /= norm);
    }
    sum
}

fn cosine(a: &[f32], b: &[f32]) -> f64 {
    a.iter().zip(b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum()
}

impl Centroids {
    /// The centroids of `players` from embedded reference games labelled by their place in `players`.
    pub fn of(players: &[String], labels: &[usize], embedded: &[Vec<f32>]) -> Centroids {
        let vectors = (0..players.len())
            .map(|p| mean_direction(labels.iter().zip(embedded).filter(|(l, _)| **l == p).map(|(_, e)| e)))
            .collect();
        Centroids { players: players.to_vec(), vectors }
    }

    /// Every other player by the cosine of their centroid to `player`'s, nearest first; `None` for a player
    /// without a centroid.
    pub fn nearest(&self, player: &str) -> Option<Vec<(&str, f64)>> {
        let me = &self.vectors[self.players.iter().position(|p| p == player)?];
        let mut near: Vec<(&str, f64)> = self
            .players
            .iter()
            .zip(&self.vectors)
            .filter(|(p, _)| *p != player)
            .map(|(p, v)| (p.as_str(), cosine(me, v)))
            .collect();
        near.sort_by(|x, y| y.1.total_cmp(&x.1).then_with(|| x.0.cmp(y.0)));
        Some(near)
    }

    /// Each player's cosine to the mean direction of a block of embedded games, in the order of `players`.
    pub fn similarities<'a>(&self, block: impl IntoIterator<Item = &'a Vec<f32>>) -> Vec<f64> {
        let m = mean_direction(block);
        self.vectors.iter().map(|c| cosine(c, &m)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sequence_and_its_mirror_share_a_bucket() {
        use haifu_mining::Shape;
        let (b, a) = (Shape::parse("1134").unwrap().key(), Shape::parse("113").unwrap().key());
        let (mb, ma) = (Shape::from_key(b).mirror().key(), Shape::from_key(a).mirror().key());
        assert_ne!((b, a), (mb, ma));
        assert_eq!(bucket(b, a), bucket(mb, ma));
    }

    #[test]
    fn the_centroid_nearest_a_block_is_the_one_its_games_lie_around() {
        let unit = |x: f32, y: f32| {
            let n = (x * x + y * y).sqrt();
            vec![x / n, y / n]
        };
        let players = vec!["a".to_string(), "b".to_string()];
        let games = vec![unit(1.0, 0.1), unit(1.0, -0.1), unit(0.1, 1.0), unit(-0.1, 1.0)];
        let c = Centroids::of(&players, &[0, 0, 1, 1], &games);
        assert!((c.vectors[0][0] - 1.0).abs() < 1e-6 && c.vectors[0][1].abs() < 1e-6);
        let s = c.similarities(&[unit(0.9, 0.3), unit(1.0, 0.0)]);
        assert!(s[0] > s[1], "{s:?}");
        let s = c.similarities(&[unit(0.2, 1.0)]);
        assert!(s[1] > s[0], "{s:?}");
    }
}
