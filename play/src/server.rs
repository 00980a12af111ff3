//! The game engine of `haifu-sim` as an mjai game server (`haifu mjai-server`): clients join over TCP, play
//! Tenhou-rule games, and every game is written as an mjlog and an mjai log.
//!
//! # Protocol (gimite/mjai's TCP protocol: one JSON object per line, `\n`-terminated)
//! 1. On connect the server sends `{"type":"hello","protocol":"mjsonp","protocol_version":3}`; the client
//!    answers `{"type":"join","name":"NAME","room":"default"}` (the room is not looked at).
//! 2. Once N clients (3 or 4) have joined, the games start. Client `i` (in the order of joining) sits at seat
//!    `(i + g) % N` in game `g`, so the seats rotate; `start_game.names` are the join names by seat.
//! 3. Every event of the game goes to every client as the mjai line [`to_mjai`] writes for it, each client's
//!    copy masked: `start_game.id` is its seat, `start_kyoku.tehais` shows only its own hand and another
//!    seat's `tsumo` is `"?"`. After every line the server sends (an `error` included) the client answers
//!    exactly one line: `{"type":"none"}`, or its action.
//! 4. Answers are actions only from the seats the engine asks ([`Engine::to_act`]), to the line that asks
//!    them: a seat's own `tsumo`, `chi` or `pon` (then `dahai`, `reach`, `hora` for a tsumo, `ankan`, `kakan`,
//!    `nukidora`, `ryukyoku` for nine terminals), or another seat's `dahai`, `kakan`, `ankan` or `nukidora`
//!    (then `hora`, `chi`, `pon`, `daiminkan` or `none`; a call may also answer the `dora` that mjai sends
//!    right after a discard that follows an open kan). `reach` is sent back to everyone at once and the
//!    actor's answer to it is its riichi `dahai`; `reach_accepted` follows the discard, as the engine writes
//!    it. Tiles of the hand are chosen by mjai name (red fives apart); a `tsumogiri` discard takes the tile
//!    just drawn. The engine says what is legal.
//!
//! # Robustness
//! - An answer that is not JSON, not an mjai message or of an unknown type, an action out of turn (from a
//!   seat not asked, or before the line that asks it) and an action the engine refuses get the client an
//!   `{"type":"error","message":"..."}` naming its line and what was wrong. The server then plays for the
//!   seat: in its turn the tile it drew (after a call the first legal discard; after its `reach` a riichi
//!   discard, the drawn tile when it can), in a response a pass. Out-of-turn actions are ignored.
//! - A client that disconnects (end of stream, write error) or does not answer within the timeout is dropped
//!   for the rest of the match, and its seat is played as above (tsumogiri, pass), as Tenhou plays for a
//!   disconnected player. Every read has a deadline, so the server never waits for ever once the games
//!   have started; games always complete.
//! - After the last game's `end_game` the server reads each answer briefly (a client may close at once) and
//!   closes the connections.
//! - A `join` read where an answer is due (a client that said `join` twice) answers nothing: the client gets an
//!   `error` saying so and the next line is taken as its answer, so it does not stay a line behind.
//! - A client that connects once the table is full gets an `error` saying so and is closed at once (logged on
//!   standard error and listed in the report's `turned_away`); a server plays one match.
//!
//! The unmasked lines sent for a game are exactly [`to_mjai`] of its record: that is the game's `.mjson`.

use std::borrow::Cow;
use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use haifu_record::event::GameRecord;
use haifu_record::mjai::answer::{self, actor_of, Asked};
use haifu_record::mjai::message::{self as m, Message, Pai};
use haifu_record::mjai::write::{to_mjai, MjaiWriter};
use haifu_sim::{Action, Engine, SeededWall, TableRules, TurnStart};
use serde::Serialize;

