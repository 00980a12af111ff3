//! `style accuracy --embedding`: the learned style embedding of `haifu_neural::embedding` behind the style
//! crate's contract (`haifu_style::embedding`).

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use haifu_neural::embedding::{EmbeddingSettings, StyleNet};
use haifu_neural::train::{device, DeviceChoice};
use haifu_style::embedding::{Embedding, Trainer};

/// Trains on the reference games (saving the network to `save`), or loads the one in `from`.
pub struct Torch {
    pub from: Option<PathBuf>,
    pub save: Option<PathBuf>,
}

struct Trained(StyleNet);

impl Embedding for Trained {
    fn embed(&self, inputs: &[Vec<f32>]) -> Result<Vec<Vec<f32>>> {
        self.0.embed(inputs)
    }
}

impl Trainer for Torch {
    fn fit(&self, inputs: &[Vec<f32>], labels: &[usize], players: usize) -> Result<Box<dyn Embedding>> {
        let on = device(DeviceChoice::Auto)?;
        let net = match &self.from {
            Some(dir) => loaded(dir, on, inputs)?,
            None => StyleNet::fit(inputs, labels, players, &EmbeddingSettings::default(), on)?,
        };
        if let Some(dir) = &self.save {
            net.save(dir)?;
        }
        Ok(Box::new(Trained(net)))
    }

    fn folder(&self) -> Option<&Path> {
        self.save.as_deref()
    }
}

fn loaded(dir: &Path, on: tch::Device, inputs: &[Vec<f32>]) -> Result<StyleNet> {
    let net = StyleNet::load(dir, on)?;
    if let Some(x) = inputs.first().filter(|x| x.len() != net.inputs()) {
        bail!(
            "{}: an embedding of {} inputs; this haifu gives {} (train it again with this version)",
            dir.display(),
            net.inputs(),
            x.len()
        );
    }
    Ok(net)
}
