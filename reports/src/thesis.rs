//! `haifu report thesis`: every table of the thesis's chapters 5 and 6 (seed 001, SPEC 4.2) computed on the
//! user's data, each beside the thesis's own figure. The thesis figures are facts quoted from SPEC 4.2 (82
//! strong Tenhou houou players, generation 2018, test 2019); they are shown for comparison, never used.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde_json::Value;

use haifu_imitate::eval::{self, EvalOptions, TableVariant};
use haifu_imitate::experiments::{learning_curve, own_vs_all, turn_tests, TwoByTwo, TURN_BUCKETS};
use haifu_imitate::{LoadOptions, Selection, StrategyMode, Tables, TestData};
use haifu_mining::mine::{Backend, RoundsMode, StrategyRounds};
use haifu_mining::report::{Cell, Table};
use haifu_mining::{stats, MineOptions, ALL_SCOPE};

/// What the report is built from.
#[derive(Clone, Debug)]
pub struct ThesisOptions {
    /// The dataset (`haifu ingest`): test decisions, and the rounds for 5.1 and 5.2.
    pub dataset: PathBuf,
    /// The generation tables (`haifu mine`); their `meta.json` gives the generation years and options.
    pub tables: PathBuf,
    pub out: PathBuf,
    /// Test years (must not be generation years).
    pub test_years: Vec<i32>,
    /// Test players: those with an own table and at least this many games in the test years.
    pub min_games: u32,
    /// The player of the single-player tables (5.4, 5.6): default, the one with the most sequences.
    pub player: Option<String>,
    pub strategy: StrategyMode,
    pub include_riichi: bool,
    /// Shares of the generation games for the learning curve; empty skips it.
    pub fractions: Vec<f64>,
    /// Tables that hold bot scopes (6.5), and the bot scopes in them; `None` skips 6.5.
    pub bots: Option<(PathBuf, Vec<String>)>,
    /// Also write the report as one self-contained HTML file with charts (PNG copies in `charts/` beside it).
    pub html: Option<PathBuf>,
    /// Runs of `haifu train` whose training curves and test figures go beside the tables' (`metrics.csv`).
    pub neural: Vec<PathBuf>,
}

/// What [`thesis`] wrote.
#[derive(Debug)]
pub struct ThesisReport {
    pub tables: Vec<Table>,
    /// The HTML file, the PNG charts, and the charts that could not be drawn (why).
    pub html: Option<(PathBuf, Vec<PathBuf>, Vec<String>)>,
}

/// The generation options recorded in `meta.json` by `haifu mine`.
pub(crate) fn generation(meta: Option<&Value>) -> MineOptions {
    let o = meta.and_then(|m| m.get("options"));
    let get = |k: &str| o.and_then(|o| o.get(k));
    let years = get("years")
        .and_then(Value::as_array)
        .map(|v| v.iter().filter_map(Value::as_i64).map(|y| y as i32).collect())
        .unwrap_or_default();
    let text = |k: &str| get(k).and_then(Value::as_str).unwrap_or("");
    MineOptions {
        years,
        rounds: text("rounds").parse().unwrap_or(RoundsMode::All),
        strategy_rounds: text("strategy_rounds").parse().unwrap_or(StrategyRounds::Winner),
        engine: Backend::Rust,
        ..Default::default()
    }
}

fn pct(c: Option<f64>) -> Cell {
    Cell::opt_percent(c)
}

