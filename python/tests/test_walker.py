"""The game walker from Python: the state after each event is the one ingest replays with."""

import re

import pytest

import haifu


def test_walking_a_log_and_its_dataset_game_gives_the_same_states(sim_logs, tmp_path):
    ds = tmp_path / "ds"
    haifu.ingest(sim_logs, ds)
    decisions = haifu.table(ds, "decisions", columns=["game_id"]).num_rows
    discards = 0
    stored = dict(haifu.dataset_games(ds))
    assert len(stored) == 12
    logs = sorted(sim_logs.iterdir())
    from_logs = [g for f in logs for g in haifu.read_log(f)]
    assert len(from_logs) == 12
    for game in from_logs:
        steps = game.walk()
        assert len(steps) == len(game)
        before = None
        for step in steps:
            e, state = step["event"], step["state"]
            if e["kind"] == "discard":
                discards += 1
                seat = before["seats"][e["seat"]]
                # the tile left the hand it was in, and its kind was among the legal discards
                assert e["tile"] in seat["hand"] and e["tile"] not in state["seats"][e["seat"]]["hand"]
                kind = e["tile"] // 4
                names = [f"{d}{s}" for s in "mps" for d in range(1, 10)] + list("ESWNPFC")
                assert names[kind] in step["legal"]
                assert state["seats"][e["seat"]]["river"][-1]["tile"] == e["tile"]
            elif e["kind"] == "draw":
                assert len(state["seats"][e["seat"]]["hand"]) + 3 * len(state["seats"][e["seat"]]["melds"]) == 14
                assert step["legal"] is None
            elif e["kind"] == "AGARI":
                # the scores after a win are the tag's own: sc holds each seat's score and change, in 100s
                sc = [int(x) for x in e["attrs"]["sc"].split(",")]
                assert state["scores"] == [100 * (sc[2 * i] + sc[2 * i + 1]) for i in range(4)]
            before = state
    # the dataset's decisions table holds one row per discard
    assert discards == decisions
    # the same game from the dataset walks through the same states
    (gid, first) = next(iter(stored.items()))
    match = [g for g in from_logs if [s["state"] for s in g.walk()] == [s["state"] for s in first.walk()]]
    assert len(match) == 1


def test_an_impossible_discard_names_the_event(sim_logs, tmp_path):
    log = sorted(sim_logs.iterdir())[0]
    text = log.read_text()
    init = re.search(r'<INIT [^>]*hai1="(\d+)', text)
    other_seat_tile = init.group(1)
    # seat 0's first discard made a tile seat 1 holds
    bad = re.sub(r"<D\d+/>", f"<D{other_seat_tile}/>", text, count=1)
    (log_bad := tmp_path / log.name).write_text(bad)
    (game,) = haifu.read_log(log_bad)
    with pytest.raises(haifu.HaifuError, match=rf"{re.escape(log.name)} game 0 event \d+: "):
        game.walk()


def test_an_unreadable_log_names_the_file_and_position(tmp_path):
    bad = tmp_path / "cut.mjlog"
    bad.write_text('<mjloggm ver="2.3"><GO type="169"')
    with pytest.raises(haifu.HaifuError, match=r"cut\.mjlog.*line 1"):
        haifu.read_log(bad)
