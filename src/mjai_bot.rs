//! `haifu mjai-bot`: a player over the mjai protocol (`haifu_play::client`), on stdin/stdout or as a TCP
//! client of an mjai server.

use std::io::{self, BufReader};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use haifu_play::client::{self, Brain, Session};
use haifu_play::policy::Imitator;

use crate::Network;

#[derive(clap::Args)]
pub struct MjaiBotArgs {
    /// Style database (`haifu style build`) holding the player to imitate.
    #[arg(long, requires = "player")]
    pub db: Option<PathBuf>,
    /// The player to imitate: their sequence tables for the discards, their rates for riichi, calls and
    /// folding (docs/PLAY.md).
    #[arg(long, requires = "db")]
    pub player: Option<String>,
    /// A run of `haifu train`: the network proposes the discard where the tables have no candidate (in the
    /// network binary, haifu-neural).
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// The player's personal network proposes every discard, before the tables: the --model network's answer
    /// tilted by the player's discard coefficients less everyone's where the discard model has the choice (the
    /// personal model `haifu style accuracy --network` judges; docs/PLAY.md); by the player's refitted
    /// coefficients where the database holds a refit (`style accuracy --save-refit`).
    #[arg(long, requires = "model")]
    pub network_first: bool,
    /// Play as one of `haifu sim`'s bots instead of an imitator (`greedy`, `efficiency`, `tanyao` ...).
    #[arg(long, conflicts_with_all = ["db", "player", "model"])]
    pub bot: Option<String>,
    /// Connect to an mjai server at HOST:PORT (else read stdin, answer on stdout).
    #[arg(long)]
    pub tcp: Option<String>,
    /// The name given when joining (default: the player's name, or the bot's).
    #[arg(long)]
    pub name: Option<String>,
    /// Seed of the policy's random choices (riichi, calls, folding).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Keep trying to connect for this many milliseconds while the server is not yet listening.
    #[arg(long, default_value_t = 0)]
    pub connect_timeout_ms: u64,
    /// Print the session's summary (decisions, latency median and p99, problems) as JSON on stderr at the end.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &MjaiBotArgs, network: Option<&dyn Network>) -> Result<()> {
    let (mut brain, default_name) = match (&a.bot, &a.db, &a.player) {
        (Some(bot), _, _) => {
            let b = haifu_sim::style::bot_by_name(bot, a.seed).map_err(anyhow::Error::msg)?;
            (Brain::Bot(b), bot.clone())
        }
        (None, Some(db), Some(player)) => {
            let mut p = Imitator::from_db(db, player, a.seed)?;
            if let Some(m) = &a.model {
                p = p.with_backoff(crate::needs(network, "haifu mjai-bot --model")?.mjai_backoff(m)?);
            }
            if a.network_first {
                let style = haifu_style::StyleDb::open(db)?;
                if let Some(note) = a.model.as_deref().and_then(|m| style.refit_for_other(m)) {
                    eprintln!("{note}");
                }
                let delta = style.tilting().tilt_of(player).with_context(|| {
                    format!("{}: no discard coefficients of {player} (build the database again)", db.display())
                })?;
                p = p.network_first(delta);
            }
            (Brain::Imitator(Box::new(p)), player.clone())
        }
        (None, _, _) => bail!("say whom to play: --db DB --player NAME (an imitator) or --bot NAME"),
    };
    let name = a.name.clone().unwrap_or(default_name);
    let session = match &a.tcp {
        Some(addr) => client::run_tcp(addr, &mut brain, &name, Some(Duration::from_millis(a.connect_timeout_ms)))?,
        None => client::run(BufReader::new(io::stdin().lock()), io::stdout().lock(), &mut brain, &name)?,
    };
    report(&session, &brain, &name, a.json);
    Ok(())
}

/// The end-of-session summary on stderr (stdout carries the protocol in stdin mode).
fn report(s: &Session, brain: &Brain, name: &str, json: bool) {
    if json {
        let mut v = s.to_json();
        if let Brain::Imitator(p) = brain {
            v["sources"] = serde_json::to_value(p.sources).unwrap_or_default();
            v["rates"] = serde_json::to_value(p.rates).unwrap_or_default();
        }
        v["name"] = name.into();
        eprintln!("{v}");
        return;
    }
    let ms = |q| s.latency(q, None).map_or("-".to_string(), |d| format!("{:.3} ms", d.as_secs_f64() * 1e3));
    eprintln!(
        "mjai-bot {name}: {} games, {} messages, {} decisions (latency median {}, p99 {}), {} unreadable or \
         contradicting lines, {} server errors",
        s.games,
        s.messages,
        s.latencies.len(),
        ms(0.5),
        ms(0.99),
        s.problems.len(),
        s.server_errors.len()
    );
}
