//! How often identification names the right player on games the database never saw: for each player of the
//! database with enough games in the test years, the player's games in play order are cut into blocks of `k`
//! games, each block is one trial (the player's seat in each of its games, pooled), and the trial counts as a
//! top-1 (top-5) hit when the player is first (among the first five) of the database's ranking. Chance is 1
//! (5) in the number of profiled players.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Result};
use hashbrown::{HashMap, HashSet};
use rayon::prelude::*;
use serde::Serialize;

use haifu_mining::mine::in_sample;

use crate::baseline::Discriminant;
use crate::choice::{wilson, ChoiceCounts, Count};
use crate::db::StyleDb;
use crate::discards::{of_seats, Discards, NetworkGains, NetworkSeat, NetworkSeats, PersonalGains, Refit, TestSeat};
use crate::embedding::{Centroids, Inputs, Reference, Trainer};
use crate::identify::{Observed, Scorer, SequenceLikelihoods};
use crate::observe_game;
use crate::played::{self, Played, Reading};

/// The figures for one block size.
#[derive(Clone, Debug, Serialize)]
pub struct Accuracy {
    /// Games pooled per trial.
    pub games: usize,
    /// Players with at least one trial.
    pub players: usize,
    pub trials: usize,
    pub top1: f64,
    pub top5: f64,
    /// 1 and 5 in the number of profiled players.
    pub chance_top1: f64,
    pub chance_top5: f64,
    /// Mean place of the right player (1 = first).
    pub mean_rank: f64,
    /// The whole score's top-1 share's 95% Wilson interval (the trials are few: say how sure the figure is).
    pub top1_interval: (f64, f64),
    /// Top-1 and top-5 when the players are ranked by each part of the score alone: the sequences' likelihood,
    /// the rates', the habits' and the choices' (zero where the database or the dataset has no choices).
    pub sequences_only: [f64; 2],
    pub rates_only: [f64; 2],
    pub habits_only: [f64; 2],
    pub choices_only: [f64; 2],
    /// The plain baseline's top-1 and top-5 on the same trials ([`crate::baseline`]: 30 habit rates per game,
    /// linear discriminant analysis over the profile games), and its top-1's 95% interval.
    pub baseline: [f64; 2],
    pub baseline_top1_interval: (f64, f64),
    /// The learned embedding's top-1 and top-5 and its top-1's 95% interval ([`crate::embedding`]: the
    /// players ranked by the cosine of their reference games' centroid to the block's), where one was given.
    pub embedding: Option<[f64; 2]>,
    pub embedding_top1_interval: Option<(f64, f64)>,
    /// The right player's mean place were the ranking drawn at random: (players + 1) / 2.
    pub chance_mean_rank: f64,
    /// Every method side by side on these trials: the whole score, each of its parts alone, the plain baseline
    /// and the embedding (where given).
    pub methods: Vec<Method>,
    /// Every trial, the players in name order and each player's blocks in play order.
    pub places: Vec<TrialPlace>,
}

/// One method's figures on a block size's trials.
#[derive(Clone, Debug, Serialize)]
pub struct Method {
    pub method: &'static str,
    pub top1: f64,
    pub top1_interval: (f64, f64),
    pub top5: f64,
    pub mean_place: f64,
}

/// The methods, in the order of a trial's places.
pub const METHODS: [&str; 12] = [
    "score",
    "sequences",
    "rates",
    "habits",
    "choices",
    "discards",
    "decisions",
    "baseline",
    "discards_baseline",
    "embedding",
    "player_vectors",
    "network_refit",
];

/// The embedding's place among [`METHODS`].
const EMBEDDING: usize = 9;

/// One trial: the right player's place by the whole score and by each method of [`METHODS`] alone (in JSON
/// `place` for the whole score, then one key a method; `null` for the embedding, the player vectors and the
/// refit over the network where not given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrialPlace {
    pub player: String,
    pub places: Places,
    /// Whether the embedding, the player vectors and the refit were given.
    pub given: Given,
}

/// Which of the methods that need a network a measurement was given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Given {
    pub embedding: bool,
    pub player_vectors: bool,
    pub network_refit: bool,
}

