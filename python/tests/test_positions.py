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


def test_positions_are_the_bytes_haifu_train_learns_from(corpus, haifu_bin, tmp_path):
    train_year, test_year = "2017", "2018"
    files = corpus_files(corpus, year=train_year) + corpus_files(corpus, year=test_year)
    ds = tmp_path / "ds"
    haifu.ingest(files, ds)
    train, test = haifu.positions(ds, years=[int(train_year)], test_years=[int(test_year)])
    assert len(train) > 50_000 and len(test) > 300, (len(train), len(test))
    # the command line replays the games again (no cache of Python's left) and trains one small epoch
    neural_bin()
    shutil.rmtree(ds / "_haifu" / "cache")
    subprocess.run(
        [haifu_bin, "train", "--dataset", ds, "--years", train_year, "--test-years", test_year, "--epochs", "1",
         "--layers", "1", "--channels", "16", "--device", "cpu", "--out", tmp_path / "run"],
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
