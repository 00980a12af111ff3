//! `haifu report player P`: one player's habits, for the player to read.
//!
//! - the profile's rates beside everyone's (from the style database), and its rates per opportunity (calls,
//!   riichi, kans, wins taken of those offered, each with its 95% interval) where the database counted choices;
//! - **individual moves** (the thesis's term): the player's discards that go against the all-players table's
//!   majority, its first candidate (SPEC 4), where that majority is clear: the majority's score (its sequence's
//!   count with the mirror's) and the score of the player's own choice together at least `min_count`, the
//!   majority's at least `min_share` of the two, and the player's discard another kind; each with the hand
//!   drawn as tiles, the choice and the majority's choice. Like the imitator, this compares counts of
//!   sequences of different suits: a common shape's sequence outweighs a rare one's;
//! - those moves grouped by kind, in this order of precedence: `call` (the discard follows a chi or pon),
//!   `safety` (another seat is in riichi), `riichi` (the discard declares riichi), `efficiency` (the choice
//!   leaves the hand further from tenpai than the majority's), else `shape` (equal shanten: a preference);
//! - the moves per game; the player's most characteristic sequences (most over-represented against ALL); the
//!   nearest players of the database.

use std::path::Path;

use anyhow::Result;
use hashbrown::HashMap;

use haifu_imitate::rank::{rank, Reason, Winds};
use haifu_imitate::{SeqTable, ALL_SCOPE};
use haifu_ingest::extract::TileSource;
use haifu_mining::dataset::years_text;
use haifu_mining::report::{Cell, Table};
use haifu_mining::Shape;
use haifu_rules::shanten::shanten_each;
use haifu_rules::{Kind, KINDS};
use haifu_style::compare::Distribution;
use haifu_style::played::{self, Played, Reading};
use haifu_style::{StyleDb, Tally, RATES};

use crate::charts::{Chart, Plot};
use crate::html::{escape, Block, Page};

/// What the player report is built from.
#[derive(Clone, Debug)]
pub struct PlayerOptions {
    pub player: String,
    /// The games read for the player's moves (empty: every year).
    pub years: Vec<i32>,
    /// A majority counts when its score and the player's choice's add up to at least this ...
    pub min_count: u64,
    /// ... and the majority's is at least this share of the two.
    pub min_share: f64,
    /// Individual moves listed (the most confident majorities first).
    pub limit: usize,
}

/// One individual move.
#[derive(Clone, Debug)]
pub struct Move {
    pub game: i64,
    /// The game as a reader knows it: its Tenhou log id, or the dataset's game id in hex.
    pub game_name: String,
    /// The round's name, E4-1.
    pub round: String,
    pub turn: u8,
    pub kind: &'static str,
    /// The state before the discard (hand, or hand before the call plus the called tile).
    pub state: [u8; KINDS],
    pub chosen: Kind,
    pub majority: Kind,
    /// Majority's share of its score and the choice's, and the two scores' sum.
    pub share: f64,
    pub count: u64,
}

/// A tile drawn with CSS (a face with its number over its suit, coloured by suit): the Unicode mahjong glyphs
/// are missing from most fonts, so they would show as empty boxes.
fn tile_html(kind: Kind, mark: &str) -> String {
    let name = kind.name();
    let (face, suit) = match name.as_bytes() {
        [d, s] => ((*d as char).to_string(), *s as char),
        _ => (name.to_string(), 'z'),
    };
    let small = if suit == 'z' { ' ' } else { suit };
    format!("<span class=\"tile {suit}{mark}\" title=\"{name}\">{face}<small>{small}</small></span>")
}

/// The state as tiles, the chosen tile and the majority's marked.
fn tiles_html(state: &[u8; KINDS], chosen: Kind, majority: Kind) -> String {
    let mut out = String::from("<span class=\"tiles\">");
    for (k, &n) in state.iter().enumerate() {
        let kind = Kind::from_index(k as u8);
        for i in 0..n {
            let mark = match () {
                _ if i == 0 && kind == chosen => " chosen",
                _ if i == 0 && kind == majority => " majority",
                _ => "",
            };
            out.push_str(&tile_html(kind, mark));
        }
    }
    out.push_str("</span>");
    out
}

fn state_text(state: &[u8; KINDS]) -> String {
    haifu_rules::hand::format_counts(state)
}

