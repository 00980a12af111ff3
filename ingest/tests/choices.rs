//! The choices the replay cuts (`haifu ingest --choices`) and the rules it holds a log's actions to, on
//! hand-written scenes: a passed ron and the furiten it leaves, a chi that a pon took first, kuikae, riichi
//! declined and declared; and on the real corpus, every call, riichi, kan, north and win of a log found among
//! the options its moment offered.

use haifu_ingest::choices::{Choice, Chosen, MomentKind};
use haifu_ingest::extract::{extract_with, ReplayOptions};
use haifu_ingest::{ExtractError, ExtractedGame};
use haifu_record::action::Action;
use haifu_record::event::Event;
use haifu_record::state::Offer;
use haifu_record::tags::DrawKind;
use haifu_testkit::{GameBuilder, Win};

const CHOICES: ReplayOptions = ReplayOptions { keep_misscored: false, choices: true };

fn replay(g: &GameBuilder) -> Result<ExtractedGame, ExtractError> {
    extract_with(&g.record(), CHOICES)
}

fn texts(c: &Choice) -> Vec<String> {
    c.option_texts().map(|o| o.to_string()).collect()
}

fn chosen(c: &Choice) -> Option<String> {
    c.chosen_text().map(|t| t.to_string())
}

/// The rows cut at event `i` (the draw, discard or kan that opened them).
fn rows_at(game: &ExtractedGame, i: usize) -> Vec<&Choice> {
    game.choices.iter().filter(|c| c.event_index as usize == i).collect()
}

/// Seat 3 waits on the single 5z (ittsu, closed); seat 0 and then seat 1 discard a 5z.
fn tanki_on_haku() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    g.deal_with_dora(["147m258p369s1234z", "258m369p147s1236z", "999s999p888s777s4z", "123456789m111p5z"], "8p");
    g.draw(0, "5z").discard(0, "5z");
    g
}

#[test]
fn a_passed_ron_is_a_row_and_leaves_the_seat_furiten_until_its_discard() {
    let mut g = tanki_on_haku();
    let first = g.events().len() - 1;
    // seat 3 lets the 5z go by; seat 1 draws the next 5z and discards it
    g.draw(1, "5z").discard(1, "5z");
    let second = g.events().len() - 1;
    g.draw(2, "6m").discard(2, "6m");
    g.abort(DrawKind::Reach4, &[]);
    let game = replay(&g).expect("replays");
    let rows = rows_at(&game, first);
    assert_eq!(rows.len(), 1, "{rows:?}");
    let r = rows[0];
    assert_eq!((r.seat, r.moment, r.from), (3, MomentKind::Shown(Offer::Discard), 0));
    assert_eq!(texts(r), ["ron"]);
    assert_eq!(chosen(r).as_deref(), Some("pass"));
    assert_eq!(r.shanten, 0);
    // temporarily furiten: the second 5z offers seat 3 nothing
    assert!(rows_at(&game, second).is_empty(), "{:?}", rows_at(&game, second));

    // a log where seat 3 wins on that second 5z is refused, naming the win and the options
    let mut g = tanki_on_haku();
    g.draw(1, "5z").discard(1, "5z");
    g.ron(1, &[(3, Win::new(3200).fu(50).yaku(&[(24, 2)]))]);
    let e = replay(&g).expect_err("a furiten ron");
    assert!(e.message.contains("seat 3's ron") && e.message.contains("not among the options"), "{e}");
    assert!(e.tag.starts_with("<AGARI"), "{e:?}");
    // the replay without the rules' bookkeeping takes it (the check is what refuses it)
    assert!(extract_with(&g.record(), ReplayOptions::default()).is_ok());
}

#[test]
fn a_ron_taken_is_the_rows_choice() {
    let mut g = tanki_on_haku();
    let at = g.events().len() - 1;
    g.ron(0, &[(3, Win::new(3200).fu(50).yaku(&[(24, 2)]))]);
    let game = replay(&g).expect("replays");
    let rows = rows_at(&game, at);
    assert_eq!(rows.len(), 1);
    assert_eq!(chosen(rows[0]).as_deref(), Some("ron"));
    assert_eq!(rows[0].outcome, haifu_ingest::Outcome::Win);
}

