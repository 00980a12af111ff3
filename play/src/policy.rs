//! The player at the table: how `haifu mjai-bot` decides.
//!
//! # Discards
//! 0. With `--network-first` (a neural model and the player's discard model): the network's most probable legal
//!    discard, its probabilities tilted by the player's discard coefficients less everyone's where the discard
//!    model has the choice ([`crate::personal`]): the player's personal network. The steps below only where it
//!    gives no answer.
//! 1. The player's own sequence tables (the lookup imitator, SPEC 4): the strategy estimator picks the table
//!    (tanyao, chanta, yakuhai, else all; fixed for the round once decided), the ranked candidates are taken
//!    in order and the first one the seat may discard is played. The state ranked is the concealed hand as it
//!    is (after a call: without the called tiles).
//! 2. Everyone's tables (ALL) when the player's give no candidate.
//! 3. The neural model (`--model`) when neither table has a candidate: its most probable legal discard.
//! 4. The shanten rule last: the discard that keeps the hand closest to complete, most tile acceptance
//!    among equals (the `efficiency` bot of `haifu sim`).
//!
//! # Every other decision: calls, riichi, kans, wins, aborts, norths (a lookup over the player's choices)
//! Each kind of option the seat has now (a chi, a pon, riichi, a closed kan, ...) is put in its situation
//! (`haifu_style::choice`: the facts of the hand and the table the database counted the player's choices by),
//! and the share of such offers the player took there is looked up: the player's own counts, smoothed towards
//! everyone's in the same situation ([`haifu_style::choice::take_share`]). The kind with the largest share is
//! taken when that share is above one half (the player's majority choice, as the discard side plays the
//! player's most frequent sequence), else the seat passes (or discards without riichi). Of several options of
//! the kind (two ways to chi), the one that leaves the hand closest to tenpai is played.
//! - A database built from a dataset without choices (`haifu ingest --no-choices`), and the plain
//!   player, decide by rule in the same situations: every win, north and abort; riichi; a call that brings
//!   tenpai closer with a yaku in sight; an added kan; a closed kan in riichi or of four tiles not needed.
//! - The riichi discard is the imitator's choice when it keeps tenpai, else the shanten rule's.
//! - Folding: facing another seat's riichi with a hand two or more from tenpai, the seat folds (discards the
//!   safest tile: the riichi seat's river first, then honors, then terminals) with probability `fold_rate`,
//!   the share of such rounds the player gave up.
//! - Which copy goes, where the kind chosen is the kind just drawn and the hand holds another (not a five): the
//!   copy just drawn as often as the player discards it there (the discard model's `drawn_copy`), else the
//!   one held: a habit the other seats see, and identification reads.
//!
//! A player the database does not profile is refused (`Player::from_db`); [`Player::plain`] (no tables, the
//! rules) is the baseline for tests. Randomness (the fold) comes from `--seed`.

use std::path::Path;

use anyhow::{Context, Result};
use haifu_imitate::{estimate, rank, MeldSummary, RoundEstimator, SeqTable, Tables, Winds, ALL_SCOPE};
use haifu_mining::Strategy;
use haifu_record::state::SeatState;
use haifu_rules::shanten::shanten;
use haifu_rules::{Kind, MeldKind, Tile, KINDS};
use haifu_sim::style::{Lean, Style, StyleBot};
use haifu_sim::{Action, Bot};
use haifu_style::choice::{
    majority, take_share, ChoiceCounts, Offer, Opt, Situation, Spot, ADVANCES, IN_RIICHI, NOT_NEEDED, YAKU,
};
use haifu_style::db::StyleDb;
use haifu_style::discards::{tilt, Coefficients};
use haifu_style::tally::Tally;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::follow::{Follower, Question};

/// The share of rounds the player gave up facing another's riichi (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Rates {
    pub fold: f64,
}

impl Rates {
    /// From a player's counts beside everyone's.
    pub fn of(player: &Tally, all: &Tally) -> Rates {
        let share = |a: u64, b: u64| (b > 0).then(|| a as f64 / b as f64);
        Rates { fold: share(player.folds, player.facing_riichi).or(share(all.folds, all.facing_riichi)).unwrap_or(0.5) }
    }
}

impl Default for Rates {
    /// No database: fold half the time.
    fn default() -> Rates {
        Rates { fold: 0.5 }
    }
}

