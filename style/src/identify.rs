//! Who played this seat? Each player of a database scored by the log-likelihood of the seat's play:
//!
//! - its suit sequences (SPEC 2) under the player's table, smoothed towards ALL:
//!   `P_p(a | b) = (c_p(b, a) + ALPHA * P_all(a | b)) / (n_p(b) + ALPHA)`, and
//!   `P_all(a | b) = (c_all(b, a) + 1 / k) / (n_all(b) + 1)` with `k` the distinct digits of `b` (the afters one
//!   discard can make); counts fold each pair with its mirror;
//! - its shares (riichi, calls, wins, deal-ins, tsumogiri, folding against riichi) as binomial draws from the
//!   player's rates, smoothed towards everyone's: `p = (k_p + M * p_all) / (n_p + M)`.
//!
//! - its habits ([`crate::habits`]: which kind goes first, tsumogiri, backing off) as binomial draws from the
//!   player's shares, smoothed the same way (`habits::PRIOR`);
//! - its other choices (calls, riichi, kans, wins per opportunity and situation, [`crate::choice`]) as binomial
//!   draws from the player's choice model ([`crate::choice_model`]), where the database and the seat have them.
//!
//! The score is the sum of the four log-likelihoods (natural log); a player whose style the seat's play fits
//! best scores highest. Players are compared on the same observations, so the ranking does not depend on how
//! much play there is, only its spread does.

use anyhow::Result;
use rayon::prelude::*;
use serde::Serialize;

use haifu_imitate::{SeqTable, ALL_SCOPE};
use haifu_mining::Shape;

use crate::choice::ChoiceCounts;
use crate::db::StyleDb;
use crate::discards::Discards;
use crate::habits::{self, HabitCounts};
use crate::tally::{Tally, RATES};

/// Weight of ALL's conditional distribution in a player's (pseudo-observations).
pub const ALPHA: f64 = 5.0;
/// Weight of everyone's rate in a player's (pseudo-observations).
pub const M: f64 = 20.0;

/// What is known of the seat to identify: its sequences and its counts.
#[derive(Clone, Debug, Default)]
pub struct Observed {
    pub sequences: Vec<(u32, u32)>,
    pub tally: Tally,
    pub habits: HabitCounts,
    /// Its answered choices (empty where the dataset has none).
    pub choices: ChoiceCounts,
    /// The plain baseline's features of each game ([`crate::baseline`]).
    pub baseline: Vec<crate::baseline::GameFeatures>,
    /// Its chosen discards as the discard model reads them ([`crate::discards`]).
    pub discards: Discards,
    /// The seats observed: (game id, seat).
    pub seats: Vec<(i64, u8)>,
}

impl Observed {
    pub fn add(&mut self, o: &Observed) {
        self.sequences.extend_from_slice(&o.sequences);
        self.tally.add(&o.tally);
        self.habits.add(&o.habits);
        self.choices.add(&o.choices);
        self.baseline.extend_from_slice(&o.baseline);
        self.discards.add(&o.discards);
        self.seats.extend_from_slice(&o.seats);
    }
}

/// One player's score.
#[derive(Clone, Debug, Serialize)]
pub struct Score {
    pub player: String,
    /// Sequences, rates, habits and choices (plus the player's network where one is given).
    pub score: f64,
    pub sequences: f64,
    pub rates: f64,
    pub habits: f64,
    pub choices: f64,
    /// Log-likelihood of the seat's chosen discards under the player's discard model ([`crate::discards`]);
    /// not part of `score` (it weighs the same discards as the habits and the sequences).
    pub discards: f64,
    /// Log-likelihood of the seat's discards under the player's own network (`haifu style identify --models`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub neural: Option<f64>,
    /// Cosine of the player's centroid to the seat's games in a learned embedding (`--embedding`); not part of
    /// `score`, but the ranking's order where given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub embedding: Option<f64>,
    /// Log-likelihood of the seat's chosen discards under a global network tilted by the player's refitted
    /// coefficients, the database's saved refit (`--network`); not part of `score`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub network_refit: Option<f64>,
    /// The plain baseline: the sum of the seat's games' log-densities under the player's Gaussian of 30 habit
    /// rates ([`crate::baseline`], up to a constant shared by every player), where the database stores its
    /// discriminant; not part of `score`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<f64>,
}

/// Adds each player's network log-likelihood (`by player`) to their score and ranks again, best first.
pub fn with_networks(mut scores: Vec<Score>, neural: &std::collections::HashMap<String, f64>) -> Vec<Score> {
    for s in &mut scores {
        if let Some(&ll) = neural.get(&s.player) {
            s.neural = Some(ll);
            s.score += ll;
        }
    }
    scores.sort_by(|x, y| y.score.total_cmp(&x.score).then_with(|| x.player.cmp(&y.player)));
    scores
}

/// Sets each player's log-likelihood under the network tilted by the saved refit (`by player`).
pub fn with_refit(mut scores: Vec<Score>, by_player: &std::collections::HashMap<&str, f64>) -> Vec<Score> {
    for s in &mut scores {
        s.network_refit = by_player.get(s.player.as_str()).copied();
    }
    scores
}

