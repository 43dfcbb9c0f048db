"""How strong the hard bot ("zor") is against the normal bot, and what one of its turns costs.

Run from the repository root (under nice on a shared machine):

    nice -n 19 .venv/bin/python bench/bot_bench.py [--hands 4000] [--games 1000] [--seed 1]

- Düz: hands of one hard bot and three normal bots (four seats), the hard bot's seat and the
  first seat turning round from hand to hand. Prints the hard bot's share of the finished hands
  (a fair share is 25 %) with a 95 % Wilson interval, how often it finished with the okey, and
  the void hands.
- Eşli: whole games (default options: 8 hands, start count 20) of a hard pair against a normal
  pair, the hard pair on seats 0 and 2 in even games and on 1 and 3 in odd ones. Prints the
  share of games the hard pair won (a drawn game counts half) with a 95 % interval.
- The wall and CPU time of each of the hard bot's turns (`bot_moves`, the whole turn) in the
  Düz hands: p50, p99 and the largest (on a busy machine the CPU time is the steadier one).

Every deal comes from a seed derived from --seed and the hand's number, so every run plays the
same hands. `--hands 0` or `--games 0` skips a part; `--workers N` splits the work over N
processes (the cost of a turn is then measured in each and pooled). `--progress N` prints the
running figures after every N hands (or games), in order, so that a run cut short on a busy
machine still reports the first hands it played (the same first hands in every run).
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine import (  # noqa: E402
    RuleOptions,
    bot_moves,
    deal,
    game_apply_hand,
    game_new,
    hand_apply,
    team_totals,
)


def seed_of(base: int, *parts: int) -> bytes:
    return hashlib.sha256(repr((base, *parts)).encode()).digest()


def play_hand(state, strengths, times=None, cpu=None):
    """Play a dealt hand to its end; ``times`` and ``cpu`` collect the wall and CPU time of each
    hard turn."""
    while state.phase != "over":
        seat = state.turn
        strength = strengths[seat]
        t0, c0 = time.perf_counter(), time.thread_time()
        moves = bot_moves(state, seat, strength)
        if times is not None and strength == "hard":
            times.append(time.perf_counter() - t0)
            cpu.append(time.thread_time() - c0)
        for m in moves:
            state = hand_apply(state, m)
    return state.result


def duz_hands(args: tuple[int, int, int]) -> dict:
    base, start, stop = args
    options = RuleOptions()
    out = {"finished": 0, "hard": 0, "hard_okey": 0, "normal_okey": 0, "void": 0}
    out |= {"times": [], "cpu": []}
    for i in range(start, stop):
        hard_seat, first = i % 4, (i // 4) % 4
        strengths = ["normal"] * 4
        strengths[hard_seat] = "hard"
        state = deal(seed_of(base, 0, i), options, first)
        result = play_hand(state, strengths, out["times"], out["cpu"])
        if result.void:
            out["void"] += 1
            continue
        out["finished"] += 1
        okey = result.kind in ("okey", "pairs+okey")
        if result.finisher == hard_seat:
            out["hard"] += 1
            out["hard_okey"] += okey
        else:
            out["normal_okey"] += okey
    return out


def esli_games(args: tuple[int, int, int]) -> dict:
    base, start, stop = args
    options = RuleOptions(mode="esli")
    out = {"won": 0, "lost": 0, "drawn": 0, "hands": 0, "hard_hands": 0}
    for g in range(start, stop):
        hard_team = g % 2
        strengths = ["hard" if seat % 2 == hard_team else "normal" for seat in range(4)]
        game = game_new(options, g // 2 % 4)
        h = 0
        while not game.over:
            state = deal(seed_of(base, 1, g, h), options, game.next_first_seat)
            result = play_hand(state, strengths)
            game = game_apply_hand(game, result)
            if not result.void:
                out["hands"] += 1
                out["hard_hands"] += result.finisher % 2 == hard_team
            h += 1
        totals = team_totals(game)
        mine, theirs = totals[hard_team], totals[1 - hard_team]
        out["won" if mine < theirs else "lost" if mine > theirs else "drawn"] += 1
    return out


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if not n:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def split(total: int, workers: int, base: int, chunk: int = 0) -> list[tuple[int, int, int]]:
    step = chunk or (math.ceil(total / workers) if total else 0)
    return [(base, a, min(total, a + step)) for a in range(0, total, step or 1)]


def merged(results: list[dict]) -> dict:
    out: dict = {}
    for r in results:
        for k, v in r.items():
            out[k] = out.get(k, [] if isinstance(v, list) else 0) + v
    return out


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--progress", type=int, default=0)
    args = parser.parse_args()

    with ProcessPoolExecutor(args.workers) as pool:
        t0 = time.perf_counter()
        if args.hands:
            d: dict = {}
            parts = split(args.hands, args.workers, args.seed, args.progress)
            for part in pool.map(duz_hands, parts):
                d = merged([d, part])
                if args.progress:
                    played = d["finished"] + d["void"]
                    print(f"[{played} of {args.hands} hands, {time.perf_counter() - t0:.0f} s]")
                    duz_report(d, played)
            if not args.progress:
                duz_report(d, args.hands)
        if args.games:
            e: dict = {}
            parts = split(args.games, args.workers, args.seed, args.progress)
            for part in pool.map(esli_games, parts):
                e = merged([e, part])
                if args.progress:
                    played = e["won"] + e["lost"] + e["drawn"]
                    print(f"[{played} of {args.games} games, {time.perf_counter() - t0:.0f} s]")
                    esli_report(e, played)
            if not args.progress:
                esli_report(e, args.games)
        print(
            f"({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}, "
            f"{args.workers} worker(s), seed {args.seed}, {time.perf_counter() - t0:.0f} s)"
        )


def duz_report(d: dict, hands: int) -> None:
    pct = "{:.1%}".format
    lo, hi = wilson(d["hard"], d["finished"])
    print(
        f"Düz, one hard bot and three normal, {hands} hands: {d['finished']} "
        f"finished, {d['void']} void; the hard bot finished {d['hard']} = "
        f"{pct(d['hard'] / max(1, d['finished']))} (95 % CI {pct(lo)}–{pct(hi)}; "
        "fair share 25 %)"
    )
    print(
        f"  finishes with the okey: hard bot {d['hard_okey']} of {d['hard']}, "
        f"normal bots {d['normal_okey']} of {d['finished'] - d['hard']}"
    )
    for what, key in (("wall", "times"), ("CPU", "cpu")):
        ms = [t * 1000 for t in d[key]]
        print(
            f"  a hard bot's turn (bot_moves), {len(ms)} turns, {what} time: p50 "
            f"{percentile(ms, 0.5):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, "
            f"max {max(ms):.1f} ms"
        )


def esli_report(e: dict, games: int) -> None:
    pct = "{:.1%}".format
    score = e["won"] + e["drawn"] / 2
    lo, hi = wilson(score, games)
    print(
        f"Eşli, a hard pair against a normal pair, {games} games "
        f"({e['hands']} hands): won {e['won']}, lost {e['lost']}, drawn {e['drawn']}; "
        f"the hard pair's share {pct(score / games)} (95 % CI {pct(lo)}–{pct(hi)}, "
        f"a draw counting half); it finished {pct(e['hard_hands'] / max(1, e['hands']))}"
        " of the hands"
    )


if __name__ == "__main__":
    main()
