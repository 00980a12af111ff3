//! Evaluation (SPEC 4.1, thesis eq. 6.1 and 6.2): match rates and coverage of the lookup imitator per player
//! and overall, for the table variants of chapter 6 and the strategy modes of Algorithm 1.
//!
//! - N_all: discard decisions of the player in the test data (in-riichi discards left out by default and
//!   counted apart; `include_riichi` keeps them);
//! - N_noneS: decisions while the strategy is still undetermined (estimated mode only);
//! - N_noneH: decisions with a strategy but an empty candidate list (isolated honors alone answer);
//! - C_first, C_second, C_third: the true discard's kind (red five = five) in place 1, 2, 3;
//! - R_first = C_first / (N_all - N_noneS - N_noneH), R_top3 = (C_first + C_second + C_third) / same,
//!   coverage = (N_all - N_noneS - N_noneH) / N_all.
//!
//! Table variants: `own` (the player's table), `all` (the `ALL` table), `all-but-own` (`ALL` minus the
//! player's counts, same mining run), `others` (each other player's table in turn: mean and spread of the
//! rates over those tables, the thesis's "average of the other players").
//!
//! [`evaluate`] gives every decision's outcome to a callback ([`DecisionResult`]), for 2x2 tables and turn splits.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;
use std::time::Instant;

use anyhow::{bail, Result};
use rayon::prelude::*;
use serde_json::{json, Value};

use haifu_mining::Strategy;

use crate::data::{TestData, TestDecision};
use crate::estimator::RoundEstimator;
use crate::rank::rank_of;
use crate::table::{empty_table, SeqTable, Tables, ALL_SCOPE};

/// Which table a player's decisions are ranked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TableVariant {
    Own,
    All,
    Others,
    AllButOwn,
}

impl TableVariant {
    pub const EVERY: [TableVariant; 4] =
        [TableVariant::Own, TableVariant::All, TableVariant::Others, TableVariant::AllButOwn];
    pub fn name(self) -> &'static str {
        match self {
            TableVariant::Own => "own",
            TableVariant::All => "all",
            TableVariant::Others => "others",
            TableVariant::AllButOwn => "all-but-own",
        }
    }
    /// Needs the player's own table.
    pub fn needs_own(self) -> bool {
        matches!(self, TableVariant::Own | TableVariant::AllButOwn)
    }
}

impl fmt::Display for TableVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TableVariant {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TableVariant::EVERY
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| format!("unknown table {s:?}: own, all, others or all-but-own"))
    }
}

/// Which strategy's table ranks a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrategyMode {
    /// The `all` strategy table for every decision.
    None,
    /// One strategy's table for every decision.
    Fixed(Strategy),
    /// Per round, the estimator's strategy (SPEC 3); decisions while undetermined are N_noneS.
    Estimated,
}

impl StrategyMode {
    /// The strategy tables this mode reads.
    pub fn strategies(self) -> Vec<Strategy> {
        match self {
            StrategyMode::None => vec![Strategy::All],
            StrategyMode::Fixed(s) => vec![s],
            StrategyMode::Estimated => Strategy::YAKU.to_vec(),
        }
    }
    pub fn name(self) -> String {
        match self {
            StrategyMode::None => "none".into(),
            StrategyMode::Fixed(s) => format!("fixed:{s}"),
            StrategyMode::Estimated => "estimated".into(),
        }
    }
}

impl FromStr for StrategyMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "none" => Ok(StrategyMode::None),
            "estimated" => Ok(StrategyMode::Estimated),
            _ => match s.strip_prefix("fixed:") {
                Some("all") => Ok(StrategyMode::None),
                Some(x) => x.parse::<Strategy>().map(StrategyMode::Fixed),
                None => Err(format!("unknown strategy mode {s:?}: none, fixed:tanyao|chanta|yakuhai or estimated")),
            },
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalOptions {
    pub strategy: StrategyMode,
    /// Rank the discards made while already in riichi too (default: leave them out and count them).
    pub include_riichi: bool,
}

impl Default for EvalOptions {
    fn default() -> EvalOptions {
        EvalOptions { strategy: StrategyMode::None, include_riichi: false }
    }
}

