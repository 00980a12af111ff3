//! Every decision a seat makes beside its discard: the moments the rules offer a seat something else (a win,
//! riichi, a kan, a north, the nine-terminal abort after its draw; a win or a call on another seat's tile), what
//! was offered, and what the seat did. The rules are asked of the one bookkeeping the engine and the mjai player
//! use ([`RoundRules`]); the replay holds the record to them ([`ChoiceCutter::check`]: every call, riichi, kan,
//! north, abort and win must be among the options) and cuts the rows of the `choices` table from them.
//!
//! What a seat did is read from the next events: a call, a win, `REACH`, a kan, or the game going on without
//! one (a pass, or a plain discard). Where the log cannot say, the row says so ([`Chosen::Unknown`]): a seat
//! that could only chi or pon a tile that another seat's pon or win took first was never asked for its answer.

use std::fmt;

use haifu_record::action::Action;
use haifu_record::event::Event;
use haifu_record::legal::{Moment, RoundRules, TurnStart};
use haifu_record::state::{Melds, Offer, TableState};
use haifu_record::tags::DrawKind;
use haifu_rules::shanten::shanten;
use haifu_rules::{Hand, MeldKind, MjaiTile, Tile};

use crate::extract::Outcome;

/// Where the moment of a choice came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MomentKind {
    /// The seat's own turn after a draw or a replacement draw.
    Draw,
    /// Another seat's discard, the tile added to its pon (chankan), its closed kan (thirteen orphans may rob
    /// it) or its north (3-player).
    Shown(Offer),
}

impl MomentKind {
    pub fn name(self) -> &'static str {
        match self {
            MomentKind::Draw => "draw",
            MomentKind::Shown(Offer::Discard) => "discard",
            MomentKind::Shown(Offer::Kakan) => "kakan",
            MomentKind::Shown(Offer::Ankan) => "ankan",
            MomentKind::Shown(Offer::Nuki) => "nuki",
        }
    }
}

/// What the seat did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chosen {
    /// One of the options.
    Took(Action),
    /// None of them: it passed the tile, or discarded (without riichi) in its turn.
    Declined,
    /// The log cannot say: another seat's call or win of higher priority took the tile first.
    Unknown,
}

/// The options of one moment: at most a win, six chi (three shapes, with and without a red five), two pon and an
/// open kan; or a win, riichi, the abort, three closed kans, four added kans (a red five or not) and two norths.
pub type Options = arrayvec::ArrayVec<Action, 16>;

/// One row of the choices table: a moment where `seat` could do something other than discard a tile.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The event that opened the moment: the draw, the discard, the kan or the north.
    pub event_index: u32,
    pub round: u16,
    pub seat: u8,
    pub moment: MomentKind,
    /// The seat that drew or showed the tile.
    pub from: u8,
    pub tile: Tile,
    /// Every legal option but the plain discard or pass, in the order the rules list them; riichi once (which
    /// discard declares it is the decisions table's row).
    pub options: Options,
    pub chosen: Chosen,
    /// The concealed hand at the moment: after the draw (3n+2 tiles), or before the shown tile (3n+1).
    pub hand: Hand,
    pub melds: Melds,
    pub shanten: i8,
    pub turn: u8,
    pub scores: [i32; 4],
    /// Seats that have declared riichi (bit per seat).
    pub riichi: u8,
    pub dora_count: u8,
    pub tiles_left: u8,
    /// Filled when the round ends.
    pub outcome: Outcome,
    /// The game plays with red fives (else ids 16, 52, 88 are plain fives).
    pub red: bool,
}

impl Choice {
    /// The options and the choice as the table writes them (`ron`, `chi 4m6m`, `riichi` ...).
    pub fn option_texts(&self) -> impl Iterator<Item = OptionText> + '_ {
        self.options.iter().map(|&a| OptionText(a, self.red))
    }
    /// The choice as text: an option, `pass` (a shown tile let go by), `discard` (a turn without riichi, kan,
    /// win or abort); `None` where the log cannot say.
    pub fn chosen_text(&self) -> Option<ChosenText> {
        match self.chosen {
            Chosen::Unknown => None,
            c => Some(ChosenText(c, self.moment, self.red)),
        }
    }
}

