"""`cardgen validate` and `cardgen simulate`: play the card set and compare it with the real season."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from cardgen.cardset import FILE_NAME, CardSet, load_card_set
from cardgen.cli import (check_season_format, competition_options, friendly_errors, out_option,
                         refuse_other_rules, resolve, rules_option)
from cardgen.competitions import season_label
from cardgen.errors import CardSetError

# Run-size limits, stated in --help: beyond them a run takes hours or memory the machine lacks
MAX_BALLS = 1_000_000  # validate: ~100 s on one core; memory does not grow with the balls
MAX_SEASONS = 10_000  # simulate: IPL's 74 matches x 10,000 = 740,000 matches, ~300 MB, ~2 min

CARDS_HELP = ("card-set.json to play, by the rules it is made for (default: the kit's card-set.json, "
              "OUT/<CODE>_<season>/ or with --rules advanced OUT/<CODE>_<season>-advanced/, when it "
              "exists, else the set is calibrated now from the season).")


def load_cards(comp: Any, season: str, source: str | None, out_dir: Path,
               cards: Path | None, stats: Any = None, rules: str | None = None) -> tuple[CardSet, str]:
    """The card set to play and where it came from: the --cards file (made for its own rules;
    a `rules` naming the other is refused), else the kit's set for `rules` (default: the
    Quicket rules), else one calibrated now. `stats`: the season's tables when the caller has
    read (and checked) them, else the season's format is checked here before calibrating."""
    from cardgen.calibrate.cardset import build_card_set
    from cardgen.rule_sets import DEFAULT_RULES, kit_folder_name
    path = cards or Path(out_dir) / kit_folder_name(comp.code, season, rules or DEFAULT_RULES) / FILE_NAME
    if cards is not None or path.is_file():
        card_set = load_card_set(path)
        if card_set.competition.code != comp.code or card_set.season != season:
            raise CardSetError(f"{path} is a {card_set.competition.code} "
                               f"{card_set.season} set, not {comp.code} {season}")
        refuse_other_rules(card_set, rules, str(path))
        return card_set, str(path)
    if stats is None:
        check_season_format(comp, season, source)
    return (CardSet.from_json(build_card_set(comp, season, source, reuse=True, rules=rules or DEFAULT_RULES)),
            "calibrated from the season")


def rules_words(card_set: CardSet) -> str:
    """'the Quicket rules (as printed)' / 'the advanced rules (wickets in hand and Defence)':
    which rules a report played, as it says so."""
    from cardgen.rule_sets import QUICKET, rules_of_set
    return ("the Quicket rules (as printed)" if rules_of_set(card_set) == QUICKET
            else "the advanced rules (wickets in hand and Defence)")


def _seed_option(func: Any) -> Any:
    return click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
                        help="Random seed: the same seed gives identical reports.")(func)


@click.command("validate")
@competition_options
@click.option("--balls", "n_balls", type=click.IntRange(min=200, max=MAX_BALLS), default=20_000,
              show_default=True,
              help=f"Balls each card plays against the league-average opponent (200 to {MAX_BALLS:,}; "
                   "memory stays flat, time grows with the balls: about 10 s per 100,000).")
