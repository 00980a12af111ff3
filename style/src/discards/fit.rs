//! The discard model's coefficients: everyone's and each player's fitted by Newton's method (a player's under
//! a normal prior around everyone's), written to and read from `discard_model.parquet`, and a player's set
//! against everyone's.

use std::f64::consts::SQRT_2;
use std::path::Path;

use anyhow::{bail, Context, Result};
use arrow::array::{Array, AsArray};
use arrow::datatypes::{Float64Type, UInt64Type};
use hashbrown::HashMap;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use rayon::prelude::*;
use serde::Serialize;

use haifu_ingest::columns;
use haifu_ingest::columns::{Float64, Table, UInt64, Utf8};
use haifu_mining::tables::write_table;

use super::{feature_name, feature_what, log_sum_exp, of_seats, Discards, DRAWN_COPY, FEATURES, MODEL_FILE, PRIOR_SD};
use crate::newton::{self, fit_players, most_probable, Posterior};
use crate::played::Played;

/// The model's coefficients, in the order of [`feature_name`].
#[derive(Clone, Debug, PartialEq)]
pub struct Coefficients(pub [f64; FEATURES]);

impl Default for Coefficients {
    fn default() -> Coefficients {
        Coefficients([0.0; FEATURES])
    }
}

impl Coefficients {
    /// The probability of discarding the copy just drawn at a copy choice ([`super::Copies`]).
    pub fn drawn_copy_share(&self) -> f64 {
        super::log_sigmoid(self.0[DRAWN_COPY]).exp()
    }
}

/// Fitted coefficients: their values, their posterior standard deviations, the deviations of the prior they
/// were fitted under (a player's: the players' spread around everyone's) and the choices they were fitted on.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    pub coefficients: Coefficients,
    pub sd: [f64; FEATURES],
    pub prior_sd: [f64; FEATURES],
    pub choices: u64,
}

impl Default for Fitted {
    fn default() -> Fitted {
        Fitted { coefficients: Coefficients::default(), sd: [0.0; FEATURES], prior_sd: [0.0; FEATURES], choices: 0 }
    }
}

/// The log-likelihood of choices, its gradient and its negative Hessian at some coefficients.
struct Curvature {
    value: f64,
    gradient: [f64; FEATURES],
    information: Vec<f64>,
}

impl Curvature {
    fn zero() -> Curvature {
        Curvature { value: 0.0, gradient: [0.0; FEATURES], information: vec![0.0; FEATURES * FEATURES] }
    }

    fn merge(mut self, o: Curvature) -> Curvature {
        self.value += o.value;
        self.gradient.iter_mut().zip(o.gradient).for_each(|(a, b)| *a += b);
        self.information.iter_mut().zip(o.information).for_each(|(a, b)| *a += b);
        self
    }

    fn of<T: Seat>(data: &[T], w: &[f64; FEATURES]) -> Curvature {
        // one accumulator a thread, not one a seat (a matrix of 41 x 41 each)
        data.par_iter()
            .fold(Curvature::zero, |mut c, d| {
                let (d, offsets) = d.parts();
                c.add(d, offsets, w);
                c
            })
            .reduce(Curvature::zero, Curvature::merge)
    }

