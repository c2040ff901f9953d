"""Calibration that knows the wickets-in-hand rule.

Under the rule a card plays each delivery in a band (attack / normal / consolidate) set by the
match situation. Each player really batted or bowled in a known mix of those bands (the stats
layer's `situations` table), so his card is solved for his *neutral* figures: the real figure
divided by the factor the rule applies to that card over his own mix,

    k(figure) = figure(card under the rule over his bands) / figure(card as printed),

which depends a little on the card itself (attack acts on dots, consolidate on boundaries and
dismissals). The factors are measured on the solved cards and the season solved again, a fixed
point reached in RULE_ROUNDS passes; the league's counts (what the small samples are centred
on and the fielding chart is planned for) are divided outcome by outcome by the league-average
delivery's factors over all real balls' bands (`RuleFactors.neutral_league`). Then, over the
situations he really faced, each card reproduces its player's real season (`expected` in the
card set is that figure).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from cardgen.calibrate.model import OUTCOMES
from cardgen.calibrate.weights import FittedCards, ball_weighted_mean
from cardgen.wickets_in_hand import BANDS, WicketsInHand

if TYPE_CHECKING:   # calibrate and solve import this module
    import pandas as pd

    from cardgen.calibrate.calibrate import CardFit
    from cardgen.calibrate.solve import Target

RULE_ROUNDS = 4          # full solves under the rule (fewer leave a card or two 2% out: the factors move)
ROLE_OF_KIND = {"striker": "bat", "bowler": "bowl"}

Key = tuple[str, str, str]  # (kind, player id, team)


def band_shares(situations: pd.DataFrame | None) -> dict[Key, dict[str, float]]:
    """Each card's share of real balls per band (striker: balls faced; bowler: legal balls)."""
    out: dict[Key, dict[str, float]] = {}
    if situations is None or not len(situations):
        return out
    kind_of = {v: k for k, v in ROLE_OF_KIND.items()}
    for r in situations.to_dict("records"):
        balls = [float(r[f"balls_{b}"]) for b in BANDS]
        total = sum(balls)
        if total > 0:
            out[(kind_of[r["role"]], str(r["player_id"]), str(r["team"]))] = {
                b: x / total for b, x in zip(BANDS, balls)}
    return out


def league_shares(situations: pd.DataFrame | None, kind: str) -> dict[str, float] | None:
    if situations is None or not len(situations):
        return None
    rows = situations[situations["role"] == ROLE_OF_KIND[kind]]
    balls = [float(rows[f"balls_{b}"].sum()) for b in BANDS]
    total = sum(balls)
    return {b: x / total for b, x in zip(BANDS, balls)} if total > 0 else None


# real dismissal kinds -> the game outcome whose factor applies (run-outs: the rule leaves them)
KIND_OUTCOME = {"bowled": "bowled", "hit wicket": "bowled", "caught": "caught",
                "caught and bowled": "caught", "lbw": "lbw", "stumped": "stumped"}
BOWLER_KINDS = ("bowled", "hit wicket", "caught", "caught and bowled", "lbw", "stumped")


@dataclass
class RuleFactors:
    """Per card: figure -> k, the rule's factor on that figure; for the league: outcome -> k."""
    cards: dict[Key, dict[str, float]] = field(default_factory=dict)
    outcomes: dict[str, float] = field(default_factory=dict)

    def neutral(self, key: Key, figures: dict[str, float]) -> None:
        """Divide a card's real target figures by its factors (in place)."""
        for name, k in self.cards.get(key, {}).items():
            if name in figures:
                figures[name] = figures[name] / k

    def neutral_league(self, league: dict) -> dict:
        """The league's counts as the cards must produce them before the rule: dots, singles,
        fours, sixes and each kind of dismissal divided by the rule's league factor (the
        fielding chart's LBW, stumping and bowled cells are planned on these, so the shares
        of the kinds land on the real ones once the rule has played)."""
        k = self.outcomes
        if not k:
            return league
        out = dict(league)
        faced = dict(league["outcomes_faced"])
        runs_change = 0.0
        for r in ("0", "1", "4", "6"):
            new = faced[r] / k.get(r, 1.0)
            runs_change += int(r) * (new - faced[r])
            faced[r] = new
        out["outcomes_faced"] = faced
        out["runs_batter"] = league["runs_batter"] + runs_change
        kinds = dict(league["dismissal_kinds"])
        change = wickets_change = 0.0
        for kind, outcome in KIND_OUTCOME.items():
            if kind in kinds:
                new = kinds[kind] / k.get(outcome, 1.0)
                change += new - kinds[kind]
                wickets_change += (new - kinds[kind]) if kind in BOWLER_KINDS else 0.0
                kinds[kind] = new
        out["dismissal_kinds"] = kinds
        out["dismissals"] = league["dismissals"] + change
        out["bowler_wickets"] = league["bowler_wickets"] + wickets_change
        return out


