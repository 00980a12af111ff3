//! Style bots: players whose parameters make them play differently, so that a simulated corpus holds
//! "players" with styles of their own for the miner and the imitator to find.
//!
//! Every style bot wins whenever it can, extracts norths, and discards from the tiles that keep its hand
//! closest to complete (least shanten). The parameters ([`Style`]) decide the rest: how ties among those
//! tiles are broken (at random, by tile acceptance, by leaning to tanyao, to terminals and value honors, to
//! one suit), whether it calls, whether it declares riichi, and when it folds to another player's riichi.
//! The shanten-greedy bot with random ties is mjai-manue's baseline as seed 001 describes it.

use arrayvec::ArrayVec;
use haifu_rules::shanten::{shanten, shanten_each};
use haifu_rules::{Counts, Kind, Meld, MeldKind, Tile, KINDS};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::action::Action;
use crate::bot::{Bot, RandomBot, TsumogiriBot, View};

/// How a discard is chosen among the ones that keep the least shanten.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lean {
    /// No preference: a random one.
    None,
    /// Most tiles that would lower the shanten (ukeire), counted over the tiles not yet seen.
    Acceptance,
    /// Terminals and honors go first.
    Tanyao,
    /// Middle tiles go first; terminals and honors, value honors above all, are kept.
    Chanta,
    /// Honors and the suits held least go first (keeps the longest suit: honitsu / chinitsu).
    Flush,
    /// Guest winds go first, value honors stay (to pon them); then acceptance.
    Yakuhai,
    /// Pairs and triplets stay, lone tiles go first (toitoi, seven pairs); then acceptance.
    Toitoi,
    /// Honors stay as safe tiles for later; terminals go first, then acceptance (a defensive hand shape).
    Honors,
    /// Honors go first, value honors last among them; then acceptance (cuts the honors early, as many
    /// players learn to).
    HonorsFirst,
    /// Runs stay, a copy of a pair goes first (the opposite of toitoi: a hand of sequences to chi); then
    /// acceptance.
    Runs,
}

/// The parameters of a style bot.
#[derive(Clone, Debug, PartialEq)]
pub struct Style {
    pub name: &'static str,
    pub lean: Lean,
    /// Calls chi and pon when the call lowers the shanten and the hand keeps a plausible yaku.
    pub calls: bool,
    /// Declares riichi when tenpai with a closed hand (else stays silent: dama).
    pub riichi: bool,
    /// Folds (discards the safest tile) when another seat is in riichi and its own hand is at least this
    /// many shanten from tenpai; `None`: never folds.
    pub fold_at: Option<i8>,
}

/// The named bots `haifu sim` and `haifu battle` know, with a one-line description each.
pub const BOT_NAMES: [(&str, &str); 13] = [
    ("tsumogiri", "discards the tile it drew, never calls, wins when it can"),
    ("random", "a random legal action"),
    ("greedy", "least shanten, random among equal discards, riichi when tenpai, no calls (mjai-manue's baseline)"),
    ("efficiency", "least shanten, then most tile acceptance; riichi, no calls"),
    ("tanyao", "least shanten, terminals and honors first; calls simples"),
    ("chanta", "least shanten, keeps terminals and value honors; calls value honors"),
    ("flush", "least shanten, keeps its longest suit; calls within it"),
    ("yakuhai", "least shanten, guest winds first, keeps value honors and pons them"),
    ("toitoi", "least shanten, keeps pairs and triplets, lone tiles first; pons"),
    ("caller", "least shanten, keeps runs and breaks pairs; calls whenever it gets closer with a yaku in sight"),
    ("folder", "least shanten, keeps honors as safe tiles; folds to a riichi when two or more from tenpai"),
    ("dama", "efficiency, never declares riichi"),
    ("honors", "least shanten, cuts honors first (value honors last among them), then acceptance; no calls"),
];

impl Style {
    /// The preset of a bot name (see [`BOT_NAMES`]); `None` for tsumogiri, random and unknown names.
    pub fn preset(name: &str) -> Option<Style> {
        let s = |name, lean, calls, riichi, fold_at| Style { name, lean, calls, riichi, fold_at };
        Some(match name {
            "greedy" => s("greedy", Lean::None, false, true, None),
            "efficiency" => s("efficiency", Lean::Acceptance, false, true, None),
            "tanyao" => s("tanyao", Lean::Tanyao, true, true, None),
            "chanta" => s("chanta", Lean::Chanta, true, true, None),
            "flush" => s("flush", Lean::Flush, true, true, None),
            "yakuhai" => s("yakuhai", Lean::Yakuhai, true, true, None),
            "toitoi" => s("toitoi", Lean::Toitoi, true, true, None),
            "caller" => s("caller", Lean::Runs, true, true, Some(3)),
            "folder" => s("folder", Lean::Honors, false, true, Some(2)),
            "dama" => s("dama", Lean::Acceptance, false, false, None),
            "honors" => s("honors", Lean::HonorsFirst, false, true, None),
            _ => return None,
        })
    }
}