    /// Adds the choices of `d` at `w`, each candidate's utility plus its offset (none where `offsets` is
    /// empty).
    fn add(&mut self, d: &Discards, offsets: &[f64], w: &[f64; FEATURES]) {
        let mut u = Vec::new();
        for (cands, chosen, offsets) in d.each_offset(offsets) {
            u.clear();
            u.extend(cands.iter().enumerate().map(|(j, c)| c.utility(w) + offsets.get(j).unwrap_or(&0.0)));
            let z = log_sum_exp(&u);
            self.value += u[chosen] - z;
            // information = sum over candidates of p x x' less mean mean': the first term sparse (a candidate
            // has a few marks), the second over the features some candidate has
            let (mut mean, mut any) = ([0.0; FEATURES], 0u64);
            for (cand, &ui) in cands.iter().zip(&u) {
                let p = (ui - z).exp();
                cand.add_to(&mut mean, p);
                let (idx, n) = cand.features();
                for &i in &idx[..n] {
                    any |= 1 << i;
                    let xi = cand.value(i);
                    let row = &mut self.information[i * FEATURES..(i + 1) * FEATURES];
                    for &j in &idx[..n] {
                        row[j] += p * xi * cand.value(j);
                    }
                }
            }
            cands[chosen].add_to(&mut self.gradient, 1.0);
            self.gradient.iter_mut().zip(&mean).for_each(|(g, m)| *g -= m);
            let mut is = any;
            while is != 0 {
                let i = is.trailing_zeros() as usize;
                is &= is - 1;
                let row = &mut self.information[i * FEATURES..(i + 1) * FEATURES];
                let mut js = any;
                while js != 0 {
                    let j = js.trailing_zeros() as usize;
                    js &= js - 1;
                    row[j] -= mean[i] * mean[j];
                }
            }
        }
        if d.copies.drawn + d.copies.held > 0 {
            let (value, gradient, information) = d.copies.curvature(w[DRAWN_COPY]);
            self.value += value;
            self.gradient[DRAWN_COPY] += gradient;
            self.information[DRAWN_COPY * FEATURES + DRAWN_COPY] += information;
        }
    }
}

/// A seat's choices, and each candidate's offset: the part of its utility no coefficient weighs (none where
/// empty; a network's log-probability of the candidate where the coefficients are refitted over a network:
/// [`super::refit`]).
pub(super) trait Seat: Sync {
    fn parts(&self) -> (&Discards, &[f64]);
}

impl Seat for &Discards {
    fn parts(&self) -> (&Discards, &[f64]) {
        (self, &[])
    }
}

impl Seat for (&Discards, Vec<f64>) {
    fn parts(&self) -> (&Discards, &[f64]) {
        (self.0, &self.1)
    }
}

impl Seat for (&Discards, &[f64]) {
    fn parts(&self) -> (&Discards, &[f64]) {
        *self
    }
}

/// The log-likelihood of `data`'s seats at `w`, with its derivatives, as Newton's method reads it.
pub(super) fn curvature<T: Seat>(data: &[T], w: &[f64]) -> newton::Curvature {
    let c = Curvature::of(data, w.try_into().expect("a coefficient a feature"));
    newton::Curvature { value: c.value, gradient: c.gradient.to_vec(), information: c.information }
}

fn array(v: &[f64]) -> [f64; FEATURES] {
    <[f64; FEATURES]>::try_from(v).expect("a coefficient a feature")
}

impl Fitted {
    fn of(posterior: Posterior, prior_sd: &[f64], data: &[&Discards]) -> Fitted {
        Fitted {
            coefficients: Coefficients(array(&posterior.mean)),
            sd: array(&posterior.sd),
            prior_sd: array(prior_sd),
            choices: data.iter().map(|d| d.len() as u64).sum(),
        }
    }
}

/// Precision of the weak prior everyone's coefficients get (keeps a feature no choice ever varied at 0).
const EVERYONE_PRECISION: f64 = 1.0;

/// Everyone's coefficients are fitted on at most this many games (their posterior deviations are then about
/// 0.01 or less; more games would only cost memory: a game's choices take some 8 KB a seat).
pub const EVERYONE_GAMES: usize = 10_000;

/// The model of a database: everyone's coefficients and each profiled player's.
#[derive(Clone, Debug, Default)]
pub struct DiscardModel {
    pub everyone: Option<Fitted>,
    pub players: HashMap<String, Fitted>,
    /// The coefficients were fitted over a network's log-probabilities (a refit, [`super::Refit`]): they tilt
    /// it whole, everyone's for a player without their own. Else they were fitted alone, and tilt a network by
    /// a player's less everyone's (everyone's part is what the network already holds).
    pub over_network: bool,
}

