"""An mjai bot from Python (mjai.app's ``Bot.react``) seated at the engine's mjai server finishes a game."""

import json
import socket
import subprocess
import threading

import pytest

import haifu


def play(bot, addr, failures):
    """One client of the server: every line answered with ``bot.react`` until the server closes."""
    host, port = addr.rsplit(":", 1)
    try:
        with socket.create_connection((host, int(port)), timeout=60) as s:
            f = s.makefile("rwb")
            for line in f:
                f.write(bot.react(line.decode()).encode() + b"\n")
                f.flush()
    except Exception as e:  # noqa: BLE001: the test reports every client's failure
        failures.append(repr(e))


def test_python_bots_finish_a_game_against_the_engine(haifu_bin, sim_style):
    _, db = sim_style
    player = haifu.StyleDb(db).players[0][0]
    bots = [
        haifu.MjaiBot(bot="efficiency", seed=1),
        haifu.MjaiBot(bot="tanyao", seed=2, name="py-tanyao"),
        haifu.MjaiBot(db=db, player=player, seed=3),
        haifu.MjaiBot(bot="caller", seed=4),
    ]
    server = subprocess.Popen(
        [haifu_bin, "mjai-server", "--bind", "127.0.0.1:0", "--length", "east", "--seed", "5", "--json"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        addr = server.stdout.readline().split()[-1]
        failures = []
        threads = [threading.Thread(target=play, args=(b, addr, failures)) for b in bots]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
        report = json.loads(server.stdout.read())
        assert server.wait(timeout=60) == 0
    finally:
        server.kill()
    assert failures == []
    (game,) = report["games"]
    # an east game plays four rounds at least, unless a seat busts (below zero) first; which bot sits where
    # follows the order the clients connect in, so either ending can come
    assert game["rounds"] >= 4 or min(game["scores"]) < 0, game
    assert sum(game["scores"]) == 100_000
    assert sorted(s["name"] for s in game["seats"]) == sorted(["efficiency", "py-tanyao", player, "caller"])
    for s in game["seats"]:
        assert s["errors"] == [] and not s["dropped"], s
    assert all(c["dropped"] is None and c["errors"] == 0 for c in report["clients"])
    # the seat each bot was given
    assert sorted(b.player_id for b in bots) == [0, 1, 2, 3]


def test_react_takes_a_list_of_events_and_answers_the_last():
    bot = haifu.MjaiBot(bot="tsumogiri")
    assert json.loads(bot.react('{"type":"hello"}'))["type"] == "join"
    start = {"type": "start_game", "id": 2, "names": ["a", "b", "c", "d"]}
    tiles = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "S", "W", "N"]
    other = ["?"] * 13
    deal = {
        "type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
        "dora_marker": "1p", "scores": [25000] * 4, "tehais": [other, other, tiles, other],
    }  # fmt: skip
    assert json.loads(bot.react(json.dumps([start, deal]))) == {"type": "none"}
    assert bot.player_id == 2
    # seat 2 draws: the tsumogiri bot discards what it drew
    draws = [{"type": "tsumo", "actor": 0, "pai": "?"}, {"type": "dahai", "actor": 0, "pai": "C", "tsumogiri": True}]
    draws += [{"type": "tsumo", "actor": 1, "pai": "?"}, {"type": "dahai", "actor": 1, "pai": "F", "tsumogiri": True}]
    answers = [json.loads(bot.react(json.dumps(e))) for e in draws]
    assert all(a["type"] == "none" for a in answers)
    answer = json.loads(bot.react(json.dumps([{"type": "tsumo", "actor": 2, "pai": "P"}])))
    assert (answer["type"], answer["actor"], answer["pai"], answer["tsumogiri"]) == ("dahai", 2, "P", True)


def test_react_raises_on_what_it_cannot_follow():
    bot = haifu.MjaiBot(bot="efficiency")
    with pytest.raises(haifu.HaifuError, match="before any `start_game`"):
        bot.react('{"type":"tsumo","actor":0,"pai":"1m"}')
    with pytest.raises(haifu.HaifuError, match="event 1: cannot read"):
        bot.react('[{"type":"hello"}, {"type": 3}]')
    with pytest.raises(haifu.HaifuError, match="not a JSON array"):
        bot.react("[1, 2")
    with pytest.raises(ValueError, match="say whom to play"):
        haifu.MjaiBot()
    with pytest.raises(ValueError, match="unknown bot"):
        haifu.MjaiBot(bot="nobody")
