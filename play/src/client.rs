//! The mjai player's protocol loop: one message per line in, one answer per line out, on stdin/stdout or as a
//! TCP client of an mjai server (gimite/mjai's protocol: `hello` is answered with `join`, every other message
//! with the seat's action or `none`).
//!
//! A line the player cannot read (not UTF-8, not JSON, not an mjai message), or a message that contradicts what
//! the seat knows, is named on standard error (line number, message type, why) and answered with `none`: the
//! server decides what to do with the seat, the player never stops on it. Game messages before any
//! `start_game` (which says the seat and the rules) are named once, in one line, and answered `none` until a
//! `start_game` comes. The loop ends at the end of the input (the server closing).

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use haifu_record::mjai::message::{self as m, Message};
use haifu_sim::{Action, Bot};

use crate::follow::{FollowError, Follower, Question};
use crate::policy::Imitator;

/// Who decides: the imitator of a player, or one of `haifu sim`'s bots.
pub enum Brain {
    Imitator(Box<Imitator>),
    Bot(Box<dyn Bot + Send>),
}

impl Brain {
    fn decide(&mut self, f: &Follower, legal: &[Action]) -> Action {
        match self {
            Brain::Imitator(p) => p.decide(f, legal),
            Brain::Bot(b) => {
                let view = f.view();
                let a = b.decide(&view, legal);
                // a sim bot answers a riichi discard due with any discard: keep it a riichi one
                if let (Some(Question::RiichiDiscard), Action::Discard { tile, .. }) = (f.question(), a) {
                    let r = Action::Discard { tile, riichi: true };
                    return if legal.contains(&r) { r } else { legal[0] };
                }
                a
            }
        }
    }
}

/// What a session did: messages read, decisions made and how long each took, lines it could not use.
#[derive(Clone, Debug, Default)]
pub struct Session {
    pub messages: u64,
    pub games: u64,
    /// Time from reading a message that asks something to writing the answer, by what was asked (`turn`,
    /// `riichi` for the riichi discard, `respond` to another seat's tile).
    pub latencies: Vec<(&'static str, Duration)>,
    /// Lines that did not read or did not fit what the seat knows: (line number, why).
    pub problems: Vec<(u64, String)>,
    /// `error` messages the server sent.
    pub server_errors: Vec<String>,
}

impl Session {
    /// The `q` quantile (0..=1) of the decision latencies (of one kind of question, or all).
    pub fn latency(&self, q: f64, kind: Option<&str>) -> Option<Duration> {
        let mut v: Vec<Duration> =
            self.latencies.iter().filter(|(k, _)| kind.is_none_or(|x| x == *k)).map(|&(_, d)| d).collect();
        v.sort_unstable();
        (!v.is_empty()).then(|| v[((v.len() - 1) as f64 * q).round() as usize])
    }