def _ratios(ruled: dict[str, np.ndarray], plain: dict[str, np.ndarray]) -> dict[str, float]:
    out = {}
    for name, value in plain.items():
        v = float(value)
        out[name] = float(ruled[name]) / v if v > 1e-9 and float(ruled[name]) > 1e-9 else 1.0
    return out


def measure_factors(cal: FittedCards, rule: WicketsInHand, shares: dict[Key, dict[str, float]],
                    situations: pd.DataFrame | None) -> RuleFactors:
    """The rule's factors on every solved card of `cal` (a `Calibration`) and on the league."""
    from dataclasses import replace

    from cardgen.calibrate.solve import Scorer
    # The strikers' Defence ratings (R13) are in the factors: a bowler meets their ball-weighted
    # mean (`LeagueModel.mean_defence`), and the league's outcomes all of them. A striker's own
    # rating is chosen after his card is solved (`calibrate.defence`), so his dismissal factor
    # leaves it out (it would feed back into the card it corrects), while the dots and runs it
    # makes (a W read as a dot, rolled again in the attack band) count.
    factors = RuleFactors()
    plain_model = replace(cal.model, mean_defence=0.0)
    for fit in list(cal.strikers) + list(cal.bowlers):
        key = (fit.kind, fit.player_id, fit.team)
        if key not in shares:
            continue
        slots = np.asarray(fit.slots, float)
        scorer = Scorer(fit.target, cal.model)
        mix = rule.mixture(shares[key], OUTCOMES)
        ruled = scorer.figures(slots, mix, fit.defence / 20)
        if fit.defence:
            ruled.update({n: v for n, v in scorer.figures(slots, mix).items()
                          if n in DEFENCE_HELD})
        factors.cards[key] = _ratios(ruled, Scorer(fit.target, plain_model).figures(slots))
    # outcome by outcome, on the league-average delivery over all real balls
    league_mix = league_shares(situations, "striker")
    if league_mix is not None:
        plain = plain_model.average_delivery()
        average = cal.model.average_delivery(rule.mixture(league_mix, OUTCOMES))
        factors.outcomes = {o: float(average[i] / plain[i]) if plain[i] > 1e-12 else 1.0
                            for i, o in enumerate(OUTCOMES)}
    return factors


def rule_matrix(rule: WicketsInHand | None, shares: dict[str, float] | None) -> np.ndarray | None:
    """The outcome matrix a card plays under (None: the rules as printed)."""
    if rule is None or not shares:
        return None
    return rule.mixture(shares, OUTCOMES)


# --- cards left outside tolerance for a fitting reason -----------------------------------------
# The factor passes solve each card for real / k with k measured on the previous pass's card;
# where k moves with the card, a card can end outside tolerance although a card with the same
# F, B and dots would meet it (The Hundred 2024: Kieron Pollard, 58% of his balls in attack,
# strike rate 2.3% high; fewer boundaries would do). `report.reachable` finds such cards; here
# each qualified card outside tolerance under the rule is searched whole slot by whole slot
# (W and run slots; F, B and dots stay, as in the reach test) for the card whose judged figures
# under the rule are nearest their tolerance, never worse on either, the shape breaking ties.
# Only those few cards move, so the league means hardly do.
JUDGED = {"striker": (("runs", 0.02), ("dismissal_rate", 0.05)),
          "bowler": (("conceded", 0.02), ("wicket_rate", 0.05))}
