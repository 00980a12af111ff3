#!/usr/bin/env python3
"""The copy choices' figures of docs/RESULTS.md (issue 50, `drawn_copy`), read straight from the decisions table,
independently of the Rust reading (style::discards::copy_choice): of the four-player discards after a draw (or a
replacement draw) not in riichi whose kind is the kind drawn, from a hand that held another copy, fives left
out, how many there are, the share of the copy just drawn, and the spread of that share across players with 100
or more, with its one-way dispersion over players (chi-square over degrees of freedom; 1 if players did not
differ). Then the same dispersion for three choices among tiles no strategy tells apart, to say which of them
carry a habit: the suit of a lone terminal, the suit of a lone 2, and which dragon. A dataset written by
`haifu ingest`; DuckDB and NumPy (`pip install duckdb numpy`).

    python3 scripts/copy_figures.py DATASET
"""
import sys

import duckdb
import numpy as np

ds = sys.argv[1]
con = duckdb.connect()
rows = con.sql(f"""
SELECT d.player, d.tsumogiri, d.hand, d.discard // 4 AS k, d.source_tile // 4 AS drawn, d.source
FROM read_parquet('{ds}/decisions/**/*.parquet', union_by_name=true) d
JOIN read_parquet('{ds}/games/**/*.parquet', union_by_name=true) g USING (game_id)
WHERE g.players = 4 AND NOT d.in_riichi AND d.source IN ('draw', 'kan', 'nuki')""").fetchnumpy()
hand = np.frombuffer(b"".join(rows["hand"]), dtype=np.uint8).reshape(-1, 34)
k, player = rows["k"], rows["player"]


def dispersion(groups, taken):
    """Chi-square over degrees of freedom of the players' takes (players with 100+ opportunities), and the
    players' shares' 10th, 50th and 90th percentile."""
    names, inv = np.unique(groups, return_inverse=True)
    n = np.bincount(inv)
    keep = n >= 100
    t = np.bincount(inv, weights=taken)[keep]
    n = n[keep]
    p = t.sum() / n.sum()
    chi = (((t - n * p) ** 2) / (n * p * (1 - p))).sum()
    return keep.sum(), chi / (keep.sum() - 1), np.percentile(t / n, [10, 50, 90])


five = (k < 27) & (k % 9 == 4)
copy = (k == rows["drawn"]) & (hand[np.arange(len(k)), k] >= 2) & ~five
taken = rows["tsumogiri"][copy].astype(float)
players, disp, pct = dispersion(player[copy], taken)
print(f"four-player chosen discards after a draw: {len(k)}; copy choices: {copy.sum()} "
      f"({100 * copy.sum() / len(k):.1f}%), the copy just drawn {100 * taken.mean():.1f}%")
print(f"players with 100+: {players}; their shares p10 / median / p90: {np.round(100 * pct, 1)}; "
      f"dispersion {disp:.2f}")

for name, kinds in [("lone 1 by suit", [0, 9, 18]), ("lone 2 by suit", [1, 10, 19]), ("dragon", [31, 32, 33])]:
    kinds = np.array(kinds)
    lone = hand[:, kinds] == 1
    at = (lone.sum(1) >= 2) & np.isin(k, kinds)
    first = (k[at] == kinds[0]) & lone[at, 0]
    players, disp, pct = dispersion(player[at], first.astype(float))
    print(f"{name}: {at.sum()} choices between two or more lone ones; players with 100+: {players}; "
          f"dispersion of the first's share {disp:.2f}")
