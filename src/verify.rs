//! `haifu verify`: replays logs through the game engine and rescores every win (`haifu_sim::verify`), in
//! parallel; every mismatch is listed with its game, round and event.
//!
//! Each game first goes through ingest's validating replay (`haifu_ingest::extract`), which holds the record
//! to itself (no tile dealt or drawn twice, tile ids in range, hands and scores at each round's end as the
//! record's own play leaves them ...): verify holds every check ingest holds. A game it refuses is listed as
//! refused, with the event and the reason, and is not replayed by the engine, whose wall would be the broken
//! record's. The check lives here, not in `haifu_sim::verify`, because `sim` stays free of Arrow and Parquet,
//! which `ingest` brings.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::Result;
use haifu_sim::verify::{verify_game, Category, VerifyReport};
use rayon::prelude::*;

#[derive(clap::Args)]
pub struct VerifyArgs {
    /// Files, directories (walked recursively) or @LIST files: mjlog XML, tenhou.net/6 JSON, mjai logs.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// How many mismatches to print (all of them go into `--json`).
    #[arg(long, default_value_t = 20)]
    pub show: usize,
    #[command(flatten)]
    pub rules: crate::rules_args::RulesArgs,
    /// Print one JSON object: games, agari_checked, agari_mismatches, replay_mismatches, the mismatches
    /// (each with its category, seat and the rule broken), the games refused and skipped, the unreadable files.
    #[arg(long)]
    pub json: bool,
}

/// A game whose record disagrees with itself (ingest would quarantine it): the event and why.
#[derive(serde::Serialize)]
struct Refused {
    game: String,
    event: usize,
    tag: String,
    reason: String,
}

/// One file: the engine's report of the games the record check let through, and the games it refused.
#[derive(Default)]
struct FileReport {
    verified: VerifyReport,
    refused: Vec<Refused>,
}

/// A win's own numbers differ (yaku, fu, points, limit, score changes, pao, dora): the scoring's business.
fn is_agari(c: Category) -> bool {
    c.is_scoring() || matches!(c, Category::Pao | Category::Dora)
}

pub fn run(a: &VerifyArgs) -> Result<()> {
    let files = haifu_ingest::source::expand_inputs(&a.inputs, &[])?;
    let opts = a.rules.read_options();
    let bar = crate::progress::counter(std::io::stderr().is_terminal() && !a.json, files.len(), "files");
    // each file: its report, or why it could not be read (an unreadable file is not a rules mismatch)
    let per_file: Vec<Result<FileReport, String>> = files
        .par_iter()
        .map(|f| {
            let r = verify_file(f, &opts);
            if let Some(b) = &bar {
                b.inc(1);
            }
            r
        })
        .collect();
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let mut report = VerifyReport::default();
    let (mut refused, mut unreadable) = (Vec::new(), Vec::new());
    for r in per_file {
        match r {
            Ok(rep) => {
                report.merge(rep.verified);
                refused.extend(rep.refused);
            }
            Err(e) => unreadable.push(e),
        }
    }
    // refused games are games read, not replayed
    report.games += refused.len();
    let agari = report.mismatches.iter().filter(|m| is_agari(m.category)).count();
    let replay = report.mismatches.len() - agari;
    if a.json {
        let by: serde_json::Map<String, serde_json::Value> =
            report.by_category().into_iter().map(|(c, n)| (c.name().to_string(), n.into())).collect();
        let j = serde_json::json!({
            "files": files.len(), "unreadable": unreadable, "games": report.games, "refused": refused,
            "skipped": report.skipped, "unchecked": report.unchecked,
            "rounds": report.rounds, "actions": report.actions, "agari_checked": report.agari_checked,
            "draws_checked": report.draws_checked, "owari_checked": report.owari_checked,
            "agari_mismatches": agari, "replay_mismatches": replay, "by_category": by,
            "mismatches": report.mismatches,
        });
        println!("{}", serde_json::to_string_pretty(&j)?);
    } else {
        print_text(&report, &refused, &unreadable, files.len(), a.show);
    }
    if report.mismatches.is_empty() && refused.is_empty() && report.skipped.is_empty() && unreadable.is_empty() {
        Ok(())
    } else {
        // a script can tell a clean run from one with findings (or games it could not check) by the exit status
        crate::exit_now(2);
    }
}

