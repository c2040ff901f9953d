"""The worked example of the how-to-play page: one ball of a set walked through (a real striker's
F result read on the set's fielding chart, then the catch), and the chart as a table.

Layer: site. Reads the card views (`site.views`) and the fielding chart's words (`site.texts`).
"""
from __future__ import annotations

from typing import Any

from cardgen.calibrate.model import chart_cells
from cardgen.errors import CardSetError
from cardgen.site.kit import KitSet
from cardgen.site.texts import fielding_words
from cardgen.site.views import CardView

CHANCE_ORDER = ("catch_chance", "run_out_chance", "stumping_chance", "leg_bye", "wide")


def _dice_2d10(roll: int) -> str:
    """How a 1-100 roll looks on the two d10s: tens die and units die (0 and 0 is 100)."""
    return f"tens {roll // 10 % 10}, units {roll % 10}"


def _whole_chart(cells: Any) -> bool:
    """Whether the set's fielding chart is the game's 6 rows of 20 cells."""
    return isinstance(cells, list) and len(cells) == 6 and all(isinstance(r, list) and len(r) == 20 for r in cells)


def _example_bowler(declared: dict[Any, Any], views: list[CardView], striker: CardView) -> CardView | None:
    """The other side's first-choice bowler (team sheet order), else its busiest bowler card."""
    bowlers = [v for v in views if v.kind == "bowler" and v.thumb and v.team != striker.team]
    if not bowlers:
        return None
    other = bowlers[0].team
    first_choice = [str(i) for i in declared.get(other, {}).get("bowlers", [])]
    team_bowlers = [v for v in bowlers if v.team == other]
    return min(team_bowlers, key=lambda v: (first_choice.index(v.player_id) if v.player_id in first_choice
                                            else len(first_choice), -(v.card.get("real") or {}).get("balls", 0)))


def _example_fielder(declared: dict[Any, Any], views: list[CardView], bowler: CardView) -> CardView | None:
    """A middling catcher of the bowling side's usual XI, so the d20 roll can go either way."""
    xi = [str(i) for i in declared.get(bowler.team, {}).get("batting_order", [])]
    fielders = [v for v in views if v.team == bowler.team and v.kind == "striker"
                and isinstance(v.card["player"].get("catch"), int) and (not xi or v.player_id in xi)]
    return min(fielders, key=lambda v: (abs(v.card["player"]["catch"] - 10), v.name)) if fielders else None


def example_ball(kit: KitSet, views: list[CardView], info: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """One ball of this set, walked through: a real striker's F result read on the set's fielding chart."""
    cells = _chart_cells(kit)
    if cells is None or not _whole_chart(cells):
        return None
    strikers = [v for v in views if v.kind == "striker" and v.thumb and any(code == "F" for _, code, _ in v.chart)]
    if not strikers:
        return None
    striker = strikers[0]
    declared = {t.get("name"): t for t in kit.doc.get("teams", []) if isinstance(t, dict)}
    bowler = _example_bowler(declared, views, striker)
    if bowler is None:
        return None
    f_row = next(row for row in striker.card.get("chart", []) if str(row.get("result")) == "F")
    roll = int(f_row["lo"])
    d6_card = 5  # 4-6: the striker's card
    where = next(((kind, r, c) for kind in CHANCE_ORDER for r, row in enumerate(cells)
                  for c, cell in enumerate(row) if cell == kind), None)
    if where is None:
        return None
    kind, row, col = where
    results = fielding_words()["results"].get(kind, {})
    fielder = _example_fielder(declared, views, bowler)
    catch = fielder.card["player"]["catch"] if fielder else None
    return {
        "striker": striker, "bowler": bowler, "fielder": fielder, "catch": catch,
        "d6_card": d6_card, "roll": roll, "roll_dice": _dice_2d10(roll),
        "f_range": f"{f_row['lo']}" if f_row["lo"] == f_row["hi"] else f"{f_row['lo']}–{f_row['hi']}",
        "chart_d6": row + 1, "chart_d20": col + 1, "result": kind,
        "result_short": results.get("short", kind), "result_legend": results.get("legend", ""),
        "d20_chance": max(1, catch - 2) if isinstance(catch, int) else None,
        "bowling_team_page": info.get(bowler.team_slug, {}).get("page", "index.html"),
    }


def _chart_cells(kit: KitSet) -> list[list[str]] | None:
    """The set's fielding chart as the game plays it (fours included), or None if it has none."""
    try:
        return chart_cells(kit.card_set)
    except CardSetError:
        return None


def fielding_table(kit: KitSet) -> list[list[str]]:
    cells = _chart_cells(kit)
    if not isinstance(cells, list):
        return []
    words = fielding_words()["results"]
    return [[str(words.get(str(cell), {}).get("short", cell)) for cell in row] for row in cells]
