//! `haifu train`: a neural baseline (SPEC 5.1) trained on the positions of a dataset (its arguments:
//! src/train.rs of the `haifu` package).

use anyhow::Result;

use haifu::train::TrainArgs;
use haifu_neural::train::{train_with_progress, warm_up, TrainOptions};
use haifu_neural::{load, Games, Split};

pub fn run(a: &TrainArgs) -> Result<()> {
    let split = Split {
        years: a.years.clone(),
        test_years: a.test_years.clone(),
        players: a.players,
        player: a.player.clone(),
        fraction: a.fraction,
        decisions: a.decisions,
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
    };
    // a GPU's fixed start costs paid while the positions are read (haifu_neural::train::warm_up)
    let warming = std::thread::spawn({
        let opts = opts.clone();
        move || warm_up(&opts)
    });
    let (train_set, test_set) = load(&a.dataset, &Games::read(&a.dataset)?, &split)?;
    let warmup_s = warming.join().map_err(|_| anyhow::anyhow!("readying the device failed"))??;
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
