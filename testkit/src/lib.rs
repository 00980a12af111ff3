//! Scripted games written as Tenhou mjlog: test fixtures the project makes itself (and example logs).
//!
//! A [`GameBuilder`] writes the tags of a game in Tenhou's order while it tracks what Tenhou tracks: the
//! concealed hands and melds, the live wall (70 draws, 55 in 3-player; a replacement draw after a kan or a
//! nuki counts as a draw), the dora indicators, riichi, the scores and the sticks on the table. A script names
//! tiles in Tenhou notation (`"5m"` a plain five, `"0m"` the red one, `"1z"`..`"7z"` or `"E"`..`"C"` the
//! honors) or by id, and the builder resolves them to free ids (dealing or drawing) or to ids in the hand
//! (discarding, calling). So the log it writes replays cleanly unless the script does something impossible
//! (then the builder panics, naming the step) or breaks the log on purpose with [`GameBuilder::raw`] or
//! [`GameBuilder::edit_tag`].
//!
//! Tenhou's order, followed here:
//! - `REACH step=1`, the riichi discard, then `REACH step=2 ten=` before the next draw or call, never when the
//!   discard is ronned (the stick is not paid then);
//! - a closed kan's `DORA` comes before the replacement draw; an open or added kan's after the replacement draw,
//!   just before the discard; none when the kan is robbed or the replacement tile wins;
//! - a double ron is a run of `AGARI` tags in turn order from the discarder; the first winner takes the honba
//!   and the sticks;
//! - 3-player games keep the 4-slot numbering: `hai3=""`, four `ten` and `sc` pairs, kyoku 0 1 2 then 4 5 6.
//!
//! Points need not follow the scoring tables, but every payment adds up: a win's deltas sum to 1000 x the sticks
//! taken, a draw's to zero, and `owari` gives the leftover sticks to the first place.

use haifu_rules::score::{honba_gain, honba_per_payer};
use haifu_rules::{HandNotation, Kind, Meld, MeldKind, MjaiTile, Tile, TileSet};

pub mod corpus;
pub mod scenes;

pub use corpus::corpus_dir;

use haifu_record::event::{Event, GameRecord, Tag, ROOT};
use haifu_record::state::{KanDora, Riichi, TableState, WinValue};
use haifu_record::tags::{self, DrawKind, Init, Owari, Player, Reach, RoundEndTag, Yaku};
use haifu_rules::score;
use haifu_rules::table::{self, TableRules};

/// A tile named in a script: an exact id, or a kind with its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    Id(Tile),
    /// `red`: `Some(true)` the red five, `Some(false)` a plain copy, `None` any copy (plain first).
    Kind {
        kind: Kind,
        red: Option<bool>,
    },
}

impl From<Tile> for Pick {
    fn from(t: Tile) -> Pick {
        Pick::Id(t)
    }
}

impl From<u8> for Pick {
    fn from(id: u8) -> Pick {
        Pick::Id(Tile::from_id(id))
    }
}

impl From<Kind> for Pick {
    fn from(kind: Kind) -> Pick {
        Pick::Kind { kind, red: None }
    }
}

impl From<&str> for Pick {
    /// One tile in Tenhou notation (`5m` plain, `0m` red, `1z`) or mjai notation (`E`, `5mr`).
    ///
    /// # Panics
    /// When the text does not name exactly one tile.
    fn from(s: &str) -> Pick {
        let five = |kind: Kind| !kind.is_honor() && kind.digit() == 5;
        if let Ok(h) = s.parse::<HandNotation>() {
            let mut kinds = h.counts.iter().enumerate().filter(|(_, &n)| n > 0);
            if let (Some((k, 1)), None) = (kinds.next().map(|(k, &n)| (k, n)), kinds.next()) {
                let kind = Kind::from_index(k as u8);
                let red = five(kind).then_some(h.red != 0);
                return Pick::Kind { kind, red };
            }
        }
        match s.parse::<MjaiTile>() {
            Ok(m) => Pick::Kind { kind: m.kind, red: five(m.kind).then_some(m.red) },
            Err(_) => panic!("{s:?} does not name one tile"),
        }
    }
}

/// The tiles of a hand in Tenhou notation (`"123m0p55z"`), as picks in order.
///
/// # Panics
/// When the notation is not valid.
pub fn picks(notation: &str) -> Vec<Pick> {
    let mut out = Vec::new();
    let mut digits = Vec::new();
    for c in notation.chars() {
        match c {
            '0'..='9' => digits.push(c),
            'm' | 'p' | 's' | 'z' => out.extend(digits.drain(..).map(|d| Pick::from(format!("{d}{c}").as_str()))),
            ' ' => {}
            _ => panic!("{notation:?}: unexpected {c:?}"),
        }
    }
    assert!(digits.is_empty(), "{notation:?}: digits without a suit letter");
    out
}

/// A win as the script wants it scored: the points of the hand (before honba and sticks) and its yaku.
#[derive(Clone, Debug, PartialEq)]
pub struct Win {
    pub fu: u32,
    pub points: i32,
    pub yaku: Vec<Yaku>,
    pub yakuman: Vec<u8>,
    /// The seat liable for the yakuman (pao), if any.
    pub pao: Option<u8>,
}

