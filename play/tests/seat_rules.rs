//! The engine and the mjai bot keep a seat's rule bookkeeping (waits, furiten, kuikae) by the same update
//! (`haifu_record::legal::SeatRules`): one scripted round, replayed by the engine (`haifu verify`'s replay) and
//! followed from the seat by the bot (`Follower`, from the round's mjai lines), shows the same bookkeeping at
//! every draw.
//!
//! The round: seat 1 is tenpai for thirteen orphans on 1m and declares riichi; seat 2 holds all four 1m and
//! makes a closed kan of them, which only thirteen orphans may rob. Seat 1 lets it go by: in riichi, that is
//! furiten for the rest of the round.

use haifu_play::follow::Follower;
use haifu_record::event::Event;
use haifu_record::legal::SeatRules;
use haifu_record::mjai::message::Message;
use haifu_record::mjai::write::to_mjai;
use haifu_sim::verify::{verify_game_watched, Category};
use haifu_testkit::GameBuilder;

const SEAT: u8 = 1;

fn riichi_then_a_robbable_closed_kan() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    // noten hands for seats 0, 2 and 3 (seat 2 with the four 1m); seat 1 waits on 1m alone
    g.deal(["234m567m345p68p2s9s", "9m19p19s12345677z", "1111m235p567s889s", "2358m234s567s345p"]);
    g.draw(0, "8m").discard(0, "8m");
    g.draw(1, "8p").riichi(1, "8p");
    g.draw(2, "9s").ankan(2, "1m").draw(2, "6m").discard(2, "6m");
    g.exhaust_wall().exhaustive(&[1]).finish();
    g
}

/// The seat's bookkeeping after each draw (every seat's, replacement draws included), as the engine keeps it.
fn engine_at_draws(g: &GameBuilder) -> Vec<SeatRules> {
    let mut seen = Vec::new();
    let report = verify_game_watched("scripted", &g.record(), &mut |e, engine| {
        if matches!(e, Event::Draw { .. }) {
            seen.push(engine.seat_rules(SEAT).clone());
        }
    });
    // one round, then owari: the engine would deal another round, the rest must agree
    let in_round: Vec<_> = report.mismatches.iter().filter(|m| m.category != Category::GameEnd).collect();
    assert!(in_round.is_empty(), "{in_round:#?}");
    seen
}

/// The same, as the bot following the seat keeps it from the mjai lines.
fn bot_at_draws(g: &GameBuilder) -> Vec<SeatRules> {
    let mut f = Follower::new(SEAT);
    let mut seen = Vec::new();
    for line in to_mjai(&g.record()).expect("mjai lines").lines() {
        let msg: Message = serde_json::from_str(line).expect("a message");
        f.take(&msg).unwrap_or_else(|e| panic!("{line}: {e}"));
        if matches!(msg, Message::Tsumo(_)) {
            seen.push(f.extras().clone());
        }
    }
    seen
}

#[test]
fn engine_and_bot_keep_the_same_waits_and_furiten_through_a_riichi() {
    let g = riichi_then_a_robbable_closed_kan();
    let (engine, bot) = (engine_at_draws(&g), bot_at_draws(&g));
    assert_eq!(engine.len(), bot.len(), "one snapshot per draw");
    assert!(engine.len() > 60, "the whole round: {} draws", engine.len());
    for (k, (e, b)) in engine.iter().zip(&bot).enumerate() {
        assert_eq!(e, b, "draw {k}: engine {e:?}, bot {b:?}");
    }
    // the 1m wait, and the riichi furiten once the closed kan went by
    let one_man = 1u64;
    assert!(engine.iter().skip(2).all(|r| r.waits & one_man != 0));
    assert!(engine.last().is_some_and(|r| r.riichi_furiten), "{:?}", engine.last());
}
