//! What a seat may do now, from what it knows: the table state ([`crate::state::TableState`]), the table's
//! rules, and the seat's rule bookkeeping that nothing public shows ([`SeatRules`]: furiten, waits, kuikae,
//! nagashi, pao). The one home of the legal-action rules: the engine of `haifu-sim` asks [`SeatOptions`], and
//! so does a player following a game from its seat (the mjai player of `haifu-play`), whose table state holds
//! no other hand. The bookkeeping is kept incrementally (bit masks of kinds), so that a step allocates nothing.

use arrayvec::ArrayVec;
use haifu_rules::score::Ruleset;
use haifu_rules::shanten::{shanten, shanten_each, shanten_each_among};
use haifu_rules::table::TableRules;
use haifu_rules::{Counts, Kind, Meld, MeldKind, Tile};

use crate::action::Action;
use crate::event::Event;
use crate::state::{Offer, Riichi, SeatState, TableState};

/// Where the tile that starts a turn came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnStart {
    /// A draw from the live wall.
    Draw,
    /// A replacement draw after a kan or a north extraction.
    Replacement,
    /// A chi or pon: the seat must discard.
    Call,
}

/// A set of tile kinds, bit `k` for kind `k`.
pub type KindMask = u64;

pub fn bit(k: Kind) -> KindMask {
    1u64 << k.index()
}

/// What the engine keeps for one seat beside the table state ([`SeatState`]): the rules' bookkeeping that
/// nothing public shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatRules {
    /// Kinds this seat has discarded (discard furiten).
    pub discarded: KindMask,
    /// Kinds that complete the hand while it holds 3n+1 tiles, without the kinds the seat holds all four of
    /// (no copy of those can come).
    pub waits: KindMask,
    /// Passed a winning tile since its last discard.
    pub temp_furiten: bool,
    /// Passed a winning tile after riichi: furiten for the rest of the round.
    pub riichi_furiten: bool,
    /// Kinds the seat may not discard right after a chi or pon (kuikae).
    pub kuikae: KindMask,
    /// Every discard a terminal or honor and none called away (nagashi mangan).
    pub nagashi: bool,
    /// The seat liable for a daisangen / daisuushii completed by a call on its discard.
    pub pao: Option<u8>,
    /// Shanten of the hand of 3n+1 tiles it holds between its turns (kept with the waits, which need it).
    pub shanten: i8,
}

/// The one update of a seat's rule bookkeeping: the engine and a player following the game from its seat (the
/// mjai bot of `haifu-play`) call these same functions at the same moments, each after the table state has
/// taken the step.
impl SeatRules {
    /// A round is dealt: the dealt hand's waits.
    pub fn dealt(seat: &SeatState) -> SeatRules {
        let mut r = SeatRules { nagashi: true, ..SeatRules::default() };
        r.update_waits(seat);
        r
    }
    pub fn furiten(&self) -> bool {
        self.temp_furiten || self.riichi_furiten || self.waits & self.discarded != 0
    }
    /// The seat discarded `tile`: discard furiten, nagashi, the end of a temporary furiten and of kuikae, and
    /// the waits of the hand left (a hand in riichi discards what it draws: its waits stay).
    pub fn discarded(&mut self, seat: &SeatState, tile: Tile) {
        self.discarded_knowing(seat, tile, None);
    }
    /// [`SeatRules::discarded`], told the shanten of the hand left when the caller has it already (the replay
    /// records it at every discard).
    pub fn discarded_knowing(&mut self, seat: &SeatState, tile: Tile, shanten_left: Option<i8>) {
        self.discarded |= bit(tile.kind());
        self.nagashi &= tile.kind().is_yaochuu();
        self.temp_furiten = false;
        self.kuikae = 0;
        if !seat.riichi.is_accepted() {
            self.update_waits_knowing(seat, shanten_left);
        }
    }
    /// The seat made `meld`: kuikae after a chi or pon; after a kan or a north, the waits of the hand left.
    pub fn called(&mut self, seat: &SeatState, meld: &Meld) {
        match meld.kind {
            MeldKind::Chi | MeldKind::Pon => self.kuikae = kuikae_of(meld),
            _ => self.update_waits(seat),
        }
    }
    /// The seat let a tile it waits on go by (whether or not a yaku allowed the win): furiten until its next
    /// discard, and for the rest of the round in riichi.
    pub fn let_pass(&mut self, seat: &SeatState) {
        self.temp_furiten = true;
        if seat.riichi.is_accepted() {
            self.riichi_furiten = true;
        }
    }
    /// Another seat called this seat's discard: no nagashi mangan.
    pub fn discard_called(&mut self) {
        self.nagashi = false;
    }
    /// Recomputes [`SeatRules::waits`] for a hand of 3n+1 tiles.
    fn update_waits(&mut self, seat: &SeatState) {
        self.update_waits_knowing(seat, None);
    }
    fn update_waits_knowing(&mut self, seat: &SeatState, shanten_left: Option<i8>) {
        let counts = seat.hand.counts();
        if counts.iter().sum::<u8>() % 3 != 1 {
            self.waits = 0;
            return;
        }
        self.shanten = shanten_left.unwrap_or_else(|| shanten(counts));
        self.waits = if self.shanten == 0 { tenpai_waits(counts, &seat.held()) } else { 0 };
    }
}