impl Win {
    /// A 30-fu win worth `points`, without yaku (add them with [`Win::yaku`]).
    pub fn new(points: i32) -> Win {
        Win { fu: 30, points, yaku: Vec::new(), yakuman: Vec::new(), pao: None }
    }
    pub fn fu(mut self, fu: u32) -> Win {
        self.fu = fu;
        self
    }
    /// Yaku as Tenhou `(id, han)` pairs (SPEC 1.3).
    pub fn yaku(mut self, pairs: &[(u8, u8)]) -> Win {
        self.yaku = pairs.iter().map(|&(id, han)| Yaku { id, han }).collect();
        self
    }
    /// Yakuman ids (never together with `yaku`).
    pub fn yakuman(mut self, ids: &[u8]) -> Win {
        self.yakuman = ids.to_vec();
        self
    }
    pub fn pao(mut self, seat: u8) -> Win {
        self.pao = Some(seat);
        self
    }
}

/// The round being written: the table state (hands, melds, rivers, riichi, scores, dora, the wall's count)
/// and what a script needs beside it.
#[derive(Clone, Debug)]
struct Round {
    /// Every id in play this round: dealt, drawn, dora and ura indicators.
    used: TileSet,
    /// The tile added by the last kakan while it can be robbed (chankan).
    last_kakan: Option<(u8, Tile)>,
    /// A kan's indicator still to turn: the seat that made the kan and when.
    pending_dora: Option<(u8, KanDora)>,
    /// The seat whose turn it is to draw.
    next_seat: u8,
}

/// Writes one scripted game as mjlog events. See the module documentation.
#[derive(Clone, Debug)]
pub struct GameBuilder {
    events: Vec<Event>,
    rules: TableRules,
    players: Vec<Player>,
    /// The public state, kept across rounds (scores and sticks carry over).
    table: TableState,
    /// kyoku and honba of the next round.
    next_kyoku: u8,
    next_honba: u8,
    round: Option<Round>,
    last_end: Option<(usize, RoundEndTag)>,
    finished: bool,
}

/// Names given to the seats: A, B, C, D.
const NAMES: [&str; 4] = ["A", "B", "C", "D"];

impl GameBuilder {
    /// A game of this `GO type` (169 = 4-player houou hanchan, 185 = 3-player), with the header Tenhou writes:
    /// root, `GO`, `UN`, `TAIKYOKU oya="0"`.
    pub fn new(go_type: u32) -> GameBuilder {
        GameBuilder::with_go(Tag::new("GO").with("type", go_type.to_string()).with("lobby", "0"))
    }

    /// A game whose `GO` tag is given as is (newer logs add attributes); its `type` sets the rules.
    ///
    /// # Panics
    /// When the tag has no numeric `type`.
    pub fn with_go(go: Tag) -> GameBuilder {
        let go_type: u32 = go.get("type").and_then(|t| t.parse().ok()).expect("GO tag without a numeric type");
        // the scripts' logs round `owari` as Tenhou did before mid-2022
        let mut rules = TableRules::from_go_type(go_type);
        rules.owari.rounded = true;
        let n_players = rules.players;
        let players: Vec<Player> = (0..4)
            .map(|s| {
                if s < n_players {
                    let name = NAMES[usize::from(s)].to_string();
                    Player { name, dan: Some(16), rate: Some(2000.0), sex: Some("M".into()) }
                } else {
                    Player { name: String::new(), dan: Some(0), rate: Some(1500.0), sex: Some("C".into()) }
                }
            })
            .collect();
        let table = TableState::new(n_players, rules.start_score());
        let events = vec![
            Event::tag(Tag::new(ROOT).with("ver", "2.3")),
            Event::from_tag(go).expect("a GO tag whose type is a number"),
            Event::players(&players),
            Event::tag(Tag::new("TAIKYOKU").with("oya", "0")),
        ];
        GameBuilder {
            events,
            rules,
            players,
            table,
            next_kyoku: 0,
            next_honba: 0,
            round: None,
            last_end: None,
            finished: false,
        }
    }

    /// Renames the seats (the `UN` tag is rewritten): example logs give their players names.
    ///
    /// # Panics
    /// When called after the first round is dealt, or with more names than seats.
    pub fn named(mut self, names: &[&str]) -> GameBuilder {
        assert!(self.round.is_none() && self.last_end.is_none(), "seats are named before the first deal");
        assert!(names.len() <= usize::from(self.n_players()), "more names than seats");
        for (p, n) in self.players.iter_mut().zip(names) {
            p.name = n.to_string();
        }
        let un = self.events.iter_mut().find(|e| matches!(e, Event::Players(_))).expect("the header has a UN tag");
        *un = Event::players(&self.players);
        self
    }

    // ---- reading the state ----

