"""Calibration report: per card real vs expected figures, errors, and cards outside tolerance."""
from __future__ import annotations

import statistics
from typing import TYPE_CHECKING, TypedDict

import numpy as np

from cardgen.calibrate.calibrate import SMALL_SAMPLE_BALLS
from cardgen.calibrate.weights import game_dismissals
from cardgen.cardset import MAX_DEFENCE, Card, CardSet, Expected, Kind, Situations, as_card, as_card_set

if TYPE_CHECKING:
    from cardgen.calibrate.expect import LeagueModel

SR_TOL, ECON_TOL, RATE_TOL = 0.02, 0.02, 0.05
LEAGUE_TOL = 0.02
ROUNDING_SLACK = 0.002   # relative: expected figures are stored to 3-5 significant digits


def reachable(card_set: CardSet | dict, card: Card | dict, model: LeagueModel | None = None,
              both: bool = False) -> bool:
    """Whether a headline figure this card misses (strike rate or economy outside 2%, dismissal
    or wicket rate outside 5%) could be brought within tolerance WITHOUT the card's other
    headline figure getting worse than it is (or than its own tolerance), against the set's
    league-average opponent, under the set's rule over the player's own bands, by re-spending
    the card's W and run slots (1, 2, 4, 6); a card that misses neither is within reach (True)
    unless `both` asks the LP. Its F, B and dot slots stay: F is set by a bowler's
    own wides and no-balls (on a striker card, the league's split of the chart), B by the
    league's bowled share, and the dots by his dot-ball rate (under the rule a dot is also where
    the attack band's runs and dismissals come from, so a card with no dots could shave a wicket
    rate a little; that is not his card); a striker's Defence rating (R13) stays as calibrated.

    With F fixed a delivery's outcome probabilities are affine in the other slots (wides and
    no-balls, hence free hits, come only through F, and the rule acts on outcomes), and each
    figure is a ratio of two linear functions of the slots, so each bound is a linear
    inequality: a feasibility LP over real-valued slots. If no real-valued card is feasible, no
    printed card is: the miss is structural (the card is at its limit). A qualified card whose
    miss IS reachable is a fitting fault. `both`: whether some such card meets both headline
    figures within tolerance (a card within tolerance always does: itself)."""
    from scipy.optimize import linprog

    from cardgen.calibrate.expect import (defence_of, delivery, model_from_card_set,
                                          rule_matrix_of)
    from cardgen.calibrate.model import (BAT_RUNS, BOWLER_WICKET, CARD_INDEX, CHARGED_TO_BOWLER,
                                         FACED, LEGAL, SLOTS, STRIKER_OUT)
    card_set, card = as_card_set(card_set), as_card(card)
    model = model or model_from_card_set(card_set)
    rule = rule_matrix_of(card_set, card)
    real, exp, balls = card.real, card.expected or Expected(), card.real.balls or 0
    runs, dismissals = real.runs or 0, real.dismissals or 0
    if not balls:
        return True
    striker = card.kind == "striker"
    free = ("W", "1", "2", "4", "6")
    held = card.slots().astype(float)
    for r in free:
        held[CARD_INDEX[r]] = 0.0
    spend = SLOTS - held.sum()
    if spend <= 0:
        return False
    vertices = np.repeat(held[None, :], len(free), axis=0)
    for i, r in enumerate(free):
        vertices[i, CARD_INDEX[r]] += spend
    # per figure: numerator and denominator at each vertex, real value, expected, tolerance
    if striker:
        p = delivery(model.mean_bowler, vertices, model.a, model.free_hit, rule,
                     defence_of(card))
        ns = model.non_striker_run_out
        figures = ((p @ BAT_RUNS, p @ FACED, runs / balls, exp["strike_rate"] / 100,
                    SR_TOL),
                   (p @ STRIKER_OUT + ns, p @ FACED, dismissals / balls,
                    exp["dismissal_rate"], RATE_TOL))
    else:
        p = delivery(vertices, model.mean_striker, model.a, model.free_hit, rule,
                     model.mean_defence)
        figures = ((p @ (BAT_RUNS + CHARGED_TO_BOWLER), p @ LEGAL, runs / balls,
                    exp["economy"] / 6, ECON_TOL),
                   (p @ BOWLER_WICKET, p @ LEGAL, dismissals / balls,
                    exp["wicket_rate"], RATE_TOL))
    missed = [i for i, (_, _, v, e, tol) in enumerate(figures) if abs(e - v) > tol * v]
    if not missed and not both:
        return True   # nothing missed: the card itself is within reach
    for fix in ([None] if both else missed):
        rows = []
        for i, (num, den, v, e, tol) in enumerate(figures):
            # the other: no worse (plus the rounding of the set's printed expected figures)
            gap = tol * v if fix in (i, None) else max(tol * v, abs(e - v) + ROUNDING_SLACK * v)
            rows += [num - (v + gap) * den, (v - gap) * den - num]
        lp = linprog(np.zeros(len(free)), A_ub=np.array(rows), b_ub=np.zeros(len(rows)),
                     A_eq=np.ones((1, len(free))), b_eq=[1.0], bounds=(0, None), method="highs")
        if lp.status != 2:  # only a proof of infeasibility says out of reach (not a solver's
            return True     # iteration limit or numerical trouble)
    return False


