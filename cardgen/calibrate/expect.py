"""Exact expectation of play: per-delivery outcome probabilities from the charts, no simulation.

One delivery: d6 1-3 reads the bowler's card, 4-6 the striker's (each half the time); a card slot
is 1/100; `F` reads one of the fielding chart's 120 cells (d6 row x d20 column), and a chance
there succeeds with probability rating/20 (catch: a random fielder's C; run-out by one fielder:
his RO; run-out with the keeper: min(fielder RO, keeper RO); stumping: the keeper's rating).
A striker card's Defence rating d (rules R13) survives a W read from the bowler's card with
probability d/20 (the W is read as a dot). A no-ball makes the next delivery a free hit, on
which only run-outs dismiss (a dismissal roll becomes a dot); wides keep the free hit pending,
so the free-hit share of deliveries is P(no-ball) / (1 - P(wide)).

Everything is linear in the two cards except the free-hit correction, so "against the
league-average opponent" is simply against the ball-weighted mean card of the opposite kind.
The simulator's `validate` compares its Monte Carlo figures with `pairing_figures` /
`striker_figures` / `bowler_figures` here.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from cardgen.calibrate.model import (BAT_RUNS, EXTRA_RUNS, BOWLER_WICKET, CARD_INDEX, CARD_RESULTS,
                                     CHARGED_TO_BOWLER, FACED, FIELD_COLS, FIELD_ROWS,
                                     FREE_HIT_VOID, KIND_OF_OUTCOME, LEGAL, N_OUT, OUT, OUTCOMES,
                                     SLOTS, STRIKER_OUT)
from cardgen.cardset import Card, CardSet, Kind, as_card, as_card_set
from cardgen.wickets_in_hand import rule_of_set

# run-out rows of the fielding chart (rules 4.3.3 / 4.3.8): d6 -> (who is out, keeper involved)
RUN_OUT_ROWS = {1: ("striker", True), 2: ("striker", False), 3: ("striker", True),
                4: ("non_striker", True), 5: ("non_striker", False), 6: ("non_striker", True)}


@dataclass(frozen=True)
class FieldingSkill:
    """Success probabilities of the chances for a fielding side (league average by default)."""
    catch: float          # P(d20 <= C of a random fielder)
    run_out_single: float  # P(d20 <= RO of a random fielder)
    run_out_with_keeper: float  # P(d20 <= RO of the fielder and d20 <= RO of the keeper)
    stumping: float       # P(d20 <= keeper rating)

    @classmethod
    def from_ratings(cls, catch: Sequence[float] | np.ndarray, run_out: Sequence[float] | np.ndarray,
                     keeper: float | Sequence[float] | np.ndarray,
                     keeper_run_out: float | Sequence[float] | np.ndarray,
                     fielder_weights: np.ndarray | None = None,
                     keeper_weights: np.ndarray | None = None) -> FieldingSkill:
        """From rating lists: fielders (C, RO, optional weights) and keepers (rating, RO)."""
        c = np.asarray(catch, float)
        ro = np.asarray(run_out, float)
        k = np.atleast_1d(np.asarray(keeper, float))
        kro = np.atleast_1d(np.asarray(keeper_run_out, float))
        fw = np.ones_like(c) if fielder_weights is None else np.asarray(fielder_weights, float)
        kw = np.ones_like(k) if keeper_weights is None else np.asarray(keeper_weights, float)
        fw, kw = fw / fw.sum(), kw / kw.sum()
        pair = np.minimum(ro[:, None], kro[None, :]) / 20.0
        return cls(catch=float(fw @ c / 20.0), run_out_single=float(fw @ ro / 20.0),
                   run_out_with_keeper=float(fw @ pair @ kw), stumping=float(kw @ k / 20.0))


def fielding_vector(cells: list[list[str]], skill: FieldingSkill) -> np.ndarray:
    """Outcome probabilities given that the delivery went to the fielding chart."""
    if len(cells) != FIELD_ROWS or any(len(row) != FIELD_COLS for row in cells):
        raise ValueError("the fielding chart must be 6 rows of 20 cells")
    v = np.zeros(N_OUT)
    w = 1.0 / (FIELD_ROWS * FIELD_COLS)
    for r, row in enumerate(cells):
        who, with_keeper = RUN_OUT_ROWS[r + 1]
        for cell in row:
            if cell in ("bowled", "lbw", "caught", "stumped", "wide", "no_ball", "leg_bye", "bye",
                        "leg_bye_4", "bye_4", "0", "1", "2", "3", "4", "6"):
                v[OUT[cell]] += w
            elif cell == "run_out":
                v[OUT[f"run_out_{who}"]] += w
            elif cell == "catch_chance":  # dropped: 1 run off the bat
                v[OUT["caught"]] += w * skill.catch
                v[OUT["1"]] += w * (1 - skill.catch)
            elif cell == "run_out_chance":  # missed: 1 run off the bat
                p = skill.run_out_with_keeper if with_keeper else skill.run_out_single
                v[OUT[f"run_out_{who}"]] += w * p
                v[OUT["1"]] += w * (1 - p)
            elif cell == "stumping_chance":  # missed: dot
                v[OUT["stumped"]] += w * skill.stumping
                v[OUT["0"]] += w * (1 - skill.stumping)
            else:
                raise ValueError(f"unknown fielding result {cell!r}")
    return v


def card_matrix(field_vec: np.ndarray) -> np.ndarray:
    """Rows: card results (CARD_RESULTS order); columns: outcome probabilities given that result."""
    a = np.zeros((len(CARD_RESULTS), N_OUT))
    a[CARD_INDEX["B"], OUT["bowled"]] = 1.0
    a[CARD_INDEX["W"], OUT["caught"]] = 1.0
    a[CARD_INDEX["F"]] = field_vec
    for r in ("0", "1", "2", "3", "4", "6"):
        a[CARD_INDEX[r], OUT[r]] = 1.0
    return a


def defended(bowler_slots: np.ndarray, defence: float | np.ndarray) -> np.ndarray:
    """The bowler card's slots as a striker with Defence survival probability `defence` (his
    rating / 20, rules R13) meets them: that share of its W slots reads as a dot."""
    b = np.array(bowler_slots, float)
    d = np.asarray(defence, float)
    if not np.any(d):
        return b
    w, dot = CARD_INDEX["W"], CARD_INDEX["0"]
    if b.ndim == 1 and d.ndim > 0:
        b = np.broadcast_to(b, d.shape + b.shape).copy()
    saved = b[..., w] * d
    b[..., w] -= saved
    b[..., dot] += saved
    return b


def defended_matrix(a: np.ndarray, defence: float) -> np.ndarray:
    """The chart matrix as the bowler's half reads it against Defence `defence` (R13): slots @
    defended_matrix(a, d) == defended(slots, d) @ a."""
    if not defence:
        return a
    out = np.array(a, float)
    w, dot = CARD_INDEX["W"], CARD_INDEX["0"]
    out[w] = (1 - defence) * a[w] + defence * a[dot]
    return out


def delivery(bowler_slots: np.ndarray, striker_slots: np.ndarray, a: np.ndarray,
             free_hit: bool = True, rule: np.ndarray | None = None,
             defence: float | np.ndarray = 0.0) -> np.ndarray:
    """Outcome probabilities of one delivery (broadcasts over leading axes of the slot arrays).

    `rule`: the wickets-in-hand rule as an outcome matrix (`WicketsInHand.mixture`: the bands
    averaged over a player's situations), applied before the free hit as the engines do (R12).
    `defence`: the striker's Defence rating / 20 (R13; against the league-average striker, the
    ball-weighted mean of it), rolled on the bowler card's W before the rule's die."""
    bowler = defended(bowler_slots, defence)
    p = (0.5 * (bowler + np.asarray(striker_slots, float)) / SLOTS) @ a
    if rule is not None:
        p = p @ rule
    if free_hit:
        q = p[..., OUT["no_ball"]] / (1.0 - p[..., OUT["wide"]])
        void = p * FREE_HIT_VOID
        p = p - q[..., None] * void
        p[..., OUT["0"]] += q * void.sum(axis=-1)
    return p


def _dots(p: np.ndarray) -> np.ndarray:
    """Balls faced with no run off the bat (as the stats tables count dots)."""
    return p @ FACED - p @ (BAT_RUNS > 0).astype(float)


def striker_figures(p: np.ndarray, non_striker_run_out: float | np.ndarray) -> dict[str, np.ndarray]:
    """Per ball faced. `non_striker_run_out`: P(he is run out backing up) per delivery his partner
    faces; he spends as many deliveries at the other end as on strike, so it adds per delivery."""
    faced = p @ FACED
    return {
        "strike_rate": 100 * (p @ BAT_RUNS) / faced,
        "dismissal_rate": (p @ STRIKER_OUT + non_striker_run_out) / faced,
        "fours": p[..., OUT["4"]] / faced,
        "sixes": p[..., OUT["6"]] / faced,
        "dots": _dots(p) / faced,
    }


def bowler_figures(p: np.ndarray) -> dict[str, np.ndarray]:
    """Per legal ball; economy = 6 x runs charged to the bowler per legal ball."""
    legal = p @ LEGAL
    return {
        "economy": 6 * (p @ (BAT_RUNS + CHARGED_TO_BOWLER)) / legal,
        "wicket_rate": (p @ BOWLER_WICKET) / legal,
        "fours": p[..., OUT["4"]] / legal,
        "sixes": p[..., OUT["6"]] / legal,
        "dots": _dots(p) / legal,
        "wides": p[..., OUT["wide"]] / legal,
        "no_balls": p[..., OUT["no_ball"]] / legal,
    }


def league_figures(p: np.ndarray) -> dict[str, float | dict[str, float]]:
    """League-level figures of an (average bowler, average striker) delivery distribution."""
    legal = float(p @ LEGAL)
    faced = float(p @ FACED)
    outs = {o: float(p[OUT[o]]) for o in KIND_OF_OUTCOME}
    total_outs = sum(outs.values())
    kinds: dict[str, float] = {}
    for o, k in KIND_OF_OUTCOME.items():
        kinds[k] = kinds.get(k, 0.0) + outs[o] / total_outs
    return {
        "runs_per_ball": float(p @ (BAT_RUNS + EXTRA_RUNS)) / legal,
        "strike_rate": 100 * float(p @ BAT_RUNS) / faced,
        "economy": 6 * float(p @ (BAT_RUNS + CHARGED_TO_BOWLER)) / legal,
        "wides_per_ball": float(p[OUT["wide"]]) / legal,
        "no_balls_per_ball": float(p[OUT["no_ball"]]) / legal,
        # deliveries, as the league counts them (a four of leg byes is one)
        "leg_byes_per_ball": float(p[OUT["leg_bye"]] + p[OUT["leg_bye_4"]]) / legal,
        "byes_per_ball": float(p[OUT["bye"]] + p[OUT["bye_4"]]) / legal,
        "dismissals_per_ball": total_outs / legal,
        "dismissal_kinds": kinds,
    }


@dataclass
class LeagueModel:
    """Everything needed to evaluate cards against the league: chart matrix and average cards."""
    a: np.ndarray
    mean_bowler: np.ndarray
    mean_striker: np.ndarray
    free_hit: bool = True
    mean_defence: float = 0.0   # the league-average striker's Defence survival share (R13)

    @property
    def a_bowler(self) -> np.ndarray:
        """The chart matrix of a bowler card's half against the league-average striker."""
        return defended_matrix(self.a, self.mean_defence)

    @property
    def non_striker_run_out(self) -> float:
        """P(the non-striker is run out) per delivery in the league-average pairing."""
        return float(self.average_delivery()[OUT["run_out_non_striker"]])

    def average_delivery(self, rule: np.ndarray | None = None) -> np.ndarray:
        return delivery(self.mean_bowler, self.mean_striker, self.a, self.free_hit, rule,
                        self.mean_defence)

    def striker(self, slots: np.ndarray, rule: np.ndarray | None = None,
                defence: float | np.ndarray = 0.0) -> dict[str, np.ndarray]:
        """A striker card (or stack of cards) against the league-average bowler (`rule`: the
        wickets-in-hand rule's matrix over his situations; run-outs, and so the non-striker's,
        are untouched by it; `defence`: his Defence rating / 20)."""
        return striker_figures(delivery(self.mean_bowler, slots, self.a, self.free_hit, rule,
                                        defence), self.non_striker_run_out)

    def bowler(self, slots: np.ndarray, rule: np.ndarray | None = None) -> dict[str, np.ndarray]:
        """A bowler card (or stack) against the league-average striker (his mean Defence too)."""
        return bowler_figures(delivery(slots, self.mean_striker, self.a, self.free_hit, rule,
                                       self.mean_defence))

    def league(self, rule: np.ndarray | None = None) -> dict:
        return league_figures(self.average_delivery(rule))