impl Serialize for TrialPlace {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(1 + METHODS.len()))?;
        m.serialize_entry("player", &self.player)?;
        for (i, (&method, &place)) in METHODS.iter().zip(&self.places).enumerate() {
            let shown = match method {
                "embedding" => self.given.embedding,
                "player_vectors" => self.given.player_vectors,
                "network_refit" => self.given.network_refit,
                _ => true,
            };
            m.serialize_entry(if i == 0 { "place" } else { method }, &shown.then_some(place))?;
        }
        m.end()
    }
}

/// The parts of the score a trial is placed by, in [`TrialPlace`]'s order.
const PARTS: [fn(&crate::Score) -> f64; 7] = [
    |s| s.score,
    |s| s.sequences,
    |s| s.rates,
    |s| s.habits,
    |s| s.choices,
    |s| s.discards,
    |s| s.discards + s.choices,
];

/// The measurement, with the time identification took.
#[derive(Clone, Debug, Serialize)]
pub struct AccuracyReport {
    pub rows: Vec<Accuracy>,
    /// Test games read (at the database's table size).
    pub test_games: usize,
    /// Seats identified (a trial of k games counts k) per second of scoring.
    pub games_per_s: f64,
    /// Profile games the plain baseline was fitted on.
    pub baseline_games: usize,
    /// Block sizes asked for that no player's test games fill (no trial: no row).
    pub no_trials: Vec<usize>,
    /// Test years that are also database years, for a database of every game (their games were profiled: the
    /// figures would flatter); a sampled database is tested on the games it left out.
    pub overlap: Vec<i32>,
    /// The discard model as a personal model: each player's own coefficients against everyone's on the
    /// player's test choices (none where the database has no discard model).
    pub personal: Option<PersonalGains>,
    /// The choice model as a personal model: each player's own coefficients against everyone's on the player's
    /// test choices (none where the database has no choices).
    pub personal_choices: Option<PersonalGains>,
    /// The discard model as the personal part of a network (`--network RUN`): the global network tilted by each
    /// player's coefficients less everyone's, against the network as it is, on the player's test positions.
    pub personal_network: Option<NetworkGains>,
    /// The same network tilted by each player's coefficients refitted over cross-fitted networks (`--cross-fit`),
    /// against it tilted by everyone's refitted coefficients, on the same test positions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub personal_network_refit: Option<NetworkGains>,
    /// The same network tilted by everyone's refitted coefficients against the network as it is: what the refit
    /// adds for every player (a global model, no personal one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub global_network_refit: Option<NetworkGains>,
    /// The refit itself, where `--cross-fit` made one: what `--save-refit` writes into the database.
    #[serde(skip)]
    pub refit: Option<Refit>,
}

/// The players whose personal model is judged have this many test games or more (the criterion: games
/// on both sides; a profiled player has its `--min-games` on the other).
pub const JUDGED_TEST_GAMES: usize = 8;

/// The games `measure` reads, in one pass over the dataset: the database's own (its years, its sample: what the
/// plain baseline is fitted on) and the test games of `years` (with a sampled database, only those it left out).
struct Games {
    games: Vec<Played>,
    profile: Vec<usize>,
    test: Vec<usize>,
    /// The years read (empty: all).
    years: Vec<i32>,
}

fn games_of(db: &StyleDb, dataset: &Path, years: &[i32]) -> Result<Games> {
    let (sample, db_years) = (db.meta.sample, &db.meta.years);
    let union: Vec<i32> = if db_years.is_empty() || years.is_empty() {
        Vec::new()
    } else {
        db_years.iter().chain(years).copied().collect()
    };
    let within = |ys: &[i32], y: Option<i32>| ys.is_empty() || y.is_some_and(|y| ys.contains(&y));
    // which side each kept game is on, noted while the games index is at hand
    let sides = std::cell::RefCell::new(HashMap::<i64, (bool, bool)>::new());
    let reading = Reading { years: &union, players: db.meta.rules.players, tiles: true };
    let games = played::read(dataset, &reading, |index, g| {
        let year = index.year(g);
        let profile = in_sample(g, sample) && within(db_years, year);
        let test = within(years, year) && (sample.is_none() || !in_sample(g, sample));
        sides.borrow_mut().insert(g, (profile, test));
        profile || test
    })?;
    let sides = sides.into_inner();
    let side = |i: &usize, which: fn((bool, bool)) -> bool| sides.get(&games[*i].game_id).is_some_and(|&s| which(s));
    // a game of both sides (a database of every game tested on its own years) is on both: `overlap` warns
    let profile = (0..games.len()).filter(|i| side(i, |s| s.0)).collect();
    let test = (0..games.len()).filter(|i| side(i, |s| s.1)).collect();
    Ok(Games { games, profile, test, years: union })
}

