//! Training a flat-input model (SPEC 5.1) on positions: a split by game (no game feeds both sides), Adam
//! with a step learning-rate schedule, the illegal discards masked in the loss and in every ranking, a
//! checkpoint and a metrics line per epoch. Deterministic on CPU for a seed.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use tch::nn::{self, ModuleT};
use tch::{Device, Kind, Tensor};

use crate::adam::FlatAdam;
use crate::augment::Transform;
use crate::features::FLAT;
use crate::model::{masked, Arch, Dims, Net, Scorer, HIDDEN};
use crate::positions::{Positions, PACKED};

pub use haifu_encoding::options::{Decisions, DeviceChoice, Tune};

/// The device to train or score on; `cuda` without a usable GPU is an error that says why.
pub fn device(choice: DeviceChoice) -> Result<Device> {
    match choice {
        DeviceChoice::Cpu => Ok(Device::Cpu),
        DeviceChoice::Auto => Ok(Device::cuda_if_available()),
        DeviceChoice::Cuda if tch::Cuda::is_available() => Ok(Device::Cuda(0)),
        DeviceChoice::Cuda => bail!(
            "--device cuda: libtorch sees no CUDA device (no GPU, or the binary was linked without \
             libtorch_cuda: `readelf -d haifu-neural | grep torch_cuda`)"
        ),
    }
}

#[derive(Clone, Debug)]
pub struct TrainOptions {
    pub arch: Arch,
    /// Hidden layers (seed 004: 4, 5 or 6); the CNN's convolution layers.
    pub layers: usize,
    /// The CNN's channels (seed 004: 100, 200, 300); the MLP's and DenseMLP's hidden width (512); the
    /// Transformer's width.
    pub channels: i64,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f64,
    pub device: DeviceChoice,
    pub seed: u64,
    pub out: PathBuf,
    /// Go on from the last checkpoint in `out` (its Adam moments start again from zero: tch keeps none).
    pub resume: bool,
    /// Each batch moved by one of the twelve augmentations, chosen at random ([`crate::augment`]).
    pub augment: bool,
    /// Weights and activations in bfloat16 (the loss and the rankings in fp32).
    pub bf16: bool,
    /// On a GPU, cuDNN times its convolution algorithms on the first batches of each shape and keeps the
    /// fastest: seconds more in the first epoch, a tenth faster convolutions after it (for long runs of the CNN).
    pub cudnn_benchmark: bool,
    /// Start from another run's last checkpoint (a personal model fine-tuned from the global one); the
    /// network must be of the same shape.
    pub init: Option<PathBuf>,
    /// With `init`: which weights train; the others, batch norm's statistics included, stay the init's (the
    /// network runs in evaluation mode unless all train).
    pub tune: Tune,
    /// With `init`: after the last epoch, every weight (batch-norm statistics too) moved back to
    /// `init + a * (fine-tuned - init)` (weight-space ensembling of the two networks, WiSE-FT: Wortsman et al.,
    /// "Robust fine-tuning of zero-shot models", CVPR 2022); the last checkpoint and figures are of that network.
    pub interpolate: Option<f64>,
    /// What the positions are: discards, or every other choice (their classes, [`crate::choices`]).
    pub decisions: Decisions,
    /// The split the positions came from, recorded in `model.json` (none for positions of no dataset).
    pub sides: Option<haifu_encoding::Sides>,
}

impl TrainOptions {
    /// A run of `arch` into `out` at `haifu train`'s defaults (5 layers, [`Arch::default_channels`], 3 epochs,
    /// batch 5000, lr 1e-3, the device libtorch picks, seed 0); change what differs with struct update syntax.
    pub fn new(arch: Arch, out: PathBuf) -> TrainOptions {
        TrainOptions {
            arch,
            layers: 5,
            channels: arch.default_channels(),
            epochs: 3,
            batch: 5000,
            lr: 1e-3,
            device: DeviceChoice::Auto,
            seed: 0,
            out,
            resume: false,
            augment: false,
            bf16: false,
            cudnn_benchmark: false,
            init: None,
            tune: Tune::All,
            interpolate: None,
            decisions: Decisions::Discards,
            sides: None,
        }
    }

    fn shape(&self) -> Dims {
        Dims { arch: self.arch, layers: self.layers, channels: self.channels }
    }
}

