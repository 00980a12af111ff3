//! Argument groups several commands share (`#[command(flatten)]`); a command whose option means something
//! more says so with `mut_arg`.

use std::path::PathBuf;

/// The test decisions: a dataset, years, players (`imitate eval`, `imitate estimator`, `neural eval`).
#[derive(clap::Args)]
pub struct TestArgs {
    /// Dataset written by `haifu ingest` (the test decisions).
    #[arg(long)]
    pub dataset: PathBuf,
    /// Test years, comma-separated.
    #[arg(long, value_delimiter = ',', required = true)]
    pub years: Vec<i32>,
    /// Test players, comma-separated (default: every player of the years).
    #[arg(long, value_delimiter = ',', conflicts_with = "min_games")]
    pub players: Option<Vec<String>>,
    /// Test players with at least this many games in the test years.
    #[arg(long)]
    pub min_games: Option<u32>,
}

/// The games a command reads (a dataset and its years) and the folder it writes (`mine`, `style build`).
#[derive(clap::Args)]
pub struct DatasetOut {
    /// Dataset written by `haifu ingest`.
    #[arg(long)]
    pub dataset: PathBuf,
    /// Output folder.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Years of the games, comma-separated (default: every year).
    #[arg(long, value_delimiter = ',')]
    pub years: Vec<i32>,
}
