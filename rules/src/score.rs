//! Scoring under Tenhou's rules: the yaku of a win with their han, the fu, the limit, the points, and the
//! score changes of wins and draws (honba, riichi sticks, pao, nagashi mangan, tenpai payments).
//!
//! Tenhou scores a hand by its best reading: every regular decomposition (`agari::decompositions`) with
//! every place the winning tile can take in it (the wait decides pinfu, the fu and whether a ron-completed
//! triplet counts as concealed), and seven pairs; the highest points win, then the most han, then fu.
//! Facts taken from Tenhou's own AGARI tags (checked over the corpus by `ingest/tests/scoring.rs`):
//! every yakuman counts once (no double yakuman for a single wait), 13 han or more is a counted yakuman,
//! there is no rounding up to mangan, dora (52) and red fives (54) are listed only when held, ura dora (53)
//! is listed for every riichi win even at 0, and each extracted north is one more dora in 3-player games.
//! In 3-player games the non-dealers' tsumo share of the absent fourth player is lost (tsumo-son), a honba
//! is worth 200 points (100 per payer on a tsumo) and the dora after a 1m indicator is the 9m.

use crate::agari::{decompositions, forms, Decomposition, Set};
use crate::hand::Counts;
use crate::meld::{Meld, MeldKind};
use crate::tile::{Kind, Suit, Tile, KINDS};
use crate::yaku;

/// The rule switches of a table that change scoring (the `GO type` bits of SPEC 1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ruleset {
    /// 3 or 4.
    pub players: u8,
    pub red_fives: bool,
    /// Tanyao counts in an open hand (kuitan).
    pub open_tanyao: bool,
}

impl Ruleset {
    /// Tenhou's 4-player ranked rules: red fives, open tanyao.
    pub const TENHOU_4P: Ruleset = Ruleset { players: 4, red_fives: true, open_tanyao: true };
    /// Tenhou's 3-player ranked rules.
    pub const TENHOU_3P: Ruleset = Ruleset { players: 3, red_fives: true, open_tanyao: true };

    /// The dora shown by an indicator at this table ([`Kind::dora_indicated`]).
    pub fn dora_of(self, indicator: Kind) -> Kind {
        indicator.dora_indicated(self.players)
    }

    /// Dora among `counts` (a hand's tiles by kind) for these indicators: each indicator counts every tile of
    /// the kind it shows ([`Ruleset::dora_of`]); the north extractions' own dora are the scorer's.
    pub fn count_dora(self, counts: &Counts, indicators: &[Tile]) -> u32 {
        indicators.iter().map(|i| u32::from(counts[usize::from(self.dora_of(i.kind()).index())])).sum()
    }

    /// Points of one honba to the winner ([`honba_gain`]).
    fn honba_points(self) -> i32 {
        honba_gain(self.players, 1)
    }
}

/// What the (first) winner receives for `honba` repeat counters on top of the hand's points, tsumo or ron:
/// 100 a counter from each payer, so 300 on a four-player ron and 200 with three players.
pub fn honba_gain(players: u8, honba: u8) -> i32 {
    (i32::from(players) - 1) * honba_per_payer(honba)
}

/// What each payer adds for `honba` repeat counters: 100 a counter (a tsumo's payers each, a ron's discarder
/// for every payer: [`honba_gain`]).
pub fn honba_per_payer(honba: u8) -> i32 {
    100 * i32::from(honba)
}

/// Riichi state of the winner.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RiichiKind {
    #[default]
    None,
    Riichi,
    /// Declared on the first discard with no call before it.
    Double,
}

/// Everything about a win that the tiles alone do not say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinContext {
    pub ruleset: Ruleset,
    pub tsumo: bool,
    /// E, S, W or N; the dealer's is E.
    pub seat_wind: Kind,
    pub round_wind: Kind,
    pub riichi: RiichiKind,
    pub ippatsu: bool,
    /// A tsumo on the replacement tile after a kan (or a north extraction).
    pub rinshan: bool,
    /// A ron on the tile added to a kan.
    pub chankan: bool,
    /// Haitei (tsumo on the last tile of the wall) or houtei (ron on the last discard).
    pub last_tile: bool,
    /// A tsumo on the seat's first draw, no call made before by anyone: tenhou (dealer) or chiihou.
    pub first_draw: bool,
    pub dora_indicators: Vec<Tile>,
    /// Only read for riichi wins.
    pub ura_indicators: Vec<Tile>,
}

impl WinContext {
    pub fn dealer(&self) -> bool {
        self.seat_wind == Kind::EAST
    }
}