/// The counts of thesis eq. 6.1 and 6.2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub n_all: u64,
    pub n_none_strategy: u64,
    pub n_none_hand: u64,
    pub c_first: u64,
    pub c_second: u64,
    pub c_third: u64,
    /// Discards made while in riichi: left out of `n_all` by default, else included in it.
    pub in_riichi: u64,
}

impl Counts {
    /// N_all - N_noneS - N_noneH.
    pub fn answered(&self) -> u64 {
        self.n_all - self.n_none_strategy - self.n_none_hand
    }
    pub fn c_top3(&self) -> u64 {
        self.c_first + self.c_second + self.c_third
    }
    pub fn r_first(&self) -> Option<f64> {
        ratio(self.c_first, self.answered())
    }
    pub fn r_top3(&self) -> Option<f64> {
        ratio(self.c_top3(), self.answered())
    }
    pub fn coverage(&self) -> Option<f64> {
        ratio(self.answered(), self.n_all)
    }
    pub fn add(&mut self, o: &Counts) {
        self.n_all += o.n_all;
        self.n_none_strategy += o.n_none_strategy;
        self.n_none_hand += o.n_none_hand;
        self.c_first += o.c_first;
        self.c_second += o.c_second;
        self.c_third += o.c_third;
        self.in_riichi += o.in_riichi;
    }
    /// One decision's outcome.
    pub fn count(&mut self, r: &DecisionResult, include_riichi: bool) {
        if r.in_riichi {
            self.in_riichi += 1;
            if !include_riichi {
                return;
            }
        }
        self.n_all += 1;
        if r.strategy.is_none() {
            self.n_none_strategy += 1;
        } else if !r.answered {
            self.n_none_hand += 1;
        } else {
            match r.rank {
                Some(1) => self.c_first += 1,
                Some(2) => self.c_second += 1,
                Some(3) => self.c_third += 1,
                _ => {}
            }
        }
    }
    /// The JSON row of the CLI and reports.
    pub fn to_json(&self, include_riichi: bool) -> Value {
        let mut v = json!({
            "n_all": self.n_all, "n_none_strategy": self.n_none_strategy, "n_none_hand": self.n_none_hand,
            "c_first": self.c_first, "c_second": self.c_second, "c_third": self.c_third, "c_top3": self.c_top3(),
            "r_first": self.r_first(), "r_top3": self.r_top3(), "coverage": self.coverage(),
        });
        v[if include_riichi { "riichi_included" } else { "riichi_left_out" }] = json!(self.in_riichi);
        v
    }
}

fn ratio(a: u64, b: u64) -> Option<f64> {
    (b > 0).then(|| a as f64 / b as f64)
}

/// One decision's outcome against one table. Results come in the player's play order, the same for every
/// variant, so two variants zip decision by decision (the 2x2 own-vs-all table, turn splits). In-riichi
/// discards left out are reported too, with `in_riichi` set, `answered` false and no rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecisionResult {
    pub game_id: i64,
    pub round: u16,
    pub seat: u8,
    pub turn: u8,
    /// Index into [`TestData::players`].
    pub player: u32,
    pub in_riichi: bool,
    /// The strategy table used; `None` while the estimate is undetermined (the decision is not ranked).
    pub strategy: Option<Strategy>,
    /// The candidate list was not empty.
    pub answered: bool,
    /// 1-based place of the true discard in the list; `None` when not listed (or not ranked).
    pub rank: Option<u16>,
}

impl DecisionResult {
    /// In the top three (an answered decision).
    pub fn top3(&self) -> bool {
        self.rank.is_some_and(|r| r <= 3)
    }
}

/// The strategy tables one evaluation reads; a strategy with no table reads as empty.
#[derive(Clone, Debug)]
pub struct TableSet<'a> {
    /// `own`, `all`, `all-but-own`, or the other player's name.
    pub label: String,
    by_strategy: [Option<Cow<'a, SeqTable>>; 4],
}

