//! Typed values of the rich mjlog tags (`INIT`, `AGARI`, `RYUUKYOKU`, `REACH`, `UN`, `GO`, `BYE`): each is read
//! from its tag's attributes once, when the log is read ([`TagValue::parse`]), and written as Tenhou writes it
//! ([`TagValue::to_tag`]). The events carry them ([`crate::event::Event`], with the tag as written).

use haifu_rules::Tile;

use crate::event::{Event, Rich, Tag, TagValue};

/// Parses `a,b,c` into numbers; empty text is an empty list.
pub fn num_list<T: std::str::FromStr>(s: &str) -> Result<Vec<T>, String> {
    if s.trim().is_empty() {
        return Ok(Vec::new());
    }
    // reserved once: a collected `Split` cannot say its length, and grew the list by copying
    let mut out = Vec::with_capacity(s.bytes().filter(|&b| b == b',').count() + 1);
    for x in s.split(',') {
        out.push(x.trim().parse::<T>().map_err(|_| format!("{x:?} is not a number in {s:?}"))?);
    }
    Ok(out)
}

fn attr<'a>(t: &'a Tag, key: &str) -> Result<&'a str, String> {
    t.get(key).ok_or_else(|| format!("<{}> has no {key}", t.name))
}

fn num<T: std::str::FromStr>(t: &Tag, key: &str) -> Result<T, String> {
    let v = attr(t, key)?;
    v.trim().parse().map_err(|_| format!("<{} {key}={v:?}> is not a number", t.name))
}

fn tiles(s: &str) -> Result<Vec<Tile>, String> {
    if s.trim().is_empty() {
        return Ok(Vec::new());
    }
    // one pass over the bytes, no list of numbers in between: every INIT and AGARI has hands to read (issue 31);
    // anything but ids of at most three digits between commas is left to the careful reading below, which names
    // what is wrong
    if let Some(tiles) = plain_tiles(s.as_bytes()) {
        return Ok(tiles);
    }
    let tile = |x: &str| {
        let id = x.trim().parse::<u8>().map_err(|_| format!("{x:?} is not a number in {s:?}"))?;
        Tile::new(id).ok_or_else(|| format!("tile id {id} out of range"))
    };
    s.split(',').map(tile).collect()
}

/// `12,34,135`: tile ids of one to three digits between commas, each in range; `None` for anything else.
fn plain_tiles(b: &[u8]) -> Option<Vec<Tile>> {
    let mut out = Vec::with_capacity(b.len() / 2 + 1);
    for piece in b.split(|&c| c == b',') {
        if piece.is_empty() || piece.len() > 3 || !piece.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let id = piece.iter().fold(0u16, |n, d| n * 10 + u16::from(d - b'0'));
        out.push(Tile::new(u8::try_from(id).ok()?)?);
    }
    Some(out)
}

fn four<T: Copy + Default>(v: &[T], what: &str) -> Result<[T; 4], String> {
    if v.len() < 3 || v.len() > 4 {
        return Err(format!("{what}: expected 3 or 4 values, got {}", v.len()));
    }
    let mut out = [T::default(); 4];
    out[..v.len()].copy_from_slice(v);
    Ok(out)
}

/// `<INIT>`: the start of a round.
#[derive(Clone, Debug, PartialEq)]
pub struct Init {
    /// Round number: 0 = East 1, 4 = South 1, 8 = West 1.
    pub kyoku: u8,
    pub honba: u8,
    /// Riichi sticks on the table.
    pub kyotaku: u8,
    pub dice: [u8; 2],
    pub dora_indicator: Tile,
    /// Scores in points (the tag stores hundreds).
    pub scores: [i32; 4],
    pub dealer: u8,
    /// Starting hands (13 tiles; empty for the absent seat of a 3-player game).
    pub hands: [Vec<Tile>; 4],
}