    /// The dealer of the open round.
    ///
    /// # Panics
    /// Outside a round.
    pub fn dealer(&self) -> u8 {
        self.cur();
        self.table.dealer
    }
    pub fn n_players(&self) -> u8 {
        self.rules.players
    }
    /// Scores in points (the absent seat of a 3-player game holds 0).
    pub fn scores(&self) -> [i32; 4] {
        self.table.scores
    }
    /// Riichi sticks on the table.
    pub fn kyotaku(&self) -> u8 {
        self.table.kyotaku
    }
    pub fn events(&self) -> &[Event] {
        &self.events
    }
    /// The concealed hand of a seat in the current round.
    pub fn hand(&self, seat: u8) -> TileSet {
        self.cur();
        *self.table.seats[usize::from(seat)].hand.tiles()
    }
    /// Draws left in the live wall of the current round.
    pub fn draws_left(&self) -> u8 {
        self.cur();
        self.table.draws_left
    }
    /// The tile a seat drew last in the current round, while it holds it.
    pub fn last_draw(&self, seat: u8) -> Option<Tile> {
        self.cur();
        self.table.seats[usize::from(seat)].last_draw
    }
    /// Dora indicators of the current round, kan dora included.
    pub fn dora_indicators(&self) -> &[Tile] {
        self.cur();
        &self.table.dora
    }
    /// The game as a record (format mjlog).
    pub fn record(&self) -> GameRecord {
        GameRecord::written(self.events.clone())
    }
    /// The game as mjlog XML text.
    pub fn xml(&self) -> String {
        self.record().to_mjlog()
    }

    // ---- writing anything ----

    /// Appends a tag as a reader would type it (unknown tags, `SHUFFLE` ... stay verbatim).
    ///
    /// # Panics
    /// When a rich tag's attributes do not parse (to write such a log, edit its XML).
    pub fn tag(&mut self, t: Tag) -> &mut Self {
        self.events.push(Event::from_tag(t).expect("a tag that parses"));
        self
    }
    /// Appends an event without tracking it: for logs broken on purpose.
    pub fn raw(&mut self, e: Event) -> &mut Self {
        self.events.push(e);
        self
    }
    /// Edits the `nth` (from 0) tag of this name written so far, to break a log on purpose: the event is read
    /// again from the edited tag, as a reader would read it.
    ///
    /// # Panics
    /// When there is no such tag, or the edited tag does not parse (to write such a log, edit its XML).
    pub fn edit_tag(&mut self, name: &str, nth: usize, edit: impl FnOnce(&mut Tag)) -> &mut Self {
        let at = (0..self.events.len())
            .filter(|&i| self.events[i].written_tag().is_some_and(|t| t.name == name))
            .nth(nth)
            .unwrap_or_else(|| panic!("no <{name}> number {nth} in the log"));
        let mut tag = self.events[at].written_tag().cloned().expect("a tag");
        edit(&mut tag);
        self.events[at] = Event::from_tag(tag).unwrap_or_else(|e| panic!("the edited <{name}> does not parse: {e}"));
        self
    }
    /// `BYE who=`: a disconnection (allowed anywhere, before the first round and after `owari` too).
    pub fn bye(&mut self, seat: u8) -> &mut Self {
        self.tag(Tag::new("BYE").with("who", seat.to_string()))
    }
    /// A reconnection: `UN` with the one name of the seat.
    pub fn reconnect(&mut self, seat: u8) -> &mut Self {
        let name = tags::percent_encode(&self.players[usize::from(seat)].name);
        self.tag(Tag::new("UN").with(&format!("n{seat}"), name))
    }

    // ---- dealing ----

    /// Starts the next round with hands in Tenhou notation (`""` for the absent seat of a 3-player game).
    /// The dora indicator is a free tile of a kind the hands do not use, if any.
    pub fn deal(&mut self, hands: [&str; 4]) -> &mut Self {
        self.deal_picks(hands.map(picks), None)
    }

    /// As [`GameBuilder::deal`], with the dora indicator given.
    pub fn deal_with_dora(&mut self, hands: [&str; 4], dora: impl Into<Pick>) -> &mut Self {
        self.deal_picks(hands.map(picks), Some(dora.into()))
    }

    /// Starts the next round with hands given by tile ids.
    pub fn deal_ids(&mut self, hands: [&[u8]; 4], dora: u8) -> &mut Self {
        self.deal_picks(hands.map(|h| h.iter().map(|&id| Pick::from(id)).collect()), Some(Pick::from(dora)))
    }

    fn deal_picks(&mut self, hands: [Vec<Pick>; 4], dora: Option<Pick>) -> &mut Self {
        assert!(self.round.is_none(), "deal while a round is open");
        assert!(!self.finished, "deal after owari");
        let np = usize::from(self.n_players());
        let (kyoku, honba) = (self.next_kyoku, self.next_honba);
        let dealer = kyoku % 4;
        let mut round = Round { used: TileSet::new(), last_kakan: None, pending_dora: None, next_seat: dealer };
        let mut dealt: [Vec<Tile>; 4] = Default::default();
        for (s, h) in hands.iter().enumerate() {
            let want = if s < np { 13 } else { 0 };
            assert_eq!(h.len(), want, "hand {s} holds {} tiles, not {want}", h.len());
            for &p in h {
                dealt[s].push(self.take_free(&mut round, p));
            }
        }
        let dora = match dora {
            Some(p) => self.take_free(&mut round, p),
            None => self.indicator(&mut round),
        };
        let init = Init {
            kyoku,
            honba,
            kyotaku: self.table.kyotaku,
            dice: [kyoku % 6 + 1, honba % 6 + 1],
            dora_indicator: dora,
            scores: self.table.scores,
            dealer,
            hands: dealt,
        };
        self.table.start(&init, self.n_players());
        self.events.push(Event::init(init));
        self.round = Some(round);
        self.last_end = None;
        self
    }

