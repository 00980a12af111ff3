//! The mjai messages: one serde type for every line of a bot log, and for what an mjai player and server say to
//! each other (stdin/stdout, TCP).
//!
//! `serde_json::to_string(&message)` writes an mjai line (the fields in the order bots write them, absent
//! options left out) and reading that line back gives the same message. [`Message::from_line`] reads a log's
//! line: a `type` mjai does not have gives `None` (a reader skips it), and an error names the field at fault.
//!
//! Tiles are [`MjaiTile`]s (Tenhou's `0m` / `0p` / `0s` spelling of the red fives is read too); where a
//! player's view hides them (`tehais`, a `tsumo`'s `pai`) they are [`Pai`]s, which hold `?` as well.

use std::borrow::Cow;
use std::fmt;

use haifu_rules::MjaiTile;
use serde::de::{self, IgnoredAny, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// A tile, or `?`: one hidden from the player the message is sent to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pai {
    Tile(MjaiTile),
    Hidden,
}

impl Pai {
    /// The tile, when it is shown.
    pub fn tile(self) -> Option<MjaiTile> {
        match self {
            Pai::Tile(t) => Some(t),
            Pai::Hidden => None,
        }
    }
}

impl From<MjaiTile> for Pai {
    fn from(t: MjaiTile) -> Pai {
        Pai::Tile(t)
    }
}

impl Serialize for Pai {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Pai::Tile(t) => t.serialize(s),
            Pai::Hidden => s.serialize_str("?"),
        }
    }
}

impl<'de> Deserialize<'de> for Pai {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Pai, D::Error> {
        struct Name;
        impl Visitor<'_> for Name {
            type Value = Pai;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a tile name or \"?\"")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Pai, E> {
                if s == "?" {
                    return Ok(Pai::Hidden);
                }
                MjaiTile::from_log_name(s).map(Pai::Tile).map_err(E::custom)
            }
        }
        d.deserialize_str(Name)
    }
}

/// `start_game`. Logs may state the rules here; a server greets each player with its seat (`id`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StartGame {
    /// The seat of the player the message is sent to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub names: Option<Vec<String>>,
    /// Red fives are played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aka_flag: Option<bool>,
    /// 0 for a hanchan, 4 for an east-only game (akochan).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kyoku_first: Option<u8>,
    /// `tonpu` (east-only) or `tonnan` (tenhou-python-bot).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gametype: Option<String>,
}

/// `start_kyoku`: the deal of a round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StartKyoku {
    /// The round wind: `E`, `S`, `W` or `N`.
    pub bakaze: MjaiTile,
    /// Absent only in logs of games under other rules (akochan's Chinese-rules self-play).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dora_marker: Option<MjaiTile>,
    /// 1 .. 4 within the wind.
    pub kyoku: u8,
    pub honba: u8,
    pub kyotaku: u8,
    pub oya: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<i32>>,
    /// The 13 tiles dealt to each seat; a player's view hides the others' hands.
    pub tehais: Vec<Vec<Pai>>,
}

/// `tsumo`: a draw, hidden (`?`) in a player's view of another seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tsumo {
    pub actor: u8,
    pub pai: Pai,
}

/// `dahai`: a discard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dahai {
    pub actor: u8,
    pub pai: MjaiTile,
    /// The discard is the tile just drawn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tsumogiri: Option<bool>,
}

/// `chi`, `pon` and `daiminkan`: a call of `target`'s discard `pai` with the `consumed` tiles of the hand.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Call {
    pub actor: u8,
    pub target: u8,
    pub pai: MjaiTile,
    pub consumed: Vec<MjaiTile>,
}

/// `kakan`: the tile `pai` added to a pon (`consumed`: the pon's three tiles).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Kakan {
    pub actor: u8,
    pub pai: MjaiTile,
    #[serde(default)]
    pub consumed: Vec<MjaiTile>,
}

