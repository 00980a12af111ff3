//! `haifu imitate` (placeholder: being written).
use anyhow::{bail, Result};

#[derive(clap::Subcommand)]
pub enum ImitateCommand {}

pub fn run(_c: &ImitateCommand) -> Result<()> {
    bail!("not written yet")
}
