//! The game: the rounds of every object with their places in the file, the table (GO type from the log id or
//! the lobby name, red fives), the players, and each round played into the mjlog events.

use haifu_rules::table::{self, round_name, TableRules};
use haifu_rules::Tile;
use serde_json::Value;

use super::calls::{codes, out, take, Out, Take};
use super::json::{array, int, Object, Objects};
use super::model::{Game, Round};
use super::order::Play;
use super::result::{ascii_digits, deltas, result};
use crate::error::ReadError;
use crate::event::{Event, Tag, ROOT};
use crate::ids::IdAllocator;
use crate::tags::{Init, Owari, Player};

impl Round {
    pub(super) fn read(v: &Value, red: &mut bool) -> Result<Round, String> {
        let r = array(v, "round")?;
        // four seats of (hai, takes, outs); three-player writers may leave the empty fourth out
        let seats = match r.len() {
            17 => 4,
            14 => 3,
            n => return Err(format!("round has {n} entries, expected 17")),
        };
        let head = array(&r[0], "round head")?;
        if head.len() != 3 {
            return Err("round head must be [kyoku, honba, kyotaku]".into());
        }
        let small = |i: usize| -> Result<u8, String> {
            u8::try_from(int(&head[i], "round head")?).map_err(|_| "round head value out of range".to_string())
        };
        let mut round = Round {
            kyoku: small(0)?,
            honba: small(1)?,
            kyotaku: small(2)?,
            scores: deltas(&r[1], "scores")?,
            dora: codes(&r[2], "dora indicators")?,
            ura: codes(&r[3], "ura indicators")?,
            hai: Default::default(),
            takes: Default::default(),
            outs: Default::default(),
            result: result(&r[4 + 3 * seats])?,
        };
        if round.dora.is_empty() {
            return Err("no dora indicator".into());
        }
        for s in 0..seats {
            round.hai[s] = codes(&r[4 + 3 * s], &format!("hai{s}"))?;
            round.takes[s] = array(&r[5 + 3 * s], "takes")?
                .iter()
                .map(take)
                .collect::<Result<_, _>>()
                .map_err(|e| format!("seat {s}: {e}"))?;
            round.outs[s] = array(&r[6 + 3 * s], "outs")?
                .iter()
                .map(out)
                .collect::<Result<_, _>>()
                .map_err(|e| format!("seat {s}: {e}"))?;
        }
        *red |= round.has_red();
        Ok(round)
    }

    fn has_red(&self) -> bool {
        let take_red = |t: &Take| match t {
            Take::Draw(c) => c.red(),
            Take::Call(c) => c.called.red() || c.hand[..c.n_hand].iter().any(|h| h.red()),
        };
        let out_red = |o: &Out| matches!(o, Out::Discard(c) | Out::Riichi(Some(c)) | Out::Kakan(c) if c.red());
        self.dora.iter().chain(&self.ura).chain(self.hai.iter().flatten()).any(|c| c.red())
            || self.takes.iter().flatten().any(take_red)
            || self.outs.iter().flatten().any(out_red)
    }
}

/// Tenhou's dan names, by the `UN dan` index.
#[rustfmt::skip]
pub(super) const DAN: [&str; 21] = [
    "新人", "9級", "8級", "7級", "6級", "5級", "4級", "3級", "2級", "1級",
    "初段", "二段", "三段", "四段", "五段", "六段", "七段", "八段", "九段", "十段", "天鳳位",
];

fn dan_index(v: &Value) -> Option<i8> {
    match v {
        Value::Number(n) => n.as_i64().and_then(|n| i8::try_from(n).ok()),
        Value::String(s) => {
            let s = ascii_digits(s.trim());
            DAN.iter().position(|d| *d == s || (s == "天鳳" && *d == "天鳳位")).map(|i| i as i8)
        }
        _ => None,
    }
}

/// GO type bits from the lobby name Tenhou shows (`鳳南喰赤`, `般東喰`, `三鳳南喰赤`, `上東喰赤速`).
fn type_from_disp(disp: &str) -> u32 {
    let mut t = 0x01;
    if disp.contains("電脳") {
        t = 0;
    }
    t |= if disp.contains('鳳') {
        0xA0
    } else if disp.contains('特') {
        0x20
    } else if disp.contains('上') {
        0x80
    } else {
        0
    };
    let japanese = disp.contains('東') || disp.contains('南');
    if disp.contains('南') || disp.to_ascii_lowercase().contains("south") || !japanese {
        // hanchan unless the name says east-only
        t |= 0x08;
    }
    if japanese && !disp.contains('喰') {
        t |= 0x04;
    }
    if disp.contains('速') {
        t |= 0x40;
    }
    t
}