/// `ankan`: a closed kan of the four `consumed` tiles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ankan {
    pub actor: u8,
    pub consumed: Vec<MjaiTile>,
}

/// `nukidora`: a north set aside (3 players); `pai` is `N` when given.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Nukidora {
    pub actor: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pai: Option<MjaiTile>,
}

/// `dora`: a new dora indicator (after a kan).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dora {
    pub dora_marker: MjaiTile,
}

/// `reach`: a riichi declared (the stick is paid at `reach_accepted`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reach {
    pub actor: u8,
}

/// `reach_accepted`: the riichi stick paid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReachAccepted {
    pub actor: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deltas: Option<Vec<i32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<i32>>,
}

/// `hora`: a win (`target` = `actor` for a tsumo), with what the log tells of its value.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Hora {
    pub actor: u8,
    pub target: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pai: Option<MjaiTile>,
    /// The ura dora indicators, under each name bots give them.
    #[serde(alias = "ura_markers", alias = "uradora_marker", skip_serializing_if = "Option::is_none")]
    pub uradora_markers: Option<Vec<MjaiTile>>,
    /// The concealed tiles (the winning one last for a tsumo).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hora_tehais: Option<Vec<MjaiTile>>,
    /// `[name, han]`, names as mjai's TenhouArchive writes them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub yakus: Option<Vec<(String, u32)>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fu: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fan: Option<u32>,
    /// The value of the hand before honba and sticks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hora_points: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deltas: Option<Vec<i32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<i32>>,
    /// Whatever else the bot says, as it says it (RiichiEnv's `meta.score`: `fu`, `yaku` ids ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Value>,
}

/// `ryukyoku`: a draw.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Ryukyoku {
    /// `fanpai` (exhaustive), `kyushukyuhai`, `suuchareach` ... (spellings vary between bots).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The seat that declared nine terminals.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actor: Option<u8>,
    /// The hands, `?` for each tile of a hand not shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tehais: Option<Vec<Vec<Pai>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tenpais: Option<Vec<bool>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deltas: Option<Vec<i32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<i32>>,
}

/// `end_kyoku`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EndKyoku {}

/// `end_game`, with the final scores in most logs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EndGame {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<i32>>,
}

/// `none`: a player lets a chance go (no call, no win).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Pass {}

/// `hello`: a server greeting a player that has just connected (gimite/mjai's TCP protocol).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Hello {
    /// `mjsonp`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    /// 3 for the original protocol.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol_version: Option<u32>,
}

/// `join`: a player's answer to `hello`: its name and the room it wants.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Join {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub room: Option<String>,
}

