//! Seed 000's structure-aware Transformer (SPEC 5.2): 35 tokens (the 34 kinds and one context token),
//! 8 heads, and before each softmax head `h` adds `topology_scale[h] * mask[h]`, a constant of the tiles'
//! relations (scale learnable, 1 at the start). Like the CNN it reads the flat input, gathered on the device:
//! a kind's token from that kind's features, the context token from the table's.
//!
//! Masks (token 34 is the context): heads 0-1 sequence (same suit, digits 1 apart 2.0, 2 apart 1.0); heads
//! 2-3 identity (the same kind 3.0, the same digit in another suit 1.5); heads 4-5 boundary (terminal with
//! terminal 1.5, honor with honor 2.0); heads 6-7 global (any pair with the context token 1.0). Xavier
//! initialisation for the attention and output layers, Kaiming for the feed-forward ones (seed 000).

use tch::nn::{self, Module, ModuleT};
use tch::{Kind as TKind, Tensor};

use crate::features::{DORA, DOUBLE, HAND, IPPATSU, MELDS, OWN_MELDS, RED, RIICHI, SAFE, START_SEAT, VISIBLE};
use crate::planes::{SCALARS, ZERO};

pub const TOKENS: usize = 35;
pub const HEADS: usize = 8;
/// Features of a kind's token: hand 4, own melds 4, the others' melds 12, visible 4, safe 3, dora 1, red 1.
pub const TILE_FEATURES: usize = 29;
/// Features of the context token: the 35 scalars, the others' riichi, double riichi and ippatsu (9).
pub const CONTEXT_FEATURES: usize = SCALARS + 9;

/// The flat index of each of a kind's token features (`[34][29]`), ZERO where there is none (red of a
/// non-five).
pub fn tile_index() -> Vec<i64> {
    let mut idx = Vec::with_capacity(34 * TILE_FEATURES);
    for k in 0..34 {
        let four = |base: usize| (0..4).map(move |j| (base + 4 * k + j) as i64);
        idx.extend(four(HAND));
        idx.extend(four(OWN_MELDS));
        for i in 0..3 {
            idx.extend(four(MELDS + 136 * i));
        }
        idx.extend(four(VISIBLE));
        idx.extend((0..3).map(|i| (SAFE + 34 * i + k) as i64));
        idx.push((DORA + k) as i64);
        idx.push(if k < 27 && k % 9 == 4 { (RED + k / 9) as i64 } else { ZERO });
    }
    idx
}

/// The flat index of each context feature.
pub fn context_index() -> Vec<i64> {
    let mut idx: Vec<i64> = (START_SEAT..START_SEAT + SCALARS).map(|i| i as i64).collect();
    for base in [RIICHI, DOUBLE, IPPATSU] {
        idx.extend((base..base + 3).map(|i| i as i64));
    }
    idx
}

/// The eight masks, `[8][35][35]` row-major, with exactly SPEC 5.2's values.
pub fn topology_masks() -> Vec<f32> {
    let suit = |t: usize| (t < 27).then_some(t / 9);
    let digit = |t: usize| t % 9;
    let terminal = |t: usize| t < 27 && (digit(t) == 0 || digit(t) == 8);
    let honor = |t: usize| (27..34).contains(&t);
    let mut m = vec![0f32; HEADS * TOKENS * TOKENS];
    for h in 0..HEADS {
        for a in 0..TOKENS {
            for b in 0..TOKENS {
                let tiles = a < 34 && b < 34;
                let v = match h / 2 {
                    0 if tiles && suit(a).is_some() && suit(a) == suit(b) => match digit(a).abs_diff(digit(b)) {
                        1 => 2.0,
                        2 => 1.0,
                        _ => 0.0,
                    },
                    1 if tiles && a == b => 3.0,
                    1 if tiles
                        && suit(a).is_some()
                        && suit(b).is_some()
                        && suit(a) != suit(b)
                        && digit(a) == digit(b) =>
                    {
                        1.5
                    }
                    2 if tiles && terminal(a) && terminal(b) => 1.5,
                    2 if tiles && honor(a) && honor(b) => 2.0,
                    3 if a == 34 || b == 34 => 1.0,
                    _ => 0.0,
                };
                m[(h * TOKENS + a) * TOKENS + b] = v;
            }
        }
    }
    m
}

/// A linear layer with Xavier-uniform weights and zero bias.
fn xavier(p: nn::Path, inputs: i64, outputs: i64) -> nn::Linear {
    let bound = (6.0 / (inputs + outputs) as f64).sqrt();
    let config = nn::LinearConfig {
        ws_init: nn::Init::Uniform { lo: -bound, up: bound },
        bs_init: Some(nn::Init::Const(0.0)),
        bias: true,
    };
    nn::linear(p, inputs, outputs, config)
}