/// Tenhou's limit codes, as the third value of AGARI `ten`.
pub mod limit {
    pub const NONE: u8 = 0;
    pub const MANGAN: u8 = 1;
    pub const HANEMAN: u8 = 2;
    pub const BAIMAN: u8 = 3;
    pub const SANBAIMAN: u8 = 4;
    pub const YAKUMAN: u8 = 5;
}

/// Tenhou's limit code ([`limit`]) of a win from its points (AGARI `ten`) and whether the winner deals: what a
/// log that gives only the points implies. A yakuman is [`limit::YAKUMAN`] whatever its points.
pub fn limit_of_points(points: i32, dealer: bool, yakuman: bool) -> u8 {
    limit_of_paid(points, if dealer { 6 } else { 4 }, yakuman)
}

/// As [`limit_of_points`] for a three-player tsumo, whose points are what the two others paid (Tenhou's
/// sanma has tsumo loss): a dealer is paid twice the base by each (4 times it in all), anyone else twice by
/// the dealer and once by the other (3 times).
pub fn limit_of_sanma_tsumo(points: i32, dealer: bool, yakuman: bool) -> u8 {
    limit_of_paid(points, if dealer { 4 } else { 3 }, yakuman)
}

/// The limit from points that are `times` the base points.
fn limit_of_paid(points: i32, times: i32, yakuman: bool) -> u8 {
    if yakuman {
        return limit::YAKUMAN;
    }
    match points / times {
        8000.. => limit::YAKUMAN,
        6000.. => limit::SANBAIMAN,
        4000.. => limit::BAIMAN,
        3000.. => limit::HANEMAN,
        2000.. => limit::MANGAN,
        _ => limit::NONE,
    }
}

/// The value of a win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Score {
    /// Tenhou yaku ids with their han, in Tenhou's order ([`yaku::TENHOU_ORDER`]); empty for a yakuman.
    pub yaku: Vec<(u8, u8)>,
    /// Tenhou yakuman ids in Tenhou's order; each counts once.
    pub yakuman: Vec<u8>,
    /// Han of the yaku and dora (13 per yakuman).
    pub han: u32,
    pub fu: u32,
    /// One of [`limit`].
    pub limit: u8,
    /// The points as AGARI `ten` shows them: the hand's value before honba and sticks (for a tsumo, the sum
    /// of the payments).
    pub points: i32,
    /// Base points: fu x 2^(2 + han), or the limit's (2000 for a mangan ... 8000 per yakuman).
    pub basic: i32,
    pub dealer: bool,
    pub tsumo: bool,
}

/// Rounds up to the next hundred.
fn ceil100(x: i32) -> i32 {
    (x + 99) / 100 * 100
}

/// What each payer owes for a tsumo of `basic` (before honba): (dealer's share, each non-dealer's share).
fn tsumo_shares(basic: i32, dealer_won: bool) -> (i32, i32) {
    if dealer_won {
        (0, ceil100(2 * basic))
    } else {
        (ceil100(2 * basic), ceil100(basic))
    }
}

/// Points of a hand of `basic` base points (AGARI `ten`): a ron's payment, or the sum of a tsumo's.
fn points_of(basic: i32, dealer: bool, tsumo: bool, players: u8) -> i32 {
    let others = i32::from(players) - 1;
    match (tsumo, dealer) {
        (false, true) => ceil100(6 * basic),
        (false, false) => ceil100(4 * basic),
        (true, true) => others * tsumo_shares(basic, true).1,
        (true, false) => {
            let (d, n) = tsumo_shares(basic, false);
            d + (others - 1) * n
        }
    }
}

/// Base points and limit code ([`limit`]) of `han` and `fu`: fu x 2^(2 + han) up to a mangan, then by the
/// han (13 and more: a counted yakuman). The one table of Tenhou's limits.
pub fn basic_of(han: u32, fu: u32) -> (i32, u8) {
    match han {
        0..=4 => {
            let b = (fu as i32) << (2 + han);
            if b >= 2000 {
                (2000, limit::MANGAN)
            } else {
                (b, limit::NONE)
            }
        }
        5 => (2000, limit::MANGAN),
        6 | 7 => (3000, limit::HANEMAN),
        8..=10 => (4000, limit::BAIMAN),
        11 | 12 => (6000, limit::SANBAIMAN),
        _ => (8000, limit::YAKUMAN),
    }
}

/// A set of the winning hand: from the concealed decomposition or a meld.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Group {
    kind: GroupKind,
    /// The first kind of a sequence, the kind of a triplet or kan.
    first: Kind,
    /// Counts as concealed for fu and (an)kou: closed sets, ankan; not a triplet completed by ron.
    concealed: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GroupKind {
    Sequence,
    Triplet,
    Kan,
}

