#!/usr/bin/env python3
"""`haifu mine` as PySpark DataFrame code (issue 14).

Reads a dataset written by `haifu ingest` (only the parts `_haifu/parts.jsonl` lists, as haifu's readers do) and
writes the sequence tables of docs/SCHEMA.md ("Sequence tables") into OUT: `sequences.parquet`, `players.parquet`
(one file each, haifu's column names, types, nullability and row order) and `meta.json` (haifu's keys, engine
"spark"). The plan mirrors mining/src/polars_engine.rs:

- the tables a decision feeds: `all` (every decision, or with --rounds won those of rounds that ended in a win),
  and `tanyao` / `chanta` / `yakuhai` (the seat won the round with that strategy's yaku, or with
  --strategy-rounds all: some win of the round realised it), the round flags coming from the rounds table;
- one copy of a decision per table it feeds; per suit, the rows whose shape keys changed; GROUP BY player,
  strategy, source, before, after; `ALL` is the sum over every player, a player scope the chosen players' rows;
- rounds and decisions per (scope, strategy) from the decisions per (player, strategy, game, round).

Run it with spark-submit, or with the venv's python (local mode, --master local[2] by default):

    python cluster/haifu_spark/mine.py --dataset DIR --out TABLES [--years 2019,2020] [--min-games 5] ...
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import uuid
from datetime import datetime, timezone

# docs/SCHEMA.md and mining/src/mine.rs
ALL_SCOPE = "ALL"
SOURCES = ["draw", "chi", "pon", "kan", "nuki"]
STRATEGIES = ["all", "tanyao", "chanta", "yakuhai"]
# mining/src/strategy.rs: the yaku ids of each strategy (Tenhou ids, SPEC 1.3)
STRATEGY_YAKU = {"tanyao": [8], "chanta": [23, 33], "yakuhai": list(range(10, 21))}
SUIT_KEY_COLUMNS = [
    ("man_before_key", "man_after_key"),
    ("pin_before_key", "pin_after_key"),
    ("sou_before_key", "sou_after_key"),
]
# ingest/src/parts.rs SCHEMA_VERSION: the decisions schema this reader knows
SCHEMA_VERSION = 3
META_DIR = "_haifu"


class MineError(Exception):
    """An error haifu would report too (exit 1, one line on stderr)."""


# ---------------------------------------------------------------------------------------------------------------
# files, through the cluster's own file systems


class Store:
    """Files through Hadoop's FileSystem API in Spark's JVM, so that the job reads and writes wherever the
    cluster's Spark does (a local path, hdfs://, s3a://, gs://, abfss://, dbfs:/, /Volumes/...) with the cluster's
    credentials, and nothing here needs a client of its own. A path without a scheme is on the cluster's default
    file system (`fs.defaultFS`: the local disk in local mode and on a standalone cluster without HDFS)."""

    def __init__(self, spark):
        self._jvm = spark._jvm
        self._conf = spark._jsc.hadoopConfiguration()

    def _path(self, path: str):
        return self._jvm.org.apache.hadoop.fs.Path(path)

    def _fs(self, path: str):
        return self._path(path).getFileSystem(self._conf)

    def status(self, path: str):
        """The file's status, or None where nothing is."""
        fs = self._fs(path)
        p = self._path(path)
        return fs.getFileStatus(p) if fs.exists(p) else None

    def is_file(self, path: str) -> bool:
        st = self.status(path)
        return st is not None and st.isFile()

    def is_dir(self, path: str) -> bool:
        st = self.status(path)
        return st is not None and st.isDirectory()

    def list(self, path: str) -> list[tuple[str, bool, int]]:
        """(name, is a folder, bytes) of the entries of a folder, sorted by name; none where it is missing."""
        if not self.is_dir(path):
            return []
        return sorted((st.getPath().getName(), bool(st.isDirectory()), int(st.getLen()))
                      for st in self._fs(path).listStatus(self._path(path)))

    def read_text(self, path: str) -> str:
        jvm = self._jvm
        buf = jvm.java.io.ByteArrayOutputStream()
        stream = self._fs(path).open(self._path(path))
        try:
            jvm.org.apache.hadoop.io.IOUtils.copyBytes(stream, buf, 1 << 16, False)
        finally:
            stream.close()
        return buf.toString("UTF-8")

    def get(self, path: str, local: str) -> None:
        """Downloads `path` to the local file `local` (replaced)."""
        self._fs(path).copyToLocalFile(False, self._path(path), self._path("file://" + os.path.abspath(local)), True)

    def mkdirs(self, path: str) -> None:
        self._fs(path).mkdirs(self._path(path))

    def delete(self, path: str) -> None:
        self._fs(path).delete(self._path(path), True)

    def put(self, local: str, path: str) -> None:
        """Uploads a local file to `path`: first beside it under a hidden name, then renamed over it, so a reader
        finds the whole old file, the whole new one, or (for an instant, where rename does not replace) none."""
        # the folder's own file system (a mount table's target: viewfs://, Databricks' /Volumes)
        Path = self._jvm.org.apache.hadoop.fs.Path
        want = self._path(path)
        folder = want.getParent().getFileSystem(self._conf).resolvePath(want.getParent())
        fs = folder.getFileSystem(self._conf)
        fs.setWriteChecksum(False)  # the local file system's .crc side files are no part of haifu's tables
        dst = Path(folder, want.getName())
        tmp = Path(folder, f".{want.getName()}.{uuid.uuid4().hex}.tmp")
        fs.copyFromLocalFile(False, True, self._path("file://" + os.path.abspath(local)), tmp)
        if fs.exists(dst):
            fs.delete(dst, False)
        if not fs.rename(tmp, dst):
            fs.delete(tmp, False)
            raise MineError(f"could not rename {tmp} to {path}")


