//! The four tables of the dataset (docs/SCHEMA.md): `games`, `rounds`, `events`, `decisions`, as Arrow
//! record batches. Each table has a batch builder that takes whole games and hands out record batches.

use std::sync::Arc;

use arrow::array::{
    ArrayBuilder, ArrayRef, BooleanBuilder, Date32Builder, Float32Builder, Float64Builder, Int16Builder, Int32Builder,
    Int64Builder, Int8Builder, ListArray, ListBuilder, RecordBatch, StringBuilder, StructArray, UInt16Builder,
    UInt32Builder, UInt8Builder,
};
use arrow::buffer::OffsetBuffer;
use arrow::datatypes::{DataType, Field, Fields, Schema, SchemaRef};

use std::fmt::Write;

use haifu_rules::{write_counts, write_suit_digits, Suit, Tile};

use crate::replay::{ReplayedGame, RoundEnd};
use haifu_record::event::{Event, GameRecord};
use haifu_record::tags::Agari;

/// One replayed game with what the tables need to know about its source.
pub struct GameRow<'a> {
    pub game_id: i64,
    pub source_file: &'a str,
    pub source_hash: &'a str,
    pub record: &'a GameRecord,
    pub replayed: &'a ReplayedGame,
    /// `(year, month, day)` from the log id or the file name.
    pub date: Option<(i32, u32, u32)>,
}

/// A table's batch builder.
pub trait TableBatch: Default {
    const NAME: &'static str;
    fn schema() -> SchemaRef;
    fn push(&mut self, g: &GameRow<'_>);
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The rows so far as a record batch; the builder starts empty again.
    fn finish(&mut self) -> RecordBatch;
}

fn list_of(name: &str, item: DataType) -> Field {
    Field::new(name, DataType::List(Arc::new(Field::new("item", item, true))), true)
}

fn f(name: &str, t: DataType, nullable: bool) -> Field {
    Field::new(name, t, nullable)
}

fn batch(schema: SchemaRef, cols: Vec<ArrayRef>) -> RecordBatch {
    RecordBatch::try_new(schema, cols).expect("columns match the table schema")
}

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

fn push_ids(b: &mut ListBuilder<UInt8Builder>, tiles: &[Tile]) {
    for t in tiles {
        b.values().append_value(t.id());
    }
    b.append(true);
}

fn push_i32s(b: &mut ListBuilder<Int32Builder>, v: &[i32]) {
    b.values().append_slice(v);
    b.append(true);
}

/// Final ranks from final scores: ties go to the seat nearer the first dealer (seat 0), as on Tenhou.
pub fn ranks(scores: &[i32]) -> Vec<u8> {
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by_key(|&s| (std::cmp::Reverse(scores[s]), s));
    let mut r = vec![0u8; scores.len()];
    for (place, s) in order.into_iter().enumerate() {
        r[s] = place as u8 + 1;
    }
    r
}

// ---------------------------------------------------------------- games

#[derive(Default)]
pub struct GamesBatch {
    game_id: Int64Builder,
    source_file: StringBuilder,
    source_hash: StringBuilder,
    index_in_file: UInt32Builder,
    format: StringBuilder,
    log_id: StringBuilder,
    date: Date32Builder,
    go_type: UInt32Builder,
    lobby: Int32Builder,
    level: StringBuilder,
    red: BooleanBuilder,
    kuitan: BooleanBuilder,
    hanchan: BooleanBuilder,
    fast: BooleanBuilder,
    players: UInt8Builder,
    names: ListBuilder<StringBuilder>,
    dan: ListBuilder<Int8Builder>,
    rate: ListBuilder<Float32Builder>,
    final_scores: ListBuilder<Int32Builder>,
    final_points: ListBuilder<Float64Builder>,
    ranks: ListBuilder<UInt8Builder>,
    disconnected: ListBuilder<BooleanBuilder>,
    rounds: UInt16Builder,
    decisions: UInt32Builder,
    events: UInt32Builder,
    complete: BooleanBuilder,
    truncation: StringBuilder,
    notes: ListBuilder<StringBuilder>,
}

impl TableBatch for GamesBatch {
    const NAME: &'static str = "games";
    fn schema() -> SchemaRef {
        use DataType::*;
        Arc::new(Schema::new(vec![
            f("game_id", Int64, false),
            f("source_file", Utf8, false),
            f("source_hash", Utf8, false),
            f("index_in_file", UInt32, false),
            f("format", Utf8, false),
            f("log_id", Utf8, true),
            f("date", Date32, true),
            f("go_type", UInt32, true),
            f("lobby", Int32, true),
            f("level", Utf8, true),
            f("red", Boolean, true),
            f("kuitan", Boolean, true),
            f("hanchan", Boolean, true),
            f("fast", Boolean, true),
            f("players", UInt8, false),
            list_of("names", Utf8),
            list_of("dan", Int8),
            list_of("rate", Float32),
            list_of("final_scores", Int32),
            list_of("final_points", Float64),
            list_of("ranks", UInt8),
            list_of("disconnected", Boolean),
            f("rounds", UInt16, false),
            f("decisions", UInt32, false),
            f("events", UInt32, false),
            f("complete", Boolean, false),
            f("truncation", Utf8, true),
            list_of("notes", Utf8),
        ]))
    }

