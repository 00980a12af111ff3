"""Peer benchmark for `haifu bench sim`: RiichiEnv (pip install riichienv==0.4.11) playing 4-player hanchan
with its RandomAgent on one thread, without mjai logging. Prints hanchan per CPU-second (median of repeats).

Usage: python3 scripts/peers/riichienv_bench.py [GAMES] [REPEAT]
"""
import statistics
import sys
import time

from riichienv import GameType, RiichiEnv
from riichienv.agents import RandomAgent


def run(games: int) -> float:
    agent = RandomAgent()
    t0 = time.process_time()
    for g in range(games):
        env = RiichiEnv(game_mode=GameType.YON_HANCHAN, skip_mjai_logging=True, seed=g)
        obs = env.reset()
        while not env.done():
            obs = env.step({pid: agent.act(o) for pid, o in obs.items()})
    return time.process_time() - t0


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    cpu = statistics.median(run(games) for _ in range(repeat))
    print(f"riichienv 0.4.11, RandomAgent x4: {games} hanchan, cpu {cpu:.3f}s (median of {repeat}) "
          f"-> {games / cpu:.1f} hanchan per CPU-second")


if __name__ == "__main__":
    main()
