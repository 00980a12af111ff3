//! `haifu report`: reports built from a dataset and its sequence tables.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::Result;

use haifu_imitate::StrategyMode;
use haifu_reports::ThesisOptions;

#[derive(clap::Subcommand)]
pub enum ReportCommand {
    /// Every table of the thesis's chapters 5 and 6 on this data, each beside the thesis figure.
    Thesis(ThesisArgs),
    /// One player's habits: rates beside everyone's, individual moves against the all-players majority (the
    /// hand drawn as tiles), by kind and per game, characteristic sequences, nearest players. HTML and Markdown.
    Player(PlayerArgs),
    /// Bots beside humans, each side a style database: rates, decisiveness, distance, the shapes where they
    /// differ most, the most frequent sequences. HTML and Markdown.
    Bots(BotsArgs),
}

#[derive(clap::Args)]
pub struct BotsArgs {
    /// The humans' style database (its ALL is the human side).
    #[arg(long)]
    pub humans: PathBuf,
    /// The bots' style database (mjai logs of bots or self-play logs, ingested and built like players').
    #[arg(long)]
    pub bots_db: PathBuf,
    /// Bots of --bots-db, comma-separated (default: every player in it).
    #[arg(long, value_delimiter = ',')]
    pub bots: Vec<String>,
    /// Output directory: index.html (with charts/), README.md, each table as CSV, Markdown and JSON.
    #[arg(long, short)]
    pub out: PathBuf,
}

#[derive(clap::Args)]
pub struct PlayerArgs {
    /// The player, as named in the style database.
    pub player: String,
    /// Dataset with the player's games (written by `haifu ingest`).
    #[arg(long)]
    pub dataset: PathBuf,
    /// Style database (`haifu style build`): the profile and the all-players table.
    #[arg(long)]
    pub db: PathBuf,
    /// Output directory: index.html (with charts/), README.md and each table as CSV, Markdown and JSON.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Years of the games whose moves are read, comma-separated (default: every year).
    #[arg(long, value_delimiter = ',')]
    pub years: Vec<i32>,
    /// A majority counts when the all-players table saw its sequence and the player's together at least this
    /// many times ...
    #[arg(long, default_value_t = 20)]
    pub min_count: u64,
    /// ... and the majority's at least this share (0.5..1) of the two (how far from the majority).
    #[arg(long, default_value_t = 0.6)]
    pub min_share: f64,
    /// Individual moves to list.
    #[arg(long, default_value_t = 50)]
    pub limit: usize,
    /// Print one JSON object on stdout: the folder, every table (as in its NAME.json) and the notes.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct ThesisArgs {
    /// Dataset written by `haifu ingest`.
    #[arg(long)]
    pub dataset: PathBuf,
    /// Generation tables written by `haifu mine` (their meta.json names the generation years).
    #[arg(long)]
    pub tables: PathBuf,
    /// Output directory: README.md with every table, and each table as NAME.csv, NAME.md, NAME.json.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Test years, comma-separated (not among the generation years).
    #[arg(long, value_delimiter = ',', required = true)]
    pub test_years: Vec<i32>,
    /// Test players: those with an own table and at least this many games in the test years.
    #[arg(long, default_value_t = 10)]
    pub min_games: u32,
    /// The player of the one-player tables (default: the one with the most sequences).
    #[arg(long)]
    pub player: Option<String>,
    /// none, fixed:tanyao|chanta|yakuhai, or estimated.
    #[arg(long, default_value = "none")]
    pub strategy: StrategyMode,
    /// Rank discards made while already in riichi too.
    #[arg(long)]
    pub include_riichi: bool,
    /// Shares of the generation games for the learning curve, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "0.0625,0.125,0.25,0.5,1")]
    pub curve: Vec<f64>,
    /// Leave the learning curve out (it mines the generation data once per share).
    #[arg(long)]
    pub no_curve: bool,
    /// Tables that hold bot scopes, for the human-vs-bot tables (6.5); with --bots.
    #[arg(long, requires = "bots")]
    pub bot_tables: Option<PathBuf>,
    /// Bot scopes in --bot-tables (or in --tables), comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub bots: Option<Vec<String>>,
    /// Runs of `haifu train` to set beside the tables (their epochs' test figures, a chart of the curves).
    #[arg(long, value_delimiter = ',')]
    pub neural: Vec<PathBuf>,
    /// The self-contained HTML file with the tables and their charts (inline SVG; PNG copies in `charts/`
    /// beside it). Default: OUT/index.html.
    #[arg(long, conflicts_with = "no_html")]
    pub html: Option<PathBuf>,
    /// Write the Markdown, CSV and JSON only, no HTML page.
    #[arg(long)]
    pub no_html: bool,
    /// Worker threads (default: all cores).
    #[arg(long, short, default_value_t = 0)]
    pub jobs: usize,
}

