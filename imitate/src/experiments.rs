//! The experiments of the thesis's chapter 6 beyond the plain match rates of [`crate::eval`]:
//! - 6.4 [`TwoByTwo`]: top-3 hits of the own table against the all-players table, decision by decision, on
//!   the decisions both answer;
//! - 6.6 [`TurnSplit`]: R_top3 by turn (<= 4, >= 5, >= 7) for the own, all and other players' tables, with
//!   paired t-tests across the test players ([`paired_t`]);
//! - the learning curve ([`learning_curve`]): match rate and coverage against the share of the generation
//!   games mined, the method's main limit by the thesis's own account.

use std::path::Path;

use anyhow::Result;
use rayon::prelude::*;
use serde_json::{json, Value};
use statrs::distribution::{ContinuousCDF, StudentsT};

use haifu_mining::{MineOptions, Strategy};

use crate::data::TestData;
use crate::eval::{decision_results, evaluate, table_sets, Counts, DecisionResult, EvalOptions, TableVariant};
use crate::table::Tables;

/// 6.4: (own hit?, all hit?) counts over the decisions both tables answer; and how many decisions only one
/// of them answers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TwoByTwo {
    pub both: u64,
    pub own_only: u64,
    pub all_only: u64,
    pub neither: u64,
    /// Answered by the own table only / by the all table only (not in the 2x2).
    pub answered_own_only: u64,
    pub answered_all_only: u64,
}

impl TwoByTwo {
    /// Zips two variants' results of the same decisions (same order: [`crate::eval::evaluate`] keeps it).
    pub fn of(own: &[DecisionResult], all: &[DecisionResult]) -> TwoByTwo {
        assert_eq!(own.len(), all.len(), "the two variants saw different decisions");
        let mut t = TwoByTwo::default();
        for (o, a) in own.iter().zip(all) {
            debug_assert_eq!((o.game_id, o.round, o.turn), (a.game_id, a.round, a.turn));
            match (o.answered, a.answered) {
                (true, true) => match (o.top3(), a.top3()) {
                    (true, true) => t.both += 1,
                    (true, false) => t.own_only += 1,
                    (false, true) => t.all_only += 1,
                    (false, false) => t.neither += 1,
                },
                (true, false) => t.answered_own_only += 1,
                (false, true) => t.answered_all_only += 1,
                (false, false) => {}
            }
        }
        t
    }
    pub fn total(&self) -> u64 {
        self.both + self.own_only + self.all_only + self.neither
    }
    pub fn add(&mut self, o: &TwoByTwo) {
        self.both += o.both;
        self.own_only += o.own_only;
        self.all_only += o.all_only;
        self.neither += o.neither;
        self.answered_own_only += o.answered_own_only;
        self.answered_all_only += o.answered_all_only;
    }
    pub fn to_json(&self) -> Value {
        json!({"both": self.both, "own_only": self.own_only, "all_only": self.all_only, "neither": self.neither,
               "total": self.total(), "answered_own_only": self.answered_own_only,
               "answered_all_only": self.answered_all_only})
    }
}

/// The turn buckets of thesis 6.6 (the last two overlap: >= 7 is part of >= 5).
pub const TURN_BUCKETS: [(&str, u8, u8); 3] = [("<=4", 1, 4), (">=5", 5, u8::MAX), (">=7", 7, u8::MAX)];

/// Counts per turn bucket of one sequence of results.
pub fn turn_counts(results: &[DecisionResult], include_riichi: bool) -> [Counts; 3] {
    let mut out = [Counts::default(); 3];
    for r in results {
        for (k, &(_, lo, hi)) in TURN_BUCKETS.iter().enumerate() {
            if (lo..=hi).contains(&r.turn) {
                out[k].count(r, include_riichi);
            }
        }
    }
    out
}

/// A two-sided paired t-test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TTest {
    pub n: usize,
    /// Mean of a - b.
    pub mean_diff: f64,
    pub t: f64,
    pub df: f64,
    pub p: f64,
}

impl TTest {
    pub fn to_json(&self) -> Value {
        json!({"n": self.n, "mean_diff": self.mean_diff, "t": self.t, "df": self.df, "p": self.p})
    }
}