/// What [`serve`] plays.
#[derive(Clone, Debug)]
pub struct ServerOptions {
    /// 3 or 4.
    pub players: u8,
    /// Games in the match.
    pub games: usize,
    /// Game `g` is played on the wall of `SeededWall::new(seed + g)`.
    pub seed: u64,
    /// Hanchan (east and south) or east-only games.
    pub hanchan: bool,
    /// Where each game is written (`NNNN.mjlog`, `NNNN.mjson`); nowhere when `None`.
    pub out: Option<PathBuf>,
    /// How long a client may take to answer one line (and to join).
    pub timeout: Duration,
    /// How long a client may take over all its answers of one game; once spent, the client is dropped and its
    /// seat played for (a client that answers just under `timeout` would otherwise hold the table for hours:
    /// a game is about 1,400 lines a client). `None`: no budget.
    pub game_budget: Option<Duration>,
    /// How long to wait for all the players to join; for ever when `None`.
    pub join_timeout: Option<Duration>,
}

/// [`ServerOptions::game_budget`] unless set: ten minutes of answering a game (a bot takes seconds, a person
/// at Tenhou's pace a few minutes).
pub const DEFAULT_GAME_BUDGET: Duration = Duration::from_secs(600);

impl ServerOptions {
    /// One hanchan of `players` on seed 0, 10 s per answer, written nowhere.
    pub fn new(players: u8) -> ServerOptions {
        ServerOptions {
            players,
            games: 1,
            seed: 0,
            hanchan: true,
            out: None,
            timeout: Duration::from_secs(10),
            game_budget: Some(DEFAULT_GAME_BUDGET),
            join_timeout: None,
        }
    }

    /// Tenhou's `GO type` of the games, as `haifu sim` picks it: 0xA1 (red fives, open tanyao), 0x08 hanchan,
    /// 0x10 three players (169 and 185 for the hanchan).
    pub fn go_type(&self) -> u32 {
        0xA1 | if self.hanchan { 0x08 } else { 0 } | if self.players == 3 { 0x10 } else { 0 }
    }

    pub fn rules(&self) -> TableRules {
        TableRules::from_go_type(self.go_type())
    }
}

/// One seat of a finished game.
#[derive(Clone, Debug, Serialize)]
pub struct SeatSummary {
    pub seat: u8,
    /// The client (in the order of joining) at this seat.
    pub client: usize,
    pub name: String,
    /// The final score (after `owari`).
    pub score: i32,
    /// The protocol errors sent to the client in this game.
    pub errors: Vec<String>,
    /// The client was dropped (in this game or before): the server played the seat from then on.
    pub dropped: bool,
}

/// One finished game.
#[derive(Clone, Debug, Serialize)]
pub struct GameSummary {
    /// Its index in the match.
    pub game: usize,
    pub seed: u64,
    pub go_type: u32,
    pub rounds: usize,
    pub mjlog: Option<PathBuf>,
    pub mjson: Option<PathBuf>,
    /// Final scores by seat.
    pub scores: Vec<i32>,
    pub seats: Vec<SeatSummary>,
    /// The game as the engine wrote it.
    #[serde(skip)]
    pub record: GameRecord,
}

/// One client over the whole match.
#[derive(Clone, Debug, Serialize)]
pub struct ClientSummary {
    pub client: usize,
    pub name: String,
    /// Protocol errors sent to it.
    pub errors: usize,
    /// Why it was dropped (disconnected, too slow), when it was.
    pub dropped: Option<String>,
}

/// What [`serve`] did.
#[derive(Clone, Debug, Serialize)]
pub struct ServeReport {
    pub games: Vec<GameSummary>,
    pub clients: Vec<ClientSummary>,
    /// Clients that connected once the table was full (their address), each sent an `error` and closed.
    pub turned_away: Vec<String>,
}