impl TagValue for Init {
    const NAME: &'static str = "INIT";
    fn to_tag(&self) -> Tag {
        self.tag()
    }
    fn parse(t: &Tag) -> Result<Init, String> {
        let seed: Vec<u32> = num_list(attr(t, "seed")?)?;
        if seed.len() != 6 {
            return Err(format!("INIT seed has {} values, expected 6", seed.len()));
        }
        let small = |i: usize| u8::try_from(seed[i]).map_err(|_| format!("INIT seed value {} too large", seed[i]));
        let dora = Tile::new(small(5)?).ok_or("INIT dora indicator out of range")?;
        let ten: Vec<i32> = num_list(attr(t, "ten")?)?;
        let scores = four(&ten, "INIT ten")?.map(|x| x * 100);
        let mut hands: [Vec<Tile>; 4] = Default::default();
        for (h, key) in hands.iter_mut().zip(["hai0", "hai1", "hai2", "hai3"]) {
            *h = tiles(t.get(key).unwrap_or(""))?;
        }
        Ok(Init {
            kyoku: small(0)?,
            honba: small(1)?,
            kyotaku: small(2)?,
            dice: [small(3)?, small(4)?],
            dora_indicator: dora,
            scores,
            dealer: num(t, "oya")?,
            hands,
        })
    }
}

impl Init {
    /// The table's size: the absent seat of a 3-player game is dealt no hand.
    pub fn players(&self) -> u8 {
        if self.hands[3].is_empty() {
            3
        } else {
            4
        }
    }
}

/// One yaku of a win: Tenhou id (SPEC 1.3) and han (13 per yakuman level for yakuman).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Yaku {
    pub id: u8,
    pub han: u8,
}

/// `<AGARI>`: a win.
#[derive(Clone, Debug, PartialEq)]
pub struct Agari {
    pub honba: u8,
    pub kyotaku: u8,
    /// Concealed tiles including the winning tile.
    pub hand: Vec<Tile>,
    pub melds: Vec<u32>,
    pub machi: Tile,
    pub fu: u32,
    pub points: i32,
    /// 0 none, 1 mangan, 2 haneman, 3 baiman, 4 sanbaiman, 5 yakuman.
    pub limit: u8,
    pub yaku: Vec<Yaku>,
    pub yakuman: Vec<u8>,
    pub dora_indicators: Vec<Tile>,
    pub ura_indicators: Vec<Tile>,
    pub who: u8,
    pub from_who: u8,
    pub pao_who: Option<u8>,
    /// Scores before and changes, in points.
    pub before: [i32; 4],
    pub delta: [i32; 4],
    pub owari: Option<Owari>,
}

/// Final scores (points) and final game points with uma, from `owari`.
#[derive(Clone, Debug, PartialEq)]
pub struct Owari {
    pub scores: [i32; 4],
    pub points: [f64; 4],
}

fn parse_sc(t: &Tag) -> Result<([i32; 4], [i32; 4]), String> {
    let sc: Vec<i32> = num_list(attr(t, "sc")?)?;
    if sc.len() != 8 && sc.len() != 6 {
        return Err(format!("<{} sc> has {} values, expected 8", t.name, sc.len()));
    }
    let (mut before, mut delta) = ([0; 4], [0; 4]);
    for i in 0..sc.len() / 2 {
        before[i] = sc[2 * i] * 100;
        delta[i] = sc[2 * i + 1] * 100;
    }
    Ok((before, delta))
}

fn parse_owari(t: &Tag) -> Result<Option<Owari>, String> {
    let Some(o) = t.get("owari") else { return Ok(None) };
    let v: Vec<f64> = num_list(o)?;
    if v.len() != 8 && v.len() != 6 {
        return Err(format!("owari has {} values, expected 8", v.len()));
    }
    let (mut scores, mut points) = ([0; 4], [0.0; 4]);
    for i in 0..v.len() / 2 {
        scores[i] = (v[2 * i] * 100.0).round() as i32;
        points[i] = v[2 * i + 1];
    }
    Ok(Some(Owari { scores, points }))
}

fn ba(t: &Tag) -> Result<(u8, u8), String> {
    let v: Vec<u8> = num_list(attr(t, "ba")?)?;
    match v[..] {
        [h, k] => Ok((h, k)),
        _ => Err(format!("<{} ba> must hold two values", t.name)),
    }
}

