//! The oracle check: a logged game played again through the engine, tile for tile.
//!
//! A [`ScriptedWall`] gives the engine the log's deal, draws, kan dora and ura dora; the driver turns each
//! logged decision (discard, riichi, call, kan, nuki, tsumo, ron, nine terminals) into an [`Action`] and
//! applies it, after letting every other seat that had a choice pass (a seat that could ron and did not
//! becomes furiten, as on Tenhou). Checked:
//! - every logged action is legal for the engine (else a [`Category::Legality`] or, when only scoring refused
//!   a logged win, [`Category::NoScore`] mismatch);
//! - every win: yaku with han, yakuman, fu, points, limit, score changes, pao, dora and ura indicators, as
//!   `haifu_rules::score` computes them from the engine's own state (riichi, ippatsu, rinshan, chankan,
//!   haitei/houtei, tenhou/chiihou);
//! - every draw: its kind, the tenpai hands and the score changes; the engine ends rounds exactly where the log
//!   does (abortive draws included);
//! - every `INIT`: round, honba, sticks and scores as the engine carried them; the end of the game and `owari`.
//!
//! After a mismatch that stops the round, the engine restarts at the log's next round with the log's numbers,
//! so one mistake is reported once.

use std::collections::BTreeMap;

use haifu_record::event::{Event, GameRecord};
use haifu_record::tags::{Agari, DrawKind, GameType, Owari, Ryuukyoku};
use haifu_rules::{Meld, Tile};
use serde::Serialize;

use crate::action::{Action, IllegalAction};
use crate::engine::{Engine, Offer, RoundEnd, TenpaiRuleCases, WinBlock};
use crate::wall::ScriptedWall;
use haifu_rules::table::{self, TableRules};

/// What kind of difference a mismatch is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// A logged action the engine does not allow (or a tile the engine did not expect).
    Legality,
    /// A logged win that `score()` does not score (no yaku found).
    NoScore,
    Yaku,
    Fu,
    Points,
    Limit,
    /// Score changes of a win.
    Deltas,
    Pao,
    /// Dora or ura indicators of a win.
    Dora,
    /// The round ends differently: another draw kind, another winner, or the engine ends it elsewhere.
    RoundEnd,
    /// Tenpai hands or score changes of a draw.
    Draw,
    /// An `INIT` whose round, honba, sticks or scores differ from the engine's.
    RoundStart,
    /// The game ends (or goes on) differently.
    GameEnd,
    /// `owari` scores or game points.
    Owari,
    /// The log ran out of tiles the engine needed.
    Wall,
    /// The events the engine wrote for a round differ from the log's (order of tags, attributes).
    Record,
}

impl Category {
    pub fn name(self) -> &'static str {
        match self {
            Category::Legality => "legality",
            Category::NoScore => "no_score",
            Category::Yaku => "yaku",
            Category::Fu => "fu",
            Category::Points => "points",
            Category::Limit => "limit",
            Category::Deltas => "deltas",
            Category::Pao => "pao",
            Category::Dora => "dora",
            Category::RoundEnd => "round_end",
            Category::Draw => "draw",
            Category::RoundStart => "round_start",
            Category::GameEnd => "game_end",
            Category::Owari => "owari",
            Category::Wall => "wall",
            Category::Record => "record",
        }
    }
    /// Differences in what `haifu_rules::score` computes (as opposed to the engine's rules).
    pub fn is_scoring(self) -> bool {
        matches!(
            self,
            Category::NoScore | Category::Yaku | Category::Fu | Category::Points | Category::Limit | Category::Deltas
        )
    }
}

/// One difference between the log and the engine.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Mismatch {
    pub game: String,
    /// Index of the round in the game (from 0) and its name (`E1-0` = East 1, no honba).
    pub round: usize,
    pub round_name: String,
    /// Index of the event in the record.
    pub event: usize,
    pub category: Category,
    /// The seat the mismatch is about (the actor of a refused action, the winner of a win), when one is.
    pub seat: Option<u8>,
    /// The rule the log breaks under Tenhou's rules, when the engine can name it: `riichi_not_tenpai`,
    /// `kuikae`, `furiten_temporary`, `abortive_reach4` ... ([`Engine::rule_broken`]).
    pub rule: Option<String>,
    pub what: String,
    pub expected: String,
    pub computed: String,
}

