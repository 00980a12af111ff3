//! Self-play corpora: many seeded games between named players, in parallel, each written as a Tenhou-like
//! log file that the ingest readers take like any other.
//!
//! Game `i` of a run with seed `s` is played on the wall of `game_seed(s, i)` by the seats `seating(...)`
//! picks, so any game can be played again alone, and a run does not depend on the number of threads.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use haifu_record::event::GameRecord;
use rayon::prelude::*;

use crate::bot::{play, Bot};
use crate::engine::Engine;
use crate::style::bot_by_name;
use crate::wall::SeededWall;
use haifu_rules::table::TableRules;

/// A named player and the bot that plays for it: `Alice=tanyao`, or just `tanyao` (named after its bot).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct NamedBot {
    pub name: String,
    pub bot: String,
}

impl FromStr for NamedBot {
    type Err = String;
    fn from_str(s: &str) -> Result<NamedBot, String> {
        let (name, bot) = s.split_once('=').unwrap_or((s, s));
        if name.is_empty() || bot.is_empty() {
            return Err(format!("player {s:?}: expected NAME=BOT or BOT"));
        }
        bot_by_name(bot, 0)?;
        Ok(NamedBot { name: name.to_string(), bot: bot.to_string() })
    }
}

/// Output format of the logs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// Tenhou mjlog XML (`.xml`).
    Mjlog,
    /// mjai JSON lines (`.mjson`).
    Mjai,
}

/// The seed of game `index` of a run: SplitMix64 of the two, so neighbouring games get unrelated walls.
pub fn game_seed(run_seed: u64, index: u64) -> u64 {
    let mut z = run_seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(0x632B_E59B_D9B4_E019);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Which players sit where in game `index`: with exactly as many players as seats, everyone plays every
/// game and the seats rotate; from a larger pool, a seeded draw of `seats` distinct players.
pub fn seating(pool: usize, seats: usize, run_seed: u64, index: u64) -> Vec<usize> {
    if pool == seats {
        return (0..seats).map(|s| (s + index as usize) % seats).collect();
    }
    let mut order: Vec<usize> = (0..pool).collect();
    let mut state = game_seed(run_seed ^ 0x5EA7, index);
    // Fisher-Yates with the game's own stream
    for i in (1..pool).rev() {
        state = game_seed(state, i as u64);
        order.swap(i, (state % (i as u64 + 1)) as usize);
    }
    order.truncate(seats);
    order
}

/// Plays one game between `players` (in seat order) on the wall of `seed`.
pub fn play_game(rules: TableRules, seed: u64, players: &[&NamedBot]) -> Result<GameRecord, String> {
    let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
    let bots = players
        .iter()
        .enumerate()
        .map(|(i, p)| bot_by_name(&p.bot, game_seed(seed, i as u64 + 1)))
        .collect::<Result<_, _>>()?;
    Ok(play_seated(rules, seed, &names, bots)?.into_record())
}

/// Plays one game of these bots (in seat order, named `names`) on the wall of `seed`; the engine at the end.
pub fn play_seated(
    rules: TableRules,
    seed: u64,
    names: &[&str],
    mut bots: Vec<Box<dyn Bot + Send>>,
) -> Result<Engine<SeededWall>, String> {
    let mut seats: Vec<&mut dyn Bot> = bots.iter_mut().map(|b| b.as_mut() as &mut dyn Bot).collect();
    let mut engine = Engine::with_names(rules, SeededWall::new(seed), names).map_err(|e| e.to_string())?;
    play(&mut engine, &mut seats).map_err(|e| format!("game of seed {seed}: {e}"))?;
    Ok(engine)
}

/// What [`generate`] does.
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    pub games: usize,
    pub players: Vec<NamedBot>,
    pub rules: TableRules,
    pub seed: u64,
    pub format: LogFormat,
    pub out: PathBuf,
    /// The games' date as `YYYYMMDD` in their Tenhou-like log ids (the dataset's year comes from it).
    pub date: String,
}

/// What [`generate`] did.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Generated {
    pub games: usize,
    pub files: Vec<PathBuf>,
    pub rounds: usize,
    pub bytes: u64,
}

/// The file name of game `index` of a run: a Tenhou-like log id (`2022010100gm-00a9-3f2e-0000001c`) and the
/// format's extension, so that ingest reads the date from it. The lobby field holds 16 bits of the run's seed
/// and the last field the game's index, so that no two games of a run share a name (a name from the game's own
/// seed did: 32 bits collide within a few hundred thousand games).
pub fn log_name(date: &str, go_type: u32, run_seed: u64, index: u32, format: LogFormat) -> String {
    let ext = match format {
        LogFormat::Mjlog => "xml",
        LogFormat::Mjai => "mjson",
    };
    let run = (game_seed(run_seed, u64::MAX) >> 48) as u16;
    format!("{date}00gm-{go_type:04x}-{run:04x}-{index:08x}.{ext}")
}

