//! `haifu style identify`: who played a seat of some logs, every profiled player ranked (docs/STYLE.md,
//! "Identify").

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use haifu_encoding::options::DeviceChoice;
use haifu_style::discards::Discards;
use haifu_style::{Observed, Scorer, StyleDb};

use super::{padded, print_json, DbArgs};
use crate::Network;

#[derive(clap::Args)]
pub struct IdentifyArgs {
    #[command(flatten)]
    pub db: DbArgs,
    /// Log files (mjlog XML, tenhou.net/6 JSON, mjai; gzip or plain); repeat for several.
    #[arg(long, required = true)]
    pub log: Vec<PathBuf>,
    /// The seat to identify: 0-3 (0 = the first dealer), or the name the logs give it.
    #[arg(long)]
    pub seat: String,
    /// Use the first K games of the logs (default: all).
    #[arg(long)]
    pub games: Option<usize>,
    /// Players to print.
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    /// A folder of per-player networks, one `haifu train` run per player named by the player
    /// (`DIR/NAME/model.json`, e.g. `haifu train --player NAME --init GLOBAL --out DIR/NAME`): each adds the
    /// log-likelihood of the seat's discards under that player's network to the player's score. Runs in the
    /// network binary, haifu-neural.
    #[arg(long)]
    pub models: Option<PathBuf>,
    /// Score the sequences against every player's table as tensors on this device (auto, cpu or cuda): the
    /// same ranking as the lookup in Rust (the default). Runs in the network binary, haifu-neural.
    #[arg(long)]
    pub device: Option<DeviceChoice>,
    /// Also rank by a learned embedding (a folder written by `style accuracy --embedding --embedding-out DIR`
    /// from this database): the cosine of each player's centroid to the seat's games' mean direction, printed
    /// beside the score and ranking the players. Runs in the network binary, haifu-neural.
    #[arg(long)]
    pub embedding: Option<PathBuf>,
    /// What ranks the players: `decisions`, the log-likelihood of the seat's chosen discards under each player's
    /// discard model and of its calls, riichi, kans and wins under each player's choice model (the best
    /// measured, docs/RESULTS.md; the discards alone where the database counted no choices); `discards`, the
    /// discards alone; `score`, the sum of the sequences, rates, habits and choices (and the networks of
    /// --models); `refit`, the discards under the `--network` run tilted by each player's refitted
    /// coefficients (the database's saved refit); `baseline`, the plain baseline (30 habit rates a game, linear
    /// discriminant analysis), and `discards_baseline`, the discards plus it, as `style accuracy` names them. A
    /// database built before the discard model ranks by `score`.
    #[arg(long, value_enum, default_value_t = RankBy::Decisions)]
    pub by: RankBy,
    /// The global network the database's refit was saved over (`style accuracy --network RUN --cross-fit F1,F2
    /// --save-refit`): each player's log-likelihood of the seat's discards under it tilted by the player's
    /// refitted coefficients (everyone's for a player without), printed beside the score; `--by refit` ranks by
    /// it. Runs in the network binary, haifu-neural.
    #[arg(long)]
    pub network: Option<PathBuf>,
}

/// What `style identify` ranks the players by ([`haifu_style::identify::RankBy`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RankBy {
    Discards,
    Decisions,
    Score,
    Refit,
    Baseline,
    #[value(name = "discards_baseline")]
    DiscardsBaseline,
}

impl From<RankBy> for haifu_style::identify::RankBy {
    fn from(r: RankBy) -> Self {
        match r {
            RankBy::Discards => haifu_style::identify::RankBy::Discards,
            RankBy::Decisions => haifu_style::identify::RankBy::Decisions,
            RankBy::Score => haifu_style::identify::RankBy::Score,
            RankBy::Refit => haifu_style::identify::RankBy::Refit,
            RankBy::Baseline => haifu_style::identify::RankBy::Baseline,
            RankBy::DiscardsBaseline => haifu_style::identify::RankBy::DiscardsBaseline,
        }
    }
}

