//! The models of SPEC 5.1, all over the flat input: MLP (hidden layers of 512 with batch norm and ReLU),
//! DenseMLP (each layer takes the concatenation of the input and every earlier layer's output), and the
//! per-suit CNN (its planes gathered from the flat input on the device, [`crate::planes`]; the three suits
//! share their convolution filters), and seed 000's topology-masked Transformer ([`crate::transformer`]).
//! Each ends in 34 logits, one per kind; [`masked`] removes the kinds the
//! hand does not hold before any softmax.

use tch::nn::{self, ModuleT};
use tch::Tensor;

use crate::features::FLAT;
use crate::planes::{honor_index, suit_index, HONOR_PLANES, SCALARS, SCALAR_START, SUIT_PLANES};
use crate::transformer::TransformerNet;

pub use haifu_encoding::options::{Arch, HIDDEN};

/// Batch norm's epsilon, every layer's (tch's default, named for the folding in [`Hidden::folded`]).
const NORM_EPS: f64 = 1e-5;

/// One hidden layer: linear, batch norm, ReLU.
#[derive(Debug)]
struct Hidden {
    linear: nn::Linear,
    norm: nn::BatchNorm,
}

impl Hidden {
    fn new(p: nn::Path, inputs: i64, width: i64) -> Hidden {
        let norm = nn::BatchNormConfig { eps: NORM_EPS, ..Default::default() };
        Hidden {
            linear: nn::linear(&p / "linear", inputs, width, Default::default()),
            norm: nn::batch_norm1d(&p / "norm", width, norm),
        }
    }

    fn forward_t(&self, xs: &Tensor, train: bool) -> Tensor {
        self.forward_plus(xs, None, train)
    }

    /// The layer with `extra` added to its linear part before the batch norm (a player's vector, [`PlayerNet`]).
    fn forward_plus(&self, xs: &Tensor, extra: Option<&Tensor>, train: bool) -> Tensor {
        let z = xs.apply(&self.linear);
        let z = match extra {
            Some(e) => z + e,
            None => z,
        };
        self.norm.forward_t(&z, train).relu()
    }

    /// The layer's weight and bias with its batch norm (evaluation mode: the running statistics) folded in:
    /// `norm(x W^T + b)` is `x (s W)^T + s (b - mean) + beta`, with `s = gamma / sqrt(var + eps)` per unit.
    /// Computed in fp32, returned in the weights' own type.
    fn folded(&self) -> (Tensor, Tensor) {
        let _guard = tch::no_grad_guard();
        let f32 = |t: &Tensor| t.to_kind(tch::Kind::Float);
        let n = &self.norm;
        let (gamma, beta) = (n.ws.as_ref().expect("affine batch norm"), n.bs.as_ref().expect("affine batch norm"));
        let s = f32(gamma) / (f32(&n.running_var) + NORM_EPS).sqrt();
        let w = f32(&self.linear.ws) * s.unsqueeze(1);
        let b = match &self.linear.bs {
            Some(b) => (f32(b) - f32(&n.running_mean)) * &s,
            None => -f32(&n.running_mean) * &s,
        } + f32(beta);
        let kind = self.linear.ws.kind();
        (w.to_kind(kind), b.to_kind(kind))
    }
}

/// The dimensions of a network: its kind, hidden layers (MLP, DenseMLP; the CNN's convolutions; the
/// Transformer's encoder layers) and channels (the flat networks' hidden width, the CNN's channels, the
/// Transformer's width, a multiple of 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    pub arch: Arch,
    pub layers: usize,
    pub channels: i64,
}

/// A network of any [`Arch`], or one conditioned on the player ([`PlayerNet`]).
#[derive(Debug)]
pub enum Net {
    Flat(FlatNet),
    Cnn(CnnNet),
    Transformer(TransformerNet),
    Players(Box<PlayerNet>),
}

impl Net {
    pub fn new(p: &nn::Path, shape: Dims) -> Net {
        match shape.arch {
            Arch::Mlp | Arch::DenseMlp => Net::Flat(FlatNet::new(p, shape.arch, shape.layers, shape.channels)),
            Arch::Cnn => Net::Cnn(CnnNet::new(p, shape.layers, shape.channels)),
            Arch::Transformer => Net::Transformer(TransformerNet::new(p, shape.layers, shape.channels)),
        }
    }