/// Seat 0 discards a 5p; seat 1 (next) holds 3p4p and 4p6p, seat 2 holds two 5p.
fn five_pin_offered() -> GameBuilder {
    let mut g = GameBuilder::new(169);
    g.deal(["5p147m258s369s123z", "346p258m147s4467z", "55p258m369s147s34z", "999m111222p5577z"]);
    g.draw(0, "6z").discard(0, "5p");
    g
}

#[test]
fn a_chi_the_pon_took_first_was_never_asked() {
    let mut g = five_pin_offered();
    let at = g.events().len() - 1;
    g.pon(2).discard(2, "3z");
    g.abort(DrawKind::Reach4, &[]);
    let game = replay(&g).expect("replays");
    let rows = rows_at(&game, at);
    let by_seat =
        |s: u8| rows.iter().find(|c| c.seat == s).copied().unwrap_or_else(|| panic!("no row of {s}: {rows:?}"));
    let chi = by_seat(1);
    assert!(texts(chi).iter().all(|o| o.starts_with("chi ")), "{:?}", texts(chi));
    // 3p4p and 4p6p: two shapes, each once
    assert_eq!(texts(chi).len(), 2, "{:?}", texts(chi));
    assert_eq!(chi.chosen, Chosen::Unknown);
    assert_eq!(chosen(chi), None);
    let pon = by_seat(2);
    assert_eq!(texts(pon), ["pon 5p5p"]);
    assert_eq!(chosen(pon).as_deref(), Some("pon 5p5p"));
}

#[test]
fn a_pon_passed_for_a_chi_is_a_pass() {
    let mut g = five_pin_offered();
    let at = g.events().len() - 1;
    g.chi(1, "3p", "4p").discard(1, "6z");
    g.abort(DrawKind::Reach4, &[]);
    let game = replay(&g).expect("replays");
    let rows = rows_at(&game, at);
    let seat = |s: u8| rows.iter().find(|c| c.seat == s).copied().expect("row");
    assert_eq!(chosen(seat(1)).as_deref(), Some("chi 3p4p"));
    let held = |k: &str| seat(1).hand.tiles().iter().find(|t| t.kind().name() == k).expect("held");
    assert_eq!(seat(1).chosen, Chosen::Took(Action::Chi { tiles: [held("3p"), held("4p")] }));
    // pon outranks chi: seat 2's answer was shown, and it was no pon
    assert_eq!(chosen(seat(2)).as_deref(), Some("pass"));
}

#[test]
fn kuikae_is_refused() {
    // chi 3p4p on the 5p: neither 5p nor 2p may go next (seat 1 holds a 6p, no 2p: the 5p would be kuikae)
    let mut g = GameBuilder::new(169);
    g.deal(["5p147m258s369s123z", "3455p258m147s467z", "258m369s147s3344z", "999m111222p5577z"]);
    g.draw(0, "6z").discard(0, "5p");
    g.chi(1, "3p", "4p").discard(1, "5p");
    g.abort(DrawKind::Reach4, &[]);
    let e = replay(&g).expect_err("kuikae");
    assert!(e.message.contains("kuikae"), "{e}");
    assert!(extract_with(&g.record(), ReplayOptions::default()).is_ok(), "only the rules' check refuses it");
}

