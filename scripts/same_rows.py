#!/usr/bin/env python3
"""Do two datasets hold the same tables? Same Arrow schema, same rows, same values, in any row order.

Usage: same_rows.py BEFORE AFTER

BEFORE and AFTER are directories written by `haifu ingest --out` (games, rounds, events, decisions, read
with their year partitions) or by `haifu mine --out` (sequences.parquet, players.parquet). Rows are sorted by
each table's key before they are compared, so part files and row groups may differ. Exits 0 when every table
is the same, 1 naming the first difference (table, column, key of the row, both values), 2 on bad usage.
Needs polars (`python3 -m venv /tmp/venv && /tmp/venv/bin/pip install polars`).
"""

import sys
from pathlib import Path

import polars as pl

# The columns that identify a row; a table not named here is sorted by all its flat columns.
KEYS = {
    "games": ["game_id"],
    "rounds": ["game_id", "round"],
    "events": ["game_id", "index"],
    "decisions": ["game_id", "event_index"],
    "sequences": ["scope", "strategy", "source", "before_key", "after_key"],
    "players": ["scope", "strategy"],
}


def tables(root: Path) -> dict[str, list[Path]]:
    """Table name -> its Parquet files: a directory of (partitioned) parts, or one `NAME.parquet`."""
    out = {}
    for p in sorted(root.iterdir()):
        if p.is_dir() and not p.name.startswith("_"):
            parts = sorted(f for f in p.rglob("*.parquet") if not f.name.startswith("."))
            if parts:
                out[p.name] = parts
        elif p.suffix == ".parquet" and not p.name.startswith("."):
            out[p.stem] = [p]
    return out


def arrow_schemas(files: list[Path]) -> set[str]:
    """The Arrow schemas stored in the files (names, types, nullability, field metadata)."""
    return {pl.read_parquet_metadata(f).get("ARROW:schema", "") for f in files}


def read(root: Path, name: str, files: list[Path]) -> pl.DataFrame:
    if len(files) == 1 and files[0].parent == root:
        df = pl.read_parquet(files[0])
    else:
        df = pl.read_parquet(root / name / "**" / "*.parquet", hive_partitioning=True)
    flat = [c for c, t in df.schema.items() if not t.is_nested()]
    return df.sort(KEYS.get(name, flat), maintain_order=True)


def first_difference(name: str, a: pl.DataFrame, b: pl.DataFrame) -> str | None:
    if a.schema != b.schema:
        for (ca, ta), (cb, tb) in zip(a.schema.items(), b.schema.items()):
            if (ca, ta) != (cb, tb):
                return f"{name}: column {ca} ({ta}) vs {cb} ({tb})"
        return f"{name}: columns {list(a.columns)} vs {list(b.columns)}"
    if a.height != b.height:
        return f"{name}: {a.height} rows vs {b.height}"
    keys = [k for k in KEYS.get(name, []) if k in a.columns]
    for c in a.columns:
        differs = a[c].ne_missing(b[c])
        if differs.any():
            i = differs.arg_true()[0]
            key = ", ".join(f"{k}={a[k][i]}" for k in keys) or f"row {i} (sorted)"
            va, vb = a[c].slice(i, 1).to_list()[0], b[c].slice(i, 1).to_list()[0]
            return f"{name}: column {c} at {key}: {va!r} vs {vb!r}"
    return None


def main() -> int:
    if len(sys.argv) != 3 or not all(Path(d).is_dir() for d in sys.argv[1:]):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    before, after = Path(sys.argv[1]), Path(sys.argv[2])
    ta, tb = tables(before), tables(after)
    if ta.keys() != tb.keys():
        print(f"tables differ: {sorted(ta)} vs {sorted(tb)}")
        return 1
    if not ta:
        print(f"no tables under {before}")
        return 1
    for name in ta:
        sa, sb = arrow_schemas(ta[name]), arrow_schemas(tb[name])
        if len(sa) != 1 or sa != sb:
            print(f"{name}: the Arrow schemas stored in the files differ")
            return 1
        diff = first_difference(name, read(before, name, ta[name]), read(after, name, tb[name]))
        if diff:
            print(diff)
            return 1
        print(f"{name}: same schema, same rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