/// The result of replaying one or more games.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct VerifyReport {
    pub games: usize,
    /// Games not checked, with the reason (other rules than Tenhou's ranked tables, no round).
    pub skipped: Vec<String>,
    /// Checks left out of games that were checked, with the reason: a private lobby's end of the game and
    /// `owari` (its length, starting scores and uma are its own; a negative score may not end it).
    pub unchecked: Vec<String>,
    pub rounds: usize,
    pub actions: usize,
    pub agari_checked: usize,
    pub draws_checked: usize,
    pub owari_checked: usize,
    /// Rounds whose events the engine wrote exactly as the log (mjlog records only).
    pub records_checked: usize,
    /// Exhaustive draws where a hand only a fifth copy would complete was (rightly) noten.
    pub tenpai_rule_cases: TenpaiRuleCases,
    pub mismatches: Vec<Mismatch>,
}

impl VerifyReport {
    pub fn merge(&mut self, o: VerifyReport) {
        self.games += o.games;
        self.skipped.extend(o.skipped);
        self.unchecked.extend(o.unchecked);
        self.rounds += o.rounds;
        self.actions += o.actions;
        self.agari_checked += o.agari_checked;
        self.draws_checked += o.draws_checked;
        self.owari_checked += o.owari_checked;
        self.records_checked += o.records_checked;
        self.tenpai_rule_cases.noten_with_hand_copies += o.tenpai_rule_cases.noten_with_hand_copies;
        self.tenpai_rule_cases.tenpai_with_meld_copies += o.tenpai_rule_cases.tenpai_with_meld_copies;
        self.mismatches.extend(o.mismatches);
    }
    /// Number of mismatches per category.
    pub fn by_category(&self) -> BTreeMap<Category, usize> {
        let mut m = BTreeMap::new();
        for x in &self.mismatches {
            *m.entry(x.category).or_insert(0) += 1;
        }
        m
    }
}

pub use haifu_rules::table::round_name;

/// `GO type`, `lobby` (0 when absent) and whether the tag has a `lobby` at all (logs of 2009 do not).
fn go_of(record: &GameRecord) -> (Option<u32>, i64, bool) {
    for e in &record.events {
        if let Event::Go(go) = e {
            return (go.game_type.map(|t| t.0), go.lobby.unwrap_or(0), go.tag().get("lobby").is_some());
        }
    }
    (None, 0, true)
}

/// Replays one game through the engine; `name` labels its mismatches.
pub fn verify_game(name: &str, record: &GameRecord) -> VerifyReport {
    verify_game_watched(name, record, &mut |_, _| {})
}

