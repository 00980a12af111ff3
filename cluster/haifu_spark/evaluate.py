#!/usr/bin/env python3
"""`haifu imitate eval` as PySpark code (issue 14): match rates and coverage of the lookup imitator.

Given a dataset written by `haifu ingest` (the test decisions of some years) and the sequence tables of
`haifu mine` (or cluster/haifu_spark/mine.py), prints what `haifu imitate eval ... --json` prints: per player and
overall, per table variant (own, all, others, all-but-own), n_all, n_none_strategy, n_none_hand, c_first,
c_second, c_third, c_top3, r_first, r_top3, coverage, riichi_left_out / riichi_included; for `others` the counts
averaged over every other player's table and the spread (n, mean, sd, min, max) of the rates.

The plan (imitate/src/eval.rs, rank.rs, table.rs, data.rs):

- Spark reads the listed decisions parts of the test years (as mine.py does), picks the players (--players,
  --min-games on the games of the test years), and computes per decision the discard's kind (red five = five),
  the three suit keys and their mirrors (base 5, digit 1 lowest), the honor counts of the concealed hand and the
  winds; the driver turns them into flat Arrow arrays (one row per decision, one per suit candidate: each
  distinct digit held in a suit) and broadcasts them.
- Spark reads `sequences.parquet`, keeps the strategy's rows (none: `all`, fixed:S: `S`) and the sources asked
  for, sums the sources per (scope, before, after) (saturating at u32 as haifu's loader), and groups the rows by
  scope. Each scope's table is one task: it ranks every test decision against that table with Arrow compute
  kernels (vectorised: hash lookups of (before, after) and (mirror before, mirror after), "known before" per
  suit, score = count + mirror count, place = isolated honors + candidates ahead (score greater, or equal and a
  lower kind) + 1), and returns per player the counts n_none_hand, c_first, c_second, c_third. A player's scope
  gives its `own` counts and, with the ALL table broadcast, its `all-but-own` counts (ALL minus own, pairs at 0
  dropped); the ALL scope gives `all`; every player scope gives the `others` counts of every other player.
- The driver sums these integer counts into haifu's JSON (the means and spreads in haifu's order of tables and
  of additions, so the floating point figures are the same to the last bit).

Options that change the figures are haifu's: --years, --players | --min-games, --table, --strategy
(none, fixed:tanyao|chanta|yakuhai, estimated: imitate/src/estimator.rs's rules, fixed for a round once decided),
--include-riichi, --sources.
Spark's own: --master (default local[2]), --driver-memory (3g), --shuffle-partitions (8 with a local master), --tasks (16).

    python cluster/haifu_spark/evaluate.py --dataset DIR --tables TABLES --years 2021,2022 --json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mine import (  # noqa: E402
    ALL_SCOPE, MineError, Store, add_session_args, check_common_args, join, listed_parts, part_files, run_job,
    years_text)

VARIANTS = ["own", "all", "others", "all-but-own"]
SOURCES = ["draw", "chi", "pon", "kan", "nuki"]
STRATEGIES = ["all", "tanyao", "chanta", "yakuhai"]
POW5 = [5 ** i for i in range(9)]
AFTER_BITS = 21  # 5^9 < 2^21: (before, after) as before << 21 | after


class EvalError(MineError):
    pass


# ---------------------------------------------------------------------------------------------------------------
# the test decisions (imitate/src/data.rs)


def mirror_expr(F, key):
    """The mirror's key of a shape key (digit d <-> 10 - d)."""
    return sum((F.floor(key / POW5[i]) % 5) * POW5[8 - i] for i in range(9)).cast("long")