/// One file's games: each through ingest's validating replay, then replayed and rescored by the engine; or
/// why the file could not be read.
fn verify_file(f: &std::path::Path, opts: &haifu_record::ReadOptions) -> Result<FileReport, String> {
    let name = f.display().to_string();
    haifu_ingest::source::read_log(f)
        .map_err(|e| format!("{name}: {e}"))
        .and_then(|raw| haifu_record::source::decompress(raw).map_err(|e| format!("{name}: {e}")))
        .and_then(|text| haifu_record::read_games_with(&name, &text, opts).map_err(|e| format!("{name}: {e}")))
        .map(|games| {
            let mut rep = FileReport::default();
            for (i, g) in games.iter().enumerate() {
                let label = if games.len() > 1 { format!("{name}#{i}") } else { name.clone() };
                // a win worth other points than the log says is a scoring mismatch below, in its category
                match haifu_ingest::extract::extract_with(
                    g,
                    haifu_ingest::extract::ReplayOptions { keep_misscored: true, choices: false },
                ) {
                    Ok(_) => rep.verified.merge(verify_game(&label, g)),
                    Err(e) => {
                        let (event, tag, reason) = (e.event, e.tag, e.message);
                        rep.refused.push(Refused { game: label, event, tag, reason });
                    }
                }
            }
            rep
        })
}

/// The text summary: counts, then up to `show` of each kind of finding.
fn print_text(report: &VerifyReport, refused: &[Refused], unreadable: &[String], files: usize, show: usize) {
    let agari = report.mismatches.iter().filter(|m| is_agari(m.category)).count();
    let replay = report.mismatches.len() - agari;
    let refused_too = if refused.is_empty() { String::new() } else { format!(" (and {} refused)", refused.len()) };
    println!(
        "verified {} games{refused_too} from {} files: {} rounds, {} actions, {} wins rescored, {} draws, {} game \
         ends",
        report.games - refused.len(),
        files,
        report.rounds,
        report.actions,
        report.agari_checked,
        report.draws_checked,
        report.owari_checked
    );
    let (n_refused, n_skipped) = (refused.len(), report.skipped.len());
    println!(
        "{agari} scoring mismatches, {replay} replay mismatches, {n_refused} games refused, {n_skipped} not checked"
    );
    for (c, n) in report.by_category() {
        println!("  {}: {n}", c.name());
    }
    for m in report.mismatches.iter().take(show) {
        println!(
            "  {} round {} ({}) event {}: {} {}: expected {}, computed {}",
            m.game,
            m.round,
            m.round_name,
            m.event,
            m.category.name(),
            m.what,
            m.expected,
            m.computed
        );
    }
    if report.mismatches.len() > show {
        println!("  ... and {} more (`--json` lists them all)", report.mismatches.len() - show);
    }
    if !refused.is_empty() {
        println!("{} games refused: the record disagrees with itself (ingest quarantines them):", refused.len());
        for r in refused.iter().take(show) {
            println!("  {} event {} {}: {}", r.game, r.event, r.tag, r.reason);
        }
        if refused.len() > show {
            println!("  ... and {} more (`--json` lists them all)", refused.len() - show);
        }
    }
    if !report.skipped.is_empty() {
        println!("{} games not checked:", report.skipped.len());
        for s in report.skipped.iter().take(show) {
            println!("  {s}");
        }
    }
    if !report.unchecked.is_empty() {
        println!("{} games checked with checks left out:", report.unchecked.len());
        for s in report.unchecked.iter().take(show) {
            println!("  {s}");
        }
        if report.unchecked.len() > show {
            println!("  ... and {} more (`--json` lists them all)", report.unchecked.len() - show);
        }
    }
    for u in unreadable {
        println!("  unreadable: {u}");
    }
}
