//! Named games for rule tests that more than one crate checks (the engine in `sim`, the validating replay in
//! `ingest`): each as Tenhou's records show the situation.

use crate::{GameBuilder, Win};
use haifu_record::tags::DrawKind;

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

/// Every shared SPEC 1.2 case below, by name: what each reader and writer test plays, beside cases of its own.
pub fn shared_cases() -> Vec<(&'static str, GameBuilder)> {
    vec![
        ("red_fives", red_fives()),
        ("no_red", no_red()),
        ("open_melds", open_melds()),
        ("closed_and_open_kan", closed_and_open_kan()),
        ("chankan", chankan()),
        ("riichi", riichi()),
        ("double_ron", double_ron()),
        ("reach4", reach4()),
        ("ron3", ron3()),
        ("kan4", kan4()),
        ("kaze4", kaze4()),
        ("nagashi", nagashi()),
        ("exhaustive", exhaustive()),
        ("pao", pao()),
        ("three_player", three_player()),
        ("east_only", east_only()),
        ("hanchan", hanchan()),
        ("truncated", truncated()),
    ]
}

// The SPEC 1.2 cases every reader and writer test plays (ingest's spec cases, the mjai and tenhou.net/6 round
// trips): one script each, shared.

/// A kakan robbed by a ron (chankan): no dora is turned for it.
pub fn chankan() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    g.deal(["33s23m456p789p112z", "12s234m567m678s55z", "3s111999m111p244z", "666777m888p69s67z"]);
    g.draw_tsumogiri(0, "9s");
    g.draw_tsumogiri(1, "9m");
    g.draw(2, "1z").discard(2, "3s");
    g.pon(0).discard(0, "2z");
    g.draw_tsumogiri(1, "8s");
    g.draw_tsumogiri(2, "8s");
    g.draw_tsumogiri(3, "8s");
    g.draw(0, "3s").kakan(0, "3s");
    // seat 1 waits on 3s with 1s-2s: chankan alone, 40 fu (20, 10 closed ron, 2 edge wait, 2 haku pair)
    g.ron(0, &[(1, Win::new(1300).fu(40).yaku(&[(3, 1)]))]);
    g.finish();
    g
}

/// A closed kan (dora before the replacement draw) then an open kan on a red five (dora after it).
pub fn closed_and_open_kan() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    g.deal(["111m234p567889s1z", "456m555p123s1477z", "999m999p999s2233z", "222333m666777p5z"]);
    g.draw(0, "1m").ankan(0, "1m").draw(0, "8m").discard(0, "1z");
    go_around(&mut g, 1, &["6z", "7z", "5z"]);
    g.draw(0, "0p").discard(0, "0p");
    g.daiminkan(1).draw(1, "4s").tsumogiri(1);
    g.exhaust_wall().exhaustive(&[]).finish();
    g
}

/// Nine terminals (yao9) in East 1, then a double ron with a riichi stick and one honba on the table.
pub fn double_ron() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    g.deal(["19m19p19s1234567z", "222m333p444s5556z", "333m444p555s1777z", "444m555p666s2223z"]);
    g.draw(0, "5m").abort(DrawKind::Yao9, &[0]);
    g.deal(["147m258p369s1234z", "11122244488s22z", "123456789m5566z", "123456789p5777z"]);
    g.draw_tsumogiri(0, "3m");
    g.draw_tsumogiri(1, "9s");
    g.draw_tsumogiri(2, "9p");
    g.draw(3, "1s").riichi(3, "1s");
    g.draw_tsumogiri(0, "6m");
    g.draw(1, "5z").discard(1, "5z");
    // given in reverse: the builder writes seat 2 first (next after the discarder), as Tenhou does. Seat 3:
    // double riichi (its first discard), ippatsu, straight, chun, half flush: baiman; seat 2: straight, haku,
    // half flush: haneman
    let seat3 = Win::new(16000).fu(50).yaku(&[(21, 2), (2, 1), (24, 2), (20, 1), (34, 3), (53, 0)]);
    g.ron(1, &[(3, seat3), (2, Win::new(12000).fu(40).yaku(&[(24, 2), (18, 1), (34, 3)]))]);
    g.finish();
    g
}