    fn push(&mut self, g: &GameRow<'_>) {
        let info = &g.replayed.info;
        let np = usize::from(info.n_players);
        self.game_id.append_value(g.game_id);
        self.source_file.append_value(g.source_file);
        self.source_hash.append_value(g.source_hash);
        self.index_in_file.append_value(g.record.index_in_file);
        self.format.append_value(g.record.format.name());
        self.log_id.append_option(g.record.log_id.as_deref());
        self.date.append_option(g.date.map(|(y, m, d)| days_from_civil(y, m, d)));
        let gt = info.game_type;
        self.go_type.append_option(gt.map(|t| t.0));
        self.lobby.append_option(info.lobby);
        self.level.append_option(gt.map(|t| t.level()));
        self.red.append_option(gt.map(|t| t.red()));
        self.kuitan.append_option(gt.map(|t| t.kuitan()));
        self.hanchan.append_option(gt.map(|t| t.hanchan()));
        self.fast.append_option(gt.map(|t| t.fast()));
        self.players.append_value(info.n_players);
        for p in &info.players[..np] {
            self.names.values().append_value(&p.name);
            self.dan.values().append_option(p.dan);
            self.rate.values().append_option(p.rate);
        }
        self.names.append(true);
        self.dan.append(true);
        self.rate.append(true);
        match &info.owari {
            Some(o) => {
                push_i32s(&mut self.final_scores, &o.scores[..np]);
                self.final_points.values().append_slice(&o.points[..np]);
                self.final_points.append(true);
                self.ranks.values().append_slice(&ranks(&o.scores[..np]));
                self.ranks.append(true);
            }
            None => {
                self.final_scores.append_null();
                self.final_points.append_null();
                self.ranks.append_null();
            }
        }
        for &d in &info.disconnected[..np] {
            self.disconnected.values().append_value(d);
        }
        self.disconnected.append(true);
        self.rounds.append_value(g.replayed.rounds.len() as u16);
        self.decisions.append_value(g.replayed.decisions.len() as u32);
        self.events.append_value(g.record.events.len() as u32);
        self.complete.append_value(g.replayed.complete);
        self.truncation.append_option(g.replayed.truncation.as_deref());
        for n in &g.record.notes {
            self.notes.values().append_value(n);
        }
        self.notes.append(true);
    }

    fn len(&self) -> usize {
        self.game_id.len()
    }