/// Where a discard came from, and what decided the other choices, counted for the summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Sources {
    pub own_table: u64,
    pub all_table: u64,
    pub network: u64,
    /// Discards where the network's answer was tilted by the player's discard model (`--network-first`).
    pub tilted: u64,
    pub shanten: u64,
    pub fold: u64,
    /// Choices of a situation the player's own counts hold (smoothed towards everyone's).
    pub own_choices: u64,
    /// Choices of a situation only everyone's counts hold.
    pub all_choices: u64,
    /// Choices decided by rule (no choices in the database).
    pub rule_choices: u64,
}

/// What the seat does with its options besides the plain discard (or pass).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OptionChoice {
    /// An option that is an action of its own.
    Take(Action),
    /// Declare riichi with the discard.
    Riichi,
    /// None of the options: pass, or discard without riichi.
    Decline,
}

/// A neural model that proposes a discard where the tables have none (`haifu mjai-bot --model`: the network
/// binary implements it, the tables and the rest of the player stay here, free of libtorch).
pub trait Backoff {
    /// Probabilities of the 34 kinds for the seat's position (illegal kinds may be anything).
    fn probabilities(&mut self, f: &Follower) -> Option<[f32; 34]>;
}

/// The imitator of one player. See the module documentation.
pub struct Imitator {
    pub name: String,
    tables: Option<Tables>,
    /// The player's scope in the tables (`None`: only ALL).
    scope: Option<String>,
    pub rates: Rates,
    /// The player's choice counts (if the database profiles any of its choices) and everyone's.
    choices: Option<(Option<ChoiceCounts>, ChoiceCounts)>,
    backoff: Option<Box<dyn Backoff + Send>>,
    /// The player's discard coefficients less everyone's: the network, tilted by them, proposes every discard
    /// before the tables (`--network-first`).
    personal: Option<Coefficients>,
    estimator: RoundEstimator,
    round: Option<(u8, u8)>,
    folder: StyleBot,
    efficient: StyleBot,
    rng: SmallRng,
    /// How often the player discards the copy just drawn where the hand holds another of the kind discarded
    /// (the discard model's `drawn_copy`), and the draws that follow it, apart from `rng` so that the other
    /// choices' draws do not depend on it. `None`: always the copy just drawn.
    drawn_copy: Option<(f64, SmallRng)>,
    /// The riichi discard chosen with the declaration, played when the server asks for it.
    riichi_tile: Option<Tile>,
    pub sources: Sources,
}

fn style(name: &'static str, calls: bool, riichi: bool, fold_at: Option<i8>) -> Style {
    Style { name, lean: Lean::Acceptance, calls, riichi, fold_at }
}

impl Imitator {
    /// A player with no tables (the shanten rule, everyone's default rates): the baseline.
    pub fn plain(name: &str, seed: u64) -> Imitator {
        Imitator {
            name: name.to_string(),
            tables: None,
            scope: None,
            rates: Rates::default(),
            choices: None,
            backoff: None,
            personal: None,
            estimator: RoundEstimator::default(),
            round: None,
            folder: StyleBot::new(style("folder", false, false, Some(2)), seed ^ 2),
            efficient: StyleBot::new(style("efficiency", false, true, None), seed ^ 3),
            rng: SmallRng::seed_from_u64(seed),
            drawn_copy: None,
            riichi_tile: None,
            sources: Sources::default(),
        }
    }

    /// The imitator of `player` from a style database (`haifu style build`); a player the database does not
    /// profile is refused, naming the database.
    pub fn from_db(db_dir: &Path, player: &str, seed: u64) -> Result<Imitator> {
        let db = StyleDb::open(db_dir)?;
        let profile = db.profile(player)?;
        let rates = Rates::of(&profile.tally, &db.all);
        let load = haifu_imitate::LoadOptions {
            scopes: Some(vec![player.to_string(), ALL_SCOPE.to_string()]),
            strategies: Vec::new(),
            sources: None,
        };
        let tables = Tables::load(db_dir, &load).with_context(|| format!("the tables of {}", db_dir.display()))?;
        let mut p = Imitator::plain(player, seed);
        p.scope = tables.has_scope(player).then(|| player.to_string());
        p.tables = Some(tables);
        p.rates = rates;
        p.choices = db.choices_of(player).map(|(own, all)| (own.cloned(), all.clone()));
        p.drawn_copy = db.discards.of(player).map(|c| (c.drawn_copy_share(), SmallRng::seed_from_u64(seed ^ 5)));
        Ok(p)
    }

