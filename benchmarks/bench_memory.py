"""Peak memory of `cardgen simulate` (BBL 2024-25, 1000 seasons) against a fixed baseline revision.

    python3 benchmarks/bench_memory.py [--baseline REV] [--seasons N]

Runs `python -m cardgen simulate` as a fresh process for the baseline (default a10837f, checked
out into a temporary git worktree) and for this tree, both on the same card set (built once by
this tree) and the committed stats tables, and prints each one's peak resident memory (largest
RSS, from wait4: `simulate` runs in one process), CPU and wall time and the ratios; timing and
memory come from childproc.py, shared with bench_build.py. One untimed run of this tree comes
first: `simulate` also plays the rules the other way (with / without the wickets-in-hand rule)
from a set it calibrates on its first run and keeps in the cache, and that one-off calibration
(its peak is the calibration's) is not what this measures. The build's peak memory is in
benchmarks/bench_build.py.
"""
from __future__ import annotations

import argparse
import importlib.util
import shutil
import sys
import tempfile
from pathlib import Path

from childproc import Measured, baseline_tree, clean_env, measure

ROOT = Path(__file__).resolve().parents[1]
BASELINE_REV = "a10837f"


def simulate(tree: Path, out: Path, cards: Path, seasons: int, **cardgen_env: str) -> Measured:
    """One `cardgen simulate` process, measured."""
    return measure(["simulate", "-c", "BBL", "-s", "2024-25", "--seasons", str(seasons),
                    "--cards", str(cards), "--out", str(out)], tree, clean_env(tree, **cardgen_env))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default=BASELINE_REV)
    ap.add_argument("--seasons", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-memory-"))
    try:
        with baseline_tree(args.baseline, tmp) as base:
            from cardgen.calibrate.cardset import build_card_set, write_card_set
            from cardgen.competitions import get_competition
            cards = write_card_set(build_card_set(get_competition("BBL"), "2024-25", reuse=True), tmp)
            # untimed: `simulate` also plays the other way (rule / as printed) with a set it calibrates
            # once and keeps in the cache; the first run's calibration is not what is measured here
            simulate(ROOT, tmp / "out-new", cards, 1)
            # this tree twice when numba is installed: its default (numpy: this run is below
            # fast.COMPILE_AFTER_DELIVERIES) and compiled from the first ball (numba loaded)
            compiled = importlib.util.find_spec("numba") is not None
            runs: dict[str, list[Measured]] = {"base": [], "new": []} | (
                {"numba": []} if compiled else {})
            for _ in range(max(args.repeat, 1)):   # alternate, so load changes hit both
                runs["base"].append(simulate(base, tmp / "out-base", cards, args.seasons))
                runs["new"].append(simulate(ROOT, tmp / "out-new", cards, args.seasons))
                if compiled:
                    runs["numba"].append(simulate(ROOT, tmp / "out-numba", cards, args.seasons,
                                                  CARDGEN_ENGINE="numba"))
            best = {k: (max(r.peak_mb for r in v), min(r.cpu for r in v), min(r.wall for r in v))
                    for k, v in runs.items()}
            print(f"cardgen simulate -c BBL -s 2024-25 --seasons {args.seasons} (same card set), "
                  f"best of {args.repeat}")
            labels = {"base": f"baseline {args.baseline}", "new": "this tree",
                      "numba": "this tree, CARDGEN_ENGINE=numba"}
            for k in runs:
                mb, cpu, wall = best[k]
                print(f"  {labels[k]:<32} peak {mb:6.0f} MB   {cpu:6.2f} s cpu  {wall:6.2f} s wall")
            bm, bc, bw = best["base"]
            for k in [k for k in runs if k != "base"]:
                nm, nc, nw = best[k]
                print(f"{labels[k]} / baseline: peak memory {nm / bm:.2f}x, cpu {nc / bc:.2f}x, "
                      f"wall {nw / bw:.2f}x -> memory {'no worse' if nm <= bm * 1.03 else 'WORSE'}")
            return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
