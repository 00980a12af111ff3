//! Tenhou's yaku ids (SPEC.md 1.3), as they appear in AGARI `yaku` and `yakuman`.

/// The names of one Tenhou yaku id: English (reports), Japanese (Tenhou's own, tenhou.net/6), mjai's
/// (TenhouArchive's spelling, written by the mjai writer; the winds are `jikaze` / `bakaze` there and the double
/// yakuman go by their base name), and the other spellings readers meet (romaji, English, older kanji).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct YakuName {
    pub en: &'static str,
    pub ja: &'static str,
    pub mjai: &'static str,
    pub aliases: &'static [&'static str],
}

/// Every Tenhou yaku id's names, by id 0..=54: the one table every reader and writer uses.
pub const YAKU: [YakuName; 55] = [
    YakuName {
        en: "menzen tsumo",
        ja: "門前清自摸和",
        mjai: "menzenchin_tsumoho",
        aliases: &["menzentsumo", "menzenchintsumohou", "tsumo", "fullyconcealedhand", "menzen_tsumo"],
    },
    YakuName { en: "riichi", ja: "立直", mjai: "reach", aliases: &["riichi", "reach"] },
    YakuName { en: "ippatsu", ja: "一発", mjai: "ippatsu", aliases: &["ippatsu"] },
    YakuName { en: "chankan", ja: "槍槓", mjai: "chankan", aliases: &["搶槓", "chankan", "robbingakan"] },
    YakuName {
        en: "rinshan kaihou",
        ja: "嶺上開花",
        mjai: "rinshankaiho",
        aliases: &["rinshankaihou", "rinshan", "afterakan", "rinshan_kaihou"],
    },
    YakuName {
        en: "haitei",
        ja: "海底摸月",
        mjai: "haiteiraoyue",
        aliases: &["海底撈月", "haiteiraoyue", "haitei", "undertthesea", "underthesea"],
    },
    YakuName {
        en: "houtei",
        ja: "河底撈魚",
        mjai: "hoteiraoyui",
        aliases: &["houteiraoyui", "houtei", "undertheriver", "hotei"],
    },
    YakuName { en: "pinfu", ja: "平和", mjai: "pinfu", aliases: &["pinfu"] },
    YakuName { en: "tanyao", ja: "断幺九", mjai: "tanyaochu", aliases: &["断么九", "tanyao", "allsimples"] },
    YakuName {
        en: "iipeikou", ja: "一盃口", mjai: "ipeko", aliases: &["iipeikou", "iipeiko", "puredoublesequence"]
    },
    YakuName { en: "seat wind E", ja: "自風東", mjai: "jikaze", aliases: &["seatwindeast", "jikazeton"] },
    YakuName { en: "seat wind S", ja: "自風南", mjai: "jikaze", aliases: &["seatwindsouth", "jikazenan"] },
    YakuName { en: "seat wind W", ja: "自風西", mjai: "jikaze", aliases: &["seatwindwest", "jikazesha"] },
    YakuName { en: "seat wind N", ja: "自風北", mjai: "jikaze", aliases: &["seatwindnorth", "jikazepei"] },
    YakuName {
        en: "round wind E",
        ja: "場風東",
        mjai: "bakaze",
        aliases: &["roundwindeast", "prevalentwindeast", "bakazeton"],
    },
    YakuName {
        en: "round wind S",
        ja: "場風南",
        mjai: "bakaze",
        aliases: &["roundwindsouth", "prevalentwindsouth", "bakazenan"],
    },
    YakuName {
        en: "round wind W",
        ja: "場風西",
        mjai: "bakaze",
        aliases: &["roundwindwest", "prevalentwindwest", "bakazesha"],
    },
    YakuName {
        en: "round wind N",
        ja: "場風北",
        mjai: "bakaze",
        aliases: &["roundwindnorth", "prevalentwindnorth", "bakazepei"],
    },
    YakuName { en: "haku", ja: "役牌白", mjai: "haku", aliases: &["haku", "whitedragon"] },
    YakuName { en: "hatsu", ja: "役牌發", mjai: "hatsu", aliases: &["役牌発", "hatsu", "greendragon"] },
    YakuName { en: "chun", ja: "役牌中", mjai: "chun", aliases: &["chun", "reddragon"] },
    YakuName {
        en: "double riichi",
        ja: "両立直",
        mjai: "double_reach",
        aliases: &["ダブル立直", "doubleriichi", "dabururiichi", "double_riichi", "daburu_riichi"],
    },
    YakuName {
        en: "chiitoitsu", ja: "七対子", mjai: "chitoitsu", aliases: &["chiitoitsu", "chiitoi", "sevenpairs"]
    },
    YakuName {
        en: "chanta",
        ja: "混全帯幺九",
        mjai: "honchantaiyao",
        aliases: &["chanta", "chantai", "halfoutsidehand"],
    },
    YakuName {
        en: "ittsu", ja: "一気通貫", mjai: "ikkitsukan", aliases: &["ittsu", "ikkitsuukan", "purestraight"]
    },
    YakuName {
        en: "sanshoku doujun",
        ja: "三色同順",
        mjai: "sanshokudojun",
        aliases: &["sanshokudoujun", "sanshoku", "mixedtriplesequence"],
    },
    YakuName {
        en: "sanshoku doukou",
        ja: "三色同刻",
        mjai: "sanshokudoko",
        aliases: &["sanshokudoukou", "triplepungs", "tripletriplets"],
    },
    YakuName { en: "sankantsu", ja: "三槓子", mjai: "sankantsu", aliases: &["sankantsu", "threequads"] },
    YakuName {
        en: "toitoi",
        ja: "対々和",
        mjai: "toitoiho",
        aliases: &["対対和", "toitoi", "toitoihou", "alltriplets"],
    },
    YakuName { en: "sanankou", ja: "三暗刻", mjai: "sananko", aliases: &["sanankou", "threeconcealedtriplets"] },
    YakuName { en: "shousangen", ja: "小三元", mjai: "shosangen", aliases: &["shousangen", "littlethreedragons"] },
    YakuName { en: "honroutou", ja: "混老頭", mjai: "honroto", aliases: &["honroutou", "allterminalsandhonors"] },
    YakuName {
        en: "ryanpeikou", ja: "二盃口", mjai: "ryanpeko", aliases: &["ryanpeikou", "twicepuredoublesequence"]
    },
    YakuName { en: "junchan", ja: "純全帯幺九", mjai: "junchantaiyao", aliases: &["junchan", "fullyoutsidehand"] },
    YakuName { en: "honitsu", ja: "混一色", mjai: "honiso", aliases: &["honitsu", "halfflush"] },
    YakuName { en: "chinitsu", ja: "清一色", mjai: "chiniso", aliases: &["chinitsu", "fullflush"] },
    YakuName { en: "renhou", ja: "人和", mjai: "renho", aliases: &["renhou", "blessingofman"] },
    YakuName { en: "tenhou", ja: "天和", mjai: "tenho", aliases: &["tenhou", "blessingofheaven"] },
    YakuName { en: "chiihou", ja: "地和", mjai: "chiho", aliases: &["chiihou", "blessingofearth"] },
    YakuName { en: "daisangen", ja: "大三元", mjai: "daisangen", aliases: &["daisangen", "bigthreedragons"] },
    YakuName { en: "suuankou", ja: "四暗刻", mjai: "suanko", aliases: &["suuankou", "fourconcealedtriplets"] },
    YakuName {
        en: "suuankou tanki",
        ja: "四暗刻単騎",
        mjai: "suanko",
        aliases: &["suuankoutanki", "singlewaitfourconcealedtriplets", "suanko_tanki"],
    },
    YakuName { en: "tsuuiisou", ja: "字一色", mjai: "tsuiso", aliases: &["tsuuiisou", "allhonors"] },
    YakuName { en: "ryuuiisou", ja: "緑一色", mjai: "ryuiso", aliases: &["ryuuiisou", "allgreen"] },
    YakuName { en: "chinroutou", ja: "清老頭", mjai: "chinroto", aliases: &["chinroutou", "allterminals"] },
    YakuName { en: "chuuren", ja: "九蓮宝燈", mjai: "churenpoton", aliases: &["chuurenpoutou", "ninegates"] },
    YakuName {
        en: "junsei chuuren",
        ja: "純正九蓮宝燈",
        mjai: "churenpoton",
        aliases: &["junseichuurenpoutou", "truenninegates", "trueninegates", "junsei_churenpoton"],
    },
    YakuName { en: "kokushi", ja: "国士無双", mjai: "kokushimuso", aliases: &["kokushimusou", "thirteenorphans"] },
    YakuName {
        en: "kokushi 13-wait",
        ja: "国士無双13面",
        mjai: "kokushimuso",
        aliases: &["国士無双十三面", "kokushimusou13menmachi", "thirteenwaitthirteenorphans", "kokushimuso_13"],
    },
    YakuName { en: "daisuushii", ja: "大四喜", mjai: "daisushi", aliases: &["daisuushii", "bigfourwinds"] },
    YakuName { en: "shousuushii", ja: "小四喜", mjai: "shosushi", aliases: &["shousuushii", "littlefourwinds"] },
    YakuName { en: "suukantsu", ja: "四槓子", mjai: "sukantsu", aliases: &["suukantsu", "fourquads"] },
    YakuName { en: "dora", ja: "ドラ", mjai: "dora", aliases: &["抜きドラ", "dora", "nukidora"] },
    YakuName { en: "ura dora", ja: "裏ドラ", mjai: "uradora", aliases: &["uradora"] },
    YakuName { en: "aka dora", ja: "赤ドラ", mjai: "akadora", aliases: &["akadora", "redfive", "reddora"] },
];

