//! A trained run against the positions of test years, per player and overall, in the shape of
//! `haifu imitate eval`'s counts (n_all, c_first, c_top3, r_first, r_top3, coverage), so that the two sit
//! side by side. The positions are the decisions that `haifu imitate eval` ranks by default (every discard
//! but those of a seat already in riichi); a network always answers, so its coverage is 1.

use std::path::Path;

use anyhow::{anyhow, bail, Result};
use serde::Serialize;
use tch::nn::{self, ModuleT};
use tch::{Device, Kind, Tensor};

use crate::model::{masked, Arch, Net, Shape};
use crate::positions::Positions;
use crate::train::{DeviceChoice, OnDevice, RunInfo};

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
    _vs: nn::VarStore,
    device: Device,
}

pub fn load_run(dir: &Path, device: DeviceChoice) -> Result<Loaded> {
    let info = RunInfo::read(dir)?;
    if info.epochs == 0 {
        bail!("{}: no epoch finished yet (no checkpoint)", dir.display());
    }
    let arch: Arch = info.model.parse().map_err(|e: String| anyhow!("{}: {e}", dir.display()))?;
    let device = device.device()?;
    let mut vs = nn::VarStore::new(device);
    let net = Net::new(&vs.root(), Shape { arch, layers: info.layers, channels: info.channels.unwrap_or(0) });
    vs.load(info.checkpoint(dir))?;
    Ok(Loaded { info, net, _vs: vs, device })
}

/// For each position, whether the played kind is the network's first choice and whether it is in its top 3.
pub fn hits(run: &Loaded, p: &Positions, batch: usize) -> Vec<(bool, bool)> {
    let _guard = tch::no_grad_guard();
    let data = OnDevice::new(p, run.device);
    let mut out = Vec::with_capacity(p.len());
    for start in (0..p.len()).step_by(batch.max(1)) {
        let end = (start + batch.max(1)).min(p.len());
        let idx = Tensor::arange_start(start as i64, end as i64, (Kind::Int64, run.device));
        let (x, legal, y) = data.batch(&idx);
        let (_, best) = masked(&run.net.forward_t(&x, false), &legal).topk(3, -1, true, true);
        let hit = best.eq_tensor(&y.unsqueeze(1)).to_device(Device::Cpu);
        let first: Vec<bool> = Vec::try_from(hit.narrow(1, 0, 1).squeeze_dim(1)).unwrap_or_default();
        let any: Vec<bool> = Vec::try_from(hit.any_dim(1, false)).unwrap_or_default();
        out.extend(first.into_iter().zip(any));
    }
    out
}