/// East-only (225): four rounds, each won by the seat after the dealer, so the deal passes every time.
pub fn east_only() -> GameBuilder {
    let mut g = GameBuilder::new(225);
    for k in 0..4u8 {
        quick_round(&mut g, k, (k + 1) % 4);
    }
    g.finish();
    g
}

/// An exhaustive draw with seat 1 tenpai (noten payments), then a second round (kyoku 1, honba 1).
pub fn exhaustive() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    g.deal(["147m258p369s1234z", "123m456p789s1112z", "258m369p147s5566z", "369m147p258s5677z"]);
    g.exhaust_wall();
    g.exhaustive(&[1]);
    g.deal(["147m258p369s1234z", "123m456p789s1112z", "258m369p147s5566z", "369m147p258s5677z"]);
    // the new dealer wins on its first draw: a heavenly hand (tenhou)
    g.draw(1, "2z").tsumo(1, Win::new(48000).yakuman(&[37]));
    g.finish();
    g
}

/// Hanchan (169): eight rounds, East 1 to South 4.
pub fn hanchan() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    for k in 0..8u8 {
        quick_round(&mut g, k % 4, (k + 2) % 4);
    }
    g.finish();
    g
}

/// Four kans by four players (kan4), each a closed kan with its dora before the replacement draw.
pub fn kan4() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    g.deal(["111m456p789s1234z", "222m567p789m1234z", "333m678p123s5567z", "444m123p456s5667z"]);
    for (seat, k, rep) in [(0u8, "1m", "5m"), (1, "2m", "6m"), (2, "3m", "7m"), (3, "4m", "9p")] {
        g.draw(seat, k).ankan(seat, k).draw(seat, rep).tsumogiri(seat);
    }
    g.abort(DrawKind::Kan4, &[]);
    g.finish();
    g
}

/// Four same winds discarded in the first go-around (kaze4).
pub fn kaze4() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    // every East is drawn: the indicator is named so that it is not one of them
    let hands = ["147m258p369s2345z", "258m369p147s2356z", "369m147p258s2367z", "123m456p789s3456z"];
    g.deal_with_dora(hands, "9m");
    for seat in 0..4 {
        g.draw_tsumogiri(seat, "1z");
    }
    g.abort(DrawKind::Kaze4, &[]);
    g.finish();
    g
}

/// Nagashi mangan by seat 2 (only terminals and honors discarded, none called); seat 1 tenpai.
pub fn nagashi() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    g.deal(["234m345p456s678m2p", "123m456p789s1112z", "234s345s567p678p4m", "345m456m678s789s3p"]);
    // seat 2 draws only honors (and lets them go), the others only numbered tiles
    g.exhaust_wall_where(|seat, t| (seat == 2) == t.kind().is_honor());
    g.nagashi(2, &[1]);
    g.finish();
    g
}

/// A lobby without red fives (GO type bit 0x02): id 16 is a plain five.
pub fn no_red() -> GameBuilder {
    let mut g = GameBuilder::new(0x0B); // vs humans, no red, hanchan
    g.deal(["5m123p456p789s123z", "55m123s456s789p12z", "111999m111999p1s", "222888m222888s3z"]);
    g.draw(0, "9s").discard(0, "5m"); // the only 5m seat 0 holds: id 16
    g.pon(1).discard(1, "1z");
    g.exhaust_wall().exhaustive(&[]).finish();
    g
}

/// Chi, pon and an added kan in one round (169).
pub fn open_melds() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    g.deal(["2m456p456s112233z", "13m89p789s555677z", "99p111222333s44z", "111777999m111p6z"]);
    g.draw(0, "7m").discard(0, "2m");
    g.chi(1, "1m", "3m").discard(1, "9p");
    g.pon(2).discard(2, "4z");
    g.draw_tsumogiri(3, "8m");
    g.draw_tsumogiri(0, "3s");
    g.draw(1, "6m").discard(1, "6m");
    g.draw(2, "9p").kakan(2, "9p").draw(2, "2p").discard(2, "2p");
    g.exhaust_wall().exhaustive(&[]).finish();
    g
}