/// The player's individual moves in their games of `years`.
/// The player's rates beside everyone's.
fn rates_table(tally: &Tally, db: &StyleDb, o: &PlayerOptions) -> Table {
    let mut rates =
        Table::new("rates", &format!("{}: rates beside everyone's", o.player), &["rate", "player", "everyone", "what"]);
    for (r, (p, a)) in RATES.iter().zip(tally.rates().into_iter().zip(db.all.rates())) {
        let cell = |v: Option<f64>| {
            if r.name.ends_with("_rate") {
                Cell::opt_percent(v)
            } else {
                v.map_or(Cell::Empty, |x| Cell::Float(x, 1))
            }
        };
        rates.push(vec![Cell::text(r.name), cell(p), cell(a), Cell::text(r.what)]);
    }
    rates.note(format!("{} games, {} rounds in the database {}", tally.games, tally.rounds, db.dir.display()));
    rates
}

/// The player's rates per opportunity beside everyone's (`None`: the database counted no choices).
fn choices_table(db: &StyleDb, o: &PlayerOptions) -> Option<Table> {
    let (own, all) = db.choices_of(&o.player)?;
    let cols = ["rate", "player", "95% low", "95% high", "offered", "everyone", "what"];
    let mut t =
        Table::new("choice_rates", &format!("{}: calls, riichi, kans and wins per opportunity", o.player), &cols);
    for r in haifu_style::choice::rates(own, all) {
        let (lo, hi) = r.interval.unzip();
        t.push(vec![
            Cell::text(r.name),
            Cell::opt_percent(r.share),
            Cell::opt_percent(lo),
            Cell::opt_percent(hi),
            Cell::int(r.player.offered),
            Cell::opt_percent(r.everyone_share),
            Cell::text(r.what),
        ]);
    }
    t.note(
        "an opportunity is a moment the rules offered the option (the dataset's choices table); a moment whose \
            answer the log cannot say (a chi another seat's pon took first) counts nothing",
    );
    Some(t)
}

/// The player's most distinctive habits first: each share beside everyone's, with its interval and how many
/// standard errors it lies from everyone's (`None`: the database counted no habits).
fn habits_table(db: &StyleDb, o: &PlayerOptions) -> Option<Table> {
    let all = db.habits.get(ALL_SCOPE)?;
    let own = db.habits.get(&o.player)?;
    let cols = ["habit", "player", "95% low", "95% high", "opportunities", "everyone", "z", "what"];
    let mut t = Table::new("habits", &format!("{}: the most distinctive habits first", o.player), &cols);
    for d in haifu_style::habits::distinctive(own, all).into_iter().take(12) {
        t.push(vec![
            Cell::text(d.name),
            Cell::Percent(d.share),
            Cell::Percent(d.interval.0),
            Cell::Percent(d.interval.1),
            Cell::int(d.player.offered),
            Cell::Percent(d.everyone_share),
            Cell::Float(d.z, 1),
            Cell::text(d.what),
        ]);
    }
    t.note(
        "a habit is a share of the times the hand had the choice (docs/STYLE.md); z: the player's share minus \
         everyone's, in standard errors of a share of that many opportunities at everyone's rate",
    );
    Some(t)
}

/// The player's discard preferences furthest from everyone's first: the discard model's coefficients with their
/// intervals (`None`: the database has no discard model, or none of the player).
fn preferences_table(db: &StyleDb, o: &PlayerOptions) -> Option<Table> {
    let (own, all) = (db.discards.players.get(&o.player)?, db.discards.everyone.as_ref()?);
    let note = format!(
        "the discard model (docs/STYLE.md): each coefficient is the log-odds its feature adds to a kind the hand \
         could discard, fitted on the player's {} chosen discards around everyone's; players' spread: how far \
         players' coefficients lie around everyone's (estimated from the profiled players), and above players: the \
         share of them this one's exceeds; z: the player's coefficient minus everyone's, in posterior standard \
         deviations",
        own.choices
    );
    let title = format!("{}: the discard preferences furthest from everyone's first", o.player);
    Some(distinct_table("discard_preferences", &title, haifu_style::discards::distinctive(own, all), note))
}

/// The player's choices furthest from everyone's first: the choice model's coefficients with their intervals
/// (`None`: the database has no choices, or none of the player).
fn choice_preferences_table(db: &StyleDb, o: &PlayerOptions) -> Option<Table> {
    let rows = db.choice_model.as_ref()?.distinctive(&o.player);
    if rows.is_empty() {
        return None;
    }
    let note = "the choice model (docs/STYLE.md): each coefficient is the log-odds of taking an option of its \
                kind, or what a fact of the situation adds to them, fitted on the player's offers around \
                everyone's; players' spread and above players: how far players differ in it, and the share of \
                them this one's exceeds; z: the player's coefficient minus everyone's, in posterior standard \
                deviations";
    let title = format!("{}: the calls, riichi, kans and wins furthest from everyone's first", o.player);
    Some(distinct_table("choice_preferences", &title, rows, note.to_string()))
}