    /// A network whose initial weights are drawn from libtorch's global generator under
    /// [`crate::generator`]'s lock, after seeding it when `seed` is given. Every network
    /// outside tests is built so: a run seeded in parallel (tests, a library user's threads) keeps its own
    /// seed's weights, and a network built only to load a checkpoint draws nothing between a run's seed and
    /// that run's weights.
    pub fn drawn(p: &nn::Path, shape: Dims, seed: Option<i64>) -> Net {
        let _one = crate::generator();
        if let Some(seed) = seed {
            tch::manual_seed(seed);
        }
        Net::new(p, shape)
    }
}

impl ModuleT for Net {
    fn forward_t(&self, xs: &Tensor, train: bool) -> Tensor {
        match self {
            Net::Flat(n) => n.forward_t(xs, train),
            Net::Cnn(n) => n.forward_t(xs, train),
            Net::Transformer(n) => n.forward_t(xs, train),
            Net::Players(n) => n.forward_t(xs, train),
        }
    }
}

/// A global network conditioned on the player (issue 50; Maia4All's shared network and small per-player
/// embedding): each player a learned vector of `dims` numbers, mapped by one shared linear layer (no bias) into
/// the first hidden layer's sum before its batch norm (the flat networks' first layer, the CNN's hidden layer).
/// Row 0 is everyone else's, fixed at zero, and every vector starts there: before its first step the network
/// is exactly the global one it was built from. Its input is the flat
/// features with the player's row as one more column (as a number: [`crate::train::OnDevice::with_players`]),
/// so that every batch carries its players through the same calls as a plain network's features.
#[derive(Debug)]
pub struct PlayerNet {
    base: Net,
    pub(crate) vectors: nn::Embedding,
    pub(crate) into_hidden: nn::Linear,
}

/// Where a [`PlayerNet`]'s variables live, beside the global network's own names (`--init` loads the rest).
pub const PLAYER_VARS: &str = "player";

impl PlayerNet {
    /// A network of `shape` with `rows` player rows (row 0 everyone else's) of `dims` numbers; the
    /// Transformer takes none (its layers have no one sum to add a vector to).
    pub fn new(p: &nn::Path, shape: Dims, rows: i64, dims: i64) -> Result<PlayerNet, String> {
        let width = match shape.arch {
            Arch::Mlp | Arch::DenseMlp => shape.channels,
            Arch::Cnn => HIDDEN,
            Arch::Transformer => {
                return Err("player vectors: the mlp, densemlp and cnn take them, not the transformer".into())
            }
        };
        let base = Net::new(p, shape);
        let q = p / PLAYER_VARS;
        // every vector starts at zero, the prior's mode, where the network is the global one; the shared layer
        // is drawn, so that the data's gradient reaches the vectors from the first step (the other way round,
        // vectors drawn and the layer at zero, the prior pulls the vectors to zero before the layer has grown,
        // and neither moves again); padding_idx keeps row 0's gradient at zero
        let config = nn::EmbeddingConfig { padding_idx: 0, ws_init: nn::Init::Const(0.0), ..Default::default() };
        let vectors = nn::embedding(&q / "vectors", rows, dims, config);
        let drawn = nn::LinearConfig { bias: false, ..Default::default() };
        let into_hidden = nn::linear(&q / "into_hidden", dims, width, drawn);
        Ok(PlayerNet { base, vectors, into_hidden })
    }
}

impl ModuleT for PlayerNet {
    fn forward_t(&self, xs: &Tensor, train: bool) -> Tensor {
        let features = xs.narrow(1, 0, FLAT as i64);
        let rows = xs.narrow(1, FLAT as i64, 1).squeeze_dim(1).to_kind(tch::Kind::Int64);
        let extra = rows.apply(&self.vectors).apply(&self.into_hidden);
        match &self.base {
            Net::Flat(n) => n.through(&features, |i, x| n.hidden[i].forward_plus(x, (i == 0).then_some(&extra), train)),
            Net::Cnn(n) => n.forward_plus(&features, Some(&extra), train),
            other => other.forward_t(&features, train),
        }
    }
}

/// An MLP or DenseMLP of `layers` hidden layers of `width`.
#[derive(Debug)]
pub struct FlatNet {
    arch: Arch,
    hidden: Vec<Hidden>,
    out: nn::Linear,
}

