"""Calibration that knows the wickets-in-hand rule.

Under the rule a card plays each delivery in a band (attack / normal / consolidate) set by the
match situation. Each player really batted or bowled in a known mix of those bands (the stats
layer's `situations` table), so his card is solved for his *neutral* figures: the real figure
divided by the factor the rule applies to that card over his own mix,

    k(figure) = figure(card under the rule over his bands) / figure(card as printed),

which depends a little on the card itself (attack acts on dots, consolidate on boundaries and
dismissals). The factors are measured on the solved cards and the season solved again for
RULE_ROUNDS passes (a closer start for the search below); the league's counts (what the small
samples are centred on and the fielding chart is planned for) are divided outcome by outcome
by the league-average delivery's factors over all real balls' bands
(`RuleFactors.neutral_league`). The factor pass gives the starting cards; each qualified card is
then searched whole slot by whole slot on its figures under the rule itself (`polish_for_rule`),
so over the situations he really faced each card reproduces its player's real season
(`expected` in the card set is that figure) without waiting on the factors to converge.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cardgen.calibrate.model import OUTCOMES
from cardgen.wickets_in_hand import BANDS, WicketsInHand

RULE_ROUNDS = 4          # factor passes before the search under the rule (2 left the medians twice as far out)
ROLE_OF_KIND = {"striker": "bat", "bowler": "bowl"}

Key = tuple[str, str, str]  # (kind, player id, team)


def band_shares(situations) -> dict[Key, dict[str, float]]:
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


def league_shares(situations, kind: str) -> dict[str, float] | None:
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
    for name, v in plain.items():
        v = float(v)
        out[name] = float(ruled[name]) / v if v > 1e-9 and float(ruled[name]) > 1e-9 else 1.0
    return out


def measure_factors(cal, rule: WicketsInHand, shares: dict[Key, dict[str, float]],
                    situations) -> RuleFactors:
    """The rule's factors on every solved card of `cal` (a `Calibration`) and on the league."""
    from cardgen.calibrate.solve import Scorer
    factors = RuleFactors()
    for fit in list(cal.strikers) + list(cal.bowlers):
        key = (fit.kind, fit.player_id, fit.team)
        if key not in shares:
            continue
        scorer = Scorer(fit.target, cal.model)
        slots = np.asarray(fit.slots, float)
        factors.cards[key] = _ratios(scorer.figures(slots, rule.mixture(shares[key], OUTCOMES)),
                                     scorer.figures(slots))
    mix = league_shares(situations, "striker")
    if mix is not None:   # outcome by outcome, on the league-average delivery over all real balls
        plain = cal.model.average_delivery()
        ruled = cal.model.average_delivery(rule.mixture(mix, OUTCOMES))
        factors.outcomes = {o: float(ruled[i] / plain[i]) if plain[i] > 1e-12 else 1.0
                            for i, o in enumerate(OUTCOMES)}
    return factors


def rule_matrix(rule: WicketsInHand | None, shares: dict[str, float] | None) -> np.ndarray | None:
    """The outcome matrix a card plays under (None: the rules as printed)."""
    if rule is None or not shares:
        return None
    return rule.mixture(shares, OUTCOMES)


# --- the last step: each qualified card searched directly under the rule ----------------------
# The factor pass solves for real / k with k measured on the previous pass's cards, and k moves
# with the card (attack turns dots into runs and dismissals, so a card solved for a lower neutral
# strike rate has more dots and a larger k): the fixed point settles slowly and not at all where
# whole slots flip a card between two neighbours (WPL 2023: strikers' strike rates came out
# 0.3-1% low, median 0.58%). So the factor pass only gives the starting card; each qualified card
# then moves whole slots (one or two at a time) to the card whose figures UNDER THE RULE, over
# his own bands, best fit his real season (the same weighted error the solver uses, in real
# figures): the card is solved for the rule itself, with no factor left to converge.
POLISH_ROUNDS = 3        # strikers then bowlers against the league means of the cards so far
POLISH_MAX_MOVES = 40    # per card and round (a card moves a handful of slots; a bound, not a tuning)
POLISH_MIN_GAIN = 1e-9   # relative improvement below which a move is a tie (no move)
# under the rule B and W differ (consolidate saves catches, not bowled), so the search could
# fit a wicket rate by trading W for B; the bowled figure weighs this many times its solve
# weight here to keep each card's bowled share, and so the league's
POLISH_BOWLED_WEIGHT = 10.0


def rule_target(target, k: dict[str, float]):
    """A card's target in real (under-the-rule) figures from its neutral target and factors."""
    from cardgen.calibrate.solve import Target
    return Target(target.kind, {n: v * k.get(n, 1.0) for n, v in target.figures.items()},
                  dict(target.weights), {n: v * k.get(n, 1.0) for n, v in target.scales.items()},
                  dict(target.slot_prior))


