//! `haifu check DATASET [--adopt] [--json]`: the dataset against its part list (`haifu_ingest::check`).
//! Exit status 0 when everything holds, 1 on any finding.

use std::path::PathBuf;

use anyhow::Result;

#[derive(clap::Args)]
pub struct CheckArgs {
    /// Dataset folder written by `haifu ingest`.
    pub dataset: PathBuf,
    /// Record parts another tool rewrote (same schema and rows as the parts they replace), and give a dataset
    /// written before part lists existed its list.
    #[arg(long)]
    pub adopt: bool,
    /// Print one JSON object: parts_listed, parts_ok, rows by table, findings (kind, what, detail), adopted.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &CheckArgs) -> Result<()> {
    let rep = haifu_ingest::check::check(&a.dataset, a.adopt)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&rep)?);
    } else {
        for f in &rep.adopted {
            println!("adopted {f}");
        }
        println!(
            "{}: {} parts listed, {} intact; rows {}",
            rep.dataset,
            rep.parts_listed,
            rep.parts_ok,
            rep.rows.iter().map(|(t, n)| format!("{t} {n}")).collect::<Vec<_>>().join(", ")
        );
        for f in &rep.findings {
            println!("  {} {}: {}", f.kind, f.what, f.detail);
        }
        if rep.findings.is_empty() {
            println!("everything the dataset lists is there, and nothing else");
        }
    }
    if !rep.findings.is_empty() {
        crate::exit_now(1);
    }
    Ok(())
}
