//! The discard model (issue 50): which kind a player discards among the kinds the hand holds, as a conditional
//! logit. Every chosen discard after a draw is one choice; each kind held is a candidate described by a few
//! features fixed before any measurement ([`feature_name`]): its class by turn (honors by their value to the
//! seat, terminals, 2/8, 3/7; the 4-6 are the reference), whether it is isolated by turn, a pair or a set,
//! whether discarding it backs off from tenpai (with and without another seat's riichi), how much of the best
//! acceptance it gives up, whether it is the tile just drawn, a dora, safe against every riichi (genbutsu, suji)
//! or an honor already seen twice. A candidate's utility is the coefficients' sum over its features, and the
//! player discards it with the softmax of the utilities over the candidates.
//!
//! Everyone's coefficients are fitted on every seat's choices (of at most [`EVERYONE_GAMES`] games); a player's are the most probable under a normal
//! prior centred on everyone's ([`PRIOR_SD`]), so a player with few choices keeps everyone's and one with many
//! moves only as far as the choices say. Unlike the habits' shares, one choice counts once, however many
//! classes the hand held, and the honors that no suit sequence holds (SPEC 2) are weighed against every other
//! kind the hand could give up. Identification scores a block by the log-likelihood of its choices under
//! each player's coefficients.
//!
//! Left out: discards in riichi (forced), after a chi or pon (kuikae restricts them; the call is the choice
//! there), and hands holding one kind. A riichi declaration chooses among the kinds that keep tenpai.

use std::path::Path;

use anyhow::{bail, Context, Result};
use arrow::array::{Array, AsArray};
use arrow::datatypes::{Float64Type, UInt64Type};
use hashbrown::HashMap;
use nalgebra::{DMatrix, DVector};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use rayon::prelude::*;
use serde::Serialize;

use haifu_imitate::rank::Winds;
use haifu_ingest::columns;
use haifu_ingest::columns::{Float64, Table, UInt64, Utf8};
use haifu_ingest::extract::TileSource;
use haifu_mining::tables::write_table;
use haifu_rules::shanten::shanten_each;
use haifu_rules::{Counts, Kind, KINDS};

use crate::habits::KindClass;
use crate::played::Played;

/// The database's file of fitted coefficients.
pub const MODEL_FILE: &str = "discard_model.parquet";

/// Standard deviation of the normal prior a player's coefficients have around everyone's: a difference of 0.5
/// in a coefficient multiplies the odds of the candidates it marks by e^0.5 = 1.6. Fixed before any run.
pub const PRIOR_SD: f64 = 0.5;

/// The turns of the class and isolation features: (name, first turn, last turn).
const PHASES: [(&str, u8, u8); 4] = [("t1", 1, 1), ("t2_6", 2, 6), ("t7_12", 7, 12), ("t13", 13, u8::MAX)];
/// The classes with a coefficient of their own; the 4-6 are the reference (a coefficient of 0).
const CLASSES: [KindClass; 6] = [
    KindClass::Dragon,
    KindClass::ValueWind,
    KindClass::GuestWind,
    KindClass::Terminal,
    KindClass::TwoEight,
    KindClass::ThreeSeven,
];
const ISOLATED_AT: usize = CLASSES.len() * PHASES.len();
const PAIR: usize = ISOLATED_AT + PHASES.len();
const SET: usize = PAIR + 1;
const BACK_OFF: usize = SET + 1;
const BACK_OFF_THREAT: usize = BACK_OFF + 1;
const TSUMOGIRI: usize = BACK_OFF_THREAT + 1;
const DORA: usize = TSUMOGIRI + 1;
const GENBUTSU: usize = DORA + 1;
const SUJI: usize = GENBUTSU + 1;
const HONOR_SEEN: usize = SUJI + 1;
/// The one feature that is a number rather than a mark: the share of the best acceptance given up.
const SHORTFALL: usize = HONOR_SEEN + 1;
/// How many coefficients the model has.
pub const FEATURES: usize = SHORTFALL + 1;
// a candidate's marks are the bits of a u64
const _: () = assert!(FEATURES < 64);

fn phase_of(turn: u8) -> usize {
    PHASES.iter().position(|&(_, lo, hi)| (lo..=hi).contains(&turn)).unwrap_or(0)
}

/// A coefficient's name in the database and on the pages (`guest_wind_t1`, `isolated_t7_12`, `genbutsu`).
pub fn feature_name(i: usize) -> String {
    match i {
        _ if i < ISOLATED_AT => format!("{}_{}", CLASSES[i % CLASSES.len()].name(), PHASES[i / CLASSES.len()].0),
        _ if i < PAIR => format!("isolated_{}", PHASES[i - ISOLATED_AT].0),
        PAIR => "pair".into(),
        SET => "set".into(),
        BACK_OFF => "back_off".into(),
        BACK_OFF_THREAT => "back_off_threat".into(),
        TSUMOGIRI => "tsumogiri".into(),
        DORA => "dora".into(),
        GENBUTSU => "genbutsu".into(),
        SUJI => "suji".into(),
        HONOR_SEEN => "honor_seen_twice".into(),
        _ => "acceptance_given_up".into(),
    }
}