def _slot_moves(card: np.ndarray, allowed: list[int]) -> np.ndarray:
    """Every card one whole slot away from `card` (one slot from one allowed result to another)."""
    moves = [(i, j) for i in allowed if card[i] > 0 for j in allowed if j != i]
    out = np.repeat(card[None, :], len(moves), axis=0)
    for row, (i, j) in enumerate(moves):
        out[row, i] -= 1
        out[row, j] += 1
    return out


def search_under_rule(target, model, card: np.ndarray, rule_t: np.ndarray) -> np.ndarray:
    """Whole-slot descent of `card` on the weighted error of its figures under `rule_t`: single
    slot moves, then (where no single move helps) pairs of moves, which find the trades a single
    slot cannot make (one more single and one fewer six keeps the economy and removes a dot)."""
    from cardgen.calibrate.model import CARD_INDEX
    from cardgen.calibrate.solve import BOWLER_RESULTS, STRIKER_RESULTS, Scorer
    scorer = Scorer(target, model)
    results = STRIKER_RESULTS if target.kind == "striker" else BOWLER_RESULTS
    # F stays: it carries the bowler's wides and no-balls and the chart's share of deliveries
    # (the league's extras and LBWs), set by the solve and the chart-share trim
    allowed = [CARD_INDEX[r] for r in results if r != "F"]
    card = np.asarray(card, float).copy()
    best = float(scorer.error(card[None, :], scorer.figures(card[None, :], rule_t))[0])
    for _ in range(POLISH_MAX_MOVES):
        near = _slot_moves(card, allowed)
        err = scorer.error(near, scorer.figures(near, rule_t))
        i = int(np.argmin(err))
        if not err[i] < best - POLISH_MIN_GAIN * (1.0 + best):
            near = np.unique(np.concatenate([_slot_moves(c, allowed) for c in near]), axis=0)
            err = scorer.error(near, scorer.figures(near, rule_t))
            i = int(np.argmin(err))
            if not err[i] < best - POLISH_MIN_GAIN * (1.0 + best):
                break
        card, best = near[i], float(err[i])
    return card.astype(int)


def polish_for_rule(cal, rule: WicketsInHand, shares: dict[Key, dict[str, float]],
                    factors: RuleFactors) -> None:
    """Search every qualified card of `cal` directly under the rule (in place; `cal.model` gets
    the league means of the final cards). Small samples keep their factor-pass cards: their
    figures are shrunk estimates, and the chart-share trim has placed their F slots.

    B against W is a shape choice on one card but the league's bowled share adds them all up:
    the bowled figure weighs POLISH_BOWLED_WEIGHT times more here, and after each round the
    bowlers' bowled targets are scaled by the league's real / expected bowled share under the
    rule, as the solve's own bowled fix does (without both, The Hundred 2024's bowled share came
    out 2-4% off)."""
    from dataclasses import replace

    from cardgen.calibrate.calibrate import _weighted_mean, game_dismissals
    from cardgen.calibrate.model import OUTCOMES

    def means(model):
        return replace(model, mean_bowler=_weighted_mean(cal.bowlers, [f.slots for f in cal.bowlers]),
                       mean_striker=_weighted_mean(cal.strikers, [f.slots for f in cal.strikers]))
    kinds = cal.stats.league["dismissal_kinds"]
    real_bowled = (kinds.get("bowled", 0) + kinds.get("hit wicket", 0)) / max(game_dismissals(kinds), 1)
    league_t = rule.mixture(league_shares(cal.stats.situations, "striker"), OUTCOMES)
    targets = {}
    for f in cal.strikers + cal.bowlers:
        key = (f.kind, f.player_id, f.team)
        if not f.small_sample and key in shares:
            targets[key] = rule_target(f.target, factors.cards.get(key, {}))
            if "bowled" in targets[key].weights:
                targets[key].weights["bowled"] *= POLISH_BOWLED_WEIGHT
    model = means(cal.model)
    for _ in range(POLISH_ROUNDS):
        for fits in (cal.strikers, cal.bowlers):
            for f in fits:
                key = (f.kind, f.player_id, f.team)
                if key in targets:
                    f.slots = search_under_rule(targets[key], model, f.slots,
                                                rule.mixture(shares[key], OUTCOMES))
            model = means(model)
        got = model.league(league_t)["dismissal_kinds"].get("bowled", 0.0)
        if real_bowled > 0 and got > 0:
            for key, t in targets.items():
                if key[0] == "bowler" and "bowled" in t.figures:
                    t.figures["bowled"] *= real_bowled / got
    cal.model = model
