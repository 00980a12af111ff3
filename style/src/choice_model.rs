//! The choices as a model (issue 50): whether a player takes an option of a kind (a chi, a pon, riichi, a kan,
//! a win, ...) where it is offered, as a logit of a few coefficients a kind rather than a share a situation.
//!
//! A situation ([`Situation`]) is a kind of option and the facts of the hand and the table where it was offered
//! ([`Offer::facts`]; riichi also by turn). The smoothed shares of [`crate::choice::take_share`] give each
//! combination of facts its own share, a hundred cells or so of which a player of a few thousand offers fills
//! few; here the odds of taking are the kind's coefficient times one for each of its facts that holds (turns 7-11
//! and 12+ of riichi against 1-6), no fact's effect depending on another's: 37 coefficients in all. Everyone's
//! are fitted on every player's counts; a player's are the most probable under a normal prior around everyone's
//! whose deviations are the players' spread, estimated from their counts as the discard model's is
//! ([`crate::newton::fit_players`]), so that a player of few offers keeps everyone's. The counts
//! of offers and takes by situation are all the fit needs: the model is fitted from the database's choice counts
//! when it is opened, and stores nothing of its own.
//!
//! Fixed before any run: the coefficients (the facts of the choices table, the turns of riichi as in
//! [`Situation`]), the prior, and the place of the model: the `choices` part of identification.

use hashbrown::HashMap;
use rayon::prelude::*;

use crate::choice::{ChoiceCounts, Count, Offer, Situation, TURN_SHIFT};
use crate::discards::{distinct_from, Distinct, Paired, PersonalGains, PRIOR_SD};
use crate::newton::{fit_players, most_probable, Curvature, Posterior};

/// How many coefficients the model has.
pub const COEFFICIENTS: usize = 37;

/// Where each kind's coefficients start (in the order of [`Offer::ALL`]): its own, then one a fact, then
/// (riichi) turns 7-11 and 12+.
static STARTS: std::sync::LazyLock<[usize; Offer::ALL.len() + 1]> = std::sync::LazyLock::new(|| {
    let mut s = [0; Offer::ALL.len() + 1];
    for (i, o) in Offer::ALL.iter().enumerate() {
        s[i + 1] = s[i] + 1 + o.facts().len() + if *o == Offer::Riichi { 2 } else { 0 };
    }
    assert_eq!(s[Offer::ALL.len()], COEFFICIENTS, "the kinds' coefficients");
    s
});

/// The coefficients a situation has (each with the value 1).
fn features(s: &Situation) -> impl Iterator<Item = usize> + 'static {
    let (offer, context) = (s.offer, s.context);
    let start = STARTS[Offer::ALL.iter().position(|&x| x == offer).unwrap_or(0)];
    let facts = offer.facts();
    let held = facts.iter().enumerate().filter(move |(_, (_, bit))| context & bit != 0).map(|(i, _)| i + 1);
    let turn = match (offer, context >> TURN_SHIFT & 3) {
        (Offer::Riichi, 1) => Some(1 + facts.len()),
        (Offer::Riichi, 2..) => Some(2 + facts.len()),
        _ => None,
    };
    std::iter::once(0).chain(held).chain(turn).map(move |i| start + i)
}

/// The kind and the place within it of coefficient `i`: 0 the kind's own, then one a fact, then (riichi) the
/// two later turns.
fn coefficient_of(i: usize) -> (Offer, usize) {
    let o = STARTS.iter().rposition(|&s| s <= i).unwrap_or(0).min(Offer::ALL.len() - 1);
    (Offer::ALL[o], i - STARTS[o])
}

/// A coefficient's name (`chi`, `pon_value`, `riichi_turn12`).
pub fn coefficient_name(i: usize) -> String {
    let (offer, j) = coefficient_of(i);
    let facts = offer.facts();
    match j {
        0 => offer.name().to_string(),
        _ if j <= facts.len() => format!("{}_{}", offer.name(), facts[j - 1].0),
        _ if j == facts.len() + 1 => format!("{}_turn7_11", offer.name()),
        _ => format!("{}_turn12", offer.name()),
    }
}

