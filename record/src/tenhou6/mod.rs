//! tenhou.net/6 JSON (Tenhou's viewer format, also written by converters): the reader into the mjlog event model,
//! and the writer ([`write::to_tenhou6`]) of a record as one object Tenhou's viewer opens.
//!
//! # The format
//! One object `{title, name, rule: {disp, aka | aka51..53}, log, ref?, dan?, rate?, sx?, sc?, lobby?}`. `log` holds
//! one array per round: `[[kyoku, honba, kyotaku], scores, dora indicators, ura indicators, hai0, take0, out0, ...,
//! hai3, take3, out3, result]`. Tiles are 11-19 man, 21-29 pin, 31-39 sou, 41-47 E S W N P F C, 51-53 red fives.
//! A seat's takes (draws and calls) and outs (discards, kans, nuki) alternate: take, out, take, out ...
//! - takes: a tile, or a call string whose letter stands before the called tile, its position naming the source:
//!   `c`/`p` at 0 kamicha, 2 toimen, 4 shimocha; `m` (daiminkan) at 0, 2 or 6;
//! - outs: a tile, `60` tsumogiri, `r`+tile riichi (`r60` riichi tsumogiri), `a` ankan, `k` kakan (the letter where
//!   the pon's was, the added tile right after it), `f` nuki, `0` the slot of a daiminkan (its replacement draw
//!   follows; some writers leave the `0` out, which is read the same).
//!
//! Files written by mjx hold one object per round, one per line; an array of objects is read the same way: the
//! rounds of all objects form one game. Three-player logs keep four seat slots, the fourth empty.
//!
//! # Rebuilding the order of play
//! The format keeps each seat's sequence but not how they interleave. The round is played again: the dealer draws,
//! each out is applied, and after each discard a seat whose next take is a pon or daiminkan of that tile from that
//! seat calls it, else the next seat chis it, else the next seat draws. Where a call could also have been passed
//! (the caller may be waiting for a later copy of the tile), both ways are kept and the first that plays every
//! seat's sequence to the end, and ends the way the result says, is taken (depth-first, calls first).
//! A seat whose last out is a kakan or a nuki (3 players) was robbed: the round ends there, on a ron of that tile.
//!
//! # What is written as Tenhou would, and what is synthesized
//! Tiles get physical ids by [`crate::ids::IdAllocator`]. Tags follow Tenhou's order: `REACH step=1` before the riichi discard,
//! `step=2` right after it unless it is ronned; a closed kan's `DORA` before its replacement draw, an open or added
//! kan's after it (before the next discard or call; none when the replacement tile wins or the kan is robbed, and a
//! robbed kakan leaves an earlier kan's indicator hidden too, as the corpus shows).
//! - `GO type`: from the log id in `ref` when given, else from `rule.disp` (鳳/特/上/般, 南, 喰, 速, 三), red fives
//!   when `rule` or the tiles say so; `lobby` from `lobby` (else 0).
//! - `INIT` dice: lost in this format, written `0,0`.
//! - `AGARI ten`: fu and points from the score string (`30符4飜7700点`, `1300-2600点` = 5200 in 4p, `2600点∀` = 7800;
//!   3p tsumo payments add up over two payers); limit 1..5 from 満貫 .. 役満. Limit hands carry no fu in the string:
//!   written 0. `yaku`/`yakuman` from the Japanese names (older spellings and English romaji are accepted too),
//!   `53,0` added for a riichi winner when the writer dropped ura with 0 han (Tenhou always lists it); ura
//!   indicators for riichi winners only; `ba` sticks = what the win took (the deltas beyond the points). A win
//!   without a score string (some converters) gets fu 0 and the winner's gain less sticks and honba as points.
//! - `RYUUKYOKU`: hands shown as Tenhou shows them: tenpai hands at an exhaustive draw (the deltas say who, or
//!   shanten when they are all zero), every hand at four riichi, the three winners' at a triple ron, the
//!   declarer's 14 tiles at nine terminals.
//! - `owari`: with `sc` in the file, its final scores and points. Without, when the last round of the log ends the
//!   game (someone below zero, or the all-last or later was played): leftover sticks go to the top (ties: lower
//!   seat), and points follow Tenhou's classic rule, checked on the corpus' mjlog `owari`: every seat but the top
//!   gets `round(score / 1000) - 30` (40 in 3p) plus uma +10/-10/-20 (3p: 0/-20), halves away from zero; the top
//!   gets minus the sum. (From 2022 Tenhou writes exact tenths, and east-only tables of 2009 paid uma 5/10.)
//!
//! # The parts
//! `json` finds the objects and their rounds in the file, `calls` reads the notation of takes and outs,
//! `model` is the parsed game, its rounds and results, `read` reads them, `order` plays each round again in an
//! order that fits, `result` reads the score and yaku strings, and `finish` writes each round's end as the AGARI
//! and RYUUKYOKU tags; [`mod@write`] is the other way round.

mod calls;
mod finish;
mod json;
mod model;
mod order;
mod read;
mod result;
pub mod write;

pub use write::to_tenhou6;

use crate::error::ReadError;
use crate::event::{Format, GameRecord};

/// Parses one tenhou.net/6 game (one object, or one object per round as mjx writes).
pub fn parse(text: &[u8]) -> Result<GameRecord, ReadError> {
    let objects = json::read_objects(text)?;
    let game = model::Game::read(text, &objects)?;
    let events = game.events(text)?;
    let notes = game.notes.clone();
    Ok(GameRecord { format: Format::Tenhou6, index_in_file: 0, log_id: game.log_id.clone(), events, notes })
}
