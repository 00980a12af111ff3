//! `haifu review`: a player's games (or one game) decision by decision. For every discard the seat chose
//! (not the forced ones after its own riichi): the board as the seat saw it, its choice, and the ranked
//! candidates of three references: (a) a network (probabilities; the tables alone when no network is given),
//! (b) the all-players table and (c) the player's own table (the lookup imitator of SPEC 4 over `haifu mine`'s
//! tables, with the sequences' counts).
//!
//! Each decision that goes against the all-players table's first candidate gets a category. Only `style` is
//! the player's choice among suit tiles against counts the table can judge; it is ranked by how surely the
//! table disagrees: the lower bound of a 95% Wilson interval of the share of the table's counts on the
//! candidates above the choice (so that a rare shape seen three times weighs less than a common one). The
//! others are kept apart because the table cannot judge them (docs/STYLE.md): `under_riichi` (another seat
//! has declared riichi: defence, which the table knows nothing of), `call` (after a chi or pon the state is
//! the hand before the call plus the called tile, SPEC 2), `honor_pair` (an honor held twice or more is never a
//! candidate), `honor_rule` (the imitator puts isolated honors first by rule, not by counts), `unjudged` (the
//! table does not know the choice's suit shape).
//!
//! Beside the discards, every other choice of the seat (a call offered and taken or passed, riichi or dama, a
//! kan, a win, an abort, a north: the moments of the dataset's choices table, cut by the same replay) is
//! listed with the kinds it was offered, each in its situation (`haifu_style::choice`), and the shares of such
//! offers everyone and the player took there, where the tables are a style database with choice counts
//! (`choice_counts.parquet`). A reference agrees with a choice when its majority choice is the same kind (the
//! imitator's rule); it calls a choice *rare* when it gives it less than 5% (a take: the kind's share; a pass or
//! a plain discard: the product of one minus each kind's share).
//!
//! The game is replayed from the dataset's events by ingest's extractor (the decisions and choices, as ingest
//! cut them) and walked once more for the boards ([`board`]); [`page`] writes the HTML.

pub mod board;
pub mod page;

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use rayon::prelude::*;
use serde::Serialize;
use serde_json::{json, Value};

use haifu_encoding::Positions;
use haifu_imitate::rank::{rank, Ranking, Reason, Winds};
use haifu_imitate::{LoadOptions, SeqTable, Tables, ALL_SCOPE};
use haifu_ingest::choices::{Choice, Chosen};
use haifu_ingest::extract::{extract_with, Decision, ExtractedGame, ReplayOptions, TileSource};
use haifu_ingest::stored::{read_games_where, GameIndex};
use haifu_mining::Strategy;
use haifu_record::event::GameRecord;
use haifu_rules::Kind;
use haifu_style::choice::{self as choice, ChoiceCounts, Situation};

use board::Board;

/// What to review.
#[derive(Clone, Debug, Default)]
pub struct ReviewOptions {
    /// The player whose games (or whose seat of `game`) are reviewed; with `game` alone, every seat.
    pub player: Option<String>,
    /// One game, by its Tenhou log id.
    pub game: Option<String>,
    /// Years of the player's games (empty: every year).
    pub years: Vec<i32>,
    /// At most this many games (the first in the dataset's order); 0: all.
    pub max_games: usize,
}

/// A network's probabilities over the 34 kinds at each of a set of positions (the network binary's, with
/// libtorch; this crate has none).
pub type Scorer<'a> = &'a dyn Fn(&Positions) -> Result<Vec<[f32; 34]>>;

/// The network of the review: what it is, and its scorer.
pub struct Network<'a> {
    pub label: String,
    pub score: Scorer<'a>,
}

/// One candidate of a reference.
#[derive(Clone, Debug, Serialize)]
pub struct Candidate {
    pub tile: &'static str,
    /// The table's score: the sequence's count plus its mirror's (none for an isolated honor, ranked by rule).
    pub count: Option<u64>,
    /// The count's share of the scores of every suit candidate (or a network's probability).
    pub share: Option<f64>,
    /// Why it is where it is when not by counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<&'static str>,
}

