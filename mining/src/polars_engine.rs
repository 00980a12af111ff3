//! The Polars engine of `haifu mine`: the counting of [`crate::mine`] as lazy queries over the Parquet
//! dataset, a plan that reads as a description any SQL engine could run (docs/SCHEMA.md shows the GROUP BY).
//!
//! The plan: the tables a decision feeds from its own row (`outcome`, `win_yaku`), or from round flags of
//! `rounds` (exploded wins and their yaku) joined to the decisions when the options look past the seat; the
//! player's scope as an integer (a join with the scopes); that frame of integers held in memory (about 50
//! bytes a decision); one copy of each decision per table it feeds (`strategy`); per suit, the rows whose keys
//! changed; GROUP BY scope and one integer key of (strategy, source, before, after). `ALL` is the sum over
//! players. Only the grouped results come back to Rust, which splits the keys and adds up ALL.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{anyhow, Result};
use hashbrown::HashMap;
use polars::prelude::*;

use crate::mine::{
    plan, Games, MineOptions, Mined, Plan, RoundsMode, ScopeStats, SeqCount, StrategyRounds, SOURCES, SUIT_KEY_COLUMNS,
};
use crate::strategy::Strategy;

/// Where the fields of a sequence's key sit: after (21 bits: 5^9 < 2^21), before, the source (3 bits), the
/// strategy (2 bits); 47 bits in all.
const BEFORE_SHIFT: u32 = 21;
const SOURCE_SHIFT: u32 = 42;
const STRATEGY_SHIFT: u32 = 45;
/// A source none of [`SOURCES`] (a dataset this build does not know): refused when the key is read.
const SOURCE_UNKNOWN: u64 = 7;

/// A `u64` literal (Polars's integer literals are otherwise typed by their value).
fn u64_lit(v: u64) -> Expr {
    lit(v).cast(DataType::UInt64)
}

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

/// Sizes Polars's thread pool, which it makes at its first use from `POLARS_MAX_THREADS` (by default one
/// thread per core), to `jobs` (0: every core) as the Rust engine's, unless the environment already sets it.
pub fn set_threads(jobs: usize) {
    if jobs > 0 && std::env::var_os("POLARS_MAX_THREADS").is_none() {
        std::env::set_var("POLARS_MAX_THREADS", jobs.to_string());
    }
}

/// Mines the decisions of `dataset` with Polars.
pub fn mine_polars(dataset: &Path, opts: &MineOptions) -> Result<Mined> {
    let start = Instant::now();
    if opts.sample.is_some() {
        anyhow::bail!("sampling games is an option of the rust engine only");
    }
    let plan = plan(dataset, opts, Games::First)?;

    let d = flagged_decisions(&plan, opts)?;
    // one copy of a decision per table it feeds, the strategy in the key's top bits
    let per_strategy: Vec<LazyFrame> = Strategy::EVERY
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            d.clone().filter(col(flag(s))).with_columns([
                lit(i as u8).cast(DataType::UInt8).alias("strategy"),
                (col("source_bits") + u64_lit((i as u64) << STRATEGY_SHIFT)).alias("bits"),
            ])
        })
        .collect();
    let fed = concat(per_strategy, UnionArgs::default())?;

    // per suit, the rows whose shape changed: (scope, key) with key = strategy | source | before | after
    let suits: Vec<LazyFrame> = SUIT_KEY_COLUMNS
        .into_iter()
        .map(|(b, a)| {
            let key = col("bits")
                + col(b).cast(DataType::UInt64) * u64_lit(1 << BEFORE_SHIFT)
                + col(a).cast(DataType::UInt64);
            fed.clone().filter(col(b).neq(col(a))).select([col("scope"), key.alias("key")])
        })
        .collect();
    let sequences =
        concat(suits, UnionArgs::default())?.group_by([col("scope"), col("key")]).agg([len().alias("count")]);
    // decisions per (scope, strategy, round): the player figures from it, and ALL's (a round counts once
    // however many players fed it)
    let per_round = fed.group_by([col("scope"), col("strategy"), col("game_id"), col("round")]).agg([len().alias("n")]);
    // (scope 0 of these rows is every player without a table: ALL's figures come from the next query)
    let per_scope_rounds = per_round
        .clone()
        .filter(col("scope").neq(lit(0u32)))
        .group_by([col("scope"), col("strategy")])
        .agg([len().alias("rounds"), col("n").sum().alias("decisions")]);
    let all_rounds = per_round
        .group_by([col("strategy"), col("game_id"), col("round")])
        .agg([col("n").sum().alias("n")])
        .group_by([col("strategy")])
        .agg([lit(0u32).alias("scope"), len().alias("rounds"), col("n").sum().alias("decisions")]);
    // one query for the three results, so that the copies per strategy are made once
    let mut results = LazyFrame::collect_all_with_engine(
        vec![sequences.logical_plan, per_scope_rounds.logical_plan, all_rounds.logical_plan],
        Engine::InMemory,
        OptFlags::default(),
    )
    .map_err(|e| anyhow!("polars query: {e}"))?
    .into_iter();
    let mut next = || results.next().ok_or_else(|| anyhow!("polars returned fewer results than queries"));
    let (sequences, per_scope_rounds, all_rounds) = (next()?, next()?, next()?);
    let read = run(scan(&plan.decisions)?.select([len().alias("n")]))?;

    let mut mined = Mined {
        stats: vec![[ScopeStats::default(); 4]; plan.scopes.len()],
        scopes: plan.scopes.clone(),
        // (`Games::First`: every scope's games are in the plan)
        games: plan.games.iter().map(|g| g.unwrap_or_default()).collect(),
        decisions_read: u64s(&read, "n")?[0],
        ..Default::default()
    };

    mined.counts = counts_of(&sequences)?;
    mined.counts.sort_unstable_by_key(SeqCount::order);

    for df in [per_scope_rounds, all_rounds] {
        let (scope, strategy) = (u64s(&df, "scope")?, u64s(&df, "strategy")?);
        let (rounds, decisions) = (u64s(&df, "rounds")?, u64s(&df, "decisions")?);
        for i in 0..df.height() {
            let st = &mut mined.stats[scope[i] as usize][strategy[i] as usize];
            st.rounds = rounds[i];
            st.decisions = decisions[i];
        }
    }
    mined.finish_stats();
    mined.elapsed_s = start.elapsed().as_secs_f64();
    Ok(mined)
}

