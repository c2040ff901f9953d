"""The set's fielding chart (6 x 20 cells): the league's extras, LBWs, run-outs, stumpings and chances.

Every `F` reads one of the 120 cells with equal probability, so the league rate of a result is
(share of deliveries reaching the chart) x (cells holding it) / 120. The share is common to all
results, so what the chart fixes is the *ratio* between them, and with whole cells those ratios
are rational numbers n_k / n_wide. We pick the number of wide cells whose rounded partners
(no-balls, leg byes, byes, LBWs) come closest to the league's ratios, then meet run-outs and
stumpings exactly with a mix of certain cells and chances (their conversion is tuned through
the RO and keeper ratings). Extras are counted in deliveries, as the game plays them (one run
each): a 5-wide or two leg byes off one ball are one chart result. The leg byes and byes that
ran to the boundary are the exception: some leg-bye and bye cells are fours ("4 leg byes",
"4 byes"), so the runs beyond one a delivery that no bowler or batter is charged with stay in
Extras (`boundary_extras`); the rest of the real runs beyond one per extra ball are carried as
runs elsewhere (see `calibrate.extra_run_surplus`), so team totals and economies keep every real
run. Counting runs instead would need ~20% more wide and leg-bye cells, which leaves no room in
120 cells for the league's no-ball : LBW ratio. The remaining cells are a few catch chances and
fielded balls (dots and singles).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from cardgen.calibrate.model import FIELD_COLS, FIELD_ROWS, FOUR_OF

CELLS = FIELD_ROWS * FIELD_COLS
MIN_CATCH_CHANCES = 4
# Catch chances beyond the minimum, as a share of the cells left over; the rest are fielded balls
# (dots and singles in the league's ratio). Few dismissals per F keeps a bowler's F slots (which
# carry his wides) from dragging his wicket rate, and lets F fine-tune dismissal rates.
CATCH_CHANCE_SHARE_OF_REST = 0.1


# The chart's kinds of leg bye and bye: the plain cell (one run), its four (model.FOUR_OF), and
# the league's runs and deliveries of that kind
BOUNDARY_EXTRAS = {"leg_bye": (FOUR_OF["leg_bye"], "leg_byes", "leg_bye_balls"),
                   "bye": (FOUR_OF["bye"], "byes", "bye_balls")}


def boundary_extras(counts: dict[str, int], league: dict) -> dict[str, int]:
    """The plan with some of its leg-bye and bye cells made fours.

    A real leg bye or bye beyond one run a delivery is nearly always a boundary (three runs more),
    and those runs are charged to neither the bowler nor the batter, so on a card they would land
    on whoever carries the league's leftover runs (the small samples: part-time bowlers' cards
    went for about half a run an over more than they did). Here each kind's fours take the
    share of its cells its surplus runs / 3 make of its deliveries, to the nearest whole cell;
    `chart_extra_surplus` is what they carry."""
    out = dict(counts)
    for kind, (four, runs, balls) in BOUNDARY_EXTRAS.items():
        n = int(out.get(kind, 0))
        deliveries = float(league.get(balls, 0) or 0)
        surplus = max(float(league.get(runs, 0) or 0) - deliveries, 0.0)
        if n <= 0 or deliveries <= 0:
            continue
        fours = int(np.floor(n * min(surplus / (3 * deliveries), 1.0) + 0.5))
        out[kind], out[four] = n - fours, out.get(four, 0) + fours
    return out


def chart_extra_surplus(counts: dict[str, int], league: dict) -> dict[str, float]:
    """Runs beyond one a delivery that the chart's four cells give each kind, over the league's
    own leg-bye (bye) deliveries: 3 x deliveries x (four cells / all that kind's cells)."""
    out = {}
    for kind, (four, _, balls) in BOUNDARY_EXTRAS.items():
        cells = counts.get(kind, 0) + counts.get(four, 0)
        out[kind] = (3.0 * float(league.get(balls, 0) or 0) * counts.get(four, 0) / cells
                     if cells else 0.0)
    return out


@dataclass
class ChartPlan:
    counts: dict[str, int]  # fielding result -> number of cells
    wide_cells: int
    ratio_errors: dict[str, float]  # relative error of each result at the chosen chart share


def league_event_counts(league: dict) -> dict[str, float]:
    kinds = league.get("dismissal_kinds", {})
    # extras by deliveries: a game extra is one ball and one run, so counts (not runs: a wide can
    # go for five, a Hundred no-ball is two) keep balls faced and legal balls in proportion
    return {"wide": league["wide_balls"], "no_ball": league["no_ball_balls"],
            "leg_bye": league["leg_bye_balls"], "bye": league["bye_balls"],
            "lbw": kinds.get("lbw", 0), "run_out": kinds.get("run out", 0),
            "stumped": kinds.get("stumped", 0)}


def plan_counts(league: dict, run_out_p: float = 0.5, stumping_p: float = 0.7,
                dismissal_factor: float = 1.0) -> ChartPlan:
    """Cell counts for the fixed results; run-out/stumping split into certain cells and chances.
    `dismissal_factor` scales the chart-only dismissals (LBW, run-out, stumping) to the total the
    calibrated cards will produce, so their shares of it match the league's."""
    ev = league_event_counts(league)
    for k in ("lbw", "run_out", "stumped"):
        ev[k] *= dismissal_factor
    if ev["wide"] <= 0:
        ev["wide"] = 1.0  # a league without wides still gets one cell so the chart can scale
    best: tuple | None = None
    scaled = ("no_ball", "leg_bye", "lbw")
    for n_wide in range(8, 90):
        scale = n_wide / ev["wide"]
        want = {k: ev[k] * scale for k in (*scaled, "bye")}
        n_bye = max(int(round(want["bye"])), 1 if want["bye"] > 0 else 0)
        bye_error = abs(n_bye / want["bye"] - 1) if want["bye"] > 0 else 0.0
        need_ro, need_st = ev["run_out"] * scale, ev["stumped"] * scale
        ro_fixed = int(np.floor(need_ro * 0.6))
        ro_chance = max(1, int(np.ceil((need_ro - ro_fixed) / run_out_p)))
        st_fixed = int(np.floor(need_st * 0.5))
        st_chance = max(1, int(np.ceil((need_st - st_fixed) / stumping_p)))
        # each of no-balls, leg byes and LBWs rounds down or up, chosen jointly
        options = [sorted({max(int(np.floor(want[k])), 1 if want[k] > 0 else 0),
                           max(int(np.ceil(want[k])), 1 if want[k] > 0 else 0)}) for k in scaled]
        for picks in itertools.product(*options):
            counts = {"wide": n_wide, **dict(zip(scaled, picks)), "bye": n_bye,
                      "run_out": ro_fixed, "run_out_chance": ro_chance, "stumped": st_fixed,
                      "stumping_chance": st_chance}
            if sum(counts.values()) + MIN_CATCH_CHANCES > CELLS:
                continue
            # cells per real event; the share of deliveries reaching the chart is one common
            # factor (tuned after the cards, `calibrate.trim_chart_share`), so the best reachable
            # worst error is the spread of these ratios about their midrange
            ratios = [1.0] + [counts[k] / want[k] for k in scaled if want[k] > 0]
            mid = (max(ratios) + min(ratios)) / 2
            errors = {k: counts[k] / want[k] / mid - 1 if want[k] > 0 else 0.0 for k in scaled}
            errors["wide"], errors["bye"] = 1 / mid - 1, bye_error
            # the listed targets (wides, no-balls, leg byes, LBWs) count fully, byes half
            score = max((max(ratios) - min(ratios)) / (max(ratios) + min(ratios)), 0.5 * bye_error)
            # ties (whole-cell limits shared by several plans) go to the plan whose counts are
            # nearest their wants at the wides' own scale, then to more wide cells
            plain = max(abs(counts[k] / want[k] - 1) for k in scaled if want[k] > 0)
            key = (round(score, 3), round(plain, 4), -n_wide)
            if best is None or key < best[0]:
                best = (key, counts, errors)
    assert best is not None
    counts = boundary_extras(dict(best[1]), league)
    rest = CELLS - sum(counts.values())
    catches = max(MIN_CATCH_CHANCES, int(round(CATCH_CHANCE_SHARE_OF_REST * rest)))
    counts["catch_chance"] = min(catches, rest)
    rest -= counts["catch_chance"]
    out = league.get("outcomes_faced", {"0": 1, "1": 1})
    dots, ones = float(out.get("0", 1)), float(out.get("1", 1))
    counts["0"] = int(round(rest * dots / (dots + ones))) if dots + ones else rest
    counts["1"] = rest - counts["0"]
    return ChartPlan(counts=counts, wide_cells=counts["wide"], ratio_errors=best[2])


def layout(counts: dict[str, int]) -> list[list[str]]:
    """Place the cells: run-outs and their chances spread over the six d6 rows (so both ends and
    both kinds of run-out occur), everything else filled row by row in a fixed order."""
    cells: list[list[str | None]] = [[None] * FIELD_COLS for _ in range(FIELD_ROWS)]
    row_cycle = [1, 4, 0, 3, 2, 5]  # d6 = 2, 5, 1, 4, 3, 6: single-fielder rows first
    fill = [0] * FIELD_ROWS

    def put(result: str, row: int) -> None:
        cells[row][fill[row]] = result
        fill[row] += 1

    i = 0
    for result in ("run_out", "run_out_chance"):
        for _ in range(counts.get(result, 0)):
            put(result, row_cycle[i % FIELD_ROWS])
            i += 1
    order = ("wide", "no_ball", "leg_bye", "leg_bye_4", "bye", "bye_4", "lbw", "stumped",
             "stumping_chance", "caught", "bowled", "catch_chance", "0", "1", "2", "3", "4", "6")
    rest = [r for r in order for _ in range(counts.get(r, 0))]
    # spread each result across rows: walk the free cells column by column
    free = [(r, c) for c in range(FIELD_COLS) for r in range(FIELD_ROWS) if c >= fill[r]]
    free.sort(key=lambda rc: (rc[1], rc[0]))
    if len(rest) != len(free):
        raise ValueError(f"fielding plan has {len(rest) + sum(fill)} cells, not {CELLS}")
    for (r, c), result in zip(free, rest):
        cells[r][c] = result
    return [[str(x) for x in row] for row in cells]


def with_bowled_cells(plan: ChartPlan, n: int) -> ChartPlan:
    """The plan with `n` fielded-ball (then catch-chance) cells turned into `bowled`.

    Striker cards cannot show B (rules), so the striker half of every delivery can only dismiss
    by catches and the chart; the bowler cards' B then has to carry all of the league's bowled
    dismissals, which it cannot where a bowler's card is already at 0 W/B slots. A few bowled
    cells in the chart put the missing bowled dismissals where both halves reach them; their
    number is measured from a first calibration pass (see `calibrate.calibrate`)."""
    counts = dict(plan.counts)
    # fielded balls first, then catch chances down to one: the cards' W slots carry the catches
    # a chart cell gives up, and the chart keeps all three kinds of chance. (Keeping a fielded
    # ball or taking byes instead was measured worse: BBL 2024-25's bowled share then misses.)
    spare = {"0": counts.get("0", 0), "1": counts.get("1", 0),
             "catch_chance": max(counts.get("catch_chance", 0) - 1, 0)}
    n = max(0, min(n, sum(spare.values())))
    left = n
    for result, k in spare.items():
        take = min(left, k)
        counts[result] = counts.get(result, 0) - take
        left -= take
    counts["bowled"] = counts.get("bowled", 0) + n
    return ChartPlan(counts=counts, wide_cells=plan.wide_cells, ratio_errors=plan.ratio_errors)
