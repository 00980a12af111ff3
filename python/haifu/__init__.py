"""haifu from Python: Tenhou game records as a Parquet dataset, the positions ``haifu train`` learns from as
numpy arrays (whole, or in batches for data larger than memory), a game walker over the table state and the
legal actions ingest replays with, the rules (shanten, ukeire, scoring) the replay checks every real win with,
the lookup imitator (:class:`Tables`), the style database (:class:`StyleDb`) and an mjai bot for Python
arenas (:class:`MjaiBot`).

The work is done by the same Rust code as the ``haifu`` command line (the extension module ``haifu._haifu``);
long work releases the GIL. A failure raises :class:`HaifuError` with the command line's message (the file,
the position, the reason); a malformed argument raises ``ValueError``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
import sys
from typing import Iterable, Iterator, Optional, Sequence, Union

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
    "MjaiBot",
    "Positions",
    "StyleDb",
    "TableStream",
    "Tables",
    "batches",
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
    choices: bool = True,
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
    sample: Optional[float] = None,
    decisions: str = "discards",
) -> "tuple[Positions, Positions]":
    """The training and test positions of ``haifu train DATASET`` with the same options (``--years``,
    ``--test-years``, ``--players``, ``--player``, ``--fraction``, ``--sample``, ``--decisions``): the same bytes,
    from the dataset's positions cache or replayed in parallel and cached as ``haifu train`` does."""
    train, test = _haifu.positions(
        os.fspath(dataset),
        years=list(years),
        test_years=list(test_years),
        players=players,
        player=player,
        fraction=fraction,
        sample=sample,
        decisions=decisions,
    )
    return Positions(**train), Positions(**test)


def batches(
    dataset: PathLike,
    *,
    test: bool = False,
    batch_size: int = 65536,
    years: Sequence[int] = (),
    test_years: Sequence[int] = (),
    players: int = 4,
    player: Optional[str] = None,
    fraction: Optional[float] = None,
    sample: Optional[float] = None,
    decisions: str = "discards",
) -> Iterator[Positions]:
    """The training side (or the test side, ``test=True``) of the same split as :func:`positions`, the same
    positions in the same order, as :class:`Positions` of ``batch_size`` (the last one shorter), each read from
    the positions cache when it is asked for: for data larger than memory. Partitions without a current cache
    are replayed and cached first, as :func:`positions` does."""
    it = _haifu.position_batches(
        os.fspath(dataset),
        test=test,
        batch_size=batch_size,
        years=list(years),
        test_years=list(test_years),
        players=players,
        player=player,
        fraction=fraction,
        sample=sample,
        decisions=decisions,
    )
    for arrays in it:
        yield Positions(**arrays)


class Tables:
    """The sequence tables of one ``haifu mine`` run (every player's and ``ALL``), loaded once, and the lookup
    imitator over them."""

    def __init__(self, path: PathLike, *, sources: Optional[Sequence[str]] = None):
        self._tables = _haifu.Tables(os.fspath(path), sources=list(sources) if sources is not None else None)

    @property
    def players(self) -> list:
        """Every scope of the tables: the players' names and ``ALL``."""
        return self._tables.players

    def suggest(
        self, hand: str, *, player: str = "ALL", strategy: str = "all", round_wind: str = "E", seat_wind: str = "E"
    ) -> dict:
        """``haifu imitate suggest --json``: the discard candidates of ``hand`` (a decision's state in Tenhou
        notation, 14 tiles or 3n+2 after calls) ranked by ``player``'s table of ``strategy``, with the sequences
        that put each there (``candidates``) and each suit's note (``suits``)."""
        return json.loads(
            self._tables.suggest(hand, player=player, strategy=strategy, round_wind=round_wind, seat_wind=seat_wind)
        )


class StyleDb:
    """A style database (``haifu style build``)."""

    def __init__(self, path: PathLike):
        self._db = _haifu.StyleDb(os.fspath(path))

    @property
    def players(self) -> list:
        """The profiled players as (name, games), in the database's order."""
        return self._db.players

    def identify(
        self,
        logs: Union[PathLike, Iterable[PathLike]],
        seat: Union[int, str],
        *,
        games: Optional[int] = None,
        top: Optional[int] = None,
        by: str = "decisions",
    ) -> list:
        """``haifu style identify --json``: the database's players ranked for ``seat`` (0-3, or the name the
        logs give it) over the games of ``logs`` (the first ``games``), best first (``top`` of them), by
        ``by`` as ``--by``: ``decisions`` (the discard and choice models), ``discards``, ``score``, ``baseline`` (the
        plain baseline the database stores) or ``discards_baseline``."""
        if isinstance(logs, (str, os.PathLike)):
            logs = [logs]
        paths = [os.fspath(p) for p in logs]
        return json.loads(self._db.identify(paths, str(seat), games=games, top=top, by=by))

    def preferences(self, player: str) -> dict:
        """``haifu style show PLAYER --json``'s models: ``discard_model`` (which kinds the player discards) and
        ``choice_model`` (calls, riichi, kans, wins), each a list of coefficients furthest from everyone's first:
        ``name``, ``what``, ``coefficient``, ``interval`` (95%), ``everyone``, ``z`` (docs/STYLE.md)."""
        return json.loads(self._db.preferences(player))

    def nearest(self, player: str, *, k: int = 5, by: str = "discards") -> dict:
        """``haifu style nearest PLAYER --json``: the ``k`` players nearest ``player``, by ``by`` as ``--by``:
        ``discards`` (the cosine of their deviations from everyone's discard coefficients, ``discard_cosine``,
        most alike first) or ``sequences`` (the Jensen-Shannon distance of their sequences, ``js_distance``)."""
        return json.loads(self._db.nearest(player, k=k, by=by))


class MjaiBot:
    """An mjai player for Python arenas, with mjai.app's ``Bot`` interface: :meth:`react` takes the events since
    the last call (a JSON array, or one event) and answers the last one with the seat's action as JSON.

    ``bot``: one of ``haifu sim``'s bots (``efficiency``, ``tanyao``, ``caller`` ...); or ``db`` and ``player``:
    the imitator of that player of a style database, as ``haifu mjai-bot`` plays.
    """

    def __init__(
        self,
        player_id: int = 0,
        *,
        bot: Optional[str] = None,
        db: Optional[PathLike] = None,
        player: Optional[str] = None,
        seed: int = 0,
        name: Optional[str] = None,
    ):
        self._bot = _haifu.MjaiBot(
            player_id,
            bot=bot,
            db=os.fspath(db) if db is not None else None,
            player=player,
            seed=seed,
            name=name,
        )

    @property
    def player_id(self) -> int:
        """The seat, as the last ``start_game`` said it."""
        return self._bot.player_id

    def react(self, events: str) -> str:
        """The answer to the last of ``events``: ``{"type":"none"}`` when nothing is asked, ``join`` to
        ``hello``. Raises :class:`HaifuError` on an event it cannot read or that contradicts what the seat
        knows."""
        return self._bot.react(events)

    def start(self) -> None:
        """mjai.app's loop: one line of events per line of stdin, one answer per line of stdout."""
        for line in sys.stdin:
            if line.strip():
                print(self.react(line), flush=True)
