"""Bad input: quarantined with its reason, or under strict=True an exception naming the file and position."""

import pytest

import haifu

BROKEN = '<mjloggm ver="2.3"><GO type="169" lobby="0"/><UN n0="a" n1="b" n2="c" n3="d"/>' \
    '<TAIKYOKU oya="0"/><INIT seed="0,0,0,3,2,54" ten="250,250,250,250" oya="0" hai0="1,2,3" hai1="x"/>'


def test_a_broken_file_is_quarantined_and_the_rest_goes_on(sim_logs, tmp_path):
    broken = tmp_path / "in" / "2024010100gm-00a9-0000-broken.mjlog"
    broken.parent.mkdir()
    broken.write_text(BROKEN)
    s = haifu.ingest([sim_logs, broken], tmp_path / "ds")
    assert s["games_ingested"] == 20
    assert s["files_quarantined"] + s["games_quarantined"] == 1
    (q,) = s["quarantined"]
    assert q["file"].endswith("broken.mjlog") and q["reason"]


def test_strict_raises_with_the_file_and_the_position(sim_logs, tmp_path):
    broken = tmp_path / "broken.mjlog"
    broken.write_text(BROKEN)
    with pytest.raises(haifu.HaifuError) as e:
        haifu.ingest([broken], tmp_path / "ds", strict=True)
    assert "broken.mjlog" in str(e.value)
    # the column (1-based) of the tag that holds the bad "x", found here in the text itself
    column = BROKEN.index("<INIT") + 1
    assert f"line 1, column {column}" in str(e.value), str(e.value)


def test_bad_arguments_are_value_errors(tmp_path):
    with pytest.raises(ValueError, match="percentage"):
        haifu.ingest([], tmp_path / "ds", max_quarantined="lots")
    with pytest.raises(ValueError, match="3 or 4"):
        haifu.positions(tmp_path, players=5)
    with pytest.raises(haifu.HaifuError):
        haifu.positions(tmp_path / "nowhere")
