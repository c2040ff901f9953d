"""The one parser of printed charts (`chart_results`): calibration and the engines read a card's
ranges the same way, and a chart that does not tile 1..100 is a named CardSetError for both."""
from __future__ import annotations

import re

import numpy as np
import pytest

from cardgen.calibrate.cardset import CardSetError
from cardgen.calibrate.expect import model_from_card_set, pairing_figures
from cardgen.calibrate.model import CARD_RESULTS, chart_to_slots, slots_to_chart
from cardgen.sim.model import CARD_CODES, chart_table, compile_card_set
from conftest import as_model

R = [{"lo": 1, "hi": 40, "result": "0"}, {"lo": 41, "hi": 90, "result": "1"},
     {"lo": 91, "hi": 100, "result": "4"}]

BAD_CHARTS = {
    # the review's case: a backwards range used to count -9 sixes and pass the coverage check
    "backwards": ([{"lo": 1, "hi": 100, "result": "0"}, {"lo": 50, "hi": 40, "result": "6"}],
                  "bad range"),
    # beyond 100: numpy used to clip the coverage while the slot count said 150
    "past 100": ([{"lo": 1, "hi": 150, "result": "0"}], "bad range"),
    "roll 0": ([{"lo": 0, "hi": 40, "result": "0"}] + R[1:], "bad range"),
    "fractional": ([{"lo": 1, "hi": 40.5, "result": "0"}] + R[1:], "bad range"),
    "text bound": ([{"lo": "1", "hi": 40, "result": "0"}] + R[1:], "bad range"),
    "boolean bound": ([{"lo": True, "hi": 40, "result": "0"}] + R[1:], "bad range"),
    "overlap": ([{"lo": 1, "hi": 45, "result": "0"}] + R[1:], "overlaps"),
    "gap": (R[:1] + R[2:], "roll 41 uncovered"),
    "empty": ([], "roll 1 uncovered"),
    "unknown result": ([{"lo": 1, "hi": 40, "result": "5"}] + R[1:], "unknown chart result"),
    "numeric result": ([{"lo": 1, "hi": 40, "result": 0}] + R[1:], "unknown chart result"),
    "no hi": ([{"lo": 1, "result": "0"}] + R[1:], "needs lo, hi and result"),
    "not a list": ({"lo": 1, "hi": 100, "result": "0"}, "not a list"),
}


def test_a_good_chart_gives_its_slot_counts_and_codes():
    assert chart_to_slots(R).tolist() == [0, 0, 0, 40, 50, 0, 0, 10, 0]
    table = chart_table(R, "card")
    assert (table[:40] == CARD_CODES["0"]).all() and (table[40:90] == CARD_CODES["1"]).all()
    assert (table[90:] == CARD_CODES["4"]).all()
    # a whole float bound (JSON may write 40.0) reads as the integer it is
    assert chart_to_slots([dict(R[0], hi=40.0)] + R[1:]).tolist() == chart_to_slots(R).tolist()


@pytest.mark.needs_data
@pytest.mark.parametrize("name", list(BAD_CHARTS))
def test_bad_charts_are_card_set_errors_for_calibration_and_engine(name, render_card_sets):
    chart, message = BAD_CHARTS[name]
    with pytest.raises(CardSetError, match=f"here: .*{message}"):
        chart_to_slots(chart, "here")
    with pytest.raises(CardSetError, match=f"here: .*{message}"):
        chart_table(chart, "here")

    # the same chart on one real card: every reader of a card set names that card
    real = render_card_sets["BBL"]
    bowler = next(c for c in real["cards"] if c["kind"] == "bowler")
    striker = next(c for c in real["cards"] if c["kind"] == "striker")
    broken = dict(bowler, chart=chart)
    bad_set = dict(real, cards=[broken if c is bowler else c for c in real["cards"]])
    who = re.escape(f"card {bowler['player']['name']} ({bowler['team']}, bowler): ") + f".*{message}"
    with pytest.raises(CardSetError, match=who):
        compile_card_set(as_model(bad_set))
    with pytest.raises(CardSetError, match=who):
        model_from_card_set(bad_set)
    with pytest.raises(CardSetError, match=who):
        pairing_figures(bad_set, bowler["player"]["id"], striker["player"]["id"])
    assert bowler["chart"] is not chart  # the session's set is untouched


@pytest.mark.needs_data
def test_every_real_card_reads_the_same_in_calibration_and_engine(render_card_sets):
    code_of = np.array([CARD_CODES[r] for r in CARD_RESULTS])
    for card_set in render_card_sets.values():
        for card in card_set["cards"]:
            slots = chart_to_slots(card["chart"])
            table = chart_table(card["chart"], "card")
            assert slots.sum() == 100 and (slots >= 0).all()
            # the engine's roll table holds each result exactly as often as calibration counts it
            assert [(table == code).sum() for code in code_of] == slots.tolist()
            assert slots_to_chart(slots) == card["chart"]  # charts are printed in canonical order