/// One encoder layer: topology-biased multi-head attention and a feed-forward block, each behind a layer norm
/// and added back (pre-norm).
#[derive(Debug)]
struct Layer {
    norm1: nn::LayerNorm,
    qkv: nn::Linear,
    attn_out: nn::Linear,
    scale: Tensor,
    norm2: nn::LayerNorm,
    ff1: nn::Linear,
    ff2: nn::Linear,
}

impl Layer {
    fn new(p: nn::Path, width: i64) -> Layer {
        Layer {
            norm1: nn::layer_norm(&p / "norm1", vec![width], Default::default()),
            qkv: xavier(&p / "qkv", width, 3 * width),
            attn_out: xavier(&p / "attn_out", width, width),
            scale: p.var("topology_scale", &[HEADS as i64], nn::Init::Const(1.0)),
            norm2: nn::layer_norm(&p / "norm2", vec![width], Default::default()),
            ff1: nn::linear(&p / "ff1", width, 4 * width, Default::default()),
            ff2: nn::linear(&p / "ff2", 4 * width, width, Default::default()),
        }
    }

    fn forward(&self, x: &Tensor, masks: &Tensor) -> Tensor {
        let (b, t, w) = x.size3().expect("[batch, tokens, width]");
        let dh = w / HEADS as i64;
        let qkv = self.norm1.forward(x).apply(&self.qkv).view([b, t, 3, HEADS as i64, dh]).permute([2, 0, 3, 1, 4]);
        let (q, k, v) = (qkv.get(0), qkv.get(1), qkv.get(2));
        // softmax(q k' / sqrt(dh) + scale * mask) v through libtorch's fused attention (the mask as an additive
        // bias, its scale learnt through it), the kernel PyTorch's own encoder layers use
        let bias = (self.scale.view([HEADS as i64, 1, 1]) * masks).to_kind(q.kind()).unsqueeze(0);
        let attended = Tensor::scaled_dot_product_attention(&q, &k, &v, Some(bias), 0.0, false, None, false)
            .permute([0, 2, 1, 3])
            .reshape([b, t, w]);
        let x = x + attended.apply(&self.attn_out);
        let ff = self.norm2.forward(&x).apply(&self.ff1).relu().apply(&self.ff2);
        x + ff
    }
}

/// The Transformer: token embeddings, a learned positional encoding, `layers` encoder layers, then the 35
/// tokens flattened to the 34 logits.
#[derive(Debug)]
pub struct TransformerNet {
    tile_embed: nn::Linear,
    context_embed: nn::Linear,
    position: Tensor,
    layers: Vec<Layer>,
    out: nn::Linear,
    tile_index: Tensor,
    context_index: Tensor,
    masks: Tensor,
    width: i64,
}

impl TransformerNet {
    /// `width` must be a multiple of the 8 heads.
    pub fn new(p: &nn::Path, layers: usize, width: i64) -> TransformerNet {
        assert!(width > 0 && width % HEADS as i64 == 0, "the transformer's width is a multiple of {HEADS}");
        let device = p.device();
        TransformerNet {
            tile_embed: nn::linear(p / "tile_embed", TILE_FEATURES as i64, width, Default::default()),
            context_embed: nn::linear(p / "context_embed", CONTEXT_FEATURES as i64, width, Default::default()),
            position: p.var("position", &[TOKENS as i64, width], nn::Init::Randn { mean: 0.0, stdev: 0.02 }),
            layers: (0..layers.max(1)).map(|i| Layer::new(p / format!("layer{i}"), width)).collect(),
            out: xavier(p / "out", TOKENS as i64 * width, 34),
            tile_index: Tensor::from_slice(&tile_index()).to_device(device),
            context_index: Tensor::from_slice(&context_index()).to_device(device),
            masks: Tensor::from_slice(&topology_masks())
                .view([HEADS as i64, TOKENS as i64, TOKENS as i64])
                .to_device(device),
            width,
        }
    }

    /// Each layer's learnt topology scales (`[layers][8]`): which structure each head came to weigh.
    pub fn topology_scales(&self) -> Vec<Vec<f64>> {
        self.layers.iter().map(|l| Vec::<f64>::try_from(l.scale.to_kind(TKind::Double)).unwrap_or_default()).collect()
    }
}