/// What a coefficient weighs, in words.
pub fn feature_what(i: usize) -> String {
    let turns = |(_, lo, hi): (&str, u8, u8)| match hi {
        u8::MAX => format!("turn {lo}+"),
        _ if lo == hi => format!("turn {lo}"),
        _ => format!("turns {lo}-{hi}"),
    };
    match i {
        _ if i < ISOLATED_AT => {
            let (class, phase) = (CLASSES[i % CLASSES.len()], PHASES[i / CLASSES.len()]);
            format!("discarding {} rather than a 4-6 ({})", class.what(), turns(phase))
        }
        _ if i < PAIR => format!("discarding an isolated tile ({})", turns(PHASES[i - ISOLATED_AT])),
        PAIR => "breaking a pair".into(),
        SET => "breaking a set of three".into(),
        BACK_OFF => "discarding away from tenpai, nobody in riichi".into(),
        BACK_OFF_THREAT => "discarding away from tenpai after another's riichi".into(),
        TSUMOGIRI => "discarding the kind just drawn".into(),
        DORA => "discarding a dora".into(),
        GENBUTSU => "discarding a tile safe against every riichi (genbutsu)".into(),
        SUJI => "discarding a suji tile against every riichi".into(),
        HONOR_SEEN => "discarding an honor already seen twice".into(),
        _ => "the share of the best acceptance given up".into(),
    }
}

/// One kind the hand could discard: its marks (bit `f` for feature `f`, the low bits) and the acceptance it gives
/// up (the top 16 bits, in steps of 1/65535), in 8 bytes: a database of a year's games holds millions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate(u64);

const SHORTFALL_SHIFT: u32 = 48;
const MARKS: u64 = (1 << SHORTFALL) - 1;
const _: () = assert!(SHORTFALL <= SHORTFALL_SHIFT as usize);

impl Candidate {
    /// A candidate of these marks (bits below [`SHORTFALL`]) giving up this share of the best acceptance (0-1).
    pub fn new(marks: u64, shortfall: f64) -> Candidate {
        let steps = (shortfall.clamp(0.0, 1.0) * 65535.0).round() as u64;
        Candidate(marks & MARKS | steps << SHORTFALL_SHIFT)
    }

    pub fn marks(&self) -> u64 {
        self.0 & MARKS
    }

    /// The share of the best acceptance given up.
    pub fn shortfall(&self) -> f64 {
        (self.0 >> SHORTFALL_SHIFT) as f64 / 65535.0
    }

    fn utility(&self, w: &[f64; FEATURES]) -> f64 {
        let mut u = self.shortfall() * w[SHORTFALL];
        let mut m = self.marks();
        while m != 0 {
            u += w[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        u
    }

    /// The features this candidate has (its marks, and the acceptance given up where not 0), and how many.
    fn features(&self) -> ([usize; FEATURES], usize) {
        let (mut idx, mut n) = ([0; FEATURES], 0);
        let mut m = self.marks();
        while m != 0 {
            idx[n] = m.trailing_zeros() as usize;
            n += 1;
            m &= m - 1;
        }
        if self.0 >> SHORTFALL_SHIFT != 0 {
            idx[n] = SHORTFALL;
            n += 1;
        }
        (idx, n)
    }

    /// The value of feature `f`.
    fn value(&self, f: usize) -> f64 {
        if f == SHORTFALL {
            self.shortfall()
        } else {
            f64::from(u8::from(self.0 & 1 << f != 0))
        }
    }

    /// The features as numbers, added into `x` times `scale`.
    fn add_to(&self, x: &mut [f64; FEATURES], scale: f64) {
        let mut m = self.marks();
        while m != 0 {
            x[m.trailing_zeros() as usize] += scale;
            m &= m - 1;
        }
        x[SHORTFALL] += scale * self.shortfall();
    }
}

/// One choice: its candidates' place in [`Discards::candidates`] and which one was discarded.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Choice {
    start: u32,
    len: u8,
    chosen: u8,
}

/// A seat's (or a block's, or a player's) chosen discards as the model reads them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Discards {
    candidates: Vec<Candidate>,
    choices: Vec<Choice>,
}

impl Discards {
    pub fn add(&mut self, o: &Discards) {
        let shift = self.candidates.len() as u32;
        self.candidates.extend_from_slice(&o.candidates);
        self.choices.extend(o.choices.iter().map(|c| Choice { start: c.start + shift, ..*c }));
    }

    /// How many choices there are.
    pub fn len(&self) -> usize {
        self.choices.len()
    }

    pub fn is_empty(&self) -> bool {
        self.choices.is_empty()
    }

    fn push(&mut self, candidates: &[Candidate], chosen: usize) {
        let start = self.candidates.len() as u32;
        self.candidates.extend_from_slice(candidates);
        self.choices.push(Choice { start, len: candidates.len() as u8, chosen: chosen as u8 });
    }