/// A model's coefficients of a player against everyone's, the first twelve of `rows`.
fn distinct_table(name: &str, title: &str, rows: Vec<haifu_style::discards::Distinct>, note: String) -> Table {
    let cols = [
        "preference",
        "player",
        "95% low",
        "95% high",
        "everyone",
        "players' spread",
        "above players (%)",
        "z",
        "what",
    ];
    let mut t = Table::new(name, title, &cols);
    for d in rows.into_iter().take(12) {
        t.push(vec![
            Cell::text(d.name),
            Cell::Float(d.coefficient, 2),
            Cell::Float(d.interval.0, 2),
            Cell::Float(d.interval.1, 2),
            Cell::Float(d.everyone, 2),
            Cell::Float(d.spread, 2),
            Cell::Percent(d.above_players),
            Cell::Float(d.z, 1),
            Cell::text(d.what),
        ]);
    }
    t.note(note);
    t
}

/// How many individual moves of each kind, per 100 decisions.
fn kinds_table(found: &[Move], decisions: u64, games: usize, o: &PlayerOptions) -> Table {
    let mut kinds = Table::new("move_kinds", "Individual moves by kind", &["kind", "moves", "per 100 decisions"]);
    for k in ["efficiency", "calls", "riichi", "shape", "safety", "honor"] {
        let key = if k == "calls" { "call" } else { k };
        let n = found.iter().filter(|m| m.kind == key).count() as u64;
        kinds.push(vec![Cell::text(k), Cell::int(n), Cell::Float(100.0 * n as f64 / decisions.max(1) as f64, 2)]);
    }
    kinds.note(
        "safety (another player in riichi) and honor (an honor discarded where the table preferred a suit tile) are \
         listed apart from the style moves: the tables know nothing of danger and never offer an honor pair",
    );
    kinds.note(format!(
        "{} individual moves in {decisions} chosen discards of {} games: the player chose another tile than the all-players table's first, whose sequence it saw {:.0}%+ of the times of the two sequences together ({}+ times)",
        found.len(),
        games,
        100.0 * o.min_share,
        o.min_count
    ));
    kinds
}

/// Individual moves per game.
fn per_game_table(found: &[Move]) -> Table {
    let mut per_game: Vec<(i64, &str, usize)> = Vec::new();
    for m in found {
        match per_game.iter_mut().find(|g| g.0 == m.game) {
            Some(g) => g.2 += 1,
            None => per_game.push((m.game, &m.game_name, 1)),
        }
    }
    let mut games_table = Table::new("moves_per_game", "Individual moves per game", &["game", "moves"]);
    for (_, name, n) in &per_game {
        games_table.push(vec![Cell::text(*name), Cell::int(*n as u64)]);
    }
    games_table
}

/// The moves, in the order given.
fn moves_table(found: &[Move], name: &str, title: &str) -> Table {
    let mut list = Table::new(
        name,
        title,
        &["game", "round", "turn", "kind", "hand", "chose", "majority", "majority share", "seen"],
    );
    list.note(
        "honors in mjai letters: E S W N the winds, P the white dragon (haku), F the green (hatsu), C the red (chun)",
    );
    for m in found {
        list.push(vec![
            Cell::text(&m.game_name),
            Cell::text(&m.round),
            Cell::int(m.turn),
            Cell::text(m.kind),
            Cell::text(state_text(&m.state)),
            Cell::text(m.chosen.name()),
            Cell::text(m.majority.name()),
            Cell::Percent(m.share),
            Cell::int(m.count),
        ]);
    }
    list
}