impl<'a> TableSet<'a> {
    pub fn new(label: impl Into<String>) -> TableSet<'a> {
        TableSet { label: label.into(), by_strategy: Default::default() }
    }
    pub fn with(mut self, s: Strategy, table: Cow<'a, SeqTable>) -> TableSet<'a> {
        self.by_strategy[s.index()] = Some(table);
        self
    }
    pub fn get(&self, s: Strategy) -> &SeqTable {
        self.by_strategy[s.index()].as_deref().unwrap_or_else(|| empty_table())
    }
}

/// The scopes a table set reads: one scope's tables, or ALL's less a player's (`all-but-own`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetScope<'a> {
    Scope(&'a str),
    AllBut(&'a str),
}

/// The table sets of a variant for a player, each as its label and the scope it reads: one, or one per other
/// player for `others`. A scope the variant needs and the tables lack is an error.
pub fn variant_scopes<'a>(
    tables: &'a Tables,
    player: &'a str,
    variant: TableVariant,
) -> Result<Vec<(String, SetScope<'a>)>> {
    let need = |scope: &str| -> Result<()> {
        if !tables.has_scope(scope) {
            bail!(
                "{} has no {} table (needed by `{variant}`)",
                crate::table::sequences_path(&tables.dir).display(),
                if scope == ALL_SCOPE { "ALL".to_string() } else { format!("player {scope:?}") }
            );
        }
        Ok(())
    };
    Ok(match variant {
        TableVariant::Own => {
            need(player)?;
            vec![("own".into(), SetScope::Scope(player))]
        }
        TableVariant::All => {
            need(ALL_SCOPE)?;
            vec![("all".into(), SetScope::Scope(ALL_SCOPE))]
        }
        TableVariant::AllButOwn => {
            need(ALL_SCOPE)?;
            need(player)?;
            vec![("all-but-own".into(), SetScope::AllBut(player))]
        }
        TableVariant::Others => tables.others(player).map(|o| (o.to_string(), SetScope::Scope(o))).collect(),
    })
}

/// The table sets of a variant for a player: one, or one per other player for `others`.
pub fn table_sets<'a>(
    tables: &'a Tables,
    player: &str,
    variant: TableVariant,
    strategies: &[Strategy],
) -> Result<Vec<TableSet<'a>>> {
    variant_scopes(tables, player, variant)?
        .into_iter()
        .map(|(label, scope)| {
            let mut set = TableSet::new(label);
            for &s in strategies {
                let table = match scope {
                    SetScope::Scope(scope) => Cow::Borrowed(tables.get_or_empty(scope, s)?),
                    SetScope::AllBut(player) => Cow::Owned(tables.all_but_own(player, s)?),
                };
                set = set.with(s, table);
            }
            Ok(set)
        })
        .collect()
}

/// The strategy whose table ranks each of one player's decisions (in play order), `None` while the round's
/// estimate is undetermined: the same for every table, so a batch of tables shares it.
pub fn strategies_in_play(decisions: &[TestDecision], mode: StrategyMode) -> Vec<Option<Strategy>> {
    let fixed = match mode {
        StrategyMode::None => Some(Strategy::All),
        StrategyMode::Fixed(s) => Some(s),
        StrategyMode::Estimated => None,
    };
    let mut round_key = None;
    let mut est = RoundEstimator::default();
    decisions
        .iter()
        .map(|d| {
            let key = (d.game_id, d.round, d.seat);
            if round_key != Some(key) {
                round_key = Some(key);
                est = RoundEstimator::default();
            }
            // the estimator runs on every decision in order, riichi ones too: it fixes the round's strategy
            fixed.or_else(|| est.next(d.estimate))
        })
        .collect()
}

/// Ranks one player's decisions (in play order) against a table set; each outcome goes to `sink`.
pub fn evaluate(
    decisions: &[TestDecision],
    set: &TableSet<'_>,
    opts: &EvalOptions,
    mut sink: impl FnMut(&DecisionResult),
) -> Counts {
    let mut counts = Counts::default();
    for (d, strategy) in decisions.iter().zip(strategies_in_play(decisions, opts.strategy)) {
        let table = strategy.map(|s| set.get(s));
        let mut r = DecisionResult {
            game_id: d.game_id,
            round: d.round,
            seat: d.seat,
            turn: d.turn,
            player: d.player,
            in_riichi: d.in_riichi,
            strategy,
            answered: false,
            rank: None,
        };
        if d.in_riichi && !opts.include_riichi {
            // left out: not ranked
        } else if let Some(t) = table {
            let ranked = rank_of(&d.prepared, t, d.discard);
            r.answered = ranked.answered;
            r.rank = ranked.rank;
        }
        counts.count(&r, opts.include_riichi);
        sink(&r);
    }
    counts
}

