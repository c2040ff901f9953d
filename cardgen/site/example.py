"""The worked example of the how-to-play page: one ball of a set walked through (a real striker's
F result read on the set's fielding chart, then the catch), and the chart as a table.

Layer: site. Reads the card views (`site.views`) and the fielding chart's words (`site.texts`).
"""
from __future__ import annotations

from typing import Any

from cardgen.cardset import CardSet
from cardgen.errors import CardSetError
from cardgen.site.kit import KitSet
from cardgen.site.texts import fielding_words
from cardgen.site.views import CardView

CHANCE_ORDER = ("catch_chance", "run_out_chance", "stumping_chance", "leg_bye", "wide")


def _dice_2d10(roll: int) -> str:
    """How a 1-100 roll looks on the two d10s: tens die and units die (0 and 0 is 100)."""
    return f"tens {roll // 10 % 10}, units {roll % 10}"


def _example_bowler(card_set: CardSet, views: list[CardView], striker: CardView) -> CardView | None:
    """The other side's first-choice bowler (team sheet order), else its busiest bowler card."""
    bowlers = [v for v in views if v.kind == "bowler" and v.thumb and v.team != striker.team]
    if not bowlers:
        return None
    other = bowlers[0].team
    team = card_set.team(other)
    first_choice = [str(i) for i in team.bowlers] if team else []   # a list the contract does not describe
    team_bowlers = [v for v in bowlers if v.team == other]
    return min(team_bowlers, key=lambda v: (first_choice.index(v.player_id) if v.player_id in first_choice
                                            else len(first_choice), -(v.card.real.balls or 0)))


def _example_fielder(card_set: CardSet, views: list[CardView], bowler: CardView) -> CardView | None:
    """A middling catcher of the bowling side's usual XI, so the d20 roll can go either way."""
    xi = card_set.usual_xi(bowler.team)
    fielders = [v for v in views if v.team == bowler.team and v.kind == "striker"
                and v.card.player.catch is not None and v.player_id in xi]
    return min(fielders, key=lambda v: (abs((v.card.player.catch or 0) - 10), v.name)) if fielders else None


def example_ball(kit: KitSet, views: list[CardView], info: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """One ball of this set, walked through: a real striker's F result read on the set's fielding chart."""
    cells = _chart_cells(kit)
    if cells is None:
        return None
    strikers = [v for v in views if v.kind == "striker" and v.thumb and any(code == "F" for _, code, _ in v.chart)]
    if not strikers:
        return None
    striker = strikers[0]
    bowler = _example_bowler(kit.card_set, views, striker)
    if bowler is None:
        return None
    f_row = next(row for row in striker.card.chart if row.result == "F")
    roll = f_row.lo
    d6_card = 5  # 4-6: the striker's card
    where = next(((kind, r, c) for kind in CHANCE_ORDER for r, row in enumerate(cells)
                  for c, cell in enumerate(row) if cell == kind), None)
    if where is None:
        return None
    kind, row, col = where
    results = fielding_words()["results"].get(kind, {})
    fielder = _example_fielder(kit.card_set, views, bowler)
    catch = fielder.card.player.catch if fielder else None
    return {
        "striker": striker, "bowler": bowler, "fielder": fielder, "catch": catch,
        "d6_card": d6_card, "roll": roll, "roll_dice": _dice_2d10(roll),
        "f_range": f"{f_row.lo}" if f_row.lo == f_row.hi else f"{f_row.lo}–{f_row.hi}",
        "chart_d6": row + 1, "chart_d20": col + 1, "result": kind,
        "result_short": results.get("short", kind), "result_legend": results.get("legend", ""),
        "d20_chance": max(1, catch - 2) if catch is not None else None,
        "bowling_team_page": info.get(bowler.team_slug, {}).get("page", "index.html"),
    }


def _chart_cells(kit: KitSet) -> list[list[str]] | None:
    """The set's fielding chart as the game plays it (fours included), or None if it cannot be
    read (a hand-edited `fours` naming no leg bye or bye)."""
    try:
        return kit.card_set.game_cells()
    except CardSetError:
        return None


def fielding_table(kit: KitSet) -> list[list[str]]:
    cells = _chart_cells(kit)
    if cells is None:
        return []
    words = fielding_words()["results"]
    return [[str(words.get(str(cell), {}).get("short", cell)) for cell in row] for row in cells]