def skill_from_card_set(card_set: CardSet | dict) -> FieldingSkill:
    """League-average fielding skill from a card set's printed ratings (one entry per player and
    team; weights: matches and matches kept when the set records them, else equal)."""
    card_set = as_card_set(card_set)
    seen: dict[tuple[str, str], Card] = {}
    for c in card_set.cards:
        seen.setdefault(c.key, c)
    if card_set.fielding is not None:
        f = card_set.fielding
        return FieldingSkill(f["catch"], f["run_out_single"], f["run_out_with_keeper"], f["stumping"])

    def rating(value: int | None) -> int:
        return 10 if value is None else value
    players = [c.player for c in seen.values()]
    keepers = [p for p in players if p.keeper]
    return FieldingSkill.from_ratings([rating(p.catch) for p in players], [rating(p.run_out) for p in players],
                                      [rating(p.keeper) for p in keepers] or [10],
                                      [rating(p.run_out) for p in keepers] or [10])


def model_from_card_set(card_set: CardSet | dict) -> LeagueModel:
    """The league model a written card set implies (fielders at the set's average ratings). A
    league's set (`own_league`, docs/league.md) plays against its baseline's average opponent,
    which it records; a season's is the ball-weighted mean of its own cards."""
    card_set = as_card_set(card_set)
    skill = skill_from_card_set(card_set)
    a = card_matrix(fielding_vector(card_set.game_cells(), skill))
    average = card_set.own_league.average if card_set.own_league is not None else None
    if average:
        return LeagueModel(a, np.array(average["bowler"], float), np.array(average["striker"], float),
                           mean_defence=float(average.get("defence", 0.0)))

    def ball_weighted_mean(kind: Kind, of: Callable[[Card], np.ndarray | float]) -> np.ndarray:
        cards = card_set.kind_cards(kind)
        w = np.array([max(c.real.balls or 0, 0) for c in cards], float)
        x = np.array([of(c) for c in cards], float)
        return (w @ x) / w.sum() if w.sum() > 0 else x.mean(axis=0)

    return LeagueModel(a, ball_weighted_mean("bowler", Card.slots), ball_weighted_mean("striker", Card.slots),
                       mean_defence=float(ball_weighted_mean("striker", defence_of)))