/// One reference's answer at a decision.
#[derive(Clone, Debug, Serialize)]
pub struct Reference {
    /// `network`, `all`, `own`.
    pub name: &'static str,
    /// What it is (the scope, the run), or why it is missing.
    pub label: String,
    pub given: bool,
    pub candidates: Vec<Candidate>,
    /// 1-based place of the player's choice among the candidates (none: not listed).
    pub rank: Option<usize>,
}

impl Reference {
    fn missing(name: &'static str, label: String) -> Reference {
        Reference { name, label, given: false, candidates: Vec::new(), rank: None }
    }

    /// The imitator's ranking as a reference; the shares are of the suit candidates' scores.
    fn of_ranking(name: &'static str, label: &str, r: &Ranking, chosen: Kind) -> Reference {
        let total: u64 = r.candidates.iter().map(|c| score(&c.reason).unwrap_or(0)).sum();
        let candidates = r
            .candidates
            .iter()
            .map(|c| {
                let count = score(&c.reason);
                let rule = match c.reason {
                    Reason::IsolatedHonor { .. } => Some("isolated honor, first by rule"),
                    Reason::Sequence { .. } => None,
                };
                let share = count.filter(|_| total > 0).map(|n| round4(n as f64 / total as f64));
                Candidate { tile: c.kind.name(), count, share, rule }
            })
            .collect();
        Reference { name, label: label.to_string(), given: true, candidates, rank: r.rank_of(chosen) }
    }

    /// A network's answer: the legal kinds by probability (renormalised over them), ties to the lower kind.
    fn of_probabilities(label: &str, probs: &[f32; 34], legal: u64, chosen: Kind) -> Reference {
        let mut kinds: Vec<(Kind, f64)> = (0..34u8)
            .filter(|&k| legal & (1 << k) != 0)
            .map(|k| (Kind::from_index(k), f64::from(probs[usize::from(k)])))
            .collect();
        let sum: f64 = kinds.iter().map(|k| k.1).sum();
        kinds.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let candidates = kinds
            .iter()
            .map(|&(k, p)| Candidate {
                tile: k.name(),
                count: None,
                share: Some(round4(if sum > 0.0 { p / sum } else { 0.0 })),
                rule: None,
            })
            .collect();
        let rank = kinds.iter().position(|k| k.0 == chosen).map(|i| i + 1);
        Reference { name: "network", label: label.to_string(), given: true, candidates, rank }
    }

    /// The probability mass on the candidates above the player's choice.
    pub fn mass_above(&self) -> f64 {
        let above = self.rank.map_or(self.candidates.len(), |r| r - 1);
        // folded from +0.0: an empty float sum is -0.0, which prints as "-0.00"
        self.candidates[..above].iter().filter_map(|c| c.share).fold(0.0, |a, b| a + b)
    }

    /// The counts on the candidates above the player's choice, and of all (a choice not listed: all above).
    fn against(&self) -> (u64, u64) {
        let total: u64 = self.candidates.iter().filter_map(|c| c.count).sum();
        let above = match self.rank {
            Some(r) => self.candidates[..r - 1].iter().filter_map(|c| c.count).sum(),
            None => total,
        };
        (above, total)
    }
}

/// Four decimals are all a share shows (and keep the JSON small).
fn round4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

fn score(r: &Reason) -> Option<u64> {
    match r {
        Reason::Sequence { score, .. } => Some(*score),
        Reason::IsolatedHonor { .. } => None,
    }
}

/// Why a decision differs from the all-players table's first candidate (or that it does not).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Agree,
    Style,
    UnderRiichi,
    Call,
    HonorPair,
    HonorRule,
    Unjudged,
}

impl Category {
    pub const ALL: [Category; 7] = [
        Category::Agree,
        Category::Style,
        Category::UnderRiichi,
        Category::Call,
        Category::HonorPair,
        Category::HonorRule,
        Category::Unjudged,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Category::Agree => "agree",
            Category::Style => "style",
            Category::UnderRiichi => "under_riichi",
            Category::Call => "call",
            Category::HonorPair => "honor_pair",
            Category::HonorRule => "honor_rule",
            Category::Unjudged => "unjudged",
        }
    }

    /// What the category means, for the page's legend.
    pub fn what(self) -> &'static str {
        match self {
            Category::Agree => "the all-players table's first candidate",
            Category::Style => {
                "another suit tile than the all-players table's first: ranked by how surely its counts disagree"
            }
            Category::UnderRiichi => "another seat had declared riichi: defence, which the tables know nothing of",
            Category::Call => "after a chi or pon: the table ranks the hand before the call plus the called tile",
            Category::HonorPair => "broke an honor pair or triplet: never a candidate of the tables",
            Category::HonorRule => "an isolated honor is ranked first by rule, not by counts",
            Category::Unjudged => "the table does not know the shape the choice came from",
        }
    }
}