@_seed_option
@click.option("--cards", "--card-set", "cards", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help=CARDS_HELP)
@out_option
@rules_option
@friendly_errors
def validate_cmd(competition: str, season: str, source: str | None, n_balls: int, seed: int,
                 cards: Path | None, out_dir: Path, rules: str | None) -> None:
    """Play every card against the league-average opponent and compare with its real figures.

    Tolerance: a qualified card (>= 60 real balls) passes when its real strike rate / economy,
    dismissal / wicket rate, 4s and 6s per ball all lie in the 95% interval of what its simulated
    card gives over the same number of balls. Exit status 1 when fewer than 95% of qualified
    cards pass, or when a family-wise gate fails: any qualified card's real rate, or any
    simulated figure against the calibration layer's analytic expectation, further out than a
    Bonferroni bound that keeps a correct set passing with probability 99% (the report says how
    many checks ran and the bounds). The cards are played by the rules they are made for (the
    Quicket rules, or with --rules advanced the advanced kit's: there each delivery is in a
    wickets-in-hand band drawn from the situations its player really faced, Defence included),
    and the report says which.
    """
    import numpy as np
    from tqdm import tqdm

    from cardgen.sim import report
    from cardgen.sim.model import compile_card_set
    from cardgen.sim.validate import (BOWLER_METRICS, FAMILY_ALPHA, QUALIFY_BALLS,
                                      STRIKER_METRICS, summarise, validate_cards)
    from cardgen.rule_sets import rules_of_set, kit_folder_name
    comp, season = resolve(competition, season)
    card_set, origin = load_cards(comp, season, source, out_dir, cards, rules=rules)
    rules = rules_of_set(card_set)
    cs = compile_card_set(card_set)
    rng = np.random.default_rng(seed)
    # two passes (striker cards, bowler cards) of n_balls each, plus a short average-opponent pass
    with tqdm(total=2 * n_balls, desc=f"validate {comp.code} {season}", unit="ball/card",
              leave=False, file=sys.stderr, disable=not sys.stderr.isatty()) as bar:
        table = validate_cards(card_set, n_balls, rng, cs,
                               progress=lambda n: bar.update(min(n, bar.total - bar.n)))
    summary = summarise(table)
    with report.written_together():  # all of the report, or none of it
        folder = report.report_dir(out_dir, kit_folder_name(comp.code, season, rules))
        report.write_csv(folder / "validate_cards.csv", table)
        doc = {"competition": comp.code, "season": season, "rules": rules, "seed": seed,
               "balls_per_card": n_balls,
               "card_set": origin if origin.startswith("calibrated") else Path(origin).name,
               "qualified_cards": summary.qualified, "passed": summary.passed,
               "at_its_limit": [] if summary.at_limit is None else
               [{"kind": r.kind, "name": r.name, "team": r.team, "real_balls": int(r.real_balls)}
                for r in summary.at_limit.itertuples()],
               "judged_cards": summary.judged,
               "pass_share": round(summary.pass_share, 4), "metric_pass_share": summary.metric_pass,
               "outside_family_gate": summary.outside_gate,
               "engine_disagreements": summary.engine_disagreements,
               "family_alpha": FAMILY_ALPHA, "gate_checks": summary.gate_checks,
               "gate_z": summary.gate_z, "engine_checks": summary.engine_checks,
               "engine_z": summary.engine_z, "ok": summary.ok}
        report.write_json(folder / "validate_summary.json", doc)
        drawings = []
        for kind, metrics in (("striker", STRIKER_METRICS), ("bowler", BOWLER_METRICS)):
            part = table[(table["kind"] == kind) & table["qualified"]]
            for metric in metrics if len(part) else ():  # no empty plots for an early season
                drawings.append(report.scatter(f"{kind} {metric.replace('_', ' ')}: real vs simulated",
                                               part[f"real_{metric}"], part[f"sim_{metric}"],
                                               ~part[f"ok_{metric}"].astype(bool)))
        limit = 0 if summary.at_limit is None else len(summary.at_limit)
        at_limit_words = (f"{limit} at the game's limit (outside, but no printed card could reach "
                          f"their real figure; left out of the share); " if limit else "")
        judged = (f"{summary.passed} of {summary.qualified} qualified cards (>= {QUALIFY_BALLS} real "
                  f"balls) inside their 95% interval; {at_limit_words}"
                  f"{summary.passed} of {summary.judged} ({100 * summary.pass_share:.1f}%, need 95%); "
                  f"{summary.outside_gate} outside the family-wise gate "
                  f"(|z| > {summary.gate_z} over {summary.gate_checks} checks); "
                  if summary.judged else
                  f"No card to judge: {_judged_words(summary.qualified, QUALIFY_BALLS)}; "
                  "only the engine was checked: ")
        lines = [f"{judged}"
                 f"{summary.engine_disagreements} disagreements with the analytic expectation "
                 f"(|z| > {summary.engine_z} over {summary.engine_checks} checks); "
                 f"family-wise error {100 * FAMILY_ALPHA:g}%.",
                 f"{n_balls} balls per card against the league-average opponent, played by "
                 f"{rules_words(card_set)}; seed {seed}. Red points: outside the 95% interval."]
        fail_cols = ["kind", "name", "team", "real_balls"] + [
            c for c in table.columns if c.startswith(("real_", "sim_")) and c not in ("real_balls", "sim_balls")]
        failures = summary.failures[fail_cols].round(3) if len(summary.failures) else table.head(0)[fail_cols]
        tables = [("Qualified cards outside the 95% interval", failures)]
        if limit and summary.at_limit is not None:
            tables.append(("At the game's limit: outside, and no printed card could reach the real figure",
                           summary.at_limit[fail_cols].round(3)))
        report.write_pdf(folder / "validate.pdf", f"Card validation: {comp.name} {season_label(comp, season)}", lines, tables,
                         drawings)
    if summary.judged:
        verdict = (f"{summary.passed}/{summary.judged} qualified cards within their 95% interval "
                 f"({100 * summary.pass_share:.1f}%, need 95%"
                 + (f"; {limit} outside at the game's limit, left out" if limit else "") + "); "
                 f"{summary.outside_gate} outside the family-wise gate")
    else:  # an early season: a pass of 0 of 0 cards would claim what was never checked
        verdict = (f"no card to judge: {_judged_words(summary.qualified, QUALIFY_BALLS)}, "
                 "so only the engine was checked")
    click.echo(f"{comp.code} {season}, played by {rules_words(card_set)}: {verdict}; engine vs "
               f"analytic disagreements: {summary.engine_disagreements}")
    click.echo(f"checks: {summary.gate_checks} card-metric gates at |z| <= {summary.gate_z}, "
               f"{summary.engine_checks} engine checks at |z| <= {summary.engine_z} "
               f"(Bonferroni, family-wise error {100 * FAMILY_ALPHA:g}%)")
    if summary.metric_pass:
        click.echo("metric pass shares: " + ", ".join(f"{k} {100 * v:.1f}%"
                                                      for k, v in summary.metric_pass.items()))
    in_attack = _attack_band_words(card_set)
    for r in summary.failures.itertuples():
        click.echo(f"  outside: {r.kind} {r.name} ({r.team}, {r.real_balls} balls"
                   f"{in_attack.get((r.kind, str(r.player_id), r.team), '')})")
    if limit:
        click.echo("at the game's limit (no printed card reaches the real figure against the "
                   "league-average opponent):")
    for r in ([] if summary.at_limit is None else summary.at_limit.itertuples()):
        click.echo(f"  at its limit: {r.kind} {r.name} ({r.team}, {r.real_balls} balls"
                   f"{in_attack.get((r.kind, str(r.player_id), r.team), '')})")
    click.echo(f"report: {folder}")
    if not summary.ok:
        raise SystemExit(1)