    /// Adds a neural model for the discards the tables cannot rank.
    pub fn with_backoff(mut self, b: Box<dyn Backoff + Send>) -> Imitator {
        self.backoff = Some(b);
        self
    }

    /// The player's personal network first: the neural model's answer (with [`Imitator::with_backoff`]) tilted
    /// by `delta`, the player's discard coefficients less everyone's, where the discard model has the choice
    /// ([`crate::personal`]), proposes every discard before the tables.
    pub fn network_first(mut self, delta: Coefficients) -> Imitator {
        self.personal = Some(delta);
        self
    }

    /// The action for the question now; `legal` is not empty.
    pub fn decide(&mut self, f: &Follower, legal: &[Action]) -> Action {
        if let Some(Question::RiichiDiscard) = f.question() {
            let chosen = self.riichi_tile.take().map(|tile| Action::Discard { tile, riichi: true });
            return chosen.filter(|a| legal.contains(a)).unwrap_or(legal[0]);
        }
        let riichi = match self.option_choice(f, legal) {
            OptionChoice::Take(a) => return a,
            OptionChoice::Decline if legal.contains(&Action::Pass) => return Action::Pass,
            OptionChoice::Decline => false,
            OptionChoice::Riichi => true,
        };
        let view = f.view();
        let discards: Vec<Action> =
            legal.iter().copied().filter(|a| matches!(a, Action::Discard { riichi: false, .. })).collect();
        if discards.is_empty() {
            return legal[0];
        }
        if view.own().riichi.is_accepted() {
            return discards[0];
        }
        let riichi_ok = legal.iter().any(|a| matches!(a, Action::Discard { riichi: true, .. }));
        if !riichi_ok && self.facing_riichi(f) && self.rng.random_bool(self.rates.fold.clamp(0.0, 1.0)) {
            self.sources.fold += 1;
            let fold = self.folder.decide(&view, &discards);
            return self.which_copy(view.own(), fold, &discards);
        }
        let choice = self.discard(f, &discards);
        let choice = self.which_copy(view.own(), choice, &discards);
        if riichi {
            let Action::Discard { tile, .. } = choice else { return choice };
            let mut r = Action::Discard { tile, riichi: true };
            if !legal.contains(&r) {
                let riichis: Vec<Action> =
                    legal.iter().copied().filter(|a| matches!(a, Action::Discard { riichi: true, .. })).collect();
                r = self.efficient.decide(&view, &riichis);
                if !matches!(r, Action::Discard { riichi: true, .. }) {
                    r = riichis[0];
                }
            }
            if let Action::Discard { tile, .. } = r {
                self.riichi_tile = Some(tile);
            }
            return r;
        }
        choice
    }

    /// Which copy of the kind chosen goes where the hand holds the copy just drawn and another
    /// ([`haifu_style::discards::Copies`]; not a five): the one just drawn as often as the player discards it
    /// there, else one from the hand. Another kind, or a player without the share, as chosen.
    fn which_copy(&mut self, own: &SeatState, choice: Action, discards: &[Action]) -> Action {
        let (Some((share, rng)), Action::Discard { tile, riichi }, Some(drawn)) =
            (self.drawn_copy.as_mut(), choice, own.last_draw)
        else {
            return choice;
        };
        let k = drawn.kind();
        if tile.kind() != k || !haifu_style::discards::copies_alike(k) {
            return choice;
        }
        let held = discards.iter().find_map(|a| match *a {
            Action::Discard { tile, .. } if tile.kind() == k && tile != drawn => Some(tile),
            _ => None,
        });
        let Some(held) = held else { return choice };
        let tile = if rng.random_bool(share.clamp(0.0, 1.0)) { drawn } else { held };
        Action::Discard { tile, riichi }
    }