impl Game {
    pub(super) fn read(text: &[u8], objects: &Objects) -> Result<Game, ReadError> {
        let (first_at, first) = (&objects[0].at, &objects[0].fields);
        let err = |at: u64, m: String| ReadError::at(text, at, m);
        let mut log_id: Option<String> = None;
        let mut rounds = Vec::new();
        let mut red = false;
        let mut final_sc = None;
        for Object { at, rounds_at, fields: o } in objects {
            let log =
                o.get("log").ok_or_else(|| err(*at, "JSON object without \"log\": not a tenhou.net/6 game".into()))?;
            let log = log.as_array().ok_or_else(|| err(*at, "\"log\" is not an array of rounds".into()))?;
            if let Some(r) = o.get("ref").and_then(Value::as_str).filter(|r| !r.is_empty()) {
                match &log_id {
                    Some(id) if id != r => {
                        return Err(err(*at, format!("objects of two games in one file ({id} and {r})")));
                    }
                    _ => log_id = Some(r.to_string()),
                }
            }
            for (j, r) in log.iter().enumerate() {
                // errors point at the round's own place in the file
                let round_at = rounds_at.get(j).copied().unwrap_or(*at);
                let round = Round::read(r, &mut red).map_err(|m| {
                    let head =
                        r.get(0).and_then(Value::as_array).map(|h| h.iter().map(Value::as_u64).collect::<Vec<_>>());
                    let name = match head.as_deref() {
                        Some(&[Some(k), Some(h), _]) => {
                            format!(" ({})", round_name(k.min(255) as u8, h.min(255) as u8))
                        }
                        _ => String::new(),
                    };
                    err(round_at, format!("round {}{name}: {m}", rounds.len()))
                })?;
                rounds.push((round_at, round));
            }
            if let Some(sc) = o.get("sc") {
                let v: Vec<f64> = array(sc, "sc")
                    .and_then(|a| {
                        a.iter().map(|x| x.as_f64().ok_or_else(|| "sc holds a non-number".to_string())).collect()
                    })
                    .map_err(|m| err(*at, m))?;
                if v.len() != 6 && v.len() != 8 {
                    return Err(err(*at, format!("sc holds {} values, expected 8 (score, points per seat)", v.len())));
                }
                final_sc = Some(v);
            }
        }
        if rounds.is_empty() {
            return Err(err(*first_at, "the log holds no round".into()));
        }
        let three = rounds.iter().all(|(_, r)| r.hai[3].is_empty());
        if !three && rounds.iter().any(|(_, r)| r.hai[3].is_empty()) {
            return Err(err(*first_at, "some rounds deal three hands, others four".into()));
        }
        let rule = first.get("rule");
        let rule_num = |k: &str| rule.and_then(|r| r.get(k)).and_then(Value::as_i64).unwrap_or(0);
        let disp = rule.and_then(|r| r.get("disp")).and_then(Value::as_str).unwrap_or("");
        red |= ["aka", "aka51", "aka52", "aka53"].iter().any(|k| rule_num(k) > 0) || disp.contains('赤');
        // the log id names the table exactly; the lobby name is the fallback
        let id_type =
            log_id.as_deref().and_then(|id| id.split('-').nth(1)).and_then(|h| u32::from_str_radix(h, 16).ok());
        let mut notes = Vec::new();
        if id_type.is_none() {
            notes.push(match disp {
                "" => "rules: no log id and no lobby name (rule.disp): read as a hanchan with open tanyao".to_string(),
                d => format!("rules: from the lobby name {d:?} (no log id)"),
            });
        }
        let mut game_type = id_type.unwrap_or_else(|| type_from_disp(disp));
        red |= game_type & 0x02 == 0 && id_type.is_some();
        game_type = if red { game_type & !0x02 } else { game_type | 0x02 };
        game_type = if three { game_type | 0x10 } else { game_type & !0x10 };

        let mut players: [Player; 4] = Default::default();
        let list = |k: &str| first.get(k).and_then(Value::as_array).cloned().unwrap_or_default();
        let (names, dans, rates, sexes) = (list("name"), list("dan"), list("rate"), list("sx"));
        for (i, p) in players.iter_mut().enumerate().take(if three { 3 } else { 4 }) {
            p.name = names.get(i).and_then(Value::as_str).unwrap_or("").to_string();
            p.dan = dans.get(i).and_then(dan_index);
            p.rate = rates.get(i).and_then(Value::as_f64).map(|r| r as f32);
            p.sex = sexes.get(i).and_then(Value::as_str).map(str::to_string);
        }
        let unnamed: Vec<usize> = (0..if three { 3 } else { 4 }).filter(|&i| players[i].name.is_empty()).collect();
        if !unnamed.is_empty() {
            notes.push(format!("names: seats {unnamed:?} have no name in the file (left empty)"));
        }
        Ok(Game {
            log_id,
            players,
            game_type,
            lobby: first.get("lobby").and_then(Value::as_i64).unwrap_or(0),
            n_players: if three { 3 } else { 4 },
            red,
            rounds,
            final_sc,
            notes,
        })
    }