    fn each(&self) -> impl Iterator<Item = (&[Candidate], usize)> + '_ {
        self.choices.iter().map(|c| {
            let at = c.start as usize;
            (&self.candidates[at..at + usize::from(c.len)], usize::from(c.chosen))
        })
    }

    /// How many of the choices the most probable candidate under `w` is the one chosen (ties: the first).
    pub fn hits(&self, w: &Coefficients) -> usize {
        self.each()
            .filter(|(cands, chosen)| {
                let u: Vec<f64> = cands.iter().map(|c| c.utility(&w.0)).collect();
                let best = (0..u.len()).fold(0, |b, i| if u[i] > u[b] { i } else { b });
                best == *chosen
            })
            .count()
    }

    /// Log-likelihood of the choices under `w`.
    pub fn log_likelihood(&self, w: &Coefficients) -> f64 {
        let mut u = Vec::new();
        self.each()
            .map(|(cands, chosen)| {
                u.clear();
                u.extend(cands.iter().map(|c| c.utility(&w.0)));
                u[chosen] - log_sum_exp(&u)
            })
            .sum()
    }
}

fn log_sum_exp(u: &[f64]) -> f64 {
    let m = u.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    m + u.iter().map(|x| (x - m).exp()).sum::<f64>().ln()
}

/// What one round has shown so far: each seat's safe kinds (its own discards, and every discard after its
/// riichi), the seats in riichi, and the copies of each kind in the rivers.
struct Board {
    round: Option<u16>,
    safe: [u64; 4],
    riichi: u8,
    seen: [u8; KINDS],
}

impl Board {
    fn of(round: u16) -> Board {
        Board { round: Some(round), safe: [0; 4], riichi: 0, seen: [0; KINDS] }
    }

    fn discarded(&mut self, seat: u8, kind: usize, declares: bool) {
        for (s, safe) in self.safe.iter_mut().enumerate() {
            if s == usize::from(seat) || self.riichi & 1 << s != 0 {
                *safe |= 1 << kind;
            }
        }
        self.seen[kind] = self.seen[kind].saturating_add(1);
        if declares {
            self.riichi |= 1 << seat;
        }
    }
}

/// Whether a suit kind is suji against a seat whose safe kinds are `safe`: both its neighbours three apart
/// that exist are safe.
fn suji(k: usize, safe: u64) -> bool {
    let d = k % 9;
    let below = d < 3 || safe & 1 << (k - 3) != 0;
    let above = d > 5 || safe & 1 << (k + 3) != 0;
    below && above
}

/// Whether a held kind has no other tile of its suit within two (an honor: a single one).
fn isolated(hand: &Counts, k: usize) -> bool {
    if hand[k] != 1 {
        return false;
    }
    if k >= 27 {
        return true;
    }
    let (base, d) = (k / 9 * 9, k % 9);
    (d.saturating_sub(2)..=(d + 2).min(8)).all(|e| e == d || hand[base + e] == 0)
}

/// The tiles that would lower the shanten of a 3n+1 hand, counting four of each kind less those held and seen.
fn acceptance(hand: &Counts, shanten: i8, seen: &[u8; KINDS], players: u8) -> u32 {
    let after = shanten_each(hand, 1);
    (0..KINDS)
        .filter(|&j| after[j] < shanten && !(players == 3 && Kind::from_index(j as u8).absent_in_sanma()))
        .map(|j| 4u32.saturating_sub(u32::from(hand[j]) + u32::from(seen[j])))
        .sum()
}

/// Each seat's choices in a game (`n_players` of them). Needs the discards' tiles ([`crate::played::Reading`]
/// `tiles`); a game read without them has none.
pub fn of_game(g: &Played) -> Vec<Discards> {
    of_seats(g, |_| true)
}

/// [`of_game`] for the seats `keep` accepts (the others are empty): the board still follows every seat.
pub fn of_seats(g: &Played, keep: impl Fn(u8) -> bool) -> Vec<Discards> {
    let mut out = vec![Discards::default(); usize::from(g.n_players)];
    let mut board = Board::of(u16::MAX);
    let mut candidates = Vec::with_capacity(14);
    for d in &g.decisions {
        let Some(t) = &d.tiles else { continue };
        if board.round != Some(d.round) {
            board = Board::of(d.round);
        }
        let discard = usize::from(t.discard.kind().index());
        let after_draw = matches!(d.source, TileSource::Draw | TileSource::Kan | TileSource::Nuki);
        if !d.in_riichi && after_draw && keep(d.seat) {
            let kyoku = g.rounds.get(usize::from(d.round)).map_or(0, |r| r.kyoku);
            let winds = Winds::of_seat(kyoku, d.seat, g.n_players);
            let threats = board.riichi & !(1 << d.seat);
            let sight = Sight { winds, threats, dora: t.dora(g.n_players), players: g.n_players };
            // a discard the candidates miss (a riichi the shanten does not see as tenpai) is left out
            if let Some(Some(chosen)) = sight.candidates(&board, t, d.turn, d.riichi, &mut candidates) {
                if candidates.len() >= 2 {
                    out[usize::from(d.seat)].push(&candidates, chosen);
                }
            }
        }
        board.discarded(d.seat, discard, d.riichi);
    }
    out
}

