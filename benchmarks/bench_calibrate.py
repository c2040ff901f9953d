"""Time calibrating a season against a fixed baseline revision, in the same run.

Usage: python benchmarks/bench_calibrate.py [--source DIR] [--baseline REV] [--repeat N]
                                            [--jobs N] [--write-docs] [COMP SEASON ...]

Each tree (this one, and the baseline checked out into a temporary git worktree; default
a10837f, the commit before the speed work of issue 16) calibrates in a fresh process of its own
(stats tables built from the mirror beforehand, untimed), the two alternating --repeat times;
the best wall and CPU seconds count (CPU: the process and its solver workers). --jobs N: the
processes this tree's calibration may use ($CARDGEN_CALIBRATE_JOBS; default: its own default,
the cores up to 4; a baseline from before calibrate.parallel uses one whatever it is). Prints the ratio, whether the two card sets are
byte-identical (when they are not, how many commits changed the calibration since the
baseline: then the timing compares two different calibrations, and the accuracy printed is
this tree's) and this tree's headline accuracy figures, with the load averages before and after
(the machine may be shared: read the CPU ratio, which the load moves far less than the wall).
`--write-docs` puts the figures into docs/calibration.md (section 8) between its markers.
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

from childproc import baseline_tree, write_marked_block

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = ROOT.parent / "shared" / "data" / "cricsheet"
BASELINE_REV = "a10837f"
TARGET = ("BBL", "2024-25", 1.2)  # issue 36: this season's calibration CPU at most 1.2x a10837f's
DOC = ROOT / "docs" / "calibration.md"
BEGIN = "<!-- bench_calibrate: begin (written by benchmarks/bench_calibrate.py --write-docs) -->"
END = "<!-- bench_calibrate: end -->"

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
    ap.add_argument("--write-docs", action="store_true",
                    help="write the figures into docs/calibration.md (section 8)")
    ap.add_argument("pairs", nargs="*", default=["BBL", "2024-25", "HUNDRED", "2024"])
    args = ap.parse_args()
    if not args.pairs or len(args.pairs) % 2:
        ap.error("give seasons as COMP SEASON pairs, e.g. BBL 2024-25")
    if "://" not in args.source:  # each tree's calibration runs in that tree's folder
        args.source = str(Path(args.source).resolve())
    load_before = os.getloadavg()
    tmp = Path(tempfile.mkdtemp(prefix="bench-calibrate-"))
    try:
        with baseline_tree(args.baseline, tmp) as base:
            results = compare(args, base, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    changed = subprocess.run(["git", "rev-list", "--count", f"{args.baseline}..HEAD", "--",
                              "cardgen/calibrate", "cardgen/wickets_in_hand.py"],
                             cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()
    lines = report(args, results, changed, load_before, os.getloadavg())
    print("\n".join(lines))
    if args.write_docs:
        write_docs(lines, "python3 benchmarks/bench_calibrate.py --write-docs"
                   + (f" --jobs {args.jobs}" if args.jobs is not None else "")
                   + (f" --repeat {args.repeat}" if args.repeat != 2 else "")
                   + (f" --baseline {args.baseline}" if args.baseline != BASELINE_REV else "")
                   + ("" if args.pairs == ap.get_default("pairs") else " " + " ".join(args.pairs)))


def compare(args: argparse.Namespace, base: Path, tmp: Path) -> list[dict]:
    """Calibrate each season in both trees, alternating: per season, the best times of each
    tree, whether the card sets are the same, and this tree's card figures."""
    results = []
    for code, season in zip(args.pairs[::2], args.pairs[1::2]):
        best = {"base": {"wall": 1e9, "cpu": 1e9}, "new": {"wall": 1e9, "cpu": 1e9}}
        last: dict[str, dict] = {}
        for r in range(max(args.repeat, 1)):
            for key, tree in (("base", base), ("new", ROOT)):
                res = calibrate_in(tree, code, season, args.source, tmp / f"cache-{key}",
                                   want_summary=key == "new" and r == 0, jobs=args.jobs)
                best[key] = {k: min(best[key][k], res[k]) for k in ("wall", "cpu")}
                last[key] = {**last.get(key, {}), **res}
        print(f"{code} {season}: cpu {best['base']['cpu']:.2f} s -> {best['new']['cpu']:.2f} s",
              file=sys.stderr, flush=True)  # progress: the report comes at the end
        results.append({"code": code, "season": season, "base": best["base"], "new": best["new"],
                        "same": last["base"]["sha"] == last["new"]["sha"],
                        "cards": last["new"]["cards"], "summary": last["new"]["summary"]})
    return results


