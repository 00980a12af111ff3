//! The mjai player's protocol loop: one message per line in, one answer per line out, on stdin/stdout or as a
//! TCP client of an mjai server (gimite/mjai's protocol: `hello` is answered with `join`, every other message
//! with the seat's action or `none`).
//!
//! A line the player cannot read, or a message that contradicts what the seat knows, is named on standard
//! error (line number, message type, why) and answered with `none`: the server decides what to do with the
//! seat, the player never stops on it. The loop ends at the end of the input (the server closing).

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use haifu_record::mjai::message::{self as m, Message};
use haifu_sim::{Action, Bot};

use crate::follow::{Follower, Question};
use crate::policy::Player;

/// Who decides: the imitator of a player, or one of `haifu sim`'s bots.
pub enum Brain {
    Player(Box<Player>),
    Bot(Box<dyn Bot + Send>),
}

impl Brain {
    fn decide(&mut self, f: &Follower, legal: &[Action]) -> Action {
        match self {
            Brain::Player(p) => p.decide(f, legal),
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

/// Plays on `input` / `output` until the input ends. `name` is the name given in `join`.
pub fn run(input: impl BufRead, mut output: impl Write, brain: &mut Brain, name: &str) -> Result<Session> {
    let mut session = Session::default();
    let mut follower = Follower::new(0);
    let mut legal = Vec::with_capacity(32);
    for (i, line) in input.lines().enumerate() {
        let line_no = i as u64 + 1;
        let line = line.with_context(|| format!("reading line {line_no}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let started = Instant::now();
        session.messages += 1;
        let answer = match Message::from_line(line.as_bytes()) {
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
                match follower.take(&msg) {
                    Err(e) => {
                        eprintln!("mjai-bot {name}: line {line_no}: {e}");
                        session.problems.push((line_no, e.to_string()));
                        pass()
                    }
                    Ok(()) => {
                        follower.legal_actions(&mut legal);
                        if legal.is_empty() || !follower.asked() {
                            pass()
                        } else {
                            let a = brain.decide(&follower, &legal);
                            let out = follower.answer(&a);
                            let kind = match follower.question() {
                                Some(Question::Turn { .. }) => "turn",
                                Some(Question::RiichiDiscard) => "riichi",
                                _ => "respond",
                            };
                            session.latencies.push((kind, started.elapsed()));
                            out
                        }
                    }
                }
            }
        };
        let text = serde_json::to_string(&answer).context("writing an answer")?;
        writeln!(output, "{text}").and_then(|_| output.flush()).context("sending an answer")?;
    }
    Ok(session)
}

fn pass() -> Message {
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