/// Each profiled player's seats in the games `which` (places in `g.games`), in play order, with their choices.
fn seats_of(
    db: &StyleDb,
    choices: &HashMap<(usize, u8), ChoiceCounts>,
    g: &Games,
    which: &[usize],
) -> HashMap<String, Vec<Observed>> {
    let profiled: hashbrown::HashSet<&str> = db.profiles.iter().map(|p| p.player.as_str()).collect();
    let mut out: HashMap<String, Vec<Observed>> = HashMap::new();
    for &i in which {
        let game = &g.games[i];
        for (seat, mut seen) in (0u8..).zip(observe_game(game)) {
            let name = &game.names[usize::from(seat)];
            if profiled.contains(name.as_str()) {
                seen.choices = choices.get(&(i, seat)).cloned().unwrap_or_default();
                out.entry_ref(name.as_str()).or_default().push(seen);
            }
        }
    }
    out
}

/// The place of `player` when `players` rank by `scores` (1 = first; past the last when it is not among them).
fn place_of(players: &[String], player: &str, scores: &[f64]) -> usize {
    let Some(me) = players.iter().position(|q| q == player) else { return usize::MAX };
    place_among(scores.iter().copied(), me)
}

/// The place of the `me`-th of `scores`, best (highest) first: one more than the others scored as high or
/// higher. A tie counts against the right player, so that a method that cannot tell the players apart (every
/// score the same: a part the data has nothing for) places it last, not first.
fn place_among(scores: impl Iterator<Item = f64> + Clone, me: usize) -> usize {
    let Some(mine) = scores.clone().nth(me) else { return usize::MAX };
    1 + scores.enumerate().filter(|&(i, s)| i != me && s >= mine).count()
}

/// The plain baseline fitted on the database's own games.
fn fit_baseline(db: &StyleDb, g: &Games) -> Result<Discriminant> {
    let players: Vec<String> = db.profiles.iter().map(|p| p.player.clone()).collect();
    Discriminant::of_games(&players, g.profile.iter().map(|&i| &g.games[i]))
}

/// Each player's test games embedded, in play order.
type Embedded = HashMap<String, Vec<Vec<f32>>>;

/// The learned embedding's centroids of the profiled players and the embeddings of their test games (in the
/// order of `seats`), from the profile games: trained on them, or only embedded by a network trained before.
fn embed(
    db: &StyleDb,
    trainer: &dyn Trainer,
    reference: &HashMap<String, Vec<Observed>>,
    seats: &HashMap<String, Vec<Observed>>,
) -> Result<(Centroids, Embedded)> {
    let players: Vec<String> = db.profiles.iter().map(|p| p.player.clone()).collect();
    let rates: Vec<_> = reference.values().flatten().flat_map(|o| o.baseline.first().copied()).collect();
    let all = db.habits.get(haifu_imitate::ALL_SCOPE).cloned().unwrap_or_default();
    let inputs = Inputs::new(&all, db.choices.get(haifu_imitate::ALL_SCOPE), &rates);
    let (mut xs, mut labels) = (Vec::new(), Vec::new());
    for (label, p) in players.iter().enumerate() {
        for o in reference.get(p).into_iter().flatten() {
            xs.push(inputs.of(o));
            labels.push(label);
        }
    }
    if xs.is_empty() {
        bail!("the embedding has no reference games of the database's players to give their centroids");
    }
    let net = trainer.fit(&xs, &labels, players.len())?;
    let centroids = Centroids::of(&players, &labels, &net.embed(&xs)?);
    if let Some(dir) = trainer.folder() {
        let db = db.dir.display().to_string();
        Reference { db, inputs: inputs.clone(), centroids: centroids.clone() }.write(dir)?;
    }
    let mut tested = HashMap::new();
    for (p, obs) in seats {
        tested.insert(p.clone(), net.embed(&obs.iter().map(|o| inputs.of(o)).collect::<Vec<_>>())?);
    }
    Ok((centroids, tested))
}