impl Group {
    fn is_sequence(&self) -> bool {
        self.kind == GroupKind::Sequence
    }
    /// Contains a terminal or an honor.
    fn has_yaochuu(&self) -> bool {
        if self.is_sequence() {
            matches!(self.first.digit(), 1 | 7)
        } else {
            self.first.is_yaochuu()
        }
    }
    fn has_honor(&self) -> bool {
        self.first.is_honor()
    }
}

/// How the winning tile completed the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wait {
    Ryanmen,
    Kanchan,
    Penchan,
    Shanpon,
    Tanki,
}

/// The open sets (melds) of the hand; north extractions are not sets.
fn meld_groups(melds: &[Meld]) -> Vec<Group> {
    melds
        .iter()
        .filter_map(|m| {
            let first = m.base_kind();
            let (kind, concealed) = match m.kind {
                MeldKind::Chi => (GroupKind::Sequence, false),
                MeldKind::Pon => (GroupKind::Triplet, false),
                MeldKind::Kakan | MeldKind::Daiminkan => (GroupKind::Kan, false),
                MeldKind::Ankan => (GroupKind::Kan, true),
                MeldKind::Nuki => return None,
            };
            Some(Group { kind, first, concealed })
        })
        .collect()
}

/// The yaku of a hand, in the making.
#[derive(Default)]
struct YakuList(Vec<(u8, u8)>);

impl YakuList {
    fn add(&mut self, id: u8, han: u8) {
        self.0.push((id, han));
    }
    /// A yaku at its han for a closed or an open hand ([`yaku::han`]); none when it needs a closed hand.
    fn add_yaku(&mut self, closed: bool, id: u8) {
        let h = yaku::han(id, closed);
        if h > 0 {
            self.add(id, h);
        }
    }
    fn han(&self) -> u32 {
        self.0.iter().map(|&(_, h)| u32::from(h)).sum()
    }
}

/// The facts of a win shared by every reading.
struct WinFacts<'a> {
    ctx: &'a WinContext,
    win: Kind,
    closed: bool,
    /// Every tile of the hand by kind: concealed and melded (kans count four; norths not included).
    all: Counts,
    open: Vec<Group>,
}

