//! The rules a log may leave unsaid, and how they are settled: the game's length (east-only or hanchan), red
//! fives and the number of players. mjai logs state them only sometimes (`kyoku_first`, `gametype`,
//! `aka_flag`); the user can state them for every file (`haifu ingest --length hanchan`), and that wins over
//! every guess.
//!
//! The length is settled on the play itself: Tenhou's end-of-game rule
//! ([`haifu_rules::table::game_ends`]) is applied after every round under each reading, and a reading that the
//! log contradicts (an east-only game that plays on after its dealer, first, wins East 4; a hanchan that stops
//! after East 4 with nobody below zero) is never chosen. When both readings fit, hanchan is taken: it is the
//! default of the bot arenas that write mjai. The reading and the reason go to the game's notes (the `notes`
//! column of the games table).

use haifu_rules::table::{game_ends, round_name, RoundOutcome, TableRules};

use crate::event::Event;
use crate::tags::{DrawKind, GameType, Init};

/// The length of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Length {
    /// East rounds only (tonpuusen), South as sudden death.
    East,
    /// East and South (hanchan), West as sudden death.
    Hanchan,
}

impl Length {
    pub fn name(self) -> &'static str {
        match self {
            Length::East => "east",
            Length::Hanchan => "hanchan",
        }
    }
}

impl std::str::FromStr for Length {
    type Err = String;
    fn from_str(s: &str) -> Result<Length, String> {
        match s {
            "east" | "tonpu" | "tonpuu" => Ok(Length::East),
            "hanchan" | "south" | "tonnan" => Ok(Length::Hanchan),
            _ => Err(format!("length {s:?}: expected east or hanchan")),
        }
    }
}

/// Rules the user states for logs that cannot state them (mjai): each wins over what the reader would guess.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    pub length: Option<Length>,
    pub red_fives: Option<bool>,
    pub players: Option<u8>,
}

/// How the length of a game was settled: the reading, and why (one line for the game's notes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settled {
    pub length: Length,
    pub note: String,
}

/// A reading the play contradicts: the round (index from 0) where the rule and the log part ways (the round
/// the log plays although the game is over, or the last round, after which the log stops too early).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contradiction {
    pub round: usize,
    pub why: String,
}

/// One round as the end-of-game rule sees it.
struct RoundEnd {
    name: String,
    outcome: RoundOutcome,
    scores_after: [i32; 4],
    /// Another round follows in the log.
    goes_on: bool,
    /// The log closes the game here (`owari`).
    ends: bool,
}

/// A round while its end tags are read.
struct Open {
    init: Init,
    scores: [i32; 4],
    winners: Vec<u8>,
    /// At an exhaustive draw (or nagashi): whether the dealer was tenpai; `None` for an abortive draw or a win.
    dealer_tenpai: Option<bool>,
    /// The log closes the game with this round (`owari`).
    ends: bool,
}

impl Open {
    fn close(self, goes_on: bool) -> RoundEnd {
        let dealer = self.init.dealer;
        let dealer_won = self.winners.contains(&dealer);
        let (renchan, abortive) = match self.dealer_tenpai {
            _ if !self.winners.is_empty() => (dealer_won, false),
            Some(t) => (t, false),
            None => (true, true),
        };
        RoundEnd {
            name: round_name(self.init.kyoku, self.init.honba),
            outcome: RoundOutcome { kyoku: self.init.kyoku, dealer, renchan, abortive, dealer_won },
            scores_after: self.scores,
            goes_on,
            ends: self.ends,
        }
    }
}

fn round_ends(events: &[Event]) -> Vec<RoundEnd> {
    let mut out: Vec<RoundEnd> = Vec::new();
    let mut open: Option<Open> = None;
    for e in events {
        match e {
            Event::Init(init) => {
                out.extend(open.take().map(|o| o.close(true)));
                let scores = init.scores;
                open = Some(Open {
                    init: init.value().clone(),
                    scores,
                    winners: Vec::new(),
                    dealer_tenpai: None,
                    ends: false,
                });
            }
            Event::Agari(a) => {
                if let Some(o) = open.as_mut() {
                    o.scores = add(o.scores, a.delta);
                    o.winners.push(a.who);
                    o.ends |= a.owari.is_some();
                }
            }
            Event::Ryuukyoku(d) => {
                if let Some(o) = open.as_mut() {
                    o.scores = add(o.scores, d.delta);
                    if !d.kind.is_abortive() || d.kind == DrawKind::Nagashi {
                        o.dealer_tenpai = Some(d.shown[usize::from(o.init.dealer & 3)].is_some());
                    }
                    o.ends |= d.owari.is_some();
                }
            }
            _ => {}
        }
    }
    out.extend(open.map(|o| o.close(false)));
    out
}

