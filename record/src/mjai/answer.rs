//! A seat's answers as mjai messages, and back: the one translation between the engine's moves ([`Action`])
//! and the protocol. The mjai bot writes its chosen action with [`message_of`]; the mjai server reads a
//! client's answer with [`action_of`] (and the bot checks a logged move the same way).
//!
//! mjai names tiles by kind and red five, so a message can stand for several of the seat's exact tiles: the
//! answer is read as the first of those that is legal now (a discard said to be `tsumogiri` as the tile just
//! drawn, another one as a copy from the hand), so that a record keeps the tsumogiri flag the client said.

use haifu_rules::{Kind, MeldKind, MjaiTile, Tile};

use super::message::{self as m, Message};
use crate::action::Action;
use crate::state::{Offer, TableState};

/// What a seat is answering: its own turn (after a draw or a call; `riichi_due`: its riichi discard after its
/// `reach`), or a tile another seat showed.
#[derive(Clone, Copy, Debug)]
pub struct Asked<'a> {
    pub seat: u8,
    /// The table as the seat knows it: its own hand, melds and last draw are read.
    pub table: &'a TableState,
    /// The seat's turn.
    pub turn: bool,
    pub riichi_due: bool,
    /// Another seat's tile the seat may win on or call: that seat, the tile, how it was shown.
    pub offered: Option<(u8, Tile, Offer)>,
    /// The game plays with red fives (mjai marks them).
    pub red: bool,
}

impl Asked<'_> {
    /// A tile as mjai names it at this table.
    pub fn name(&self, t: Tile) -> MjaiTile {
        MjaiTile { kind: t.kind(), red: self.red && t.is_red_id() }
    }

    fn names(&self, tiles: impl IntoIterator<Item = Tile>) -> Vec<MjaiTile> {
        tiles.into_iter().map(|t| self.name(t)).collect()
    }
}

fn pass() -> Message {
    Message::Pass(m::Pass {})
}

/// The message that says `action`. A riichi discard is announced first (`reach`); its `dahai` follows once the
/// riichi is due. Tsumogiri is said for the tile just drawn.
pub fn message_of(action: &Action, a: &Asked) -> Message {
    let me = a.seat;
    let own = &a.table.seats[usize::from(me)];
    let hand = || own.hand.tiles().iter();
    match *action {
        Action::Discard { riichi: true, .. } if !a.riichi_due => Message::Reach(m::Reach { actor: me }),
        Action::Discard { tile, .. } => {
            Message::Dahai(m::Dahai { actor: me, pai: a.name(tile), tsumogiri: Some(own.last_draw == Some(tile)) })
        }
        Action::Tsumo | Action::Ron => {
            let (target, tile) = match a.offered {
                Some((from, tile, _)) => (from, Some(tile)),
                None => (me, own.last_draw),
            };
            Message::Hora(m::Hora { actor: me, target, pai: tile.map(|t| a.name(t)), ..m::Hora::default() })
        }
        Action::Chi { tiles } | Action::Pon { tiles } => {
            let Some((from, tile, _)) = a.offered else { return pass() };
            let c = m::Call { actor: me, target: from, pai: a.name(tile), consumed: a.names(tiles) };
            if matches!(action, Action::Chi { .. }) {
                Message::Chi(c)
            } else {
                Message::Pon(c)
            }
        }
        Action::Daiminkan => {
            let Some((from, tile, _)) = a.offered else { return pass() };
            let consumed = a.names(hand().filter(|t| t.kind() == tile.kind()));
            Message::Daiminkan(m::Call { actor: me, target: from, pai: a.name(tile), consumed })
        }
        Action::Ankan { kind } => {
            Message::Ankan(m::Ankan { actor: me, consumed: a.names(hand().filter(|t| t.kind() == kind)) })
        }
        Action::Kakan { tile } => {
            let pon = own.melds.iter().find(|m| m.kind == MeldKind::Pon && m.base_kind() == tile.kind());
            let consumed = pon.map(|m| a.names(m.tiles().iter().copied())).unwrap_or_default();
            Message::Kakan(m::Kakan { actor: me, pai: a.name(tile), consumed })
        }
        Action::Nuki { tile } => Message::Nukidora(m::Nukidora { actor: me, pai: Some(a.name(tile)) }),
        Action::KyuushuKyuuhai => Message::Ryukyoku(m::Ryukyoku {
            reason: Some("kyushukyuhai".into()),
            actor: Some(me),
            ..m::Ryukyoku::default()
        }),
        Action::Pass => pass(),
    }
}