def _rel(expected: float, real: float) -> float | None:
    return None if not real else expected / real - 1


class _CardRow(TypedDict):
    name: str
    id: str
    team: str
    kind: Kind
    balls: int
    real_main: float | None  # strike rate or economy (None: no balls)
    expected_main: float
    main_error: float | None  # relative: expected / real - 1 (None: no real figure)
    real_rate: float | None  # dismissal or wicket rate
    expected_rate: float
    rate_error: float | None
    real_fours: float | None  # per ball
    expected_fours: float
    real_sixes: float | None
    expected_sixes: float
    small_sample: bool
    defence: int
    outside: list[str]  # why a qualified card is outside tolerance (empty: it is not)


class CardRow(_CardRow, total=False):
    """A card's line of the calibration report (`card_rows`)."""
    reachable: bool  # only on a card outside tolerance: whether its misses are `reachable`


def card_rows(card_set: CardSet | dict) -> list[CardRow]:
    """One row per card: real and expected headline figures and relative errors; a qualified card
    outside tolerance says why, and whether its figures are `reachable` at all."""
    from cardgen.calibrate.expect import model_from_card_set
    card_set = as_card_set(card_set)
    model = None
    rows: list[CardRow] = []
    for c in card_set.cards:
        real, exp = c.real, c.expected or Expected()
        balls, runs, dismissals = real.balls or 0, real.runs or 0, real.dismissals or 0
        if c.kind == "striker":
            r_sr = 100 * runs / balls if balls else None
            r_rate = dismissals / balls if balls else None
            e_sr, e_rate = exp["strike_rate"], exp["dismissal_rate"]
        else:
            r_sr = 6 * runs / balls if balls else None
            r_rate = dismissals / balls if balls else None
            e_sr, e_rate = exp["economy"], exp["wicket_rate"]
        row: CardRow = {"name": c.player.name, "id": c.player.id, "team": c.team,
                        "kind": c.kind, "balls": balls, "real_main": r_sr, "expected_main": e_sr,
                        "main_error": _rel(e_sr, r_sr) if r_sr else None,
                        "real_rate": r_rate, "expected_rate": e_rate,
                        "rate_error": _rel(e_rate, r_rate) if r_rate else None,
                        "real_fours": (real.fours or 0) / balls if balls else None,
                        "expected_fours": exp["fours"],
                        "real_sixes": (real.sixes or 0) / balls if balls else None,
                        "expected_sixes": exp["sixes"], "small_sample": bool(c.small_sample),
                        "defence": c.defence_rating, "outside": []}
        # a qualified card has balls, hence both real figures
        if balls >= SMALL_SAMPLE_BALLS and r_sr is not None and r_rate is not None:
            row["outside"] = _misses(c, row, r_sr, r_rate)
        reasons = row["outside"]
        if reasons:
            model = model or model_from_card_set(card_set)
            row["reachable"] = reachable(card_set, c, model)
            if not row["reachable"]:
                reasons.insert(0, "at its limit (no card with its F, B and dot slots brings the "
                               "missed figure within tolerance without the other getting worse"
                               + (" under the rule" if c.situations else "") + ")")
        rows.append(row)
    return rows


def _misses(card: Card, row: CardRow, real_main: float, real_rate: float) -> list[str]:
    """Why a qualified card (its `row`) is outside tolerance: empty if it is not."""
    reasons = []
    striker = card.kind == "striker"
    tol_main = SR_TOL if striker else ECON_TOL
    if row["main_error"] is not None and abs(row["main_error"]) > tol_main:
        reasons.append(_reason(card, "strike rate" if striker else "economy", real_main,
                               row["expected_main"]))
    if real_rate == 0:
        if row["expected_rate"] > 0:
            reasons.append("never dismissed/no wickets: the opponent's half of every "
                           "delivery still carries dismissals (unreachable: rate > 0)")
    elif row["rate_error"] is not None and abs(row["rate_error"]) > RATE_TOL:
        reasons.append(_reason(card, "dismissal rate" if striker else "wicket rate", real_rate,
                               row["expected_rate"]))
    return reasons


