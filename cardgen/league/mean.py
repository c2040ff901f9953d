"""`baseline = "mean"`: a league whose cards play in the mean of the seasons it uses.

The issue's baseline is "the league the cards play in; or the mean of the seasons used". A
season baseline is a real league with its own calibrated cards (`calibrate.baseline`). The mean
league M has no cards of its own, so it is made from one of the seasons used, the *host* H (of
the league's format, the one whose runs per ball are nearest M's): its fielding chart, rating
scales and rule, and an average opponent moved from H's to M's level:

* M's figures (`mean_league`): each season weighs the same; every count per delivery is the
  seasons' mean, on H's number of deliveries. So a player is as much better or worse than M as
  he was than his own league (`calibrate.baseline.rebase_target` onto M's index rates).
* M's average opponent (`mean_baseline`): H's players, each at his own indices, re-expressed
  in M and solved against one another (the season calibration's continuous fixed point,
  `calibrate.calibrate._continuous_rounds`). The *shift* of the mean cards from the same rounds
  on H's own figures is added to H's mean cards (and at each place of H's batting order to its
  average batter), so the rule passes and whole-slot cards H's calibration made stay as they
  were; only the level moves.

Layer: league (downstream of calibrate: nothing here changes a season's card set).
"""
from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import numpy as np

from cardgen.calibrate.baseline import Baseline, guest_fits, index_rates
from cardgen.calibrate.calibrate import FIXED_POINT_ROUNDS, _continuous_rounds
from cardgen.calibrate.expect import LeagueModel
from cardgen.calibrate.model import CARD_INDEX, SLOTS
from cardgen.calibrate.solve import continuous_card
from cardgen.stats.tables import SeasonStats

from cardgen.league.spec import MEAN
# a league table's figures that are not counts: worked out again from M's counts, or (per
# innings) H's moved by M's level
RATES = {"strike_rate", "economy", "runs_per_ball"}
PER_INNINGS_RUNS = ("average_first_innings_total", "average_first_innings_total_all",
                    "average_second_innings_total")


def _scaled(value: Any, factor: float) -> Any:
    if isinstance(value, dict):
        return {k: _scaled(v, factor) for k, v in value.items()}
    return float(value) * factor


def _add(a: Any, b: Any) -> Any:
    if isinstance(a, dict):
        return {k: _add(a.get(k, 0.0), b.get(k, 0.0)) for k in sorted(set(a) | set(b))}
    return float(a) + float(b)


def _rounded(value: Any) -> Any:
    return {k: _rounded(v) for k, v in value.items()} if isinstance(value, dict) else int(round(value))


def _is_count(key: str, value: Any) -> bool:
    if isinstance(value, dict):
        return all(isinstance(v, int) and not isinstance(v, bool) for v in value.values())
    return isinstance(value, int) and not isinstance(value, bool) and key not in ("balls_per_over",)


def mean_league(tables: list[dict], host: dict) -> dict:
    """The mean of seasons' `stats.league` tables, each season weighing the same: every count
    per delivery averaged over the seasons, on the host's deliveries (whole numbers); the rates
    worked out from those counts; per-innings figures the host's moved by M's level; the rest
    (competition, format, balls per over) the host's."""
    deliveries = float(host["deliveries"])
    counts: dict[str, Any] = {}
    for t in tables:
        factor = deliveries / float(t["deliveries"]) / len(tables)
        for key, value in t.items():
            if _is_count(key, value):
                counts[key] = _add(counts[key], _scaled(value, factor)) if key in counts else _scaled(value, factor)
    out = dict(copy.deepcopy(host))
    out.update(_rounded(counts))
    out["deliveries"] = int(host["deliveries"])
    conceded = out["runs_batter"] + out["wide_runs"] + out["no_ball_runs"]
    out["strike_rate"] = round(100 * out["runs_batter"] / out["balls_faced"], 4)
    out["economy"] = round(6 * conceded / out["legal_balls"], 4)
    out["runs_per_ball"] = round(out["runs_total"] / out["legal_balls"], 6)
    level = (out["runs_total"] / out["deliveries"]) / (host["runs_total"] / host["deliveries"])
    for key in PER_INNINGS_RUNS:
        if key in host:
            out[key] = round(float(host[key]) * level, 2)
    if "average_wickets_per_innings" in host:
        out["average_wickets_per_innings"] = round(
            float(host["average_wickets_per_innings"]) * (out["dismissals"] / out["deliveries"])
            / (host["dismissals"] / host["deliveries"]), 3)
    out["competition"] = MEAN.upper()
    return out


