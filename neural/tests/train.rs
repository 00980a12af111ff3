//! Training on CPU: an MLP learns the shanten-greedy bots' discards above chance on games it never saw,
//! and the same seed gives the same run.

use haifu_neural::eval::{hits, load_run};
use haifu_neural::positions::{of_game, Positions};
use haifu_neural::train::{train, DeviceChoice, TrainOptions, TrainReport, Tune};
use haifu_neural::{held_out, model::Arch};
use haifu_sim::bot::{self_play, Bot};
use haifu_sim::style::{Style, StyleBot};

/// Positions of greedy style-bot games (4-player east-only), split by game as `haifu train` splits them.
fn positions(games: u64) -> (Positions, Positions) {
    let (mut train, mut test) = (Positions::default(), Positions::default());
    for seed in 0..games {
        let mut bots: Vec<StyleBot> =
            (0..4).map(|i| StyleBot::new(Style::preset("greedy").unwrap(), seed * 4 + i)).collect();
        let mut refs: Vec<&mut dyn Bot> = bots.iter_mut().map(|b| b as &mut dyn Bot).collect();
        let rec = self_play(225, seed, &mut refs).unwrap();
        let id = seed as i64 * 7919;
        let p = of_game(id, &rec).unwrap();
        if held_out(id) {
            test.extend(p);
        } else {
            train.extend(p);
        }
    }
    (train, test)
}

fn run(train_set: &Positions, test_set: &Positions, seed: u64, out: &std::path::Path) -> TrainReport {
    run_arch(Arch::Mlp, train_set, test_set, seed, out, false)
}

fn run_arch(
    arch: Arch,
    train_set: &Positions,
    test_set: &Positions,
    seed: u64,
    out: &std::path::Path,
    bf16: bool,
) -> TrainReport {
    let opts = TrainOptions {
        layers: 2,
        // small convolutions and attention; the flat networks at their width
        channels: if matches!(arch, Arch::Cnn | Arch::Transformer) { 16 } else { arch.default_channels() },
        epochs: 4,
        batch: 256,
        device: DeviceChoice::Cpu,
        seed,
        augment: arch == Arch::DenseMlp,
        bf16,
        ..TrainOptions::new(arch, out.to_path_buf())
    };
    train(train_set, test_set, &opts).unwrap()
}

#[test]
fn an_mlp_learns_greedy_discards_and_repeats_from_its_seed() {
    let (train_set, test_set) = positions(60);
    assert!(train_set.len() > 5_000 && !test_set.is_empty(), "{} / {}", train_set.len(), test_set.len());
    // chance: a uniformly random legal kind
    let chance: f64 =
        test_set.legal.iter().map(|m| 1.0 / f64::from(m.count_ones())).sum::<f64>() / test_set.len() as f64;
    let dir = std::env::temp_dir().join(format!("haifu-neural-train-{}", std::process::id()));
    let a = run(&train_set, &test_set, 7, &dir.join("a"));
    // the greedy bots break shanten ties at random, so about a fifth is what can be learnt here (measured
    // 0.17-0.20 over 4 to 12 epochs and three learning rates); a misaligned label or mask stays at chance
    assert!(a.test_top1 > 1.6 * chance, "top-1 {:.3} against chance {:.3}", a.test_top1, chance);
    assert!(a.test_top3 > a.test_top1);
    assert!(a.epochs.first().unwrap().train_loss > a.epochs.last().unwrap().train_loss, "the loss goes down");
    // a checkpoint per epoch and a metrics line per epoch
    for e in 1..=4 {
        assert!(dir.join("a").join(format!("epoch-{e}.ot")).is_file());
    }
    let csv = std::fs::read_to_string(dir.join("a/metrics.csv")).unwrap();
    assert_eq!(csv.lines().count(), 5);
    // the same seed: the same run, to the last bit of every figure
    let b = run(&train_set, &test_set, 7, &dir.join("b"));
    for (x, y) in a.epochs.iter().zip(&b.epochs) {
        assert_eq!((x.train_loss, x.test_loss, x.test_top1), (y.train_loss, y.test_loss, y.test_top1));
    }
    let c = run(&train_set, &test_set, 8, &dir.join("c"));
    assert_ne!(a.epochs[0].train_loss, c.epochs[0].train_loss, "another seed, another run");
    std::fs::remove_dir_all(&dir).ok();
}