impl TagValue for Agari {
    const NAME: &'static str = "AGARI";
    fn to_tag(&self) -> Tag {
        self.tag()
    }
    fn parse(t: &Tag) -> Result<Agari, String> {
        let (honba, kyotaku) = ba(t)?;
        let ten: Vec<i64> = num_list(attr(t, "ten")?)?;
        let [fu, points, limit] = ten[..] else { return Err("AGARI ten must hold fu,points,limit".into()) };
        let yaku_pairs: Vec<u8> = num_list(t.get("yaku").unwrap_or(""))?;
        if !yaku_pairs.len().is_multiple_of(2) {
            return Err("AGARI yaku must hold id,han pairs".into());
        }
        let (before, delta) = parse_sc(t)?;
        let machi = tiles(attr(t, "machi")?)?;
        Ok(Agari {
            honba,
            kyotaku,
            hand: tiles(attr(t, "hai")?)?,
            melds: num_list(t.get("m").unwrap_or(""))?,
            machi: *machi.first().ok_or("AGARI machi is empty")?,
            fu: u32::try_from(fu).map_err(|_| "AGARI fu negative")?,
            points: i32::try_from(points).map_err(|_| "AGARI points out of range")?,
            limit: u8::try_from(limit).map_err(|_| "AGARI limit out of range")?,
            yaku: yaku_pairs.chunks(2).map(|p| Yaku { id: p[0], han: p[1] }).collect(),
            yakuman: num_list(t.get("yakuman").unwrap_or(""))?,
            dora_indicators: tiles(t.get("doraHai").unwrap_or(""))?,
            ura_indicators: tiles(t.get("doraHaiUra").unwrap_or(""))?,
            who: num(t, "who")?,
            from_who: num(t, "fromWho")?,
            pao_who: t.get("paoWho").map(|_| num(t, "paoWho")).transpose()?,
            before,
            delta,
            owari: parse_owari(t)?,
        })
    }
}

impl Agari {
    pub fn is_tsumo(&self) -> bool {
        self.who == self.from_who
    }
    /// Total han (yakuman count as 13 each).
    pub fn han(&self) -> u32 {
        self.yaku.iter().map(|y| u32::from(y.han)).sum::<u32>() + 13 * self.yakuman.len() as u32
    }
}

/// Kinds of draws: exhaustive, abortive, and nagashi mangan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawKind {
    Exhaustive,
    /// Nine terminals and honors (kyuushu kyuuhai).
    Yao9,
    /// Four riichi.
    Reach4,
    /// Triple ron.
    Ron3,
    /// Four kans by different players.
    Kan4,
    /// Four same winds on the first go-around.
    Kaze4,
    /// Nagashi mangan.
    Nagashi,
}

impl DrawKind {
    pub fn name(self) -> &'static str {
        match self {
            DrawKind::Exhaustive => "exhaustive",
            DrawKind::Yao9 => "yao9",
            DrawKind::Reach4 => "reach4",
            DrawKind::Ron3 => "ron3",
            DrawKind::Kan4 => "kan4",
            DrawKind::Kaze4 => "kaze4",
            DrawKind::Nagashi => "nm",
        }
    }
    /// An abortive draw (tochuu ryuukyoku): the hand ends before the wall is exhausted.
    pub fn is_abortive(self) -> bool {
        !matches!(self, DrawKind::Exhaustive | DrawKind::Nagashi)
    }
}

/// `<RYUUKYOKU>`: a draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Ryuukyoku {
    pub kind: DrawKind,
    pub honba: u8,
    pub kyotaku: u8,
    /// Hands shown, by seat (tenpai hands at an exhaustive draw; the declarer's hand for yao9).
    pub shown: [Option<Vec<Tile>>; 4],
    pub before: [i32; 4],
    pub delta: [i32; 4],
    pub owari: Option<Owari>,
}

impl TagValue for Ryuukyoku {
    const NAME: &'static str = "RYUUKYOKU";
    fn to_tag(&self) -> Tag {
        self.tag()
    }
    fn parse(t: &Tag) -> Result<Ryuukyoku, String> {
        let kind = match t.get("type") {
            None => DrawKind::Exhaustive,
            Some("yao9") => DrawKind::Yao9,
            Some("reach4") => DrawKind::Reach4,
            Some("ron3") => DrawKind::Ron3,
            Some("kan4") => DrawKind::Kan4,
            Some("kaze4") => DrawKind::Kaze4,
            Some("nm") => DrawKind::Nagashi,
            Some(other) => return Err(format!("RYUUKYOKU type={other:?} unknown")),
        };
        let (honba, kyotaku) = ba(t)?;
        let (before, delta) = parse_sc(t)?;
        let mut shown: [Option<Vec<Tile>>; 4] = Default::default();
        for (i, s) in shown.iter_mut().enumerate() {
            if let Some(h) = t.get(&format!("hai{i}")) {
                *s = Some(tiles(h)?);
            }
        }
        Ok(Ryuukyoku { kind, honba, kyotaku, shown, before, delta, owari: parse_owari(t)? })
    }
}