/// What the seat knows beside its hand at a choice.
struct Sight {
    winds: Winds,
    /// Other seats in riichi, bit per seat.
    threats: u8,
    dora: u64,
    players: u8,
}

impl Sight {
    /// Fills `out` with the hand's candidates and gives the place of the kind discarded (`None` inside when it
    /// is not among them); `None` when the hand cannot be read (not 3n+2 tiles).
    fn candidates(
        &self,
        board: &Board,
        t: &crate::played::DecisionTiles,
        turn: u8,
        declares: bool,
        out: &mut Vec<Candidate>,
    ) -> Option<Option<usize>> {
        out.clear();
        let hand = &t.hand;
        let size: u32 = hand.iter().map(|&n| u32::from(n)).sum();
        if size % 3 != 2 || hand.iter().any(|&n| n > 4) {
            return None;
        }
        let shanten = shanten_each(hand, -1);
        let held: Vec<usize> = (0..KINDS).filter(|&k| hand[k] > 0 && (!declares || shanten[k] <= 0)).collect();
        let best = held.iter().map(|&k| shanten[k]).min()?;
        // the acceptance of each candidate that keeps the best shanten
        let accept: Vec<u32> = held
            .iter()
            .map(|&k| {
                if shanten[k] != best {
                    return 0;
                }
                let mut left = *hand;
                left[k] -= 1;
                acceptance(&left, best, &board.seen, self.players)
            })
            .collect();
        let most = accept.iter().copied().max().unwrap_or(0);
        let phase = phase_of(turn);
        let drawn = usize::from(t.source_tile.kind().index());
        let threats: Vec<u64> = (0..4).filter(|s| self.threats & 1 << s != 0).map(|s| board.safe[s]).collect();
        let mut chosen = None;
        for (&k, &acc) in held.iter().zip(&accept) {
            let kind = Kind::from_index(k as u8);
            let mut marks = 0u64;
            let mut mark = |f: usize| marks |= 1 << f;
            let class = KindClass::of(kind, &self.winds);
            if let Some(c) = CLASSES.iter().position(|&x| x == class) {
                mark(phase * CLASSES.len() + c);
            }
            if isolated(hand, k) {
                mark(ISOLATED_AT + phase);
            }
            match hand[k] {
                2 => mark(PAIR),
                3.. => mark(SET),
                _ => {}
            }
            if shanten[k] > best {
                mark(if threats.is_empty() { BACK_OFF } else { BACK_OFF_THREAT });
            }
            if k == drawn {
                mark(TSUMOGIRI);
            }
            if self.dora & 1 << k != 0 {
                mark(DORA);
            }
            if !threats.is_empty() {
                if threats.iter().all(|s| s & 1 << k != 0) {
                    mark(GENBUTSU);
                } else if k < 27 && threats.iter().all(|&s| suji(k, s)) {
                    mark(SUJI);
                }
            }
            if k >= 27 && board.seen[k] >= 2 {
                mark(HONOR_SEEN);
            }
            let shortfall = if most > 0 && shanten[k] == best { 1.0 - f64::from(acc) / f64::from(most) } else { 0.0 };
            if k == usize::from(t.discard.kind().index()) {
                chosen = Some(out.len());
            }
            out.push(Candidate::new(marks, shortfall));
        }
        Some(chosen)
    }
}

/// The model's coefficients, in the order of [`feature_name`].
#[derive(Clone, Debug, PartialEq)]
pub struct Coefficients(pub [f64; FEATURES]);

impl Default for Coefficients {
    fn default() -> Coefficients {
        Coefficients([0.0; FEATURES])
    }
}

/// Fitted coefficients: their values, their posterior standard deviations and the choices they were fitted on.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    pub coefficients: Coefficients,
    pub sd: [f64; FEATURES],
    pub choices: u64,
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

    fn of(data: &[&Discards], w: &[f64; FEATURES]) -> Curvature {
        data.par_iter()
            .map(|d| {
                let mut c = Curvature::zero();
                let mut u = Vec::new();
                for (cands, chosen) in d.each() {
                    u.clear();
                    u.extend(cands.iter().map(|c| c.utility(w)));
                    let z = log_sum_exp(&u);
                    c.value += u[chosen] - z;
                    // information = sum over candidates of p x x' less mean mean': the first term sparse (a
                    // candidate has a few marks), the second over the features some candidate has
                    let (mut mean, mut any) = ([0.0; FEATURES], 0u64);
                    for (cand, &ui) in cands.iter().zip(&u) {
                        let p = (ui - z).exp();
                        cand.add_to(&mut mean, p);
                        let (idx, n) = cand.features();
                        for &i in &idx[..n] {
                            any |= 1 << i;
                            let xi = cand.value(i);
                            let row = &mut c.information[i * FEATURES..(i + 1) * FEATURES];
                            for &j in &idx[..n] {
                                row[j] += p * xi * cand.value(j);
                            }
                        }
                    }
                    cands[chosen].add_to(&mut c.gradient, 1.0);
                    c.gradient.iter_mut().zip(&mean).for_each(|(g, m)| *g -= m);
                    let mut is = any;
                    while is != 0 {
                        let i = is.trailing_zeros() as usize;
                        is &= is - 1;
                        let row = &mut c.information[i * FEATURES..(i + 1) * FEATURES];
                        let mut js = any;
                        while js != 0 {
                            let j = js.trailing_zeros() as usize;
                            js &= js - 1;
                            row[j] -= mean[i] * mean[j];
                        }
                    }
                }
                c
            })
            .reduce(Curvature::zero, Curvature::merge)
    }
}