    fn finish(&mut self) -> RecordBatch {
        batch(
            Self::schema(),
            vec![
                Arc::new(self.game_id.finish()),
                Arc::new(self.source_file.finish()),
                Arc::new(self.source_hash.finish()),
                Arc::new(self.index_in_file.finish()),
                Arc::new(self.format.finish()),
                Arc::new(self.log_id.finish()),
                Arc::new(self.date.finish()),
                Arc::new(self.go_type.finish()),
                Arc::new(self.lobby.finish()),
                Arc::new(self.level.finish()),
                Arc::new(self.red.finish()),
                Arc::new(self.kuitan.finish()),
                Arc::new(self.hanchan.finish()),
                Arc::new(self.fast.finish()),
                Arc::new(self.players.finish()),
                Arc::new(self.names.finish()),
                Arc::new(self.dan.finish()),
                Arc::new(self.rate.finish()),
                Arc::new(self.final_scores.finish()),
                Arc::new(self.final_points.finish()),
                Arc::new(self.ranks.finish()),
                Arc::new(self.disconnected.finish()),
                Arc::new(self.rounds.finish()),
                Arc::new(self.decisions.finish()),
                Arc::new(self.events.finish()),
                Arc::new(self.complete.finish()),
                Arc::new(self.truncation.finish()),
                Arc::new(self.notes.finish()),
            ],
        )
    }
}

// ---------------------------------------------------------------- rounds

fn win_fields() -> Fields {
    use DataType::*;
    Fields::from(vec![
        f("who", UInt8, false),
        f("from_who", UInt8, false),
        f("pao_who", UInt8, true),
        f("han", UInt8, false),
        f("fu", UInt16, false),
        f("points", Int32, false),
        f("limit", UInt8, false),
        list_of("yaku", UInt8),
        list_of("yaku_han", UInt8),
        list_of("yakuman", UInt8),
        list_of("hand", UInt8),
        list_of("melds", UInt32),
        f("machi", UInt8, false),
        list_of("ura_indicators", UInt8),
        list_of("deltas", Int32),
    ])
}

#[derive(Default)]
pub struct RoundsBatch {
    game_id: Int64Builder,
    round: UInt16Builder,
    kyoku: UInt8Builder,
    honba: UInt8Builder,
    kyotaku: UInt8Builder,
    dealer: UInt8Builder,
    dice: ListBuilder<UInt8Builder>,
    start_scores: ListBuilder<Int32Builder>,
    dora_indicators: ListBuilder<UInt8Builder>,
    result: StringBuilder,
    draw_kind: StringBuilder,
    winners: ListBuilder<UInt8Builder>,
    loser: UInt8Builder,
    tsumo: BooleanBuilder,
    /// Wins of the batch, flattened, and the offsets of each round's wins.
    wins: Vec<Agari>,
    win_offsets: Vec<i32>,
    tenpai: ListBuilder<BooleanBuilder>,
    deltas: ListBuilder<Int32Builder>,
    end_scores: ListBuilder<Int32Builder>,
    kyotaku_after: UInt8Builder,
    outcomes: ListBuilder<StringBuilder>,
    first_event: UInt32Builder,
    last_event: UInt32Builder,
}

impl RoundsBatch {
    fn wins_array(&mut self) -> ArrayRef {
        let wins = std::mem::take(&mut self.wins);
        let offsets = std::mem::take(&mut self.win_offsets);
        let mut who = UInt8Builder::new();
        let mut from = UInt8Builder::new();
        let mut pao = UInt8Builder::new();
        let mut han = UInt8Builder::new();
        let mut fu = UInt16Builder::new();
        let mut points = Int32Builder::new();
        let mut limit = UInt8Builder::new();
        let mut yaku = ListBuilder::new(UInt8Builder::new());
        let mut yaku_han = ListBuilder::new(UInt8Builder::new());
        let mut yakuman = ListBuilder::new(UInt8Builder::new());
        let mut hand = ListBuilder::new(UInt8Builder::new());
        let mut melds = ListBuilder::new(UInt32Builder::new());
        let mut machi = UInt8Builder::new();
        let mut ura = ListBuilder::new(UInt8Builder::new());
        let mut deltas = ListBuilder::new(Int32Builder::new());
        for a in &wins {
            who.append_value(a.who);
            from.append_value(a.from_who);
            pao.append_option(a.pao_who);
            han.append_value(a.han().min(255) as u8);
            fu.append_value(a.fu.min(u32::from(u16::MAX)) as u16);
            points.append_value(a.points);
            limit.append_value(a.limit);
            for y in &a.yaku {
                yaku.values().append_value(y.id);
                yaku_han.values().append_value(y.han);
            }
            yaku.append(true);
            yaku_han.append(true);
            yakuman.values().append_slice(&a.yakuman);
            yakuman.append(true);
            push_ids(&mut hand, &a.hand);
            melds.values().append_slice(&a.melds);
            melds.append(true);
            machi.append_value(a.machi.id());
            push_ids(&mut ura, &a.ura_indicators);
            push_i32s(&mut deltas, &a.delta);
        }
        let children: Vec<ArrayRef> = vec![
            Arc::new(who.finish()),
            Arc::new(from.finish()),
            Arc::new(pao.finish()),
            Arc::new(han.finish()),
            Arc::new(fu.finish()),
            Arc::new(points.finish()),
            Arc::new(limit.finish()),
            Arc::new(yaku.finish()),
            Arc::new(yaku_han.finish()),
            Arc::new(yakuman.finish()),
            Arc::new(hand.finish()),
            Arc::new(melds.finish()),
            Arc::new(machi.finish()),
            Arc::new(ura.finish()),
            Arc::new(deltas.finish()),
        ];
        let structs = StructArray::try_new(win_fields(), children, None).expect("win struct matches its fields");
        let item = Arc::new(Field::new("item", DataType::Struct(win_fields()), true));
        let mut all_offsets = vec![0i32];
        all_offsets.extend(offsets);
        Arc::new(
            ListArray::try_new(item, OffsetBuffer::new(all_offsets.into()), Arc::new(structs), None)
                .expect("win offsets are monotone"),
        )
    }
}

impl TableBatch for RoundsBatch {
    const NAME: &'static str = "rounds";
    fn schema() -> SchemaRef {
        use DataType::*;
        Arc::new(Schema::new(vec![
            f("game_id", Int64, false),
            f("round", UInt16, false),
            f("kyoku", UInt8, false),
            f("honba", UInt8, false),
            f("kyotaku", UInt8, false),
            f("dealer", UInt8, false),
            list_of("dice", UInt8),
            list_of("start_scores", Int32),
            list_of("dora_indicators", UInt8),
            f("result", Utf8, false),
            f("draw_kind", Utf8, true),
            list_of("winners", UInt8),
            f("loser", UInt8, true),
            f("tsumo", Boolean, false),
            list_of("wins", Struct(win_fields())),
            list_of("tenpai", Boolean),
            list_of("deltas", Int32),
            list_of("end_scores", Int32),
            f("kyotaku_after", UInt8, false),
            list_of("outcomes", Utf8),
            f("first_event", UInt32, false),
            f("last_event", UInt32, false),
        ]))
    }

