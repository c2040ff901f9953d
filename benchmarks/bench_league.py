"""A league of your own (issue 35): cards on one baseline, measured.

    python benchmarks/bench_league.py [--part indices] [--baseline BBL:2024-25]
                                      [--source ../shared/data/cricsheet]

--part indices (docs/calibration.md section 11 quotes its tables): every player of each season
below solved on the baseline league by `calibrate.baseline`, for the Quicket rules (as printed)
and the advanced rules; per season and pooled, the median |index error| over qualified cards
(>= 60 balls) of strike rate, dismissal rate, economy and wicket rate (the issue's bars 0.5 / 2 /
0.5 / 2%), then of 4s, 6s and extras per ball, beside the baseline's own season cards' errors
in their season (whole F slots carry a bowler's extras, so theirs are as far off); the league the issue names (men's T20, women's
T20, 100-ball: IPL 2025, WPL 2023, The Hundred 2024) pooled; the baseline season's own players
solved again by the same path against their season's average opponent, beside their season
cards; and the CPU seconds of solving IPL 2025's players on the baseline against calibrating
IPL 2025 as a season, in the same run.

--part points (docs/league.md quotes it): sides of IPL 2025, WPL 2023 and The Hundred 2024
players built to be strong, average and weak (`league.honesty`), each against the baseline's
real sides, innings in full: the run difference a match beside what the points predict (the
issue's bar: within 10%, or 2 runs), for both rule sets.

--part draft: eight sides drafted from three seasons on BBL 2024-25 (the issue's three BBL
seasons; the mirror has two, so IPL 2025 is the third: DRAFT_POOL), their league replayed 1000
times: each side's points and win share (the issue's bar: 35-65%).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GUESTS = (("IPL", "2025"), ("WPL", "2023"), ("HUNDRED", "2024"), ("BBL", "2023-24"),
          ("IPL", "2024"), ("SMASH", "2024-25"), ("SMASH-W", "2022-23"), ("PSL", "2021"))
MIXED = (("IPL", "2025"), ("WPL", "2023"), ("HUNDRED", "2024"))   # the three kinds
DRAFT_POOL = "BBL 2023-24..2024-25, IPL 2025"
JUDGED = ("strike_rate", "dismissal_rate", "economy", "wicket_rate")
SHAPES = ("fours", "sixes", "extras")
RULES = ("quicket", "advanced")


def _median(v: list[float]) -> str:
    return f"{100 * float(np.median(np.abs(v))):.2f}" if v else "-"


def indices(base_code: str, base_season: str, source: str, cache) -> None:  # type: ignore[no-untyped-def]
    from cardgen.calibrate import cardset
    from cardgen.calibrate.baseline import Baseline, guest_calibration, index_errors, index_rates
    from cardgen.calibrate.calibrate import calibrate
    from cardgen.competitions import get_competition
    from cardgen.stats.load import season_stats

    label = f"{base_code} {base_season}"
    rows: dict[str, dict[str, list[str]]] = {}
    pooled: dict[str, dict[str, list[float]]] = {r: {} for r in RULES}
    identity: dict[str, dict[str, list[float]]] = {}
    for rules in RULES:
        base_comp = get_competition(base_code)
        base_set = cardset.build_card_set(base_comp, base_season, source, cache=cache, reuse=True,
                                          rules=rules)
        baseline = Baseline.from_card_set(base_set, label)
        base = index_rates(baseline.league)
        for code, season in GUESTS + ((base_code, base_season),):
            comp = get_competition(code)
            stats = season_stats(comp, season, source, cache=cache)
            cards = cardset.card_sets_from_calibration(guest_calibration(stats, baseline), comp, season)["cards"]
            if (code, season) == (base_code, base_season):
                errors = index_errors(base_set["cards"], base, lambda card, base=base: base)
                rows.setdefault(f"(for comparison: {label}'s season cards in their own season)", {})[rules] = \
                    [_median(errors.get(k, [])) for k in JUDGED + SHAPES]
                theirs = {(c["kind"], c["player"]["id"], c["team"]): c for c in base_set["cards"]}
                gaps: dict[str, list[float]] = {"same": [], "qualified": []}
                for c in cards:
                    season_card = theirs[(c["kind"], c["player"]["id"], c["team"])]
                    if c["small_sample"]:
                        continue
                    gaps["qualified"].append(1)
                    gaps["same"].append(int(c["chart"] == season_card["chart"]))
                    for k in JUDGED:
                        if k in c["expected"]:
                            gaps.setdefault(k, []).append(c["expected"][k] / season_card["expected"][k] - 1)
                identity[rules] = gaps
                continue
            own = index_rates(stats.league)
            errors = index_errors(cards, base, lambda card, own=own: own)
            rows.setdefault(f"{code} {season}", {})[rules] = [_median(errors.get(k, [])) for k in JUDGED + SHAPES]
            if (code, season) in MIXED:
                for k, v in errors.items():
                    pooled[rules].setdefault(k, []).extend(v)
    print(f"### Players of other seasons on {label}: median |index error| over qualified cards, %")
    print()
    print("| players from | rules | strike rate | dismissal rate | economy | wicket rate | 4s | 6s | extras |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, by_rules in rows.items():
        for rules in RULES:
            print(f"| {name} | {rules} | " + " | ".join(by_rules[rules]) + " |")
    for rules in RULES:
        p = pooled[rules]
        n = min(len(p.get(k, [])) for k in JUDGED)
        print(f"| **IPL 2025 + WPL 2023 + HUNDRED 2024** ({n}+ cards a figure) | {rules} | "
              + " | ".join(_median(p.get(k, [])) for k in JUDGED + SHAPES) + " |")
    print()
    print(f"### {label}'s own players solved again on {label} (against the finished season's average "
          f"opponent) beside their season cards: |difference| of the card's expected figure, %")
    print()
    print("| rules | qualified cards with the same slots | median SR / dismissal / economy / wickets | furthest |")
    print("|---|---|---|---|")
    for rules in RULES:
        g = identity[rules]
        print(f"| {rules} | {sum(g['same'])} of {len(g['qualified'])} | " + " / ".join(_median(g[k]) for k in JUDGED) + " | "
              + " / ".join(f"{100 * max(abs(x) for x in g[k]):.2f}" for k in JUDGED) + " |")
    print()
    # timing: the guest solve of a season's players against calibrating that season itself
    comp = get_competition("IPL")
    stats = season_stats(comp, "2025", source, cache=cache)
    print("| rules | IPL 2025's players on the baseline, CPU s | calibrating IPL 2025, CPU s | ratio |")
    print("|---|---|---|---|")
    for rules in RULES:
        base_set = cardset.build_card_set(get_competition(base_code), base_season, source, cache=cache,
                                          reuse=True, rules=rules)
        baseline = Baseline.from_card_set(base_set, label)
        c0 = time.process_time()
        guest_calibration(stats, baseline)
        guest = time.process_time() - c0
        from cardgen.calibrate.calibrate import league_rule
        c0 = time.process_time()
        calibrate(stats, None if rules == "quicket" else league_rule(stats))
        season = time.process_time() - c0
        print(f"| {rules} | {guest:.1f} | {season:.1f} | {guest / season:.2f} |")


def points(base_code: str, base_season: str, source: str, cache, innings: int = 4000) -> None:  # type: ignore[no-untyped-def]
    from cardgen.league.honesty import GRADED, graded_league, run_differences
    print(f"Points against run difference, on {base_code} {base_season} ({innings} innings each way "
          f"against each real side)\n")
    print("| rules | side | points | predicted (less the real sides' mean) | replayed run difference | gap |")
    print("|---|---|---|---|---|---|")
    for rules in RULES:
        card_set, real = graded_league((base_code, base_season), list(MIXED), rules, source, cache)
        for h in run_differences(card_set, list(GRADED), real, innings, np.random.default_rng(35)):
            print(f"| {rules} | {h.team} | {h.points:+.1f} | {h.predicted:+.2f} | {h.measured:+.2f} | {h.gap:+.2f} |")


def draft(source: str, replays: int = 1000) -> None:
    from click.testing import CliRunner

    from cardgen.cli import main as cli
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        done = CliRunner().invoke(cli, ["league", "--draft", DRAFT_POOL, "--baseline", "BBL 2024-25",
                                        "--teams", "8", "--out", str(out), "--source", source,
                                        "--paper", "a4", "--no-images"])
        assert done.exit_code == 0, done.output
        kit = next(out.iterdir())
        done = CliRunner().invoke(cli, ["simulate", "--cards", str(kit / "card-set.json"), "--seasons",
                                        str(replays), "--seed", "35", "--out", tmp])
        assert done.exit_code == 0, done.output
        import json
        ladder = json.loads((kit / "validation" / "simulate_summary.json").read_text())["ladder"]
    print(f"A draft of 8 sides from {DRAFT_POOL} on BBL 2024-25, {replays} replays of its round robin\n")
    print("| side | points | win share |")
    print("|---|---|---|")
    for r in ladder:
        print(f"| {r['team']} | {r['points']:+.1f} | {100 * r['win_share']:.1f}% |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", choices=["indices", "points", "draft"], default="indices")
    ap.add_argument("--baseline", default="BBL:2024-25")
    ap.add_argument("--source", default=str(ROOT.parent / "shared" / "data" / "cricsheet"))
    args = ap.parse_args()
    from cardgen.cache import Cache
    code, season = args.baseline.split(":")
    with tempfile.TemporaryDirectory() as tmp:
        cache = Cache(Path(tmp) / "cache")
        if args.part == "indices":
            indices(code, season, args.source, cache)
        elif args.part == "points":
            points(code, season, args.source, cache)
        else:
            draft(args.source)


if __name__ == "__main__":
    main()