/// One trial: the player, the block's seats pooled, and the block's embedded games (where an embedding is given).
type Trial<'a> = (&'a str, Observed, Option<&'a [Vec<f32>]>);

/// The personal networks of `style accuracy --player-vectors RUN` (a network conditioned on the player, `haifu
/// train --player-vectors`; the network binary implements it): each test seat's discards scored with each
/// profiled player's vector.
pub trait PlayerVectors {
    /// For each seat (game id, seat), the log-likelihood of its discards under each of `players` (the database's
    /// order; a player without a vector gets the network's row for everyone). Refuses a network that trained on
    /// any of `test_games`.
    fn of_seats(
        &self,
        seats: &[(i64, u8)],
        players: &[String],
        test_games: &[i64],
    ) -> Result<std::collections::HashMap<(i64, u8), Vec<f64>>>;
}

/// Each seat's (game id, seat) log-likelihood under each player, in the database's order.
type BySeat = std::collections::HashMap<(i64, u8), Vec<f64>>;

/// A trial's log-likelihood under each player: the sum over its seats (a seat the network has no position of
/// adds nothing).
fn summed(seats: &[(i64, u8)], by_seat: &BySeat, players: usize) -> Vec<f64> {
    let mut sum = vec![0.0; players];
    for s in seats.iter().filter_map(|seat| by_seat.get(seat)) {
        sum.iter_mut().zip(s).for_each(|(a, b)| *a += b);
    }
    sum
}

/// The network personal models are judged on (`style accuracy --network RUN`, a run of `haifu train`; the
/// network binary implements it).
pub trait GlobalNetwork {
    /// For each seat (game id, seat), the global network's reading of its chosen discards in order
    /// ([`crate::discards::NetworkSeat`]), and for a network conditioned on the players each seat's with its
    /// player's own vector. Refuses a network that trained on any of `test_games`.
    fn of_seats(&self, seats: &[(i64, u8)], test_games: &[i64]) -> Result<NetworkReadings>;

    /// For each of `games`, whether the network did not train on it (a fold network of `--cross-fit` reads the
    /// profile games of the other folds).
    fn unseen(&self, games: &[i64]) -> Result<Vec<bool>>;
}

/// The test seats as a network reads them: the global network (for a `--player-vectors` run, its row for
/// everyone), and where the run is one, with each seat's player's own vector (the row for everyone for a
/// player without one).
pub struct NetworkReadings {
    pub global: NetworkSeats,
    pub own: Option<NetworkSeats>,
}

/// The network parts of a measurement, each where given: the learned embedding's trainer, the network
/// conditioned on the players and the global network.
#[derive(Default)]
pub struct Networks<'a> {
    pub embedding: Option<&'a dyn Trainer>,
    pub player_vectors: Option<&'a dyn PlayerVectors>,
    pub global: Option<&'a dyn GlobalNetwork>,
    /// Networks each trained on a fold of the profile games (`haifu train --fold K/N`): the players'
    /// coefficients are refitted over their readings of the profile games they did not train on, and tilt
    /// `global` beside the database's ([`crate::discards::Refit`]).
    pub cross_fit: Vec<&'a dyn GlobalNetwork>,
}

/// A trial's places by each of [`METHODS`] (past the last for the embedding where none is given).
pub type Places = [usize; METHODS.len()];

/// Every player's test seats cut into blocks of `k` games, the players in name order.
fn trials_of<'a>(
    seats: &'a HashMap<String, Vec<Observed>>,
    embedded: Option<&'a Embedded>,
    k: usize,
) -> Vec<Trial<'a>> {
    let mut by_name: Vec<(&String, &Vec<Observed>)> = seats.iter().collect();
    by_name.sort_by_key(|(p, _)| *p);
    by_name
        .into_iter()
        .flat_map(|(p, obs)| {
            let games = embedded.and_then(|t| t.get(p));
            obs.chunks_exact(k).enumerate().map(move |(j, block)| {
                let mut pooled = Observed::default();
                for o in block {
                    pooled.add(o);
                }
                (p.as_str(), pooled, games.map(|g| &g[j * k..(j + 1) * k]))
            })
        })
        .collect()
}