/// The most probable coefficients for `data` under a normal prior of precision `precision` centred on `centre`
/// (Newton's method on a concave objective, each step halved while it does not improve).
fn fit(data: &[&Discards], centre: &[f64; FEATURES], precision: f64) -> Fitted {
    let objective = |w: &[f64; FEATURES], c: &Curvature| {
        c.value - 0.5 * precision * w.iter().zip(centre).map(|(a, b)| (a - b).powi(2)).sum::<f64>()
    };
    let mut w = *centre;
    let mut at = Curvature::of(data, &w);
    for _ in 0..50 {
        let mut h = DMatrix::from_row_slice(FEATURES, FEATURES, &at.information);
        for i in 0..FEATURES {
            h[(i, i)] += precision;
        }
        let g =
            DVector::from_iterator(FEATURES, (0..FEATURES).map(|i| at.gradient[i] - precision * (w[i] - centre[i])));
        let Some(step) = h.cholesky().map(|c| c.solve(&g)) else { break };
        let before = objective(&w, &at);
        let mut scale = 1.0;
        let mut moved = false;
        for _ in 0..20 {
            let mut next = w;
            next.iter_mut().zip(step.iter()).for_each(|(x, s)| *x += scale * s);
            let there = Curvature::of(data, &next);
            if objective(&next, &there) >= before - 1e-9 {
                (w, at, moved) = (next, there, true);
                break;
            }
            scale /= 2.0;
        }
        if !moved || step.amax() * scale < 1e-7 {
            break;
        }
    }
    let mut h = DMatrix::from_row_slice(FEATURES, FEATURES, &at.information);
    for i in 0..FEATURES {
        h[(i, i)] += precision;
    }
    let inverse =
        h.try_inverse().unwrap_or_else(|| DMatrix::from_diagonal_element(FEATURES, FEATURES, 1.0 / precision));
    let sd = std::array::from_fn(|i| inverse[(i, i)].max(0.0).sqrt());
    Fitted { coefficients: Coefficients(w), sd, choices: data.iter().map(|d| d.len() as u64).sum() }
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
}