/// `out/model.json`: what a checkpoint of the run is, so that evaluation can rebuild the network.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct RunInfo {
    pub model: String,
    pub layers: usize,
    /// The CNN's channels, the Transformer's width; the flat networks' hidden width where it is not 512
    /// (runs written before it could be set have none).
    #[serde(default)]
    pub channels: Option<i64>,
    /// Seats at the table of the positions (4 or 3).
    pub players: u8,
    pub features: String,
    /// Epochs whose checkpoints are written (`epoch-N.ot`, N = 1..=epochs).
    pub epochs: usize,
    /// The weights are bfloat16 (`--bf16`).
    #[serde(default)]
    pub bf16: bool,
    /// A global network conditioned on the player (`--player-vectors`, [`crate::personal`]): its vectors'
    /// size and rows; the players' names in `players.json`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player_vectors: Option<crate::personal::VectorShape>,
    /// The games it trained on and was tested on (runs before it was recorded have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split: Option<haifu_encoding::Sides>,
}

pub const RUN_INFO: &str = "model.json";
pub use haifu_encoding::choices::CHOICE_FEATURES;
pub use haifu_encoding::features::FEATURES;

impl RunInfo {
    /// A new run of this network on positions of `players` seats (no epoch done).
    pub(crate) fn new(shape: Dims, players: u8, bf16: bool, decisions: Decisions) -> RunInfo {
        RunInfo {
            model: shape.arch.to_string(),
            layers: shape.layers,
            channels: (matches!(shape.arch, Arch::Cnn | Arch::Transformer) || shape.channels != HIDDEN)
                .then_some(shape.channels),
            players,
            features: decisions.features().into(),
            epochs: 0,
            bf16,
            player_vectors: None,
            split: None,
        }
    }

    /// The network the run's checkpoints hold.
    pub fn shape(&self) -> Result<Dims> {
        let arch: Arch = self.model.parse().map_err(|e: String| anyhow::anyhow!("{e}"))?;
        Ok(Dims { arch, layers: self.layers, channels: self.channels.unwrap_or(HIDDEN) })
    }

    /// Refuses the checkpoints of `other` (`what` names the option) unless they are of this network and
    /// table size.
    fn fits(&self, other: &RunInfo, what: &str) -> Result<()> {
        let key = |r: &RunInfo| (r.model.clone(), r.layers, r.channels, r.players, r.bf16, r.features.clone());
        if key(self) != key(other) {
            bail!(
                "{what}: a {} of {} layers ({:?} channels, bf16 {}) on {}-player positions ({}); this run asks a {} of {} ({:?}, bf16 {}) on {} ({})",
                other.model, other.layers, other.channels, other.bf16, other.players, other.features, self.model, self.layers, self.channels, self.bf16, self.players, self.features
            );
        }
        Ok(())
    }

    pub fn read(dir: &std::path::Path) -> Result<RunInfo> {
        let path = dir.join(RUN_INFO);
        let text = std::fs::read_to_string(&path).with_context(|| {
            format!("no {} (a run written by `haifu train --out {}`)", path.display(), dir.display())
        })?;
        let info: RunInfo =
            serde_json::from_str(&text).with_context(|| format!("{} is not a run description", path.display()))?;
        if info.features != FEATURES && info.features != CHOICE_FEATURES {
            bail!(
                "{}: features {:?}, this build encodes {FEATURES:?} (discards) and {CHOICE_FEATURES:?} (choices): \
                 train again",
                path.display(),
                info.features
            );
        }
        Ok(info)
    }

    /// What the run's network ranks.
    pub fn decisions(&self) -> Decisions {
        if self.features == CHOICE_FEATURES {
            Decisions::Choices
        } else {
            Decisions::Discards
        }
    }

    pub(crate) fn write(&self, dir: &std::path::Path) -> Result<()> {
        let path = dir.join(RUN_INFO);
        std::fs::write(&path, serde_json::to_string_pretty(self)? + "\n")
            .with_context(|| format!("writing {}", path.display()))
    }

    /// The checkpoint of the last epoch.
    pub fn checkpoint(&self, dir: &std::path::Path) -> PathBuf {
        dir.join(format!("epoch-{}.ot", self.epochs))
    }
}

/// One epoch's figures (a line of `metrics.csv`).
#[derive(Clone, Debug, Serialize)]
pub struct EpochMetrics {
    pub epoch: usize,
    pub lr: f64,
    pub train_loss: f64,
    pub test_loss: f64,
    pub test_top1: f64,
    pub test_top3: f64,
    pub seconds: f64,
}

impl EpochMetrics {
    /// A new `metrics.csv` with its header.
    pub(crate) fn create(path: &std::path::Path) -> Result<std::fs::File> {
        let mut f = std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
        writeln!(f, "epoch,lr,train_loss,test_loss,test_top1,test_top3,seconds")?;
        Ok(f)
    }

