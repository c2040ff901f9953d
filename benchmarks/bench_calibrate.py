"""Time calibrating a season (stats from the cache/mirror, then ratings, chart, cards, card set).

Usage: python benchmarks/bench_calibrate.py [--source DIR] [COMP SEASON ...]
Prints seconds per step and the headline accuracy figures.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from cardgen.cache import Cache
from cardgen.calibrate.calibrate import calibrate
from cardgen.calibrate.cardset import card_sets_from_calibration
from cardgen.calibrate.report import summary
from cardgen.competitions import get_competition
from cardgen.stats.load import season_stats

DEFAULT_SOURCE = Path(__file__).resolve().parents[2] / "shared" / "data" / "cricsheet"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", default=str(DEFAULT_SOURCE))
    ap.add_argument("pairs", nargs="*", default=["BBL", "2024-25", "HUNDRED", "2024"])
    args = ap.parse_args()
    cache = Cache(Path(tempfile.mkdtemp()))
    for code, season in zip(args.pairs[::2], args.pairs[1::2]):
        comp = get_competition(code)
        t0 = time.perf_counter()
        stats = season_stats(comp, season, args.source, cache=cache)
        t1 = time.perf_counter()
        cal = calibrate(stats)
        t2 = time.perf_counter()
        card_set = card_sets_from_calibration(cal, comp, season)
        t3 = time.perf_counter()
        s = summary(card_set)
        print(f"{code} {season}: stats {t1 - t0:.2f}s, calibrate {t2 - t1:.2f}s, "
              f"card set {t3 - t2:.2f}s, cards {len(card_set['cards'])}")
        for kind in ("striker", "bowler"):
            k = s[kind]
            print(f"  {kind}: {k['main_within']}/{k['cards']} main within 2%, "
                  f"{k['rate_within']}/{k['cards']} rate within 5%, medians "
                  f"{100 * k['median_main_error']:.2f}% / {100 * k['median_rate_error']:.2f}%")
        print("  league: " + ", ".join(f"{k} {100 * v:+.2f}%" for k, v in s["league"].items()))


if __name__ == "__main__":
    main()
