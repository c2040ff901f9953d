"""The chase line (issue 41): in a chase, the band read from runs needed a ball x wickets in hand.
Every cell of a test line played on scripted dice by the reference engine and by the fast
engine's numpy path and compiled kernel; the clause of the rules as printed is the line with one
edge (so a line off plays every simulation as before); the calibration's bands follow the line.
The browser engine's cells are in tests/test_play_engine.py."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from cardgen import wickets_in_hand as wih
from cardgen.errors import CardgenError
from cardgen.sim import fast
from cardgen.sim.reference import Dice, play_innings
from cardgen.wickets_in_hand import RULE, ChaseLine
from tests.test_sim_engine import DeliveryDice, assert_same_innings
from tests.test_sim_rules import BOWLER_SAYS, STRIKER_SAYS, ScriptedRng, setup

# Rows: runs needed a ball <= 1, 1-1.5, 1.5-2, > 2; columns: wickets in hand 1-3, 4-6, 7-10.
# Every band and TABLE in some cell, neighbours different, so a cell read from the wrong row or
# column shows.
LINE = ChaseLine.from_letters((1.0, 1.5, 2.0), (3, 6), ("NCT", "ANC", "CAN", "ATA"))
LINE_RULE = replace(RULE, chase_line=LINE)
DOWN_OF_COLUMN = (7, 4, 0)     # wickets down in each column (hand 3, 6 and 10: the edges)


def need_of_row(row: int, left: int) -> int:
    """Runs needed in each row with `left` balls left: exactly 1 a ball (the row below an edge),
    1.25, 1.75, and one run over 2 a ball."""
    return (left, left + left // 4, left + 3 * left // 4, 2 * left + 1)[row]


def cells() -> list[tuple[int, int, int, int, int]]:
    """(row, column, wickets down, runs needed, band expected) for every cell; TABLE cells read
    the wickets-in-hand table (consolidate this early in the innings)."""
    out = []
    for row in range(4):
        for col in range(3):
            down = DOWN_OF_COLUMN[col]
            left = 120 - down
            cell = LINE.cells[row][col]
            expected = int(wih.band_table(RULE, 120)[down, left]) if cell == wih.TABLE else cell
            out.append((row, col, down, need_of_row(row, left), expected))
    return out


def test_the_lines_cells_are_its_letters():
    assert LINE.letters() == ("NCT", "ANC", "CAN", "ATA")
    assert LINE.row_words() == ["<= 1", "1-1.5", "1.5-2", "> 2"]
    assert LINE.column_words() == ["1-3", "4-6", "7-10"]
    # the table read in T cells is the first innings' (consolidate at the start of an innings)
    assert {expected for *_, expected in cells()} == {wih.ATTACK, wih.NORMAL, wih.CONSOLIDATE}
    for _row, _col, down, need, expected in cells():
        assert LINE_RULE.band(down, 120 - down, 120, runs_needed=need) == expected
    # late in the innings a T cell reads the table's attack: 7 down, 12 left, 12 needed
    assert LINE.cells[0][0] == wih.NORMAL and LINE.cells[0][2] == wih.TABLE
    assert LINE_RULE.band(1, 12, 120, runs_needed=12) == wih.ATTACK      # table: 1 down, <= 44
    assert LINE_RULE.band(1, 100, 120, runs_needed=100) == wih.CONSOLIDATE


@pytest.mark.parametrize("row, col, down, need, expected", cells())
def test_every_cell_on_scripted_dice_in_the_reference_engine(row, col, down, need, expected):
    """`down` bowled balls (no extra die in any band), then the ball in the cell, twice: a dot
    (attack's d20 3: a four; no d20 elsewhere) and a catch (consolidate's d20 1: kept on the
    ground; no d20 elsewhere)."""
    cs, bat, bowl = setup()
    lead = BOWLER_SAYS["B"] * down
    for ball, extra, runs, out in (
            (STRIKER_SAYS["0"], [3] if expected == wih.ATTACK else [], 4 if expected == wih.ATTACK else 0,
             False),
            (STRIKER_SAYS["W"] + [0], [1] if expected == wih.CONSOLIDATE else [], 0,
             expected != wih.CONSOLIDATE)):
        rng = ScriptedRng(lead + ball + extra)
        inn = play_innings(cs, bat, bowl, Dice(rng), plan=bowl.plans[0], rule=LINE_RULE,
                           target=need, max_balls=down + 1)
        last = inn.balls[-1]
        assert len(inn.balls) == down + 1 and inn.wickets == down + out
        assert last.band == wih.BANDS[expected] and last.bat_runs == runs, (row, col)
        assert not rng.rolls                    # every scripted die was used, no more


@pytest.mark.parametrize("engine", ["numpy", "numba"])
def test_every_cell_on_scripted_dice_in_the_fast_engine(engine, monkeypatch):
    """The same cells in one batch of the fast engine (each innings on its own dice: `down`
    bowled balls, then a dot whose rule d20 is 3, then bowled to two overs), against the reference engine on those dice."""
    if engine == "numba":
        pytest.importorskip("numba")
        assert fast.compiled_engine() is not None   # (else numpy would be compared with itself)
    monkeypatch.setenv(fast.ENGINE_VARIABLE, engine)
    cs, bat, bowl = setup()
    table = fast.SideTable.build(cs, [bat, bowl])
    for row, col, down, need, expected in cells():
        dice = DeliveryDice(np.random.default_rng(0), 12)   # two overs: the batch's are whole
        dice.card_d6[:] = 0                       # the bowler's card, roll 1: bowled
        dice.roll[:] = 0
        dice.card_d6[down], dice.roll[down] = 3, 3   # the striker's card, roll 4: a dot
        dice.rule[:] = 3                          # attack: a four
        ref = play_innings(cs, bat, bowl, dice.for_reference(), plan=bowl.plans[0],
                           rule=LINE_RULE, target=need, max_balls=12)
        assert ref.balls[down].band == wih.BANDS[expected], (row, col)
        assert ref.balls[down].bat_runs == (4 if expected == wih.ATTACK else 0)
        lanes = table.lanes(np.array([0]), np.array([1]), np.array([0]), np.array([need]))
        quick = fast.play_innings_batch(cs, lanes, dice.for_fast(True), rule=LINE_RULE,
                                        max_balls=12)
        assert_same_innings(quick, 0, ref, bowl.plans[0])


def test_the_clause_is_a_line_of_one_edge():
    """The rules' clause (attack over 2 a ball) written as a line plays the same bands, and a
    batch of chases on the same seed gives the same scorecards either way."""
    clause = ChaseLine.from_letters((2.0,), (), ("T", "A"))
    as_line = replace(RULE, chase_line=clause)
    for down in range(10):
        for left in range(1, 121):
            for need in (0, left, 2 * left - 1, 2 * left, 2 * left + 1, 3 * left):   # about the edge
                assert as_line.band(down, left, 120, need) == RULE.band(down, left, 120, need)
    cs, bat, bowl = setup()
    table = fast.SideTable.build(cs, [bat, bowl])
    n = 400
    target = np.random.default_rng(3).integers(100, 260, n)
    lanes = table.lanes(np.zeros(n, int), np.ones(n, int), np.zeros(n, int), target)
    a = fast.play_innings_batch(cs, lanes, np.random.default_rng(9), rule=RULE)
    b = fast.play_innings_batch(cs, lanes, np.random.default_rng(9), rule=as_line)
    for field in ("runs", "wickets", "legal_balls", "bat_runs", "unit_runs"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field


def test_a_line_is_recorded_and_read_back():
    described = LINE_RULE.describe()
    assert described["chase_line"] == {"runs_per_ball_edges": [1.0, 1.5, 2.0],
                                       "wickets_in_hand_edges": [3, 6],
                                       "cells": ["NCT", "ANC", "CAN", "ATA"]}
    assert wih.from_description(described) == LINE_RULE
    assert "chase_line" not in RULE.describe()       # off: a card set's record as before
    damaged = dict(described, chase_line={**described["chase_line"], "cells": ["NCX"] * 4})
    with pytest.raises(CardgenError, match="rule_parameters are damaged"):
        wih.from_description(damaged)


@pytest.mark.parametrize("edges, hands, rows", [
    ((2.0, 1.0), (3,), ("AA", "NN", "CC")),            # edges not rising
    ((1.0,), (3,), ("AA",)),                            # a row short
    ((1.0,), (0,), ("AA", "NN")),                       # no side has 0 wickets in hand
    ((1.0,), (3,), ("AX", "NN"))])                      # not a band
def test_a_bad_line_is_a_one_line_error(edges, hands, rows):
    with pytest.raises(CardgenError) as err:
        ChaseLine.from_letters(edges, hands, rows)
    assert "\n" not in str(err.value)


def test_the_calibration_counts_chase_balls_in_the_lines_bands():
    """situations_table (the bands calibration solves over) reads a chase ball's band from the
    line: a second innings needing 210 off 120 with none down is row 1.5-2, 7-10 in hand:
    normal in LINE where the clause reads the table (consolidate); needing 300 (over 2 a ball)
    it attacks under both."""
    import pandas as pd

    from cardgen.stats.tables import situations_table
    rows = []
    for match, first_total in (("m1", 209), ("m2", 299)):
        for innings in (1, 2):
            rows.append({"match_id": match, "innings": innings, "delivery": 1, "legal": 1,
                         "wides": 0, "runs_total": first_total if innings == 1 else 0,
                         "batter_id": f"b{innings}", "bowler_id": f"w{innings}",
                         "batting_team": f"T{innings}", "bowling_team": f"T{3 - innings}"})
    d = pd.DataFrame(rows)
    w = pd.DataFrame({"match_id": pd.Series(dtype=str), "innings": pd.Series(dtype=int),
                      "delivery": pd.Series(dtype=int), "kind": pd.Series(dtype=str)})

    def chaser(rule: wih.WicketsInHand) -> dict[str, int]:
        out = situations_table(d, w, 120, rule=rule)
        row = out[(out["role"] == "bat") & (out["player_id"] == "b2")].iloc[0]
        return {b: int(row[f"balls_{b}"]) for b in wih.BANDS}

    assert chaser(LINE_RULE) == {"attack": 1, "normal": 1, "consolidate": 0}
    assert chaser(RULE) == {"attack": 1, "normal": 0, "consolidate": 1}


@pytest.mark.parametrize("args, says", [
    (["--rules", "advanced", "--chase-line", "2/6/TT"], "chase line cells"),   # a row short
    (["--chase-line", "2/6/TT,AA"], "give --rules advanced")])
def test_simulate_refuses_a_bad_chase_line_in_one_line(args, says):
    from click.testing import CliRunner

    from cardgen.cli import main
    result = CliRunner().invoke(main, ["simulate", "-c", "BBL", "-s", "2024-25", "--seasons", "1", *args])
    assert result.exit_code == 2, result.output
    assert says in result.output and "Traceback" not in result.output