def report(args: argparse.Namespace, results: list[dict], changed: str,
           load_before: tuple[float, ...], load_after: tuple[float, ...]) -> list[str]:
    """The figures as lines of Markdown (the docs' block) that read as plain text too
    (`changed`: how many commits changed the calibration since the baseline)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if args.jobs is None:
        jobs = "each tree's default processes"
    else:
        jobs = f"--jobs {args.jobs}: " + ("one process" if args.jobs == 1 else f"{args.jobs} processes")
    head = " | ".join(f"{r['code']} {r['season']}" for r in results)
    lines = [f"Each tree calibrates in a fresh process, the two alternating, best of "
             f"{max(args.repeat, 1)}; {jobs}; CPU counts the solver workers too. {cores} cores, "
             f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after.", "",
             f"| | {head} |", "|---" * (len(results) + 1) + "|"]

    def row(label: str, cell) -> None:
        lines.append(f"| {label} | " + " | ".join(cell(r) for r in results) + " |")

    row(f"CPU, {args.baseline} -> this tree",
        lambda r: f"{r['base']['cpu']:.2f} s -> {r['new']['cpu']:.2f} s "
                  f"(**{r['new']['cpu'] / r['base']['cpu']:.2f}x**)")
    row("wall", lambda r: f"{r['base']['wall']:.2f} s -> {r['new']['wall']:.2f} s "
                          f"({r['new']['wall'] / r['base']['wall']:.2f}x)")
    row("cards", lambda r: str(r["cards"]))
    for kind, main, rate, names in (("striker", "SR", "dismissal rate", "SR / dismissal rate"),
                                    ("bowler", "economy", "wicket rate", "economy / wicket rate")):
        first = "strikers" if kind == "striker" else "bowlers"
        row(f"{first} >= 60 balls: {main} within 2%",
            lambda r, k=kind: f"{r['summary'][k]['main_within']} / {r['summary'][k]['cards']}")
        row(f"{rate} within 5%",
            lambda r, k=kind: f"{r['summary'][k]['rate_within']} / {r['summary'][k]['cards']}")
        row(f"medians {names}", lambda r, k=kind: _pct(r['summary'][k]['median_main_error'])
            + " / " + _pct(r['summary'][k]['median_rate_error']))
    row("league runs/ball, wides, no-balls, leg byes",
        lambda r: ", ".join(f"{100 * v:+.2f}%" for k, v in r["summary"]["league"].items()
                            if k.endswith("_per_ball")))
    row("shares bowled, caught, LBW, run out, stumped",
        lambda r: ", ".join(f"{100 * v:+.1f}" for k, v in r["summary"]["league"].items()
                            if k.startswith("share_")) + "%")
    lines.append("")
    for r in results:
        lines.append(f"- {r['code']} {r['season']}: card-set.json " + (
            f"byte-identical to {args.baseline}'s." if r["same"] else
            f"differs from {args.baseline}'s ({changed} commits have changed the calibration "
            f"since): the timings compare two different calibrations."))
    code, season, ratio = TARGET
    for r in results:
        if (r["code"], r["season"]) == (code, season):
            got = r["new"]["cpu"] / r["base"]["cpu"]
            lines.append(f"- Issue 36's target, {code} {season} at most {ratio}x {BASELINE_REV}'s "
                         f"CPU: {got:.2f}x, {'met' if got <= ratio else 'missed'}.")
    return lines


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{100 * v:.2f}%"


def write_docs(lines: list[str], command: str, doc: Path = DOC) -> None:
    """The figures into docs/calibration.md between its bench_calibrate markers (at the end of
    the page the first time), so the page quotes only what this benchmark printed."""
    write_marked_block(doc, BEGIN, END, lines, command)
    print(f"wrote the figures into {doc}")


if __name__ == "__main__":
    main()
