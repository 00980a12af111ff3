//! The parsed form of a tenhou.net/6 log that the reader (`read`), the replay of the order of play (`order`) and
//! the writing of each round's end (`finish`) share: the game, its rounds and their results.

use super::calls::{Code, Out, Take};
use crate::tags::{DrawKind, Player};

#[derive(Clone, Debug)]
pub(super) struct Round {
    pub(super) kyoku: u8,
    pub(super) honba: u8,
    pub(super) kyotaku: u8,
    pub(super) scores: [i32; 4],
    pub(super) dora: Vec<Code>,
    pub(super) ura: Vec<Code>,
    pub(super) hai: [Vec<Code>; 4],
    pub(super) takes: [Vec<Take>; 4],
    pub(super) outs: [Vec<Out>; 4],
    pub(super) result: RoundResult,
}

pub(super) struct Game {
    pub(super) log_id: Option<String>,
    pub(super) players: [Player; 4],
    pub(super) game_type: u32,
    pub(super) lobby: i64,
    pub(super) n_players: usize,
    pub(super) red: bool,
    /// Rounds with the byte offset of the object that holds them.
    pub(super) rounds: Vec<(u64, Round)>,
    /// `sc`: final scores and points, when the file gives them.
    pub(super) final_sc: Option<Vec<f64>>,
    /// What the file does not say and the reader settled (the games table's `notes`).
    pub(super) notes: Vec<String>,
}

/// One win of a round's result: deltas and `[who, from, pao, score string, yaku ...]`.
#[derive(Clone, Debug)]
pub(super) struct Win {
    pub(super) deltas: [i32; 4],
    pub(super) who: usize,
    pub(super) from: usize,
    pub(super) pao: usize,
    pub(super) score: Option<String>,
    pub(super) yaku: Vec<String>,
}

#[derive(Clone, Debug)]
pub(super) enum RoundResult {
    Wins(Vec<Win>),
    Draw { kind: DrawKind, name: String, deltas: [i32; 4] },
}