/// Builds every table, writes each as CSV, Markdown and JSON into `out`, and `out/README.md` with all of
/// them in order (and the HTML page when asked). Returns the tables.
pub fn thesis(o: &ThesisOptions, progress: &dyn Fn(&str)) -> Result<ThesisReport> {
    let mut tables: Vec<Table> = Vec::new();
    let meta = haifu_mining::tables::read_meta(&o.tables)?;
    let gen = generation(meta.as_ref());
    if gen.years.iter().any(|y| o.test_years.contains(y)) {
        bail!("test years {:?} overlap the tables' generation years {:?}", o.test_years, gen.years);
    }
    let gen_text = haifu_mining::dataset::years_text(&gen.years);
    let test_text = haifu_mining::dataset::years_text(&o.test_years);
    let options_line = format!(
        "generation: years {gen_text}, rounds {}, strategy rounds {} | test: years {test_text}, players with >= {} games, \
         strategy {}, in-riichi discards {}",
        gen.rounds,
        gen.strategy_rounds,
        o.min_games,
        o.strategy.name(),
        if o.include_riichi { "included" } else { "left out" }
    );

    let player = chapter5(o, &gen, &mut tables, progress)?;

    progress("6.1-6.3 match rates per table");
    let data = TestData::load(
        &o.dataset,
        &Selection { years: o.test_years.clone(), players: None, min_games: Some(o.min_games) },
    )?;
    let loaded = Tables::load(&o.tables, &LoadOptions { strategies: o.strategy.strategies(), ..Default::default() })?;
    // test players need an own table
    let data = data.retain_players(|p| loaded.has_scope(p));
    if data.players.is_empty() {
        bail!(
            "no player with >= {} games in years {test_text} has a table in {}: lower --min-games or mine those players",
            o.min_games,
            o.tables.display()
        );
    }
    let opts = EvalOptions { strategy: o.strategy, include_riichi: o.include_riichi };
    let report = eval::run(&data, &loaded, &TableVariant::EVERY, &opts)?;
    tables.extend(match_rate_tables(&report, &options_line));
    let (places, points) = stats::placements(&o.dataset, &o.test_years, &data.players)?;
    tables.extend([places, points]);
    if !o.neural.is_empty() {
        tables.push(crate::pages::neural_runs(&o.neural)?);
    }
    progress("6.4 and 6.6 own vs all, by turn");
    tables.extend(own_vs_all_tables(&data, &loaded, &opts)?);
    if !o.fractions.is_empty() {
        progress("learning curve");
        tables.push(learning_curve_table(o, &gen, &data, &opts, &options_line)?);
    }

    if let Some((bot_tables, bots)) = &o.bots {
        progress("6.5 humans and bots");
        tables.extend(humans_and_bots(&o.tables, bot_tables, bots, &player)?);
    }

    write(o, &tables, &options_line)?;
    let html = match &o.html {
        None => None,
        Some(path) => {
            progress("HTML and charts");
            let (pngs, problems) = crate::pages::thesis_page(&tables, &options_line).write(path)?;
            Some((path.clone(), pngs, problems))
        }
    };
    Ok(ThesisReport { tables, html })
}

