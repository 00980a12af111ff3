"""The positions from Python are the bytes `haifu train` learns from: compared with the positions cache the
command line writes, read here by its documented layout (encoding/src/cache.rs), not by the module."""

import os
import shutil
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest

import haifu
from conftest import corpus_files, target_dir


def read_cache(path: Path) -> dict:
    b = path.read_bytes()
    assert b[:8] == b"HAIFUPOS"
    (n,) = struct.unpack_from("<Q", b, 20)
    at = 28
    out = {}
    for name, dtype, width in [
        ("features", np.uint8, haifu.PACKED),
        ("legal", "<u8", 1),
        ("label", np.uint8, 1),
        ("game", "<i8", 1),
        ("seat", np.uint8, 1),
        ("players", np.uint8, 1),
    ]:
        size = np.dtype(dtype).itemsize * n * width
        a = np.frombuffer(b, dtype=dtype, count=n * width, offset=at)
        out[name] = a.reshape(n, width) if width > 1 else a
        at += size
    assert at == len(b)
    return out


def neural_bin() -> Path:
    b = target_dir() / "release" / "haifu-neural"
    if not b.exists():
        pytest.fail(f"{b} is missing: scripts/test builds it (cargo build --release -p haifu-neural-cli)")
    return b


@pytest.mark.parametrize("decisions,least", [("discards", 50_000), ("choices", 5_000)])
def test_positions_are_the_bytes_haifu_train_learns_from(corpus, haifu_bin, tmp_path, decisions, least):
    train_year, test_year = "2017", "2018"
    files = corpus_files(corpus, year=train_year) + corpus_files(corpus, year=test_year)
    ds = tmp_path / "ds"
    haifu.ingest(files, ds)
    train, test = haifu.positions(ds, years=[int(train_year)], test_years=[int(test_year)], decisions=decisions)
    assert len(train) > least and len(test) > 0, (len(train), len(test))
    # the command line replays the games again (no cache of Python's left) and trains one small epoch
    neural_bin()
    shutil.rmtree(ds / "_haifu" / "cache")
    subprocess.run(
        [haifu_bin, "train", "--dataset", ds, "--years", train_year, "--test-years", test_year, "--epochs", "1",
         "--layers", "1", "--channels", "16", "--decisions", decisions, "--device", "cpu", "--out", tmp_path / "run"],
        check=True, capture_output=True,
    )
    cache = ds / "_haifu" / "cache" / "neural"
    (features,) = [p for p in cache.iterdir() if p.is_dir()]
    for side, year in [(train, train_year), (test, test_year)]:
        theirs = read_cache(features / f"4p-year={year}.bin")
        for name in ("features", "legal", "label", "game", "seat", "players"):
            ours = getattr(side, name)
            assert ours.dtype.itemsize == theirs[name].dtype.itemsize, name
            assert ours.tobytes() == theirs[name].tobytes(), f"{year} {name} differ"
    # the unpacked features and the mask are what the packing says
    rows = train.unpacked()
    assert rows.shape == (len(train), haifu.FEATURES) and set(np.unique(rows)) <= {0, 1}
    mask = train.mask()
    assert mask[np.arange(len(train)), train.label].all(), "a discarded kind outside its legal mask"


FIELDS = ("features", "legal", "label", "game", "seat", "players")


def joined(parts):
    return {name: np.concatenate([getattr(p, name) for p in parts]) for name in FIELDS}


@pytest.mark.parametrize("size", [1, 997, 1_000_000])
def test_batches_are_the_positions_in_the_same_order(sim_dataset, size):
    train, test = haifu.positions(sim_dataset)
    assert len(train) > 2_000 and len(test) > 0
    for side, whole in ((False, train), (True, test)):
        parts = list(haifu.batches(sim_dataset, test=side, batch_size=size))
        assert all(len(p) == size for p in parts[:-1]) and 0 < len(parts[-1]) <= size
        got = joined(parts)
        for name in FIELDS:
            assert got[name].tobytes() == getattr(whole, name).tobytes(), (side, name)


def test_batches_of_a_player_and_of_a_cache_built_by_them(sim_dataset, tmp_path):
    # a copy without the cache: the batches replay the games and cache them first
    ds = tmp_path / "ds"
    shutil.copytree(sim_dataset, ds)
    shutil.rmtree(ds / "_haifu" / "cache", ignore_errors=True)
    name = haifu.table(ds, "games", columns=["names"]).column("names")[0][1].as_py()
    parts = list(haifu.batches(ds, player=name, batch_size=500))
    train, _ = haifu.positions(ds, player=name)
    assert sum(map(len, parts)) == len(train) > 0
    assert joined(parts)["features"].tobytes() == train.features.tobytes()
    with pytest.raises(ValueError, match="batch_size=0"):
        next(haifu.batches(ds, batch_size=0))


def test_a_sample_split_is_the_games_style_build_profiles(sim_dataset):
    """``sample=0.8`` trains on the games ``haifu style build --sample 0.8`` profiles and tests on the others: every
    game on one side only, about four in five training, and the batches give the same positions."""
    train, test = haifu.positions(sim_dataset, sample=0.8)
    train_games, test_games = set(train.game.tolist()), set(test.game.tolist())
    assert train_games and test_games and not train_games & test_games
    share = len(train_games) / (len(train_games) + len(test_games))
    assert 0.5 <= share < 1.0, share
    parts = list(haifu.batches(sim_dataset, test=True, batch_size=997, sample=0.8))
    assert joined(parts)["features"].tobytes() == test.features.tobytes()
    with pytest.raises(ValueError, match="give one"):
        haifu.positions(sim_dataset, sample=0.8, test_years=[2023])
