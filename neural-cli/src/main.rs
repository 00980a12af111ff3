//! `haifu-neural`: the network binary. It parses the same command line as `haifu` (the `haifu` library) and
//! runs every command, with [`Torch`] for the network parts; `haifu` hands it the commands that run a network
//! (`haifu::Command::network`: the networks, and the tables as tensors with `--device`) and the demo. It links libtorch (build.rs keeps libtorch_cuda).

use std::collections::HashMap;
use std::path::Path;

use anyhow::{bail, Result};
use serde_json::json;

use haifu::demo::{NetworkStep, GENERATION_YEAR, TEST_YEAR};
use haifu::imitate::{Beside, EvalArgs};
use haifu::NetworkRows;
use haifu_imitate::{EvalOptions, LoadOptions, Selection, TableVariant, Tables, TestData, ALL_SCOPE};
use haifu_neural::eval::{load_run, load_run_of, probabilities, Loaded};
use haifu_neural::hybrid::{side_by_side, side_by_side_json};
use haifu_neural::train::Decisions;
use haifu_neural::train::DeviceChoice;
use haifu_neural::Positions;
use haifu_play::follow::Follower;
use haifu_play::policy::Backoff;

mod embedding;
mod neural;
mod tables;
mod train;
mod vectors;

fn main() {
    haifu::start();
    let cli = haifu::parse_cli();
    haifu::finish(haifu::run(&cli.command, Some(&Torch)))
}

/// The network parts of the commands, with libtorch.
struct Torch;

impl haifu::Network for Torch {
    fn train(&self, a: &haifu::train::TrainArgs) -> Result<()> {
        train::run(a)
    }

    fn neural(&self, c: &haifu::neural::NeuralCommand) -> Result<()> {
        neural::run(c)
    }

    fn backoff(&self, a: &EvalArgs, beside: Beside) -> Result<NetworkRows> {
        let model = a.backoff.as_deref().expect("--backoff gives the model");
        let run = load_run(model, a.device.unwrap_or(DeviceChoice::Auto))?;
        let (results, other_size) =
            side_by_side(&run, beside.data, beside.tables, beside.variants, beside.opts, a.blend, 5000)?;
        if results.is_empty() {
            bail!("--backoff ranks with one table per player: give --table own, all or all-but-own");
        }
        let mut text = neural::side_by_side_text(&results, a.blend, |_| true);
        if other_size > 0 {
            text += &format!(
                "({other_size} decisions of games at tables of the other size left out of the network's rows)\n"
            );
        }
        let json = json!({
            "model": model.display().to_string(), "blend": a.blend,
            "left_out_other_table_size": other_size, "variants": side_by_side_json(&results, |_| true),
        });
        Ok(NetworkRows { json, text })
    }

    fn identify(&self, dir: &Path, db: &haifu_style::StyleDb, positions: &Positions) -> Result<HashMap<String, f64>> {
        let mut out = HashMap::new();
        for p in &db.profiles {
            let run = dir.join(&p.player);
            if !run.join("model.json").is_file() {
                continue;
            }
            let loaded = load_run(&run, DeviceChoice::Auto)?;
            if loaded.info.players != db.meta.rules.players {
                bail!(
                    "{}: a network of {}-player games; the database profiles {}-player games",
                    run.display(),
                    loaded.info.players,
                    db.meta.rules.players
                );
            }
            let probs = probabilities(&loaded, positions, 4096);
            let ll: f64 =
                probs.iter().zip(&positions.label).map(|(q, &k)| f64::from(q[usize::from(k)].max(1e-12)).ln()).sum();
            out.insert(p.player.clone(), ll);
        }
        Ok(out)
    }

    fn mjai_backoff(&self, model: &Path) -> Result<Box<dyn Backoff + Send>> {
        Ok(Box::new(MjaiNetwork { run: load_run(model, DeviceChoice::Auto)? }))
    }

    fn probabilities(&self, model: &Path, positions: &Positions) -> Result<Vec<[f32; 34]>> {
        scored_by(model, positions, Decisions::Discards)
    }

    fn choice_probabilities(&self, model: &Path, positions: &Positions) -> Result<Vec<[f32; 34]>> {
        scored_by(model, positions, Decisions::Choices)
    }

    fn demo(&self, step: &NetworkStep) -> Result<NetworkRows> {
        small_network(step)
    }

    fn table_ranker(&self, tables: &Tables, device: DeviceChoice) -> Result<Box<dyn haifu_imitate::TableRanker>> {
        Ok(Box::new(haifu_neural::lookup::TensorRanker::new(tables, haifu_neural::train::device(device)?)?))
    }