/// Waits for `opts.players` clients on `listener`, plays the match and closes the connections; `on_game` is
/// called after each game (its files written).
///
/// # Errors
/// Bad options, the players not joining within `opts.join_timeout`, a game file that cannot be written, or an
/// engine that refuses an action it listed as legal (a bug). Clients' mistakes are not errors (see the module
/// notes).
pub fn serve(
    listener: TcpListener,
    opts: &ServerOptions,
    mut on_game: impl FnMut(&GameSummary),
) -> Result<ServeReport> {
    if !(3..=4).contains(&opts.players) {
        bail!("{} players: 3 or 4 play", opts.players);
    }
    if opts.timeout.is_zero() {
        bail!("the answer timeout must be more than 0");
    }
    if let Some(dir) = &opts.out {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut conns = accept_players(&listener, opts)?;
    let mut games = Vec::with_capacity(opts.games);
    let (full, turned_away) = (AtomicBool::new(true), Mutex::new(Vec::new()));
    std::thread::scope(|scope| {
        scope.spawn(|| turn_away(&listener, opts, &full, &turned_away));
        let played = (0..opts.games).try_for_each(|g| {
            let summary = play_game(&mut conns, opts, g)?;
            on_game(&summary);
            games.push(summary);
            Ok::<_, anyhow::Error>(())
        });
        full.store(false, Ordering::Relaxed);
        played
    })?;
    for c in &mut conns {
        c.close();
    }
    let turned_away = turned_away.into_inner().unwrap_or_else(|e| e.into_inner());
    let clients = conns
        .iter()
        .enumerate()
        .map(|(i, c)| ClientSummary { client: i, name: c.name.clone(), errors: c.errors, dropped: c.dropped.clone() })
        .collect();
    Ok(ServeReport { games, clients, turned_away })
}

/// While `full` holds, answers every client that connects with an `error` (the table is full) and closes it:
/// otherwise it would wait unanswered, its connection queued, until the match ends.
fn turn_away(listener: &TcpListener, opts: &ServerOptions, full: &AtomicBool, turned_away: &Mutex<Vec<String>>) {
    if listener.set_nonblocking(true).is_err() {
        return;
    }
    let why = format!(
        "the table is full: {} players have joined and this server plays one match ({} games)",
        opts.players, opts.games
    );
    while full.load(Ordering::Relaxed) {
        match listener.accept() {
            Ok((stream, addr)) => {
                let mut c = Conn::new(stream);
                let sent = c.stream.set_nonblocking(false).is_ok()
                    && c.stream.set_write_timeout(Some(Duration::from_secs(1))).is_ok()
                    && c.send(&Message::Error(m::ProtocolError { message: Some(why.clone()) })).is_ok();
                c.close();
                let note = if sent { "" } else { " (the error could not be sent)" };
                eprintln!("haifu mjai-server: turned away a client from {addr}: {why}{note}");
                turned_away.lock().unwrap_or_else(|e| e.into_inner()).push(addr.to_string());
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => std::thread::sleep(Duration::from_millis(20)),
            Err(_) => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

/// How a read that ran out of time starts its error.
const NO_ANSWER: &str = "no answer within";

/// The longest answer line read; a longer one drops the client (it is not playing mjai).
const MAX_LINE: usize = 1 << 20;

/// One client's connection: lines out, lines in with a deadline per answer.
struct Conn {
    stream: TcpStream,
    /// Bytes read past the last line.
    buf: Vec<u8>,
    name: String,
    errors: usize,
    /// Why the client was dropped; `None` while it plays.
    dropped: Option<String>,
    /// What is left of the game's answer budget ([`ServerOptions::game_budget`]); `None`: no budget.
    budget: Option<Duration>,
}

impl Conn {
    fn new(stream: TcpStream) -> Conn {
        Conn { stream, buf: Vec::new(), name: String::new(), errors: 0, dropped: None, budget: None }
    }

    fn alive(&self) -> bool {
        self.dropped.is_none()
    }

    fn send(&mut self, msg: &Message) -> io::Result<()> {
        let mut line = serde_json::to_vec(msg)?;
        line.push(b'\n');
        self.stream.write_all(&line)
    }

    /// The next line (without its end), within `timeout` and within what is left of the game's budget; the time
    /// taken is spent from the budget.
    fn read_line(&mut self, timeout: Duration) -> Result<Vec<u8>, String> {
        let started = Instant::now();
        let Some(left) = self.budget else { return self.read_line_within(timeout) };
        let read = self.read_line_within(timeout.min(left));
        self.budget = Some(left.saturating_sub(started.elapsed()));
        match read {
            Err(why) if left < timeout && why.starts_with(NO_ANSWER) => {
                Err(format!("its answers used up the game's budget ({} ms were left for this line)", left.as_millis()))
            }
            read => read,
        }
    }

    /// The next line (without its end), within `timeout` for the whole line: a client that trickles bytes
    /// gets no more time than one that sends nothing.
    fn read_line_within(&mut self, timeout: Duration) -> Result<Vec<u8>, String> {
        let deadline = Instant::now() + timeout;
        let mut scanned = 0;
        loop {
            if let Some(p) = self.buf[scanned..].iter().position(|&b| b == b'\n') {
                let mut line: Vec<u8> = self.buf.drain(..=scanned + p).collect();
                line.pop();
                return Ok(line);
            }
            scanned = self.buf.len();
            if scanned > MAX_LINE {
                return Err(format!("a line longer than {MAX_LINE} bytes"));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(format!("{NO_ANSWER} {} ms", timeout.as_millis()));
            }
            self.stream.set_read_timeout(Some(left)).map_err(|e| format!("read error: {e}"))?;
            let mut chunk = [0u8; 4096];
            match self.stream.read(&mut chunk) {
                Ok(0) => return Err("disconnected".into()),
                Ok(k) => self.buf.extend_from_slice(&chunk[..k]),
                Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(format!("read error: {e}")),
            }
        }
    }

    /// Drops the client for the rest of the match (closing the socket tells it so).
    fn drop_with(&mut self, why: String) {
        if self.dropped.is_none() {
            self.dropped = Some(why);
            let _ = self.stream.shutdown(Shutdown::Both);
        }
    }

    fn close(&mut self) {
        let _ = self.stream.flush();
        let _ = self.stream.shutdown(Shutdown::Both);
    }
}

/// Accepts clients until `opts.players` have joined; one that does not say `join` in time is turned away.
fn accept_players(listener: &TcpListener, opts: &ServerOptions) -> Result<Vec<Conn>> {
    let n = usize::from(opts.players);
    let deadline = opts.join_timeout.map(|t| Instant::now() + t);
    // with a deadline, poll (a blocking accept could wait for ever)
    listener.set_nonblocking(deadline.is_some()).context("listener")?;
    let hello = Message::Hello(m::Hello { protocol: Some("mjsonp".into()), protocol_version: Some(3) });
    let mut conns: Vec<Conn> = Vec::with_capacity(n);
    while conns.len() < n {
        let stream = match listener.accept() {
            Ok((s, _)) => s,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    bail!("{} of {n} players joined within {:?}", conns.len(), opts.join_timeout.unwrap_or_default());
                }
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e).context("accepting a client"),
        };
        // small lines answered one by one: Nagle's delay would cost milliseconds per line
        if stream.set_nonblocking(false).is_err() || stream.set_nodelay(true).is_err() {
            continue;
        }
        if stream.set_write_timeout(Some(opts.timeout)).is_err() {
            continue;
        }
        let mut c = Conn::new(stream);
        if c.send(&hello).is_err() {
            continue;
        }
        let line = match c.read_line(opts.timeout) {
            Ok(l) => l,
            Err(_) => {
                c.close();
                continue;
            }
        };
        match Message::from_line(&line) {
            Ok(Some(Message::Join(j))) => {
                c.name = if j.name.trim().is_empty() { format!("Player{}", conns.len()) } else { j.name };
                conns.push(c);
            }
            _ => {
                let why = format!("{}: a join was expected", String::from_utf8_lossy(&line));
                let _ = c.send(&Message::Error(m::ProtocolError { message: Some(why) }));
                c.close();
            }
        }
    }
    Ok(conns)
}

/// A client's answer to one line.
enum Reply {
    /// The client is gone (or was never asked).
    Gone,
    Pass,
    Act {
        msg: Message,
        line: String,
    },
    /// Not an mjai message the server knows.
    Bad {
        line: String,
        why: String,
    },
}

fn parse_reply(raw: &[u8]) -> Reply {
    let line = String::from_utf8_lossy(raw).into_owned();
    match Message::from_line(raw) {
        Ok(Some(Message::Pass(_))) => Reply::Pass,
        Ok(Some(msg)) => Reply::Act { msg, line },
        Ok(None) => Reply::Bad { line, why: "not an mjai message type".into() },
        Err(why) => Reply::Bad { line, why },
    }
}

/// The copy of `msg` that `seat` may see.
fn masked(msg: &Message, seat: u8) -> Cow<'_, Message> {
    match msg {
        Message::StartGame(s) => Cow::Owned(Message::StartGame(m::StartGame { id: Some(seat), ..s.clone() })),
        Message::StartKyoku(k) => {
            let mut k = k.clone();
            for (s, hand) in k.tehais.iter_mut().enumerate() {
                if s != usize::from(seat) {
                    hand.fill(Pai::Hidden);
                }
            }
            Cow::Owned(Message::StartKyoku(k))
        }
        Message::Tsumo(t) if t.actor != seat => {
            Cow::Owned(Message::Tsumo(m::Tsumo { actor: t.actor, pai: Pai::Hidden }))
        }
        _ => Cow::Borrowed(msg),
    }
}

/// One game being played: the clients by seat, and what each was told was wrong.
struct Table<'a> {
    conns: &'a mut [Conn],
    /// The client at each seat.
    client: Vec<usize>,
    timeout: Duration,
    red: bool,
    errors: Vec<Vec<String>>,
    game: usize,
}

impl Table<'_> {
    fn conn(&mut self, seat: u8) -> &mut Conn {
        &mut self.conns[self.client[usize::from(seat)]]
    }

    fn n(&self) -> u8 {
        self.client.len() as u8
    }

    /// Sends `msg` to every client still playing (masked for its seat), then reads each one's answer.
    /// `closing`: the match's last line, whose answers are read briefly and not held against anyone.
    fn exchange(&mut self, msg: &Message, closing: bool) -> Vec<Reply> {
        let game = self.game;
        for s in 0..self.n() {
            let c = self.conn(s);
            if c.alive() {
                if let Err(e) = c.send(&masked(msg, s)) {
                    c.drop_with(format!("write error on `{}` in game {game}: {e}", msg.kind()));
                }
            }
        }
        let timeout = if closing { self.timeout.min(Duration::from_secs(1)) } else { self.timeout };
        let mut extra_joins = Vec::new();
        let replies = (0..self.n())
            .map(|s| {
                let c = self.conn(s);
                if !c.alive() {
                    return Reply::Gone;
                }
                let mut read = c.read_line(timeout).map(|raw| parse_reply(&raw));
                // a `join` answers nothing (the client joined already): it is a line too many, and the answer
                // is the next line; taking it keeps the client in step with the lines it is sent
                if let Ok(Reply::Act { msg: Message::Join(_), line }) = &read {
                    extra_joins.push((s, line.clone()));
                    read = c.read_line(timeout).map(|raw| parse_reply(&raw));
                }
                match read {
                    Ok(reply) => reply,
                    Err(why) => {
                        if !closing {
                            c.drop_with(format!("{why} (to `{}` in game {game})", msg.kind()));
                        }
                        Reply::Gone
                    }
                }
            })
            .collect();
        for (s, line) in extra_joins {
            let why = "the client has joined already: ignored, its next line taken as the answer";
            self.error(s, format!("{line}: a second `join` ({why} to `{}`)", msg.kind()));
        }
        replies
    }

    /// Tells `seat` what was wrong (its answer to the `error` is read and ignored).
    fn error(&mut self, seat: u8, why: String) {
        self.errors[usize::from(seat)].push(why.clone());
        let (game, timeout) = (self.game, self.timeout);
        let c = self.conn(seat);
        c.errors += 1;
        if !c.alive() {
            return;
        }
        let sent = c.send(&Message::Error(m::ProtocolError { message: Some(why) }));
        if let Err(e) = sent.map_err(|e| format!("write error on `error`: {e}")).and_then(|_| c.read_line(timeout)) {
            c.drop_with(format!("{e} (to `error` in game {game})"));
        }
    }
}