/// Chapter 5: yaku and strategies (5.1, 5.2), the sequence tables (5.3-5.6); returns the single player of
/// 5.4 and 5.6.
fn chapter5(o: &ThesisOptions, gen: &MineOptions, tables: &mut Vec<Table>, progress: &dyn Fn(&str)) -> Result<String> {
    progress("5.1-5.2 yaku and strategies");
    let mut t = stats::yaku_frequency(&o.dataset, &gen.years)?;
    t.columns.push("thesis %".into());
    let thesis_51 = [
        ("01", 42.54),
        ("10-20", 38.71),
        ("00", 25.19),
        ("08", 22.03),
        ("07", 20.36),
        ("23", 0.826),
        ("35", 0.523),
        ("33", 0.278),
    ];
    for row in &mut t.rows {
        let id = match &row[0] {
            Cell::Text(s) => s.clone(),
            _ => String::new(),
        };
        let fig = thesis_51.iter().find(|(k, _)| *k == id).map_or(Cell::Empty, |&(_, v)| Cell::Float(v, 3));
        row.push(fig);
    }
    tables.push(t);
    let mut t = stats::strategy_years(&o.dataset, &[])?;
    t.note("thesis (Tenhou houou, 2012): won with tanyao 69,449, chanta+junchan 3,410, yakuhai 102,602 rounds");
    tables.push(t);

    progress("5.3-5.6 sequence tables");
    let mut t = stats::top_sequences(&o.tables, ALL_SCOPE, 10, 3)?;
    t.note("thesis tops: tanyao (6789, 678) 15,860; chanta (2789, 789) 2,478; yakuhai (467, 67) 18,528");
    tables.push(t);
    let player = match &o.player {
        Some(p) => p.clone(),
        None => stats::heaviest_scopes(&o.tables, 1)?.pop().unwrap_or_else(|| ALL_SCOPE.to_string()),
    };
    let scopes = vec![player.clone(), ALL_SCOPE.to_string()];
    let mut t = stats::histogram(&o.tables, &scopes)?;
    t.note("thesis: sequences seen once are 56% of one heavy player's, 43% of all players'; top pair (4, -)");
    tables.push(t);
    let mut t = stats::hand_matches(&o.dataset, &gen.years, &o.test_years, None)?;
    t.note("thesis: 0 hands of one year found in another");
    tables.push(t);
    let mut t = stats::coverage(&o.tables, &scopes)?;
    t.note("thesis: one player 11,872 sequences, all players 135,675 (its space count: about 1,831,410)");
    tables.push(t);

    Ok(player)
}

/// 6.1-6.3: each test player's match rates with every table variant, and the pooled headline.
fn match_rate_tables(report: &eval::EvalReport, options_line: &str) -> Vec<Table> {
    let mut tables = Vec::new();
    let mut t = Table::new(
        "match_rates",
        "Own table vs other players' tables vs all players (thesis 6.1-6.3)",
        &[
            "player",
            "games",
            "N_all",
            "coverage own",
            "R_first own",
            "R_top3 own",
            "R_first others",
            "R_top3 others",
            "R_top3 others sd",
            "R_first all",
            "R_top3 all",
            "coverage all",
            "R_first all-but-own",
            "R_top3 all-but-own",
        ],
    );
    t.note(options_line);
    t.note(
        "others = the mean over every other test player's table (with the sd of R_top3 over those tables); percentages",
    );
    t.note("thesis, player A: own 45.39% / 69.56% vs others 45.36% / 68.82% (first / top-3); all 72.56% top-3");
    let variant = |p: &eval::PlayerReport, v: TableVariant| p.variants.iter().find(|r| r.variant == v).cloned();
    for p in &report.players {
        let (Some(own), Some(all), Some(oth), Some(abo)) = (
            variant(p, TableVariant::Own),
            variant(p, TableVariant::All),
            variant(p, TableVariant::Others),
            variant(p, TableVariant::AllButOwn),
        ) else {
            continue;
        };
        let others = oth.others.unwrap_or_default();
        let mean = |s: &eval::Spread| (s.n > 0).then_some(s.mean);
        t.push(vec![
            Cell::text(&p.player),
            Cell::int(p.games),
            Cell::int(own.counts.n_all),
            pct(own.counts.coverage()),
            pct(own.counts.r_first()),
            pct(own.counts.r_top3()),
            pct(mean(&others.r_first)),
            pct(mean(&others.r_top3)),
            pct((others.r_top3.n > 0).then_some(others.r_top3.sd)),
            pct(all.counts.r_first()),
            pct(all.counts.r_top3()),
            pct(all.counts.coverage()),
            pct(abo.counts.r_first()),
            pct(abo.counts.r_top3()),
        ]);
    }
    tables.push(t);

    let mut t = Table::new(
        "headline",
        "Headline: candidates, first match, top-3 (thesis: 62% / 42% / 70%)",
        &["table", "N_all", "answered", "coverage", "R_first", "R_top3", "in-riichi left out"],
    );
    t.note(options_line);
    t.note("pooled over the test players; `others` pools each player's mean counts over the other tables");
    for (v, c) in &report.overall {
        t.push(vec![
            Cell::text(v.name()),
            Cell::int(c.n_all),
            Cell::int(c.answered()),
            pct(c.coverage()),
            pct(c.r_first()),
            pct(c.r_top3()),
            Cell::int(c.in_riichi),
        ]);
    }
    tables.push(t);

    tables
}

