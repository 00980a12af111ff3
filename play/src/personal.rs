//! The player's personal network at the table (`haifu mjai-bot --network-first`): the network's probabilities
//! of the discards tilted by the player's discard coefficients less everyone's, the personal model `haifu style
//! accuracy --network` judges. The discard model's candidates are read here from the table the seat sees, as
//! `haifu_style::discards` reads them from a game's decisions (the same [`Sight`]).

use haifu_encoding::features::Safety;
use haifu_imitate::Winds;
use haifu_record::state::{Riichi, TableState};
use haifu_rules::{Kind, KINDS};
use haifu_style::discards::{Candidate, Sight};

/// The discard model's candidates of `seat`'s discard on `table` (before it; `safety` the kinds safe against each
/// seat so far), or `None` where the model has no choice: in riichi, after a chi or pon, a hand of one kind.
pub fn candidates(table: &TableState, seat: u8, safety: &Safety) -> Option<Vec<Candidate>> {
    let own = &table.seats[usize::from(seat)];
    let declares = match own.riichi {
        Riichi::None => false,
        Riichi::Declared => true,
        _ => return None,
    };
    // none after a call: the model leaves those discards out
    let drawn = usize::from(own.last_draw?.kind().index());
    let in_riichi =
        |s: u8| matches!(table.seats[usize::from(s)].riichi, Riichi::Discarded { .. } | Riichi::Accepted { .. });
    let threats: Vec<u64> = (0..table.players)
        .filter(|&s| s != seat && in_riichi(s))
        .map(|s| (0..KINDS).filter(|&k| safety.is_safe(s, Kind::from_index(k as u8))).fold(0, |m, k| m | 1 << k))
        .collect();
    let mut seen = [0u8; KINDS];
    for s in &table.seats[..usize::from(table.players)] {
        for r in &s.river {
            seen[usize::from(r.tile.kind().index())] += 1;
        }
    }
    let dora = table.dora.iter().fold(0u64, |m, i| m | 1 << i.kind().dora_indicated(table.players).index());
    let sight = Sight {
        winds: Winds::of_seat(table.kyoku, seat, table.players),
        threats: &threats,
        dora,
        players: table.players,
        seen: &seen,
        turn: own.turn,
        declares,
    };
    let mut out = Vec::with_capacity(14);
    (sight.candidates(own.hand.counts(), drawn, &mut out) && out.len() >= 2).then_some(out)
}

#[cfg(test)]
mod tests {
    use haifu_record::event::{Event, GameRecord};
    use haifu_record::walk::{walk, Visitor};
    use haifu_sim::bot::{self_play, Bot};
    use haifu_sim::style::{Style, StyleBot};
    use haifu_style::discards::of_game;
    use haifu_style::played::Played;

    use super::*;

    /// Each seat's candidates before each of its discards, read from the live table as the game is walked.
    struct Live {
        safety: Safety,
        seen: Vec<Vec<Vec<Candidate>>>,
    }

    impl Visitor for Live {
        fn before(&mut self, _: usize, e: &Event, table: &TableState) -> Result<(), String> {
            if let Event::Discard { seat, tile } = e {
                if let Some(c) = candidates(table, *seat, &self.safety) {
                    // as the model, only where the kind discarded is among them
                    if c.iter().any(|x| x.kind() == usize::from(tile.kind().index())) {
                        self.seen[usize::from(*seat)].push(c);
                    }
                }
            }
            Ok(())
        }
        fn after(&mut self, _: usize, e: &Event, table: &TableState) -> Result<(), String> {
            match e {
                Event::Init(_) => self.safety.clear(),
                Event::Discard { seat, tile } => self.safety.discarded(table, *seat, *tile),
                _ => {}
            }
            Ok(())
        }
    }

    fn game(seed: u64, go: u32, style: &str) -> GameRecord {
        let mut bots: Vec<StyleBot> =
            (0..4).map(|i| StyleBot::new(Style::preset(style).unwrap(), seed * 4 + i)).collect();
        let mut refs: Vec<&mut dyn Bot> = bots.iter_mut().map(|b| b as &mut dyn Bot).collect();
        self_play(go, seed, &mut refs).unwrap()
    }

    /// On self-play games of callers and riichi players, 4 and 3 seats, every candidate the live table gives is
    /// the one the game's decisions give the discard model (its marks, kind and acceptance), at the same
    /// discards: the mjai player's personal network reads what `style accuracy --network` judged.
    #[test]
    fn the_live_table_gives_the_candidates_the_decisions_give() {
        let mut compared = 0;
        for (seed, go, style) in [(1, 225, "caller"), (2, 225, "greedy"), (3, 177, "yakuhai"), (4, 169, "tanyao")] {
            let record = game(seed, go, style);
            let mut live = Live { safety: Safety::default(), seen: vec![Vec::new(); 4] };
            walk(&record.events, TableState::default(), &mut live).unwrap();
            let played = Played::of_replay(seed as i64, &haifu_ingest::extract(&record).unwrap());
            for (seat, d) in of_game(&played).iter().enumerate() {
                let replayed: Vec<Vec<Candidate>> = d.each().map(|(c, _)| c.to_vec()).collect();
                assert_eq!(live.seen[seat], replayed, "seed {seed}, seat {seat}");
                compared += replayed.len();
            }
        }
        assert!(compared > 500, "{compared} discards compared");
    }
}