/// Sets each player's plain baseline ([`Score::baseline`]) over the seat's games (`seen`) where the database
/// stores the discriminant; an error naming the database where `by` ranks by the baseline and it stores none.
pub fn with_db_baseline(mut scores: Vec<Score>, db: &StyleDb, seen: &Observed, by: RankBy) -> Result<Vec<Score>> {
    let Some(lda) = &db.baseline else {
        if matches!(by, RankBy::Baseline | RankBy::DiscardsBaseline) {
            anyhow::bail!(
                "{}: no plain baseline stored (built before 2026-12-05, or of too few games): build it again",
                db.dir.display()
            );
        }
        return Ok(scores);
    };
    let sums = lda.log_density_sums(&seen.baseline);
    for s in &mut scores {
        s.baseline = sums.get(s.player.as_str()).copied();
    }
    Ok(scores)
}

/// What ranks the players (`style identify --by`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RankBy {
    /// The discard model's log-likelihood.
    Discards,
    /// The discard model's and the other choices' log-likelihood: every decision once (the best measured,
    /// docs/RESULTS.md; `style identify`'s default).
    Decisions,
    /// The sum of the sequences', rates', habits' and choices' log-likelihoods (and the networks').
    Score,
    /// The log-likelihood of the discards under the network tilted by the player's refitted coefficients
    /// ([`with_refit`]; players without one last).
    Refit,
    /// The plain baseline ([`with_baseline`]), the yardstick `style accuracy` sets beside the methods.
    Baseline,
    /// The discard model's log-likelihood plus the plain baseline's (`style accuracy`'s `discards_baseline`).
    DiscardsBaseline,
}

impl RankBy {
    /// This, or `Score` where the database has no discard model (built before it).
    pub fn for_db(self, db: &StyleDb) -> RankBy {
        if db.discards.is_empty() {
            RankBy::Score
        } else {
            self
        }
    }

    pub fn key(self) -> fn(&Score) -> f64 {
        match self {
            RankBy::Discards => |s| s.discards,
            RankBy::Decisions => |s| s.discards + s.choices,
            RankBy::Score => |s| s.score,
            RankBy::Refit => |s| s.network_refit.unwrap_or(f64::NEG_INFINITY),
            RankBy::Baseline => |s| s.baseline.unwrap_or(f64::NEG_INFINITY),
            RankBy::DiscardsBaseline => |s| s.discards + s.baseline.unwrap_or(f64::NEG_INFINITY),
        }
    }

    /// Ranks `scores` by this, highest first (ties by score, then name).
    pub fn rank(self, scores: &mut [Score]) {
        let key = self.key();
        scores.sort_by(|x, y| {
            key(y).total_cmp(&key(x)).then_with(|| y.score.total_cmp(&x.score)).then_with(|| x.player.cmp(&y.player))
        });
    }
}

/// Sets each player's cosine in a learned embedding (`by player`; a player without a centroid gets none) and
/// ranks by it, nearest first (players without one last, by score).
pub fn with_embedding(mut scores: Vec<Score>, cosine: &hashbrown::HashMap<&str, f64>) -> Vec<Score> {
    for s in &mut scores {
        s.embedding = cosine.get(s.player.as_str()).copied();
    }
    let key = |s: &Score| s.embedding.unwrap_or(f64::NEG_INFINITY);
    scores.sort_by(|x, y| key(y).total_cmp(&key(x)).then_with(|| y.score.total_cmp(&x.score)));
    scores
}

/// Where the sequences' log-likelihoods under every player's table come from: the [`Scorer`] itself, pair by
/// pair (the reference), or a batch of every trial against every table at once on a device (`haifu-neural`'s
/// tables as tensors, `--device`).
pub trait SequenceLikelihoods: Sync {
    /// For each trial (a seat's sequences, or a block's pooled), the log-likelihood under each profiled
    /// player's table, in the database's order of profiles.
    fn of_trials(&self, trials: &[&[(u32, u32)]]) -> Result<Vec<Vec<f64>>>;
}

/// The database's tables ready for scoring.
pub struct Scorer<'a> {
    db: &'a StyleDb,
    all: SeqTable,
    players: Vec<SeqTable>,
}

/// How a pair (before, after) folds with its mirror: the second pair whose count adds to the pair's (none when
/// it is the pair itself), and the before whose total adds to the before's (none for a self-mirror before).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fold {
    pub second: Option<(u32, u32)>,
    pub mirror_before: Option<u32>,
}

impl Fold {
    pub fn of(b: u32, a: u32) -> Fold {
        let (mb, ma) = (Shape::from_key(b).mirror().key(), Shape::from_key(a).mirror().key());
        if mb == b {
            // a self-mirror before: the mirrored after counts once more, unless it is the after itself
            Fold { second: (ma != a).then_some((b, ma)), mirror_before: None }
        } else {
            Fold { second: Some((mb, ma)), mirror_before: Some(mb) }
        }
    }
}