/// 6.4 and 6.6: own table against the all-players table on the decisions both answer, and by turn, with the
/// paired t-tests.
fn own_vs_all_tables(data: &TestData, loaded: &Tables, opts: &EvalOptions) -> Result<Vec<Table>> {
    let mut tables = Vec::new();
    let per_player: Vec<(TwoByTwo, haifu_imitate::experiments::TurnSplit)> = {
        use rayon::prelude::*;
        data.players.par_iter().map(|p| own_vs_all(data, loaded, p, opts)).collect::<Result<_>>()?
    };
    let mut t = Table::new(
        "own_vs_all_2x2",
        "Top-3 hits, own table vs all players' table, on decisions both answer (thesis 6.4)",
        &["player", "both hit", "own only", "all only", "neither", "total", "answered by own only", "by all only"],
    );
    t.note("thesis, player A: both 80,175; own only 1,992; all only 5,824; neither 35,869");
    let mut sum = TwoByTwo::default();
    let row = |name: &str, x: &TwoByTwo| {
        vec![
            Cell::text(name),
            Cell::int(x.both),
            Cell::int(x.own_only),
            Cell::int(x.all_only),
            Cell::int(x.neither),
            Cell::int(x.total()),
            Cell::int(x.answered_own_only),
            Cell::int(x.answered_all_only),
        ]
    };
    for (name, (x, _)) in data.players.iter().zip(&per_player) {
        sum.add(x);
        t.push(row(name, x));
    }
    t.push(row("(all test players)", &sum));
    tables.push(t);

    let mut t = Table::new(
        "turns",
        "R_top3 by turn, own / all / others (thesis 6.6)",
        &["player", "turns", "N own", "own", "all", "others"],
    );
    t.note(
        "thesis, player A, turns <=4: 75.50 / 67.61 / 66.85; >=5: 81.63 / 75.72 / 73.94; >=7: 74.90 / 67.70 / 67.02",
    );
    t.note(">=7 is part of >=5; `others` = mean R_top3 over the other test players' tables");
    for (_, s) in &per_player {
        for (k, (label, ..)) in TURN_BUCKETS.iter().enumerate() {
            t.push(vec![
                Cell::text(&s.player),
                Cell::text(*label),
                Cell::int(s.own[k].answered()),
                pct(s.own[k].r_top3()),
                pct(s.all[k].r_top3()),
                pct(s.others[k]),
            ]);
        }
    }
    tables.push(t);
    let splits: Vec<_> = per_player.into_iter().map(|(_, s)| s).collect();
    let tests = turn_tests(&splits);
    let mut t = Table::new(
        "turn_tests",
        "Paired t-tests across test players of R_top3 by turn (thesis 6.6)",
        &["turns", "comparison", "players", "mean difference (points)", "t", "df", "p (two-sided)"],
    );
    for (k, (label, ..)) in TURN_BUCKETS.iter().enumerate() {
        for (name, test) in [("own - all", tests[k].0), ("own - others", tests[k].1)] {
            match test {
                Some(x) => t.push(vec![
                    Cell::text(*label),
                    Cell::text(name),
                    Cell::int(x.n as u64),
                    Cell::Float(100.0 * x.mean_diff, 2),
                    Cell::Float(x.t, 3),
                    Cell::Float(x.df, 0),
                    Cell::Float(x.p, 4),
                ]),
                None => t.push(vec![
                    Cell::text(*label),
                    Cell::text(name),
                    Cell::Empty,
                    Cell::Empty,
                    Cell::Empty,
                    Cell::Empty,
                    Cell::Empty,
                ]),
            };
        }
    }
    tables.push(t);

    Ok(tables)
}