/// Every decision's outcome of one player against each table set of a variant: `(label, results)`.
pub fn decision_results(
    data: &TestData,
    tables: &Tables,
    player: &str,
    variant: TableVariant,
    opts: &EvalOptions,
) -> Result<Vec<(String, Vec<DecisionResult>)>> {
    let Some(p) = data.player_index(player) else { bail!("unknown player {player:?}: not in the test data") };
    let decisions = data.player_decisions(p);
    let sets = table_sets(tables, player, variant, &opts.strategy.strategies())?;
    Ok(sets
        .par_iter()
        .map(|set| {
            let mut out = Vec::with_capacity(decisions.len());
            evaluate(decisions, set, opts, |r| out.push(*r));
            (set.label.clone(), out)
        })
        .collect())
}

/// Mean, standard deviation (population), minimum and maximum of a rate over tables.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spread {
    /// Tables with a defined rate.
    pub n: usize,
    pub mean: f64,
    pub sd: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    pub fn of(values: impl IntoIterator<Item = f64>) -> Spread {
        let v: Vec<f64> = values.into_iter().collect();
        if v.is_empty() {
            return Spread::default();
        }
        let n = v.len() as f64;
        let mean = v.iter().sum::<f64>() / n;
        let sd = (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
        let min = v.iter().copied().fold(f64::INFINITY, f64::min);
        let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Spread { n: v.len(), mean, sd, min, max }
    }
    pub fn to_json(&self) -> Value {
        if self.n == 0 {
            return Value::Null;
        }
        json!({"n": self.n, "mean": self.mean, "sd": self.sd, "min": self.min, "max": self.max})
    }
}

/// The `others` variant of one player: every other player's table in turn.
#[derive(Clone, Debug, Default)]
pub struct OthersReport {
    pub tables: Vec<(String, Counts)>,
    pub r_first: Spread,
    pub r_top3: Spread,
    pub coverage: Spread,
}

impl OthersReport {
    fn new(tables: Vec<(String, Counts)>) -> OthersReport {
        let spread = |f: fn(&Counts) -> Option<f64>| Spread::of(tables.iter().filter_map(|(_, c)| f(c)));
        OthersReport {
            r_first: spread(Counts::r_first),
            r_top3: spread(Counts::r_top3),
            coverage: spread(Counts::coverage),
            tables,
        }
    }
    /// Counts averaged over the tables.
    pub fn mean_counts(&self) -> [f64; 7] {
        let n = self.tables.len().max(1) as f64;
        let mut sum = [0u64; 7];
        for (_, c) in &self.tables {
            for (x, v) in sum.iter_mut().zip(counts_array(c)) {
                *x += v;
            }
        }
        sum.map(|x| x as f64 / n)
    }
}

fn counts_array(c: &Counts) -> [u64; 7] {
    [c.n_all, c.n_none_strategy, c.n_none_hand, c.c_first, c.c_second, c.c_third, c.in_riichi]
}

/// One variant's result for one player.
#[derive(Clone, Debug)]
pub struct VariantReport {
    pub variant: TableVariant,
    /// Own, all, all-but-own: the counts. Others: the counts summed over every other table.
    pub counts: Counts,
    pub others: Option<OthersReport>,
}