/// One line of everything a row holds but where its moment stands in the record (the event's index, which
/// differs between formats): the round trips compare a game's choices by these lines.
impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let red = self.red;
        let (round, seat, moment, from, turn) = (self.round, self.seat, self.moment.name(), self.from, self.turn);
        write!(
            f,
            "round {round} seat {seat} {moment} from {from} tile {} turn {turn} hand",
            tile_text(self.tile, red)
        )?;
        for t in self.hand.tiles().iter() {
            write!(f, " {}", tile_text(t, red))?;
        }
        f.write_str(" melds")?;
        for m in &self.melds {
            for t in m.tiles() {
                write!(f, " {}", tile_text(*t, red))?;
            }
            f.write_str(" |")?;
        }
        f.write_str(" options")?;
        for o in self.option_texts() {
            write!(f, " [{o}]")?;
        }
        match self.chosen_text() {
            Some(c) => write!(f, " chosen [{c}]")?,
            None => f.write_str(" chosen unknown")?,
        }
        write!(
            f,
            " shanten {} scores {:?} riichi {:#06b} dora {} left {} outcome {}",
            self.shanten,
            self.scores,
            self.riichi,
            self.dora_count,
            self.tiles_left,
            self.outcome.name()
        )
    }
}

/// A tile in mjai notation, `5mr` only where the game has red fives.
pub fn tile_text(t: Tile, red: bool) -> MjaiTile {
    MjaiTile { kind: t.kind(), red: red && t.is_red_id() }
}

/// An option as the choices table names it (`.1`: the game has red fives).
#[derive(Clone, Copy)]
pub struct OptionText(pub Action, pub bool);

impl fmt::Display for OptionText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // pieces by write_str, not write!: every row of the table has its options written this way
        let (name, tiles): (&str, &[Tile]) = match &self.0 {
            Action::Discard { riichi: true, .. } => ("riichi", &[]),
            Action::KyuushuKyuuhai => ("kyuushu", &[]),
            Action::Nuki { .. } => ("nuki", &[]),
            Action::Chi { tiles } => ("chi ", tiles),
            Action::Pon { tiles } => ("pon ", tiles),
            Action::Kakan { tile } => ("kakan ", std::slice::from_ref(tile)),
            a => return fmt::Display::fmt(a, f),
        };
        f.write_str(name)?;
        for &t in tiles {
            fmt::Display::fmt(&tile_text(t, self.1), f)?;
        }
        Ok(())
    }
}

/// A choice as the choices table names it.
#[derive(Clone, Copy)]
pub struct ChosenText(Chosen, MomentKind, bool);

impl fmt::Display for ChosenText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Chosen::Took(a) => OptionText(a, self.2).fmt(f),
            Chosen::Declined if self.1 == MomentKind::Draw => f.write_str("discard"),
            Chosen::Declined => f.write_str("pass"),
            Chosen::Unknown => f.write_str("unknown"),
        }
    }
}

/// The rules' bookkeeping of the game being replayed, the check of each event against it, and the rows cut from
/// it. Driven by the replay's two hooks: [`ChoiceCutter::check`] before an event is applied, [`ChoiceCutter::after`]
/// after.
pub struct ChoiceCutter {
    rules: RoundRules,
    red: bool,
    pub choices: Vec<Choice>,
    /// Rows whose choice the next events tell, from `open` on.
    open: usize,
    /// A seat won on the shown tile of the open rows.
    won: bool,
    scratch: Vec<Action>,
}