/// Paired t-test of `a` against `b` (same length, pairs in order); `None` below two pairs or with no
/// variation in the differences.
pub fn paired_t(a: &[f64], b: &[f64]) -> Option<TTest> {
    assert_eq!(a.len(), b.len());
    let n = a.len();
    if n < 2 {
        return None;
    }
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let mean = d.iter().sum::<f64>() / n as f64;
    let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    if var <= 0.0 {
        return None;
    }
    let t = mean / (var / n as f64).sqrt();
    let df = (n - 1) as f64;
    let dist = StudentsT::new(0.0, 1.0, df).ok()?;
    let p = 2.0 * (1.0 - dist.cdf(t.abs()));
    Some(TTest { n, mean_diff: mean, t, df, p })
}

/// 6.6 for one player: R_top3 per turn bucket with the own table, the all table and the mean over the other
/// players' tables (with the counts behind each).
#[derive(Clone, Debug)]
pub struct TurnSplit {
    pub player: String,
    pub own: [Counts; 3],
    pub all: [Counts; 3],
    /// Mean R_top3 over the other tables with a defined rate, per bucket; `None` when none has one.
    pub others: [Option<f64>; 3],
    pub others_tables: usize,
}

/// 6.4 and 6.6 for one player: the 2x2 table and the turn split, from one pass per table.
pub fn own_vs_all(data: &TestData, tables: &Tables, player: &str, opts: &EvalOptions) -> Result<(TwoByTwo, TurnSplit)> {
    let one = |v: TableVariant| -> Result<Vec<DecisionResult>> {
        Ok(decision_results(data, tables, player, v, opts)?.pop().map(|(_, r)| r).unwrap_or_default())
    };
    let (own, all) = (one(TableVariant::Own)?, one(TableVariant::All)?);
    let two = TwoByTwo::of(&own, &all);
    let p = data.player_index(player).expect("decision_results found the player");
    let sets = table_sets(tables, player, TableVariant::Others, &opts.strategy.strategies())?;
    let per_other: Vec<[Counts; 3]> = sets
        .par_iter()
        .map(|s| {
            let mut out = Vec::new();
            evaluate(data.player_decisions(p), s, opts, |r| out.push(*r));
            turn_counts(&out, opts.include_riichi)
        })
        .collect();
    let others = std::array::from_fn(|k| {
        let rates: Vec<f64> = per_other.iter().filter_map(|c| c[k].r_top3()).collect();
        (!rates.is_empty()).then(|| rates.iter().sum::<f64>() / rates.len() as f64)
    });
    let split = TurnSplit {
        player: player.to_string(),
        own: turn_counts(&own, opts.include_riichi),
        all: turn_counts(&all, opts.include_riichi),
        others,
        others_tables: sets.len(),
    };
    Ok((two, split))
}

/// Paired t-tests across players of the turn splits, per bucket: own vs all and own vs others (players
/// with all three rates defined).
pub fn turn_tests(splits: &[TurnSplit]) -> [(Option<TTest>, Option<TTest>); 3] {
    std::array::from_fn(|k| {
        let rows: Vec<(f64, f64, f64)> =
            splits.iter().filter_map(|s| Some((s.own[k].r_top3()?, s.all[k].r_top3()?, s.others[k]?))).collect();
        let own: Vec<f64> = rows.iter().map(|r| r.0).collect();
        let all: Vec<f64> = rows.iter().map(|r| r.1).collect();
        let others: Vec<f64> = rows.iter().map(|r| r.2).collect();
        (paired_t(&own, &all), paired_t(&own, &others))
    })
}

/// One point of the learning curve: the generation data mined from `fraction` of the games.
#[derive(Clone, Debug)]
pub struct CurvePoint {
    pub fraction: f64,
    /// Decisions mined into the ALL table.
    pub decisions_mined: u64,
    /// Distinct (before, after) pairs of the ALL/all table.
    pub all_pairs: u64,
    /// Pooled over the test players: with their own tables, and with the ALL table.
    pub own: Counts,
    pub all: Counts,
}

