//! `haifu train`: a neural baseline (SPEC 5.1) trained on the positions of a dataset (its arguments:
//! src/train.rs of the `haifu` package).

use anyhow::Result;

use haifu::train::TrainArgs;
use haifu_neural::personal::{train_players, PlayerRows};
use haifu_neural::train::{train_with_progress, warm_up, TrainOptions};
use haifu_neural::Positions;
use haifu_neural::{load, Games, Split};

pub fn run(a: &TrainArgs) -> Result<()> {
    let split = Split {
        years: a.years.clone(),
        test_years: a.test_years.clone(),
        players: a.players,
        player: a.player.clone(),
        fraction: a.fraction,
        fold: a.fold,
        decisions: a.decisions,
        sample: a.sample,
    };
    let opts = TrainOptions {
        arch: a.model,
        layers: a.layers,
        channels: a.channels.unwrap_or(a.model.default_channels()),
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        device: a.device,
        seed: a.seed,
        out: a.out.clone(),
        resume: a.resume,
        init: a.init.clone(),
        tune: a.tune,
        interpolate: a.interpolate,
        augment: a.augment,
        bf16: a.bf16,
        cudnn_benchmark: a.cudnn_benchmark,
        decisions: a.decisions,
        sides: Some(split.sides()),
    };
    // a GPU's fixed start costs paid while the positions are read (haifu_neural::train::warm_up)
    let warming = std::thread::spawn({
        let opts = opts.clone();
        move || warm_up(&opts)
    });
    let games = Games::read(&a.dataset)?;
    let (train_set, test_set) = load(&a.dataset, &games, &split)?;
    let warmup_s = warming.join().map_err(|_| anyhow::anyhow!("readying the device failed"))??;
    if let Some(dims) = a.player_vectors {
        return run_players(a, dims, &opts, &games, &train_set, &test_set);
    }
    if !a.json {
        eprintln!(
            "{}: {} training positions, {} test positions ({}-player games)",
            a.dataset.display(),
            train_set.len(),
            test_set.len(),
            a.players
        );
    }
    let visible = !a.json && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let bar = haifu::progress::counter(visible, train_set.len(), "positions");
    let mut report = train_with_progress(&train_set, &test_set, &opts, &|epoch, done, _| {
        if let Some(b) = &bar {
            b.set_position(done as u64);
            b.set_message(format!("epoch {epoch}"));
        }
    })?;
    report.warmup_s = warmup_s;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if a.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        if let Some((top1, top3)) = report.initial {
            println!("before training (the --init network): top-1 {:.2}%, top-3 {:.2}%", 100.0 * top1, 100.0 * top3);
        }
        if let Some((top1, top3)) = report.fine_tuned {
            println!("fine-tuned, before --interpolate: top-1 {:.2}%, top-3 {:.2}%", 100.0 * top1, 100.0 * top3);
        }
        for m in &report.epochs {
            println!(
                "epoch {}: lr {}, train loss {:.4}, test loss {:.4}, top-1 {:.2}%, top-3 {:.2}% ({:.1} s)",
                m.epoch,
                m.lr,
                m.train_loss,
                m.test_loss,
                100.0 * m.test_top1,
                100.0 * m.test_top3,
                m.seconds
            );
        }
        for (i, scales) in report.topology_scales.iter().flatten().enumerate() {
            let shown: Vec<String> = scales.iter().map(|s| format!("{s:.3}")).collect();
            println!("layer {i} topology_scale (sequence, sequence, identity, identity, boundary, boundary, global, global): {}", shown.join(" "));
        }
        if let Some(c) = &report.choices {
            println!(
                "choices: the network's top-1 {:.2}%, the majority choice's {:.2}% ({} test positions)",
                100.0 * c.network_top1,
                100.0 * c.majority_top1,
                c.positions
            );
            println!("  {:<10} {:>9} {:>8} {:>9} {:>9}", "offered", "positions", "taken", "network", "majority");
            for o in &c.by_offer {
                println!(
                    "  {:<10} {:>9} {:>7.1}% {:>8.2}% {:>8.2}%",
                    o.offer,
                    o.positions,
                    100.0 * o.taken,
                    100.0 * o.network_top1,
                    100.0 * o.majority_top1
                );
            }
        }
        println!(
            "{} on {}: {:.0} positions/s; checkpoints and metrics.csv in {}",
            report.model, report.device, report.positions_per_s, report.out
        );
    }
    Ok(())
}

/// `--player-vectors D`: the global run conditioned on the player ([`haifu_neural::personal`]), with every
/// player's figures beside the global network's.
fn run_players(
    a: &TrainArgs,
    dims: i64,
    opts: &TrainOptions,
    games: &Games,
    train_set: &Positions,
    test_set: &Positions,
) -> Result<()> {
    let rows = PlayerRows::of(games, train_set, test_set, a.player_min_games);
    let mine = rows.train.iter().filter(|&&r| r > 0).count();
    let visible = !a.json && std::io::IsTerminal::is_terminal(&std::io::stderr());
    if !a.json {
        eprintln!(
            "{}: {} players with {}+ training games, {mine} of their training positions; {} test positions",
            a.dataset.display(),
            rows.names.len(),
            a.player_min_games,
            test_set.len()
        );
    }
    let bar = haifu::progress::counter(visible, mine, "positions");
    let report = train_players(train_set, test_set, &rows, dims, a.player_min_games, opts, &|epoch, done, _| {
        if let Some(b) = &bar {
            b.set_position(done as u64);
            b.set_message(format!("epoch {epoch}"));
        }
    })?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if a.json {
        println!("{}", serde_json::to_string(&report)?);
        return Ok(());
    }
    println!(
        "{:<24} {:>7} {:>9} {:>7} {:>9} {:>8} {:>8} {:>8} {:>7} {:>7}",
        "player", "games", "positions", "test g.", "test pos.", "global", "hidden", "own", "gain", "vector"
    );
    for g in &report.players {
        println!(
            "{:<24} {:>7} {:>9} {:>7} {:>9} {:>7.2}% {:>7.2}% {:>7.2}% {:>+7.2} {:>+7.2}",
            g.player,
            g.training_games,
            g.training_positions,
            g.test_games,
            g.test_positions,
            100.0 * g.global_top1,
            100.0 * g.everyone_top1,
            100.0 * g.personal_top1,
            g.gain_points,
            g.vector_gain_points
        );
    }
    let j = &report.judged;
    println!(
        "players with {}+ games on both sides: {} of {} better than the global network ({:.0}%), mean gain {:+.2} \
         points; {} better than with the player hidden, mean {:+.2}",
        report.min_games,
        j.better,
        j.players,
        100.0 * j.share_better,
        j.mean_gain_points,
        j.better_than_everyone,
        j.mean_vector_gain_points
    );
    for g in &report.by_training_positions {
        println!(
            "  {}-{} training positions: {} of {} better, mean gain {:+.2} points",
            g.training_positions.0, g.training_positions.1, g.better, g.players, g.mean_gain_points
        );
    }
    println!(
        "every test position: own {:.2}%, global {:.2}%, player hidden {:.2}%; vectors of {} numbers, \
         checkpoints and players.json in {}",
        100.0 * report.test_top1,
        100.0 * report.global_test_top1,
        100.0 * report.everyone_test_top1,
        report.vectors.dims,
        report.out
    );
    Ok(())
}
