//! The rules of a table (from the `GO type` bits, SPEC 1.2) and Tenhou's end-of-game arithmetic.
//!
//! Facts established on the corpus (4,969 full mjlog games, `sim/tests/corpus_replay.rs`):
//! - the game ends when a score falls below zero; after the last round (South 4 / East 4, 3-player South 3 /
//!   East 3) when someone holds the target (30,000; 40,000 with three players); a dealer who keeps the seat
//!   in the last round by a win or tenpai at the draw ends the game when first with the target (agari-yame,
//!   tenpai-yame, automatic on Tenhou); otherwise the west (south for east-only games) round is played as
//!   sudden death until someone reaches the target, at most to its fourth round;
//! - `owari` points: each seat but the first scores `round(score / 1000) - 30` (`- 40` with three players) plus
//!   uma +10 / -10 / -20 (0 / -20 with three players), rounding halves away from zero; logs from mid-2022 on
//!   skip the rounding (one decimal); the first place takes what makes the sum zero (the oka). East-only
//!   tables of 2009 used uma +5 / -5 / -10;
//! - logs of 2009 (no `lobby` in `GO`) follow older rules: a dealer tenpai at the last draw does not end the
//!   game, and east-only games extend into the west ([`TableRules::legacy_2009`]).

use crate::score::Ruleset;
use serde::Serialize;

/// `<GO type= lobby=>`: the rules of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameType(pub u32);

impl GameType {
    /// The type a log without `GO type` is read as: a houou hanchan with red fives and open tanyao (0xA9; 0xB9
    /// with three players).
    pub fn houou_hanchan(players: u8) -> GameType {
        GameType(if players == 3 { 0xB9 } else { 0xA9 })
    }
    /// A rule variant the ranked tables do not play: bits above 0x1FF (0x100 marks newer logs of the same rules;
    /// 0x800 is the `ratio` tables that start at 1,000 points and pay game points by another rule).
    pub fn is_variant(self) -> bool {
        self.0 & !0x1FF != 0
    }
    /// The same type with the hanchan bit (0x08) set or cleared.
    pub fn with_hanchan(self, hanchan: bool) -> GameType {
        GameType(if hanchan { self.0 | 0x08 } else { self.0 & !0x08 })
    }
    pub fn vs_humans(self) -> bool {
        self.0 & 0x01 != 0
    }
    pub fn red(self) -> bool {
        self.0 & 0x02 == 0
    }
    pub fn kuitan(self) -> bool {
        self.0 & 0x04 == 0
    }
    pub fn hanchan(self) -> bool {
        self.0 & 0x08 != 0
    }
    pub fn three_player(self) -> bool {
        self.0 & 0x10 != 0
    }
    pub fn fast(self) -> bool {
        self.0 & 0x40 != 0
    }
    /// Table level from bits 0x20 and 0x80: ippan, joukyuu, tokujou, houou.
    pub fn level(self) -> &'static str {
        match (self.0 & 0x80 != 0, self.0 & 0x20 != 0) {
            (false, false) => "ippan",
            (true, false) => "joukyuu",
            (false, true) => "tokujou",
            (true, true) => "houou",
        }
    }
}

/// How `owari` turns final scores into game points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct OwariRule {
    /// Uma of the 2nd, 3rd and 4th places in thousands (the 4th is unused with three players).
    pub uma: [i32; 3],
    /// Round each score to the thousand (halves away from zero) before subtracting the return; logs before
    /// mid-2022 do, later ones keep one decimal.
    pub rounded: bool,
}

/// The rules of one table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TableRules {
    /// The `GO type` the record writes.
    pub go_type: u32,
    pub players: u8,
    pub red_fives: bool,
    pub open_tanyao: bool,
    /// Hanchan (east and south); else east-only.
    pub hanchan: bool,
    pub owari: OwariRule,
    /// A dealer first with the target after tenpai at the draw of the last round ends the game (Tenhou since
    /// about 2010; in 2009 only a win did).
    pub tenpai_yame: bool,
    /// The last round sudden death may reach (11 = West 4; east-only games stop at South 4 = 7 today, and
    /// went on into the west in 2009).
    pub max_kyoku: u8,
}

