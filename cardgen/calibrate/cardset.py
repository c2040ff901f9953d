"""Build, write and load a card set (`card-set.json`, valid against the shared schema)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, SupportsFloat

import pandas as pd

from cardgen import ATTRIBUTION, __version__
from cardgen.cache import Cache, atomic_write_text
from cardgen.cardset import FILE_NAME, SCHEMA_VERSION, dumps
from cardgen.cardset import load_card_set as load_model
from cardgen.calibrate.model import chart_document, slots_to_chart
from cardgen.calibrate.people import (card_people, short_names, team_sheets, usage_letter,
                                      usual_positions)
from cardgen.competitions import Competition, normalise_season
from cardgen.errors import CardSetError  # noqa: F401 (the callers' name for it, errors.py says)
from cardgen.rule_sets import ADVANCED, DEFAULT_RULES, QUICKET, check_rules, rules_fields, rules_of_set
from cardgen.stats.tables import PHASES, SeasonStats, overs_text

if TYPE_CHECKING:  # the solver (scipy) is imported only to calibrate, not to load a set
    import numpy as np

    from cardgen.calibrate.calibrate import Calibration, CardFit



def _r(x: SupportsFloat, nd: int = 4) -> float:
    """`x` (a float, a numpy scalar or 0-d array: the model's figures) rounded to `nd` places."""
    return round(float(x), nd)


def card_sets_from_calibration(cal: Calibration, comp: Competition, season: str) -> dict:
    stats = cal.stats
    ratings = cal.ratings.lookup()
    positions = usual_positions(stats.lineups)
    teams = sorted(set(stats.lineups["team"]) | set(stats.batting["team"]) | set(stats.bowling["team"]))
    shorts = short_names(teams)
    sheets = team_sheets(stats.lineups, stats.bowling)
    # rows by (player, team) as plain dicts: label lookups in a loop are slow in pandas
    bowl = {(r["player_id"], r["team"]): r for r in stats.bowling.to_dict("records")}
    bat = {(r["player_id"], r["team"]): r for r in stats.batting.to_dict("records")}
    people = card_people(stats, comp.balls_per_over, positions)
    model = cal.model

    def player_block(pid: str, team: str) -> dict:
        rating = ratings.get((pid, team), {"catch": 1, "run_out": 1, "keeper": None})
        return {**people[(pid, team)], "catch": rating["catch"], "run_out": rating["run_out"],
                "keeper": rating["keeper"]}

    def card_head(fit: CardFit) -> dict:
        """What every card starts with, striker or bowler."""
        return {"player": player_block(fit.player_id, fit.team), "team": fit.team,
                "team_short": shorts[fit.team], "kind": fit.kind,
                "position": positions.get((fit.player_id, fit.team), 12),
                "chart": slots_to_chart(fit.slots)}

    cards = []
    from cardgen.calibrate.situations import rule_matrix

    def situations(fit: CardFit) -> tuple[dict, np.ndarray | None]:
        """The card's real band shares (printed on no card: what validate and expected use)
        and the outcome matrix it plays under (None: the rules as printed)."""
        shares = cal.shares.get((fit.kind, fit.player_id, fit.team)) if cal.rule else None
        block = {"situations": {b: _r(x, 6) for b, x in shares.items()}} if shares else {}
        return block, rule_matrix(cal.rule, shares)

    for fit in cal.strikers:
        s = bat[(fit.player_id, fit.team)]
        where, rule = situations(fit)
        exp = model.striker(fit.slots.astype(float), rule, fit.defence / 20)
        card = {
            **card_head(fit),
            **({"defence": int(fit.defence)} if fit.defence else {}),
            "real": {"innings": int(s["innings"]), "balls": int(s["balls"]), "runs": int(s["runs"]),
                     "dismissals": int(s["dismissals"]), "fours": int(s["fours"]),
                     "sixes": int(s["sixes"]), "dots": int(s["dots"]), "high_score": int(s["high_score"]),
                     "high_score_not_out": bool(s["high_score_not_out"]),
                     "strike_rate": _r(s["strike_rate"], 2) if pd.notna(s["strike_rate"]) else None},
            "expected": {"strike_rate": _r(exp["strike_rate"], 3),
                         "dismissal_rate": _r(exp["dismissal_rate"], 5),
                         "fours": _r(exp["fours"], 5), "sixes": _r(exp["sixes"], 5),
                         "dots": _r(exp["dots"], 5)},
            **where,
            "small_sample": fit.small_sample,
        }
        cards.append(card)
    for fit in cal.bowlers:
        b = bowl[(fit.player_id, fit.team)]
        where, rule = situations(fit)
        exp = model.bowler(fit.slots.astype(float), rule)
        card = {
            **card_head(fit),
            "usage": {"letter": usage_letter(int(b["legal_balls"]), int(b["innings"]),
                                             comp.balls_per_over),
                      "innings": int(b["innings"])},
            "real": {"innings": int(b["innings"]), "balls": int(b["legal_balls"]),
                     "runs": int(b["runs_conceded"]), "dismissals": int(b["wickets"]),
                     "fours": int(b["conceded_n4"]), "sixes": int(b["conceded_n6"]),
                     "dots": int(b["dots"]), "wides": int(b["wides"]), "no_balls": int(b["no_ball_balls"]),
                     "no_ball_runs": int(b["no_balls"]),
                     "overs": overs_text(int(b["legal_balls"]), comp.balls_per_over),
                     "economy": _r(b["economy"], 2),
                     **({"phase_balls": {p: int(b[f"balls_{p}"]) for p in PHASES}}
                        if all(f"balls_{p}" in b for p in PHASES) else {})},
            "expected": {"economy": _r(exp["economy"], 4),
                         "wicket_rate": _r(exp["wicket_rate"], 5),
                         "fours": _r(exp["fours"], 5), "sixes": _r(exp["sixes"], 5),
                         "dots": _r(exp["dots"], 5), "wides": _r(exp["wides"], 5),
                         "no_balls": _r(exp["no_balls"], 5)},
            **where,
            "small_sample": fit.small_sample,
        }
        cards.append(card)
    cards.sort(key=lambda c: (c["team"], c["kind"], c["position"], c["player"]["id"]))

    skill = cal.ratings.skill()
    team_list = []
    for t in teams:
        sheet = sheets.get(t, {"batting_order": [], "wicketkeeper": None, "reserves": [], "bowlers": []})
        entry = {"name": t, "short_name": shorts[t], "batting_order": sheet["batting_order"],
                 "reserves": sheet["reserves"], "bowlers": sheet["bowlers"]}
        if sheet["wicketkeeper"]:
            entry["wicketkeeper"] = sheet["wicketkeeper"]
        team_list.append(entry)
    league_fig = model.league(rule_matrix(cal.rule, cal.league_shares.get("striker")))
    rule_block = rules_fields(ADVANCED if cal.rule else QUICKET, cal.rule)
    return {
        "schema_version": SCHEMA_VERSION,
        "competition": {"code": comp.code, "name": comp.name, "nation": comp.nation, "sex": comp.sex},
        "season": normalise_season(comp, season),
        "format": comp.format,
        **rule_block,
        "generator": f"cardgen {__version__}",
        "attribution": ATTRIBUTION,
        "fielding_chart": chart_document(cal.cells),
        "fielding": {"catch": _r(skill.catch, 6), "run_out_single": _r(skill.run_out_single, 6),
                     "run_out_with_keeper": _r(skill.run_out_with_keeper, 6),
                     "stumping": _r(skill.stumping, 6)},
        "teams": team_list,
        "league": stats.league,
        "expected_league": _round_tree(league_fig),
        "cards": cards,
    }


def _round_tree(x: object) -> object:
    """A JSON tree with its floats rounded to 6 places."""
    if isinstance(x, dict):
        return {k: _round_tree(v) for k, v in x.items()}
    if isinstance(x, float):
        return round(x, 6)
    return x


def build_card_set(comp: Competition, season: str, source: str | None = None,
                   cache: Cache | None = None, reuse: bool = False,
                   rules: str = DEFAULT_RULES) -> dict:
    """The season's card set, made for `rules` (`cardgen.rule_sets`: "quicket", the rules as
    printed, or "advanced"), as a dict valid against card-set.schema.json.

    With `reuse`, a set kept in the cache from identical inputs is returned instead of
    calibrating again (`cardgen.calibrate.reuse`); the result is the same either way.
    """
    from cardgen.stats.load import season_stats
    check_rules(rules)
    season = normalise_season(comp, season)
    stats = season_stats(comp, season, source, cache=cache)
    if reuse:
        from cardgen.calibrate.reuse import reuse_or_build
        from cardgen.sources.names import active_overrides
        return reuse_or_build(stats, comp, season, cache,
                              lambda: card_set_from_stats(stats, comp, season, rules),
                              options={"names": active_overrides(),   # --names changes the set
                                       "rules": rules})[0]
    return card_set_from_stats(stats, comp, season, rules)


def card_set_from_stats(stats: SeasonStats, comp: Competition, season: str,
                        rules: str = DEFAULT_RULES) -> dict:
    """The cards solved for `rules`: the Quicket rules as printed, or the advanced rules'
    wickets in hand with this season's own attack faces, and Defence ratings (R12, R13)."""
    from cardgen.calibrate.calibrate import calibrate, league_rule
    rule = league_rule(stats) if check_rules(rules) == ADVANCED else None
    return card_sets_from_calibration(calibrate(stats, rule=rule), comp, season)


def card_set_path(card_set: dict, out_dir: Path) -> Path:
    """`<out_dir>/<kit folder>/card-set.json`: `BBL_2024-25/` for the Quicket rules,
    `BBL_2024-25-advanced/` for the advanced rules."""
    from cardgen.competitions import get_competition
    from cardgen.rule_sets import kit_folder_name
    comp = get_competition(card_set["competition"]["code"])
    return Path(out_dir) / kit_folder_name(comp.code, normalise_season(comp, card_set["season"]),
                                           rules_of_set(card_set)) / FILE_NAME


def write_card_set(card_set: dict, out_dir: Path) -> Path:
    """Write the set's `card-set.json` into its kit folder under `out_dir` (`card_set_path`)
    atomically; return its path."""
    path = card_set_path(card_set, out_dir)
    atomic_write_text(path, dumps(card_set))
    return path


def load_card_set(path: Path | str) -> dict:
    """Read and check a card set (`cardgen.cardset.load_card_set`), as its document."""
    return load_model(path).to_json()