/// One reviewed decision.
#[derive(Clone, Debug)]
pub struct Reviewed {
    pub decision: Decision,
    pub board: Board,
    /// Network, all players, own.
    pub references: [Reference; 3],
    pub category: Category,
    /// For a decision against the all-players table: how surely its counts disagree (0..1).
    pub sureness: f64,
}

/// A choice is rare to a reference that gives it less than this.
pub const RARE: f64 = 0.05;

/// One kind offered at a choice: its situation and the shares of such offers taken.
#[derive(Clone, Debug, Serialize)]
pub struct KindShare {
    pub offer: &'static str,
    pub situation: String,
    /// Everyone's share (smoothed by one take and one pass).
    pub everyone: f64,
    /// The player's, smoothed towards everyone's (`haifu_style::choice::take_share`); the offers it counts.
    pub own: f64,
    pub own_offered: u64,
}

/// One reviewed choice (not a discard): what was offered, what the seat did, and what the counts say of it.
#[derive(Clone, Debug, Serialize)]
pub struct ChoiceReviewed {
    pub event_index: u32,
    pub round: u16,
    pub round_name: String,
    pub turn: u8,
    /// `draw` (the seat's turn), `discard`, `kakan`, `ankan`, `nuki` (another seat showed the tile).
    pub moment: &'static str,
    pub tile: String,
    pub options: Vec<String>,
    /// An option, `pass` or `discard`.
    pub chosen: String,
    /// Empty where the tables hold no choice counts.
    pub kinds: Vec<KindShare>,
    /// The probability everyone's counts and the player's give the choice (none without counts).
    pub everyone: Option<f64>,
    pub own: Option<f64>,
    /// The choice is the reference's majority choice.
    pub agrees_everyone: Option<bool>,
    pub agrees_own: Option<bool>,
    /// A choices network's (`--choices-model`) probability of the choice, and whether it is its first class.
    pub network: Option<f64>,
    pub agrees_network: Option<bool>,
}

impl ChoiceReviewed {
    /// Everyone's counts give the choice less than [`RARE`].
    pub fn rare(&self) -> bool {
        self.everyone.is_some_and(|p| p < RARE)
    }
}

/// One seat of one game, reviewed.
#[derive(Clone, Debug)]
pub struct GameReview {
    pub game_id: i64,
    pub log_id: Option<String>,
    pub year: Option<i32>,
    pub seat: u8,
    pub names: Vec<String>,
    pub red: bool,
    pub decisions: Vec<Reviewed>,
    /// Every other choice the log shows the answer of, in the order of play.
    pub choices: Vec<ChoiceReviewed>,
}

impl GameReview {
    pub fn player(&self) -> &str {
        self.names.get(usize::from(self.seat)).map_or("", String::as_str)
    }

    /// The page's file name: the log id (or the game id) and the seat.
    pub fn file(&self) -> String {
        let id: String = match &self.log_id {
            Some(l) => l.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect(),
            None => format!("{:016x}", self.game_id),
        };
        format!("{id}-seat{}.html", self.seat)
    }

    /// The tables were mined from this game's year (their own counts hold its discards): none when the
    /// tables do not say which years they hold.
    pub fn in_tables(&self, review: &Review) -> Option<bool> {
        let years = review.generation_years.as_ref()?;
        Some(years.is_empty() || self.year.is_some_and(|y| years.contains(&y)))
    }

    /// Tenhou's replay of the game from this seat (its viewer shows only games played on Tenhou).
    pub fn replay(&self, round: Option<u16>) -> Option<String> {
        let l = self.log_id.as_ref()?;
        let ts = round.map_or(String::new(), |r| format!("&ts={r}"));
        Some(format!("https://tenhou.net/0/?log={l}&tw={}{ts}", self.seat))
    }