    /// The epoch's line of `metrics.csv`.
    pub(crate) fn write_line(&self, f: &mut impl Write) -> Result<()> {
        let m = self;
        writeln!(
            f,
            "{},{},{:.6},{:.6},{:.6},{:.6},{:.3}",
            m.epoch, m.lr, m.train_loss, m.test_loss, m.test_top1, m.test_top3, m.seconds
        )?;
        Ok(())
    }
}

/// An epoch's end on disk: its line of `metrics.csv`, its checkpoint `epoch-N.ot`, and the run's description
/// saying it is done.
pub(crate) fn save_epoch(
    m: &EpochMetrics,
    metrics: &mut std::fs::File,
    vs: &nn::VarStore,
    out: &std::path::Path,
    info: &mut RunInfo,
) -> Result<()> {
    m.write_line(metrics)?;
    vs.save(out.join(format!("epoch-{}.ot", m.epoch)))?;
    info.epochs = m.epoch;
    info.write(out)
}

/// The order of an epoch's `n` positions on `device`, from a generator of the run's own (seed, epoch), not
/// libtorch's global one; the generator goes on to draw the epoch's augmentations.
pub(crate) fn epoch_order(seed: u64, epoch: usize, n: usize, device: Device) -> (Tensor, StdRng) {
    let mut order: Vec<i64> = (0..n as i64).collect();
    let mut rng = StdRng::seed_from_u64(seed ^ (epoch as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    order.shuffle(&mut rng);
    (Tensor::from_slice(&order).to_device(device), rng)
}

/// What a training run did (`haifu train --json`).
#[derive(Clone, Debug, Serialize)]
pub struct TrainReport {
    pub model: Arch,
    pub layers: usize,
    pub device: String,
    pub positions: usize,
    pub test_positions: usize,
    pub epochs: Vec<EpochMetrics>,
    pub test_top1: f64,
    pub test_top3: f64,
    /// With `--init`: the starting network's test top-1 and top-3 on the same positions, before any step (the
    /// global model beside the personal one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initial: Option<(f64, f64)>,
    /// With `--interpolate`: the fine-tuned network's test top-1 and top-3 before it was moved back towards
    /// the starting one (the reported figures are the interpolated network's).
    pub fine_tuned: Option<(f64, f64)>,
    pub bf16: bool,
    /// Training positions per second of training time (forward, backward and step; evaluation excluded).
    pub positions_per_s: f64,
    /// Seconds of [`warm_up`], when the caller ran it before the run (0 otherwise).
    pub warmup_s: f64,
    /// The Transformer's learnt `topology_scale` per layer and head (seed 000: which structure mattered).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub topology_scales: Option<Vec<Vec<f64>>>,
    /// A choices run: the test figures by kind of option, beside the majority choice's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choices: Option<crate::choices::ChoiceFigures>,
    pub out: String,
}

/// Positions as tensors on the device as [`Positions`] holds them (features bit-packed, legal kinds as a 34-bit
/// mask, labels as bytes: little more than a memory copy each on the CPU), unpacked on the device one batch at a
/// time.
pub(crate) struct OnDevice {
    /// The networks' input type: fp32, or bfloat16 for a `--bf16` run.
    kind: Kind,
    packed: Tensor,
    /// 0..8, the shift of each bit of a byte.
    shifts: Tensor,
    legal: Tensor,
    /// 0..34, the shift of each kind's bit in a legal mask.
    kinds: Tensor,
    y: Tensor,
    /// Each position's player row for a [`crate::model::PlayerNet`] (as the input's last column), or none.
    players: Option<Tensor>,
}

impl OnDevice {
    pub(crate) fn new(p: &Positions, device: Device, bf16: bool) -> OnDevice {
        let n = p.len() as i64;
        let packed = upload(&p.features, Kind::Uint8, device).view([n, PACKED as i64]);
        // the masks' 34 bits fit an i64 as they are
        let legal = upload(&p.legal, Kind::Int64, device);
        let y = upload(&p.label, Kind::Uint8, device).to_kind(Kind::Int64);
        let shifts = Tensor::arange(8, (Kind::Uint8, device));
        let kinds = Tensor::arange(34, (Kind::Int64, device));
        let kind = if bf16 { Kind::BFloat16 } else { Kind::Float };
        OnDevice { kind, packed, shifts, legal, kinds, y, players: None }
    }

    /// The same positions with each one's player row (`rows[i]` for position `i`; 0 for everyone else) as one
    /// more input column, for a [`crate::model::PlayerNet`]. The row is a number in the input's type: exact in
    /// fp32 up to 2^24 players (a `--bf16` run takes no players).
    pub(crate) fn with_players(mut self, rows: &[u32]) -> OnDevice {
        let rows: Vec<i64> = rows.iter().map(|&r| i64::from(r)).collect();
        self.players = Some(Tensor::from_slice(&rows).to_device(self.y.device()));
        self
    }

    /// The positions at `idx`: features `[b, FLAT]` of the networks' input type, legal kinds `[b, 34]` as
    /// booleans, labels.
    pub(crate) fn batch(&self, idx: &Tensor) -> (Tensor, Tensor, Tensor) {
        let players = self.players.as_ref().map(|p| p.index_select(0, idx));
        self.unpacked(
            self.packed.index_select(0, idx),
            self.legal.index_select(0, idx),
            self.y.index_select(0, idx),
            players,
        )
    }

    /// The positions `start..start + len`, as [`OnDevice::batch`] gives them (from views of the stored rows:
    /// no gather).
    pub(crate) fn rows(&self, start: usize, len: usize) -> (Tensor, Tensor, Tensor) {
        let (s, n) = (start as i64, len as i64);
        let players = self.players.as_ref().map(|p| p.narrow(0, s, n));
        self.unpacked(self.packed.narrow(0, s, n), self.legal.narrow(0, s, n), self.y.narrow(0, s, n), players)
    }

    fn unpacked(&self, packed: Tensor, legal: Tensor, y: Tensor, players: Option<Tensor>) -> (Tensor, Tensor, Tensor) {
        let b = packed.size()[0];
        let x = packed
            .unsqueeze(-1)
            .bitwise_right_shift(&self.shifts)
            .bitwise_and(1)
            .view([b, 8 * PACKED as i64])
            .narrow(1, 0, FLAT as i64)
            .to_kind(self.kind);
        let x = match players {
            Some(rows) => Tensor::cat(&[x, rows.unsqueeze(1).to_kind(self.kind)], 1),
            None => x,
        };
        let legal = legal.unsqueeze(1).bitwise_right_shift(&self.kinds).bitwise_and(1).ne(0);
        (x, legal, y)
    }
}

/// `data` (plain numbers of `kind`'s size) as a one-dimensional tensor on `device`. To a GPU straight from the
/// slice's memory: a copy on the CPU first would cost more than the transfer (its fresh pages are written once).
#[allow(unsafe_code)] // a borrowed tensor saves a copy of every batch (above)
fn upload<T: bytemuck::Pod>(data: &[T], kind: Kind, device: Device) -> Tensor {
    assert_eq!(std::mem::size_of::<T>(), kind.elt_size_in_bytes());
    let bytes: &[u8] = bytemuck::cast_slice(data);
    if device == Device::Cpu || data.is_empty() {
        return Tensor::from_data_size(bytes, &[data.len() as i64], kind);
    }
    // SAFETY: `bytes` outlives the tensor borrowing it, which is dropped once the copy to the device has
    // returned (a copy from pageable memory is complete when it returns)
    let borrowed = unsafe { Tensor::from_blob(bytes.as_ptr(), &[data.len() as i64], &[1], kind, Device::Cpu) };
    borrowed.to_device(device)
}

/// The twelve augmentations as index tensors on the device: features, legal kinds, and the kinds' new places.
struct Augments {
    features: Vec<Tensor>,
    legal: Vec<Tensor>,
    kinds: Vec<Tensor>,
}

impl Augments {
    fn new(device: Device) -> Augments {
        let on = |v: Vec<i64>| Tensor::from_slice(&v).to_device(device);
        let all: Vec<Transform> = (0..Transform::COUNT).map(Transform::nth).collect();
        Augments {
            features: all.iter().map(|t| on(t.feature_source())).collect(),
            legal: all.iter().map(|t| on(t.kind_source())).collect(),
            kinds: all.iter().map(|t| on(t.kinds().iter().map(|&k| k as i64).collect())).collect(),
        }
    }

    fn apply(&self, i: usize, x: Tensor, legal: Tensor, y: Tensor) -> (Tensor, Tensor, Tensor) {
        (x.index_select(1, &self.features[i]), legal.index_select(1, &self.legal[i]), self.kinds[i].index_select(0, &y))
    }
}

/// Runs the network ([`Scorer`]: evaluation mode) over the first `n` positions of `data` in batches, without
/// gradients, handing each batch's masked logits and labels to `f`.
pub(crate) fn score(net: &Net, data: &OnDevice, n: usize, batch: usize, mut f: impl FnMut(&Tensor, &Tensor)) {
    let _guard = tch::no_grad_guard();
    let scorer = Scorer::new(net);
    for start in (0..n).step_by(batch.max(1)) {
        let (x, legal, y) = data.rows(start, batch.max(1).min(n - start));
        f(&masked(&scorer.forward(&x), &legal), &y);
    }
}

/// Whether each label is the first of the logits' ranking, and whether it is in the top 3: `[batch, 3]`
/// booleans, the first column the first choice.
pub(crate) fn top3_hits(logits: &Tensor, y: &Tensor) -> Tensor {
    logits.topk(3, -1, true, true).1.eq_tensor(&y.unsqueeze(1))
}

/// The network's first choice (among the legal) for each of the first `n` positions.
fn predicted(net: &Net, data: &OnDevice, n: usize, batch: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(n);
    score(net, data, n, batch, |logits, _| {
        let best: Vec<i64> = Vec::try_from(logits.argmax(-1, false)).unwrap_or_default();
        out.extend(best.into_iter().map(|k| k as u8));
    });
    out
}

/// Loss, top-1 and top-3 of a model over positions.
pub(crate) fn evaluate(net: &Net, data: &OnDevice, n: usize, batch: usize) -> (f64, f64, f64) {
    if n == 0 {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    let (mut loss, mut top1, mut top3) = (0.0, 0.0, 0.0);
    score(net, data, n, batch, |logits, y| {
        loss += logits.cross_entropy_for_logits(y).double_value(&[]) * y.size()[0] as f64;
        let hit = top3_hits(logits, y);
        top1 += hit.narrow(1, 0, 1).sum(Kind::Int64).int64_value(&[]) as f64;
        top3 += hit.sum(Kind::Int64).int64_value(&[]) as f64;
    });
    (loss / n as f64, top1 / n as f64, top3 / n as f64)
}

/// One training step over the positions at `idx` (through one of the augmentations when `augment` names it):
/// forward, the masked loss, backward, Adam. Returns the batch's mean loss, on the device.
fn step(
    net: &Net,
    adam: &mut FlatAdam,
    data: &OnDevice,
    idx: &Tensor,
    augment: Option<(&Augments, usize)>,
    train_mode: bool,
) -> Tensor {
    let (x, legal, y) = data.batch(idx);
    let (x, legal, y) = match augment {
        Some((a, i)) => a.apply(i, x, legal, y),
        None => (x, legal, y),
    };
    let loss = masked(&net.forward_t(&x, train_mode), &legal).cross_entropy_for_logits(&y);
    adam.backward_step(&loss);
    loss.detach()
}

/// Readies a GPU for a run of `opts`: one training step and one scoring pass of a throwaway network of the
/// run's shape over a batch of blank positions, then a wait for the device. A GPU's first use has fixed costs
/// (CUDA's context, cuBLAS's and cuDNN's handles, every kernel loaded at its first launch, the allocator's
/// first memory: 0.3-0.5 s on an H200, an MLP's whole epoch on this corpus) that would otherwise fall in the
/// first epoch; `haifu train` pays them here while it reads the positions. The run's own weights are drawn
/// afterwards from its seed, so nothing of it changes. Returns the seconds taken; nothing to do on a CPU.
pub fn warm_up(opts: &TrainOptions) -> Result<f64> {
    let device = device(opts.device)?;
    if !device.is_cuda() || opts.batch == 0 {
        return Ok(0.0);
    }
    if opts.cudnn_benchmark {
        tch::Cuda::cudnn_set_benchmark(true);
    }
    Ok(ready(opts, device))
}

/// [`warm_up`]'s work on any device.
fn ready(opts: &TrainOptions, device: Device) -> f64 {
    let t = Instant::now();
    let mut vs = nn::VarStore::new(device);
    let net = Net::drawn(&vs.root(), opts.shape(), None);
    if opts.bf16 {
        vs.bfloat16();
    }
    let mut adam = FlatAdam::new(&vs, opts.lr);
    let n = opts.batch;
    let blank = Positions {
        features: vec![0; n * PACKED],
        legal: vec![(1 << 34) - 1; n],
        label: vec![0; n],
        game: vec![0; n],
        seat: vec![0; n],
        players: vec![4; n],
    };
    let data = OnDevice::new(&blank, device, opts.bf16);
    let augments = opts.augment.then(|| Augments::new(device));
    let idx = Tensor::arange(n as i64, (Kind::Int64, device));
    let loss = step(&net, &mut adam, &data, &idx, augments.as_ref().map(|a| (a, 1)), true);
    let _ = loss.double_value(&[]);
    let _ = evaluate(&net, &data, n, n);
    if let Device::Cuda(i) = device {
        tch::Cuda::synchronize(i as i64);
    }
    t.elapsed().as_secs_f64()
}

/// Learning rate of an epoch: the base rate, divided by ten for the last third of the epochs.
pub(crate) fn lr_at(base: f64, epoch: usize, epochs: usize) -> f64 {
    if epochs >= 3 && epoch >= epochs - epochs / 3 {
        base / 10.0
    } else {
        base
    }
}

/// Every variable of `vs` set to `start + a * (now - start)`.
fn interpolate(vs: &nn::VarStore, start: &HashMap<String, Tensor>, a: f64) {
    tch::no_grad(|| {
        for (name, mut v) in vs.variables() {
            if let Some(s) = start.get(&name) {
                let moved = s + (&v - s) * a;
                v.copy_(&moved);
            }
        }
    });
}

/// Trains on `train`, evaluates on `test` after every epoch, and writes `out/epoch-N.ot` and
/// `out/metrics.csv`.
pub fn train(train: &Positions, test: &Positions, opts: &TrainOptions) -> Result<TrainReport> {
    train_with_progress(train, test, opts, &|_, _, _| {})
}

/// The options a run cannot start with.
fn check_options(opts: &TrainOptions) -> Result<()> {
    if opts.batch == 0 || opts.epochs == 0 || opts.layers == 0 {
        bail!("--batch, --epochs and --layers must be at least 1");
    }
    if opts.channels <= 0 {
        bail!("--channels must be at least 1");
    }
    if opts.decisions == Decisions::Choices && (opts.augment || matches!(opts.arch, Arch::Cnn | Arch::Transformer)) {
        bail!(
            "--decisions choices: the flat networks (mlp, densemlp), without --augment (the classes are kinds of \
             option, not tiles the augmentations could move)"
        );
    }
    if opts.arch == Arch::Transformer && opts.channels % 8 != 0 {
        bail!("--channels (the transformer's width) must be a multiple of its 8 heads, not {}", opts.channels);
    }
    Ok(())
}

/// The run's metrics file, new or (`--resume`) appended to, and the weights a resumed or `--init` run starts
/// from loaded into `vs`.
fn open_metrics(opts: &TrainOptions, vs: &mut nn::VarStore, info: &mut RunInfo) -> Result<std::fs::File> {
    let metrics_path = opts.out.join("metrics.csv");
    let metrics = if opts.resume {
        let done = RunInfo::read(&opts.out)?;
        info.fits(&done, &format!("--resume {}", opts.out.display()))?;
        if done.split.is_some() && done.split != info.split {
            bail!(
                "--resume {}: it trained on another split of the games ({}); these positions are of {}",
                opts.out.display(),
                done.split.as_ref().map_or("not recorded".to_string(), ToString::to_string),
                info.split.as_ref().map_or("not recorded".to_string(), ToString::to_string)
            );
        }
        if done.epochs > 0 {
            vs.load(done.checkpoint(&opts.out))?;
        }
        info.epochs = done.epochs;
        std::fs::OpenOptions::new()
            .append(true)
            .open(&metrics_path)
            .with_context(|| format!("opening {}", metrics_path.display()))?
    } else {
        EpochMetrics::create(&metrics_path)?
    };
    if let (Some(init), false) = (&opts.init, opts.resume) {
        let from = RunInfo::read(init)?;
        info.fits(&from, &format!("--init {}", init.display()))?;
        if from.epochs == 0 {
            bail!("--init {}: no checkpoint yet", init.display());
        }
        vs.load(from.checkpoint(init))?;
    }
    Ok(metrics)
}

/// The starting weights, kept for `--interpolate` after the last epoch; `--tune` freezes the weights it does
/// not train.
fn starting_weights(opts: &TrainOptions, vs: &nn::VarStore) -> Result<Option<HashMap<String, Tensor>>> {
    let start = match opts.interpolate {
        Some(a) => {
            if opts.init.is_none() || opts.resume || !(0.0..=1.0).contains(&a) {
                bail!("--interpolate {a}: needs --init, no --resume, and a share in [0, 1]");
            }
            let vars = vs.variables();
            Some(vars.into_iter().map(|(k, v)| (k, v.detach().copy())).collect::<HashMap<String, Tensor>>())
        }
        None => None,
    };
    if opts.tune != Tune::All {
        if opts.init.is_none() || opts.resume {
            bail!("--tune {:?}: needs --init (the network whose other weights it keeps), and no --resume", opts.tune);
        }
        for (name, v) in vs.variables() {
            if !opts.tune.trains(&name) {
                let _ = v.set_requires_grad(false);
            }
        }
    }
    Ok(start)
}

/// As [`train`], telling `progress` (epoch from 1, positions done in it, positions per epoch) after every step.
pub fn train_with_progress(
    train: &Positions,
    test: &Positions,
    opts: &TrainOptions,
    progress: &dyn Fn(usize, usize, usize),
) -> Result<TrainReport> {
    if train.is_empty() {
        bail!("no training positions: the selection holds no decision");
    }
    check_options(opts)?;
    let device = device(opts.device)?;
    if device == Device::Cpu {
        // one intra-op thread order: the same seed gives the same weights
        tch::set_num_threads(1);
    }
    if opts.cudnn_benchmark && device.is_cuda() {
        tch::Cuda::cudnn_set_benchmark(true);
    }
    let shape = opts.shape();
    std::fs::create_dir_all(&opts.out).with_context(|| format!("creating {}", opts.out.display()))?;
    let mut vs = nn::VarStore::new(device);
    let net = Net::drawn(&vs.root(), shape, Some(opts.seed as i64));
    if opts.bf16 {
        vs.bfloat16();
    }
    let mut info = RunInfo::new(shape, train.players.first().copied().unwrap_or(4), opts.bf16, opts.decisions);
    info.split = opts.sides.clone();
    let mut metrics = open_metrics(opts, &mut vs, &mut info)?;
    let start = starting_weights(opts, &vs)?;
    // the frozen layers' batch norm keeps the init's statistics: evaluation mode unless every weight trains
    let train_mode = opts.tune == Tune::All;
    info.write(&opts.out)?;
    let mut adam = FlatAdam::new(&vs, opts.lr);
    let (tr, te) = (OnDevice::new(train, device, opts.bf16), OnDevice::new(test, device, opts.bf16));

    let initial = (opts.init.is_some() && !opts.resume && !test.is_empty()).then(|| {
        let (_, top1, top3) = evaluate(&net, &te, test.len(), opts.batch);
        (top1, top3)
    });
    let augments = opts.augment.then(|| Augments::new(device));
    let n = train.len();
    let mut epochs = Vec::new();
    let mut trained_s = 0.0;
    let mut fine_tuned = None;
    for epoch in info.epochs..opts.epochs {
        let lr = lr_at(opts.lr, epoch, opts.epochs);
        adam.set_lr(lr);
        let t = Instant::now();
        let (order, mut rng) = epoch_order(opts.seed, epoch, n, device);
        // summed on the device: reading the loss back every step would make the CPU wait for the GPU before
        // queueing the next step
        let mut loss_sum = Tensor::zeros([], (Kind::Double, device));
        for start in (0..n).step_by(opts.batch) {
            let end = (start + opts.batch).min(n);
            // batch norm needs two rows to normalise over
            if end - start < 2 {
                continue;
            }
            let idx = order.narrow(0, start as i64, (end - start) as i64);
            let augment = augments.as_ref().map(|a| (a, rng.random_range(0..Transform::COUNT)));
            let loss = step(&net, &mut adam, &tr, &idx, augment, train_mode);
            loss_sum += loss.to_kind(Kind::Double) * (end - start) as f64;
            progress(epoch + 1, end, n);
        }
        // read before the clock stops: the value waits for the epoch's last step on the device (the CPU queues
        // steps ahead of a GPU, and the epoch is not over until they have run)
        let train_loss = loss_sum.double_value(&[]) / n as f64;
        let seconds = t.elapsed().as_secs_f64();
        trained_s += seconds;
        if let (Some(a), Some(start), true) = (opts.interpolate, &start, epoch + 1 == opts.epochs) {
            if !test.is_empty() {
                let (_, top1, top3) = evaluate(&net, &te, test.len(), opts.batch);
                fine_tuned = Some((top1, top3));
            }
            interpolate(&vs, start, a);
        }
        let (test_loss, test_top1, test_top3) = evaluate(&net, &te, test.len(), opts.batch);
        let m = EpochMetrics { epoch: epoch + 1, lr, train_loss, test_loss, test_top1, test_top3, seconds };
        save_epoch(&m, &mut metrics, &vs, &opts.out, &mut info)?;
        epochs.push(m);
    }
    let Some(last) = epochs.last().cloned() else {
        bail!("{} has all {} epochs already (--epochs sets the total)", opts.out.display(), opts.epochs);
    };
    let choices = (opts.decisions == Decisions::Choices)
        .then(|| crate::choices::figures(train, test, &predicted(&net, &te, test.len(), opts.batch)));
    Ok(TrainReport {
        model: opts.arch,
        layers: opts.layers,
        device: format!("{device:?}").to_lowercase(),
        positions: n,
        test_positions: test.len(),
        test_top1: last.test_top1,
        test_top3: last.test_top3,
        initial,
        fine_tuned,
        bf16: opts.bf16,
        positions_per_s: (n * epochs.len()) as f64 / trained_s.max(1e-9),
        warmup_s: 0.0,
        topology_scales: match &net {
            Net::Transformer(t) => Some(t.topology_scales()),
            _ => None,
        },
        choices,
        epochs,
        out: opts.out.display().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The features unpacked on the device are the positions' own, row by row, in the order asked.
    #[test]
    fn batches_unpack_the_features_of_their_rows() {
        let mut p = Positions::default();
        for i in 0..5usize {
            let row: Vec<u8> = (0..FLAT).map(|f| u8::from((f * (i + 2) + i) % 7 < 3)).collect();
            p.push(&row, 1 << i, i as u8, 0, 0, 4);
        }
        let data = OnDevice::new(&p, Device::Cpu, false);
        let (x, legal, y) = data.batch(&Tensor::from_slice(&[3i64, 0, 4]));
        for (at, i) in [3usize, 0, 4].into_iter().enumerate() {
            let got: Vec<f32> = Vec::try_from(x.get(at as i64)).unwrap();
            let want: Vec<f32> = p.row(i).iter().map(|&b| f32::from(b)).collect();
            assert_eq!(got, want, "row {i}");
            assert_eq!(y.int64_value(&[at as i64]), i as i64);
            assert!(legal.get(at as i64).get(i as i64).int64_value(&[]) == 1);
        }
    }

    /// `n` positions of made-up features: position `i` may discard kinds 0-2 and `i % 34`, and discarded
    /// `i % 3`.
    fn made_up(n: usize) -> Positions {
        let mut p = Positions::default();
        for i in 0..n {
            let row: Vec<u8> = (0..FLAT).map(|f| u8::from((f * (i + 2) + i) % 7 < 3)).collect();
            p.push(&row, (1 << (i % 34)) | 0b111, (i % 3) as u8, i as i64, 0, 4);
        }
        p
    }

    #[test]
    fn a_range_of_rows_is_the_batch_of_its_indices() {
        let data = OnDevice::new(&made_up(6), Device::Cpu, false);
        let (x, legal, y) = data.rows(2, 3);
        let (bx, blegal, by) = data.batch(&Tensor::from_slice(&[2i64, 3, 4]));
        assert!(x.equal(&bx) && legal.equal(&blegal) && y.equal(&by));
        assert_eq!(x.size(), [3, FLAT as i64]);
    }

    /// What readies a GPU (a throwaway network's step, drawing from libtorch's generator) leaves a run that
    /// follows it as it would be without.
    #[test]
    fn readying_the_device_changes_nothing_of_the_run_after_it() {
        let (train_set, test_set) = (made_up(200), made_up(40));
        let dir = std::env::temp_dir().join(format!("haifu-ready-{}", std::process::id()));
        let opts = |name: &str| TrainOptions {
            layers: 2,
            channels: 32,
            epochs: 2,
            batch: 32,
            device: DeviceChoice::Cpu,
            seed: 5,
            ..TrainOptions::new(Arch::Mlp, dir.join(name))
        };
        let plain = train(&train_set, &test_set, &opts("plain")).unwrap();
        let _ = tch::Tensor::randn([7], (Kind::Float, Device::Cpu));
        assert!(ready(&opts("readied"), Device::Cpu) >= 0.0);
        let readied = train(&train_set, &test_set, &opts("readied")).unwrap();
        let losses = |r: &TrainReport| r.epochs.iter().map(|e| (e.train_loss, e.test_loss)).collect::<Vec<_>>();
        assert_eq!(losses(&plain), losses(&readied));
        assert!(plain.epochs[1].train_loss < plain.epochs[0].train_loss, "it trains: {:?}", losses(&plain));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