def runs_per_delivery(league: dict) -> float:
    return float(league["runs_total"]) / float(league["deliveries"])


def host_of(candidates: list[tuple[str, dict]], mean: dict) -> str:
    """The season (label) whose runs per delivery are nearest the mean league's."""
    level = runs_per_delivery(mean)
    return min(candidates, key=lambda c: (abs(runs_per_delivery(c[1]) - level), c[0]))[0]


def _shift(old: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """A card (slots) moved by `delta`, kept a card: no slot below 0, SLOTS in all."""
    delta = np.array(delta, float)
    delta[CARD_INDEX["F"]] = 0.0
    moved = np.clip(np.asarray(old, float) + delta, 0.0, None)
    return moved * SLOTS / moved.sum()


def _rounds(stats: SeasonStats, baseline: Baseline) -> tuple[LeagueModel, dict[tuple[str, str], np.ndarray]]:
    """The fixed point of `stats`' players re-expressed on `baseline` (from its model): the
    mean cards, and each striker's card by (player, team)."""
    strikers, bowlers = guest_fits(stats, baseline)
    model = _continuous_rounds(strikers, bowlers, baseline.model, FIXED_POINT_ROUNDS)
    cards = {(f.player_id, f.team): continuous_card(f.target, model) for f in strikers}
    return model, cards


def mean_baseline(host: Baseline, host_stats: SeasonStats, mean: dict, label: str,
                  host_batters: np.ndarray, positions: dict[tuple[str, str], int]
                  ) -> tuple[Baseline, np.ndarray]:
    """The mean league as a Baseline (H's chart, scales and rule; M's figures and opponent),
    and its average batter at each place of the order (`host_batters`: H's; `positions`: each
    H striker's usual place, by (player, team))."""
    own, moved = _rounds(host_stats, host), _rounds(host_stats, replace(host, league=mean))
    d_bowler = moved[0].mean_bowler - own[0].mean_bowler
    d_striker = moved[0].mean_striker - own[0].mean_striker
    model = replace(host.model, mean_bowler=_shift(host.model.mean_bowler, d_bowler),
                    mean_striker=_shift(host.model.mean_striker, d_striker))
    batters = []
    for place, old in enumerate(host_batters, start=1):
        here = [k for k, p in positions.items() if p == place and k in own[1]]
        delta = (np.mean([moved[1][k] - own[1][k] for k in here], axis=0) if here else d_striker)
        batters.append(_shift(old, delta))
    return (Baseline(label, mean, model, host.cells, host.rule, host.run_out_mean, host.keeper_mean,
                     host.card_set), np.array(batters))


def striker_positions(card_set: dict) -> dict[tuple[str, str], int]:
    return {(c["player"]["id"], c["team"]): int(c.get("position") or 11)
            for c in card_set["cards"] if c["kind"] == "striker"}


def level_check(mean: Baseline, host: Baseline) -> dict[str, float]:
    """How far M's average pairing is from where it should be, beside H's: (M's pairing / H's
    pairing) over (M's figure / H's figure), less one, for the strike rate and the dismissal
    rate per ball faced (0: the opponent moved exactly as far as the league did)."""
    def pairing(b: Baseline) -> dict[str, float]:
        fig = b.model.striker(b.model.mean_striker)
        return {"runs": float(np.ravel(fig["strike_rate"])[0]) / 100,
                "dismissal_rate": float(np.ravel(fig["dismissal_rate"])[0])}
    m, h = pairing(mean), pairing(host)
    rm, rh = index_rates(mean.league)["striker"], index_rates(host.league)["striker"]
    return {k: (m[k] / h[k]) / (rm[k] / rh[k]) - 1 for k in m}
