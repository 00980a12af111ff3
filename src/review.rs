//! `haifu review`: a player's games, or one game, decision by decision, as one HTML page per game and seat
//! plus an index and `review.json` (docs/STYLE.md, "Review"). The pages are `haifu_reports::review`'s.

use std::path::PathBuf;

use anyhow::Result;

use haifu_reports::review::{page, review, Category, Network, ReviewOptions};

#[derive(clap::Args)]
pub struct ReviewArgs {
    /// Dataset written by `haifu ingest`.
    #[arg(long)]
    pub dataset: PathBuf,
    /// Sequence tables (`haifu mine --out T`, or a style database): the all-players table ALL and the player's
    /// own.
    #[arg(long)]
    pub tables: PathBuf,
    /// The player whose games are reviewed (with --game: the player's seat of that game).
    #[arg(long, required_unless_present = "game")]
    pub player: Option<String>,
    /// One game, by its Tenhou log id (the games table's `log_id`; a game without one by its game id in hex,
    /// as its page is named); without --player, every seat of it.
    #[arg(long)]
    pub game: Option<String>,
    /// Years of the player's games, comma-separated (default: every year).
    #[arg(long, value_delimiter = ',')]
    pub years: Vec<i32>,
    /// At most this many games, the first in the dataset's order (0: all).
    #[arg(long, default_value_t = 20)]
    pub max_games: usize,
    /// Output directory: index.html, games/*.html (one per game and seat) and review.json.
    #[arg(long, short)]
    pub out: PathBuf,
    /// A run of `haifu train` for the network's column (runs in the network binary, haifu-neural); without it
    /// the page says "network: not given" and ranks by the tables alone.
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Print the review (every decision's candidates and the references' ranks) as JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: &ReviewArgs, network: Option<&dyn crate::Network>) -> Result<()> {
    let o = ReviewOptions {
        player: a.player.clone(),
        game: a.game.clone(),
        years: a.years.clone(),
        max_games: a.max_games,
    };
    let scorer;
    let net = match &a.model {
        Some(model) => {
            let n = crate::needs(network, "haifu review --model")?;
            scorer = move |p: &haifu_encoding::Positions| n.probabilities(model, p);
            Some(Network { label: model.display().to_string(), score: &scorer })
        }
        None => None,
    };
    let r = review(&a.dataset, &a.tables, &o, net.as_ref())?;
    let written = page::write(&r, &a.out)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&r.to_json())?);
        return Ok(());
    }
    let decisions: usize = r.games.iter().map(|g| g.decisions.len()).sum();
    let mut games: Vec<i64> = r.games.iter().map(|g| g.game_id).collect();
    games.dedup();
    println!(
        "reviewed {} seats of {} games, {decisions} chosen discards; open {}",
        r.games.len(),
        games.len(),
        a.out.join("index.html").display()
    );
    for c in Category::ALL {
        let n: usize = r.games.iter().map(|g| g.decisions.iter().filter(|d| d.category == c).count()).sum();
        println!("  {:<13} {n}", c.name());
    }
    println!("{} pages and {}", written.len(), a.out.join("review.json").display());
    Ok(())
}
