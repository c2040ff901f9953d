"""A side as the match page fields it, and the computer captain's bowling plan.

The page has only the card set (no season tables), so a bowler's share of his team's balls is
read from his card (`real.balls`: the legal balls he bowled), which is what the simulator's
captain reads from the season's bowling table. The plan itself is the simulator's
(`cardgen.sim.captain.QuotaDraw` and `order_plan`), drawn with the page's shared generator so the
browser draws the same one (`static/captain.js`).
"""
from __future__ import annotations

import math
from typing import Protocol

import numpy as np

from cardgen.cardset import Card, stand_in_striker
from cardgen.errors import CardSetError
from cardgen.sim.captain import QuotaDraw, order_plan
from cardgen.sim.model import CompiledSet, Format, Side


class UniformSource(Protocol):
    def random(self) -> float: ...


def bowling_shares(cs: CompiledSet) -> dict[tuple[str, str], float]:
    """(player id, team) -> his share of the team's legal balls, from the bowler cards."""
    totals: dict[str, int] = {}
    for card in cs.bowler_cards:
        totals[card.team] = totals.get(card.team, 0) + _balls(card)
    return {(str(card.player.id), str(card.team)):
            (_balls(card) / totals[card.team] if totals[card.team] > 0 else 0.0)
            for card in cs.bowler_cards}


def _balls(card: Card) -> int:
    value = card.real.balls
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def usual_xi(cs: CompiledSet, team: str) -> tuple[list[str], str | None]:
    """The team's usual XI (the card set's batting order) and keeper, as the page defaults to."""
    entry = cs.teams.get(team)
    if entry is None:
        raise CardSetError(f"no team {team!r} in the card set")
    xi = [str(x) for x in entry.batting_order]
    keeper = entry.wicketkeeper
    return xi, None if keeper is None else str(keeper)


def xi_problem(cs: CompiledSet, team: str, xi: list[str]) -> str:
    """Why an XI cannot take the field on the page ("" when it can)."""
    if len(xi) != 11:
        return f"an XI needs 11 players ({len(xi)} chosen)"
    if len(set(xi)) != 11:
        return "a player is in the XI twice"
    for pid in xi:
        if (pid, team) not in cs.player_of:
            return f"player {pid} has no card for {team}"
    bowlers = sum((pid, team) in cs.bowler_card_of for pid in xi)
    need = math.ceil(cs.fmt.units / cs.fmt.max_units_per_bowler)
    if bowlers < need:
        unit = "overs" if cs.fmt.name == "T20" else "sets"
        return (f"this XI has {bowlers} bowler{'' if bowlers == 1 else 's'} with a card; the "
                f"{cs.fmt.units} {unit} need at least {need}")
    if stand_in_striker(cs.striker_cards, team) is None:
        return f"{team} has no striker card"
    return ""


class PageSide(Side):
    """A reference-engine Side plus the bowling shares of its card-holding bowlers."""
    bowler_cards: list[int]
    weights: list[float]


def page_side(cs: CompiledSet, team: str, xi: list[str], keeper: str | None,
              shares: dict[tuple[str, str], float] | None = None) -> PageSide:
    """The side the page fields: `xi` in batting order, `keeper` (else the best keeping rating,
    then the best catcher), R8's super-over bowler (the largest share) and batters (first three)."""
    problem = xi_problem(cs, team, xi)
    if problem:
        raise CardSetError(f"{team}: {problem}")
    shares = bowling_shares(cs) if shares is None else shares
    players = [cs.player_of[(pid, team)] for pid in xi]
    stand_in = stand_in_striker(cs.striker_cards, team)
    batters: list[int] = []
    for pid in xi:
        card = cs.striker_card_of.get((pid, team), stand_in)
        if card is None:   # (xi_problem refuses such a side first: a team without striker cards)
            raise CardSetError(f"{team}: {pid} has no striker card and the team none to lend him")
        batters.append(card)
    if keeper in xi:
        keeper_slot = xi.index(keeper)
    else:
        keeper_slot = int(np.argmax([int(cs.keeper[p]) * 100 + int(cs.catch[p]) for p in players]))
    cards = [cs.bowler_card_of[(pid, team)] for pid in xi if (pid, team) in cs.bowler_card_of]
    weights = [shares.get((pid, team), 0.0) for pid in xi if (pid, team) in cs.bowler_card_of]
    top = cards[int(np.argmax(weights))]
    side = PageSide(team=team, players=players, batters=batters, keeper_slot=keeper_slot,
                    plans=[cards], super_over_bowler=top)
    side.bowler_cards, side.weights = cards, weights
    return side


def draw_plan(cs: CompiledSet, side: PageSide, rng: UniformSource) -> list[int]:
    """The computer captain's plan for an innings (bowler-card rows per over or set): the
    simulator's QuotaDraw rounded by one uniform of `rng`, ordered by its order_plan."""
    quota = QuotaDraw(np.array(side.weights, dtype=float), cs.fmt).draw(rng)  # type: ignore[arg-type]
    return [side.bowler_cards[i] for i in order_plan(quota, cs.fmt)]


def plan_problem(units: list[int], fmt: Format) -> str:
    """Why the bowlers of an innings so far (bowler-card rows per unit) break a limit ("" when
    they do not): captain.check_plan for a plan still being bowled."""
    cap = fmt.max_units_per_bowler
    word = "overs" if fmt.name == "T20" else "sets"
    if units.count(units[-1]) > cap:
        return f"a bowler bowls more than {cap} {word}"
    if len(units) > 1 and units[-1] == units[-2]:
        if fmt.name == "T20":
            return "a bowler bowls two overs in a row"
        if len(units) % 2 == 1:
            return "a bowler bowls more than 10 balls in a row, or his 10 balls straddle a change of ends"
    return ""