/// The seat that acts in a message, when it names one.
pub fn actor_of(msg: &Message) -> Option<u8> {
    match msg {
        Message::Tsumo(x) => Some(x.actor),
        Message::Dahai(x) => Some(x.actor),
        Message::Chi(x) | Message::Pon(x) | Message::Daiminkan(x) => Some(x.actor),
        Message::Kakan(x) => Some(x.actor),
        Message::Ankan(x) => Some(x.actor),
        Message::Nukidora(x) => Some(x.actor),
        Message::Reach(x) => Some(x.actor),
        Message::ReachAccepted(x) => Some(x.actor),
        Message::Hora(x) => Some(x.actor),
        Message::Ryukyoku(x) => x.actor,
        _ => None,
    }
}

/// The action an answer says, when it is among `legal` (the seat's legal actions now); otherwise why not,
/// `why_illegal` naming the rule a well-formed but illegal action breaks. A `reach` is read as the seat's riichi
/// discards being legal (its `dahai` comes after it: read with [`Asked::riichi_due`]); `none` as a pass.
#[allow(clippy::too_many_lines)] // a match over the mjai message kinds, one short arm each
pub fn action_of(
    msg: &Message,
    a: &Asked,
    legal: &[Action],
    why_illegal: impl Fn(&Action) -> String,
) -> Result<Action, String> {
    let seat = a.seat;
    if let Some(actor) = actor_of(msg).filter(|&x| x != seat) {
        return Err(format!("actor {actor} is not your seat ({seat})"));
    }
    let own = &a.table.seats[usize::from(seat)];
    let hand: Vec<Tile> = own.hand.tiles().iter().collect();
    let drawn = own.last_draw.filter(|t| hand.contains(t));
    let r = Reading { a, legal, why_illegal: &why_illegal, kind: msg.kind(), hand, drawn };
    match msg {
        Message::Pass(_) => {
            if legal.is_empty() || legal.contains(&Action::Pass) {
                Ok(Action::Pass)
            } else {
                Err("a pass is not an answer to your turn".into())
            }
        }
        Message::Hora(h) if h.target != seat => {
            r.offered_is(h.target, h.pai)?;
            r.check(Action::Ron)
        }
        Message::Chi(_) | Message::Pon(_) | Message::Daiminkan(_) => r.call(msg),
        Message::Reach(_)
        | Message::Dahai(_)
        | Message::Hora(_)
        | Message::Ankan(_)
        | Message::Kakan(_)
        | Message::Nukidora(_)
        | Message::Ryukyoku(_) => r.turn(msg),
        _ => Err(format!("`{}` is not an answer a player gives", r.kind)),
    }
}

/// One answer being read: the seat's hand and what is legal, for the checks each kind of message makes.
struct Reading<'a, 'b> {
    a: &'b Asked<'a>,
    legal: &'b [Action],
    why_illegal: &'b dyn Fn(&Action) -> String,
    kind: &'static str,
    hand: Vec<Tile>,
    drawn: Option<Tile>,
}

impl Reading<'_, '_> {
    fn check(&self, x: Action) -> Result<Action, String> {
        if self.legal.contains(&x) {
            Ok(x)
        } else {
            Err(format!("{x} is not legal now ({})", (self.why_illegal)(&x)))
        }
    }

    /// The first legal one of these, else why the first is not.
    fn first_legal(&self, cands: Vec<Action>, none: String) -> Result<Action, String> {
        match cands.iter().find(|x| self.legal.contains(*x)) {
            Some(x) => Ok(*x),
            None => cands.first().map_or(Err(none), |&x| self.check(x)),
        }
    }

    fn offered_is(&self, target: u8, pai: Option<MjaiTile>) -> Result<(), String> {
        let kind = self.kind;
        let (from, tile, _) = self.a.offered.ok_or_else(|| format!("`{kind}` answers only another seat's tile"))?;
        if target != from {
            return Err(format!("target {target}: the tile offered is seat {from}'s"));
        }
        match pai {
            Some(p) if p != self.a.name(tile) => Err(format!("pai {p}: the tile offered is {}", self.a.name(tile))),
            _ => Ok(()),
        }
    }

    fn same_tiles(&self, tiles: &[Tile], want: &[MjaiTile]) -> bool {
        let key = |t: &MjaiTile| (t.kind, t.red);
        let mut have = self.a.names(tiles.iter().copied());
        let mut want = want.to_vec();
        have.sort_by_key(key);
        want.sort_by_key(key);
        have == want
    }