def join(base: str, *names: str) -> str:
    """A path under `base`, which may be a URI (s3a://bucket/prefix) or a local path."""
    return "/".join([base.rstrip("/")] + [n.strip("/") for n in names])


# ---------------------------------------------------------------------------------------------------------------
# the part list (ingest/src/parts.rs, mining/src/dataset.rs)


def jsonl(store: Store, path: str):
    """(line number, object) of a JSON-lines file's non-empty lines."""
    for i, line in enumerate(store.read_text(path).splitlines(), 1):
        if line.strip():
            yield i, json.loads(line)


def committed_runs(store: Store, dataset: str) -> set[str]:
    path = join(dataset, META_DIR, "runs.jsonl")
    if not store.is_file(path):
        return set()
    return {r for _, e in jsonl(store, path) if isinstance(r := e.get("run"), str)}


def listed_parts(store: Store, dataset: str) -> dict[str, dict]:
    """The part list folded (adds less removes), committed runs only, by file (sorted as haifu's BTreeMap)."""
    path = join(dataset, META_DIR, "parts.jsonl")
    runs = committed_runs(store, dataset)
    if not store.is_file(path):
        if not runs:
            raise MineError(f"{dataset} is not a haifu dataset (no {META_DIR}/runs.jsonl): write one with `haifu ingest`")
        raise MineError(
            f"{dataset} was written before datasets listed their parts (no {META_DIR}/parts.jsonl): ingest the logs "
            f"again, or run `haifu check --adopt {dataset}` to record the parts it holds"
        )
    parts: dict[str, dict] = {}
    for i, e in jsonl(store, path):
        if e.get("run") not in runs:
            continue
        if e["op"] == "add":
            parts[e["file"]] = e
        elif e["op"] == "remove":
            parts.pop(e["file"], None)
        else:
            raise MineError(f"{path} line {i}: unknown op {e['op']!r}")
    return dict(sorted(parts.items()))


def years_text(years: list[int]) -> str:
    return ",".join(str(y) for y in years) if years else "(all)"


def part_year(file: str) -> int | None:
    name = os.path.basename(os.path.dirname(file))
    if not name.startswith("year="):
        return None
    try:
        return int(name[len("year=") :])
    except ValueError:
        return None


