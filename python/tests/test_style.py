"""The lookup imitator and the style database from Python give what the command line's --json gives."""

import json
import subprocess

import pytest

import haifu


def cli(haifu_bin, *args):
    done = subprocess.run([haifu_bin, *map(str, args), "--json"], check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


HANDS = ["123234m456p789s11z", "1199m2355p68s1567z", "055m406p789s22344z"]


def test_suggest_equals_the_command_line(haifu_bin, sim_style):
    tables_dir, _ = sim_style
    tables = haifu.Tables(tables_dir)
    assert "ALL" in tables.players and len(tables.players) > 1
    for hand in HANDS:
        for player in tables.players[:3]:
            for strategy, seat in (("all", "E"), ("tanyao", "S")):
                got = tables.suggest(hand, player=player, strategy=strategy, seat_wind=seat)
                want = cli(
                    haifu_bin, "imitate", "suggest", "--tables", tables_dir, "--player", player,
                    "--strategy", strategy, "--hand", hand, "--seat-wind", seat,
                )  # fmt: skip
                for k in ("candidates", "suits", "table", "winds", "strategy", "player"):
                    assert got[k] == want[k], (hand, player, strategy, k)
    ranked = [c for h in HANDS for c in tables.suggest(h)["candidates"]]
    assert any(c["reason"] == "sequence" for c in ranked)


def test_suggest_refuses_what_the_command_line_refuses(sim_style):
    tables = haifu.Tables(sim_style[0])
    with pytest.raises(ValueError, match="13 tiles"):
        tables.suggest("123m456p789s1122z")
    with pytest.raises(ValueError, match="seat wind"):
        tables.suggest(HANDS[0], seat_wind="P")
    with pytest.raises(haifu.HaifuError, match="unknown player"):
        tables.suggest(HANDS[0], player="Nobody")
    with pytest.raises(haifu.HaifuError, match="sequences"):
        haifu.Tables(sim_style[0] / "missing")


def test_identify_equals_the_command_line(haifu_bin, sim_style, sim_logs):
    _, db_dir = sim_style
    db = haifu.StyleDb(db_dir)
    names = [p for p, _ in db.players]
    assert len(names) >= 2 and all(games >= 1 for _, games in db.players)
    logs = sorted(sim_logs.iterdir())[:3]
    for seat in (0, 2):
        got = db.identify(logs, seat)
        want = cli(haifu_bin, "style", "identify", "--db", db_dir, *[a for f in logs for a in ("--log", f)],
                   "--seat", seat, "--top", len(names))  # fmt: skip
        assert got == want
        assert sorted(s["player"] for s in got) == sorted(names)
        by_score = cli(haifu_bin, "style", "identify", "--db", db_dir, *[a for f in logs for a in ("--log", f)],
                       "--seat", seat, "--top", len(names), "--by", "score")  # fmt: skip
        assert db.identify(logs, seat, by="score") == by_score
    assert len(db.identify(logs, 0, top=1, games=1)) == 1
    with pytest.raises(ValueError, match="discards, decisions, score, baseline or discards_baseline"):
        db.identify(logs, 0, by="nobody")
    with pytest.raises(haifu.HaifuError, match="no seat named"):
        db.identify(logs, "Nobody")
    with pytest.raises(haifu.HaifuError, match="not a style database"):
        haifu.StyleDb(sim_logs)


def test_preferences_equal_the_command_line(haifu_bin, sim_style):
    _, db_dir = sim_style
    db = haifu.StyleDb(db_dir)
    for player, _ in db.players[:3]:
        got = db.preferences(player)
        want = cli(haifu_bin, "style", "show", player, "--db", db_dir)
        assert got["player"] == player
        assert got["discard_model"] == want["discard_model"] and got["discard_model"]
        assert got["choice_model"] == want["choice_model"]
        z = [abs(c["z"]) for c in got["discard_model"]]
        assert z == sorted(z, reverse=True)
    with pytest.raises(haifu.HaifuError, match="unknown player"):
        db.preferences("Nobody")


def test_nearest_equals_the_command_line(haifu_bin, sim_style):
    _, db_dir = sim_style
    db = haifu.StyleDb(db_dir)
    player = db.players[0][0]
    for by in ("discards", "sequences"):
        got = db.nearest(player, k=3, by=by)
        assert got == cli(haifu_bin, "style", "nearest", player, "--db", db_dir, "-k", "3", "--by", by)
        assert got["by"] == by and len(got["nearest"]) == 3
    with pytest.raises(ValueError, match="discards or sequences"):
        db.nearest(player, by="nobody")
    with pytest.raises(haifu.HaifuError, match="unknown player"):
        db.nearest("Nobody")
