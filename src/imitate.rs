//! `haifu imitate`: the lookup imitator (SPEC 4) on one hand (`suggest`), its match rates and coverage on test
//! decisions (`eval`, SPEC 4.1), and the strategy estimator's agreement with won rounds (`estimator`).

use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Result};
use serde_json::{json, Value};

use haifu_encoding::options::DeviceChoice;
use haifu_imitate::eval::{self, EvalReport};
use haifu_imitate::rank::{Reason, SuitNote};
use haifu_imitate::table::{load_table, sequences_path, LoadOptions, Tables, ALL_SCOPE};
use haifu_imitate::{estimator_confusion, rank, EvalOptions, Selection, StrategyMode, TableVariant, TestData, Winds};
use haifu_mining::Strategy;

pub use crate::args::TestArgs;
use crate::Network;

#[derive(clap::Subcommand)]
pub enum ImitateCommand {
    /// Rank the discard candidates of one hand with a table, and show the sequences that put each there.
    Suggest(SuggestArgs),
    /// Match rates (R_first, R_top3) and coverage on the decisions of test years, per player and overall.
    Eval(EvalArgs),
    /// How often the strategy estimator's round estimate is a strategy the won round realised.
    Estimator(EstimatorArgs),
}

#[derive(clap::Args)]
pub struct SuggestArgs {
    /// Directory written by `haifu mine` (holds sequences.parquet).
    #[arg(long)]
    pub tables: PathBuf,
    /// Whose table: a player name, or ALL.
    #[arg(long)]
    pub player: String,
    /// Strategy table: all, tanyao, chanta or yakuhai.
    #[arg(long, default_value = "all")]
    pub strategy: Strategy,
    /// The decision's state in Tenhou notation (14 tiles, or 3n+2 after calls; `0` = red five).
    #[arg(long)]
    pub hand: String,
    /// Round wind (E, S, W, N or 1z..4z).
    #[arg(long, default_value = "E")]
    pub round_wind: String,
    /// Seat wind (E, S, W, N or 1z..4z).
    #[arg(long, default_value = "E")]
    pub seat_wind: String,
    /// Sum only these sources of the table (draw, chi, pon, kan, nuki); default all.
    #[arg(long, value_delimiter = ',')]
    pub sources: Option<Vec<String>>,
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct EvalArgs {
    #[command(flatten)]
    pub test: TestArgs,
    /// Directory written by `haifu mine` (the generation tables).
    #[arg(long)]
    pub tables: PathBuf,
    /// Table variants, comma-separated: own, all, others (every other player's table: mean and spread),
    /// all-but-own.
    #[arg(long = "table", value_delimiter = ',', default_value = "own,all,others,all-but-own")]
    pub variants: Vec<TableVariant>,
    /// none (the `all` strategy table), fixed:tanyao|chanta|yakuhai, or estimated (per round, SPEC 3).
    #[arg(long, default_value = "none")]
    pub strategy: StrategyMode,
    /// Rank discards made while already in riichi too (default: leave them out and count them).
    #[arg(long)]
    pub include_riichi: bool,
    /// Sum only these sources of the tables (draw, chi, pon, kan, nuki); default all.
    #[arg(long, value_delimiter = ',')]
    pub sources: Option<Vec<String>>,
    /// Worker threads (default: all cores).
    #[arg(long, short, default_value_t = 0)]
    pub jobs: usize,
    /// A run of `haifu train`: also rank the same decisions with its network and report, per table variant
    /// (own, all, all-but-own), the network on every decision and on those the table answers, the backoff
    /// (the table's list where it has one, the network elsewhere: coverage 100%) and the blend. Runs in the
    /// network binary, haifu-neural.
    #[arg(long)]
    pub backoff: Option<PathBuf>,
    /// The table's weight in the blend (0: the network alone, 1: the table's order, the network elsewhere).
    #[arg(long, default_value_t = 0.5, requires = "backoff")]
    pub blend: f32,
    /// The device (auto, cpu or cuda) of the network with --backoff, and of the tables: given, the tables are
    /// scored as tensors, a player's decisions against every table of a variant at once (the same counts as
    /// the lookup in Rust, the default). Runs in the network binary, haifu-neural.
    #[arg(long)]
    pub device: Option<DeviceChoice>,
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct EstimatorArgs {
    #[command(flatten)]
    pub test: TestArgs,
    #[arg(long)]
    pub json: bool,
}

pub fn run(c: &ImitateCommand, network: Option<&dyn Network>) -> Result<()> {
    match c {
        ImitateCommand::Suggest(a) => suggest(a),
        ImitateCommand::Eval(a) => eval_cmd(a, network),
        ImitateCommand::Estimator(a) => estimator(a),
    }
}

// ---------------------------------------------------------------- suggest

fn suggest(a: &SuggestArgs) -> Result<()> {
    let hand = haifu_imitate::rank::decision_state(&a.hand).map_err(|e| anyhow::anyhow!("--{e}"))?;
    let winds = Winds::parse(&a.round_wind, &a.seat_wind).map_err(anyhow::Error::msg)?;
    let table = load_table(&a.tables, &a.player, a.strategy, a.sources.clone())?;
    let ranking = rank(&hand.counts, winds, &table);
    let (candidates, suits) = ranking.to_json();
    if a.json {
        let out = json!({
            "hand": a.hand, "tables": a.tables.display().to_string(), "player": a.player, "strategy": a.strategy.name(),
            "sources": a.sources, "winds": {"round": winds.round.name(), "seat": winds.seat.name()},
            "table": {"pairs": table.pairs(), "befores": table.befores(), "total": table.total()},
            "candidates": candidates, "suits": suits,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    println!(
        "hand {} | table {:?} strategy {} ({} pairs, {} befores{}) | round wind {}, seat wind {}",
        a.hand,
        a.player,
        a.strategy,
        table.pairs(),
        table.befores(),
        a.sources.as_ref().map(|s| format!(", sources {}", s.join(","))).unwrap_or_default(),
        winds.round,
        winds.seat
    );
    if ranking.candidates.is_empty() {
        println!("no candidates: no isolated honor, and no suit's `before` is in the table");
    }
    for (i, c) in ranking.candidates.iter().enumerate() {
        let why = match &c.reason {
            Reason::IsolatedHonor { value: false } => "isolated honor (not a value honor: first)".to_string(),
            Reason::IsolatedHonor { value: true } => "isolated honor (value honor)".to_string(),
            Reason::Sequence { suit, before, after, count, mirror_before, mirror_after, mirror_count, score } => {
                format!(
                    "{} ({before}, {after}) {count} + mirror ({mirror_before}, {mirror_after}) {mirror_count} = {score}",
                    suit.name()
                )
            }
        };
        println!("{:>3}. {:<3} {why}", i + 1, c.kind.name());
    }
    for (n, suit) in ranking.suits.iter().zip(["man", "pin", "sou"]) {
        match n {
            SuitNote::Empty => {}
            SuitNote::Unknown { before, mirror_known } => println!(
                "     {suit} {before}: not in the table{}: no candidates",
                if *mirror_known { " (its mirror is, which does not count)" } else { "" }
            ),
            SuitNote::Known { before, afters_seen } => {
                println!("     {suit} {before}: in the table (distinct afters seen: {afters_seen})")
            }
        }
    }
    if ranking.candidates.len() > 1 {
        println!("     ties: lower tile kind first (1m..9m, 1p..9p, 1s..9s)");
    }
    Ok(())
}

// ---------------------------------------------------------------- eval

fn selection(years: &[i32], players: &Option<Vec<String>>, min_games: Option<u32>) -> Selection {
    Selection { years: years.to_vec(), players: players.clone(), min_games }
}

fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{:.2}%", 100.0 * v))
}

fn eval_cmd(a: &EvalArgs, network: Option<&dyn Network>) -> Result<()> {
    let mut variants: Vec<TableVariant> = Vec::new();
    for v in &a.variants {
        if !variants.contains(v) {
            variants.push(*v);
        }
    }
    let sel = selection(&a.test.years, &a.test.players, a.test.min_games);
    let t0 = Instant::now();
    let data = TestData::load(&a.test.dataset, &sel)?;
    let load_data_s = t0.elapsed().as_secs_f64();
    if data.players.is_empty() {
        bail!(
            "no test player in {} for years {:?} (--min-games {:?})",
            a.test.dataset.display(),
            a.test.years,
            a.test.min_games
        );
    }
    // only the scopes this run reads: the players, ALL, and every player for `others`
    let scopes = (!variants.contains(&TableVariant::Others)).then(|| {
        let mut s = data.players.clone();
        s.push(ALL_SCOPE.to_string());
        s
    });
    let opts = EvalOptions { strategy: a.strategy, include_riichi: a.include_riichi };
    let t1 = Instant::now();
    let load = LoadOptions { scopes, strategies: opts.strategy.strategies(), sources: a.sources.clone() };
    let tables = Tables::load(&a.tables, &load)?;
    let load_tables_s = t1.elapsed().as_secs_f64();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(a.jobs).build()?;
    let threads = pool.current_num_threads();
    let report = match a.device {
        None => pool.install(|| eval::run(&data, &tables, &variants, &opts))?,
        Some(device) => {
            let ranker = crate::needs(network, "haifu imitate eval --device")?.table_ranker(&tables, device)?;
            pool.install(|| eval::run_with(&data, &tables, &variants, &opts, &*ranker))?
        }
    };
    let backoff = match &a.backoff {
        None => None,
        Some(_) => {
            // the players the tables' rows count (those skipped there for want of an own table left out here too)
            let skipped: HashSet<&str> = report.skipped.iter().map(|(p, _)| p.as_str()).collect();
            let data = data.clone().retain_players(|p| !skipped.contains(p));
            let beside = Beside { data, tables: &tables, variants: &variants, opts: &opts };
            Some(crate::needs(network, "haifu imitate eval --backoff")?.backoff(a, beside)?)
        }
    };

    let meta_options = tables.meta.as_ref().and_then(|m| m.get("options")).cloned();
    let overlap: Vec<i32> = meta_options
        .as_ref()
        .and_then(|o| o.get("years"))
        .and_then(Value::as_array)
        .map(|ys| ys.iter().filter_map(Value::as_i64).map(|y| y as i32).filter(|y| a.test.years.contains(y)).collect())
        .unwrap_or_default();
    let per_s = report.evaluated as f64 / report.eval_seconds.max(1e-9);
    if a.json {
        let players: Vec<Value> = report
            .players
            .iter()
            .map(|p| {
                let v: serde_json::Map<String, Value> =
                    p.variants.iter().map(|r| (r.variant.name().to_string(), r.to_json(a.include_riichi))).collect();
                json!({"player": p.player, "games": p.games, "decisions": p.decisions, "variants": v})
            })
            .collect();
        let overall: serde_json::Map<String, Value> =
            report.overall.iter().map(|(v, c)| (v.name().to_string(), c.to_json(a.include_riichi))).collect();
        let out = json!({
            "dataset": a.test.dataset.display().to_string(), "years": a.test.years, "players_selected": a.test.players,
            "min_games": a.test.min_games, "tables": a.tables.display().to_string(), "tables_options": meta_options,
            "sources": a.sources, "strategy": opts.strategy.name(), "include_riichi": a.include_riichi,
            "test_years_in_tables": overlap,
            "variants": variants.iter().map(|v| v.name()).collect::<Vec<_>>(),
            "players": players, "overall": overall,
            "backoff": backoff.as_ref().map(|b| &b.json),
            "skipped": report.skipped.iter().map(|(p, why)| json!({"player": p, "reason": why})).collect::<Vec<_>>(),
            "timing": {"load_data_s": load_data_s, "load_tables_s": load_tables_s, "eval_s": report.eval_seconds,
                       "evaluated": report.evaluated, "evaluated_per_s": per_s, "threads": threads,
                       "device": a.device.map(|d| format!("{d:?}").to_lowercase())},
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    print_eval(a, &data, &tables, &report, &opts, meta_options.as_ref());
    if let Some(b) = &backoff {
        print!("{}", b.text);
    }
    if !overlap.is_empty() {
        println!("warning: test years {overlap:?} are among the tables' years: the tables saw these decisions");
    }
    println!(
        "loaded {} decisions in {load_data_s:.2}s, tables ({:.1} MB) in {load_tables_s:.2}s; evaluated {} (decision, table) pairs in {:.3}s: {:.2} M/s on {threads} threads ({:.2} M/s per thread)",
        data.decisions.len(),
        tables.heap_bytes() as f64 / 1e6,
        report.evaluated,
        report.eval_seconds,
        per_s / 1e6,
        per_s / 1e6 / threads as f64
    );
    Ok(())
}

/// What `--backoff`'s network ranks beside the tables ([`Network::backoff`]): the test decisions of the
/// players the tables' rows count, the tables, the variants and the options of those rows.
pub struct Beside<'a> {
    pub data: TestData,
    pub tables: &'a Tables,
    pub variants: &'a [TableVariant],
    pub opts: &'a EvalOptions,
}

fn print_eval(
    a: &EvalArgs,
    data: &TestData,
    tables: &Tables,
    report: &EvalReport,
    opts: &EvalOptions,
    meta_options: Option<&Value>,
) {
    let riichi = if opts.include_riichi { "in-riichi discards included" } else { "in-riichi discards left out" };
    println!(
        "test: {} years {:?}, {} players, {} decisions; strategy {}; {riichi}",
        a.test.dataset.display(),
        a.test.years,
        data.players.len(),
        data.decisions.len(),
        opts.strategy.name()
    );
    println!(
        "tables: {} (options {}){}",
        sequences_path(&tables.dir).display(),
        meta_options.map_or_else(|| "unknown: no meta.json".to_string(), Value::to_string),
        a.sources.as_ref().map(|s| format!(", sources {}", s.join(","))).unwrap_or_default()
    );
    let riichi_col = if opts.include_riichi { "riichi_in" } else { "riichi_out" };
    println!(
        "{:<16} {:>6} {:<12} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>9} {:>10}",
        "player",
        "games",
        "table",
        "N_all",
        "N_noneS",
        "N_noneH",
        "C_first",
        "C_second",
        "C_third",
        "R_first",
        "R_top3",
        "coverage",
        riichi_col
    );
    let row = |player: &str, games: String, table: &str, c: &haifu_imitate::Counts| {
        println!(
            "{:<16} {:>6} {:<12} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>9} {:>10}",
            player,
            games,
            table,
            c.n_all,
            c.n_none_strategy,
            c.n_none_hand,
            c.c_first,
            c.c_second,
            c.c_third,
            pct(c.r_first()),
            pct(c.r_top3()),
            pct(c.coverage()),
            c.in_riichi
        );
    };
    for p in &report.players {
        for (i, v) in p.variants.iter().enumerate() {
            let games = if i == 0 { p.games.to_string() } else { String::new() };
            match &v.others {
                None => row(&p.player, games, v.variant.name(), &v.counts),
                Some(o) => {
                    let m = o.mean_counts();
                    println!(
                        "{:<16} {:>6} {:<12} {:>8.0} {:>8.0} {:>8.0} {:>8.0} {:>8.0} {:>8.0} {:>8} {:>8} {:>9} {:>10.0}",
                        p.player,
                        games,
                        format!("others({})", o.tables.len()),
                        m[0],
                        m[1],
                        m[2],
                        m[3],
                        m[4],
                        m[5],
                        pct((o.r_first.n > 0).then_some(o.r_first.mean)),
                        pct((o.r_top3.n > 0).then_some(o.r_top3.mean)),
                        pct((o.coverage.n > 0).then_some(o.coverage.mean)),
                        m[6]
                    );
                    if o.r_top3.n > 0 {
                        println!(
                            "{:<36} spread over tables: R_first sd {:.2} [{:.2}, {:.2}], R_top3 sd {:.2} [{:.2}, {:.2}], coverage sd {:.2} [{:.2}, {:.2}] (points)",
                            "",
                            100.0 * o.r_first.sd,
                            100.0 * o.r_first.min,
                            100.0 * o.r_first.max,
                            100.0 * o.r_top3.sd,
                            100.0 * o.r_top3.min,
                            100.0 * o.r_top3.max,
                            100.0 * o.coverage.sd,
                            100.0 * o.coverage.min,
                            100.0 * o.coverage.max
                        );
                    }
                }
            }
        }
    }
    for (v, c) in &report.overall {
        row("overall", String::new(), v.name(), c);
    }
    if report.overall.iter().any(|(v, _)| *v == TableVariant::Others) {
        println!("(others: the mean over every other player's table; overall pools each player's mean counts)");
    }
    for (p, why) in &report.skipped {
        println!("skipped {p}: {why}");
    }
}

// ---------------------------------------------------------------- estimator

fn estimator(a: &EstimatorArgs) -> Result<()> {
    let data = TestData::load(&a.test.dataset, &selection(&a.test.years, &a.test.players, a.test.min_games))?;
    let c = estimator_confusion(&data);
    let names = ["undetermined", "tanyao", "chanta", "yakuhai"];
    let realised = |bits: usize| -> String {
        if bits == 0 {
            return "none".into();
        }
        (0..3).filter(|i| bits & (1 << i) != 0).map(|i| names[i + 1]).collect::<Vec<_>>().join("+")
    };
    let per = c.per_strategy();
    if a.json {
        let table = |m: &[[u64; 8]; 4]| -> Value {
            names
                .iter()
                .zip(m)
                .map(|(n, row)| {
                    let cols: serde_json::Map<String, Value> =
                        (0..8).filter(|&r| row[r] > 0).map(|r| (realised(r), json!(row[r]))).collect();
                    (n.to_string(), Value::Object(cols))
                })
                .collect::<serde_json::Map<_, _>>()
                .into()
        };
        let out = json!({
            "dataset": a.test.dataset.display().to_string(), "years": a.test.years, "players": data.players.len(),
            "rules": haifu_imitate::estimator::RULES,
            "won_rounds": c.total_rounds(), "decided": c.rounds_decided(), "agree": c.rounds_agree(),
            "with_strategy": c.rounds_with_strategy(),
            "per_strategy": names[1..].iter().zip(per).map(|(n, (e, h, r))| json!({"strategy": n, "estimated": e, "estimated_and_realised": h, "realised": r})).collect::<Vec<_>>(),
            "rounds": table(&c.rounds), "decisions": table(&c.decisions),
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    println!(
        "{} rounds won by {} players in {} years {:?}: estimate decided in {}, equal to a realised strategy in {} ({}); {} realised one of the three",
        c.total_rounds(),
        data.players.len(),
        a.test.dataset.display(),
        a.test.years,
        c.rounds_decided(),
        c.rounds_agree(),
        pct((c.total_rounds() > 0).then(|| c.rounds_agree() as f64 / c.total_rounds() as f64)),
        c.rounds_with_strategy()
    );
    println!("rules: {}", haifu_imitate::estimator::RULES);
    println!(
        "{:<10} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "strategy", "estimated", "both", "realised", "precision", "recall"
    );
    for (n, (e, h, r)) in names[1..].iter().zip(per) {
        let ratio = |a: u64, b: u64| pct((b > 0).then(|| a as f64 / b as f64));
        println!("{n:<10} {e:>10} {h:>10} {r:>10} {:>10} {:>10}", ratio(h, e), ratio(h, r));
    }
    println!("rounds: estimate (rows) x realised strategies (columns)");
    let cols: Vec<usize> = (0..8).filter(|&r| c.rounds.iter().any(|row| row[r] > 0)).collect();
    print!("{:<14}", "");
    for &r in &cols {
        print!(" {:>16}", realised(r));
    }
    println!();
    for (n, row) in names.iter().zip(&c.rounds) {
        print!("{n:<14}");
        for &r in &cols {
            print!(" {:>16}", row[r]);
        }
        println!();
    }
    Ok(())
}