impl DiscardModel {
    /// Fits everyone's coefficients on every seat of `all`, then each of `players`' on their own choices (a
    /// player's seats, each apart).
    pub fn fit(all: &[&Discards], players: &[(&str, Vec<&Discards>)]) -> DiscardModel {
        let everyone = fit(all, &[0.0; FEATURES], EVERYONE_PRECISION);
        let centre = everyone.coefficients.0;
        let precision = 1.0 / (PRIOR_SD * PRIOR_SD);
        let players = players.par_iter().map(|(p, d)| (p.to_string(), fit(d, &centre, precision))).collect();
        DiscardModel { everyone: Some(everyone), players }
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

    pub fn is_empty(&self) -> bool {
        self.everyone.is_none()
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
        let path = dir.join(MODEL_FILE);
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
                let e = read.entry_ref(player.value(i)).or_insert_with(|| {
                    (Fitted { coefficients: Coefficients::default(), sd: [0.0; FEATURES], choices: 0 }, 0)
                });
                (e.0.coefficients.0[f], e.0.sd[f], e.0.choices, e.1) =
                    (value.value(i), sd.value(i), choices.value(i), e.1 + 1);
            }
        }
        for (player, (fitted, n)) in read {
            if n != FEATURES {
                bail!("{}: {player} has {n} coefficients, not {FEATURES}", path.display());
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

/// A player's own coefficients against everyone's on the player's unseen choices: the discard model as a
/// personal model (issue 50), both scored on the same choices.
#[derive(Clone, Debug, Serialize)]
pub struct PersonalGain {
    pub player: String,
    /// The choices the player's coefficients were fitted on.
    pub profile_choices: u64,
    pub test_games: usize,
    pub test_choices: usize,
    /// Shares of the test choices whose most probable kind is the one discarded.
    pub own_top1: f64,
    pub everyone_top1: f64,
    /// `own_top1 - everyone_top1`, in points.
    pub gain_points: f64,
    /// The mean log-likelihood gain per test choice (nats).
    pub log_likelihood_gain: f64,
}

/// A group of judged players: how many gain, and by how much.
#[derive(Clone, Debug, Serialize)]
pub struct Gains {
    pub players: usize,
    /// Players whose own top-1 is above everyone's, their share and its 95% Wilson interval.
    pub better: usize,
    pub share_better: f64,
    pub share_better_interval: (f64, f64),
    /// The mean gain in points, and its 95% interval (Student's t over the players).
    pub mean_gain_points: f64,
    pub mean_gain_interval: (f64, f64),
    /// The mean over the players of the log-likelihood gain per choice.
    pub mean_log_likelihood_gain: f64,
    /// The fewest and the most profile choices of a player in the group.
    pub profile_choices: (u64, u64),
}

/// Every player's [`PersonalGain`], and the players with `min_test_games` unseen games or more together and by
/// thirds of their profile choices (the gain's growth with the player's data).
#[derive(Clone, Debug, Serialize)]
pub struct PersonalGains {
    pub min_test_games: usize,
    pub judged: Gains,
    pub thirds: Vec<Gains>,
    pub players: Vec<PersonalGain>,
}

/// The two-sided 95% quantile of Student's t with `df` degrees of freedom. With `x = sqrt(df) tan(a)` the
/// density becomes `cos(a)^(df - 1)` on `[0, pi/2)`: its integral is taken by Simpson's rule and the angle that
/// holds 95% of it found by bisection.
fn t95(df: usize) -> f64 {
    let (v, power) = (df.max(1) as f64, df.max(1) as i32 - 1);
    let integral = |to: f64| {
        let n = 2000;
        let h = to / f64::from(n);
        let f = |i: i32| (f64::from(i) * h).cos().powi(power);
        let inner: f64 = (1..n).map(|i| if i % 2 == 1 { 4.0 * f(i) } else { 2.0 * f(i) }).sum();
        h / 3.0 * (f(0) + inner + f(n))
    };
    let whole = integral(std::f64::consts::FRAC_PI_2);
    let (mut lo, mut hi) = (0.0, std::f64::consts::FRAC_PI_2);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if integral(mid) < 0.95 * whole {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    v.sqrt() * (0.5 * (lo + hi)).tan()
}

impl Gains {
    fn of(group: &[&PersonalGain]) -> Gains {
        let n = group.len();
        let better = group.iter().filter(|g| g.gain_points > 0.0).count();
        let mean = group.iter().map(|g| g.gain_points).sum::<f64>() / n.max(1) as f64;
        let var = group.iter().map(|g| (g.gain_points - mean).powi(2)).sum::<f64>() / n.saturating_sub(1).max(1) as f64;
        let half = if n > 1 { t95(n - 1) * (var / n as f64).sqrt() } else { f64::INFINITY };
        let choices = group.iter().map(|g| g.profile_choices);
        Gains {
            players: n,
            better,
            share_better: better as f64 / n.max(1) as f64,
            share_better_interval: crate::choice::wilson(crate::choice::Count {
                offered: n as u64,
                taken: better as u64,
            })
            .unwrap_or((0.0, 1.0)),
            mean_gain_points: mean,
            mean_gain_interval: (mean - half, mean + half),
            mean_log_likelihood_gain: group.iter().map(|g| g.log_likelihood_gain).sum::<f64>() / n.max(1) as f64,
            profile_choices: (choices.clone().min().unwrap_or(0), choices.max().unwrap_or(0)),
        }
    }
}

impl DiscardModel {
    /// Each profiled player's coefficients against everyone's on the player's unseen choices (`tested`: a
    /// player, the player's unseen games, their choices pooled), judged over the players with
    /// `min_test_games` games or more.
    pub fn personal_gains<'a>(
        &self,
        tested: impl IntoIterator<Item = (&'a str, usize, &'a Discards)>,
        min_test_games: usize,
    ) -> Option<PersonalGains> {
        let everyone = &self.everyone.as_ref()?.coefficients;
        let mut players: Vec<PersonalGain> = tested
            .into_iter()
            .filter(|(_, _, d)| !d.is_empty())
            .filter_map(|(p, games, d)| {
                let own = self.players.get(p)?;
                let n = d.len() as f64;
                let (mine, all) = (d.hits(&own.coefficients) as f64 / n, d.hits(everyone) as f64 / n);
                Some(PersonalGain {
                    player: p.to_string(),
                    profile_choices: own.choices,
                    test_games: games,
                    test_choices: d.len(),
                    own_top1: mine,
                    everyone_top1: all,
                    gain_points: 100.0 * (mine - all),
                    log_likelihood_gain: (d.log_likelihood(&own.coefficients) - d.log_likelihood(everyone)) / n,
                })
            })
            .collect();
        players.sort_by(|a, b| a.player.cmp(&b.player));
        let mut judged: Vec<&PersonalGain> = players.iter().filter(|g| g.test_games >= min_test_games).collect();
        judged.sort_by_key(|g| g.profile_choices);
        let third = judged.len().div_ceil(3).max(1);
        let thirds = judged.chunks(third).map(Gains::of).collect();
        Some(PersonalGains { min_test_games, judged: Gains::of(&judged), thirds, players })
    }
}

columns! {
    /// `discard_model.parquet`: per profiled player and ALL, each coefficient with its posterior sd.
    pub struct ModelTable("discard_model") for<'a> |r: (&'a str, usize, &'a Fitted)| {
        let (player, f, fitted) = *r;
        let name = feature_name(f);
    }
    player: Utf8 = player,
    feature: Utf8 = name.as_str(),
    coefficient: Float64 = fitted.coefficients.0[f],
    sd: Float64 = fitted.sd[f],
    choices: UInt64 = fitted.choices,
}

/// A coefficient of a player set against everyone's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Distinct {
    pub name: String,
    pub what: String,
    pub coefficient: f64,
    /// The coefficient's 95% interval (1.96 posterior standard deviations each side).
    pub interval: (f64, f64),
    pub everyone: f64,
    /// How many posterior standard deviations the player's coefficient lies from everyone's: the ranking key.
    pub z: f64,
}

/// The player's coefficients, the most distinctive first (largest |z|).
pub fn distinctive(own: &Fitted, everyone: &Fitted) -> Vec<Distinct> {
    let mut v: Vec<Distinct> = (0..FEATURES)
        .map(|i| {
            let (c, e, sd) = (own.coefficients.0[i], everyone.coefficients.0[i], own.sd[i].max(1e-9));
            Distinct {
                name: feature_name(i),
                what: feature_what(i),
                coefficient: c,
                interval: (c - 1.96 * sd, c + 1.96 * sd),
                everyone: e,
                z: (c - e) / sd,
            }
        })
        .collect();
    v.sort_by(|a, b| b.z.abs().total_cmp(&a.z.abs()).then_with(|| a.name.cmp(&b.name)));
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::played::{DecisionRow, DecisionTiles, RoundOutcome};
    use haifu_ingest::extract::Outcome;
    use haifu_rules::hand::HandNotation;
    use haifu_rules::Tile;

    fn feature(name: &str) -> usize {
        (0..FEATURES).find(|&i| feature_name(i) == name).unwrap_or_else(|| panic!("no feature {name}"))
    }

    /// A fixed sequence of uniform numbers, for choices drawn from known coefficients.
    struct Draw {
        state: u64,
    }

    impl Draw {
        fn next(&mut self) -> f64 {
            self.state = self.state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (self.state >> 11) as f64 / (1u64 << 53) as f64
        }

        /// Choices drawn from coefficients `w`: each of `n` choices offers `per` candidates, each marked with
        /// each of `marks` three times in ten and, with `shortfall`, giving up a random share of the acceptance
        /// half the time.
        fn choices(&mut self, n: usize, per: usize, marks: &[usize], shortfall: bool, w: &[f64; FEATURES]) -> Discards {
            let mut d = Discards::default();
            for _ in 0..n {
                let cands: Vec<Candidate> = (0..per)
                    .map(|_| {
                        let m = marks.iter().filter(|_| self.next() < 0.3).fold(0, |m, &f| m | 1 << f);
                        Candidate::new(m, if shortfall && self.next() < 0.5 { self.next() } else { 0.0 })
                    })
                    .collect();
                let u: Vec<f64> = cands.iter().map(|c| c.utility(w)).collect();
                let z = log_sum_exp(&u);
                let (mut r, mut chosen) = (self.next(), cands.len() - 1);
                for (i, ui) in u.iter().enumerate() {
                    r -= (ui - z).exp();
                    if r < 0.0 {
                        chosen = i;
                        break;
                    }
                }
                d.push(&cands, chosen);
            }
            d
        }
    }

    #[test]
    fn every_feature_has_its_own_name() {
        let names: hashbrown::HashSet<String> = (0..FEATURES).map(feature_name).collect();
        assert_eq!(names.len(), FEATURES);
        assert_eq!(feature_name(0), "dragon_t1");
        assert_eq!(feature_name(ISOLATED_AT), "isolated_t1");
        assert_eq!(feature_name(FEATURES - 1), "acceptance_given_up");
    }

    fn row(seat: u8, turn: u8, hand: &str, drawn: u8, discard: u8, riichi: bool, event_index: u32) -> DecisionRow {
        let hand = hand.parse::<HandNotation>().unwrap().counts;
        DecisionRow {
            event_index,
            round: 0,
            seat,
            turn,
            source: TileSource::Draw,
            tsumogiri: drawn == discard,
            riichi,
            in_riichi: false,
            keys: [(0, 0); 3],
            tiles: Some(Box::new(DecisionTiles {
                hand,
                before: hand,
                discard: Tile::from_id(discard),
                source_tile: Tile::from_id(drawn),
                // indicator 3p (kind 11): 4p is dora
                indicators: 1 << 11,
                shanten_before: 1,
                shanten_after: 1,
                tiles_left: 60,
                melds: false,
            })),
        }
    }

    /// Seat 1 declares riichi discarding 5m; seat 2 discards 8m after it; then seat 0 chooses from a hand of
    /// 2m (suji of 5m), 5m (genbutsu), 4p (dora), an isolated west (a guest wind for East's seat 0 in East 1)
    /// and shapes: each candidate carries the marks its tiles give it, by hand.
    #[test]
    fn candidates_carry_the_marks_of_the_board() {
        let g = Played {
            game_id: 1,
            log_id: None,
            n_players: 4,
            names: vec!["a".into(), "b".into(), "c".into(), "d".into()],
            game_type: None,
            rounds: vec![RoundOutcome { kyoku: 0, honba: 0, outcomes: vec![Outcome::Bystander; 4], wins: vec![] }],
            decisions: vec![
                row(1, 8, "123456789m1234p5m", 16, 16, true, 10),
                row(2, 8, "12345678p12345s8m", 28, 28, false, 20),
                // seat 0 drew the west (id 4*29 = 116) and holds 2m 5m 4p 3z among pairs and runs
                row(0, 8, "25m114p34556799s3z", 116, 116, false, 30),
            ],
        };
        let seats = of_game(&g);
        // the riichi declaration chose among the kinds that keep tenpai; seat 2's discard is a choice too
        assert!(seats[1].len() == 1 && seats[2].len() == 1);
        let d = &seats[0];
        assert_eq!(d.len(), 1);
        let (cands, chosen) = d.each().next().unwrap();
        // candidates in kind order: 2m 5m 1p 4p 3s 4s 5s 6s 7s 9s W
        assert_eq!(cands.len(), 11);
        let has = |c: &Candidate, f: &str| c.marks() & 1 << feature(f) != 0;
        let west = &cands[10];
        assert_eq!(chosen, 10);
        assert!(has(west, "guest_wind_t7_12") && has(west, "isolated_t7_12") && has(west, "tsumogiri"));
        assert!(!has(west, "genbutsu") && !has(west, "honor_seen_twice"));
        let (m2, m5, p4) = (&cands[0], &cands[1], &cands[3]);
        assert!(has(m5, "genbutsu") && !has(m5, "suji"));
        assert!(has(m2, "suji") && has(m2, "two_eight_t7_12") && !has(m2, "genbutsu"));
        // 8m came after the riichi: safe too
        assert!(has(p4, "dora") && !has(p4, "suji"));
        let p1 = &cands[2];
        assert!(has(p1, "pair") && has(p1, "terminal_t7_12") && !has(p1, "isolated_t7_12"));
        // the hand 25m 4p 11p 345567s 99s W: every lone tile keeps the shanten; breaking 567s backs off, under
        // the threat of seat 1's riichi
        let s5 = &cands[6];
        assert!(has(s5, "back_off_threat") && !has(s5, "back_off"), "{s5:?}");
        assert!(cands.iter().all(|c| (0.0..=1.0).contains(&c.shortfall())));
        assert!(cands.iter().any(|c| c.shortfall() == 0.0 && !has(c, "back_off_threat")));
    }

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

    #[test]
    fn t_quantiles_are_the_tables() {
        // two-sided 95% quantiles of Student's t, from the printed tables
        for (df, t) in [(1, 12.706), (3, 3.182), (5, 2.571), (10, 2.228), (30, 2.042), (100, 1.984)] {
            assert!((t95(df) - t).abs() < 1e-3, "{df}: {} against {t}", t95(df));
        }
    }

    /// A player whose choices follow other coefficients than everyone's gains on unseen choices from their own;
    /// players of everyone's kind gain nothing to speak of; only players with enough unseen games are judged.
    #[test]
    fn personal_gains_judge_players_on_their_unseen_choices() {
        let mut draw = Draw { state: 11 };
        let mut draw = |n: usize, w: &[f64; FEATURES]| draw.choices(n, 4, &[0, 1, 2, 3, 4, 5], false, w);
        let mut common = [0.0; FEATURES];
        common[..6].copy_from_slice(&[1.0, -1.0, 0.5, 0.0, -0.5, 0.3]);
        let mut odd = common;
        (odd[0], odd[1]) = (-1.0, 1.0);
        let (everyone, p, q) = (draw(20_000, &common), draw(3_000, &odd), draw(3_000, &common));
        let model = DiscardModel::fit(&[&everyone, &p], &[("p", vec![&p]), ("q", vec![&q])]);
        let (tp, tq) = (draw(2_000, &odd), draw(2_000, &common));
        let gains = model.personal_gains([("p", 10, &tp), ("q", 10, &tq), ("r", 3, &tq)], 8).unwrap();
        // r has no coefficients of its own: not listed; p and q are judged
        assert_eq!(gains.players.len(), 2);
        assert_eq!(gains.judged.players, 2);
        let (gp, gq) = (&gains.players[0], &gains.players[1]);
        assert!(gp.gain_points > 5.0 && gp.log_likelihood_gain > 0.05, "{gp:?}");
        assert!(gq.gain_points.abs() < 2.0 && gq.log_likelihood_gain.abs() < 0.01, "{gq:?}");
        // a player with fewer unseen games than asked is listed but not judged
        let gains = model.personal_gains([("p", 10, &tp), ("q", 3, &tq)], 8).unwrap();
        assert_eq!((gains.players.len(), gains.judged.players, gains.judged.better), (2, 1, 1));
    }

    #[test]
    fn the_model_written_is_the_model_read() {
        let mut w = Coefficients::default();
        w.0[3] = 0.25;
        let fitted = |c: &Coefficients, n| Fitted { coefficients: c.clone(), sd: [0.1; FEATURES], choices: n };
        let mut model = DiscardModel { everyone: Some(fitted(&Coefficients::default(), 100)), players: HashMap::new() };
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