/// What ranks the players of a trial: the score, the plain baseline and the embedding's centroids.
struct Rankers<'a> {
    scorer: &'a Scorer<'a>,
    lda: Discriminant,
    centroids: Option<&'a Centroids>,
}

impl Rankers<'_> {
    /// The right player's place by each method, given the trial's sequences' log-likelihoods and its personal
    /// networks' (where given).
    fn place(&self, (p, o, games): &Trial<'_>, sequences: &[f64], networks: [Option<&[f64]>; 2]) -> Places {
        let scores = self.scorer.rank_given(o, sequences);
        let Some(me) = scores.iter().position(|s| s.player == *p) else { return [usize::MAX; METHODS.len()] };
        let parts = PARTS.map(|f| place_among(scores.iter().map(f), me));
        // the baseline: the sum of the block's games' log-densities, in the database's order of players
        let mut sum = vec![0.0; self.lda.players.len()];
        for x in &o.baseline {
            for (s, d) in sum.iter_mut().zip(self.lda.log_densities(x)) {
                *s += d;
            }
        }
        let baseline = place_of(&self.lda.players, p, &sum);
        // the same with the discard model's log-likelihood of the block added, player by player
        let discards: HashMap<&str, f64> = scores.iter().map(|s| (s.player.as_str(), s.discards)).collect();
        let both: Vec<f64> = self.lda.players.iter().zip(&sum).map(|(q, b)| b + discards[q.as_str()]).collect();
        let discards_baseline = place_of(&self.lda.players, p, &both);
        let embedding = match (self.centroids, games) {
            (Some(c), Some(g)) => place_of(&c.players, p, &c.similarities(g.iter())),
            _ => usize::MAX,
        };
        let [score, sequences, rates, habits, choices, discards, decisions] = parts;
        let [vectors, refit] = networks.map(|ll| ll.map_or(usize::MAX, |ll| place_of(&self.lda.players, p, ll)));
        [
            score,
            sequences,
            rates,
            habits,
            choices,
            discards,
            decisions,
            baseline,
            discards_baseline,
            embedding,
            vectors,
            refit,
        ]
    }
}

