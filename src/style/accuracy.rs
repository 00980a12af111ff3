//! `haifu style accuracy`: identification on unseen games, every method side by side, and the personal models
//! judged (docs/STYLE.md, "Accuracy on unseen games").

use std::path::{Path, PathBuf};

use anyhow::Result;

use haifu_encoding::options::DeviceChoice;
use haifu_style::accuracy::GlobalNetwork;
use haifu_style::{Scorer, SequenceLikelihoods, StyleDb};

use super::{print_json, DbArgs};
use crate::Network;

#[derive(clap::Args)]
pub struct AccuracyArgs {
    #[command(flatten)]
    pub db: DbArgs,
    /// Dataset with the test games: of a database built with --sample, the games it left out; else every game
    /// of the years (those of the database's own years would flatter the figures: warned).
    #[arg(long)]
    pub dataset: PathBuf,
    /// Test years, comma-separated.
    #[arg(long, value_delimiter = ',', required = true)]
    pub years: Vec<i32>,
    /// Games pooled per trial, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,10,50,100")]
    pub games: Vec<usize>,
    /// Also write the figures as a self-contained HTML page with a chart.
    #[arg(long)]
    pub html: Option<PathBuf>,
    /// Score every trial against every player's table as tensors on this device (auto, cpu or cuda): the
    /// same figures as the lookup in Rust (the default). Runs in the network binary, haifu-neural.
    #[arg(long)]
    pub device: Option<DeviceChoice>,
    /// Also rank by a learned style embedding (docs/STYLE.md), trained in the run on the database's own games
    /// (the profile games the baseline is fitted on): the players' centroids against each block's. Runs in the
    /// network binary, haifu-neural.
    #[arg(long)]
    pub embedding: bool,
    /// Rank by an embedding trained before (a folder written by --embedding-out), trained on other players or
    /// the same: the database's own games give only the centroids. Implies --embedding.
    #[arg(long)]
    pub embedding_from: Option<PathBuf>,
    /// Write the embedding trained in the run to this folder (weights and settings), for --embedding-from.
    #[arg(long)]
    pub embedding_out: Option<PathBuf>,
    /// Also rank by a network conditioned on the players (a run of `haifu train --init GLOBAL --player-vectors
    /// D`, trained on the database's games: `--sample` as the database's): each block's discards scored with
    /// each player's vector (a player without one: the network's row for everyone). A run that trained on any
    /// test game is refused. Runs in the network binary, haifu-neural.
    #[arg(long, value_name = "RUN")]
    pub player_vectors: Option<PathBuf>,
    /// Judge the discard model as the personal part of this global network (a run of `haifu train`, trained on
    /// the database's games: `--sample` as the database's): the network tilted by each player's discard
    /// coefficients less everyone's, against the network as it is, on each player's test positions. A
    /// `--player-vectors` run: each player's own vector tilted, against its row for everyone. A run that trained
    /// on any test game is refused. Runs in the network binary, haifu-neural.
    #[arg(long, value_name = "RUN")]
    pub network: Option<PathBuf>,
    /// With --network: also tilt it by each player's coefficients refitted over these networks, runs of
    /// `haifu train --sample F --fold K/N` (F the database's) that together trained on the profile games once
    /// each: each profile seat is read by a run that did not train on its game, and the players' coefficients are
    /// fitted on the network's log-probabilities plus their utilities, so that they hold only what the network
    /// misses of the player (docs/STYLE.md, "Personal models"); the players are also ranked by it
    /// (`network_refit`). Comma-separated. Runs in haifu-neural.
    #[arg(long, value_name = "RUN,RUN", value_delimiter = ',', requires = "network")]
    pub cross_fit: Vec<PathBuf>,
    /// With --cross-fit: write the refit into the database (`discard_refit.parquet` and `.json`), where
    /// `haifu review --db` and `haifu mjai-bot --network-first` then tilt the network by it: each player's
    /// refitted coefficients whole, everyone's for a player the database does not profile.
    #[arg(long, requires = "cross_fit")]
    pub save_refit: bool,
}

impl AccuracyArgs {
    /// Whether the run ranks by a learned embedding (a network command).
    pub fn embeds(&self) -> bool {
        self.embedding || self.embedding_from.is_some()
    }
}

/// `style accuracy --save-refit`: the run's refit written into its database.
fn save_refit(a: &AccuracyArgs, r: &haifu_style::accuracy::AccuracyReport) -> Result<()> {
    let (Some(refit), Some(network)) = (&r.refit, &a.network) else {
        anyhow::bail!("--save-refit: the run made no refit (give --network and --cross-fit)")
    };
    let folds: Vec<&Path> = a.cross_fit.iter().map(PathBuf::as_path).collect();
    refit.save(&a.db.db, haifu_imitate::ALL_SCOPE, network, &folds)?;
    eprintln!(
        "the refit written into {} ({}): review --db and mjai-bot --network-first tilt by it",
        a.db.db.display(),
        haifu_style::discards::REFIT_FILE
    );
    Ok(())
}