    // ---- turns ----

    /// Draws a tile (a replacement draw after a kan or nuki).
    pub fn draw(&mut self, seat: u8, tile: impl Into<Pick>) -> &mut Self {
        let pick = tile.into();
        self.settle_riichi();
        let mut r = self.round.take().expect("draw outside a round");
        if matches!(r.pending_dora, Some((s, KanDora::BeforeReplacement)) if s == seat) {
            self.turn_dora(&mut r);
        }
        let t = self.take_free(&mut r, pick);
        self.table.draw(seat, t).unwrap_or_else(|e| panic!("seat {seat} draws: {e}"));
        r.last_kakan = None;
        self.events.push(Event::Draw { seat, tile: t });
        self.round = Some(r);
        self
    }

    /// Discards a tile from the hand.
    pub fn discard(&mut self, seat: u8, tile: impl Into<Pick>) -> &mut Self {
        let pick = tile.into();
        self.flush_discard_dora(seat);
        let t = self.in_hand(seat, pick);
        self.table.discard(seat, t).unwrap_or_else(|e| panic!("seat {seat} discards: {e}"));
        let next = (seat + 1) % self.rules.players;
        let r = self.cur_mut();
        r.last_kakan = None;
        r.next_seat = next;
        self.events.push(Event::Discard { seat, tile: t });
        self
    }

    /// Discards the tile just drawn.
    pub fn tsumogiri(&mut self, seat: u8) -> &mut Self {
        let t = self.last_draw(seat).unwrap_or_else(|| panic!("seat {seat} has drawn nothing"));
        self.discard(seat, t)
    }

    /// Draws a tile and discards it.
    pub fn draw_tsumogiri(&mut self, seat: u8, tile: impl Into<Pick>) -> &mut Self {
        self.draw(seat, tile).tsumogiri(seat)
    }

    /// Declares riichi with this discard: `REACH step=1`, the discard; step 2 follows unless it is ronned.
    pub fn riichi(&mut self, seat: u8, tile: impl Into<Pick>) -> &mut Self {
        self.flush_discard_dora(seat);
        self.table.reach(seat, 1).unwrap_or_else(|e| panic!("seat {seat} riichi: {e}"));
        self.events.push(Event::reach(Reach { who: seat, step: 1, scores: None }));
        self.discard(seat, tile)
    }

    /// Lets every draw left go by: each seat in turn draws a free tile and discards it, until the wall is empty.
    pub fn exhaust_wall(&mut self) -> &mut Self {
        self.exhaust_wall_where(|_, _| true)
    }

    /// As [`GameBuilder::exhaust_wall`], each seat drawing the lowest free tile that `wanted(seat, tile)` accepts
    /// (e.g. only terminals and honors for a nagashi mangan).
    ///
    /// # Panics
    /// When no free tile is accepted.
    pub fn exhaust_wall_where(&mut self, wanted: impl Fn(u8, Tile) -> bool) -> &mut Self {
        while self.draws_left() > 0 {
            let r = self.cur();
            let seat = r.next_seat;
            let t = (0..136u8)
                .map(Tile::from_id)
                .find(|&t| !r.used.contains(t) && self.in_game(t) && wanted(seat, t))
                .unwrap_or_else(|| panic!("no free tile left for seat {seat}"));
            self.draw_tsumogiri(seat, t);
        }
        self
    }

    // ---- calls ----

    /// Chi of the last discard (from the previous seat) with these two tiles of the hand.
    pub fn chi(&mut self, seat: u8, a: impl Into<Pick>, b: impl Into<Pick>) -> &mut Self {
        let picks = [a.into(), b.into()];
        self.call_discard(seat, MeldKind::Chi, &picks)
    }

    /// Pon of the last discard with two copies from the hand (plain copies first).
    pub fn pon(&mut self, seat: u8) -> &mut Self {
        let kind = self.table.last_discard.expect("pon with no discard").1.kind();
        self.call_discard(seat, MeldKind::Pon, &[Pick::from(kind); 2])
    }

    /// Pon of the last discard with these two tiles of the hand.
    pub fn pon_with(&mut self, seat: u8, a: impl Into<Pick>, b: impl Into<Pick>) -> &mut Self {
        let picks = [a.into(), b.into()];
        self.call_discard(seat, MeldKind::Pon, &picks)
    }

    /// Open kan (daiminkan) of the last discard; the seat draws its replacement next.
    pub fn daiminkan(&mut self, seat: u8) -> &mut Self {
        let kind = self.table.last_discard.expect("kan with no discard").1.kind();
        self.call_discard(seat, MeldKind::Daiminkan, &[Pick::from(kind); 3])
    }