REPAIR_RESULTS = ("W", "1", "2", "4", "6")
REPAIR_MAX_MOVES = 40
SHAPE_TIE_WEIGHT = 1e-3


def _slot_moves(card: np.ndarray, allowed: list[int]) -> np.ndarray:
    """Every card one whole slot away from `card` (one slot from one allowed result to another)."""
    moves = [(i, j) for i in allowed if card[i] > 0 for j in allowed if j != i]
    out = np.repeat(card[None, :], len(moves), axis=0)
    for row, (i, j) in enumerate(moves):
        out[row, i] -= 1
        out[row, j] += 1
    return out


def repair_outside_tolerance(cal: FittedCards, rule: WicketsInHand,
                             shares: dict[Key, dict[str, float]], factors: RuleFactors) -> int:
    """Search the qualified cards of `cal` left outside tolerance under the rule (in place; the
    league means in `cal.model` follow). Returns how many cards moved."""
    from dataclasses import replace

    from cardgen.calibrate.model import CARD_INDEX
    from cardgen.calibrate.solve import Scorer, _subset_error
    allowed = [CARD_INDEX[r] for r in REPAIR_RESULTS]
    moved = 0
    for fits in (cal.strikers, cal.bowlers):
        for f in fits:
            key = (f.kind, f.player_id, f.team)
            if f.small_sample or key not in shares:
                continue
            real = real_target(f, factors)
            judged = JUDGED[f.kind]
            if any(real.figures.get(n, 0) <= 0 for n, _ in judged):
                continue
            rule_t = rule.mixture(shares[key], OUTCOMES)
            scorer = Scorer(real, cal.model)

            def excess(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
                # called only in this iteration, so the loop's current values are the ones meant
                fig = scorer.figures(cards, rule_t, f.defence / 20)  # noqa: B023
                over = [np.maximum(np.abs(fig[n] / real.figures[n] - 1) / tol - 1, 0.0)  # noqa: B023
                        for n, tol in judged]  # noqa: B023
                shape = _subset_error(real, cal.model, cards,  # noqa: B023
                                      tuple(n for n in real.weights if n not in dict(judged)),  # noqa: B023
                                      prior=False, fig=fig)
                return np.stack(over), shape
            card = np.asarray(f.slots, float)
            over, _ = excess(card[None, :])
            if not over.any():
                continue
            now = over[:, 0]
            start = card.copy()
            for _ in range(REPAIR_MAX_MOVES):
                near = _slot_moves(card, allowed)
                o, shape = excess(near)
                ok = np.all(o <= now[:, None] + 1e-12, axis=0) & (o.sum(axis=0) < now.sum() - 1e-9)
                if not ok.any():
                    break
                score = np.where(ok, o.sum(axis=0) + SHAPE_TIE_WEIGHT * shape, np.inf)
                i = int(np.argmin(score))
                card, now = near[i], o[:, i]
            if not np.array_equal(card, start):
                f.slots = card.astype(int)
                moved += 1
    cal.model = replace(cal.model,
                        mean_bowler=ball_weighted_mean(cal.bowlers, [f.slots for f in cal.bowlers]),
                        mean_striker=ball_weighted_mean(cal.strikers, [f.slots for f in cal.strikers]))
    return moved


def real_target(fit: CardFit, factors: RuleFactors) -> Target:
    """A card's target as the rule plays it: its neutral figures times its factors (the real
    season's figures, where the factors are the card's own)."""
    from cardgen.calibrate.solve import Target
    k = factors.cards.get((fit.kind, fit.player_id, fit.team), {})
    t = fit.target
    return Target(t.kind, {n: v * k.get(n, 1.0) for n, v in t.figures.items()},
                  t.weights, {n: v * k.get(n, 1.0) for n, v in t.scales.items()})


# figures a rated striker's factors take without his own rating (it is chosen after his card
# is solved, calibrate.defence, and would feed back into the card it corrects)
DEFENCE_HELD = ("dismissal_rate", "field_outs")