/// The same choice for a player: the same action with tiles of the same kinds and the same red fives (`red`: the
/// game has them).
fn same_choice(a: Action, b: Action, red: bool) -> bool {
    let key = |t: Tile| (t.kind(), red && t.is_red_id());
    match (a, b) {
        (Action::Chi { tiles: x }, Action::Chi { tiles: y }) | (Action::Pon { tiles: x }, Action::Pon { tiles: y }) => {
            x.map(key) == y.map(key)
        }
        (Action::Kakan { tile: x }, Action::Kakan { tile: y })
        | (Action::Nuki { tile: x }, Action::Nuki { tile: y }) => key(x) == key(y),
        (Action::Discard { riichi: true, .. }, Action::Discard { riichi: true, .. }) => true,
        _ => a == b,
    }
}

fn listed(options: &[Action]) -> String {
    let names: Vec<String> = options.iter().map(|a| a.to_string()).collect();
    format!("[{}]", names.join(", "))
}

impl ChoiceCutter {
    /// `discards`: the record's discards, which the rows are about a third of (reserved once with room to
    /// spare, not grown by copying).
    pub fn new(rules: RoundRules, discards: usize) -> ChoiceCutter {
        let choices = Vec::with_capacity(discards / 2);
        let red = rules.rules().red_fives;
        ChoiceCutter { rules, red, choices, open: 0, won: false, scratch: Vec::with_capacity(16) }
    }

    /// Holds `event` to the options of the moment it answers (before the table takes it): a call, a kan, a
    /// north, a riichi declaration, a win or a nine-terminal abort the rules did not offer is refused, naming
    /// the options; a discard that kuikae or riichi forbids too.
    pub fn check(&mut self, event: &Event, table: &TableState) -> Result<(), String> {
        let taken = match event {
            Event::Discard { seat, tile } => return self.check_discard(*seat, *tile, table),
            Event::Call { seat, meld, .. } => {
                let action = Action::of_call(meld).ok_or("an added kan that does not say its added tile")?;
                (*seat, action, meld.kind.name())
            }
            Event::Reach(r) if r.step == 1 => {
                (r.who, Action::Discard { tile: Tile::from_id(0), riichi: true }, "riichi")
            }
            Event::Agari(a) if a.who == a.from_who => (a.who, Action::Tsumo, "tsumo"),
            Event::Agari(a) => (a.who, Action::Ron, "ron"),
            Event::Ryuukyoku(d) if d.kind == DrawKind::Yao9 => {
                // the seat that aborts shows its hand
                let Some(seat) = d.shown.iter().position(Option::is_some) else { return Ok(()) };
                (seat as u8, Action::KyuushuKyuuhai, "kyuushu kyuuhai")
            }
            _ => return Ok(()),
        };
        let (seat, action, what) = taken;
        if seat >= table.players {
            return Ok(());
        }
        let mut legal = std::mem::take(&mut self.scratch);
        self.rules.legal_actions(table, seat, &mut legal);
        // a copy of the same kind does as well (formats that name tiles by kind pick one of the copies)
        let offered = legal.iter().any(|&a| same_choice(a, action, self.red));
        let result = if offered {
            Ok(())
        } else {
            Err(format!(
                "seat {seat}'s {what} ({action}) is not among the options the rules give it now: {}",
                listed(&legal)
            ))
        };
        self.scratch = legal;
        result
    }

    fn check_discard(&mut self, seat: u8, tile: Tile, table: &TableState) -> Result<(), String> {
        let Moment::Turn { seat: turn, .. } = self.rules.moment() else {
            return Err(format!("seat {seat} discards when it is not its turn"));
        };
        if turn != seat {
            return Err(format!("seat {seat} discards in seat {turn}'s turn"));
        }
        let p = &table.seats[usize::from(seat)];
        let s = self.rules.seat(seat);
        if p.riichi.is_accepted() && p.last_draw != Some(tile) {
            return Err(format!("seat {seat} is in riichi and discards {tile}, not the tile it drew"));
        }
        if !p.riichi.is_declared() && s.kuikae & haifu_record::legal::bit(tile.kind()) != 0 {
            return Err(format!("seat {seat} discards {tile} right after calling it (kuikae)"));
        }
        if p.riichi == haifu_record::state::Riichi::Declared {
            let mut legal = std::mem::take(&mut self.scratch);
            self.rules.legal_actions(table, seat, &mut legal);
            let ok = legal.contains(&Action::Discard { tile, riichi: true });
            self.scratch = legal;
            if !ok {
                return Err(format!("seat {seat}'s riichi discard {tile} leaves no tenpai hand"));
            }
        }
        Ok(())
    }