impl VariantReport {
    pub fn to_json(&self, include_riichi: bool) -> Value {
        let Some(o) = &self.others else { return self.counts.to_json(include_riichi) };
        // the thesis's figure: the rates averaged over the other players' tables; counts averaged too
        let m = o.mean_counts();
        let mut v = json!({
            "tables": o.tables.len(),
            "n_all": m[0], "n_none_strategy": m[1], "n_none_hand": m[2],
            "c_first": m[3], "c_second": m[4], "c_third": m[5], "c_top3": m[3] + m[4] + m[5],
            "r_first": (o.r_first.n > 0).then_some(o.r_first.mean),
            "r_top3": (o.r_top3.n > 0).then_some(o.r_top3.mean),
            "coverage": (o.coverage.n > 0).then_some(o.coverage.mean),
            "spread": {"r_first": o.r_first.to_json(), "r_top3": o.r_top3.to_json(), "coverage": o.coverage.to_json()},
        });
        v[if include_riichi { "riichi_included" } else { "riichi_left_out" }] = json!(m[6]);
        v
    }
}

#[derive(Clone, Debug)]
pub struct PlayerReport {
    pub player: String,
    pub games: u32,
    pub decisions: usize,
    pub variants: Vec<VariantReport>,
}

#[derive(Clone, Debug, Default)]
pub struct EvalReport {
    pub options: Option<EvalOptions>,
    pub variants: Vec<TableVariant>,
    pub players: Vec<PlayerReport>,
    /// Players left out, and why (no own table for `own` / `all-but-own`).
    pub skipped: Vec<(String, String)>,
    /// Per variant, pooled over the players: sums of the counts (for `others`: of each player's mean counts,
    /// rounded), so the overall rates weigh every decision alike.
    pub overall: Vec<(TableVariant, Counts)>,
    /// Decisions evaluated (one per decision and table set, left-out riichi discards included) and the
    /// seconds the evaluation took.
    pub evaluated: u64,
    pub eval_seconds: f64,
}

/// What ranks a player's decisions against the tables of a variant: [`ByLookup`] here, decision by decision
/// (the reference), or a batch of decisions against many tables at once on a device (`haifu-neural`'s tables
/// as tensors, `--device`). Both give the same counts.
pub trait TableRanker: Sync {
    /// The counts of the job's decisions against each table set of its variant, labelled as [`table_sets`]
    /// labels them, in its order.
    fn variant_counts(&self, job: &VariantJob<'_>) -> Result<Vec<(String, Counts)>>;
    /// Whether players may be ranked on several threads at once (a device batches within one player).
    fn parallel(&self) -> bool {
        true
    }
}

/// One player's decisions (in play order) to rank against the tables of a variant.
pub struct VariantJob<'a> {
    pub tables: &'a Tables,
    pub player: &'a str,
    pub decisions: &'a [TestDecision],
    pub variant: TableVariant,
    pub opts: &'a EvalOptions,
}

/// The reference ranker: every decision ranked against every table by [`evaluate`].
pub struct ByLookup;

impl TableRanker for ByLookup {
    fn variant_counts(&self, job: &VariantJob<'_>) -> Result<Vec<(String, Counts)>> {
        let sets = table_sets(job.tables, job.player, job.variant, &job.opts.strategy.strategies())?;
        Ok(sets.par_iter().map(|s| (s.label.clone(), evaluate(job.decisions, s, job.opts, |_| {}))).collect())
    }
}

/// Evaluates every selected player for each variant. Players without an own table are skipped for the
/// variants that need it when they were picked by `min_games`; a player named explicitly is an error.
pub fn run(data: &TestData, tables: &Tables, variants: &[TableVariant], opts: &EvalOptions) -> Result<EvalReport> {
    run_with(data, tables, variants, opts, &ByLookup)
}

