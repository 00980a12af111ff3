//! A hand-made population whose players differ in one known respect (which of two held tiles goes first) is told
//! apart by the habits, where the profile's rates (identical by construction) cannot tell them apart; the plain
//! baseline's features of the same games, computed by hand.

use haifu_ingest::extract::{Outcome, TileSource};
use haifu_rules::hand::HandNotation;
use haifu_rules::{Counts, Tile};
use haifu_style::baseline;
use haifu_style::discards::{self, DiscardModel, Discards};
use haifu_style::habits::{self, habit_name, HabitCounts};
use haifu_style::played::{DecisionRow, DecisionTiles, Played, RoundOutcome};
use haifu_style::tally;

fn counts(s: &str) -> Counts {
    s.parse::<HandNotation>().unwrap().counts
}

/// A one-round game in which seat 0 (`name`) discards, at turns 1 and 2, from a hand holding the white dragon
/// and 1m among middle tiles (and a 9s that stays): `dragon_first` decides which of the two goes at turn 1. The other seats discard
/// nothing.
fn game(id: i64, name: &str, dragon_first: bool) -> Played {
    let (first, second) = if dragon_first {
        (Tile::from_id(4 * 31), Tile::from_id(0))
    } else {
        (Tile::from_id(0), Tile::from_id(4 * 31))
    };
    let second_hand = if dragon_first { "1456m456p2344569s" } else { "456m456p2344569s5z" };
    let row = |turn: u8, hand: &str, discard: Tile, event_index: u32| DecisionRow {
        event_index,
        round: 0,
        seat: 0,
        turn,
        source: TileSource::Draw,
        tsumogiri: false,
        riichi: false,
        in_riichi: false,
        keys: [(0, 0); 3],
        tiles: Some(Box::new(DecisionTiles {
            hand: counts(hand),
            before: counts(hand),
            discard,
            // a 5p drawn: neither choice is the tile just drawn
            source_tile: Tile::from_id(4 * 13),
            indicators: 0,
            shanten_before: 1,
            shanten_after: 1,
            tiles_left: 60,
            melds: false,
        })),
    };
    Played {
        game_id: id,
        log_id: None,
        n_players: 4,
        names: vec![name.to_string(), "x1".into(), "x2".into(), "x3".into()],
        game_type: None,
        rounds: vec![RoundOutcome { kyoku: 0, honba: 0, outcomes: vec![Outcome::Bystander; 4], wins: Vec::new() }],
        decisions: vec![row(1, "1456m456p234569s5z", first, 10), row(2, second_hand, second, 20)],
    }
}

fn habits_of(games: &[Played]) -> HabitCounts {
    let mut h = HabitCounts::default();
    for g in games {
        h.add(&habits::of_game(g)[0]);
    }
    h
}

#[test]
fn the_player_who_throws_the_dragon_first_is_told_apart_by_that_habit() {
    let a: Vec<Played> = (0..20).map(|i| game(i, "a", true)).collect();
    let b: Vec<Played> = (20..40).map(|i| game(i, "b", false)).collect();
    let (ha, hb) = (habits_of(&a), habits_of(&b));
    let mut all = ha.clone();
    all.add(&hb);

    // the one difference: the dragon's share at turn 1 (every hand there held a dragon and a terminal)
    let dragon_t1 = (0..habits::HABITS).find(|&i| habit_name(i) == "discard_dragon_t1").unwrap();
    assert_eq!((ha.0[dragon_t1].offered, ha.0[dragon_t1].taken), (20, 20));
    assert_eq!((hb.0[dragon_t1].offered, hb.0[dragon_t1].taken), (20, 0));
    let top = &habits::distinctive(&ha, &all)[0];
    assert!(top.name.ends_with("_t1") && top.z.abs() > 4.0, "{top:?}");

    // an unseen game of each is more likely under its own player's shares
    for (seen, own, other) in [(game(100, "a", true), &ha, &hb), (game(101, "b", false), &hb, &ha)] {
        let h = &habits::of_game(&seen)[0];
        let (mine, theirs) = (habits::log_likelihood(Some(own), &all, h), habits::log_likelihood(Some(other), &all, h));
        assert!(mine > theirs + 1.0, "{mine} against {theirs}");
    }

    // the profile's rates are the same for both: they cannot tell them apart
    let ta = tally::of_game(&a[0])[0];
    let tb = tally::of_game(&b[0])[0];
    assert_eq!(ta, tb);
}

