//! The round's result: `["和了", deltas, [who, from, pao, score, yaku ...], ...]` or a draw by name (`流局`,
//! `九種九牌` ...), the score strings (`30符4飜7700点`, `満貫2000-4000点`, `2600点∀`) and the yaku strings
//! (`立直(1飜)`, `大三元(役満)`), read into AGARI and RYUUKYOKU tags and written from them.

use haifu_rules::score;
use haifu_rules::shanten::shanten;
use haifu_rules::yaku;
use haifu_rules::{Meld, Tile};
use serde_json::Value;

use super::json::{array, int};
use super::order::{Discarded, End, Play};
use super::read::Game;
use crate::event::Event;
use crate::tags::{Agari, DrawKind, Ryuukyoku, Yaku};

/// One win of a round's result: deltas and `[who, from, pao, score string, yaku ...]`.
#[derive(Clone, Debug)]
pub(super) struct Win {
    pub(super) deltas: [i32; 4],
    pub(super) who: usize,
    pub(super) from: usize,
    pub(super) pao: usize,
    pub(super) score: Option<String>,
    pub(super) yaku: Vec<String>,
}

#[derive(Clone, Debug)]
pub(super) enum RoundResult {
    Wins(Vec<Win>),
    Draw { kind: DrawKind, name: String, deltas: [i32; 4] },
}

pub(super) fn deltas(v: &Value, what: &str) -> Result<[i32; 4], String> {
    let a = array(v, what)?;
    if a.len() < 3 || a.len() > 4 {
        return Err(format!("{what}: {} values, expected 3 or 4", a.len()));
    }
    let mut out = [0; 4];
    for (o, x) in out.iter_mut().zip(a) {
        *o = i32::try_from(int(x, what)?).map_err(|_| format!("{what}: out of range"))?;
    }
    Ok(out)
}

/// An exhaustive draw without payments: everyone tenpai, or no one.
const ALL_TENPAI: &str = "全員聴牌";
const ALL_NOTEN: &str = "全員不聴";

/// The Japanese names of the draws, as Tenhou writes them (an exhaustive draw with payments is `流局`).
const DRAW_NAMES: [(&str, DrawKind); 7] = [
    ("流局", DrawKind::Exhaustive),
    ("流し満貫", DrawKind::Nagashi),
    ("九種九牌", DrawKind::Yao9),
    ("四家立直", DrawKind::Reach4),
    ("三家和了", DrawKind::Ron3),
    ("四槓散了", DrawKind::Kan4),
    ("四風連打", DrawKind::Kaze4),
];

fn draw_kind(name: &str) -> Option<DrawKind> {
    if let Some((_, kind)) = DRAW_NAMES.iter().find(|(ja, _)| *ja == name) {
        return Some(*kind);
    }
    let lower = name.to_ascii_lowercase();
    Some(match (name, lower.as_str()) {
        (ALL_TENPAI | ALL_NOTEN, _) | (_, "ryuukyoku" | "exhaustive draw") => DrawKind::Exhaustive,
        (_, "nagashi mangan") => DrawKind::Nagashi,
        (_, "kyuushu kyuuhai" | "nine terminals") => DrawKind::Yao9,
        (_, "suucha riichi" | "four riichi") => DrawKind::Reach4,
        (_, "sanchahou" | "triple ron") => DrawKind::Ron3,
        (_, "suukaikan" | "four kans") => DrawKind::Kan4,
        (_, "suufon renda" | "four winds") => DrawKind::Kaze4,
        _ => return None,
    })
}