/// What a coefficient weighs, in words.
pub fn coefficient_what(i: usize) -> String {
    let (offer, j) = coefficient_of(i);
    let facts = offer.facts();
    let fact = |name: &str| match name {
        "threat" => "another seat is in riichi",
        "advances" => "the call brings the hand closer to tenpai",
        "yaku" => "a yaku stays in sight",
        "open" => "the hand is already open",
        "value" => "the tile is a value honor",
        "good_wait" => "the wait is on two kinds or more",
        "dealer" => "the seat is the dealer",
        "in_riichi" => "the seat is in riichi",
        "not_needed" => "the hand does not need the four tiles",
        _ => "the fact holds",
    };
    match j {
        0 => format!("the log-odds of taking {} where offered", offer.name()),
        _ if j <= facts.len() => format!("what it adds to the odds of {} that {}", offer.name(), fact(facts[j - 1].0)),
        _ if j == facts.len() + 1 => format!("what turns 7-11 add to the odds of {} (against 1-6)", offer.name()),
        _ => format!("what turn 12 on adds to the odds of {} (against 1-6)", offer.name()),
    }
}

/// The probability of taking an option of situation `s` under coefficients `w`.
pub fn take_probability(w: &[f64], s: &Situation) -> f64 {
    1.0 / (1.0 + (-features(s).map(|i| w[i]).sum::<f64>()).exp())
}

/// The log-likelihood of `counts` under `w`, its gradient and its information.
fn curvature(counts: &[(Situation, Count)], w: &[f64]) -> Curvature {
    let n = COEFFICIENTS;
    let mut c = Curvature { value: 0.0, gradient: vec![0.0; n], information: vec![0.0; n * n] };
    for (s, count) in counts {
        let p = take_probability(w, s).clamp(1e-12, 1.0 - 1e-12);
        let (k, offered) = (count.taken as f64, count.offered as f64);
        c.value += k * p.ln() + (offered - k) * (1.0 - p).ln();
        let f: Vec<usize> = features(s).collect();
        for &i in &f {
            c.gradient[i] += k - offered * p;
            for &j in &f {
                c.information[i * n + j] += offered * p * (1.0 - p);
            }
        }
    }
    c
}

/// The log-likelihood of `c`'s takes among its offers at a take probability `p` (kept off 0 and 1).
fn binomial(p: f64, c: &Count) -> f64 {
    let (p, k) = (p.clamp(1e-6, 1.0 - 1e-6), c.taken as f64);
    k * p.ln() + (c.offered as f64 - k) * (1.0 - p).ln()
}

/// Precision of the weak prior everyone's coefficients get (a kind never offered keeps even odds).
const EVERYONE_PRECISION: f64 = 1.0;

/// Everyone's coefficients, the players' spread around them (the prior's deviations) and each player's, with
/// their posterior deviations.
#[derive(Clone, Debug, Default)]
pub struct ChoiceModel {
    pub everyone: Vec<f64>,
    pub spread: Vec<f64>,
    pub players: HashMap<String, Posterior>,
}

impl ChoiceModel {
    /// Everyone's coefficients from `all` (every player's counts summed), then each player's from their own.
    pub fn fit<'a>(
        all: &ChoiceCounts,
        players: impl IntoParallelIterator<Item = (&'a str, &'a ChoiceCounts)>,
    ) -> ChoiceModel {
        // in the situations' order, so that the sums (and the coefficients) are the same in every process
        let sorted = |c: &ChoiceCounts| {
            let mut v: Vec<(Situation, Count)> = c.0.iter().map(|(s, n)| (*s, *n)).collect();
            v.sort_by_key(|x| x.0);
            v
        };
        let all = sorted(all);
        let (zero, weak) = ([0.0; COEFFICIENTS], [EVERYONE_PRECISION; COEFFICIENTS]);
        let everyone = most_probable(&zero, &weak, &zero, |w| curvature(&all, w)).mean;
        let players: Vec<(&str, Vec<(Situation, Count)>)> =
            players.into_par_iter().map(|(p, counts)| (p, sorted(counts))).collect();
        let (spread, fits) = fit_players(&everyone, PRIOR_SD, &players, |(_, counts), w| curvature(counts, w));
        let players = players.iter().zip(fits).map(|((p, _), f)| (p.to_string(), f)).collect();
        ChoiceModel { everyone, spread, players }
    }

    /// A player's coefficients: their own, or everyone's.
    pub fn of(&self, player: &str) -> &[f64] {
        self.players.get(player).map_or(&self.everyone, |p| &p.mean)
    }

    /// The player's coefficients, the furthest from everyone's first (in posterior deviations), or none for a
    /// player the model has no coefficients of.
    pub fn distinctive(&self, player: &str) -> Vec<Distinct> {
        let Some(own) = self.players.get(player) else { return Vec::new() };
        distinct_from(&own.mean, &own.sd, &self.everyone, &self.spread, coefficient_name, coefficient_what)
    }

    /// The log-likelihood of the choices `seen` under a player's coefficients.
    pub fn log_likelihood(&self, player: &str, seen: &ChoiceCounts) -> f64 {
        let w = self.of(player);
        // in the situations' order, so that the sum is the same in every process (a hash map's order differs):
        // `style identify` and the Python module's agree to the bit
        let mut situations: Vec<(&Situation, &Count)> = seen.0.iter().collect();
        situations.sort_unstable_by_key(|(s, _)| **s);
        situations.into_iter().map(|(s, c)| binomial(take_probability(w, s), c)).sum()
    }
}

