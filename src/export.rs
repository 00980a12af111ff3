//! `haifu export`: games of a dataset back to mjlog XML, from the lossless events table.

use std::path::PathBuf;

use anyhow::{Context, Result};

#[derive(clap::Args)]
pub struct ExportArgs {
    /// Dataset directory written by `haifu ingest`.
    #[arg(long)]
    pub dataset: PathBuf,
    /// Directory for the XML files (`<log id>.xml`, or `game-<id>.xml` when the log id is unknown).
    #[arg(long, short)]
    pub out: PathBuf,
    /// Compress the files with gzip (`.xml.gz`), as Tenhou serves them.
    #[arg(long)]
    pub gzip: bool,
    /// Print one JSON object with the count and the directory.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &ExportArgs) -> Result<()> {
    let games = haifu_ingest::read::read_games(&a.dataset)?;
    std::fs::create_dir_all(&a.out).with_context(|| format!("creating {}", a.out.display()))?;
    for (id, g) in &games {
        let stem = match &g.log_id {
            Some(l) if g.index_in_file == 0 => l.clone(),
            Some(l) => format!("{l}-{}", g.index_in_file),
            None => format!("game-{id}"),
        };
        let xml = g.to_mjlog();
        let path = if a.gzip { a.out.join(format!("{stem}.xml.gz")) } else { a.out.join(format!("{stem}.xml")) };
        let bytes = if a.gzip {
            use std::io::Write;
            let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            enc.write_all(xml.as_bytes())?;
            enc.finish()?
        } else {
            xml.into_bytes()
        };
        std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
    }
    if a.json {
        println!("{}", serde_json::json!({ "games": games.len(), "out": a.out.display().to_string() }));
    } else {
        println!("wrote {} games as mjlog XML to {}", games.len(), a.out.display());
    }
    Ok(())
}
