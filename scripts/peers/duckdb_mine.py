"""Sequence mining as a DuckDB user writes it: the query of issue 10 over the integer shape keys of the
decisions table (schema 3 has no digit strings), every player and ALL, by source, strategy `all` only; the
result written to Parquet with the shapes as keys (as haifu's sequences.parquet holds them). With --digits the
keys are turned back into digit strings through the dataset's `shapes.parquet` lookup. One thread unless
--threads says otherwise.

    python duckdb_mine.py DATASET OUT.parquet [--digits] [--threads N]
"""
import sys

import duckdb

args = [a for a in sys.argv[1:] if not a.startswith("--")]
dataset, out = args[0], args[1]
threads = int(sys.argv[sys.argv.index("--threads") + 1]) if "--threads" in sys.argv else 1
cols = ["man", "pin", "sou"]
b, a = (lambda s: f"{s}_before_key"), (lambda s: f"{s}_after_key")
select = ", ".join(f"{b(s)}, {a(s)}" for s in cols)
union = "\n  UNION ALL ".join(f"SELECT player, source, {b(s)} b, {a(s)} a FROM dec WHERE {b(s)} <> {a(s)}" for s in cols)
counted = f"""
WITH dec AS (SELECT player, source, {select}
             FROM read_parquet('{dataset}/decisions/**/*.parquet', hive_partitioning=true)),
seqs AS ({union})
SELECT coalesce(player, 'ALL') AS scope, source, b, a, count(*) AS n FROM seqs
GROUP BY GROUPING SETS ((player, source, b, a), (source, b, a))
"""
if "--digits" in sys.argv:
    query = f"""
WITH c AS ({counted}), s AS (SELECT key, digits FROM read_parquet('{dataset}/shapes.parquet'))
SELECT scope, source, sb.digits AS before, sa.digits AS after, n
FROM c JOIN s sb ON sb.key = c.b JOIN s sa ON sa.key = c.a
"""
else:
    query = counted
con = duckdb.connect()
con.execute(f"SET threads={threads}")
con.execute(f"COPY ({query}) TO '{out}' (FORMAT parquet)")
rows = con.execute(f"SELECT count(*), sum(n) FROM read_parquet('{out}')").fetchone()
print(f"duckdb {duckdb.__version__}: {rows[0]} rows, {rows[1]} sequences", file=sys.stderr)
