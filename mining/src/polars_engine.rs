//! The Polars engine of `haifu mine`: the counting of [`crate::mine`] as lazy queries over the Parquet
//! dataset, run by Polars's streaming engine, so that a dataset larger than memory can be mined and the same
//! plan reads as a description any SQL engine could run (docs/SCHEMA.md shows the GROUP BY).
//!
//! The plan: the tables a decision feeds from its own row (`outcome`, `win_yaku`), or from round flags of
//! `rounds` (exploded wins and their yaku) joined to the decisions when the options look past the seat; one
//! copy of each decision per table it feeds (`strategy`); per suit, the rows whose keys changed; GROUP BY
//! player, strategy, source, before, after. `ALL` is the sum over players. Only the small grouped results come back
//! to Rust, where the shapes get their integer keys.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{anyhow, Result};
use hashbrown::HashMap;
use polars::prelude::*;

use crate::mine::{
    plan, MineOptions, Mined, RoundsMode, ScopeStats, SeqCount, StrategyRounds, SOURCES, SUIT_KEY_COLUMNS,
};
use crate::strategy::Strategy;

fn scan(files: &[PathBuf]) -> Result<LazyFrame> {
    let paths: Vec<PlRefPath> = files.iter().map(|p| PlRefPath::from(p.to_string_lossy().as_ref())).collect();
    let args = ScanArgsParquet { hive_options: HiveOptions::new_disabled(), ..Default::default() };
    LazyFrame::scan_parquet_files(paths.into(), args).map_err(|e| anyhow!("polars cannot scan the dataset: {e}"))
}

fn run(lf: LazyFrame) -> Result<DataFrame> {
    let result = lf.collect_with_engine(Engine::Streaming).map_err(|e| anyhow!("polars query: {e}"))?;
    Ok(result.unwrap_single())
}

/// Boolean yaku-membership expression of a strategy over `e` (a yaku id).
fn has_yaku(s: Strategy, e: Expr) -> Expr {
    let ids: Vec<u8> = (0..=54u8).filter(|&y| s.has_yaku(y)).collect();
    ids.into_iter().map(|y| e.clone().eq(lit(y))).reduce(|a, b| a.or(b)).expect("every strategy has a yaku")
}

fn flag(s: Strategy) -> String {
    format!("f_{}", s.name())
}

/// The flags of each round (`r_won`, and `r_<strategy>`: some winner's yaku realise it), from the rounds
/// table's wins exploded to one row per (win, yaku). Only the options that look past a decision's own
/// seat need them (`--rounds won`, `--strategy-rounds all`).
fn round_flags(rounds: &[PathBuf]) -> Result<LazyFrame> {
    let wins = scan(rounds)?
        .select([col("game_id"), col("round"), col("result"), col("wins")])
        .explode(cols(["wins"]), ExplodeOptions { empty_as_null: true, keep_nulls: true })
        .select([
            col("game_id"),
            col("round"),
            col("result"),
            col("wins").struct_().field_by_name("yaku").alias("yaku"),
        ])
        .explode(cols(["yaku"]), ExplodeOptions { empty_as_null: true, keep_nulls: true });
    let mut aggs = vec![col("result").first().eq(lit("agari")).alias("r_won")];
    aggs.extend(
        Strategy::YAKU
            .map(|s| has_yaku(s, col("yaku")).fill_null(lit(false)).any(true).alias(format!("r_{}", s.name()))),
    );
    Ok(wins.group_by([col("game_id"), col("round")]).agg(aggs))
}

