"""Choosing the strikers' Defence ratings (rules R13) in the calibration under the rule.

Half of every delivery is read from the bowler's card, so a striker is out at least as often as
the bowler's half makes him, even with no W face of his own (docs/calibration.md section 10).
A qualified striker whose solved card is still out more often than his real season by more than
DEFENCE_FROM gets the rating (1-20) that brings his dismissal rate under the rule nearest the
real one: that share of the W read from the bowler's card is a dot. Everyone else has none.

The ratings are chosen on the first pass's cards, held while the bowlers settle against their
ball-weighted mean, chosen again on the last pass (`calibrate.calibrate`), and the bowlers left
off their wicket rate by the last choice are solved once more against the final mean
(`resolve_bowlers`). The small samples take the league's dismissal recentring in proportion
to their balls (`calibrate.recentre_small_samples`), so what the ratings save on the stars does
not land on the tail-enders' cards.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from cardgen.calibrate.model import CARD_INDEX, MAX_DEFENCE, OUTCOMES
from cardgen.calibrate.situations import Key, RuleFactors, _ratios, league_shares, real_target
from cardgen.calibrate.weights import FittedCards, ball_weighted_mean, game_dismissals
from cardgen.calibrate.solve import Scorer, exact_card
from cardgen.wickets_in_hand import WicketsInHand

if TYPE_CHECKING:   # calibrate imports this module
    import pandas as pd

    from cardgen.calibrate.calibrate import Calibration

DEFENCE_FROM = 0.05   # a card out this much more often than its player, or more, gets a rating
RESOLVE_FROM = 0.015  # a qualified bowler this far off his real wicket rate is solved again
PIN_WEIGHT = 10.0     # per slot: how firmly the re-solve keeps a bowler's F and B slots
BOWLED_ROUNDS = 3     # rounds putting the league's bowled share back after the re-solve


def assign_defences(cal: FittedCards, rule: WicketsInHand, shares: dict[Key, dict[str, float]],
                    factors: RuleFactors, held: dict[Key, int] | None = None) -> dict[Key, int]:
    """Set each qualified striker's `defence` (in place) and the model's ball-weighted mean
    Defence (what a bowler meets); `held`: keep these ratings instead of choosing (the last
    pass's bowlers were solved against them). Returns the ratings given, by card."""
    ratings = np.arange(MAX_DEFENCE + 1)
    for f in cal.strikers:
        key = (f.kind, f.player_id, f.team)
        f.defence = 0
        if held is not None:
            f.defence = held.get(key, 0)
            continue
        if f.small_sample or key not in shares:
            continue
        real = real_target(f, factors)
        want = real.figures.get("dismissal_rate", 0.0)
        if want <= 0:
            continue
        card = np.repeat(np.asarray(f.slots, float)[None, :], len(ratings), axis=0)
        rate = Scorer(real, cal.model).figures(card, rule.mixture(shares[key], OUTCOMES),
                                               ratings / 20)["dismissal_rate"] / want - 1
        if rate[0] <= DEFENCE_FROM:
            continue
        f.defence = int(ratings[int(np.argmin(np.abs(rate)))])   # ties: the lower rating
    w = np.array([max(f.balls, 0) for f in cal.strikers], float)
    d = np.array([f.defence / 20 for f in cal.strikers])
    cal.model = replace(cal.model, mean_defence=float(w @ d / w.sum()) if w.sum() > 0 else 0.0)
    return {(f.kind, f.player_id, f.team): f.defence for f in cal.strikers if f.defence}


def resolve_bowlers(cal: Calibration, rule: WicketsInHand, shares: dict[Key, dict[str, float]],
                    factors: RuleFactors, situations: pd.DataFrame | None) -> None:
    """Solve the qualified bowler cards once more for the strikers' final mean Defence (in place;
    `factors` take the bowlers' new factors, the league means follow).

    In the factor passes a bowler meets the ratings only through his factors, measured on the
    previous pass's card (and a bowler's factor moves with his card's share of W, the one face
    a rating saves), and the last choice of the ratings moves their mean after the bowlers were
    solved. Here each factor is measured on the card the passes left, with the final mean, and
    the league's bowled share (which the ratings raise: they save only W) is put back on the
    real one as the passes do, by the bowled targets."""
    plain = replace(cal.model, mean_defence=0.0)
    fits = []
    for f in cal.bowlers:
        key = (f.kind, f.player_id, f.team)
        if f.small_sample or key not in shares:
            continue
        real = real_target(f, factors)
        got = Scorer(real, cal.model).figures(np.asarray(f.slots, float)[None, :],
                                              rule.mixture(shares[key], OUTCOMES))
        if real.figures.get("wicket_rate", 0) > 0 and \
                abs(float(got["wicket_rate"][0]) / real.figures["wicket_rate"] - 1) > RESOLVE_FROM:
            fits.append(f)
    for f in fits:
        key = (f.kind, f.player_id, f.team)
        real = real_target(f, factors)
        slots = np.asarray(f.slots, float)
        k = _ratios(Scorer(real, cal.model).figures(slots, rule.mixture(shares[key], OUTCOMES)),
                    Scorer(real, plain).figures(slots))
        f.target = replace(f.target, figures={n: v / k.get(n, 1.0) for n, v in real.figures.items()},
                           scales={n: v / k.get(n, 1.0) for n, v in real.scales.items()})
        factors.cards[key] = k
        f.target = replace(f.target, slot_prior={
            r: (float(f.slots[CARD_INDEX[r]]), PIN_WEIGHT) for r in ("F", "B")})
    kinds = cal.stats.league["dismissal_kinds"]
    real_share = (kinds.get("bowled", 0) + kinds.get("hit wicket", 0)) / max(game_dismissals(kinds), 1)
    mix = league_shares(situations, "striker")
    for _ in range(BOWLED_ROUNDS):
        for f in fits:
            f.slots = np.asarray(exact_card(f.target, plain), int)
        cal.model = replace(cal.model,
                            mean_bowler=ball_weighted_mean(cal.bowlers, [f.slots for f in cal.bowlers]))
        plain = replace(cal.model, mean_defence=0.0)
        league = cal.model.league(rule.mixture(mix, OUTCOMES) if mix is not None else None)
        share = league["dismissal_kinds"].get("bowled", 0.0)
        if not share or abs(real_share / share - 1) < 0.01:
            break
        for f in fits:
            f.target.figures["bowled"] *= real_share / share
            factors.cards[(f.kind, f.player_id, f.team)]["bowled"] = \
                factors.cards[(f.kind, f.player_id, f.team)].get("bowled", 1.0) / (real_share / share)