/// The learning curve: match rate and coverage against the share of the generation data mined.
fn learning_curve_table(
    o: &ThesisOptions,
    gen: &MineOptions,
    data: &TestData,
    opts: &EvalOptions,
    options_line: &str,
) -> Result<Table> {
    let points = learning_curve(&o.dataset, gen, &o.fractions, data, opts)?;
    let mut t = Table::new(
        "learning_curve",
        "Match rate and coverage against the generation data mined (the thesis's stated limit)",
        &[
            "share of games",
            "decisions mined",
            "ALL pairs",
            "coverage own",
            "R_first own",
            "R_top3 own",
            "coverage all",
            "R_first all",
            "R_top3 all",
        ],
    );
    t.note(options_line);
    t.note("a share keeps the games whose id hashes below it: each share's games include the smaller shares'");
    for p in &points {
        t.push(vec![
            Cell::Float(p.fraction, 4),
            Cell::int(p.decisions_mined),
            Cell::int(p.all_pairs),
            pct(p.own.coverage()),
            pct(p.own.r_first()),
            pct(p.own.r_top3()),
            pct(p.all.coverage()),
            pct(p.all.r_first()),
            pct(p.all.r_top3()),
        ]);
    }
    Ok(t)
}

/// 6.5: the most frequent sequences of the humans' all-players table and of each bot, and how decisive each
/// is (the humans from the generation tables `dir`, the bots from `bot_dir`).
fn humans_and_bots(dir: &Path, bot_dir: &Path, bots: &[String], human: &str) -> Result<Vec<Table>> {
    let mut out = Vec::new();
    let scopes = std::iter::once((dir, ALL_SCOPE.to_string())).chain(bots.iter().map(|b| (bot_dir, b.clone())));
    for (d, scope) in scopes {
        let mut t = stats::top_sequences(d, &scope, 10, 3)?;
        t.name = format!("top_sequences_{}", file_stem(&scope));
        t.title = format!("Most frequent sequences of {scope} (thesis 6.5)");
        t.note(format!("tables: {}", d.display()));
        t.note("thesis: mjai-manue's top chanta sequence (1239, 123)");
        out.push(t);
    }
    let humans: Vec<String> =
        std::iter::once(ALL_SCOPE.to_string()).chain((human != ALL_SCOPE).then(|| human.to_string())).collect();
    let mut t = stats::decisiveness(dir, &humans, 20)?;
    let bot_rows = stats::decisiveness(bot_dir, bots, 20)?;
    t.rows.extend(bot_rows.rows.into_iter().map(|mut r| {
        if let Cell::Text(name) = &mut r[0] {
            name.push_str(" (bot)");
        }
        r
    }));
    t.note("thesis: the bot spreads its choices among equal options (higher entropy than humans)");
    out.push(t);
    Ok(out)
}

/// A name as a file name: ASCII letters, digits, `-` and `_` kept, anything else `_`.
pub(crate) fn file_stem(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}

fn write(o: &ThesisOptions, tables: &[Table], options_line: &str) -> Result<()> {
    let mut index = String::from("# haifu: the thesis's tables on this data\n\n");
    index.push_str(&format!(
        "Dataset `{}`, tables `{}`.\n\n{options_line}\n\n",
        o.dataset.display(),
        o.tables.display()
    ));
    index
        .push_str("Each table is also written as CSV and JSON beside this file. The thesis figures (SPEC.md 4.2) are ");
    index.push_str("quoted for comparison only.\n\n");
    for t in tables {
        t.write(&o.out)?;
        index.push_str(&t.to_markdown());
        index.push('\n');
    }
    let path = o.out.join("README.md");
    std::fs::write(&path, index).with_context(|| format!("writing {}", path.display()))
}
