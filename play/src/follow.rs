//! What one seat knows, kept from the mjai messages it receives, and what it is asked to answer.
//!
//! [`Follower`] holds the table as that seat sees it: a [`TableState`] whose other hands are hidden
//! ([`TableState::hide_hands_but`]), so the same state the engine, the extractor and the neural encoder read,
//! plus the rules' bookkeeping ([`RoundRules`]: furiten, kuikae, waits, kans, what is asked now) advanced by
//! the same steps the engine and the ingest replay take. Its legal actions are the engine's own: the player
//! cannot offer what the server would refuse, nor miss a win the engine would allow.
//!
//! Each message of play becomes the record's event by the same step the ingest reader of mjai logs takes
//! ([`Tiles`]: physical ids for tiles mjai names by kind, the own seat's from its hand, the others' fresh), and
//! the event advances the table and the rules' bookkeeping as a walk over a record does ([`TableState::apply`],
//! [`RoundRules::after`]). Only the round's end is taken from the message's scores, as the player is told no
//! win's value.
//!
//! Messages are followed for any seat: `start_game` tells the seat (`id`); without it (a log read as an
//! observer) the caller names the seat. Hidden tiles (`?`) are expected for the other seats.

use haifu_encoding::features::Safety;
use haifu_record::event::Event;
use haifu_record::legal::{Moment, RoundRules, SeatRules, TurnStart};
use haifu_record::mjai::answer::{self, Asked};
use haifu_record::mjai::message::{self as m, Message};
use haifu_record::mjai::tiles::Tiles;
use haifu_record::state::TableState;
use haifu_record::tags::{Init, Reach};
use haifu_rules::{Kind, Meld, MeldKind, MjaiTile, Tile};
use haifu_sim::{Action, Offer, TableRules, View};

/// What the seat is asked now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Its turn: it holds 3n+2 tiles (after a draw, a replacement draw, or its chi / pon).
    Turn { source: TurnStart, tsumo_ok: bool },
    /// It declared riichi: the riichi discard is due.
    RiichiDiscard,
    /// Another seat showed a tile it may win on or call.
    Respond { from: u8, tile: Tile, offer: Offer },
}

/// One seat's knowledge of the game. See the module documentation.
pub struct Follower {
    seat: u8,
    pub names: Vec<String>,
    pub rules: TableRules,
    pub table: TableState,
    /// The rules' bookkeeping of the round (only this seat's is known).
    round: RoundRules,
    /// The round's tiles as mjai names them.
    tiles: Tiles,
    question: Option<Question>,
    asked: bool,
    in_game: bool,
    /// The game's `start_game` (its rules), kept for a log that says the player count only in its hands.
    start: m::StartGame,
    /// Which kinds are safe against which seat (the neural encoder's input).
    pub safety: Safety,
}

/// A message the seat's knowledge cannot take: names the message and why.
#[derive(Debug, thiserror::Error)]
#[error("{kind}: {why}")]
pub struct FollowError {
    pub kind: &'static str,
    pub why: String,
}

fn kind_index(k: Kind) -> usize {
    usize::from(k.index())
}

/// The rules a `start_game` states (4 players, red fives and hanchan unless it says otherwise).
pub fn rules_of(start: &m::StartGame, players: u8) -> TableRules {
    let hanchan = !matches!((start.kyoku_first, start.gametype.as_deref()), (Some(4), _) | (_, Some("tonpu")));
    let red = start.aka_flag.unwrap_or(true);
    // Tenhou's GO bits: 0x01 ranked, 0x02 no red, 0x08 hanchan, 0x10 three players
    let go = 0x01 | if red { 0 } else { 0x02 } | if hanchan { 0x08 } else { 0 } | if players == 3 { 0x10 } else { 0 };
    TableRules::from_go_type(go)
}

impl Follower {
    /// A follower of `seat` (a `start_game` with an `id` moves it to that seat).
    pub fn new(seat: u8) -> Follower {
        let rules = TableRules::from_go_type(0x09);
        let mut table = TableState::new(4, rules.start_score());
        table.hide_hands_but(seat);
        Follower {
            seat,
            names: Vec::new(),
            table,
            round: RoundRules::new(rules),
            tiles: Tiles::new(rules.red_fives),
            rules,
            question: None,
            asked: false,
            in_game: false,
            start: m::StartGame::default(),
            safety: Safety::default(),
        }
    }

    pub fn seat(&self) -> u8 {
        self.seat
    }

    /// What the seat is asked (`None`: nothing). It may stand from an earlier message: see
    /// [`Follower::asked`].
    pub fn question(&self) -> Option<Question> {
        self.question
    }

    /// The last message asked the question (an answer is due to it; else the answer is `none`).
    pub fn asked(&self) -> bool {
        self.asked && self.question.is_some()
    }

    /// The game is between `start_game` and `end_game`.
    pub fn in_game(&self) -> bool {
        self.in_game
    }