impl ChoiceModel {
    /// Each player's coefficients against everyone's on the player's unseen choices (`tested`: a player and the
    /// choices of each unseen game), judged over the players with `min_test_games` games or more: a model names
    /// a decision rightly where it finds the option taken (or passed) the more probable. `profile_offers` gives
    /// the offers a player's coefficients were fitted on.
    pub fn personal_gains<'a>(
        &self,
        tested: impl IntoIterator<Item = (&'a str, Vec<&'a ChoiceCounts>)>,
        profile_offers: impl Fn(&str) -> u64,
        min_test_games: usize,
    ) -> PersonalGains {
        let players = tested
            .into_iter()
            .filter_map(|(p, games)| {
                let own = &self.players.get(p)?.mean;
                let mut paired = Paired::default();
                let mut log_likelihood_gain = 0.0;
                // each game's situations in order, so that the sums are the same in every process (a hash
                // map's order differs)
                let mut situations: Vec<(&Situation, &Count)> = games.iter().flat_map(|g| &g.0).collect();
                situations.sort_unstable_by_key(|(s, c)| (**s, c.offered, c.taken));
                for (s, c) in situations {
                    let (mine, all) = (take_probability(own, s), take_probability(&self.everyone, s));
                    let (taken, passed) = (c.taken as usize, (c.offered - c.taken) as usize);
                    paired.count_n(mine > 0.5, all > 0.5, taken);
                    paired.count_n(mine <= 0.5, all <= 0.5, passed);
                    log_likelihood_gain += binomial(mine, c) - binomial(all, c);
                }
                (paired.decisions > 0).then(|| {
                    let per = log_likelihood_gain / paired.decisions as f64;
                    paired.gain(p, profile_offers(p), games.len(), per)
                })
            })
            .collect();
        PersonalGains::judge(players, min_test_games)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::choice::{ADVANCES, THREAT, YAKU};

    fn situation(offer: Offer, context: u8) -> Situation {
        Situation { offer, context }
    }

    #[test]
    fn every_coefficient_belongs_to_one_kind() {
        assert_eq!(COEFFICIENTS, STARTS[Offer::ALL.len()]);
        let names: std::collections::BTreeSet<String> = (0..COEFFICIENTS).map(coefficient_name).collect();
        assert_eq!(names.len(), COEFFICIENTS);
        for n in ["chi", "chi_threat", "pon_value", "riichi_good_wait", "riichi_turn7_11", "riichi_turn12", "ron"] {
            assert!(names.contains(n), "{n}");
        }
        // the riichi turns have coefficients of their own, after riichi's facts
        let late = situation(Offer::Riichi, 2 << TURN_SHIFT);
        let start = STARTS[Offer::ALL.iter().position(|&o| o == Offer::Riichi).unwrap()];
        assert_eq!(features(&late).collect::<Vec<_>>(), vec![start, start + 1 + Offer::Riichi.facts().len() + 1]);
        let chi = situation(Offer::Chi, THREAT | YAKU);
        assert_eq!(features(&chi).collect::<Vec<_>>(), vec![0, 1, 3]);
    }

    /// Counts drawn from known odds (a chi taken more often where it advances the hand, less under threat) are
    /// fitted back to them; a player who calls far more than everyone moves from everyone's only as far as the
    /// counts say, and names its own unseen choices better than everyone's coefficients do.
    #[test]
    fn fitting_recovers_the_odds_counts_were_made_from() {
        let truth = |base: f64| {
            move |ctx: u8| base + if ctx & ADVANCES != 0 { 1.5 } else { 0.0 } - f64::from(ctx & THREAT) * 1.0
        };
        let counts = |odds: &dyn Fn(u8) -> f64, n: u64| {
            let mut c = ChoiceCounts::default();
            for ctx in [0, THREAT, ADVANCES, THREAT | ADVANCES] {
                let p = 1.0 / (1.0 + (-odds(ctx)).exp());
                c.0.insert(situation(Offer::Chi, ctx), Count { offered: n, taken: (p * n as f64).round() as u64 });
            }
            c
        };
        let (everyone, caller) = (counts(&truth(-1.0), 20_000), counts(&truth(0.5), 400));
        let mut all = everyone.clone();
        all.add(&caller);
        let usual = counts(&truth(-1.0), 400);
        let few = counts(&truth(0.5), 2);
        let model = ChoiceModel::fit(&all, vec![("caller", &caller), ("few", &few), ("usual", &usual)]);
        let e = &model.everyone;
        assert!((e[0] - -1.0).abs() < 0.1 && (e[2] - 1.5).abs() < 0.1 && (e[1] - -1.0).abs() < 0.1, "{e:?}");
        let c = model.of("caller");
        assert!((c[0] - 0.5).abs() < 0.3, "{c:?}");
        // the caller's furthest coefficient from everyone's is chi's own, inside its interval
        let d = &model.distinctive("caller")[0];
        assert_eq!(d.name, "chi");
        assert!(d.z > 5.0 && d.interval.0 < d.coefficient && d.coefficient < d.interval.1, "{d:?}");
        assert!(model.distinctive("nobody").is_empty());
        // two offers a situation keep a player nearer everyone's than the truth (1.5 away)
        assert!((model.of("few")[0] - e[0]).abs() < 0.5, "{:?}", model.of("few"));
        let unseen = counts(&truth(0.5), 100);
        assert!(model.log_likelihood("caller", &unseen) > model.log_likelihood("nobody", &unseen) + 10.0);
        // as a personal model: the caller's own odds name its unseen calls better (where everyone's would pass
        // and it calls: no threat, or a call that advances under threat); a player of everyone's odds gains nothing
        let usual_unseen = counts(&truth(-1.0), 100);
        let tested = [("caller", vec![&unseen; 8]), ("usual", vec![&usual_unseen; 8]), ("nobody", vec![&unseen; 8])];
        let gains = model.personal_gains(tested, |_| 1600, 8);
        // nobody has no coefficients of its own: not listed
        let (caller, usual) = (&gains.players[0], &gains.players[1]);
        assert_eq!((caller.player.as_str(), caller.test_choices, caller.profile_choices), ("caller", 3200, 1600));
        assert!(caller.gain_points > 10.0 && caller.log_likelihood_gain > 0.05, "{caller:?}");
        assert!(usual.gain_points.abs() < 1e-9 && usual.log_likelihood_gain.abs() < 0.01, "{usual:?}");
        assert_eq!((gains.judged.players, gains.judged.better), (2, 1));
        // the same counts in maps of other orders (more buckets: another walk) sum to the same bits, terms of
        // every size among them (a float sum's last bits depend on its order)
        let mut uneven = ChoiceCounts::default();
        for (ctx, n) in (0u8..32).zip((0..).map(|i: i32| 10u64.pow((i % 8) as u32))) {
            uneven.0.insert(situation(Offer::Chi, ctx), Count { offered: n, taken: n / 3 });
        }
        let walks: Vec<ChoiceCounts> = (0..8)
            .map(|i| {
                let mut wide = ChoiceCounts(HashMap::with_capacity(32 << i));
                wide.add(&uneven);
                wide
            })
            .collect();
        let sums: Vec<u64> = walks
            .iter()
            .map(|w| {
                model.personal_gains([("caller", vec![w; 8])], |_| 1600, 8).players[0].log_likelihood_gain.to_bits()
            })
            .collect();
        assert!(sums.iter().all(|&b| b == sums[0]), "{sums:?}");
    }
}