pub(super) fn result(v: &Value) -> Result<RoundResult, String> {
    let a = array(v, "result")?;
    let name = a.first().and_then(Value::as_str).ok_or("result does not start with its name")?;
    if name == "和了" || name.eq_ignore_ascii_case("agari") {
        if a.len() < 3 || a.len().is_multiple_of(2) {
            return Err("a win must hold (deltas, info) pairs".into());
        }
        let mut wins = Vec::new();
        for pair in a[1..].chunks(2) {
            let info = array(&pair[1], "win info")?;
            if info.len() < 3 {
                return Err("win info must start with who, from, pao".into());
            }
            let seat = |i: usize| -> Result<usize, String> {
                let s = int(&info[i], "win info seat")?;
                usize::try_from(s).ok().filter(|&s| s < 4).ok_or_else(|| format!("win info: seat {s} out of range"))
            };
            let strings: Vec<String> = info[3..]
                .iter()
                .map(|x| x.as_str().map(str::to_string).ok_or("win info: not a string"))
                .collect::<Result<_, _>>()?;
            let (score, yaku) = match strings.split_first() {
                Some((s, rest)) => (Some(s.clone()), rest.to_vec()),
                None => (None, Vec::new()),
            };
            wins.push(Win {
                deltas: deltas(&pair[0], "win deltas")?,
                who: seat(0)?,
                from: seat(1)?,
                pao: seat(2)?,
                score,
                yaku,
            });
        }
        return Ok(RoundResult::Wins(wins));
    }
    let kind = draw_kind(name).ok_or_else(|| format!("result {name:?} is neither a win nor a known draw"))?;
    let deltas = match a.get(1) {
        Some(d) => deltas(d, "draw deltas")?,
        None => [0; 4],
    };
    Ok(RoundResult::Draw { kind, name: name.to_string(), deltas })
}

/// Full-width digits to ASCII (`１３面` -> `13面`).
pub(super) fn ascii_digits(s: &str) -> String {
    s.chars()
        .map(|c| if ('０'..='９').contains(&c) { char::from(b'0' + (c as u32 - '０' as u32) as u8) } else { c })
        .collect()
}

/// The names of the limits (AGARI `ten`'s third value); a kazoe yakuman reads as a yakuman.
const LIMITS: [(&str, u8); 6] = [("数え役満", 5), ("三倍満", 4), ("倍満", 3), ("跳満", 2), ("満貫", 1), ("役満", 5)];

/// `(fu, points, limit)` from `30符4飜7700点`, `満貫2000-4000点`, `2600点∀` (the points Tenhou's `ten` holds:
/// everything the payers pay, without honba and sticks).
fn score(s: &str, tsumo: bool, dealer: bool, n_players: usize) -> Result<(u32, i32, u8), String> {
    let bad = || format!("score {s:?} is not like 30符4飜7700点 or 満貫2000-4000点");
    let t = ascii_digits(s.trim());
    let all = t.ends_with('∀');
    let t = t.trim_end_matches('∀').trim_end_matches('点');
    let (fu, limit, pay) = if let Some(i) = t.find('符') {
        let fu: u32 = t[..i].parse().map_err(|_| bad())?;
        let rest = &t[i + '符'.len_utf8()..];
        let j = rest.find('飜').ok_or_else(bad)?;
        let han: u32 = rest[..j].parse().map_err(|_| bad())?;
        // a string with fu can still be a limit hand (kazoe, or an unusual writer): the han decide
        let limit = score::basic_of(han, fu).1;
        (fu, limit, &rest[j + '飜'.len_utf8()..])
    } else {
        let (name, limit) = LIMITS.iter().find(|(name, _)| t.starts_with(name)).ok_or_else(bad)?;
        (0, *limit, &t[name.len()..])
    };
    let nums: Vec<i32> = pay.split('-').map(|x| x.trim().parse().map_err(|_| bad())).collect::<Result<_, _>>()?;
    let payers = n_players as i32 - 1;
    let points = match (&nums[..], tsumo) {
        (&[a], false) => a,
        // a dealer's tsumo: everyone pays the same
        (&[a], true) if all || dealer => a * payers,
        // a non-dealer's tsumo: the non-dealers pay a, the dealer b
        (&[a, b], true) => a * (payers - 1) + b,
        _ => return Err(bad()),
    };
    Ok((fu, points, limit))
}

