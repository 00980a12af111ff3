//! `haifu mine` (placeholder: being written).
use anyhow::{bail, Result};

#[derive(clap::Args)]
pub struct MineArgs {}

pub fn run(_a: &MineArgs) -> Result<()> {
    bail!("not written yet")
}
