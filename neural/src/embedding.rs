//! The learned style embedding (issue 50; the inputs and the identification by centroids are
//! `haifu_style::embedding`'s): a two-layer network maps one game of one seat to a unit vector, trained as a
//! classifier over the reference games' players whose logits are the scaled cosines between the embedding and
//! one learned direction per player (a normalised softmax: what is learned is an angle, so that games of one
//! player gather around a direction and a centroid of new players' games is meaningful). The classifier's
//! directions are dropped after training: an unseen player is known only by the centroid of their games.
//!
//! The settings are chosen once, before any run on real players ([`EmbeddingSettings::default`]), not tuned to the
//! corpus.

use std::path::Path;

use anyhow::{bail, Context, Result};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};
use tch::nn::{self, ModuleT};
use tch::{Device, Tensor};

use crate::adam::FlatAdam;

/// How the embedding is trained.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct EmbeddingSettings {
    pub hidden: i64,
    /// The embedding's length.
    pub dim: i64,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f64,
    /// The cosine logits' scale (a normalised softmax needs one: cosines alone lie in [-1, 1]).
    pub scale: f64,
    /// Dropout on the hidden layer while training.
    pub dropout: f64,
    pub seed: u64,
}

impl Default for EmbeddingSettings {
    fn default() -> EmbeddingSettings {
        EmbeddingSettings { hidden: 256, dim: 64, epochs: 40, batch: 256, lr: 1e-3, scale: 16.0, dropout: 0.2, seed: 0 }
    }
}

/// What is saved beside the weights: the settings and each input's standardisation.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Saved {
    settings: EmbeddingSettings,
    inputs: usize,
    mean: Vec<f32>,
    std: Vec<f32>,
    /// Reference games and players it was trained on.
    games: usize,
    players: usize,
}

const SETTINGS_FILE: &str = "embedding.json";
const WEIGHTS_FILE: &str = "embedding.safetensors";

/// The trained network.
pub struct StyleNet {
    vs: nn::VarStore,
    net: nn::SequentialT,
    saved: Saved,
}

fn network(p: &nn::Path, inputs: usize, s: &EmbeddingSettings) -> nn::SequentialT {
    let dropout = s.dropout;
    nn::seq_t()
        .add(nn::linear(p / "hidden", inputs as i64, s.hidden, Default::default()))
        .add_fn(|x| x.relu())
        .add_fn_t(move |x, train| x.dropout(dropout, train))
        .add(nn::linear(p / "out", s.hidden, s.dim, Default::default()))
}

/// Rows as one tensor, standardised by `mean` and `std`.
fn tensor_of(rows: &[Vec<f32>], mean: &[f32], std: &[f32], device: Device) -> Result<Tensor> {
    let n = mean.len();
    let mut flat = Vec::with_capacity(rows.len() * n);
    for (i, r) in rows.iter().enumerate() {
        if r.len() != n {
            bail!("embedding input {i} has {} numbers; the network reads {n}", r.len());
        }
        flat.extend(r.iter().zip(mean).zip(std).map(|((x, m), s)| (x - m) / s));
    }
    Ok(Tensor::from_slice(&flat).view([rows.len() as i64, n as i64]).to_device(device))
}

impl StyleNet {
    /// Trains on `inputs` labelled with their player (`0..players`) on `device`.
    pub fn fit(
        inputs: &[Vec<f32>],
        labels: &[usize],
        players: usize,
        settings: &EmbeddingSettings,
        device: Device,
    ) -> Result<StyleNet> {
        let Some(n) = inputs.first().map(Vec::len) else { bail!("the embedding has no games to train on") };
        if players < 2 {
            bail!("the embedding needs two players or more to tell apart ({players} given)");
        }
        let (mut mean, mut std) = (vec![0f32; n], vec![0f32; n]);
        for r in inputs {
            mean.iter_mut().zip(r).for_each(|(m, x)| *m += x / inputs.len() as f32);
        }
        for r in inputs {
            std.iter_mut().zip(r).zip(&mean).for_each(|((s, x), m)| *s += (x - m).powi(2) / inputs.len() as f32);
        }
        std.iter_mut().for_each(|s| *s = if *s > 1e-12 { s.sqrt() } else { 1.0 });
        let saved = Saved { settings: settings.clone(), inputs: n, mean, std, games: inputs.len(), players };
        let vs = nn::VarStore::new(device);
        let (net, directions) = {
            let _one = crate::generator();
            tch::manual_seed(settings.seed as i64);
            let net = network(&(vs.root() / "embedding"), n, settings);
            let directions = (vs.root() / "classifier").randn("directions", &[players as i64, settings.dim], 0.0, 1.0);
            (net, directions)
        };
        let x = tensor_of(inputs, &saved.mean, &saved.std, device)?;
        let y = Tensor::from_slice(&labels.iter().map(|&l| l as i64).collect::<Vec<_>>()).to_device(device);
        let mut adam = FlatAdam::new(&vs, settings.lr);
        let mut order: Vec<i64> = (0..inputs.len() as i64).collect();
        let mut rng = rand::rngs::StdRng::seed_from_u64(settings.seed);
        for _ in 0..settings.epochs {
            order.shuffle(&mut rng);
            for batch in order.chunks(settings.batch) {
                let at = Tensor::from_slice(batch).to_device(device);
                let e = net.forward_t(&x.index_select(0, &at), true);
                let cos = unit(&e).matmul(&unit(&directions).tr());
                let loss = (cos * settings.scale).cross_entropy_for_logits(&y.index_select(0, &at));
                adam.backward_step(&loss);
            }
        }
        Ok(StyleNet { vs, net, saved })
    }