/// `立直(1飜)` -> yaku (1, 1); `大三元(役満)` -> yakuman 39. Nuki dora join the dora entry, as Tenhou's mjlog has it.
fn yaku_list(names: &[String]) -> Result<(Vec<Yaku>, Vec<u8>), String> {
    let mut yaku: Vec<Yaku> = Vec::new();
    let mut yakuman = Vec::new();
    for s in names {
        let t = ascii_digits(s.trim()).replace('（', "(").replace('）', ")");
        let bad = || format!("yaku {s:?} is not like 立直(1飜)");
        let open = t.rfind('(').ok_or_else(bad)?;
        let name = &t[..open];
        let id = yaku::id_by_name(name).ok_or_else(|| format!("unknown yaku name {name:?}"))?;
        let inner = t[open + 1..].trim_end_matches(')');
        if inner.contains("役満") {
            yakuman.push(id);
            continue;
        }
        let digits: String = inner.chars().take_while(char::is_ascii_digit).collect();
        let han: u8 = digits.parse().map_err(|_| bad())?;
        match yaku.iter_mut().find(|y| y.id == id) {
            Some(y) => y.han += han,
            None => yaku.push(Yaku { id, han }),
        }
    }
    Ok((yaku, yakuman))
}

// ---- writing ----

/// The score string of a win: `30符4飜7700点`, `満貫2000-4000点` (a non-dealer's tsumo: what each non-dealer pays,
/// then the dealer), `2600点∀` (a dealer's tsumo: what each pays). Limit hands go by the limit's name, without fu.
pub(super) fn score_string(a: &Agari, dealer: bool, n_players: usize) -> String {
    let payers = n_players as i32 - 1;
    let pay = match (a.is_tsumo(), dealer) {
        (false, _) => format!("{}点", a.points),
        (true, true) => format!("{}点∀", a.points / payers.max(1)),
        (true, false) => {
            // the dealer pays twice a non-dealer's share, both rounded up to the hundred: the share is the
            // points over (payers + 1), rounded up
            let unit = 100 * (payers + 1);
            let share = (a.points + unit - 1) / unit * 100;
            format!("{share}-{}点", a.points - share * (payers - 1))
        }
    };
    match LIMITS.iter().rev().find(|(_, l)| *l == a.limit) {
        Some((name, _)) => format!("{name}{pay}"),
        None => format!("{}符{}飜{pay}", a.fu, a.han()),
    }
}

/// Tenhou's spelling of a yaku's Japanese name ([`yaku::YAKU`]): digits full-width, a space after the
/// yakuhai's `自風` / `場風` / `役牌`.
fn tenhou_name(id: u8) -> Result<String, String> {
    let ja = yaku::YAKU.get(usize::from(id)).ok_or_else(|| format!("yaku id {id} unknown"))?.ja;
    let full_width = |c: char| match c.to_digit(10) {
        Some(d) if c.is_ascii_digit() => char::from_u32('０' as u32 + d).unwrap_or(c),
        _ => c,
    };
    let mut s: String = ja.chars().map(full_width).collect();
    if yaku::is_yakuhai(id) {
        if let Some((at, _)) = s.char_indices().nth(2) {
            s.insert(at, ' ');
        }
    }
    Ok(s)
}

/// The yaku of a win in the order the record lists them: `立直(1飜)`, or `大三元(役満)` for each yakuman.
pub(super) fn yaku_strings(a: &Agari) -> Result<Vec<String>, String> {
    if a.yakuman.is_empty() {
        a.yaku.iter().map(|y| Ok(format!("{}({}飜)", tenhou_name(y.id)?, y.han))).collect()
    } else {
        a.yakuman.iter().map(|&id| Ok(format!("{}(役満)", tenhou_name(id)?))).collect()
    }
}

