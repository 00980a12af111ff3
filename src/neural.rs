//! `haifu neural eval`: a trained run's match rates on the decisions of test years, per player and overall,
//! beside `haifu imitate eval`'s.

use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;

use anyhow::{bail, Result};
use serde_json::json;

use haifu_ingest::stored::game_hash;
use haifu_neural::eval::{hits, load_run, Counts};
use haifu_neural::train::DeviceChoice;
use haifu_neural::{load_years, Games, Positions};

#[derive(clap::Subcommand)]
pub enum NeuralCommand {
    /// Top-1 and top-3 of a run (`haifu train --out`) on the decisions of test years, per player and overall,
    /// in the counts of `haifu imitate eval` (the decisions it ranks by default).
    Eval(EvalArgs),
}

#[derive(clap::Args)]
pub struct EvalArgs {
    /// Run directory written by `haifu train` (model.json and the checkpoints).
    #[arg(long)]
    pub model: PathBuf,
    /// Dataset written by `haifu ingest` (the test decisions).
    #[arg(long)]
    pub dataset: PathBuf,
    /// Test years, comma-separated.
    #[arg(long, value_delimiter = ',', required = true)]
    pub years: Vec<i32>,
    /// Players to report one by one, comma-separated (the overall figures count everyone).
    #[arg(long, value_delimiter = ',', conflicts_with = "min_games")]
    pub players: Option<Vec<String>>,
    /// Report every player with at least this many games in the test years.
    #[arg(long)]
    pub min_games: Option<u32>,
    /// Seed 004's test protocol: one decision per game (chosen by a hash of the game id, the same every run)
    /// instead of every decision.
    #[arg(long)]
    pub one_per_game: bool,
    /// auto, cpu or cuda.
    #[arg(long, default_value = "auto")]
    pub device: DeviceChoice,
    /// Positions per forward pass.
    #[arg(long, default_value_t = 5000)]
    pub batch: usize,
    #[arg(long)]
    pub json: bool,
}

pub fn run(what: &NeuralCommand) -> Result<()> {
    let NeuralCommand::Eval(a) = what;
    let run = load_run(&a.model, a.device)?;
    let games = Games::read(&a.dataset)?;
    let mut positions = load_years(&a.dataset, &games, &a.years, run.info.players)?;
    if a.one_per_game {
        positions = one_per_game(&positions);
    }
    if positions.is_empty() {
        bail!("{} has no {}-player decisions in years {:?}", a.dataset.display(), run.info.players, a.years);
    }
    let hit = hits(&run, &positions, a.batch);
    let mut overall = Counts::default();
    let mut per: BTreeMap<&str, (Counts, HashSet<i64>)> = BTreeMap::new();
    for (i, &(first, top3)) in hit.iter().enumerate() {
        let (player, games_of) = per.entry(games.name(positions.game[i], positions.seat[i])).or_default();
        for c in [&mut overall, player] {
            c.n_all += 1;
            c.c_first += u64::from(first);
            c.c_top3 += u64::from(top3);
        }
        games_of.insert(positions.game[i]);
    }
    if let Some(names) = &a.players {
        let missing: Vec<&str> = names.iter().map(String::as_str).filter(|p| !per.contains_key(p)).collect();
        if !missing.is_empty() {
            bail!("no decisions of {} in {} for years {:?}", missing.join(", "), a.dataset.display(), a.years);
        }
    }
    let chosen: Vec<(&str, &Counts, usize)> = per
        .iter()
        .filter(|(p, (_, games))| match (&a.players, a.min_games) {
            (Some(names), _) => names.iter().any(|n| n == *p),
            (None, Some(m)) => games.len() >= m as usize,
            (None, None) => false,
        })
        .map(|(p, (c, games))| (*p, c, games.len()))
        .collect();
    if a.json {
        let players: Vec<_> = chosen
            .iter()
            .map(|(p, c, g)| {
                let mut v = c.to_json();
                v["player"] = json!(p);
                v["games"] = json!(g);
                v
            })
            .collect();
        let out = json!({
            "model": a.model.display().to_string(), "arch": run.info.model, "layers": run.info.layers,
            "epochs": run.info.epochs, "dataset": a.dataset.display().to_string(), "years": a.years,
            "one_per_game": a.one_per_game,
            "overall": overall.to_json(), "players": players,
        });
        println!("{out}");
        return Ok(());
    }
    let pct = |c: u64, n: u64| if n == 0 { "-".to_string() } else { format!("{:.2}%", 100.0 * c as f64 / n as f64) };
    println!("{:<24} {:>6} {:>9} {:>8} {:>8}", "player", "games", "decisions", "top-1", "top-3");
    for (p, c, g) in &chosen {
        println!("{p:<24} {g:>6} {:>9} {:>8} {:>8}", c.n_all, pct(c.c_first, c.n_all), pct(c.c_top3, c.n_all));
    }
    println!(
        "{:<24} {:>6} {:>9} {:>8} {:>8}",
        "(everyone)",
        positions.game.iter().collect::<HashSet<_>>().len(),
        overall.n_all,
        pct(overall.c_first, overall.n_all),
        pct(overall.c_top3, overall.n_all)
    );
    Ok(())
}

/// One position of each game: the `game_hash(game) % n`-th of its `n` (positions of a game are consecutive).
fn one_per_game(p: &Positions) -> Positions {
    let mut keep = vec![false; p.len()];
    let mut start = 0;
    while start < p.len() {
        let end = start + p.game[start..].iter().take_while(|&&g| g == p.game[start]).count();
        keep[start + (game_hash(p.game[start]) % (end - start) as u64) as usize] = true;
        start = end;
    }
    p.select(|i| keep[i])
}