impl TableRules {
    /// Rules of a `GO type` (169 4-player houou hanchan, 225 east-only, 185 3-player), today's `owari` rule.
    pub fn from_go_type(go_type: u32) -> TableRules {
        let gt = GameType(go_type);
        let players = if gt.three_player() { 3 } else { 4 };
        let uma = if players == 3 { [0, -20, 0] } else { [10, -10, -20] };
        TableRules {
            go_type,
            players,
            red_fives: gt.red(),
            open_tanyao: gt.kuitan(),
            hanchan: gt.hanchan(),
            owari: OwariRule { uma, rounded: false },
            tenpai_yame: true,
            max_kyoku: if gt.hanchan() { 11 } else { 7 } - if players == 3 { 1 } else { 0 },
        }
    }
    /// The rules of 2009 (logs whose `GO` tag has no `lobby`): no tenpai-yame, east-only games extend into
    /// the west.
    pub fn legacy_2009(mut self) -> TableRules {
        self.tenpai_yame = false;
        self.max_kyoku = if self.players == 3 { 10 } else { 11 };
        self
    }
    pub fn ruleset(&self) -> Ruleset {
        Ruleset { players: self.players, red_fives: self.red_fives, open_tanyao: self.open_tanyao }
    }
    /// Starting score of each seat ([`start_score`]).
    pub fn start_score(&self) -> i32 {
        start_score(self.players)
    }
    /// Scores plus 1000 per stick on the table, constant through the game ([`standard_total`]).
    pub fn total(&self) -> i32 {
        standard_total(self.players)
    }
    /// The score a seat needs to end the game after the last round (also the return of `owari`).
    pub fn target(&self) -> i32 {
        if self.players == 3 {
            40_000
        } else {
            30_000
        }
    }
    /// The kyoku number of the last regular round (3-player kyoku run 0 1 2, 4 5 6, 8 9 10).
    pub fn last_kyoku(&self) -> u8 {
        match (self.hanchan, self.players) {
            (true, 3) => 6,
            (true, _) => 7,
            (false, 3) => 2,
            (false, _) => 3,
        }
    }
    /// The round after `kyoku` when the dealer passes.
    pub fn next_kyoku(&self, kyoku: u8) -> u8 {
        next_kyoku(self.players, kyoku)
    }
}

/// The round after `kyoku` when the dealer passes the seat: three players have no North seat, so East 3 is
/// followed by South 1.
pub fn next_kyoku(players: u8, kyoku: u8) -> u8 {
    if players == 3 && kyoku % 4 == 2 {
        kyoku.saturating_add(2)
    } else {
        kyoku.saturating_add(1)
    }
}

/// Each seat's starting score on Tenhou: 25,000, or 35,000 with three players.
pub fn start_score(players: u8) -> i32 {
    if players == 3 {
        35_000
    } else {
        25_000
    }
}

/// Scores plus 1000 per stick on the table at a standard table, constant through the game (SPEC 1.2): 100,000,
/// or 105,000 with three players. Private lobbies may start from other scores.
pub fn standard_total(players: u8) -> i32 {
    start_score(players) * i32::from(players)
}

/// `E1-0`, `S3-2`: a round's wind and number, and its honba (kyoku 0 = East 1, 4 = South 1, 8 = West 1).
pub fn round_name(kyoku: u8, honba: u8) -> String {
    let wind = ["E", "S", "W", "N"].get(usize::from(kyoku / 4)).copied().unwrap_or("?");
    format!("{wind}{}-{honba}", kyoku % 4 + 1)
}

/// The first place: highest score, ties to the seat nearer the first dealer (seat 0).
pub fn ranking(scores: &[i32; 4], players: u8) -> [u8; 4] {
    let mut order = [0u8, 1, 2, 3];
    let n = usize::from(players);
    order[..n].sort_by_key(|&s| (-scores[usize::from(s)], s));
    order
}