/// Daisangen with the third dragon fed by seat 3: pao, seat 3 pays the whole tsumo.
pub fn pao() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    g.deal(["147m258p369s1234z", "123m44p89s556677z", "258m369p147s1239m", "369m147p258s1239p"]);
    g.draw(0, "5z").discard(0, "5z");
    g.pon(1).discard(1, "9s");
    g.draw(2, "6z").discard(2, "6z");
    g.pon(1).discard(1, "8s");
    g.draw_tsumogiri(2, "1s");
    g.draw(3, "7z").discard(3, "7z");
    g.pon(1).discard(1, "4p"); // tenpai on 4p alone
    go_around(&mut g, 2, &["2s", "3s", "4s"]);
    g.draw(1, "4p").tsumo(1, Win::new(32000).yakuman(&[39]).pao(3));
    g.finish();
    g
}

/// Four riichi (reach4): the fourth stick is paid, all hands are shown; the sticks stay to the end.
pub fn reach4() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    g.deal(["123m456p789s1122z", "456m789p123s3344z", "789m123p456s5566z", "234m567p345s7711z"]);
    g.draw(0, "9m").riichi(0, "9m");
    g.draw(1, "9m").riichi(1, "9m");
    g.draw(2, "9m").riichi(2, "9m");
    g.draw(3, "1p").riichi(3, "1p");
    g.abort(DrawKind::Reach4, &[0, 1, 2, 3]);
    g.finish();
    g
}

/// Red fives 0m 0p 0s in a game with red (169).
pub fn red_fives() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    g.deal(["1230m456p789s112z", "1230s456m789p334z", "111999m111999p1s", "8m222s444s666p577z"]);
    g.draw(0, "0p").discard(0, "0m"); // red 5p in, red 5m out
    g.draw(1, "7z").discard(1, "0s");
    go_around(&mut g, 2, &["1z", "4z"]);
    g.draw_tsumogiri(0, "5m"); // a plain 5m: ids 16 (red) and 17 (seat 1) are taken
    g.exhaust_wall().exhaustive(&[]).finish();
    g
}

/// Riichi accepted (step 2 pays the stick) then a tsumo; next round a riichi discard that is ronned.
pub fn riichi() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    g.deal(["123m456p789s1122z", "456m123p345s3667z", "777m888p666s4555z", "111m999p11222s44z"]);
    g.draw(0, "9m").riichi(0, "9m");
    g.draw(1, "8m").discard(1, "8m");
    g.draw(2, "8s").discard(2, "8s");
    g.draw(3, "8p").discard(3, "8p");
    g.draw_tsumogiri(0, "3z"); // in riichi
    go_around(&mut g, 1, &["7m", "7p", "7s"]);
    // double riichi (its first discard), tsumo, east as round and seat wind: mangan
    g.draw(0, "1z").tsumo(0, Win::new(12000).fu(30).yaku(&[(21, 2), (0, 1), (14, 1), (10, 1), (53, 0)]));
    // the dealer won: kyoku 0, honba 1; the indicator 9m (dora 1m) is nobody's
    g.deal_with_dora(["147m258p369s1234z", "234m567m234p567p9s", "123456789s1155z", "8999m111999p667z"], "9m");
    g.draw(0, "2z").discard(0, "2z");
    g.draw(1, "1z").riichi(1, "1z");
    // straight, east (round wind), half flush: haneman, 40 fu (20, 10 closed ron, 4 east triplet, 2 haku pair)
    g.ron(1, &[(2, Win::new(12000).fu(40).yaku(&[(24, 2), (14, 1), (34, 3)]))]);
    g.finish();
    g
}

