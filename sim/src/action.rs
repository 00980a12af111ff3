//! The error for what a seat may not do. The moves themselves ([`Action`]) are the record crate's, shared with
//! the mjai codec and the players.

pub use haifu_record::action::Action;

/// Why [`crate::Engine::apply`] refused an action.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalAction {
    #[error("the game is over")]
    GameOver,
    #[error("seat {0} has nothing to decide now")]
    NotToAct(u8),
    #[error("seat {seat} may not {action} now")]
    NotLegal { seat: u8, action: String },
    #[error("the wall ran out of tiles ({0})")]
    WallExhausted(&'static str),
}