impl FlatNet {
    fn new(p: &nn::Path, arch: Arch, layers: usize, width: i64) -> FlatNet {
        let mut hidden = Vec::with_capacity(layers);
        let mut inputs = FLAT as i64;
        for i in 0..layers {
            hidden.push(Hidden::new(p / format!("hidden{i}"), inputs, width));
            inputs = match arch {
                Arch::DenseMlp => inputs + width,
                _ => width,
            };
        }
        FlatNet { arch, hidden, out: nn::linear(p / "out", inputs, 34, Default::default()) }
    }

    /// The network over `xs` with `layer(i, x)` as its `i`-th hidden layer.
    fn through(&self, xs: &Tensor, layer: impl Fn(usize, &Tensor) -> Tensor) -> Tensor {
        let mut x = xs.shallow_clone();
        for i in 0..self.hidden.len() {
            let y = layer(i, &x);
            x = match self.arch {
                Arch::DenseMlp => Tensor::cat(&[x, y], 1),
                _ => y,
            };
        }
        x.apply(&self.out)
    }
}

impl ModuleT for FlatNet {
    fn forward_t(&self, xs: &Tensor, train: bool) -> Tensor {
        self.through(xs, |i, x| self.hidden[i].forward_t(x, train))
    }
}

/// A network as it scores positions once trained (evaluation mode, no gradients). The flat networks' batch
/// norms are folded into their linear layers once ([`Hidden::folded`]): a matrix product with its bias per
/// layer, no pass of its own over every activation (an MLP's scoring a twelfth faster on an H200, in plain
/// PyTorch; on a CPU the matrix products dominate and it changes nothing measurable). The other networks run
/// as they are.
pub enum Scorer<'a> {
    Flat { net: &'a FlatNet, layers: Vec<(Tensor, Tensor)> },
    Other(&'a Net),
}

impl Scorer<'_> {
    pub fn new(net: &Net) -> Scorer<'_> {
        match net {
            Net::Flat(f) => Scorer::Flat { net: f, layers: f.hidden.iter().map(Hidden::folded).collect() },
            other => Scorer::Other(other),
        }
    }

    /// The 34 logits of each position of `xs`.
    pub fn forward(&self, xs: &Tensor) -> Tensor {
        match self {
            Scorer::Flat { net, layers } => net.through(xs, |i, x| {
                let mut y = x.linear(&layers[i].0, Some(&layers[i].1));
                y.relu_()
            }),
            Scorer::Other(net) => net.forward_t(xs, false),
        }
    }
}

/// A convolution with batch norm and ReLU.
#[derive(Debug)]
struct ConvBlock {
    conv: nn::Conv2D,
    norm: nn::BatchNorm,
}

impl ConvBlock {
    /// A block over `[n, inputs, tiles, columns]` planes.
    fn spatial(p: nn::Path, inputs: i64, channels: i64, kernel: [i64; 2], padding: [i64; 2]) -> ConvBlock {
        let config = nn::ConvConfigND::<[i64; 2]> { padding, ..Default::default() };
        ConvBlock {
            conv: nn::conv(&p / "conv", inputs, channels, kernel, config),
            norm: nn::batch_norm2d(&p / "norm", channels, Default::default()),
        }
    }

    /// A block whose kernel spans one tile and all its `columns`: it runs as [`ConvBlock::rows`].
    fn pointwise(p: nn::Path, inputs: i64, channels: i64, columns: i64) -> ConvBlock {
        ConvBlock {
            conv: nn::conv(&p / "conv", inputs, channels, [1, columns], Default::default()),
            norm: nn::batch_norm1d(&p / "norm", channels, Default::default()),
        }
    }

    fn forward_t(&self, xs: &Tensor, train: bool) -> Tensor {
        self.norm.forward_t(&xs.apply(&self.conv), train).relu()
    }

    /// A pointwise block over rows of one tile each (`[n * tiles, inputs * columns]`, column fastest): the
    /// same sums as the convolution, as one matrix product (cuBLAS's; cuDNN's convolutions of this shape made
    /// the CNN's whole training step a fifth slower on an H200).
    fn rows(&self, xs: &Tensor, train: bool) -> Tensor {
        let w = self.conv.ws.view([self.conv.ws.size()[0], -1]);
        self.norm.forward_t(&xs.linear(&w, self.conv.bs.as_ref()), train).relu()
    }
}