impl ModuleT for TransformerNet {
    fn forward_t(&self, xs: &Tensor, _train: bool) -> Tensor {
        let b = xs.size()[0];
        let ext = Tensor::cat(&[xs.shallow_clone(), xs.zeros_like().narrow(1, 0, 1)], 1);
        let tiles = ext.index_select(1, &self.tile_index).view([b, 34, TILE_FEATURES as i64]).apply(&self.tile_embed);
        let context = ext.index_select(1, &self.context_index).apply(&self.context_embed).unsqueeze(1);
        let mut x = Tensor::cat(&[tiles, context], 1) + self.position.unsqueeze(0);
        for l in &self.layers {
            x = l.forward(&x, &self.masks);
        }
        x.reshape([b, TOKENS as i64 * self.width]).apply(&self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The layer's output and the gradient of its topology scales, against attention written out by hand.
    #[test]
    fn fused_attention_is_the_masked_softmax_written_out() {
        let vs = nn::VarStore::new(tch::Device::Cpu);
        let _one = crate::generator();
        tch::manual_seed(7);
        let layer = Layer::new(vs.root() / "layer", 16);
        tch::no_grad(|| {
            let mut scale = layer.scale.shallow_clone();
            scale.copy_(&Tensor::from_slice(&[0.5f32, 1.0, 1.5, 2.0, 0.0, 1.0, 3.0, 0.25]));
        });
        let masks = Tensor::from_slice(&topology_masks()).view([HEADS as i64, TOKENS as i64, TOKENS as i64]);
        let x = Tensor::randn([3, TOKENS as i64, 16], (TKind::Float, tch::Device::Cpu));
        let by_hand = || {
            let qkv = layer.norm1.forward(&x).apply(&layer.qkv).view([3, 35, 3, 8, 2]).permute([2, 0, 3, 1, 4]);
            let (q, k, v) = (qkv.get(0), qkv.get(1), qkv.get(2));
            let scores =
                q.matmul(&k.transpose(-2, -1)) / 2f64.sqrt() + layer.scale.view([1, 8, 1, 1]) * masks.unsqueeze(0);
            let attended = scores.softmax(-1, TKind::Float).matmul(&v).permute([0, 2, 1, 3]).reshape([3, 35, 16]);
            let y = &x + attended.apply(&layer.attn_out);
            &y + layer.norm2.forward(&y).apply(&layer.ff1).relu().apply(&layer.ff2)
        };
        let grad_of_scale = |y: Tensor| {
            for v in vs.variables().values() {
                if v.grad().defined() {
                    let _ = v.grad().zero_();
                }
            }
            (y * Tensor::arange(16, (TKind::Float, tch::Device::Cpu))).sum(TKind::Float).backward();
            layer.scale.grad().copy()
        };
        let (got, want) = (layer.forward(&x, &masks), by_hand());
        assert!(got.allclose(&want, 1e-5, 1e-5, false), "{}", (got - &want).abs().max());
        let (g_got, g_want) = (grad_of_scale(layer.forward(&x, &masks)), grad_of_scale(by_hand()));
        assert!(g_want.abs().sum(TKind::Float).double_value(&[]) > 1e-3, "the scales get a gradient");
        assert!(g_got.allclose(&g_want, 1e-4, 1e-5, false), "{g_got:?} vs {g_want:?}");
    }

    #[test]
    fn the_masks_hold_spec_5_2s_values() {
        let m = topology_masks();
        let at = |h: usize, a: usize, b: usize| m[(h * TOKENS + a) * TOKENS + b];
        // kinds: 0 = 1m, 1 = 2m, 2 = 3m, 3 = 4m, 9 = 1p, 17 = 9p, 22 = 5s, 27 = E, 33 = P; 34 the context
        for h in [0, 1] {
            assert_eq!((at(h, 0, 1), at(h, 0, 2), at(h, 0, 3), at(h, 8, 9)), (2.0, 1.0, 0.0, 0.0));
        }
        for h in [2, 3] {
            assert_eq!((at(h, 22, 22), at(h, 0, 9), at(h, 0, 1), at(h, 27, 27)), (3.0, 1.5, 0.0, 3.0));
        }
        for h in [4, 5] {
            assert_eq!((at(h, 0, 17), at(h, 27, 33), at(h, 0, 27), at(h, 1, 17)), (1.5, 2.0, 0.0, 0.0));
        }
        for h in [6, 7] {
            assert_eq!((at(h, 34, 5), at(h, 5, 34), at(h, 34, 34), at(h, 5, 6)), (1.0, 1.0, 1.0, 0.0));
        }
        // the context token takes part only in the global heads
        assert!((0..6).all(|h| (0..TOKENS).all(|t| at(h, 34, t) == 0.0 && at(h, t, 34) == 0.0)));
        assert_eq!(tile_index().len(), 34 * TILE_FEATURES);
        assert_eq!(context_index().len(), CONTEXT_FEATURES);
    }
}
