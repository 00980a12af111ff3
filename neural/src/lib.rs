//! Neural baselines (SPEC 5) with libtorch through `tch`: the MLP and DenseMLP, the CNN and the Transformer
//! ([`model`]), their training and evaluation ([`train`], [`eval`]) and the networks beside the sequence tables
//! ([`hybrid`]), on positions encoded by the tch-free `haifu-encoding` crate (re-exported here:
//! [`features`], [`positions`], ...); a choices run's figures beside the majority choice ([`choices`]). Everything runs on CPU; CUDA is used when libtorch sees a GPU.

mod adam;
pub mod choices;
pub mod embedding;
pub mod eval;
pub mod hybrid;
pub mod lookup;
pub mod model;
pub mod train;
pub mod transformer;

pub use haifu_encoding::choices::of_game as choices_of_game;
pub use haifu_encoding::{
    augment, cache, features, held_out, in_fraction, load, load_years, of_player, planes, positions, Games, Positions,
    Split,
};