/// Han of every Tenhou yaku id on Tenhou: (closed hand, open hand), 0 where the yaku needs a closed hand. A
/// yakuman counts 13: Tenhou counts every yakuman once, the "double" ones (41, 46, 48) included. Dora, ura
/// dora and red fives (52-54) count 1 per tile. Renhou (36) is not played on Tenhou. The one han table:
/// scoring and the readers of logs that name yaku without han use it.
pub const HAN: [(u8, u8); 55] = [
    (1, 0),   // 0 menzen tsumo
    (1, 0),   // 1 riichi
    (1, 0),   // 2 ippatsu
    (1, 1),   // 3 chankan
    (1, 1),   // 4 rinshan
    (1, 1),   // 5 haitei
    (1, 1),   // 6 houtei
    (1, 0),   // 7 pinfu
    (1, 1),   // 8 tanyao (open: where the table allows open tanyao)
    (1, 0),   // 9 iipeikou
    (1, 1),   // 10 seat wind E
    (1, 1),   // 11 seat wind S
    (1, 1),   // 12 seat wind W
    (1, 1),   // 13 seat wind N
    (1, 1),   // 14 round wind E
    (1, 1),   // 15 round wind S
    (1, 1),   // 16 round wind W
    (1, 1),   // 17 round wind N
    (1, 1),   // 18 haku
    (1, 1),   // 19 hatsu
    (1, 1),   // 20 chun
    (2, 0),   // 21 double riichi
    (2, 0),   // 22 chiitoitsu
    (2, 1),   // 23 chanta
    (2, 1),   // 24 ittsu
    (2, 1),   // 25 sanshoku doujun
    (2, 2),   // 26 sanshoku doukou
    (2, 2),   // 27 sankantsu
    (2, 2),   // 28 toitoi
    (2, 2),   // 29 sanankou
    (2, 2),   // 30 shousangen
    (2, 2),   // 31 honroutou
    (3, 0),   // 32 ryanpeikou
    (3, 2),   // 33 junchan
    (3, 2),   // 34 honitsu
    (6, 5),   // 35 chinitsu
    (0, 0),   // 36 renhou
    (13, 0),  // 37 tenhou
    (13, 0),  // 38 chiihou
    (13, 13), // 39 daisangen
    (13, 0),  // 40 suuankou
    (13, 0),  // 41 suuankou tanki
    (13, 13), // 42 tsuuiisou
    (13, 13), // 43 ryuuiisou
    (13, 13), // 44 chinroutou
    (13, 0),  // 45 chuuren
    (13, 0),  // 46 junsei chuuren
    (13, 0),  // 47 kokushi
    (13, 0),  // 48 kokushi 13-wait
    (13, 13), // 49 daisuushii
    (13, 13), // 50 shousuushii
    (13, 13), // 51 suukantsu
    (1, 1),   // 52 dora
    (1, 1),   // 53 ura dora
    (1, 1),   // 54 aka dora
];