    fn sequence_likelihoods<'a>(
        &self,
        scorer: &'a haifu_style::Scorer<'a>,
        device: DeviceChoice,
    ) -> Result<Box<dyn haifu_style::SequenceLikelihoods + 'a>> {
        Ok(Box::new(tables::TensorLikelihoods::new(scorer, haifu_neural::train::device(device)?)))
    }

    fn style_embedding(
        &self,
        from: Option<&Path>,
        save: Option<&Path>,
    ) -> Result<Box<dyn haifu_style::embedding::Trainer>> {
        Ok(Box::new(embedding::Torch { from: from.map(Path::to_path_buf), save: save.map(Path::to_path_buf) }))
    }

    fn player_vectors(
        &self,
        run: &Path,
        dataset: &Path,
        players: u8,
    ) -> Result<Box<dyn haifu_style::accuracy::PlayerVectors>> {
        Ok(Box::new(vectors::Vectors::load(run, dataset, players)?))
    }

    fn global_network(
        &self,
        run: &Path,
        dataset: &Path,
        players: u8,
    ) -> Result<Box<dyn haifu_style::accuracy::GlobalNetwork>> {
        Ok(Box::new(vectors::Global::load(run, dataset, players)?))
    }
}

/// A trained run of `haifu train` as the mjai player's backoff: the seat's position encoded as in training
/// (the 999 flat features of the same table state), scored on the CPU or GPU the run loads on.
struct MjaiNetwork {
    run: Loaded,
}

impl Backoff for MjaiNetwork {
    fn probabilities(&mut self, f: &Follower) -> Option<[f32; 34]> {
        use haifu_neural::features::{encode, legal, FLAT};
        let mut p = Positions::default();
        let mut row = [0u8; FLAT];
        encode(&f.table, f.seat(), &f.safety, &mut row);
        let mask = legal(&f.table, f.seat()).iter().enumerate().fold(0u64, |m, (k, &ok)| m | (u64::from(ok) << k));
        p.push(&row, mask, 0, 0, f.seat(), f.table.players);
        probabilities(&self.run, &p, 1).first().copied()
    }
}

/// The probabilities of a run of `decisions` at each position, refused for positions of another table size.
fn scored_by(model: &Path, positions: &Positions, decisions: Decisions) -> Result<Vec<[f32; 34]>> {
    let loaded = load_run_of(model, DeviceChoice::Auto, decisions)?;
    if let Some(&other) = positions.players.iter().find(|&&n| n != loaded.info.players) {
        bail!("{}: a network of {}-player games; the game is of {other}", model.display(), loaded.info.players);
    }
    Ok(probabilities(&loaded, positions, 4096))
}

/// The demo's network step: a small MLP on the generation year's positions (CPU, well under a minute on the
/// demo's games), and the test year's decisions ranked with it beside the all-players table.
fn small_network(step: &NetworkStep) -> Result<NetworkRows> {
    use haifu_neural::train::{train, TrainOptions};
    let games = haifu_neural::Games::read(&step.dataset)?;
    let split = haifu_neural::Split {
        years: vec![GENERATION_YEAR],
        test_years: vec![TEST_YEAR],
        players: 4,
        ..Default::default()
    };
    let (train_set, test_set) = haifu_neural::load(&step.dataset, &games, &split)?;
    let opts = TrainOptions {
        layers: 3,
        batch: 256,
        device: DeviceChoice::Cpu,
        seed: step.seed,
        ..TrainOptions::new(haifu_neural::model::Arch::Mlp, step.out.clone())
    };
    let report = train(&train_set, &test_set, &opts)?;
    let run = load_run(&step.out, DeviceChoice::Cpu)?;
    let data = TestData::load(&step.dataset, &Selection { years: vec![TEST_YEAR], ..Default::default() })?;
    let eval = EvalOptions::default();
    let load = LoadOptions {
        scopes: Some(vec![ALL_SCOPE.to_string()]),
        strategies: eval.strategy.strategies(),
        sources: None,
    };
    let tables = Tables::load(&step.tables, &load)?;
    let (beside, _) = side_by_side(&run, data, &tables, &[TableVariant::All], &eval, 0.5, 4096)?;
    let text = format!(
        "\nA small network (MLP, {} layers of 512, {} epochs on CPU, {:.0} s) trained on the {GENERATION_YEAR} \
         decisions, beside the all-players table on the same {TEST_YEAR} ones:\n\n{}",
        report.layers,
        report.epochs.len(),
        report.epochs.iter().map(|e| e.seconds).sum::<f64>(),
        neural::side_by_side_text(&beside, 0.5, |_| true)
    );
    let json = json!({"run": report, "beside_tables": side_by_side_json(&beside, |_| true)});
    Ok(NetworkRows { json, text })
}
