"""Cards for players of any season on one baseline league: the "2 x player - average" principle
against a common average (issue 35, docs/calibration.md section 11).

A season's card is solved so that, against its own league's average opponent, the player
reproduces his season. On a *baseline* league B the same solve (`solve.exact_card`, under the
advanced rules with the rule's factor passes, Defence ratings and repair of
`calibrate.calibrate`) runs against B's average opponent instead, the `LeagueModel` of B's own
calibrated card set (its fielding chart and ratings, its mean bowler and striker cards, its
mean Defence), for targets that make the player as much better or worse than B as he was than
his own league S: each figure's *index* (his figure / S's) times B's figure,

    strike rate, dismissal rate, 4s, 6s, dots and 1s per ball faced; economy, wicket rate,
    extras (wides and no-balls), 4s, 6s, dots, 1s and bowled per legal ball.

Rates are per ball, so a 100-ball season's player meets a T20 baseline on the same footing.
A bowler's runs off the bat are what his economy index leaves after his extras, so both of
those indices hold exactly. Small samples are shrunk and recentred in their own season as a
season's calibration does (`calibrate.season_fits`, `recentre_small_samples`), then
re-expressed. Fielding ratings are each player's own-season rates on B's scales.

A player of B itself keeps his season card: B's average opponent is made of those cards, so
re-solving them against it would be a second calibration of the same season
(`tests/test_calibrate_baseline.py` holds the two to the same figures).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from cardgen.calibrate.calibrate import (Calibration, CardFit, STRIKER_F_PRIOR_SCALE,
                                         STRIKER_F_PRIOR_WEIGHT, _error_scales,
                                         league_bowler_rates, league_striker_rates,
                                         recentre_small_samples, season_fits)
from cardgen.calibrate.expect import LeagueModel, model_from_card_set
from cardgen.calibrate.fielding import plan_counts
from cardgen.calibrate.model import CARD_INDEX, chart_cells
from cardgen.calibrate.ratings import compute_ratings
from cardgen.calibrate.solve import Target, continuous_card, exact_card
from cardgen.stats.tables import SeasonStats
from cardgen.wickets_in_hand import WicketsInHand

Key = tuple[str, str, str]  # (kind, player id, team)


def index_rates(league: dict) -> dict[str, dict[str, float]]:
    """A league's own figures per ball, the denominators of every index: per ball faced for a
    striker's figures, per legal ball for a bowler's (a season's `stats.league` table)."""
    faced = float(league["balls_faced"])
    legal = float(league["legal_balls"])
    o = league["outcomes_faced"]
    k = league["dismissal_kinds"]
    conceded = float(league["runs_batter"] + league["wide_runs"] + league["no_ball_runs"])
    extras = float(league["wide_balls"] + league["no_ball_balls"])
    return {
        "striker": {"runs": league["runs_batter"] / faced,
                    "dismissal_rate": league["dismissals"] / faced,
                    "fours": o["4"] / faced, "sixes": o["6"] / faced, "dots": o["0"] / faced,
                    "ones": o["1"] / faced,
                    "field_outs": (k.get("lbw", 0) + k.get("stumped", 0) + k.get("run out", 0)) / faced},
        "bowler": {"conceded": conceded / legal, "extras": extras / legal,
                   "bat": (conceded - extras) / legal,
                   "wicket_rate": league["bowler_wickets"] / legal, "fours": o["4"] / legal,
                   "sixes": o["6"] / legal, "dots": o["0"] / legal, "ones": o["1"] / legal,
                   "bowled": (k.get("bowled", 0) + k.get("hit wicket", 0)) / legal}}


# what each kind of card's indices are judged on (the bars: docs/calibration.md s. 11),
# then the shape figures the benchmark also reports
JUDGED = {"striker": ("strike_rate", "dismissal_rate"), "bowler": ("economy", "wicket_rate")}
SHAPE = {"striker": ("fours", "sixes"), "bowler": ("fours", "sixes", "extras")}


def card_index_errors(card: dict, own: dict[str, dict[str, float]],
                      base: dict[str, dict[str, float]]) -> dict[str, float]:
    """One card's index errors on the baseline: (its `expected` figure / the baseline's) over
    (its player's `real` figure / his own league's), less one, for each figure it has (a
    dismissal or wicket rate only where he had one; `own` and `base`: `index_rates`)."""
    kind, real, exp = card["kind"], card["real"], card["expected"]
    balls = float(real["balls"])
    o, b = own[kind], base[kind]
    pairs: dict[str, tuple[float, float, str]] = {}   # figure -> (card's per ball, real per ball, rate)
    if kind == "striker":
        pairs["strike_rate"] = (exp["strike_rate"] / 100, real["runs"] / balls, "runs")
        pairs["dismissal_rate"] = (exp["dismissal_rate"], real["dismissals"] / balls, "dismissal_rate")
    else:
        pairs["economy"] = (exp["economy"] / 6, real["runs"] / balls, "conceded")
        pairs["wicket_rate"] = (exp["wicket_rate"], real["dismissals"] / balls, "wicket_rate")
        pairs["extras"] = (exp["wides"] + exp["no_balls"],
                           (real.get("wides", 0) + real.get("no_balls", 0)) / balls, "extras")
    pairs["fours"] = (exp["fours"], real["fours"] / balls, "fours")
    pairs["sixes"] = (exp["sixes"], real["sixes"] / balls, "sixes")
    return {name: (card_rate / b[rate]) / (real_rate / o[rate]) - 1
            for name, (card_rate, real_rate, rate) in pairs.items()
            if real_rate > 0 and o[rate] > 0 and b[rate] > 0}


def index_errors(cards: list[dict], base: dict[str, dict[str, float]],
                 own_of: Callable[[dict], dict[str, dict[str, float]]]) -> dict[str, list[float]]:
    """Per figure, the index errors of the qualified cards (>= 60 balls) of `cards`; `own_of(card)`
    gives the index rates of the card's own league."""
    out: dict[str, list[float]] = {}
    for card in cards:
        if card.get("small_sample"):
            continue
        for name, err in card_index_errors(card, own_of(card), base).items():
            out.setdefault(name, []).append(err)
    return out


@dataclass
class Baseline:
    """The league a set of cards plays in: its average opponent and its own figures."""
    label: str                       # e.g. "BBL 2024-25"
    league: dict                     # its `stats.league` table
    model: LeagueModel               # chart matrix, mean bowler and striker cards, mean Defence
    cells: list[list[str]]           # its fielding chart
    rule: WicketsInHand | None       # the advanced rules' wickets in hand (None: as printed)
    run_out_mean: float              # match-weighted mean RO rating
    keeper_mean: float               # keeper-weighted mean keeper rating
    card_set: dict = field(repr=False, default_factory=dict)

    @classmethod
    def from_card_set(cls, card_set: dict, label: str) -> Baseline:
        from cardgen.wickets_in_hand import rule_of_set
        cells = chart_cells(card_set)
        skill = card_set["fielding"]
        return cls(label, card_set["league"], model_from_card_set(card_set), cells,
                   rule_of_set(card_set), 20.0 * float(skill["run_out_single"]),
                   20.0 * float(skill["stumping"]), card_set)

    @property
    def centres(self) -> dict[str, dict[str, float]]:
        """The solve's league figures (error units, shrinkage): as B's own calibration has them."""
        counts = _cell_counts(self.cells)
        return {"striker": league_striker_rates(self.league, counts),
                "bowler": league_bowler_rates(self.league, counts)}


def _cell_counts(cells: list[list[str]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for row in cells:
        for cell in row:
            out[cell] = out.get(cell, 0) + 1
    return out


def rebase_target(target: Target, own: dict[str, float], base: dict[str, float],
                  centres: dict[str, float]) -> Target:
    """`target` (figures in its own league, `own` its index rates) re-expressed on a league
    whose index rates are `base`: each figure's index times the base figure; a bowler's runs
    off the bat are his economy's index less his extras. Error units follow the base league."""
    def on_base(name: str, value: float) -> float:
        return value / own[name] * base[name] if own.get(name, 0) > 0 else base.get(name, value)

    figures = {n: on_base(n, v) for n, v in target.figures.items()}
    if target.kind == "bowler":
        economy = (target.figures["bat"] + target.figures["extras"]) / own["conceded"]
        figures["conceded"] = economy * base["conceded"]
        figures["bat"] = max(figures["conceded"] - figures["extras"], 0.0)
    return Target(target.kind, figures, dict(target.weights), _error_scales(figures, centres),
                  dict(target.slot_prior), target.dot_ratio)


def guest_fits(stats: SeasonStats, baseline: Baseline, keys: set[Key] | None = None
               ) -> tuple[list[CardFit], list[CardFit]]:
    """Card fits of a season's players (those in `keys`, else all) with their targets on the
    baseline: shrunk and recentred in their own season, then re-expressed."""
    counts = plan_counts(stats.league).counts
    ls, lb = league_striker_rates(stats.league, counts), league_bowler_rates(stats.league, counts)
    _, _, strikers, bowlers = season_fits(stats, ls, lb)
    recentre_small_samples(strikers, ls)
    recentre_small_samples(bowlers, lb)
    own, base, centres = index_rates(stats.league), index_rates(baseline.league), baseline.centres
    out: dict[str, list[CardFit]] = {"striker": [], "bowler": []}
    for f in strikers + bowlers:
        if keys is not None and (f.kind, f.player_id, f.team) not in keys:
            continue
        f.target = rebase_target(f.target, own[f.kind], base[f.kind], centres[f.kind])
        out[f.kind].append(f)
    f_mean = float(baseline.model.mean_striker[CARD_INDEX["F"]])
    for f in out["striker"] if STRIKER_F_PRIOR_WEIGHT else ():   # as the season's striker cards
        f.target.slot_prior["F"] = (f_mean, STRIKER_F_PRIOR_WEIGHT / STRIKER_F_PRIOR_SCALE)
    return out["striker"], out["bowler"]


@dataclass
class _Guests:
    """What the rule's passes, the Defence choice and the repair read of a calibration: the
    cards and the model they are solved against (the baseline's, held fixed)."""
    strikers: list[CardFit]
    bowlers: list[CardFit]
    model: LeagueModel


def solve_on_baseline(baseline: Baseline, strikers: list[CardFit], bowlers: list[CardFit],
                      shares: dict[Key, dict[str, float]]) -> None:
    """Solve each fit's card against the baseline's average opponent (in place: slots, and
    under the advanced rules each striker's Defence rating). The opponent stays the baseline's:
    these cards are guests in its league, not members of its means."""
    from cardgen.calibrate.defence import assign_defences
    from cardgen.calibrate.situations import (RULE_ROUNDS, RuleFactors, measure_factors,
                                              repair_outside_tolerance)
    model, rule = baseline.model, baseline.rule
    fits = strikers + bowlers
    if rule is None:
        for f in fits:
            f.slots = np.asarray(exact_card(f.target, model), int)
        return
    # the advanced rules: the season's passes (calibrate.calibrate) with the model held; each
    # card is solved for its neutral figures, real / k, k measured on its previous card
    # as in the season's passes, the cards are solved as printed against the opponent without
    # its Defence ratings, which reach a bowler through his factors (measured with them)
    plain = replace(model, mean_defence=0.0)
    real = {id(f): f.target for f in fits}
    for f in fits:
        f.slots = continuous_card(f.target, plain)
    guests = _Guests(strikers, bowlers, model)
    factors = RuleFactors()
    for _ in range(RULE_ROUNDS):
        factors = measure_factors(guests, rule, shares, None)
        for f in fits:
            t = real[id(f)]
            neutral = dict(t.figures)
            factors.neutral((f.kind, f.player_id, f.team), neutral)
            f.target = replace(t, figures=neutral)
            f.slots = np.asarray(exact_card(f.target, plain), int)
    assign_defences(guests, rule, shares, factors)
    guests.model = model          # the baseline's mean Defence, not these cards'
    repair_outside_tolerance(guests, rule, shares, factors)


def guest_calibration(stats: SeasonStats, baseline: Baseline, keys: set[Key] | None = None
                      ) -> Calibration:
    """A season's players (those in `keys`) solved on the baseline, as a `Calibration` that
    `cardset.card_sets_from_calibration` writes cards from: their own season's tables, the
    baseline's chart and model (so each card's `expected` block is against the baseline's
    average opponent), their fielding ratings on the baseline's scales."""
    from cardgen.calibrate.situations import band_shares, league_shares
    strikers, bowlers = guest_fits(stats, baseline, keys)
    shares = band_shares(stats.situations) if baseline.rule is not None else {}
    solve_on_baseline(baseline, strikers, bowlers, shares)
    ratings = compute_ratings(stats.fielding, run_out_mean=baseline.run_out_mean,
                              keeper_mean=baseline.keeper_mean)
    cal = Calibration(stats, ratings, None, baseline.cells, baseline.model, strikers, bowlers)
    if baseline.rule is not None:
        cal.rule, cal.shares = baseline.rule, shares
        cal.league_shares = {k: league_shares(stats.situations, k) for k in ("striker", "bowler")}
    return cal
