//! `haifu stats` (placeholder: being written).
use anyhow::{bail, Result};

#[derive(clap::Subcommand)]
pub enum StatsCommand {}

pub fn run(_c: &StatsCommand) -> Result<()> {
    bail!("not written yet")
}
