"""Do whole matches look like the real season? The issue-17 table, for every T20 / 100-ball
season in the local Cricsheet mirror.

    python benchmarks/bench_matches.py [--seasons 200] [--seed 1] [--source ../shared/data/cricsheet]
                                       [--only BBL:2024-25,...] [--json FILE]
                                       [--chase-line 2,2.5/6/TT,AC,AA] [--faces k=v,...] [--no-printed]

For each season: calibrate the cards (for the wickets-in-hand rule), replay the real fixture list
(real XIs) `--seasons` times with the rule and as printed (cards calibrated for each), and
print a Markdown table of the
first-innings mean total, first-innings all-out rate and death-overs run rate, real beside
simulated, with whether the rule meets the bars (+/-3 runs, 5 points, 5%), and the cards' median
calibration errors (|expected / real - 1| over qualified cards, under the rule); then how far each
gap is in the real figure's own sampling error (standard error of the first-innings mean, the
binomial p of the real all-out count, the death-overs rate's innings-clustered error) and a
chi-square of the all-out counts over the seasons, and the first-innings total's bias and the
death-overs gap pooled over them; then first innings and chases apart (issue
41: wickets a 120 legal balls, the chasing side's wins and the chase run rate, each gap in the real
figure's match-level standard error, and pooled over the seasons); then how often a season the
cards themselves play meets each bar (what a model exactly right could hope for on this many innings). docs/simulator.md's table and docs/matches.md are this script's output.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# (competition code, season, mirror folder): the nine T20 / 100-ball seasons of issue 17
SEASONS = (("BBL", "2023-24"), ("BBL", "2024-25"), ("HUNDRED", "2024"), ("IPL", "2024"),
           ("IPL", "2025"), ("SMASH", "2024-25"), ("WPL", "2023"), ("PSL", "2021"),
           ("SMASH-W", "2022-23"))
BARS = {"runs": 3.0, "all_out": 0.05, "death": 0.05}


def measure(code: str, season: str, source: str, seasons: int, seed: int, cache,
            chase_line=None, printed: bool = True, faces: dict | None = None) -> dict:
    from cardgen.calibrate.calibrate import calibrate, league_rule
    from cardgen.calibrate.cardset import card_sets_from_calibration
    from cardgen.calibrate.report import summary
    from cardgen.competitions import get_competition
    from cardgen.cardset import CardSet
    from cardgen.sim.model import compile_card_set
    from cardgen.calibrate.model import ALL_OUT
    from cardgen.sim.season import match_figures, real_first_innings, replay_season
    from cardgen.stats.load import season_stats
    comp = get_competition(code)
    stats = season_stats(comp, season, source, cache=cache)
    out = {}
    from dataclasses import replace as _replace

    from cardgen.wickets_in_hand import RULE
    base = _replace(RULE, **faces) if faces else RULE     # (--faces: the d20s re-set)
    ways = [("rule", league_rule(stats, base))] + ([("printed", None)] if printed else [])
    if chase_line is not None:       # the rule with the line; the cards calibrated on its bands
        ways[0] = ("rule", _replace(ways[0][1], chase_line=chase_line))
        from cardgen.stats.load import with_rule_situations
        stats = with_rule_situations(stats, comp, season, source, ways[0][1], cache=cache)
    for label, rule in ways:   # each with cards made for it
        card_set = card_sets_from_calibration(calibrate(stats, rule=rule), comp, season)
        if rule is not None:
            out["summary"] = summary(card_set)
        cs = compile_card_set(CardSet.from_json(card_set))
        rep = replay_season(cs, stats, seasons, np.random.default_rng(seed), rule=rule)
        fig = match_figures(cs, stats, rep)
        out["real"], out[label] = fig["real"], fig["sim"]
        out["innings"] = fig["innings"]["real_first_innings"]
        out["counts"] = fig["innings"]
        out["real_all_out"] = int((real_first_innings(stats)["wickets"] >= ALL_OUT).sum())
        out["death_se"] = death_rate_se(stats, cs.fmt)
        if rule is not None:
            out["own_bars"] = own_bar_shares(rep, stats, cs.fmt)
    out.setdefault("printed", out["rule"])        # (--no-printed)
    return out


def own_bar_shares(rep, stats, fmt) -> dict[str, float]:
    """How often a season the cards themselves play meets each bar against the cards' own
    long-run figures: each replay is one season of the fixtures that were completed for real
    (as many first innings as the real season), judged like the real season is judged against
    the replays. If the cards were the truth, this is the chance that the real season met the
    bar, so it is what a perfect model could hope for on this many innings."""
    from cardgen.calibrate.model import ALL_OUT
    from cardgen.sim.season import PHASES, phase_balls, real_first_innings
    n_fix = len(rep.fixtures.match_ids)
    completed = set(real_first_innings(stats)["match_id"].astype(str))
    kept = np.array([str(mid) in completed for mid in rep.fixtures.match_ids])
    rows = rep.team_rows
    match = rows["match"].to_numpy()
    rows = rows.assign(season=match // n_fix)[kept[match % n_fix]]
    first = rows[rows["innings"] == 1]
    death = PHASES.index("death")
    rows = rows.assign(death_balls=phase_balls(rows["legal_balls"], fmt.phase_edges,
                                               fmt.balls_per_innings)[death])
    per = pd.DataFrame({
        "total": first.groupby("season")["runs"].mean(),
        "all_out": (first["wickets"] >= ALL_OUT).groupby(first["season"]).mean(),
        "death": rows.groupby("season")["runs_death"].sum() / rows.groupby("season")["death_balls"].sum()})
    whole = {"total": float(first["runs"].mean()), "all_out": float((first["wickets"] >= ALL_OUT).mean()),
             "death": float(rows["runs_death"].sum() / rows["death_balls"].sum())}
    met = pd.DataFrame({
        "runs": (per["total"] - whole["total"]).abs() <= BARS["runs"],
        "all_out": (per["all_out"] - whole["all_out"]).abs() <= BARS["all_out"] + 1e-9,
        "death": (per["death"] / whole["death"] - 1).abs() <= BARS["death"]})
    return {**{k: float(v) for k, v in met.mean().items()}, "all": float(met.all(axis=1).mean()),
            "replays": int(len(per))}


def death_rate_se(stats, fmt) -> float:
    """Relative standard error of the real death-overs run rate: a ratio of sums over innings
    (runs / balls), so its error is the innings-clustered one, sqrt(sum (r_i - R b_i)^2) / sum b_i."""
    from cardgen.sim.season import full_length_innings, phase_balls
    inn = full_length_innings(stats)
    balls = phase_balls(inn["legal_balls"], fmt.phase_edges, fmt.balls_per_innings)[2].astype(float)
    runs = inn["runs_death"].to_numpy(float)
    rate = runs.sum() / balls.sum()
    return float(np.sqrt(((runs - rate * balls) ** 2).sum()) / balls.sum() / rate)


def sampling_row(code: str, season: str, m: dict) -> tuple[str, float, float, float, dict[str, float]]:
    """How far each gap is in the real figure's own sampling error: the first-innings mean's
    standard error (SD / sqrt(n)), the two-sided binomial p of the real all-out count if the
    replays' rate were the truth, and the death-overs rate's innings-clustered error."""
    from scipy.stats import binom
    r, s, n = m["real"], m["rule"], m["innings"]
    se_total = r["first_innings_sd"] / np.sqrt(n)
    d_total = s["first_innings_total"] - r["first_innings_total"]
    k, p = m["real_all_out"], s["all_out_share"]
    pmf = binom.pmf(np.arange(n + 1), n, p)
    p_value = float(pmf[pmf <= pmf[k] * (1 + 1e-9)].sum())
    d_death = s["run_rate_death"] / r["run_rate_death"] - 1
    cells = [f"{code} {season} ({n})", f"{d_total:+.1f} / {se_total:.1f} ({d_total / se_total:+.1f})",
             f"{k} of {n} / {100 * p:.1f}% (+/-{100 * np.sqrt(p * (1 - p) / n):.1f}) / {p_value:.2f}",
             f"{100 * d_death:+.1f}% / {100 * m['death_se']:.1f}% ({d_death / m['death_se']:+.1f})"]
    chi = (k - n * p) ** 2 / (n * p * (1 - p)) if 0 < p < 1 else 0.0
    z = {"total": d_total / se_total, "death": d_death / m["death_se"]}
    return "| " + " | ".join(cells) + " |", chi, float(k), n * p, z


def first_innings_pooled(figures: dict[str, dict]) -> str:
    """The first-innings bars pooled over the seasons, as the chase table pools its figures
    (gaps weighted by the real first innings, errors added in quadrature): the total's bias in
    runs and the death-overs run rate's relative gap, each against its real standard error."""
    n = gap_runs = var_runs = gap_death = var_death = 0.0
    for m in figures.values():
        r, s, k = m["real"], m["rule"], m["innings"]
        se_total = r["first_innings_sd"] / np.sqrt(k)
        n += k
        gap_runs += k * (s["first_innings_total"] - r["first_innings_total"])
        var_runs += (k * se_total) ** 2
        gap_death += k * (s["run_rate_death"] / r["run_rate_death"] - 1)
        var_death += (k * m["death_se"]) ** 2
    if not n:
        return ""
    return (f"First innings pooled over the seasons (weighted by innings): total bias "
            f"{gap_runs / n:+.2f} runs (SE {np.sqrt(var_runs) / n:.2f}, z {gap_runs / np.sqrt(var_runs):+.1f}); "
            f"death-overs run rate {100 * gap_death / n:+.2f}% (SE {100 * np.sqrt(var_death) / n:.2f}%, "
            f"z {gap_death / np.sqrt(var_death):+.1f}).")


