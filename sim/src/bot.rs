//! Players: what a seat may see ([`View`]), the [`Bot`] trait, two simple bots, and the loop that runs a game.

use haifu_record::event::GameRecord;
use haifu_rules::{Hand, Meld, Tile};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::action::{Action, IllegalAction};
use crate::engine::{Engine, Offer};
use crate::state::RiverTile;
use crate::wall::{SeededWall, Wall};
use haifu_rules::table::TableRules;

/// What one seat may see when it decides: its own hand, and what is public.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    pub seat: u8,
    pub players: u8,
    pub kyoku: u8,
    pub honba: u8,
    pub kyotaku: u8,
    pub dealer: u8,
    pub scores: [i32; 4],
    pub hand: &'a Hand,
    /// The tile this seat drew last, while it still holds it.
    pub last_draw: Option<Tile>,
    pub melds: [&'a [Meld]; 4],
    pub rivers: [&'a [RiverTile]; 4],
    /// Seats in riichi (declared or accepted).
    pub riichi: [bool; 4],
    pub dora_indicators: &'a [Tile],
    pub draws_left: u8,
    /// The tile this seat is answering: the seat it came from, the tile, and how it was shown.
    pub offered: Option<(u8, Tile, Offer)>,
}

impl<W: Wall> Engine<W> {
    /// What `seat` may see now.
    pub fn view(&self, seat: u8) -> View<'_> {
        let last = self.hand(seat).tiles();
        let in_turn = self.turn().is_some_and(|(s, _)| s == seat);
        View {
            seat,
            players: self.rules().players,
            kyoku: self.kyoku(),
            honba: self.honba(),
            kyotaku: self.kyotaku(),
            dealer: self.dealer(),
            scores: self.scores(),
            hand: self.hand(seat),
            last_draw: if in_turn { self.last_draw_of(seat).filter(|t| last.contains(*t)) } else { None },
            melds: [0u8, 1, 2, 3].map(|s| self.melds(s)),
            rivers: [0u8, 1, 2, 3].map(|s| self.river(s)),
            riichi: [0u8, 1, 2, 3].map(|s| self.in_riichi(s)),
            dora_indicators: self.dora_indicators(),
            draws_left: self.draws_left(),
            offered: self.offered().filter(|_| !in_turn),
        }
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
        let drawn = view.last_draw.map(|tile| Action::Discard { tile, riichi: false });
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