/// `<REACH>`: step 1 announces the riichi discard, step 2 (absent when the discard is ronned) pays the stick.
#[derive(Clone, Debug, PartialEq)]
pub struct Reach {
    pub who: u8,
    pub step: u8,
    /// Scores after the stick is paid (step 2; old logs omit it).
    pub scores: Option<[i32; 4]>,
}

impl TagValue for Reach {
    const NAME: &'static str = "REACH";
    fn to_tag(&self) -> Tag {
        self.tag()
    }
    fn parse(t: &Tag) -> Result<Reach, String> {
        let scores = match t.get("ten") {
            Some(s) => Some(four(&num_list::<i32>(s)?, "REACH ten")?.map(|x| x * 100)),
            None => None,
        };
        Ok(Reach { who: num(t, "who")?, step: num(t, "step")?, scores })
    }
}

/// Decodes Tenhou's percent-encoded UTF-8 names (`%E3%81%82` -> `あ`).
pub fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// One seat's entry of `<UN>`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Player {
    pub name: String,
    /// Tenhou rank index (0 = new, 9 = 1-kyu, 10 = 1-dan, 17 = 8-dan, 20 = tenhoui); None when absent.
    pub dan: Option<i8>,
    pub rate: Option<f32>,
    pub sex: Option<String>,
}

/// `<UN>`: the players by seat (with `n0..n3`), or a reconnection (a single `nX`).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Players(pub [Option<Player>; 4]);

impl TagValue for Players {
    const NAME: &'static str = "UN";
    fn parse(t: &Tag) -> Result<Players, String> {
        parse_un(t).map(Players)
    }
    /// Every seat's name, and dan, rate and sex for a table (more than one name), as Tenhou writes them.
    fn to_tag(&self) -> Tag {
        let seated: Vec<Player> = self.0.iter().flatten().cloned().collect();
        if seated.len() > 1 {
            return un_tag(&seated);
        }
        let mut t = Tag::new("UN");
        for (i, p) in self.0.iter().enumerate() {
            if let Some(p) = p {
                t = t.with(&format!("n{i}"), percent_encode(&p.name));
            }
        }
        t
    }
}

impl Players {
    /// The players of a full table, seat by seat, as `UN` shows them: read back from the tag Tenhou would write
    /// ([`un_tag`]), so that what it leaves unknown (dan, rate, sex) reads as a guest's (0, 1500, `C`) and rates
    /// as two decimals.
    pub fn seated(players: &[Player]) -> Players {
        // numbers the tag itself wrote always parse
        parse_un(&un_tag(players)).map(Players).unwrap_or_default()
    }
}

/// `<GO type= lobby=>`: the table's rules (`type`; absent in a few old logs) and lobby.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Go {
    pub game_type: Option<GameType>,
    /// The lobby (0 for the ranked ones); a value that is not a number is read as none.
    pub lobby: Option<i64>,
}

impl TagValue for Go {
    const NAME: &'static str = "GO";
    fn parse(t: &Tag) -> Result<Go, String> {
        let game_type = match t.get("type") {
            Some(v) => Some(GameType(v.trim().parse().map_err(|_| format!("GO type={v:?} is not a number"))?)),
            None => None,
        };
        Ok(Go { game_type, lobby: t.get("lobby").and_then(|l| l.trim().parse().ok()) })
    }
    fn to_tag(&self) -> Tag {
        let mut t = Tag::new("GO");
        if let Some(g) = self.game_type {
            t = t.with("type", g.0.to_string());
        }
        if let Some(l) = self.lobby {
            t = t.with("lobby", l.to_string());
        }
        t
    }
}

/// `<BYE who=>`: a seat disconnected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bye {
    pub who: u8,
}

impl TagValue for Bye {
    const NAME: &'static str = "BYE";
    fn parse(t: &Tag) -> Result<Bye, String> {
        let who: u8 = t.get("who").and_then(|w| w.trim().parse().ok()).ok_or("BYE without who")?;
        if who > 3 {
            return Err("BYE who out of range".into());
        }
        Ok(Bye { who })
    }
    fn to_tag(&self) -> Tag {
        Tag::new("BYE").with("who", self.who.to_string())
    }
}

