//! `haifu sim` (self-play corpora) and `haifu battle` (two bots compared, SPEC 5.1): thin layers over
//! `haifu_sim::generate` and `haifu_sim::battle`.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::{anyhow, Result};
use haifu_sim::battle::{battle, BattleOptions, BattleResult};
use haifu_sim::generate::{generate, GenerateOptions, LogFormat, NamedBot};
use haifu_sim::style::BOT_NAMES;
use haifu_sim::TableRules;

/// The table: 4-player hanchan unless told otherwise.
#[derive(clap::Args, Clone, Debug)]
pub struct TableArgs {
    /// Three players (Tenhou sanma: no 2m-8m, north extraction).
    #[arg(long)]
    pub sanma: bool,
    /// East-only games (tonpuusen) instead of hanchan.
    #[arg(long)]
    pub east: bool,
    /// An explicit Tenhou GO type (bits of SPEC 1.2); overrides --sanma and --east.
    #[arg(long)]
    pub go_type: Option<u32>,
}

impl TableArgs {
    pub fn rules(&self) -> TableRules {
        // 0xA1: a houou table with red fives and open tanyao; 0x08 hanchan, 0x10 three players
        let go = self.go_type.unwrap_or(0xA1 | if self.east { 0 } else { 0x08 } | if self.sanma { 0x10 } else { 0 });
        TableRules::from_go_type(go)
    }
}

fn bots_help() -> String {
    BOT_NAMES.iter().map(|(n, d)| format!("  {n:<11} {d}")).collect::<Vec<_>>().join("\n")
}

#[derive(clap::Args)]
#[command(after_help = format!("Bots:\n{}", bots_help()))]
pub struct SimArgs {
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// The players: NAME=BOT or BOT, at least as many as seats; from a larger pool each game seats a seeded
    /// draw of them (bots are listed below). Default: four shanten-greedy bots, Greedy1 to Greedy4.
    #[arg(long, num_args = 1.., default_values = ["Greedy1=greedy", "Greedy2=greedy", "Greedy3=greedy", "Greedy4=greedy"])]
    pub players: Vec<NamedBot>,
    /// Output directory for the logs (one file per game, named like a Tenhou log id).
    #[arg(long, short)]
    pub out: PathBuf,
    /// Seed of the walls and the bots' choices: the same seed plays the same games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long, value_enum, default_value_t = Format::Mjlog)]
    pub format: Format,
    /// Date of the games (YYYYMMDD) in their log ids; the dataset's year comes from it.
    #[arg(long, default_value = "20240101")]
    pub date: String,
    #[command(flatten)]
    pub table: TableArgs,
    /// Print one JSON object with the summary.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum Format {
    /// Tenhou mjlog XML.
    Mjlog,
    /// mjai JSON lines.
    Mjai,
}

#[derive(clap::Args)]
#[command(after_help = format!("Bots:\n{}", bots_help()))]
pub struct BattleArgs {
    /// The first bot (two copies seated opposite).
    #[arg(long)]
    pub a: String,
    /// The second bot.
    #[arg(long)]
    pub b: String,
    /// Number of sets; the t-test compares the per-set means.
    #[arg(long, default_value_t = 12)]
    pub sets: usize,
    #[arg(long, default_value_t = 50)]
    pub games_per_set: usize,
    /// The seed's simplified rules: no calls, riichi at once when tenpai.
    #[arg(long)]
    pub simplified: bool,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// East-only games.
    #[arg(long)]
    pub east: bool,
    /// Print one JSON object with the result.
    #[arg(long)]
    pub json: bool,
}

pub fn run_sim(a: &SimArgs) -> Result<()> {
    let o = GenerateOptions {
        games: a.games,
        players: a.players.clone(),
        rules: a.table.rules(),
        seed: a.seed,
        format: match a.format {
            Format::Mjlog => LogFormat::Mjlog,
            Format::Mjai => LogFormat::Mjai,
        },
        out: a.out.clone(),
        date: a.date.clone(),
    };
    let started = std::time::Instant::now();
    let pb = crate::progress::counter(std::io::stderr().is_terminal() && !a.json, a.games, "games");
    let g = generate(&o, &|n| {
        if let Some(b) = &pb {
            b.inc(n as u64);
        }
    })
    .map_err(|e| anyhow!(e))?;
    if let Some(b) = pb {
        b.finish_and_clear();
    }
    let secs = started.elapsed().as_secs_f64();
    if a.json {
        let j = serde_json::json!({
            "games": g.games, "rounds": g.rounds, "bytes": g.bytes, "seconds": secs,
            "out": a.out.display().to_string(), "go_type": o.rules.go_type, "seed": a.seed, "players": a.players,
        });
        println!("{}", serde_json::to_string_pretty(&j)?);
    } else {
        println!(
            "played {} games ({} rounds) in {secs:.2}s ({:.0} games/s); {:.1} MB of logs in {}",
            g.games,
            g.rounds,
            g.games as f64 / secs.max(1e-9),
            g.bytes as f64 / 1e6,
            a.out.display()
        );
    }
    Ok(())
}

pub fn run_battle(a: &BattleArgs) -> Result<()> {
    let o = BattleOptions {
        a: a.a.clone(),
        b: a.b.clone(),
        sets: a.sets,
        games_per_set: a.games_per_set,
        simplified: a.simplified,
        rules: TableArgs { sanma: false, east: a.east, go_type: None }.rules(),
        seed: a.seed,
    };
    let pb = crate::progress::counter(std::io::stderr().is_terminal() && !a.json, a.sets * a.games_per_set, "games");
    let r = battle(&o, &|n| {
        if let Some(b) = &pb {
            b.inc(n as u64);
        }
    })
    .map_err(|e| anyhow!(e))?;
    if let Some(b) = pb {
        b.finish_and_clear();
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        print_battle(&r);
    }
    Ok(())
}

fn print_battle(r: &BattleResult) {
    let o = &r.options;
    println!(
        "{} vs {}: {} sets of {} games ({} rules, {}), two copies of each seated opposite\n",
        o.a,
        o.b,
        o.sets,
        o.games_per_set,
        if o.simplified { "simplified" } else { "full" },
        if o.rules.hanchan { "hanchan" } else { "east-only" }
    );
    println!("| metric | {} | {} | t | df | p | significant at 5% |", o.a, o.b);
    println!("|---|---:|---:|---:|---:|---:|---|");
    for t in &r.tests {
        println!(
            "| {} | {:.3} | {:.3} | {:.2} | {:.1} | {:.4} | {} |",
            t.metric,
            t.mean_a,
            t.mean_b,
            t.t,
            t.df,
            t.p,
            if t.significant { "yes" } else { "no" }
        );
    }
    println!(
        "\nrank: average placing (1-4); points: Tenhou 7-dan table (+90/+45/0/-135); score_change: final - start."
    );
}
