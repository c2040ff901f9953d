"""Simulator speed: full T20 matches per second, against the random-number limit and the per-ball loop.

Usage: python benchmarks/bench_sim.py [--source DIR] [--matches N] [--reference-matches N]
                                      [--repeat N] [--rule]

Both engines play the same two BBL 2024-25 sides (usual XIs, calibrated cards) in the same run:
the vectorised engine twice, its bookkeeping compiled (numba, the `fast` extra, CARDGEN_ENGINE=numba;
skipped when numba is not installed) and as numpy operations (CARDGEN_ENGINE=numpy), and so does the
vectorised engine as it was at a fixed baseline revision (default a10837f, before the speed work
of issue 16; loaded from git into a temporary module).
The random-number limit: the vectorised engine's draws are recorded (every Generator call with
its size), then replayed with the Generator alone; the time of the replay is what the engine
would take if its bookkeeping cost nothing (both paths draw the same numbers). The compiled path
draws them through numba's Generator (the same bit generator, cheaper per number than numpy's
calls), so the same draws replayed there are printed too, with the compiled path's fraction of
that stricter limit. Prints matches per second
for each engine, the limit and the per-ball loop, each path's fraction of the limit (target
>= 0.5), numba's one-off compile (in a child process with an empty NUMBA_CACHE_DIR) and the
import + load of its cached code (a second child), and times the whole season replay
(`simulate --seasons 1000`, 42,000 matches) end to end. Runs alternate and the best of --repeat
counts, so load from other processes hits all of them alike.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from cardgen.cache import Cache
from cardgen.calibrate.cardset import build_card_set
from cardgen.competitions import get_competition
from cardgen.sim import fast
from cardgen.sim.captain import Captain
from cardgen.cardset import CardSet
from cardgen.sim.model import compile_card_set
from cardgen.sim.reference import play_match
from cardgen.sim.season import CHUNK_MATCHES, replay_season
from cardgen.stats.load import season_stats

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = ROOT.parent / "shared" / "data" / "cricsheet"
TARGET_FRACTION = 0.5
BASELINE_REV = "a10837f"


def baseline_engine(rev: str):  # type: ignore[no-untyped-def]
    """cardgen/sim/fast.py at git revision `rev`, imported as a module of its own."""
    src = subprocess.run(["git", "show", f"{rev}:cardgen/sim/fast.py"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / "fast_baseline.py"
    path.write_text(src, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("fast_baseline", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules["fast_baseline"] = module
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


class Recorder:
    """A Generator that writes down every draw (method, arguments) it is asked for."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def integers(self, *args: Any, **kwargs: Any) -> np.ndarray:
        self.calls.append(("integers", args, kwargs))
        return self.rng.integers(*args, **kwargs)

    def random(self, *args: Any, **kwargs: Any) -> np.ndarray:
        self.calls.append(("random", args, kwargs))
        return self.rng.random(*args, **kwargs)


# a child's figures: numba's import, then the kernel's compile or its cached code's load
COMPILE_CHILD = """
import json, time
t0, c0 = time.perf_counter(), time.process_time()
import numba
t1, c1 = time.perf_counter(), time.process_time()
from cardgen.sim import fast_compiled
t2, c2 = time.perf_counter(), time.process_time()
print(json.dumps({"import": [t1 - t0, c1 - c0], "kernel": [t2 - t1, c2 - c1]}))
"""


def compile_costs() -> tuple[dict[str, list[float]], dict[str, list[float]]] | None:
    """(cold, warm) figures of two children sharing an empty numba cache: the first compiles
    and writes it, the second imports numba and loads the compiled code (None: no numba)."""
    if importlib.util.find_spec("numba") is None:
        return None
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
        runs = [subprocess.run([sys.executable, "-c", COMPILE_CHILD], env=env, check=True,
                               capture_output=True, text=True) for _ in range(2)]
    cold, warm = (json.loads(run.stdout.strip().splitlines()[-1]) for run in runs)
    return cold, warm


def replay(calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]], seed: int) -> tuple[float, float]:
    """(wall, CPU) seconds the Generator alone takes for the recorded draws."""
    rng = np.random.default_rng(seed)
    bound = [(getattr(rng, name), args, kwargs) for name, args, kwargs in calls]
    t0, c0 = time.perf_counter(), time.process_time()
    for method, args, kwargs in bound:
        method(*args, **kwargs)
    return time.perf_counter() - t0, time.process_time() - c0


