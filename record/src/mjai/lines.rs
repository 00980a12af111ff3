//! An mjai log's lines as messages, each with where it is in the file, cut into games.

use super::message::Message;
use crate::error::ReadError;

/// One message of the log.
pub(super) struct Line {
    /// 1-based line number in the file.
    pub no: u32,
    /// Byte offset of the line's start in the file.
    pub at: u64,
    pub msg: Message,
}

impl Line {
    /// An error on this line.
    pub fn error(&self, message: String) -> ReadError {
        ReadError::line(self.no, self.at, message)
    }
}

/// Every message of the log; lines of a `type` mjai does not have are skipped.
pub(super) fn read_lines(text: &[u8]) -> Result<Vec<Line>, ReadError> {
    let body = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    let mut out = Vec::new();
    let mut at = (text.len() - body.len()) as u64;
    for (i, line) in body.split(|&b| b == b'\n').enumerate() {
        let no = i as u32 + 1;
        let start = at;
        at += line.len() as u64 + 1;
        if line.trim_ascii().is_empty() {
            continue;
        }
        if line.len() > crate::source::MAX_LINE_BYTES {
            let why = format!(
                "a line of {} bytes: beyond haifu's limit of {} MiB for one mjai line",
                line.len(),
                crate::source::MAX_LINE_BYTES >> 20
            );
            return Err(ReadError::line(no, start, why));
        }
        if let Some(msg) = Message::from_line(line).map_err(|m| ReadError::line(no, start, m))? {
            out.push(Line { no, at: start, msg });
        }
    }
    Ok(out)
}

/// Messages that only make sense inside a game.
fn in_game_only(m: &Message) -> bool {
    use Message::*;
    matches!(
        m,
        Tsumo(_)
            | Dahai(_)
            | Chi(_)
            | Pon(_)
            | Daiminkan(_)
            | Ankan(_)
            | Kakan(_)
            | Nukidora(_)
            | Dora(_)
            | Reach(_)
            | ReachAccepted(_)
            | Hora(_)
            | Ryukyoku(_)
    )
}

/// Cuts the lines into games: `start_game` .. `end_game`, or from a `start_kyoku` with no game open.
pub(super) fn split_games(lines: Vec<Line>) -> Result<Vec<Vec<Line>>, ReadError> {
    let mut games = Vec::new();
    let mut current: Option<Vec<Line>> = None;
    for line in lines {
        match &line.msg {
            Message::StartGame(_) => {
                games.extend(current.take());
                current = Some(vec![line]);
            }
            Message::EndGame(_) => {
                // an end_game with no game open (a repeated one) carries nothing
                if let Some(mut g) = current.take() {
                    g.push(line);
                    games.push(g);
                }
            }
            Message::StartKyoku(_) if current.is_none() => current = Some(vec![line]),
            m => match current.as_mut() {
                Some(g) => g.push(line),
                None if in_game_only(m) => {
                    let kind = m.kind();
                    return Err(line.error(format!("{kind} outside a game (no start_game or start_kyoku before it)")));
                }
                None => {}
            },
        }
    }
    games.extend(current);
    if games.is_empty() {
        return Err(ReadError::line(1, 0, "no game in the file (no start_game or start_kyoku line)".into()));
    }
    Ok(games)
}