/// The global network of `style accuracy --network` and the fold networks of `--cross-fit`, loaded.
type GlobalNetworks = (Option<Box<dyn GlobalNetwork>>, Vec<Box<dyn GlobalNetwork>>);

fn global_networks(a: &AccuracyArgs, network: Option<&dyn Network>, players: u8) -> Result<GlobalNetworks> {
    let load = |run: &PathBuf, what: &str| crate::needs(network, what)?.global_network(run, &a.dataset, players);
    let global = a.network.as_ref().map(|run| load(run, "haifu style accuracy --network")).transpose()?;
    let folds = a.cross_fit.iter().map(|run| load(run, "haifu style accuracy --cross-fit")).collect::<Result<_>>()?;
    Ok((global, folds))
}

pub(super) fn accuracy(a: &AccuracyArgs, network: Option<&dyn Network>) -> Result<()> {
    let db = StyleDb::open(&a.db.db)?;
    let scorer = Scorer::new(&db)?;
    let tensors = match a.device {
        None => None,
        Some(device) => {
            Some(crate::needs(network, "haifu style accuracy --device")?.sequence_likelihoods(&scorer, device)?)
        }
    };
    let likelihoods: &dyn SequenceLikelihoods = tensors.as_deref().map_or(&scorer, |t| t);
    if a.embedding_out.is_some() && !a.embedding {
        anyhow::bail!("--embedding-out writes the embedding trained in the run: give --embedding");
    }
    let trainer = match a.embeds() {
        false => None,
        true => Some(
            crate::needs(network, "haifu style accuracy --embedding")?
                .style_embedding(a.embedding_from.as_deref(), a.embedding_out.as_deref())?,
        ),
    };
    let vectors = match &a.player_vectors {
        None => None,
        Some(run) => Some(crate::needs(network, "haifu style accuracy --player-vectors")?.player_vectors(
            run,
            &a.dataset,
            db.meta.rules.players,
        )?),
    };
    let (global, folds) = global_networks(a, network, db.meta.rules.players)?;
    let networks = haifu_style::accuracy::Networks {
        embedding: trainer.as_deref(),
        player_vectors: vectors.as_deref(),
        global: global.as_deref(),
        cross_fit: folds.iter().map(|f| f.as_ref()).collect(),
    };
    let r = haifu_style::accuracy::measure(&scorer, likelihoods, &a.dataset, &a.years, &a.games, &networks)?;
    if a.save_refit {
        save_refit(a, &r)?;
    }
    if let Some(path) = &a.html {
        let page = haifu_reports::pages::accuracy_page(
            &r,
            &a.db.db.display().to_string(),
            &a.dataset.display().to_string(),
            &a.years,
        );
        let (_, problems) = page.write(path)?;
        for p in problems {
            eprintln!("note: {p}");
        }
        if !a.db.json {
            println!("HTML: {}", path.display());
        }
    }
    if a.db.json {
        return print_json(&serde_json::to_value(&r)?);
    }
    if !r.overlap.is_empty() {
        println!("warning: test years {:?} are among the database's years: the figures flatter", r.overlap);
    }
    println!(
        "identifying {} profiled players on {} test games of {:?} ({:.0} games/s):",
        db.profiles.len(),
        r.test_games,
        a.years,
        r.games_per_s
    );
    println!(
        "{:>6} {:>8} {:>7} {:>8} {:>15} {:>8} {:>10} {:>10} {:>10} {:>14} {:>14} {:>14} {:>14} {:>14} {:>14}",
        "games",
        "players",
        "trials",
        "top-1",
        "(95% interval)",
        "top-5",
        "chance-1",
        "chance-5",
        "mean rank",
        "seqs 1/5",
        "rates 1/5",
        "habits 1/5",
        "choices 1/5",
        "baseline 1/5",
        if a.embeds() { "embedding 1/5" } else { "" }
    );
    let pair = |x: [f64; 2]| format!("{:>6.1}/{:>5.1}%", 100.0 * x[0], 100.0 * x[1]);
    for x in &r.rows {
        println!(
            "{:>6} {:>8} {:>7} {:>7.1}% {:>15} {:>7.1}% {:>9.1}% {:>9.1}% {:>10.1} {} {} {} {} {} {}",
            x.games,
            x.players,
            x.trials,
            100.0 * x.top1,
            format!("({:.1}-{:.1}%)", 100.0 * x.top1_interval.0, 100.0 * x.top1_interval.1),
            100.0 * x.top5,
            100.0 * x.chance_top1,
            100.0 * x.chance_top5,
            x.mean_rank,
            pair(x.sequences_only),
            pair(x.rates_only),
            pair(x.habits_only),
            pair(x.choices_only),
            pair(x.baseline),
            x.embedding.map_or(String::new(), pair)
        );
    }
    if !r.no_trials.is_empty() {
        println!("no player has enough test games for a block of {:?} games: no trial, no row", r.no_trials);
    }
    print_methods(&r);
    print_personals(&r);
    Ok(())
}

