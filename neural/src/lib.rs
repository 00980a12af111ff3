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
pub mod personal;
pub mod train;
pub mod transformer;

/// libtorch's generator is global: a run's seed and the initial weights drawn from it are set under this lock,
/// so that runs in parallel (tests, a library user's threads) keep each its own seed's weights.
static GENERATOR: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// libtorch's generator to the caller alone while the guard lives (every module that seeds or draws weights).
pub(crate) fn generator() -> std::sync::MutexGuard<'static, ()> {
    GENERATOR.lock().unwrap_or_else(|e| e.into_inner())
}

pub use haifu_encoding::choices::of_game as choices_of_game;
pub use haifu_encoding::{
    augment, cache, features, held_out, in_fraction, load, load_seats, load_years, of_player, planes, positions, Games,
    Positions, Sides, Split, ANONYMOUS,
};