    /// After the table took `event` (the `i`th of the record, in round `round`): what the open rows' seats did,
    /// the bookkeeping advanced, and the rows of the moment it opens. `shanten_left`: for a discard, the shanten
    /// of the hand it leaves, when the caller has it (the bookkeeping needs it for the waits).
    pub fn after(&mut self, i: usize, round: u16, event: &Event, table: &TableState, shanten_left: Option<i8>) {
        self.resolve(event);
        match event {
            Event::Discard { seat, tile } => self.rules.discarded_knowing(table, *seat, *tile, shanten_left),
            e => self.rules.after(table, e),
        }
        match (event, self.rules.moment()) {
            (Event::Draw { .. }, Moment::Turn { seat, source, tsumo_ok }) if source != TurnStart::Call => {
                self.open_turn(i, round, seat, source, tsumo_ok, table);
            }
            (Event::Discard { .. } | Event::Call { .. }, Moment::Respond { from, tile, offer, ron, call })
                if ron | call != 0 =>
            {
                for seat in (0..table.players).filter(|&s| (ron | call) & (1 << s) != 0) {
                    self.open_response(i, round, seat, (from, tile, offer), table);
                }
            }
            _ => {}
        }
    }

    fn open_turn(&mut self, i: usize, round: u16, seat: u8, source: TurnStart, tsumo_ok: bool, table: &TableState) {
        let mut legal = std::mem::take(&mut self.scratch);
        legal.clear();
        self.rules.options(table, seat).turn_choices(seat, source, tsumo_ok, &mut legal);
        let tile = table.seats[usize::from(seat)].last_draw.unwrap_or(Tile::from_id(0));
        self.open_row(i, round, seat, MomentKind::Draw, seat, tile, &legal, table);
        self.scratch = legal;
    }

    fn open_response(&mut self, i: usize, round: u16, seat: u8, shown: (u8, Tile, Offer), table: &TableState) {
        let mut legal = std::mem::take(&mut self.scratch);
        self.rules.legal_actions(table, seat, &mut legal);
        let (from, tile, offer) = shown;
        self.open_row(i, round, seat, MomentKind::Shown(offer), from, tile, &legal, table);
        self.scratch = legal;
    }

    /// A row for `seat` when `legal` holds an option beside the discard or the pass; options that differ only
    /// in which copy of a kind they take (a chi with either of two plain 4m) are one.
    #[allow(clippy::too_many_arguments)]
    fn open_row(
        &mut self,
        i: usize,
        round: u16,
        seat: u8,
        moment: MomentKind,
        from: u8,
        tile: Tile,
        legal: &[Action],
        table: &TableState,
    ) {
        let mut options = Options::new();
        for &a in legal {
            let other = match a {
                Action::Discard { riichi, .. } => riichi,
                Action::Pass => false,
                _ => true,
            };
            if other && !options.iter().any(|&o| same_choice(o, a, self.red)) && options.try_push(a).is_err() {
                break;
            }
        }
        if options.is_empty() {
            return;
        }
        let p = &table.seats[usize::from(seat)];
        let riichi = (0..4u8).filter(|&s| table.seats[usize::from(s)].riichi.is_declared()).fold(0, |m, s| m | 1 << s);
        self.choices.push(Choice {
            event_index: i as u32,
            round,
            seat,
            moment,
            from,
            tile,
            options,
            chosen: Chosen::Declined,
            hand: p.hand,
            melds: p.melds.clone(),
            // between its turns the bookkeeping keeps the hand's shanten
            shanten: if moment == MomentKind::Draw { shanten(p.hand.counts()) } else { self.rules.seat(seat).shanten },
            turn: p.turn,
            scores: table.scores,
            riichi,
            dora_count: table.dora.len() as u8,
            tiles_left: table.draws_left,
            outcome: Outcome::Abortive,
            red: self.red,
        });
    }