/// Sequences the player plays far more often than everyone (folded pairs seen 10+ times by the player).
fn characteristic_table(own: &Distribution, everyone: &Distribution) -> Table {
    let mut lift: Vec<((u32, u32), u64, f64)> = own
        .counts
        .iter()
        .filter(|(_, &n)| n >= 10)
        .map(|(k, &n)| {
            let p = n as f64 / own.total as f64;
            let q = (everyone.counts.get(k).copied().unwrap_or(0) as f64 + 1.0) / (everyone.total as f64 + 1.0);
            (*k, n, p / q)
        })
        .collect();
    lift.sort_by(|a, b| b.2.total_cmp(&a.2));
    lift.truncate(15);
    let mut characteristic = Table::new(
        "characteristic",
        "Most characteristic sequences (share against everyone's)",
        &["before", "after", "count", "times everyone's share"],
    );
    for ((b, a), n, l) in &lift {
        characteristic.push(vec![
            Cell::text(Shape::from_key(*b).to_string()),
            Cell::text(Shape::from_key(*a).to_string()),
            Cell::int(*n),
            Cell::Float(*l, 2),
        ]);
    }
    characteristic
}

/// The five players nearest as `style nearest` ranks them: by the cosine of their deviations from everyone's
/// discard coefficients, or by the Jensen-Shannon distance of their sequences for a player without coefficients.
fn nearest_table(db: &StyleDb, o: &PlayerOptions) -> Result<Table> {
    use haifu_style::compare::{Nearest, Nearness};
    let near = Nearest::of(db, &o.player, Nearness::Discards, 5)
        .or_else(|_| Nearest::of(db, &o.player, Nearness::Sequences, 5))?;
    let (title, column) = match near.by {
        Nearness::Discards => (
            "Nearest players (cosine of their deviations from everyone's discard coefficients, most alike first)",
            "cosine",
        ),
        Nearness::Sequences => ("Nearest players (Jensen-Shannon distance of the sequences)", "distance"),
    };
    let mut t = Table::new("nearest", title, &["player", column]);
    for (p, x, _) in &near.rows {
        t.push(vec![Cell::text(p.clone()), Cell::Float(*x, 4)]);
    }
    Ok(t)
}

/// The moves' hands drawn as tiles, the choice and the majority marked.
fn move_pictures(found: &[Move]) -> String {
    let mut pictures = String::from("<table class=\"data\" data-name=\"move_pictures\"><thead><tr><th>kind</th><th class=\"text\">hand (orange: chose, green: majority)</th><th>chose</th><th>majority</th><th>share</th></tr></thead><tbody>");
    for m in found {
        pictures.push_str(&format!(
            "<tr><td class=\"text\">{}</td><td class=\"text\" title=\"{}\">{}</td><td>{}</td><td>{}</td><td>{:.0}% of {}</td></tr>",
            m.kind,
            escape(&state_text(&m.state)),
            tiles_html(&m.state, m.chosen, m.majority),
            m.chosen.name(),
            m.majority.name(),
            100.0 * m.share,
            m.count
        ));
    }
    pictures.push_str("</tbody></table>\n");
    pictures
}

/// Whether the suit of `kind` holds only that digit in `state`: every discard of it makes the same sequence.
fn forced(state: &[u8; KINDS], kind: Kind) -> bool {
    let base = usize::from(kind.index()) / 9 * 9;
    state[base..base + 9].iter().filter(|&&n| n > 0).count() == 1
}

fn moves(games: &[Played], player: &str, all: &SeqTable, o: &PlayerOptions) -> Vec<Move> {
    let mut out = Vec::new();
    for g in games {
        let Some(seat) = (0..g.n_players).find(|&s| g.names[usize::from(s)] == player) else {
            continue;
        };
        let mut riichi: HashMap<u16, Vec<u32>> = HashMap::new();
        for d in g.decisions.iter().filter(|d| d.riichi && d.seat != seat) {
            riichi.entry(d.round).or_default().push(d.event_index);
        }
        for d in g.decisions.iter().filter(|d| d.seat == seat && !d.in_riichi) {
            let tiles = d.tiles.as_deref().expect("the report reads the decisions with their tiles");
            let winds = Winds::of_seat(g.rounds[usize::from(d.round)].kyoku, seat, g.n_players);
            let ranking = rank(&tiles.before, winds, all);
            let scores: Vec<(Kind, u64)> = ranking
                .candidates
                .iter()
                .filter_map(|c| match c.reason {
                    Reason::Sequence { score, .. } => Some((c.kind, score)),
                    Reason::IsolatedHonor { .. } => None,
                })
                .collect();
            // a majority only among suit candidates, and only when no isolated honor comes first
            let Some(first) = ranking.candidates.first() else { continue };
            let Some(&(majority, top)) = scores.first().filter(|s| s.0 == first.kind) else { continue };
            // a suit of one digit (a lone 1m) can only go one way: its sequence's count says nothing of the choice
            if forced(&tiles.before, majority) {
                continue;
            }
            let chosen = tiles.discard.kind();
            // the majority's score against the player's own choice's (0 when the table never saw it)
            let mine = scores.iter().find(|s| s.0 == chosen).map_or(0, |s| s.1);
            let total = top + mine;
            if total < o.min_count || chosen == majority || (top as f64) < o.min_share * total as f64 {
                continue;
            }
            let after = shanten_each(&tiles.hand, -1);
            // an honor pair is never a candidate (docs/STYLE.md) and the table knows nothing of danger: such
            // moves are listed apart, not taken for style
            let kind = if chosen.is_honor() {
                "honor"
            } else if matches!(d.source, TileSource::Chi | TileSource::Pon) {
                "call"
            } else if riichi.get(&d.round).is_some_and(|r| r.iter().any(|&at| at < d.event_index)) {
                "safety"
            } else if d.riichi {
                "riichi"
            } else if after[usize::from(chosen.index())] > after[usize::from(majority.index())] {
                "efficiency"
            } else {
                "shape"
            };
            let r = &g.rounds[usize::from(d.round)];
            out.push(Move {
                game: g.game_id,
                game_name: g.log_id.clone().unwrap_or_else(|| format!("{:016x}", g.game_id)),
                round: haifu_rules::table::round_name(r.kyoku, r.honba),
                turn: d.turn,
                kind,
                state: tiles.before,
                chosen,
                majority,
                share: top as f64 / total as f64,
                count: total,
            });
        }
    }
    out
}

