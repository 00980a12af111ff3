//! The JSON layer: the game objects of a file with the byte offsets of each object and of each of its rounds
//! (errors name the round's own line), and the checked accessors the other parts read values with.

use serde_json::{Map, Value};

use crate::error::ReadError;

/// A game object of the file: where it starts, where each of its rounds (`log` entries) starts, its fields.
pub(super) struct Object {
    pub(super) at: u64,
    pub(super) rounds_at: Vec<u64>,
    pub(super) fields: Map<String, Value>,
}

pub(super) type Objects = Vec<Object>;

/// The `log` of a game object, each round as its raw text (so that its place in the file is known).
#[derive(serde::Deserialize)]
struct RawGame<'a> {
    #[serde(borrow, default)]
    log: Vec<&'a serde_json::value::RawValue>,
}

/// Byte offsets of the rounds of each game object in `text[start..end]` (an object, or an array of them);
/// empty lists where the shape is not that (the error then points at the object).
fn round_offsets(text: &[u8], start: usize, end: usize) -> Vec<Vec<u64>> {
    let slice = &text[start..end.min(text.len())];
    let base = text.as_ptr() as usize;
    let offsets = |g: &RawGame| g.log.iter().map(|r| (r.get().as_ptr() as usize - base) as u64).collect();
    match slice.first() {
        Some(b'{') => serde_json::from_slice::<RawGame>(slice).map(|g| vec![offsets(&g)]).unwrap_or_default(),
        Some(b'[') => {
            serde_json::from_slice::<Vec<RawGame>>(slice).map(|gs| gs.iter().map(offsets).collect()).unwrap_or_default()
        }
        _ => Vec::new(),
    }
}

/// The objects of the file with their byte offsets.
pub(super) fn read_objects(text: &[u8]) -> Result<Objects, ReadError> {
    let bom = if text.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    let body = &text[bom..];
    let mut stream = serde_json::Deserializer::from_slice(body).into_iter::<Value>();
    let mut out = Vec::new();
    loop {
        let before = stream.byte_offset();
        let start = (bom + before + body[before..].iter().take_while(|b| b.is_ascii_whitespace()).count()) as u64;
        let next = stream.next();
        let mut rounds_at = round_offsets(text, start as usize, bom + stream.byte_offset()).into_iter();
        let mut object = |fields| Object { at: start, rounds_at: rounds_at.next().unwrap_or_default(), fields };
        match next {
            None => break,
            Some(Ok(Value::Object(o))) => out.push(object(o)),
            Some(Ok(Value::Array(items))) => {
                for item in items {
                    match item {
                        Value::Object(o) => out.push(object(o)),
                        other => return Err(not_a_game(text, start, &other)),
                    }
                }
            }
            Some(Ok(other)) => return Err(not_a_game(text, start, &other)),
            Some(Err(e)) => {
                let at = bom as u64 + json_error_offset(body, &e);
                return Err(ReadError::at(text, at, format!("not valid JSON: {e}")));
            }
        }
    }
    if out.is_empty() {
        return Err(ReadError::at(text, 0, "no JSON object: not a tenhou.net/6 game".into()));
    }
    Ok(out)
}

fn not_a_game(text: &[u8], at: u64, v: &Value) -> ReadError {
    let what = match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    };
    ReadError::at(text, at, format!("{what} where a tenhou.net/6 game object is expected"))
}

/// Byte offset of a serde_json error (it reports 1-based line and column).
fn json_error_offset(body: &[u8], e: &serde_json::Error) -> u64 {
    let mut line_start = 0;
    for _ in 1..e.line() {
        match body[line_start..].iter().position(|&b| b == b'\n') {
            Some(p) => line_start += p + 1,
            None => break,
        }
    }
    (line_start + e.column().saturating_sub(1)).min(body.len()) as u64
}

pub(super) fn int(v: &Value, what: &str) -> Result<i64, String> {
    match v {
        Value::Number(n) => n
            .as_i64()
            .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64))
            .ok_or_else(|| format!("{what}: {n} is not an integer")),
        other => Err(format!("{what}: {} is not a number", show(other))),
    }
}

/// A value as JSON, cut short for a message.
pub(super) fn show(v: &Value) -> String {
    let mut s = v.to_string();
    if let Some((cut, _)) = s.char_indices().nth(40) {
        s.truncate(cut);
        s.push_str("...");
    }
    s
}

pub(super) fn array<'v>(v: &'v Value, what: &str) -> Result<&'v [Value], String> {
    v.as_array().map(Vec::as_slice).ok_or_else(|| format!("{what} is not an array"))
}