impl DiscardModel {
    /// Fits everyone's coefficients on every seat of `all`, then each of `players`' on their own choices (a
    /// player's seats, each apart) under a prior around everyone's whose deviations are the players' spread,
    /// estimated from their choices ([`newton::fit_players`]; [`PRIOR_SD`] where there are too few players).
    pub fn fit(all: &[&Discards], players: &[(&str, Vec<&Discards>)]) -> DiscardModel {
        let weak = [EVERYONE_PRECISION; FEATURES];
        let everyone = most_probable(&[0.0; FEATURES], &weak, &[0.0; FEATURES], |w| curvature(all, w));
        let everyone = Fitted::of(everyone, &weak.map(|p| 1.0 / p.sqrt()), all);
        let centre = everyone.coefficients.0;
        let (spread, fits) = fit_players(&centre, PRIOR_SD, players, |(_, d), w| curvature(d, w));
        let players = players.iter().zip(fits).map(|((p, d), f)| (p.to_string(), Fitted::of(f, &spread, d))).collect();
        DiscardModel { everyone: Some(everyone), players, over_network: false }
    }

    /// The model of a database's games: everyone's coefficients from every seat of at most [`EVERYONE_GAMES`] of
    /// them (chosen by a hash of the game id where there are more), each of `players`' from all their seats.
    pub fn of_games(games: &[Played], players: &[String]) -> DiscardModel {
        let share = (EVERYONE_GAMES as f64 / games.len().max(1) as f64).min(1.0);
        let profiled: hashbrown::HashSet<&str> = players.iter().map(String::as_str).collect();
        let seats: Vec<(bool, Vec<Discards>)> = games
            .par_iter()
            .map(|g| {
                let everyone = share >= 1.0 || haifu_mining::mine::in_sample(g.game_id, Some(share));
                let keep = |s: u8| everyone || profiled.contains(g.names[usize::from(s)].as_str());
                (everyone, of_seats(g, keep))
            })
            .collect();
        let all: Vec<&Discards> = seats.iter().filter(|(e, _)| *e).flat_map(|(_, d)| d).collect();
        let mut own: HashMap<&str, Vec<&Discards>> = players.iter().map(|p| (p.as_str(), Vec::new())).collect();
        for (g, (_, game)) in games.iter().zip(&seats) {
            for (name, d) in g.names.iter().zip(game) {
                if let Some(o) = own.get_mut(name.as_str()) {
                    o.push(d);
                }
            }
        }
        let own: Vec<(&str, Vec<&Discards>)> =
            players.iter().map(|p| (p.as_str(), own.remove(p.as_str()).unwrap_or_default())).collect();
        DiscardModel::fit(&all, &own)
    }

    /// A player's coefficients: their own, or everyone's for a player the model has none of.
    pub fn of(&self, player: &str) -> Option<&Coefficients> {
        self.players.get(player).or(self.everyone.as_ref()).map(|f| &f.coefficients)
    }

    /// A player's coefficients less everyone's (what tilts a network towards the player), or `None` for a player
    /// the model has no coefficients of.
    pub fn difference(&self, player: &str) -> Option<Coefficients> {
        let (own, everyone) = (self.players.get(player)?, self.everyone.as_ref()?);
        Some(Coefficients(std::array::from_fn(|i| own.coefficients.0[i] - everyone.coefficients.0[i])))
    }