def row(code: str, season: str, m: dict) -> str:
    r, s, p = m["real"], m["rule"], m["printed"]
    d_runs = s["first_innings_total"] - r["first_innings_total"]
    d_out = s["all_out_share"] - r["all_out_share"]
    d_death = s["run_rate_death"] / r["run_rate_death"] - 1
    ok = (abs(d_runs) <= BARS["runs"], abs(d_out) <= BARS["all_out"], abs(d_death) <= BARS["death"])
    med = m["summary"]
    cells = [
        f"{code} {season} ({m['innings']})",
        f"{r['first_innings_total']:.1f} / **{s['first_innings_total']:.1f}** / {p['first_innings_total']:.1f}",
        f"{d_runs:+.1f} {'ok' if ok[0] else 'MISS'}",
        f"{100 * r['all_out_share']:.1f} / **{100 * s['all_out_share']:.1f}** / {100 * p['all_out_share']:.1f}",
        f"{100 * d_out:+.1f} {'ok' if ok[1] else 'MISS'}",
        f"{r['run_rate_death']:.2f} / **{s['run_rate_death']:.2f}** / {p['run_rate_death']:.2f}",
        f"{100 * d_death:+.1f}% {'ok' if ok[2] else 'MISS'}",
        "{:.2f} / {:.2f} / {:.2f} / {:.2f}".format(
            100 * med["striker"]["median_main_error"], 100 * med["striker"]["median_rate_error"],
            100 * med["bowler"]["median_main_error"], 100 * med["bowler"]["median_rate_error"]),
    ]
    return "| " + " | ".join(cells) + " |"