fn add(a: [i32; 4], b: [i32; 4]) -> [i32; 4] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]]
}

/// Where the log contradicts reading `go_type` as `length`, if it does.
pub fn contradiction(events: &[Event], go_type: u32, length: Length) -> Option<Contradiction> {
    let rules = TableRules::from_go_type(with_length(go_type, length));
    let ends = round_ends(events);
    for (i, r) in ends.iter().enumerate() {
        // a round the log does not close (a truncated record) says nothing either way
        if !r.goes_on && !r.ends {
            continue;
        }
        let rule_ends = game_ends(&rules, &r.scores_after, r.outcome);
        let scores: Vec<i32> = r.scores_after[..usize::from(rules.players)].to_vec();
        if rule_ends && r.goes_on {
            // the round that should not have been played
            return Some(Contradiction {
                round: i + 1,
                why: format!(
                    "{} game ends after {} (scores {scores:?}), but the log plays another round",
                    length.name(),
                    r.name
                ),
            });
        }
        if !rule_ends && r.ends {
            return Some(Contradiction {
                round: i,
                why: format!(
                    "{} game goes on after {} (scores {scores:?}), but the log ends there",
                    length.name(),
                    r.name
                ),
            });
        }
    }
    None
}

/// Settles the length of a game read with the GO type `go_type` (whose hanchan bit is not trusted):
/// `stated` is what the log says (if anything), `asked` what the user said (wins over everything). An asked
/// length the play contradicts is an error.
pub fn settle(
    events: &[Event],
    go_type: u32,
    stated: Option<(Length, &str)>,
    asked: Option<Length>,
) -> Result<Settled, Contradiction> {
    let against = |l: Length| contradiction(events, go_type, l);
    if let Some(l) = asked {
        if let Some(c) = against(l) {
            return Err(Contradiction {
                round: c.round,
                why: format!("the log contradicts --length {}: {}", l.name(), c.why),
            });
        }
        return Ok(Settled { length: l, note: format!("length: {} (given with --length)", l.name()) });
    }
    if let Some((l, by)) = stated {
        let note = match against(l) {
            None => format!("length: {} (stated by {by})", l.name()),
            Some(c) => format!("length: {} (stated by {by}; the play contradicts it: {})", l.name(), c.why),
        };
        return Ok(Settled { length: l, note });
    }
    let (h, e) = (against(Length::Hanchan), against(Length::East));
    Ok(match (h, e) {
        (None, None) => Settled {
            length: Length::Hanchan,
            note: "length: hanchan (not stated; both readings fit the play; hanchan is the default of mjai arenas)"
                .into(),
        },
        (None, Some(c)) => {
            Settled { length: Length::Hanchan, note: format!("length: hanchan (not stated; as {})", c.why) }
        }
        (Some(c), None) => Settled { length: Length::East, note: format!("length: east (not stated; a {})", c.why) },
        (Some(ch), Some(ce)) => Settled {
            length: Length::Hanchan,
            note: format!("length: hanchan (not stated; neither reading fits the play: a {}; an {})", ch.why, ce.why),
        },
    })
}

/// The GO type with its hanchan bit set as `length` says.
pub fn with_length(go_type: u32, length: Length) -> u32 {
    GameType(go_type).with_hanchan(length == Length::Hanchan).0
}

/// The game type of a record's `GO` tag, if it has one.
pub fn go_type_of(events: &[Event]) -> Option<GameType> {
    events.iter().find_map(|e| match e {
        Event::Go(go) => go.game_type,
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_parse_by_name() {
        assert_eq!("east".parse::<Length>(), Ok(Length::East));
        assert_eq!("hanchan".parse::<Length>(), Ok(Length::Hanchan));
        assert!("south-west".parse::<Length>().is_err());
        assert_eq!(with_length(0x09, Length::East), 0x01);
        assert_eq!(with_length(0x01, Length::Hanchan), 0x09);
    }
}