impl WinFacts<'_> {
    /// Yaku that do not depend on the reading: riichi, tsumo, the situational ones, tanyao, the flushes.
    fn common_yaku(&self, y: &mut YakuList) {
        let ctx = self.ctx;
        if self.closed && ctx.tsumo {
            y.add_yaku(true, 0);
        }
        match ctx.riichi {
            RiichiKind::None => {}
            RiichiKind::Riichi => y.add_yaku(true, 1),
            RiichiKind::Double => y.add_yaku(true, 21),
        }
        if ctx.ippatsu && ctx.riichi != RiichiKind::None {
            y.add_yaku(true, 2);
        }
        if ctx.chankan {
            y.add_yaku(self.closed, 3);
        }
        if ctx.rinshan && ctx.tsumo {
            y.add_yaku(self.closed, 4);
        }
        if ctx.last_tile && !ctx.rinshan {
            y.add_yaku(self.closed, if ctx.tsumo { 5 } else { 6 });
        }
        let kinds = || (0..KINDS).filter(|&k| self.all[k] > 0).map(|k| Kind::from_index(k as u8));
        if kinds().all(|k| !k.is_yaochuu()) && (self.closed || ctx.ruleset.open_tanyao) {
            y.add_yaku(self.closed, 8);
        }
        let suits: Vec<Suit> = {
            let mut s: Vec<Suit> = kinds().filter_map(Kind::suit).collect();
            s.dedup();
            s
        };
        if suits.len() == 1 {
            if kinds().any(Kind::is_honor) {
                y.add_yaku(self.closed, 34);
            } else {
                y.add_yaku(self.closed, 35);
            }
        }
        if kinds().all(Kind::is_yaochuu) {
            y.add_yaku(self.closed, 31);
        }
    }

    /// The yaku and the fu of one regular reading: the concealed sets, the pair and the wait.
    fn regular(&self, pair: Kind, groups: &[Group], wait: Wait) -> (YakuList, u32) {
        let ctx = self.ctx;
        let mut y = YakuList::default();
        self.common_yaku(&mut y);
        let value_pair =
            |k: Kind| u32::from(k.is_dragon()) + u32::from(k == ctx.seat_wind) + u32::from(k == ctx.round_wind);
        let pinfu =
            self.closed && groups.iter().all(Group::is_sequence) && value_pair(pair) == 0 && wait == Wait::Ryanmen;
        if pinfu {
            y.add_yaku(self.closed, 7);
        }
        // identical concealed sequences: iipeikou, or ryanpeikou for two such pairs
        if self.closed {
            let mut seqs: Vec<Kind> = groups.iter().filter(|g| g.is_sequence()).map(|g| g.first).collect();
            seqs.sort_unstable();
            let mut peikou = 0;
            let mut i = 0;
            while i + 1 < seqs.len() {
                if seqs[i] == seqs[i + 1] {
                    peikou += 1;
                    i += 2;
                } else {
                    i += 1;
                }
            }
            match peikou {
                1 => y.add_yaku(self.closed, 9),
                2 => y.add_yaku(self.closed, 32),
                _ => {}
            }
        }
        let sets = || groups.iter().filter(|g| !g.is_sequence());
        // Tenhou lists yakuhai set by set (concealed ones, then melds as called), a double wind round wind first
        for g in sets() {
            for id in crate::yaku::of_set(g.first, ctx.seat_wind, ctx.round_wind) {
                y.add_yaku(self.closed, id);
            }
        }
        let has_sequence = groups.iter().any(Group::is_sequence);
        if has_sequence && pair.is_yaochuu() && groups.iter().all(Group::has_yaochuu) {
            if pair.is_honor() || groups.iter().any(Group::has_honor) {
                y.add_yaku(self.closed, 23);
            } else {
                y.add_yaku(self.closed, 33);
            }
        }
        let seq_at = |suit: Suit, digit: u8| groups.iter().any(|g| g.is_sequence() && g.first == suit.kind(digit));
        if Suit::ALL.iter().any(|&s| seq_at(s, 1) && seq_at(s, 4) && seq_at(s, 7)) {
            y.add_yaku(self.closed, 24);
        }
        if (1..=7).any(|d| Suit::ALL.iter().all(|&s| seq_at(s, d))) {
            y.add_yaku(self.closed, 25);
        }
        let set_at = |suit: Suit, digit: u8| sets().any(|g| g.first == suit.kind(digit));
        if (1..=9).any(|d| Suit::ALL.iter().all(|&s| set_at(s, d))) {
            y.add_yaku(self.closed, 26);
        }
        let kans = groups.iter().filter(|g| g.kind == GroupKind::Kan).count();
        if kans == 3 {
            y.add_yaku(self.closed, 27);
        }
        if !has_sequence {
            y.add_yaku(self.closed, 28);
        }
        if sets().filter(|g| g.concealed).count() == 3 {
            y.add_yaku(self.closed, 29);
        }
        if sets().filter(|g| g.first.is_dragon()).count() == 2 && pair.is_dragon() {
            y.add_yaku(self.closed, 30);
        }

        // fu: pinfu is 20 on a tsumo, 30 on a ron
        let fu = if pinfu {
            if ctx.tsumo {
                20
            } else {
                30
            }
        } else {
            let mut fu = 20 + 2 * value_pair(pair);
            if self.closed && !ctx.tsumo {
                fu += 10;
            }
            if ctx.tsumo {
                fu += 2;
            }
            if matches!(wait, Wait::Kanchan | Wait::Penchan | Wait::Tanki) {
                fu += 2;
            }
            for g in sets() {
                let base = if g.kind == GroupKind::Kan { 8 } else { 2 };
                fu += base * if g.first.is_yaochuu() { 2 } else { 1 } * if g.concealed { 2 } else { 1 };
            }
            // an open hand of no fu still counts 30
            if fu == 20 {
                30
            } else {
                fu.div_ceil(10) * 10
            }
        };
        (y, fu)
    }

    /// Every (groups, pair, wait) reading of a decomposition: one per place the winning tile can take.
    fn readings(&self, d: &Decomposition) -> Vec<(Vec<Group>, Wait)> {
        let mut out = Vec::new();
        let base: Vec<Group> = d
            .sets
            .iter()
            .map(|s| match *s {
                Set::Sequence(k) => Group { kind: GroupKind::Sequence, first: k, concealed: true },
                Set::Triplet(k) => Group { kind: GroupKind::Triplet, first: k, concealed: true },
            })
            .chain(self.open.iter().copied())
            .collect();
        let w = self.win;
        if d.pair == w {
            out.push((base.clone(), Wait::Tanki));
        }
        for (i, s) in d.sets.iter().enumerate() {
            // the same set twice gives the same reading
            if d.sets[..i].contains(s) {
                continue;
            }
            let wait = match *s {
                Set::Triplet(k) if k == w => Wait::Shanpon,
                Set::Sequence(k) if k == w => {
                    if k.digit() == 7 {
                        Wait::Penchan
                    } else {
                        Wait::Ryanmen
                    }
                }
                Set::Sequence(k) if k.index() + 1 == w.index() => Wait::Kanchan,
                Set::Sequence(k) if k.index() + 2 == w.index() => {
                    if k.digit() == 1 {
                        Wait::Penchan
                    } else {
                        Wait::Ryanmen
                    }
                }
                _ => continue,
            };
            let mut groups = base.clone();
            if wait == Wait::Shanpon && !self.ctx.tsumo {
                // a triplet completed by another player's tile is not concealed
                groups[i].concealed = false;
            }
            out.push((groups, wait));
        }
        out
    }

    /// Yakuman of a regular reading (the hand-shape ones; tenhou, chiihou, kokushi are checked apart).
    fn regular_yakuman(&self, pair: Kind, groups: &[Group], wait: Wait, out: &mut Vec<u8>) {
        let sets: Vec<&Group> = groups.iter().filter(|g| !g.is_sequence()).collect();
        if sets.len() == 4 && sets.iter().all(|g| g.concealed) {
            out.push(if wait == Wait::Tanki { 41 } else { 40 });
        }
        if sets.iter().filter(|g| g.first.is_dragon()).count() == 3 {
            out.push(39);
        }
        let winds = sets.iter().filter(|g| g.first.is_wind()).count();
        if winds == 4 {
            out.push(49);
        } else if winds == 3 && pair.is_wind() {
            out.push(50);
        }
        if groups.iter().filter(|g| g.kind == GroupKind::Kan).count() == 4 {
            out.push(51);
        }
        // nine gates: closed, one suit, 1112345678999 plus one
        if self.closed && self.open.is_empty() {
            if let Some(suit) = self.win.suit() {
                let c: Vec<u8> = (1..=9).map(|d| self.all[usize::from(suit.kind(d).index())]).collect();
                let need = [3, 1, 1, 1, 1, 1, 1, 1, 3];
                let total: u8 = c.iter().sum();
                if total == 14 && c.iter().zip(need).all(|(&have, n)| have >= n) {
                    // pure: the 13 tiles before the win were exactly 1112345678999
                    let extra = (0..9).find(|&i| c[i] > need[i]).map(|i| suit.kind(i as u8 + 1));
                    out.push(if extra == Some(self.win) { 46 } else { 45 });
                }
            }
        }
    }

    /// Yakuman of the tiles alone, in any form: tsuuiisou, ryuuiisou, chinroutou.
    fn tile_yakuman(&self, out: &mut Vec<u8>) {
        let present = || (0..KINDS).filter(|&k| self.all[k] > 0).map(|k| Kind::from_index(k as u8));
        if present().all(Kind::is_honor) {
            out.push(42);
        }
        let green =
            |k: Kind| k.index() == 32 || (k.suit() == Some(Suit::Sou) && matches!(k.digit(), 2 | 3 | 4 | 6 | 8));
        if present().all(green) {
            out.push(43);
        }
        if present().all(Kind::is_terminal) {
            out.push(44);
        }
    }

    /// Dora, ura dora and red fives of the hand (listed as Tenhou lists them).
    fn dora_yaku(&self, concealed: &[Tile], melds: &[Meld], y: &mut YakuList) {
        let ctx = self.ctx;
        let rules = ctx.ruleset;
        let count = |indicators: &[Tile]| rules.count_dora(&self.all, indicators);
        let norths = melds.iter().filter(|m| m.kind == MeldKind::Nuki).count() as u32;
        // each extracted north is a dora of its own, and counts again for every indicator pointing to north
        let north_dora = ctx.dora_indicators.iter().filter(|i| rules.dora_of(i.kind()) == Kind::NORTH).count() as u32;
        let dora = count(&ctx.dora_indicators) + norths * (1 + north_dora);
        if dora > 0 {
            y.add(52, dora as u8);
        }
        if ctx.riichi != RiichiKind::None {
            let ura_north = ctx.ura_indicators.iter().filter(|i| rules.dora_of(i.kind()) == Kind::NORTH).count();
            y.add(53, (count(&ctx.ura_indicators) + norths * ura_north as u32) as u8);
        }
        if rules.red_fives {
            let meld_tiles = melds.iter().filter(|m| m.kind != MeldKind::Nuki).flat_map(|m| m.tiles().iter());
            let red = concealed.iter().chain(meld_tiles).filter(|t| t.is_red_id()).count();
            if red > 0 {
                y.add(54, red as u8);
            }
        }
    }
}

