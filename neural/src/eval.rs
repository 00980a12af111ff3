//! A trained run against the positions of test years, per player and overall, in the shape of
//! `haifu imitate eval`'s counts (n_all, c_first, c_top3, r_first, r_top3, coverage), so that the two sit
//! side by side. The positions are the decisions that `haifu imitate eval` ranks by default (every discard
//! but those of a seat already in riichi); a network always answers, so its coverage is 1.

use std::path::Path;

use anyhow::{bail, Context, Result};
use serde::Serialize;
use tch::nn;
use tch::{Device, Tensor};

use crate::model::{Net, PlayerNet};
use crate::positions::Positions;
use crate::train::{score, top3_hits, Decisions, DeviceChoice, OnDevice, RunInfo};

/// Counts of one player or of everyone.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Counts {
    pub n_all: u64,
    pub c_first: u64,
    pub c_top3: u64,
}

impl Counts {
    pub fn to_json(&self) -> serde_json::Value {
        let r = |c: u64| (self.n_all > 0).then(|| c as f64 / self.n_all as f64);
        serde_json::json!({
            "n_all": self.n_all, "c_first": self.c_first, "c_top3": self.c_top3,
            "r_first": r(self.c_first), "r_top3": r(self.c_top3), "coverage": (self.n_all > 0).then_some(1.0),
        })
    }
}

/// The network of a run directory, its last checkpoint loaded.
pub struct Loaded {
    pub info: RunInfo,
    net: Net,
    vs: nn::VarStore,
    device: Device,
}

impl Loaded {
    /// Every variable of the checkpoint by name (batch norm's running statistics too).
    pub fn variables(&self) -> std::collections::HashMap<String, tch::Tensor> {
        self.vs.variables()
    }

    /// The device the network runs on.
    pub fn device(&self) -> Device {
        self.device
    }

    /// Positions per forward pass when the user names none: 50,000 for the flat networks on a GPU (on an
    /// H200 the MLP scored 616,384 positions at 4.1 M/s in batches of 5,000 and 5.0 M/s in batches of 50,000,
    /// docs/PERFORMANCE.md), 5,000 otherwise (the CNN's and Transformer's activations grow ten times as fast
    /// with the batch, and a CPU gains nothing).
    pub fn default_batch(&self) -> usize {
        match self.net {
            Net::Flat(_) if self.device.is_cuda() => 50_000,
            _ => 5_000,
        }
    }

    /// Every named tensor of the checkpoint with its shape and whether it is trained (batch norm's running
    /// statistics are not), by name (`haifu neural inspect`).
    pub fn tensors(&self) -> Vec<(String, Vec<i64>, bool)> {
        let mut v: Vec<_> = self.vs.variables().into_iter().map(|(n, t)| (n, t.size(), t.requires_grad())).collect();
        v.sort();
        v
    }

    /// The Transformer's learnt `topology_scale` per layer and head (none for the other models).
    pub fn topology_scales(&self) -> Option<Vec<Vec<f64>>> {
        match &self.net {
            Net::Transformer(t) => Some(t.topology_scales()),
            _ => None,
        }
    }
}

pub fn load_run(dir: &Path, device: DeviceChoice) -> Result<Loaded> {
    load_run_of(dir, device, Decisions::Discards)
}

/// [`load_run`] of a run that ranks `decisions` (a choices run for the choices, a discard run for the discards).
pub fn load_run_of(dir: &Path, device: DeviceChoice, decisions: Decisions) -> Result<Loaded> {
    let info = RunInfo::read(dir)?;
    if info.decisions() != decisions {
        bail!(
            "{}: a network of the {:?} (`haifu train --decisions`), where one of the {decisions:?} is asked for",
            dir.display(),
            info.decisions()
        );
    }
    if info.epochs == 0 {
        bail!("{}: no epoch finished yet (no checkpoint)", dir.display());
    }
    if info.player_vectors.is_some() {
        bail!(
            "{}: a network conditioned on the player (`haifu train --player-vectors`), which only its own run \
             scores (its report gives each player's figures); score positions with its --init run, the global \
             network it was built on",
            dir.display()
        );
    }
    open(dir, info, device)
}