    /// What the seats of the open rows did, as `event` shows it (before the bookkeeping takes it).
    fn resolve(&mut self, event: &Event) {
        if self.open == self.choices.len() {
            return;
        }
        let rows = self.open..self.choices.len();
        let turn = self.choices[self.open].moment == MomentKind::Draw;
        let took = |c: &mut Choice, a: Action| c.chosen = Chosen::Took(a);
        if turn {
            let c = &mut self.choices[self.open];
            match event {
                Event::Agari(a) if a.who == c.seat && a.from_who == c.seat => took(c, Action::Tsumo),
                Event::Reach(r) if r.step == 1 && r.who == c.seat => {
                    let riichi = c.options.iter().find(|o| matches!(o, Action::Discard { riichi: true, .. }));
                    c.chosen = riichi.map_or(Chosen::Unknown, |&a| Chosen::Took(a));
                }
                Event::Call { seat, meld, .. } if *seat == c.seat => {
                    c.chosen = Action::of_call(meld).map_or(Chosen::Unknown, Chosen::Took)
                }
                Event::Ryuukyoku(d) if d.kind == DrawKind::Yao9 => took(c, Action::KyuushuKyuuhai),
                Event::Discard { .. } | Event::Agari(_) | Event::Ryuukyoku(_) => {}
                // a kan's indicator, a reconnection: the turn goes on
                _ => return,
            }
            self.open = self.choices.len();
            return;
        }
        match event {
            // a double ron is a run of AGARI: the rows stay open until the round ends
            Event::Agari(a) => {
                self.won = true;
                for c in &mut self.choices[rows] {
                    if c.seat == a.who {
                        took(c, Action::Ron);
                    }
                }
                return;
            }
            // the riichi stick is paid before the call on the riichi discard
            Event::Reach(r) if r.step == 2 => return,
            Event::Go(_) | Event::Players(_) | Event::Bye(_) | Event::Tag(_) => return,
            Event::Call { seat, meld, .. } if meld.kind.takes_discard() => {
                let pon = meld.kind != MeldKind::Chi;
                for c in &mut self.choices[rows] {
                    if c.seat == *seat {
                        c.chosen = Action::of_call(meld).map_or(Chosen::Unknown, Chosen::Took);
                    } else if pon && !c.options.contains(&Action::Ron) {
                        // a chi that the pon took first: never asked
                        c.chosen = Chosen::Unknown;
                    }
                }
            }
            Event::Ryuukyoku(d) if d.kind == DrawKind::Ron3 => {
                for c in &mut self.choices[rows] {
                    if d.shown[usize::from(c.seat)].is_some() {
                        took(c, Action::Ron);
                    }
                }
            }
            _ => {}
        }
        self.close();
    }

    /// The open rows are told: after a win on their tile, a seat that could only call it was never asked.
    fn close(&mut self) {
        if std::mem::take(&mut self.won) {
            for c in &mut self.choices[self.open..] {
                if c.chosen == Chosen::Declined && !c.options.contains(&Action::Ron) {
                    c.chosen = Chosen::Unknown;
                }
            }
        }
        self.open = self.choices.len();
    }

    /// The round ended: rows still open are told, and every row of the round from `first` gets the seats'
    /// outcomes.
    pub fn end_round(&mut self, first: usize, outcomes: &[Outcome; 4]) {
        self.close();
        for c in &mut self.choices[first..] {
            c.outcome = outcomes[usize::from(c.seat)];
        }
    }
}