    /// Choices that are the majority choice of everyone's counts (`own`: the player's), of those judged; and
    /// the rare ones (everyone's counts give them less than [`RARE`]).
    pub fn choice_agreement(&self, own: bool) -> (usize, usize, usize) {
        let judged = self.choices.iter().filter_map(|c| if own { c.agrees_own } else { c.agrees_everyone });
        let (hits, n) = judged.fold((0, 0), |(h, n), a| (h + usize::from(a), n + 1));
        (hits, n, self.choices.iter().filter(|c| c.rare()).count())
    }

    /// Decisions whose choice is the reference's first, of those it answered.
    pub fn agreement(&self, reference: usize) -> (usize, usize) {
        let answered = self.decisions.iter().filter(|d| !d.references[reference].candidates.is_empty());
        let (hits, n) =
            answered.fold((0, 0), |(h, n), d| (h + usize::from(d.references[reference].rank == Some(1)), n + 1));
        (hits, n)
    }
}

/// A review: the seats' games, and what the references were.
#[derive(Clone, Debug)]
pub struct Review {
    pub dataset: PathBuf,
    pub tables: PathBuf,
    /// The years the tables were mined from (empty: every year), as their `meta.json` says.
    pub generation_years: Option<Vec<i32>>,
    /// The network run, when one was given.
    pub network: Option<String>,
    /// The choices network run, when one was given.
    pub choice_network: Option<String>,
    /// The tables hold choice counts (a style database built from a dataset with its choices table).
    pub choice_counts: bool,
    pub games: Vec<GameReview>,
}

/// The games and seats to review, in the dataset's order.
fn chosen_seats(index: &GameIndex, dataset: &Path, o: &ReviewOptions) -> Result<Vec<(i64, Vec<u8>)>> {
    let seats_of = |g: i64| -> Vec<u8> {
        let n = index.players(g).unwrap_or(4);
        (0..n).filter(|&s| o.player.as_deref().is_none_or(|p| index.name(g, s) == p)).collect()
    };
    let mut chosen: Vec<(i64, Vec<u8>)> = match &o.game {
        Some(log) => {
            // a game without a log id (an mjai log) goes by its game id in hex, as its page is named
            let by_id = || index.games().iter().copied().find(|g| format!("{g:016x}") == log.to_ascii_lowercase());
            let g = index.by_log_id(log).or_else(by_id).ok_or_else(|| {
                anyhow!("{}: no game with the log id {log:?} (the games table's `log_id`)", dataset.display())
            })?;
            let seats = seats_of(g);
            if seats.is_empty() {
                let names: Vec<&str> = (0..index.players(g).unwrap_or(4)).map(|s| index.name(g, s)).collect();
                let p = o.player.as_deref().unwrap_or_default();
                bail!("{}: game {log}: no seat of {p:?} (its players: {names:?})", dataset.display());
            }
            vec![(g, seats)]
        }
        None => {
            let Some(p) = &o.player else { bail!("review needs a player (--player) or a game (--game)") };
            let years_ok = |g: i64| o.years.is_empty() || index.year(g).is_some_and(|y| o.years.contains(&y));
            let games: Vec<(i64, Vec<u8>)> =
                index.games().iter().filter(|&&g| years_ok(g)).map(|&g| (g, seats_of(g))).collect();
            let games: Vec<_> = games.into_iter().filter(|(_, s)| !s.is_empty()).collect();
            if games.is_empty() {
                let years = if o.years.is_empty() {
                    "any year".to_string()
                } else {
                    format!("the years {}", haifu_mining::dataset::years_text(&o.years))
                };
                bail!("{}: no game of {p:?} in {years} (a player's name as the games table has it)", dataset.display());
            }
            games
        }
    };
    if o.max_games > 0 {
        chosen.truncate(o.max_games);
    }
    Ok(chosen)
}

/// Reviews the games `o` chooses with the sequence tables in `tables` (`haifu mine` or `haifu style build`),
/// and the network when one is given.
pub fn review(dataset: &Path, tables: &Path, o: &ReviewOptions, network: Option<&Network>) -> Result<Review> {
    review_with(dataset, tables, o, network, None)
}

