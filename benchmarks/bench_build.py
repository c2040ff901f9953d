"""Benchmark: `cardgen build -c BBL -s 2024-25` (full kit, both papers, images) against a fixed
baseline revision, in the same run.

    python3 benchmarks/bench_build.py [--baseline REV] [--repeat N] [--source DIR]

The baseline (default a10837f, the commit before the speed work of issue 16) is checked out into
a temporary git worktree. Each round runs, one after the other so load changes hit all of them:
the baseline build, this tree's build with the card-set reuse cache emptied (it calibrates:
"cold") and this tree's build again (it reuses the card set: "warm"). Every build is a fresh
`python -m cardgen build` process with its own CARDGEN_CACHE (stats tables primed once, untimed).

Prints, best of N: wall seconds, CPU seconds (the process and its workers), peak memory (the
largest single resident set, and the whole process tree's largest total, PSS and RSS: see
childproc.py), the ratios new/baseline (target: warm wall <= 0.4x) and whether the PDFs
are byte-identical (cold vs warm always; baseline vs new only where the layouts have not changed
since the baseline, which the script cannot know: it says which files differ).
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

from childproc import Measured, baseline_tree, clean_env, measure

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = ROOT.parent / "shared" / "data" / "cricsheet"
BASELINE_REV = "a10837f"  # main before issue 16 (lazy imports, reuse, rl-accel, PNG level, glyph cache)
TARGET_RATIO = 0.4
SET = "BBL_2024-25"


def build(tree: Path, cache: Path, out: Path, source: str) -> Measured:
    # CARDGEN_SHIPPED_SETS=0: the calibrating build calibrates rather than take the card set that
    # ships with cardgen for the bundled seasons (the baseline has none and ignores it)
    env = clean_env(tree, CARDGEN_CACHE=str(cache), CARDGEN_SOURCE=source, CARDGEN_SHIPPED_SETS="0")
    return measure(["build", "-c", "BBL", "-s", "2024-25", "--out", str(out)], tree, env)


def pdfs_compared(a: Path, b: Path) -> tuple[list[str], list[str]]:
    """PDF names (relative to the kit, team folders included) that are byte-identical / not."""
    names = sorted(p.relative_to(a / SET).as_posix() for p in (a / SET).rglob("*.pdf"))
    same = [n for n in names if (b / SET / n).is_file()
            and (a / SET / n).read_bytes() == (b / SET / n).read_bytes()]
    return same, [n for n in names if n not in same]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default=BASELINE_REV, help="git revision to compare against")
    ap.add_argument("--repeat", type=int, default=3, help="rounds (best of N counts)")
    ap.add_argument("--source", default=str(DEFAULT_SOURCE), help="Cricsheet mirror")
    args = ap.parse_args()
    load_before = os.getloadavg()[0]
    tmp = Path(tempfile.mkdtemp(prefix="bench-build-"))
    try:
        with baseline_tree(args.baseline, tmp) as base_tree:
            caches = {"base": tmp / "cache-base", "new": tmp / "cache-new"}
            outs = {k: tmp / f"out-{k}" for k in ("base", "cold", "warm")}
            build(base_tree, caches["base"], outs["base"], args.source)  # prime: stats tables
            build(ROOT, caches["new"], outs["warm"], args.source)
            runs: dict[str, list[Measured]] = {k: [] for k in outs}
            for _ in range(max(args.repeat, 1)):
                runs["base"].append(build(base_tree, caches["base"], outs["base"], args.source))
                shutil.rmtree(caches["new"] / "card-sets", ignore_errors=True)
                runs["cold"].append(build(ROOT, caches["new"], outs["cold"], args.source))
                runs["warm"].append(build(ROOT, caches["new"], outs["warm"], args.source))
            most = lambda values: max(values) if None not in values else None  # noqa: E731
            best = {k: Measured(min(r.wall for r in v), min(r.cpu for r in v), max(r.peak_mb for r in v),
                                most([r.tree_rss_mb for r in v]), most([r.tree_pss_mb for r in v]))
                    for k, v in runs.items()}
            labels = {"base": f"baseline {args.baseline}", "cold": "this tree, calibrating",
                      "warm": "this tree, card set reused"}
            print(f"BBL 2024-25 full kit (both papers + images), best of {args.repeat}; "
                  f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after, "
                  f"on {os.cpu_count()} cores")
            for k, label in labels.items():
                b = best[k]
                ratio = "" if k == "base" else (f"  wall {b.wall / best['base'].wall:.2f}x  "
                                                 f"cpu {b.cpu / best['base'].cpu:.2f}x")
                tree = "" if b.tree_pss_mb is None else (f" (all processes: {b.tree_pss_mb:4.0f} MB PSS, "
                                                         f"{b.tree_rss_mb:4.0f} MB RSS)")
                print(f"  {label:<28} {b.wall:6.2f} s wall {b.cpu:6.2f} s cpu "
                      f"{b.peak_mb:6.0f} MB peak{tree}{ratio}")
            ratio = best["warm"].wall / best["base"].wall
            print(f"warm build wall ratio {ratio:.2f} (target <= {TARGET_RATIO}): "
                  f"{'met' if ratio <= TARGET_RATIO else 'NOT met'}")
            same, diff = pdfs_compared(outs["cold"], outs["warm"])
            print(f"PDFs calibrating vs reused: {len(same)} byte-identical"
                  + (f", DIFFERENT: {', '.join(diff)}" if diff else ""))
            same, diff = pdfs_compared(outs["base"], outs["cold"])
            print(f"PDFs baseline vs this tree: {len(same)} byte-identical ({', '.join(same) or '-'})"
                  + (f"; different (layout or card changes since {args.baseline}?): {', '.join(diff)}"
                     if diff else ""))
            card_sets = [(outs[k] / SET / "card-set.json").read_bytes() for k in ("base", "cold", "warm")]
            print("card-set.json baseline / calibrating / reused: "
                  + ("all byte-identical" if len(set(card_sets)) == 1 else
                     f"{len(set(card_sets))} different versions"))
            return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