    /// The hand's tiles of an mjai name, as the action `make` builds from each.
    fn in_hand(&self, pai: MjaiTile, make: impl Fn(Tile) -> Action) -> Vec<Action> {
        self.hand.iter().filter(|&&t| self.a.name(t) == pai).map(|&t| make(t)).collect()
    }

    /// A chi, pon or open kan of the tile offered.
    fn call(&self, msg: &Message) -> Result<Action, String> {
        let kind = self.kind;
        match msg {
            Message::Chi(c) | Message::Pon(c) => {
                self.offered_is(c.target, Some(c.pai))?;
                let chi = matches!(msg, Message::Chi(_));
                let found = self.legal.iter().find(|x| match x {
                    Action::Chi { tiles } if chi => self.same_tiles(tiles, &c.consumed),
                    Action::Pon { tiles } if !chi => self.same_tiles(tiles, &c.consumed),
                    _ => false,
                });
                let consumed: Vec<String> = c.consumed.iter().map(ToString::to_string).collect();
                found
                    .copied()
                    .ok_or_else(|| format!("{kind} of {} with {} is not legal now", c.pai, consumed.join(" ")))
            }
            Message::Daiminkan(c) => {
                self.offered_is(c.target, Some(c.pai))?;
                if c.consumed.len() != 3 || c.consumed.iter().any(|t| t.kind != c.pai.kind) {
                    return Err("daiminkan: consumed must be the three other copies".into());
                }
                self.check(Action::Daiminkan)
            }
            _ => unreachable!("action_of gives call() chi, pon and daiminkan only"),
        }
    }

    /// An answer to the seat's own turn: a discard, riichi, tsumo, a closed or added kan, a north, an abort.
    fn turn(&self, msg: &Message) -> Result<Action, String> {
        if !self.a.turn {
            return Err(format!("`{}` answers only your own turn", self.kind));
        }
        match msg {
            Message::Reach(_) => self
                .legal
                .iter()
                .find(|x| matches!(x, Action::Discard { riichi: true, .. }))
                .copied()
                .ok_or_else(|| "riichi is not legal now".to_string()),
            Message::Dahai(d) => {
                let mut cands: Vec<Tile> = self.hand.iter().copied().filter(|&t| self.a.name(t) == d.pai).collect();
                // the drawn tile first for a tsumogiri, last otherwise, so that the log keeps the flag the client said
                let tsumogiri = d.tsumogiri == Some(true);
                cands.sort_by_key(|&t| (Some(t) == self.drawn) != tsumogiri);
                let riichi = self.a.riichi_due;
                let cands = cands.into_iter().map(|tile| Action::Discard { tile, riichi }).collect();
                self.first_legal(cands, format!("{} is not in your hand", d.pai))
            }
            Message::Hora(h) => {
                if let (Some(p), Some(t)) = (h.pai, self.drawn) {
                    if p != self.a.name(t) {
                        return Err(format!("pai {p}: the tile drawn is {}", self.a.name(t)));
                    }
                }
                self.check(Action::Tsumo)
            }
            Message::Ankan(x) => match x.consumed.first().map(|t| t.kind) {
                Some(k) if x.consumed.len() == 4 && x.consumed.iter().all(|t| t.kind == k) => {
                    self.check(Action::Ankan { kind: k })
                }
                _ => Err("ankan: consumed must be four copies of one kind".into()),
            },
            Message::Kakan(k) => self.first_legal(
                self.in_hand(k.pai, |tile| Action::Kakan { tile }),
                format!("{} is not in your hand", k.pai),
            ),
            Message::Nukidora(x) => {
                if x.pai.is_some_and(|p| p.kind != Kind::NORTH) {
                    return Err("nukidora: only a north is set aside".into());
                }
                let cands =
                    self.hand.iter().filter(|t| t.kind() == Kind::NORTH).map(|&tile| Action::Nuki { tile }).collect();
                self.first_legal(cands, "no north in your hand".into())
            }
            Message::Ryukyoku(r) => match r.reason.as_deref() {
                None | Some("kyushukyuhai") => self.check(Action::KyuushuKyuuhai),
                Some(other) => Err(format!("ryukyoku reason {other:?}: a player declares only kyushukyuhai")),
            },
            _ => unreachable!("action_of gives turn() the turn's answers only"),
        }
    }
}
