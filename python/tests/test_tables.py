"""Ingest from Python against the command line's, and the tables handed to pyarrow and Polars."""

import json
import subprocess

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import haifu

TABLES = ["games", "rounds", "events", "decisions"]
# columns that say when and by which run a dataset was written, not what it holds
RUN_COLUMNS = {"ingested_at", "run", "run_id", "source_path"}


def sorted_table(dataset, name):
    t = haifu.table(dataset, name)
    keep = [c for c in t.column_names if c not in RUN_COLUMNS]
    t = t.select(keep)
    keys = [c for c in ("game_id", "round", "index", "event_index") if c in keep]
    return t.sort_by([(k, "ascending") for k in keys])


def test_ingest_from_python_gives_the_command_lines_tables(haifu_bin, sim_logs, tmp_path):
    cli = tmp_path / "cli"
    py = tmp_path / "py"
    printed = subprocess.run(
        [haifu_bin, "ingest", sim_logs, "--out", cli, "--json", "--choices"], check=True, capture_output=True, text=True
    )
    summary_cli = json.loads(printed.stdout)
    summary = haifu.ingest(sim_logs, py, choices=True)
    for key in ("files_read", "games_ingested", "rounds", "events", "decisions", "choices", "games_quarantined"):
        assert summary[key] == summary_cli[key], key
    assert summary["games_ingested"] == 20
    for name in TABLES + ["choices"]:
        a, b = sorted_table(cli, name), sorted_table(py, name)
        assert a.num_rows > 0, name
        assert a.schema == b.schema, name
        assert a.equals(b), f"{name}: the rows differ"


def test_tables_reach_pyarrow_and_polars_without_a_copy(haifu_bin, sim_logs, tmp_path):
    ds = tmp_path / "ds"
    haifu.ingest(sim_logs, ds)
    for name in TABLES:
        stream = haifu.read_table(ds, name)
        rust = stream.buffer_addresses()
        t = pa.table(stream)
        # the same row count as the Parquet files hold, read by pyarrow on its own
        files = sorted((ds / name).rglob("*.parquet"))
        assert t.num_rows == sum(pq.ParquetFile(f).metadata.num_rows for f in files), name
        for i, column in enumerate(t.columns):
            for b, chunk in enumerate(column.chunks):
                theirs = [x.address if x is not None else 0 for x in chunk.buffers()]
                ours = rust[b][i]
                # pyarrow lists a nested column's children after it: its first buffers are the column's own
                assert theirs[: len(ours)] == ours, f"{name}.{t.column_names[i]} batch {b} was copied"
    f = haifu.frame(ds, "games")
    assert f.height == pa.table(haifu.read_table(ds, "games")).num_rows
    assert set(f.columns) >= {"game_id"}


def test_a_stream_is_read_once(haifu_bin, sim_logs, tmp_path):
    ds = tmp_path / "ds"
    haifu.ingest(sim_logs, ds)
    stream = haifu.read_table(ds, "games")
    pa.table(stream)
    with pytest.raises(ValueError, match="read already"):
        pa.table(stream)


def test_columns_and_unknown_tables(haifu_bin, sim_logs, tmp_path):
    ds = tmp_path / "ds"
    haifu.ingest(sim_logs, ds)
    t = haifu.table(ds, "decisions", columns=["game_id", "seat"])
    assert t.column_names == ["game_id", "seat"]
    with pytest.raises(haifu.HaifuError, match="no nonsense table"):
        haifu.table(ds, "nonsense")