/// Count of a pair folded with its mirror, and the count of its before (folded the same way).
fn folded_counts(t: &SeqTable, b: u32, a: u32) -> (f64, f64) {
    let fold = Fold::of(b, a);
    let total = |k: u32| t.afters(k).iter().map(|&(_, n)| f64::from(n)).sum::<f64>();
    let count = f64::from(t.count(b, a)) + fold.second.map_or(0.0, |(b2, a2)| f64::from(t.count(b2, a2)));
    (count, total(b) + fold.mirror_before.map_or(0.0, total))
}

/// The log-likelihood term of one pair under a player's table: its folded count `c` among `n`, smoothed
/// towards ALL's probability `p_all`.
#[inline]
pub fn pair_term(c: f64, n: f64, p_all: f64) -> f64 {
    ((c + ALPHA * p_all) / (n + ALPHA)).ln()
}

impl<'a> Scorer<'a> {
    pub fn new(db: &'a StyleDb) -> Result<Scorer<'a>> {
        let tables = db.tables(None)?;
        let get = |s: &str| tables.get(s).clone();
        Ok(Scorer { db, all: get(ALL_SCOPE), players: db.profiles.iter().map(|p| get(&p.player)).collect() })
    }

    pub fn db(&self) -> &'a StyleDb {
        self.db
    }

    /// Each profiled player's table, in the database's order.
    pub fn tables(&self) -> &[SeqTable] {
        &self.players
    }

    /// ALL's probability of each observed pair, computed once for every player.
    pub fn all_probabilities(&self, seqs: &[(u32, u32)]) -> Vec<f64> {
        seqs.iter()
            .map(|&(b, a)| {
                let k = Shape::from_key(b).digits().collect::<std::collections::BTreeSet<_>>().len().max(1) as f64;
                let (c, n) = folded_counts(&self.all, b, a);
                (c + 1.0 / k) / (n + 1.0)
            })
            .collect()
    }

    /// The sequences' log-likelihood under each player's table, in the database's order.
    pub fn sequence_likelihoods(&self, seqs: &[(u32, u32)]) -> Vec<f64> {
        let p_all = self.all_probabilities(seqs);
        self.players
            .par_iter()
            .map(|table| {
                seqs.iter()
                    .zip(&p_all)
                    .map(|(&(b, a), &pa)| {
                        let (c, n) = folded_counts(table, b, a);
                        pair_term(c, n, pa)
                    })
                    .sum()
            })
            .collect()
    }

    /// Every player's score, best first.
    pub fn rank(&self, seen: &Observed) -> Vec<Score> {
        self.rank_given(seen, &self.sequence_likelihoods(&seen.sequences))
    }

    /// Every player's score given the sequences' log-likelihoods under each player's table (in the database's
    /// order), best first.
    pub fn rank_given(&self, seen: &Observed, sequences: &[f64]) -> Vec<Score> {
        let mut scores: Vec<Score> = self
            .db
            .profiles
            .iter()
            .zip(sequences)
            .map(|(profile, &sequences)| {
                let rates = rates_log_likelihood(&profile.tally, &self.db.all, &seen.tally);
                let habits = match self.db.habits.get(ALL_SCOPE) {
                    Some(all) => habits::log_likelihood(self.db.habits.get(&profile.player), all, &seen.habits),
                    None => 0.0,
                };
                let choices =
                    self.db.choice_model.as_ref().map_or(0.0, |m| m.log_likelihood(&profile.player, &seen.choices));
                let discards =
                    self.db.discards.of(&profile.player).map_or(0.0, |w| seen.discards.tile_log_likelihood(w));
                Score {
                    player: profile.player.clone(),
                    score: sequences + rates + habits + choices,
                    sequences,
                    rates,
                    habits,
                    choices,
                    discards,
                    neural: None,
                    embedding: None,
                    network_refit: None,
                    baseline: None,
                }
            })
            .collect();
        scores.sort_by(|x, y| y.score.total_cmp(&x.score).then_with(|| x.player.cmp(&y.player)));
        scores
    }
}

impl SequenceLikelihoods for Scorer<'_> {
    fn of_trials(&self, trials: &[&[(u32, u32)]]) -> Result<Vec<Vec<f64>>> {
        Ok(trials.par_iter().map(|t| self.sequence_likelihoods(t)).collect())
    }
}

/// Log-likelihood of the observed shares under a player's smoothed rates.
fn rates_log_likelihood(player: &Tally, all: &Tally, seen: &Tally) -> f64 {
    RATES
        .iter()
        .filter_map(|r| r.share)
        .map(|share| {
            let (ka, na) = share(all);
            let p_all = if na > 0 { ka as f64 / na as f64 } else { 0.5 };
            let (kp, np) = share(player);
            let p = ((kp as f64 + M * p_all) / (np as f64 + M)).clamp(1e-4, 1.0 - 1e-4);
            let (k, n) = share(seen);
            k as f64 * p.ln() + (n - k) as f64 * (1.0 - p).ln()
        })
        .sum()
}