/// The honors' plane index (`[planes][7][4]`) reordered to `[7][planes][4]`: one row per honor.
fn honors_as_rows(index: &[i64]) -> Vec<i64> {
    (0..7)
        .flat_map(|h| index.chunks_exact(7 * 4).flat_map(move |plane| plane[4 * h..4 * h + 4].iter().copied()))
        .collect()
}

/// Seed 004's per-suit CNN: the three suits' 20 x 9 x 4 planes through one stack of convolutions (filters
/// shared by the suits: a run of tiles along the 9 digits, the 4 copy columns read at once by the first),
/// the honors' 21 x 7 x 4 planes through their own (no runs: each honor on its own), then with the 35
/// scalars through a hidden layer of 512 to the 34 logits.
#[derive(Debug)]
pub struct CnnNet {
    suit: Vec<ConvBlock>,
    honor: Vec<ConvBlock>,
    hidden: Hidden,
    out: nn::Linear,
    /// The flat input's index of every suit cell, `[3][20][9][4]`, and honor cell, `[7][21][4]`.
    suit_index: Tensor,
    honor_index: Tensor,
    channels: i64,
}

impl CnnNet {
    fn new(p: &nn::Path, layers: usize, channels: i64) -> CnnNet {
        let layers = layers.max(1);
        let suit = (0..layers)
            .map(|i| {
                let (inputs, kernel) = if i == 0 { (SUIT_PLANES as i64, [3, 4]) } else { (channels, [3, 1]) };
                ConvBlock::spatial(p / format!("suit{i}"), inputs, channels, kernel, [1, 0])
            })
            .collect();
        let honor = (0..layers)
            .map(|i| {
                let (inputs, columns) = if i == 0 { (HONOR_PLANES as i64, 4) } else { (channels, 1) };
                ConvBlock::pointwise(p / format!("honor{i}"), inputs, channels, columns)
            })
            .collect();
        let width = channels * (3 * 9 + 7) + SCALARS as i64;
        let device = p.device();
        let on = |index: Vec<i64>| Tensor::from_slice(&index).to_device(device);
        CnnNet {
            suit,
            honor,
            hidden: Hidden::new(p / "hidden", width, HIDDEN),
            out: nn::linear(p / "out", HIDDEN, 34, Default::default()),
            suit_index: on(suit_index()),
            honor_index: on(honors_as_rows(&honor_index())),
            channels,
        }
    }
}

impl ModuleT for CnnNet {
    fn forward_t(&self, xs: &Tensor, train: bool) -> Tensor {
        self.forward_plus(xs, None, train)
    }
}

impl CnnNet {
    /// The network with `extra` added to its hidden layer's sum ([`Hidden::forward_plus`]).
    fn forward_plus(&self, xs: &Tensor, extra: Option<&Tensor>, train: bool) -> Tensor {
        let b = xs.size()[0];
        let ext = Tensor::cat(&[xs.shallow_clone(), xs.zeros_like().narrow(1, 0, 1)], 1);
        let mut s = ext.index_select(1, &self.suit_index).view([b * 3, SUIT_PLANES as i64, 9, 4]);
        for c in &self.suit {
            s = c.forward_t(&s, train);
        }
        let mut h = ext.index_select(1, &self.honor_index).view([b * 7, 4 * HONOR_PLANES as i64]);
        for c in &self.honor {
            h = c.rows(&h, train);
        }
        // channel-major, as the convolutions' output is laid out
        let h = h.view([b, 7, self.channels]).transpose(1, 2).reshape([b, 7 * self.channels]);
        let scalars = xs.narrow(1, SCALAR_START as i64, SCALARS as i64);
        let joined = Tensor::cat(&[s.view([b, 3 * 9 * self.channels]), h, scalars], 1);
        self.hidden.forward_plus(&joined, extra, train).apply(&self.out)
    }
}