/// `error`: a server refusing a player's answer.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProtocolError {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// The message enum and its `type` names, from one list.
macro_rules! messages {
    ($($(#[doc = $doc:literal])* $name:literal => $variant:ident($body:ident),)*) => {
        /// One mjai message, tagged by its `type`.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "type")]
        pub enum Message {
            $($(#[doc = $doc])* #[serde(rename = $name)] $variant($body),)*
        }

        impl Message {
            /// Its `type`.
            pub fn kind(&self) -> &'static str {
                match self {
                    $(Message::$variant(_) => $name,)*
                }
            }

            /// The message of type `kind` in `raw`, read straight from the bytes (so that an error has its
            /// column); `None` for a type mjai does not have.
            fn of_kind(kind: &str, raw: &[u8]) -> Option<serde_json::Result<Message>> {
                Some(match kind {
                    $($name => serde_json::from_slice(raw).map(Message::$variant),)*
                    _ => return None,
                })
            }
        }
    };
}

messages! {
    "start_game" => StartGame(StartGame),
    "start_kyoku" => StartKyoku(StartKyoku),
    "tsumo" => Tsumo(Tsumo),
    "dahai" => Dahai(Dahai),
    "chi" => Chi(Call),
    "pon" => Pon(Call),
    "daiminkan" => Daiminkan(Call),
    "kakan" => Kakan(Kakan),
    "ankan" => Ankan(Ankan),
    "nukidora" => Nukidora(Nukidora),
    "reach" => Reach(Reach),
    "reach_accepted" => ReachAccepted(ReachAccepted),
    "dora" => Dora(Dora),
    "hora" => Hora(Hora),
    "ryukyoku" => Ryukyoku(Ryukyoku),
    "end_kyoku" => EndKyoku(EndKyoku),
    "end_game" => EndGame(EndGame),
    "none" => Pass(Pass),
    "error" => Error(ProtocolError),
    "hello" => Hello(Hello),
    "join" => Join(Join),
}

impl Message {
    /// Reads one line of an mjai log or stream: `None` for a `type` mjai does not have (a reader skips it).
    ///
    /// # Errors
    /// What is wrong, for people: not JSON (with the column), not an object, no `type`, or a field of a known
    /// type that is missing or does not read (`dahai: "pai": not a tile name: "X" at column 31`).
    pub fn from_line(raw: &[u8]) -> Result<Option<Message>, String> {
        /// Only the `type`: the rest of the line is skipped at this pass.
        #[derive(Deserialize)]
        struct Head<'a> {
            #[serde(borrow, rename = "type")]
            kind: Option<Cow<'a, str>>,
        }
        const NO_TYPE: &str = "mjai event without a \"type\" string";
        let raw = raw.trim_ascii();
        if raw.first() != Some(&b'{') {
            return Err(match serde_json::from_slice::<IgnoredAny>(raw) {
                Err(e) => not_json(&e),
                Ok(_) => "not an mjai event: a JSON object with a \"type\" expected".into(),
            });
        }
        let head: Head =
            serde_json::from_slice(raw).map_err(|e| if e.is_data() { NO_TYPE.into() } else { not_json(&e) })?;
        let kind = head.kind.ok_or(NO_TYPE)?;
        match Message::of_kind(&kind, raw) {
            None => Ok(None),
            Some(Ok(m)) => Ok(Some(m)),
            Some(Err(e)) => Err(bad_field(&kind, &e, raw)),
        }
    }
}

/// serde_json's words without its position: it counts lines within the one line it was given.
fn words(e: &serde_json::Error) -> String {
    let what = e.to_string();
    what.split(" at line ").next().unwrap_or_default().to_string()
}

fn not_json(e: &serde_json::Error) -> String {
    format!("not a JSON line: {} at column {}", words(e), e.column())
}

/// A field of a known type that does not read. serde names a missing or repeated field itself; any other
/// error is on the field being read at its column.
fn bad_field(kind: &str, e: &serde_json::Error, raw: &[u8]) -> String {
    let what = words(e);
    match key_at(raw, e.column()) {
        Some(key) if !what.contains("field `") => format!("{kind}: \"{key}\": {what} at column {}", e.column()),
        _ => format!("{kind}: {what} at column {}", e.column()),
    }
}

/// The key of the top-level field being read at `column` (serde_json's, 1-based) of a JSON object.
fn key_at(raw: &[u8], column: usize) -> Option<&str> {
    let (mut depth, mut in_string, mut escaped) = (0u32, false, false);
    let (mut start, mut last, mut key) = (0, 0..0, None);
    for (i, &b) in raw.iter().enumerate().take(column) {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => {
                    in_string = false;
                    last = start..i;
                }
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => {
                in_string = true;
                start = i + 1;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b':' if depth == 1 => key = Some(last.clone()),
            _ => {}
        }
    }
    key.and_then(|k| std::str::from_utf8(&raw[k]).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tile(name: &str) -> MjaiTile {
        name.parse().unwrap()
    }

    fn tiles(names: &str) -> Vec<MjaiTile> {
        names.split_whitespace().map(tile).collect()
    }

    /// One message of every type, with every field it can carry.
    fn every_message() -> Vec<Message> {
        let call = Call { actor: 1, target: 0, pai: tile("5pr"), consumed: tiles("4p 6p") };
        let hand: Vec<Pai> = tiles("1m 2m 3m 4p 5p 6p 7s 8s 9s E E E 9m").into_iter().map(Pai::from).collect();
        vec![
            Message::StartGame(StartGame {
                id: Some(2),
                names: Some(vec!["A".into(), "B".into(), "C".into(), "D".into()]),
                aka_flag: Some(true),
                kyoku_first: Some(0),
                gametype: Some("tonnan".into()),
            }),
            Message::StartKyoku(StartKyoku {
                bakaze: tile("S"),
                dora_marker: Some(tile("C")),
                kyoku: 2,
                honba: 1,
                kyotaku: 1,
                oya: 1,
                scores: Some(vec![25000, 24000, 25000, 25000]),
                tehais: vec![hand.clone(), vec![Pai::Hidden; 13], hand.clone(), vec![Pai::Hidden; 13]],
            }),
            Message::Tsumo(Tsumo { actor: 1, pai: Pai::Hidden }),
            Message::Tsumo(Tsumo { actor: 0, pai: Pai::Tile(tile("5mr")) }),
            Message::Dahai(Dahai { actor: 0, pai: tile("5mr"), tsumogiri: Some(true) }),
            Message::Chi(call.clone()),
            Message::Pon(Call { consumed: tiles("5p 5p"), ..call.clone() }),
            Message::Daiminkan(Call { consumed: tiles("5p 5p 5p"), ..call }),
            Message::Kakan(Kakan { actor: 2, pai: tile("C"), consumed: tiles("C C C") }),
            Message::Ankan(Ankan { actor: 3, consumed: tiles("N N N N") }),
            Message::Nukidora(Nukidora { actor: 0, pai: Some(tile("N")) }),
            Message::Reach(Reach { actor: 0 }),
            Message::ReachAccepted(ReachAccepted {
                actor: 0,
                deltas: Some(vec![-1000, 0, 0, 0]),
                scores: Some(vec![24000, 25000, 25000, 25000]),
            }),
            Message::Dora(Dora { dora_marker: tile("1s") }),
            Message::Hora(Hora {
                actor: 0,
                target: 3,
                pai: Some(tile("1s")),
                uradora_markers: Some(tiles("E")),
                hora_tehais: Some(tiles("1m 2m 3m 4m 5m 6m 7p 8p 9p 2s 3s 5s 5s")),
                yakus: Some(vec![("reach".into(), 1), ("pinfu".into(), 1)]),
                fu: Some(30),
                fan: Some(2),
                hora_points: Some(2900),
                deltas: Some(vec![3900, 0, 0, -2900]),
                scores: Some(vec![27900, 25000, 25000, 22100]),
                meta: Some(serde_json::json!({"score": {"fu": 30, "yaku": [1, 14]}})),
            }),
            Message::Ryukyoku(Ryukyoku {
                reason: Some("fanpai".into()),
                actor: None,
                tehais: Some(vec![hand.clone(), vec![Pai::Hidden; 13], hand, vec![Pai::Hidden; 13]]),
                tenpais: Some(vec![true, false, true, false]),
                deltas: Some(vec![1500, -1500, 1500, -1500]),
                scores: Some(vec![26500, 23500, 26500, 23500]),
            }),
            Message::Ryukyoku(Ryukyoku { reason: Some("kyushukyuhai".into()), actor: Some(2), ..Ryukyoku::default() }),
            Message::EndKyoku(EndKyoku {}),
            Message::EndGame(EndGame { scores: Some(vec![26500, 23500, 26500, 23500]) }),
            Message::EndGame(EndGame::default()),
            Message::Pass(Pass {}),
            Message::Error(ProtocolError { message: Some("unexpected response".into()) }),
            Message::Hello(Hello { protocol: Some("mjsonp".into()), protocol_version: Some(3) }),
            Message::Join(Join { name: "Ann".into(), room: Some("default".into()) }),
        ]
    }

    #[test]
    fn every_message_type_round_trips() {
        let all = every_message();
        let mut kinds: Vec<&str> = all.iter().map(Message::kind).collect();
        kinds.dedup();
        assert_eq!(kinds.len(), 21, "one of each type: {kinds:?}");
        for m in &all {
            let line = serde_json::to_string(m).unwrap();
            assert!(line.starts_with(&format!("{{\"type\":\"{}\"", m.kind())), "{line}");
            assert_eq!(Message::from_line(line.as_bytes()), Ok(Some(m.clone())), "{line}");
            assert_eq!(&serde_json::from_str::<Message>(&line).unwrap(), m, "{line}");
        }
    }

    #[test]
    fn lines_as_bots_write_them() {
        let read = |s: &str| Message::from_line(s.as_bytes());
        assert_eq!(read(r#"{"type":"bye","reason":"x"}"#), Ok(None), "unknown: skipped");
        let hello = Hello { protocol: Some("mjsonp".into()), protocol_version: Some(3) };
        assert_eq!(
            read(r#"{"type":"hello","protocol":"mjsonp","protocol_version":3}"#),
            Ok(Some(Message::Hello(hello)))
        );
        let join = Join { name: "Ann".into(), room: None };
        assert_eq!(read(r#"{"type":"join","name":"Ann"}"#), Ok(Some(Message::Join(join))));
        let Ok(Some(Message::Hora(h))) = read(r#"{"type":"hora","actor":0,"target":0,"ura_markers":["0s"]}"#) else {
            panic!("a hora")
        };
        assert_eq!(h.uradora_markers, Some(tiles("5sr")), "another name, Tenhou's red spelling");
        let Ok(Some(Message::Hora(h))) = read(r#"{"type":"hora","actor":0,"target":0,"uradora_marker":[]}"#) else {
            panic!("a hora")
        };
        assert_eq!(h.uradora_markers, Some(Vec::new()));
        let Ok(Some(Message::Dahai(d))) = read(r#"{"type":"dahai","actor":1,"pai":"E","logs":[null],"meta":{}}"#)
        else {
            panic!("a dahai")
        };
        assert_eq!((d.actor, d.tsumogiri), (1, None), "other fields are ignored");
        assert_eq!(read(r#" {"type":"none"} "#), Ok(Some(Message::Pass(Pass {}))));
    }

    #[test]
    fn errors_name_the_field() {
        let err = |s: &str| Message::from_line(s.as_bytes()).unwrap_err();
        let e = err(r#"{"type":"dahai","actor":0,"pai":"X","tsumogiri":false}"#);
        assert!(e.starts_with(r#"dahai: "pai": not a tile name: "X" at column"#), "{e}");
        let e = err(r#"{"type":"dahai","actor":0,"pai":"?"}"#);
        assert!(e.contains(r#""pai": a hidden tile ("?")"#), "{e}");
        let e = err(r#"{"type":"chi","actor":1,"target":0,"pai":"3p","consumed":["4p",5]}"#);
        assert!(e.starts_with(r#"chi: "consumed": invalid type: integer `5`"#), "{e}");
        let e = err(r#"{"type":"tsumo","pai":"1m"}"#);
        assert!(e.starts_with("tsumo: missing field `actor`"), "{e}");
        let e = err(r#"{"type":"start_kyoku","oya":-1}"#);
        assert!(e.starts_with(r#"start_kyoku: "oya": invalid value"#), "{e}");
        assert!(err(r#"{"type":"tsumo","#).starts_with("not a JSON line"));
        assert!(err("[1, 2]").starts_with("not an mjai event"));
        assert!(err(r#"{"type":3}"#).contains("without a \"type\""));
        assert!(err(r#"{"actor":3}"#).contains("without a \"type\""));
    }
}
