//! `haifu report bots`: bots beside humans, each side a style database (`haifu style build`): the humans'
//! database's ALL against each bot of the bots' database (mjai logs of bots, or the simulator's style bots,
//! ingested and built like any players): rates, decisiveness (entropy of the discard given the shape), the
//! most frequent sequences, the Jensen-Shannon distance of the sequences and the shapes where they choose most
//! differently.

use std::path::Path;

use anyhow::Result;

use haifu_imitate::ALL_SCOPE;
use haifu_mining::report::{Cell, Table};
use haifu_mining::stats;
use haifu_style::compare::{js_distance, shape_differences, Distribution};
use haifu_style::{Profile, StyleDb, RATES};

use crate::charts::{Chart, Plot};
use crate::html::{Block, Page};
use crate::pages::{number, text};

fn distribution(db: &StyleDb, scope: &str) -> Result<Distribution> {
    Ok(Distribution::of(db.tables(Some(&[scope]))?.get(scope)))
}

/// Builds the report into `out` (index.html with charts/, README.md, each table as CSV, Markdown and JSON).
pub fn bots_report(
    humans: &StyleDb,
    bots_db: &StyleDb,
    bots: &[String],
    out: &Path,
) -> Result<(Vec<Table>, Vec<String>)> {
    let profiles: Vec<_> = bots.iter().map(|b| bots_db.profile(b)).collect::<Result<_>>()?;
    let mut tables = Vec::new();

    tables.push(rates_table(humans, bots_db, &profiles, bots));

    let mut decisive = stats::decisiveness(&humans.dir, &[ALL_SCOPE.to_string()], 20)?;
    let bot_rows = stats::decisiveness(&bots_db.dir, bots, 20)?;
    for mut r in bot_rows.rows {
        if let Cell::Text(name) = &mut r[0] {
            name.push_str(" (bot)");
        }
        decisive.rows.push(r);
    }
    tables.push(decisive);

    let human = distribution(humans, ALL_SCOPE)?;
    let mut distance = Table::new(
        "distance",
        "How far each bot's sequences are from the humans'",
        &["bot", "sequences", "Jensen-Shannon distance"],
    );
    let mut shapes = Vec::new();
    for b in bots {
        let d = distribution(bots_db, b)?;
        distance.push(vec![Cell::text(b.clone()), Cell::int(d.total), Cell::Float(js_distance(&d, &human), 4)]);
        shapes.push(shapes_table(&format!("shapes_{}", tables.len() + shapes.len()), b, &d, &human));
    }
    tables.push(distance);
    let tops = top_tables(humans, bots_db, bots)?;

    let mut page = Page::new("Humans against bots");
    let findings = bots_findings(&tables);
    if !findings.is_empty() {
        page.push(Block::Findings(findings));
    }
    page.push(Block::Paragraph(format!(
        "Humans: {} ({} players profiled, {} games). Bots: {} of {}.",
        humans.dir.display(),
        humans.profiles.len(),
        humans.meta.games,
        bots.join(", "),
        bots_db.dir.display()
    )));
    page.push(Block::Table(tables[0].clone()));
    let human_rates = humans.all.rates();
    let shares: Vec<usize> =
        RATES.iter().enumerate().filter(|(_, r)| r.name.ends_with("_rate")).map(|(i, _)| i).collect();
    let mut series = vec![("humans".to_string(), shares.iter().map(|&i| human_rates[i].map(|x| 100.0 * x)).collect())];
    series.extend(
        profiles
            .iter()
            .map(|p| (p.player.clone(), shares.iter().map(|&i| p.tally.rates()[i].map(|x| 100.0 * x)).collect())),
    );
    page.push(Block::Chart(Chart {
        name: "bot_rates".into(),
        title: "Rates: humans and bots".into(),
        x_label: "rate".into(),
        y_label: "%".into(),
        plot: Plot::Bars {
            groups: shares.iter().map(|&i| RATES[i].name.trim_end_matches("_rate").to_string()).collect(),
            series,
            log_y: false,
        },
    }));
    page.push(Block::Heading("Decisiveness and distance".into()));
    page.push(Block::Table(tables[1].clone()));
    page.push(Block::Table(tables[2].clone()));
    page.push(Block::Heading("Where they differ most".into()));
    for t in &shapes {
        page.push(Block::Table(t.clone()));
    }
    page.push(Block::Heading("Most frequent sequences".into()));
    for t in &tops {
        page.push(Block::Table(t.clone()));
    }
    tables.extend(shapes);
    tables.extend(tops);

    let problems = crate::html::write_report(out, "Humans against bots", &tables, &page)?;
    Ok((tables, problems))
}