/// Plays `games` games in parallel and writes one file per game into `out`; `done` is called after each.
pub fn generate(o: &GenerateOptions, done: &(dyn Fn(usize) + Sync)) -> Result<Generated, String> {
    let seats = usize::from(o.rules.players);
    if o.players.len() < seats {
        return Err(format!("{} players for a {seats}-player table", o.players.len()));
    }
    if o.date.len() != 8 || !o.date.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("date {:?}: expected YYYYMMDD", o.date));
    }
    if o.games as u64 > u64::from(u32::MAX) + 1 {
        return Err(format!("{} games: a run names at most 2^32 games", o.games));
    }
    std::fs::create_dir_all(&o.out).map_err(|e| format!("creating {}: {e}", o.out.display()))?;
    let results: Vec<Result<(PathBuf, usize, u64), String>> = (0..o.games as u64)
        .into_par_iter()
        .map(|i| {
            let seed = game_seed(o.seed, i);
            let at: Vec<&NamedBot> =
                seating(o.players.len(), seats, o.seed, i).into_iter().map(|p| &o.players[p]).collect();
            let record = play_game(o.rules, seed, &at)?;
            let text = match o.format {
                LogFormat::Mjlog => record.to_mjlog(),
                LogFormat::Mjai => haifu_record::mjai::write::to_mjai(&record).map_err(|e| e.to_string())?,
            };
            let rounds = record.events.iter().filter(|e| matches!(e, haifu_record::Event::Init(_))).count();
            let path = o.out.join(log_name(&o.date, o.rules.go_type, o.seed, i as u32, o.format));
            write(&path, text.as_bytes())?;
            done(1);
            Ok((path, rounds, text.len() as u64))
        })
        .collect();
    let mut g = Generated { games: 0, files: Vec::new(), rounds: 0, bytes: 0 };
    for r in results {
        let (path, rounds, bytes) = r?;
        g.games += 1;
        g.files.push(path);
        g.rounds += rounds;
        g.bytes += bytes;
    }
    Ok(g)
}

/// Writes a game's log; a file already there is left as it is when it holds the same log (the same run
/// again) and is an error otherwise, so that no log is overwritten unseen.
fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    match std::fs::OpenOptions::new().write(true).create_new(true).open(path) {
        Ok(mut f) => f.write_all(bytes).map_err(|e| format!("writing {}: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => match std::fs::read(path) {
            Ok(old) if old == bytes => Ok(()),
            _ => Err(format!(
                "{} already holds another game (from an earlier run with other options): write into an empty \
                 folder, or remove it",
                path.display()
            )),
        },
        Err(e) => Err(format!("writing {}: {e}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seating_rotates_or_draws_distinct_players() {
        assert_eq!(seating(4, 4, 7, 1), vec![1, 2, 3, 0]);
        for i in 0..50 {
            let s = seating(8, 4, 7, i);
            let mut d = s.clone();
            d.sort_unstable();
            d.dedup();
            assert_eq!(d.len(), 4, "{s:?}");
            assert!(s.iter().all(|&p| p < 8));
            assert_eq!(s, seating(8, 4, 7, i), "deterministic");
        }
        // every player of the pool gets games
        let mut played = [0; 8];
        (0..200).flat_map(|i| seating(8, 4, 3, i)).for_each(|p| played[p] += 1);
        assert!(played.iter().all(|&n| n > 50), "{played:?}");
    }

    #[test]
    fn names_are_distinct_within_a_run_and_differ_between_runs() {
        let names: std::collections::HashSet<String> =
            (0..300_000).map(|i| log_name("20220101", 0xa9, 14, i, LogFormat::Mjlog)).collect();
        assert_eq!(names.len(), 300_000);
        let a = log_name("20220101", 0xa9, 14, 7, LogFormat::Mjlog);
        assert_eq!(haifu_record::source::find_log_id(&a).as_deref(), Some(&a[..31]), "{a}");
        assert_eq!(haifu_record::source::log_id_date(&a), Some((2022, 1, 1)));
        assert_ne!(a, log_name("20220101", 0xa9, 15, 7, LogFormat::Mjlog));
        assert!(log_name("20220101", 0xa9, 14, 7, LogFormat::Mjai).ends_with("-00000007.mjson"));
    }

    #[test]
    fn a_file_holding_another_game_is_not_overwritten() {
        let dir = std::env::temp_dir().join(format!("haifu-sim-write-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("g.xml");
        write(&path, b"one").unwrap();
        write(&path, b"one").unwrap();
        let e = write(&path, b"two").unwrap_err();
        assert!(e.contains("already holds another game"), "{e}");
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn players_parse() {
        assert_eq!("Ann=tanyao".parse::<NamedBot>(), Ok(NamedBot { name: "Ann".into(), bot: "tanyao".into() }));
        assert_eq!("greedy".parse::<NamedBot>().map(|p| p.name), Ok("greedy".into()));
        assert!("Ann=nonsense".parse::<NamedBot>().is_err());
        assert!("=greedy".parse::<NamedBot>().is_err());
    }
}