/// [`review`], with a choices network (`haifu train --decisions choices`) beside the counts of every other
/// choice.
pub fn review_with(
    dataset: &Path,
    tables: &Path,
    o: &ReviewOptions,
    network: Option<&Network>,
    choice_network: Option<&Network>,
) -> Result<Review> {
    let index = GameIndex::read(dataset)?;
    let chosen = chosen_seats(&index, dataset, o)?;
    let mut scopes: Vec<String> = vec![ALL_SCOPE.to_string()];
    for (g, seats) in &chosen {
        scopes.extend(seats.iter().map(|&s| index.name(*g, s).to_string()));
    }
    scopes.sort();
    scopes.dedup();
    let load = LoadOptions { scopes: Some(scopes), strategies: vec![Strategy::All], sources: None };
    let t = Tables::load(tables, &load).with_context(|| format!("reading the sequence tables {}", tables.display()))?;
    let all = t
        .get(ALL_SCOPE, Strategy::All)
        .ok_or_else(|| anyhow!("{}: no all-players (ALL) table (written by `haifu mine`)", tables.display()))?;
    let counts = choice::read_db(tables)?;
    let wanted: hashbrown::HashSet<i64> = chosen.iter().map(|c| c.0).collect();
    let records = read_games_where(dataset, |g| wanted.contains(&g))?;
    let records: hashbrown::HashMap<i64, GameRecord> = records.into_iter().collect();
    let record = |g: i64| records.get(&g).ok_or_else(|| anyhow!("{}: game {g} has no events", dataset.display()));
    let scored = match network {
        Some(n) => network_answers(&chosen, &record, n, haifu_encoding::positions::of_game)?,
        None => hashbrown::HashMap::new(),
    };
    let choice_scored = match choice_network {
        Some(n) => network_answers(&chosen, &record, n, haifu_encoding::choices::of_game)?,
        None => hashbrown::HashMap::new(),
    };
    // the scorers stay on this thread (a network need not be shared between threads); the label goes along
    let label = network.map(|n| n.label.as_str());
    let choice_net_given = choice_network.is_some();
    let games: Vec<Vec<GameReview>> = chosen
        .par_iter()
        .map(|(g, seats)| {
            let record = record(*g)?;
            let names: Vec<String> =
                (0..index.players(*g).unwrap_or(4)).map(|s| index.name(*g, s).to_string()).collect();
            let red = index.game_type(*g).is_none_or(|t| t.red());
            seats
                .iter()
                .map(|&seat| {
                    let at = Seat { game_id: *g, year: index.year(*g), record, seat, names: &names, red };
                    let own = t.get(&names[usize::from(seat)], Strategy::All);
                    let net = label.map(|l| (l, scored.get(&(*g, seat)).map_or(&[][..], Vec::as_slice)));
                    let choices =
                        counts.get(ALL_SCOPE).map(|everyone| (counts.get(&names[usize::from(seat)]), everyone));
                    let choice_net =
                        choice_net_given.then(|| choice_scored.get(&(*g, seat)).map_or(&[][..], Vec::as_slice));
                    review_seat(&at, all, own, net, (choices, choice_net)).with_context(|| {
                        format!("{}: game {}", dataset.display(), record.log_id.as_deref().unwrap_or(""))
                    })
                })
                .collect()
        })
        .collect::<Result<_>>()?;
    let games: Vec<GameReview> = games.into_iter().flatten().collect();
    Ok(Review {
        dataset: dataset.to_path_buf(),
        tables: tables.to_path_buf(),
        generation_years: t.meta.as_ref().map(|m| crate::thesis::generation(Some(m)).years),
        network: network.map(|n| n.label.clone()),
        choice_network: choice_network.map(|n| n.label.clone()),
        choice_counts: counts.contains_key(ALL_SCOPE),
        games,
    })
}

/// The choice counts of a seat's player (if profiled) and everyone's.
type Counts<'a> = (Option<&'a ChoiceCounts>, &'a ChoiceCounts);

/// A network's answer at one position: its probabilities and the legal kinds (bit per kind).
type Answer = ([f32; 34], u64);