/// Makes the bot of a name (see [`BOT_NAMES`]), seeded.
pub fn bot_by_name(name: &str, seed: u64) -> Result<Box<dyn Bot + Send>, String> {
    match name {
        "tsumogiri" => Ok(Box::new(TsumogiriBot)),
        "random" => Ok(Box::new(RandomBot::new(seed))),
        _ => Style::preset(name).map(|s| Box::new(StyleBot::new(s, seed)) as Box<dyn Bot + Send>).ok_or_else(|| {
            let known: Vec<&str> = BOT_NAMES.iter().map(|(n, _)| *n).collect();
            format!("unknown bot {name:?} (known: {})", known.join(", "))
        }),
    }
}

/// A boxed bot (as [`bot_by_name`] makes them) plays like the bot inside, so adapters can wrap it.
impl<B: Bot + ?Sized> Bot for Box<B> {
    fn decide(&mut self, view: &View<'_>, legal: &[Action]) -> Action {
        (**self).decide(view, legal)
    }
}

/// A bot playing a [`Style`].
#[derive(Clone, Debug)]
pub struct StyleBot {
    pub style: Style,
    rng: SmallRng,
}

impl StyleBot {
    pub fn new(style: Style, seed: u64) -> StyleBot {
        StyleBot { style, rng: SmallRng::seed_from_u64(seed) }
    }
}

fn idx(k: Kind) -> usize {
    usize::from(k.index())
}

/// Tiles of each kind this seat has seen: its hand, every meld, every river, the dora indicators.
fn seen(view: &View<'_>) -> Counts {
    let mut c = *view.hand().counts();
    let melded = view.table.seats.iter().flat_map(|s| s.melds.iter()).flat_map(|m| m.tiles().iter());
    let rivers = view.table.seats.iter().flat_map(|s| s.river.iter()).filter(|t| !t.called_away).map(|t| &t.tile);
    for t in melded.chain(rivers).chain(view.table.dora.iter()) {
        c[idx(t.kind())] += 1;
    }
    c
}

/// Value honors for this seat: dragons, its seat wind, the round wind.
fn is_value(view: &View<'_>, k: Kind) -> bool {
    let n = view.table.players.max(3);
    let seat_wind = Kind::EAST.index() + (view.seat + n - view.table.dealer) % n;
    k.is_dragon() || k.index() == seat_wind || k.index() == Kind::EAST.index() + view.table.kyoku / 4
}

/// Weight of a lean's own preference over tile acceptance (at most 136 tiles), which breaks its ties.
const PRIMARY: f64 = 1000.0;

/// Tiles that would lower the shanten of `counts` (13 - 3m tiles), counted over the unseen copies.
fn acceptance(counts: &Counts, current: i8, seen: &Counts) -> u32 {
    let after = shanten_each(counts, 1);
    (0..KINDS).filter(|&k| after[k] < current && seen[k] < 4).map(|k| u32::from(4 - seen[k])).sum()
}

