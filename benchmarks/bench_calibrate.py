"""Time calibrating a season against a fixed baseline revision, in the same run.

Usage: python benchmarks/bench_calibrate.py [--source DIR] [--baseline REV] [--repeat N]
                                            [--jobs N] [COMP SEASON ...]

Each tree (this one, and the baseline checked out into a temporary git worktree; default
a10837f, the commit before the speed work of issue 16) calibrates in a fresh process of its own
(stats tables built from the mirror beforehand, untimed), the two alternating --repeat times;
the best wall and CPU seconds count (CPU: the process and its solver workers). --jobs N: the
processes this tree's calibration may use ($CARDGEN_CALIBRATE_JOBS; default: its own default,
the cores up to 4; a baseline from before calibrate.parallel uses one whatever it is). Prints the ratio, whether the two card sets are
byte-identical (when they are not, how many commits changed the calibration since the
baseline: then the timing compares two different calibrations, and the accuracy printed is
this tree's) and this tree's headline accuracy figures.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from childproc import baseline_tree

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = ROOT.parent / "shared" / "data" / "cricsheet"
BASELINE_REV = "a10837f"

CHILD = r'''
import hashlib, json, resource, sys, time
from pathlib import Path
from cardgen.cache import Cache
from cardgen.competitions import get_competition
from cardgen.stats.load import season_stats
from cardgen.calibrate import calibrate as calibration
from cardgen.calibrate.cardset import card_sets_from_calibration
# the tree's own writer: cardgen.cardset (a baseline without it: calibrate.cardset's). Asked by
# file, since an editable install would serve a module the tree lacks from the checkout
if Path("cardgen/cardset.py").exists():
    from cardgen.cardset import dumps
else:
    from cardgen.calibrate.cardset import dumps
code, season, source, cache, want_summary = sys.argv[1:6]
comp = get_competition(code)
stats = season_stats(comp, season, source, cache=Cache(Path(cache)))
def cpu():  # this process and the workers it has waited for (a calibration's solver processes)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + kids.ru_utime + kids.ru_stime
t, c = time.perf_counter(), cpu()
# the kit's rule, with this season's attack faces (a tree from before them: its default)
league_rule = getattr(calibration, "league_rule", None)
cal = calibration.calibrate(stats, league_rule(stats)) if league_rule else calibration.calibrate(stats)
card_set = card_sets_from_calibration(cal, comp, season)
out = {"wall": time.perf_counter() - t, "cpu": cpu() - c,
       "sha": hashlib.sha256(dumps(card_set).encode()).hexdigest(), "cards": len(card_set["cards"])}
if want_summary == "1":
    from cardgen.calibrate.report import summary
    out["summary"] = summary(card_set)
print(json.dumps(out, default=float))
'''


def calibrate_in(tree: Path, code: str, season: str, source: str, cache: Path,
                 want_summary: bool, jobs: int | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDGEN_")}
    env.update(PYTHONPATH=str(tree), CARDGEN_CACHE=str(cache))
    if jobs is not None:
        env["CARDGEN_CALIBRATE_JOBS"] = str(jobs)
    done = subprocess.run([sys.executable, "-c", CHILD, code, season, source, str(cache),
                           "1" if want_summary else "0"], cwd=tree, env=env, check=True,
                          capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", default=str(DEFAULT_SOURCE))
    ap.add_argument("--baseline", default=BASELINE_REV, help="git revision to compare against")
    ap.add_argument("--repeat", type=int, default=2, help="runs of each, alternating (best counts)")
    ap.add_argument("--jobs", type=int, default=None,
                    help="processes a calibration may use (default: the tree's default)")
    ap.add_argument("pairs", nargs="*", default=["BBL", "2024-25", "HUNDRED", "2024"])
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-calibrate-"))
    try:
        with baseline_tree(args.baseline, tmp) as base:
            compare(args, base, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def compare(args: argparse.Namespace, base: Path, tmp: Path) -> None:
    """Calibrate each season in both trees, alternating; print times, ratios and the card figures."""
    changed = subprocess.run(["git", "rev-list", "--count", f"{args.baseline}..HEAD", "--",
                              "cardgen/calibrate", "cardgen/wickets_in_hand.py"],
                             cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()
    for code, season in zip(args.pairs[::2], args.pairs[1::2]):
        best = {"base": {"wall": 1e9, "cpu": 1e9}, "new": {"wall": 1e9, "cpu": 1e9}}
        last: dict[str, dict] = {}
        for r in range(max(args.repeat, 1)):
            for key, tree in (("base", base), ("new", ROOT)):
                res = calibrate_in(tree, code, season, args.source, tmp / f"cache-{key}",
                                   want_summary=key == "new" and r == 0, jobs=args.jobs)
                best[key] = {k: min(best[key][k], res[k]) for k in ("wall", "cpu")}
                last[key] = {**last.get(key, {}), **res}
        b, n = best["base"], best["new"]
        same = last["base"]["sha"] == last["new"]["sha"]
        print(f"{code} {season}: calibrate + card set, baseline {args.baseline} {b['wall']:.2f} s "
              f"wall / {b['cpu']:.2f} s cpu -> this tree {n['wall']:.2f} s / {n['cpu']:.2f} s "
              f"(wall {n['wall'] / b['wall']:.2f}x, cpu {n['cpu'] / b['cpu']:.2f}x); "
              f"{last['new']['cards']} cards", flush=True)
        print("  card-set.json: " + ("byte-identical to the baseline's" if same else
              f"differs from the baseline's ({changed} commits have changed the calibration "
              f"since {args.baseline}: the timings compare two different calibrations)"))
        s = last["new"]["summary"]
        for kind in ("striker", "bowler"):
            k = s[kind]
            print(f"  {kind}: {k['main_within']}/{k['cards']} main within 2%, "
                  f"{k['rate_within']}/{k['cards']} rate within 5%, medians "
                  f"{100 * k['median_main_error']:.2f}% / {100 * k['median_rate_error']:.2f}%")
        print("  league: " + ", ".join(f"{k} {100 * v:+.2f}%" for k, v in s["league"].items()))


if __name__ == "__main__":
    main()