    fn push(&mut self, g: &GameRow<'_>) {
        let np = usize::from(g.replayed.info.n_players);
        for r in &g.replayed.rounds {
            self.game_id.append_value(g.game_id);
            self.round.append_value(r.index);
            self.kyoku.append_value(r.init.kyoku);
            self.honba.append_value(r.init.honba);
            self.kyotaku.append_value(r.init.kyotaku);
            self.dealer.append_value(r.init.dealer);
            self.dice.values().append_slice(&r.init.dice);
            self.dice.append(true);
            push_i32s(&mut self.start_scores, &r.init.scores[..np]);
            push_ids(&mut self.dora_indicators, &r.dora_indicators);
            let wins = r.wins();
            match &r.end {
                RoundEnd::Agari(_) => {
                    self.result.append_value("agari");
                    self.draw_kind.append_null();
                }
                RoundEnd::Ryuukyoku(d) => {
                    self.result.append_value("ryuukyoku");
                    self.draw_kind.append_value(d.kind.name());
                }
            }
            for w in wins {
                self.winners.values().append_value(w.who);
            }
            self.winners.append(true);
            self.loser.append_option(wins.iter().find(|w| !w.is_tsumo()).map(|w| w.from_who));
            self.tsumo.append_value(wins.iter().any(Agari::is_tsumo));
            self.wins.extend(wins.iter().cloned());
            self.win_offsets.push(self.wins.len() as i32);
            match &r.end {
                RoundEnd::Ryuukyoku(d) if !d.kind.is_abortive() => {
                    for s in &d.shown[..np] {
                        self.tenpai.values().append_value(s.is_some());
                    }
                    self.tenpai.append(true);
                }
                _ => self.tenpai.append_null(),
            }
            push_i32s(&mut self.deltas, &r.deltas[..np]);
            push_i32s(&mut self.end_scores, &r.end_scores[..np]);
            self.kyotaku_after.append_value(r.kyotaku_after);
            for o in &r.outcomes[..np] {
                self.outcomes.values().append_value(o.name());
            }
            self.outcomes.append(true);
            self.first_event.append_value(r.first_event);
            self.last_event.append_value(r.last_event);
        }
    }