/// What the report found, in sentences computed from its tables (rates, decisiveness, distance): the nearest and
/// the farthest bot, the largest difference of a rate, and how decisive each side is.
pub fn bots_findings(tables: &[Table]) -> Vec<String> {
    let find = |name: &str| tables.iter().find(|t| t.name == name);
    let col = |t: &Table, name: &str| t.columns.iter().position(|c| c == name);
    let mut out = Vec::new();
    if let Some(t) = find("distance") {
        let mut bots: Vec<(String, f64)> = t
            .rows
            .iter()
            .filter_map(|r| Some((text(r.first()?), number(r.get(col(t, "Jensen-Shannon distance")?)?)?)))
            .collect();
        bots.sort_by(|a, b| a.1.total_cmp(&b.1));
        match bots.as_slice() {
            [] => {}
            [(b, d)] => {
                out.push(format!("{b}'s sequences are at a Jensen-Shannon distance of {d:.3} from the humans'."))
            }
            [(near, dn), .., (far, df)] => out.push(format!(
                "Of {} bots, {near} plays the sequences nearest to the humans' (Jensen-Shannon distance {dn:.3}), \
                 {far} the farthest ({df:.3}).",
                bots.len()
            )),
        }
    }
    if let Some(t) = find("rates") {
        // the largest gap between a bot's share and the humans' (shares only: the other rates have other units)
        let largest = t
            .rows
            .iter()
            .filter(|r| r.first().is_some_and(|c| text(c).ends_with("_rate")))
            .flat_map(|r| {
                let human = r.get(1).and_then(number);
                r.iter().enumerate().skip(2).filter_map(move |(i, c)| Some((r, i, human?, number(c)?)))
            })
            .max_by(|a, b| (a.3 - a.2).abs().total_cmp(&(b.3 - b.2).abs()));
        if let Some((r, i, human, bot)) = largest {
            out.push(format!(
                "The largest difference of a rate: {}'s {} is {bot:.1}% against the humans' {human:.1}% ({:+.1} points).",
                t.columns[i],
                text(&r[0]).trim_end_matches("_rate").replace('_', " "),
                bot - human
            ));
        }
    }
    if let Some(t) = find("decisiveness") {
        let entropy: Vec<(String, f64)> =
            t.rows.iter().filter_map(|r| Some((text(r.first()?), number(r.get(col(t, "entropy bits")?)?)?))).collect();
        if let Some((human, rest)) = entropy.split_first() {
            let lo = rest.iter().min_by(|a, b| a.1.total_cmp(&b.1));
            let hi = rest.iter().max_by(|a, b| a.1.total_cmp(&b.1));
            if let (Some(lo), Some(hi)) = (lo, hi) {
                out.push(format!(
                    "Given the suit's shape, the humans' discard carries {:.2} bits of entropy; the bots' from {:.2} \
                     ({}) to {:.2} ({}): lower is more decisive.",
                    human.1, lo.1, lo.0, hi.1, hi.0
                ));
            }
        }
    }
    out
}

/// The rates of the humans (ALL) and of each bot.
fn rates_table(humans: &StyleDb, bots_db: &StyleDb, profiles: &[&Profile], bots: &[String]) -> Table {
    let mut columns = vec!["rate".to_string(), "humans (ALL)".to_string()];
    columns.extend(bots.iter().cloned());
    let cols: Vec<&str> = columns.iter().map(String::as_str).collect();
    let mut rates = Table::new("rates", "Rates: humans against each bot", &cols);
    let human_rates = humans.all.rates();
    for (i, r) in RATES.iter().enumerate() {
        let cell = |v: Option<f64>| {
            if r.name.ends_with("_rate") {
                Cell::opt_percent(v)
            } else {
                v.map_or(Cell::Empty, |x| Cell::Float(x, 1))
            }
        };
        let mut row = vec![Cell::text(r.name), cell(human_rates[i])];
        row.extend(profiles.iter().map(|p| cell(p.tally.rates()[i])));
        rates.push(row);
    }
    rates.note(format!(
        "humans: every seat of the {} games of {}; bots: {}",
        humans.meta.games,
        humans.dir.display(),
        bots_db.dir.display()
    ));
    rates
}

/// The shapes where a bot chooses most differently from the humans.
fn shapes_table(name: &str, b: &str, d: &Distribution, human: &Distribution) -> Table {
    let mut t = Table::new(
        name,
        &format!("Shapes where {b} chooses most differently from the humans"),
        &["before", "bot's choice", "share", "humans' choice", "share", "seen (bot, humans)", "distance"],
    );
    for s in shape_differences(d, human, 20, 10) {
        t.push(vec![
            Cell::text(s.before.clone()),
            Cell::text(s.choice[0].0.clone()),
            Cell::Percent(s.choice[0].1),
            Cell::text(s.choice[1].0.clone()),
            Cell::Percent(s.choice[1].1),
            Cell::text(format!("{}, {}", s.n[0], s.n[1])),
            Cell::Float(s.distance, 2),
        ]);
    }
    t.note("total variation distance between the two sides' choices of after for the shape (seen 20+ times by both)");
    t
}

/// The most frequent sequences of the humans and of each bot.
fn top_tables(humans: &StyleDb, bots_db: &StyleDb, bots: &[String]) -> Result<Vec<Table>> {
    let mut tops = vec![{
        let mut t = stats::top_sequences(&humans.dir, ALL_SCOPE, 10, 3)?;
        t.name = "top_sequences_humans".into();
        t.title = "Most frequent sequences of the humans".into();
        t
    }];
    for (i, b) in bots.iter().enumerate() {
        let mut t = stats::top_sequences(&bots_db.dir, b, 10, 3)?;
        // files named after the bot; a name with no letter or digit of ASCII (a Japanese name) keeps its place
        let named = format!("top_sequences_{}", crate::thesis::file_stem(b));
        let readable = b.chars().any(|c| c.is_ascii_alphanumeric()) && !tops.iter().any(|x| x.name == named);
        t.name = if readable { named } else { format!("top_sequences_bot{i}") };
        t.title = format!("Most frequent sequences of {b}");
        tops.push(t);
    }
    Ok(tops)
}
