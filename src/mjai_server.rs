//! `haifu mjai-server`: the game engine as an mjai game server over TCP (`haifu_play::server`).

use std::io::Write;
use std::net::TcpListener;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use haifu_play::server::{serve, GameSummary, ServerOptions};

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum Length {
    /// East and south rounds.
    Hanchan,
    /// East rounds only (tonpuusen).
    East,
}

#[derive(clap::Args)]
pub struct MjaiServerArgs {
    /// Address to listen on; port 0 takes a free port (the first line printed names it).
    #[arg(long, default_value = "127.0.0.1:11600")]
    pub bind: String,
    /// Players at the table (3: Tenhou sanma).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(3..=4))]
    pub players: u8,
    /// Games in the match (the seats rotate between games).
    #[arg(long, default_value_t = 1)]
    pub games: usize,
    /// Game g is played on the wall of seed S + g.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    #[arg(long, value_enum, default_value_t = Length::Hanchan)]
    pub length: Length,
    /// Directory for the games: NNNN.mjlog and NNNN.mjson per game.
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// How long a client may take to answer one line; a client that takes longer is dropped and played by
    /// the server (tsumogiri, pass).
    #[arg(long, default_value_t = 10_000)]
    pub timeout_ms: u64,
    /// How long a client may take over all its answers of one game (seconds; 0: no limit); a client that
    /// spends it is dropped and its seat played by the server for the rest of the match.
    #[arg(long, default_value_t = haifu_play::server::DEFAULT_GAME_BUDGET.as_secs())]
    pub game_budget_s: u64,
    /// Print one JSON object with the games (files, final scores, each seat's name and protocol errors) and the
    /// clients dropped.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &MjaiServerArgs) -> Result<()> {
    let listener = TcpListener::bind(&a.bind).with_context(|| format!("binding {}", a.bind))?;
    let addr = listener.local_addr()?;
    // the first line: callers that asked for port 0 read the real one here
    let mut out = std::io::stdout();
    writeln!(out, "listening on {addr}")?;
    out.flush()?;
    let opts = ServerOptions {
        players: a.players,
        games: a.games,
        seed: a.seed,
        hanchan: matches!(a.length, Length::Hanchan),
        out: a.out.clone(),
        timeout: Duration::from_millis(a.timeout_ms),
        game_budget: (a.game_budget_s > 0).then(|| Duration::from_secs(a.game_budget_s)),
        join_timeout: None,
    };
    let json = a.json;
    let report = serve(listener, &opts, |g| {
        if !json {
            println!("{}", game_line(g));
        }
    })?;
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        for c in report.clients.iter().filter(|c| c.dropped.is_some()) {
            println!("dropped: client {} ({}): {}", c.client, c.name, c.dropped.as_deref().unwrap_or_default());
        }
    }
    Ok(())
}

/// `game 0 (seed 0, 8 rounds): Ann 31000 (0 errors), Bob 25000 (2 errors, dropped) ...`
fn game_line(g: &GameSummary) -> String {
    let seats: Vec<String> = g
        .seats
        .iter()
        .map(|s| {
            let dropped = if s.dropped { ", dropped" } else { "" };
            format!("{} {} ({} errors{dropped})", s.name, s.score, s.errors.len())
        })
        .collect();
    let files = g.mjlog.as_ref().map(|p| format!(" -> {}", p.display())).unwrap_or_default();
    format!("game {} (seed {}, {} rounds): {}{files}", g.game, g.seed, g.rounds, seats.join(", "))
}