def part_files(store: Store, dataset: str, parts: dict[str, dict], table: str, years: list[int]) -> list[str]:
    """The listed parts of `table` for the years (every year, unknown included, when none), each checked to be
    there with the listed size. (haifu checks the xxh3 checksum too; that needs a package this path leaves out.)"""
    if not store.is_dir(join(dataset, table)):
        raise MineError(f"{dataset} has no {table} table ({join(dataset, table)} is missing)")
    if any(e["table"] == "decisions" and e.get("schema", 1) < SCHEMA_VERSION for e in parts.values()):
        old = min(e.get("schema", 1) for e in parts.values() if e["table"] == "decisions")
        raise MineError(
            f"{dataset}: its decisions table has schema version {old} (written by an older haifu); this reader "
            f"reads version {SCHEMA_VERSION}: ingest the logs again into a new folder (`haifu ingest LOGS --out NEW_DIR`)"
        )
    # one listing per partition folder gives what is there and each file's size (on object storage one request
    # per folder, not one per part)
    on_disk = {}
    for folder, is_dir, _ in store.list(join(dataset, table)):
        if is_dir:
            for name, sub, size in store.list(join(dataset, table, folder)):
                if not sub and name.endswith(".parquet") and not name.startswith("."):
                    on_disk[f"{table}/{folder}/{name}"] = size
    files = []
    for file, e in parts.items():
        if e["table"] != table:
            continue
        path = join(dataset, file)
        if file not in on_disk:
            raise MineError(f"{path} is missing: the dataset lists it ({e['rows']} rows of {table}, run {e['run']})")
        if on_disk[file] != e["bytes"]:
            raise MineError(f"{path} differs from the part the dataset lists ({e['bytes']} bytes; found {on_disk[file]})")
        files.append(file)
    for rel in sorted(set(on_disk) - set(files)):
        print(f"haifu-spark: note: {join(dataset, rel)} is not one of the dataset's parts (no commit lists it): "
              f"left out", file=sys.stderr)
    chosen = [join(dataset, f) for f in files if not years or part_year(f) in years]
    if not chosen:
        raise MineError(f"{dataset} has no {table} for years {years_text(years)}")
    return chosen


# ---------------------------------------------------------------------------------------------------------------
# the query


def strategy_of(F, yaku_list, strategy: str):
    """Whether a list of yaku ids holds one of the strategy's (null list: false)."""
    ids = STRATEGY_YAKU[strategy]
    return F.coalesce(F.exists(yaku_list, lambda y: y.isin(ids)), F.lit(False))


def win_of(F, strategy: str):
    """A one-argument lambda (Spark counts the parameters) telling whether a win's yaku realise the strategy."""
    return lambda w: strategy_of(F, w["yaku"], strategy)


def in_sample(F, game_id, fraction: float | None):
    """mine.rs `in_sample`: splitmix64 of the game id (ingest/src/stored.rs `game_hash`) below f * u64::MAX.
    Needs wrapping 64-bit arithmetic (spark.sql.ansi.enabled false)."""
    if fraction is None:
        return F.lit(True)

    def signed(c: int):
        return F.lit(c - (1 << 64) if c >= 1 << 63 else c).cast("long")

    z = game_id.cast("long") + signed(0x9E3779B97F4A7C15)
    z = (z.bitwiseXOR(F.shiftrightunsigned(z, 30))) * signed(0xBF58476D1CE4E5B9)
    z = (z.bitwiseXOR(F.shiftrightunsigned(z, 27))) * signed(0x94D049BB133111EB)
    z = z.bitwiseXOR(F.shiftrightunsigned(z, 31))
    # as an unsigned value, rounded once to a double (Rust `hash as f64`)
    unsigned = F.when(z < 0, z.cast("decimal(20,0)") + F.lit(str(1 << 64)).cast("decimal(20,0)")).otherwise(
        z.cast("decimal(20,0)"))
    return unsigned.cast("double") < F.lit(fraction * float((1 << 64) - 1))


