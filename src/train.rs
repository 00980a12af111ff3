//! `haifu train`'s arguments: a neural baseline (SPEC 5.1) trained on the positions of a dataset, in the
//! network binary (neural-cli/src/train.rs).

use std::path::PathBuf;

use haifu_encoding::options::{Arch, Decisions, DeviceChoice, Tune};

#[derive(clap::Args)]
pub struct TrainArgs {
    /// Dataset written by `haifu ingest`.
    #[arg(long)]
    pub dataset: PathBuf,
    /// What the network learns: discards (which tile), or choices (every other decision: call or pass, riichi
    /// or dama, kans, wins, nine terminals, north; the kinds of option offered as the legal mask, the kind
    /// chosen as the label; mlp and densemlp, no --augment), reported beside the majority choice.
    #[arg(long, default_value = "discards")]
    pub decisions: Decisions,
    /// Model: mlp, densemlp, cnn (seed 004) or transformer (seed 000, topology-masked attention).
    #[arg(long, default_value = "mlp")]
    pub model: Arch,
    /// Hidden layers (seed 004 tried 4, 5 and 6, of 512); the CNN's convolution layers; the transformer's
    /// encoder layers.
    #[arg(long, default_value_t = 5)]
    pub layers: usize,
    /// The CNN's channels (seed 004: 100, 200, 300; default 200); the transformer's width (a multiple of 8;
    /// default 200); the MLP's and DenseMLP's hidden width (default 512).
    #[arg(long)]
    pub channels: Option<i64>,
    /// Output directory: a checkpoint per epoch (epoch-N.ot) and metrics.csv.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Years of the training games, comma-separated (default: every year not tested).
    #[arg(long, value_delimiter = ',')]
    pub years: Vec<i32>,
    /// Years of the test games (default: one game in ten of the training years, by a hash of its id).
    #[arg(long, value_delimiter = ',')]
    pub test_years: Vec<i32>,
    /// Four- or three-player games (a model never mixes them).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(3..=4))]
    pub players: u8,
    #[arg(long, default_value_t = 3)]
    pub epochs: usize,
    /// Positions per step (seed 004: 5000).
    #[arg(long, default_value_t = 5000)]
    pub batch: usize,
    /// Adam's learning rate (divided by ten for the last third of the epochs).
    #[arg(long, default_value_t = 1e-3)]
    pub lr: f64,
    /// auto (CUDA when libtorch sees a GPU), cpu or cuda.
    #[arg(long, default_value = "auto")]
    pub device: DeviceChoice,
    /// Seed of the initial weights and the order of the positions (deterministic on CPU).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Move each batch by one of twelve augmentations chosen at random (seed 003: pin and sou swapped, digits
    /// mirrored, dragons rotated), the discard moved with it.
    #[arg(long)]
    pub augment: bool,
    /// Weights and activations in bfloat16 (the loss and the rankings in fp32): about twice the speed of the
    /// convolutions and attention on a GPU with bf16 units; slow on most CPUs.
    #[arg(long)]
    pub bf16: bool,
    /// On a GPU, let cuDNN time its convolution algorithms on the first batches and keep the fastest: seconds
    /// more in the first epoch, the CNN's later epochs about a tenth faster (for long runs).
    #[arg(long)]
    pub cudnn_benchmark: bool,
    /// A personal model: only this player's decisions (with --init, fine-tuned from a global run).
    #[arg(long)]
    pub player: Option<String>,
    /// Start from the last checkpoint of this run (same model, layers, channels and table size).
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// With --init: train all the weights, only the output layer (head), or only its 34 biases (bias: a
    /// player's leaning over the global network's); the rest, batch norm's statistics included, stay the init's.
    #[arg(long, default_value = "all")]
    pub tune: Tune,
    /// With --init: after the last epoch move every weight back to init + A * (fine-tuned - init), a
    /// weight-space ensemble of the two networks (WiSE-FT); the run reports the fine-tuned figures too.
    #[arg(long, value_name = "A", requires = "init", conflicts_with = "resume")]
    pub interpolate: Option<f64>,
    /// With --init: personal models as one network, the global run conditioned on the player: a vector of D
    /// numbers for each player with --player-min-games training games, read by one layer into the network's
    /// first hidden layer, trained with the network from the --init run's weights (its shape: --model,
    /// --layers, --channels are not read). Reports each player's top-1 beside the global network's on the
    /// same test positions (docs/NEURAL.md).
    #[arg(long, value_name = "D", requires = "init", conflicts_with_all = ["player", "resume", "interpolate", "augment", "bf16"])]
    pub player_vectors: Option<i64>,
    /// With --player-vectors: the training games a player needs for a vector, and the games on each side a
    /// player needs to be judged (counted in the report's share of players better than the global network).
    #[arg(long, default_value_t = 8, value_name = "GAMES")]
    pub player_min_games: usize,
    /// Go on from the last checkpoint in --out up to --epochs in all (Adam's moments start again from zero).
    #[arg(long)]
    pub resume: bool,
    /// Train on this share (0..1] of the training games (a learning curve: the games of a smaller share are
    /// among those of every larger one); the test games stay all.
    #[arg(long, value_parser = fraction)]
    pub fraction: Option<f64>,
    /// Train on fold K of N (1-based) of the training games, chosen by the same hash as --fraction (fold 1/2 is
    /// --fraction 0.5): N runs of one split train on each training game once, and each has games it never saw
    /// that the others trained on (cross-fitting: `haifu style accuracy --cross-fit`).
    #[arg(long, value_parser = fold, value_name = "K/N", conflicts_with = "fraction")]
    pub fold: Option<(u16, u16)>,
    /// Train on this share of the games of --years (every year without it) and test on the others: the games
    /// `haifu style build --sample F` profiles and `haifu style accuracy` tests on (chosen by the same hash of
    /// the game id), so that a network conditioned on the players (--player-vectors) can rank them there
    /// (`style accuracy --personal`).
    #[arg(long, value_parser = fraction, conflicts_with = "test_years")]
    pub sample: Option<f64>,
    /// Print one JSON object with the run's figures on stdout.
    #[arg(long)]
    pub json: bool,
}

fn fold(s: &str) -> Result<(u16, u16), String> {
    let parsed =
        s.split_once('/').and_then(|(k, n)| Some((k.trim().parse::<u16>().ok()?, n.trim().parse::<u16>().ok()?)));
    match parsed {
        Some((k, n)) if n >= 2 && (1..=n).contains(&k) => Ok((k, n)),
        _ => Err(format!("{s:?}: a fold K/N of the training games, 1 <= K <= N and N >= 2 (e.g. 1/2)")),
    }
}

fn fraction(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(f) if f > 0.0 && f <= 1.0 => Ok(f),
        _ => Err(format!("{s:?}: a share of the training games, above 0 and at most 1")),
    }
}