/// Scores a win: `concealed` holds the closed tiles including the winning tile, `melds` the calls (and
/// north extractions) in the order they were made (AGARI `m` lists them newest first: reverse it); the
/// order only sets the order of the yakuhai in [`Score::yaku`]. `None` when the hand is not complete or has no yaku (dora alone is not a yaku).
pub fn score(concealed: &[Tile], win_tile: Tile, melds: &[Meld], ctx: &WinContext) -> Option<Score> {
    let mut counts: Counts = [0; KINDS];
    for t in concealed {
        counts[usize::from(t.kind().index())] += 1;
    }
    let closed = melds.iter().all(|m| matches!(m.kind, MeldKind::Ankan | MeldKind::Nuki));
    let mut all = counts;
    for m in melds.iter().filter(|m| m.kind != MeldKind::Nuki) {
        for t in m.tiles() {
            all[usize::from(t.kind().index())] += 1;
        }
    }
    let facts = WinFacts { ctx, win: win_tile.kind(), closed, all, open: meld_groups(melds) };
    let f = forms(&counts);
    if !f.is_complete() {
        return None;
    }
    let dealer = ctx.dealer();
    let finish = |yaku: Vec<(u8, u8)>, yakuman: Vec<u8>, han: u32, fu: u32, basic: i32, limit: u8| Score {
        yaku,
        yakuman,
        han,
        fu,
        limit,
        points: points_of(basic, dealer, ctx.tsumo, ctx.ruleset.players),
        basic,
        dealer,
        tsumo: ctx.tsumo,
    };

    // yakuman first: they replace every other yaku
    let mut situational = Vec::new();
    if ctx.first_draw && ctx.tsumo {
        situational.push(if dealer { 37 } else { 38 });
    }
    facts.tile_yakuman(&mut situational);
    let mut best_yakuman: Option<(Vec<u8>, u32)> = None;
    let mut consider = |mut ids: Vec<u8>, fu: u32| {
        ids.sort_unstable();
        ids.dedup();
        ids.sort_by_key(|&id| yaku::tenhou_rank(id));
        if !ids.is_empty() && best_yakuman.as_ref().is_none_or(|(b, bf)| (ids.len(), fu) > (b.len(), *bf)) {
            best_yakuman = Some((ids, fu));
        }
    };
    if f.thirteen_orphans {
        let mut ids = situational.clone();
        // the 13-sided wait: the pair is the winning tile
        ids.push(if counts[usize::from(facts.win.index())] == 2 { 48 } else { 47 });
        consider(ids, 0);
    }
    if f.seven_pairs {
        consider(situational.clone(), 25);
    }
    let decomps = decompositions(&counts);
    let mut regular: Vec<(Kind, Vec<Group>, Wait)> = Vec::new();
    for d in &decomps {
        for (groups, wait) in facts.readings(d) {
            regular.push((d.pair, groups, wait));
        }
    }
    for (pair, groups, wait) in &regular {
        let mut ids = situational.clone();
        facts.regular_yakuman(*pair, groups, *wait, &mut ids);
        let (_, fu) = facts.regular(*pair, groups, *wait);
        consider(ids, fu);
    }
    if let Some((ids, fu)) = best_yakuman {
        let n = ids.len() as i32;
        return Some(finish(Vec::new(), ids, 13 * n as u32, fu, 8000 * n, limit::YAKUMAN));
    }

    // the best ordinary reading
    let mut best: Option<Score> = None;
    let mut offer = |mut y: YakuList, fu: u32| {
        if y.0.is_empty() {
            return;
        }
        facts.dora_yaku(concealed, melds, &mut y);
        // stable: the yakuhai keep the order of their sets
        y.0.sort_by_key(|&(id, _)| yaku::tenhou_rank(id));
        let han = y.han();
        let (basic, lim) = basic_of(han, fu);
        let s = finish(y.0, Vec::new(), han, fu, basic, lim);
        if best.as_ref().is_none_or(|b| (s.points, s.han, s.fu) > (b.points, b.han, b.fu)) {
            best = Some(s);
        }
    };
    if f.seven_pairs {
        let mut y = YakuList::default();
        facts.common_yaku(&mut y);
        y.add_yaku(true, 22);
        offer(y, 25);
    }
    for (pair, groups, wait) in &regular {
        let (y, fu) = facts.regular(*pair, groups, *wait);
        offer(y, fu);
    }
    best
}