#[test]
fn riichi_declined_then_declared() {
    // seat 0 is tenpai after its first draw (waiting on 9s), closed, with 25,000 points
    let mut g = GameBuilder::new(169);
    g.deal(["123m456p789s1122z", "147m258p369s3456z", "258m369p147s1237z", "369m147p258s4567z"]);
    let dama = g.events().len();
    g.draw(0, "7z").discard(0, "7z");
    g.draw(1, "5m").discard(1, "5m");
    g.draw(2, "5p").discard(2, "5p");
    g.draw(3, "5s").discard(3, "5s");
    let declared = g.events().len();
    g.draw(0, "6z").riichi(0, "6z");
    g.draw(1, "6m").discard(1, "6m");
    g.abort(DrawKind::Reach4, &[]);
    let game = replay(&g).expect("replays");
    let turn =
        |i: usize| rows_at(&game, i).into_iter().find(|c| c.seat == 0 && c.moment == MomentKind::Draw).expect("row");
    assert!(texts(turn(dama)).contains(&"riichi".to_string()), "{:?}", texts(turn(dama)));
    assert_eq!(chosen(turn(dama)).as_deref(), Some("discard"));
    assert_eq!(chosen(turn(declared)).as_deref(), Some("riichi"));
    assert_eq!(turn(declared).shanten, 0);
    // a riichi declared from a hand that no discard leaves tenpai is refused
    let mut g = GameBuilder::new(169);
    g.deal(["147m258p369s1234z", "258m369p147s1236z", "999s999p888s777s4z", "123456789m111p5z"]);
    g.draw(0, "5z").riichi(0, "5z");
    let e = replay(&g).expect_err("riichi not tenpai");
    assert!(e.message.contains("riichi") && e.message.contains("not among the options"), "{e}");
}

/// The real corpus: every call, riichi, kan, north and win of a complete round is one row's choice, and the
/// rules refuse none of Tenhou's games beyond what the replay without them refuses.
#[test]
fn every_action_of_the_corpus_is_among_its_options() {
    let Some(root) = haifu_testkit::corpus_dir() else { return };
    let (mut games, mut actions) = (0usize, 0usize);
    for e in haifu_testkit::corpus::manifest(&root).iter().filter(|e| e.full && e.format != "mjai") {
        let text = e.text(&root);
        let Ok(records) = haifu_record::read_games(&e.path, &text) else { continue };
        for record in records {
            let plain = extract_with(&record, ReplayOptions::default());
            let with = extract_with(&record, CHOICES);
            let (Ok(_), with) = (&plain, with) else { continue };
            let game = with.unwrap_or_else(|err| panic!("{}: the rules refuse {err}", e.path));
            if game.info.game_type.is_some_and(|t| t.is_variant()) {
                continue;
            }
            games += 1;
            for round in &game.rounds {
                let (first, last) = (round.first_event as usize, round.last_event as usize);
                let mut logged: Vec<String> = Vec::new();
                for ev in &record.events[first..=last] {
                    match ev {
                        Event::Call { meld, .. } => logged.push(meld.kind.name().to_string()),
                        Event::Reach(r) if r.step == 1 => logged.push("riichi".into()),
                        Event::Agari(a) if a.who == a.from_who => logged.push("tsumo".into()),
                        Event::Agari(_) => logged.push("ron".into()),
                        Event::Ryuukyoku(d) if d.kind == DrawKind::Yao9 => logged.push("kyuushu".into()),
                        _ => {}
                    }
                }
                let mut taken: Vec<String> = game
                    .choices
                    .iter()
                    .filter(|c| (first..=last).contains(&(c.event_index as usize)))
                    .filter_map(|c| match c.chosen {
                        Chosen::Took(_) => chosen(c).map(|t| t.split(' ').next().unwrap_or_default().to_string()),
                        _ => None,
                    })
                    .collect();
                // three rons of one discard end the round in a draw (ron3): the rows name them, the log shows hands
                if matches!(&round.end, haifu_ingest::extract::RoundEnd::Ryuukyoku(d) if d.kind == DrawKind::Ron3) {
                    taken.retain(|t| t != "ron");
                }
                logged.sort();
                taken.sort();
                assert_eq!(logged, taken, "{} round {}", e.path, round.index);
                actions += logged.len();
            }
        }
    }
    assert!(games > 4000 && actions > 100_000, "{games} games, {actions} actions");
}
