//! The public state of a round, defined once: each seat's hand (where known), melds, river and riichi, and the
//! table's counters (round, honba, sticks, scores, dora indicators, tiles left). It is advanced by one function
//! per event ([`TableState::apply`], or the typed [`TableState::draw`], [`TableState::discard`] ...), and those
//! functions refuse a step the state makes impossible (a tile not in the hand, a hand of the wrong size, a
//! call on a tile that is not the last discard), naming it.
//!
//! Three users share it, so that what a model sees in training is what it sees at the table:
//! - the decision extractor of `ingest` checks a record against it and cuts decision rows from it;
//! - the engine of `sim`, the mjai player and the replay keep the rules' bookkeeping beside it
//!   ([`crate::legal::RoundRules`]: furiten, kuikae, waits, pao, what is asked now);
//! - a seat's view of it ([`TableState::view`]: its own hand and everything public) is what bots, the neural
//!   encoder and the mjai player read.

use arrayvec::ArrayVec;
use haifu_rules::score::{self, RiichiKind, Ruleset, Score, WinContext};
use haifu_rules::{Counts, Hand, Kind, Meld, MeldKind, Tile};

use crate::event::Event;
use crate::tags::{Agari, DrawKind, Init, Ryuukyoku, Yaku};

/// When a kan's new dora indicator is turned (Tenhou, SPEC 1.2): the one home of this rule, which the engine,
/// the test kit, the readers and the writers follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KanDora {
    /// A closed kan: right away, before the replacement draw.
    BeforeReplacement,
    /// An open or added kan: after the replacement draw, before the seat's discard (or its next kan). Never
    /// when the kan is robbed or the replacement tile wins.
    BeforeDiscard,
}

impl KanDora {
    /// The timing for a kan of this kind; `None` for calls that are not kans.
    pub fn of(kind: MeldKind) -> Option<KanDora> {
        match kind {
            MeldKind::Ankan => Some(KanDora::BeforeReplacement),
            MeldKind::Daiminkan | MeldKind::Kakan => Some(KanDora::BeforeDiscard),
            _ => None,
        }
    }
}

/// What the table does not know about a win: its value, its yaku, the ura indicators, the payments.
#[derive(Clone, Debug, PartialEq)]
pub struct WinValue {
    pub fu: u32,
    pub points: i32,
    pub limit: u8,
    /// In Tenhou's order.
    pub yaku: Vec<Yaku>,
    pub yakuman: Vec<u8>,
    pub ura_indicators: Vec<Tile>,
    pub pao_who: Option<u8>,
    pub delta: [i32; 4],
    /// Riichi sticks this win takes (all of them for the first winner, none for a second).
    pub sticks: u8,
}

/// How a tile another seat may win on by ron was shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    Discard,
    /// The tile added to a pon (chankan).
    Kakan,
    /// A closed kan (only thirteen orphans may rob it).
    Ankan,
    /// A north set aside (3-player Tenhou lets any waiting hand ron it).
    Nuki,
}

/// A seat's melds: at most four sets plus four north extractions.
pub type Melds = ArrayVec<Meld, 8>;

/// A discarded tile as the river shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RiverTile {
    pub tile: Tile,
    pub tsumogiri: bool,
    /// The riichi declaration tile.
    pub riichi: bool,
    /// Taken by another seat's call (it leaves the river).
    pub called_away: bool,
}

/// Riichi of one seat, as the table sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Riichi {
    #[default]
    None,
    /// Declared (`REACH step=1`): the next discard is the riichi discard.
    Declared,
    /// The riichi discard is out; the stick is paid once nobody rons it. `double`: the seat's first discard,
    /// no call before it in the round.
    Discarded {
        double: bool,
    },
    Accepted {
        double: bool,
    },
}

impl Riichi {
    pub fn is_accepted(self) -> bool {
        matches!(self, Riichi::Accepted { .. })
    }
    /// Declared, discarded or accepted: the seat has said riichi.
    pub fn is_declared(self) -> bool {
        !matches!(self, Riichi::None)
    }
    pub fn is_double(self) -> bool {
        matches!(self, Riichi::Discarded { double: true } | Riichi::Accepted { double: true })
    }
}