impl StyleBot {
    /// Higher is discarded first among the tiles that keep the least shanten.
    fn lean_score(&mut self, view: &View<'_>, k: Kind, after: &Counts, s: i8, seen: &Counts) -> f64 {
        match self.style.lean {
            Lean::None => 0.0,
            Lean::Acceptance => f64::from(acceptance(after, s, seen)),
            Lean::Tanyao => f64::from(u8::from(k.is_yaochuu())) * PRIMARY + f64::from(acceptance(after, s, seen)),
            Lean::Chanta => {
                let keep = if k.is_honor() && is_value(view, k) {
                    3.0
                } else if k.is_yaochuu() {
                    2.0
                } else if matches!(k.digit(), 2 | 8) {
                    1.0
                } else {
                    0.0
                };
                -keep * PRIMARY + f64::from(acceptance(after, s, seen))
            }
            Lean::Flush => {
                let counts = view.hand().counts();
                let suit_len = |k: Kind| -> u32 {
                    match k.suit() {
                        None => 0,
                        Some(su) => (1..=9).map(|d| u32::from(counts[idx(su.kind(d))])).sum(),
                    }
                };
                let best = [Kind::from_index(0), Kind::from_index(9), Kind::from_index(18)]
                    .into_iter()
                    .map(suit_len)
                    .max()
                    .unwrap_or(0);
                // honors last among the off-suit tiles: they can join a half flush
                let first = if k.is_honor() {
                    50.0
                } else if suit_len(k) == best {
                    0.0
                } else {
                    200.0 - f64::from(suit_len(k))
                };
                first * PRIMARY + f64::from(acceptance(after, s, seen))
            }
            Lean::Yakuhai => {
                let first = if k.is_honor() && !is_value(view, k) {
                    2.0
                } else if k.is_honor() {
                    -2.0
                } else {
                    0.0
                };
                first * PRIMARY + f64::from(acceptance(after, s, seen))
            }
            Lean::Toitoi => {
                // `after` lacks the discarded copy: a tile held once is a lone tile
                let held = view.hand().counts()[idx(k)];
                let neighbours = k.suit().map_or(0, |_| {
                    let d = k.digit();
                    let near = |delta: i8| {
                        let nd = d as i8 + delta;
                        (1..=9).contains(&nd) && view.hand().counts()[(k.index() as i8 + delta) as usize] > 0
                    };
                    u8::from(near(-1)) + u8::from(near(1)) + u8::from(near(-2)) + u8::from(near(2))
                });
                let lone = if held == 1 { 10.0 - f64::from(neighbours) } else { -10.0 * f64::from(held) };
                lone * PRIMARY + f64::from(acceptance(after, s, seen))
            }
            Lean::HonorsFirst => {
                let first = match (k.is_honor(), is_value(view, k)) {
                    (true, false) => 2.0,
                    (true, true) => 1.0,
                    _ => 0.0,
                };
                first * PRIMARY + f64::from(acceptance(after, s, seen))
            }
            Lean::Runs => {
                let paired = view.hand().counts()[idx(k)] >= 2 && !k.is_honor();
                f64::from(u8::from(paired)) * PRIMARY + f64::from(acceptance(after, s, seen))
            }
            Lean::Honors => {
                let first = if k.is_honor() {
                    -2.0
                } else if k.is_terminal() {
                    2.0
                } else {
                    0.0
                };
                first * PRIMARY + f64::from(acceptance(after, s, seen))
            }
        }
    }

    /// The safest discard against the seats in riichi: their river's kinds (genbutsu) first, then honors
    /// by how many are seen, then terminals; random among equals.
    fn safest(&mut self, view: &View<'_>, discards: &[Tile], seen: &Counts) -> Tile {
        let threats: Vec<usize> = (0..usize::from(view.table.players.max(3)))
            .filter(|&s| s != usize::from(view.seat) && view.table.seats[s].riichi.is_declared())
            .collect();
        let danger = |t: Tile| -> u32 {
            let k = t.kind();
            if threats.iter().all(|&s| view.table.seats[s].river.iter().any(|r| r.tile.kind() == k)) {
                0
            } else if k.is_honor() {
                10 - u32::from(seen[idx(k)])
            } else if k.is_terminal() {
                20
            } else {
                30 + u32::from(matches!(k.digit(), 4..=6)) * 5
            }
        };
        let best = discards.iter().map(|&t| danger(t)).min().unwrap_or(0);
        let pool: Vec<Tile> = discards.iter().copied().filter(|&t| danger(t) == best).collect();
        pool[self.rng.random_range(0..pool.len())]
    }

    /// A plausible yaku for a hand (concealed counts plus melds): [`haifu_rules::yaku::yaku_in_sight`].
    fn yaku_in_sight(view: &View<'_>, counts: &Counts, melds: &[Meld]) -> bool {
        let mut all = *counts;
        for m in melds.iter().filter(|m| m.kind != MeldKind::Nuki) {
            for t in m.tiles() {
                all[idx(t.kind())] += 1;
            }
        }
        haifu_rules::yaku::yaku_in_sight(&all, |k| is_value(view, k))
    }