/// The network's answers at every position `cut` gives of the reviewed seats (the chosen discards, or the
/// choices), scored in one call: the positions replayed from the events as training cuts them, in the order
/// of play.
fn network_answers<'r>(
    chosen: &[(i64, Vec<u8>)],
    record: &(impl Fn(i64) -> Result<&'r GameRecord> + Sync),
    n: &Network,
    cut: fn(i64, &GameRecord) -> Result<Positions>,
) -> Result<hashbrown::HashMap<(i64, u8), Vec<Answer>>> {
    let per_game: Vec<Positions> = chosen
        .par_iter()
        .map(|(g, seats)| {
            let p = cut(*g, record(*g)?)?;
            Ok(p.select(|i| seats.contains(&p.seat[i])))
        })
        .collect::<Result<_>>()?;
    let mut all = Positions::default();
    for p in per_game {
        all.extend(p);
    }
    let probs = (n.score)(&all)?;
    if probs.len() != all.len() {
        bail!("the network {} answered {} of {} positions", n.label, probs.len(), all.len());
    }
    let mut out: hashbrown::HashMap<(i64, u8), Vec<Answer>> = hashbrown::HashMap::new();
    for (i, q) in probs.into_iter().enumerate() {
        out.entry((all.game[i], all.seat[i])).or_default().push((q, all.legal[i]));
    }
    Ok(out)
}

/// The game and seat under review.
struct Seat<'a> {
    game_id: i64,
    year: Option<i32>,
    record: &'a GameRecord,
    seat: u8,
    names: &'a [String],
    red: bool,
}

/// One seat of one game: its chosen discards, each with its board and the references' rankings (`net`: the
/// network's label and its answers at the seat's chosen discards, in order).
fn review_seat(
    at: &Seat,
    all: &SeqTable,
    own: Option<&SeqTable>,
    net: Option<(&str, &[Answer])>,
    (counts, choice_net): (Option<Counts<'_>>, Option<&[Answer]>),
) -> Result<GameReview> {
    let (record, seat, names) = (at.record, at.seat, at.names);
    let g = extract_with(record, ReplayOptions { keep_misscored: false, choices: true })
        .map_err(|e| anyhow!("the replay stops: {e}"))?;
    let mine: Vec<&Decision> = g.decisions.iter().filter(|d| d.seat == seat && !d.in_riichi).collect();
    if let Some((label, answers)) = net {
        if answers.len() != mine.len() {
            bail!(
                "the network {label} has {} positions of seat {seat} for its {} chosen discards",
                answers.len(),
                mine.len()
            );
        }
    }
    let at_events: Vec<u32> = mine.iter().map(|d| d.event_index).collect();
    let mut boards = board::boards(record, &at_events, names)?;
    let player = &names[usize::from(seat)];
    let mut decisions = Vec::with_capacity(mine.len());
    for (i, d) in mine.into_iter().enumerate() {
        let board = boards.remove(&d.event_index).ok_or_else(|| anyhow!("no board at event {}", d.event_index))?;
        let winds = Winds::of_seat(board.kyoku, seat, g.info.n_players);
        let chosen = d.discard.kind();
        let all_ref = Reference::of_ranking("all", "all players (ALL)", &rank(&d.before, winds, all), chosen);
        let own_ref = match own {
            Some(t) => {
                Reference::of_ranking("own", &format!("own table ({player})"), &rank(&d.before, winds, t), chosen)
            }
            None => Reference::missing("own", format!("the tables have no table of {player}")),
        };
        let network = match net {
            Some((label, answers)) => {
                let (q, legal) = &answers[i];
                Reference::of_probabilities(&format!("network {label}"), q, *legal, chosen)
            }
            None => Reference::missing("network", "network: not given (the tables alone)".into()),
        };
        let (category, sureness) = judge(d, &board, &all_ref);
        decisions.push(Reviewed {
            decision: d.clone(),
            board,
            references: [network, all_ref, own_ref],
            category,
            sureness,
        });
    }
    Ok(GameReview {
        game_id: at.game_id,
        log_id: record.log_id.clone(),
        year: at.year,
        seat,
        names: names.to_vec(),
        red: at.red,
        decisions,
        choices: seat_choices(&g, seat, counts, choice_net)?,
    })
}

/// The seat's answered choices in the order of play, each with the counts' and the choices network's view.
fn seat_choices(
    g: &ExtractedGame,
    seat: u8,
    counts: Option<Counts<'_>>,
    net: Option<&[Answer]>,
) -> Result<Vec<ChoiceReviewed>> {
    let mut mine: Vec<&Choice> = g.choices.iter().filter(|c| c.seat == seat && c.chosen != Chosen::Unknown).collect();
    // the network's positions come in the order of the events that opened them
    mine.sort_by_key(|c| c.event_index);
    if let Some(answers) = net {
        if answers.len() != mine.len() {
            bail!("the choices network has {} positions of seat {seat} for its {} choices", answers.len(), mine.len());
        }
    }
    Ok(mine
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut r = review_choice(g, c, counts);
            if let Some((q, legal)) = net.map(|a| &a[i]) {
                let took = match c.chosen {
                    Chosen::Took(a) => haifu_encoding::choices::class_of(&a).unwrap_or(0),
                    _ => 0,
                };
                let best = (0..34u8)
                    .filter(|&k| legal >> k & 1 == 1)
                    .max_by(|a, b| q[usize::from(*a)].total_cmp(&q[usize::from(*b)]).then(b.cmp(a)));
                r.network = Some(round4(f64::from(q[usize::from(took)])));
                r.agrees_network = Some(best == Some(took));
            }
            r
        })
        .collect())
}

