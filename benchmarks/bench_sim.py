"""Simulator speed: full T20 matches per second, vectorised engine against the plain per-ball loop.

Usage: python benchmarks/bench_sim.py [--source DIR] [--matches N] [--reference-matches N]

Both engines play the same two BBL 2024-25 sides (usual XIs, calibrated cards) in the same run,
then the whole season replay (`simulate --seasons 1000`, 42,000 matches) is timed end to end.
Prints matches per second and the ratio. Target: >= 10,000 matches/s.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

from cardgen.cache import Cache
from cardgen.calibrate.cardset import card_set_from_stats
from cardgen.competitions import get_competition
from cardgen.sim import fast
from cardgen.sim.captain import Captain
from cardgen.sim.model import compile_card_set
from cardgen.sim.reference import play_match
from cardgen.sim.season import CHUNK_MATCHES, replay_season
from cardgen.stats.load import season_stats

DEFAULT_SOURCE = Path(__file__).resolve().parents[2] / "shared" / "data" / "cricsheet"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", default=str(DEFAULT_SOURCE))
    ap.add_argument("--matches", type=int, default=44_000)
    ap.add_argument("--reference-matches", type=int, default=1_000)
    args = ap.parse_args()
    comp = get_competition("BBL")
    stats = season_stats(comp, "2024-25", args.source, cache=Cache(Path(tempfile.mkdtemp())))
    card_set = card_set_from_stats(stats, comp, "2024-25")
    cs = compile_card_set(card_set)
    captain = Captain(cs, stats.lineups, stats.bowling, np.random.default_rng(0))
    teams = [t["name"] for t in card_set["teams"]][:2]
    sides = [captain.usual_side(t) for t in teams]
    table = fast.SideTable.build(cs, sides)
    print(f"BBL 2024-25, {teams[0]} v {teams[1]} (usual XIs)")

    rng = np.random.default_rng(1)
    t0 = time.perf_counter()
    ref_first = [play_match(cs, sides[0], sides[1], rng).first.runs
                 for _ in range(args.reference_matches)]
    ref_time = time.perf_counter() - t0
    ref_rate = args.reference_matches / ref_time

    n = args.matches
    rng = np.random.default_rng(2)
    firsts, deliveries, done = [], 0, 0
    t0 = time.perf_counter()
    while done < n:  # batches of CHUNK_MATCHES, as `simulate` plays them
        k = min(CHUNK_MATCHES, n - done)
        batch = fast.play_matches(cs, table, np.zeros(k, int), np.ones(k, int), rng)
        firsts.append(batch.first.runs)
        deliveries += batch.deliveries
        done += k
    fast_time = time.perf_counter() - t0
    fast_rate = n / fast_time

    print(f"plain per-ball loop (reference): {args.reference_matches} matches in {ref_time:.2f}s "
          f"= {ref_rate:,.0f} matches/s (mean first innings {np.mean(ref_first):.1f})")
    print(f"vectorised engine:               {n} matches in {fast_time:.2f}s "
          f"= {fast_rate:,.0f} matches/s (mean first innings {np.concatenate(firsts).mean():.1f}, "
          f"{deliveries / fast_time / 1e6:.1f}M deliveries/s)")
    print(f"ratio: {fast_rate / ref_rate:.1f}x   target >= 10,000 matches/s: "
          f"{'met' if fast_rate >= 10_000 else 'NOT met'}")

    t0 = time.perf_counter()
    rep = replay_season(cs, stats, 1000, np.random.default_rng(3))
    replay_time = time.perf_counter() - t0
    m = len(rep.first_runs)
    print(f"season replay, 1000 seasons: {m} matches in {replay_time:.2f}s = "
          f"{m / replay_time:,.0f} matches/s (fixtures, real XIs and plans included)")


if __name__ == "__main__":
    main()