/// A seat's game as `style identify --network` reads it: where it came from (for notes), its chosen discards, and
/// how many of the seat's network positions it has.
type ReadGame = (String, Discards, usize);

/// `style identify --network RUN`: each player's log-likelihood of the seat's chosen discards under the network
/// tilted by the database's saved refit, over `positions` (the seat's, game after game as `games` count them);
/// the games whose positions do not match the discards left out with a note.
fn refit_scores<'a>(
    db: &'a StyleDb,
    positions: &haifu_encoding::Positions,
    games: &[ReadGame],
    run: &Path,
    network: Option<&dyn Network>,
) -> Result<std::collections::HashMap<&'a str, f64>> {
    let Some((model, _)) = &db.refit else {
        bail!(
            "{}: no refit saved (`haifu style accuracy --network RUN --cross-fit F1,F2 --save-refit` writes one)",
            db.dir.display()
        )
    };
    if let Some(note) = db.refit_for_other(run) {
        eprintln!("{note}");
    }
    let probabilities = crate::needs(network, "haifu style identify --network")?.probabilities(run, positions)?;
    let players: Vec<&str> = db.profiles.iter().map(|p| p.player.as_str()).collect();
    let mut sums = vec![0.0; players.len()];
    let mut at = 0;
    for (from, d, n) in games {
        let reading: Vec<([f32; 34], u8)> =
            (at..at + n).map(|i| (probabilities[i].map(f32::ln), positions.label[i])).collect();
        at += n;
        match model.log_likelihoods_over(d, &reading, &players) {
            Some(ll) => sums.iter_mut().zip(ll).for_each(|(s, x)| *s += x),
            None => eprintln!("note: {from}: the network's positions do not match the seat's discards: left out"),
        }
    }
    Ok(players.into_iter().zip(sums).collect())
}

pub(super) fn identify(a: &IdentifyArgs, network: Option<&dyn Network>) -> Result<()> {
    let db = StyleDb::open(&a.db.db)?;
    if a.by == RankBy::Refit && a.network.is_none() {
        bail!("--by refit ranks by the network the database's refit was saved over: give it (--network RUN)");
    }
    let mut seen = Observed::default();
    let (mut per_game, mut read) = (Vec::new(), Vec::new());
    // the seat's network positions, read once for the players' networks and the refit's
    let mut positions = haifu_encoding::Positions::default();
    let games = haifu_style::logs::seat_games(&db, &a.log, &a.seat, a.games)?;
    for sg in &games {
        if let Err(why) = &sg.choices {
            eprintln!("note: {}: its calls, riichi and kans could not be read ({why}): scored without them", sg.at);
        }
        let game = sg.observe();
        seen.add(&game);
        if a.models.is_some() || a.network.is_some() {
            let all = haifu_encoding::positions::of_game(sg.index as i64, &sg.record)?;
            let mine = all.select(|k| all.seat[k] == sg.seat);
            read.push((sg.at.clone(), game.discards.clone(), mine.len()));
            positions.extend(mine);
        }
        if a.embedding.is_some() {
            per_game.push(game);
        }
    }
    let used = games.len();
    let scorer = Scorer::new(&db)?;
    let mut ranking = match a.device {
        None => scorer.rank(&seen),
        Some(device) => {
            let tensors =
                crate::needs(network, "haifu style identify --device")?.sequence_likelihoods(&scorer, device)?;
            let sequences = tensors.of_trials(&[&seen.sequences])?;
            scorer.rank_given(&seen, &sequences[0])
        }
    };
    if let Some(dir) = &a.models {
        let scores = crate::needs(network, "haifu style identify --models")?.identify(dir, &db, &positions)?;
        ranking = haifu_style::identify::with_networks(ranking, &scores);
    }
    if let Some(run) = &a.network {
        let scores = refit_scores(&db, &positions, &read, run, network)?;
        ranking = haifu_style::identify::with_refit(ranking, &scores);
    }
    ranking = haifu_style::identify::with_db_baseline(ranking, &db, &seen, a.by.into())?;
    use haifu_style::identify::RankBy as By;
    let by = By::from(a.by).for_db(&db);
    if by != By::from(a.by) {
        eprintln!(
            "note: {} has no discard model (built before it: build it again): the players rank by score",
            a.db.db.display()
        );
    }
    by.rank(&mut ranking);
    if let Some(dir) = &a.embedding {
        let reference = haifu_style::embedding::Reference::read(dir)?;
        let missing = db.profiles.iter().filter(|p| !reference.centroids.players.contains(&p.player)).count();
        if missing > 0 {
            eprintln!(
                "note: {} gives no centroid to {missing} of the database's players (its centroids are of {}'s): \
                 they rank last",
                dir.display(),
                reference.db
            );
        }
        let net = crate::needs(network, "haifu style identify --embedding")?.style_embedding(Some(dir), None)?;
        let inputs: Vec<Vec<f32>> = per_game.iter().map(|o| reference.inputs.of(o)).collect();
        let games = net.fit(&inputs, &[], 0)?.embed(&inputs)?;
        let c = &reference.centroids;
        let cosine = c.players.iter().map(String::as_str).zip(c.similarities(&games)).collect();
        ranking = haifu_style::identify::with_embedding(ranking, &cosine);
    }
    if a.db.json {
        let top: Vec<&haifu_style::Score> = ranking.iter().take(a.top).collect();
        return print_json(&serde_json::to_value(top)?);
    }
    print_identified(a, &ranking, by, used, &seen);
    Ok(())
}

