"""A whole page match played by the reference engine: the page's order of innings and dice.

The page bats the side that chose to bat (or was sent in) first, draws each innings' computer
plan from the captain stream when the innings starts, and on a tie plays R8's super overs
(`cardgen.sim.reference.play_super_over`). The dice all come from one `IntegerSource`, in the
reference engine's order; the bowler of each over or set comes from `plan_for` (the computer's
plan, or what the player chose, as a match file records it).
"""
from __future__ import annotations

from collections.abc import Callable

from cardgen.sim import reference
from cardgen.sim.model import CompiledSet
from cardgen.sim.reference import Dice, Innings, IntegerSource, Match
from cardgen.wickets_in_hand import WicketsInHand
from cardgen.play.sides import PageSide

MAX_SUPER_OVERS = reference.MAX_SUPER_OVERS

# (innings number 0 or 1, the bowling side) -> that innings' bowler-card row per unit
PlanFor = Callable[[int, PageSide], list[int]]


def play_page_match(cs: CompiledSet, bat_first: PageSide, bat_second: PageSide,
                    dice_source: IntegerSource | Dice, plan_for: PlanFor,
                    rule: WicketsInHand | None = None) -> Match:
    """Both innings and any super overs, as the page plays them (`dice_source`: a generator,
    or Dice of its own, as a match file's are)."""
    dice = dice_source if isinstance(dice_source, Dice) else Dice(dice_source)
    first = reference.play_innings(cs, bat_first, bat_second, dice, plan=plan_for(0, bat_second),
                                   rule=rule)
    second = reference.play_innings(cs, bat_second, bat_first, dice, target=first.runs + 1,
                                    plan=plan_for(1, bat_first), rule=rule)
    supers: list[tuple[Innings, Innings]] = []
    if second.runs != first.runs:
        winner = bat_second if second.runs > first.runs else bat_first
        return Match(first, second, supers, winner.team)
    a_side, b_side = bat_second, bat_first   # 3.7.1: the side that batted second bats first
    for _ in range(MAX_SUPER_OVERS):
        # R13 is part of an advanced set's cards, in the super overs too
        a, b = reference.play_super_over(cs, a_side, b_side, dice, defence=rule is not None)
        supers.append((a, b))
        if a.runs != b.runs:
            return Match(first, second, supers, a_side.team if a.runs > b.runs else b_side.team)
        a_side, b_side = b_side, a_side
    return Match(first, second, supers, None)