/// One choice with its kinds' situations and what the counts say of it.
fn review_choice(g: &ExtractedGame, c: &Choice, counts: Option<Counts<'_>>) -> ChoiceReviewed {
    let init = g.rounds.get(usize::from(c.round)).map(|r| &r.init);
    let (kyoku, honba) = init.map_or((0, 0), |i| (i.kyoku, i.honba));
    let mut out = ChoiceReviewed {
        event_index: c.event_index,
        round: c.round,
        round_name: haifu_rules::table::round_name(kyoku, honba),
        turn: c.turn,
        moment: c.moment.name(),
        tile: haifu_ingest::choices::tile_text(c.tile, c.red).to_string(),
        options: c.option_texts().map(|o| o.to_string()).collect(),
        chosen: c.chosen_text().map(|t| t.to_string()).unwrap_or_default(),
        kinds: Vec::new(),
        everyone: None,
        own: None,
        agrees_everyone: None,
        agrees_own: None,
        network: None,
        agrees_network: None,
    };
    let Some((own, all)) = counts else { return out };
    let (situations, took) = choice::situations_of(g, c);
    let everyone: Vec<(Situation, f64)> = situations.iter().map(|s| (*s, choice::take_share(None, all, s))).collect();
    let mine: Vec<(Situation, f64)> = situations.iter().map(|s| (*s, choice::take_share(own, all, s))).collect();
    let agrees = |shares: &[(Situation, f64)]| choice::majority(shares).map(|b| shares[b].0.offer) == took;
    out.kinds = situations
        .iter()
        .zip(everyone.iter().zip(&mine))
        .map(|(s, (e, m))| KindShare {
            offer: s.offer.name(),
            situation: s.to_string(),
            everyone: round4(e.1),
            own: round4(m.1),
            own_offered: own.and_then(|o| o.0.get(s)).map_or(0, |n| n.offered),
        })
        .collect();
    out.everyone = Some(round4(choice::probability_of(&everyone, took)));
    out.own = Some(round4(choice::probability_of(&mine, took)));
    out.agrees_everyone = Some(agrees(&everyone));
    out.agrees_own = Some(agrees(&mine));
    out
}

/// The category of a decision and, when it goes against the all-players table, how surely.
fn judge(d: &Decision, board: &Board, all: &Reference) -> (Category, f64) {
    let chosen = d.discard.kind();
    let (above, total) = all.against();
    let sureness = wilson_lower(above, total);
    let honor_first = all.candidates.first().is_some_and(|c| c.rule.is_some());
    let category = match () {
        _ if all.rank == Some(1) => Category::Agree,
        _ if board.other_riichi() => Category::UnderRiichi,
        _ if matches!(d.source, TileSource::Chi | TileSource::Pon) => Category::Call,
        _ if chosen.is_honor() && d.before[usize::from(chosen.index())] >= 2 => Category::HonorPair,
        _ if honor_first || chosen.is_honor() => Category::HonorRule,
        _ if all.rank.is_none() => Category::Unjudged,
        _ => Category::Style,
    };
    let sureness = if category == Category::Agree { 0.0 } else { sureness };
    (category, sureness)
}