/// `style identify`'s table: the players as ranked, each method's log-likelihood beside.
fn print_identified(
    a: &IdentifyArgs,
    ranking: &[haifu_style::Score],
    by: haifu_style::identify::RankBy,
    used: usize,
    seen: &Observed,
) {
    use haifu_style::identify::RankBy as By;
    println!(
        "seat {:?} over {used} game(s): {} chosen discards the discard model reads, {} sequences, {} rounds; the {} \
         profiled players by {}:",
        a.seat,
        seen.discards.len(),
        seen.sequences.len(),
        seen.tally.rounds,
        ranking.len(),
        match (a.embedding.is_some(), by) {
            (true, _) => "the embedding's cosine",
            (false, By::Discards) => "the discard model's log-likelihood",
            (false, By::Decisions) => "the log-likelihood of every decision (discard model and choices)",
            (false, By::Score) => "the score (log-likelihood of sequences, rates, habits and choices)",
            (false, By::Refit) => "the discards' log-likelihood under the network tilted by the saved refit",
            (false, By::Baseline) => "the plain baseline (30 habit rates a game, linear discriminant analysis)",
            (false, By::DiscardsBaseline) => "the discard model's log-likelihood plus the plain baseline's",
        }
    );
    println!(
        "{:>4} {} {:>12} {:>10} {:>12} {:>12} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "",
        padded("player", 24),
        "discards",
        "choices",
        "score",
        "sequences",
        "rates",
        "baseline",
        "network",
        "refit",
        "embedding"
    );
    for (i, s) in ranking.iter().take(a.top).enumerate() {
        let shown = |x: Option<f64>, digits: usize| x.map_or("-".to_string(), |n| format!("{n:.digits$}"));
        println!(
            "{:>4} {} {:>12.2} {:>10.2} {:>12.2} {:>12.2} {:>10.2} {:>10} {:>10} {:>10} {:>10}",
            i + 1,
            padded(&s.player, 24),
            s.discards,
            s.choices,
            s.score,
            s.sequences,
            s.rates,
            shown(s.baseline, 2),
            shown(s.neural, 2),
            shown(s.network_refit, 2),
            shown(s.embedding, 3)
        );
    }
}
