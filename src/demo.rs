//! `haifu demo`: the main job on logs that ship with the project (placeholder until the example logs land).

use std::path::PathBuf;

use anyhow::{bail, Result};

#[derive(clap::Args)]
pub struct DemoArgs {
    /// Output directory.
    #[arg(long, short, default_value = "out/demo")]
    pub out: PathBuf,
}

pub fn run(_a: &DemoArgs) -> Result<()> {
    bail!("the demo logs are not written yet")
}