/// The CNN (planes gathered from the flat input), the DenseMLP (trained with augmentation) and the
/// Transformer learn the same discards above chance too.
#[test]
fn the_cnn_and_the_densemlp_learn_too() {
    let (train_set, test_set) = positions(60);
    let chance: f64 =
        test_set.legal.iter().map(|m| 1.0 / f64::from(m.count_ones())).sum::<f64>() / test_set.len() as f64;
    let dir = std::env::temp_dir().join(format!("haifu-neural-archs-{}", std::process::id()));
    for arch in [Arch::Cnn, Arch::DenseMlp, Arch::Transformer] {
        let r = run_arch(arch, &train_set, &test_set, 3, &dir.join(arch.to_string()), false);
        assert!(r.test_top1 > 1.6 * chance, "{arch}: top-1 {:.3} against chance {:.3}", r.test_top1, chance);
        // the Transformer reports its learnt topology scales: 8 heads per layer, moved from their start at 1
        if let Some(scales) = &r.topology_scales {
            assert_eq!(scales.iter().map(Vec::len).collect::<Vec<_>>(), vec![8, 8]);
            assert!(scales.iter().flatten().any(|&s| (s - 1.0).abs() > 1e-4), "{scales:?}");
        }
        assert_eq!(r.topology_scales.is_some(), arch == Arch::Transformer);
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `--bf16`: the MLP in bfloat16 learns too, and a run loaded from its last checkpoint (fp32 or bf16) ranks the
/// test positions exactly as the training run's own last evaluation did.
#[test]
fn bf16_learns_and_checkpoints_reload_to_the_same_rankings() {
    let (train_set, test_set) = positions(60);
    let chance: f64 =
        test_set.legal.iter().map(|m| 1.0 / f64::from(m.count_ones())).sum::<f64>() / test_set.len() as f64;
    let dir = std::env::temp_dir().join(format!("haifu-neural-bf16-{}", std::process::id()));
    for bf16 in [false, true] {
        let out = dir.join(if bf16 { "bf16" } else { "fp32" });
        let r = run_arch(Arch::Mlp, &train_set, &test_set, 5, &out, bf16);
        assert_eq!(r.bf16, bf16);
        assert!(r.test_top1 > 1.6 * chance, "bf16 {bf16}: top-1 {:.3} against chance {:.3}", r.test_top1, chance);
        let loaded = load_run(&out, DeviceChoice::Cpu).unwrap();
        assert_eq!(loaded.info.bf16, bf16);
        let hits = hits(&loaded, &test_set, 256);
        let (first, top3) =
            hits.iter().fold((0usize, 0usize), |(f, t), &(a, b)| (f + usize::from(a), t + usize::from(b)));
        assert_eq!(first as f64 / test_set.len() as f64, r.test_top1, "bf16 {bf16}");
        assert_eq!(top3 as f64 / test_set.len() as f64, r.test_top3, "bf16 {bf16}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `--channels` sets the flat networks' hidden width, and a run of another width than 512 loads back as itself.
#[test]
fn a_flat_network_of_another_width_saves_and_loads() {
    let (train_set, test_set) = positions(20);
    assert!(!test_set.is_empty());
    let out = std::env::temp_dir().join(format!("haifu-neural-width-{}", std::process::id()));
    let opts = TrainOptions {
        layers: 2,
        channels: 24,
        epochs: 1,
        batch: 256,
        device: DeviceChoice::Cpu,
        ..TrainOptions::new(Arch::DenseMlp, out.clone())
    };
    let r = train(&train_set, &test_set, &opts).unwrap();
    let loaded = load_run(&out, DeviceChoice::Cpu).unwrap();
    let shapes: std::collections::HashMap<String, Vec<i64>> =
        loaded.tensors().into_iter().map(|(n, s, _)| (n, s)).collect();
    // DenseMLP: the second layer reads the input and the first layer's 24 outputs
    assert_eq!(shapes["hidden0.linear.weight"], vec![24, 999]);
    assert_eq!(shapes["hidden1.linear.weight"], vec![24, 999 + 24]);
    assert_eq!(shapes["out.weight"], vec![34, 999 + 48]);
    let hits = hits(&loaded, &test_set, 256);
    let first = hits.iter().filter(|h| h.0).count();
    assert_eq!(first as f64 / test_set.len() as f64, r.test_top1);
    std::fs::remove_dir_all(&out).ok();
}

/// `--tune bias` on top of an `--init` run: the output biases move, every other tensor (batch norm's statistics
/// too) stays the init's; without `--init` it is refused.
#[test]
fn tuning_the_bias_moves_the_bias_alone() {
    let (train_set, test_set) = positions(20);
    let dir = std::env::temp_dir().join(format!("haifu-neural-tune-{}", std::process::id()));
    let base = TrainOptions {
        layers: 2,
        epochs: 1,
        batch: 256,
        device: DeviceChoice::Cpu,
        ..TrainOptions::new(Arch::Mlp, dir.join("global"))
    };
    train(&train_set, &test_set, &base).unwrap();
    let tuned = TrainOptions {
        out: dir.join("bias"),
        init: Some(dir.join("global")),
        tune: Tune::Bias,
        epochs: 2,
        lr: 1e-2,
        ..base.clone()
    };
    train(&train_set, &test_set, &tuned).unwrap();
    let tensors = |run: &str| -> std::collections::HashMap<String, tch::Tensor> {
        let vs = load_run(&dir.join(run), DeviceChoice::Cpu).unwrap();
        vs.variables()
    };
    let (before, after) = (tensors("global"), tensors("bias"));
    assert_eq!(before.len(), after.len());
    for (name, t) in &before {
        let same = t.equal(&after[name]);
        assert_eq!(same, name != "out.bias", "{name}");
    }
    let refused = TrainOptions { out: dir.join("refused"), tune: Tune::Bias, ..base.clone() };
    assert!(train(&train_set, &test_set, &refused).is_err());
    std::fs::remove_dir_all(&dir).ok();
}

/// A choices run on self-play games: its figures are those of its test positions, by kind of option (the
/// yakuhai bots pon value honors and decline every chi), it is refused as a discard model, and the
/// augmentations, which move tiles and not classes, are refused.
#[test]
fn a_choices_run_reports_by_offer_and_is_no_discard_model() {
    use haifu_neural::choices::ChoiceFigures;
    use haifu_neural::train::Decisions;
    let (mut train_set, mut test_set) = (Positions::default(), Positions::default());
    for seed in 0..200u64 {
        let names = ["yakuhai"; 4];
        let mut bots: Vec<StyleBot> = names
            .iter()
            .enumerate()
            .map(|(i, n)| StyleBot::new(Style::preset(n).unwrap(), seed * 4 + i as u64))
            .collect();
        let mut refs: Vec<&mut dyn Bot> = bots.iter_mut().map(|b| b as &mut dyn Bot).collect();
        let rec = self_play(225, seed, &mut refs).unwrap();
        let id = seed as i64 * 7919;
        let p = haifu_neural::choices_of_game(id, &rec).unwrap();
        if held_out(id) {
            test_set.extend(p);
        } else {
            train_set.extend(p);
        }
    }
    assert!(train_set.len() > 3_000 && test_set.len() > 200, "{} / {}", train_set.len(), test_set.len());
    let dir = std::env::temp_dir().join(format!("haifu-choices-{}", std::process::id()));
    let opts = TrainOptions {
        layers: 2,
        epochs: 2,
        batch: 256,
        device: DeviceChoice::Cpu,
        decisions: Decisions::Choices,
        ..TrainOptions::new(Arch::Mlp, dir.clone())
    };
    let report = train(&train_set, &test_set, &opts).unwrap();
    let f: ChoiceFigures = report.choices.clone().expect("a choices run reports its figures");
    assert_eq!(f.positions, test_set.len());
    assert!((f.network_top1 - report.test_top1).abs() < 1e-9, "{f:?} / {}", report.test_top1);
    let pon = f.by_offer.iter().find(|o| o.offer == "pon").expect("pons offered");
    let chi = f.by_offer.iter().find(|o| o.offer == "chi").expect("chi offered");
    assert!(pon.taken > 0.05 && chi.taken == 0.0 && chi.majority_top1 == 1.0, "{f:?}");
    let offered: usize = f.by_offer.iter().map(|o| o.positions).sum();
    assert!(offered >= f.positions, "every position offers a kind: {f:?}");
    let refused = load_run(&dir, DeviceChoice::Cpu).err().expect("a choices run is no discard model").to_string();
    assert!(refused.contains("choices"), "{refused}");
    let augmented = TrainOptions { augment: true, out: dir.join("augmented"), ..opts };
    assert!(train(&train_set, &test_set, &augmented).is_err(), "the augmentations move tiles, not classes");
    let _ = std::fs::remove_dir_all(&dir);
}

/// On the real corpus's four-player games, an MLP (two layers, two epochs: settings fixed before any run)
/// chooses as the players did more often than the majority choice of each set of options, overall and on the
/// pons (where the majority declines three times in four).
#[test]
fn an_mlp_beats_the_majority_choice_on_the_corpus() {
    use haifu_neural::train::Decisions;
    let Some(corpus) = haifu_testkit::corpus_dir() else { return };
    let dir = std::env::temp_dir().join(format!("haifu-choices-corpus-{}", std::process::id()));
    let ds = dir.join("ds");
    let files = haifu_ingest::source::expand_inputs(&[corpus.join("mjlog")], &[]).unwrap();
    let opts = haifu_ingest::pipeline::IngestOptions { out: ds.clone(), ..Default::default() };
    haifu_ingest::pipeline::ingest(&files, &opts, &haifu_ingest::pipeline::Silent).unwrap();
    let split = haifu_neural::Split { players: 4, decisions: Decisions::Choices, ..Default::default() };
    let (train_set, test_set) = haifu_neural::load(&ds, &haifu_neural::Games::read(&ds).unwrap(), &split).unwrap();
    assert!(train_set.len() > 100_000, "{}", train_set.len());
    let opts = TrainOptions {
        layers: 2,
        epochs: 2,
        device: DeviceChoice::Cpu,
        decisions: Decisions::Choices,
        ..TrainOptions::new(Arch::Mlp, dir.join("run"))
    };
    let f = train(&train_set, &test_set, &opts).unwrap().choices.unwrap();
    assert!(f.network_top1 > f.majority_top1 + 0.01, "{f:?}");
    let pon = f.by_offer.iter().find(|o| o.offer == "pon").unwrap();
    assert!(pon.network_top1 > pon.majority_top1 + 0.02, "{f:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