/// One seat in a round.
#[derive(Clone, Debug, Default)]
pub struct SeatState {
    /// The concealed tiles (every seat's in a full record; in a player's view only its own are known).
    pub hand: Hand,
    pub melds: Melds,
    pub river: Vec<RiverTile>,
    pub riichi: Riichi,
    /// A riichi win would count ippatsu: from the accepted riichi until the seat's next discard or a call
    /// (a kan or north breaks it once nobody robs it: at the next draw).
    pub ippatsu: bool,
    /// The tile drawn last, while the seat still holds it (none after a call).
    pub last_draw: Option<Tile>,
    /// Draws and calls this round (junme), from 1 at the first.
    pub turn: u8,
    /// Discards this round.
    pub discards: u8,
}

impl SeatState {
    /// Tiles in hand plus 3 per set (a kan counts 3, a north extraction none): 13 between turns, 14 to discard.
    pub fn size(&self) -> usize {
        self.hand.len() + 3 * self.sets()
    }
    /// Melds that are sets (north extractions are not).
    pub fn sets(&self) -> usize {
        self.melds.iter().filter(|m| m.kind != MeldKind::Nuki).count()
    }
    /// Closed for riichi and menzen: no call but closed kans (and north extractions).
    pub fn closed(&self) -> bool {
        self.melds.iter().all(|m| matches!(m.kind, MeldKind::Ankan | MeldKind::Nuki))
    }
    /// Copies of each kind held in the hand and the sets (norths set aside not counted).
    pub fn held(&self) -> Counts {
        let mut c = *self.hand.counts();
        for m in self.melds.iter().filter(|m| m.kind != MeldKind::Nuki) {
            for t in m.tiles() {
                c[usize::from(t.kind().index())] += 1;
            }
        }
        c
    }
}

/// The public state of one round at the table.
#[derive(Clone, Debug, Default)]
pub struct TableState {
    pub players: u8,
    /// 0 = East 1, 4 = South 1, 8 = West 1.
    pub kyoku: u8,
    pub honba: u8,
    /// Riichi sticks on the table.
    pub kyotaku: u8,
    pub dealer: u8,
    pub scores: [i32; 4],
    /// Dora indicators turned so far, kan dora included.
    pub dora: ArrayVec<Tile, 5>,
    /// Draws left in the live wall (70 at the start, 55 with three players).
    pub draws_left: u8,
    pub seats: [SeatState; 4],
    /// The last discard while it can still be called or ronned: seat and tile.
    pub last_discard: Option<(u8, Tile)>,
    /// No call of any kind yet this round: first-turn rules hold (double riichi, nine terminals, tenhou).
    pub uninterrupted: bool,
    /// A kan or north extraction waits for its replacement draw; it interrupts the first turn and ippatsu once
    /// nobody robbed it.
    kan_pending: bool,
    /// Seats whose concealed tiles this state does not know (bit per seat): a player's view, kept from what
    /// the player is told. Their hands stay empty and their draws, discards and calls are taken as told.
    hidden: u8,
}

/// What one seat may see: its own hand and everything public.
#[derive(Clone, Copy, Debug)]
pub struct SeatView<'a> {
    pub seat: u8,
    pub table: &'a TableState,
}

impl SeatView<'_> {
    pub fn hand(&self) -> &Hand {
        &self.table.seats[usize::from(self.seat)].hand
    }
    /// The seat's own public and private state.
    pub fn own(&self) -> &SeatState {
        &self.table.seats[usize::from(self.seat)]
    }
}

impl TableState {
    /// A table before its first round: the players and their starting scores.
    pub fn new(players: u8, start_score: i32) -> TableState {
        let mut t = TableState { players, ..TableState::default() };
        t.scores[..usize::from(players)].fill(start_score);
        t
    }

    /// A player's view: from now on only `seat`'s concealed tiles are known (the others' hands are not kept,
    /// and their steps are not checked against them). Holds across rounds.
    pub fn hide_hands_but(&mut self, seat: u8) {
        self.hidden = 0b1111 & !(1 << seat);
    }

    /// This state knows the seat's concealed tiles.
    pub fn knows_hand(&self, seat: u8) -> bool {
        self.hidden & (1 << seat) == 0
    }

