"""Points: the runs a match a card's player adds (batting) or saves (bowling, fielding) over an
average player of the league the cards play in (issue 35, docs/league.md).

An innings is played here *exactly*: the distribution over the batting side's state before each
legal ball (wickets down, who is on strike, who at the other end) is carried forward through
every outcome of the engines' rules, wides and no-balls included (a no-ball's free hit, a wide
keeping it pending), run-outs at either end, the new batter at the dismissed batter's end,
ends changing on odd runs and at each over's (T20) or ten balls' (100-ball) end, and under the
advanced rules the wickets-in-hand band before every delivery and the strikers' Defence. So
the expected total of an innings of given cards, in a given order, against given bowling
(a bowler card, or a mixture of them, per over) and fielders is a number, not a sample: the
points carry no Monte Carlo noise, and `tests/test_sim_points.py` holds it to the vectorised
engine's mean over many innings.

The average side is the baseline league's: at each place in the order the ball-weighted mean
of the striker cards of its batters usually batting there, the mean bowler card in every over,
fielders at the league's mean ratings. A striker card's points are the runs its player adds
batting in his usual place; a bowler card's, the runs the opponents lose when he bowls his
usual overs (spread over the innings, as the engines' captain spreads them) in place of the
average bowler's; a player's fielding points, the runs they lose with his catching and
run-out ratings in place of one average fielder's (a keeper's: his keeping in place of the
average keeper's). Innings are played in full (no target), as a first innings is.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardgen.calibrate.expect import FieldingSkill, card_matrix, fielding_vector
from cardgen.calibrate.model import (ALL_OUT, BAT_RUNS, CARD_INDEX, EXTRA_RUNS, FREE_HIT_VOID, LEGAL, OUT,
                                     OUTCOMES, SLOTS)
from cardgen.wickets_in_hand import BANDS, WicketsInHand, band_table

XI = 11
# legal outcomes by what they do to the batters' ends
_RUNS = BAT_RUNS + EXTRA_RUNS * LEGAL           # runs of a legal delivery (a four of leg byes: 4)
_SWAP = np.zeros(len(OUTCOMES))
for _o in ("1", "3", "leg_bye", "bye"):
    _SWAP[OUT[_o]] = 1.0
_STRIKER_OUT = np.zeros(len(OUTCOMES))
for _o in ("bowled", "caught", "lbw", "stumped", "run_out_striker"):
    _STRIKER_OUT[OUT[_o]] = 1.0
_NON_STRIKER_OUT = np.zeros(len(OUTCOMES))
_NON_STRIKER_OUT[OUT["run_out_non_striker"]] = 1.0
_STAY = LEGAL - _SWAP - _STRIKER_OUT - _NON_STRIKER_OUT   # dots, 2, 4, 6, four byes / leg byes
_DOT = OUT["0"]


@dataclass(frozen=True)
class Format:
    """What an innings' shape needs: balls per over (a bowler's unit), per end, per innings."""
    balls_per_over: int
    balls_per_end: int
    balls_per_innings: int

    @property
    def units(self) -> int:
        return self.balls_per_innings // self.balls_per_over


T20 = Format(6, 6, 120)
HUNDRED = Format(5, 10, 100)


def format_named(name: str) -> Format:
    return HUNDRED if name == "100-ball" else T20


def side_skill(catch: list[float], run_out: list[float], keeper_slot: int,
               keeper: float) -> FieldingSkill:
    """The chances' success probabilities for one fielding XI, as the engines roll them: a catch
    chance goes to a random fielder of the eleven, a run-out chance with the keeper to one of
    the other ten with the keeper, a stumping chance to the keeper."""
    c, ro = np.asarray(catch, float), np.asarray(run_out, float)
    others = np.delete(ro, keeper_slot)
    return FieldingSkill(catch=float(c.mean() / 20), run_out_single=float(ro.mean() / 20),
                         run_out_with_keeper=float(np.minimum(others, ro[keeper_slot]).mean() / 20),
                         stumping=float(keeper / 20))


def _ball_terms(p: np.ndarray) -> tuple[np.ndarray, ...]:
    """From outcome probabilities (bands, batters, outcomes) before the free hit, what one legal
    ball does: expected runs (its own and the wides' and no-balls' before it), and the chances
    that the batters stay, cross, the striker is out, the non-striker is run out. Wides and
    no-balls do not move the batters; a no-ball makes the legal ball a free hit, a wide keeps
    one pending."""
    p_wide, p_nb = p[..., OUT["wide"]], p[..., OUT["no_ball"]]
    legal = 1.0 - p_wide - p_nb
    plain = p * LEGAL
    free = plain - plain * FREE_HIT_VOID
    free[..., _DOT] += (plain * FREE_HIT_VOID).sum(axis=-1)
    to_free = p_nb / (1.0 - p_wide)                      # the legal ball is a free hit
    q = ((1.0 - to_free)[..., None] * plain + to_free[..., None] * free) / legal[..., None]
    extra_runs = (p_wide + p_nb) / (1.0 - p_wide) + to_free * (1.0 - legal) / legal
    return (extra_runs + q @ _RUNS, q @ _STAY, q @ _SWAP, q @ _STRIKER_OUT, q @ _NON_STRIKER_OUT)


def innings_runs(batters: np.ndarray, defences: np.ndarray, bowling: np.ndarray,
                 cells: list[list[str]], skill: FieldingSkill, fmt: Format = T20,
                 rule: WicketsInHand | None = None) -> float:
    """The expected total of an innings played to its end: `batters` (11, 9) striker slot
    vectors in batting order, `defences` (11,) their Defence ratings / 20, `bowling` (units, 9)
    the bowler card (or the mixture of bowler cards) of each over or 5-ball set."""
    a = card_matrix(fielding_vector(cells, skill))
    return float(innings_runs_batch(np.asarray(batters, float)[None], np.asarray(defences, float)[None],
                                    np.asarray(bowling, float)[None], a[None], fmt, rule)[0])


def _deliveries(bowler: np.ndarray, batters: np.ndarray, defences: np.ndarray, a: np.ndarray,
                mats: list) -> np.ndarray:
    """(bands, B, 11, outcomes): one delivery of each innings' bowler (B, 9) to each of its
    batters (B, 11, 9), before the free hit; a batter's Defence turns that share of the bowler
    card's W into dots (R13), the rule's band matrix follows (R12)."""
    b = np.repeat(bowler[:, None, :], XI, axis=1)
    saved = b[..., CARD_INDEX["W"]] * defences
    b[..., CARD_INDEX["W"]] -= saved
    b[..., CARD_INDEX["0"]] += saved
    p = (0.5 * (b + batters) / SLOTS) @ a
    return np.stack([p if m is None else p @ m for m in mats])


def innings_runs_batch(batters: np.ndarray, defences: np.ndarray, bowling: np.ndarray,
                       a: np.ndarray, fmt: Format = T20, rule: WicketsInHand | None = None) -> np.ndarray:
    """`innings_runs` for B innings at once: batters (B, 11, 9), defences (B, 11), bowling
    (B, units, 9), chart matrices a (B, 9, outcomes) (each fielding side's chances)."""
    n_inn = len(batters)
    n = fmt.balls_per_innings
    bands = band_table(rule, n) if rule is not None else None
    mats = [rule.outcome_matrix(b, OUTCOMES) for b in range(len(BANDS))] if rule is not None else [None]
    state = np.zeros((n_inn, XI, XI, XI))   # [innings, wickets down, striker slot, non-striker slot]
    state[:, 0, 0, 1] = 1.0
    total = np.zeros(n_inn)
    same_every_unit = bool(np.all(bowling == bowling[:, :1]))
    terms: dict[int, tuple[np.ndarray, ...]] = {}      # unit -> per band: (B, 11 strikers) each
    w_in = np.arange(ALL_OUT - 1)          # wickets down after which a batter comes in (0..8)
    rows = np.arange(n_inn)[:, None]
    for ball in range(n):
        unit = 0 if same_every_unit else ball // fmt.balls_per_over
        if unit not in terms:
            terms = {unit: _ball_terms(_deliveries(bowling[:, unit], batters, defences, a, mats))}
        band_of = bands[:, n - ball] if bands is not None else np.zeros(XI, int)
        # (B, wickets, striker): each wickets-down row reads its band's terms
        runs, stay, swap, s_out, ns_out = (np.moveaxis(t[band_of], 0, 1) for t in terms[unit])
        total += (state.sum(axis=3) * runs).sum(axis=(1, 2))
        new = state * stay[..., None] + (state * swap[..., None]).transpose(0, 1, 3, 2)
        # striker out: the new batter (w + 2) takes his end; non-striker run out: the other end;
        # the tenth wicket ends the innings
        new[:, w_in + 1, w_in + 2, :] += (state[:, w_in] * s_out[:, w_in][..., None]).sum(axis=2)
        new[rows, w_in + 1, :, w_in + 2] += (state[:, w_in] * ns_out[:, w_in][..., None]).sum(axis=3)
        if (ball + 1) % fmt.balls_per_end == 0:
            new = new.transpose(0, 1, 3, 2)
        state = new
    return total


# --- the average side and each card's points ---------------------------------------------------

@dataclass
class AverageSide:
    """The baseline league's average side: at each place in the order the ball-weighted mean
    striker card of its batters usually batting there, the mean bowler card in every over,
    fielders at the league's mean ratings."""
    batters: np.ndarray          # (11, 9)
    defences: np.ndarray         # (11,) Defence / 20
    bowler: np.ndarray           # (9,)
    skill: FieldingSkill
    cells: list[list[str]]
    fmt: Format
    rule: WicketsInHand | None

    def bowling(self) -> np.ndarray:
        return np.repeat(self.bowler[None, :], self.fmt.units, axis=0)

    def runs(self, batters: np.ndarray | None = None, defences: np.ndarray | None = None,
             bowling: np.ndarray | None = None, skill: FieldingSkill | None = None) -> float:
        """An innings of the average side with any part replaced."""
        return innings_runs(self.batters if batters is None else batters,
                            self.defences if defences is None else defences,
                            self.bowling() if bowling is None else bowling, self.cells,
                            self.skill if skill is None else skill, self.fmt, self.rule)


def average_side(card_set: dict) -> AverageSide:
    """The average side of the league a card set plays in (for a league's set: its baseline)."""
    from cardgen.calibrate.expect import model_from_card_set
    from cardgen.calibrate.model import card_defence, chart_cells, chart_to_slots
    from cardgen.calibrate.expect import skill_from_card_set
    from cardgen.wickets_in_hand import rule_of_set
    model = model_from_card_set(card_set)
    average = (card_set.get("own_league") or {}).get("average")
    if average:   # a league's set: its baseline's average side, as recorded
        return AverageSide(np.array(average["batters"], float), np.array(average["batter_defences"], float),
                           model.mean_bowler, skill_from_card_set(card_set), chart_cells(card_set),
                           format_named(card_set.get("format", "T20")), rule_of_set(card_set))
    by_place: dict[int, list[tuple[float, np.ndarray, float]]] = {}
    for c in card_set["cards"]:
        if c["kind"] != "striker":
            continue
        place = min(max(int(c.get("position") or 11), 1), XI)
        balls = float((c.get("real") or {}).get("balls", 0))
        by_place.setdefault(place, []).append((balls, chart_to_slots(c["chart"]), card_defence(c) / 20))
    batters, defences = [], []
    for place in range(1, XI + 1):
        rows = by_place.get(place) or []
        w = np.array([r[0] for r in rows], float)
        if not rows or w.sum() <= 0:
            batters.append(model.mean_striker)
            defences.append(model.mean_defence)
            continue
        batters.append(w @ np.array([r[1] for r in rows], float) / w.sum())
        defences.append(float(w @ np.array([r[2] for r in rows]) / w.sum()))
    return AverageSide(np.array(batters), np.array(defences), model.mean_bowler,
                       skill_from_card_set(card_set), chart_cells(card_set),
                       format_named(card_set.get("format", "T20")), rule_of_set(card_set))


def bowler_units(card: dict, balls_per_over: int, max_units: int = 4) -> float:
    """A bowler card's usual overs (or 5-ball sets) an innings, at most the format's limit."""
    real = card.get("real") or {}
    innings = int((card.get("usage") or {}).get("innings") or real.get("innings") or 0)
    if innings <= 0:
        return 0.0
    return min(float(real.get("balls", 0)) / innings / balls_per_over, float(max_units))


@dataclass(frozen=True)
class CardPoints:
    batting: float = 0.0    # striker card: runs a match added batting in his usual place
    bowling: float = 0.0    # bowler card: runs a match saved bowling his usual overs
    fielding: float = 0.0   # the player's: runs saved by his catching, run-outs (and keeping)

    @property
    def total(self) -> float:
        return self.batting + self.bowling + self.fielding


BATCH = 256   # innings per batch of the exact play (memory: about 10 kB of state each)


def _batched(avg: AverageSide, batters: np.ndarray, defences: np.ndarray, bowling: np.ndarray,
             a: np.ndarray) -> np.ndarray:
    out = []
    for i in range(0, len(batters), BATCH):
        sl = slice(i, i + BATCH)
        out.append(innings_runs_batch(batters[sl], defences[sl], bowling[sl], a[sl], avg.fmt, avg.rule))
    return np.concatenate(out) if out else np.zeros(0)


def _avg_a(avg: AverageSide, k: int) -> np.ndarray:
    return np.repeat(card_matrix(fielding_vector(avg.cells, avg.skill))[None], k, axis=0)


def batting_points(avg: AverageSide, slots: np.ndarray, defences: np.ndarray, places: np.ndarray,
                   base: float | None = None) -> np.ndarray:
    """Runs each striker card (slots (B, 9), Defence / 20 (B,)) adds batting at its place
    (1..11) in the average side, against the average bowling."""
    base = avg.runs() if base is None else base
    slots = np.atleast_2d(np.asarray(slots, float))
    k = len(slots)
    batters = np.repeat(avg.batters[None], k, axis=0)
    defs = np.repeat(avg.defences[None], k, axis=0)
    at = np.clip(np.asarray(places, int), 1, XI) - 1
    batters[np.arange(k), at] = slots
    defs[np.arange(k), at] = np.asarray(defences, float)
    return _batched(avg, batters, defs, np.repeat(avg.bowling()[None], k, axis=0), _avg_a(avg, k)) - base


def bowling_points(avg: AverageSide, slots: np.ndarray, units: np.ndarray,
                   base: float | None = None) -> np.ndarray:
    """Runs each bowler card saves when he bowls `units` of the innings' overs in place of the
    average bowler, spread evenly (the engines' captain fixes a plan's overs without regard to
    the phase)."""
    base = avg.runs() if base is None else base
    slots = np.atleast_2d(np.asarray(slots, float))
    k = len(slots)
    share = np.minimum(np.asarray(units, float) / avg.fmt.units, 1.0)[:, None]
    mixed = avg.bowler[None] + share * (slots - avg.bowler[None])
    bowling = np.repeat(mixed[:, None, :], avg.fmt.units, axis=1)
    return base - _batched(avg, np.repeat(avg.batters[None], k, axis=0),
                           np.repeat(avg.defences[None], k, axis=0), bowling, _avg_a(avg, k))


def fielding_points(avg: AverageSide, catch: np.ndarray, run_out: np.ndarray,
                    keeper: np.ndarray, base: float | None = None) -> np.ndarray:
    """Runs each player saves with his C and RO in place of one average fielder's (a keeper,
    `keeper` > 0: and his keeping in place of the average keeper's)."""
    base = avg.runs() if base is None else base
    s = avg.skill
    one = 1.0 / XI
    mats = []
    for c, ro, k in zip(np.atleast_1d(catch), np.atleast_1d(run_out), np.atleast_1d(keeper)):
        ro_single = s.run_out_single + one * (ro / 20 - s.run_out_single)
        skill = FieldingSkill(catch=s.catch + one * (c / 20 - s.catch), run_out_single=ro_single,
                              run_out_with_keeper=s.run_out_with_keeper * ro_single / max(s.run_out_single, 1e-9),
                              stumping=k / 20 if k else s.stumping)
        mats.append(card_matrix(fielding_vector(avg.cells, skill)))
    n = len(mats)
    if not n:
        return np.zeros(0)
    return base - _batched(avg, np.repeat(avg.batters[None], n, axis=0),
                           np.repeat(avg.defences[None], n, axis=0),
                           np.repeat(avg.bowling()[None], n, axis=0), np.array(mats))


def side_points(avg: AverageSide, batters: np.ndarray, defences: np.ndarray, bowlers: np.ndarray,
                units: np.ndarray, catch: np.ndarray, run_out: np.ndarray, keeper_slot: int,
                keeper: float) -> CardPoints:
    """What a whole side adds a match over the average side, its XI together as it takes the
    field (not its players' points added up: two strong batters in one order, or a strong
    attack with a strong batting side, are not quite the sum of each alone). Batting: its XI
    (`batters` (11, 9) in order, `defences` (11,)) against the average bowling; bowling: its
    bowler cards (k, 9), each over the mixture of them by `units` (each bowler's expected overs
    of the innings), with average fielders; fielding: the same bowling with its XI's catching,
    run-out and keeping ratings."""
    base = avg.runs()
    u = np.asarray(units, float)
    mix = u @ np.atleast_2d(np.asarray(bowlers, float)) / max(u.sum(), 1e-9)
    bowling = np.repeat(mix[None], avg.fmt.units, axis=0)
    bowled = avg.runs(bowling=bowling)
    fielded = avg.runs(bowling=bowling, skill=side_skill(list(catch), list(run_out), keeper_slot, keeper))
    return CardPoints(batting=avg.runs(batters=np.asarray(batters, float),
                                       defences=np.asarray(defences, float)) - base,
                      bowling=base - bowled, fielding=bowled - fielded)
