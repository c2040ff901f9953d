"""Time calibrating a season (stats from the cache/mirror, then ratings, chart, cards, card set).

Usage: python benchmarks/bench_calibrate.py [--source DIR] [--baseline REV] [--repeat N]
                                            [COMP SEASON ...]
Prints seconds per step and the headline accuracy figures. With --baseline (default: the
calibration code before the speed-up work), the same run also times `cardgen/calibrate` as it
was at that git revision (loaded from git into a temporary package), alternating the two, and
prints the speed-up ratio (wall clock and CPU: BLAS threads make CPU exceed wall on big
matrices, and both move with the machine's load) and whether the two card sets are
byte-identical.
"""
from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

from cardgen.cache import Cache
from cardgen.calibrate.calibrate import calibrate
from cardgen.calibrate.cardset import card_sets_from_calibration, dumps
from cardgen.calibrate.report import summary
from cardgen.competitions import get_competition
from cardgen.stats.load import season_stats

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = ROOT.parent / "shared" / "data" / "cricsheet"
# the last revision before calibration was sped up (outputs must stay byte-identical to it)
BASELINE_REV = "a1609f5"
BASELINE_PACKAGE = "cardgen_calibrate_baseline"


def load_baseline(rev: str) -> tuple[ModuleType, ModuleType]:
    """`cardgen/calibrate` at git revision `rev`, imported as a separate package (its calibrate
    and cardset modules); the rest of cardgen (stats, cache) is shared with the working tree."""
    names = subprocess.run(["git", "ls-tree", "--name-only", f"{rev}:cardgen/calibrate"],
                           cwd=ROOT, check=True, capture_output=True, text=True).stdout.split()
    pkg = Path(tempfile.mkdtemp()) / BASELINE_PACKAGE
    pkg.mkdir()
    for name in names:
        if not name.endswith(".py"):
            continue
        src = subprocess.run(["git", "show", f"{rev}:cardgen/calibrate/{name}"], cwd=ROOT,
                             check=True, capture_output=True, text=True).stdout
        (pkg / name).write_text(src.replace("cardgen.calibrate", BASELINE_PACKAGE),
                                encoding="utf-8")
    sys.path.insert(0, str(pkg.parent))
    return (importlib.import_module(f"{BASELINE_PACKAGE}.calibrate"),
            importlib.import_module(f"{BASELINE_PACKAGE}.cardset"))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", default=str(DEFAULT_SOURCE))
    ap.add_argument("--baseline", default=BASELINE_REV,
                    help="git revision to compare against ('' to skip)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="timed runs of each, alternating (the best counts)")
    ap.add_argument("pairs", nargs="*", default=["BBL", "2024-25", "HUNDRED", "2024"])
    args = ap.parse_args()
    cache = Cache(Path(tempfile.mkdtemp()))
    baseline = load_baseline(args.baseline) if args.baseline else None
    for code, season in zip(args.pairs[::2], args.pairs[1::2]):
        comp = get_competition(code)
        t0 = time.perf_counter()
        stats = season_stats(comp, season, args.source, cache=cache)
        stats_time = time.perf_counter() - t0
        best_cal = best_set = best_base = best_cpu = best_base_cpu = float("inf")
        old = None
        for _ in range(max(args.repeat, 1)):  # alternate the two so load changes hit both
            t1, c1 = time.perf_counter(), time.process_time()
            cal = calibrate(stats)
            t2 = time.perf_counter()
            card_set = card_sets_from_calibration(cal, comp, season)
            t3, c3 = time.perf_counter(), time.process_time()
            best_cal, best_set = min(best_cal, t2 - t1), min(best_set, t3 - t2)
            best_cpu = min(best_cpu, c3 - c1)
            if baseline is not None:
                base_cal, base_set = baseline
                b0, c0 = time.perf_counter(), time.process_time()
                old = base_set.card_sets_from_calibration(base_cal.calibrate(stats), comp, season)
                best_base = min(best_base, time.perf_counter() - b0)
                best_base_cpu = min(best_base_cpu, time.process_time() - c0)
        s = summary(card_set)
        print(f"{code} {season}: stats {stats_time:.2f}s, calibrate {best_cal:.2f}s, "
              f"card set {best_set:.2f}s, cards {len(card_set['cards'])}", flush=True)
        if old is not None:
            now = best_cal + best_set
            same = dumps(old) == dumps(card_set)
            print(f"  vs {args.baseline}: calibrate + card set {best_base:.2f}s -> {now:.2f}s "
                  f"({best_base / now:.2f}x faster; CPU {best_base_cpu:.2f}s -> {best_cpu:.2f}s, "
                  f"{best_base_cpu / best_cpu:.2f}x); card-set.json "
                  f"{'byte-identical' if same else 'DIFFERENT'}", flush=True)
        for kind in ("striker", "bowler"):
            k = s[kind]
            print(f"  {kind}: {k['main_within']}/{k['cards']} main within 2%, "
                  f"{k['rate_within']}/{k['cards']} rate within 5%, medians "
                  f"{100 * k['median_main_error']:.2f}% / {100 * k['median_rate_error']:.2f}%")
        print("  league: " + ", ".join(f"{k} {100 * v:+.2f}%" for k, v in s["league"].items()))


if __name__ == "__main__":
    main()