/// The figures of one block size from its trials' places.
fn row_of(
    k: usize,
    players: usize,
    n_players: f64,
    trials: &[Trial<'_>],
    places: &[Places],
    given: Given,
    choices: bool,
) -> Accuracy {
    let n = places.len().max(1) as f64;
    let share = |i: usize, top: usize| places.iter().filter(|p| p[i] <= top).count() as f64 / n;
    let hits = |i: usize| places.iter().filter(|p| p[i] == 1).count() as u64;
    let interval = |i: usize| wilson(Count { offered: places.len() as u64, taken: hits(i) }).unwrap_or((0.0, 1.0));
    let mean_place = |i: usize| places.iter().map(|p| p[i] as f64).sum::<f64>() / n;
    let methods = (0..METHODS.len())
        .filter(|&i| match METHODS[i] {
            "embedding" => given.embedding,
            "player_vectors" => given.player_vectors,
            "network_refit" => given.network_refit,
            // without the choices' counts the choices have nothing to rank by, and `decisions` is `discards`
            "choices" | "decisions" => choices,
            _ => true,
        })
        .map(|i| Method {
            method: METHODS[i],
            top1: share(i, 1),
            top1_interval: interval(i),
            top5: share(i, 5),
            mean_place: mean_place(i),
        })
        .collect();
    Accuracy {
        games: k,
        players,
        trials: places.len(),
        top1: share(0, 1),
        top1_interval: interval(0),
        top5: share(0, 5),
        chance_top1: 1.0 / n_players,
        chance_top5: (5.0 / n_players).min(1.0),
        mean_rank: mean_place(0),
        chance_mean_rank: (n_players + 1.0) / 2.0,
        sequences_only: [share(1, 1), share(1, 5)],
        rates_only: [share(2, 1), share(2, 5)],
        habits_only: [share(3, 1), share(3, 5)],
        choices_only: [share(4, 1), share(4, 5)],
        baseline: [share(7, 1), share(7, 5)],
        baseline_top1_interval: interval(7),
        embedding: given.embedding.then(|| [share(EMBEDDING, 1), share(EMBEDDING, 5)]),
        embedding_top1_interval: given.embedding.then(|| interval(EMBEDDING)),
        methods,
        places: trials
            .iter()
            .zip(places)
            .map(|((p, _, _), &places)| TrialPlace { player: p.to_string(), places, given })
            .collect(),
    }
}

/// Identification on the test games of `years`, each trial's sequences scored by `likelihoods` (the
/// `scorer` itself, or a device's batch), ranked by `scorer`; and by the embedding `trainer` gives, if any.
pub fn measure(
    scorer: &Scorer<'_>,
    likelihoods: &dyn SequenceLikelihoods,
    dataset: &Path,
    years: &[i32],
    block_sizes: &[usize],
    networks: &Networks<'_>,
) -> Result<AccuracyReport> {
    let trainer = networks.embedding;
    let db = scorer.db();
    if block_sizes.contains(&0) {
        bail!("--games: a trial pools at least one game");
    }
    let read = games_of(db, dataset, years)?;
    let (test_games, baseline_games) = (read.test.len(), read.profile.len());
    // the profile games' choices only for the embedding's reference games
    let choice_years = if trainer.is_some() { &read.years } else { years };
    let choices = crate::choice::per_seat(dataset, choice_years, &read.games)?;
    let seats = seats_of(db, &choices, &read, &read.test);
    if seats.is_empty() {
        bail!("{}: none of the database's {} players plays in years {years:?}", dataset.display(), db.profiles.len());
    }
    let embedded = match trainer {
        Some(t) => Some(embed(db, t, &seats_of(db, &choices, &read, &read.profile), &seats)?),
        None => None,
    };
    // every test seat scored by the players' vectors once, for all block sizes
    let by_seat = match networks.player_vectors {
        Some(n) => {
            let players: Vec<String> = db.profiles.iter().map(|p| p.player.clone()).collect();
            let all: Vec<(i64, u8)> = seats.values().flatten().flat_map(|o| o.seats.iter().copied()).collect();
            let tested: Vec<i64> = read.test.iter().map(|&i| read.games[i].game_id).collect();
            Some(n.of_seats(&all, &players, &tested)?)
        }
        None => None,
    };
    // the global network's readings of the test seats and the refit over the folds, once, for the personal
    // models and for ranking the players by the refit
    let network = match networks.global {
        Some(n) => Some(read_network(db, n, &networks.cross_fit, &seats, &read)?),
        None => None,
    };
    let by_refit = network.as_ref().and_then(|n| n.by_seat(db, &seats));
    let rankers = Rankers { scorer, lda: fit_baseline(db, &read)?, centroids: embedded.as_ref().map(|e| &e.0) };
    let started = Instant::now();
    let mut scored_games = 0usize;
    let (mut rows, mut no_trials) = (Vec::new(), Vec::new());
    for &k in block_sizes {
        let trials = trials_of(&seats, embedded.as_ref().map(|e| &e.1), k);
        if trials.is_empty() {
            no_trials.push(k);
            continue;
        }
        // every trial's sequences against every table in one call, then the right player's place by each method
        let sequences =
            likelihoods.of_trials(&trials.iter().map(|(_, o, _)| o.sequences.as_slice()).collect::<Vec<_>>())?;
        let sum = |by: &Option<BySeat>| -> Option<Vec<Vec<f64>>> {
            by.as_ref().map(|b| trials.iter().map(|(_, o, _)| summed(&o.seats, b, db.profiles.len())).collect())
        };
        let (vectors, refit) = (sum(&by_seat), sum(&by_refit));
        let places: Vec<Places> = (0..trials.len())
            .into_par_iter()
            .map(|i| {
                let networks = [&vectors, &refit].map(|v| v.as_ref().map(|v| v[i].as_slice()));
                rankers.place(&trials[i], &sequences[i], networks)
            })
            .collect();
        scored_games += trials.len() * k;
        let players = seats.values().filter(|o| o.len() >= k).count();
        let given =
            Given { embedding: embedded.is_some(), player_vectors: vectors.is_some(), network_refit: refit.is_some() };
        rows.push(row_of(k, players, db.profiles.len() as f64, &trials, &places, given, db.choice_model.is_some()));
    }
    let tested = seats.iter().map(|(p, obs)| (p.as_str(), obs.iter().map(|o| &o.discards).collect()));
    let personal = db.discards.personal_gains(tested, JUDGED_TEST_GAMES);
    let personal_choices = db.choice_model.as_ref().map(|m| {
        let tested = seats.iter().map(|(p, obs)| (p.as_str(), obs.iter().map(|o| &o.choices).collect()));
        let offers = |p: &str| db.choices.get(p).map_or(0, |c| c.summed(|_| true).offered);
        m.personal_gains(tested, offers, JUDGED_TEST_GAMES)
    });
    let (personal_network, [personal_network_refit, global_network_refit]) = match &network {
        Some(n) => n.gains(db, &seats),
        None => (None, [None, None]),
    };
    let refit = network.and_then(|n| n.refit);
    let overlap = match db.meta.sample {
        Some(_) => Vec::new(),
        None => years.iter().copied().filter(|y| db.meta.years.is_empty() || db.meta.years.contains(y)).collect(),
    };
    Ok(AccuracyReport {
        rows,
        test_games,
        baseline_games,
        no_trials,
        games_per_s: scored_games as f64 / started.elapsed().as_secs_f64().max(1e-9),
        overlap,
        personal,
        personal_choices,
        personal_network,
        personal_network_refit,
        global_network_refit,
        refit,
    })
}

/// The global network of `--network` as the personal models and the refit's ranking read it: its readings of
/// the test seats, and the players' coefficients refitted over the `--cross-fit` folds where given.
struct NetworkRead {
    readings: NetworkReadings,
    refit: Option<Refit>,
}

/// Reads the test seats with `n`, and refits the players' coefficients over `folds` ([`refit`]).
fn read_network(
    db: &StyleDb,
    n: &dyn GlobalNetwork,
    folds: &[&dyn GlobalNetwork],
    seats: &HashMap<String, Vec<Observed>>,
    read: &Games,
) -> Result<NetworkRead> {
    let all: Vec<(i64, u8)> = seats.values().flatten().flat_map(|o| o.seats.iter().copied()).collect();
    let tested: Vec<i64> = read.test.iter().map(|&i| read.games[i].game_id).collect();
    let readings = n.of_seats(&all, &tested)?;
    let refit = if folds.is_empty() { None } else { Some(refit(db, folds, read, &tested)?) };
    Ok(NetworkRead { readings, refit })
}

impl NetworkRead {
    /// The network tilted by each profiled player's discard coefficients against the network as it is, on
    /// every test seat of the players; and where refitted, tilted by the refitted coefficients (the personal
    /// part, and everyone's refit on its own).
    fn gains(
        &self,
        db: &StyleDb,
        seats: &HashMap<String, Vec<Observed>>,
    ) -> (Option<NetworkGains>, [Option<NetworkGains>; 2]) {
        let global = &self.readings.global;
        let base = self.readings.own.as_ref().unwrap_or(global);
        let gains = db.discards.network_gains(
            tested_seats(seats, global, base),
            self.readings.own.is_some(),
            JUDGED_TEST_GAMES,
        );
        // the refit tilts the global network itself (for a vectors run, its row for everyone)
        let refitted =
            self.refit.as_ref().map(|r| r.network_gains(&tested_seats(seats, global, global), JUDGED_TEST_GAMES));
        (gains, refitted.map_or([None, None], |g| g.map(Some)))
    }

    /// Each test seat's log-likelihood of its chosen discards under the network tilted by each of the database's
    /// players' refitted coefficients, in the database's order (none without a refit).
    fn by_seat(&self, db: &StyleDb, seats: &HashMap<String, Vec<Observed>>) -> Option<BySeat> {
        let refit = self.refit.as_ref()?;
        let players: Vec<&str> = db.profiles.iter().map(|p| p.player.as_str()).collect();
        let observed: Vec<&Observed> = seats.values().flatten().collect();
        let scored = observed.par_iter().filter_map(|o| {
            let seat = *o.seats.first()?;
            Some((seat, refit.log_likelihoods(&o.discards, reading(&self.readings.global, o), &players)?))
        });
        Some(scored.collect())
    }
}

/// Each player's test seats with the global network's reading and the reading a tilt is added to.
fn tested_seats<'a>(
    seats: &'a HashMap<String, Vec<Observed>>,
    global: &'a NetworkSeats,
    base: &'a NetworkSeats,
) -> Vec<(&'a str, Vec<TestSeat<'a>>)> {
    let tested = seats.iter().map(|(p, obs)| {
        (p.as_str(), obs.iter().map(|o| (&o.discards, [reading(global, o), reading(base, o)])).collect())
    });
    tested.collect()
}