    pub fn to_json(&self) -> serde_json::Value {
        let us = |d: Option<Duration>| d.map(|d| d.as_secs_f64() * 1e6);
        let by_kind: serde_json::Map<String, serde_json::Value> = ["turn", "riichi", "respond"]
            .iter()
            .map(|k| {
                let n = self.latencies.iter().filter(|(x, _)| x == k).count();
                let v = serde_json::json!({
                    "decisions": n,
                    "median_us": us(self.latency(0.5, Some(k))),
                    "p99_us": us(self.latency(0.99, Some(k))),
                });
                (k.to_string(), v)
            })
            .collect();
        serde_json::json!({
            "messages": self.messages,
            "games": self.games,
            "decisions": self.latencies.len(),
            "latency_median_us": us(self.latency(0.5, None)),
            "latency_p99_us": us(self.latency(0.99, None)),
            "latency_by_question": by_kind,
            "problems": self.problems.iter().map(|(l, w)| serde_json::json!({"line": l, "why": w})).collect::<Vec<_>>(),
            "server_errors": self.server_errors,
        })
    }
}

/// Game messages read while no game has started: where the first was, and how many.
struct NoGame {
    problem: usize,
    messages: u64,
}

/// Plays on `input` / `output` until the input ends. `name` is the name given in `join`.
pub fn run(mut input: impl BufRead, mut output: impl Write, brain: &mut Brain, name: &str) -> Result<Session> {
    let mut session = Session::default();
    let mut follower = Follower::new(0);
    let mut legal = Vec::with_capacity(32);
    let mut no_game: Option<NoGame> = None;
    let mut raw = Vec::new();
    for line_no in 1u64.. {
        raw.clear();
        // bytes, not text: a line that is not UTF-8 is one bad line, not the end of the session
        if input.read_until(b'\n', &mut raw).with_context(|| format!("reading line {line_no}"))? == 0 {
            break;
        }
        let line = match std::str::from_utf8(&raw) {
            Ok(l) => l,
            Err(e) => {
                let why = format!("not UTF-8 text (byte {} of the line)", e.valid_up_to() + 1);
                eprintln!("mjai-bot {name}: line {line_no}: {why}");
                session.messages += 1;
                session.problems.push((line_no, why));
                send(&mut output, &pass())?;
                continue;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let started = Instant::now();
        session.messages += 1;
        let answer = match Message::from_line(line.as_bytes()) {
            Ok(Some(msg)) if !follower.in_game() && needs_game(&msg) => {
                match &mut no_game {
                    Some(n) => n.messages += 1,
                    None => {
                        let why = format!(
                            "`{}` before any `start_game`: no game to follow (`start_game` says the seat and the \
                             rules); every message is answered `none` until one comes",
                            msg.kind()
                        );
                        eprintln!("mjai-bot {name}: line {line_no}: {why}");
                        no_game = Some(NoGame { problem: session.problems.len(), messages: 1 });
                        session.problems.push((line_no, why));
                    }
                }
                pass()
            }
            Err(why) => {
                session.problems.push((line_no, why.clone()));
                eprintln!("mjai-bot {name}: line {line_no}: cannot read the message: {why}");
                pass()
            }
            Ok(None) => {
                let why = "a message of a type mjai does not have".to_string();
                eprintln!("mjai-bot {name}: line {line_no}: {why}: {}", line.trim());
                session.problems.push((line_no, why));
                pass()
            }
            Ok(Some(Message::Hello(_))) => {
                Message::Join(m::Join { name: name.to_string(), room: Some("default".to_string()) })
            }
            Ok(Some(Message::Error(e))) => {
                let why = e.message.unwrap_or_default();
                eprintln!("mjai-bot {name}: the server says: {why}");
                session.server_errors.push(why);
                pass()
            }
            Ok(Some(msg)) => {
                if matches!(msg, Message::EndGame(_)) {
                    session.games += 1;
                }
                if matches!(msg, Message::StartGame(_)) {
                    close_no_game(&mut session, no_game.take());
                }
                match respond(&mut follower, brain, &mut legal, &msg) {
                    Err(e) => {
                        eprintln!("mjai-bot {name}: line {line_no}: {e}");
                        session.problems.push((line_no, e.to_string()));
                        pass()
                    }
                    Ok(None) => pass(),
                    Ok(Some((out, kind))) => {
                        session.latencies.push((kind, started.elapsed()));
                        out
                    }
                }
            }
        };
        send(&mut output, &answer)?;
    }
    close_no_game(&mut session, no_game);
    Ok(session)
}

/// The follower takes a game message and, where it asks the seat something, the brain chooses among the seat's
/// legal actions (`legal`: scratch space): the answer and what was asked (`turn`, `riichi`, `respond`), or
/// `None` when nothing was (the answer is `none`).
pub fn respond(
    follower: &mut Follower,
    brain: &mut Brain,
    legal: &mut Vec<Action>,
    msg: &Message,
) -> Result<Option<(Message, &'static str)>, FollowError> {
    follower.take(msg)?;
    follower.legal_actions(legal);
    if legal.is_empty() || !follower.asked() {
        return Ok(None);
    }
    let a = brain.decide(follower, legal);
    let kind = match follower.question() {
        Some(Question::Turn { .. }) => "turn",
        Some(Question::RiichiDiscard) => "riichi",
        _ => "respond",
    };
    Ok(Some((follower.answer(&a), kind)))
}

/// A message that only means something in a game: everything but `hello`, `error` and `start_game`.
pub fn needs_game(msg: &Message) -> bool {
    !matches!(msg, Message::Hello(_) | Message::Error(_) | Message::StartGame(_))
}

/// Says in the one problem line how many messages came while no game had started.
fn close_no_game(session: &mut Session, no_game: Option<NoGame>) {
    if let Some(n) = no_game {
        if let Some((_, why)) = session.problems.get_mut(n.problem) {
            why.push_str(&format!(" ({} messages)", n.messages));
        }
    }
}

fn send(output: &mut impl Write, answer: &Message) -> Result<()> {
    let text = serde_json::to_string(answer).context("writing an answer")?;
    writeln!(output, "{text}").and_then(|_| output.flush()).context("sending an answer")
}

/// The answer `none`.
pub fn pass() -> Message {
    Message::Pass(m::Pass {})
}

/// Connects to an mjai server at `addr` and plays until it closes the connection.
pub fn run_tcp(addr: &str, brain: &mut Brain, name: &str, timeout: Option<Duration>) -> Result<Session> {
    let stream = connect(addr, timeout)?;
    stream.set_nodelay(true).ok();
    let reader = BufReader::new(stream.try_clone().context("cloning the connection")?);
    run(reader, stream, brain, name)
}

/// Connects, retrying for up to `timeout` while the server is not yet listening.
fn connect(addr: &str, timeout: Option<Duration>) -> Result<TcpStream> {
    let until = Instant::now() + timeout.unwrap_or(Duration::ZERO);
    loop {
        match TcpStream::connect(addr) {
            Ok(s) => return Ok(s),
            Err(e) if Instant::now() < until => {
                let _ = e;
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => return Err(e).with_context(|| format!("connecting to the mjai server at {addr}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(input: &[u8]) -> (Session, Vec<serde_json::Value>) {
        let mut brain = Brain::Bot(haifu_sim::style::bot_by_name("greedy", 0).unwrap());
        let mut out = Vec::new();
        let session = run(input, &mut out, &mut brain, "t").unwrap();
        let answers = String::from_utf8(out).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        (session, answers)
    }

    const HAND: &str = r#"["1m","2m","3m","4p","5p","6p","7s","8s","9s","E","E","S","W"]"#;
    const HIDDEN: &str = r#"["?","?","?","?","?","?","?","?","?","?","?","?","?"]"#;

    fn kyoku() -> String {
        format!(
            r#"{{"type":"start_kyoku","bakaze":"E","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"dora_marker":"1p","tehais":[{HIDDEN},{HAND},{HIDDEN},{HIDDEN}]}}"#
        )
    }

    /// A line that is not UTF-8 is one problem answered `none` (issue 30: the player stopped on it, exit 1).
    #[test]
    fn a_line_that_is_not_utf8_is_one_problem() {
        let mut input = Vec::new();
        input.extend_from_slice(b"{\"type\":\"start_game\",\"id\":1,\"names\":[\"A\",\"B\",\"C\",\"D\"]}\n");
        input.extend_from_slice(b"{\"type\":\"tsu\xffmo\"}\n");
        input.extend_from_slice(format!("{}\n", kyoku()).as_bytes());
        input.extend_from_slice(b"{\"type\":\"tsumo\",\"actor\":1,\"pai\":\"N\"}\n");
        let (session, answers) = play(&input);
        assert_eq!(answers.len(), 4, "one answer a line: {answers:?}");
        assert_eq!(answers[1]["type"], "none");
        assert_eq!(answers[3]["type"], "dahai", "the game goes on");
        assert_eq!(session.problems.len(), 1, "{:?}", session.problems);
        assert_eq!(session.problems[0].0, 2);
        assert!(session.problems[0].1.contains("not UTF-8"), "{:?}", session.problems);
    }

    /// Game messages before any `start_game` give one problem, not one per message (issue 30: 570 lines), and
    /// the game that starts afterwards is played.
    #[test]
    fn messages_before_start_game_are_one_problem() {
        let mut lines = vec![kyoku()];
        for _ in 0..5 {
            lines.push(r#"{"type":"tsumo","actor":0,"pai":"?"}"#.into());
            lines.push(r#"{"type":"dahai","actor":0,"pai":"N","tsumogiri":true}"#.into());
        }
        lines.push(r#"{"type":"start_game","id":1,"names":["A","B","C","D"]}"#.into());
        lines.push(kyoku());
        lines.push(r#"{"type":"tsumo","actor":1,"pai":"N"}"#.into());
        let (session, answers) = play((lines.join("\n") + "\n").as_bytes());
        assert_eq!(answers.len(), lines.len());
        assert!(answers[..11].iter().all(|a| a["type"] == "none"), "{answers:?}");
        assert_eq!(answers[13]["type"], "dahai", "the game that starts is played: {answers:?}");
        assert_eq!(session.problems.len(), 1, "{:?}", session.problems);
        let (line, why) = &session.problems[0];
        assert_eq!(*line, 1);
        assert!(why.contains("`start_kyoku` before any `start_game`") && why.contains("(11 messages)"), "{why}");
    }
}
