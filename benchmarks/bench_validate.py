"""Does `cardgen validate` pass on every season whatever the seed? Issue 17's check, as a table.

    python benchmarks/bench_validate.py [--seeds 10] [--balls 20000] [--source ../shared/data/cricsheet]
                                        [--only BBL:2024-25,...]

For each T20 / 100-ball season in the local Cricsheet mirror (bench_matches.SEASONS): calibrate
the cards once (`cardgen calibrate`, the kit's card set, made for the wickets-in-hand rule), then
run `cardgen validate` with seeds 0 .. N-1 exactly as a user would (the CLI in this process, its
JSON summary read back) and print a Markdown table: how many seeds passed (exit status 0), the
qualified cards inside their intervals (fewest and most over the seeds, of those judged), the
cards at the game's limit, the family-wise gates (checks and bound), and the CPU seconds a
validate run took. docs/simulator.md's validate figures are this script's output.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_matches import SEASONS  # noqa: E402  (the nine seasons of issue 17)


def run_cli(args: list[str]) -> int:
    from click.testing import CliRunner

    from cardgen.cli import main
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    return result.exit_code


def measure(code: str, season: str, source: str, seeds: int, balls: int, out: Path) -> dict:
    common = ["-c", code, "-s", season, "--source", source, "--out", str(out)]
    if run_cli(["calibrate", *common]) != 0:
        raise SystemExit(f"{code} {season}: calibrate failed")
    runs = []
    for seed in range(seeds):
        start = time.process_time()
        status = run_cli(["validate", *common, "--seed", str(seed), "--balls", str(balls)])
        cpu = time.process_time() - start
        folder = next(out.glob(f"{code}_{season}*/validation"))
        summary = json.loads((folder / "validate_summary.json").read_text(encoding="utf-8"))
        if summary["seed"] != seed:
            raise SystemExit(f"{code} {season}: the summary is not seed {seed}'s")
        runs.append({"status": status, "cpu": cpu, **summary})
    return {"code": code, "season": season, "runs": runs}


def table(results: list[dict]) -> str:
    lines = ["| season | seeds passed | qualified cards inside (of judged) | at the limit | "
             "gate checks / bound | engine checks / bound | CPU s a run |",
             "|---|---|---|---|---|---|---|"]
    for r in results:
        runs = r["runs"]
        ok = sum(run["status"] == 0 and run["ok"] for run in runs)
        inside = [run["passed"] for run in runs]
        judged = sorted({run["judged_cards"] for run in runs})
        limit = sorted({len(run["at_its_limit"]) for run in runs})
        span = lambda xs: f"{min(xs)}" if min(xs) == max(xs) else f"{min(xs)}-{max(xs)}"  # noqa: E731
        share = min(run["pass_share"] for run in runs)
        lines.append(
            f"| {r['code']} {r['season']} | {ok} of {len(runs)} | {span(inside)} of {span(judged)} "
            f"(>= {100 * share:.1f}%) | {span(limit)} | {runs[0]['gate_checks']} / {runs[0]['gate_z']:.2f} SD | "
            f"{runs[0]['engine_checks']} / {runs[0]['engine_z']:.2f} SD | "
            f"{sum(run['cpu'] for run in runs) / len(runs):.1f} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10, help="seeds 0 .. N-1")
    ap.add_argument("--balls", type=int, default=20000, help="validate --balls")
    ap.add_argument("--source", default=str(ROOT.parent / "shared" / "data" / "cricsheet"))
    ap.add_argument("--only", default="", help="comma-separated CODE:season to run only these")
    args = ap.parse_args()
    wanted = {tuple(s.split(":", 1)) for s in args.only.split(",") if s}
    seasons = [s for s in SEASONS if not wanted or s in wanted]
    start = time.time()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for code, season in seasons:
            results.append(measure(code, season, args.source, args.seeds, args.balls, Path(tmp)))
            print(f"{code} {season}: done at {time.time() - start:.0f} s", file=sys.stderr)
    print(table(results))
    passed = sum(run["status"] == 0 and run["ok"] for r in results for run in r["runs"])
    total = sum(len(r["runs"]) for r in results)
    print(f"\n`cardgen validate` passed {passed} of {total} runs ({len(results)} seasons x seeds "
          f"0-{args.seeds - 1}, {args.balls} balls a card); {time.time() - start:.0f} s wall.")


if __name__ == "__main__":
    main()
