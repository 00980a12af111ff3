//! `haifu export`: games of a dataset back to mjlog XML (lossless, from the events table), to mjai JSON lines, or to
//! tenhou.net/6 JSON (the object Tenhou's viewer opens).

use std::path::PathBuf;

use anyhow::{Context, Result};

/// Format of the exported files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// Tenhou mjlog XML, exactly the tags that were ingested.
    Mjlog,
    /// mjai JSON lines (bot logs): kinds and red fives, no tile ids (see `haifu_record::mjai::write`).
    Mjai,
    /// tenhou.net/6 JSON, one object per game as Tenhou's viewer opens it (see `haifu_record::tenhou6::write`).
    Tenhou6,
}

#[derive(clap::Args)]
pub struct ExportArgs {
    /// Dataset directory written by `haifu ingest`.
    #[arg(long)]
    pub dataset: PathBuf,
    /// Directory for the files (`<log id>.xml` / `.mjson` / `.json`, or `game-<id>.*` when the log id is unknown).
    #[arg(long, short)]
    pub out: PathBuf,
    /// `mjlog`: XML as Tenhou writes it; `mjai`: one JSON event per line, as bots (mjai-manue, Mortal) read it;
    /// `tenhou6`: one JSON object per game, as Tenhou's viewer (tenhou.net/6) opens it.
    #[arg(long, value_enum, default_value_t = ExportFormat::Mjlog)]
    pub format: ExportFormat,
    /// Compress the files with gzip (`.xml.gz` as Tenhou serves them, `.mjson.gz`, `.json.gz`).
    #[arg(long)]
    pub gzip: bool,
    /// Print one JSON object with the count, the format and the directory.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &ExportArgs) -> Result<()> {
    let games = haifu_ingest::stored::read_games(&a.dataset)?;
    std::fs::create_dir_all(&a.out).with_context(|| format!("creating {}", a.out.display()))?;
    let ext = match a.format {
        ExportFormat::Mjlog => "xml",
        ExportFormat::Mjai => "mjson",
        ExportFormat::Tenhou6 => "json",
    };
    for (id, g) in &games {
        let stem = match &g.log_id {
            Some(l) if g.index_in_file == 0 => l.clone(),
            Some(l) => format!("{l}-{}", g.index_in_file),
            None => format!("game-{id}"),
        };
        let text = match a.format {
            ExportFormat::Mjlog => g.to_mjlog(),
            ExportFormat::Mjai => haifu_record::mjai::write::to_mjai(g)
                .with_context(|| format!("game {id} ({stem}) cannot be written as mjai"))?,
            ExportFormat::Tenhou6 => haifu_record::tenhou6::to_tenhou6(g)
                .with_context(|| format!("game {id} ({stem}) cannot be written as tenhou.net/6 JSON"))?,
        };
        let path = if a.gzip { a.out.join(format!("{stem}.{ext}.gz")) } else { a.out.join(format!("{stem}.{ext}")) };
        let bytes = if a.gzip {
            use std::io::Write;
            let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            enc.write_all(text.as_bytes())?;
            enc.finish()?
        } else {
            text.into_bytes()
        };
        std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
    }
    let format = match a.format {
        ExportFormat::Mjlog => "mjlog",
        ExportFormat::Mjai => "mjai",
        ExportFormat::Tenhou6 => "tenhou6",
    };
    if a.json {
        println!(
            "{}",
            serde_json::json!({ "games": games.len(), "format": format, "out": a.out.display().to_string() })
        );
    } else {
        let what = match a.format {
            ExportFormat::Mjlog => "mjlog XML",
            ExportFormat::Mjai => "mjai JSON lines",
            ExportFormat::Tenhou6 => "tenhou.net/6 JSON",
        };
        println!("wrote {} games as {what} to {}", games.len(), a.out.display());
    }
    Ok(())
}