/// Triple ron (ron3) on the dealer's first discard (5s): hands shown, nobody pays.
pub fn ron3() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    g.deal(["1199p99s4455667z", "123456789m34s11z", "123456789p46s22z", "67s777888m111s33z"]);
    // 5s: seat 1 waits 2s-5s, seat 2 on 4s-6s, seat 3 5s-8s
    g.draw(0, "5s").discard(0, "5s");
    g.abort(DrawKind::Ron3, &[1, 2, 3]);
    g.finish();
    g
}

/// Three players (185): 35000 each, nuki with its replacement draw, pons in the 4-slot numbering, exhaustive draw.
pub fn three_player() -> GameBuilder {
    let mut g = GameBuilder::new(185);
    g.deal(["199m11p234p9s4z556z", "19m22p678p1234s77z", "9m33p789p5678s666z", ""]);
    g.draw(0, "4z").nuki(0).draw(0, "1s").discard(0, "1s"); // two norths: one set aside
    g.draw(1, "3p").discard(1, "3p");
    g.pon(2).discard(2, "9m"); // seat 1 is the previous seat of seat 2
    g.pon(0).discard(0, "2p"); // seat 2 is the previous seat of seat 0 (from = 2 in the 4-slot numbering)
    g.exhaust_wall();
    g.exhaustive(&[]);
    g.finish();
    g
}

/// One complete round, then a round that stops after a few turns (no end, no owari), closed as valid XML.
pub fn truncated() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    quick_round(&mut g, 0, 1);
    g.deal(["147m258p369s1234z", "258m369p147s1236z", "999s999p888s777s4z", "123456789m111p5z"]);
    g.draw_tsumogiri(1, "5z");
    g.draw_tsumogiri(2, "6z");
    g
}

/// A player drops before the first deal, another drops and comes back mid-round, a third after the end (BYE,
/// reconnect UN); a ron on the round wind.
pub fn bye() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    g.bye(3);
    // the indicator 9s (dora 1s) is nobody's
    g.deal_with_dora(["147m258p369s1234z", "123m456p789s1112z", "258m369p147s5566z", "369m147p258s5677z"], "9s");
    g.draw_tsumogiri(0, "9m");
    g.bye(1);
    g.draw_tsumogiri(1, "9p");
    g.reconnect(1);
    g.draw_tsumogiri(2, "1p");
    g.draw(3, "2z").discard(3, "2z");
    // east triplet (round wind), 50 fu: 20, 10 closed ron, 8 concealed east, 2 south pair (seat wind), 2 single wait
    g.ron(3, &[(1, Win::new(1600).fu(50).yaku(&[(14, 1)]))]);
    g.finish();
    g.bye(2);
    g
}

/// Seats from `first` on, in turn, each draw a tile and discard it (tsumogiri).
pub fn go_around(g: &mut GameBuilder, first: u8, draws: &[&str]) {
    let n = g.n_players();
    for (i, t) in draws.iter().enumerate() {
        g.draw_tsumogiri((first + i as u8) % n, *t);
    }
}

/// One quick round: the dealer of `kyoku` discards 5z and `winner` rons it with a closed straight (123456789m
/// 111p, a haku wait): 2 han, 50 fu (20, 10 closed ron, 8 concealed 1p triplet, 2 single wait, 2 haku pair),
/// 3,200 points. The indicator 8p (dora 9p) is no one's.
pub fn quick_round(g: &mut GameBuilder, dealer: u8, winner: u8) {
    let a = "147m258p369s1234z";
    let b = "258m369p147s1236z";
    let c = "999s999p888s777s4z";
    let w = "123456789m111p5z";
    let mut hands = [a, b, c, w];
    let others: Vec<u8> = (0..4).filter(|&s| s != winner).collect();
    hands[usize::from(winner)] = w;
    for (i, &s) in others.iter().enumerate() {
        hands[usize::from(s)] = [a, b, c][i];
    }
    g.deal_with_dora(hands, "8p");
    g.draw(dealer, "5z").discard(dealer, "5z");
    g.ron(dealer, &[(winner, Win::new(3200).fu(50).yaku(&[(24, 2)]))]);
}