/// The line of `msgs` that asks the seats in [`Engine::to_act`]: the actor's own `tsumo`, `chi` or `pon` in
/// a turn, the offered tile's line in a response. Answers before it are out of turn.
fn prompt_index(msgs: &[Message], engine: &Engine<SeededWall>) -> usize {
    let found = if let Some((seat, _)) = engine.turn() {
        msgs.iter().rposition(|x| {
            matches!(x, Message::Tsumo(t) if t.actor == seat)
                || matches!(x, Message::Chi(c) | Message::Pon(c) if c.actor == seat)
        })
    } else if let Some((from, _, _)) = engine.offered() {
        msgs.iter().rposition(|x| {
            matches!(x, Message::Dahai(_) | Message::Kakan(_) | Message::Ankan(_) | Message::Nukidora(_))
                && actor_of(x) == Some(from)
        })
    } else {
        None
    };
    found.unwrap_or(msgs.len().saturating_sub(1))
}

/// What the server plays for a seat that gave no usable answer: a pass in a response; in a turn the tile it
/// drew, after a call the first legal discard; `riichi`: the discard after its `reach`.
fn stand_in(engine: &Engine<SeededWall>, seat: u8, legal: &[Action], riichi: bool) -> Action {
    let Some((_, source)) = engine.turn() else { return Action::Pass };
    let drawn = (source != TurnStart::Call).then(|| engine.last_draw_of(seat)).flatten();
    if let Some(a) = drawn.map(|tile| Action::Discard { tile, riichi }) {
        if legal.contains(&a) {
            return a;
        }
    }
    let first = legal.iter().find(|a| matches!(a, Action::Discard { riichi: r, .. } if *r == riichi));
    first.or(legal.first()).copied().unwrap_or(Action::Pass)
}

