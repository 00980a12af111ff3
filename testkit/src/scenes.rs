//! Named games for rule tests that more than one crate checks (the engine in `sim`, the validating replay in
//! `ingest`): each as Tenhou's records show the situation.

use crate::GameBuilder;

/// A hand far from ready that draws and discards what the wall gives; no five and no honor, and each kind
/// once, so four seats can hold it.
pub const IDLE: &str = "12379m1379p1379s";

/// Exhaustive draws where seat 0 waits only on copies held in its own melds, shown and paid as tenpai (Tenhou):
/// 678m 5p 678s beside pon 555p and chi 678p (the single wait is the fourth 5p), and 2s 4s 678s 99s beside
/// pon 333s and chi 123s (all four 3s are its own).
pub fn tenpai_on_own_meld_copies() -> [GameBuilder; 2] {
    let mut a = GameBuilder::new(169);
    a.deal(["678m5p678s78p55p12z", "0p111m999m222s557z", "444m666m333s44s67z", "6p222m888m999s134z"]);
    a.draw(0, "1p").discard(0, "1p");
    a.draw(1, "2p").discard(1, "0p").pon(0).discard(0, "1z");
    a.draw(1, "3p").discard(1, "3p");
    a.draw(2, "4p").discard(2, "4p");
    a.draw(3, "9p").discard(3, "6p").chi(0, "7p", "8p").discard(0, "2z");
    a.exhaust_wall().exhaustive(&[0]);

    let mut b = GameBuilder::new(169);
    b.deal(["24678s99s33s12s12z", "3s111m999m229p557z", "444m666m555s44p67z", "3s222m888m666p9p14z"]);
    b.draw(0, "1p").discard(0, "1p");
    b.draw(1, "2p").discard(1, "3s").pon(0).discard(0, "1z");
    b.draw(1, "3p").discard(1, "3p");
    b.draw(2, "4p").discard(2, "4p");
    b.draw(3, "5p").discard(3, "3s").chi(0, "1s", "2s").discard(0, "2z");
    b.exhaust_wall().exhaustive(&[0]);
    [a, b]
}

/// An exhaustive draw where seat 0's only wait is a fifth 1z (it holds four): noten on Tenhou. With
/// `shown_tenpai` the log shows the hand as tenpai anyway, which contradicts the rule.
pub fn wait_held_four_times(shown_tenpai: bool) -> GameBuilder {
    let mut g = GameBuilder::new(169);
    g.deal(["1111z123m456p789s", IDLE, IDLE, IDLE]);
    g.exhaust_wall().exhaustive(if shown_tenpai { &[0] } else { &[] });
    g
}
