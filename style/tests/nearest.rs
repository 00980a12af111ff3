//! The nearest players by the discard model: in a population of self-play bots of three styles, two players of
//! each (the same style, other seeds), each player's nearest is the other of its style.

use haifu_sim::bot::{self_play, Bot};
use haifu_sim::style::{Style, StyleBot};
use haifu_style::discards::DiscardModel;
use haifu_style::played::Played;

const STYLES: [&str; 3] = ["honors", "tanyao", "chanta"];

/// Player `i` (0-5): the style `i / 2`, seed `i`.
fn name(i: usize) -> String {
    format!("{}-{}", STYLES[i / 2], i % 2)
}

#[test]
fn each_player_is_nearest_the_other_of_its_style() {
    let mut games = Vec::new();
    for g in 0..36u64 {
        // four of the six at each table, in turn
        let seated: Vec<usize> = (0..4).map(|s| (g as usize + s * 5) % 6).collect();
        let mut bots: Vec<StyleBot> =
            seated.iter().map(|&i| StyleBot::new(Style::preset(STYLES[i / 2]).unwrap(), g * 8 + i as u64)).collect();
        let mut refs: Vec<&mut dyn Bot> = bots.iter_mut().map(|b| b as &mut dyn Bot).collect();
        let record = self_play(169, 1000 + g, &mut refs).unwrap();
        let mut played = Played::of_replay(g as i64, &haifu_ingest::extract(&record).unwrap());
        played.names = seated.iter().map(|&i| name(i)).collect();
        games.push(played);
    }
    let players: Vec<String> = (0..6).map(name).collect();
    let model = DiscardModel::of_games(&games, &players);
    for (i, p) in players.iter().enumerate() {
        let near = model.nearest(p).unwrap();
        assert_eq!(near.len(), 5);
        assert!(near.windows(2).all(|w| w[0].1 >= w[1].1) && near.iter().all(|n| n.1.abs() <= 1.0 + 1e-12));
        assert_eq!(near[0].0, name(i ^ 1), "{p}: {near:?}");
        // the cosine is symmetric
        let back = model.nearest(near[0].0).unwrap();
        let c = back.iter().find(|(q, _)| q == p).unwrap().1;
        assert!((c - near[0].1).abs() < 1e-12);
    }
    assert!(model.nearest("nobody").is_none());
}
