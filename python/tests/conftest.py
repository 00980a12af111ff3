"""Fixtures of the Python module's tests: the command line's binaries (built by scripts/test before pytest
runs) and the shared corpus, which tests that need it skip without (failing instead under
HAIFU_REQUIRE_CORPUS, as CI sets it)."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def target_dir() -> Path:
    return Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))


@pytest.fixture(scope="session")
def haifu_bin() -> Path:
    b = target_dir() / "release" / "haifu"
    if not b.exists():
        pytest.fail(f"{b} is missing: build it first (cargo build --release -p haifu; scripts/test does)")
    return b


@pytest.fixture(scope="session")
def corpus() -> Path:
    c = Path(os.environ.get("HAIFU_CORPUS", ROOT.parent / "shared" / "corpus"))
    if not (c / "MANIFEST.tsv").exists():
        if os.environ.get("HAIFU_REQUIRE_CORPUS"):
            pytest.fail(f"HAIFU_REQUIRE_CORPUS is set but there is no corpus at {c}")
        pytest.skip(f"no corpus at {c} (set HAIFU_CORPUS): this test reads real logs")
    return c


def corpus_files(corpus: Path, *, year, formats=("mjlog", "tenhou6")) -> list:
    """The corpus's whole games (not its fragments) of a year (None: every year) in the given formats, by its
    MANIFEST.tsv."""
    out = []
    for line in (corpus / "MANIFEST.tsv").read_text().splitlines()[1:]:
        f = line.split("\t")
        if f[3] in formats and f[4] == "full" and (year is None or f[7] == year):
            out.append(str(corpus / f[0]))
    return sorted(out)


@pytest.fixture(scope="session")
def sim_logs(haifu_bin, tmp_path_factory) -> Path:
    """Twenty east-only games the project's own engine plays (seeded), as mjlog files: enough that the
    default split (one game in ten by a hash of its id) has test games."""
    out = tmp_path_factory.mktemp("sim")
    subprocess.run(
        [haifu_bin, "sim", "--games", "20", "--east", "--seed", "7", "--out", out], check=True, capture_output=True
    )
    return out


@pytest.fixture(scope="session")
def sim_dataset(sim_logs, tmp_path_factory) -> Path:
    """The twenty games of ``sim_logs`` ingested by the command line."""
    import haifu

    ds = tmp_path_factory.mktemp("simds") / "ds"
    haifu.ingest(sim_logs, ds)
    return ds


@pytest.fixture(scope="session")
def sim_style(haifu_bin, sim_dataset, tmp_path_factory) -> "tuple[Path, Path]":
    """The sequence tables (``haifu mine``) and the style database (``haifu style build``, every player) of
    ``sim_dataset``."""
    out = tmp_path_factory.mktemp("simstyle")
    tables, db = out / "tables", out / "db"
    for args in (
        ["mine", "--dataset", sim_dataset, "--out", tables],
        ["style", "build", "--dataset", sim_dataset, "--out", db, "--min-games", "1"],
    ):
        subprocess.run([haifu_bin, *args], check=True, capture_output=True)
    return tables, db