def _judged_words(qualified: int, qualify_balls: int) -> str:
    """Why no card was judged: an early season has none with enough balls."""
    if not qualified:
        return f"none has {qualify_balls} real balls yet (too few matches)"
    return f"all {qualified} with {qualify_balls} real balls are at the game's limit"


@click.command("simulate")
@competition_options(required=False)
@click.option("--seasons", type=click.IntRange(min=1, max=MAX_SEASONS), default=1000, show_default=True,
              help=f"How many times to replay the season's fixture list (1 to {MAX_SEASONS:,}: every "
                   "simulated match is kept for the report, about 0.4 kB each).")
@_seed_option
@click.option("--cards", "--card-set", "cards", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help=CARDS_HELP)
@click.option("--chase-line", "chase_line", default="", metavar="EDGES/HANDS/ROWS",
              help="Advanced rules: also replay with this chase line (issue 41: runs needed a ball "
                   "x wickets in hand -> A attack, N normal, C consolidate, T the table), cards "
                   "calibrated for it, e.g. 2,2.5/6/TT,AC,AA; its figures beside the others.")
@out_option
@rules_option
@friendly_errors
def simulate_cmd(competition: str | None, season: str | None, source: str | None, seasons: int, seed: int,
                 cards: Path | None, out_dir: Path, rules: str | None, chase_line: str = "") -> None:
    """Replay the season's fixture list many times: ladder, team totals, leaderboards, real beside simulated.

    With --cards a league's card-set.json (`cardgen league`), -c and -s are not needed: its
    round-robin fixture list is replayed, and the ladder printed beside each side's points.

    Plays the cards by the rules they are made for: the Quicket rules as printed (the default
    kit), or with --rules advanced the advanced kit's (wickets in hand and Defence). Also
    reports what whole matches look like -- first-innings total and its SD, all-out rate,
    wickets and run rate by phase, the chasing side's wins -- real beside simulated by both
    rule sets, each with cards made for it: the given set by its own rules, the other rules
    with a set calibrated now (kept for the next run).
    """
    import time

    import numpy as np
    from tqdm import tqdm

    from cardgen.sim import report
    from cardgen.sim.model import compile_card_set
    from cardgen.sim.season import (HEAD_TO_HEAD_FILE, PHASES, head_to_head, ladder, leaderboards, league_summary, match_figures,
                                    real_first_innings, replay_season, team_totals)
    from cardgen.calibrate.cardset import build_card_set
    from cardgen.rule_sets import RULE_SETS, kit_folder_name, other_rules, rules_of_set
    from cardgen.sim.validate import rule_of
    from cardgen.stats.load import season_stats
    from cardgen.cli.league import league_set_or_none, simulate_league
    league_set = league_set_or_none(cards)
    if league_set is not None:
        return simulate_league(league_set, cards, seasons, seed, out_dir, rules)  # type: ignore[arg-type]
    if competition is None or season is None:
        raise click.UsageError(f"Missing option '--{'competition' if competition is None else 'season'}' "
                               f"(or --cards with a league's card-set.json)")
    from cardgen.wickets_in_hand import chase_line_of_words
    line = chase_line_of_words(chase_line) if chase_line else None
    if line is not None and cards is None and rules != "advanced":
        raise click.UsageError("--chase-line is a rule of the advanced rules: give --rules advanced")
    comp, season = resolve(competition, season)
    stats = season_stats(comp, season, source)
    check_season_format(comp, season, source, stats)
    loaded, origin = load_cards(comp, season, source, out_dir, cards, stats, rules)
    if line is not None and rules_of_set(loaded) != "advanced":
        raise click.UsageError("--chase-line is a rule of the advanced rules: give --rules advanced")
    # each rule set plays the cards made for it: the loaded set its own rules, the other rules
    # a set calibrated now (or kept in the cache from an earlier identical calibration)
    way = rules_of_set(loaded)
    other_way = other_rules(way)
    sets = {way: (loaded, origin),
            other_way: (CardSet.from_json(build_card_set(comp, season, source, reuse=True, rules=other_way)),
                        "calibrated from the season")}
    card_set = loaded
    cs = compile_card_set(card_set)
    rule = rule_of(card_set)
    rng = np.random.default_rng(seed)
    n_matches = seasons * len(stats.matches)
    start = time.perf_counter()
    with tqdm(total=n_matches, desc=f"simulate {comp.code} {season}", unit="match",
              leave=False, file=sys.stderr, disable=not sys.stderr.isatty()) as bar:
        rep = replay_season(cs, stats, seasons, rng, progress=bar.update, rule=rule)
    elapsed = time.perf_counter() - start
    # the other way to play, from its own seeded stream
    figures = {way: match_figures(cs, stats, rep)}
    other_set = sets[other_way][0]
    other_cs = compile_card_set(other_set)
    other = replay_season(other_cs, stats, seasons, np.random.default_rng([seed, 1]),
                          rule=rule_of(other_set))
    figures[other_way] = match_figures(other_cs, stats, other)
    matches = {"real": next(iter(figures.values()))["real"],
               **{k: figures[k]["sim"] for k in RULE_SETS}}
    if line is not None:      # the advanced rules with the chase line, cards calibrated for it
        matches["line"] = _with_chase_line(comp, season, source, stats, line, seasons, seed)
    summary = league_summary(cs, stats, rep)
    totals = team_totals(cs, stats, rep)
    table = ladder(stats, rep)
    leaders = leaderboards(cs, stats, rep)
    with report.written_together():  # all of the report, or none of it
        folder = report.report_dir(out_dir, kit_folder_name(comp.code, season, way))
        report.write_csv(folder / "simulate_ladder.csv", table)
        report.write_csv(folder / "simulate_team_totals.csv", totals)
        report.write_csv(folder / "simulate_players.csv", leaders)
        # each pair's replayed matches, for the site's compare pages ("A beat B n of m replays")
        report.write_json(folder / HEAD_TO_HEAD_FILE, {"competition": comp.code, "season": season, "seed": seed,
                                                       "rules": way, "seasons": seasons,
                                                       "pairs": head_to_head(rep)})
        report.write_json(folder / "simulate_summary.json",
                          {"competition": comp.code, "season": season, "seed": seed, **summary,
                           "rules": way, "rule": rule.name if rule else "classic",
                           "match_figures": matches,
                           "card_sets": {k: v if v.startswith("calibrated") else Path(v).name
                                         for k, (_, v) in sorted(sets.items())},
                           "real_xi_sides": rep.fixtures.real_sides,
                           "usual_xi_sides": rep.fixtures.fallback_sides,
                           "within_5_runs": abs(summary["first_innings_difference"]) <= 5})
        first_real = real_first_innings(stats)["runs"].to_numpy()
        drawings = [
            report.histogram("first-innings totals", rep.first_runs, first_real),
            report.histogram("second-innings totals", rep.second_runs,
                             stats.innings[(stats.innings["innings"] == 2)
                                           & ~stats.innings["super_over"].astype(bool)]["runs"].to_numpy()),
            report.scatter("team first-innings total", totals["real_first_innings_total"],
                           totals["sim_first_innings_total"]),
            report.scatter("team wickets per innings", totals["real_wickets_per_innings"],
                           totals["sim_wickets_per_innings"]),
            report.scatter("player runs per season", leaders["real_runs"], leaders["sim_runs"]),
            report.scatter("player wickets per season", leaders["real_wickets"], leaders["sim_wickets"]),
        ]
        for phase in PHASES:
            drawings.append(report.scatter(f"team run rate, {phase}", totals[f"real_run_rate_{phase}"],
                                           totals[f"sim_run_rate_{phase}"]))
        lines = [f"{seasons} replays of the {len(stats.matches)}-match fixture list "
                 f"({summary['matches_simulated']} matches) by {rules_words(card_set)}, seed {seed}.",
                 f"Mean first-innings total: real {summary['real_first_innings_total']} "
                 f"({summary['real_first_innings_count']} full-length first innings), simulated "
                 f"{summary['sim_first_innings_total']} (difference {summary['first_innings_difference']:+}).",
                 f"Wickets a 120 legal balls, every innings: real {summary['real_wickets_per_120_balls']}, "
                 f"simulated {summary['sim_wickets_per_120_balls']}.",
                 "Run rate per over, real / simulated: " + ", ".join(
                     f"{p} {summary[f'real_run_rate_{p}']} / {summary[f'sim_run_rate_{p}']}"
                     for p in PHASES) + "."]
        top_runs = leaders.head(15)[["name", "team", "real_runs", "sim_runs"]]
        top_wk = leaders.sort_values(["real_wickets", "player_id"], ascending=[False, True]).head(15)[
            ["name", "team", "real_wickets", "sim_wickets"]]
        report.write_pdf(folder / "simulate.pdf", f"Season replay: {comp.name} {season_label(comp, season)}", lines,
                         [("Ladder (wins per season)", table), ("Team totals", totals),
                          ("Run leaders", top_runs), ("Wicket leaders", top_wk)], drawings)
    click.echo(f"{comp.code} {season}: {summary['matches_simulated']} matches in {elapsed:.1f}s "
               f"({summary['matches_simulated'] / max(elapsed, 1e-9):,.0f} matches/s)")
    click.echo(f"played by {rules_words(card_set)}; "
               f"{rep.fixtures.real_sides} sides with their real XI, "
               f"{rep.fixtures.fallback_sides} with the usual XI (no usable line-up)")
    if rep.fixtures.skipped:  # a side without a striker or a bowler card cannot play
        left = "; ".join(f"{a} v {b}" for _, a, b in rep.fixtures.skipped)
        click.echo(f"left out {len(rep.fixtures.skipped)} of the fixture list's matches, a side with "
                   f"no striker or no bowler card in the set: {left}")
    for voided, replay in rep.fixtures.replayed:
        click.echo(replayed_line(stats.matches, voided, replay))
    click.echo(f"cards for the Quicket rules: {sets['quicket'][1]}; for the advanced rules: "
               f"{sets['advanced'][1]}")
    for row in match_table(matches):
        click.echo(row)
    # (the table has the first-innings total and run rates; these repeated them over every
    # innings, D/L ones included, so the same row read two different real figures). Wickets as a
    # rate: a real innings the weather cut short has fewer wickets, a replay never is cut short
    click.echo(f"wickets a 120 legal balls, every innings: real {summary['real_wickets_per_120_balls']}, "
               f"simulated {summary['sim_wickets_per_120_balls']}")
    click.echo("  first innings: real {}, simulated {}; chases: real {}, simulated {}".format(
        *(_figure(summary.get(f"{who}_wickets_per_120_balls_{name}"))
          for name in ("first_innings", "second_innings") for who in ("real", "sim"))))
    click.echo("ladder: simulated wins per season (real wins), share of seasons on top or joint top")
    width = max([len(str(t)) for t in table["team"]] + [24])  # the columns line up past a long name
    for r in table.itertuples():
        click.echo(f"  {r.sim_rank:>2}. {r.team:<{width}} {r.sim_won:5.2f} ({r.real_won:2d})  "
                   f"top {100 * r.sim_top_share:4.1f}%")
    click.echo(f"report: {folder}")


