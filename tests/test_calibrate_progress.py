"""A calibration shows its progress on a terminal (and nowhere else), from the first solve on.

Runs on the synthetic mirror in tests/fixtures/synthetic: no ../shared needed."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from cardgen.cache import Cache
from cardgen.calibrate.cardset import card_set_from_stats
from cardgen.calibrate.parallel import reporting_to
from cardgen.calibrate.progress import calibration_progress
from cardgen.competitions import get_competition
from cardgen.stats.load import season_stats

SOURCE = Path(__file__).resolve().parent / "fixtures" / "synthetic" / "cricsheet"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(scope="module")
def stats(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return season_stats(get_competition("BBL"), "2030-31", str(SOURCE),
                        cache=Cache(tmp_path_factory.mktemp("tables")))


def test_the_bar_counts_every_card_solve_on_a_terminal(stats, monkeypatch: pytest.MonkeyPatch) -> None:
    rounds: list[int] = []
    with reporting_to(rounds.append):  # the solves as the calibration reports them, counted here
        card_set_from_stats(stats, get_competition("BBL"), "2030-31")
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    with calibration_progress("BBL 2030-31"):
        card_set = card_set_from_stats(stats, get_competition("BBL"), "2030-31")
    shown = re.findall(r"calibrate BBL 2030-31: (\d+) card solves", terminal.getvalue())
    cards = len(card_set["cards"])
    assert shown, terminal.getvalue()
    # the last figure drawn is every solve of the (deterministic) calibration, and every card is
    # solved several times (continuous rounds, then whole-slot rounds)
    assert int(shown[-1]) == sum(rounds) > 2 * cards > 0


def test_no_bar_off_a_terminal_or_when_nothing_is_solved(stats, monkeypatch: pytest.MonkeyPatch) -> None:
    piped = io.StringIO()
    monkeypatch.setattr("sys.stderr", piped)
    with calibration_progress("BBL 2030-31"):
        card_set_from_stats(stats, get_competition("BBL"), "2030-31")
    assert piped.getvalue() == ""
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    with calibration_progress("BBL 2030-31"):
        pass  # a reused set: no solve
    with calibration_progress("BBL 2030-31", enabled=False):
        card_set_from_stats(stats, get_competition("BBL"), "2030-31")
    assert terminal.getvalue() == ""
