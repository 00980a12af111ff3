//! The five tables of the dataset (docs/SCHEMA.md): `games`, `rounds`, `events`, `decisions`, `choices`, each declared
//! once with [`columns!`](crate::columns!): every column's name, type and the value it takes from a game.
//! Each table's builder takes whole games and hands out record batches.

use haifu_record::event::{Event, GameRecord, Tag};
use haifu_record::tags::Agari;
use haifu_rules::hand::suit_key;
use haifu_rules::table::placements;
use haifu_rules::{Counts, Suit, Tile};

use crate::columns;
use crate::columns::{
    Boolean, Bytes, Date32, Each, Float32, Float64, Int16, Int32, Int64, Int8, List, Shown, Struct, Table, UInt16,
    UInt32, UInt8, Utf8,
};
use crate::extract::{ExtractedGame, RoundEnd, RoundRecord};

/// One replayed game with what the tables need to know about its source.
pub struct GameRow<'a> {
    pub game_id: i64,
    pub source_file: &'a str,
    pub source_hash: &'a str,
    pub record: &'a GameRecord,
    pub replayed: &'a ExtractedGame,
    /// `(year, month, day)` from the log id or the file name.
    pub date: Option<(i32, u32, u32)>,
    /// [`GameRecord::play_hash`].
    pub play_hash: Option<u64>,
}

/// A table of the dataset: one that takes whole games.
pub trait TableBatch: for<'a> Table<Input<'a> = GameRow<'a>> {}

impl<T: for<'a> Table<Input<'a> = GameRow<'a>>> TableBatch for T {}

/// Days since 1970-01-01 of a civil date (proleptic Gregorian).
pub fn days_from_civil(y: i32, m: u32, d: u32) -> i32 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m as i32 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i32 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil year of a day counted from 1970-01-01 (the inverse of [`days_from_civil`] for the year).
pub fn year_of_days(days: i32) -> i32 {
    let z = days + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month_from_march = mp + 3;
    yoe + era * 400 + i32::from(month_from_march > 12)
}

/// Tenhou ids of tiles, as a list value.
fn ids(tiles: &[Tile]) -> Each<impl Iterator<Item = u8> + '_> {
    Each(tiles.iter().map(|t| t.id()))
}

// ---------------------------------------------------------------- games

columns! {
    /// One row per game.
    pub struct GamesBatch("games") for<'a> |g: GameRow<'a>| {
        let info = &g.replayed.info;
        let np = usize::from(info.n_players);
        let seats = &info.players[..np];
        let gt = info.game_type;
    }
    game_id: Int64 = g.game_id,
    source_file: Utf8 = g.source_file,
    source_hash: Utf8 = g.source_hash,
    index_in_file: UInt32 = g.record.index_in_file,
    format: Utf8 = g.record.format.name(),
    log_id: Option<Utf8> = g.record.log_id.as_deref(),
    date: Option<Date32> = g.date.map(|(y, m, d)| days_from_civil(y, m, d)),
    go_type: Option<UInt32> = gt.map(|t| t.0),
    lobby: Option<Int32> = info.lobby,
    level: Option<Utf8> = gt.map(|t| t.level()),
    red: Option<Boolean> = gt.map(|t| t.red()),
    kuitan: Option<Boolean> = gt.map(|t| t.kuitan()),
    hanchan: Option<Boolean> = gt.map(|t| t.hanchan()),
    fast: Option<Boolean> = gt.map(|t| t.fast()),
    players: UInt8 = info.n_players,
    names: List<Utf8> = Each(seats.iter().map(|p| p.name.as_str())),
    dan: List<Option<Int8>> = Each(seats.iter().map(|p| p.dan)),
    rate: List<Option<Float32>> = Each(seats.iter().map(|p| p.rate)),
    final_scores: Option<List<Int32>> = info.owari.as_ref().map(|o| &o.scores[..np]),
    final_points: Option<List<Float64>> = info.owari.as_ref().map(|o| &o.points[..np]),
    ranks: Option<List<UInt8>> = info.owari.as_ref().map(|o| placements(&o.scores, info.n_players)[..np].to_vec()),
    disconnected: List<Boolean> = &info.disconnected[..np],
    rounds: UInt16 = g.replayed.rounds.len() as u16,
    decisions: UInt32 = g.replayed.decisions.len() as u32,
    events: UInt32 = g.record.events.len() as u32,
    complete: Boolean = g.replayed.complete,
    truncation: Option<Utf8> = g.replayed.truncation.as_deref(),
    notes: List<Utf8> = Each(g.record.notes.iter().chain(&g.replayed.notes).map(String::as_str)),
    // the 64 bits as they are
    play_hash: Option<Int64> = g.play_hash.map(|h| h as i64),
}

