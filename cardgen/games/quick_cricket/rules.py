"""Quick Cricket's cards as data: quadrants, Path cards, outcome tables and Runs charts.

The engine and the printed cards both read these tables, so the cards say what the engine does.
Numbers not given in the published rules (the Runs charts for 1-2 and 5-9 wickets down, the Path
cards' shapes and risk numbers) are this project's own; docs/games.md lists every reading.
"""
from __future__ import annotations

from dataclasses import dataclass

# The four quadrants, as laid out on the table (B C on the short-length row, A D on the full row)
A, B, C, D = 0, 1, 2, 3
QUADRANTS = "ABCD"
_ROW = {A: 1, B: 0, C: 0, D: 1}   # 0 = short (top), 1 = full (bottom)
_COL = {A: 0, B: 0, C: 1, D: 1}   # 0 = left, 1 = right
_AT = {(r, c): q for q, (r, c) in ((q, (_ROW[q], _COL[q])) for q in range(4))}

# How a Path card moves the ball from the pitch quadrant
SAME, ALONG, ACROSS, DIAGONAL = "same", "along", "across", "diagonal"


def moved(pitch: int, move: str) -> int:
    """The quadrant a Path card's movement sends the ball to from `pitch`."""
    r, c = _ROW[pitch], _COL[pitch]
    if move in (ALONG, DIAGONAL):
        r = 1 - r
    if move in (ACROSS, DIAGONAL):
        c = 1 - c
    return _AT[(r, c)]


@dataclass(frozen=True)
class PathCard:
    name: str
    risk: int                      # runs added when the batter scores off this ball
    orientations: tuple[str, str]  # the movement shown the right way up and turned 180 degrees
    green: tuple[bool, bool]       # an orientation whose path lands in the green (no-ball) quadrant


# A movement that changes both line and length after pitching is a no-ball: that quadrant is
# printed green on the two cards that can reach it.
PATH_CARDS: tuple[PathCard, ...] = (
    PathCard("Line and length", 1, (SAME, ALONG), (False, False)),
    PathCard("Swing or drift", 2, (SAME, ACROSS), (False, False)),
    PathCard("Cutter or turner", 3, (ACROSS, DIAGONAL), (False, True)),
    PathCard("Slower ball", 4, (ALONG, DIAGONAL), (False, True)),
)
NO_BALL_RUNS = 5

# Outcome table: rows = the class of the quadrant the Stroke goes through, columns = the class of
# the quadrant the batter Moved to. A quadrant is "pitch" (the Pitch card is there; also when the
# Path is in the same quadrant: a yorker or bouncer), "path" (the Path card only) or "empty".
PITCH, PATH, EMPTY = 0, 1, 2
CLASS_NAMES = ("Pitch", "Path", "Empty")
DOT, RUNS, FOUR, CAUGHT_APPEAL, LBW_APPEAL, LBW_OUT, BOWLED = (
    "dot", "runs", "four", "caught?", "lbw?", "lbw", "bowled")
OUTCOME = {
    "pace": ((DOT, RUNS, CAUGHT_APPEAL),
             (RUNS, RUNS, FOUR),
             (LBW_APPEAL, RUNS, BOWLED)),
    # against spin a batter beaten on the wrong line with the pad there is plumb: no appeal
    "spin": ((DOT, RUNS, CAUGHT_APPEAL),
             (RUNS, RUNS, FOUR),
             (LBW_OUT, RUNS, BOWLED)),
}
OUTCOME_LABELS = {DOT: "0", RUNS: "Runs", FOUR: "4", CAUGHT_APPEAL: "Caught?",
                  LBW_APPEAL: "LBW?", LBW_OUT: "Out LBW", BOWLED: "Out bowled"}


@dataclass(frozen=True)
class RunsChart:
    label: str
    wickets: tuple[int, ...]   # wickets down this chart covers
    runs: tuple[int, int, int, int]   # by quadrant A, B, C, D


RUNS_CHARTS: tuple[RunsChart, ...] = (
    RunsChart("0 down", (0,), (8, 12, 10, 5)),
    RunsChart("1-2 down", (1, 2), (9, 10, 8, 6)),
    RunsChart("3-4 down", (3, 4), (8, 7, 5, 10)),
    RunsChart("5-9 down", (5, 6, 7, 8, 9), (6, 5, 4, 7)),
)


def chart_for(wickets: int) -> RunsChart:
    for chart in RUNS_CHARTS:
        if wickets in chart.wickets:
            return chart
    return RUNS_CHARTS[-1]


FIELDER_SAVES = 4          # runs a fielder takes off a stroke into his quadrant
BIG_HIT_BONUS = 6
BOUNCER_RUNS = 2
UMPIRE_CARDS = ("OUT", "NOT OUT", "NOT OUT")
REVIEWS_PER_INNINGS = 3
SPELL_OVERS = 4
BALLS_PER_OVER = 6
MAX_WICKETS = 10


def is_bouncer(style: str, pitch: int, path: int) -> bool:
    return style == "pace" and pitch == path and pitch in (B, C)


def is_yorker(style: str, pitch: int, path: int) -> bool:
    return pitch == path and not is_bouncer(style, pitch, path)


def quadrant_class(quadrant: int, pitch: int, path: int) -> int:
    if quadrant == pitch:
        return PITCH
    return PATH if quadrant == path else EMPTY


def is_green(card: PathCard, orientation: int) -> bool:
    return card.green[orientation]
