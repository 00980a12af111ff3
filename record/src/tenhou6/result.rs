//! The round's result: `["和了", deltas, [who, from, pao, score, yaku ...], ...]` or a draw by name (`流局`,
//! `九種九牌` ...), the score strings (`30符4飜7700点`, `満貫2000-4000点`, `2600点∀`) and the yaku strings
//! (`立直(1飜)`, `大三元(役満)`): read from the log (the tags they make are `finish`'s) and written from the tags.

use haifu_rules::score;
use haifu_rules::yaku;
use serde_json::Value;

use super::json::{array, int};
use super::model::{RoundResult, Win};
use crate::tags::{Agari, DrawKind, Ryuukyoku, Yaku};

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
pub(super) const ALL_TENPAI: &str = "全員聴牌";
pub(super) const ALL_NOTEN: &str = "全員不聴";

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
pub(super) fn score(s: &str, tsumo: bool, dealer: bool, n_players: usize) -> Result<(u32, i32, u8), String> {
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
pub(super) fn yaku_list(names: &[String]) -> Result<(Vec<Yaku>, Vec<u8>), String> {
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
