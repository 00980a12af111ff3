//! The HTML pages of the reports: the thesis report's tables with their charts.

use haifu_mining::report::{Cell, Table};

use crate::charts::{Chart, Plot, Series};
use crate::html::{Block, Page};

/// A cell as a number: counts as they are, percentages in percent.
fn number(c: &Cell) -> Option<f64> {
    match c {
        Cell::Int(n) => Some(*n as f64),
        Cell::Percent(f) => Some(100.0 * f),
        Cell::Float(f, _) => Some(*f),
        _ => None,
    }
}

fn text(c: &Cell) -> String {
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
    let share: Vec<Option<f64>> = column(t, "share of games")?.map(number).collect();
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

/// Each table of the thesis report, in order, with a chart after those that have one.
pub fn thesis_page(tables: &[Table], options_line: &str) -> Page {
    let mut page = Page::new("haifu: the thesis's tables on this data");
    page.push(Block::Paragraph(options_line.to_string()));
    page.push(Block::Paragraph(
        "Each table beside the thesis's own figure where it gives one (seed 001: 82 Tenhou houou players, \
         generation 2018, test 2019). Charts are drawn from the tables above them."
            .into(),
    ));
    let charts: [(&str, ChartOf); 5] = [
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