    fn len(&self) -> usize {
        self.game_id.len()
    }

    fn finish(&mut self) -> RecordBatch {
        let wins = self.wins_array();
        batch(
            Self::schema(),
            vec![
                Arc::new(self.game_id.finish()),
                Arc::new(self.round.finish()),
                Arc::new(self.kyoku.finish()),
                Arc::new(self.honba.finish()),
                Arc::new(self.kyotaku.finish()),
                Arc::new(self.dealer.finish()),
                Arc::new(self.dice.finish()),
                Arc::new(self.start_scores.finish()),
                Arc::new(self.dora_indicators.finish()),
                Arc::new(self.result.finish()),
                Arc::new(self.draw_kind.finish()),
                Arc::new(self.winners.finish()),
                Arc::new(self.loser.finish()),
                Arc::new(self.tsumo.finish()),
                wins,
                Arc::new(self.tenpai.finish()),
                Arc::new(self.deltas.finish()),
                Arc::new(self.end_scores.finish()),
                Arc::new(self.kyotaku_after.finish()),
                Arc::new(self.outcomes.finish()),
                Arc::new(self.first_event.finish()),
                Arc::new(self.last_event.finish()),
            ],
        )
    }
}

// ---------------------------------------------------------------- events

#[derive(Default)]
pub struct EventsBatch {
    game_id: Int64Builder,
    index: UInt32Builder,
    round: Int16Builder,
    kind: StringBuilder,
    seat: UInt8Builder,
    tile: UInt8Builder,
    meld: UInt32Builder,
    attrs: StringBuilder,
}

impl TableBatch for EventsBatch {
    const NAME: &'static str = "events";
    fn schema() -> SchemaRef {
        use DataType::*;
        Arc::new(Schema::new(vec![
            f("game_id", Int64, false),
            f("index", UInt32, false),
            f("round", Int16, true),
            f("kind", Utf8, false),
            f("seat", UInt8, true),
            f("tile", UInt8, true),
            f("meld", UInt32, true),
            f("attrs", Utf8, true),
        ]))
    }

    fn push(&mut self, g: &GameRow<'_>) {
        let mut rounds = g.replayed.rounds.iter().peekable();
        for (i, e) in g.record.events.iter().enumerate() {
            let i = i as u32;
            while rounds.peek().is_some_and(|r| r.last_event < i) {
                rounds.next();
            }
            let round = rounds.peek().filter(|r| r.first_event <= i).map(|r| r.index as i16);
            self.game_id.append_value(g.game_id);
            self.index.append_value(i);
            self.round.append_option(round);
            self.kind.append_value(e.kind_name());
            let (seat, tile, meld) = match e {
                Event::Draw { seat, tile } | Event::Discard { seat, tile } => (Some(*seat), Some(tile.id()), None),
                Event::Call { seat, meld } => (Some(*seat), None, Some(*meld)),
                Event::Dora { tile } => (None, Some(tile.id()), None),
                Event::Tag(_) => (None, None, None),
            };
            self.seat.append_option(seat);
            self.tile.append_option(tile);
            self.meld.append_option(meld);
            match e {
                Event::Tag(t) => self.attrs.append_value(t.attrs_xml()),
                _ => self.attrs.append_null(),
            }
        }
    }

    fn len(&self) -> usize {
        self.game_id.len()
    }

