//! `haifu stats`: the statistics of the thesis's chapter 5. Each prints a Markdown table (or JSON with
//! `--json`) and, with `--out DIR`, writes `DIR/NAME.csv`, `.md` and `.json`.

use std::path::PathBuf;

use anyhow::Result;

use haifu_mining::report::Table;
use haifu_mining::stats;

#[derive(clap::Subcommand)]
pub enum StatsCommand {
    /// 5.1: the share of wins with each yaku.
    Yaku(DatasetArgs),
    /// 5.2: rounds per year won with tanyao, chanta+junchan and yakuhai.
    StrategyYears(DatasetArgs),
    /// 5.3: the most frequent sequences of each strategy.
    Top(TopArgs),
    /// 5.4: distinct sequences by occurrence count, for some scopes.
    Histogram(ScopesArgs),
    /// 5.5: exact 14-tile hands of some years found again in other years.
    HandMatches(HandMatchesArgs),
    /// 5.6: the part of the sequence space each scope's table has seen.
    Coverage(ScopesArgs),
    /// 6.5: how decisive each scope is: entropy of the discard given the suit shape.
    Decisiveness(DecisivenessArgs),
}

#[derive(clap::Args)]
pub struct DecisivenessArgs {
    #[command(flatten)]
    pub scopes: ScopesArgs,
    /// Only shapes seen at least this many times in a scope.
    #[arg(long, default_value_t = 20)]
    pub min_count: u64,
}

#[derive(clap::Args)]
pub struct Output {
    /// Also write NAME.csv, NAME.md and NAME.json into this directory.
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// Print the table as JSON instead of Markdown.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct DatasetArgs {
    /// Dataset written by `haifu ingest`.
    #[arg(long)]
    pub dataset: PathBuf,
    /// Years, comma-separated (default: every year).
    #[arg(long, value_delimiter = ',')]
    pub years: Vec<i32>,
    #[command(flatten)]
    pub output: Output,
}

#[derive(clap::Args)]
pub struct TopArgs {
    /// Directory written by `haifu mine`.
    #[arg(long)]
    pub tables: PathBuf,
    /// Whose tables: a player name or ALL.
    #[arg(long, default_value = "ALL")]
    pub scope: String,
    /// Sequences per strategy.
    #[arg(long, short, default_value_t = 10)]
    pub k: usize,
    /// Minimum number of tiles in `before` (the thesis used 3).
    #[arg(long, default_value_t = 3)]
    pub min_length: usize,
    #[command(flatten)]
    pub output: Output,
}

#[derive(clap::Args)]
pub struct ScopesArgs {
    /// Directory written by `haifu mine`.
    #[arg(long)]
    pub tables: PathBuf,
    /// Scopes, comma-separated (default: ALL and the player with the most sequences).
    #[arg(long, value_delimiter = ',')]
    pub scopes: Option<Vec<String>>,
    #[command(flatten)]
    pub output: Output,
}

#[derive(clap::Args)]
pub struct HandMatchesArgs {
    /// Dataset written by `haifu ingest`.
    #[arg(long)]
    pub dataset: PathBuf,
    /// Years whose hands are looked up, comma-separated.
    #[arg(long, value_delimiter = ',', required = true)]
    pub years: Vec<i32>,
    /// Years whose hands are looked in, comma-separated.
    #[arg(long, value_delimiter = ',', required = true)]
    pub against: Vec<i32>,
    /// Only these players' hands (both sides), comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub players: Option<Vec<String>>,
    #[command(flatten)]
    pub output: Output,
}

fn emit(t: &Table, o: &Output) -> Result<()> {
    if let Some(dir) = &o.out {
        t.write(dir)?;
    }
    if o.json {
        println!("{}", serde_json::to_string_pretty(&t.to_json())?);
    } else {
        print!("{}", t.to_markdown());
        if let Some(dir) = &o.out {
            println!("\nwritten: {}/{}.{{csv,md,json}}", dir.display(), t.name);
        }
    }
    Ok(())
}

pub fn run(c: &StatsCommand) -> Result<()> {
    match c {
        StatsCommand::Yaku(a) => emit(&stats::yaku_frequency(&a.dataset, &a.years)?, &a.output),
        StatsCommand::StrategyYears(a) => emit(&stats::strategy_years(&a.dataset, &a.years)?, &a.output),
        StatsCommand::Top(a) => emit(&stats::top_sequences(&a.tables, &a.scope, a.k, a.min_length)?, &a.output),
        StatsCommand::Histogram(a) => {
            let scopes = stats::default_scopes(&a.tables, a.scopes.as_deref())?;
            emit(&stats::histogram(&a.tables, &scopes)?, &a.output)
        }
        StatsCommand::HandMatches(a) => {
            emit(&stats::hand_matches(&a.dataset, &a.years, &a.against, a.players.as_deref())?, &a.output)
        }
        StatsCommand::Coverage(a) => {
            let scopes = stats::default_scopes(&a.tables, a.scopes.as_deref())?;
            emit(&stats::coverage(&a.tables, &scopes)?, &a.output)
        }
        StatsCommand::Decisiveness(a) => {
            let s = &a.scopes;
            let scopes = stats::default_scopes(&s.tables, s.scopes.as_deref())?;
            emit(&stats::decisiveness(&s.tables, &scopes, a.min_count)?, &s.output)
        }
    }
}