    /// Starts a round from its `INIT` (the hands of hidden seats are ignored).
    pub fn start(&mut self, init: &Init, players: u8) {
        self.players = players;
        self.kyoku = init.kyoku;
        self.honba = init.honba;
        self.kyotaku = init.kyotaku;
        self.dealer = init.dealer;
        self.scores = init.scores;
        self.dora.clear();
        self.dora.push(init.dora_indicator);
        // the wall: 136 (108 with three players) less the dead wall of 14 and the dealt hands
        self.draws_left = if players == 3 { 108 - 14 - 39 } else { 136 - 14 - 52 };
        for (i, (s, h)) in self.seats.iter_mut().zip(&init.hands).enumerate() {
            let hand = if self.hidden & (1 << i) == 0 { h.iter().copied().collect() } else { Hand::default() };
            // a river rarely holds more than 24 tiles: reserved once, not grown by copying
            *s = SeatState { hand, river: Vec::with_capacity(24), ..SeatState::default() };
        }
        self.last_discard = None;
        self.uninterrupted = true;
        self.kan_pending = false;
    }

    /// What `seat` may see now.
    pub fn view(&self, seat: u8) -> SeatView<'_> {
        SeatView { seat, table: self }
    }

    fn seat_mut(&mut self, seat: u8) -> Result<&mut SeatState, String> {
        if seat >= self.players {
            return Err(format!("seat {seat} does not play in a {}-player game", self.players));
        }
        Ok(&mut self.seats[usize::from(seat)])
    }

    /// A draw from the wall, or the replacement draw after a kan or north.
    pub fn draw(&mut self, seat: u8, tile: Tile) -> Result<(), String> {
        if self.draws_left == 0 {
            return Err("draw from an empty wall".into());
        }
        if std::mem::take(&mut self.kan_pending) {
            self.interrupt();
        }
        self.draws_left -= 1;
        self.last_discard = None;
        let known = self.knows_hand(seat);
        let s = self.seat_mut(seat)?;
        if known {
            if s.size() != 13 {
                return Err(format!("seat {seat} draws holding {} tiles", s.size()));
            }
            s.hand.insert(tile);
            s.last_draw = Some(tile);
        }
        s.turn = s.turn.saturating_add(1);
        Ok(())
    }

    /// A draw the viewer is not shown (another seat's, in a player's view).
    pub fn draw_hidden(&mut self, seat: u8) -> Result<(), String> {
        if self.knows_hand(seat) {
            return Err(format!("a hidden draw for seat {seat}, whose hand is known"));
        }
        // any tile does: a hidden seat's hand is not kept
        self.draw(seat, Tile::from_id(0))
    }

    /// A discard; the riichi discard when the seat declared riichi (`REACH step=1`) just before.
    pub fn discard(&mut self, seat: u8, tile: Tile) -> Result<RiverTile, String> {
        self.discard_told(seat, tile, false)
    }

    /// A discard as a player is told it: for a seat whose hand is hidden, `tsumogiri` says whether it was the
    /// tile just drawn (for a known hand the state knows).
    pub fn discard_told(&mut self, seat: u8, tile: Tile, tsumogiri: bool) -> Result<RiverTile, String> {
        let first_turn = self.uninterrupted;
        let known = self.knows_hand(seat);
        let s = self.seat_mut(seat)?;
        if known {
            if s.size() != 14 {
                return Err(format!("seat {seat} discards holding {} tiles", s.size()));
            }
            let before = s.hand;
            if !s.hand.remove(tile) {
                return Err(format!("tile {} ({tile}) is not in the hand of seat {seat}: {before:?}", tile.id()));
            }
        }
        let riichi = s.riichi == Riichi::Declared;
        if riichi {
            s.riichi = Riichi::Discarded { double: first_turn && s.discards == 0 };
        }
        let tsumogiri = if known { s.last_draw == Some(tile) } else { tsumogiri };
        let t = RiverTile { tile, tsumogiri, riichi, called_away: false };
        s.river.push(t);
        s.discards += 1;
        s.ippatsu = false;
        s.last_draw = None;
        self.last_discard = Some((seat, tile));
        Ok(t)
    }

    /// A call: chi, pon or open kan of the last discard, or a closed kan, added kan or north from the hand.
    /// Checked in full before anything changes.
    pub fn call(&mut self, seat: u8, meld: Meld) -> Result<(), String> {
        let np = self.players;
        let taken = if meld.kind.takes_discard() {
            let (from_seat, last) = self.last_discard.ok_or("call with no discard to take")?;
            let called = meld.called.ok_or("call without a called tile")?;
            if called != last {
                return Err(format!("calls tile {} but the last discard is {}", called.id(), last.id()));
            }
            let expect = (seat + meld.from) % 4;
            if from_seat != expect || meld.from == 0 {
                return Err(format!(
                    "code says the tile comes from seat {expect}, the last discard is seat {from_seat}'s"
                ));
            }
            if meld.kind == MeldKind::Chi && (seat + np - 1) % np != from_seat {
                return Err("chi from a seat other than the previous one".into());
            }
            Some(from_seat)
        } else {
            None
        };
        let known = self.knows_hand(seat);
        let s = self.seat_mut(seat)?;
        if let Some(t) = meld.from_hand().find(|&t| known && !s.hand.contains(t)) {
            let (kind, hand) = (meld.kind.name(), s.hand);
            return Err(format!("{kind} needs tile {} ({t}) that seat {seat} does not hold: {hand:?}", t.id()));
        }
        let opens = matches!(meld.kind, MeldKind::Chi | MeldKind::Pon | MeldKind::Daiminkan);
        if known && opens && s.size() != 13 {
            return Err(format!("seat {seat} calls holding {} tiles", s.size()));
        }
        let pon_slot = match meld.kind {
            MeldKind::Kakan => {
                let pon = meld.pon_of_kakan().ok_or("kakan without its pon")?;
                let at = s.melds.iter().position(|m| m.kind == MeldKind::Pon && m.base_kind() == pon.base_kind());
                Some(at.ok_or_else(|| format!("kakan of {} without a pon of it", pon.base_kind()))?)
            }
            _ => None,
        };
        if pon_slot.is_none() && s.melds.is_full() {
            return Err("more than eight melds".into());
        }
        for t in meld.from_hand() {
            s.hand.remove(t);
        }
        match pon_slot {
            Some(i) => s.melds[i] = meld,
            None => s.melds.push(meld),
        }
        if opens {
            s.turn = s.turn.saturating_add(1);
            s.last_draw = None;
        }
        match taken {
            Some(from_seat) => {
                self.last_discard = None;
                if let Some(t) = self.seats[usize::from(from_seat)].river.last_mut() {
                    t.called_away = true;
                }
                self.interrupt();
            }
            None => self.kan_pending = true,
        }
        Ok(())
    }

    /// A call interrupts the first turn and every ippatsu.
    fn interrupt(&mut self) {
        self.uninterrupted = false;
        for s in &mut self.seats {
            s.ippatsu = false;
        }
    }

    /// A new kan dora indicator.
    pub fn dora(&mut self, tile: Tile) -> Result<(), String> {
        self.dora.try_push(tile).map_err(|_| "a sixth dora indicator".to_string())
    }

    /// `REACH`: step 1 declares; step 2 (the discard was not ronned) pays the stick.
    pub fn reach(&mut self, seat: u8, step: u8) -> Result<(), String> {
        let s = self.seat_mut(seat)?;
        match (step, s.riichi) {
            (1, Riichi::None) if s.closed() => s.riichi = Riichi::Declared,
            (1, Riichi::None) => return Err("riichi with an open hand".into()),
            (2, Riichi::Discarded { double }) => {
                s.riichi = Riichi::Accepted { double };
                s.ippatsu = true;
                self.scores[usize::from(seat)] -= 1000;
                self.kyotaku += 1;
            }
            (step, state) => return Err(format!("REACH step {step} while riichi is {state:?}")),
        }
        Ok(())
    }

    /// The score changes of a round's end (one win of a double ron, or a draw), and the sticks it takes.
    pub fn settle(&mut self, delta: [i32; 4], sticks_taken: u8) {
        for (s, d) in self.scores.iter_mut().zip(delta) {
            *s += d;
        }
        self.kyotaku = self.kyotaku.saturating_sub(sticks_taken);
    }

    /// Ends the round in a draw: the `RYUUKYOKU` with the hands of `shown` as the table holds them and the
    /// scores before it, and the payments settled. The engine and the test kit both write draws so.
    pub fn draw_end(&mut self, kind: DrawKind, shown: &[u8], delta: [i32; 4]) -> Ryuukyoku {
        let mut hands: [Option<Vec<Tile>>; 4] = Default::default();
        for &s in shown {
            hands[usize::from(s)] = Some(self.seats[usize::from(s)].hand.tiles().iter().collect());
        }
        let d = Ryuukyoku {
            kind,
            honba: self.honba,
            kyotaku: self.kyotaku,
            shown: hands,
            before: self.scores,
            delta,
            owari: None,
        };
        self.settle(delta, 0);
        d
    }

    /// One win of the round: the `AGARI` with the winner's hand (plus the ron tile) and melds as the table
    /// holds them (newest first, as Tenhou lists them), the dora indicators and the scores before it; the
    /// payments settled. The engine and the test kit both write wins so.
    pub fn win_end(&mut self, who: u8, from: u8, machi: Tile, v: WinValue) -> Agari {
        let s = &self.seats[usize::from(who)];
        let mut hand: Vec<Tile> = s.hand.tiles().iter().collect();
        if from != who {
            hand.push(machi);
            hand.sort_unstable();
        }
        let a = Agari {
            honba: self.honba,
            kyotaku: v.sticks,
            hand,
            melds: s.melds.iter().rev().map(Meld::encode).collect(),
            machi,
            fu: v.fu,
            points: v.points,
            limit: v.limit,
            yaku: v.yaku,
            yakuman: v.yakuman,
            dora_indicators: self.dora.to_vec(),
            ura_indicators: v.ura_indicators,
            who,
            from_who: from,
            pao_who: v.pao_who,
            before: self.scores,
            delta: v.delta,
            owari: None,
        };
        self.settle(v.delta, v.sticks);
        a
    }

    /// What a win of `seat` on `tile` needs beside its tiles, as this state shows it: a tsumo when `from ==
    /// seat` (the tile already in hand; `rinshan`: drawn as a replacement), else a ron of the tile `from` showed
    /// as `offer`; `ura`, the ura indicators a riichi win turns. The one home of the win's situation (riichi,
    /// ippatsu, rinshan, chankan, haitei and houtei, tenhou and chiihou): the engine and the extractor ask it.
    #[allow(clippy::too_many_arguments)]
    pub fn win_context(
        &self,
        ruleset: Ruleset,
        seat: u8,
        from: u8,
        offer: Offer,
        rinshan: bool,
        ura: Vec<Tile>,
    ) -> WinContext {
        let p = &self.seats[usize::from(seat)];
        let tsumo = seat == from;
        let np = ruleset.players;
        WinContext {
            ruleset,
            tsumo,
            seat_wind: Kind::from_index(Kind::EAST.index() + (seat + np - self.dealer) % np),
            round_wind: Kind::from_index(Kind::EAST.index() + self.kyoku / 4),
            riichi: match p.riichi {
                Riichi::Accepted { double: true } => RiichiKind::Double,
                Riichi::Accepted { double: false } => RiichiKind::Riichi,
                _ => RiichiKind::None,
            },
            ippatsu: p.ippatsu && p.riichi.is_accepted(),
            rinshan: tsumo && rinshan,
            chankan: !tsumo && offer == Offer::Kakan,
            last_tile: self.draws_left == 0 && (if tsumo { !rinshan } else { offer == Offer::Discard }),
            first_draw: tsumo && self.uninterrupted && p.discards == 0 && !rinshan,
            dora_indicators: self.dora.to_vec(),
            ura_indicators: ura,
        }
    }

    /// Scores a win of `seat` on `tile` ([`TableState::win_context`]): `None` when the hand is not complete or
    /// has no yaku.
    #[allow(clippy::too_many_arguments)]
    pub fn score_win(
        &self,
        ruleset: Ruleset,
        seat: u8,
        from: u8,
        tile: Tile,
        offer: Offer,
        rinshan: bool,
        ura: Vec<Tile>,
    ) -> Option<Score> {
        let p = &self.seats[usize::from(seat)];
        let mut concealed: ArrayVec<Tile, 14> = p.hand.tiles().iter().collect();
        if seat != from {
            concealed.push(tile);
        }
        let ctx = self.win_context(ruleset, seat, from, offer, rinshan, ura);
        score::score(&concealed, tile, &p.melds, &ctx)
    }

    /// Advances the state by one event of a record. Tags that carry no play (`UN`, `BYE` ...) change nothing.
    pub fn apply(&mut self, event: &Event) -> Result<(), String> {
        match event {
            Event::Draw { seat, tile } => self.draw(*seat, *tile),
            Event::Discard { seat, tile } => self.discard(*seat, *tile).map(|_| ()),
            Event::Call { seat, meld, .. } => self.call(*seat, *meld),
            Event::Dora { tile } => self.dora(*tile),
            Event::Init(init) => {
                self.start(init, init.players());
                Ok(())
            }
            Event::Reach(r) => self.reach(r.who, r.step),
            Event::Agari(a) => {
                self.settle(a.delta, a.kyotaku);
                Ok(())
            }
            Event::Ryuukyoku(d) => {
                self.settle(d.delta, 0);
                Ok(())
            }
            Event::Go(_) | Event::Players(_) | Event::Bye(_) | Event::Tag(_) => Ok(()),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::mjlog;

    /// A game's header and a deal (seat 1 holds two copies of one kind: tiles 108 and 109).
    pub(crate) const DEALT: &str = concat!(
        r#"<mjloggm ver="2.3"><GO type="169" lobby="0"/>"#,
        r#"<INIT seed="0,0,0,1,1,120" ten="250,250,250,250" oya="0" "#,
        r#"hai0="0,4,8,12,16,20,24,28,32,36,40,44,48" hai1="1,5,9,13,17,21,25,29,33,37,41,108,109" "#,
        r#"hai2="2,6,10,14,18,22,26,30,34,38,42,46,50" hai3="3,7,11,15,19,23,27,31,35,39,43,47,51"/>"#,
    );

    /// A short round in mjlog: seat 0 deals, draws and discards, seat 1 pons, seat 0 declares riichi.
    #[test]
    fn a_round_advances_event_by_event() {
        let events = mjlog::parse(format!("{DEALT}<T52/><D110/></mjloggm>").as_bytes()).expect("parses");
        let mut t = TableState::default();
        let mut err = None;
        for e in &events {
            if let Err(m) = t.apply(e) {
                err = Some(m);
                break;
            }
        }
        // seat 0 discards 110, a tile seat 1 holds: the state refuses it, naming the tile
        assert!(err.is_some_and(|m| m.contains("110")));
        assert_eq!(t.seats[0].hand.len(), 14);
        assert_eq!(t.draws_left, 69);

        let mut t = TableState::default();
        for e in &events[..events.len() - 1] {
            t.apply(e).expect("a clean step");
        }
        t.discard(0, Tile::from_id(52)).expect("tsumogiri");
        assert!(t.seats[0].river[0].tsumogiri);
        assert_eq!(t.last_discard, Some((0, Tile::from_id(52))));
        // seat 1 pons... it holds no 5p pair: refused
        let pon = Meld::call(MeldKind::Pon, &[Tile::from_id(53), Tile::from_id(54)], Tile::from_id(52), 3);
        assert!(pon.is_ok_and(|m| t.call(1, m).is_err()));
        // riichi: declared, discarded as the seat's first discard with no call (double), accepted
        t.draw(1, Tile::from_id(60)).expect("draw");
        t.reach(1, 1).expect("declare");
        t.discard(1, Tile::from_id(60)).expect("riichi discard");
        t.reach(1, 2).expect("accept");
        assert_eq!(t.seats[1].riichi, Riichi::Accepted { double: true });
        assert_eq!((t.scores[1], t.kyotaku), (24_000, 1));
        assert!(t.seats[1].ippatsu);
        assert_eq!(t.view(1).hand().len(), 13);
    }

    /// A player's view: the other hands are not kept, their draws and discards are taken as told, the own
    /// hand is still checked.
    #[test]
    fn a_players_view_hides_the_other_hands() {
        let events = mjlog::parse(format!("{DEALT}</mjloggm>").as_bytes()).expect("parses");
        let mut t = TableState::default();
        t.hide_hands_but(1);
        for e in &events {
            t.apply(e).expect("a clean step");
        }
        assert!(t.seats[0].hand.is_empty() && t.seats[1].hand.len() == 13);
        assert!(!t.knows_hand(0) && t.knows_hand(1));
        // seat 0 draws unseen and discards a tile it was never seen to hold: taken as told
        t.draw_hidden(0).expect("hidden draw");
        let r = t.discard_told(0, Tile::from_id(110), true).expect("told discard");
        assert!(r.tsumogiri && t.seats[0].river.len() == 1);
        assert_eq!(t.draws_left, 69);
        // seat 1 pons it with its two tiles; a tile it does not hold is still refused
        let bad = Meld::call(MeldKind::Pon, &[Tile::from_id(111), Tile::from_id(108)], Tile::from_id(110), 3);
        assert!(bad.is_ok_and(|m| t.call(1, m).is_err()));
        let pon = Meld::call(MeldKind::Pon, &[Tile::from_id(108), Tile::from_id(109)], Tile::from_id(110), 3);
        t.call(1, pon.unwrap()).expect("pon from the own hand");
        assert_eq!(t.seats[1].hand.len(), 11);
        // the own seat's draw cannot be hidden
        assert!(t.draw_hidden(1).is_err());
    }
}