    /// What tilts a network towards a player ([`DiscardModel::over_network`]): a refit's coefficients whole
    /// (everyone's for a player it has none of), or the player's less everyone's (none for a player the model
    /// has no coefficients of).
    pub fn tilt_of(&self, player: &str) -> Option<Coefficients> {
        match self.over_network {
            true => self.of(player).cloned(),
            false => self.difference(player),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.everyone.is_none()
    }

    /// The other players by the cosine of their deviations from everyone's to `player`'s, each coefficient's
    /// deviation over the players' spread in it (the prior's deviation): 1 for players who differ from everyone
    /// in the same proportions, 0 for unrelated ways, -1 for opposite ones. Most alike first (ties by name);
    /// `None` for a player the model has no coefficients of. The cosine reads the direction only, so a player
    /// of few choices, whose coefficients lie near everyone's, is not nearer every other for that.
    pub fn nearest(&self, player: &str) -> Option<Vec<(&str, f64)>> {
        let everyone = &self.everyone.as_ref()?.coefficients.0;
        let deviation = |f: &Fitted| -> [f64; FEATURES] {
            std::array::from_fn(|i| (f.coefficients.0[i] - everyone[i]) / f.prior_sd[i].max(1e-9))
        };
        let me = deviation(self.players.get(player)?);
        let norm = |v: &[f64; FEATURES]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
        let cosine = |v: &[f64; FEATURES]| {
            let n = norm(&me) * norm(v);
            if n > 0.0 {
                me.iter().zip(v).map(|(a, b)| a * b).sum::<f64>() / n
            } else {
                0.0
            }
        };
        let mut near: Vec<(&str, f64)> = self
            .players
            .iter()
            .filter(|(p, _)| *p != player)
            .map(|(p, f)| (p.as_str(), cosine(&deviation(f))))
            .collect();
        near.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        Some(near)
    }

    /// Writes every player's coefficients and everyone's (as `all_scope`).
    pub fn write(&self, path: &Path, all_scope: &str) -> Result<()> {
        let mut rows: Vec<(&str, &Fitted)> = self.players.iter().map(|(p, f)| (p.as_str(), f)).collect();
        rows.sort_by_key(|(p, _)| *p);
        if let Some(e) = &self.everyone {
            rows.push((all_scope, e));
        }
        write_table(path, |t: &mut ModelTable| {
            for (player, f) in &rows {
                for i in 0..FEATURES {
                    t.push(&(*player, i, *f));
                }
            }
        })
    }

    /// The model of a database (empty where it has none: built before the model).
    pub fn read_db(dir: &Path, all_scope: &str) -> Result<DiscardModel> {
        DiscardModel::read(&dir.join(MODEL_FILE), all_scope)
    }

    /// The model written at `path` (empty where there is no file).
    pub fn read(path: &Path, all_scope: &str) -> Result<DiscardModel> {
        let path = path.to_path_buf();
        let mut model = DiscardModel::default();
        let Ok(file) = std::fs::File::open(&path) else { return Ok(model) };
        let index: HashMap<String, usize> = (0..FEATURES).map(|i| (feature_name(i), i)).collect();
        let mut read: HashMap<String, (Fitted, usize)> = HashMap::new();
        for batch in ParquetRecordBatchReaderBuilder::try_new(file)?.build()? {
            let b = batch.with_context(|| path.display().to_string())?;
            let col = |c: &str| b.column_by_name(c).with_context(|| format!("{}: no {c} column", path.display()));
            let (player, feature) = (col("player")?.as_string::<i32>(), col("feature")?.as_string::<i32>());
            let (value, sd) =
                (col("coefficient")?.as_primitive::<Float64Type>(), col("sd")?.as_primitive::<Float64Type>());
            let choices = col("choices")?.as_primitive::<UInt64Type>();
            // a database built before the prior's spread was estimated has no prior_sd: its players' prior was fixed
            let prior_sd = b.column_by_name("prior_sd").map(|c| c.as_primitive::<Float64Type>());
            for i in 0..b.num_rows() {
                if player.is_null(i) || feature.is_null(i) {
                    bail!("{}: row {i} names no player or feature", path.display());
                }
                let Some(&f) = index.get(feature.value(i)) else {
                    bail!(
                        "{}: feature {:?} is not this haifu's (build the database again)",
                        path.display(),
                        feature.value(i)
                    )
                };
                let e = read.entry_ref(player.value(i)).or_insert_with(|| (Fitted::default(), 0));
                let fixed = if player.value(i) == all_scope { 1.0 / EVERYONE_PRECISION.sqrt() } else { PRIOR_SD };
                (e.0.coefficients.0[f], e.0.sd[f], e.0.choices, e.1) =
                    (value.value(i), sd.value(i), choices.value(i), e.1 + 1);
                e.0.prior_sd[f] = prior_sd.map_or(fixed, |c| c.value(i));
            }
        }
        for (player, (fitted, n)) in read {
            if n != FEATURES {
                bail!(
                    "{}: {player} has {n} coefficients, not {FEATURES} (built by an older haifu: build the database again)",
                    path.display()
                );
            }
            if player == all_scope {
                model.everyone = Some(fitted);
            } else {
                model.players.insert(player, fitted);
            }
        }
        if model.everyone.is_none() && !model.players.is_empty() {
            bail!("{}: no {all_scope} row", path.display());
        }
        Ok(model)
    }
}

columns! {
    /// `discard_model.parquet`: per profiled player and ALL, each coefficient with its posterior sd and the sd of
    /// the prior it was fitted under (a player's: the players' spread around ALL's, estimated by the database).
    pub struct ModelTable("discard_model") for<'a> |r: (&'a str, usize, &'a Fitted)| {
        let (player, f, fitted) = *r;
        let name = feature_name(f);
    }
    player: Utf8 = player,
    feature: Utf8 = name.as_str(),
    coefficient: Float64 = fitted.coefficients.0[f],
    sd: Float64 = fitted.sd[f],
    prior_sd: Float64 = fitted.prior_sd[f],
    choices: UInt64 = fitted.choices,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Distinct {
    pub name: String,
    pub what: String,
    pub coefficient: f64,
    /// The coefficient's 95% interval (1.96 posterior standard deviations each side).
    pub interval: (f64, f64),
    pub everyone: f64,
    /// How far the players spread around everyone's in this coefficient (the prior's deviation): how much of a
    /// habit of players in general it is to differ here.
    pub spread: f64,
    /// The share of players whose coefficient lies below the player's, were the players' coefficients normal
    /// around everyone's with that spread: where the player stands among players (0.5 for everyone's).
    pub above_players: f64,
    /// How many posterior standard deviations the player's coefficient lies from everyone's: the ranking key.
    pub z: f64,
}

/// The player's coefficients, the most distinctive first (largest |z|).
pub fn distinctive(own: &Fitted, everyone: &Fitted) -> Vec<Distinct> {
    distinct_from(&own.coefficients.0, &own.sd, &everyone.coefficients.0, &own.prior_sd, feature_name, feature_what)
}

/// A player's coefficients (`own`, with their posterior deviations `sd`) against everyone's (the players spread
/// around them by `spread`), the most distinctive first (largest |z|), each named by `name` and told by `what`.
pub fn distinct_from(
    own: &[f64],
    sd: &[f64],
    everyone: &[f64],
    spread: &[f64],
    name: impl Fn(usize) -> String,
    what: impl Fn(usize) -> String,
) -> Vec<Distinct> {
    let mut v: Vec<Distinct> = (0..own.len())
        .map(|i| {
            let (c, e, sd) = (own[i], everyone[i], sd[i].max(1e-9));
            Distinct {
                name: name(i),
                what: what(i),
                coefficient: c,
                interval: (c - 1.96 * sd, c + 1.96 * sd),
                everyone: e,
                spread: spread[i],
                above_players: 0.5 * statrs::function::erf::erfc(-(c - e) / (spread[i].max(1e-9) * SQRT_2)),
                z: (c - e) / sd,
            }
        })
        .collect();
    v.sort_by(|a, b| b.z.abs().total_cmp(&a.z.abs()).then_with(|| a.name.cmp(&b.name)));
    v
}

#[cfg(test)]
mod tests {
    use super::super::testing::{feature, Draw};
    use super::super::{Copies, SHORTFALL};
    use super::*;

