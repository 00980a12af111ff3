//! Battle evaluation (seed 004, SPEC 5.1): two bots, two copies of each seated opposite (A B A B), the
//! first dealer rotated from game to game; sets of games; the average rank, the average game points under
//! Tenhou's 7-dan table (+90 / +45 / 0 / -135 by rank), and the average score change per side, with a
//! Welch two-sided t-test at 5% over the set means.
//!
//! The sample of the test is one mean per set and side (both copies of the side over the set's games), so
//! the samples are independent; ties in final score rank the seat nearer the first dealer higher, as
//! Tenhou does. `simplified` plays the seed's rules: no calls (no chi, pon or kan of any kind) and riichi at
//! once whenever a riichi discard is legal.

use rayon::prelude::*;
use statrs::distribution::{ContinuousCDF, StudentsT};

use crate::action::Action;
use crate::bot::{Bot, View};
use crate::generate::{game_seed, play_seated};
use crate::style::bot_by_name;
use haifu_rules::table::{placements, TableRules};

/// Game points of the Tenhou 7-dan table by rank (1st..4th).
pub const SEVEN_DAN_POINTS: [f64; 4] = [90.0, 45.0, 0.0, -135.0];

/// What to play.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BattleOptions {
    pub a: String,
    pub b: String,
    pub sets: usize,
    pub games_per_set: usize,
    pub simplified: bool,
    /// A 4-player table (hanchan or east-only).
    pub rules: TableRules,
    pub seed: u64,
}

/// One side's averages over every game, and its per-set means.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Side {
    pub bot: String,
    pub mean_rank: f64,
    pub mean_points: f64,
    pub mean_score_change: f64,
    /// (rank, points, score change) averaged per set.
    pub set_means: Vec<[f64; 3]>,
}

/// A Welch two-sided t-test of one metric between the sides.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Welch {
    pub metric: &'static str,
    pub mean_a: f64,
    pub mean_b: f64,
    pub t: f64,
    pub df: f64,
    pub p: f64,
    /// p < 0.05.
    pub significant: bool,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct BattleResult {
    pub options: BattleOptions,
    pub games: usize,
    pub a: Side,
    pub b: Side,
    pub tests: Vec<Welch>,
}

/// The seed's simplified rules around any bot: calls are taken away, riichi is forced when legal.
pub struct Simplified<B>(pub B);

impl<B: Bot> Bot for Simplified<B> {
    fn decide(&mut self, view: &View<'_>, legal: &[Action]) -> Action {
        let calls = |a: &Action| {
            matches!(
                a,
                Action::Chi { .. }
                    | Action::Pon { .. }
                    | Action::Daiminkan
                    | Action::Ankan { .. }
                    | Action::Kakan { .. }
            )
        };
        let mut allowed: Vec<Action> = legal.iter().copied().filter(|a| !calls(a)).collect();
        if !allowed.iter().any(|a| matches!(a, Action::Tsumo | Action::Ron))
            && allowed.iter().any(|a| matches!(a, Action::Discard { riichi: true, .. }))
        {
            allowed.retain(|a| matches!(a, Action::Discard { riichi: true, .. }));
        }
        if allowed.is_empty() {
            return legal[0];
        }
        self.0.decide(view, &allowed)
    }
}

/// One game's (rank, points, score change) for side A and side B, each averaged over its two copies.
fn one_game(o: &BattleOptions, set: usize, game: usize) -> Result<[[f64; 3]; 2], String> {
    let index = (set * o.games_per_set + game) as u64;
    let seed = game_seed(o.seed, index);
    // copies A1 B1 A2 B2 around the table, turned one seat per game so that each copy deals first in turn
    let copies = [0usize, 1, 0, 1];
    let side_at: [usize; 4] = std::array::from_fn(|s| copies[(s + game) % 4]);
    let bots = (0..4)
        .map(|s| {
            let name = if side_at[s] == 0 { &o.a } else { &o.b };
            let b = bot_by_name(name, game_seed(seed, s as u64 + 1))?;
            Ok(if o.simplified { Box::new(Simplified(b)) as Box<dyn Bot + Send> } else { b })
        })
        .collect::<Result<_, String>>()?;
    let engine =
        play_seated(o.rules, seed, &["A", "B", "C", "D"], bots).map_err(|e| format!("battle game {index}: {e}"))?;
    let scores = engine.scores();
    let place = placements(&scores, 4);
    let mut out = [[0.0; 3]; 2];
    for s in 0..4 {
        let m = &mut out[side_at[s]];
        m[0] += f64::from(place[s]) / 2.0;
        m[1] += SEVEN_DAN_POINTS[usize::from(place[s]) - 1] / 2.0;
        m[2] += f64::from(scores[s] - o.rules.start_score()) / 2.0;
    }
    Ok(out)
}