/// Score changes (points, by seat) of one win, honba and riichi sticks included. For the second winner of
/// a double ron pass `honba = 0` and `kyotaku = 0`: both go to the first winner in turn order.
/// With `pao` (the player responsible for a daisangen or daisuushii), a tsumo is paid by the pao player
/// alone and a ron is split in halves between the pao player and the discarder, the pao player paying the
/// honba too (Tenhou: 16,600 and 16,000 for a non-dealer's yakuman at 2 honba). When the responsible
/// player is the discarder, Tenhou writes no `paoWho` and the ron is a plain one: pass `None` (see
/// [`pao_payer`]).
#[allow(clippy::too_many_arguments)]
pub fn win_deltas(
    score: &Score,
    ruleset: Ruleset,
    winner: u8,
    from: u8,
    dealer: u8,
    pao: Option<u8>,
    honba: u8,
    kyotaku: u8,
) -> [i32; 4] {
    let mut d = [0i32; 4];
    let players = ruleset.players;
    let honba_total = ruleset.honba_points() * i32::from(honba);
    let (w, from) = (usize::from(winner), usize::from(from));
    if w != from {
        let total = score.points + honba_total;
        match pao {
            // the responsible player pays half of the hand and all the honba (Tenhou)
            Some(p) if usize::from(p) != from => {
                let half = score.points / 2;
                d[from] -= half;
                d[usize::from(p)] -= total - half;
            }
            _ => d[from] -= total,
        }
        d[w] += total;
    } else if let Some(p) = pao {
        let total = score.points + honba_total;
        d[usize::from(p)] -= total;
        d[w] += total;
    } else {
        let (dealer_share, other_share) = tsumo_shares(score.basic, score.dealer);
        for s in 0..usize::from(players) {
            if s == w {
                continue;
            }
            let pay = if s == usize::from(dealer) { dealer_share } else { other_share } + 100 * i32::from(honba);
            d[s] -= pay;
            d[w] += pay;
        }
    }
    d[w] += 1000 * i32::from(kyotaku);
    d
}