    /// Choices drawn from known coefficients are fitted back to them (within a few posterior deviations),
    /// and a player's few choices move the player's coefficients from everyone's only as far as they say.
    #[test]
    fn fitting_recovers_the_coefficients_choices_were_drawn_from() {
        let mut draw = Draw { state: 7 };
        let truth = {
            let mut w = [0.0; FEATURES];
            (w[feature("dragon_t1")], w[feature("isolated_t2_6")], w[feature("back_off")], w[SHORTFALL]) =
                (1.5, 0.8, -2.0, -1.0);
            w[feature("pair")] = -0.7;
            Coefficients(w)
        };
        let marks = [feature("dragon_t1"), feature("isolated_t2_6"), feature("back_off"), feature("pair")];
        let mut draw = |n: usize, w: &Coefficients| draw.choices(n, 5, &marks, true, &w.0);
        let everyone = draw(20_000, &truth);
        let mut other = truth.clone();
        other.0[feature("dragon_t1")] = -0.5;
        let player = draw(3_000, &other);
        let model = DiscardModel::fit(&[&everyone], &[("p", vec![&player])]);
        let e = model.everyone.as_ref().unwrap();
        for f in [feature("dragon_t1"), feature("isolated_t2_6"), feature("back_off"), feature("pair"), SHORTFALL] {
            let err = (e.coefficients.0[f] - truth.0[f]).abs();
            assert!(
                err < 4.0 * e.sd[f] && e.sd[f] < 0.1,
                "{}: {} against {} (sd {})",
                feature_name(f),
                e.coefficients.0[f],
                truth.0[f],
                e.sd[f]
            );
        }
        // a feature no choice ever varied stays at the prior's centre
        assert_eq!(e.coefficients.0[feature("genbutsu")], 0.0);
        let p = &model.players["p"];
        let f = feature("dragon_t1");
        assert!((p.coefficients.0[f] - -0.5).abs() < 4.0 * p.sd[f], "{} (sd {})", p.coefficients.0[f], p.sd[f]);
        assert!(distinctive(p, e)[0].name == "dragon_t1");
        // the player's own coefficients make the player's unseen choices likelier than everyone's do
        let seen = draw(300, &other);
        assert!(seen.log_likelihood(model.of("p").unwrap()) > seen.log_likelihood(&e.coefficients) + 5.0);
        // a player of ten choices stays near everyone's
        let few = draw(10, &other);
        let model = DiscardModel::fit(&[&everyone], &[("q", vec![&few])]);
        assert!((model.players["q"].coefficients.0[f] - model.everyone.unwrap().coefficients.0[f]).abs() < 0.5);
    }