    /// Whether to take a chi or pon: it lowers the shanten (after the best discard) and keeps a yaku.
    fn wants_call(&self, view: &View<'_>, call: &Action) -> bool {
        let tiles = match call {
            Action::Chi { tiles } | Action::Pon { tiles } => tiles,
            _ => return false,
        };
        let Some((_, offered, _)) = view.offered else { return false };
        let mut after = *view.hand().counts();
        let before = shanten(&after);
        for t in tiles {
            after[idx(t.kind())] -= 1;
        }
        // the best discard after the call
        let after_call = shanten_each(&after, -1).into_iter().min().unwrap_or(i8::MAX);
        if after_call >= before {
            return false;
        }
        // the new meld: the two tiles and the called one
        let mut melds: Vec<Meld> = view.table.seats[usize::from(view.seat)].melds.to_vec();
        let kind = if matches!(call, Action::Pon { .. }) { MeldKind::Pon } else { MeldKind::Chi };
        if let Ok(m) = Meld::call(kind, tiles, offered, 0) {
            melds.push(m);
        }
        let fits = match self.style.lean {
            Lean::Tanyao => melds.iter().all(|m| m.tiles().iter().all(|t| !t.kind().is_yaochuu())),
            Lean::Chanta => melds.iter().all(|m| m.tiles().iter().any(|t| t.kind().is_yaochuu())),
            Lean::Toitoi => kind == MeldKind::Pon,
            Lean::Flush => {
                // the suit it holds most of, counting the melds
                let mut by_suit = [0u32; 3];
                for k in (0..27).filter(|&k| after[k] > 0) {
                    by_suit[k / 9] += u32::from(after[k]);
                }
                for t in melds.iter().flat_map(|m| m.tiles().iter()) {
                    if let Some(su) = t.kind().suit() {
                        by_suit[su as usize] += 1;
                    }
                }
                let main = (0..3).max_by_key(|&i| by_suit[i]).unwrap_or(0);
                melds.iter().all(|m| m.tiles().iter().all(|t| t.kind().suit().is_none_or(|su| su as usize == main)))
            }
            Lean::Yakuhai => kind == MeldKind::Pon && is_value(view, offered.kind()),
            _ => true,
        };
        fits && Self::yaku_in_sight(view, &after, &melds)
    }
}

impl Bot for StyleBot {
    fn decide(&mut self, view: &View<'_>, legal: &[Action]) -> Action {
        if let Some(a) = legal.iter().find(|a| matches!(a, Action::Tsumo | Action::Ron | Action::Nuki { .. })) {
            return *a;
        }
        if legal.contains(&Action::Pass) {
            // answering a discard: a call only if the style calls and it helps
            if self.style.calls && !view.table.seats[usize::from(view.seat)].riichi.is_declared() {
                if let Some(c) = legal.iter().find(|a| self.wants_call(view, a)) {
                    return *c;
                }
            }
            return Action::Pass;
        }
        if legal.contains(&Action::KyuushuKyuuhai) {
            return Action::KyuushuKyuuhai;
        }
        // an added kan costs nothing; the kan dora may help
        if let Some(a) = legal.iter().find(|a| matches!(a, Action::Kakan { .. })) {
            return *a;
        }
        // one tile per kind: the one just drawn (a tsumogiri), else a plain copy before a red five
        let discards: ArrayVec<Tile, KINDS> = {
            let mut per_kind: [Option<Tile>; KINDS] = [None; KINDS];
            for a in legal {
                let Action::Discard { tile: t, .. } = *a else { continue };
                let slot = &mut per_kind[idx(t.kind())];
                let better = match *slot {
                    None => true,
                    Some(old) => {
                        old != t
                            && Some(old) != view.own().last_draw
                            && (Some(t) == view.own().last_draw || old.is_red_id())
                    }
                };
                if better {
                    *slot = Some(t);
                }
            }
            per_kind.into_iter().flatten().collect()
        };
        if discards.is_empty() {
            return legal[0];
        }
        // what this seat has seen matters to acceptance and to folding only
        let seen = if self.style.lean == Lean::None && self.style.fold_at.is_none() { [0; KINDS] } else { seen(view) };
        let counts = *view.hand().counts();
        // shanten after each kind's discard
        let mut best_s = i8::MAX;
        let mut by_kind: ArrayVec<(Tile, i8), KINDS> = ArrayVec::new();
        let each = shanten_each(&counts, -1);
        for &t in &discards {
            let s = each[idx(t.kind())];
            best_s = best_s.min(s);
            by_kind.push((t, s));
        }
        let riichi_threat = (0..4).any(|s| s != usize::from(view.seat) && view.table.seats[s].riichi.is_declared())
            && !view.table.seats[usize::from(view.seat)].riichi.is_declared();
        let choice = if riichi_threat && self.style.fold_at.is_some_and(|f| best_s >= f) {
            self.safest(view, &discards, &seen)
        } else {
            let mut best: ArrayVec<Tile, KINDS> =
                by_kind.iter().filter(|&&(_, s)| s == best_s).map(|&(t, _)| t).collect();
            if best.len() > 1 && self.style.lean != Lean::None {
                let scores: ArrayVec<f64, KINDS> = best
                    .iter()
                    .map(|&t| {
                        let mut after = counts;
                        after[idx(t.kind())] -= 1;
                        self.lean_score(view, t.kind(), &after, best_s, &seen)
                    })
                    .collect();
                let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                best = best.into_iter().zip(scores).filter(|&(_, sc)| sc >= top - 1e-9).map(|(t, _)| t).collect();
            }
            best[self.rng.random_range(0..best.len())]
        };
        let riichi = Action::Discard { tile: choice, riichi: true };
        if self.style.riichi && legal.contains(&riichi) {
            return riichi;
        }
        Action::Discard { tile: choice, riichi: false }
    }
}