def compiled_replayer():  # type: ignore[no-untyped-def]
    """replay() with numba's Generator (the compiled path draws its dice in numba): the same
    numbers from the same bit generator; None without numba."""
    if importlib.util.find_spec("numba") is None:
        return None
    import numba

    @numba.njit(cache=False)
    def draw_all(rng, low, high, size):  # type: ignore[no-untyped-def]
        for k in range(len(size)):
            if high[k] < 0:
                rng.random(size[k])
            else:
                rng.integers(low[k], high[k], size[k])

    def replay_numba(calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]],
                     seed: int) -> tuple[float, float]:
        assert all(not kwargs for _, _, kwargs in calls)
        low = np.array([a[0] if name == "integers" else 0 for name, a, _ in calls], np.int64)
        high = np.array([a[1] if name == "integers" else -1 for name, a, _ in calls], np.int64)
        size = np.array([a[-1] for _, a, _ in calls], np.int64)
        draw_all(np.random.default_rng(seed), low[:1], high[:1], size[:1])   # (compiles)
        rng = np.random.default_rng(seed)
        t0, c0 = time.perf_counter(), time.process_time()
        draw_all(rng, low, high, size)
        return time.perf_counter() - t0, time.process_time() - c0

    return replay_numba


def play(cs, table, n: int, rng, rule=None, engine=fast, path: str = "") -> tuple[tuple[float, float], int, np.ndarray, np.ndarray]:  # type: ignore[no-untyped-def]
    """((wall, CPU) seconds, deliveries, first-innings totals, the matches' outcomes: both
    totals and the winner) for n matches in batches as `simulate` plays them; `path` "numpy"
    forces the numpy bookkeeping (CARDGEN_ENGINE)."""
    firsts, outcomes, deliveries, done = [], [], 0, 0
    kwargs = {"rule": rule} if rule is not None else {}
    if path:
        os.environ[fast.ENGINE_VARIABLE] = path
    try:
        t0, c0 = time.perf_counter(), time.process_time()
        while done < n:
            k = min(CHUNK_MATCHES, n - done)
            batch = engine.play_matches(cs, table, np.zeros(k, int), np.ones(k, int), rng, **kwargs)
            firsts.append(batch.first.runs)
            outcomes.append(np.stack([batch.first.runs, batch.second.runs, batch.winner]))
            deliveries += batch.deliveries
            done += k
        times = (time.perf_counter() - t0, time.process_time() - c0)
    finally:
        os.environ.pop(fast.ENGINE_VARIABLE, None)
    return times, deliveries, np.concatenate(firsts), np.concatenate(outcomes, axis=1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", default=str(DEFAULT_SOURCE))
    ap.add_argument("--matches", type=int, default=44_000)
    ap.add_argument("--reference-matches", type=int, default=500)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rule", action="store_true", help="play with the wickets-in-hand rule")
    ap.add_argument("--baseline", default=BASELINE_REV,
                    help="git revision of the engine to compare with ('' to skip; classic rules only)")
    args = ap.parse_args()
    rule = None
    if args.rule:
        from cardgen.wickets_in_hand import WicketsInHand
        rule = WicketsInHand()
    comp = get_competition("BBL")
    cache = Cache(Path(tempfile.mkdtemp()))
    stats = season_stats(comp, "2024-25", args.source, cache=cache)
    card_set = build_card_set(comp, "2024-25", args.source, cache=cache)
    cs = compile_card_set(CardSet.from_json(card_set))
    captain = Captain(cs, stats.lineups, stats.bowling, np.random.default_rng(0))
    teams = [t["name"] for t in card_set["teams"]][:2]
    sides = [captain.usual_side(t) for t in teams]
    table = fast.SideTable.build(cs, sides)
    print(f"BBL 2024-25, {teams[0]} v {teams[1]} (usual XIs), {args.matches} matches in batches "
          f"of {CHUNK_MATCHES}, rule: {rule.name if rule else 'classic'}, best of {args.repeat}")

    n = args.matches
    old = baseline_engine(args.baseline) if args.baseline and rule is None else None
    old_table = old.SideTable.build(cs, sides) if old else None
    compiled = fast.compiled_engine() is not None   # (loads numba's cached code, untimed)
    paths = (["numba"] if compiled else []) + ["numpy"]
    recorder = Recorder(np.random.default_rng(2))
    play(cs, table, n, recorder, rule)                  # the engine's draw schedule (untimed)
    inf = (float("inf"), float("inf"))
    engine_t = {p: inf for p in paths}
    limit_t = old_t = numba_limit_t = inf
    replay_numba = compiled_replayer() if compiled else None
    ref_s = float("inf")
    best = lambda a, b: (min(a[0], b[0]), min(a[1], b[1]))  # noqa: E731
    played: dict[str, tuple[int, np.ndarray, np.ndarray]] = {}
    for _ in range(max(args.repeat, 1)):
        for p in paths:
            t, deliveries, firsts, outcomes = play(cs, table, n, np.random.default_rng(2), rule,
                                                   path=p)
            engine_t[p] = best(engine_t[p], t)
            played[p] = (deliveries, firsts, outcomes)
        limit_t = best(limit_t, replay(recorder.calls, 2))
        if replay_numba is not None:
            numba_limit_t = best(numba_limit_t, replay_numba(recorder.calls, 2))
        if old is not None:
            t, _, old_firsts, _ = play(cs, old_table, n, np.random.default_rng(2), engine=old)
            old_t = best(old_t, t)
        rng = np.random.default_rng(1)
        t0 = time.process_time()
        ref_first = [play_match(cs, sides[0], sides[1], rng, rule=rule).first.runs
                     for _ in range(args.reference_matches)] if rule else \
            [play_match(cs, sides[0], sides[1], rng).first.runs for _ in range(args.reference_matches)]
        ref_s = min(ref_s, time.process_time() - t0)
    # CPU seconds are the fairer clock on a shared machine (other processes' load stretches
    # wall time unevenly); both are printed, the verdicts use CPU
    limit_s = limit_t[1]
    ref_rate = args.reference_matches / ref_s
    names = {"numba": "vectorised engine, compiled (numba):", "numpy": "vectorised engine, numpy:"}
    print("matches per CPU second (wall-clock figure in brackets):")
    print(f"random-number limit (its {len(recorder.calls):,} draws replayed): "
          f"{n / limit_s:10,.0f}  ({n / limit_t[0]:,.0f})")
    if replay_numba is not None:
        print(f"the same draws replayed in numba's Generator:      {n / numba_limit_t[1]:10,.0f}  "
              f"({n / numba_limit_t[0]:,.0f}; the compiled path draws its dice there)")
    for p in paths:
        deliveries, firsts, _ = played[p]
        engine_s = engine_t[p][1]
        print(f"{names[p]:<44}{n / engine_s:10,.0f}  ({n / engine_t[p][0]:,.0f}; "
              f"{deliveries / engine_s / 1e6:.1f}M deliveries/s, mean first innings {firsts.mean():.1f})")
    if old is not None:
        print(f"vectorised engine at {args.baseline}:               {n / old_t[1]:10,.0f}  "
              f"({n / old_t[0]:,.0f}; mean first innings {old_firsts.mean():.1f}; this tree "
              + ", ".join(f"{old_t[1] / engine_t[p][1]:.2f}x ({p})" for p in paths) + " as fast)")
        same = all(np.array_equal(played[p][1], old_firsts) for p in paths)
        print(f"same seed, same matches as at {args.baseline}: "
              f"{'yes' if same else 'no'} (first-innings totals of all {n} matches, both paths)")
    if compiled:
        same = np.array_equal(played["numba"][2], played["numpy"][2])
        print(f"same seed, same matches on both paths: {'yes' if same else 'no'} "
              f"(both totals and the winner of all {n} matches)")
    print(f"plain per-ball loop (reference):            {ref_rate:10,.0f}  "
          f"(mean first innings {np.mean(ref_first):.1f})")
    for p in paths:
        fraction = limit_s / engine_t[p][1]
        print(f"engine / limit, {p}: {fraction:.2f} CPU, {limit_t[0] / engine_t[p][0]:.2f} wall "
              f"(target >= {TARGET_FRACTION}): "
              f"{'met' if fraction >= TARGET_FRACTION else 'NOT met'};  engine / per-ball loop: "
              f"{n / engine_t[p][1] / ref_rate:.0f}x")
    if replay_numba is not None:
        print(f"engine / limit replayed in numba's Generator, numba: "
              f"{numba_limit_t[1] / engine_t['numba'][1]:.2f} CPU, "
              f"{numba_limit_t[0] / engine_t['numba'][0]:.2f} wall")
    if compiled:
        print(f"compiled / numpy: {engine_t['numpy'][1] / engine_t['numba'][1]:.2f}x as fast (CPU)")
    costs = compile_costs()
    if costs is None:
        print("numba is not installed: the numpy path only (pip install 'cardgen[fast]')")
    else:
        cold, warm = costs
        print(f"numba, first use (empty cache, a child process): import {cold['import'][0]:.2f} s, "
              f"compile {cold['kernel'][0]:.2f} s wall ({cold['import'][1] + cold['kernel'][1]:.2f} s CPU"
              f" in all); later processes: import {warm['import'][0]:.2f} s + load "
              f"{warm['kernel'][0]:.2f} s wall ({warm['import'][1] + warm['kernel'][1]:.2f} s CPU)")

    os.environ[fast.ENGINE_VARIABLE] = paths[0]
    t0 = time.perf_counter()
    rep = replay_season(cs, stats, 1000, np.random.default_rng(3))
    replay_time = time.perf_counter() - t0
    del os.environ[fast.ENGINE_VARIABLE]
    m = len(rep.first_runs)
    print(f"season replay, 1000 seasons: {m} matches in {replay_time:.2f}s = "
          f"{m / replay_time:,.0f} matches/s (fixtures, real XIs and plans included; "
          f"{paths[0]} path)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory of this benchmark process: {peak:.0f} MB "
          "(`simulate`'s own: benchmarks/bench_memory.py)")


if __name__ == "__main__":
    main()