    /// The seat's view for a bot of `haifu-sim` ([`View`]).
    pub fn view(&self) -> View<'_> {
        let offered = match self.question {
            Some(Question::Respond { from, tile, offer }) => Some((from, tile, offer)),
            _ => None,
        };
        View { table_view: self.table.view(self.seat), offered }
    }

    /// The seat's rule bookkeeping (waits, furiten, kuikae).
    pub fn extras(&self) -> &SeatRules {
        self.round.seat(self.seat)
    }

    /// The legal actions now (empty when the seat is asked nothing). A riichi discard due lists the
    /// discards that keep the hand tenpai, as riichi discards.
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.question.is_some() {
            self.round.legal_actions(&self.table, self.seat, out);
        }
    }

    fn err(kind: &'static str, why: impl Into<String>) -> FollowError {
        FollowError { kind, why: why.into() }
    }

    /// The tile as mjai names it.
    pub fn mjai_tile(&self, t: Tile) -> MjaiTile {
        self.tiles.mjai(t)
    }

    /// Takes one message. After it, [`Follower::question`] says what the seat must answer.
    ///
    /// # Errors
    /// A message that contradicts what the seat knows (a discard of a tile it does not hold, a call on no
    /// discard, a fifth copy), naming the message type and why.
    pub fn take(&mut self, msg: &Message) -> Result<(), FollowError> {
        let kind = msg.kind();
        // mjai pays a riichi stick (`reach_accepted`) before the call on the riichi discard: the question
        // the discard raised still stands, but it is not asked again
        let keep = matches!(msg, Message::ReachAccepted(_));
        if !keep {
            self.question = None;
        }
        self.asked = false;
        let before = self.question;
        self.step(msg).map_err(|why| Self::err(kind, why))?;
        self.asked = self.question.is_some() && (!keep || before.is_none());
        Ok(())
    }

    fn step(&mut self, msg: &Message) -> Result<(), String> {
        let me = self.seat;
        match msg {
            Message::StartGame(g) => {
                if let Some(id) = g.id {
                    self.seat = id;
                }
                self.names = g.names.clone().unwrap_or_default();
                let players = if self.names.len() == 3 { 3 } else { 4 };
                self.rules = rules_of(g, players);
                self.round = RoundRules::new(self.rules);
                self.start = g.clone();
                self.table = TableState::new(players, self.rules.start_score());
                self.table.hide_hands_but(self.seat);
                self.in_game = true;
            }
            Message::StartKyoku(k) => self.start_round(k)?,
            Message::Tsumo(t) => {
                let draw = self.tiles.draw(&self.table, t.actor, t.pai)?;
                self.apply(&draw, false)?;
                if let (true, Moment::Turn { source, tsumo_ok, .. }) = (t.actor == me, self.round.moment()) {
                    self.question = Some(Question::Turn { source, tsumo_ok });
                }
            }
            Message::Dahai(d) => {
                let discard = self.tiles.discard(&self.table, d)?;
                self.apply(&discard, d.tsumogiri.unwrap_or(false))?;
                if let Event::Discard { seat, tile } = discard {
                    self.safety.discarded(&self.table, seat, tile);
                }
                self.respond();
            }
            Message::Chi(c) | Message::Pon(c) | Message::Daiminkan(c) => {
                let mk = match msg {
                    Message::Chi(_) => MeldKind::Chi,
                    Message::Pon(_) => MeldKind::Pon,
                    _ => MeldKind::Daiminkan,
                };
                let meld = self.tiles.call(&self.table, mk, c)?;
                self.apply(&Event::call(c.actor, meld), false)?;
                if c.actor == me && mk != MeldKind::Daiminkan {
                    self.question = Some(Question::Turn { source: TurnStart::Call, tsumo_ok: false });
                }
            }
            Message::Ankan(a) => {
                let meld = self.tiles.ankan(&self.table, a)?;
                self.kan_or_nuki(a.actor, meld)?;
            }
            Message::Kakan(a) => {
                let meld = self.tiles.kakan(&self.table, a)?;
                self.kan_or_nuki(a.actor, meld)?;
            }
            Message::Nukidora(n) => {
                let meld = self.tiles.nukidora(&self.table, n)?;
                self.kan_or_nuki(n.actor, meld)?;
            }
            Message::Dora(d) => {
                let dora = self.tiles.dora(d.dora_marker)?;
                self.apply(&dora, false)?;
            }
            Message::Reach(r) => {
                self.apply(&Event::reach(Reach { who: r.actor, step: 1, scores: None }), false)?;
                if r.actor == me {
                    self.question = Some(Question::RiichiDiscard);
                }
            }
            Message::ReachAccepted(r) => {
                self.apply(&Event::reach(Reach { who: r.actor, step: 2, scores: None }), false)?;
                self.set_scores(r.scores.as_deref());
            }
            Message::Hora(h) => {
                self.round.round_over();
                self.settle(h.deltas.as_deref(), h.scores.as_deref())
            }
            Message::Ryukyoku(r) => {
                self.round.round_over();
                self.settle(r.deltas.as_deref(), r.scores.as_deref())
            }
            Message::EndGame(_) => self.in_game = false,
            _ => {}
        }
        Ok(())
    }

    /// Advances the table and the rules' bookkeeping by one event of play. A hidden seat's discard is taken as
    /// told (`tsumogiri`: the message says it was the tile just drawn).
    fn apply(&mut self, event: &Event, tsumogiri: bool) -> Result<(), String> {
        match *event {
            Event::Discard { seat, tile } => self.table.discard_told(seat, tile, tsumogiri).map(|_| ())?,
            _ => self.table.apply(event)?,
        }
        self.round.after(&self.table, event);
        Ok(())
    }

    /// A closed or added kan, or a north set aside: a replacement draw follows; another seat may rob it.
    fn kan_or_nuki(&mut self, actor: u8, meld: Meld) -> Result<(), String> {
        self.apply(&Event::call(actor, meld), false)?;
        self.respond();
        Ok(())
    }

    /// A tile was shown: the seat is asked when the rules' bookkeeping says it may win on it or call it.
    fn respond(&mut self) {
        if let Moment::Respond { from, tile, offer, ron, call } = self.round.moment() {
            if (ron | call) & (1 << self.seat) != 0 {
                self.question = Some(Question::Respond { from, tile, offer });
            }
        }
    }

    /// A round's end: the scores after it when the message gives them, else the scores moved by its deltas.
    fn settle(&mut self, deltas: Option<&[i32]>, scores: Option<&[i32]>) {
        if let (None, Some(d)) = (scores, deltas) {
            for (s, x) in self.table.scores.iter_mut().zip(d) {
                *s += x;
            }
        }
        self.set_scores(scores);
    }

    fn set_scores(&mut self, scores: Option<&[i32]>) {
        if let Some(s) = scores {
            for (a, b) in self.table.scores.iter_mut().zip(s) {
                *a = *b;
            }
        }
    }

    fn start_round(&mut self, k: &m::StartKyoku) -> Result<(), String> {
        let players = if k.tehais.len() == 3 { 3 } else { self.table.players };
        if players != self.rules.players {
            self.rules = rules_of(&self.start, players);
        }
        let wind = kind_index(k.bakaze.kind).checked_sub(27).filter(|w| *w < 4).ok_or("bakaze is not a wind")?;
        self.tiles = Tiles::new(self.rules.red_fives);
        let marker = k.dora_marker.ok_or("start_kyoku without a dora marker")?;
        let dora_indicator = self.tiles.fresh(marker)?;
        let mut hands: [Vec<Tile>; 4] = Default::default();
        // the other seats' tiles get ids as they are shown
        let own = k.tehais.get(usize::from(self.seat)).ok_or("no hand for the seat")?;
        hands[usize::from(self.seat)] = self.tiles.deal(own)?;
        let mut scores = self.table.scores;
        if let Some(s) = &k.scores {
            for (a, b) in scores.iter_mut().zip(s) {
                *a = *b;
            }
        }
        let init = Init {
            kyoku: (wind * 4) as u8 + k.kyoku.saturating_sub(1),
            honba: k.honba,
            kyotaku: k.kyotaku,
            dice: [0, 0],
            dora_indicator,
            scores,
            dealer: k.oya,
            hands,
        };
        self.table.start(&init, players);
        self.round.set_rules(self.rules);
        self.round.dealt(&self.table);
        self.safety.clear();
        Ok(())
    }

    /// What the seat is answering now, as the mjai codec reads it.
    fn asked_now(&self) -> Asked<'_> {
        let offered = match self.question {
            Some(Question::Respond { from, tile, offer }) => Some((from, tile, offer)),
            _ => None,
        };
        Asked {
            seat: self.seat,
            table: &self.table,
            turn: matches!(self.question, Some(Question::Turn { .. } | Question::RiichiDiscard)),
            riichi_due: self.question == Some(Question::RiichiDiscard),
            offered,
            red: self.rules.red_fives,
        }
    }

    /// The message that says `action` (the answer to the question now), as the mjai codec writes it.
    pub fn answer(&self, action: &Action) -> Message {
        answer::message_of(action, &self.asked_now())
    }
}

impl Follower {
    /// Whether `msg`, said by this seat, is one of the answers its legal actions allow now (`none` when it is
    /// asked nothing, or passes): read by the codec the server reads answers with. Used to follow a log as a
    /// check of the rules: every move a real game made must be one the seat could make.
    pub fn answers_legally(&self, msg: &Message) -> bool {
        let mut legal = Vec::new();
        self.legal_actions(&mut legal);
        answer::action_of(msg, &self.asked_now(), &legal, |_| String::new()).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_follow_start_game() {
        let g = m::StartGame { aka_flag: Some(false), kyoku_first: Some(4), ..Default::default() };
        let r = rules_of(&g, 3);
        assert_eq!((r.players, r.red_fives, r.hanchan), (3, false, false));
        let r = rules_of(&m::StartGame::default(), 4);
        assert_eq!((r.players, r.red_fives, r.hanchan), (4, true, true));
    }

    #[test]
    fn kind_index_of_east() {
        assert_eq!(kind_index(Kind::EAST), 27);
    }
}