/// The personal models' gains over everyone's, as `style accuracy` prints them.
fn print_personals(r: &haifu_style::accuracy::AccuracyReport) {
    if let Some(p) = &r.personal {
        println!(
            "the discard model as a personal model: each player's own coefficients against everyone's, top-1 on \
             the player's test choices (players with {}+ test games):",
            p.min_test_games
        );
        print_personal(p);
    }
    if let Some(p) = &r.personal_choices {
        println!(
            "the choice model as a personal model: each player's own coefficients against everyone's, the more \
             probable of taking or passing on the player's test choices (players with {}+ test games; profile \
             offers for choices):",
            p.min_test_games
        );
        print_personal(p);
    }
    for n in r.personal_network.iter().chain(&r.personal_network_refit).chain(&r.global_network_refit) {
        // what the refit read, once, before the first of its two models
        if let Some(f) = n.refit.as_ref().filter(|_| n.tilt == haifu_style::discards::Tilt::Refitted) {
            println!(
                "refitted over {} cross-fitted networks: {} profile seats ({} choices) read by a network that did not \
                 train on them; {} unread, {} misaligned, left out",
                f.networks, f.seats, f.choices, f.unread_seats, f.misaligned_seats
            );
        }
        let what = format!("{}, against {}", n.model(), n.against());
        println!(
            "{what}, top-1 on the player's test positions (players with {}+ test games; the model has a choice at \
             {:.1}% of them){}:",
            n.gains.min_test_games,
            100.0 * n.covered,
            match n.misaligned_seats {
                0 => String::new(),
                m => format!("; {m} test seats left out: their positions do not match the discard model's choices"),
            }
        );
        print_personal(&n.gains);
    }
}

/// Every method of `style accuracy` on the same trials, a line per block size.
fn print_methods(r: &haifu_style::accuracy::AccuracyReport) {
    println!("every method on the same trials (top-1 with its 95% interval, top-5, mean place; chance in brackets):");
    for x in &r.rows {
        let methods: Vec<String> = x
            .methods
            .iter()
            .map(|m| {
                format!(
                    "{} {:.1}% ({:.1}-{:.1}) {:.1}% {:.1}",
                    m.method,
                    100.0 * m.top1,
                    100.0 * m.top1_interval.0,
                    100.0 * m.top1_interval.1,
                    100.0 * m.top5,
                    m.mean_place
                )
            })
            .collect();
        println!("  {:>3} game(s) [{:.1}]: {}", x.games, x.chance_mean_rank, methods.join("; "));
    }
}

/// A personal model's gains, as `style accuracy` prints them (all judged, then by thirds of profile choices).
fn print_personal(p: &haifu_style::discards::PersonalGains) {
    let line = |what: &str, g: &haifu_style::discards::Gains| {
        println!(
            "  {what}: {} players, {} better ({:.0}%, {:.0}-{:.0}%; {:.0}% expected if all gained the mean), mean \
             {:+.2} points ({:+.2} to {:+.2}), {:+.4} nats a decision; {}-{} profile choices",
            g.players,
            g.better,
            100.0 * g.share_better,
            100.0 * g.share_better_interval.0,
            100.0 * g.share_better_interval.1,
            100.0 * g.share_better_at_mean,
            g.mean_gain_points,
            g.mean_gain_interval.0,
            g.mean_gain_interval.1,
            g.mean_log_likelihood_gain,
            g.profile_choices.0,
            g.profile_choices.1
        )
    };
    line("all judged", &p.judged);
    for (i, t) in p.thirds.iter().enumerate() {
        line(&format!("third {} by profile choices", i + 1), t);
    }
    if let Some(g) = &p.growth {
        println!(
            "  growth: {:+.2} points a doubling of the profile choices ({:+.2} to {:+.2}, p {:.2}); {:+.2} at the median",
            g.points_per_doubling, g.interval.0, g.interval.1, g.p_value, g.at_median
        );
    }
}