/// The engine's action for an answer of `seat`, when it is legal now (`riichi`: a `dahai` after the seat's
/// `reach`): read by the mjai codec the bot writes its answers with ([`answer::action_of`]).
fn to_action(
    engine: &Engine<SeededWall>,
    seat: u8,
    msg: &Message,
    riichi: bool,
    legal: &[Action],
    red: bool,
) -> Result<Action, String> {
    let asked = Asked {
        seat,
        table: engine.table(),
        turn: engine.turn().is_some_and(|(s, _)| s == seat),
        riichi_due: riichi,
        offered: engine.offered().filter(|&(from, _, _)| from != seat),
        red,
    };
    answer::action_of(msg, &asked, legal, |a| engine.rule_broken(seat, a).to_string())
}

/// Plays game `g` of the match and writes it.
fn play_game(conns: &mut [Conn], opts: &ServerOptions, g: usize) -> Result<GameSummary> {
    let n = usize::from(opts.players);
    let rules = opts.rules();
    let seed = opts.seed.wrapping_add(g as u64);
    let closing_match = g + 1 == opts.games;
    // client i sits at (i + g) % n
    let client: Vec<usize> = (0..n).map(|s| (s + n - g % n) % n).collect();
    let names: Vec<&str> = client.iter().map(|&c| conns[c].name.as_str()).collect();
    let mut engine = Engine::with_names(rules, SeededWall::new(seed), &names).context("starting the game")?;
    // each game gives every client its whole budget again
    for c in conns.iter_mut() {
        c.budget = opts.game_budget;
    }
    let mut t =
        Table { conns, client, timeout: opts.timeout, red: rules.red_fives, errors: vec![Vec::new(); n], game: g };
    let mut writer = MjaiWriter::new();
    let mut fed = 0;
    // the seat whose `reach` was sent before the engine wrote it
    let mut reach_sent: Option<u8> = None;
    let mut legal = Vec::new();
    loop {
        for e in &engine.events()[fed..] {
            writer.step(e).map_err(anyhow::Error::msg).context("the engine's record as mjai")?;
        }
        fed = engine.events().len();
        let over = engine.is_over();
        if over {
            writer.finish().map_err(anyhow::Error::msg).context("the engine's record as mjai")?;
        }
        let mut msgs = writer.take();
        // everyone has had the reach already
        if let Some(actor) = reach_sent.take() {
            match msgs.iter().position(|x| matches!(x, Message::Reach(r) if r.actor == actor)) {
                Some(i) => {
                    msgs.remove(i);
                }
                None => bail!("game {g}: the engine wrote no reach for seat {actor}"),
            }
        }
        let replies: Vec<Vec<Reply>> =
            msgs.iter().map(|msg| t.exchange(msg, closing_match && matches!(msg, Message::EndGame(_)))).collect();
        if over && closing_match {
            break;
        }
        let to_act = engine.to_act();
        let prompt = prompt_index(&msgs, &engine);
        // each seat's answers: errors for what is not an answer now, the decision of a seat that is asked
        let mut decisions = Vec::with_capacity(to_act.len());
        for seat in 0..opts.players {
            let asked = to_act.contains(&seat);
            let mut decision: Option<(Message, String)> = None;
            let mut told = false;
            for (i, r) in replies.iter().enumerate() {
                let on = msgs[i].kind();
                match &r[usize::from(seat)] {
                    Reply::Gone | Reply::Pass => {}
                    Reply::Bad { line, why } => {
                        t.error(seat, format!("{line}: {why} (answer to `{on}`)"));
                        told = true;
                    }
                    Reply::Act { msg, line } => {
                        let why = if !asked {
                            Some(format!("out of turn: seat {seat} has nothing to decide after `{on}`"))
                        } else if i < prompt {
                            Some(format!("out of turn: `{on}` asks nothing of seat {seat}"))
                        } else if decision.is_some() {
                            Some(format!("a second action for one decision (answer to `{on}`)"))
                        } else {
                            None
                        };
                        match why {
                            Some(why) => {
                                t.error(seat, format!("{line}: {why}; ignored"));
                                told = true;
                            }
                            None => decision = Some((msg.clone(), line.clone())),
                        }
                    }
                }
            }
            if asked {
                decisions.push((seat, decision, told));
            }
        }
        if over {
            break;
        }
        for (seat, decision, told) in decisions {
            engine.legal_actions_into(seat, &mut legal);
            let action = decide(&mut t, &engine, seat, decision, told, &legal, &mut reach_sent);
            engine.apply(seat, action).with_context(|| format!("game {g}: seat {seat}: {action}"))?;
        }
    }
    finish_game(t, engine, opts, g, seed)
}