/// [`run`] with the decisions ranked by `ranker`.
pub fn run_with(
    data: &TestData,
    tables: &Tables,
    variants: &[TableVariant],
    opts: &EvalOptions,
    ranker: &dyn TableRanker,
) -> Result<EvalReport> {
    let explicit = data.selection.players.is_some();
    let mut skipped = Vec::new();
    let mut todo = Vec::new();
    for (p, name) in data.players.iter().enumerate() {
        if variants.iter().any(|v| v.needs_own()) && !tables.has_scope(name) {
            if explicit {
                bail!(
                    "unknown player {name:?}: {} has no table for this player",
                    crate::table::sequences_path(&tables.dir).display()
                );
            }
            skipped.push((name.clone(), "no own sequence table".to_string()));
            continue;
        }
        todo.push(p);
    }
    let started = Instant::now();
    let player_report = |&p: &usize| -> Result<(PlayerReport, u64)> {
        let name = &data.players[p];
        let decisions = data.player_decisions(p);
        let mut reports = Vec::new();
        let mut evaluated = 0u64;
        for &v in variants {
            let job = VariantJob { tables, player: name, decisions, variant: v, opts };
            let per_table = ranker.variant_counts(&job)?;
            evaluated += decisions.len() as u64 * per_table.len() as u64;
            let mut sum = Counts::default();
            per_table.iter().for_each(|(_, c)| sum.add(c));
            let others = (v == TableVariant::Others).then(|| OthersReport::new(per_table));
            reports.push(VariantReport { variant: v, counts: sum, others });
        }
        let report =
            PlayerReport { player: name.clone(), games: data.games[p], decisions: decisions.len(), variants: reports };
        Ok((report, evaluated))
    };
    let players: Vec<(PlayerReport, u64)> = if ranker.parallel() {
        todo.par_iter().map(player_report).collect::<Result<_>>()?
    } else {
        todo.iter().map(player_report).collect::<Result<_>>()?
    };
    let eval_seconds = started.elapsed().as_secs_f64();
    let evaluated = players.iter().map(|(_, n)| n).sum();
    let players: Vec<PlayerReport> = players.into_iter().map(|(r, _)| r).collect();
    let overall = variants
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let mut sum = Counts::default();
            for p in &players {
                let r = &p.variants[i];
                match &r.others {
                    None => sum.add(&r.counts),
                    Some(o) => {
                        let m = o.mean_counts().map(|x| x.round() as u64);
                        sum.add(&Counts {
                            n_all: m[0],
                            n_none_strategy: m[1],
                            n_none_hand: m[2],
                            c_first: m[3],
                            c_second: m[4],
                            c_third: m[5],
                            in_riichi: m[6],
                        });
                    }
                }
            }
            (v, sum)
        })
        .collect();
    Ok(EvalReport {
        options: Some(*opts),
        variants: variants.to_vec(),
        players,
        skipped,
        overall,
        evaluated,
        eval_seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse() {
        assert_eq!("none".parse::<StrategyMode>(), Ok(StrategyMode::None));
        assert_eq!("fixed:chanta".parse::<StrategyMode>(), Ok(StrategyMode::Fixed(Strategy::Chanta)));
        assert_eq!("estimated".parse::<StrategyMode>(), Ok(StrategyMode::Estimated));
        assert!("fixed:pinfu".parse::<StrategyMode>().is_err());
        assert_eq!("all-but-own".parse::<TableVariant>(), Ok(TableVariant::AllButOwn));
    }

    #[test]
    fn counts_follow_the_equations() {
        let mut c = Counts::default();
        let base = DecisionResult {
            game_id: 1,
            round: 0,
            seat: 0,
            turn: 1,
            player: 0,
            in_riichi: false,
            strategy: Some(Strategy::All),
            answered: true,
            rank: Some(1),
        };
        for rank in [Some(1), Some(1), Some(2), Some(3), Some(4), None] {
            c.count(&DecisionResult { rank, ..base }, false);
        }
        c.count(&DecisionResult { answered: false, rank: None, ..base }, false);
        c.count(&DecisionResult { strategy: None, answered: false, rank: None, ..base }, false);
        c.count(&DecisionResult { in_riichi: true, ..base }, false);
        assert_eq!(
            c,
            Counts { n_all: 8, n_none_strategy: 1, n_none_hand: 1, c_first: 2, c_second: 1, c_third: 1, in_riichi: 1 }
        );
        assert_eq!(c.answered(), 6);
        assert_eq!(c.r_first(), Some(2.0 / 6.0));
        assert_eq!(c.r_top3(), Some(4.0 / 6.0));
        assert_eq!(c.coverage(), Some(6.0 / 8.0));
        assert_eq!(Counts::default().r_first(), None);
        let s = Spread::of([0.2, 0.4]);
        assert!((s.mean - 0.3).abs() < 1e-12 && (s.sd - 0.1).abs() < 1e-12 && s.min == 0.2 && s.max == 0.4);
    }
}