/// [`verify_game`], showing `watch` each logged event of the play once the engine has taken it, with the engine
/// (its state, and each seat's rule bookkeeping: [`Engine::seat_rules`]).
pub fn verify_game_watched(
    name: &str,
    record: &GameRecord,
    watch: &mut dyn FnMut(&Event, &Engine<ScriptedWall>),
) -> VerifyReport {
    let mut rep = VerifyReport { games: 1, ..VerifyReport::default() };
    let events = &record.events;
    let inits: Vec<usize> = (0..events.len()).filter(|&i| matches!(events[i], Event::Init(_))).collect();
    let Some(&first) = inits.first() else {
        rep.skipped.push(format!("{name}: no round"));
        return rep;
    };
    let (go, lobby, has_lobby) = go_of(record);
    let three = matches!(&events[first], Event::Init(init) if init.players() == 3);
    let go = go.unwrap_or(GameType::houou_hanchan(if three { 3 } else { 4 }).0);
    if GameType(go).is_variant() {
        rep.skipped.push(format!("{name}: GO type {go}: a rule variant the ranked tables do not use"));
        return rep;
    }
    let rules = TableRules::from_go_type(go & 0xFF);
    let rules = if has_lobby || record.format != haifu_record::Format::Mjlog { rules } else { rules.legacy_2009() };
    let engine = match Engine::new(rules, ScriptedWall::from_record(record)) {
        Ok(e) => e,
        Err(e) => {
            rep.skipped.push(format!("{name}: the first round cannot be dealt: {e}"));
            return rep;
        }
    };
    // a private lobby (lobby != 0) sets its own starting scores, length and uma: its rounds are checked like
    // any other, its start is taken from the log, and its end of game and `owari` are not held to the ranked rules
    let custom = lobby != 0;
    let mut d = Driver { name, events, engine, rep, round: 0, round_name: String::new(), wants_more: false, watch };
    let first_scores = match &events[first] {
        Event::Init(init) => Some(init.scores),
        _ => None,
    };
    let mut clean = !(custom && first_scores.is_some_and(|s| s != d.engine.scores()));
    for (r, &start) in inits.iter().enumerate() {
        let end = inits.get(r + 1).copied().unwrap_or(events.len());
        let Event::Init(init) = &events[start] else { continue };
        d.round = r;
        d.round_name = round_name(init.kyoku, init.honba);
        let e = &d.engine;
        if clean && !e.is_over() && e.wall().next_round() == r + 1 {
            let engine_has = (e.kyoku(), e.honba(), e.kyotaku(), e.scores());
            let log_has = (init.kyoku, init.honba, init.kyotaku, init.scores);
            if engine_has != log_has {
                d.mismatch(start, Category::RoundStart, "round, honba, sticks, scores", log_has, engine_has);
                clean = false;
            }
        } else if clean && (e.is_over() || d.wants_more) && r > 0 {
            let what = "the engine ended the game; the log plays another round";
            if e.is_over() && !custom {
                d.mismatch(start, Category::GameEnd, what, d.round_name.clone(), "owari");
            }
            clean = false;
        } else if clean {
            clean = false;
        }
        if !clean {
            d.wants_more = false;
            d.engine.wall_mut().seek(r);
            if let Err(e) = d.engine.restart_round(init.kyoku, init.honba, init.kyotaku, init.scores) {
                d.mismatch(start, Category::Wall, "dealing the round", "a deal", e.to_string());
                continue;
            }
        }
        d.rep.rounds += 1;
        let engine_init = d.engine.events().iter().rposition(|e| matches!(e, Event::Init(_))).unwrap_or(0);
        clean = d.play_round(start + 1, end);
        // tenhou.net/6 and mjai readers write their own tags: only Tenhou's own mjlog is the model
        if clean && record.format == haifu_record::Format::Mjlog {
            d.compare_record(start, end, engine_init);
        }
    }
    if custom {
        d.rep.unchecked.push(format!(
            "{name}: private lobby {lobby}: the end of the game (a negative score, the length) and owari follow \
             the lobby's own rules, not checked"
        ));
    } else {
        d.check_owari(clean);
    }
    d.rep.tenpai_rule_cases = d.engine.tenpai_rule_cases();
    d.rep
}

struct Driver<'a> {
    name: &'a str,
    events: &'a [Event],
    engine: Engine<ScriptedWall>,
    rep: VerifyReport,
    round: usize,
    round_name: String,
    /// The engine finished the last round and asked for another deal the log does not have.
    wants_more: bool,
    watch: &'a mut dyn FnMut(&Event, &Engine<ScriptedWall>),
}

fn ids(tiles: &[Tile]) -> String {
    tiles.iter().map(|t| t.id().to_string()).collect::<Vec<_>>().join(",")
}

