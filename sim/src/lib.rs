//! haifu-sim: a Tenhou-rule game engine for self-play, and the oracle that replays real logs through it.
//!
//! # Design
//!
//! - [`table`]: the rules of a table from its `GO type` (players, red fives, kuitan, hanchan) and Tenhou's
//!   end-of-game arithmetic (when the game ends, `owari`), as established on the corpus.
//! - [`wall`]: where tiles come from, behind the [`Wall`] trait: [`SeededWall`] shuffles each round from a
//!   `u64` seed (same seed, same game); [`ScriptedWall`] takes the deal, every draw, kan dora and ura dora from
//!   a log, so the engine plays a logged game again.
//! - the table state and the rules' bookkeeping of a round (each seat's furiten, waits, kuikae; the kans; what
//!   is asked now) are `haifu_record`'s (`state::TableState`, `legal::RoundRules`), and so is what a seat may do
//!   (`legal::SeatOptions`): the engine feeds the bookkeeping every event it writes, as the mjai follower and
//!   the ingest replay feed it theirs, so all three ask the same rules.
//! - [`engine`]: the state machine ([`Engine`]): turns and responses, priorities (ron > pon/kan > chi, double
//!   ron, triple ron abortive), kans and their dora timing, riichi, abortive and exhaustive draws, honba,
//!   sticks, dealer rotation, the end of the game. Scoring is `haifu_rules::score`: a seat may win exactly when
//!   `score()` gives a score (complete hand with a yaku) and it is not furiten. Every step is written as the
//!   mjlog events Tenhou writes ([`Engine::record`]), so an engine game reads back with `haifu_record`.
//! - [`bot`]: what a seat sees ([`View`]), the [`Bot`] trait, a random and a tsumogiri bot, and
//!   [`bot::play`] / [`bot::self_play`] to run games.
//! - [`style`]: the style bots (shanten-greedy, efficiency, tanyao, chanta, flush, yakuhai, toitoi, caller,
//!   folder, dama) and the names `haifu sim` and `haifu battle` know them by.
//! - [`generate`]: seeded self-play corpora in parallel, one Tenhou-like log file per game (`haifu sim`).
//! - [`battle`]: seed 004's battle evaluation with its Welch t-test (`haifu battle`).
//! - [`verify`]: the oracle check (`haifu verify`). It drives the engine with the actions of a logged game: every logged
//!   action must be legal, and every win, draw and `owari` the engine computes must equal the log's. The
//!   report ([`verify::VerifyReport`]) lists each mismatch (game, round, event, expected vs computed) and is
//!   serde-serializable (`haifu verify`).
//!
//! Tenhou rule facts the engine follows and the corpus confirmed are documented where they are used
//! ([`table`] for the end of the game and `owari`, [`engine`] for riichi, kans and draws).

pub mod action;
pub mod battle;
pub mod bot;
pub mod engine;
pub mod generate;
pub mod style;
pub mod verify;
pub mod wall;

pub use action::{Action, IllegalAction};
pub use bot::{Bot, RandomBot, TsumogiriBot, View};
pub use engine::{Engine, Offer, RoundEnd, SeatOptions, TenpaiRuleCases, TurnStart, WinBlock};
pub use haifu_rules::table::{self, TableRules};
pub use wall::{ScriptedWall, SeededWall, Wall};