    pub(super) fn events(&self, text: &[u8]) -> Result<Vec<Event>, ReadError> {
        let mut events = vec![
            Event::tag(Tag::new(ROOT).with("ver", "2.3")),
            Event::go(self.game_type, self.lobby),
            Event::players(&self.players),
            Event::tag(Tag::new("TAIKYOKU").with("oya", "0")),
        ];
        for (i, (at, round)) in self.rounds.iter().enumerate() {
            let last = i + 1 == self.rounds.len();
            let context = |m: String| {
                ReadError::at(text, *at, format!("round {i} ({}): {m}", round_name(round.kyoku, round.honba)))
            };
            self.round_events(round, last, &mut events).map_err(context)?;
        }
        Ok(events)
    }

    fn round_events(&self, round: &Round, last: bool, events: &mut Vec<Event>) -> Result<(), String> {
        let n = self.n_players;
        let dealer = usize::from(round.kyoku % 4);
        if dealer >= n {
            return Err(format!("kyoku {} has no dealer in a {n}-player game", round.kyoku));
        }
        let mut ids = IdAllocator::new(self.red);
        let mut hands: [Vec<Tile>; 4] = Default::default();
        for (s, (hand, dealt)) in hands.iter_mut().zip(&round.hai).enumerate().take(n) {
            if dealt.len() != 13 {
                return Err(format!("hai{s} deals {} tiles", dealt.len()));
            }
            for c in dealt {
                hand.push(ids.fresh(c.kind(), c.red())?);
            }
        }
        let dora = ids.fresh(round.dora[0].kind(), round.dora[0].red())?;
        let init = Init {
            kyoku: round.kyoku,
            honba: round.honba,
            kyotaku: round.kyotaku,
            dice: [0, 0],
            dora_indicator: dora,
            scores: round.scores,
            dealer: dealer as u8,
            hands,
        };
        let play = Play::new(round, n, self.red, ids, &init);
        events.push(Event::init(init));
        let (mut play, end) = play.search(dealer)?;
        play.finish(end, if last { Some(self) } else { None })?;
        events.append(&mut play.events);
        Ok(())
    }

    /// Final scores and points when the last round of the log (kyoku `kyoku`, leaving `scores` and `kyotaku`) ends
    /// the game; `None` when the game goes on.
    pub(super) fn owari(&self, kyoku: u8, scores: [i32; 4], kyotaku: u8) -> Option<Owari> {
        if let Some(sc) = &self.final_sc {
            let (mut s, mut points) = ([0; 4], [0.0; 4]);
            for i in 0..sc.len() / 2 {
                s[i] = sc[2 * i].round() as i32;
                points[i] = sc[2 * i + 1];
            }
            return Some(Owari { scores: s, points });
        }
        let mut rules = TableRules::from_go_type(self.game_type);
        // the classic rule: each score rounded to the thousand
        rules.owari.rounded = true;
        if kyoku < rules.last_kyoku() && scores[..self.n_players].iter().all(|&s| s >= 0) {
            return None;
        }
        let (scores, points) = table::owari(&rules, &scores, kyotaku);
        Some(Owari { scores, points })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owari_follows_tenhou_rounding() {
        // a real houou game's sc: 21100 -19, 55000 65, -4900 -55, 28800 9
        let game = Game {
            log_id: None,
            players: Default::default(),
            game_type: 0xA9,
            lobby: 0,
            n_players: 4,
            red: true,
            rounds: Vec::new(),
            final_sc: None,
            notes: Vec::new(),
        };
        let o = game.owari(7, [21100, 55000, -4900, 28800], 0).unwrap();
        assert_eq!(o.points, [-19.0, 65.0, -55.0, 9.0]);
        // halves go away from zero: 30500 is 2nd with 1 + 10, -8500 is 4th with -39 - 20
        let o = game.owari(7, [52200, -8500, 36400, 19900], 0).unwrap();
        assert_eq!(o.points, [63.0, -59.0, 16.0, -20.0]);
        assert!(game.owari(6, [30000, 30000, 20000, 20000], 0).is_none());
        assert!(game.owari(2, [-100, 40100, 30000, 30000], 0).is_some());
    }

    #[test]
    fn game_type_from_the_lobby_name() {
        assert_eq!(type_from_disp("鳳南喰赤"), 0xA9);
        assert_eq!(type_from_disp("特南喰赤"), 0x29);
        assert_eq!(type_from_disp("般東喰"), 0x01);
        assert_eq!(type_from_disp("上東喰赤速"), 0xC1);
        assert_eq!(type_from_disp("般南"), 0x0D);
    }
}