def shape_text(F, key):
    """The digits of a shape key (mining/src/shape.rs `Shape::text`): nine base-5 digits, digit 1 lowest, '-' when
    empty; and the number of tiles."""
    counts = [F.floor(key / (5 ** d)) % 5 for d in range(9)]
    # digit d+1 written counts[d] times (0-4; a lookup, as Spark 3.5's repeat takes no column)
    runs = [F.array(*[F.lit(str(d + 1) * n) for n in range(5)]) for d in range(9)]
    text = F.concat(*[F.element_at(runs[d], counts[d].cast("int") + 1) for d in range(9)])
    tiles = sum(counts[1:], counts[0])
    return F.when(text == "", F.lit("-")).otherwise(text), tiles


def scope_index_of(spark, F, games_per_player, players: list[str], args):
    """(player, scope_i): each chosen player's place in `players` (sorted), from 1. Made in the JVM, not from a
    Python list, so that the executors run no Python: from the listed names (a short list) or, for every player
    or --min-games, by numbering the present players in name order (Spark's binary string order is the code
    point order of Python's sort)."""
    from pyspark.sql import Window

    if args.players is not None:
        names = F.array(*[F.lit(p) for p in players])
        i = (F.col("id") + 1).cast("int")
        return spark.range(len(players)).select(F.element_at(names, i).alias("player"), i.alias("scope_i"))
    chosen = games_per_player
    if args.min_games is not None:
        chosen = chosen.where(F.col("games") >= args.min_games)
    return chosen.select("player", F.row_number().over(Window.orderBy("player")).cast("int").alias("scope_i"))


