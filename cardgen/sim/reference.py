"""The reference engine: Quicket Cricket played one delivery at a time, as a person would.

Readable rather than fast; the rules tests drive it with scripted dice, and the vectorised engine
(`cardgen.sim.fast`) is tested against it. Rule numbers (3.4.2, 4.3.8, ...) are the rules text's;
R-numbers are the decisions in docs/rules.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


from cardgen import wickets_in_hand as wih
from cardgen.calibrate.model import DEFAULT_KEEPER
from cardgen.sim import model as m
from cardgen.sim.model import CompiledSet, Side
from cardgen.wickets_in_hand import WicketsInHand


class IntegerSource(Protocol):
    def integers(self, low: int, high: int) -> int: ...


class Dice:
    """Every roll of the game, each one draw from the one generator (`integers(low, high)`)."""

    def __init__(self, rng: IntegerSource) -> None:
        self.rng = rng

    def d6(self) -> int:
        return int(self.rng.integers(1, 7))

    def d20(self) -> int:
        return int(self.rng.integers(1, 21))

    def percentile(self) -> int:
        """2d10 read as 1..100 (tens and units, 00 = 100): one uniform draw on 1..100."""
        return int(self.rng.integers(1, 101))

    def begin_delivery(self) -> None:
        """Called before each delivery's rolls (a hook for tests that script whole deliveries)."""

    def rule_d20(self) -> int:
        """The wickets-in-hand rule's extra d20 (a method of its own so tests can script it)."""
        return self.d20()

    def defence_d20(self) -> int:
        """R13's Defence d20, rolled only for a W read from the bowler's card against a striker
        card with a Defence rating (a method of its own so tests can script it)."""
        return self.d20()

    def pick(self, n: int) -> int:
        """Shuffle the deck and take one card: index 0..n-1."""
        return int(self.rng.integers(0, n))


@dataclass
class Ball:
    """One delivery as the scoresheet would show it."""
    legal_no: int            # legal balls bowled in the innings after this delivery
    bowler: int              # bowler-card row
    striker: int             # batting slot of the striker
    card: str                # "bowler" | "striker"
    result: str              # final result name after the fielding chart and any chance
    bat_runs: int = 0
    extras: int = 0
    extra_kind: str = ""     # "wide", "no_ball", "bye", "leg_bye"
    legal: bool = True
    free_hit: bool = False
    band: str = ""           # wickets-in-hand band before the delivery ("" = rules as printed)
    out_slot: int | None = None   # batting slot dismissed
    how_out: str = ""        # bowled, caught, lbw, run out, stumped
    fielders: tuple[int, ...] = ()  # fielding slots involved (catcher, run-out fielders)


@dataclass
class BatterLine:
    runs: int = 0
    balls: int = 0
    fours: int = 0
    sixes: int = 0
    how_out: str = ""


@dataclass
class BowlerLine:
    legal_balls: int = 0
    runs: int = 0            # bat runs + wides + no-balls
    wickets: int = 0
    wides: int = 0
    no_balls: int = 0


@dataclass
class Innings:
    batting: str
    bowling: str
    runs: int = 0
    wickets: int = 0
    legal_balls: int = 0
    byes: int = 0
    leg_byes: int = 0
    wides: int = 0
    no_balls: int = 0
    phase_runs: list[int] = field(default_factory=lambda: [0, 0, 0])
    phase_wickets: list[int] = field(default_factory=lambda: [0, 0, 0])
    batters: dict[int, BatterLine] = field(default_factory=dict)   # batting slot -> line
    bowlers: dict[int, BowlerLine] = field(default_factory=dict)   # bowler card -> line
    unit_bowler: list[int] = field(default_factory=list)          # bowler card per unit begun
    balls: list[Ball] = field(default_factory=list)


@dataclass
class Match:
    first: Innings
    second: Innings
    super_overs: list[tuple[Innings, Innings]]
    winner: str | None       # None: tie (super overs exhausted)


def _phase(fmt: m.Format, legal_after: int) -> int:
    n = max(legal_after, 1)
    return 0 if n <= fmt.phase_edges[0] else 1 if n <= fmt.phase_edges[1] else 2