/// Welch's t-test of two samples (two-sided).
pub fn welch(metric: &'static str, a: &[f64], b: &[f64]) -> Welch {
    let mean = |x: &[f64]| x.iter().sum::<f64>() / x.len() as f64;
    let var = |x: &[f64], m: f64| x.iter().map(|v| (v - m).powi(2)).sum::<f64>() / (x.len() as f64 - 1.0);
    let (ma, mb) = (mean(a), mean(b));
    let (va, vb) = (var(a, ma) / a.len() as f64, var(b, mb) / b.len() as f64);
    let se = (va + vb).sqrt();
    let df = (va + vb).powi(2) / (va.powi(2) / (a.len() as f64 - 1.0) + vb.powi(2) / (b.len() as f64 - 1.0));
    let (t, p) = if se > 0.0 && df.is_finite() {
        let t = (ma - mb) / se;
        let p = StudentsT::new(0.0, 1.0, df).map_or(f64::NAN, |d| 2.0 * (1.0 - d.cdf(t.abs())));
        (t, p)
    } else {
        // no spread on either side: the means alone decide
        (0.0, if ma == mb { 1.0 } else { 0.0 })
    };
    Welch { metric, mean_a: ma, mean_b: mb, t, df, p, significant: p < 0.05 }
}

/// Plays the battle; `done` is called after each game.
pub fn battle(o: &BattleOptions, done: &(dyn Fn(usize) + Sync)) -> Result<BattleResult, String> {
    if o.rules.players != 4 {
        return Err("a battle seats two copies of each bot: it needs a 4-player table".into());
    }
    if o.sets < 2 || o.games_per_set == 0 {
        return Err(format!("{} sets of {} games: the test needs at least 2 sets of 1 game", o.sets, o.games_per_set));
    }
    bot_by_name(&o.a, 0)?;
    bot_by_name(&o.b, 0)?;
    let games: Vec<(usize, usize)> = (0..o.sets).flat_map(|s| (0..o.games_per_set).map(move |g| (s, g))).collect();
    let results: Vec<[[f64; 3]; 2]> = games
        .par_iter()
        .map(|&(s, g)| {
            let r = one_game(o, s, g);
            done(1);
            r
        })
        .collect::<Result<_, _>>()?;
    let side = |i: usize, bot: &str| {
        let set_means: Vec<[f64; 3]> = results
            .chunks(o.games_per_set)
            .map(|set| {
                let mut m = [0.0; 3];
                for g in set {
                    (0..3).for_each(|k| m[k] += g[i][k] / set.len() as f64);
                }
                m
            })
            .collect();
        let all = |k: usize| set_means.iter().map(|m| m[k]).sum::<f64>() / set_means.len() as f64;
        Side { bot: bot.to_string(), mean_rank: all(0), mean_points: all(1), mean_score_change: all(2), set_means }
    };
    let (a, b) = (side(0, &o.a), side(1, &o.b));
    let metric = |s: &Side, k: usize| s.set_means.iter().map(|m| m[k]).collect::<Vec<f64>>();
    let tests = ["rank", "points", "score_change"]
        .iter()
        .enumerate()
        .map(|(k, name)| welch(name, &metric(&a, k), &metric(&b, k)))
        .collect();
    Ok(BattleResult { options: o.clone(), games: results.len(), a, b, tests })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn welch_matches_a_hand_computation() {
        // a = 1..5 (mean 3, var 2.5), b = 2,4,6,8,10 (mean 6, var 10): se = sqrt(0.5 + 2) = 1.5811,
        // t = -1.8974, df = 2.5^2 / (0.25/4 + 4/4) = 5.882; p from the t distribution = 0.1075
        let w = welch("x", &[1.0, 2.0, 3.0, 4.0, 5.0], &[2.0, 4.0, 6.0, 8.0, 10.0]);
        assert!((w.t + 1.8974).abs() < 1e-3, "{w:?}");
        assert!((w.df - 5.882).abs() < 1e-2, "{w:?}");
        assert!((w.p - 0.1075).abs() < 2e-3, "{w:?}");
        assert!(!w.significant);
        let w = welch("x", &[1.0, 1.1, 0.9, 1.0], &[2.0, 2.1, 1.9, 2.0]);
        assert!(w.significant && w.p < 1e-4, "{w:?}");
    }
}