// ---------------------------------------------------------------- rounds

columns! {
    /// One win of the rounds table's `wins` list.
    pub struct WinColumns for<'a> |a: Agari| {}
    who: UInt8 = a.who,
    from_who: UInt8 = a.from_who,
    pao_who: Option<UInt8> = a.pao_who,
    han: UInt8 = a.han().min(255) as u8,
    fu: UInt16 = a.fu.min(u32::from(u16::MAX)) as u16,
    points: Int32 = a.points,
    limit: UInt8 = a.limit,
    yaku: List<UInt8> = Each(a.yaku.iter().map(|y| y.id)),
    yaku_han: List<UInt8> = Each(a.yaku.iter().map(|y| y.han)),
    yakuman: List<UInt8> = &a.yakuman[..],
    hand: List<UInt8> = ids(&a.hand),
    melds: List<UInt32> = &a.melds[..],
    machi: UInt8 = a.machi.id(),
    ura_indicators: List<UInt8> = ids(&a.ura_indicators),
    deltas: List<Int32> = &a.delta[..],
}

/// `agari` or `ryuukyoku`, and the kind of a draw.
fn end_of(end: &RoundEnd) -> (&'static str, Option<&'static str>) {
    match end {
        RoundEnd::Agari(_) => ("agari", None),
        RoundEnd::Ryuukyoku(d) => ("ryuukyoku", Some(d.kind.name())),
    }
}

/// The seats that are tenpai at an exhaustive draw or nagashi mangan; none at other ends.
fn tenpai(end: &RoundEnd, np: usize) -> Option<Each<impl Iterator<Item = bool> + '_>> {
    match end {
        RoundEnd::Ryuukyoku(d) if !d.kind.is_abortive() => Some(Each(d.shown[..np].iter().map(Option::is_some))),
        _ => None,
    }
}

columns! {
    /// One row per completed round.
    pub struct RoundsBatch("rounds") for<'a> |g: GameRow<'a>| {
        let np = usize::from(g.replayed.info.n_players);
        for r in &g.replayed.rounds;
        let wins = r.wins();
        let (result, draw_kind) = end_of(&r.end);
    }
    game_id: Int64 = g.game_id,
    round: UInt16 = r.index,
    kyoku: UInt8 = r.init.kyoku,
    honba: UInt8 = r.init.honba,
    kyotaku: UInt8 = r.init.kyotaku,
    dealer: UInt8 = r.init.dealer,
    dice: List<UInt8> = &r.init.dice[..],
    start_scores: List<Int32> = &r.init.scores[..np],
    dora_indicators: List<UInt8> = ids(&r.dora_indicators),
    result: Utf8 = result,
    draw_kind: Option<Utf8> = draw_kind,
    winners: List<UInt8> = Each(wins.iter().map(|w| w.who)),
    loser: Option<UInt8> = wins.iter().find(|w| !w.is_tsumo()).map(|w| w.from_who),
    tsumo: Boolean = wins.iter().any(Agari::is_tsumo),
    wins: List<Struct<WinColumns>> = Each(wins),
    tenpai: Option<List<Boolean>> = tenpai(&r.end, np),
    deltas: List<Int32> = &r.deltas[..np],
    end_scores: List<Int32> = &r.end_scores[..np],
    kyotaku_after: UInt8 = r.kyotaku_after,
    outcomes: List<Utf8> = Each(r.outcomes[..np].iter().map(|o| o.name())),
    first_event: UInt32 = r.first_event,
    last_event: UInt32 = r.last_event,
}

