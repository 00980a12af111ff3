//! An mjai bot that Python arenas seat: mjai.app's `Bot` interface (`react(events) -> action`, the events a
//! JSON array or one event), answered by the same follower and players as `haifu mjai-bot` (the imitator of a
//! style database's player, or one of `haifu sim`'s bots).

use std::path::PathBuf;
use std::sync::Mutex;

use haifu_play::client::{self, Brain};
use haifu_play::follow::Follower;
use haifu_play::policy::Imitator;
use haifu_record::mjai::message::{self as m, Message};
use haifu_sim::Action;
use pyo3::prelude::*;

/// What the bot keeps between calls: the seat's view of the game and who decides.
struct Seat {
    follower: Follower,
    brain: Brain,
    legal: Vec<Action>,
    name: String,
}

#[pyclass(module = "haifu._haifu", name = "MjaiBot", frozen)]
struct MjaiBot {
    seat: Mutex<Seat>,
}

impl Seat {
    /// The answer to one event (`at`: where it was, for messages).
    fn take(&mut self, event: &str, at: &str) -> Result<Message, String> {
        let msg = match Message::from_line(event.as_bytes()) {
            Err(why) => return Err(format!("{at}: cannot read the message: {why}")),
            Ok(None) => return Err(format!("{at}: a message of a type mjai does not have: {event}")),
            Ok(Some(msg)) => msg,
        };
        match msg {
            Message::Hello(_) => {
                Ok(Message::Join(m::Join { name: self.name.clone(), room: Some("default".to_string()) }))
            }
            Message::Error(_) => Ok(client::pass()),
            msg if !self.follower.in_game() && client::needs_game(&msg) => Err(format!(
                "{at}: `{}` before any `start_game`: no game to follow (`start_game` says the seat and the rules)",
                msg.kind()
            )),
            msg => match client::respond(&mut self.follower, &mut self.brain, &mut self.legal, &msg) {
                Err(e) => Err(format!("{at}: {e}")),
                Ok(answer) => Ok(answer.map_or_else(client::pass, |(a, _)| a)),
            },
        }
    }
}

#[pymethods]
impl MjaiBot {
    /// `bot`: one of `haifu sim`'s bots (`efficiency`, `greedy`, `tanyao` ...); or `db` and `player`: the
    /// imitator of that player of a style database (their tables for the discards, their rates for riichi,
    /// calls and folding). `seed`: the policy's random choices. `player_id`: the seat until a `start_game`
    /// says it.
    #[new]
    #[pyo3(signature = (player_id = 0, *, bot = None, db = None, player = None, seed = 0, name = None))]
    fn new(
        player_id: u8,
        bot: Option<String>,
        db: Option<PathBuf>,
        player: Option<String>,
        seed: u64,
        name: Option<String>,
    ) -> PyResult<MjaiBot> {
        let (brain, default_name) = match (bot, db, player) {
            (Some(bot), None, None) => {
                (Brain::Bot(haifu_sim::style::bot_by_name(&bot, seed).map_err(crate::bad_argument)?), bot)
            }
            (None, Some(db), Some(player)) => {
                let p = Imitator::from_db(&db, &player, seed).map_err(|e| crate::error(&e))?;
                (Brain::Imitator(Box::new(p)), player)
            }
            _ => return Err(crate::bad_argument("say whom to play: bot=NAME, or db=DB and player=NAME")),
        };
        if player_id > 3 {
            return Err(crate::bad_argument(format!("player_id={player_id}: a seat 0-3")));
        }
        let seat = Seat {
            follower: Follower::new(player_id),
            brain,
            legal: Vec::with_capacity(32),
            name: name.unwrap_or(default_name),
        };
        Ok(MjaiBot { seat: Mutex::new(seat) })
    }

    /// The seat, as the last `start_game` said it.
    #[getter]
    fn player_id(&self) -> u8 {
        self.seat.lock().expect("the bot's state").follower.seat()
    }

    /// Takes the events (a JSON array of mjai events, or one event) and answers the last of them: the seat's
    /// action as a JSON object (`{"type":"none"}` when nothing is asked; `join` to `hello`). A message that
    /// does not read, or that contradicts what the seat knows, raises `HaifuError` naming it.
    fn react(&self, py: Python<'_>, events: &str) -> PyResult<String> {
        let answer = py.detach(|| -> Result<Message, String> {
            let mut seat = self.seat.lock().map_err(|_| "the bot failed in an earlier call".to_string())?;
            let trimmed = events.trim_start();
            let mut answer = client::pass();
            if trimmed.starts_with('[') {
                let list: Vec<&serde_json::value::RawValue> =
                    serde_json::from_str(events).map_err(|e| format!("the events are not a JSON array: {e}"))?;
                for (i, event) in list.iter().enumerate() {
                    answer = seat.take(event.get(), &format!("event {i}"))?;
                }
            } else {
                answer = seat.take(events, "the event")?;
            }
            Ok(answer)
        });
        let answer = answer.map_err(crate::HaifuError::new_err)?;
        serde_json::to_string(&answer).map_err(|e| crate::HaifuError::new_err(e.to_string()))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<MjaiBot>()?;
    Ok(())
}
