//! The HTML pages of the reports: the thesis report's tables with their charts.

use haifu_mining::report::{Cell, Table};

use crate::charts::{Chart, Plot, Series};
use crate::html::{Block, Page};

/// A cell as a number: counts as they are, percentages in percent.
pub(crate) fn number(c: &Cell) -> Option<f64> {
    match c {
        Cell::Int(n) => Some(*n as f64),
        Cell::Percent(f) => Some(100.0 * f),
        Cell::Float(f, _) => Some(*f),
        _ => None,
    }
}

pub(crate) fn text(c: &Cell) -> String {
    c.shown()
}

/// The values of column `name` in each row.
fn column<'a>(t: &'a Table, name: &str) -> Option<impl Iterator<Item = &'a Cell> + 'a> {
    let i = t.columns.iter().position(|c| c == name)?;
    Some(t.rows.iter().filter_map(move |r| r.get(i)))
}

/// An occurrence bucket's start and width (`7`: 7 and 1, `10-49`: 10 and 40); none for the open `>=100`.
fn bucket(s: &str) -> Option<(f64, f64)> {
    let (a, b) = match s.split_once('-') {
        Some((a, b)) => (a.trim().parse::<f64>().ok()?, b.trim().parse::<f64>().ok()?),
        None => {
            let a = s.trim().parse::<f64>().ok()?;
            (a, a)
        }
    };
    Some((a, b - a + 1.0))
}

