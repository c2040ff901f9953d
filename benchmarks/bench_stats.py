"""Benchmark: `cardgen stats` for all six bundled seasons, against a fixed baseline in the same run.

Two figures for each tree, each the whole six seasons, every run a fresh process as a user runs it:
  1. cached: `cardgen stats` reading tables already in the cache;
  2. refresh: the same with the tables rebuilt from the Cricsheet mirror (`--refresh`).
The baseline (default a10837f, before the speed work of issue 16) is checked out into a temporary
git worktree; each tree gets its own throwaway cache (primed once, untimed, for the cached
figure); the two trees alternate season by season so load from other processes hits both.
Target: this tree no slower than the baseline (ratio <= 1.05, the noise of this machine); the
seconds themselves move with the machine's load and are printed for information only.

Usage: python3 benchmarks/bench_stats.py [--baseline REV] [--mirror DIR]
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from childproc import baseline_tree

ROOT = Path(__file__).resolve().parent.parent
BASELINE_REV = "a10837f"
SEASONS = (("BBL", "2023-24"), ("BBL", "2024-25"), ("HUNDRED", "2024"), ("IPL", "2024"),
           ("IPL", "2025"), ("SMASH", "2024-25"))
TARGET_RATIO = 1.05


def run_cli(tree: Path, cache: Path, mirror: Path, code: str, season: str, refresh: bool) -> float:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDGEN_")}
    env.update(PYTHONPATH=str(tree), CARDGEN_CACHE=str(cache), CARDGEN_SOURCE=str(mirror))
    args = [sys.executable, "-m", "cardgen", "stats", "-c", code, "-s", season, "--format", "csv"]
    if refresh:
        args.append("--refresh")
    start = time.perf_counter()
    subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL, cwd=tree)
    return time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default=BASELINE_REV)
    ap.add_argument("--mirror", default=str(ROOT.parent / "shared" / "data" / "cricsheet"))
    args = ap.parse_args()
    mirror = Path(args.mirror)
    tmp = Path(tempfile.mkdtemp(prefix="bench-stats-"))
    try:
        with baseline_tree(args.baseline, tmp) as base:
            return compare({"base": base, "new": ROOT}, tmp, mirror)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def compare(trees: dict[str, Path], tmp: Path, mirror: Path) -> int:
    """Time both trees' `stats` on every season, cached and refreshed; 0 if the targets are met."""
    totals = {(k, f): 0.0 for k in trees for f in ("cached", "refresh")}
    print(f"{'season':<16} {'cached s':>17} {'refresh s':>17}   (baseline / this tree)")
    for code, season in SEASONS:
        row = {}
        for kind in ("refresh", "cached"):   # refresh first: it also fills the cache
            for key, tree in trees.items():
                t = run_cli(tree, tmp / f"cache-{key}", mirror, code, season, kind == "refresh")
                totals[key, kind] += t
                row[key, kind] = t
        print(f"{code + ' ' + season:<16} {row['base', 'cached']:8.2f} {row['new', 'cached']:8.2f} "
              f"{row['base', 'refresh']:8.2f} {row['new', 'refresh']:8.2f}")
    print(f"{'total':<16} {totals['base', 'cached']:8.2f} {totals['new', 'cached']:8.2f} "
          f"{totals['base', 'refresh']:8.2f} {totals['new', 'refresh']:8.2f}")
    ok = True
    for kind in ("cached", "refresh"):
        ratio = totals["new", kind] / totals["base", kind]
        ok &= ratio <= TARGET_RATIO
        print(f"{kind}: this tree / baseline {ratio:.2f} (target <= {TARGET_RATIO})")
    per_season = totals["new", "cached"] / len(SEASONS)
    print(f"cached command: {per_season:.2f} s a season; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores -> {'OK' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