/// A draw as the result of a round: its name, with the deltas when someone pays (`["流局", [...]]`,
/// `["九種九牌"]`); an exhaustive draw without payments is `全員聴牌` or `全員不聴` by the hands shown.
pub(super) fn draw_result(d: &Ryuukyoku, n_players: usize) -> Vec<Value> {
    let paid = d.delta.iter().any(|&x| x != 0);
    let shown = d.shown[..n_players].iter().filter(|h| h.is_some()).count();
    let name = match d.kind {
        DrawKind::Exhaustive if !paid && shown == n_players => ALL_TENPAI,
        DrawKind::Exhaustive if !paid && shown == 0 => ALL_NOTEN,
        kind => DRAW_NAMES.iter().find(|(_, k)| *k == kind).map_or("流局", |(ja, _)| *ja),
    };
    let mut out = vec![Value::from(name)];
    if paid {
        out.push(Value::from(d.delta.to_vec()));
    }
    out
}

impl Play<'_> {
    /// Writes the round's end: REACH step 2 if the last riichi discard stands, the AGARI or RYUUKYOKU tags.
    pub(super) fn finish(&mut self, end: End, last_of: Option<&Game>) -> Result<(), String> {
        let hands: Vec<Vec<Tile>> = (0..4).map(|s| self.ids.hands[s].iter().collect()).collect();
        match &self.round.result {
            RoundResult::Wins(wins) => {
                let mut ura: Option<Vec<Tile>> = None;
                for (i, w) in wins.iter().enumerate() {
                    let last_of = if i + 1 == wins.len() { last_of } else { None };
                    let agari = self.agari(w, i == 0, end, &hands, &mut ura, last_of)?;
                    self.events.push(Event::agari(agari));
                }
            }
            RoundResult::Draw { kind, name, deltas } => {
                let draw = self.ryuukyoku(*kind, name, *deltas, end, &hands, last_of);
                self.events.push(Event::ryuukyoku(draw));
            }
        }
        Ok(())
    }

    /// One win of the result, paid (`first`: the first winner, who takes the honba and the sticks): `ura` holds
    /// the ura indicators once a riichi winner has shown them.
    fn agari(
        &mut self,
        w: &Win,
        first: bool,
        end: End,
        hands: &[Vec<Tile>],
        ura: &mut Option<Vec<Tile>>,
        last_of: Option<&Game>,
    ) -> Result<Agari, String> {
        let n = self.n;
        if w.who >= n || w.from >= n || w.pao >= n {
            return Err("win seat out of range".into());
        }
        let (mut hand, machi) = match end {
            End::Drawn(s) => (hands[s].clone(), self.last_draw[s].ok_or("tsumo without a draw")?),
            End::Discard(Discarded { tile, .. }) | End::Robbed(_, tile) => {
                let mut h = hands[w.who].clone();
                h.push(tile);
                (h, tile)
            }
        };
        hand.sort();
        let sum: i32 = w.deltas.iter().sum();
        if sum < 0 || sum % 1000 != 0 || sum / 1000 > i32::from(self.kyotaku) {
            return Err(format!("win deltas {:?} add to {sum}, not a number of the {} sticks", w.deltas, self.kyotaku));
        }
        let taken = (sum / 1000) as u8;
        let (fu, points, limit) = match &w.score {
            Some(s) => score(s, w.who == w.from, usize::from(self.round.kyoku % 4) == w.who, n)?,
            // no score string (some converters): the winner's gain without sticks and honba
            None => {
                let honba = if first { score::honba_gain(n as u8, self.round.honba) } else { 0 };
                (0, (w.deltas[w.who] - sum - honba).max(0), 0)
            }
        };
        let (mut yaku, yakuman) = yaku_list(&w.yaku)?;
        // Tenhou lists ura for every riichi winner, 0 han included (some writers drop that entry)
        if self.riichi[w.who] && yakuman.is_empty() && !yaku.is_empty() && yaku.iter().all(|y| y.id != 53) {
            yaku.push(Yaku { id: 53, han: 0 });
        }
        let ura_indicators = if self.riichi[w.who] && !self.round.ura.is_empty() {
            if ura.is_none() {
                let mut v = Vec::new();
                for c in &self.round.ura {
                    v.push(self.ids.fresh(c.kind(), c.red())?);
                }
                *ura = Some(v);
            }
            ura.clone().unwrap_or_default()
        } else {
            Vec::new()
        };
        let before = self.scores;
        for (s, d) in self.scores.iter_mut().zip(w.deltas) {
            *s += d;
        }
        self.kyotaku -= taken;
        Ok(Agari {
            honba: self.round.honba,
            kyotaku: taken,
            hand,
            melds: self.melds[w.who].iter().rev().map(Meld::encode).collect(), // newest first, as Tenhou
            machi,
            fu,
            points,
            limit,
            yaku,
            yakuman,
            dora_indicators: self.dora.clone(),
            ura_indicators,
            who: w.who as u8,
            from_who: w.from as u8,
            pao_who: (w.pao != w.who).then_some(w.pao as u8),
            before,
            delta: w.deltas,
            owari: last_of.and_then(|g| g.owari(self.round.kyoku, self.scores, self.kyotaku)),
        })
    }

    /// The draw, with the hands Tenhou shows for it.
    fn ryuukyoku(
        &mut self,
        kind: DrawKind,
        name: &str,
        deltas: [i32; 4],
        end: End,
        hands: &[Vec<Tile>],
        last_of: Option<&Game>,
    ) -> Ryuukyoku {
        if let End::Discard(d) = end {
            if kind != DrawKind::Ron3 {
                self.accept_riichi(d);
            }
        }
        let mut shown: [Option<Vec<Tile>>; 4] = Default::default();
        let tenpai = |s: usize| {
            let hand = self.ids.hands[s];
            hand.len() % 3 == 1 && shanten(&hand.counts()) == 0
        };
        for s in 0..self.n {
            let show = match (kind, end) {
                (DrawKind::Exhaustive, _) if deltas.iter().any(|&d| d != 0) => deltas[s] > 0,
                (DrawKind::Exhaustive, _) if name == ALL_TENPAI => true,
                (DrawKind::Exhaustive, _) if name == ALL_NOTEN => false,
                (DrawKind::Exhaustive | DrawKind::Nagashi, _) => tenpai(s),
                (DrawKind::Yao9, End::Drawn(who)) => s == who,
                (DrawKind::Reach4, _) => true,
                (DrawKind::Ron3, End::Discard(d)) => s != d.seat,
                _ => false,
            };
            if show {
                shown[s] = Some(hands[s].clone());
            }
        }
        let before = self.scores;
        for (s, d) in self.scores.iter_mut().zip(deltas) {
            *s += d;
        }
        let owari = last_of.and_then(|g| g.owari(self.round.kyoku, self.scores, self.kyotaku));
        Ryuukyoku { kind, honba: self.round.honba, kyotaku: self.kyotaku, shown, before, delta: deltas, owari }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_strings() {
        assert_eq!(score("30符4飜7700点", false, false, 4), Ok((30, 7700, 0)));
        assert_eq!(score("30符4飜3900点∀", true, true, 4), Ok((30, 11700, 0)));
        assert_eq!(score("満貫2000-4000点", true, false, 4), Ok((0, 8000, 1)));
        assert_eq!(score("跳満18000点", false, true, 4), Ok((0, 18000, 2)));
        assert_eq!(score("役満16000-32000点", true, false, 4), Ok((0, 64000, 5)));
        assert_eq!(score("満貫2000-4000点", true, false, 3), Ok((0, 6000, 1)));
        assert!(score("7700", false, false, 4).is_err());
        assert!(score("満貫", false, false, 4).is_err());
    }

    #[test]
    fn yaku_names() {
        let names: Vec<String> = ["立直(1飜)", "翻牌 白(1飜)", "ドラ(2飜)", "Ura Dora(0飜)", "国士無双１３面(役満)"]
            .map(String::from)
            .to_vec();
        let (yaku, yakuman) = yaku_list(&names).unwrap();
        let ids: Vec<(u8, u8)> = yaku.iter().map(|y| (y.id, y.han)).collect();
        assert_eq!(ids, [(1, 1), (18, 1), (52, 2), (53, 0)]);
        assert_eq!(yakuman, [48]);
        assert!(yaku_list(&["謎の役(1飜)".to_string()]).is_err());
    }
}