impl Driver<'_> {
    fn mismatch(
        &mut self,
        event: usize,
        category: Category,
        what: impl Into<String>,
        expected: impl std::fmt::Debug,
        computed: impl std::fmt::Debug,
    ) {
        let expected = format!("{expected:?}").trim_matches('"').to_string();
        let computed = format!("{computed:?}").trim_matches('"').to_string();
        self.rep.mismatches.push(Mismatch {
            game: self.name.to_string(),
            round: self.round,
            round_name: self.round_name.clone(),
            event,
            category,
            seat: None,
            rule: None,
            what: what.into(),
            expected,
            computed,
        });
    }

    /// Names the seat and the rule of the mismatch just recorded.
    fn blame(&mut self, seat: Option<u8>, rule: Option<&str>) {
        if let Some(m) = self.rep.mismatches.last_mut() {
            m.seat = seat;
            m.rule = rule.map(str::to_string);
        }
    }

    /// Applies one logged action; false (with the mismatch recorded) when the engine refuses it.
    fn act(&mut self, i: usize, seat: u8, action: Action) -> bool {
        self.rep.actions += 1;
        match self.engine.apply(seat, action) {
            Ok(()) => true,
            // the round ended and the log has no next round: the end of the game is checked with owari
            Err(IllegalAction::WallExhausted("deal")) => {
                self.wants_more = true;
                true
            }
            Err(IllegalAction::WallExhausted(what)) => {
                self.mismatch(i, Category::Wall, format!("seat {seat} {action}"), "a tile", format!("no {what}"));
                self.blame(Some(seat), None);
                false
            }
            Err(e) => {
                let legal: Vec<String> = self.engine.legal_actions(seat).iter().map(Action::to_string).collect();
                let (cat, why) = match action {
                    Action::Tsumo | Action::Ron => match self.engine.win_blocker(seat) {
                        Some(WinBlock::NoYaku) => (Category::NoScore, "score() finds no yaku".to_string()),
                        Some(b) => (Category::Legality, format!("{b:?}")),
                        None => (Category::Legality, e.to_string()),
                    },
                    _ => (Category::Legality, e.to_string()),
                };
                let hand = format!("{:?}", self.engine.hand(seat));
                let what = format!("seat {seat} {action} ({why}; hand {hand})");
                let rule = self.engine.rule_broken(seat, &action);
                self.mismatch(i, cat, what, action.to_string(), legal);
                self.blame(Some(seat), Some(rule));
                false
            }
        }
    }

    /// Every seat still to answer lets the tile go.
    fn pass_all(&mut self, i: usize) -> bool {
        if self.engine.turn().is_some() {
            return true;
        }
        for s in self.engine.to_act() {
            if !self.act(i, s, Action::Pass) {
                return false;
            }
        }
        true
    }

    /// Plays the events `from..to` of one round. True when the engine ended it where the log does, in step.
    fn play_round(&mut self, from: usize, to: usize) -> bool {
        let mut riichi = [false; 4];
        let finished = self.engine.rounds_finished();
        let mut i = from;
        while i < to {
            let ev = &self.events[i];
            let ok = match ev {
                Event::Draw { seat, tile } => {
                    let ok = self.pass_all(i);
                    let drawn = self.engine.turn().map(|(s, _)| (s, self.engine.last_draw_of(s)));
                    if ok && drawn != Some((*seat, Some(*tile))) {
                        let got = drawn.map(|(s, t)| format!("seat {s} holds draw {:?}", t.map(|t| t.id())));
                        self.mismatch(i, Category::Legality, "draw", format!("seat {seat} draws {}", tile.id()), got);
                        self.blame(Some(*seat), Some("draw_out_of_order"));
                        false
                    } else {
                        ok
                    }
                }
                Event::Discard { seat, tile } => {
                    let r = std::mem::take(&mut riichi[usize::from(*seat)]);
                    self.pass_all(i)
                        && self.rons_allowed(i, to, *seat, *tile, Offer::Discard)
                        && self.act(i, *seat, Action::Discard { tile: *tile, riichi: r })
                }
                Event::Call { seat, meld, .. } => self.call(i, to, *seat, *meld),
                Event::Dora { .. } => true,
                Event::Reach(r) => {
                    if r.step == 1 {
                        riichi[usize::from(r.who & 3)] = true;
                    }
                    true
                }
                Event::Agari(_) => return self.agari(i, to, finished),
                Event::Ryuukyoku(d) => return self.ryuukyoku(i, d, finished),
                _ => true,
            };
            if !ok {
                return false;
            }
            (self.watch)(ev, &self.engine);
            if self.engine.rounds_finished() > finished && !self.end_follows(i + 1, to) {
                let what = "the engine ended the round; the log goes on";
                let (ended, rule) = match self.engine.last_round() {
                    Some(RoundEnd::Ryuukyoku(d)) => {
                        let kind = if d.kind.is_abortive() { "abortive" } else { "draw" };
                        (d.kind.name().to_string(), Some(format!("{kind}_{}", d.kind.name())))
                    }
                    Some(RoundEnd::Agari(_)) => ("agari".to_string(), None),
                    None => (String::new(), None),
                };
                let mut next = String::new();
                if let Some(e) = self.events.get(i + 1) {
                    e.write_xml(&mut next);
                }
                self.mismatch(i, Category::RoundEnd, what, next, ended);
                self.blame(None, rule.as_deref());
                return false;
            }
            i += 1;
        }
        // the log's round has no end (a truncated record)
        false
    }

    /// When the log's next game event is a ron on the tile `from` is about to show, each winner must be
    /// able to ron it: checked before the tile is shown, since an engine that lets it pass moves on.
    fn rons_allowed(&mut self, i: usize, to: usize, from: u8, tile: Tile, offer: Offer) -> bool {
        let winners: Vec<u8> = match self.events[i + 1..to].iter().find(|e| is_move_or_end(e)) {
            Some(Event::Agari(_)) => self.events[i + 1..to]
                .iter()
                .filter_map(|e| match e {
                    Event::Agari(a) if a.from_who == from && a.who != from => Some(a.who),
                    _ => None,
                })
                .collect(),
            Some(Event::Ryuukyoku(d)) if d.kind == DrawKind::Ron3 => {
                (0..4u8).filter(|&s| d.shown[usize::from(s)].is_some()).collect()
            }
            _ => return true,
        };
        for w in winners {
            if let Some(b) = self.engine.ron_blocker(w, from, tile, offer) {
                let cat = if b == WinBlock::NoYaku { Category::NoScore } else { Category::Legality };
                let hand = format!("{:?}", self.engine.hand(w));
                let what = format!("seat {w} ron on {tile} of seat {from} ({b:?}; hand {hand})");
                let rule = self.engine.rule_broken(w, &Action::Ron);
                self.mismatch(i, cat, what, "ron", format!("{b:?}"));
                self.blame(Some(w), Some(rule));
                return false;
            }
        }
        true
    }

    /// The log's next game event (after `REACH` and other tags that carry no play) ends the round.
    fn end_follows(&self, from: usize, to: usize) -> bool {
        self.events[from..to].iter().find(|e| is_move_or_end(e)).is_some_and(|e| matches!(e, Event::Ryuukyoku(_)))
    }

    fn call(&mut self, i: usize, to: usize, seat: u8, meld: Meld) -> bool {
        let Some(action) = Action::of_call(&meld) else { return false };
        match action.shown() {
            // a kan or a north from the hand: the seats that could rob it had their say first
            Some((tile, offer)) => {
                self.pass_all(i) && self.rons_allowed(i, to, seat, tile, offer) && self.act(i, seat, action)
            }
            None => self.act(i, seat, action) && self.pass_all(i),
        }
    }

    fn agari(&mut self, i: usize, to: usize, finished: usize) -> bool {
        // the run of AGARI tags of this round (a double ron)
        let logged: Vec<(usize, Agari)> = (i..to)
            .filter_map(|j| match &self.events[j] {
                Event::Agari(a) => Some((j, a.value().clone())),
                _ => None,
            })
            .collect();
        let first = &logged[0].1;
        if first.who == first.from_who {
            if !(self.pass_all(i) && self.act(i, first.who, Action::Tsumo)) {
                return false;
            }
        } else {
            let winners: Vec<u8> = logged.iter().map(|(_, a)| a.who).collect();
            for w in winners {
                if !self.act(i, w, Action::Ron) {
                    return false;
                }
            }
            if !self.pass_all(i) {
                return false;
            }
        }
        if self.engine.rounds_finished() == finished {
            self.mismatch(
                i,
                Category::RoundEnd,
                "the log's win does not end the engine's round",
                "agari",
                "round goes on",
            );
            return false;
        }
        let wins = match self.engine.last_round() {
            Some(RoundEnd::Agari(w)) => w.clone(),
            Some(RoundEnd::Ryuukyoku(d)) => {
                self.mismatch(i, Category::RoundEnd, "round end", "agari", d.kind.name());
                return false;
            }
            None => return false,
        };
        if wins.len() != logged.len() {
            self.mismatch(i, Category::RoundEnd, "number of winners", logged.len(), wins.len());
            return false;
        }
        for ((j, log), got) in logged.iter().zip(&wins) {
            let before = self.rep.mismatches.len();
            self.compare_agari(*j, log, got);
            for m in &mut self.rep.mismatches[before..] {
                m.seat = Some(log.who);
            }
        }
        true
    }

    fn compare_agari(&mut self, j: usize, log: &Agari, got: &Agari) {
        self.rep.agari_checked += 1;
        let who = format!("seat {} from {}", log.who, log.from_who);
        if (log.who, log.from_who) != (got.who, got.from_who) {
            self.mismatch(j, Category::RoundEnd, "winner", (log.who, log.from_who), (got.who, got.from_who));
            return;
        }
        let yaku = |a: &Agari| {
            let mut v: Vec<(u8, u8)> = a.yaku.iter().map(|y| (y.id, y.han)).collect();
            v.sort_unstable();
            let mut m = a.yakuman.clone();
            m.sort_unstable();
            (v, m)
        };
        let hand = format!("{who}, hai {} m {:?} machi {}", ids(&log.hand), log.melds, log.machi.id());
        let (ly, gy) = (yaku(log), yaku(got));
        let same_yaku = ly == gy;
        let stated = !log.yaku.is_empty() || !log.yakuman.is_empty();
        if !same_yaku && stated {
            self.mismatch(j, Category::Yaku, format!("yaku (id, han) / yakuman of {hand}"), ly, gy);
        }
        // tenhou.net/6 records state no fu for limit hands (0)
        if log.fu != got.fu && log.fu != 0 && log.yakuman.is_empty() && stated && same_yaku {
            self.mismatch(j, Category::Fu, format!("fu of {hand}"), log.fu, got.fu);
        }
        if log.points != got.points {
            self.mismatch(j, Category::Points, format!("points of {hand}"), log.points, got.points);
        }
        if log.limit != got.limit {
            self.mismatch(j, Category::Limit, format!("limit of {hand}"), log.limit, got.limit);
        }
        if log.delta != got.delta {
            self.mismatch(j, Category::Deltas, format!("sc deltas of {who}"), log.delta, got.delta);
        }
        if log.pao_who != got.pao_who {
            self.mismatch(j, Category::Pao, format!("paoWho of {who}"), log.pao_who, got.pao_who);
        }
        if log.dora_indicators != got.dora_indicators {
            let (l, g) = (ids(&log.dora_indicators), ids(&got.dora_indicators));
            self.mismatch(j, Category::Dora, format!("doraHai of {who}"), l, g);
        }
        if log.ura_indicators != got.ura_indicators {
            let (l, g) = (ids(&log.ura_indicators), ids(&got.ura_indicators));
            self.mismatch(j, Category::Dora, format!("doraHaiUra of {who}"), l, g);
        }
    }

    fn ryuukyoku(&mut self, i: usize, log: &Ryuukyoku, finished: usize) -> bool {
        let shown: Vec<u8> = (0..4u8).filter(|&s| log.shown[usize::from(s)].is_some()).collect();
        let ok = match log.kind {
            DrawKind::Yao9 => match shown.first() {
                Some(&s) => self.pass_all(i) && self.act(i, s, Action::KyuushuKyuuhai),
                None => false,
            },
            DrawKind::Ron3 => shown.iter().all(|&s| self.act(i, s, Action::Ron)) && self.pass_all(i),
            _ => self.pass_all(i),
        };
        if !ok {
            return false;
        }
        if self.engine.rounds_finished() == finished {
            self.mismatch(
                i,
                Category::RoundEnd,
                "the log's draw does not end the engine's round",
                log.kind.name(),
                "round goes on",
            );
            return false;
        }
        let got = match self.engine.last_round() {
            Some(RoundEnd::Ryuukyoku(d)) => d.clone(),
            Some(RoundEnd::Agari(_)) => {
                self.mismatch(i, Category::RoundEnd, "round end", log.kind.name(), "agari");
                return false;
            }
            None => return false,
        };
        self.rep.draws_checked += 1;
        if got.kind != log.kind {
            self.mismatch(i, Category::RoundEnd, "draw kind", log.kind.name(), got.kind.name());
            return false;
        }
        let got_shown: Vec<u8> = (0..4u8).filter(|&s| got.shown[usize::from(s)].is_some()).collect();
        if got_shown != shown {
            self.mismatch(i, Category::Draw, format!("{} hands shown (tenpai)", log.kind.name()), &shown, &got_shown);
        }
        if got.delta != log.delta {
            self.mismatch(i, Category::Draw, format!("{} sc deltas", log.kind.name()), log.delta, got.delta);
        }
        true
    }

    /// The engine's events for the round against the log's, tag by tag: the writer must write what Tenhou
    /// writes. Attributes compared as Tenhou writes them (the order of `yaku` and `yakuman` included), except
    /// `owari` (compared at the end of the game); attributes an old log lacks (the `ten` of `REACH`) are not
    /// required.
    fn compare_record(&mut self, start: usize, end: usize, engine_init: usize) {
        self.rep.records_checked += 1;
        let log: Vec<&Event> = self.events[start..end].iter().filter(|e| is_play(e)).collect();
        let ours = self.engine.events();
        let stop = ours[engine_init + 1..]
            .iter()
            .position(|e| matches!(e, Event::Init(_)))
            .map_or(ours.len(), |p| engine_init + 1 + p);
        let ours: Vec<&Event> = ours[engine_init..stop].iter().filter(|e| is_play(e)).collect();
        for (k, (a, b)) in log.iter().zip(&ours).enumerate() {
            if !same_event(a, b) {
                let (mut x, mut y) = (String::new(), String::new());
                a.write_xml(&mut x);
                b.write_xml(&mut y);
                self.mismatch(start, Category::Record, format!("event {k} of the round"), x, y);
                return;
            }
        }
        if log.len() != ours.len() {
            let n = log.len().min(ours.len());
            let tail = |v: &[&Event]| {
                v.get(n).map(|e| {
                    let mut x = String::new();
                    e.write_xml(&mut x);
                    x
                })
            };
            self.mismatch(
                start,
                Category::Record,
                format!("events of the round ({} vs {})", log.len(), ours.len()),
                tail(&log),
                tail(&ours),
            );
        }
    }

    /// The log's `owari` against the engine's end of the game.
    fn check_owari(&mut self, clean: bool) {
        let last = self.events.iter().rposition(Event::ends_round);
        let Some(at) = last else { return };
        let owari: Option<Owari> = match &self.events[at] {
            Event::Agari(a) => a.owari.clone(),
            Event::Ryuukyoku(d) => d.owari.clone(),
            _ => None,
        };
        if !clean {
            return;
        }
        let Some(owari) = owari else {
            if self.engine.is_over() && !self.wants_more {
                self.mismatch(
                    at,
                    Category::GameEnd,
                    "the engine ended the game; the log has no owari",
                    "more",
                    "owari",
                );
            }
            return;
        };
        if !self.engine.is_over() || self.wants_more {
            let what = "the log ends the game (owari); the engine plays another round";
            self.mismatch(at, Category::GameEnd, what, "owari", "another round");
            return;
        }
        self.rep.owari_checked += 1;
        let Some((before, sticks)) = self.engine.final_before_owari() else { return };
        let rules = *self.engine.rules();
        let (fin, _) = table::owari(&rules, &before, sticks);
        if fin != owari.scores {
            self.mismatch(at, Category::Owari, "owari scores", owari.scores, fin);
            return;
        }
        // the uma and rounding Tenhou used changed over the years (module `table`): any of them may match
        let umas: &[[i32; 3]] = if rules.players == 3 { &[[0, -20, 0]] } else { &[[10, -10, -20], [5, -5, -10]] };
        let close = |a: &[f64; 4], b: &[f64; 4]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 0.05);
        let mut computed = None;
        for &uma in umas {
            for rounded in [true, false] {
                let mut r = rules;
                r.owari = table::OwariRule { uma, rounded };
                let (_, p) = table::owari(&r, &before, sticks);
                if close(&p, &owari.points) {
                    return;
                }
                computed.get_or_insert(p);
            }
        }
        self.mismatch(at, Category::Owari, "owari game points", owari.points, computed);
    }
}