    /// Twelve players who differ from everyone only in how readily they discard a dragon first: the spread the
    /// database estimates is theirs for that coefficient and next to none for the others.
    #[test]
    fn the_prior_is_as_wide_as_the_players_differ() {
        let mut draw = Draw { state: 11 };
        let (dragon, pair) = (feature("dragon_t1"), feature("pair"));
        let truth = |d: f64| {
            let mut w = [0.0; FEATURES];
            (w[dragon], w[pair]) = (d, -0.7);
            w
        };
        let marks = [dragon, pair, feature("isolated_t2_6")];
        let everyone = draw.choices(20_000, 5, &marks, true, &truth(0.0));
        let seats: Vec<Discards> = (0..12)
            .map(|i| draw.choices(2_000, 5, &marks, true, &truth(if i % 2 == 0 { 1.0 } else { -1.0 })))
            .collect();
        let names: Vec<String> = (0..12).map(|i| format!("p{i}")).collect();
        let players: Vec<(&str, Vec<&Discards>)> =
            names.iter().map(String::as_str).zip(seats.iter().map(|d| vec![d])).collect();
        let model = DiscardModel::fit(&[&everyone], &players);
        let prior = model.players["p0"].prior_sd;
        assert!((0.7..1.3).contains(&prior[dragon]), "{prior:?}");
        assert!(prior[pair] < 0.2 && prior[feature("isolated_t2_6")] < 0.2, "{prior:?}");
        // every player's dragon coefficient keeps its side of everyone's, and stands there among the players: a
        // player one spread above everyone's is above some 84% of them
        let e = model.everyone.as_ref().unwrap();
        for (i, n) in names.iter().enumerate() {
            let c = model.players[n].coefficients.0[dragon];
            assert!(if i % 2 == 0 { c > 0.6 } else { c < -0.6 }, "{n}: {c}");
            let d = distinctive(&model.players[n], e).into_iter().find(|d| d.name == "dragon_t1").unwrap();
            let above = if i % 2 == 0 { d.above_players } else { 1.0 - d.above_players };
            assert!((0.7..0.93).contains(&above), "{n}: {d:?}");
        }
    }