    /// Closed kan (ankan) of the four copies of a kind in the hand; the seat draws its replacement next.
    pub fn ankan(&mut self, seat: u8, kind: impl Into<Pick>) -> &mut Self {
        let kind = match kind.into() {
            Pick::Id(t) => t.kind(),
            Pick::Kind { kind, .. } => kind,
        };
        self.before_call(seat);
        self.meld(seat, Meld::ankan(kind))
    }

    /// Added kan (kakan): a tile of the hand joins the seat's pon of its kind; it can be robbed (chankan).
    pub fn kakan(&mut self, seat: u8, tile: impl Into<Pick>) -> &mut Self {
        let pick = tile.into();
        self.before_call(seat);
        let added = self.in_hand(seat, pick);
        let melds = &self.table.seats[usize::from(seat)].melds;
        let pon = melds
            .iter()
            .find(|m| m.kind == MeldKind::Pon && m.base_kind() == added.kind())
            .unwrap_or_else(|| panic!("kakan of {}: seat {seat} has no pon of it", added.kind()));
        let kakan = pon.kakan_of(added).expect("kakan of a pon");
        self.meld(seat, kakan);
        self.cur_mut().last_kakan = Some((seat, added));
        self
    }

    /// North extraction (3-player): a north of the hand is set aside; the seat draws its replacement next.
    pub fn nuki(&mut self, seat: u8) -> &mut Self {
        self.before_call(seat);
        let north = self.in_hand(seat, Pick::from(Kind::NORTH));
        self.meld(seat, Meld::nuki(north))
    }

    fn call_discard(&mut self, seat: u8, kind: MeldKind, from_hand: &[Pick]) -> &mut Self {
        self.before_call(seat);
        let (from_seat, called) = self.table.last_discard.expect("call with no discard to take");
        assert_ne!(from_seat, seat, "seat {seat} calls its own discard");
        let mut taken: Vec<Tile> = Vec::new();
        for &p in from_hand {
            // two copies of one kind: the second pick must find another id
            let t = self.in_hand_except(seat, p, &taken);
            taken.push(t);
        }
        // `from` counts seats to the right in Tenhou's 4-slot numbering, in 3-player games too
        let from = (from_seat + 4 - seat) % 4;
        let meld = Meld::call(kind, &taken, called, from).unwrap_or_else(|e| panic!("seat {seat}: {e}"));
        self.meld(seat, meld);
        let next = (seat + 1) % self.rules.players;
        self.cur_mut().next_seat = next;
        self
    }

    /// Writes a call and advances the table by it; a kan owes its indicator ([`KanDora`]).
    fn meld(&mut self, seat: u8, meld: Meld) -> &mut Self {
        self.table.call(seat, meld).unwrap_or_else(|e| panic!("seat {seat}: {e}"));
        self.events.push(Event::call(seat, meld));
        let r = self.cur_mut();
        if let Some(t) = KanDora::of(meld.kind) {
            r.pending_dora = Some((seat, t));
        }
        self
    }

    /// What precedes any call: the stick of a riichi discard that was not ronned, the dora of an earlier kan.
    fn before_call(&mut self, seat: u8) {
        self.settle_riichi();
        self.flush_discard_dora(seat);
    }

    // ---- wins ----

    /// The seat wins on the tile it drew (tsumo).
    pub fn tsumo(&mut self, seat: u8, win: Win) -> &mut Self {
        self.settle_riichi();
        let tile = self.last_draw(seat).expect("tsumo without a draw");
        self.win(seat, seat, tile, true, &win);
        self.end_wins(&[seat]);
        self
    }

    /// Ron on the last discard (or the tile of the last kakan: chankan) of `from`. Several winners make a
    /// double ron: their `AGARI` tags follow in turn order from the discarder, whatever the order given.
    pub fn ron(&mut self, from: u8, winners: &[(u8, Win)]) -> &mut Self {
        let np = self.rules.players;
        let robbed = self.cur().last_kakan.filter(|&(s, _)| s == from).map(|(_, t)| t);
        let discarded = self.table.last_discard.filter(|&(s, _)| s == from).map(|(_, t)| t);
        let tile = robbed.or(discarded).unwrap_or_else(|| panic!("ron: seat {from} has no tile to take"));
        let mut order: Vec<&(u8, Win)> = winners.iter().collect();
        order.sort_by_key(|(w, _)| (w + np - from) % np);
        for (i, (who, win)) in order.iter().enumerate() {
            self.win(*who, from, tile, i == 0, win);
        }
        let seats: Vec<u8> = order.iter().map(|(w, _)| *w).collect();
        self.end_wins(&seats);
        self
    }