/// The action of `seat` from its answer (see the module notes); a missing or refused answer is played for it.
fn decide(
    t: &mut Table<'_>,
    engine: &Engine<SeededWall>,
    seat: u8,
    decision: Option<(Message, String)>,
    told: bool,
    legal: &[Action],
    reach_sent: &mut Option<u8>,
) -> Action {
    let stand = stand_in(engine, seat, legal, false);
    let in_turn = engine.turn().is_some();
    let Some((msg, line)) = decision else {
        if in_turn && !told && t.conn(seat).alive() {
            t.error(seat, format!("seat {seat}: no action for its turn; the server plays {stand}"));
        }
        return stand;
    };
    let Message::Reach(r) = &msg else {
        return match to_action(engine, seat, &msg, false, legal, t.red) {
            Ok(a) => a,
            Err(why) => {
                t.error(seat, format!("{line}: {why}; the server plays {stand}"));
                stand
            }
        };
    };
    if r.actor != seat || !legal.iter().any(|a| matches!(a, Action::Discard { riichi: true, .. })) {
        let why = if r.actor != seat {
            format!("actor {} is not your seat ({seat})", r.actor)
        } else {
            "riichi is not legal now".to_string()
        };
        t.error(seat, format!("{line}: {why}; the server plays {stand}"));
        return stand;
    }
    // everyone hears the reach; the actor's answer to it is the riichi discard
    let replies = t.exchange(&Message::Reach(m::Reach { actor: seat }), false);
    *reach_sent = Some(seat);
    let stand = stand_in(engine, seat, legal, true);
    let mut answer = None;
    for (s, r) in replies.into_iter().enumerate() {
        let s = s as u8;
        match r {
            Reply::Gone | Reply::Pass => {}
            Reply::Bad { line, why } => t.error(s, format!("{line}: {why} (answer to `reach`)")),
            Reply::Act { msg, line } if s == seat => answer = Some((msg, line)),
            Reply::Act { line, .. } => {
                t.error(s, format!("{line}: out of turn: seat {s} has nothing to decide after `reach`; ignored"));
            }
        }
    }
    match answer {
        Some((msg @ Message::Dahai(_), line)) => match to_action(engine, seat, &msg, true, legal, t.red) {
            Ok(a) => a,
            Err(why) => {
                t.error(seat, format!("{line}: {why}; the server plays {stand}"));
                stand
            }
        },
        Some((_, line)) => {
            t.error(seat, format!("{line}: after its reach a seat discards (dahai); the server plays {stand}"));
            stand
        }
        None => {
            if t.conn(seat).alive() {
                t.error(seat, format!("seat {seat}: no discard after its reach; the server plays {stand}"));
            }
            stand
        }
    }
}