def mine(spark, args) -> dict:
    from pyspark.sql import functions as F

    start = time.monotonic()
    dataset = args.dataset
    store = Store(spark)
    parts = listed_parts(store, dataset)
    decisions_files = part_files(store, dataset, parts, "decisions", args.years)
    rounds_files = part_files(store, dataset, parts, "rounds", args.years)
    if args.sample is not None and not (0.0 < args.sample <= 1.0):
        raise MineError(f"the sample fraction must be in (0, 1], not {args.sample}")

    columns = ["game_id", "round", "player", "source", "outcome", "win_yaku"] + [c for p in SUIT_KEY_COLUMNS for c in p]
    d = spark.read.parquet(*decisions_files).select(*columns)
    if args.sample is not None:
        d = d.where(in_sample(F, F.col("game_id"), args.sample))
    d = d.cache()

    # games per player (distinct games among the player's decisions) and the rows read
    games_per_player = d.groupBy("player").agg(F.countDistinct("game_id").alias("games")).cache()
    per_player = {r["player"]: r["games"] for r in games_per_player.collect()}
    decisions_read = d.count()
    if args.players is not None:
        players = sorted(set(args.players))
        if args.sample is None:
            missing = [p for p in args.players if p not in per_player]
            if missing:
                raise MineError(
                    f"unknown player{'s' if len(missing) > 1 else ''} {', '.join(missing)}: no decisions in {dataset} "
                    f"for years {years_text(args.years)}")
    elif args.min_games is not None:
        players = sorted(p for p, g in per_player.items() if g >= args.min_games)
    else:
        players = sorted(per_player)
    if ALL_SCOPE in players:
        raise MineError(f"a player named {ALL_SCOPE!r} would clash with the all-players scope")
    rounds = spark.read.parquet(*rounds_files).select("game_id", "round", "result", "wins")
    if args.sample is not None:
        rounds = rounds.where(in_sample(F, F.col("game_id"), args.sample))
    all_games = rounds.select("game_id").distinct().count()
    scopes = [ALL_SCOPE] + players
    games = [all_games] + [per_player.get(p, 0) for p in players]

    # the tables each decision feeds
    if args.rounds == "won" or args.strategy_rounds == "all":
        flags = rounds.select(
            "game_id", "round",
            (F.col("result") == "agari").alias("r_won"),
            *[F.coalesce(F.exists("wins", win_of(F, s)), F.lit(False)).alias(f"r_{s}") for s in STRATEGY_YAKU],
        ).groupBy("game_id", "round").agg(*[F.bool_or(c).alias(c) for c in ["r_won"] + [f"r_{s}" for s in STRATEGY_YAKU]])
        d = d.join(flags, ["game_id", "round"], "left")
    fed_all = F.lit(True) if args.rounds == "all" else F.coalesce(F.col("r_won"), F.lit(False))
    fed = {"all": fed_all}
    for s in STRATEGY_YAKU:
        if args.strategy_rounds == "winner":
            fed[s] = (F.col("outcome") == "win") & strategy_of(F, F.col("win_yaku"), s)
        else:
            fed[s] = F.coalesce(F.col(f"r_{s}"), F.lit(False))
    tables = F.filter(F.array(*[F.when(fed[s], F.lit(i)) for i, s in enumerate(STRATEGIES)]), lambda x: x.isNotNull())
    # one row per (decision, table it feeds)
    fd = d.select("game_id", "round", "player", "source", *[c for p in SUIT_KEY_COLUMNS for c in p],
                  F.explode(tables).alias("strategy")).cache()

    unknown = fd.where(~F.col("source").isin(SOURCES)).select("source").limit(1).collect()
    if unknown:
        raise MineError(f"unknown source {unknown[0]['source']!r} (one of {', '.join(SOURCES)})")

    # per suit, the decisions whose shape changed
    suits = F.filter(
        F.array(*[F.struct(F.col(b).cast("long").alias("b"), F.col(a).cast("long").alias("a")) for b, a in SUIT_KEY_COLUMNS]),
        lambda s: s["b"] != s["a"])
    pairs = fd.select("player", "strategy", "source", F.explode(suits).alias("s")).select(
        "player", "strategy", "source", F.col("s.b").alias("before_key"), F.col("s.a").alias("after_key"))
    by_player = pairs.groupBy("player", "strategy", "source", "before_key", "after_key").agg(F.count("*").alias("count"))
    by_player = by_player.cache()
    scope_index = scope_index_of(spark, F, games_per_player, players, args)
    keys = ["strategy", "source", "before_key", "after_key"]
    all_rows = by_player.groupBy(*keys).agg(F.sum("count").alias("count")).select(F.lit(0).alias("scope_i"), *keys, "count")
    player_rows = by_player.join(F.broadcast(scope_index), "player").select("scope_i", *keys, "count")
    # the source's place in haifu's order (a CASE: Spark 3.5's array_position takes no column)
    source_i = F.lit(0)
    for i, s in enumerate(SOURCES):
        source_i = F.when(F.col("source") == s, F.lit(i + 1)).otherwise(source_i)
    seq = all_rows.unionByName(player_rows).withColumn("source_i", source_i)
    seq = seq.orderBy("scope_i", "strategy", "source_i", "before_key", "after_key")

    scope_names = F.element_at(F.array(*[F.lit(s) for s in scopes]), F.col("scope_i") + 1)
    strategy_names = F.element_at(F.array(*[F.lit(s) for s in STRATEGIES]), F.col("strategy") + 1)
    before_text, before_len = shape_text(F, F.col("before_key"))
    after_text, _ = shape_text(F, F.col("after_key"))
    out_seq = seq.select(
        scope_names.alias("scope"), strategy_names.alias("strategy"), F.col("source"),
        before_text.alias("before"), after_text.alias("after"),
        F.col("before_key"), F.col("after_key"), before_len.cast("int").alias("length"), F.col("count").cast("long"),
    )

    # per (scope, strategy): sequences and distinct (before, after) pairs over sources
    seq_stats = seq.groupBy("scope_i", "strategy").agg(
        F.sum("count").alias("sequences"),
        F.count_distinct("before_key", "after_key").alias("distinct"),
    ).collect()
    # rounds and decisions: from the decisions per (player, strategy, game, round)
    per_round = fd.groupBy("player", "strategy", "game_id", "round").agg(F.count("*").alias("n")).cache()
    player_stats = per_round.join(F.broadcast(scope_index), "player").groupBy("scope_i", "strategy").agg(
        F.count("*").alias("rounds"), F.sum("n").alias("decisions")).collect()
    all_stats = per_round.groupBy("strategy", "game_id", "round").agg(F.sum("n").alias("n")).groupBy("strategy").agg(
        F.count("*").alias("rounds"), F.sum("n").alias("decisions")).collect()

    stats = [[{"rounds": 0, "decisions": 0, "sequences": 0, "distinct": 0} for _ in STRATEGIES] for _ in scopes]
    for r in player_stats:
        stats[r["scope_i"]][r["strategy"]].update(rounds=int(r["rounds"]), decisions=int(r["decisions"]))
    for r in all_stats:
        stats[0][r["strategy"]].update(rounds=int(r["rounds"]), decisions=int(r["decisions"]))
    for r in seq_stats:
        stats[r["scope_i"]][r["strategy"]].update(sequences=int(r["sequences"]), distinct=int(r["distinct"]))

    store.mkdirs(args.out)
    rows = write_sequences(spark, store, out_seq, args.out)
    write_players(store, scopes, games, stats, join(args.out, "players.parquet"))
    for df in (d, games_per_player, fd, by_player, per_round):
        df.unpersist()

    meta = {
        "haifu": haifu_version(),
        "dataset": dataset,
        "created": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "options": {
            "years": args.years,
            "players": args.players,
            "min_games": args.min_games,
            "rounds": args.rounds,
            "strategy_rounds": args.strategy_rounds,
            "engine": "spark",
            "sample": args.sample,
        },
        "decisions_read": decisions_read,
        "scopes": len(scopes),
        "players": len(scopes) - 1,
        "rows": rows,
        "all": {s: {k: stats[0][i][k] for k in ("decisions", "distinct", "rounds", "sequences")}
                for i, s in enumerate(STRATEGIES)},
        "elapsed_s": time.monotonic() - start,
    }
    put_text(store, join(args.out, "meta.json"), json.dumps(meta, indent=2, sort_keys=True) + "\n")
    return meta