/// Events that are part of the play (not `BYE`, `UN` reconnections or unknown tags).
fn is_play(e: &Event) -> bool {
    e.carries_play()
}

/// A draw, discard, call or dora indicator, or the end of a round: the log's next move, past `REACH` and the
/// tags that carry no play.
fn is_move_or_end(e: &Event) -> bool {
    matches!(e, Event::Draw { .. } | Event::Discard { .. } | Event::Call { .. } | Event::Dora { .. }) || e.ends_round()
}

fn same_event(log: &Event, ours: &Event) -> bool {
    // Tenhou's closed-kan code names one copy of the kind, mostly copy 0 but not always (which one is not
    // known): any copy is the same kan, and the decoded melds are equal
    if let (Event::Call { seat: a, meld: x, .. }, Event::Call { seat: b, meld: y, .. }) = (log, ours) {
        return a == b && x == y;
    }
    let (Some(a), Some(b)) = (log.written_tag(), ours.written_tag()) else { return log == ours };
    if a.name != b.name {
        return false;
    }
    // `shuffle` (old INIT tags) is the log's own random state; `owari` is compared at the end of the
    // game. `yaku` and `yakuman` are compared as written: Tenhou's order included
    let skip = |k: &str| matches!(k, "owari" | "shuffle");
    let optional = |k: &str| a.name == "REACH" && k == "ten";
    let theirs: Vec<&(String, String)> = a.attrs.iter().filter(|(k, _)| !skip(k)).collect();
    let mine: Vec<&(String, String)> =
        b.attrs.iter().filter(|(k, _)| !skip(k) && (a.get(k).is_some() || !optional(k))).collect();
    theirs.len() == mine.len()
        && theirs.iter().all(|(k, v)| match b.get(k) {
            Some(w) if k == "m" => same_melds(v, w),
            w => w == Some(v.as_str()),
        })
}

/// Two AGARI `m` lists, equal up to the copy a closed kan names.
fn same_melds(a: &str, b: &str) -> bool {
    let melds = |s: &str| {
        s.split(',')
            .map(|c| c.trim().parse::<u32>().ok().and_then(|m| Meld::decode(m).ok()))
            .collect::<Option<Vec<Meld>>>()
    };
    match (melds(a), melds(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// The game type bits of a record (for callers sorting games), from its `GO` tag.
pub fn game_type(record: &GameRecord) -> Option<GameType> {
    go_of(record).0.map(GameType)
}