// ---------------------------------------------------------------- events

/// The game's events with their index and the index of the round they fall in (none outside rounds).
fn with_rounds<'g>(g: &'g GameRow<'_>) -> impl Iterator<Item = (u32, &'g Event, Option<i16>)> {
    let mut rounds = g.replayed.rounds.iter().peekable();
    g.record.events.iter().enumerate().map(move |(i, e)| {
        let i = i as u32;
        while rounds.peek().is_some_and(|r| r.last_event < i) {
            rounds.next();
        }
        (i, e, rounds.peek().filter(|r| r.first_event <= i).map(|r| r.index as i16))
    })
}

/// Seat, tile and meld of the typed events (draw, discard, call, dora).
fn typed(e: &Event) -> (Option<u8>, Option<u8>, Option<u32>) {
    match e {
        Event::Draw { seat, tile } | Event::Discard { seat, tile } => (Some(*seat), Some(tile.id()), None),
        Event::Call { seat, code, .. } => (Some(*seat), None, Some(*code)),
        Event::Dora { tile } => (None, Some(tile.id()), None),
        _ => (None, None, None),
    }
}

/// A tag's attributes as XML text, written into the rows' reused buffer.
fn attrs_text<'t>(tag: &Tag, text: &'t mut String) -> &'t str {
    text.clear();
    tag.write_attrs(text);
    text
}

columns! {
    /// One row per event, in order (lossless).
    pub struct EventsBatch("events") for<'a> |g: GameRow<'a>, text| {
        for (i, e, round) in with_rounds(g);
        let (seat, tile, meld) = typed(e);
    }
    game_id: Int64 = g.game_id,
    index: UInt32 = i,
    round: Option<Int16> = round,
    kind: Utf8 = e.kind_name(),
    seat: Option<UInt8> = seat,
    tile: Option<UInt8> = tile,
    meld: Option<UInt32> = meld,
    attrs: Option<Utf8> = e.written_tag().map(|t| attrs_text(t, text)),
}

// ---------------------------------------------------------------- decisions

/// The counts without the discarded tile.
pub fn after_discard(mut counts: Counts, discard: Tile) -> Counts {
    counts[usize::from(discard.kind().index())] -= 1;
    counts
}

/// The yaku and yakuman ids of the seat's win in the round (none when it did not win).
fn win_yaku(round: &RoundRecord, seat: u8) -> Each<impl Iterator<Item = u8> + '_> {
    let wins = round.wins().iter().filter(move |w| w.who == seat);
    Each(wins.flat_map(|w| w.yaku.iter().map(|y| y.id).chain(w.yakuman.iter().copied())))
}

