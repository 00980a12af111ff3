#!/usr/bin/env python3
"""Compares two folders of sequence tables (`haifu mine --out A`, `cluster/haifu_spark/mine.py --out B`).

    python cluster/compare.py A B

Equal means: `sequences.parquet`, `players.parquet` and `shapes.parquet` have the same schema (column names and order, Arrow types,
nullability) and the same rows in the same order, all columns; `meta.json` has the same keys and the same counts
(decisions_read, scopes, players, rows, all) and options (the engine left out). `created`, `elapsed_s`, `haifu`
and `dataset` may differ. Exit 0 when equal, 1 with the first differences on stdout, 2 on a usage error.
"""

from __future__ import annotations

import json
import os
import sys

TABLES = ["sequences.parquet", "players.parquet", "shapes.parquet"]
META_COUNTS = ["decisions_read", "scopes", "players", "rows", "all", "tables_version"]
SHOWN = 10


def describe(schema) -> list[str]:
    return [f"{f.name}: {f.type}{'' if f.nullable else ' not null'}" for f in schema]


def compare_table(a_path: str, b_path: str, out: list[str]) -> None:
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    name = os.path.basename(a_path)
    for p in (a_path, b_path):
        if not os.path.isfile(p):
            out.append(f"{name}: {p} is missing")
            return
    a, b = pq.read_table(a_path), pq.read_table(b_path)
    da, db = describe(a.schema), describe(b.schema)
    if da != db:
        out.append(f"{name}: schemas differ:\n  A: {da}\n  B: {db}")
    if a.num_rows != b.num_rows:
        out.append(f"{name}: {a.num_rows} rows in A, {b.num_rows} in B")
    n = min(a.num_rows, b.num_rows)
    first = None
    for col in a.schema.names:
        if col not in b.schema.names:
            out.append(f"{name}: column {col} missing from B")
            continue
        ca, cb = a.column(col).slice(0, n), b.column(col).slice(0, n)
        if ca.type != cb.type:
            # still compare the values, on a common type
            try:
                cb = cb.cast(ca.type)
            except Exception:  # noqa: BLE001
                ca, cb = ca.cast("string"), cb.cast("string")
        ne = pc.fill_null(pc.not_equal(ca, cb), True)
        if pc.any(ne).as_py():
            idx = pc.indices_nonzero(ne)
            count = len(idx)
            i = idx[0].as_py()
            out.append(f"{name}: column {col}: {count} rows differ, the first at row {i}")
            first = i if first is None else min(first, i)
    if first is not None:
        lo = first
        for label, t in (("A", a), ("B", b)):
            rows = t.slice(lo, SHOWN).to_pylist()
            out.append(f"{name}: rows {lo}.. of {label}:")
            out.extend(f"  {lo + k}: {r}" for k, r in enumerate(rows))
    for col in b.schema.names:
        if col not in a.schema.names:
            out.append(f"{name}: column {col} missing from A")


def compare_meta(a_dir: str, b_dir: str, out: list[str]) -> None:
    metas = []
    for d in (a_dir, b_dir):
        p = os.path.join(d, "meta.json")
        if not os.path.isfile(p):
            out.append(f"meta.json: {p} is missing")
            return
        with open(p, encoding="utf-8") as f:
            metas.append(json.load(f))
    a, b = metas
    if sorted(a) != sorted(b):
        out.append(f"meta.json: keys differ: A {sorted(a)}, B {sorted(b)}")
    for k in META_COUNTS:
        if a.get(k) != b.get(k):
            out.append(f"meta.json: {k}: A {json.dumps(a.get(k), sort_keys=True)}, B {json.dumps(b.get(k), sort_keys=True)}")
    oa = {k: v for k, v in a.get("options", {}).items() if k != "engine"}
    ob = {k: v for k, v in b.get("options", {}).items() if k != "engine"}
    if oa != ob:
        out.append(f"meta.json: options differ (engine aside): A {oa}, B {ob}")


def main(argv: list[str]) -> int:
    if len(argv) != 2 or not all(os.path.isdir(d) for d in argv):
        print("usage: compare.py DIR_A DIR_B  (two folders written by `haifu mine --out`)", file=sys.stderr)
        return 2
    a_dir, b_dir = argv
    out: list[str] = []
    for t in TABLES:
        compare_table(os.path.join(a_dir, t), os.path.join(b_dir, t), out)
    compare_meta(a_dir, b_dir, out)
    if out:
        print(f"DIFFERENT: {a_dir} and {b_dir}")
        print("\n".join(out))
        return 1
    import pyarrow.parquet as pq

    rows = [pq.ParquetFile(os.path.join(a_dir, t)).metadata.num_rows for t in TABLES]
    print(f"EQUAL: {a_dir} and {b_dir}: sequences.parquet {rows[0]} rows, players.parquet {rows[1]} rows, "
          f"shapes.parquet {rows[2]} rows, "
          f"same schemas, same rows in the same order; meta.json counts and options equal")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
