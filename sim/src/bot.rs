//! Players: what a seat may see ([`View`]), the [`Bot`] trait, two simple bots, and the loop that runs a game.

use haifu_record::event::GameRecord;
use haifu_rules::Tile;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::action::{Action, IllegalAction};
use crate::engine::{Engine, Offer};
use crate::wall::{SeededWall, Wall};
use haifu_record::state::SeatView;
use haifu_rules::table::TableRules;

/// What one seat may see when it decides: the table as that seat sees it (its own hand and everything public:
/// [`SeatView`], the same view the mjai player and the neural encoder read), and the tile it is answering.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    pub table_view: SeatView<'a>,
    /// The tile this seat is answering: the seat it came from, the tile, and how it was shown.
    pub offered: Option<(u8, Tile, Offer)>,
}

impl<'a> std::ops::Deref for View<'a> {
    type Target = SeatView<'a>;
    fn deref(&self) -> &SeatView<'a> {
        &self.table_view
    }
}

impl<W: Wall> Engine<W> {
    /// What `seat` may see now.
    pub fn view(&self, seat: u8) -> View<'_> {
        let in_turn = self.turn().is_some_and(|(s, _)| s == seat);
        View { table_view: self.table().view(seat), offered: self.offered().filter(|_| !in_turn) }
    }
}

/// A player: picks one of the legal actions.
pub trait Bot {
    fn decide(&mut self, view: &View<'_>, legal: &[Action]) -> Action;
}

/// Picks a legal action uniformly at random (seeded: the same seed plays the same way).
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: StdRng,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot { rng: StdRng::seed_from_u64(seed) }
    }
}

impl Bot for RandomBot {
    fn decide(&mut self, _view: &View<'_>, legal: &[Action]) -> Action {
        legal[self.rng.random_range(0..legal.len())]
    }
}

/// Wins when it can, never calls, and discards the tile it drew (after a call, the first legal discard).
#[derive(Clone, Copy, Debug, Default)]
pub struct TsumogiriBot;

impl Bot for TsumogiriBot {
    fn decide(&mut self, view: &View<'_>, legal: &[Action]) -> Action {
        if let Some(a) = legal.iter().find(|a| matches!(a, Action::Tsumo | Action::Ron)) {
            return *a;
        }
        if legal.contains(&Action::Pass) {
            return Action::Pass;
        }
        let drawn = view.own().last_draw.map(|tile| Action::Discard { tile, riichi: false });
        match drawn {
            Some(a) if legal.contains(&a) => a,
            _ => *legal.iter().find(|a| matches!(a, Action::Discard { riichi: false, .. })).unwrap_or(&legal[0]),
        }
    }
}

/// Runs a game to its end, asking each seat's bot in turn.
pub fn play<W: Wall>(engine: &mut Engine<W>, bots: &mut [&mut dyn Bot]) -> Result<(), IllegalAction> {
    let mut legal = Vec::with_capacity(32);
    while !engine.is_over() {
        let to_act = engine.to_act();
        for seat in to_act {
            engine.legal_actions_into(seat, &mut legal);
            let view = engine.view(seat);
            let a = bots[usize::from(seat)].decide(&view, &legal);
            engine.apply(seat, a)?;
        }
    }
    Ok(())
}

/// Plays one game of `go_type` on the wall of `seed` and returns its record.
pub fn self_play(go_type: u32, seed: u64, bots: &mut [&mut dyn Bot]) -> Result<GameRecord, IllegalAction> {
    let mut engine = Engine::new(TableRules::from_go_type(go_type), SeededWall::new(seed))?;
    play(&mut engine, bots)?;
    Ok(engine.into_record())
}