columns! {
    /// One row per discard: the state the player chose from.
    pub struct DecisionsBatch("decisions") for<'a> |g: GameRow<'a>| {
        let info = &g.replayed.info;
        let np = usize::from(info.n_players);
        // ids 16, 52, 88 are plain fives in a lobby without red fives
        let red = info.game_type.is_none_or(|t| t.red());
        for d in &g.replayed.decisions;
        let round = &g.replayed.rounds[usize::from(d.round)];
        let player = &info.players[usize::from(d.seat)];
        let counts = *d.hand.counts();
        let after = after_discard(counts, d.discard);
    }
    game_id: Int64 = g.game_id,
    event_index: UInt32 = d.event_index,
    round: UInt16 = d.round,
    kyoku: UInt8 = round.init.kyoku,
    honba: UInt8 = round.init.honba,
    kyotaku: UInt8 = round.init.kyotaku,
    seat: UInt8 = d.seat,
    player: Utf8 = player.name.as_str(),
    dan: Option<Int8> = player.dan,
    rate: Option<Float32> = player.rate,
    turn: UInt8 = d.turn,
    source: Utf8 = d.source.name(),
    source_tile: UInt8 = d.source_tile.id(),
    hand: Bytes<34> = &counts,
    hand_red: UInt8 = if red { d.hand.tiles().red_mask() } else { 0 },
    discard: UInt8 = d.discard.id(),
    tsumogiri: Boolean = d.tsumogiri,
    riichi: Boolean = d.riichi,
    in_riichi: Boolean = d.in_riichi,
    melds: List<Utf8> = Each(d.melds.iter().map(Shown)),
    shanten_before: Int8 = d.shanten_before,
    shanten_after: Int8 = d.shanten_after,
    scores: List<Int32> = &d.scores[..np],
    dora_indicators: List<UInt8> = ids(&round.dora_indicators[..usize::from(d.dora_count)]),
    tiles_left: UInt8 = d.tiles_left,
    outcome: Utf8 = d.outcome.name(),
    win_yaku: List<UInt8> = win_yaku(round, d.seat),
    man_before_key: UInt32 = suit_key(&d.before, Suit::Man),
    man_after_key: UInt32 = suit_key(&after, Suit::Man),
    pin_before_key: UInt32 = suit_key(&d.before, Suit::Pin),
    pin_after_key: UInt32 = suit_key(&after, Suit::Pin),
    sou_before_key: UInt32 = suit_key(&d.before, Suit::Sou),
    sou_after_key: UInt32 = suit_key(&after, Suit::Sou),
}

// ---------------------------------------------------------------- choices

columns! {
    /// One row per moment a seat could do something other than discard: what it was offered, what it did.
    pub struct ChoicesBatch("choices") for<'a> |g: GameRow<'a>| {
        let info = &g.replayed.info;
        let np = usize::from(info.n_players);
        let red = info.game_type.is_none_or(|t| t.red());
        for c in &g.replayed.choices;
        let round = &g.replayed.rounds[usize::from(c.round)];
        let player = &info.players[usize::from(c.seat)];
    }
    game_id: Int64 = g.game_id,
    event_index: UInt32 = c.event_index,
    round: UInt16 = c.round,
    seat: UInt8 = c.seat,
    player: Utf8 = player.name.as_str(),
    dan: Option<Int8> = player.dan,
    rate: Option<Float32> = player.rate,
    moment: Utf8 = c.moment.name(),
    from_seat: UInt8 = c.from,
    tile: UInt8 = c.tile.id(),
    options: List<Utf8> = Each(c.option_texts().map(Shown)),
    chosen: Option<Utf8> = c.chosen_text().map(Shown),
    turn: UInt8 = c.turn,
    hand: Bytes<34> = c.hand.counts(),
    hand_red: UInt8 = if red { c.hand.tiles().red_mask() } else { 0 },
    melds: List<Utf8> = Each(c.melds.iter().map(Shown)),
    shanten: Int8 = c.shanten,
    scores: List<Int32> = &c.scores[..np],
    riichi_seats: UInt8 = c.riichi,
    dora_indicators: List<UInt8> = ids(&round.dora_indicators[..usize::from(c.dora_count)]),
    tiles_left: UInt8 = c.tiles_left,
    outcome: Utf8 = c.outcome.name(),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_days() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(days_from_civil(2019, 6, 8), 18_055);
    }

    #[test]
    fn years_of_days_invert_civil_days() {
        for (y, m, d) in [(1970, 1, 1), (2000, 2, 29), (2000, 3, 1), (2019, 12, 31), (2020, 1, 1), (1969, 12, 31)] {
            assert_eq!(year_of_days(days_from_civil(y, m, d)), y, "{y}-{m}-{d}");
        }
    }
}