def load_decisions(spark, args):
    """Spark: the test decisions with what ranking needs; the driver: flat arrays for the tasks."""
    from pyspark.sql import functions as F

    store = Store(spark)
    parts = listed_parts(store, args.dataset)
    files = part_files(store, args.dataset, parts, "decisions", args.years)
    cols = ["game_id", "round", "event_index", "kyoku", "seat", "player", "discard", "in_riichi", "hand", "scores",
            "man_before_key", "pin_before_key", "sou_before_key"] + (["melds"] if args.strategy == "estimated" else [])
    d = spark.read.parquet(*files).select(*cols)
    if args.players is not None:
        d = d.where(F.col("player").isin(list(set(args.players))))
    elif args.min_games is not None:
        games = d.groupBy("player").agg(F.countDistinct("game_id").alias("g")).where(F.col("g") >= args.min_games)
        d = d.join(F.broadcast(games.select("player")), "player")
    estimated = args.strategy == "estimated"
    hexhand = F.hex(F.col("hand"))
    honors = [F.conv(F.substring(hexhand, 2 * (27 + i) + 1, 2), 16, 10).cast("int").alias(f"h{i}") for i in range(7)]
    keys = ["man_before_key", "pin_before_key", "sou_before_key"]
    sel = d.select(
        "player", "game_id", "round", "event_index",
        F.col("kyoku").cast("int").alias("kyoku"), F.col("seat").cast("int").alias("seat"),
        F.size("scores").alias("np"), (F.col("discard").cast("int") / 4).cast("int").alias("kind"),
        F.col("in_riichi").alias("riichi"),
        *[F.col(k).cast("long").alias(f"b{i}") for i, k in enumerate(keys)],
        *[mirror_expr(F, F.col(k).cast("long")).alias(f"m{i}") for i, k in enumerate(keys)],
        *honors,
        *([F.col("hand").alias("hand"), F.col("melds").alias("melds")] if estimated else []),
    ).orderBy("player", "game_id", "round", "event_index")
    rows = sel.collect()
    return rows


