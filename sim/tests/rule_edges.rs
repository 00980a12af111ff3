//! Four Tenhou rule edges that the shared corpus never shows, each on a log the project writes itself
//! (`haifu_testkit::GameBuilder`) as Tenhou's records show it. The log must replay through the engine
//! (`haifu verify`) with no mismatch, so the engine has to pay, name and write each case as Tenhou did.
//!
//! 1. Tenpai at the exhaustive draw counts the concealed hand only: waits held in the seat's own melds are
//!    tenpai (shown and paid); a wait held four times in the concealed hand is noten.
//! 2. Pao when the responsible seat deals in: a plain ron, no `paoWho`.
//! 3. Pao on a third seat's ron: the responsible seat pays half of the hand and all the honba.
//! 4. AGARI `yaku` and `yakuman` in Tenhou's order (riichi before menzen tsumo; daisuushii before tsuuiisou).

use haifu_sim::verify::{verify_game, VerifyReport};
use haifu_testkit::scenes::{self, IDLE};
use haifu_testkit::{GameBuilder, Win};

fn verify(g: &GameBuilder) -> VerifyReport {
    verify_game("scripted", &g.record())
}

fn assert_clean(g: &GameBuilder) {
    let r = verify(g);
    assert!(r.mismatches.is_empty(), "{:#?}", r.mismatches);
}

/// Two rounds drawn with every hand noten: East 3 (dealer seat 2) starts with 2 honba.
fn two_draws() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    for _ in 0..2 {
        g.deal([IDLE; 4]).exhaust_wall().exhaustive(&[]);
    }
    g
}

// the validating replay's side of the same rule: ingest/tests/spec_cases.rs
#[test]
fn waits_held_in_own_melds_are_tenpai_at_the_draw() {
    for g in scenes::tenpai_on_own_meld_copies() {
        assert_clean(&g);
    }
}

#[test]
fn a_wait_held_four_times_in_the_hand_is_noten_at_the_draw() {
    assert_clean(&scenes::wait_held_four_times(false));
    // shown as tenpai, the log contradicts the rule
    assert!(!verify(&scenes::wait_held_four_times(true)).mismatches.is_empty());
}

/// East 3, 2 honba, dealer seat 2: seat 0 pons haku (from seat 2), hatsu (seat 3) and chun (seat 1, who is
/// then responsible for the daisangen) and waits on 1m-4m with 23m 44p.
fn daisangen_fed_by_seat_1() -> GameBuilder {
    let mut g = two_draws();
    g.deal(["55z66z77z23m44p129s", "999p111p33p888s2z4s", IDLE, "666s777s88m222z9s4s"]);
    g.draw(2, "5z").discard(2, "5z").pon(0).discard(0, "9s");
    g.draw(1, "4z").discard(1, "4z");
    g.draw(2, "4z").discard(2, "4z");
    g.draw(3, "6z").discard(3, "6z").pon(0).discard(0, "1s");
    g.draw(1, "7z").discard(1, "7z").pon(0).discard(0, "2s");
    g
}

#[test]
fn pao_seat_dealing_in_pays_a_plain_ron() {
    let mut g = daisangen_fed_by_seat_1();
    g.draw(1, "4m").discard(1, "4m");
    g.ron(1, &[(0, Win::new(32000).fu(40).yakuman(&[39]))]).finish(); // seat 1 falls below zero
    let end = g.events().last().and_then(|e| e.as_tag("AGARI")).expect("the win").clone();
    assert_eq!(end.get("paoWho"), None);
    // 32,000 and the 600 of the two honba, all from seat 1
    assert!(end.get("sc").is_some_and(|sc| sc.starts_with("250,326,250,-326,")), "{end:?}");
    assert_clean(&g);
}

#[test]
fn pao_on_a_third_seats_ron_pays_half_and_the_honba() {
    let mut g = daisangen_fed_by_seat_1();
    g.draw(1, "1z").discard(1, "1z");
    g.draw(2, "1z").discard(2, "1z");
    g.draw(3, "4m").discard(3, "4m");
    g.ron(3, &[(0, Win::new(32000).fu(40).yakuman(&[39]).pao(1))]);
    let end = g.events().last().and_then(|e| e.as_tag("AGARI")).expect("the win").clone();
    // Tenhou: the responsible seat 1 pays 16,000 + 600, the discarder 16,000
    assert_eq!(end.get("sc"), Some("250,326,250,-166,250,0,250,-160"));
    assert_clean(&g);
}

#[test]
fn yaku_and_yakuman_are_written_in_tenhous_order() {
    // riichi, ippatsu, then menzen tsumo, pinfu, ura: "1,1,2,1,0,1,7,1,53,0"
    let mut g = GameBuilder::new(169);
    g.deal_with_dora(["123m456m789m12p8s1z", "123m456m789s45p55s", "13579m1379p13s22z", "2468m2468p2468s3z"], "6z");
    g.draw(0, "4z").discard(0, "4z");
    g.draw(1, "5z").discard(1, "5z");
    g.draw(2, "7z").discard(2, "7z");
    g.draw(3, "7z").discard(3, "7z");
    g.draw(0, "6z").discard(0, "6z");
    g.draw(1, "1z").riichi(1, "1z");
    g.draw(2, "4z").discard(2, "4z");
    g.draw(3, "5z").discard(3, "5z");
    g.draw(0, "2z").discard(0, "2z");
    g.draw(1, "3p").tsumo(1, Win::new(5200).fu(20).yaku(&[(1, 1), (2, 1), (0, 1), (7, 1), (53, 0)]));
    assert_clean(&g);

    // daisuushii before tsuuiisou: seat 1 pons three winds and rons the fourth on a shanpon with haku
    let mut g = GameBuilder::new(169);
    g.deal([IDLE, "11z22z33z44z55z129s", "2468m2468p2468s6z", "999p111p33p888s7z4s"]);
    g.draw(0, "1z").discard(0, "1z").pon(1).discard(1, "9s");
    g.draw(2, "2z").discard(2, "2z").pon(1).discard(1, "1s");
    g.draw(2, "3z").discard(2, "3z").pon(1).discard(1, "2s");
    g.draw(2, "6z").discard(2, "6z");
    g.draw(3, "4z").discard(3, "4z");
    g.ron(3, &[(1, Win::new(64000).fu(40).yakuman(&[49, 42]))]).finish(); // seat 3 falls below zero
    assert_clean(&g);
}