/// Mines the decisions of `dataset` with Polars.
pub fn mine_polars(dataset: &Path, opts: &MineOptions) -> Result<Mined> {
    let start = Instant::now();
    if opts.sample.is_some() {
        anyhow::bail!("sampling games is an option of the rust engine only");
    }
    let plan = plan(dataset, opts)?;

    let mut wanted = vec![col("game_id"), col("round"), col("player"), col("source"), col("outcome"), col("win_yaku")];
    for (b, a) in SUIT_KEY_COLUMNS {
        wanted.push(col(b));
        wanted.push(col(a));
    }
    let mut d = scan(&plan.decisions)?.select(wanted);
    if opts.rounds == RoundsMode::Won || opts.strategy_rounds == StrategyRounds::All {
        let on = [col("game_id"), col("round")];
        d = d.join(round_flags(&plan.rounds)?, on.clone(), on, JoinArgs::new(JoinType::Left));
    }
    let mut flags = vec![match opts.rounds {
        RoundsMode::All => lit(true).alias(flag(Strategy::All)),
        RoundsMode::Won => col("r_won").fill_null(lit(false)).alias(flag(Strategy::All)),
    }];
    for s in Strategy::YAKU {
        let fed = match opts.strategy_rounds {
            // the decision's own seat won with the strategy's yaku: its own row says so
            StrategyRounds::Winner => col("outcome")
                .eq(lit("win"))
                .and(col("win_yaku").list().agg(has_yaku(s, element()).any(true)).fill_null(lit(false))),
            StrategyRounds::All => col(format!("r_{}", s.name())).fill_null(lit(false)),
        };
        flags.push(fed.alias(flag(s)));
    }
    let d = d.with_columns(flags);
    // one copy of a decision per table it feeds
    let per_strategy: Vec<LazyFrame> = Strategy::EVERY
        .into_iter()
        .map(|s| d.clone().filter(col(flag(s))).with_column(lit(s.name()).alias("strategy")))
        .collect();
    let fed = concat(per_strategy, UnionArgs::default())?;

    let suits: Vec<LazyFrame> = SUIT_KEY_COLUMNS
        .into_iter()
        .map(|(b, a)| {
            fed.clone().filter(col(b).neq(col(a))).select([
                col("player"),
                col("strategy"),
                col("source"),
                col(b).alias("before"),
                col(a).alias("after"),
            ])
        })
        .collect();
    let sequences = concat(suits, UnionArgs::default())?
        .group_by([col("player"), col("strategy"), col("source"), col("before"), col("after")])
        .agg([len().alias("count")]);
    // decisions per (player, strategy, round): the player figures from it, and ALL's (a round counts once
    // however many players fed it)
    let per_round =
        fed.group_by([col("player"), col("strategy"), col("game_id"), col("round")]).agg([len().alias("n")]);
    let per_player_rounds = per_round
        .clone()
        .group_by([col("player"), col("strategy")])
        .agg([len().alias("rounds"), col("n").sum().alias("decisions")]);
    let all_rounds = per_round
        .group_by([col("strategy"), col("game_id"), col("round")])
        .agg([col("n").sum().alias("n")])
        .group_by([col("strategy")])
        .agg([len().alias("rounds"), col("n").sum().alias("decisions")]);
    // one query for the three results, so that the scan and the flags are computed once
    let mut results = LazyFrame::collect_all_with_engine(
        vec![sequences.logical_plan, per_player_rounds.logical_plan, all_rounds.logical_plan],
        Engine::Streaming,
        OptFlags::default(),
    )
    .map_err(|e| anyhow!("polars query: {e}"))?
    .into_iter();
    let mut next = || results.next().ok_or_else(|| anyhow!("polars returned fewer results than queries"));
    let (sequences, per_player_rounds, all_rounds) = (next()?, next()?, next()?);
    let read = run(scan(&plan.decisions)?.select([len().alias("n")]))?;

    let scope_of: HashMap<&str, u32> = plan.scopes.iter().enumerate().map(|(i, s)| (s.as_str(), i as u32)).collect();
    let strategy_index = |name: &str| -> Result<u8> {
        Strategy::EVERY.iter().position(|s| s.name() == name).map(|i| i as u8).ok_or_else(|| anyhow!("strategy {name}"))
    };
    let mut mined = Mined {
        stats: vec![[ScopeStats::default(); 4]; plan.scopes.len()],
        scopes: plan.scopes.clone(),
        games: plan.games.clone(),
        decisions_read: u64s(&read, "n")?[0],
        ..Default::default()
    };

    let df = sequences;
    let (player, strategy, source) = (strs(&df, "player")?, strs(&df, "strategy")?, strs(&df, "source")?);
    let (before, after, count) = (u64s(&df, "before")?, u64s(&df, "after")?, u64s(&df, "count")?);
    let mut counts: HashMap<(u32, u8, u8, u32, u32), u64> = HashMap::new();
    for i in 0..df.height() {
        let st = strategy_index(&strategy[i])?;
        let src = SOURCES.iter().position(|s| *s == source[i]).ok_or_else(|| anyhow!("source {}", source[i]))? as u8;
        let (b, a) = (before[i] as u32, after[i] as u32);
        *counts.entry((0, st, src, b, a)).or_insert(0) += count[i];
        if let Some(&scope) = scope_of.get(player[i].as_str()).filter(|&&s| s != 0) {
            *counts.entry((scope, st, src, b, a)).or_insert(0) += count[i];
        }
    }
    mined.counts = counts
        .into_iter()
        .map(|((scope, strategy, source, before, after), count)| SeqCount {
            scope,
            strategy,
            source,
            before,
            after,
            count,
        })
        .collect();
    mined.counts.sort_unstable_by_key(SeqCount::order);

    let df = per_player_rounds;
    let (player, strategy) = (strs(&df, "player")?, strs(&df, "strategy")?);
    let (rounds, decisions) = (u64s(&df, "rounds")?, u64s(&df, "decisions")?);
    for i in 0..df.height() {
        if let Some(&scope) = scope_of.get(player[i].as_str()).filter(|&&s| s != 0) {
            let st = &mut mined.stats[scope as usize][usize::from(strategy_index(&strategy[i])?)];
            st.rounds = rounds[i];
            st.decisions = decisions[i];
        }
    }
    let df = all_rounds;
    let strategy = strs(&df, "strategy")?;
    let (rounds, decisions) = (u64s(&df, "rounds")?, u64s(&df, "decisions")?);
    for i in 0..df.height() {
        let st = &mut mined.stats[0][usize::from(strategy_index(&strategy[i])?)];
        st.rounds = rounds[i];
        st.decisions = decisions[i];
    }
    mined.finish_stats();
    mined.elapsed_s = start.elapsed().as_secs_f64();
    Ok(mined)
}

fn strs(df: &DataFrame, name: &str) -> Result<Vec<String>> {
    let c = df.column(name)?.cast(&DataType::String)?;
    let ca = c.str()?;
    ca.iter().map(|v| v.map(str::to_string).ok_or_else(|| anyhow!("null in `{name}`"))).collect()
}

fn u64s(df: &DataFrame, name: &str) -> Result<Vec<u64>> {
    let c = df.column(name)?.cast(&DataType::UInt64)?;
    let ca = c.u64()?;
    ca.iter().map(|v| v.ok_or_else(|| anyhow!("null in `{name}`"))).collect()
}