def defence_of(card: Card | dict) -> float:
    """A written card's Defence survival probability (its rating / 20; 0 without one, R13)."""
    return as_card(card).defence_rating / 20


def rule_matrix_of(card_set: CardSet | dict, card: Card | dict) -> np.ndarray | None:
    """The outcome matrix a written card plays under: the set's rule (the wickets-in-hand rule)
    over the card's `situations` (its player's real band shares); None for the printed rules."""
    rule = rule_of_set(card_set)
    shares = as_card(card).situations
    return rule.mixture(shares, OUTCOMES) if rule is not None and shares else None


def pairing_figures(card_set: CardSet | dict, bowler_id: str, striker_id: str) -> dict:
    """Expected figures of one bowler card against one striker card, with the set's fielding chart
    and league-average fielders: the exact reference for a simulated head-to-head."""
    card_set = as_card_set(card_set)
    model = model_from_card_set(card_set)
    by = {(c.player.id, c.kind): c for c in card_set.cards}
    bowler, striker = by[(bowler_id, "bowler")], by[(striker_id, "striker")]
    p = delivery(bowler.slots(), striker.slots(), model.a, model.free_hit, defence=defence_of(striker))
    return {"outcomes": dict(zip(OUTCOMES, map(float, p))),
            "striker": {k: float(v) for k, v in striker_figures(p, 0.0).items()},
            "bowler": {k: float(v) for k, v in bowler_figures(p).items()}}
