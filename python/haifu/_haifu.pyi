"""Type stubs of the extension module (python/src); the package's own functions are typed in __init__.py."""

from typing import Iterator, Optional, Sequence, Union

FEATURES: int
PACKED: int

class HaifuError(Exception): ...

class TableStream:
    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object: ...
    def num_rows(self) -> int: ...
    def buffer_addresses(self) -> list[list[list[int]]]: ...

class Game:
    @property
    def format(self) -> str: ...
    @property
    def log_id(self) -> Optional[str]: ...
    @property
    def notes(self) -> list[str]: ...
    def __len__(self) -> int: ...
    def events(self) -> list[dict]: ...
    def walk(self) -> list[dict]: ...

def read_log(path: str) -> list[Game]: ...
def dataset_games(dataset: str, game_ids: Optional[Sequence[int]] = None) -> list[tuple[int, Game]]: ...
def ingest(
    paths: Sequence[str],
    out: str,
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
) -> str: ...
def read_table(dataset: str, table: str, columns: Optional[Sequence[str]] = None) -> TableStream: ...
def positions(
    dataset: str,
    *,
    years: Sequence[int] = ...,
    test_years: Sequence[int] = ...,
    players: int = 4,
    player: Optional[str] = None,
    fraction: Optional[float] = None,
    sample: Optional[float] = None,
    decisions: str = "discards",
) -> tuple[dict, dict]: ...
def shanten(hand: str) -> int: ...
def ukeire(hand: str, seen: str = "") -> dict[str, int]: ...
def score(
    hand: str,
    win: str,
    *,
    melds: Sequence[Union[str, int]] = ...,
    tsumo: bool = False,
    seat_wind: str = "E",
    round_wind: str = "E",
    riichi: int = 0,
    ippatsu: bool = False,
    rinshan: bool = False,
    chankan: bool = False,
    last_tile: bool = False,
    first_draw: bool = False,
    dora: str = "",
    ura: str = "",
    players: int = 4,
    red_fives: bool = True,
    open_tanyao: bool = True,
) -> Optional[dict]: ...

class PositionBatches:
    def __iter__(self) -> Iterator[dict]: ...
    def __next__(self) -> dict: ...

def position_batches(
    dataset: str,
    *,
    test: bool = False,
    batch_size: int = 65536,
    years: Sequence[int] = ...,
    test_years: Sequence[int] = ...,
    players: int = 4,
    player: Optional[str] = None,
    fraction: Optional[float] = None,
    sample: Optional[float] = None,
    decisions: str = "discards",
) -> PositionBatches: ...

class Tables:
    def __init__(self, path: str, *, sources: Optional[Sequence[str]] = None) -> None: ...
    @property
    def players(self) -> list[str]: ...
    def suggest(
        self, hand: str, *, player: str = "ALL", strategy: str = "all", round_wind: str = "E", seat_wind: str = "E"
    ) -> str: ...

class StyleDb:
    def __init__(self, path: str) -> None: ...
    @property
    def players(self) -> list[tuple[str, int]]: ...
    def identify(
        self, logs: Sequence[str], seat: str, *, games: Optional[int] = None, top: Optional[int] = None, by: str = "decisions"
    ) -> str: ...
    def preferences(self, player: str) -> str: ...
    def nearest(self, player: str, *, k: int = 5, by: str = "discards") -> str: ...

class MjaiBot:
    def __init__(
        self,
        player_id: int = 0,
        *,
        bot: Optional[str] = None,
        db: Optional[str] = None,
        player: Optional[str] = None,
        seed: int = 0,
        name: Optional[str] = None,
    ) -> None: ...
    @property
    def player_id(self) -> int: ...
    def react(self, events: str) -> str: ...