    fn finish(&mut self) -> RecordBatch {
        batch(
            Self::schema(),
            vec![
                Arc::new(self.game_id.finish()),
                Arc::new(self.index.finish()),
                Arc::new(self.round.finish()),
                Arc::new(self.kind.finish()),
                Arc::new(self.seat.finish()),
                Arc::new(self.tile.finish()),
                Arc::new(self.meld.finish()),
                Arc::new(self.attrs.finish()),
            ],
        )
    }
}

// ---------------------------------------------------------------- decisions

#[derive(Default)]
pub struct DecisionsBatch {
    game_id: Int64Builder,
    event_index: UInt32Builder,
    round: UInt16Builder,
    kyoku: UInt8Builder,
    honba: UInt8Builder,
    kyotaku: UInt8Builder,
    seat: UInt8Builder,
    player: StringBuilder,
    dan: Int8Builder,
    rate: Float32Builder,
    turn: UInt8Builder,
    source: StringBuilder,
    source_tile: UInt8Builder,
    hand: ListBuilder<UInt8Builder>,
    hand_red: UInt8Builder,
    hand_text: StringBuilder,
    discard: UInt8Builder,
    discard_kind: StringBuilder,
    tsumogiri: BooleanBuilder,
    riichi: BooleanBuilder,
    in_riichi: BooleanBuilder,
    melds: ListBuilder<StringBuilder>,
    shanten_before: Int8Builder,
    shanten_after: Int8Builder,
    scores: ListBuilder<Int32Builder>,
    dora_indicators: ListBuilder<UInt8Builder>,
    tiles_left: UInt8Builder,
    outcome: StringBuilder,
    win_yaku: ListBuilder<UInt8Builder>,
    suits: [[StringBuilder; 2]; 3],
    /// Reused text buffer: the row loop allocates nothing.
    buf: String,
}

impl TableBatch for DecisionsBatch {
    const NAME: &'static str = "decisions";
    fn schema() -> SchemaRef {
        use DataType::*;
        let mut fields = vec![
            f("game_id", Int64, false),
            f("event_index", UInt32, false),
            f("round", UInt16, false),
            f("kyoku", UInt8, false),
            f("honba", UInt8, false),
            f("kyotaku", UInt8, false),
            f("seat", UInt8, false),
            f("player", Utf8, false),
            f("dan", Int8, true),
            f("rate", Float32, true),
            f("turn", UInt8, false),
            f("source", Utf8, false),
            f("source_tile", UInt8, false),
            list_of("hand", UInt8),
            f("hand_red", UInt8, false),
            f("hand_text", Utf8, false),
            f("discard", UInt8, false),
            f("discard_kind", Utf8, false),
            f("tsumogiri", Boolean, false),
            f("riichi", Boolean, false),
            f("in_riichi", Boolean, false),
            list_of("melds", Utf8),
            f("shanten_before", Int8, false),
            f("shanten_after", Int8, false),
            list_of("scores", Int32),
            list_of("dora_indicators", UInt8),
            f("tiles_left", UInt8, false),
            f("outcome", Utf8, false),
            list_of("win_yaku", UInt8),
        ];
        for s in Suit::ALL {
            fields.push(f(&format!("{}_before", s.name()), Utf8, false));
            fields.push(f(&format!("{}_after", s.name()), Utf8, false));
        }
        Arc::new(Schema::new(fields))
    }

