"""The game walker from Python: the state after each event is the one ingest replays with."""

import re
import subprocess

import pytest

import haifu


def test_walking_a_log_and_its_dataset_game_gives_the_same_states(sim_logs, tmp_path):
    ds = tmp_path / "ds"
    haifu.ingest(sim_logs, ds)
    decisions = haifu.table(ds, "decisions", columns=["game_id"]).num_rows
    discards = 0
    stored = dict(haifu.dataset_games(ds))
    assert len(stored) == 20
    logs = sorted(sim_logs.iterdir())
    from_logs = [g for f in logs for g in haifu.read_log(f)]
    assert len(from_logs) == 20
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


def taken(step):
    """What the step's event did, as (seat, option type, tile kinds and red fives it names) of the walker's
    options; None for an event that answers no question (a draw, a dora, a deal)."""
    e = step["event"]
    if e["kind"] == "discard":
        return e["seat"], ("discard", "riichi"), [e["tile"]]
    if e["kind"] == "call":
        m = e["meld"]
        from_hand = list(m["tiles"])
        if m["called"] is not None and m["kind"] in ("chi", "pon"):
            from_hand.remove(m["called"])
        tiles = {"chi": from_hand, "pon": from_hand, "ankan": m["tiles"], "kakan": [m["added"]], "nuki": m["tiles"][:1]}
        return e["seat"], (m["kind"],), tiles.get(m["kind"])
    if e["kind"] == "AGARI":
        who, frm = int(e["attrs"]["who"]), int(e["attrs"]["fromWho"])
        return who, ("tsumo",) if who == frm else ("ron",), None
    if e["kind"] == "REACH" and e["attrs"].get("step") == "1":
        return int(e["attrs"]["who"]), ("riichi",), None
    return None


def same_tiles(offered, wanted, exact):
    """The tiles of an option and of the event: the same ids (a discard names its tile), or the same kinds and
    red fives (a call's copies are the log's pick)."""
    if exact:
        return offered == wanted
    key = lambda ids: sorted((t // 4, t in (16, 52, 88)) for t in ids)  # noqa: E731
    return key(offered) == key(wanted)


def check_options(game):
    """Every call, riichi, kan, north, win and discard of the game is among the options the walker gave its
    seat before it; returns how many of each type were checked."""
    checked = {}
    for step in game.walk():
        t = taken(step)
        if t is None:
            continue
        seat, types, tiles = t
        offered = step["options"].get(seat, [])
        hit = [
            o
            for o in offered
            if o["type"] in types and (tiles is None or same_tiles(o["tiles"], tiles, types[0] == "discard"))
        ]
        assert hit, f"{game!r} event {step['index']}: {step['event']} is not among seat {seat}'s {offered}"
        checked[hit[0]["type"]] = checked.get(hit[0]["type"], 0) + 1
        # a seat asked about another's tile may always pass
        for s, options in step["options"].items():
            if any(o["type"] in ("chi", "pon", "daiminkan") for o in options):
                assert options[-1]["type"] == "pass"
    return checked


def test_every_action_of_the_engines_games_was_among_the_options(haifu_bin, tmp_path):
    # bots that call (sim_logs' greedy ones never do), so that chi, pon and kans are checked too
    players = ["A=caller", "B=tanyao", "C=yakuhai", "D=toitoi"]
    cmd = [haifu_bin, "sim", "--games", "8", "--east", "--seed", "3", "--players", *players, "--out", tmp_path]
    subprocess.run(cmd, check=True, capture_output=True)
    checked = {}
    for f in sorted(tmp_path.iterdir()):
        for game in haifu.read_log(f):
            for k, n in check_options(game).items():
                checked[k] = checked.get(k, 0) + n
    assert checked["discard"] > 1000 and checked["chi"] > 0 and checked["pon"] > 0, checked


def test_every_action_of_real_games_was_among_the_options(corpus):
    from conftest import corpus_files

    files = corpus_files(corpus, year=None, formats=("mjlog", "tenhou6", "mjai"))
    # a spread of the corpus: every 40th whole game of each format
    checked = {}
    for f in files[::40]:
        for game in haifu.read_log(f):
            for k, n in check_options(game).items():
                checked[k] = checked.get(k, 0) + n
    for kind in ("discard", "riichi", "chi", "pon", "ron", "tsumo"):
        assert checked.get(kind, 0) > 0, checked