    /// The unit embeddings of `inputs`.
    pub fn embed(&self, inputs: &[Vec<f32>]) -> Result<Vec<Vec<f32>>> {
        if inputs.is_empty() {
            return Ok(Vec::new());
        }
        let x = tensor_of(inputs, &self.saved.mean, &self.saved.std, self.vs.device())?;
        let e = tch::no_grad(|| unit(&self.net.forward_t(&x, false))).to_device(Device::Cpu).contiguous();
        let flat = Vec::<f32>::try_from(e.view([-1]))?;
        Ok(flat.chunks(self.saved.settings.dim as usize).map(<[f32]>::to_vec).collect())
    }

    /// Writes the weights and the settings into `dir`.
    pub fn save(&self, dir: &Path) -> Result<()> {
        std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create the folder", dir.display()))?;
        self.vs.save(dir.join(WEIGHTS_FILE)).with_context(|| format!("{}: cannot write", dir.display()))?;
        std::fs::write(dir.join(SETTINGS_FILE), serde_json::to_string_pretty(&self.saved)?)?;
        Ok(())
    }

    /// An embedding written by [`StyleNet::save`], on `device`.
    pub fn load(dir: &Path, device: Device) -> Result<StyleNet> {
        let at = dir.join(SETTINGS_FILE);
        let text = std::fs::read_to_string(&at)
            .with_context(|| format!("{}: no embedding here (written by --embedding-out)", at.display()))?;
        let saved: Saved =
            serde_json::from_str(&text).with_context(|| format!("{}: not an embedding", at.display()))?;
        let mut vs = nn::VarStore::new(device);
        let net = network(&(vs.root() / "embedding"), saved.inputs, &saved.settings);
        // the classifier's directions are saved too; a placeholder of their shape lets the file load whole
        let _ = (vs.root() / "classifier").zeros("directions", &[saved.players as i64, saved.settings.dim]);
        vs.load(dir.join(WEIGHTS_FILE)).with_context(|| format!("{}: cannot read the weights", dir.display()))?;
        Ok(StyleNet { vs, net, saved })
    }

    /// The length of the input vector the network reads.
    pub fn inputs(&self) -> usize {
        self.saved.inputs
    }
}

/// Each row made unit length.
fn unit(x: &Tensor) -> Tensor {
    x / x.norm_scalaropt_dim(2, [1], true).clamp_min(1e-12)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three players whose games differ in one input each, plus noise everywhere: after training, a player's
    /// games lie nearer one another than another's, for the players trained on and for a fourth never seen.
    #[test]
    fn games_of_one_player_embed_close_and_others_far() {
        let mut state = 12345u64;
        let mut noise = move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((state >> 33) as f32 / (1u64 << 31) as f32) - 0.5
        };
        let mut game = |p: usize| -> Vec<f32> {
            let mut x: Vec<f32> = (0..12).map(|_| noise()).collect();
            x[p] += 2.0;
            x
        };
        let (mut xs, mut labels) = (Vec::new(), Vec::new());
        for i in 0..300 {
            xs.push(game(i % 3));
            labels.push(i % 3);
        }
        let settings = EmbeddingSettings { epochs: 30, ..EmbeddingSettings::default() };
        let net = StyleNet::fit(&xs, &labels, 3, &settings, Device::Cpu).unwrap();
        let probe: Vec<Vec<f32>> = (0..40).map(|i| game(i % 4)).collect();
        let e = net.embed(&probe).unwrap();
        let dot = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f32>();
        assert!(e.iter().all(|v| (dot(v, v) - 1.0).abs() < 1e-4));
        let (mut same, mut other) = ((0.0, 0), (0.0, 0));
        for i in 0..40 {
            for j in 0..i {
                let d = dot(&e[i], &e[j]);
                if i % 4 == j % 4 {
                    same = (same.0 + d, same.1 + 1);
                } else {
                    other = (other.0 + d, other.1 + 1);
                }
            }
        }
        let (same, other) = (same.0 / same.1 as f32, other.0 / other.1 as f32);
        assert!(same > other + 0.3, "same player {same}, others {other}");
        // the saved network embeds alike
        let dir = std::env::temp_dir().join(format!("haifu-embedding-{}", std::process::id()));
        net.save(&dir).unwrap();
        let back = StyleNet::load(&dir, Device::Cpu).unwrap();
        let again = back.embed(&probe).unwrap();
        assert!(e.iter().flatten().zip(again.iter().flatten()).all(|(a, b)| (a - b).abs() < 1e-6));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