/// Kinds completing a 3n+1 hand, skipping kinds of which `held` already has four.
pub fn waits_of(counts: &Counts, held: &Counts) -> KindMask {
    let n: u8 = counts.iter().sum();
    if n % 3 != 1 || shanten(counts) != 0 {
        return 0;
    }
    tenpai_waits(counts, held)
}

/// [`waits_of`] for a hand known to be tenpai.
fn tenpai_waits(counts: &Counts, held: &Counts) -> KindMask {
    let after = shanten_each_among(counts, 1, wait_candidates(counts));
    let mut mask = 0;
    for k in 0..34 {
        if after[k] == -1 && held[k] < 4 {
            mask |= 1 << k;
        }
    }
    mask
}

/// The kinds that can complete a hand: a set or a pair takes a held kind or, in a suit, a kind at most two
/// from one; thirteen orphans (twelve of its kinds held) any terminal or honor. Asking only these, not all 34,
/// is half of the waits' cost at every tenpai discard.
fn wait_candidates(counts: &Counts) -> KindMask {
    let held = (0..34).filter(|&k| counts[k] > 0).fold(0u64, |m, k| m | 1 << k);
    let mut near = held & (0x7f << 27);
    for suit in 0..3 {
        let b = (held >> (9 * suit)) & 0x1ff;
        near |= ((b | b << 1 | b << 2 | b >> 1 | b >> 2) & 0x1ff) << (9 * suit);
    }
    if yaochuu_kinds(counts) >= 12 {
        near |= (0..34u8).filter(|&k| Kind::from_index(k).is_yaochuu()).fold(0, |m, k| m | 1 << k);
    }
    near
}

/// Distinct terminal and honor kinds in a hand (kyuushu kyuuhai needs nine).
pub fn yaochuu_kinds(counts: &Counts) -> usize {
    (0..34u8).filter(|&k| counts[usize::from(k)] > 0 && Kind::from_index(k).is_yaochuu()).count()
}

/// Kinds a seat may not discard after calling `called` into `meld` (Tenhou forbids kuikae): the called kind,
/// and for a chi taken at one end, the kind beyond the other end (chi 3-4 on a 5: no 2 either).
pub fn kuikae_of(meld: &Meld) -> KindMask {
    let Some(called) = meld.called else { return 0 };
    kuikae_kinds(meld.kind, called.kind(), meld.base_kind())
}

/// [`kuikae_of`] from the kinds alone: the meld's kind, the called tile's and the lowest of the meld.
pub fn kuikae_kinds(kind: MeldKind, k: Kind, base: Kind) -> KindMask {
    let mut mask = bit(k);
    if kind == MeldKind::Chi {
        let base = base.index();
        let d = k.digit();
        if k.index() == base && d <= 6 {
            mask |= bit(Kind::from_index(base + 3));
        } else if k.index() == base + 2 && d >= 4 {
            mask |= bit(Kind::from_index(base - 1));
        }
    }
    mask
}