/// Logits with the kinds not in `legal` (a boolean tensor of the same shape) pushed to a large negative value,
/// so that neither the loss nor a ranking ever picks an illegal discard.
pub fn masked(logits: &Tensor, legal: &Tensor) -> Tensor {
    // in fp32 whatever the network computes in (--bf16): the loss and the softmax need its range
    logits.to_kind(tch::Kind::Float).masked_fill(&legal.logical_not(), -1e9)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tch::{Device, Kind};

    /// Seed 004's CNN as it reads: two-dimensional convolutions over `[n, planes, tiles, 4 copy columns]`.
    fn as_written(net: &CnnNet, xs: &Tensor) -> Tensor {
        let b = xs.size()[0];
        let ext = Tensor::cat(&[xs.shallow_clone(), xs.zeros_like().narrow(1, 0, 1)], 1);
        let tower = |blocks: &[ConvBlock], index: Vec<i64>, shape: [i64; 4]| {
            let mut x = ext.index_select(1, &Tensor::from_slice(&index)).view(shape);
            for c in blocks {
                let padding = [(c.conv.ws.size()[2] - 1) / 2, 0];
                let y = x.conv2d(&c.conv.ws, c.conv.bs.as_ref(), [1, 1], padding, [1, 1], 1);
                // batch norm over the batch and both spatial dimensions, written out
                let stats = y.transpose(0, 1).reshape([y.size()[1], -1]);
                let (mean, var) = (stats.mean_dim(1, false, Kind::Float), stats.var_dim(1, false, false));
                let shape = [1, -1, 1, 1];
                let normed = (&y - mean.view(shape)) / (var.view(shape) + 1e-5).sqrt();
                let (scale, shift) = (c.norm.ws.as_ref().expect("affine"), c.norm.bs.as_ref().expect("affine"));
                x = (normed * scale.view(shape) + shift.view(shape)).relu();
            }
            x
        };
        let s = tower(&net.suit, suit_index(), [b * 3, SUIT_PLANES as i64, 9, 4]);
        let h = tower(&net.honor, honor_index(), [b, HONOR_PLANES as i64, 7, 4]);
        let scalars = xs.narrow(1, SCALAR_START as i64, SCALARS as i64);
        let joined = Tensor::cat(&[s.view([b, -1]), h.view([b, -1]), scalars], 1);
        net.hidden.forward_t(&joined, true).apply(&net.out)
    }

    #[test]
    fn the_cnn_computes_seed_004s_two_dimensional_convolutions() {
        let _one = crate::generator();
        tch::manual_seed(7);
        let vs = nn::VarStore::new(Device::Cpu);
        let net = CnnNet::new(&vs.root(), 3, 8);
        let xs = Tensor::rand([6, FLAT as i64], (Kind::Float, Device::Cpu)).lt(0.2).to_kind(Kind::Float);
        let (ours, written) = (net.forward_t(&xs, true), as_written(&net, &xs));
        assert_eq!(ours.size(), [6, 34]);
        let diff = (&ours - &written).abs().max().double_value(&[]);
        assert!(diff < 1e-4, "largest difference {diff}");
        // and the gradients the weights get are the same
        let grad = |y: Tensor| {
            for mut v in vs.trainable_variables() {
                v.zero_grad();
            }
            y.square().sum(Kind::Float).backward();
            net.suit[0].conv.ws.grad().copy()
        };
        let (g1, g2) = (grad(net.forward_t(&xs, true)), grad(as_written(&net, &xs)));
        assert!((&g1 - &g2).abs().max().double_value(&[]) < 1e-3);
        assert!(g1.abs().max().double_value(&[]) > 0.0);
    }

    /// Batch norm folded into the linear layers scores as the network in evaluation mode, for both flat
    /// networks, once training has moved the statistics off their start.
    #[test]
    fn folded_batch_norm_scores_as_the_network_does() {
        let _one = crate::generator();
        for arch in [Arch::Mlp, Arch::DenseMlp] {
            tch::manual_seed(3);
            let vs = nn::VarStore::new(Device::Cpu);
            let net = Net::new(&vs.root(), Dims { arch, layers: 3, channels: 24 });
            for _ in 0..5 {
                let xs = Tensor::rand([16, FLAT as i64], (Kind::Float, Device::Cpu)).lt(0.3).to_kind(Kind::Float);
                let _ = net.forward_t(&(xs * 3.0), true);
            }
            let xs = Tensor::rand([9, FLAT as i64], (Kind::Float, Device::Cpu)).lt(0.2).to_kind(Kind::Float);
            let _guard = tch::no_grad_guard();
            let (plain, folded) = (net.forward_t(&xs, false), Scorer::new(&net).forward(&xs));
            assert_eq!(folded.size(), [9, 34]);
            let diff = (&plain - &folded).abs().max().double_value(&[]);
            assert!(diff < 1e-4, "{arch}: largest difference {diff}");
            // the statistics did move: without them the outputs differ
            let train_mode = net.forward_t(&xs, true);
            assert!((&plain - &train_mode).abs().max().double_value(&[]) > 1e-3, "{arch}");
        }
    }
}