/// The page's opening sentences: the most distinctive habits first, then the individual moves and the most
/// characteristic sequence. `counts`: games read, individual moves of style, chosen discards.
fn findings_of(
    habits: Option<&Table>,
    preferences: &[Option<Table>],
    characteristic: &Table,
    counts: (usize, usize, u64),
    o: &PlayerOptions,
    years: &str,
) -> Vec<String> {
    let (games, style_moves, decisions) = counts;
    let mut findings = Vec::new();
    if let Some(h) = habits {
        for row in h.rows.iter().take(3) {
            findings.push(format!(
                "Distinctive: {} {} of the times (95%: {}-{}), everyone {} ({} standard errors away; {}).",
                row[0].shown(),
                row[1].shown(),
                row[2].shown(),
                row[3].shown(),
                row[5].shown(),
                row[6].shown(),
                row[7].shown()
            ));
        }
    }
    for (table, row) in preferences.iter().flatten().filter_map(|t| t.rows.first().map(|r| (t, r))) {
        let which = if table.name == "choice_preferences" { "choice" } else { "discard preference" };
        // cells by their column's name (the table's order is the reader's, not this sentence's)
        let cell =
            |name: &str| table.columns.iter().position(|c| c == name).map_or_else(String::new, |i| row[i].shown());
        findings.push(format!(
            "The {which} furthest from everyone's: {} ({}), a coefficient of {} (95%: {} to {}) against \
             everyone's {} ({} posterior deviations away; above {}% of players, whose coefficients spread by {}).",
            cell("preference"),
            cell("what"),
            cell("player"),
            cell("95% low"),
            cell("95% high"),
            cell("everyone"),
            cell("z"),
            cell("above players (%)"),
            cell("players' spread")
        ));
    }
    findings.push(format!(
        "{} games of {} ({}): {style_moves} individual moves of style in {decisions} chosen discards ({:.1} per 100), \
         beside the moves the tables cannot judge.",
        games,
        o.player,
        years,
        100.0 * style_moves as f64 / decisions.max(1) as f64
    ));
    if let Some(row) = characteristic.rows.first() {
        findings.push(format!(
            "The most characteristic sequence: {} -> {} (played {} times, {} times everyone's share).",
            row[0].shown(),
            row[1].shown(),
            row[2].shown(),
            row[3].shown()
        ));
    }
    findings
}