/// The seat Tenhou names in `paoWho` for a win: the seat that fed the last set of a daisangen or daisuushii
/// (`responsible`), when the win is one of those yakuman and that seat is not the discarder (dealing in
/// yourself makes it a plain ron, and Tenhou then writes no `paoWho`).
pub fn pao_payer(score: &Score, responsible: Option<u8>, from: u8) -> Option<u8> {
    responsible.filter(|&p| p != from && score.yakuman.iter().any(|&y| y == 39 || y == 49))
}

/// Tenpai payments at an exhaustive draw: 3000 points (2000 with three players) from the noten seats to the
/// tenpai seats, split evenly; nothing when all or none are tenpai. Seats past `players` are ignored.
pub fn exhaustive_draw_deltas(tenpai: [bool; 4], players: u8) -> [i32; 4] {
    let n = usize::from(players);
    let pool = 1000 * (i32::from(players) - 1);
    let k = tenpai[..n].iter().filter(|&&t| t).count() as i32;
    let mut d = [0; 4];
    if k == 0 || k == i32::from(players) {
        return d;
    }
    for s in 0..n {
        d[s] = if tenpai[s] { pool / k } else { -pool / (i32::from(players) - k) };
    }
    d
}

/// Nagashi mangan: each such seat is paid a mangan as for a tsumo (tsumo-son with three players), without
/// honba; it replaces the tenpai payments.
pub fn nagashi_deltas(who: &[u8], dealer: u8, ruleset: Ruleset) -> [i32; 4] {
    let mut d = [0; 4];
    for &w in who {
        let mangan = Score {
            yaku: Vec::new(),
            yakuman: Vec::new(),
            han: 5,
            fu: 0,
            limit: limit::MANGAN,
            points: points_of(2000, w == dealer, true, ruleset.players),
            basic: 2000,
            dealer: w == dealer,
            tsumo: true,
        };
        let one = win_deltas(&mangan, ruleset, w, w, dealer, None, 0, 0);
        for s in 0..4 {
            d[s] += one[s];
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::HandNotation;

    #[test]
    fn dora_are_counted_by_the_kind_each_indicator_shows() {
        let counts = "55p123m456s99m777z".parse::<HandNotation>().unwrap().counts;
        let id = |kind: u8| Tile::from_id(kind * 4);
        // 4p shows 5p (two held), 9p wraps to 1p (none), the green dragon shows the red (three held)
        assert_eq!(Ruleset::TENHOU_4P.count_dora(&counts, &[id(12)]), 2);
        assert_eq!(Ruleset::TENHOU_4P.count_dora(&counts, &[id(17)]), 0);
        assert_eq!(Ruleset::TENHOU_4P.count_dora(&counts, &[id(12), id(32)]), 5);
        // a 1m indicator shows 2m with four players (one held), 9m with three (two held)
        assert_eq!(Ruleset::TENHOU_4P.count_dora(&counts, &[id(0)]), 1);
        assert_eq!(Ruleset::TENHOU_3P.count_dora(&counts, &[id(0)]), 2);
    }

    #[test]
    fn limit_from_the_points() {
        assert_eq!(limit_of_points(8000, false, false), limit::MANGAN);
        assert_eq!(limit_of_points(12000, true, false), limit::MANGAN);
        assert_eq!(limit_of_points(7700, false, false), limit::NONE);
        assert_eq!(limit_of_points(48000, true, false), limit::YAKUMAN);
        assert_eq!(limit_of_points(18000, true, false), limit::HANEMAN);
        assert_eq!(limit_of_points(1000, false, true), limit::YAKUMAN);
        // sanma tsumo (tsumo loss): a mangan is 2000 + 4000 for a non-dealer, 4000 + 4000 for the dealer
        assert_eq!(limit_of_sanma_tsumo(6000, false, false), limit::MANGAN);
        assert_eq!(limit_of_sanma_tsumo(8000, true, false), limit::MANGAN);
        assert_eq!(limit_of_sanma_tsumo(5900, false, false), limit::NONE);
        assert_eq!(limit_of_sanma_tsumo(9000, false, false), limit::HANEMAN);
    }

    /// Tiles of a hand in notation: plain copies (the highest ids first), a red five where written `0`.
    fn tiles(s: &str) -> Vec<Tile> {
        let n: HandNotation = s.parse().unwrap();
        let mut out = Vec::new();
        for (k, &c) in n.counts.iter().enumerate() {
            let kind = Kind::from_index(k as u8);
            let red = kind.digit() == 5 && kind.suit().is_some_and(|s| n.red & (1 << (s as u8)) != 0);
            let mut ids: Vec<Tile> = kind.ids().into_iter().rev().collect();
            if red {
                ids.rotate_right(1);
            }
            out.extend(ids.into_iter().take(usize::from(c)));
        }
        out
    }

    fn ctx() -> WinContext {
        WinContext {
            ruleset: Ruleset::TENHOU_4P,
            tsumo: false,
            seat_wind: Kind::from_index(28),
            round_wind: Kind::EAST,
            riichi: RiichiKind::None,
            ippatsu: false,
            rinshan: false,
            chankan: false,
            last_tile: false,
            first_draw: false,
            dora_indicators: Vec::new(),
            ura_indicators: Vec::new(),
        }
    }

    fn win(hand: &str, w: &str, c: &WinContext) -> Option<Score> {
        let t = tiles(hand);
        let wk: Kind = w.parse().unwrap();
        let wt = *t.iter().rev().find(|x| x.kind() == wk).unwrap();
        score(&t, wt, &[], c)
    }

    #[test]
    fn points_table() {
        // independent values from the standard score table
        assert_eq!(points_of(basic_of(1, 30).0, false, false, 4), 1000);
        assert_eq!(points_of(basic_of(3, 30).0, false, false, 4), 3900);
        assert_eq!(points_of(basic_of(4, 30).0, false, false, 4), 7700);
        assert_eq!(points_of(basic_of(4, 40).0, false, false, 4), 8000);
        assert_eq!(points_of(basic_of(2, 25).0, true, false, 4), 2400);
        assert_eq!(points_of(basic_of(1, 30).0, false, true, 4), 300 + 300 + 500);
        assert_eq!(points_of(basic_of(4, 20).0, true, true, 4), 3 * 2600);
        assert_eq!(points_of(basic_of(13, 30).0, false, false, 4), 32000);
        assert_eq!(points_of(2000, false, true, 3), 4000 + 2000, "tsumo-son");
    }

    #[test]
    fn pinfu_tanyao_and_fu() {
        let mut c = ctx();
        c.riichi = RiichiKind::Riichi;
        let s = win("234m567p33456s678s", "8s", &c).unwrap();
        assert_eq!(s.yaku, vec![(1, 1), (7, 1), (8, 1), (53, 0)]);
        assert_eq!((s.fu, s.points), (30, 3900));
        // kanchan: no pinfu, 40 fu with ron
        let s = win("234m567p33456s68s7s", "7s", &c).unwrap();
        assert_eq!(s.yaku, vec![(1, 1), (8, 1), (53, 0)]);
        assert_eq!(s.fu, 40);
    }

    #[test]
    fn no_yaku_and_yakuhai() {
        let c = ctx();
        // an open-looking closed hand with no yaku on a ron
        assert!(win("123m456p789s11z333z", "3z", &c).is_none());
        // triplet of haku
        let s = win("123m456p789s555z66z", "6z", &c).unwrap();
        assert_eq!(s.yaku, vec![(18, 1)]);
    }

    #[test]
    fn draws_and_nagashi() {
        assert_eq!(exhaustive_draw_deltas([true, false, false, false], 4), [3000, -1000, -1000, -1000]);
        assert_eq!(exhaustive_draw_deltas([true, true, false, false], 4), [1500, 1500, -1500, -1500]);
        assert_eq!(exhaustive_draw_deltas([true, false, false, false], 3), [2000, -1000, -1000, 0]);
        assert_eq!(nagashi_deltas(&[1], 0, Ruleset::TENHOU_4P), [-4000, 8000, -2000, -2000]);
        assert_eq!(nagashi_deltas(&[0], 1, Ruleset::TENHOU_3P), [6000, -4000, -2000, 0]);
    }
}