fn parse_un(t: &Tag) -> Result<[Option<Player>; 4], String> {
    let dan: Vec<i8> = t.get("dan").map(num_list).transpose()?.unwrap_or_default();
    let rate: Vec<f32> = t.get("rate").map(num_list).transpose()?.unwrap_or_default();
    let sx: Vec<&str> = t.get("sx").map(|s| s.split(',').collect()).unwrap_or_default();
    let mut out: [Option<Player>; 4] = Default::default();
    for (i, p) in out.iter_mut().enumerate() {
        if let Some(n) = t.get(&format!("n{i}")) {
            *p = Some(Player {
                name: percent_decode(n),
                dan: dan.get(i).copied(),
                rate: rate.get(i).copied(),
                sex: sx.get(i).map(|s| s.to_string()),
            });
        }
    }
    Ok(out)
}

pub use haifu_rules::table::GameType;

/// Joins numbers as Tenhou writes lists: `1,2,3`.
pub fn join<T: std::fmt::Display>(v: impl IntoIterator<Item = T>) -> String {
    let mut s = String::new();
    for (i, x) in v.into_iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&x.to_string());
    }
    s
}

fn tile_ids(v: &[Tile]) -> String {
    join(v.iter().map(|t| t.id()))
}

fn sc_attr(before: &[i32; 4], delta: &[i32; 4], n_players: usize) -> String {
    join((0..n_players).flat_map(|i| [before[i] / 100, delta[i] / 100]))
}

fn owari_attr(o: &Owari, n_players: usize) -> String {
    join((0..n_players).flat_map(|i| [format!("{}", o.scores[i] / 100), format!("{:.1}", o.points[i])]))
}

/// Writing typed tags back, as Tenhou writes them (used by the tenhou.net/6 and mjai readers and the simulator).
impl Init {
    fn tag(&self) -> Tag {
        let seed = join([self.kyoku, self.honba, self.kyotaku, self.dice[0], self.dice[1], self.dora_indicator.id()]);
        let mut t = Tag::new("INIT")
            .with("seed", seed)
            .with("ten", join(self.scores.iter().map(|s| s / 100)))
            .with("oya", self.dealer.to_string());
        for (i, h) in self.hands.iter().enumerate() {
            t = t.with(&format!("hai{i}"), tile_ids(h));
        }
        t
    }
}

impl Agari {
    /// Four `sc` / `owari` pairs, as Tenhou writes them in 3-player games too.
    fn tag(&self) -> Tag {
        let n_players = 4;
        let mut t = Tag::new("AGARI").with("ba", join([self.honba, self.kyotaku])).with("hai", tile_ids(&self.hand));
        if !self.melds.is_empty() {
            t = t.with("m", join(&self.melds));
        }
        t = t
            .with("machi", self.machi.id().to_string())
            .with("ten", join([self.fu as i64, self.points as i64, self.limit as i64]));
        if !self.yaku.is_empty() {
            t = t.with("yaku", join(self.yaku.iter().flat_map(|y| [y.id, y.han])));
        }
        if !self.yakuman.is_empty() {
            t = t.with("yakuman", join(&self.yakuman));
        }
        t = t.with("doraHai", tile_ids(&self.dora_indicators));
        if !self.ura_indicators.is_empty() {
            t = t.with("doraHaiUra", tile_ids(&self.ura_indicators));
        }
        t = t.with("who", self.who.to_string()).with("fromWho", self.from_who.to_string());
        if let Some(p) = self.pao_who {
            t = t.with("paoWho", p.to_string());
        }
        t = t.with("sc", sc_attr(&self.before, &self.delta, n_players));
        if let Some(o) = &self.owari {
            t = t.with("owari", owari_attr(o, n_players));
        }
        t
    }
}

impl Ryuukyoku {
    /// Four `sc` / `owari` pairs, as Tenhou writes them in 3-player games too.
    fn tag(&self) -> Tag {
        let n_players = 4;
        let mut t = Tag::new("RYUUKYOKU");
        if self.kind != DrawKind::Exhaustive {
            t = t.with("type", self.kind.name());
        }
        t = t.with("ba", join([self.honba, self.kyotaku])).with("sc", sc_attr(&self.before, &self.delta, n_players));
        for (i, h) in self.shown.iter().enumerate() {
            if let Some(h) = h {
                t = t.with(&format!("hai{i}"), tile_ids(h));
            }
        }
        if let Some(o) = &self.owari {
            t = t.with("owari", owari_attr(o, n_players));
        }
        t
    }
}