# ---------------------------------------------------------------------------------------------------------------
# writing haifu's files (mining/src/tables.rs)


def required(fields):
    """A pyarrow schema of non-null columns: haifu's tables hold no nulls."""
    import pyarrow as pa

    return pa.schema([pa.field(name, kind, nullable=False) for name, kind in fields])


def sequences_schema():
    import pyarrow as pa

    text, u32, u64 = pa.string(), pa.uint32(), pa.uint64()
    return required([("scope", text), ("strategy", text), ("source", text), ("before", text), ("after", text),
                     ("before_key", u32), ("after_key", u32), ("length", pa.uint8()), ("count", u64)])


def players_schema():
    import pyarrow as pa

    text, u64 = pa.string(), pa.uint64()
    return required([("scope", text), ("strategy", text), ("games", pa.uint32()), ("rounds", u64),
                     ("decisions", u64), ("sequences", u64), ("distinct", u64)])


def conform(table, schema):
    """A table cast to haifu's schema (Spark has no unsigned types and writes nullable columns); refuses nulls."""
    import pyarrow as pa

    arrays = []
    for field in schema:
        c = table.column(field.name)
        if c.null_count:
            raise MineError(f"column {field.name} has {c.null_count} nulls")
        arrays.append(c.cast(field.type))  # safe cast: a value out of range is an error, not a wrap
    return pa.Table.from_arrays(arrays, schema=schema)


def writer(path: str, schema):
    import pyarrow.parquet as pq

    # haifu: zstd level 1, row groups of up to 1Mi rows (arrow-rs's default)
    return pq.ParquetWriter(path, schema, compression="zstd", compression_level=1)