def chase_table(figures: dict[str, dict]) -> str:
    """First innings and chases apart (issue 41): wickets a 120 legal balls and the chasing
    side's wins, real / rule / printed, each gap in the real figure's match-level standard error
    (wickets: innings-clustered; wins: binomial on the decided matches), and pooled over the
    seasons (gaps weighted by innings, errors added in quadrature)."""
    lines = ["\nFirst innings and chases apart: wickets a 120 legal balls (real / **rule** / printed, "
             "rule gap / real SE (z)) and the chasing side's wins (% of decided matches).\n",
             "| season | 1st-inns wkts / 120 | z | chase wkts / 120 | z | chasing wins % | z "
             "| chase run rate |", "|---|---|---|---|---|---|---|---|"]
    pooled = {k: [0.0, 0.0, 0.0, 0.0] for k in ("first", "chase", "wins")}   # n, sum n*gap, sum n^2 se^2, sum n*real
    for name, m in figures.items():
        r, s, p, c = m["real"], m["rule"], m["printed"], m["counts"]
        cells = [name]
        for key, se_key, n_key, scale in (("first_wickets_per_120", "real_first_wickets_per_120_se", "real_first_innings", 1),
                                          ("chase_wickets_per_120", "real_chase_wickets_per_120_se", "real_chases", 1),
                                          ("chasing_wins_share", "real_chasing_wins_se", "real_decided_chases", 100)):
            if r[key] is None or s[key] is None or not c[se_key]:   # too few innings to tell
                cells += ["-", "-"]
                continue
            gap, se, n = s[key] - r[key], c[se_key], c[n_key]
            cells += [f"{scale * r[key]:.2f} / **{scale * s[key]:.2f}** / {scale * p[key]:.2f}",
                      f"{gap / se:+.1f}"]
            acc = pooled[{"first_wickets_per_120": "first", "chase_wickets_per_120": "chase"}.get(key, "wins")]
            acc[0] += n
            acc[1] += n * gap
            acc[2] += (n * se) ** 2
            acc[3] += n * r[key]
        cells.append(f"{r['chase_run_rate']:.2f} / **{s['chase_run_rate']:.2f}** / {p['chase_run_rate']:.2f}")
        lines.append("| " + " | ".join(cells) + " |")
    words = []
    for key, label, scale in (("first", "first-innings wickets / 120", 1), ("chase", "chase wickets / 120", 1),
                              ("wins", "chasing wins (points)", 100)):
        n, gap, var, real = pooled[key]
        if n:
            words.append(f"{label}: real {scale * real / n:.2f}, gap {scale * gap / n:+.2f} "
                         f"(SE {scale * np.sqrt(var) / n:.2f}, z {gap / np.sqrt(var):+.1f})")
    lines.append("\nPooled over the seasons (weighted by innings): " + "; ".join(words) + ".")
    return "\n".join(lines)


