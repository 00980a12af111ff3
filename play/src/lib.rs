//! haifu-play: the imitator at the table, over mjai.
//!
//! - [`server`]: the engine of `haifu-sim` as an mjai game server (`haifu mjai-server`): clients join over TCP,
//!   every game is written as mjlog and mjai logs.
//! - [`follow`]: what one seat knows, kept from the messages it receives (the table state with the other
//!   hands hidden, and its own furiten and kuikae), and what it is asked to answer.
//! - [`policy`]: the player (`haifu mjai-bot`): discards from a player's sequence tables, a neural model
//!   where the tables have no candidate, the shanten rule last; calls, riichi and folding from the player's
//!   rates.
//! - [`client`]: the protocol loop on stdin/stdout or as a TCP client.

pub mod client;
pub mod follow;
pub mod personal;
pub mod policy;
pub mod server;