/// The han of yaku `id` for a closed or an open hand ([`HAN`]); 0 for an id past 54 or a yaku the hand
/// cannot have.
pub fn han(id: u8, closed: bool) -> u8 {
    HAN.get(usize::from(id)).map_or(0, |&(c, o)| if closed { c } else { o })
}

/// The yakuhai ids: seat wind (10-13), round wind (14-17), haku, hatsu, chun (18-20).
pub const YAKUHAI: std::ops::RangeInclusive<u8> = 10..=20;

/// A yakuhai (value honor) id: a seat or round wind, or a dragon (SPEC 3's yakuhai strategy).
pub fn is_yakuhai(id: u8) -> bool {
    YAKUHAI.contains(&id)
}

/// A yakuman id (37-51): it replaces every other yaku of the hand.
pub fn is_yakuman(id: u8) -> bool {
    (37..=51).contains(&id)
}

/// A yaku name as readers compare it: lowercase, without spaces, `_ - : ・`, full-width digits made ASCII, and
/// 翻牌 read as 役牌.
pub fn name_key(name: &str) -> String {
    name.chars()
        .map(|c| match c {
            '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32).unwrap_or(c),
            _ => c,
        })
        .filter(|c| !c.is_whitespace() && !matches!(c, ':' | '-' | '_' | '・'))
        .collect::<String>()
        .replace("翻牌", "役牌")
        .to_lowercase()
}