/// A seat's options from what that seat knows: the table (its own hand and everything public), its rule
/// bookkeeping, the table's rules and the kans of the round. The one home of the legal-action rules: the
/// engine asks it, and so does a player who follows a game from its seat (the mjai player of `haifu-play`),
/// whose table state holds no other hand.
#[derive(Clone, Copy)]
pub struct SeatOptions<'a> {
    pub table: &'a TableState,
    pub rules: &'a TableRules,
    pub ruleset: Ruleset,
    pub extras: &'a SeatRules,
    /// Kans made this round by every seat.
    pub kans: u8,
}

impl SeatOptions<'_> {
    /// The actions of `seat`'s turn (it holds 3n+2 tiles), started by `source`; `tsumo_ok`: the drawn tile
    /// wins ([`SeatOptions::tsumo_ok`]).
    pub fn turn_actions(&self, seat: u8, source: TurnStart, tsumo_ok: bool, out: &mut Vec<Action>) {
        self.turn(seat, source, tsumo_ok, true, out);
    }

    /// The options of `seat`'s turn beside its discards: a win, riichi, kans, norths, the abort. Riichi comes
    /// once, as a riichi discard of the hand's first tile whatever the tile (which discards declare it is
    /// [`SeatOptions::turn_actions`]' list; this one asks only whether some does, the cheaper question the
    /// replay asks at every draw).
    pub fn turn_choices(&self, seat: u8, source: TurnStart, tsumo_ok: bool, out: &mut Vec<Action>) {
        self.turn(seat, source, tsumo_ok, false, out);
    }

    fn turn(&self, seat: u8, source: TurnStart, tsumo_ok: bool, full: bool, out: &mut Vec<Action>) {
        let s = self.extras;
        let p = &self.table.seats[usize::from(seat)];
        if tsumo_ok {
            out.push(Action::Tsumo);
        }
        let can_kan = source != TurnStart::Call && self.table.draws_left > 0 && self.kans < 4;
        let three = self.rules.players == 3;
        if self.table.uninterrupted
            && p.discards == 0
            && source == TurnStart::Draw
            && yaochuu_kinds(p.hand.counts()) >= 9
        {
            out.push(Action::KyuushuKyuuhai);
        }
        if p.riichi.is_accepted() {
            let Some(drawn) = p.last_draw else { return };
            if full {
                out.push(Action::Discard { tile: drawn, riichi: false });
            }
            let k = drawn.kind();
            if can_kan && p.hand.counts()[usize::from(k.index())] == 4 && self.riichi_ankan_keeps_waits(p, k) {
                out.push(Action::Ankan { kind: k });
            }
            if three && source != TurnStart::Call && self.table.draws_left > 0 && k == Kind::NORTH {
                out.push(Action::Nuki { tile: drawn });
            }
            return;
        }
        // riichi declared (`REACH step=1`): the riichi discard is due, one that keeps the hand tenpai
        let declared = p.riichi == Riichi::Declared;
        if !declared && full {
            for t in p.hand.tiles().iter() {
                if s.kuikae & bit(t.kind()) == 0 {
                    out.push(Action::Discard { tile: t, riichi: false });
                }
            }
        }
        let may_riichi = declared
            || (source != TurnStart::Call
                && p.closed()
                && self.table.scores[usize::from(seat)] >= 1000
                && self.table.draws_left >= self.rules.players
                && p.riichi == Riichi::None);
        let has_kan = p.melds.iter().any(|m| m.kind == MeldKind::Ankan);
        if may_riichi && !full && !has_kan {
            // some discard leaves a tenpai hand when the 3n+2 tiles are at most tenpai; a draw lowers the
            // shanten of the 3n+1 hand before it by one at most, so a hand that was two or more away is not
            if s.shanten <= 1 && shanten(p.hand.counts()) <= 0 {
                if let Some(t) = p.hand.tiles().iter().next() {
                    out.push(Action::Discard { tile: t, riichi: true });
                }
            }
        } else if may_riichi && shanten(p.hand.counts()) <= 0 {
            let held = p.held();
            // without a closed kan the exact shanten already says a wait exists (four copies at most in the
            // hand); with one, the kan's kind may be the only wait: ask for the waits
            let mut counts = *p.hand.counts();
            let mut tenpai_after: u64 = 0;
            if has_kan {
                for k in 0..34usize {
                    if counts[k] == 0 {
                        continue;
                    }
                    counts[k] -= 1;
                    let mut h = held;
                    h[k] -= 1;
                    if waits_of(&counts, &h) != 0 {
                        tenpai_after |= 1 << k;
                    }
                    counts[k] += 1;
                }
            } else {
                let each = shanten_each(&counts, -1);
                for (k, &sh) in each.iter().enumerate() {
                    if sh == 0 {
                        tenpai_after |= 1 << k;
                    }
                }
            }
            for t in p.hand.tiles().iter() {
                if tenpai_after & bit(t.kind()) != 0 {
                    out.push(Action::Discard { tile: t, riichi: true });
                    if !full {
                        break;
                    }
                }
            }
        }
        if declared {
            return;
        }
        if can_kan {
            for k in 0..34u8 {
                if p.hand.counts()[usize::from(k)] == 4 {
                    out.push(Action::Ankan { kind: Kind::from_index(k) });
                }
            }
            for m in p.melds.iter().filter(|m| m.kind == MeldKind::Pon) {
                for t in m.base_kind().ids() {
                    if p.hand.contains(t) {
                        out.push(Action::Kakan { tile: t });
                    }
                }
            }
        }
        if three && source != TurnStart::Call && self.table.draws_left > 0 {
            for t in Kind::NORTH.ids() {
                if p.hand.contains(t) {
                    out.push(Action::Nuki { tile: t });
                }
            }
        }
    }

    /// A closed kan in riichi may not change the waits (Tenhou's rule).
    pub fn riichi_ankan_keeps_waits(&self, s: &SeatState, k: Kind) -> bool {
        let mut before = *s.hand.counts();
        before[usize::from(k.index())] -= 1;
        let held = s.held();
        let mut after = before;
        after[usize::from(k.index())] = 0;
        waits_of(&before, &held) == waits_of(&after, &held)
    }

    /// Whether `seat` has any call on the discard: the full list ([`SeatOptions::call_options`]) is built only
    /// when a look at the hand's counts says maybe (most discards find no seat that could call them).
    pub fn has_call(&self, seat: u8, from: u8, tile: Tile) -> bool {
        let p = &self.table.seats[usize::from(seat)];
        let k = tile.kind();
        let c = p.hand.counts();
        let ki = usize::from(k.index());
        let chi_seat = self.rules.players == 4 && seat == (from + 1) % 4 && !k.is_honor() && {
            let d = k.digit();
            (d >= 3 && c[ki - 2] > 0 && c[ki - 1] > 0)
                || ((2..=8).contains(&d) && c[ki - 1] > 0 && c[ki + 1] > 0)
                || (d <= 7 && c[ki + 1] > 0 && c[ki + 2] > 0)
        };
        if c[ki] < 2 && !chi_seat {
            return false;
        }
        let mut any = false;
        self.each_call(seat, from, tile, |_| {
            any = true;
            false
        });
        any
    }

    /// Chi, pon and daiminkan open to `seat` on the discard `tile` of `from`.
    pub fn call_options(&self, seat: u8, from: u8, tile: Tile, out: &mut Vec<Action>) {
        self.each_call(seat, from, tile, |a| {
            out.push(a);
            true
        });
    }

    /// Each call of [`SeatOptions::call_options`] to `emit`, until it returns false.
    fn each_call(&self, seat: u8, from: u8, tile: Tile, mut emit: impl FnMut(Action) -> bool) {
        let p = &self.table.seats[usize::from(seat)];
        if p.riichi.is_declared() || self.table.draws_left == 0 {
            return;
        }
        let k = tile.kind();
        let ki = usize::from(k.index());
        let have = p.hand.counts()[ki];
        let ids: ArrayVec<Tile, 4> = k.ids().into_iter().filter(|&t| p.hand.contains(t)).collect();
        if have >= 2 {
            for i in 0..ids.len() {
                for j in i + 1..ids.len() {
                    let pair = [ids[i], ids[j]];
                    if self.call_leaves_discard(p, &pair, MeldKind::Pon, tile) && !emit(Action::Pon { tiles: pair }) {
                        return;
                    }
                }
            }
        }
        if have == 3 && self.kans < 4 && !emit(Action::Daiminkan) {
            return;
        }
        if self.rules.players == 4 && seat == (from + 1) % 4 && !k.is_honor() {
            let d = k.digit();
            for (a, b) in [(-2i8, -1i8), (-1, 1), (1, 2)] {
                let (da, db) = (d as i8 + a, d as i8 + b);
                if !(1..=9).contains(&da) || !(1..=9).contains(&db) {
                    continue;
                }
                let ka = Kind::from_index((ki as i8 + a) as u8);
                let kb = Kind::from_index((ki as i8 + b) as u8);
                for ta in ka.ids().into_iter().filter(|&t| p.hand.contains(t)) {
                    for tb in kb.ids().into_iter().filter(|&t| p.hand.contains(t)) {
                        let pair = [ta, tb];
                        if self.call_leaves_discard(p, &pair, MeldKind::Chi, tile) && !emit(Action::Chi { tiles: pair })
                        {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// A chi or pon is allowed only when the hand keeps a tile that kuikae lets it discard.
    fn call_leaves_discard(&self, s: &SeatState, pair: &[Tile; 2], kind: MeldKind, tile: Tile) -> bool {
        let base = pair.iter().map(|t| t.kind()).fold(tile.kind(), |a, b| if b.index() < a.index() { b } else { a });
        let forbidden = kuikae_kinds(kind, tile.kind(), base);
        let mut counts = *s.hand.counts();
        for t in pair {
            counts[usize::from(t.kind().index())] -= 1;
        }
        (0..34).any(|k| counts[k] > 0 && forbidden & (1 << k) == 0)
    }

    /// The tile `seat` just drew (`replacement`: after a kan or north) completes its hand with a yaku.
    pub fn tsumo_ok(&self, seat: u8, tile: Tile, replacement: bool) -> bool {
        // a closed hand's tsumo has a yaku (menzen tsumo), as has a hand in riichi: no need to score it
        let p = &self.table.seats[usize::from(seat)];
        self.extras.waits & bit(tile.kind()) != 0
            && (p.closed()
                || p.riichi.is_accepted()
                || self
                    .table
                    .score_win(self.ruleset, seat, seat, tile, Offer::Discard, replacement, Vec::new())
                    .is_some())
    }

    /// `seat` may ron `tile` shown by `from` as `offer`: a wait, not furiten, a yaku (a closed kan: thirteen
    /// orphans only).
    pub fn can_ron(&self, seat: u8, from: u8, tile: Tile, offer: Offer) -> bool {
        let s = self.extras;
        if s.waits & bit(tile.kind()) == 0 || s.furiten() {
            return false;
        }
        // a hand in riichi has its yaku: only a closed kan asks which hand robs it
        if offer != Offer::Ankan && self.table.seats[usize::from(seat)].riichi.is_accepted() {
            return true;
        }
        let Some(sc) = self.table.score_win(self.ruleset, seat, from, tile, offer, false, Vec::new()) else {
            return false;
        };
        offer != Offer::Ankan || sc.yakuman.iter().any(|&y| y == 47 || y == 48)
    }
}

/// What a round asks now, as the rules' bookkeeping ([`RoundRules`]) follows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    /// Nothing is asked: before a deal, after a round's end, or while a kan's replacement draw is due.
    Idle,
    /// `seat` holds 3n+2 tiles and acts (after a draw, a replacement draw, or its chi or pon); `tsumo_ok`: the
    /// drawn tile wins with a yaku. After `REACH step=1` the riichi discard is due (the seat's riichi is
    /// [`Riichi::Declared`]).
    Turn { seat: u8, source: TurnStart, tsumo_ok: bool },
    /// `from` showed `tile` as `offer` (a discard, the tile added to a pon, a closed kan, a north): `ron` and
    /// `call` are the seats (bit per seat) that may win on it and that may call it.
    Respond { from: u8, tile: Tile, offer: Offer, ron: u8, call: u8 },
}

/// The rules' bookkeeping of a round for every seat, advanced by the same events as the table state, after it
/// ([`RoundRules::after`]): each seat's [`SeatRules`], the kans, and what is asked now ([`Moment`]). The one
/// home of "what may this seat do now": the engine of `haifu-sim` feeds it the events it writes, the mjai
/// player of `haifu-play` the events it is told (the other hands hidden: only its own seat is asked), and the
/// replay of `ingest` the events of a record, which it then holds to the answers (every call, riichi, kan and
/// win must be among the options) and cuts the choices table from.
#[derive(Clone, Debug)]
pub struct RoundRules {
    rules: TableRules,
    ruleset: Ruleset,
    seats: [SeatRules; 4],
    kans: u8,
    /// The next draw replaces a kan or a north.
    replacement: bool,
    moment: Moment,
    /// Seats that had the tile last shown among their waits: furiten once the game moves on without their win.
    passing: u8,
}

impl RoundRules {
    pub fn new(rules: TableRules) -> RoundRules {
        RoundRules {
            ruleset: rules.ruleset(),
            rules,
            seats: Default::default(),
            kans: 0,
            replacement: false,
            moment: Moment::Idle,
            passing: 0,
        }
    }
    pub fn rules(&self) -> &TableRules {
        &self.rules
    }
    /// Other rules from the next event on (a log that states its player count only in its deal).
    pub fn set_rules(&mut self, rules: TableRules) {
        self.ruleset = rules.ruleset();
        self.rules = rules;
    }
    /// A seat's bookkeeping: waits, furiten, kuikae, nagashi, pao.
    pub fn seat(&self, seat: u8) -> &SeatRules {
        &self.seats[usize::from(seat)]
    }
    /// Kans made this round by every seat.
    pub fn kans(&self) -> u8 {
        self.kans
    }
    pub fn moment(&self) -> Moment {
        self.moment
    }
    /// What `seat` knows (the table) and its bookkeeping, to ask its options.
    pub fn options<'a>(&'a self, table: &'a TableState, seat: u8) -> SeatOptions<'a> {
        SeatOptions {
            table,
            rules: &self.rules,
            ruleset: self.ruleset,
            extras: &self.seats[usize::from(seat)],
            kans: self.kans,
        }
    }

    /// The legal actions of `seat` now (`out` cleared first; empty when it decides nothing). A seat asked about
    /// a shown tile may always pass; in its turn it always has a discard.
    pub fn legal_actions(&self, table: &TableState, seat: u8, out: &mut Vec<Action>) {
        out.clear();
        match self.moment {
            Moment::Turn { seat: s, source, tsumo_ok } if s == seat => {
                self.options(table, seat).turn_actions(seat, source, tsumo_ok, out)
            }
            Moment::Respond { from, tile, ron, call, .. } if (ron | call) & (1 << seat) != 0 => {
                if ron & (1 << seat) != 0 {
                    out.push(Action::Ron);
                }
                if call & (1 << seat) != 0 {
                    self.options(table, seat).call_options(seat, from, tile, out);
                }
                out.push(Action::Pass);
            }
            _ => {}
        }
    }

    /// Advances the bookkeeping by `event`, which `table` has just taken ([`TableState::apply`]). The typed
    /// steps below are the same for a caller that holds no event (the mjai player).
    pub fn after(&mut self, table: &TableState, event: &Event) {
        match event {
            Event::Init(_) => self.dealt(table),
            Event::Draw { seat, tile } => self.drew(table, *seat, *tile),
            Event::Discard { seat, tile } => self.discarded(table, *seat, *tile),
            Event::Call { seat, meld, .. } => self.called(table, *seat, meld),
            // a second AGARI on the same tile (a double ron) answers the same moment
            Event::Agari(_) => self.passing = 0,
            Event::Ryuukyoku(_) => self.round_over(),
            Event::Reach(_) | Event::Dora { .. } => self.moved_on(table),
            Event::Go(_) | Event::Players(_) | Event::Bye(_) | Event::Tag(_) => {}
        }
    }

    /// A round is dealt.
    pub fn dealt(&mut self, table: &TableState) {
        for (r, s) in self.seats.iter_mut().zip(&table.seats) {
            *r = SeatRules::dealt(s);
        }
        self.kans = 0;
        self.replacement = false;
        self.passing = 0;
        self.moment = Moment::Idle;
    }

    /// `seat` drew `tile` (a hidden seat's draw: any tile): its turn.
    pub fn drew(&mut self, table: &TableState, seat: u8, tile: Tile) {
        self.moved_on(table);
        let replacement = std::mem::take(&mut self.replacement);
        let tsumo_ok = table.knows_hand(seat) && self.options(table, seat).tsumo_ok(seat, tile, replacement);
        let source = if replacement { TurnStart::Replacement } else { TurnStart::Draw };
        self.moment = Moment::Turn { seat, source, tsumo_ok };
    }

    /// `seat` discarded `tile`: the other seats may answer it.
    pub fn discarded(&mut self, table: &TableState, seat: u8, tile: Tile) {
        self.discarded_knowing(table, seat, tile, None);
    }

    /// [`RoundRules::discarded`], told the shanten of the hand left (see [`SeatRules::discarded_knowing`]).
    pub fn discarded_knowing(&mut self, table: &TableState, seat: u8, tile: Tile, shanten_left: Option<i8>) {
        self.moved_on(table);
        let s = usize::from(seat);
        if table.knows_hand(seat) {
            self.seats[s].discarded_knowing(&table.seats[s], tile, shanten_left);
        }
        self.offer(table, seat, tile, Offer::Discard);
    }

    /// A win or a draw ends the round: nothing is asked until the next deal.
    pub fn round_over(&mut self) {
        self.passing = 0;
        self.moment = Moment::Idle;
    }

    /// The game went on past the last shown tile (a riichi stick paid, a kan's indicator turned, a draw, a
    /// discard, a call): every seat that waited on that tile and did not win on it is furiten.
    pub fn moved_on(&mut self, table: &TableState) {
        let passing = std::mem::take(&mut self.passing);
        for s in 0..4u8 {
            if passing & (1 << s) != 0 {
                self.seats[usize::from(s)].let_pass(&table.seats[usize::from(s)]);
            }
        }
    }

    /// `seat` made `meld` (a call of the last discard, a kan or a north from its hand).
    pub fn called(&mut self, table: &TableState, seat: u8, meld: &Meld) {
        self.moved_on(table);
        let (s, p) = (usize::from(seat), &table.seats[usize::from(seat)]);
        self.seats[s].called(p, meld);
        self.moment = Moment::Idle;
        match meld.kind {
            MeldKind::Chi | MeldKind::Pon | MeldKind::Daiminkan => {
                let from = (seat + meld.from) % 4;
                self.seats[usize::from(from)].discard_called();
                // pao: the call that completes the third dragon set or the fourth wind set
                let k = meld.base_kind();
                let sets = |pred: fn(Kind) -> bool| {
                    p.melds
                        .iter()
                        .filter(|m| !matches!(m.kind, MeldKind::Chi | MeldKind::Nuki) && pred(m.base_kind()))
                        .count()
                };
                if meld.kind != MeldKind::Chi
                    && ((k.is_dragon() && sets(Kind::is_dragon) == 3) || (k.is_wind() && sets(Kind::is_wind) == 4))
                {
                    self.seats[s].pao = Some(from);
                }
                if meld.kind == MeldKind::Daiminkan {
                    self.kans += 1;
                    self.replacement = true;
                } else {
                    self.moment = Moment::Turn { seat, source: TurnStart::Call, tsumo_ok: false };
                }
            }
            MeldKind::Ankan | MeldKind::Kakan | MeldKind::Nuki => {
                if meld.kind != MeldKind::Nuki {
                    self.kans += 1;
                }
                self.replacement = true;
                if let Some((tile, offer)) = Action::of_call(meld).and_then(Action::shown) {
                    self.offer(table, seat, tile, offer);
                }
            }
        }
    }

    /// `from` showed `tile`: who may win on it and who may call it; who waits on it (furiten if it goes by; a
    /// closed kan only for the hands that may rob it, thirteen orphans).
    fn offer(&mut self, table: &TableState, from: u8, tile: Tile, offer: Offer) {
        let (mut ron, mut call, mut passing) = (0u8, 0u8, 0u8);
        for s in (0..table.players.min(4)).filter(|&s| s != from && table.knows_hand(s)) {
            let opts = self.options(table, s);
            let b = 1 << s;
            if opts.can_ron(s, from, tile, offer) {
                ron |= b;
            }
            if offer == Offer::Discard && opts.has_call(s, from, tile) {
                call |= b;
            }
            let waits = self.seats[usize::from(s)].waits & bit(tile.kind()) != 0;
            if waits && (offer != Offer::Ankan || ron & b != 0) {
                passing |= b;
            }
        }
        self.passing = passing;
        self.moment = Moment::Respond { from, tile, offer, ron, call };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use haifu_rules::HandNotation;

    fn counts(s: &str) -> Counts {
        s.parse::<HandNotation>().unwrap().counts
    }

    #[test]
    fn waits_skip_a_fifth_copy() {
        // tanki on 1m
        let c = counts("1m234p567s789s999p");
        assert_eq!(waits_of(&c, &c), 1);
        // the same hand beside a pon of 1m: the wait would be a fifth copy
        let mut held = c;
        held[0] += 3;
        assert_eq!(waits_of(&c, &held), 0);
        let c = counts("123m456p789s1112z");
        assert_eq!(waits_of(&c, &c), 1 << 28);
    }

    #[test]
    fn waits_agree_with_a_full_scan() {
        use rand::{rngs::StdRng, seq::SliceRandom, SeedableRng};
        let mut rng = StdRng::seed_from_u64(7);
        let mut tiles: Vec<u8> = (0..136).collect();
        let mut found = 0;
        for round in 0..20_000 {
            let mut c = [0u8; 34];
            if round % 2 == 0 {
                tiles.shuffle(&mut rng);
                for &t in &tiles[..13] {
                    c[usize::from(t / 4)] += 1;
                }
            } else {
                // a complete hand (four sets and a pair) less one tile: tenpai
                let mut k = 0usize;
                while k < 4 {
                    let start = usize::from(tiles[k * 7 + round % 5] % 34);
                    let seq = start < 27 && start % 9 <= 6 && round % 3 != 0;
                    let add: &[usize] = if seq { &[0, 1, 2] } else { &[0, 0, 0] };
                    let room = if seq { add.iter().all(|&d| c[start + d] < 4) } else { c[start] == 0 };
                    if room {
                        for &d in add {
                            c[start + d] += 1;
                        }
                        k += 1;
                    } else {
                        tiles.shuffle(&mut rng);
                    }
                }
                let pair = (0..34).find(|&p| c[(p + round) % 34] <= 2).map(|p| (p + round) % 34).unwrap();
                c[pair] += 2;
                tiles.shuffle(&mut rng);
                let drop = (0..34).find(|&p| c[(p + usize::from(tiles[0])) % 34] > 0).unwrap();
                c[(drop + usize::from(tiles[0])) % 34] -= 1;
            }
            let fast = waits_of(&c, &c);
            let mut slow = 0u64;
            if shanten(&c) == 0 {
                for k in 0..34 {
                    if c[k] < 4 {
                        c[k] += 1;
                        if shanten(&c) == -1 {
                            slow |= 1 << k;
                        }
                        c[k] -= 1;
                    }
                }
            }
            assert_eq!(fast, slow, "{c:?}");
            found += usize::from(fast != 0);
        }
        assert!(found > 0);
        // thirteen orphans waiting on the one kind it lacks (not held, far from every suit tile held)
        let single = counts("19m19p19s1234566z");
        assert_eq!(waits_of(&single, &single), 1 << 33);
        // thirteen orphans, thirteen-sided: waiting on all thirteen
        let c = counts("19m19p19s1234567z");
        assert_eq!(waits_of(&c, &c), 1 | 1 << 8 | 1 << 9 | 1 << 17 | 1 << 18 | 1 << 26 | 0x7f << 27);
    }

    #[test]
    fn kuikae_masks() {
        let t = |i| Tile::from_id(i);
        // chi 3m4m taking 5m: 5m and 2m forbidden
        let m = Meld::call(MeldKind::Chi, &[t(8), t(12)], t(16), 3).unwrap();
        assert_eq!(kuikae_of(&m), bit(Kind::from_index(4)) | bit(Kind::from_index(1)));
        // chi 4m5m taking 3m: 3m and 6m
        let m = Meld::call(MeldKind::Chi, &[t(12), t(17)], t(8), 3).unwrap();
        assert_eq!(kuikae_of(&m), bit(Kind::from_index(2)) | bit(Kind::from_index(5)));
        // middle: only the called kind
        let m = Meld::call(MeldKind::Chi, &[t(8), t(17)], t(12), 3).unwrap();
        assert_eq!(kuikae_of(&m), bit(Kind::from_index(3)));
        // 7m8m taking 9m: 9m and 6m; 1m2m taking 3m: 3m only... and 4m
        let m = Meld::call(MeldKind::Chi, &[t(24), t(28)], t(32), 3).unwrap();
        assert_eq!(kuikae_of(&m), bit(Kind::from_index(8)) | bit(Kind::from_index(5)));
    }
}
