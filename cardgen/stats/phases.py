"""The phases of an innings (powerplay, middle, death) by legal ball: what the tables count per
phase and the team sheets print. Apart from `stats.tables` and without pandas, so a page or a
sheet that only names the phases does not import the table code."""
from __future__ import annotations

PHASES = ("powerplay", "middle", "death")


def phase_ranges(balls_per_innings: int) -> list[tuple[int, int]]:
    """The legal balls of each of PHASES (T20: 1-36, 37-90, 91-120; 100-ball: 1-25, 26-75, 76-100)."""
    first, second = (25, 75) if balls_per_innings == 100 else (36, 90)
    return [(1, first), (first + 1, second), (second + 1, balls_per_innings)]
