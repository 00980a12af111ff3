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
}