    /// The options besides the plain discard or pass, looked up in the player's choices (module
    /// documentation).
    fn option_choice(&mut self, f: &Follower, legal: &[Action]) -> OptionChoice {
        // the options, a riichi once however many discards declare it
        let mut opts: Vec<(Opt, Action)> = Vec::new();
        for a in legal {
            if let Some(o) = Opt::of_action(a) {
                if !opts.iter().any(|(x, _)| *x == o) {
                    opts.push((o, *a));
                }
            }
        }
        if opts.is_empty() {
            return OptionChoice::Decline;
        }
        let view = f.view();
        let tile = match view.offered {
            Some((_, tile, _)) => tile.kind(),
            None => view.own().last_draw.map_or(Kind::from_index(0), |t| t.kind()),
        };
        let spot = Spot::at(&f.table, f.seat(), tile);
        let options: Vec<Opt> = opts.iter().map(|(o, _)| *o).collect();
        let found = spot.situations(&options);
        let mut shares: Vec<(Situation, f64)> = Vec::with_capacity(found.len());
        for (situation, _) in &found {
            let share = match &self.choices {
                Some((own, all)) => {
                    let counted = own.as_ref().is_some_and(|c| c.0.get(situation).is_some_and(|n| n.offered > 0));
                    if counted {
                        self.sources.own_choices += 1;
                    } else {
                        self.sources.all_choices += 1;
                    }
                    take_share(own.as_ref(), all, situation)
                }
                None => {
                    self.sources.rule_choices += 1;
                    f64::from(u8::from(rule_takes(situation)))
                }
            };
            shares.push((*situation, share));
        }
        match majority(&shares).map(|b| opts[found[b].1]) {
            Some((Opt::Riichi, _)) => OptionChoice::Riichi,
            Some((_, a)) => OptionChoice::Take(a),
            None => OptionChoice::Decline,
        }
    }

    fn efficient_choice(&mut self, f: &Follower, discards: &[Action]) -> Action {
        let view = f.view();
        self.efficient.decide(&view, discards)
    }

    /// Another seat declared riichi, and this hand is two or more from tenpai after its best discard.
    fn facing_riichi(&self, f: &Follower) -> bool {
        let t = &f.table;
        let me = usize::from(f.seat());
        let threat = (0..usize::from(t.players)).any(|s| s != me && t.seats[s].riichi.is_declared());
        if !threat {
            return false;
        }
        let mut c = *t.seats[me].hand.counts();
        let mut best = i8::MAX;
        for k in 0..KINDS {
            if c[k] > 0 {
                c[k] -= 1;
                best = best.min(shanten(&c));
                c[k] += 1;
            }
        }
        best >= 2
    }

    /// The discard: own tables, ALL, the network, the shanten rule (module documentation).
    fn discard(&mut self, f: &Follower, discards: &[Action]) -> Action {
        let me = f.seat();
        let t = &f.table;
        let own = &t.seats[usize::from(me)];
        if self.round != Some((t.kyoku, t.honba)) {
            self.round = Some((t.kyoku, t.honba));
            self.estimator = RoundEstimator::default();
        }
        let kinds_of = |k: Kind| -> Option<Action> {
            // the tile just drawn first (a tsumogiri), then a plain copy before a red five
            let mut best: Option<Tile> = None;
            for a in discards {
                let Action::Discard { tile, .. } = *a else { continue };
                if tile.kind() != k {
                    continue;
                }
                let better = match best {
                    None => true,
                    Some(b) => own.last_draw != Some(b) && (own.last_draw == Some(tile) || b.is_red_id()),
                };
                if better {
                    best = Some(tile);
                }
            }
            best.map(|tile| Action::Discard { tile, riichi: false })
        };
        if self.personal.is_some() {
            if let Some(a) = self.network_choice(f, discards).and_then(kinds_of) {
                self.sources.network += 1;
                return a;
            }
        }
        if let Some(tables) = &self.tables {
            let counts = *own.hand.counts();
            let winds = Winds::of_seat(t.kyoku, me, t.players);
            let melds: Vec<Vec<Kind>> = own
                .melds
                .iter()
                .filter(|m| m.kind != MeldKind::Nuki)
                .map(|m| m.tiles().iter().map(|x| x.kind()).collect())
                .collect();
            let meld_refs: Vec<&[Kind]> = melds.iter().map(Vec::as_slice).collect();
            let strategy = self.estimator.next(estimate(&counts, &MeldSummary::from_kinds(&meld_refs), winds));
            let pick = |table: &SeqTable| rank(&counts, winds, table).candidates.iter().find_map(|c| kinds_of(c.kind));
            let table_of =
                |scope: &str| strategy.and_then(|s| tables.get(scope, s)).or_else(|| tables.get(scope, Strategy::All));
            if let Some(a) = self.scope.as_deref().and_then(table_of).and_then(pick) {
                self.sources.own_table += 1;
                return a;
            }
            if let Some(a) = table_of(ALL_SCOPE).and_then(pick) {
                self.sources.all_table += 1;
                return a;
            }
        }
        if let Some(a) = self.network_choice(f, discards).and_then(kinds_of) {
            self.sources.network += 1;
            return a;
        }
        self.sources.shanten += 1;
        self.efficient_choice(f, discards)
    }