/// Each seat's place at the end, 1 for the first ([`ranking`]'s order); 0 for the absent seat of a 3-player game.
pub fn placements(scores: &[i32; 4], players: u8) -> [u8; 4] {
    let mut place = [0u8; 4];
    for (i, &s) in ranking(scores, players).iter().take(usize::from(players)).enumerate() {
        place[usize::from(s)] = i as u8 + 1;
    }
    place
}

/// How the last round ended, as the end-of-game rule needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundOutcome {
    pub kyoku: u8,
    pub dealer: u8,
    /// The dealer keeps the seat.
    pub renchan: bool,
    /// The round ended by an abortive draw (the dealer keeps the seat but never ends the game by it).
    pub abortive: bool,
    /// The dealer is among the winners.
    pub dealer_won: bool,
}

/// Whether the game ends after a round that left `scores` (sticks not counted).
pub fn game_ends(rules: &TableRules, scores: &[i32; 4], o: RoundOutcome) -> bool {
    let n = usize::from(rules.players);
    if scores[..n].iter().any(|&s| s < 0) {
        return true;
    }
    let last = rules.last_kyoku();
    if o.kyoku < last {
        return false;
    }
    let target = rules.target();
    if o.renchan {
        let top = ranking(scores, rules.players)[0];
        let stops = o.dealer_won || (rules.tenpai_yame && !o.abortive);
        return stops && top == o.dealer && scores[usize::from(o.dealer)] >= target;
    }
    o.kyoku >= rules.max_kyoku || scores[..n].iter().any(|&s| s >= target)
}

/// `owari`: final scores (leftover sticks to the first place) and game points.
pub fn owari(rules: &TableRules, scores: &[i32; 4], kyotaku: u8) -> ([i32; 4], [f64; 4]) {
    let mut fin = *scores;
    let order = ranking(scores, rules.players);
    fin[usize::from(order[0])] += 1000 * i32::from(kyotaku);
    let ret = f64::from(rules.target()) / 1000.0;
    let mut points = [0.0f64; 4];
    let mut sum_tenths = 0i64;
    for (rank, &s) in order.iter().enumerate().take(usize::from(rules.players)).skip(1) {
        let x = f64::from(fin[usize::from(s)]) / 1000.0;
        let x = if rules.owari.rounded { x.abs().round().copysign(x) } else { x };
        let p = x - ret + f64::from(rules.owari.uma[rank - 1]);
        let tenths = (p * 10.0).round() as i64;
        sum_tenths += tenths;
        points[usize::from(s)] = tenths as f64 / 10.0;
    }
    points[usize::from(order[0])] = -sum_tenths as f64 / 10.0;
    (fin, points)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placements_break_ties_by_seat() {
        assert_eq!(placements(&[25000, 30000, 25000, 20000], 4), [2, 1, 3, 4]);
        assert_eq!(placements(&[25000; 4], 4), [1, 2, 3, 4]);
        assert_eq!(placements(&[35000, 35000, 35000, 0], 3), [1, 2, 3, 0]);
        assert_eq!(placements(&[30000, 40000, 35000, 99999], 3), [3, 1, 2, 0]);
    }

    #[test]
    fn owari_matches_tenhou_examples() {
        // 3-player 2020: [48700, 27600, 28700] -> [43, -32, -11]
        let mut r = TableRules::from_go_type(185);
        r.owari.rounded = true;
        let (_, p) = owari(&r, &[48700, 27600, 28700, 0], 0);
        assert_eq!(&p[..3], &[43.0, -32.0, -11.0]);
        // 4-player 2020 with a negative score rounding away from zero: [50300, 7500, -500, 42700]
        let mut r = TableRules::from_go_type(169);
        r.owari.rounded = true;
        let (_, p) = owari(&r, &[50300, 7500, -500, 42700], 0);
        assert_eq!(p, [60.0, -32.0, -51.0, 23.0]);
        // 2022-06 on: one decimal
        r.owari.rounded = false;
        let (_, p) = owari(&r, &[14800, 31400, 24900, 28900], 0);
        assert_eq!(p, [-35.2, 41.4, -15.1, 8.9]);
    }
}