/// Writes the game's files and sums it up.
fn finish_game(
    t: Table<'_>,
    engine: Engine<SeededWall>,
    opts: &ServerOptions,
    g: usize,
    seed: u64,
) -> Result<GameSummary> {
    let n = usize::from(opts.players);
    let record = engine.record();
    let (mut mjlog, mut mjson) = (None, None);
    if let Some(dir) = &opts.out {
        let xml = dir.join(format!("{g:04}.mjlog"));
        std::fs::write(&xml, record.to_mjlog()).with_context(|| format!("writing {}", xml.display()))?;
        let text = to_mjai(&record).context("the game as mjai")?;
        let json = dir.join(format!("{g:04}.mjson"));
        std::fs::write(&json, text).with_context(|| format!("writing {}", json.display()))?;
        (mjlog, mjson) = (Some(xml), Some(json));
    }
    let scores = engine.scores()[..n].to_vec();
    let seats = (0..n)
        .map(|s| {
            let c = &t.conns[t.client[s]];
            SeatSummary {
                seat: s as u8,
                client: t.client[s],
                name: c.name.clone(),
                score: scores[s],
                errors: t.errors[s].clone(),
                dropped: !c.alive(),
            }
        })
        .collect();
    let rounds = record.events.iter().filter(|e| matches!(e, haifu_record::Event::Init(_))).count();
    Ok(GameSummary { game: g, seed, go_type: opts.go_type(), rounds, mjlog, mjson, scores, seats, record })
}
