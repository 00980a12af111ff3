//! `haifu neural`'s arguments: a trained run's match rates on the decisions of test years, per player and
//! overall, beside `haifu imitate eval`'s, and the run's network; run by the network binary
//! (neural-cli/src/neural.rs).

use std::path::PathBuf;

use haifu_encoding::options::DeviceChoice;

use crate::args::TestArgs;

#[derive(clap::Subcommand)]
pub enum NeuralCommand {
    /// Top-1 and top-3 of a run (`haifu train --out`) on the decisions of test years, per player and overall,
    /// in the counts of `haifu imitate eval` (the decisions it ranks by default).
    Eval(EvalArgs),
    /// A run's network: its size (values per tensor) and, for a Transformer, the learnt per-head
    /// topology scales (seed 000: which structure of the hand each head leans on).
    Inspect(InspectArgs),
}

#[derive(clap::Args)]
pub struct InspectArgs {
    /// Run directory written by `haifu train`.
    pub model: PathBuf,
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
#[command(
    mut_arg("players", |a| a.help("Players to report one by one, comma-separated (the overall figures count everyone)")),
    mut_arg("min_games", |a| a.help("Report every player with at least this many games in the test years"))
)]
pub struct EvalArgs {
    /// Run directory written by `haifu train` (model.json and the checkpoints).
    #[arg(long)]
    pub model: PathBuf,
    #[command(flatten)]
    pub test: TestArgs,
    /// Seed 004's test protocol: one decision per game (chosen by a hash of the game id, the same every run)
    /// instead of every decision.
    #[arg(long)]
    pub one_per_game: bool,
    /// Tables written by `haifu mine`: also rank the same decisions with their all-players table and report
    /// the table, the network on the decisions the table answers, the backoff (table, else network) and the
    /// blend.
    #[arg(long, conflicts_with = "one_per_game")]
    pub tables: Option<PathBuf>,
    /// The table's weight in the blend (0: the network alone, 1: the table's order, the network elsewhere).
    #[arg(long, default_value_t = 0.5)]
    pub blend: f32,
    /// auto, cpu or cuda.
    #[arg(long, default_value = "auto")]
    pub device: DeviceChoice,
    /// Positions per forward pass (default: 50,000 for the MLP and DenseMLP on a GPU, 5,000 otherwise).
    #[arg(long)]
    pub batch: Option<usize>,
    #[arg(long)]
    pub json: bool,
}