/// Lower bound of the 95% Wilson score interval of `k` successes in `n` (0 when `n` is 0).
pub fn wilson_lower(k: u64, n: u64) -> f64 {
    if n == 0 {
        return 0.0;
    }
    let (z, n, p) = (1.96f64, n as f64, k as f64 / n as f64);
    let z2 = z * z;
    let centre = p + z2 / (2.0 * n);
    let margin = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - margin) / (1.0 + z2 / n)).max(0.0)
}

impl Review {
    /// The review as JSON: per game and decision, the board's facts, the choice, the category and every
    /// reference's candidates and the rank it gives the choice.
    pub fn to_json(&self) -> Value {
        let games: Vec<Value> = self.games.iter().map(|g| game_json(self, g)).collect();
        json!({
            "dataset": self.dataset.display().to_string(),
            "tables": self.tables.display().to_string(),
            "generation_years": self.generation_years,
            "network": self.network,
            "choice_counts": self.choice_counts,
            "choice_network": self.choice_network,
            "games": games,
        })
    }
}

fn game_json(review: &Review, g: &GameReview) -> Value {
    let decisions: Vec<Value> = g
        .decisions
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let d = &r.decision;
            let refs: serde_json::Map<String, Value> = r
                .references
                .iter()
                .map(|x| (x.name.to_string(), serde_json::to_value(x).unwrap_or(Value::Null)))
                .collect();
            json!({
                "index": i,
                "event_index": d.event_index,
                "round": d.round,
                "round_name": r.board.round_name(),
                "turn": d.turn,
                "source": d.source.name(),
                "hand": haifu_rules::hand::format_counts(d.hand.counts()),
                // what the tables rank (after a call: the hand before it plus the called tile, SPEC 2)
                "state": haifu_rules::hand::format_counts(&d.before),
                "round_wind": Kind::from_index(27 + (r.board.kyoku / 4).min(3)).name(),
                "seat_wind": r.board.seats[0].wind.name(),
                "chosen": d.discard.kind().name(),
                "riichi": d.riichi,
                "category": r.category,
                "sureness": r.sureness,
                // a network's probability on the candidates it ranks above the choice
                "network_mass_above": r.references[0].given.then(|| r.references[0].mass_above()),
                "ranks": {"network": r.references[0].rank, "all": r.references[1].rank, "own": r.references[2].rank},
                "references": refs,
            })
        })
        .collect();
    json!({
        "game_id": g.game_id,
        "log_id": g.log_id,
        "seat": g.seat,
        "player": g.player(),
        "players": g.names,
        "page": format!("games/{}", g.file()),
        "replay": g.replay(None),
        "year": g.year,
        // the tables hold this game's own discards (mined from its year)
        "in_tables": g.in_tables(review),
        "decisions": decisions,
        "choices": g.choices,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_bounds_weigh_the_counts() {
        assert_eq!(wilson_lower(0, 0), 0.0);
        assert_eq!(wilson_lower(0, 50), 0.0);
        // the same share, more sure with more counts
        let (few, many) = (wilson_lower(3, 3), wilson_lower(300, 300));
        assert!(few < 0.5 && many > 0.98, "{few} {many}");
        let mid = wilson_lower(80, 100);
        assert!(mid > 0.7 && mid < 0.8, "{mid}");
    }

    fn reference(counts: &[Option<u64>], rank: Option<usize>) -> Reference {
        let candidates = counts
            .iter()
            .map(|&count| Candidate { tile: "1m", count, share: None, rule: count.is_none().then_some("rule") })
            .collect();
        Reference { name: "all", label: String::new(), given: true, candidates, rank }
    }

    #[test]
    fn nothing_above_the_first_is_a_plain_zero() {
        let mut r = reference(&[Some(3), Some(1)], Some(1));
        for c in &mut r.candidates {
            c.share = Some(0.5);
        }
        assert_eq!(format!("{:.2}", r.mass_above()), "0.00");
        r.rank = Some(2);
        assert_eq!(r.mass_above(), 0.5);
    }

    #[test]
    fn the_counts_above_the_choice_are_against_it() {
        assert_eq!(reference(&[Some(10), Some(5), Some(1)], Some(3)).against(), (15, 16));
        assert_eq!(reference(&[None, Some(5), Some(1)], Some(2)).against(), (0, 6));
        assert_eq!(reference(&[Some(5), Some(1)], None).against(), (6, 6));
        assert_eq!(reference(&[Some(5), Some(1)], Some(1)).against(), (0, 6));
    }
}
