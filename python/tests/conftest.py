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
    """Twelve east-only games the project's own engine plays (seeded), as mjlog files."""
    out = tmp_path_factory.mktemp("sim")
    subprocess.run(
        [haifu_bin, "sim", "--games", "12", "--east", "--seed", "7", "--out", out], check=True, capture_output=True
    )
    return out
