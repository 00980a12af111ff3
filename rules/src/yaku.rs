//! Tenhou's yaku ids (SPEC.md 1.3), as they appear in AGARI `yaku` and `yakuman`.

/// Names by Tenhou id, 0..=54.
pub const YAKU_NAMES: [&str; 55] = [
    "menzen tsumo",
    "riichi",
    "ippatsu",
    "chankan",
    "rinshan kaihou",
    "haitei",
    "houtei",
    "pinfu",
    "tanyao",
    "iipeikou",
    "seat wind E",
    "seat wind S",
    "seat wind W",
    "seat wind N",
    "round wind E",
    "round wind S",
    "round wind W",
    "round wind N",
    "haku",
    "hatsu",
    "chun",
    "double riichi",
    "chiitoitsu",
    "chanta",
    "ittsu",
    "sanshoku doujun",
    "sanshoku doukou",
    "sankantsu",
    "toitoi",
    "sanankou",
    "shousangen",
    "honroutou",
    "ryanpeikou",
    "junchan",
    "honitsu",
    "chinitsu",
    "renhou",
    "tenhou",
    "chiihou",
    "daisangen",
    "suuankou",
    "suuankou tanki",
    "tsuuiisou",
    "ryuuiisou",
    "chinroutou",
    "chuuren",
    "junsei chuuren",
    "kokushi",
    "kokushi 13-wait",
    "daisuushii",
    "shousuushii",
    "suukantsu",
    "dora",
    "ura dora",
    "aka dora",
];

/// The name of a Tenhou yaku id, `None` past 54.
pub fn yaku_name(id: u8) -> Option<&'static str> {
    YAKU_NAMES.get(usize::from(id)).copied()
}

/// Tenhou's order of AGARI `yaku` and `yakuman`: ids in the order Tenhou lists them. The yakuhai (10-20)
/// share one place and keep the order of their sets: the concealed triplets by kind, then the melds in the
/// order they were called; a double wind lists the round wind before the seat wind.
///
/// Read off the corpus (every AGARI of its full mjlog games, 39,000 wins): the pairs of ids that occur together
/// always come in one order, and this list is a total order that agrees with all of them. Ids never seen
/// together (27 sankantsu with others, most yakuman pairs) are placed beside their kin: situational yakuman
/// first, then the shape yakuman, daisangen and the winds before the tile-colour ones (daisangen before
/// tsuuiisou and daisuushii before tsuuiisou are seen in Tenhou's records).
pub const TENHOU_ORDER: [u8; 55] = [
    1, 21, 2, 3, 4, 5, 6, 0, 7, 9, 22, 24, 25, 30, 29, 28, 26, 27, 32, 8, 33, 35, //
    10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, // yakuhai: one place, see above
    23, 31, 34, 36, //
    37, 38, 47, 48, 45, 46, 40, 41, 51, 39, 49, 50, 42, 43, 44, //
    52, 54, 53,
];

/// The place of a yaku id in [`TENHOU_ORDER`] (every yakuhai id has the place of the first); for sorting.
pub fn tenhou_rank(id: u8) -> u8 {
    let id = if (10..=20).contains(&id) { 10 } else { id };
    TENHOU_ORDER.iter().position(|&y| y == id).map_or(u8::MAX, |p| p as u8)
}

/// Dora, ura dora and red fives: counted as han but not yaku of their own (a hand needs another yaku).
pub fn is_dora(id: u8) -> bool {
    (52..=54).contains(&id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_as_in_spec() {
        assert_eq!(yaku_name(8), Some("tanyao"));
        assert_eq!(yaku_name(23), Some("chanta"));
        assert_eq!(yaku_name(33), Some("junchan"));
        assert_eq!(yaku_name(47), Some("kokushi"));
        assert_eq!(yaku_name(54), Some("aka dora"));
        assert_eq!(yaku_name(55), None);
        assert!(is_dora(53) && !is_dora(51));
    }

    #[test]
    fn tenhou_order_names_every_id_once() {
        let mut ids = TENHOU_ORDER.to_vec();
        ids.sort_unstable();
        assert_eq!(ids, (0..=54).collect::<Vec<u8>>());
        // riichi before menzen tsumo, yakuhai before honitsu, red before ura (Tenhou's records)
        assert!(
            tenhou_rank(1) < tenhou_rank(0) && tenhou_rank(20) < tenhou_rank(34) && tenhou_rank(54) < tenhou_rank(53)
        );
        assert_eq!(tenhou_rank(14), tenhou_rank(18));
    }
}