    fn push(&mut self, g: &GameRow<'_>) {
        let info = &g.replayed.info;
        let np = usize::from(info.n_players);
        // ids 16, 52, 88 are plain fives in a lobby without red fives
        let red = info.game_type.is_none_or(|t| t.red());
        for d in &g.replayed.decisions {
            let round = &g.replayed.rounds[usize::from(d.round)];
            let player = &info.players[usize::from(d.seat)];
            self.game_id.append_value(g.game_id);
            self.event_index.append_value(d.event_index);
            self.round.append_value(d.round);
            self.kyoku.append_value(round.init.kyoku);
            self.honba.append_value(round.init.honba);
            self.kyotaku.append_value(round.init.kyotaku);
            self.seat.append_value(d.seat);
            self.player.append_value(&player.name);
            self.dan.append_option(player.dan);
            self.rate.append_option(player.rate);
            self.turn.append_value(d.turn);
            self.source.append_value(d.source.name());
            self.source_tile.append_value(d.source_tile.id());
            let counts = *d.hand.counts();
            self.hand.values().append_slice(&counts);
            self.hand.append(true);
            self.hand_red.append_value(if red { d.hand.tiles().red_mask() } else { 0 });
            write_counts(&counts, &mut self.buf);
            self.hand_text.append_value(&self.buf);
            self.discard.append_value(d.discard.id());
            self.discard_kind.append_value(d.discard.kind().name());
            self.tsumogiri.append_value(d.tsumogiri);
            self.riichi.append_value(d.riichi);
            self.in_riichi.append_value(d.in_riichi);
            for m in &d.melds {
                self.buf.clear();
                let _ = write!(self.buf, "{m}");
                self.melds.values().append_value(&self.buf);
            }
            self.melds.append(true);
            self.shanten_before.append_value(d.shanten_before);
            self.shanten_after.append_value(d.shanten_after);
            push_i32s(&mut self.scores, &d.scores[..np]);
            push_ids(&mut self.dora_indicators, &round.dora_indicators[..usize::from(d.dora_count)]);
            self.tiles_left.append_value(d.tiles_left);
            self.outcome.append_value(d.outcome.name());
            for w in round.wins().iter().filter(|w| w.who == d.seat) {
                for y in &w.yaku {
                    self.win_yaku.values().append_value(y.id);
                }
                self.win_yaku.values().append_slice(&w.yakuman);
            }
            self.win_yaku.append(true);
            let mut after = counts;
            after[usize::from(d.discard.kind().index())] -= 1;
            for (s, cols) in Suit::ALL.iter().zip(self.suits.iter_mut()) {
                write_suit_digits(&d.before, *s, &mut self.buf);
                cols[0].append_value(&self.buf);
                write_suit_digits(&after, *s, &mut self.buf);
                cols[1].append_value(&self.buf);
            }
        }
    }

    fn len(&self) -> usize {
        self.game_id.len()
    }

    fn finish(&mut self) -> RecordBatch {
        let mut cols: Vec<ArrayRef> = vec![
            Arc::new(self.game_id.finish()),
            Arc::new(self.event_index.finish()),
            Arc::new(self.round.finish()),
            Arc::new(self.kyoku.finish()),
            Arc::new(self.honba.finish()),
            Arc::new(self.kyotaku.finish()),
            Arc::new(self.seat.finish()),
            Arc::new(self.player.finish()),
            Arc::new(self.dan.finish()),
            Arc::new(self.rate.finish()),
            Arc::new(self.turn.finish()),
            Arc::new(self.source.finish()),
            Arc::new(self.source_tile.finish()),
            Arc::new(self.hand.finish()),
            Arc::new(self.hand_red.finish()),
            Arc::new(self.hand_text.finish()),
            Arc::new(self.discard.finish()),
            Arc::new(self.discard_kind.finish()),
            Arc::new(self.tsumogiri.finish()),
            Arc::new(self.riichi.finish()),
            Arc::new(self.in_riichi.finish()),
            Arc::new(self.melds.finish()),
            Arc::new(self.shanten_before.finish()),
            Arc::new(self.shanten_after.finish()),
            Arc::new(self.scores.finish()),
            Arc::new(self.dora_indicators.finish()),
            Arc::new(self.tiles_left.finish()),
            Arc::new(self.outcome.finish()),
            Arc::new(self.win_yaku.finish()),
        ];
        for pair in &mut self.suits {
            for b in pair {
                cols.push(Arc::new(b.finish()));
            }
        }
        batch(Self::schema(), cols)
    }
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
    fn ranks_break_ties_by_seat() {
        assert_eq!(ranks(&[25000, 30000, 25000, 20000]), vec![2, 1, 3, 4]);
        assert_eq!(ranks(&[35000, 35000, 35000]), vec![1, 2, 3]);
    }
}