def _with_chase_line(comp: Any, season: str, source: str | None, stats: Any, line: Any,
                     seasons: int, seed: int) -> dict:
    """The season's match figures by the advanced rules with the chase line `line`: cards
    calibrated for it (each real ball counted in the band the line gives), replayed from their
    own seeded stream."""
    from dataclasses import replace

    import numpy as np

    from cardgen.calibrate.calibrate import calibrate, league_rule
    from cardgen.calibrate.cardset import card_sets_from_calibration
    from cardgen.sim.model import compile_card_set
    from cardgen.sim.season import match_figures, replay_season
    from cardgen.stats.load import with_rule_situations
    rule = replace(league_rule(stats), chase_line=line)
    click.echo("calibrating the cards for the chase line ...", err=True)
    line_stats = with_rule_situations(stats, comp, season, source, rule)
    cs = compile_card_set(CardSet.from_json(card_sets_from_calibration(calibrate(line_stats, rule=rule), comp, season)))
    rep = replay_season(cs, line_stats, seasons, np.random.default_rng([seed, 2]), rule=rule)
    return dict(match_figures(cs, line_stats, rep)["sim"])


def _figure(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def replayed_line(matches: Any, voided: str, replay: str) -> str:
    """'left out match 58 (Punjab Kings v Delhi Capitals, a no result): the league played it again in
    full as match 66, which is replayed'."""
    rows = matches.assign(match_id=matches["match_id"].astype(str)).set_index("match_id")

    def called(match_id: str) -> str:
        number = rows.at[match_id, "match_number"]
        return f"match {int(number)}" if str(number) not in ("", "nan", "<NA>", "None") else \
            f"the match of {rows.at[match_id, 'date']}"
    v = rows.loc[voided]
    return (f"left out {called(voided)} ({v['team1']} v {v['team2']}, a no result): the league played it "
            f"again in full as {called(replay)}, which is replayed")


def match_table(matches: dict[str, dict]) -> list[str]:
    """Real beside simulated (by the Quicket rules, by the advanced rules) as aligned text lines."""
    cols = list(matches)
    label = {"real": "real", "quicket": "Quicket", "advanced": "advanced", "line": "+ line"}

    def fmt(key: str, v: dict) -> str:
        if key in ("all_out_share", "chasing_wins_share"):
            return "-" if v.get(key) is None else f"{100 * v[key]:.1f}%"
        if key.startswith("wickets_") or key.endswith(("_per_120", "_rate")):
            return f"{v[key]:.2f}" if v.get(key) is not None else "-"
        if v.get(key) is None:  # a season too small for the figure (one first innings: no SD)
            return "-"
        return f"{v[key]:.1f}" if key.startswith("first") else f"{v[key]:.2f}"

    rows = [("first-innings total", "first_innings_total"), ("  its SD", "first_innings_sd"),
            ("first innings all out", "all_out_share"),
            ("wickets, powerplay (1st inns)", "wickets_powerplay"),
            ("wickets, middle (1st inns)", "wickets_middle"),
            ("wickets, death (1st inns)", "wickets_death"),
            ("run rate, powerplay", "run_rate_powerplay"), ("run rate, middle", "run_rate_middle"),
            ("run rate, death", "run_rate_death"),
            # first innings and chases apart (issue 41): wickets a ball, a rate, as real innings
            # the weather cut short have fewer wickets and replays never are cut short
            ("wickets / 120 balls, 1st inns", "first_wickets_per_120"),
            ("wickets / 120 balls, chases", "chase_wickets_per_120"),
            ("run rate, chases", "chase_run_rate"), ("chasing side wins", "chasing_wins_share")]
    lines = ["match figures".ljust(30) + "".join(label.get(c, c).rjust(9) for c in cols)]
    for text, key in rows:
        lines.append(text.ljust(30) + "".join(fmt(key, matches[c]).rjust(9) for c in cols))
    return lines


def _attack_band_words(card_set: CardSet) -> dict[tuple[str, str, str], str]:
    """(kind, player id, team) -> ", 85% in the attack band, whose d20 rolls this card's dots
    too" for the cards that score more than their player's real season mostly in the rule's attack
    band (`report.attack_band_scoring`): why such a card is off, on its line."""
    from cardgen.calibrate.report import attack_band_scoring
    out: dict[tuple[str, str, str], str] = {}
    for c in card_set.cards:
        share = attack_band_scoring(c)
        if share is not None:
            out[(c.kind, str(c.player.id), c.team)] = (
                f", {100 * share:.0f}% in the attack band, whose d20 rolls this card's dots too")
    return out


COMMANDS = [validate_cmd, simulate_cmd]