/// The Tenhou id of a yaku name in any of its spellings ([`YAKU`], compared by [`name_key`]); the first id
/// that has it (mjai's `jikaze` / `bakaze` name four ids each: the reader resolves those by the winds).
pub fn id_by_name(name: &str) -> Option<u8> {
    let key = name_key(name);
    YAKU.iter()
        .position(|y| name_key(y.ja) == key || name_key(y.mjai) == key || y.aliases.iter().any(|a| name_key(a) == key))
        .map(|i| i as u8)
}

/// The English name of a Tenhou yaku id, `None` past 54.
pub fn yaku_name(id: u8) -> Option<&'static str> {
    YAKU.get(usize::from(id)).map(|y| y.en)
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
    let id = if is_yakuhai(id) { 10 } else { id };
    TENHOU_ORDER.iter().position(|&y| y == id).map_or(u8::MAX, |p| p as u8)
}

/// Dora, ura dora and red fives: counted as han but not yaku of their own (a hand needs another yaku).
pub fn is_dora(id: u8) -> bool {
    (52..=54).contains(&id)
}

/// Tenhou's yaku id of a set of the seat's wind (`wind`: 0 east .. 3 north): 10 .. 13.
pub fn seat_wind(wind: u8) -> u8 {
    10 + wind
}

/// Tenhou's yaku id of a set of the round's wind (`wind`: 0 east .. 3 north): 14 .. 17.
pub fn round_wind(wind: u8) -> u8 {
    14 + wind
}

/// Tenhou's yaku id of a set of a dragon: 18 white (haku), 19 green (hatsu), 20 red (chun); `None` for a kind that
/// is no dragon.
pub fn dragon(k: crate::Kind) -> Option<u8> {
    k.is_dragon().then(|| 18 + k.index() - crate::Kind::HAKU.index())
}

/// The wind of a wind kind, 0 east .. 3 north.
fn wind_of(k: crate::Kind) -> u8 {
    k.index() - crate::Kind::EAST.index()
}

