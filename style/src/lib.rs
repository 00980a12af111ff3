//! The style database (issue 12): per player, the sequence tables of `haifu mine` and the rates of a profile
//! ([`tally`], counted from the dataset's tables as [`played`] reads them), written as Parquet ([`db`]); two players compared and the nearest found ([`compare`]); a seat
//! of a log attributed to the database's players ([`identify`]) and how often that is right on held-out games
//! ([`accuracy`]); the habits that tell players apart ([`habits`]); every decision but the discard counted per opportunity and situation ([`choice`]).

pub mod accuracy;
pub mod baseline;
pub mod choice;
pub mod choice_model;
pub mod compare;
pub mod db;
pub mod discards;
pub mod embedding;
pub mod habits;
pub mod identify;
pub mod logs;
pub mod newton;
pub mod played;
pub mod tally;

pub use db::{build, BuildOptions, Profile, StyleDb};
pub use identify::{Observed, Score, Scorer, SequenceLikelihoods};
pub use tally::{Tally, RATES};

use played::Played;

/// What each seat of a game shows of its player's style, by seat (the game's counts computed once for all).
pub fn observe_game(g: &Played) -> Vec<Observed> {
    let (tallies, habits, baseline) = (tally::of_game(g), habits::of_game(g), baseline::of_game(g));
    tallies
        .into_iter()
        .zip(habits)
        .zip(baseline)
        .zip(discards::of_game(g))
        .zip(0u8..)
        .map(|((((tally, habits), x), discards), seat)| Observed {
            sequences: tally::sequences(g, seat),
            tally,
            habits,
            baseline: vec![x],
            discards,
            seats: vec![(g.game_id, seat)],
            ..Observed::default()
        })
        .collect()
}

/// What a seat of a game shows of its player's style.
pub fn observe(g: &Played, seat: u8) -> Observed {
    observe_game(g).swap_remove(usize::from(seat))
}
