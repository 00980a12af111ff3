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
(none, fixed:tanyao|chanta|yakuhai; `estimated` is not done yet), --include-riichi, --sources.
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
    ALL_SCOPE, MineError, Store, add_session_args, check_session_args, join, listed_parts, part_files, run_job,
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
            "man_before_key", "pin_before_key", "sou_before_key"]
    d = spark.read.parquet(*files).select(*cols)
    if args.players is not None:
        d = d.where(F.col("player").isin(list(set(args.players))))
    elif args.min_games is not None:
        games = d.groupBy("player").agg(F.countDistinct("game_id").alias("g")).where(F.col("g") >= args.min_games)
        d = d.join(F.broadcast(games.select("player")), "player")
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
    ).orderBy("player", "game_id", "round", "event_index")
    rows = sel.collect()
    return rows


def winds_of(kyoku: int, seat: int, players: int):
    """rank.rs Winds::of_seat: (round wind, seat wind) as kind indices."""
    np_ = min(max(players, 3), 4)
    dealer = kyoku % 4
    return 27 + min(kyoku // 4, 3), 27 + (seat + np_ - dealer % np_) % np_


def prepare(rows, include_riichi: bool):
    """Flat arrays: players (name order), their static figures, and the ranked decisions with their candidates."""
    import pyarrow as pa

    players, games, decisions, riichi = [], [], [], []
    d_player, d_kind, d_niso, d_isorank, d_key3, d_disc, d_cstart, d_cend = [], [], [], [], [], [], [], []
    c_dec, c_suit, c_kind, c_key, c_mkey = [], [], [], [], []
    prange = []  # per player: (d0, d1, c0, c1) of its ranked decisions
    last_player, last_game = None, None
    for r in rows:
        if r["player"] != last_player:
            if last_player is not None:
                prange[-1] = (prange[-1][0], len(d_kind), prange[-1][2], len(c_kind))
            players.append(r["player"])
            games.append(0)
            decisions.append(0)
            riichi.append(0)
            prange.append((len(d_kind), None, len(c_kind), None))
            last_player, last_game = r["player"], None
        p = len(players) - 1
        if r["game_id"] != last_game:
            games[p] += 1
            last_game = r["game_id"]
        decisions[p] += 1
        if r["riichi"]:
            riichi[p] += 1
            if not include_riichi:
                continue
        # isolated honors: non-value winds first, then value honors, each by kind
        rw, sw = winds_of(r["kyoku"], r["seat"], r["np"])
        iso = []
        for value in (False, True):
            for i in range(7):
                k = 27 + i
                if r[f"h{i}"] == 1 and (k >= 31 or k == rw or k == sw) == value:
                    iso.append(k)
        kind = r["kind"]
        dec = len(d_kind)
        d_player.append(p)
        d_kind.append(kind)
        d_niso.append(len(iso))
        d_isorank.append(iso.index(kind) + 1 if kind >= 27 and kind in iso else 0)
        d_cstart.append(len(c_kind))
        disc = None
        for s in range(3):
            b, m = r[f"b{s}"], r[f"m{s}"]
            d_key3.append(b)
            for i in range(9):
                if (b // POW5[i]) % 5:
                    if s * 9 + i == kind:
                        disc = len(c_kind)
                    c_dec.append(dec)
                    c_suit.append(dec * 3 + s)
                    c_kind.append(s * 9 + i)
                    c_key.append((b << AFTER_BITS) | (b - POW5[i]))
                    c_mkey.append((m << AFTER_BITS) | (m - POW5[8 - i]))
        d_disc.append(disc)
        d_cend.append(len(c_kind))
    if prange:
        prange[-1] = (prange[-1][0], len(d_kind), prange[-1][2], len(c_kind))
    i64 = pa.int64()
    arrays = {
        "d_player": pa.array(d_player, i64), "d_kind": pa.array(d_kind, i64), "d_niso": pa.array(d_niso, i64),
        "d_isorank": pa.array(d_isorank, i64), "d_key3": pa.array(d_key3, i64), "d_disc": pa.array(d_disc, i64),
        "d_cstart": pa.array(d_cstart, i64), "d_cend": pa.array(d_cend, i64),
        "c_dec": pa.array(c_dec, i64), "c_suit": pa.array(c_suit, i64), "c_kind": pa.array(c_kind, i64),
        "c_key": pa.array(c_key, i64), "c_mkey": pa.array(c_mkey, i64),
        "prange": prange,
    }
    return players, games, decisions, riichi, arrays


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
    """The work of one scope's table: a function of (scope, rows) giving (variant, player, scope, counts) rows."""

    def run(item):
        scope, rows = item
        A, all_t = bc.value["arrays"], bc.value["all"]
        index, todo, variants = plan["index"], plan["todo"], plan["variants"]
        nd, nc = len(A["d_kind"]), len(A["c_kind"])
        table = table_arrays(list(rows or []))
        res = []
        if scope == ALL_SCOPE:
            if "all" in variants:
                for p, c in rank_counts(A, table, 0, nd, 0, nc, None).items():
                    res.append(("all", p, scope, c))
            return res
        p = index.get(scope)
        if "others" in variants:
            whole = rank_counts(A, table, 0, nd, 0, nc, None)
            for q in todo:
                if q != p:
                    res.append(("others", q, scope, whole.get(q, [0, 0, 0, 0])))
            own = whole.get(p, [0, 0, 0, 0]) if p is not None else None
        else:
            own = None
        if p is None or p not in plan["todo_set"]:
            return res
        d0, d1, c0, c1 = A["prange"][p]
        if "own" in variants:
            if own is None:
                own = rank_counts(A, table, d0, d1, c0, c1, None).get(p, [0, 0, 0, 0])
            res.append(("own", p, scope, own))
        if "all-but-own" in variants:
            abo = rank_counts(A, minus(all_t, table), d0, d1, c0, c1, None).get(p, [0, 0, 0, 0])
            res.append(("all-but-own", p, scope, abo))
        return res

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
    players, games, decisions, riichi, A = prepare(rows, args.include_riichi)
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
    strategy = {"none": "all"}.get(args.strategy) or args.strategy.split(":", 1)[1]
    t = seq.where(F.col("strategy") == strategy)
    if args.sources is not None:
        t = t.where(F.col("source").isin(args.sources))
    if "others" not in args.variants:
        t = t.where(F.col("scope").isin(players + [ALL_SCOPE]))
    t = t.groupBy("scope", "before_key", "after_key").agg(F.sum("count").alias("count"))
    all_rows = [(r["before_key"], r["after_key"], r["count"]) for r in
                t.where(F.col("scope") == ALL_SCOPE).select("before_key", "after_key", "count").collect()]
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
    bc = sc.broadcast({"arrays": A, "all": table_arrays(all_rows)})
    plan = {"index": {n: i for i, n in enumerate(players)}, "todo": todo, "todo_set": set(todo),
            "variants": list(args.variants)}
    # one task per scope the variants read
    wanted = [s for s in scopes if s == ALL_SCOPE or "others" in args.variants or s in plan["index"]]
    by_scope = t.select("scope", "before_key", "after_key", "count").rdd.map(
        lambda r: (r[0], (int(r[1]), int(r[2]), int(r[3])))).groupByKey(args.tasks)
    every = sc.parallelize([(s, None) for s in wanted], args.tasks).leftOuterJoin(by_scope, args.tasks)
    results = every.map(lambda kv: (kv[0], kv[1][1])).flatMap(scope_task(bc, plan)).collect()
    bc.unpersist()
    eval_s = time.monotonic() - t2

    # counts (7: n_all, n_none_strategy, n_none_hand, c_first, c_second, c_third, in_riichi) per player, variant
    n_ranked = [A["prange"][p][1] - A["prange"][p][0] for p in range(len(players))]
    got = {}
    for v, p, scope, c in results:
        got[(v, p, scope)] = [n_ranked[p], 0, c[0], c[1], c[2], c[3], riichi[p]]
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
    p.add_argument("--strategy", default="none", help="none or fixed:tanyao|chanta|yakuhai (estimated: not yet)")
    p.add_argument("--include-riichi", action="store_true", help="rank discards made while already in riichi too")
    p.add_argument("--sources", help="sum only these sources of the tables (draw, chi, pon, kan, nuki)")
    add_session_args(p)
    p.add_argument("--tasks", type=int, default=16, help="tasks the tables are spread over (default: 16)")
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    check_session_args(p, a)
    try:
        a.years = [int(y) for y in a.years.split(",") if y.strip()]
    except ValueError:
        p.error(f"--years: not a list of years: {a.years!r}")
    a.players = a.players.split(",") if a.players is not None else None
    variants = []
    for v in a.table.split(","):
        if v not in VARIANTS:
            p.error(f"unknown table {v!r}: own, all, others or all-but-own")
        if v not in variants:
            variants.append(v)
    a.variants = variants
    if a.strategy == "fixed:all":
        a.strategy = "none"
    if a.strategy == "estimated":
        p.error("--strategy estimated is not done on Spark yet (none, fixed:tanyao|chanta|yakuhai)")
    if a.strategy != "none" and a.strategy not in [f"fixed:{s}" for s in STRATEGIES[1:]]:
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
