//! The models of SPEC 5.1 over the flat input: MLP (hidden layers of 512 with batch norm and ReLU) and
//! DenseMLP (each layer takes the concatenation of the input and every earlier layer's output). Both end in
//! 34 logits, one per kind; [`masked`] removes the kinds the hand does not hold before any softmax.

use std::str::FromStr;

use tch::nn::{self, ModuleT};
use tch::Tensor;

use crate::features::FLAT;

/// Width of every hidden layer (seed 004).
pub const HIDDEN: i64 = 512;

/// Which network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Arch {
    Mlp,
    DenseMlp,
}

impl FromStr for Arch {
    type Err = String;
    fn from_str(s: &str) -> Result<Arch, String> {
        match s {
            "mlp" => Ok(Arch::Mlp),
            "densemlp" => Ok(Arch::DenseMlp),
            "cnn" | "transformer" => Err(format!("model {s:?} is not built yet (issue 11): mlp or densemlp")),
            _ => Err(format!("unknown model {s:?}: mlp or densemlp")),
        }
    }
}

impl std::fmt::Display for Arch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Arch::Mlp => "mlp",
            Arch::DenseMlp => "densemlp",
        })
    }
}

/// One hidden layer: linear, batch norm, ReLU.
#[derive(Debug)]
struct Hidden {
    linear: nn::Linear,
    norm: nn::BatchNorm,
}

impl Hidden {
    fn new(p: nn::Path, inputs: i64) -> Hidden {
        Hidden {
            linear: nn::linear(&p / "linear", inputs, HIDDEN, Default::default()),
            norm: nn::batch_norm1d(&p / "norm", HIDDEN, Default::default()),
        }
    }

    fn forward_t(&self, xs: &Tensor, train: bool) -> Tensor {
        self.norm.forward_t(&xs.apply(&self.linear), train).relu()
    }
}

/// An MLP or DenseMLP of `layers` hidden layers.
#[derive(Debug)]
pub struct Net {
    arch: Arch,
    hidden: Vec<Hidden>,
    out: nn::Linear,
}

impl Net {
    pub fn new(p: &nn::Path, arch: Arch, layers: usize) -> Net {
        let mut hidden = Vec::with_capacity(layers);
        let mut width = FLAT as i64;
        for i in 0..layers {
            hidden.push(Hidden::new(p / format!("hidden{i}"), width));
            width = match arch {
                Arch::Mlp => HIDDEN,
                Arch::DenseMlp => width + HIDDEN,
            };
        }
        Net { arch, hidden, out: nn::linear(p / "out", width, 34, Default::default()) }
    }
}

impl ModuleT for Net {
    fn forward_t(&self, xs: &Tensor, train: bool) -> Tensor {
        let mut x = xs.shallow_clone();
        for h in &self.hidden {
            let y = h.forward_t(&x, train);
            x = match self.arch {
                Arch::Mlp => y,
                Arch::DenseMlp => Tensor::cat(&[x, y], 1),
            };
        }
        x.apply(&self.out)
    }
}

/// Logits with the kinds not in `legal` (a boolean tensor of the same shape) pushed to a large negative value,
/// so that neither the loss nor a ranking ever picks an illegal discard.
pub fn masked(logits: &Tensor, legal: &Tensor) -> Tensor {
    logits.masked_fill(&legal.logical_not(), -1e9)
}