    /// Writes one `AGARI`. `first`: this winner takes the honba and the sticks.
    fn win(&mut self, who: u8, from: u8, tile: Tile, first: bool, win: &Win) {
        let np = self.rules.players;
        let r = self.round.as_mut().expect("win outside a round");
        let ura: Vec<Tile> = if self.table.seats[usize::from(who)].riichi.is_accepted() {
            (0..self.table.dora.len()).map(|_| Self::indicator_in(np, &mut r.used)).collect()
        } else {
            Vec::new()
        };
        let (honba, sticks) = if first { (self.table.honba, self.table.kyotaku) } else { (0, 0) };
        let dealer = self.table.dealer;
        let delta = win_payments(win, who, from, dealer, np, honba, sticks);
        let value = WinValue {
            fu: win.fu,
            points: win.points,
            // a three-player tsumo's points are what the two others paid (tsumo loss)
            limit: if np == 3 && who == from {
                score::limit_of_sanma_tsumo(win.points, who == dealer, !win.yakuman.is_empty())
            } else {
                score::limit_of_points(win.points, who == dealer, !win.yakuman.is_empty())
            },
            yaku: win.yaku.clone(),
            yakuman: win.yakuman.clone(),
            ura_indicators: ura,
            pao_who: win.pao,
            delta,
            sticks,
        };
        let agari = self.table.win_end(who, from, tile, value);
        self.last_end = Some((self.events.len(), RoundEndTag::Agari(Box::new(agari.clone()))));
        self.events.push(Event::agari(agari));
    }

    /// Closes a round won by `winners`: the dealer keeps the seat (renchan) when among them.
    fn end_wins(&mut self, winners: &[u8]) {
        self.round.take().expect("round end outside a round");
        let (kyoku, honba) = (self.table.kyoku, self.table.honba);
        if winners.contains(&self.table.dealer) {
            (self.next_kyoku, self.next_honba) = (kyoku, honba + 1);
        } else {
            (self.next_kyoku, self.next_honba) = (self.rules.next_kyoku(kyoku), 0);
        }
    }

    // ---- draws ----

    /// Exhaustive draw (the wall must be empty); the hands of `tenpai` are shown and receive the noten payments
    /// (3000 in 4-player games, 2000 in 3-player).
    pub fn exhaustive(&mut self, tenpai: &[u8]) -> &mut Self {
        assert_eq!(self.draws_left(), 0, "exhaustive draw with tiles left");
        let mut shown = [false; 4];
        for &s in tenpai {
            shown[usize::from(s)] = true;
        }
        let delta = score::exhaustive_draw_deltas(shown, self.rules.players);
        self.draw_end(DrawKind::Exhaustive, tenpai, delta)
    }

    /// Nagashi mangan of `who` at the exhaustive draw: paid as a mangan tsumo; `tenpai` hands are shown.
    pub fn nagashi(&mut self, who: u8, tenpai: &[u8]) -> &mut Self {
        assert_eq!(self.draws_left(), 0, "nagashi mangan with tiles left");
        let delta = score::nagashi_deltas(&[who], self.table.dealer, self.rules.ruleset());
        self.draw_end(DrawKind::Nagashi, tenpai, delta)
    }

    /// An abortive draw (yao9, reach4, ron3, kan4, kaze4); the hands of `shown` are shown as they are.
    pub fn abort(&mut self, kind: DrawKind, shown: &[u8]) -> &mut Self {
        assert!(kind.is_abortive(), "{} is not abortive", kind.name());
        // a triple ron is declared on the discard: a riichi made with it is not accepted
        if kind != DrawKind::Ron3 {
            self.settle_riichi();
        }
        self.draw_end(kind, shown, [0; 4])
    }

    fn draw_end(&mut self, kind: DrawKind, shown: &[u8], delta: [i32; 4]) -> &mut Self {
        self.round.take().expect("draw outside a round");
        let d = self.table.draw_end(kind, shown, delta);
        self.last_end = Some((self.events.len(), RoundEndTag::Ryuukyoku(Box::new(d.clone()))));
        self.events.push(Event::ryuukyoku(d));
        // the dealer keeps the seat after an abortive draw or when tenpai at the end of the wall
        let renchan = kind.is_abortive() || shown.contains(&self.table.dealer);
        let kyoku = self.table.kyoku;
        self.next_kyoku = if renchan { kyoku } else { self.rules.next_kyoku(kyoku) };
        self.next_honba = self.table.honba + 1;
        self
    }

    // ---- the end ----

    /// Ends the game: `owari` on the last round's end tag, the leftover sticks to the first place
    /// (`haifu_rules::table::owari`, rounded as Tenhou did before mid-2022).
    ///
    /// # Panics
    /// When a round is open or no round has ended.
    pub fn finish(&mut self) -> &mut Self {
        assert!(self.round.is_none(), "finish with a round open");
        let (at, end) = self.last_end.take().expect("finish before any round ended");
        let (scores, points) = table::owari(&self.rules, &self.table.scores, self.table.kyotaku);
        let owari = Some(Owari { scores, points });
        self.events[at] = end.with_owari(owari);
        (self.table.scores, self.table.kyotaku) = (scores, 0);
        self.finished = true;
        self
    }

    // ---- helpers ----

    fn cur(&self) -> &Round {
        self.round.as_ref().expect("no round is open")
    }
    fn cur_mut(&mut self) -> &mut Round {
        self.round.as_mut().expect("no round is open")
    }

