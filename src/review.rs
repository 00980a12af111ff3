//! `haifu review`: a player's games, or one game, decision by decision, as one HTML page per game and seat
//! plus an index and `review.json` (docs/STYLE.md, "Review"). The pages are `haifu_reports::review`'s.

use std::cell::Cell;
use std::path::{Path, PathBuf};

use anyhow::Result;
use haifu_encoding::Positions;
use haifu_style::discards::Tilting;
use haifu_style::StyleDb;

use haifu_reports::review::{page, review_with, Category, Network, ReviewOptions};

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
    /// A style database (`haifu style build`): the network's answers tilted by each reviewed seat's player's
    /// discard coefficients less everyone's, a personal model of the player (docs/STYLE.md, "Personal models";
    /// a player the database does not profile keeps the network's); where the database holds a refit (`style
    /// accuracy --save-refit`), by the player's refitted coefficients whole (everyone's refitted for a player it
    /// does not profile). Needs --model.
    #[arg(long, requires = "model")]
    pub db: Option<PathBuf>,
    /// A run of `haifu train --decisions choices` beside the counts of the calls, riichi, kans and wins (runs in
    /// the network binary): its probability of each choice and whether it is its first class.
    #[arg(long)]
    pub choices_model: Option<PathBuf>,
    /// Print the review (every decision's candidates and the references' ranks) as JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

/// A network's probabilities at each position.
type Probabilities = Result<Vec<[f32; 34]>>;

/// A network's scorer, labelled by its run: `score` asks the network binary of the run at `model`.
type Scorer<'a> = (String, Box<dyn Fn(&Positions) -> Probabilities + 'a>);

fn scorer_of<'a>(
    network: Option<&'a dyn crate::Network>,
    model: Option<&'a Path>,
    option: &str,
    score: fn(&dyn crate::Network, &Path, &Positions) -> Probabilities,
) -> Result<Option<Scorer<'a>>> {
    let Some(model) = model else { return Ok(None) };
    let n = crate::needs(network, option)?;
    Ok(Some((model.display().to_string(), Box::new(move |p: &Positions| score(n, model, p)))))
}

/// The network's scorer with its answers tilted by the discard model of each seat's player in `db` (`review
/// --db`; the games read from the review's `years` of `dataset`), the tilts counted in `tally`.
fn tilted<'a>(
    (label, score): Scorer<'a>,
    db: &'a StyleDb,
    (dataset, years): (&'a Path, &'a [i32]),
    tally: &'a Cell<Tilting>,
) -> Scorer<'a> {
    let by = move |p: &Positions| {
        let mut probs = score(p)?;
        let at: Vec<(i64, u8, u8)> = (0..p.len()).map(|i| (p.game[i], p.seat[i], p.label[i])).collect();
        let t = db.tilting().tilt(dataset, years, db.meta.rules.players, &at, &mut probs)?;
        let mut sum = tally.get();
        sum.add(t);
        tally.set(sum);
        Ok(probs)
    };
    let by_what = match &db.refit {
        Some((_, meta)) => format!(
            "the players' coefficients refitted over the networks {} ({}/{})",
            meta.folds.join(", "),
            db.dir.display(),
            haifu_style::discards::REFIT_FILE
        ),
        None => format!("the player's discard model ({})", db.dir.display()),
    };
    (format!("{label}, tilted by {by_what}"), Box::new(by))
}

pub fn run(a: &ReviewArgs, network: Option<&dyn crate::Network>) -> Result<()> {
    let o = ReviewOptions {
        player: a.player.clone(),
        game: a.game.clone(),
        years: a.years.clone(),
        max_games: a.max_games,
    };
    let tilt = match &a.db {
        Some(db) => Some(StyleDb::open(db)?),
        None => None,
    };
    if let Some(note) = tilt.as_ref().zip(a.model.as_deref()).and_then(|(db, m)| db.refit_for_other(m)) {
        eprintln!("{note}");
    }
    let tally = Cell::new(Tilting::default());
    let discards = scorer_of(network, a.model.as_deref(), "haifu review --model", |n, m, p| n.probabilities(m, p))?;
    let discards = match (discards, &tilt) {
        (Some(scorer), Some(db)) => Some(tilted(scorer, db, (&a.dataset, &a.years), &tally)),
        (scorer, _) => scorer,
    };
    let choices = scorer_of(network, a.choices_model.as_deref(), "haifu review --choices-model", |n, m, p| {
        n.choice_probabilities(m, p)
    })?;
    let net = discards.as_ref().map(|(label, f)| Network { label: label.clone(), score: f.as_ref() });
    let choice_net = choices.as_ref().map(|(label, f)| Network { label: label.clone(), score: f.as_ref() });
    let r = review_with(&a.dataset, &a.tables, &o, net.as_ref(), choice_net.as_ref())?;
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
    if tilt.is_some() {
        let t = tally.get();
        println!(
            "the network's answers tilted at {} chosen discards ({} of the model's choices matched none)",
            t.tilted, t.unmatched
        );
    }
    println!("{} pages and {}", written.len(), a.out.join("review.json").display());
    Ok(())
}