/// The profile seats of the database's players with coefficients, each read by the first of `folds` that did
/// not train on its game (and on none of `tested`), and the players' coefficients refitted over the readings.
fn refit(db: &StyleDb, folds: &[&dyn GlobalNetwork], read: &Games, tested: &[i64]) -> Result<Refit> {
    let players = &db.discards.players;
    // each profile seat of a player with coefficients: (game id, seat, player, its choices)
    let profile: Vec<(i64, u8, &str, Discards)> = read
        .profile
        .par_iter()
        .flat_map_iter(|&i| {
            let g = &read.games[i];
            let keep = |s: u8| players.contains_key(g.names[usize::from(s)].as_str());
            let seats = of_seats(g, keep).into_iter().enumerate().filter(move |&(s, _)| keep(s as u8));
            seats.map(move |(s, d)| (g.game_id, s as u8, g.names[s].as_str(), d))
        })
        .collect();
    let mut left: Vec<i64> = profile.iter().map(|p| p.0).collect::<BTreeSet<_>>().into_iter().collect();
    let mut readings = NetworkSeats::new();
    for f in folds {
        let unseen = f.unseen(&left)?;
        let mine: HashSet<i64> = left.iter().zip(&unseen).filter(|(_, &u)| u).map(|(&g, _)| g).collect();
        if mine.is_empty() {
            continue;
        }
        let at: Vec<(i64, u8)> = profile.iter().filter(|p| mine.contains(&p.0)).map(|p| (p.0, p.1)).collect();
        let refused: Vec<i64> = tested.iter().chain(&mine).copied().collect();
        readings.extend(f.of_seats(&at, &refused)?.global);
        left.retain(|g| !mine.contains(g));
    }
    if readings.is_empty() {
        bail!(
            "--cross-fit: each of the {} networks trained on every profile game it could read (give runs of `haifu \
             train --fold K/N`, each trained on a fold of the database's games)",
            folds.len()
        );
    }
    let unread: HashSet<i64> = left.into_iter().collect();
    let mut by_player: BTreeMap<&str, Vec<(&Discards, &NetworkSeat)>> = BTreeMap::new();
    for (g, s, p, d) in profile.iter().filter(|p| !unread.contains(&p.0)) {
        by_player.entry(p).or_default().push((d, readings.get(&(*g, *s)).map_or(&[], Vec::as_slice)));
    }
    let unread_seats = profile.iter().filter(|p| unread.contains(&p.0)).count();
    Ok(Refit::fit(&by_player.into_iter().collect::<Vec<_>>(), folds.len(), unread_seats))
}

/// A test seat's reading (none where the network has no position of it).
fn reading<'a>(of: &'a NetworkSeats, o: &Observed) -> &'a NetworkSeat {
    o.seats.first().and_then(|s| of.get(s)).map_or(&[], Vec::as_slice)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tie counts against the right player: a method whose scores are all the same places it last.
    #[test]
    fn ties_place_the_right_player_below_the_tied() {
        assert_eq!(place_among([3.0, 1.0, 2.0].into_iter(), 0), 1);
        assert_eq!(place_among([3.0, 1.0, 2.0].into_iter(), 1), 3);
        assert_eq!(place_among([2.0, 3.0, 2.0].into_iter(), 0), 3);
        assert_eq!(place_among([0.0; 8].into_iter(), 5), 8);
        assert_eq!(METHODS[EMBEDDING], "embedding");
        let players: Vec<String> = ["a", "b"].map(String::from).to_vec();
        assert_eq!((place_of(&players, "b", &[1.0, 2.0]), place_of(&players, "c", &[1.0, 2.0])), (1, usize::MAX));
    }
}