    /// Pays the stick of a riichi discard that was not ronned: `REACH step=2` with the scores after it.
    fn settle_riichi(&mut self) {
        let Some(who) = (0..4u8).find(|&s| matches!(self.table.seats[usize::from(s)].riichi, Riichi::Discarded { .. }))
        else {
            return;
        };
        self.table.reach(who, 2).expect("a riichi discard out");
        self.events.push(Event::reach(Reach { who, step: 2, scores: Some(self.table.scores) }));
    }

    /// Turns an open or added kan's indicator owed before this seat's discard or next call.
    fn flush_discard_dora(&mut self, seat: u8) {
        let mut r = self.round.take().expect("outside a round");
        if r.pending_dora == Some((seat, KanDora::BeforeDiscard)) {
            self.turn_dora(&mut r);
        }
        self.round = Some(r);
    }

    fn turn_dora(&mut self, r: &mut Round) {
        r.pending_dora = None;
        let t = Self::indicator_in(self.rules.players, &mut r.used);
        self.table.dora(t).expect("at most five indicators");
        self.events.push(Event::Dora { tile: t });
    }

    fn in_game(&self, t: Tile) -> bool {
        self.rules.players == 4 || !t.kind().absent_in_sanma()
    }

    fn indicator(&self, r: &mut Round) -> Tile {
        Self::indicator_in(self.rules.players, &mut r.used)
    }

    /// Takes a tile for a dora or ura indicator: the last copy of a kind with the most free copies, so that the
    /// tiles a script names (kinds already in play) stay free.
    fn indicator_in(n_players: u8, used: &mut TileSet) -> Tile {
        let free = |t: Tile| !used.contains(t) && (n_players == 4 || !t.kind().absent_in_sanma());
        let t = (0..136u8)
            .map(Tile::from_id)
            .filter(|&t| free(t))
            .max_by_key(|t| (t.kind().ids().into_iter().filter(|&c| free(c)).count(), t.id()))
            .expect("every tile is in play");
        used.insert(t);
        t
    }

    /// Whether `t` matches the colour asked: red fives are copy 0 only in games with red.
    fn colour_ok(&self, t: Tile, red: Option<bool>) -> bool {
        match red {
            None => true,
            Some(want) if self.rules.red_fives => t.is_red_id() == want,
            Some(want) => {
                assert!(!want, "a red five in a game without red fives");
                true
            }
        }
    }

    /// A free id for a tile entering play.
    fn take_free(&self, r: &mut Round, p: Pick) -> Tile {
        let t = match p {
            Pick::Id(t) => {
                assert!(!r.used.contains(t), "tile {} ({t}) is already in play", t.id());
                t
            }
            Pick::Kind { kind, red } => {
                // a plain copy before the red one when the colour is left open
                let mut ids = kind.ids();
                ids.sort_by_key(|t| self.rules.red_fives && t.is_red_id());
                ids.into_iter()
                    .find(|&t| !r.used.contains(t) && self.colour_ok(t, red))
                    .unwrap_or_else(|| panic!("no free {kind}{} left", if red == Some(true) { " (red)" } else { "" }))
            }
        };
        assert!(self.in_game(t), "{t} is not played in 3-player games");
        r.used.insert(t);
        t
    }

    /// The id in the seat's hand that a pick names.
    fn in_hand(&self, seat: u8, p: Pick) -> Tile {
        self.in_hand_except(seat, p, &[])
    }

    /// As [`GameBuilder::in_hand`], not one of `taken`.
    fn in_hand_except(&self, seat: u8, p: Pick, taken: &[Tile]) -> Tile {
        let hand = &self.table.seats[usize::from(seat)].hand;
        let holds = |t: Tile| hand.contains(t) && !taken.contains(&t);
        let t = match p {
            Pick::Id(t) => t,
            Pick::Kind { kind, red } => {
                let mut ids = kind.ids();
                ids.sort_by_key(|t| self.rules.red_fives && t.is_red_id());
                ids.into_iter().find(|&t| holds(t) && self.colour_ok(t, red)).unwrap_or_else(|| {
                    panic!("seat {seat} holds no {kind}{}", if red == Some(true) { " (red)" } else { "" })
                })
            }
        };
        assert!(holds(t), "seat {seat} does not hold tile {} ({t}): {hand:?}", t.id());
        t
    }
}