pub fn run(c: &ReportCommand) -> Result<()> {
    match c {
        ReportCommand::Thesis(a) => thesis(a),
        ReportCommand::Player(a) => player(a),
        ReportCommand::Bots(a) => bots(a),
    }
}

fn bots(a: &BotsArgs) -> Result<()> {
    let humans = haifu_style::StyleDb::open(&a.humans)?;
    let bots_db = haifu_style::StyleDb::open(&a.bots_db)?;
    let bots: Vec<String> =
        if a.bots.is_empty() { bots_db.profiles.iter().map(|p| p.player.clone()).collect() } else { a.bots.clone() };
    let (tables, problems) = haifu_reports::bots::bots_report(&humans, &bots_db, &bots, &a.out)?;
    println!("{}: {} tables; open {}", a.out.display(), tables.len(), a.out.join("index.html").display());
    for p in problems {
        println!("  note: {p}");
    }
    Ok(())
}

fn player(a: &PlayerArgs) -> Result<()> {
    if !(0.0..=1.0).contains(&a.min_share) {
        anyhow::bail!("--min-share {}: a share between 0 and 1", a.min_share);
    }
    let db = haifu_style::StyleDb::open(&a.db)?;
    let o = haifu_reports::player::PlayerOptions {
        player: a.player.clone(),
        years: a.years.clone(),
        min_count: a.min_count,
        min_share: a.min_share,
        limit: a.limit,
    };
    let (tables, problems) = haifu_reports::player::player_report(&a.dataset, &db, &o, &a.out)?;
    if a.json {
        let tables: Vec<serde_json::Value> = tables.iter().map(|t| t.to_json()).collect();
        let j = serde_json::json!({"out": a.out.display().to_string(), "html": a.out.join("index.html").display().to_string(), "tables": tables, "notes": problems});
        println!("{}", serde_json::to_string_pretty(&j)?);
        return Ok(());
    }
    println!("{}: {} tables; open {}", a.out.display(), tables.len(), a.out.join("index.html").display());
    for p in problems {
        println!("  note: {p}");
    }
    Ok(())
}

fn thesis(a: &ThesisArgs) -> Result<()> {
    let bots = a.bots.clone().map(|b| (a.bot_tables.clone().unwrap_or_else(|| a.tables.clone()), b));
    let o = ThesisOptions {
        dataset: a.dataset.clone(),
        tables: a.tables.clone(),
        out: a.out.clone(),
        test_years: a.test_years.clone(),
        min_games: a.min_games,
        player: a.player.clone(),
        strategy: a.strategy,
        include_riichi: a.include_riichi,
        fractions: if a.no_curve { Vec::new() } else { a.curve.clone() },
        bots,
        html: (!a.no_html).then(|| a.html.clone().unwrap_or_else(|| a.out.join("index.html"))),
        neural: a.neural.clone(),
    };
    let spinner = crate::progress::spinner(std::io::stderr().is_terminal(), "thesis report");
    let pool = rayon::ThreadPoolBuilder::new().num_threads(a.jobs).build()?;
    let report = pool.install(|| {
        haifu_reports::thesis(&o, &|step| {
            if let Some(s) = &spinner {
                s.set_message(format!("thesis report: {step}"));
            }
        })
    })?;
    if let Some(s) = spinner {
        s.finish_and_clear();
    }
    println!("wrote {} tables to {} (README.md has them all)", report.tables.len(), a.out.display());
    for t in &report.tables {
        println!("  {}: {}", t.name, t.title);
    }
    if let Some((html, pngs, problems)) = &report.html {
        println!(
            "HTML report: {} ({} charts, PNG copies in {})",
            html.display(),
            pngs.len(),
            html.with_file_name("charts").display()
        );
        for p in problems {
            println!("  note: {p}");
        }
    }
    Ok(())
}