/// 5.4: distinct sequences by how often they occur, per scope, log-log.
fn occurrence_chart(t: &Table) -> Option<Chart> {
    let scopes: Vec<String> = column(t, "scope")?.map(text).collect();
    let buckets: Vec<Option<(f64, f64)>> = column(t, "occurrences")?.map(|c| bucket(&text(c))).collect();
    let counts: Vec<Option<f64>> = column(t, "sequences")?.map(number).collect();
    let mut series: Vec<Series> = Vec::new();
    for ((scope, x), y) in scopes.iter().zip(buckets).zip(counts) {
        let (Some((x, width)), Some(y)) = (x, y) else { continue };
        if y <= 0.0 {
            continue;
        }
        // a wide bucket's count spread over its occurrence values, so that the points lie on one curve
        let y = y / width;
        match series.iter_mut().find(|s| &s.name == scope) {
            Some(s) => s.points.push((x, y)),
            None => series.push(Series { name: scope.clone(), points: vec![(x, y)] }),
        }
    }
    for s in &mut series {
        s.points.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    (!series.is_empty()).then(|| Chart {
        name: "occurrences".into(),
        title: "Distinct sequences by occurrence count (log-log)".into(),
        x_label: "occurrences (start of the bucket)".into(),
        y_label: "distinct sequences per occurrence value".into(),
        plot: Plot::Lines { series, log_x: true, log_y: true },
    })
}

/// 6.1-6.3: R_top3 of each player with its own table, the others' and ALL.
fn match_rate_chart(t: &Table) -> Option<Chart> {
    let groups: Vec<String> = column(t, "player")?.map(text).collect();
    let series = ["own", "others", "all"]
        .iter()
        .filter_map(|v| Some((v.to_string(), column(t, &format!("R_top3 {v}"))?.map(number).collect())))
        .collect::<Vec<(String, Vec<Option<f64>>)>>();
    (!groups.is_empty()).then(|| Chart {
        name: "match_rates".into(),
        title: "R_top3 per player: own table, other players' tables (mean), all players' table".into(),
        x_label: "player".into(),
        y_label: "R_top3 (%)".into(),
        plot: Plot::Bars { groups, series, log_y: false },
    })
}

/// 6.6: R_top3 by turn, the mean over players of own, all and others.
fn turns_chart(t: &Table) -> Option<Chart> {
    let buckets: Vec<String> = column(t, "turns")?.map(text).collect();
    let mut groups: Vec<String> = Vec::new();
    for b in &buckets {
        if !groups.contains(b) {
            groups.push(b.clone());
        }
    }
    let series = ["own", "all", "others"]
        .iter()
        .filter_map(|v| {
            let values: Vec<Option<f64>> = column(t, v)?.map(number).collect();
            let means = groups
                .iter()
                .map(|g| {
                    let xs: Vec<f64> =
                        buckets.iter().zip(&values).filter(|(b, _)| *b == g).filter_map(|(_, x)| *x).collect();
                    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
                })
                .collect();
            Some((v.to_string(), means))
        })
        .collect::<Vec<_>>();
    (!groups.is_empty()).then(|| Chart {
        name: "turns".into(),
        title: "R_top3 by turn (mean over the test players)".into(),
        x_label: "turns".into(),
        y_label: "R_top3 (%)".into(),
        plot: Plot::Bars { groups, series, log_y: false },
    })
}

/// Learning curve: coverage and R_top3 against the share of the generation games.
fn learning_chart(t: &Table) -> Option<Chart> {
    // the table's share is a fraction, the axis says percent
    let share: Vec<Option<f64>> = column(t, "share of games")?.map(|c| number(c).map(|f| 100.0 * f)).collect();
    let series = ["coverage own", "coverage all", "R_top3 own", "R_top3 all"]
        .iter()
        .filter_map(|name| {
            let ys: Vec<Option<f64>> = column(t, name)?.map(number).collect();
            let points = share.iter().zip(ys).filter_map(|(x, y)| Some(((*x)?, y?))).collect();
            Some(Series { name: name.to_string(), points })
        })
        .collect::<Vec<_>>();
    (!share.is_empty()).then(|| Chart {
        name: "learning_curve".into(),
        title: "Coverage and R_top3 against the generation data".into(),
        x_label: "share of the generation games (%)".into(),
        y_label: "%".into(),
        plot: Plot::Lines { series, log_x: false, log_y: false },
    })
}

/// 5.1: the most frequent yaku beside the thesis's share.
fn yaku_chart(t: &Table) -> Option<Chart> {
    let names: Vec<String> = column(t, "yaku")?.map(text).collect();
    let ours: Vec<Option<f64>> = column(t, "percent")?.map(number).collect();
    let thesis: Vec<Option<f64>> = column(t, "thesis %")?.map(number).collect();
    let mut rows: Vec<(String, Option<f64>, Option<f64>)> =
        names.into_iter().zip(ours).zip(thesis).map(|((n, a), b)| (n, a, b)).collect();
    rows.sort_by(|a, b| b.1.unwrap_or(0.0).total_cmp(&a.1.unwrap_or(0.0)));
    rows.truncate(12);
    let series = vec![
        ("this data".to_string(), rows.iter().map(|r| r.1).collect()),
        ("thesis".to_string(), rows.iter().map(|r| r.2).collect()),
    ];
    (!rows.is_empty()).then(|| Chart {
        name: "yaku".into(),
        title: "Share of wins with each yaku (the 12 most frequent here)".into(),
        x_label: "yaku".into(),
        y_label: "% of wins".into(),
        plot: Plot::Bars { groups: rows.into_iter().map(|r| r.0).collect(), series, log_y: false },
    })
}

/// How a table's chart is drawn from it (none when the table lacks what it needs).
type ChartOf = fn(&Table) -> Option<Chart>;

/// Final places of each test player (the share of each place).
fn placements_chart(t: &Table) -> Option<Chart> {
    let groups: Vec<String> = column(t, "player")?.map(text).collect();
    let series = ["1st", "2nd", "3rd", "4th"]
        .iter()
        .filter_map(|p| Some((p.to_string(), column(t, p)?.map(number).collect())))
        .collect::<Vec<(String, Vec<Option<f64>>)>>();
    (!groups.is_empty()).then(|| Chart {
        name: "placements".into(),
        title: "Final places of the test players".into(),
        x_label: "player".into(),
        y_label: "% of games".into(),
        plot: Plot::Bars { groups, series, log_y: false },
    })
}

/// The last epoch of each `haifu train` run, from its `metrics.csv` (and `model.json` for its name).
pub fn neural_runs(runs: &[std::path::PathBuf]) -> anyhow::Result<Table> {
    use anyhow::Context;
    let mut t = Table::new(
        "neural_runs",
        "Neural baselines: test figures of each run's epochs (haifu train's own test split)",
        &["run", "model", "epoch", "train loss", "test loss", "top-1", "top-3"],
    );
    t.note("top-1 and top-3 on the run's test positions (its --test-years), every decision but those forced by riichi");
    for run in runs {
        let path = run.join("metrics.csv");
        let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
        let model = std::fs::read_to_string(run.join("model.json"))
            .ok()
            .and_then(|m| serde_json::from_str::<serde_json::Value>(&m).ok())
            .map(|m| format!("{} x{}", m["model"].as_str().unwrap_or("?"), m["layers"]))
            .unwrap_or_default();
        for (n, line) in text.lines().enumerate().skip(1) {
            let f: Vec<&str> = line.split(',').collect();
            let num = |i: usize| -> anyhow::Result<f64> {
                f.get(i)
                    .and_then(|x| x.parse().ok())
                    .with_context(|| format!("{} line {}: column {}", path.display(), n + 1, i + 1))
            };
            t.push(vec![
                Cell::text(run.display().to_string()),
                Cell::text(model.clone()),
                Cell::int(num(0)? as i64),
                Cell::Float(num(2)?, 4),
                Cell::Float(num(3)?, 4),
                Cell::Percent(num(4)?),
                Cell::Percent(num(5)?),
            ]);
        }
    }
    Ok(t)
}

/// Each run's test top-1 and top-3 by epoch.
fn neural_chart(t: &Table) -> Option<Chart> {
    let runs: Vec<String> = column(t, "run")?.map(text).collect();
    let epochs: Vec<Option<f64>> = column(t, "epoch")?.map(number).collect();
    let mut series: Vec<Series> = Vec::new();
    for metric in ["top-1", "top-3"] {
        let values: Vec<Option<f64>> = column(t, metric)?.map(number).collect();
        for ((run, e), v) in runs.iter().zip(&epochs).zip(values) {
            let (Some(e), Some(v)) = (e, v) else { continue };
            let name = format!("{} {metric}", run.rsplit('/').next().unwrap_or(run));
            match series.iter_mut().find(|s| s.name == name) {
                Some(s) => s.points.push((*e, v)),
                None => series.push(Series { name, points: vec![(*e, v)] }),
            }
        }
    }
    (!series.is_empty()).then(|| Chart {
        name: "neural".into(),
        title: "Neural baselines: test top-1 and top-3 by epoch".into(),
        x_label: "epoch".into(),
        y_label: "%".into(),
        plot: Plot::Lines { series, log_x: false, log_y: false },
    })
}

/// The distribution of final points (bars by bin).
fn points_chart(t: &Table) -> Option<Chart> {
    let from: Vec<String> = column(t, "from")?.map(text).collect();
    let share: Vec<Option<f64>> = column(t, "percent")?.map(number).collect();
    (!from.is_empty()).then(|| Chart {
        name: "final_points".into(),
        title: "Final points (with uma) of the test players' games".into(),
        x_label: "final points, bin start".into(),
        y_label: "% of games".into(),
        plot: Plot::Bars { groups: from, series: vec![("games".into(), share)], log_y: false },
    })
}

/// The row of `t` whose `key_column` reads `key`, its `column` as a number.
fn value_at(t: &Table, key_column: &str, key: &str, column: &str) -> Option<f64> {
    let k = t.columns.iter().position(|c| c == key_column)?;
    let c = t.columns.iter().position(|c| c == column)?;
    t.rows.iter().find(|r| r.get(k).map(text).as_deref() == Some(key)).and_then(|r| number(r.get(c)?))
}

/// What the thesis report found, in sentences computed from its own tables (a table that is missing, or a
/// figure it does not give, leaves its sentence out).
pub fn thesis_findings(tables: &[Table]) -> Vec<String> {
    let find = |name: &str| tables.iter().find(|t| t.name == name);
    let mut out = Vec::new();
    if let Some(h) = find("headline") {
        let all = |c: &str| value_at(h, "table", "all", c);
        if let (Some(cov), Some(first), Some(top3)) = (all("coverage"), all("R_first"), all("R_top3")) {
            out.push(format!(
                "The all-players table proposes a discard for {cov:.1}% of the test decisions; its first candidate is \
                 the discard played {first:.1}% of the time, one of its first three {top3:.1}% (the thesis: 62%, 42%, 70%)."
            ));
        }
        if let (Some(own), Some(others)) =
            (value_at(h, "table", "own", "R_top3"), value_at(h, "table", "others", "R_top3"))
        {
            let players = find("match_rates").map_or(0, |t| t.rows.len());
            out.push(format!(
                "A player's own table has the discard played among its first three {own:.1}% of the time, the other \
                 players' tables {others:.1}%: {:+.1} points, pooled over {players} test players.",
                own - others
            ));
        }
    }
    if let Some(t) = find("turn_tests") {
        let col = |name: &str| t.columns.iter().position(|c| c == name);
        let (Some(turns), Some(cmp), Some(n), Some(diff), Some(p)) =
            (col("turns"), col("comparison"), col("players"), col("mean difference (points)"), col("p (two-sided)"))
        else {
            return out;
        };
        let clearest = t
            .rows
            .iter()
            .filter(|r| r.get(cmp).map(text).as_deref() == Some("own - others"))
            .filter_map(|r| Some((text(r.get(turns)?), number(r.get(diff)?)?, number(r.get(p)?)?, number(r.get(n)?)?)))
            .min_by(|a, b| a.2.total_cmp(&b.2));
        if let Some((turns, diff, p, n)) = clearest {
            out.push(format!(
                "By turn, own against others differs most in turns {turns}: {diff:+.2} points of top-3, p = {p:.4} \
                 (paired t-test over {n:.0} players)."
            ));
        }
    }
    if let Some(t) = find("learning_curve") {
        let points: Vec<(f64, f64, f64)> = t
            .rows
            .iter()
            .filter_map(|r| {
                let at = |c: &str| number(r.get(t.columns.iter().position(|x| x == c)?)?);
                Some((at("share of games")?, at("R_top3 all")?, at("coverage all")?))
            })
            .collect();
        if let (Some(a), Some(b), true) = (points.first(), points.last(), points.len() > 1) {
            out.push(format!(
                "Mining {:.1}% of the generation games gives the all-players table a top-3 of {:.1}% (coverage {:.1}%); \
                 all of them, {:.1}% (coverage {:.1}%).",
                100.0 * a.0,
                a.1,
                a.2,
                b.1,
                b.2
            ));
        }
    }
    out
}

/// Each table of the thesis report, in order, with a chart after those that have one; the findings first.
pub fn thesis_page(tables: &[Table], options_line: &str) -> Page {
    let mut page = Page::new("haifu: the thesis's tables on this data");
    let findings = thesis_findings(tables);
    if !findings.is_empty() {
        page.push(Block::Findings(findings));
    }
    page.push(Block::Paragraph(format!("Options: {options_line}")));
    page.push(Block::Paragraph(
        "Each table beside the thesis's own figure where it gives one (seed 001: 82 Tenhou houou players, \
         generation 2018, test 2019). Charts are drawn from the tables above them."
            .into(),
    ));
    let charts: [(&str, ChartOf); 8] = [
        ("final_points", points_chart),
        ("neural_runs", neural_chart),
        ("placements", placements_chart),
        ("histogram", occurrence_chart),
        ("match_rates", match_rate_chart),
        ("turns", turns_chart),
        ("learning_curve", learning_chart),
        ("yaku_frequency", yaku_chart),
    ];
    for t in tables {
        page.push(Block::Table(t.clone()));
        if let Some((_, chart)) = charts.iter().find(|(n, _)| *n == t.name) {
            if let Some(c) = chart(t) {
                page.push(Block::Chart(c));
            }
        }
    }
    page
}

/// `haifu style accuracy --html`: identification on unseen games, a table and a chart.
pub fn accuracy_page(r: &haifu_style::accuracy::AccuracyReport, db: &str, dataset: &str, years: &[i32]) -> Page {
    let mut t = Table::new(
        "identification",
        "Identification on unseen games: the right player first (top-1) or in the first five (top-5)",
        &[
            "games per trial",
            "players",
            "trials",
            "top-1",
            "top-1 95% low",
            "top-1 95% high",
            "top-5",
            "chance top-1",
            "chance top-5",
            "mean place",
            "sequences alone top-1",
            "rates alone top-1",
            "habits alone top-1",
            "choices alone top-1",
            "plain baseline top-1",
            "embedding top-1",
        ],
    );
    for x in &r.rows {
        t.push(vec![
            Cell::int(x.games as u64),
            Cell::int(x.players as u64),
            Cell::int(x.trials as u64),
            Cell::Percent(x.top1),
            Cell::Percent(x.top1_interval.0),
            Cell::Percent(x.top1_interval.1),
            Cell::Percent(x.top5),
            Cell::Percent(x.chance_top1),
            Cell::Percent(x.chance_top5),
            Cell::Float(x.mean_rank, 1),
            Cell::Percent(x.sequences_only[0]),
            Cell::Percent(x.rates_only[0]),
            Cell::Percent(x.habits_only[0]),
            Cell::Percent(x.choices_only[0]),
            Cell::Percent(x.baseline[0]),
            Cell::opt_percent(x.embedding.map(|e| e[0])),
        ]);
    }
    t.note(format!(
        "database {db}; test games of {dataset}, years {years:?}: {} games, {:.0} player-games scored per second",
        r.test_games, r.games_per_s
    ));
    if !r.overlap.is_empty() {
        t.note(format!("test years {:?} are among the database's years: the figures flatter", r.overlap));
    }
    let groups: Vec<String> = r.rows.iter().map(|x| format!("{} game(s)", x.games)).collect();
    let series = vec![
        ("top-1".to_string(), r.rows.iter().map(|x| Some(100.0 * x.top1)).collect()),
        ("top-5".to_string(), r.rows.iter().map(|x| Some(100.0 * x.top5)).collect()),
        ("chance top-1".to_string(), r.rows.iter().map(|x| Some(100.0 * x.chance_top1)).collect()),
        ("chance top-5".to_string(), r.rows.iter().map(|x| Some(100.0 * x.chance_top5)).collect()),
    ];
    let mut page = Page::new("Who played this seat? Identification on unseen games");
    let findings = accuracy_findings(r);
    if !findings.is_empty() {
        page.push(Block::Findings(findings));
    }
    page.push(Block::Paragraph(
        "Each player's games the database never saw, in blocks; each block ranked against every profiled player by \
         the log-likelihood of its sequences, shares, habits and choices (the score), and by each method of the \
         second table on the same trials (docs/STYLE.md)."
            .into(),
    ));
    page.push(Block::Table(t));
    page.push(Block::Table(methods_table(r)));
    if let Some(p) = &r.personal {
        let what = format!(
            "Each player's own discard model against everyone's, top-1 on the player's test choices (players with \
             {}+ test games)",
            p.min_test_games
        );
        page.push(Block::Table(personal_table("personal", &what, p)));
    }
    if let Some(p) = &r.personal_choices {
        let what = format!(
            "Each player's own choice model against everyone's: the more probable of taking or passing, on the \
             player's test choices (players with {}+ test games; profile choices: offers)",
            p.min_test_games
        );
        page.push(Block::Table(personal_table("personal_choices", &what, p)));
    }
    let networks = [
        ("personal_network", &r.personal_network),
        ("personal_network_refit", &r.personal_network_refit),
        ("global_network_refit", &r.global_network_refit),
    ];
    for (name, n) in networks.into_iter().filter_map(|(name, n)| n.as_ref().map(|n| (name, n))) {
        let tilted = format!("{}, against {}", capitalised(n.model()), n.against());
        let what = format!(
            "{tilted}, top-1 on the player's test positions (players with {}+ test games; the discard model has a \
             choice at {:.1}% of them)",
            n.gains.min_test_games,
            100.0 * n.covered
        );
        page.push(Block::Table(personal_table(name, &what, &n.gains)));
    }
    page.push(Block::Chart(Chart {
        name: "identification".into(),
        title: "Identification: top-1 and top-5 against chance".into(),
        x_label: "games pooled per trial".into(),
        y_label: "% of trials".into(),
        plot: Plot::Bars { groups, series, log_y: false },
    }));
    page
}

/// A personal model against everyone's: the judged players together and by thirds of their profile choices.
fn personal_table(name: &str, what: &str, p: &haifu_style::discards::PersonalGains) -> Table {
    let mut t = Table::new(
        name,
        what,
        &[
            "players",
            "profile choices (fewest)",
            "profile choices (most)",
            "better",
            "share better",
            "share 95% low",
            "share 95% high",
            "share expected at the mean gain",
            "mean gain (points)",
            "gain 95% low",
            "gain 95% high",
            "log-likelihood gain a decision",
        ],
    );
    for g in std::iter::once(&p.judged).chain(&p.thirds) {
        t.push(vec![
            Cell::int(g.players as u64),
            Cell::int(g.profile_choices.0),
            Cell::int(g.profile_choices.1),
            Cell::int(g.better as u64),
            Cell::Percent(g.share_better),
            Cell::Percent(g.share_better_interval.0),
            Cell::Percent(g.share_better_interval.1),
            Cell::Percent(g.share_better_at_mean),
            Cell::Float(g.mean_gain_points, 2),
            Cell::Float(g.mean_gain_interval.0, 2),
            Cell::Float(g.mean_gain_interval.1, 2),
            Cell::Float(g.mean_log_likelihood_gain, 4),
        ]);
    }
    t.note(
        "first row: every judged player; then the thirds by profile choices, fewest first; the share expected at \
         the mean gain: if every player gained the mean, the share the noise of their test decisions would still \
         show (docs/STYLE.md)",
    );
    if let Some(g) = &p.growth {
        t.note(format!(
            "growth: the least-squares line of the judged players' gains on log2 of their profile choices rises \
             {:+.2} points a doubling (95% {:+.2} to {:+.2}, p {:.2})",
            g.points_per_doubling, g.interval.0, g.interval.1, g.p_value
        ));
    }
    t
}

/// `text` with its first letter a capital.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// Every method on the same trials, a row per block size and method.
fn methods_table(r: &haifu_style::accuracy::AccuracyReport) -> Table {
    let mut t = Table::new(
        "methods",
        "Every method on the same trials: top-1 with its 95% interval, top-5 and the right player's mean place",
        &[
            "games per trial",
            "method",
            "top-1",
            "top-1 95% low",
            "top-1 95% high",
            "top-5",
            "mean place",
            "chance mean place",
        ],
    );
    for x in &r.rows {
        for m in &x.methods {
            t.push(vec![
                Cell::int(x.games as u64),
                Cell::Text(m.method.to_string()),
                Cell::Percent(m.top1),
                Cell::Percent(m.top1_interval.0),
                Cell::Percent(m.top1_interval.1),
                Cell::Percent(m.top5),
                Cell::Float(m.mean_place, 1),
                Cell::Float(x.chance_mean_rank, 1),
            ]);
        }
    }
    t
}

/// What identification found, in sentences computed from its figures: the smallest and the largest block, which
/// evidence carries it, and a warning when the test games were profiled.
pub fn accuracy_findings(r: &haifu_style::accuracy::AccuracyReport) -> Vec<String> {
    let mut out = Vec::new();
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    let (Some(first), Some(last)) = (r.rows.first(), r.rows.last()) else {
        return out;
    };
    out.push(format!(
        "From {} game(s) per trial the right player is named first in {} of {} trials and is among the first five in \
         {} (chance: {} and {}, {} players).",
        first.games,
        pct(first.top1),
        first.trials,
        pct(first.top5),
        pct(first.chance_top1),
        pct(first.chance_top5),
        first.players
    ));
    if last.games != first.games {
        out.push(format!(
            "Pooling {} games per trial raises top-1 to {} and top-5 to {} ({} trials); the right player's mean place \
             goes from {:.1} to {:.1}.",
            last.games,
            pct(last.top1),
            pct(last.top5),
            last.trials,
            first.mean_rank,
            last.mean_rank
        ));
    }
    let parts = [
        ("the sequences", first.sequences_only[0]),
        ("the rates", first.rates_only[0]),
        ("the habits", first.habits_only[0]),
        ("the choices", first.choices_only[0]),
    ];
    let best = parts.iter().fold(parts[0], |b, p| if p.1 > b.1 { *p } else { b });
    out.push(format!(
        "At {} game(s), alone: the sequences give a top-1 of {}, the rates {}, the habits {}, the choices {}: {} \
         carry most of the signature. The plain baseline (30 habit rates per game, linear discriminant analysis) \
         gives {} on the same trials.",
        first.games,
        pct(parts[0].1),
        pct(parts[1].1),
        pct(parts[2].1),
        pct(parts[3].1),
        best.0,
        pct(first.baseline[0])
    ));
    if let (Some(one), Some(many)) = (first.embedding, last.embedding) {
        out.push(format!(
            "The learned embedding (players ranked by the cosine of their reference games' centroid to the block's) \
             names the right player first in {} of the trials at {} game(s) and {} at {}.",
            pct(one[0]),
            first.games,
            pct(many[0]),
            last.games
        ));
    }
    for x in &r.rows {
        let best = x.methods.iter().fold(None::<&haifu_style::accuracy::Method>, |b, m| match b {
            Some(b) if b.top1 >= m.top1 => Some(b),
            _ => Some(m),
        });
        let baseline = x.methods.iter().find(|m| m.method == "baseline");
        if let (Some(best), Some(baseline)) = (best, baseline) {
            out.push(format!(
                "At {} game(s) the best method is {}: top-1 {} ({}-{}), mean place {:.1}; the plain baseline {}.",
                x.games,
                best.method,
                pct(best.top1),
                pct(best.top1_interval.0),
                pct(best.top1_interval.1),
                best.mean_place,
                pct(baseline.top1)
            ));
        }
    }
    fn network(
        n: &Option<haifu_style::discards::NetworkGains>,
    ) -> (String, &'static str, Option<&haifu_style::discards::PersonalGains>) {
        match n {
            Some(n) => (capitalised(n.model()), n.against(), Some(&n.gains)),
            None => (String::new(), "", None),
        }
    }
    let personal = [
        ("Each player's own discard model".to_string(), "everyone's", r.personal.as_ref()),
        ("Each player's own choice model".to_string(), "everyone's", r.personal_choices.as_ref()),
        network(&r.personal_network),
        network(&r.personal_network_refit),
        network(&r.global_network_refit),
    ];
    for (what, against, g) in personal.into_iter().filter_map(|(w, a, g)| g.map(|g| (w, a, &g.judged))) {
        if g.players == 0 {
            continue;
        }
        out.push(format!(
            "{what} is better than {against} for {} of {} players with {}+ test games ({}, 95%: {}-{}), by a mean \
             of {:+.2} points (95%: {:+.2} to {:+.2}).",
            g.better,
            g.players,
            haifu_style::accuracy::JUDGED_TEST_GAMES,
            pct(g.share_better),
            pct(g.share_better_interval.0),
            pct(g.share_better_interval.1),
            g.mean_gain_points,
            g.mean_gain_interval.0,
            g.mean_gain_interval.1
        ));
    }
    if !r.overlap.is_empty() {
        out.push(format!(
            "The test years {:?} are among the database's: its profiles saw these games, and the figures flatter.",
            r.overlap
        ));
    }
    out
}