impl CurvePoint {
    pub fn to_json(&self, include_riichi: bool) -> Value {
        json!({"fraction": self.fraction, "decisions_mined": self.decisions_mined, "all_pairs": self.all_pairs,
               "own": self.own.to_json(include_riichi), "all": self.all.to_json(include_riichi)})
    }
}

/// Mines the generation data (`base`: years and options) at each fraction of its games (nested samples, see
/// [`haifu_mining::mine::in_sample`]) for the test players, and evaluates them with own and all tables.
pub fn learning_curve(
    dataset: &Path,
    base: &MineOptions,
    fractions: &[f64],
    data: &TestData,
    opts: &EvalOptions,
) -> Result<Vec<CurvePoint>> {
    let mut points = Vec::new();
    for &f in fractions {
        let mine_opts = MineOptions { sample: Some(f), players: Some(data.players.clone()), ..base.clone() };
        let mined = haifu_mining::mine(dataset, &mine_opts)?;
        let tables = Tables::from_mined(&mined, None);
        let strategies = opts.strategy.strategies();
        let all_set = &table_sets(&tables, "", TableVariant::All, &strategies)?[0];
        let per_player: Vec<(Counts, Counts)> = (0..data.players.len())
            .into_par_iter()
            .map(|p| -> Result<(Counts, Counts)> {
                let own_set = &table_sets(&tables, &data.players[p], TableVariant::Own, &strategies)?[0];
                let d = data.player_decisions(p);
                Ok((evaluate(d, own_set, opts, |_| {}), evaluate(d, all_set, opts, |_| {})))
            })
            .collect::<Result<_>>()?;
        let (mut own, mut all) = (Counts::default(), Counts::default());
        for (o, a) in &per_player {
            own.add(o);
            all.add(a);
        }
        let all_pairs = tables.get(haifu_mining::ALL_SCOPE, Strategy::All).map_or(0, |t| t.pairs() as u64);
        points.push(CurvePoint { fraction: f, decisions_mined: mined.decisions_read, all_pairs, own, all });
    }
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paired_t_by_hand() {
        // differences 1, 2, 3: mean 2, sd 1, t = 2 / (1 / sqrt 3) = 3.4641, df 2; two-sided p = 0.0742
        // (t table: t_{0.975, 2} = 4.303 > 3.46 > t_{0.95, 2} = 2.920, so 0.05 < p < 0.10)
        let t = paired_t(&[2.0, 4.0, 6.0], &[1.0, 2.0, 3.0]).unwrap();
        assert_eq!((t.n, t.mean_diff, t.df), (3, 2.0, 2.0));
        assert!((t.t - 3.0f64.sqrt() * 2.0).abs() < 1e-12);
        // closed form for df = 2: p = 1 - t / sqrt(t^2 + 2)
        let closed = 1.0 - t.t / (t.t * t.t + 2.0).sqrt();
        assert!((t.p - closed).abs() < 1e-9, "{} vs {closed}", t.p);
        assert!(paired_t(&[1.0, 2.0], &[0.0, 1.0]).is_none(), "no variation");
        assert!(paired_t(&[1.0], &[0.0]).is_none());
    }

    fn result(turn: u8, answered: bool, rank: Option<u16>) -> DecisionResult {
        DecisionResult {
            game_id: 1,
            round: 0,
            seat: 0,
            turn,
            player: 0,
            in_riichi: false,
            strategy: Some(Strategy::All),
            answered,
            rank,
        }
    }

    #[test]
    fn two_by_two_and_turns() {
        let own = [result(1, true, Some(1)), result(2, true, Some(5)), result(5, true, None), result(7, false, None)];
        let all =
            [result(1, true, Some(2)), result(2, true, Some(3)), result(5, false, None), result(7, true, Some(4))];
        let t = TwoByTwo::of(&own, &all);
        assert_eq!(
            t,
            TwoByTwo { both: 1, own_only: 0, all_only: 1, neither: 0, answered_own_only: 1, answered_all_only: 1 }
        );
        let c = turn_counts(&own, false);
        assert_eq!((c[0].n_all, c[0].c_first, c[0].answered()), (2, 1, 2));
        assert_eq!((c[1].n_all, c[1].answered()), (2, 1));
        assert_eq!((c[2].n_all, c[2].answered()), (1, 0));
    }
}