/// A network conditioned on the player (`haifu train --player-vectors`) and its players in row order (row
/// `i + 1` is `players[i]`, row 0 everyone's).
pub struct PlayersRun {
    pub run: Loaded,
    pub players: Vec<String>,
}

/// A `--player-vectors` run of the discards, for scoring positions with its players' vectors.
pub fn load_players_run(dir: &Path, device: DeviceChoice) -> Result<PlayersRun> {
    let info = RunInfo::read(dir)?;
    if info.player_vectors.is_none() {
        bail!(
            "{}: not a network conditioned on the players (written by `haifu train --player-vectors`)",
            dir.display()
        );
    }
    if info.decisions() != Decisions::Discards {
        bail!("{}: a network of the {:?}; the discards' is asked for", dir.display(), info.decisions());
    }
    if info.epochs == 0 {
        bail!("{}: no epoch finished yet (no checkpoint)", dir.display());
    }
    let players = crate::personal::read_players(dir)?;
    Ok(PlayersRun { run: open(dir, info, device)?, players })
}

impl PlayersRun {
    /// The log-probability of each position's played kind with each of `rows`' vectors (row 0: everyone's):
    /// `[rows][positions]`.
    pub fn label_log_probs(&self, p: &Positions, rows: &[u32], batch: usize) -> Vec<Vec<f32>> {
        rows.iter()
            .map(|&row| {
                let data = OnDevice::new(p, self.run.device, false).with_players(&vec![row; p.len()]);
                let mut out = Vec::with_capacity(p.len());
                score(&self.run.net, &data, p.len(), batch, |logits, y| {
                    let lp = logits.log_softmax(-1, tch::Kind::Float).gather(1, &y.unsqueeze(1), false);
                    let lp = lp.squeeze_dim(1).to_device(Device::Cpu).contiguous();
                    out.extend(Vec::<f32>::try_from(lp).unwrap_or_default());
                });
                out
            })
            .collect()
    }
}

impl PlayersRun {
    /// The log-probabilities over the 34 kinds of each position with its own row's vector (`rows`, a row a
    /// position; row 0 everyone's), illegal kinds about -1e9.
    pub fn log_probabilities(&self, p: &Positions, rows: &[u32], batch: usize) -> Probabilities {
        let data = OnDevice::new(p, self.run.device, false).with_players(rows);
        per_kind_of(&self.run, &data, p.len(), batch, |logits| logits.log_softmax(-1, tch::Kind::Float))
    }
}

/// A run's network for its weights only (`haifu neural inspect`): any run with a checkpoint, a network
/// conditioned on the player too (which the scoring functions here do not take: [`load_run_of`] refuses it).
pub fn load_weights(dir: &Path, device: DeviceChoice) -> Result<Loaded> {
    let info = RunInfo::read(dir)?;
    if info.epochs == 0 {
        bail!("{}: no epoch finished yet (no checkpoint)", dir.display());
    }
    open(dir, info, device)
}

/// The network `info` describes, its last checkpoint in `dir` loaded.
fn open(dir: &Path, info: RunInfo, device: DeviceChoice) -> Result<Loaded> {
    let shape = info.shape().with_context(|| dir.display().to_string())?;
    let device = crate::train::device(device)?;
    let mut vs = nn::VarStore::new(device);
    // the weights drawn are replaced by the checkpoint's, but drawn under the generator's lock all the same
    // (a test of one seed giving one run failed once in two CI runs while another test loaded a checkpoint)
    let net = match info.player_vectors {
        Some(v) => {
            let _one = crate::generator();
            let net = PlayerNet::new(&vs.root(), shape, v.rows, v.dims).map_err(|e| anyhow::anyhow!("{e}"))?;
            Net::Players(Box::new(net))
        }
        None => Net::drawn(&vs.root(), shape, None),
    };
    if info.bf16 {
        vs.bfloat16();
    }
    vs.load(info.checkpoint(dir))?;
    Ok(Loaded { info, net, vs, device })
}

/// For each position, whether the played kind is the network's first choice and whether it is in its top 3.
pub fn hits(run: &Loaded, p: &Positions, batch: usize) -> Vec<(bool, bool)> {
    scored(run, p, batch).hits
}