/// The payments of a scripted win: a ron paid by the discarder (half by the pao seat, which pays the honba
/// too), a tsumo split dealer-double (all of it by the pao seat); honba 300 a win (100 per payer), the sticks
/// to the winner. Points need not follow the scoring tables here, so the split is made from the points.
fn win_payments(win: &Win, who: u8, from: u8, dealer: u8, np: u8, honba: u8, sticks: u8) -> [i32; 4] {
    let mut delta = [0i32; 4];
    if who == from {
        let mut shares = [0i32; 4];
        for (s, share) in shares.iter_mut().enumerate().take(usize::from(np)) {
            let s = s as u8;
            if s == who {
                continue;
            }
            let part = if who == dealer {
                win.points / 3
            } else if s == dealer {
                win.points / 2
            } else {
                win.points / 4
            };
            *share = round_up_100(part) + honba_per_payer(honba);
        }
        let total: i32 = shares.iter().sum();
        match win.pao {
            Some(p) => delta[usize::from(p)] -= total,
            None => {
                for (d, s) in delta.iter_mut().zip(shares) {
                    *d -= s;
                }
            }
        }
        delta[usize::from(who)] += total;
    } else {
        // the discarder pays every payer's 100 a counter: 300, or 200 with three players
        let total = win.points + honba_gain(np, honba);
        match win.pao {
            Some(p) => {
                let half = round_up_100(win.points / 2);
                delta[usize::from(from)] -= half;
                delta[usize::from(p)] -= total - half;
            }
            None => delta[usize::from(from)] -= total,
        }
        delta[usize::from(who)] += total;
    }
    delta[usize::from(who)] += 1000 * i32::from(sticks);
    delta
}

fn round_up_100(x: i32) -> i32 {
    (x + 99) / 100 * 100
}

/// A scratch directory for a test, under the system's temporary directory (unique per process and name),
/// removed when dropped.
pub struct Scratch(pub std::path::PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let p = std::env::temp_dir().join(format!("haifu-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("creating a scratch directory");
        Scratch(p)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The thesis example (SPEC 2) in a game: one round of East 1 (seat 0 = A deals; B is South, C West, D North):
/// - A draws 5s: 3336678p33345s22z (the thesis hand), discards 6p                  [A1]
/// - B draws 2m: 129m19p19s1234567z, discards N (isolated honors W N E S P F C)   [B1]
/// - C, D draw and discard the tile drawn
/// - A draws 1s: 333678p133345s22z, declares riichi discarding 1s                  [A2]
/// - B draws 8m: 1289m19p19s123567z, discards it                                   [B2]
/// - C, D draw and discard
/// - A draws 8s and discards it, in riichi                                          [A3]
/// - B draws 7p: 129m179p19s123567z, discards it                                   [B3]
/// - C, D draw and discard; A draws 2z and wins (riichi, menzen tsumo: 40 fu, 3,900 points)
pub fn thesis_round() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    g.deal(["3336678p3334s22z", "19m19p19s1234567z", "123456789m1112p", "5566778899m777z"]);
    g.draw(0, "5s").discard(0, "6p");
    g.draw(1, "2m").discard(1, "4z");
    g.draw_tsumogiri(2, "3p").draw_tsumogiri(3, "1z");
    g.draw(0, "1s").riichi(0, "1s");
    g.draw_tsumogiri(1, "8m");
    g.draw_tsumogiri(2, "4p").draw_tsumogiri(3, "2p");
    g.draw_tsumogiri(0, "8s");
    g.draw_tsumogiri(1, "7p");
    g.draw_tsumogiri(2, "6s").draw_tsumogiri(3, "3m");
    // riichi, tsumo (ura 0); 40 fu: 20, 2 tsumo, 4 for 333p, 8 for the south triplet
    g.draw(0, "2z").tsumo(0, Win::new(3900).fu(40).yaku(&[(1, 1), (0, 1), (53, 0)]));
    g.finish();
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_read_tenhou_and_mjai_names() {
        let five_m: Kind = "5m".parse().unwrap();
        assert_eq!(Pick::from("0m"), Pick::Kind { kind: five_m, red: Some(true) });
        assert_eq!(Pick::from("5mr"), Pick::Kind { kind: five_m, red: Some(true) });
        assert_eq!(Pick::from("5m"), Pick::Kind { kind: five_m, red: Some(false) });
        assert_eq!(Pick::from("1z"), Pick::from("E"));
        assert_eq!(Pick::from("E"), Pick::Kind { kind: Kind::EAST, red: None });
        assert_eq!(picks("123m0p 55z").len(), 6);
    }

    #[test]
    fn fives_resolve_by_the_red_rule() {
        let others = ["147m258p369s1234z", "369m147p258s1235z", "19m19p19s1234567z"];
        let mut red = GameBuilder::new(169);
        red.deal(["0555m123p456s123z", others[0], others[1], others[2]]);
        let ids: Vec<u8> = red.hand(0).iter().filter(|t| t.kind().index() == 4).map(Tile::id).collect();
        assert_eq!(ids, [16, 17, 18, 19]);
        // no red fives: "5m" is the first copy, id 16
        let mut plain = GameBuilder::new(0x0B);
        plain.deal(["5m1234p456s12345z", others[0], others[1], others[2]]);
        assert!(plain.hand(0).contains(Tile::from_id(16)));
    }

    #[test]
    fn payments_add_up() {
        let mut g = GameBuilder::new(169);
        g.deal(["147m258p369s1234z", "258m369p147s1236z", "999s999p888s777s4z", "123456789m111p5z"]);
        g.draw(0, "5z").tsumogiri(0);
        assert_eq!(g.draws_left(), 69);
        g.ron(0, &[(3, Win::new(7700))]);
        assert_eq!(g.scores(), [17300, 25000, 25000, 32700]);
    }
}