def write_sequences(spark, store: Store, df, out: str) -> int:
    """Spark writes the sorted table as part files under OUT (a range partitioning: part i's rows come before
    part i+1's); the driver fetches them in order, casts them to haifu's types into one local file, and uploads it
    as OUT/sequences.parquet. The driver holds one part at a time."""
    import pyarrow.parquet as pq

    tmp = join(out, f"_haifu-spark-{uuid.uuid4().hex}")
    schema = sequences_schema()
    rows = 0
    try:
        df.write.mode("overwrite").option("compression", "zstd").parquet(tmp)
        with tempfile.TemporaryDirectory(prefix="haifu-spark-") as local:
            partial = os.path.join(local, "sequences.parquet")
            w = writer(partial, schema)
            try:
                for name, _, _ in store.list(tmp):
                    if name.startswith("part-") and name.endswith(".parquet"):
                        store.get(join(tmp, name), os.path.join(local, "part.parquet"))
                        t = pq.read_table(os.path.join(local, "part.parquet"))
                        if t.num_rows:
                            w.write_table(conform(t, schema), row_group_size=1 << 20)
                            rows += t.num_rows
                if rows == 0:
                    w.write_table(schema.empty_table())
            finally:
                w.close()
            store.put(partial, join(out, "sequences.parquet"))
        return rows
    finally:
        store.delete(tmp)


def write_players(store: Store, scopes, games, stats, path: str) -> None:
    import pyarrow as pa

    cols = {k: [] for k in players_schema().names}
    for sc, name in enumerate(scopes):
        for st, strategy in enumerate(STRATEGIES):
            cols["scope"].append(name)
            cols["strategy"].append(strategy)
            cols["games"].append(games[sc])
            for k in ("rounds", "decisions", "sequences", "distinct"):
                cols[k].append(stats[sc][st][k])
    t = pa.Table.from_pydict(cols, schema=players_schema())
    with tempfile.TemporaryDirectory(prefix="haifu-spark-") as local:
        w = writer(os.path.join(local, "players.parquet"), t.schema)
        w.write_table(t)
        w.close()
        store.put(os.path.join(local, "players.parquet"), path)


def put_text(store: Store, path: str, text: str) -> None:
    with tempfile.TemporaryDirectory(prefix="haifu-spark-") as local:
        with open(os.path.join(local, "f"), "w", encoding="utf-8") as f:
            f.write(text)
        store.put(os.path.join(local, "f"), path)


def haifu_version() -> str:
    """The version of the haifu workspace this script belongs to (the tables' format), from Cargo.toml."""
    # `haifu mine --engine spark` runs a copy of this script from a temporary folder and says its version
    if os.environ.get("HAIFU_VERSION"):
        return os.environ["HAIFU_VERSION"]
    cargo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Cargo.toml")
    try:
        with open(cargo, encoding="utf-8") as f:
            for line in f:
                if line.startswith("version"):
                    return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return "unknown"


# ---------------------------------------------------------------------------------------------------------------


def parse_args(argv=None):
    p = argparse.ArgumentParser(
        prog="haifu_spark/mine.py",
        description="haifu mine on Spark: sequence tables (SPEC 2, 3) per player and ALL, per strategy and source")
    p.add_argument("--dataset", required=True, help="dataset written by `haifu ingest`")
    p.add_argument("-o", "--out", required=True, help="output directory for sequences.parquet, players.parquet, meta.json")
    p.add_argument("--years", default="", help="years of games to count, comma-separated (default: every year)")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--players", help="player tables for these players, comma-separated")
    who.add_argument("--min-games", type=int, help="player tables for players with at least this many games")
    p.add_argument("--rounds", choices=["all", "won"], default="all", help="rounds feeding the `all` table")
    p.add_argument("--strategy-rounds", choices=["winner", "all"], default="winner",
                   help="decisions feeding a strategy's table: the winner's or all players' in rounds won with it")
    p.add_argument("--sample", type=float, help="keep only this share of the games (haifu's hash of the game id)")
    add_session_args(p)
    p.add_argument("--json", action="store_true", help="print meta.json on stdout")
    a = p.parse_args(argv)
    check_common_args(p, a)
    return a