    /// Twelve players whose kind choices are drawn alike and who discard the copy just drawn 95% or 60% of the
    /// times they hold another: each player's copy coefficient lands on the player's side, the prior's spread
    /// there is the players', the kinds' coefficients are those fitted without the copies (the two parts share
    /// no coefficient), and a block of unseen copy choices alone names the player's side.
    #[test]
    fn the_copy_just_drawn_is_a_habit_of_its_own() {
        let mut draw = Draw { state: 13 };
        let (dragon, pair) = (feature("dragon_t1"), feature("pair"));
        let mut w = [0.0; FEATURES];
        (w[dragon], w[pair]) = (1.0, -0.7);
        let marks = [dragon, pair];
        let rates = |i: usize| if i.is_multiple_of(2) { 0.95 } else { 0.6 };
        let copies = |draw: &mut Draw, n: usize, rate: f64| {
            let drawn = (0..n).filter(|_| draw.next() < rate).count() as u32;
            Copies { drawn, held: n as u32 - drawn }
        };
        let everyone = draw.choices(5_000, 5, &marks, false, &w);
        let seats: Vec<Discards> = (0..12)
            .map(|i| {
                let mut d = draw.choices(1_000, 5, &marks, false, &w);
                d.copies = copies(&mut draw, 400, rates(i));
                d
            })
            .collect();
        let names: Vec<String> = (0..12).map(|i| format!("p{i}")).collect();
        let fit = |seats: &[Discards]| {
            let players: Vec<(&str, Vec<&Discards>)> =
                names.iter().map(String::as_str).zip(seats.iter().map(|d| vec![d])).collect();
            let mut all: Vec<&Discards> = seats.iter().collect();
            all.push(&everyone);
            DiscardModel::fit(&all, &players)
        };
        let model = fit(&seats);
        let logit = |p: f64| (p / (1.0 - p)).ln();
        let prior = model.players["p0"].prior_sd[DRAWN_COPY];
        // the two sides are 2.5 log-odds apart (2.94 and 0.41): the players spread some 1.27 around everyone's
        assert!((0.9..1.6).contains(&prior), "{prior}");
        let centre = model.everyone.as_ref().unwrap().coefficients.0[DRAWN_COPY];
        for (i, n) in names.iter().enumerate() {
            let c = model.players[n].coefficients.0[DRAWN_COPY];
            let side = if i.is_multiple_of(2) { c > centre } else { c < centre };
            assert!(side && (c - logit(rates(i))).abs() < 0.5, "{n}: {c} against {}", logit(rates(i)));
        }
        let kinds_only: Vec<Discards> =
            seats.iter().map(|d| Discards { copies: Copies::default(), ..d.clone() }).collect();
        let without = fit(&kinds_only);
        for n in &names {
            for f in (0..FEATURES).filter(|&f| f != DRAWN_COPY) {
                let (a, b) = (model.players[n].coefficients.0[f], without.players[n].coefficients.0[f]);
                assert!((a - b).abs() < 1e-6, "{n} {}: {a} against {b}", feature_name(f));
            }
        }
        // 30 unseen copy choices of each side: likelier under a player of that side than of the other
        for (i, rate) in [(0, 0.95), (1, 0.6)] {
            let seen = Discards { copies: copies(&mut draw, 30, rate), ..Discards::default() };
            let ll = |p: &str| seen.tile_log_likelihood(model.of(p).unwrap());
            assert!(ll(&names[i]) > ll(&names[1 - i]) + 2.0, "{rate}: {} against {}", ll(&names[i]), ll(&names[1 - i]));
            // the kinds' log-likelihood leaves the copies out
            assert_eq!(seen.log_likelihood(model.of(&names[i]).unwrap()), 0.0);
        }
    }

    #[test]
    fn the_model_written_is_the_model_read() {
        let mut w = Coefficients::default();
        w.0[3] = 0.25;
        let fitted = |c: &Coefficients, n| Fitted {
            coefficients: c.clone(),
            sd: [0.1; FEATURES],
            prior_sd: std::array::from_fn(|i| 0.2 + i as f64 / 100.0),
            choices: n,
        };
        let mut model = DiscardModel {
            everyone: Some(fitted(&Coefficients::default(), 100)),
            players: HashMap::new(),
            over_network: false,
        };
        model.players.insert("p".into(), fitted(&w, 7));
        let dir = std::env::temp_dir().join(format!("haifu-discards-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        model.write(&dir.join(MODEL_FILE), "ALL").unwrap();
        let back = DiscardModel::read_db(&dir, "ALL").unwrap();
        assert_eq!(back.everyone, model.everyone);
        assert_eq!(back.players, model.players);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