/// The tag that ends a round, held by a writer (the engine, the test kit) until it knows whether the game ends
/// there, when `owari` goes on it.
#[derive(Clone, Debug)]
pub enum RoundEndTag {
    Agari(Box<Agari>),
    Ryuukyoku(Box<Ryuukyoku>),
}

impl RoundEndTag {
    /// The round's end as an event, carrying `owari` when the game ends with it.
    pub fn with_owari(self, owari: Option<Owari>) -> Event {
        match self {
            RoundEndTag::Agari(mut a) => {
                a.owari = owari;
                Event::Agari(Rich::new(*a))
            }
            RoundEndTag::Ryuukyoku(mut d) => {
                d.owari = owari;
                Event::Ryuukyoku(Rich::new(*d))
            }
        }
    }
}

impl Reach {
    fn tag(&self) -> Tag {
        let mut t = Tag::new("REACH").with("who", self.who.to_string());
        if let Some(s) = self.scores {
            t = t.with("ten", join(s.iter().map(|x| x / 100)));
        }
        t.with("step", self.step.to_string())
    }
}

/// Percent-encodes a name as Tenhou's `UN` does (every byte outside ASCII letters and digits).
pub fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len() * 3);
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `<UN>` for a full table.
pub fn un_tag(players: &[Player]) -> Tag {
    let mut t = Tag::new("UN");
    for (i, p) in players.iter().enumerate() {
        t = t.with(&format!("n{i}"), percent_encode(&p.name));
    }
    let dan = join(players.iter().map(|p| p.dan.unwrap_or(0)));
    let rate = join(players.iter().map(|p| format!("{:.2}", p.rate.unwrap_or(1500.0))));
    let sx = join(players.iter().map(|p| p.sex.clone().unwrap_or_else(|| "C".into())));
    t.with("dan", dan).with("rate", rate).with("sx", sx)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_type_bits() {
        let houou = GameType(169);
        assert!(houou.hanchan() && houou.red() && houou.kuitan() && !houou.three_player());
        assert_eq!(houou.level(), "houou");
        assert!(!GameType(225).hanchan());
        assert!(GameType(185).three_player());
        assert!(!GameType(0x03).red());
        assert!(!GameType(0x05).kuitan());
    }

    #[test]
    fn names_decode() {
        assert_eq!(percent_decode("%E3%81%82abc"), "あabc");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%4"), "%4");
    }

    #[test]
    fn agari_fields() {
        let t = Tag::new("AGARI")
            .with("ba", "1,1")
            .with("hai", "4,8,12,16,20,24,52,56,60,100,101,108,109,110")
            .with("machi", "110")
            .with("ten", "30,3900,0")
            .with("yaku", "1,1,8,1,52,0,53,0")
            .with("doraHai", "3")
            .with("who", "2")
            .with("fromWho", "0")
            .with("sc", "250,-49,240,0,250,59,250,0");
        let a = Agari::parse(&t).unwrap();
        assert_eq!((a.fu, a.points, a.han()), (30, 3900, 2));
        assert_eq!(a.delta, [-4900, 0, 5900, 0]);
        assert!(!a.is_tsumo());
        assert!(Agari::parse(&Tag::new("AGARI").with("ba", "0")).is_err());
    }

    /// The byte-level reading of tile lists and the careful one agree, and what the quick one refuses the careful
    /// one reads or names.
    #[test]
    fn tile_lists_read_alike_both_ways() {
        let ids = |v: Vec<Tile>| v.iter().map(|t| t.id()).collect::<Vec<_>>();
        assert_eq!(ids(tiles("4,8,135,0").unwrap()), [4, 8, 135, 0]);
        assert_eq!(plain_tiles(b"4,8,135,0").map(ids), Some(vec![4, 8, 135, 0]));
        // spaces and leading zeros are not plain, yet valid
        assert_eq!(plain_tiles(b"4, 8"), None);
        assert_eq!(ids(tiles("4, 8").unwrap()), [4, 8]);
        assert_eq!(ids(tiles("0004").unwrap()), [4]);
        for bad in ["4,,8", "136", "4,x", "-1", "4,"] {
            assert_eq!(plain_tiles(bad.as_bytes()), None, "{bad}");
            assert!(tiles(bad).is_err(), "{bad}");
        }
        assert!(tiles("136").unwrap_err().contains("out of range"));
        assert_eq!(num_list::<i32>("250,-49, 240").unwrap(), [250, -49, 240]);
        assert!(num_list::<i32>("250,x").unwrap_err().contains("\"x\""));
    }
}
