"""Benchmark: `cardgen stats` for all six bundled seasons (target: under 10 s in total).

Three figures, each the whole six seasons:
  1. `cardgen stats` as a user runs it (a fresh process per season, committed stats_cache/);
  2. the same with tables rebuilt from the Cricsheet mirror (`--refresh`, throwaway cache);
  3. in-process build time per season (parse + tables), without process start-up.

Usage: python3 benchmarks/bench_stats.py [MIRROR]   (default ../shared/data/cricsheet)
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardgen.cache import Cache  # noqa: E402
from cardgen.competitions import get_competition  # noqa: E402
from cardgen.stats.load import BUNDLED_SEASONS, build_season_stats  # noqa: E402

TARGET_SECONDS = 10.0


def run_cli(code: str, season: str, env: dict[str, str], refresh: bool) -> float:
    args = [sys.executable, "-m", "cardgen.cli", "stats", "-c", code, "-s", season, "--format", "csv"]
    if refresh:
        args.append("--refresh")
    start = time.perf_counter()
    subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    return time.perf_counter() - start


def main() -> int:
    mirror = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT.parent / "shared" / "data" / "cricsheet")
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("CARDGEN_")}
    results: dict[str, float] = {}

    print(f"{'season':<16} {'cached CLI s':>13} {'refresh CLI s':>14} {'build s':>9} {'matches':>8} {'players':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        refresh_env = {**base_env, "CARDGEN_CACHE": tmp, "CARDGEN_SOURCE": str(mirror)}
        totals = [0.0, 0.0, 0.0]
        for code, season in BUNDLED_SEASONS:
            cached = run_cli(code, season, base_env, refresh=False)
            refreshed = run_cli(code, season, refresh_env, refresh=True)
            start = time.perf_counter()
            st = build_season_stats(get_competition(code), season, str(mirror), cache=Cache(Path(tmp)))
            built = time.perf_counter() - start
            for i, t in enumerate((cached, refreshed, built)):
                totals[i] += t
            print(f"{code + ' ' + season:<16} {cached:>13.2f} {refreshed:>14.2f} {built:>9.2f} "
                  f"{st.league['matches']:>8} {len(st.attributes):>8}")
        results = dict(zip(("cached", "refresh", "build"), totals))
    print(f"{'total':<16} {results['cached']:>13.2f} {results['refresh']:>14.2f} {results['build']:>9.2f}")
    worst = max(results["cached"], results["refresh"])
    verdict = "OK" if worst < TARGET_SECONDS else "OVER TARGET"
    print(f"target: all six seasons under {TARGET_SECONDS:.0f} s -> {verdict} (slowest total {worst:.2f} s)")
    return 0 if worst < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