/// [`hits`] and where its time went.
pub struct Scored {
    pub hits: Vec<(bool, bool)>,
    /// Seconds to put the positions on the device (features, legal kinds, labels).
    pub upload_s: f64,
    /// Seconds of the whole path (upload, scoring, hits back) run once over the first batch, before the timed
    /// run: on a GPU the fixed costs of a first use (CUDA loads a kernel when it first runs, the allocator
    /// takes its memory), reported on their own as a training script's warm-up steps are.
    pub warmup_s: f64,
    /// Seconds of the forward passes and rankings, up to the hits back in memory.
    pub score_s: f64,
}

impl Scored {
    /// Positions scored per second of upload and scoring (the warm-up not counted).
    pub fn positions_per_s(&self) -> f64 {
        self.hits.len() as f64 / (self.upload_s + self.score_s).max(1e-9)
    }
}

/// [`hits`], timed.
pub fn scored(run: &Loaded, p: &Positions, batch: usize) -> Scored {
    let sync = || {
        if let Device::Cuda(i) = run.device {
            tch::Cuda::synchronize(i as i64);
        }
    };
    let t = std::time::Instant::now();
    let head = p.select(|i| i < batch);
    let _ = ranked(run, &OnDevice::new(&head, run.device, run.info.bf16), head.len(), batch);
    sync();
    let warmup_s = t.elapsed().as_secs_f64();
    let t = std::time::Instant::now();
    let data = OnDevice::new(p, run.device, run.info.bf16);
    sync();
    let upload_s = t.elapsed().as_secs_f64();
    let t = std::time::Instant::now();
    let hits = ranked(run, &data, p.len(), batch);
    Scored { hits, upload_s, warmup_s, score_s: t.elapsed().as_secs_f64() }
}

/// For the first `n` positions of `data`, whether the played kind is first and whether it is in the top 3.
fn ranked(run: &Loaded, data: &OnDevice, n: usize, batch: usize) -> Vec<(bool, bool)> {
    // the hits stay on the device until the last batch: one copy back, no wait between batches
    let mut parts = Vec::new();
    score(&run.net, data, n, batch, |logits, y| parts.push(top3_hits(logits, y)));
    if parts.is_empty() {
        return Vec::new();
    }
    let hit = Tensor::cat(&parts, 0).to_device(Device::Cpu);
    let first: Vec<bool> = Vec::try_from(hit.narrow(1, 0, 1).squeeze_dim(1)).unwrap_or_default();
    let any: Vec<bool> = Vec::try_from(hit.any_dim(1, false)).unwrap_or_default();
    first.into_iter().zip(any).collect()
}

/// A network's probabilities over the 34 kinds for each position (illegal kinds 0).
pub type Probabilities = Vec<[f32; 34]>;

/// The network's probabilities over the 34 kinds for each position, illegal kinds 0.
pub fn probabilities(run: &Loaded, p: &Positions, batch: usize) -> Probabilities {
    per_kind(run, p, batch, |logits| logits.softmax(-1, tch::Kind::Float))
}

/// The network's log-probabilities over the 34 kinds for each position, illegal kinds about -1e9:
/// unlike the logarithm of [`probabilities`], a probability too small for a float keeps its value.
pub fn log_probabilities(run: &Loaded, p: &Positions, batch: usize) -> Probabilities {
    per_kind(run, p, batch, |logits| logits.log_softmax(-1, tch::Kind::Float))
}

/// `of` the masked logits, 34 numbers a position.
fn per_kind(run: &Loaded, p: &Positions, batch: usize, of: impl Fn(&Tensor) -> Tensor) -> Probabilities {
    per_kind_of(run, &OnDevice::new(p, run.device, run.info.bf16), p.len(), batch, of)
}

/// [`per_kind`] of the first `n` positions on the device.
fn per_kind_of(run: &Loaded, data: &OnDevice, n: usize, batch: usize, of: impl Fn(&Tensor) -> Tensor) -> Probabilities {
    let mut out = Vec::with_capacity(n);
    score(&run.net, data, n, batch, |logits, _| {
        let values = of(logits).to_device(Device::Cpu).contiguous();
        let flat: Vec<f32> = Vec::try_from(values.view([-1])).unwrap_or_default();
        out.extend(flat.chunks_exact(34).map(|c| <[f32; 34]>::try_from(c).expect("34 kinds")));
    });
    out
}
