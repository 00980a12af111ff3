//! Imitation: the strategy estimator (SPEC 3), the lookup imitator (SPEC 4, thesis Algorithms 1 and 2) over
//! the sequence tables of `haifu mine`, and the evaluation of match rates and coverage (SPEC 4.1).
//!
//! - [`table`]: `TABLES/sequences.parquet` per scope and strategy as integer-keyed maps; `all_but_own`.
//! - [`rank`]: a 14-tile state and a table -> ranked discard candidates with their reasons.
//! - [`estimator`]: the rule-based strategy estimator and its confusion counts on won rounds.
//! - [`data`]: test decisions of chosen years and players, prepared once.
//! - [`eval`]: N_all, N_noneS, N_noneH, C_first.., R_first, R_top3, coverage per player and overall, per
//!   table variant (own, all, others, all-but-own) and strategy mode; per-decision outcomes.
//! - [`experiments`]: chapter 6's own-vs-all 2x2 table, the turn split with paired t-tests, the learning
//!   curve.

pub mod data;
pub mod estimator;
pub mod eval;
pub mod experiments;
pub mod rank;
pub mod table;

pub use data::{Selection, TestData, TestDecision};
pub use estimator::{estimate, Confusion, MeldSummary, RoundEstimator};
pub use eval::{
    evaluate, strategies_in_play, variant_scopes, ByLookup, Counts, DecisionResult, EvalOptions, SetScope,
    StrategyMode, TableRanker, TableSet, TableVariant, VariantJob,
};
pub use rank::{rank, rank_of, Candidate, Prepared, Ranking, Reason, Winds};
pub use table::{LoadOptions, SeqTable, Tables, ALL_SCOPE};

/// The estimator's confusion counts on the rounds each test player won (SPEC 3): the estimate fixed in the
/// round (Algorithm 1's rule) against the strategies the win realised.
pub fn estimator_confusion(data: &TestData) -> Confusion {
    let mut c = Confusion::default();
    for p in 0..data.players.len() {
        let ds = data.player_decisions(p);
        let mut i = 0;
        while i < ds.len() {
            let key = (ds[i].game_id, ds[i].round, ds[i].seat);
            let start = i;
            while i < ds.len() && (ds[i].game_id, ds[i].round, ds[i].seat) == key {
                i += 1;
            }
            let round = &ds[start..i];
            if round[0].won {
                c.add_round(round.iter().map(|d| d.estimate), round[0].realised);
            }
        }
    }
    c
}