/// Builds the report and writes `out/index.html` (with `out/charts/`) and `out/README.md` with the tables.
pub fn player_report(dataset: &Path, db: &StyleDb, o: &PlayerOptions, out: &Path) -> Result<(Vec<Table>, Vec<String>)> {
    let profile = db.profile(&o.player)?;
    let tables = db.tables(None)?;
    let table = |s: &str| tables.get(s);
    let all = table(ALL_SCOPE);
    // only the player's games are read, with their tiles
    let reading = Reading { years: &o.years, players: db.meta.rules.players, tiles: true };
    let mine = played::read(dataset, &reading, |index, g| (0..reading.players).any(|s| index.name(g, s) == o.player))?;
    if mine.is_empty() {
        anyhow::bail!("{}: no game of {:?} in years {}", dataset.display(), o.player, years_text(&o.years));
    }
    let mut found = moves(&mine, &o.player, all, o);
    let decisions: u64 = mine
        .iter()
        .map(|g| {
            let seat = g.names.iter().position(|p| *p == o.player).unwrap_or(0) as u8;
            g.decisions.iter().filter(|d| d.seat == seat && !d.in_riichi).count() as u64
        })
        .sum();

    let habits = habits_table(db, o);
    let preferences = [preferences_table(db, o), choice_preferences_table(db, o)];
    let rates = rates_table(&profile.tally, db, o);
    let choices = choices_table(db, o);
    let kinds = kinds_table(&found, decisions, mine.len(), o);
    let per_game = per_game_table(&found);

    found.sort_by(|a, b| b.share.total_cmp(&a.share).then(b.count.cmp(&a.count)));
    let (mut style, mut apart): (Vec<Move>, Vec<Move>) =
        found.into_iter().partition(|m| !matches!(m.kind, "honor" | "safety"));
    let style_moves = style.len();
    style.truncate(o.limit);
    apart.truncate(o.limit);
    let list = moves_table(&style, "moves", "Individual moves, the clearest majorities first");
    let apart_list = moves_table(
        &apart,
        "moves_apart",
        "Moves the tables cannot judge: honors, and discards under another's riichi",
    );

    let own = Distribution::of(table(&o.player));
    let everyone = Distribution::of(all);
    let characteristic = characteristic_table(&own, &everyone);

    let near = nearest_table(db, o)?;

    let mut page = Page::new(format!("{}: style and individual moves", o.player));
    let years = if o.years.is_empty() { "every year".to_string() } else { format!("years {}", years_text(&o.years)) };
    let counts = (mine.len(), style_moves, decisions);
    let findings = findings_of(habits.as_ref(), &preferences, &characteristic, counts, o, &years);
    page.push(Block::Findings(findings));
    page.push(Block::Paragraph(format!(
        "Games read from {} ({}); profile and tables from the style database {}.",
        dataset.display(),
        years,
        db.dir.display()
    )));
    if let Some(h) = &habits {
        page.push(Block::Heading("Distinctive habits".into()));
        page.push(Block::Table(h.clone()));
    }
    for p in preferences.iter().flatten() {
        page.push(Block::Table(p.clone()));
    }
    page.push(Block::Heading("Rates".into()));
    page.push(Block::Table(rates.clone()));
    let shares: Vec<usize> =
        RATES.iter().enumerate().filter(|(_, r)| r.name.ends_with("_rate")).map(|(i, _)| i).collect();
    page.push(Block::Chart(Chart {
        name: "rates".into(),
        title: format!("{} beside everyone", o.player),
        x_label: "rate".into(),
        y_label: "%".into(),
        plot: Plot::Bars {
            groups: shares.iter().map(|&i| RATES[i].name.trim_end_matches("_rate").to_string()).collect(),
            series: vec![
                (o.player.clone(), shares.iter().map(|&i| profile.tally.rates()[i].map(|x| 100.0 * x)).collect()),
                ("everyone".into(), shares.iter().map(|&i| db.all.rates()[i].map(|x| 100.0 * x)).collect()),
            ],
            log_y: false,
        },
    }));
    if let Some(c) = &choices {
        page.push(Block::Table(c.clone()));
    }
    page.push(Block::Heading("Individual moves".into()));
    page.push(Block::Table(kinds.clone()));
    let pictures = move_pictures(&style);
    page.push(Block::Raw(pictures));
    page.push(Block::Table(list.clone()));
    page.push(Block::Table(per_game.clone()));
    page.push(Block::Table(apart_list.clone()));
    page.push(Block::Heading("Sequences and neighbours".into()));
    page.push(Block::Table(characteristic.clone()));
    page.push(Block::Table(near.clone()));
    let mut out_tables: Vec<Table> = habits.into_iter().chain(preferences.into_iter().flatten()).collect();
    out_tables.push(rates);
    out_tables.extend(choices);
    out_tables.extend([kinds, per_game, list, apart_list, characteristic, near]);

    let heading = format!("{}: style and individual moves", o.player);
    let problems = crate::html::write_report(out, &heading, &out_tables, &page)?;
    Ok((out_tables, problems))
}