def add_session_args(p) -> None:
    """The options of the Spark session (shared by mine.py and evaluate.py)."""
    p.add_argument("--master", default=None, help="Spark master when not run by spark-submit (default: local[2])")
    p.add_argument("--driver-memory", default="3g", help="driver memory in local mode (default: 3g)")
    p.add_argument("--shuffle-partitions", type=int, default=None,
                   help="spark.sql.shuffle.partitions (default: 8 with a local master, else the cluster's setting)")
    p.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE",
                   help="a Spark setting for a session this script starts (under spark-submit, give spark-submit "
                        "the --conf), e.g. spark.hadoop.fs.s3a.endpoint=URL; repeatable")


def check_common_args(p, a) -> None:
    """The options both scripts share, checked and split: --conf, --years, --players."""
    for c in a.conf:
        if "=" not in c:
            p.error(f"--conf: not KEY=VALUE: {c!r}")
    try:
        a.years = [int(y) for y in a.years.split(",") if y.strip()]
    except ValueError:
        p.error(f"--years: not a list of years: {a.years!r}")
    a.players = a.players.split(",") if a.players is not None else None


def session(args):
    """The session the job runs in, and whether the job started it (and so stops it). A notebook's or a
    Databricks job's session is used as it is."""
    from pyspark import SparkContext
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is None and SparkContext._active_spark_context is not None:
        active = SparkSession.builder.getOrCreate()
    if active is not None:
        configure(active, args)
        return active, False
    b = SparkSession.builder.appName("haifu-mine")
    # spark-submit starts the Python driver with a gateway of its own and the master it was given
    if args.master or not os.environ.get("PYSPARK_GATEWAY_PORT"):
        b = b.master(args.master or "local[2]").config("spark.driver.memory", args.driver_memory)
    b = b.config("spark.ui.showConsoleProgress", "false")
    for c in args.conf:
        key, value = c.split("=", 1)
        b = b.config(key, value)
    spark = b.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    configure(spark, args)
    return spark, True


def configure(spark, args) -> None:
    """The session settings the job needs: wrapping 64-bit arithmetic (the sample hash, as Rust's wrapping_mul),
    and few shuffle partitions on one machine (Spark's 200 are mostly fixed cost there)."""
    spark.conf.set("spark.sql.ansi.enabled", "false")
    if args.shuffle_partitions is not None:
        spark.conf.set("spark.sql.shuffle.partitions", str(args.shuffle_partitions))
    elif spark.sparkContext.master.startswith("local"):
        spark.conf.set("spark.sql.shuffle.partitions", "8")


def run_job(args, job, show) -> int:
    """Runs `job(spark, args)` in a session; prints its result as JSON (--json) or with `show`; the exit status
    (1 with the message on stderr when the job refuses its input). Shared by mine.py and evaluate.py."""
    spark, started = session(args)
    try:
        result = job(spark, args)
    except MineError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    finally:
        if started:
            spark.stop()
    if args.json:
        print(json.dumps(result, indent=2, sort_keys=True, ensure_ascii=False))
    else:
        show(result)
    return 0


def print_summary(args, meta) -> None:
    print(f"mined {meta['decisions_read']} decisions of {args.dataset} into {meta['scopes']} scopes "
          f"({meta['players']} players + ALL), {meta['rows']} rows, in {meta['elapsed_s']:.2f}s (spark)")
    print(f"{'strategy':<8} {'rounds':>8} {'decisions':>10} {'sequences':>11} {'distinct':>9}")
    for s in STRATEGIES:
        st = meta["all"][s]
        print(f"{s:<8} {st['rounds']:>8} {st['decisions']:>10} {st['sequences']:>11} {st['distinct']:>9}")
    print(f"tables: {args.out} (sequences.parquet, players.parquet, meta.json)")


def main(argv=None) -> int:
    args = parse_args(argv)
    return run_job(args, mine, lambda meta: print_summary(args, meta))


if __name__ == "__main__":
    sys.exit(main())