# a scoring miss this share of a card's balls in the attack band is said to come from there
ATTACK_SAID_FROM = 0.25


def attack_band_scoring(card: Card) -> float | None:
    """The card's share of real balls in the rule's attack band when it scores more than its
    player's real season by more than the calibration's tolerance (strike rate or economy) and
    that share is ATTACK_SAID_FROM or more, else None. The attack d20 rolls a dot again
    whoever's card it came off, so a death bowler's dots (Bumrah, Pathirana) and a finisher's
    (Miller) score like anyone's there (docs/rules.md R12): where such a card misses, that is
    why."""
    attack = float((card.situations or Situations()).get("attack", 0.0))
    real, exp = card.real, card.expected or Expected()
    balls = real.balls or 0
    if attack < ATTACK_SAID_FROM or not balls:
        return None
    if card.kind == "striker":
        over = exp.get("strike_rate", 0.0) > (1 + SR_TOL) * 100 * (real.runs or 0) / balls
    else:
        over = exp.get("economy", 0.0) > (1 + ECON_TOL) * 6 * (real.runs or 0) / balls
    return attack if over else None


def _reason(card: Card, what: str, real: float, expected: float) -> str:
    """Why a qualified card misses, with the gap (and, for a card scoring more than its player's
    real season mostly in the attack band, that the attack d20 plays its dots)."""
    why = _why(card, what, real, expected)
    attack = attack_band_scoring(card)
    if attack is not None and not ("dismissal" in what or "wicket" in what):
        why += (f"; {100 * attack:.0f}% of the real balls were in the attack band, where the d20 "
                f"rolls a dot off either card again, for four or six on the league's faces")
    return why


def _why(card: Card, what: str, real: float, expected: float) -> str:
    slots = {r.result: r.hi - r.lo + 1 for r in card.chart}
    gap = f"real {real:.4g}, expected {expected:.4g} ({100 * (expected / real - 1):+.1f}%)"
    opponent = "bowler" if card.kind == "striker" else "striker"
    rate = "dismissal" in what or "wicket" in what
    if rate and expected > real and slots.get("W", 0) == 0 and slots.get("B", 0) == 0:
        defence = card.defence_rating
        if defence:   # R13: the rating saves only the bowler card's W
            return (f"{what} {gap}: unreachable, the card is at 0 W/B slots and Defence {defence}, "
                    f"and the outs a rating cannot save (the fielding chart's, the attack die's"
                    f"{'' if defence == MAX_DEFENCE else ', the W it lets stand'}) alone dismiss "
                    f"more often")
        return (f"{what} {gap}: unreachable, the card is at 0 W/B slots and the league-average "
                f"{opponent}'s half of each delivery alone dismisses more often")
    scoring = sum(slots.get(r, 0) for r in ("1", "2", "3", "4", "6"))
    if not rate and expected > real and scoring == 0:
        return (f"{what} {gap}: unreachable, no runs left on the card and the league-average "
                f"{opponent}'s half alone scores more")
    if not rate and expected < real and slots.get("6", 0) == sum(slots.get(r, 0) for r in ("0", "1", "2", "4", "6")):
        return f"{what} {gap}: unreachable, every run slot is already a six"
    if card.kind == "bowler" and not rate:
        r, e = card.real, card.expected or Expected()
        balls = r.balls or 1
        r_x = ((r.wides or 0) + (r.no_balls or 0)) / balls
        e_x = e.get("wides", 0) + e.get("no_balls", 0)
        return (f"{what} {gap}: wides+no-balls per ball {e_x:.4f} expected vs {r_x:.4f} real "
                f"(the card's F slots carry them and also dismissals)")
    return f"{what} {gap}: whole-slot resolution against the other figures on the card"


class KindSummary(TypedDict):
    """One deck's qualified cards (SMALL_SAMPLE_BALLS or more) in `summary`."""
    cards: int
    main_within: int  # strike rate or economy within tolerance
    rate_within: int  # dismissal or wicket rate within tolerance
    median_main_error: float | None  # relative, absolute value (None: no card has one)
    median_rate_error: float | None


class Summary(TypedDict):
    striker: KindSummary
    bowler: KindSummary
    league: dict[str, float]  # `league_errors`


def _kind_summary(rows: list[CardRow], kind: Kind, tol_main: float) -> KindSummary:
    k = [r for r in rows if r["kind"] == kind]
    main = [abs(r["main_error"]) for r in k if r["main_error"] is not None]
    rate = [abs(r["rate_error"]) for r in k if r["rate_error"] is not None]
    return {"cards": len(k),
            "main_within": sum(e <= tol_main for e in main),
            "rate_within": sum(e <= RATE_TOL for e in rate),
            "median_main_error": statistics.median(main) if main else None,
            "median_rate_error": statistics.median(rate) if rate else None}