/// The same population through the discard model: the one coefficient that separates them is the dragon's at
/// turn 1 (the 1m is a terminal: its coefficient moves the other way), and an unseen game is likelier under its
/// own player's coefficients.
#[test]
fn the_discard_model_tells_the_two_apart_by_the_dragon_at_turn_1() {
    let a: Vec<Played> = (0..20).map(|i| game(i, "a", true)).collect();
    let b: Vec<Played> = (20..40).map(|i| game(i, "b", false)).collect();
    let seat0 = |games: &[Played]| {
        let mut d = Discards::default();
        for g in games {
            d.add(&discards::of_game(g)[0]);
        }
        d
    };
    let (da, db) = (seat0(&a), seat0(&b));
    // two choices a game: turn 1 (dragon or 1m among the others) and turn 2
    assert_eq!((da.len(), db.len()), (40, 40));
    let model = DiscardModel::fit(&[&da, &db], &[("a", vec![&da]), ("b", vec![&db])]);
    let everyone = model.everyone.as_ref().unwrap();
    let dragon = (0..discards::FEATURES).find(|&i| discards::feature_name(i) == "dragon_t1").unwrap();
    let (ca, cb) = (model.players["a"].coefficients.0[dragon], model.players["b"].coefficients.0[dragon]);
    assert!(ca > everyone.coefficients.0[dragon] + 0.3 && cb < everyone.coefficients.0[dragon] - 0.3, "{ca} {cb}");
    let ranked = discards::distinctive(&model.players["a"], everyone);
    let at = ranked.iter().position(|d| d.name == "dragon_t1").unwrap();
    assert!(at < 3 && ranked[at].z > 1.0, "{ranked:?}");
    for (seen, own, other) in [(game(100, "a", true), "a", "b"), (game(101, "b", false), "b", "a")] {
        let d = &discards::of_game(&seen)[0];
        let (mine, theirs) = (d.log_likelihood(model.of(own).unwrap()), d.log_likelihood(model.of(other).unwrap()));
        assert!(mine > theirs + 1.0, "{mine} against {theirs}");
    }
}

#[test]
fn baseline_features_of_a_hand_made_game() {
    let f = baseline::of_game(&game(1, "a", true))[0];
    let at = |name: &str| f[baseline::FEATURES.iter().position(|&n| n == name).unwrap()];
    // turn 1 the dragon, turn 2 the 1m: both early, one honor and one terminal
    assert_eq!(at("first_honor"), 1.0);
    assert_eq!(at("first_dragon"), 1.0);
    assert_eq!(at("early_honor"), 0.5);
    assert_eq!(at("early_term"), 0.5);
    assert_eq!(at("dragon_share"), 0.5);
    assert_eq!(at("tsumogiri"), 0.0);
    assert_eq!(at("mean_turn"), 1.5);
    assert_eq!(at("mean_shanten"), 1.0);
    assert_eq!(at("called_share"), 0.0);
    // no riichi: no riichi turn; one round, no win
    assert!(at("riichi_turn").is_nan());
    assert_eq!(at("win"), 0.0);
    let f = baseline::of_game(&game(2, "b", false))[0];
    let at = |name: &str| f[baseline::FEATURES.iter().position(|&n| n == name).unwrap()];
    assert_eq!(at("first_honor"), 0.0);
    assert_eq!(at("early_honor"), 0.5);
}