def winds_of(kyoku: int, seat: int, players: int):
    """rank.rs Winds::of_seat: (round wind, seat wind) as kind indices."""
    np_ = min(max(players, 3), 4)
    dealer = kyoku % 4
    return 27 + min(kyoku // 4, 3), 27 + (seat + np_ - dealer % np_) % np_


# the strategy estimator (imitate/src/estimator.rs): thresholds and rules
TANYAO_MAX_YAOCHUU, CHANTA_MAX_MIDDLE, CHANTA_MIN_YAOCHUU = 1, 0, 5
YAOCHUU = [k >= 27 or k % 9 in (0, 8) for k in range(34)]
TILE_KIND = {f"{d}{s}": 9 * i + d - 1 for i, s in enumerate("mps") for d in range(1, 10)}
TILE_KIND.update({f"5{s}r": 9 * i + 4 for i, s in enumerate("mps")})
TILE_KIND.update({h: 27 + i for i, h in enumerate("ESWNPFC")})


def meld_kinds(text: str):
    """`chi:3p4p5p`, `pon:PPP`, `kakan:5m5m5m5mr` -> kinds; None for nuki and what cannot be read."""
    kind, _, tiles = text.partition(":")
    if not _ or kind == "nuki":
        return None
    out, i = [], 0
    while i < len(tiles):
        n = (3 if tiles[i + 2:i + 3] == "r" else 2) if tiles[i].isdigit() else 1
        k = TILE_KIND.get(tiles[i:i + n])
        if k is None:
            return None
        out.append(k)
        i += n
    return out or None


def estimate(concealed, melds, round_wind: int, seat_wind: int):
    """estimator.rs `estimate`: 1 tanyao, 2 chanta, 3 yakuhai, None undetermined (first rule that matches)."""
    counts = list(concealed)
    n_melds = with_yaochuu = 0
    for text in melds or []:
        kinds = meld_kinds(text)
        if kinds is None:
            continue
        for k in kinds[:3]:  # a kan counts as three tiles
            counts[k] += 1
        n_melds += 1
        with_yaochuu += any(YAOCHUU[k] for k in kinds)
    if any(counts[k] >= 2 and (k >= 31 or k == round_wind or k == seat_wind) for k in range(27, 34)):
        return 3
    yaochuu = sum(c for k, c in enumerate(counts) if YAOCHUU[k])
    if yaochuu <= TANYAO_MAX_YAOCHUU and with_yaochuu == 0:
        return 1
    middle = sum(counts[k] for k in range(27) if k % 9 in (3, 4, 5))
    if middle <= CHANTA_MAX_MIDDLE and yaochuu >= CHANTA_MIN_YAOCHUU and with_yaochuu == n_melds:
        return 2
    return None


class Ranked:
    """The ranked decisions of one strategy's table as flat arrays, players in name order."""

    def __init__(self):
        self.d = {k: [] for k in ("player", "kind", "niso", "isorank", "key3", "disc", "cstart", "cend")}
        self.c = {k: [] for k in ("dec", "suit", "kind", "key", "mkey")}
        self.prange = {}  # player -> (d0, d1, c0, c1)

    def add(self, p: int, r, rw: int, sw: int) -> None:
        d, c = self.d, self.c
        d0, _, c0, _ = self.prange.get(p, (len(d["kind"]), 0, len(c["kind"]), 0))
        # isolated honors: non-value winds first, then value honors, each by kind
        iso = []
        for value in (False, True):
            for i in range(7):
                k = 27 + i
                if r[f"h{i}"] == 1 and (k >= 31 or k == rw or k == sw) == value:
                    iso.append(k)
        kind = r["kind"]
        dec = len(d["kind"])
        d["player"].append(p)
        d["kind"].append(kind)
        d["niso"].append(len(iso))
        d["isorank"].append(iso.index(kind) + 1 if kind >= 27 and kind in iso else 0)
        d["cstart"].append(len(c["kind"]))
        disc = None
        for s in range(3):
            b, m = r[f"b{s}"], r[f"m{s}"]
            d["key3"].append(b)
            for i in range(9):
                if (b // POW5[i]) % 5:
                    if s * 9 + i == kind:
                        disc = len(c["kind"])
                    c["dec"].append(dec)
                    c["suit"].append(dec * 3 + s)
                    c["kind"].append(s * 9 + i)
                    c["key"].append((b << AFTER_BITS) | (b - POW5[i]))
                    c["mkey"].append((m << AFTER_BITS) | (m - POW5[8 - i]))
        d["disc"].append(disc)
        d["cend"].append(len(c["kind"]))
        self.prange[p] = (d0, len(d["kind"]), c0, len(c["kind"]))

    def arrays(self):
        import pyarrow as pa

        i64 = pa.int64()
        out = {f"d_{k}": pa.array(v, i64) for k, v in self.d.items()}
        out.update({f"c_{k}": pa.array(v, i64) for k, v in self.c.items()})
        out["prange"] = self.prange
        return out


def prepare(rows, include_riichi: bool, groups: list[str]):
    """Flat arrays per strategy table (`groups`: ["all"] or the strategy of a fixed mode, or the three of
    `estimated`): players (name order), their static figures, the decisions left unranked because the strategy
    is still undetermined, and per group the ranked decisions with their candidates."""
    estimated = len(groups) > 1
    players, games, decisions, riichi, none_strategy = [], [], [], [], []
    ranked = {g: Ranked() for g in groups}
    last_player, last_game, round_key, fixed = None, None, None, None
    for r in rows:
        if r["player"] != last_player:
            players.append(r["player"])
            games.append(0)
            decisions.append(0)
            riichi.append(0)
            none_strategy.append(0)
            last_player, last_game = r["player"], None
        p = len(players) - 1
        if r["game_id"] != last_game:
            games[p] += 1
            last_game = r["game_id"]
        decisions[p] += 1
        rw, sw = winds_of(r["kyoku"], r["seat"], r["np"])
        group = groups[0]
        if estimated:
            # retried at every decision of the round (riichi ones too) while undetermined, then fixed
            key = (r["game_id"], r["round"], r["seat"])
            if key != round_key:
                round_key, fixed = key, None
            if fixed is None:
                fixed = estimate(r["hand"], r["melds"], rw, sw)
            group = None if fixed is None else STRATEGIES[fixed]
        if r["riichi"]:
            riichi[p] += 1
            if not include_riichi:
                continue
        if group is None:
            none_strategy[p] += 1
            continue
        ranked[group].add(p, r, rw, sw)
    return players, games, decisions, riichi, none_strategy, {g: ranked[g].arrays() for g in groups}


# ---------------------------------------------------------------------------------------------------------------
# ranking against one table (rank.rs rank_of), vectorised with Arrow compute


def table_arrays(rows):
    """(keys sorted, counts, befores) of a table from (before, after, count) rows; counts saturate at u32."""
    import pyarrow as pa
    import pyarrow.compute as pc

    rows = sorted(r for r in rows if r[2] > 0)
    keys = pa.array([(b << AFTER_BITS) | a for b, a, _ in rows], pa.int64())
    counts = pa.array([min(n, 0xFFFFFFFF) for _, _, n in rows], pa.int64())
    befores = pc.unique(pa.array([b for b, _, _ in rows], pa.int64()))
    return keys, counts, befores


def minus(all_t, own_t):
    """table.rs SeqTable::minus: ALL minus own, pair by pair, floored at 0; pairs at 0 disappear."""
    import pyarrow.compute as pc

    keys, counts, _ = all_t
    own = pc.fill_null(pc.take(own_t[1], pc.index_in(keys, value_set=own_t[0])), 0)
    left = pc.subtract(counts, own)
    keep = pc.greater(left, 0)
    keys2, counts2 = pc.filter(keys, keep), pc.filter(left, keep)
    return keys2, counts2, pc.unique(pc.shift_right(keys2, AFTER_BITS))


def rank_counts(A, table, d0, d1, c0, c1, n_players):
    """Per player (index), [n_none_hand, c_first, c_second, c_third] of the ranked decisions d0..d1 against a table."""
    import pyarrow as pa
    import pyarrow.compute as pc

    out = {}
    if d1 <= d0:
        return out
    keys, counts, befores = table
    cnt = lambda k: pc.fill_null(pc.take(counts, pc.index_in(k, value_set=keys)), 0)  # noqa: E731
    score = pc.add(cnt(A["c_key"].slice(c0, c1 - c0)), cnt(A["c_mkey"].slice(c0, c1 - c0)))
    key3 = A["d_key3"].slice(3 * d0, 3 * (d1 - d0))
    known = pc.and_(pc.is_in(key3, value_set=befores), pc.not_equal(key3, 0))
    valid = pc.take(known, pc.subtract(A["c_suit"].slice(c0, c1 - c0), 3 * d0))
    cdec = pc.subtract(A["c_dec"].slice(c0, c1 - c0), d0)
    disc = pc.subtract(A["d_disc"].slice(d0, d1 - d0), c0)  # null: the discard is not a suit candidate
    disc_valid = pc.fill_null(pc.take(valid, disc), False)
    st = pc.take(score, disc)
    st_c = pc.take(st, cdec)
    kind_d = A["d_kind"].slice(d0, d1 - d0)
    kd_c = pc.take(kind_d, cdec)
    ckind = A["c_kind"].slice(c0, c1 - c0)
    beats = pc.and_(valid, pc.or_(pc.greater(score, st_c),
                                  pc.and_(pc.equal(score, st_c), pc.less(ckind, kd_c))))
    beats = pc.fill_null(beats, False)
    cum = pa.concat_arrays([pa.array([0], pa.int64()), pc.cumulative_sum(pc.cast(beats, pa.int64()))])
    ahead = pc.subtract(pc.take(cum, pc.subtract(A["d_cend"].slice(d0, d1 - d0), c0)),
                        pc.take(cum, pc.subtract(A["d_cstart"].slice(d0, d1 - d0), c0)))
    niso = A["d_niso"].slice(d0, d1 - d0)
    suit_rank = pc.if_else(disc_valid, pc.add(pc.add(niso, ahead), 1), 0)
    rank = pc.if_else(pc.greater_equal(kind_d, 27), A["d_isorank"].slice(d0, d1 - d0), suit_rank)
    idx = pa.array(range(0, 3 * (d1 - d0), 3), pa.int64())
    any_known = pc.or_(pc.or_(pc.take(known, idx), pc.take(known, pc.add(idx, 1))), pc.take(known, pc.add(idx, 2)))
    answered = pc.or_(any_known, pc.greater(niso, 0))
    i64 = pa.int64()
    t = pa.table({
        "p": A["d_player"].slice(d0, d1 - d0),
        "none": pc.cast(pc.invert(answered), i64),
        "c1": pc.cast(pc.and_(answered, pc.equal(rank, 1)), i64),
        "c2": pc.cast(pc.and_(answered, pc.equal(rank, 2)), i64),
        "c3": pc.cast(pc.and_(answered, pc.equal(rank, 3)), i64),
    })
    g = t.group_by("p").aggregate([("none", "sum"), ("c1", "sum"), ("c2", "sum"), ("c3", "sum")])
    for p, a, b, c, e in zip(*[g.column(n).to_pylist() for n in ("p", "none_sum", "c1_sum", "c2_sum", "c3_sum")]):
        out[p] = [a, b, c, e]
    return out


def scope_task(bc, plan):
    """The work of one scope's tables: a function of (scope, rows) giving (variant, player, scope, counts) rows,
    the counts summed over the strategy tables the decisions were ranked against."""

    def run(item):
        scope, rows = item
        index, todo, variants = plan["index"], plan["todo"], plan["variants"]
        p = index.get(scope)
        sums = {}

        def add(variant, q, c):
            old = sums.setdefault((variant, q), [0, 0, 0, 0])
            for i in range(4):
                old[i] += c[i]

        for group in plan["groups"]:
            A, all_t = bc.value["arrays"][group], bc.value["all"][group]
            nd, nc = len(A["d_kind"]), len(A["c_kind"])
            table = table_arrays([(b, a, n) for g, b, a, n in rows or [] if g == group])
            if scope == ALL_SCOPE:
                if "all" in variants:
                    for q, c in rank_counts(A, table, 0, nd, 0, nc, None).items():
                        add("all", q, c)
                continue
            own = None
            if "others" in variants:
                whole = rank_counts(A, table, 0, nd, 0, nc, None)
                for q in todo:
                    if q != p:
                        add("others", q, whole.get(q, [0, 0, 0, 0]))
                own = whole.get(p, [0, 0, 0, 0]) if p is not None else None
            if p is None or p not in plan["todo_set"]:
                continue
            d0, d1, c0, c1 = A["prange"].get(p, (0, 0, 0, 0))
            if "own" in variants:
                if own is None:
                    own = rank_counts(A, table, d0, d1, c0, c1, None).get(p, [0, 0, 0, 0])
                add("own", p, own)
            if "all-but-own" in variants:
                add("all-but-own", p, rank_counts(A, minus(all_t, table), d0, d1, c0, c1, None).get(p, [0, 0, 0, 0]))
        # every (variant, player) this scope answers for, with zeros where no decision was ranked
        if scope == ALL_SCOPE:
            keys = [("all", q) for q in todo] if "all" in variants else []
        else:
            keys = [("others", q) for q in todo if q != p] if "others" in variants else []
            if p is not None and p in plan["todo_set"]:
                keys += [(v, p) for v in ("own", "all-but-own") if v in variants]
        return [(v, q, scope, sums.get((v, q), [0, 0, 0, 0])) for v, q in keys]

    return run


# ---------------------------------------------------------------------------------------------------------------
# the report (eval.rs Counts, Spread, OthersReport, VariantReport; src/imitate.rs eval_cmd)


def ratio(a, b):
    return a / b if b > 0 else None


def counts_json(c, include_riichi):
    n_all, n_s, n_h, c1, c2, c3, ri = c
    answered = n_all - n_s - n_h
    v = {"n_all": n_all, "n_none_strategy": n_s, "n_none_hand": n_h, "c_first": c1, "c_second": c2, "c_third": c3,
         "c_top3": c1 + c2 + c3, "r_first": ratio(c1, answered), "r_top3": ratio(c1 + c2 + c3, answered),
         "coverage": ratio(answered, n_all)}
    v["riichi_included" if include_riichi else "riichi_left_out"] = ri
    return v


def spread(values):
    import math

    if not values:
        return None
    n = float(len(values))
    s = 0.0
    for x in values:
        s += x
    mean = s / n
    q = 0.0
    for x in values:
        q += (x - mean) * (x - mean)
    return {"n": len(values), "mean": mean, "sd": math.sqrt(q / n), "min": min(values), "max": max(values)}


def others_json(tables, include_riichi):
    """tables: the counts (7) per other table, in scope order."""
    n = max(len(tables), 1)
    sums = [0] * 7
    for c in tables:
        sums = [a + b for a, b in zip(sums, c)]
    m = [x / n for x in sums]
    rates = {"r_first": [], "r_top3": [], "coverage": []}
    for c in tables:
        answered = c[0] - c[1] - c[2]
        for k, v in (("r_first", ratio(c[3], answered)), ("r_top3", ratio(c[3] + c[4] + c[5], answered)),
                     ("coverage", ratio(answered, c[0]))):
            if v is not None:
                rates[k].append(v)
    sp = {k: spread(v) for k, v in rates.items()}
    v = {"tables": len(tables), "n_all": m[0], "n_none_strategy": m[1], "n_none_hand": m[2], "c_first": m[3],
         "c_second": m[4], "c_third": m[5], "c_top3": m[3] + m[4] + m[5],
         "r_first": sp["r_first"]["mean"] if sp["r_first"] else None,
         "r_top3": sp["r_top3"]["mean"] if sp["r_top3"] else None,
         "coverage": sp["coverage"]["mean"] if sp["coverage"] else None,
         "spread": sp}
    v["riichi_included" if include_riichi else "riichi_left_out"] = m[6]
    return v, m


def round_half_away(x: float) -> int:
    import math

    f = math.floor(x)
    return f + 1 if x - f >= 0.5 else f


def evaluate(spark, args) -> dict:
    from pyspark.sql import functions as F

    t0 = time.monotonic()
    rows = load_decisions(spark, args)
    groups = STRATEGIES[1:] if args.strategy == "estimated" else [{"none": "all"}.get(args.strategy) or
                                                                   args.strategy.split(":", 1)[1]]
    players, games, decisions, riichi, none_strategy, A = prepare(rows, args.include_riichi, groups)
    if args.players is not None:
        missing = [p for p in args.players if p not in set(players)]
        if missing:
            raise EvalError(f"unknown player{'s' if len(missing) > 1 else ''} {', '.join(missing)}: no decisions in "
                            f"{args.dataset} for years {years_text(args.years)}")
    if not players:
        raise EvalError(f"no test player in {args.dataset} for years {args.years} (--min-games {args.min_games})")
    load_data_s = time.monotonic() - t0

    t1 = time.monotonic()
    store = Store(spark)
    seq_path = join(args.tables, "sequences.parquet")
    if not store.is_file(seq_path):
        raise EvalError(f"{seq_path} is missing: write the tables with `haifu mine`")
    meta = None
    if store.is_file(join(args.tables, "meta.json")):
        meta = json.loads(store.read_text(join(args.tables, "meta.json")))
    seq = spark.read.parquet(seq_path)
    scopes = sorted(r["scope"] for r in seq.select("scope").distinct().collect())
    scope_set = set(scopes)
    t = seq.where(F.col("strategy").isin(groups))
    if args.sources is not None:
        t = t.where(F.col("source").isin(args.sources))
    if "others" not in args.variants:
        t = t.where(F.col("scope").isin(players + [ALL_SCOPE]))
    t = t.groupBy("scope", "strategy", "before_key", "after_key").agg(F.sum("count").alias("count"))
    all_rows = {g: [] for g in groups}
    for r in t.where(F.col("scope") == ALL_SCOPE).select("strategy", "before_key", "after_key", "count").collect():
        all_rows[r["strategy"]].append((r["before_key"], r["after_key"], r["count"]))
    load_tables_s = time.monotonic() - t1

    # which players are evaluated (eval.rs run)
    needs_own = any(v in ("own", "all-but-own") for v in args.variants)
    todo, skipped = [], []
    for p, name in enumerate(players):
        if needs_own and name not in scope_set:
            if args.players is not None:
                raise EvalError(f"unknown player {name!r}: {seq_path} has no table for this player")
            skipped.append({"player": name, "reason": "no own sequence table"})
            continue
        todo.append(p)
    for v in args.variants:
        if v in ("all", "all-but-own") and ALL_SCOPE not in scope_set:
            raise EvalError(f"{seq_path} has no ALL table (needed by `{v}`)")

    t2 = time.monotonic()
    sc = spark.sparkContext
    bc = sc.broadcast({"arrays": A, "all": {g: table_arrays(all_rows[g]) for g in groups}})
    plan = {"index": {n: i for i, n in enumerate(players)}, "todo": todo, "todo_set": set(todo),
            "variants": list(args.variants), "groups": groups}
    # one task per scope the variants read
    wanted = [s for s in scopes if s == ALL_SCOPE or "others" in args.variants or s in plan["index"]]
    by_scope = t.select("scope", "strategy", "before_key", "after_key", "count").rdd.map(
        lambda r: (r[0], (r[1], int(r[2]), int(r[3]), int(r[4])))).groupByKey(args.tasks)
    every = sc.parallelize([(s, None) for s in wanted], args.tasks).leftOuterJoin(by_scope, args.tasks)
    results = every.map(lambda kv: (kv[0], kv[1][1])).flatMap(scope_task(bc, plan)).collect()
    bc.unpersist()
    eval_s = time.monotonic() - t2

    # counts (7: n_all, n_none_strategy, n_none_hand, c_first, c_second, c_third, in_riichi) per player, variant
    n_ranked = [sum(r - d for d, r, _, _ in (A[g]["prange"].get(p, (0, 0, 0, 0)) for g in groups))
                for p in range(len(players))]
    got = {}
    for v, p, scope, c in results:
        got[(v, p, scope)] = [n_ranked[p] + none_strategy[p], none_strategy[p], c[0], c[1], c[2], c[3], riichi[p]]
    player_rows, overall = [], {v: [0] * 7 for v in args.variants}
    evaluated = 0
    for p in todo:
        name = players[p]
        vs = {}
        for v in args.variants:
            if v == "others":
                tables = [got[("others", p, s)] for s in scopes if s != ALL_SCOPE and s != name]
                vs[v], m = others_json(tables, args.include_riichi)
                overall[v] = [a + round_half_away(b) for a, b in zip(overall[v], m)]
                evaluated += decisions[p] * len(tables)
            else:
                scope = ALL_SCOPE if v == "all" else name
                c = got[(v, p, scope)]
                vs[v] = counts_json(c, args.include_riichi)
                overall[v] = [a + b for a, b in zip(overall[v], c)]
                evaluated += decisions[p]
        player_rows.append({"player": name, "games": games[p], "decisions": decisions[p], "variants": vs})

    options = meta.get("options") if isinstance(meta, dict) else None
    overlap = [y for y in (options or {}).get("years") or [] if isinstance(y, int) and y in args.years]
    return {
        "dataset": args.dataset, "years": args.years, "players_selected": args.players, "min_games": args.min_games,
        "tables": args.tables, "tables_options": options, "sources": args.sources, "strategy": args.strategy,
        "include_riichi": args.include_riichi, "test_years_in_tables": overlap, "variants": args.variants,
        "players": player_rows,
        "overall": {v: counts_json(c, args.include_riichi) for v, c in overall.items()},
        "backoff": None, "skipped": skipped,
        "timing": {"load_data_s": load_data_s, "load_tables_s": load_tables_s, "eval_s": eval_s,
                   "evaluated": evaluated, "evaluated_per_s": evaluated / max(eval_s, 1e-9),
                   "threads": sc.defaultParallelism, "engine": "spark"},
    }


def print_text(out):
    print(f"{'player':<20} {'variant':<12} {'n_all':>8} {'R_first':>8} {'R_top3':>8} {'coverage':>8}")
    pct = lambda x: "-" if x is None else f"{100 * x:.2f}%"  # noqa: E731
    for pr in out["players"]:
        for v, c in pr["variants"].items():
            print(f"{pr['player']:<20} {v:<12} {c['n_all']:>8} {pct(c['r_first']):>8} {pct(c['r_top3']):>8} "
                  f"{pct(c['coverage']):>8}")
    for v, c in out["overall"].items():
        print(f"{'overall':<20} {v:<12} {c['n_all']:>8} {pct(c['r_first']):>8} {pct(c['r_top3']):>8} "
              f"{pct(c['coverage']):>8}")
    tm = out["timing"]
    print(f"loaded decisions in {tm['load_data_s']:.2f}s, tables in {tm['load_tables_s']:.2f}s; evaluated "
          f"{tm['evaluated']} (decision, table) pairs in {tm['eval_s']:.2f}s (spark)")


def parse_args(argv=None):
    p = argparse.ArgumentParser(prog="haifu_spark/evaluate.py",
                                description="haifu imitate eval on Spark: match rates and coverage per player and overall")
    p.add_argument("--dataset", required=True, help="dataset written by `haifu ingest` (the test decisions)")
    p.add_argument("--years", required=True, help="test years, comma-separated")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--players", help="test players, comma-separated (default: every player of the years)")
    who.add_argument("--min-games", type=int, help="test players with at least this many games in the test years")
    p.add_argument("--tables", required=True, help="directory written by `haifu mine` (or mine.py)")
    p.add_argument("--table", default="own,all,others,all-but-own",
                   help="table variants, comma-separated: own, all, others, all-but-own")
    p.add_argument("--strategy", default="none", help="none, fixed:tanyao|chanta|yakuhai or estimated")
    p.add_argument("--include-riichi", action="store_true", help="rank discards made while already in riichi too")
    p.add_argument("--sources", help="sum only these sources of the tables (draw, chi, pon, kan, nuki)")
    add_session_args(p)
    p.add_argument("--tasks", type=int, default=16, help="tasks the tables are spread over (default: 16)")
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    check_common_args(p, a)
    variants = []
    for v in a.table.split(","):
        if v not in VARIANTS:
            p.error(f"unknown table {v!r}: own, all, others or all-but-own")
        if v not in variants:
            variants.append(v)
    a.variants = variants
    if a.strategy == "fixed:all":
        a.strategy = "none"
    if a.strategy not in ["none", "estimated"] + [f"fixed:{s}" for s in STRATEGIES[1:]]:
        p.error(f"unknown strategy mode {a.strategy!r}: none, fixed:tanyao|chanta|yakuhai or estimated")
    a.sources = a.sources.split(",") if a.sources is not None else None
    return a


def main(argv=None) -> int:
    args = parse_args(argv)
    # the Python workers rank with pyarrow: the driver's interpreter (the venv's), unless told otherwise
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    return run_job(args, evaluate, print_text)


if __name__ == "__main__":
    sys.exit(main())