def play_innings(cs: CompiledSet, batting: Side, bowling: Side, dice: Dice, *,
                 target: int | None = None, plan: list[int] | None = None,
                 batters: list[int] | None = None, max_balls: int | None = None,
                 max_wickets: int = 10, rule: WicketsInHand | None = None,
                 defence: bool | None = None) -> Innings:
    """One innings. `target` = runs needed to win (chase ends on reaching it); `rule` the
    advanced rules' wickets-in-hand rule (R12; None: the Quicket rules as printed); `defence`
    whether the striker cards' Defence ratings are played (R13, the advanced rules only; None:
    with the rule)."""
    defence = rule is not None if defence is None else defence
    fmt = cs.fmt
    max_balls = fmt.balls_per_innings if max_balls is None else max_balls
    order = batting.batters if batters is None else batters
    if plan is None:
        plan = bowling.plans[dice.pick(len(bowling.plans))]
    inn = Innings(batting=batting.team, bowling=bowling.team)
    striker, non_striker, next_in = 0, 1, 2
    inn.batters[0], inn.batters[1] = BatterLine(), BatterLine()
    free_hit = False
    fielders = bowling.players
    keeper_rating = keeper_rating_of(cs, bowling)

    def done() -> bool:
        return (inn.wickets >= max_wickets or inn.legal_balls >= max_balls
                or (target is not None and inn.runs >= target))

    while not done():
        unit = inn.legal_balls // fmt.balls_per_over
        bowler = plan[unit]
        if len(inn.unit_bowler) <= unit:
            inn.unit_bowler.append(bowler)
        dice.begin_delivery()
        # the band is read before the ball: wickets down and legal balls left (docs/rules.md R12)
        # and, chasing, runs needed
        band = None if rule is None else rule.band(
            inn.wickets, fmt.balls_per_innings - inn.legal_balls, fmt.balls_per_innings,
            None if target is None else target - inn.runs)
        ball = _deliver(cs, dice, bowler, order[striker], striker, non_striker, free_hit,
                        fielders, bowling.keeper_slot, keeper_rating, rule, band, defence)
        # --- score it -------------------------------------------------------------------
        line = inn.bowlers.setdefault(bowler, BowlerLine())
        bat = inn.batters[striker]
        total = ball.bat_runs + ball.extras
        inn.runs += total
        if ball.legal:
            inn.legal_balls += 1
            line.legal_balls += 1
        ball.legal_no = inn.legal_balls
        inn.phase_runs[_phase(fmt, inn.legal_balls)] += total
        if ball.extra_kind != "wide":  # a wide is not a ball faced; a no-ball is
            bat.balls += 1
        bat.runs += ball.bat_runs
        bat.fours += ball.bat_runs == 4
        bat.sixes += ball.bat_runs == 6
        line.runs += ball.bat_runs + (ball.extras if ball.extra_kind in ("wide", "no_ball") else 0)
        if ball.extra_kind == "wide":
            inn.wides += ball.extras
            line.wides += ball.extras
        elif ball.extra_kind == "no_ball":
            inn.no_balls += ball.extras
            line.no_balls += ball.extras
        elif ball.extra_kind == "bye":
            inn.byes += ball.extras
        elif ball.extra_kind == "leg_bye":
            inn.leg_byes += ball.extras
        inn.balls.append(ball)
        # --- batters' ends ----------------------------------------------------------------
        if ball.out_slot is not None:
            inn.wickets += 1
            inn.phase_wickets[_phase(fmt, inn.legal_balls)] += 1
            inn.batters[ball.out_slot].how_out = ball.how_out
            if ball.how_out != "run out":
                line.wickets += 1
            if inn.wickets < max_wickets and next_in < len(order):
                inn.batters[next_in] = BatterLine()
                # R4/R5: the new batter takes the dismissed batter's end
                if ball.out_slot == striker:
                    striker = next_in
                else:
                    non_striker = next_in
                next_in += 1
        if (ball.bat_runs + (ball.extras if ball.extra_kind in ("bye", "leg_bye") else 0)) % 2:
            striker, non_striker = non_striker, striker          # 3.4.2: odd runs swap ends
        if ball.legal and inn.legal_balls % fmt.balls_per_end == 0:
            striker, non_striker = non_striker, striker          # ends change (T20 / 100-ball)
        # 4.3.10 / R6: a no-ball gives a free hit; a wide on a free hit keeps it
        free_hit = ball.extra_kind == "no_ball" or (free_hit and ball.extra_kind == "wide")
    return inn


def keeper_rating_of(cs: CompiledSet, side: Side) -> int:
    """The keeper's rating; a keeper whose card has none keeps at the default (R9)."""
    rating = int(cs.keeper[side.players[side.keeper_slot]])
    return rating if rating > 0 else DEFAULT_KEEPER


# the results that need no further roll: runs off the bat, the striker out, extras
_BAT_RUNS = frozenset({m.DOT, m.ONE, m.TWO, m.THREE, m.FOUR, m.SIX})
_STRIKER_OUT = {m.BOWLED: "bowled", m.LBW: "lbw", m.STUMPED: "stumped"}
_EXTRAS = {m.LEG_BYE: (1, "leg_bye"), m.BYE: (1, "bye"),     # 4.3.9: one run, a legal ball
           m.LEG_BYE_4: (4, "leg_bye"), m.BYE_4: (4, "bye"),  # R14: four, legal, no crossing
           m.WIDE: (1, "wide"), m.NO_BALL: (1, "no_ball")}    # 4.3.10-11: one, not legal