/// Tenhou's yaku ids of one triplet or quad of `k` for a seat of `seat_wind` in a round of `round_wind` (kinds),
/// in Tenhou's order: the round's wind first, then the seat's (a double wind lists both), or the dragon's.
pub fn of_set(k: crate::Kind, seat: crate::Kind, round: crate::Kind) -> impl Iterator<Item = u8> {
    let round = (k == round).then(|| round_wind(wind_of(k)));
    let seat = (k == seat).then(|| seat_wind(wind_of(k)));
    round.into_iter().chain(seat).chain(dragon(k))
}

/// Whether a hand whose every tile, concealed and melded, is counted in `all` has a plausible yaku in sight: a
/// pair or triplet of a value honor (`is_value`: the seat's wind, the round's, the dragons), all simples, or one
/// suit with honors. A heuristic, not a yaku check: what the style bots call by and what the choices table
/// calls a call "with a yaku in sight".
pub fn yaku_in_sight(all: &crate::Counts, is_value: impl Fn(crate::Kind) -> bool) -> bool {
    use crate::{Kind, KINDS};
    let present = || (0..KINDS).filter(|&k| all[k] > 0).map(|k| Kind::from_index(k as u8));
    let value_set = present().any(|k| is_value(k) && all[usize::from(k.index())] >= 2);
    let tanyao = present().all(|k| !k.is_yaochuu());
    // kinds come in index order, so a suit's kinds are next to each other
    let mut suits: Vec<_> = present().filter_map(Kind::suit).collect();
    suits.dedup();
    value_set || tanyao || suits.len() == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_ids_of_winds_and_dragons() {
        use crate::Kind;
        let east = Kind::EAST;
        let south = Kind::from_index(east.index() + 1);
        assert_eq!(of_set(east, east, east).collect::<Vec<_>>(), [14, 10], "double east: the round's first");
        assert_eq!(of_set(south, south, east).collect::<Vec<_>>(), [11]);
        assert_eq!(of_set(south, east, south).collect::<Vec<_>>(), [15]);
        assert_eq!(of_set(Kind::HAKU, east, east).collect::<Vec<_>>(), [18]);
        assert_eq!(of_set(Kind::from_index(33), east, east).collect::<Vec<_>>(), [20], "chun");
        assert_eq!(of_set(Kind::from_index(0), east, east).count(), 0);
        assert_eq!((seat_wind(3), round_wind(1), dragon(Kind::from_index(32))), (13, 15, Some(19)));
        for id in [10, 13, 14, 17, 18, 20] {
            assert!(is_yakuhai(id), "{id}");
        }
    }

    #[test]
    fn a_yaku_in_sight_by_value_pair_simples_or_one_suit() {
        use crate::{Counts, HandNotation};
        let counts = |h: &str| -> Counts { h.parse::<HandNotation>().unwrap().counts };
        let dragons = |k: crate::Kind| k.index() >= 31;
        assert!(yaku_in_sight(&counts("234m567p345s2268s"), dragons), "all simples");
        assert!(!yaku_in_sight(&counts("123m567p345s2268s"), dragons), "a terminal, no value pair");
        assert!(yaku_in_sight(&counts("123m567p345s26s55z"), dragons), "a pair of white dragons");
        assert!(!yaku_in_sight(&counts("123m567p345s26s11z"), dragons), "a pair of a wind not of value");
        assert!(yaku_in_sight(&counts("1123456789m11z"), dragons), "one suit with honors");
    }

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
    fn every_spelling_finds_its_id() {
        for (id, y) in YAKU.iter().enumerate() {
            let id = id as u8;
            let first = |n: &str| id_by_name(n).is_some_and(|found| found == id || YAKU[usize::from(found)].mjai == n);
            assert!(first(y.ja) && y.aliases.iter().all(|a| id_by_name(a).is_some()), "{id} {y:?}");
            assert!(first(y.mjai), "{id} {}", y.mjai);
        }
        assert_eq!(id_by_name("立直"), Some(1));
        assert_eq!(id_by_name("翻牌 白"), Some(18));
        assert_eq!(id_by_name("menzenchin_tsumoho"), Some(0));
        assert_eq!(id_by_name("Double Riichi"), Some(21));
        assert_eq!(id_by_name("国士無双１３面"), Some(48));
        assert_eq!(id_by_name("謎の役"), None);
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
