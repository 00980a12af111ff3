//! Walls: where the tiles of a round come from. Self-play shuffles a wall from a seed; the oracle replay takes
//! every tile (deal, draws, kan dora, ura dora) from a log, so the engine plays the logged round again.

use haifu_record::event::{Event, GameRecord};
use haifu_record::tags::Init;
use haifu_rules::Tile;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// The tiles dealt at the start of a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    /// 13 tiles per playing seat; the absent seat of a 3-player game gets none.
    pub hands: [Vec<Tile>; 4],
    pub dora_indicator: Tile,
    pub dice: [u8; 2],
}

/// A source of tiles for the engine. `None` means the source has run dry (a log that stops early).
pub trait Wall {
    /// Deals the next round (`players` hands, the first dora indicator).
    fn deal(&mut self, players: u8) -> Option<Deal>;
    /// The next tile of the live wall.
    fn draw(&mut self) -> Option<Tile>;
    /// A replacement tile after a kan or a north extraction.
    fn replacement(&mut self) -> Option<Tile>;
    /// The next kan dora indicator.
    fn kan_dora(&mut self) -> Option<Tile>;
    /// The first `n` ura dora indicators (for a riichi winner).
    fn ura(&mut self, n: usize) -> Vec<Tile>;
}

/// A wall shuffled from a seed: the same seed deals the same game.
///
/// Layout of one round's 136 (108) tiles: the live wall from the front, the dead wall the last 14: five dora
/// indicators, five ura indicators, four replacement tiles. Replacements past the fourth (3-player games with
/// several norths) come from the end of the live wall, which is what a dead wall replenished from the live
/// wall amounts to.
#[derive(Clone, Debug)]
pub struct SeededWall {
    rng: StdRng,
    tiles: Vec<Tile>,
    next: usize,
    live_end: usize,
    replacements: usize,
    kan_doras: usize,
}

impl SeededWall {
    pub fn new(seed: u64) -> SeededWall {
        SeededWall {
            rng: StdRng::seed_from_u64(seed),
            tiles: Vec::with_capacity(136),
            next: 0,
            live_end: 0,
            replacements: 0,
            kan_doras: 0,
        }
    }
    fn dead(&self, i: usize) -> Tile {
        self.tiles[self.tiles.len() - 14 + i]
    }
}

impl Wall for SeededWall {
    fn deal(&mut self, players: u8) -> Option<Deal> {
        self.tiles.clear();
        self.tiles.extend((0..136u8).map(Tile::from_id).filter(|t| players == 4 || !t.kind().absent_in_sanma()));
        self.tiles.shuffle(&mut self.rng);
        let mut hands: [Vec<Tile>; 4] = Default::default();
        for (s, h) in hands.iter_mut().enumerate().take(usize::from(players)) {
            h.extend_from_slice(&self.tiles[s * 13..s * 13 + 13]);
            h.sort_unstable();
        }
        self.next = 13 * usize::from(players);
        self.live_end = self.tiles.len() - 14;
        self.replacements = 0;
        self.kan_doras = 0;
        let dice = [self.rng.random_range(1..=6), self.rng.random_range(1..=6)];
        Some(Deal { hands, dora_indicator: self.dead(0), dice })
    }
    fn draw(&mut self) -> Option<Tile> {
        (self.next < self.live_end).then(|| {
            self.next += 1;
            self.tiles[self.next - 1]
        })
    }
    fn replacement(&mut self) -> Option<Tile> {
        self.replacements += 1;
        if self.replacements <= 4 {
            self.live_end = self.live_end.checked_sub(1)?;
            Some(self.dead(10 + self.replacements - 1))
        } else {
            self.live_end = self.live_end.checked_sub(1)?;
            (self.live_end >= self.next).then(|| self.tiles[self.live_end])
        }
    }
    fn kan_dora(&mut self) -> Option<Tile> {
        self.kan_doras += 1;
        (self.kan_doras < 5).then(|| self.dead(self.kan_doras))
    }
    fn ura(&mut self, n: usize) -> Vec<Tile> {
        (0..n.min(5)).map(|i| self.dead(5 + i)).collect()
    }
}

/// The tiles of one logged round.
#[derive(Clone, Debug, Default)]
pub struct LoggedRound {
    pub init: Option<Init>,
    /// Every draw in order, replacement draws included.
    pub draws: Vec<Tile>,
    pub kan_doras: Vec<Tile>,
    pub ura: Vec<Tile>,
}

/// A wall that replays the tiles of a log, round by round.
#[derive(Clone, Debug, Default)]
pub struct ScriptedWall {
    rounds: Vec<LoggedRound>,
    round: usize,
    draw: usize,
    kan_dora: usize,
}

impl ScriptedWall {
    /// Collects every round's tiles from a record (`INIT`, draws, `DORA`, the `doraHaiUra` of its wins).
    pub fn from_record(record: &GameRecord) -> ScriptedWall {
        let mut rounds: Vec<LoggedRound> = Vec::new();
        for e in &record.events {
            match e {
                Event::Init(init) => {
                    rounds.push(LoggedRound { init: Some(init.value().clone()), ..LoggedRound::default() });
                }
                Event::Draw { tile, .. } => {
                    if let Some(r) = rounds.last_mut() {
                        r.draws.push(*tile);
                    }
                }
                Event::Dora { tile } => {
                    if let Some(r) = rounds.last_mut() {
                        r.kan_doras.push(*tile);
                    }
                }
                Event::Agari(a) => {
                    if let Some(r) = rounds.last_mut() {
                        if r.ura.is_empty() {
                            r.ura = a.ura_indicators.clone();
                        }
                    }
                }
                _ => {}
            }
        }
        ScriptedWall { rounds, round: 0, draw: 0, kan_dora: 0 }
    }
    /// Index of the round the next `deal` deals.
    pub fn next_round(&self) -> usize {
        self.round
    }
    /// Makes the next `deal` deal round `i` of the log.
    pub fn seek(&mut self, i: usize) {
        self.round = i;
    }
    pub fn rounds(&self) -> &[LoggedRound] {
        &self.rounds
    }
    fn current(&self) -> Option<&LoggedRound> {
        self.round.checked_sub(1).and_then(|i| self.rounds.get(i))
    }
}

impl Wall for ScriptedWall {
    fn deal(&mut self, _players: u8) -> Option<Deal> {
        let init = self.rounds.get(self.round)?.init.clone()?;
        self.round += 1;
        self.draw = 0;
        self.kan_dora = 0;
        Some(Deal { hands: init.hands, dora_indicator: init.dora_indicator, dice: init.dice })
    }
    fn draw(&mut self) -> Option<Tile> {
        let t = self.current()?.draws.get(self.draw).copied();
        self.draw += 1;
        t
    }
    fn replacement(&mut self) -> Option<Tile> {
        self.draw()
    }
    fn kan_dora(&mut self) -> Option<Tile> {
        let t = self.current()?.kan_doras.get(self.kan_dora).copied();
        self.kan_dora += 1;
        t
    }
    fn ura(&mut self, n: usize) -> Vec<Tile> {
        self.current().map(|r| r.ura.iter().take(n).copied().collect()).unwrap_or_default()
    }
}