    /// The neural model's most probable kind among `discards`, tilted by the player's coefficients where they
    /// are given and the discard model has the choice; `None` without a model or an answer.
    fn network_choice(&mut self, f: &Follower, discards: &[Action]) -> Option<Kind> {
        let mut p = self.backoff.as_mut()?.probabilities(f)?;
        if let Some(delta) = &self.personal {
            if let Some(c) = crate::personal::candidates(&f.table, f.seat(), &f.safety) {
                tilt(&mut p, &c, delta);
                self.sources.tilted += 1;
            }
        }
        discards
            .iter()
            .filter_map(|a| match a {
                Action::Discard { tile, .. } => Some(tile.kind()),
                _ => None,
            })
            .max_by(|x, y| p[usize::from(x.index())].total_cmp(&p[usize::from(y.index())]))
    }
}

/// The rule of a player without choice counts: every option but a call that does not bring tenpai closer with a
/// yaku in sight, and a closed kan out of riichi of tiles the hand needs.
fn rule_takes(s: &Situation) -> bool {
    match s.offer {
        Offer::Chi | Offer::Pon | Offer::Daiminkan => s.context & (ADVANCES | YAKU) == ADVANCES | YAKU,
        Offer::Ankan => s.context & (IN_RIICHI | NOT_NEEDED) != 0,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where the kind chosen is the kind just drawn and another copy is held, the copy just drawn goes as often
    /// as the player's share says: never at 0, always at 1, about 30% of 4,000 times at 0.3; a five, another kind
    /// or a player without a share as chosen.
    #[test]
    fn the_copy_just_drawn_goes_as_often_as_the_player_discards_it() {
        let discard = |id: u8| Action::Discard { tile: Tile::from_id(id), riichi: false };
        // 3m: ids 8-11, drawn 8, 9 held; 5p: ids 52-55, drawn 52, 53 held; 7s: id 96
        let seat = |drawn: u8| SeatState { last_draw: Some(Tile::from_id(drawn)), ..SeatState::default() };
        let discards = [discard(8), discard(9), discard(52), discard(53), discard(96)];
        let mut p = Imitator::plain("p", 1);
        let drawn_share = |p: &mut Imitator, share: f64, n: usize| {
            p.drawn_copy = Some((share, SmallRng::seed_from_u64(7)));
            (0..n).filter(|_| p.which_copy(&seat(8), discard(9), &discards) == discard(8)).count()
        };
        assert_eq!(drawn_share(&mut p, 0.0, 100), 0);
        assert_eq!(drawn_share(&mut p, 1.0, 100), 100);
        let n = drawn_share(&mut p, 0.3, 4000);
        assert!((1100..=1300).contains(&n), "{n} of 4000");
        p.drawn_copy = Some((0.0, SmallRng::seed_from_u64(7)));
        assert_eq!(p.which_copy(&seat(8), discard(8), &discards), discard(9));
        // a five, another kind than the drawn, and a kind without another copy are as chosen
        assert_eq!(p.which_copy(&seat(52), discard(52), &discards), discard(52));
        assert_eq!(p.which_copy(&seat(8), discard(96), &discards), discard(96));
        assert_eq!(p.which_copy(&seat(96), discard(96), &discards), discard(96));
        p.drawn_copy = None;
        assert_eq!(p.which_copy(&seat(8), discard(9), &discards), discard(9));
    }

    #[test]
    fn rates_relative_to_everyone() {
        let all = Tally { rounds: 1000, riichi: 200, calls: 300, facing_riichi: 100, folds: 40, ..Tally::default() };
        let p = Tally { rounds: 100, riichi: 10, calls: 60, facing_riichi: 10, folds: 7, ..Tally::default() };
        let r = Rates::of(&p, &all);
        // folds 7 of 10
        assert!((r.fold - 0.7).abs() < 1e-12);
        // no riichi faced: everyone's fold share
        let q = Tally { rounds: 10, ..Tally::default() };
        assert!((Rates::of(&q, &all).fold - 0.4).abs() < 1e-12);
    }
}