def season_arguments(description: str) -> argparse.ArgumentParser:
    """The options every whole-season benchmark takes (bench_players.py too)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--seasons", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--source", default=str(ROOT.parent / "shared" / "data" / "cricsheet"))
    ap.add_argument("--only", default="", help="comma-separated CODE:season to run only these")
    return ap


def main() -> None:
    ap = season_arguments(__doc__.splitlines()[0])
    ap.add_argument("--json", default="", help="also write every figure (wickets and run rates "
                    "by phase, ...) real / rule / printed to this file")
    ap.add_argument("--chase-line", default="", help="play the rule with this chase line "
                    "(issue 41; rate edges/hand edges/rows, e.g. 1.5,2/3,6/TTT,NTT,AAA)")
    ap.add_argument("--faces", default="", help="the rule's d20 faces re-set, e.g. "
                    "attack_out=3,consolidate_safe=14 (WicketsInHand fields; the boundary faces "
                    "then follow the league from the last out face)")
    ap.add_argument("--no-printed", action="store_true",
                    help="skip the printed rules' cards (half the time; their columns repeat the rule's)")
    args = ap.parse_args()
    from cardgen.cache import Cache
    from cardgen.wickets_in_hand import chase_line_of_words
    line = chase_line_of_words(args.chase_line) if args.chase_line else None
    faces = {k: int(v) for k, v in (x.split("=") for x in args.faces.split(",") if x)}
    if line is not None or faces:
        print(f"chase line {args.chase_line or '(none)'}; faces {faces or '(as the rule)'}\n")
    only = {tuple(x.split(":")) for x in args.only.split(",") if x}
    with tempfile.TemporaryDirectory() as tmp:
        cache = Cache(Path(tmp))
        print(f"{args.seasons} replays of each fixture list, seed {args.seed}; real / **rule** / "
              "printed (cards made for the printed rules); bars with the rule: first-innings "
              "mean within 3 runs, all-out rate within 5 points, death-overs run rate within 5%.\n")
        print("| season (real 1st inns) | 1st-inns total | diff | 1st inns all out % | diff "
              "| death run rate | diff | medians SR / out / econ / wkt % |")
        print("|---|---|---|---|---|---|---|---|")
        start = time.perf_counter()
        figures = {}
        for code, season in SEASONS:
            if only and (code, season) not in only:
                continue
            m = measure(code, season, args.source, args.seasons, args.seed, cache, line,
                        printed=not args.no_printed, faces=faces)
            figures[f"{code} {season}"] = m
            print(row(code, season, m), flush=True)
        print(f"\n({time.perf_counter() - start:.0f} s)\n")
        print("How far each gap is in the real figure's sampling error: first-innings total gap / "
              "standard error of the real mean (z); real all-out innings / the replays' rate "
              "(its standard error on this many innings) / two-sided binomial p; death-overs "
              "gap / the real rate's innings-clustered standard error (z).\n")
        print("| season | total gap / SE (z) | all out: real / replays / p | death gap / SE (z) |")
        print("|---|---|---|---|")
        chi = real = expected = 0.0
        z_sq = {"total": 0.0, "death": 0.0}
        for name, m in figures.items():
            line, c, k, e, z = sampling_row(*name.split(" "), m)
            chi, real, expected = chi + c, real + k, expected + e
            for key in z_sq:
                z_sq[key] += z[key] ** 2
            print(line)
        if figures:
            from scipy.stats import chi2
            dof = len(figures)
            print(f"\nAll out over the {dof} seasons: {real:.0f} real first innings against "
                  f"{expected:.1f} expected from the replays; chi-square {chi:.1f} on "
                  f"{dof} degrees of freedom, p = {1 - chi2.cdf(chi, dof):.2f}.")
            # the z's of the other two bars, summed in square: were the replays the truth, each
            # z is about standard normal (200 replays: their own error is under a tenth of the real one)
            print(f"First-innings totals: sum of z^2 {z_sq['total']:.1f} on {dof} degrees of "
                  f"freedom, p = {1 - chi2.cdf(z_sq['total'], dof):.2f}; death-overs run rates: "
                  f"{z_sq['death']:.1f}, p = {1 - chi2.cdf(z_sq['death'], dof):.2f}.")
            print(first_innings_pooled(figures))
        if figures:
            print(chase_table(figures))
        if figures:
            print("\nHow often a season the cards themselves play meets the bars (each replay, "
                  "on the fixtures completed for real, judged against the replays' long-run "
                  "figures as the real season is): what a model that were exactly right could "
                  "hope for on this many innings.\n")
            print("| season | total within 3 runs | all out within 5 points | death within 5% "
                  "| all three |")
            print("|---|---|---|---|---|")
            every, expected_met = 1.0, 0.0
            for name, m in figures.items():
                o = m["own_bars"]
                every *= o["all"]
                expected_met += o["runs"] + o["all_out"] + o["death"]
                print(f"| {name} | {100 * o['runs']:.0f}% | {100 * o['all_out']:.0f}% "
                      f"| {100 * o['death']:.0f}% | {100 * o['all']:.0f}% |")
            print(f"\nA model exactly right would meet {expected_met:.1f} of the "
                  f"{3 * len(figures)} match bars on average, and all of them in "
                  f"{100 * every:.2g}% of tries.")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1, default=float))


if __name__ == "__main__":
    main()
