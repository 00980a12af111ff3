//! The player follows every real mjai log of the corpus from each seat, as an observer: every message is
//! taken without a contradiction, and every move the seat made in the log is one its legal actions offered
//! at that point (the same rules the engine applies: a move the follower thought illegal, or a question it
//! missed, fails the test).

use haifu_play::follow::Follower;
use haifu_record::mjai::message::Message;
use haifu_testkit::corpus::{corpus_dir, manifest};

/// The seat a message is said by, for the messages that are a seat's own move.
fn mover(msg: &Message) -> Option<u8> {
    Some(match msg {
        Message::Dahai(d) => d.actor,
        Message::Chi(c) | Message::Pon(c) | Message::Daiminkan(c) => c.actor,
        Message::Ankan(a) => a.actor,
        Message::Kakan(a) => a.actor,
        Message::Nukidora(n) => n.actor,
        Message::Reach(r) => r.actor,
        Message::Hora(h) => h.actor,
        Message::Ryukyoku(r) => r.actor?,
        _ => return None,
    })
}

/// Follows `msgs` as `seat`; returns the moves checked.
fn follow(path: &str, msgs: &[Message], seat: u8) -> usize {
    let mut f = Follower::new(seat);
    let mut moves = 0;
    for (i, msg) in msgs.iter().enumerate() {
        let own = mover(msg) == Some(seat) && !matches!(msg, Message::Ryukyoku(_));
        if own && f.question().is_some() {
            assert!(
                f.answers_legally(msg),
                "{path} seat {seat} message {i}: the log's move {msg:?} is not among the legal ones ({:?})",
                f.question()
            );
            moves += 1;
        } else if own && !matches!(msg, Message::Hora(_)) {
            // (a hora may come after another seat's hora: a double ron is two hora in a row)
            panic!("{path} seat {seat} message {i}: the seat moves ({msg:?}) but was asked nothing");
        }
        f.take(msg).unwrap_or_else(|err| panic!("{path} seat {seat} message {i}: {err}"));
    }
    moves
}

/// The seat whose hand a one-player view shows (`start_game`'s `id`, else the one hand not hidden), if the
/// log hides the others'.
fn viewer(msgs: &[Message]) -> Option<u8> {
    let hidden = msgs.iter().any(|m| match m {
        Message::StartKyoku(k) => k.tehais.iter().any(|h| h.iter().any(|p| p.tile().is_none())),
        _ => false,
    });
    let id = msgs.iter().find_map(|m| match m {
        Message::StartGame(g) => g.id,
        _ => None,
    });
    let shown = msgs.iter().find_map(|m| match m {
        Message::StartKyoku(k) => k.tehais.iter().position(|h| h.iter().all(|p| p.tile().is_some())),
        _ => None,
    });
    if hidden {
        id.or(shown.map(|s| s as u8))
    } else {
        None
    }
}

#[test]
fn follows_every_real_mjai_log_from_every_seat() {
    let Some(root) = corpus_dir() else { return };
    let entries: Vec<_> = manifest(&root).into_iter().filter(|e| e.format == "mjai").collect();
    assert!(!entries.is_empty(), "the corpus lists mjai logs");
    let (mut full, mut views, mut moves, mut skipped) = (0usize, 0usize, 0usize, Vec::new());
    for e in &entries {
        let text = e.text(&root);
        let msgs: Vec<Message> =
            text.split(|&b| b == b'\n').filter_map(|l| Message::from_line(l).ok().flatten()).collect();
        if haifu_record::mjai::parse(&text).is_ok() {
            full += 1;
            let players = msgs
                .iter()
                .find_map(|m| match m {
                    Message::StartKyoku(k) => Some(k.tehais.len() as u8),
                    _ => None,
                })
                .unwrap_or(4);
            for seat in 0..players {
                moves += follow(&e.path, &msgs, seat);
            }
        } else if let Some(seat) = viewer(&msgs) {
            // a player's own view (the bot's input in mjai-manue's tests): followed from that seat
            views += 1;
            moves += follow(&e.path, &msgs, seat);
        } else {
            // the reader refuses it and it is no player's view: games under other rules (akochan's
            // Chinese-rules self-play has no dora)
            skipped.push(e.path.clone());
        }
    }
    eprintln!(
        "followed {full} full mjai logs from every seat and {views} one-seat views ({moves} moves checked); \
               not games of Tenhou's rules: {skipped:?}"
    );
    assert!(full > 0 && views > 0 && moves > 1000, "{full} logs, {views} views, {moves} moves");
}
