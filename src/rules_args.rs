//! `--length`, `--red`, `--players`: the rules a log may leave unsaid (mjai), stated by the user for every
//! file of a run (`haifu ingest`, `haifu verify`). Each wins over what the reader would guess; the guesses and
//! what was given end up in the games table's `notes`.

use haifu_record::{Length, ReadOptions};

#[derive(clap::Args, Clone, Debug, Default)]
pub struct RulesArgs {
    /// The length of games whose log does not state it (mjai without `kyoku_first`/`gametype`): east or
    /// hanchan. Without it the play decides, hanchan when both fit; a log that contradicts it is refused.
    #[arg(long, value_parser = clap::value_parser!(Length))]
    pub length: Option<Length>,
    /// Whether games play with red fives, for logs that do not say (mjai without `aka_flag`): yes or no.
    #[arg(long, value_parser = parse_yes_no, value_name = "yes|no")]
    pub red: Option<bool>,
    /// The number of players, for logs whose hands leave it in doubt: 3 or 4.
    #[arg(long, value_parser = clap::value_parser!(u8).range(3..=4))]
    pub players: Option<u8>,
}

fn parse_yes_no(s: &str) -> Result<bool, String> {
    match s {
        "yes" | "true" | "on" => Ok(true),
        "no" | "false" | "off" => Ok(false),
        _ => Err(format!("{s:?}: expected yes or no")),
    }
}

impl RulesArgs {
    pub fn read_options(&self) -> ReadOptions {
        ReadOptions { length: self.length, red_fives: self.red, players: self.players }
    }
}