def _deliver(cs: CompiledSet, dice: Dice, bowler: int, striker_card: int, striker_slot: int,
             non_striker_slot: int, free_hit: bool, fielders: list[int], keeper_slot: int,
             keeper_rating: int, rule: WicketsInHand | None = None,
             band: int | None = None, defence: bool = False) -> Ball:
    """Roll for one delivery and resolve it to runs, extras and any dismissal."""
    code, on_bowler, chart_d6, defended = _roll(cs, dice, bowler, striker_card, defence)
    ball = Ball(legal_no=0, bowler=bowler, striker=striker_slot,
                card="bowler" if on_bowler else "striker", result="", free_hit=free_hit)
    _resolve(cs, dice, ball, code, chart_d6, non_striker_slot, fielders, keeper_slot,
             keeper_rating)
    ball.result = m.CODE_NAMES.get(code, str(code))
    if defended:
        ball.result = "W (defence: not out, a dot)"
    if rule is not None and band is not None:
        _apply_rule(rule, band, ball, dice, len(fielders))
    if free_hit and ball.out_slot is not None and ball.how_out != "run out":
        # R6: on a free hit only a run-out dismisses; the dismissal becomes a dot
        ball.out_slot, ball.how_out, ball.fielders = None, "", ()
        ball.result += " (free hit: not out)"
    return ball


def _roll(cs: CompiledSet, dice: Dice, bowler: int, striker_card: int,
          defence: bool) -> tuple[int, bool, int, bool]:
    """The delivery's result code off the card, or the fielding chart its "F" sends it to, and
    any Defence roll against it: (code, read off the bowler's card, the chart's d6 (0: not on
    the chart), defended)."""
    card_d6 = dice.d6()                      # 3.2: 1-3 bowler card, 4-6 striker card
    roll = dice.percentile()                 # 3.3: 2d10 on that card
    on_bowler = card_d6 <= 3
    code = int((cs.bowler_lut[bowler] if on_bowler else cs.striker_lut[striker_card])[roll - 1])
    chart_d6 = 0
    if code == m.FIELD:                      # 4.2: d6 + d20 on the fielding chart
        chart_d6 = dice.d6()
        code = int(cs.fielding[chart_d6 - 1, dice.d20() - 1])
    defended = False
    if defence and on_bowler and code == m.CARD_W:   # R13 (advanced rules): the striker card's
        rating = int(cs.striker_defence[striker_card])   # Defence against the bowler card's W
        if rating and dice.defence_d20() <= rating:      # (no rating: no roll)
            code, defended = m.DOT, True     # survived: a dot, played on as any dot (R12 too)
    return code, on_bowler, chart_d6, defended


def _resolve(cs: CompiledSet, dice: Dice, ball: Ball, code: int, chart_d6: int,
             non_striker_slot: int, fielders: list[int], keeper_slot: int,
             keeper_rating: int) -> None:
    """`ball`'s runs, extras or dismissal from its result `code`, rolling for any chance."""
    if code in _BAT_RUNS:
        ball.bat_runs = code
    elif code in _STRIKER_OUT:
        ball.out_slot, ball.how_out = ball.striker, _STRIKER_OUT[code]
        if code == m.STUMPED:
            ball.fielders = (keeper_slot,)
    elif code in _EXTRAS:
        ball.extras, ball.extra_kind = _EXTRAS[code]
        ball.legal = code not in (m.WIDE, m.NO_BALL)
    elif code in (m.CARD_W, m.CAUGHT):       # 3.4.3.2 / 4.3.4: a random fielder takes it
        ball.out_slot, ball.how_out = ball.striker, "caught"
        ball.fielders = (dice.pick(len(fielders)),)
    elif code == m.CATCH_CHANCE:             # 4.3.7: d20 <= C, else one run
        catcher = dice.pick(len(fielders))
        if dice.d20() <= cs.catch[fielders[catcher]]:
            ball.out_slot, ball.how_out = ball.striker, "caught"
            ball.fielders = (catcher,)
        else:
            ball.bat_runs = 1
    elif code == m.STUMPING_CHANCE:          # 4.3.6: d20 <= keeper rating, else a dot
        if dice.d20() <= keeper_rating:
            ball.out_slot, ball.how_out = ball.striker, "stumped"
            ball.fielders = (keeper_slot,)
    elif code in (m.RUN_OUT, m.RUN_OUT_CHANCE):
        _run_out(cs, dice, ball, code, chart_d6, non_striker_slot, fielders, keeper_slot)
    else:  # pragma: no cover - compile_card_set rejects unknown codes
        raise ValueError(f"unhandled result code {code}")


