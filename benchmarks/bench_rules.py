"""What mixing the two rule sets costs: each kit played by its own rules and by the other's.

    python benchmarks/bench_rules.py [--seasons 80] [--seed 1] [--only BBL:2024-25,HUNDRED:2024]
                                     [--source ../shared/data/cricsheet]

A Quicket kit comes in two rule sets (`cardgen.rule_sets`, issue 34): the Quicket rules as
printed (the default kit, `cardgen build`) and the advanced rules (wickets in hand R12 and
Defence R13, `cardgen build --rules advanced`), each with cards solved for its own rules. For
each season this replays the real fixture list `--seasons` times (real XIs, the vectorised
engine, which plays the reference engine's rules ball for ball) with:

* the default kit by the Quicket rules (its own) and by the advanced rules;
* the advanced kit by the advanced rules (its own), by the Quicket rules, and by the printed
  rules with Defence still rolled (what the engines did before issue 34 for a player who
  skipped the table);

and prints, per season, the first innings' mean total and all-out rate beside the real first
innings (the full-length ones, as every replay is), then each rule set's per-card calibration
medians (|expected / real - 1| over the cards with 60 real balls or more: strike rate,
dismissal rate, economy, wicket rate). Every replay draws from its own generator seeded with
`--seed`, so each row is reproducible on its own. The card sets are the ones `build` prints:
the shipped sets of the bundled seasons (read, not calibrated), else calibrated once.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from childproc import write_marked_block

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SEASONS = (("BBL", "2024-25"), ("HUNDRED", "2024"))

# (label, kit, rules played, Defence played): the rows of the table
ROWS = (("default kit (Quicket rules), played by the Quicket rules", "quicket", "quicket", False),
        ("default kit (Quicket rules), played by the advanced rules", "quicket", "advanced", True),
        ("advanced kit, played by the advanced rules", "advanced", "advanced", True),
        ("advanced kit, played by the Quicket rules", "advanced", "quicket", False),
        ("advanced kit, printed rules but Defence still rolled (before issue 34)", "advanced", "quicket", True))


def measure(code: str, season: str, source: str, seasons: int, seed: int) -> dict:
    from cardgen.calibrate.cardset import build_card_set
    from cardgen.calibrate.model import ALL_OUT
    from cardgen.calibrate.report import summary
    from cardgen.competitions import get_competition
    from cardgen.cardset import CardSet
    from cardgen.sim.model import compile_card_set
    from cardgen.sim.season import real_first_innings, replay_season
    from cardgen.stats.load import season_stats
    from cardgen.wickets_in_hand import rule_of_set
    comp = get_competition(code)
    stats = season_stats(comp, season, source)
    kits = {rules: build_card_set(comp, season, source, reuse=True, rules=rules)
            for rules in ("quicket", "advanced")}
    # the advanced rules are played with the season's own attack faces (the advanced set's)
    advanced_rule = rule_of_set(kits["advanced"])
    real = real_first_innings(stats)
    out = {"real": (float(real["runs"].mean()), float((real["wickets"] >= ALL_OUT).mean()), len(real)),
           "rows": {}, "medians": {}}
    for label, kit, rules, defence in ROWS:
        cs = compile_card_set(CardSet.from_json(kits[kit]))
        rep = replay_season(cs, stats, seasons, np.random.default_rng(seed),
                            rule=advanced_rule if rules == "advanced" else None, defence=defence)
        out["rows"][label] = (float(rep.first_runs.mean()),
                              float((rep.first_wickets >= ALL_OUT).mean()), len(rep.first_runs))
    for rules, card_set in kits.items():
        s = summary(card_set)
        out["medians"][rules] = tuple(100 * s[kind][key] for kind, key in (
            ("striker", "median_main_error"), ("striker", "median_rate_error"),
            ("bowler", "median_main_error"), ("bowler", "median_rate_error")))
    return out


def table_lines(results: dict, seasons: int, seed: int) -> list[str]:
    """The benchmark's two tables (markdown), as printed and as docs/rules.md quotes them."""
    out: list[str] = []
    names = list(results)
    out.append(f"{seasons} replays of each fixture list (first innings per row: "
               + ", ".join(f"{n} {results[n]['rows'][ROWS[0][0]][2]:,}" for n in names)
               + f"), seed {seed}; first-innings mean total / all out\n")
    out.append("| kit and rules played | " + " | ".join(f"{n} runs / all out" for n in names) + " |")
    out.append("|---|" + "---|" * len(names))
    for label, *_ in ROWS:
        out.append(f"| {label} | " + " | ".join(
            f"{results[n]['rows'][label][0]:.1f} / {100 * results[n]['rows'][label][1]:.1f}%" for n in names) + " |")
    out.append("| real first innings (full length) | " + " | ".join(
        f"{results[n]['real'][0]:.1f} / {100 * results[n]['real'][1]:.1f}% ({results[n]['real'][2]})"
        for n in names) + " |")
    out.append("\nper-card calibration medians, |expected / real - 1| over qualified cards (>= 60 real balls), "
               "each set under its own rules (bars: SR / econ <= 0.5%, dismissal / wicket <= 2%)\n")
    out.append("| season | rules | SR | dismissal | econ | wicket |")
    out.append("|---|---|---|---|---|---|")
    for n in names:
        for rules, med in results[n]["medians"].items():
            out.append(f"| {n} | {rules} | " + " | ".join(f"{m:.2f}%" for m in med) + " |")
    return [line for chunk in out for line in chunk.split("\n")]


DOC = ROOT / "docs" / "rules.md"
BEGIN, END = "<!-- bench_rules: begin (written by benchmarks/bench_rules.py --write-docs) -->", "<!-- bench_rules: end -->"


def write_docs(lines: list[str], command: str) -> None:
    """Put the tables into docs/rules.md between its bench_rules markers (added at the end of
    the page the first time), so the page quotes only what this benchmark printed."""
    write_marked_block(DOC, BEGIN, END, lines, command)
    print(f"wrote the tables into {DOC.relative_to(ROOT)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seasons", type=int, default=80, help="replays of each fixture list (default 80)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--source", default=str(ROOT.parent / "shared" / "data" / "cricsheet"))
    ap.add_argument("--only", default="", help="CODE:season,... (default: BBL 2024-25 and The Hundred 2024)")
    ap.add_argument("--write-docs", action="store_true",
                    help="also write the tables into docs/rules.md (between its bench_rules markers)")
    args = ap.parse_args()
    wanted = ([tuple(x.split(":")) for x in args.only.split(",")] if args.only else list(SEASONS))
    import os
    os.environ.setdefault("CARDGEN_CACHE", tempfile.mkdtemp(prefix="bench-rules-cache-"))
    started = time.perf_counter()
    results = {f"{c} {s}": measure(c, s, args.source, args.seasons, args.seed) for c, s in wanted}
    lines = table_lines(results, args.seasons, args.seed)
    print("\n".join(lines))
    if args.write_docs:
        write_docs(lines, f"python benchmarks/bench_rules.py --seasons {args.seasons} --seed {args.seed}"
                   + (f" --only {args.only}" if args.only else "") + " --write-docs")
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
