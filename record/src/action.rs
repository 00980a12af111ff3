//! What a seat may do: the engine's moves, the one vocabulary of a decision that the engine, the mjai codec
//! ([`crate::mjai::answer`]) and every player share.

use std::fmt;

use haifu_rules::{Kind, Meld, MeldKind, Tile};

use crate::state::Offer;

/// One decision of a seat. Tiles are exact ids: a red five and a plain five are different choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Discard a tile of the hand; `riichi` declares riichi with it.
    Discard { tile: Tile, riichi: bool },
    /// Win on the tile just drawn.
    Tsumo,
    /// Win on the tile just discarded (or added to a kan, or extracted as a north).
    Ron,
    /// Chi of the last discard with these two tiles of the hand (ascending ids).
    Chi { tiles: [Tile; 2] },
    /// Pon of the last discard with these two tiles of the hand (ascending ids).
    Pon { tiles: [Tile; 2] },
    /// Open kan of the last discard with the three copies of the hand.
    Daiminkan,
    /// Closed kan of the four copies of a kind in the hand.
    Ankan { kind: Kind },
    /// Added kan: this tile of the hand joins the seat's pon of its kind.
    Kakan { tile: Tile },
    /// North extraction (3-player games).
    Nuki { tile: Tile },
    /// Abortive draw with nine kinds of terminals and honors on the first turn.
    KyuushuKyuuhai,
    /// Let a discard (or kan) go by.
    Pass,
}

impl Action {
    /// The action a logged call is: a chi or pon with its two tiles from the hand, a kan, a north. `None` for an
    /// added kan that does not say which tile was added.
    pub fn of_call(meld: &Meld) -> Option<Action> {
        let mut hand = meld.from_hand();
        let mut pair = || Some([hand.next()?, hand.next()?]);
        Some(match meld.kind {
            MeldKind::Chi => Action::Chi { tiles: pair()? },
            MeldKind::Pon => Action::Pon { tiles: pair()? },
            MeldKind::Daiminkan => Action::Daiminkan,
            MeldKind::Ankan => Action::Ankan { kind: meld.base_kind() },
            MeldKind::Kakan => Action::Kakan { tile: meld.added? },
            MeldKind::Nuki => Action::Nuki { tile: meld.tiles()[0] },
        })
    }

    /// The tile a closed or added kan or a north shows the other seats, who may rob it, and how; `None` for
    /// every other action.
    pub fn shown(self) -> Option<(Tile, Offer)> {
        match self {
            // a closed kan is shown as the first copy of its kind
            Action::Ankan { kind } => Some((kind.ids()[0], Offer::Ankan)),
            Action::Kakan { tile } => Some((tile, Offer::Kakan)),
            Action::Nuki { tile } => Some((tile, Offer::Nuki)),
            _ => None,
        }
    }
}

impl fmt::Display for Action {
    /// `discard 5mr`, `riichi 3p`, `chi 4s6s`, `ankan E`, ...: readable in reports.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Discard { tile, riichi: false } => write!(f, "discard {tile}"),
            Action::Discard { tile, riichi: true } => write!(f, "riichi {tile}"),
            Action::Tsumo => f.write_str("tsumo"),
            Action::Ron => f.write_str("ron"),
            Action::Chi { tiles } => write!(f, "chi {}{}", tiles[0], tiles[1]),
            Action::Pon { tiles } => write!(f, "pon {}{}", tiles[0], tiles[1]),
            Action::Daiminkan => f.write_str("daiminkan"),
            Action::Ankan { kind } => write!(f, "ankan {kind}"),
            Action::Kakan { tile } => write!(f, "kakan {tile}"),
            Action::Nuki { tile } => write!(f, "nuki {tile}"),
            Action::KyuushuKyuuhai => f.write_str("kyuushu kyuuhai"),
            Action::Pass => f.write_str("pass"),
        }
    }
}