/// The decisions as the queries need them, in memory: scope id, game, round, source bits, the suits' keys and
/// one flag per strategy (whether the decision feeds its table).
fn flagged_decisions(plan: &Plan, opts: &MineOptions) -> Result<LazyFrame> {
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
    // the player's scope as an integer (0: a player without a table of their own, counted in ALL only), so
    // that no group-by below keys on text: Polars hashes and compares strings row by row
    let names: Vec<&str> = plan.scopes.iter().map(String::as_str).collect();
    let ids: Vec<u32> = (0..names.len() as u32).collect();
    let scopes = df!("player" => names, "scope" => ids)?.lazy();
    let source_code = SOURCES.iter().enumerate().rev().fold(u64_lit(SOURCE_UNKNOWN), |other, (i, name)| {
        when(col("source").eq(lit(*name))).then(u64_lit(i as u64)).otherwise(other)
    });
    let mut columns = vec![col("scope").fill_null(lit(0u32)).alias("scope"), col("game_id"), col("round")];
    columns.push((source_code * u64_lit(1 << SOURCE_SHIFT)).alias("source_bits"));
    columns.extend(SUIT_KEY_COLUMNS.iter().flat_map(|(b, a)| [col(*b), col(*a)]));
    columns.extend(Strategy::EVERY.map(|s| col(flag(s))));
    let d = d.join(scopes, [col("player")], [col("player")], JoinArgs::new(JoinType::Left)).select(columns);
    // held in memory once (integers only, ~50 bytes a decision): the twelve branches below read it, where
    // Polars's engines otherwise computed the scan, the flags and the join again per branch or cached them
    // slowly (the whole query at half the speed)
    Ok(d.collect_with_engine(Engine::InMemory).map_err(|e| anyhow!("polars query: {e}"))?.unwrap_single().lazy())
}

/// The sequence counts of the query's (scope, key, count) rows, ALL's summed over every player's.
fn counts_of(df: &DataFrame) -> Result<Vec<SeqCount>> {
    let (scope, key, count) = (u64s(df, "scope")?, u64s(df, "key")?, u64s(df, "count")?);
    let field = |key: u64, shift: u32, bits: u32| ((key >> shift) & ((1 << bits) - 1)) as u32;
    let decode = |scope: u32, key: u64, count: u64| -> Result<SeqCount> {
        let source = field(key, SOURCE_SHIFT, 3);
        if source as usize >= SOURCES.len() {
            anyhow::bail!("a decision's source is none of {SOURCES:?}");
        }
        Ok(SeqCount {
            scope,
            strategy: field(key, STRATEGY_SHIFT, 2) as u8,
            source: source as u8,
            before: field(key, BEFORE_SHIFT, 21),
            after: field(key, 0, 21),
            count,
        })
    };
    // a player's rows are already one per key; ALL sums every player's (scope 0 included)
    let mut all: HashMap<u64, u64> = HashMap::new();
    let mut counts = Vec::with_capacity(df.height());
    for i in 0..df.height() {
        *all.entry(key[i]).or_insert(0) += count[i];
        if scope[i] != 0 {
            counts.push(decode(scope[i] as u32, key[i], count[i])?);
        }
    }
    for (key, count) in all {
        counts.push(decode(0, key, count)?);
    }
    Ok(counts)
}

fn u64s(df: &DataFrame, name: &str) -> Result<Vec<u64>> {
    let c = df.column(name)?.cast(&DataType::UInt64)?;
    let ca = c.u64()?;
    ca.iter().map(|v| v.ok_or_else(|| anyhow!("null in `{name}`"))).collect()
}