def _run_out(cs: CompiledSet, dice: Dice, ball: Ball, code: int, chart_d6: int,
             non_striker_slot: int, fielders: list[int], keeper_slot: int) -> None:
    """4.3.3 / 4.3.8: a run-out (or its chance); the chart's d6 says which end and whether the
    keeper is in it."""
    striker_out = chart_d6 in (1, 2, 3)
    if chart_d6 in (1, 3, 4, 6):             # R3: the other fielder is one of the other ten
        fielder = dice.pick(len(fielders) - 1)
        fielder += fielder >= keeper_slot
        involved: tuple[int, ...] = (fielder, keeper_slot)
    else:
        involved = (dice.pick(len(fielders)),)
    if code == m.RUN_OUT:
        out = True
    else:
        d20 = dice.d20()
        out = all(d20 <= cs.run_out[fielders[f]] for f in involved)
    if out:
        ball.out_slot = ball.striker if striker_out else non_striker_slot
        ball.how_out = "run out"
        ball.fielders = involved
    else:
        ball.bat_runs = 1

def _apply_rule(rule: WicketsInHand, band: int, ball: Ball, dice: Dice, n_fielders: int) -> None:
    """R12, the wickets-in-hand rule: one extra d20 on a dot (attack) or on a catch, a four or
    a six (consolidate). Applied before the free hit (R6)."""
    ball.band = wih.BANDS[band]
    dot = ball.out_slot is None and not ball.extra_kind and ball.bat_runs == 0
    if band == wih.ATTACK and dot:
        d20 = dice.rule_d20()
        if d20 <= rule.attack_bowled:        # missed it
            ball.out_slot, ball.how_out = ball.striker, "bowled"
            ball.result += " (attack: bowled)"
        elif d20 <= rule.attack_out:         # caught going for it: a random fielder
            ball.out_slot, ball.how_out = ball.striker, "caught"
            ball.fielders = (dice.pick(n_fielders),)
            ball.result += " (attack: caught)"
        elif d20 <= rule.attack_four:
            ball.bat_runs = 4
            ball.result += " (attack: four)"
        elif d20 <= rule.attack_six:
            ball.bat_runs = 6
            ball.result += " (attack: six)"
    elif band == wih.CONSOLIDATE:
        saved = ball.out_slot is not None and ball.how_out in rule.consolidate_saves
        if (saved or (rule.consolidate_boundaries and ball.bat_runs in (4, 6))) \
                and dice.rule_d20() <= rule.consolidate_safe:  # the d20 is rolled only when it can save
            if saved:
                ball.out_slot, ball.how_out, ball.fielders = None, "", ()
                ball.result += " (consolidate: not out)"
            else:
                ball.bat_runs = 1
                ball.result += " (consolidate: single)"


MAX_SUPER_OVERS = 5


def play_super_over(cs: CompiledSet, first: Side, second: Side, dice: Dice,
                    defence: bool = False) -> tuple[Innings, Innings]:
    """3.7 / R8: one over each (6 balls T20, 5 balls 100-ball), three batters, two wickets;
    `defence`: the advanced rules' Defence ratings are played (R13: part of the card)."""
    balls = cs.fmt.balls_per_over
    a = play_innings(cs, first, second, dice, plan=[second.super_over_bowler],
                     batters=first.super_over_batters, max_balls=balls, max_wickets=2, defence=defence)
    b = play_innings(cs, second, first, dice, target=a.runs + 1, plan=[first.super_over_bowler],
                     batters=second.super_over_batters, max_balls=balls, max_wickets=2, defence=defence)
    return a, b


def play_match(cs: CompiledSet, home: Side, away: Side, rng: IntegerSource,
               rule: WicketsInHand | None = None, defence: bool | None = None) -> Match:
    """A full match, `home` batting first; a tie goes to super overs (R8), which are played
    without the wickets-in-hand table (it is for the full innings). `rule`: the advanced rules'
    wickets-in-hand rule (None: the Quicket rules as printed); `defence`: whether Defence
    ratings are played (R13; None: with the rule), in the super overs too."""
    dice = Dice(rng)
    defence = rule is not None if defence is None else defence
    first = play_innings(cs, home, away, dice, rule=rule, defence=defence)
    second = play_innings(cs, away, home, dice, target=first.runs + 1, rule=rule, defence=defence)
    supers: list[tuple[Innings, Innings]] = []
    if second.runs > first.runs:
        return Match(first, second, supers, away.team)
    if second.runs < first.runs:
        return Match(first, second, supers, home.team)
    bat_first, bat_second = away, home      # 3.7.1: the team that batted second bats first
    for _ in range(MAX_SUPER_OVERS):
        a, b = play_super_over(cs, bat_first, bat_second, dice, defence)
        supers.append((a, b))
        if a.runs != b.runs:
            return Match(first, second, supers, bat_first.team if a.runs > b.runs else bat_second.team)
        bat_first, bat_second = bat_second, bat_first
    return Match(first, second, supers, None)