def summary(card_set: CardSet | dict) -> Summary:
    card_set = as_card_set(card_set)
    rows = [r for r in card_rows(card_set) if r["balls"] >= SMALL_SAMPLE_BALLS]
    return {"striker": _kind_summary(rows, "striker", SR_TOL),
            "bowler": _kind_summary(rows, "bowler", ECON_TOL),
            "league": league_errors(card_set)}


def league_errors(card_set: CardSet | dict) -> dict[str, float]:
    card_set = as_card_set(card_set)
    L, E = card_set.league or {}, card_set.expected_league or {}
    legal = L["legal_balls"]
    # extras by deliveries, as the game plays them (one run each); their runs beyond one per
    # ball are carried as runs off the bat, so runs_per_ball still counts every real run
    real = {"runs_per_ball": L["runs_total"] / legal, "wides_per_ball": L["wide_balls"] / legal,
            "no_balls_per_ball": L["no_ball_balls"] / legal,
            "leg_byes_per_ball": L["leg_bye_balls"] / legal}
    errors = {k: E[k] / v - 1 for k, v in real.items() if v}
    kinds = L["dismissal_kinds"]
    game = {"bowled": ("bowled", "hit wicket"), "caught": ("caught", "caught and bowled"),
            "lbw": ("lbw",), "run out": ("run out",), "stumped": ("stumped",)}
    total = game_dismissals(kinds)
    for g, ks in game.items():
        share = sum(kinds.get(k, 0) for k in ks) / total if total else 0
        if share:
            errors[f"share_{g.replace(' ', '_')}"] = E["dismissal_kinds"].get(g, 0) / share - 1
    return errors


def _pct(expected: float | None, real: float | None) -> float | None:
    return None if expected is None or not real else 100 * (expected / real - 1)


def format_report(card_set: CardSet | dict) -> str:
    card_set = as_card_set(card_set)
    rows = card_rows(card_set)
    lines = [f"Calibration report: {card_set.competition.code} {card_set.season}",
             "kind     name                      balls   real   exp    err%  | rate real  exp     err%  | 4s/b real exp   err%  | 6s/b real exp   err%"]
    for r in sorted(rows, key=lambda r: (r["kind"], -r["balls"])):
        def f(x: float | None, spec: str) -> str:
            return format(x, spec) if x is not None else "-"
        lines.append(
            f"{r['kind']:<8} {r['name'][:25]:<25} {r['balls']:>5} {f(r['real_main'], '7.2f')} "
            f"{f(r['expected_main'], '7.2f')} {f(r['main_error'] and 100 * r['main_error'], '+6.2f')} | "
            f"{f(r['real_rate'], '.4f')} {f(r['expected_rate'], '.4f')} "
            f"{f(r['rate_error'] and 100 * r['rate_error'], '+6.1f')} | "
            f"{f(r['real_fours'], '.3f')} {f(r['expected_fours'], '.3f')} "
            f"{f(_pct(r['expected_fours'], r['real_fours']), '+6.1f')} | "
            f"{f(r['real_sixes'], '.3f')} {f(r['expected_sixes'], '.3f')} "
            f"{f(_pct(r['expected_sixes'], r['real_sixes']), '+6.1f')}"
            + (" small_sample" if r["small_sample"] else "")
            + (f" Defence {r['defence']}" if r["defence"] else ""))
    s = summary(card_set)
    lines.append("")
    for kind, label, k in (("striker", "SR", s["striker"]), ("bowler", "economy", s["bowler"])):
        lines.append(f"{kind}s with >= {SMALL_SAMPLE_BALLS} balls: {k['cards']}; {label} within "
                     f"+/-2%: {k['main_within']}; rate within +/-5%: {k['rate_within']}; median |error| "
                     f"{label} {100 * (k['median_main_error'] or 0):.2f}%, rate "
                     f"{100 * (k['median_rate_error'] or 0):.2f}%")
    rated = [r for r in rows if r["defence"]]
    if rated:
        lines.append(f"Defence ratings (rules R13): {len(rated)} striker cards, "
                     f"{min(r['defence'] for r in rated)}-{max(r['defence'] for r in rated)}")
    lines.append("league: " + ", ".join(f"{k} {100 * v:+.2f}%" for k, v in s["league"].items()))
    outside = [r for r in rows if r["outside"]]
    lines.append(f"cards outside tolerance: {len(outside)}")
    for r in outside:
        lines.append(f"  {r['kind']} {r['name']} ({r['team']}, {r['balls']} balls): " + "; ".join(r["outside"]))
    return "\n".join(lines)
