//! The names of a network run's options as the command line takes them: the architecture (`--model`), the
//! decisions learnt (`--decisions`), the device (`--device`) and the weights a fine-tuning trains (`--tune`). They live here, without libtorch, so
//! that the `haifu` binary parses every command's arguments (and lists them in `--help`) before it hands a
//! network command to the network binary; `haifu-neural` gives them their meaning.

use std::str::FromStr;

/// Width of every hidden layer (seed 004), and of the flat networks' unless `--channels` says otherwise.
pub const HIDDEN: i64 = 512;

/// Which network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Arch {
    Mlp,
    DenseMlp,
    Cnn,
    Transformer,
}

impl FromStr for Arch {
    type Err = String;
    fn from_str(s: &str) -> Result<Arch, String> {
        match s {
            "mlp" => Ok(Arch::Mlp),
            "densemlp" => Ok(Arch::DenseMlp),
            "cnn" => Ok(Arch::Cnn),
            "transformer" => Ok(Arch::Transformer),
            _ => Err(format!("unknown model {s:?}: mlp, densemlp, cnn or transformer")),
        }
    }
}

impl Arch {
    /// `--channels` when none is given: the flat networks' hidden width, the CNN's channels, the Transformer's
    /// width.
    pub fn default_channels(self) -> i64 {
        match self {
            Arch::Mlp | Arch::DenseMlp => HIDDEN,
            Arch::Cnn | Arch::Transformer => 200,
        }
    }
}

impl std::fmt::Display for Arch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Arch::Mlp => "mlp",
            Arch::DenseMlp => "densemlp",
            Arch::Cnn => "cnn",
            Arch::Transformer => "transformer",
        })
    }
}

/// Which decisions a network learns (`--decisions`): the discards, or every other choice (calls, riichi, kans,
/// wins, aborts, norths: [`crate::choices`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decisions {
    #[default]
    Discards,
    Choices,
}

impl FromStr for Decisions {
    type Err = String;
    fn from_str(s: &str) -> Result<Decisions, String> {
        match s {
            "discards" => Ok(Decisions::Discards),
            "choices" => Ok(Decisions::Choices),
            _ => Err(format!("unknown --decisions {s:?}: discards or choices")),
        }
    }
}

impl Decisions {
    /// The name of the positions' encoding (recorded in a run and in the cache's key).
    pub fn features(self) -> &'static str {
        match self {
            Decisions::Discards => crate::features::FEATURES,
            Decisions::Choices => crate::choices::CHOICE_FEATURES,
        }
    }
}

/// `--device` (`haifu_neural::train::device` turns it into libtorch's device).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceChoice {
    Auto,
    Cpu,
    Cuda,
}

impl FromStr for DeviceChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<DeviceChoice, String> {
        match s {
            "auto" => Ok(DeviceChoice::Auto),
            "cpu" => Ok(DeviceChoice::Cpu),
            "cuda" => Ok(DeviceChoice::Cuda),
            _ => Err(format!("unknown device {s:?}: auto, cpu or cuda")),
        }
    }
}

/// Which weights a run trains (`--tune`): all, or on top of an `--init` network only its output layer, or only
/// the output layer's bias (34 numbers: a player's leaning towards some discards over the global network's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tune {
    All,
    Head,
    Bias,
}

impl FromStr for Tune {
    type Err = String;
    fn from_str(s: &str) -> Result<Tune, String> {
        match s {
            "all" => Ok(Tune::All),
            "head" => Ok(Tune::Head),
            "bias" => Ok(Tune::Bias),
            _ => Err(format!("unknown --tune {s:?}: all, head or bias")),
        }
    }
}

impl Tune {
    /// Whether the variable of this name trains.
    pub fn trains(self, name: &str) -> bool {
        match self {
            Tune::All => true,
            Tune::Head => name.starts_with("out."),
            Tune::Bias => name == "out.bias",
        }
    }
}
