"""haifu from Python: Tenhou game records as a Parquet dataset, the positions ``haifu train`` learns from as
numpy arrays, a game walker over the table state ingest replays with, and the rules (shanten, ukeire,
scoring) the replay checks every real win with.

The work is done by the same Rust code as the ``haifu`` command line (the extension module ``haifu._haifu``);
long work releases the GIL. A failure raises :class:`HaifuError` with the command line's message (the file,
the position, the reason); a malformed argument raises ``ValueError``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Iterable, Optional, Sequence, Union

import numpy as np

from . import _haifu
from ._haifu import (
    FEATURES,
    PACKED,
    Game,
    HaifuError,
    TableStream,
    dataset_games,
    read_log,
    read_table,
    score,
    shanten,
    ukeire,
)

__all__ = [
    "FEATURES",
    "PACKED",
    "Game",
    "HaifuError",
    "Positions",
    "TableStream",
    "dataset_games",
    "frame",
    "ingest",
    "positions",
    "read_log",
    "read_table",
    "score",
    "shanten",
    "table",
    "ukeire",
]

PathLike = Union[str, "os.PathLike[str]"]


def ingest(
    paths: Union[PathLike, Iterable[PathLike]],
    out: PathLike,
    *,
    jobs: int = 0,
    strict: bool = False,
    choices: bool = False,
    keep_duplicates: bool = False,
    keep_misscored: bool = False,
    max_quarantined: Optional[str] = None,
    length: Optional[str] = None,
    red: Optional[bool] = None,
    players: Optional[int] = None,
    progress: Optional[bool] = None,
) -> dict:
    """``haifu ingest PATHS --out OUT``: reads mjlog XML, tenhou.net/6 JSON and mjai logs (files, folders
    walked recursively, ``@list`` files), replays and checks every game and writes the dataset. Returns the
    summary ``haifu ingest --json`` prints, as a dict (what was quarantined, and why, under
    ``"quarantined"``). ``progress`` shows the command line's bar on stderr (default: when it is a terminal).
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    text = _haifu.ingest(
        [os.fspath(p) for p in paths],
        os.fspath(out),
        jobs=jobs,
        strict=strict,
        choices=choices,
        keep_duplicates=keep_duplicates,
        keep_misscored=keep_misscored,
        max_quarantined=max_quarantined,
        length=length,
        red=red,
        players=players,
        progress=progress,
    )
    return json.loads(text)


def table(dataset: PathLike, name: str, columns: Optional[Sequence[str]] = None):
    """A table of the dataset (``games``, ``rounds``, ``events``, ``decisions``, ``choices``; docs/SCHEMA.md)
    as a ``pyarrow.Table``, its column buffers those the Parquet reader filled (no copy)."""
    import pyarrow as pa

    return pa.table(read_table(os.fspath(dataset), name, list(columns) if columns is not None else None))


def frame(dataset: PathLike, name: str, columns: Optional[Sequence[str]] = None):
    """A table of the dataset as a Polars ``DataFrame``, through the same Arrow stream as :func:`table`."""
    import polars as pl

    return pl.DataFrame(read_table(os.fspath(dataset), name, list(columns) if columns is not None else None))


@dataclass
class Positions:
    """One side of a split: the positions ``haifu train`` learns from, as it holds them.

    ``features`` is uint8 of shape (n, PACKED): feature i of a position is bit ``i % 8`` of byte ``i // 8``
    (:meth:`unpacked` gives the (n, FEATURES) 0/1 matrix); ``legal`` the legal kinds as 34-bit masks
    (:meth:`mask` as an (n, 34) bool matrix; for choices, the options offered); ``label`` the kind discarded
    (or the choice's class); ``game``, ``seat`` and ``players`` where each comes from.
    """

    features: np.ndarray
    legal: np.ndarray
    label: np.ndarray
    game: np.ndarray
    seat: np.ndarray
    players: np.ndarray

    def __len__(self) -> int:
        return len(self.label)

    def unpacked(self) -> np.ndarray:
        """The features as an (n, FEATURES) uint8 matrix of 0 and 1."""
        return np.unpackbits(self.features, axis=1, bitorder="little")[:, :FEATURES]

    def mask(self, width: int = 34) -> np.ndarray:
        """The legal mask as an (n, width) bool matrix."""
        return ((self.legal[:, None] >> np.arange(width, dtype=np.uint64)) & np.uint64(1)).astype(bool)


def positions(
    dataset: PathLike,
    *,
    years: Sequence[int] = (),
    test_years: Sequence[int] = (),
    players: int = 4,
    player: Optional[str] = None,
    fraction: Optional[float] = None,
    decisions: str = "discards",
) -> "tuple[Positions, Positions]":
    """The training and test positions of ``haifu train DATASET`` with the same options (``--years``,
    ``--test-years``, ``--players``, ``--player``, ``--fraction``, ``--decisions``): the same bytes, from the
    dataset's positions cache or replayed in parallel and cached as ``haifu train`` does."""
    train, test = _haifu.positions(
        os.fspath(dataset),
        years=list(years),
        test_years=list(test_years),
        players=players,
        player=player,
        fraction=fraction,
        decisions=decisions,
    )
    return Positions(**train), Positions(**test)
