"""The first-match page's real replay (cardgen.site.first_match): the over it tells, each ball's
dice and words, and the scoresheet filled in from the same balls."""
from __future__ import annotations

from pathlib import Path

import pypdfium2
import pytest

from cardgen.cardset import CardSet
from cardgen.play.scorecard import innings_card
from cardgen.sim import model as m
from cardgen.site import first_match as fm
from conftest import shipped_set

pytestmark = pytest.mark.slow   # the shipped set, read and compiled once for the module (about 5 s)


@pytest.fixture(scope="module")
def bbl() -> CardSet:
    return CardSet.from_json(shipped_set("BBL_2024-25", "quicket"))


@pytest.fixture(scope="module")
def replay(bbl: CardSet) -> fm.Replay:
    teams = bbl.team_names()[:2]
    return fm.play_replay(bbl, teams[0], teams[1])


def _read_on_chart(replay: fm.Replay, rb) -> bool:
    side = replay.bat_first
    d6, roll = rb.rolls[0].value, rb.rolls[1].value
    cs = replay.cs
    lut = cs.bowler_lut[rb.ball.bowler] if d6 <= 3 else cs.striker_lut[side.batters[rb.ball.striker]]
    return int(lut[roll - 1]) == m.FIELD


def test_the_over_told_is_the_first_with_a_boundary_and_a_chart_ball(replay: fm.Replay):
    bpo = replay.cs.fmt.balls_per_over
    units = fm._units(replay.balls[0], bpo)
    k = fm.chosen_over(replay.cs, replay.bat_first, units)
    both = [any(rb.ball.bat_runs in (4, 6) for rb in u) and any(_read_on_chart(replay, rb) for rb in u)
            for u in units]
    assert both[k] and not any(both[:k])
    # an over is its legal balls (and any wide or no-ball among them), every over but the last full
    assert [sum(rb.ball.legal for rb in u) for u in units[:-1]] == [bpo] * (len(units) - 1)


def test_each_ball_says_its_own_dice_and_the_score_after_it(replay: fm.Replay):
    units = fm._units(replay.balls[0], replay.cs.fmt.balls_per_over)
    for unit in units[:6]:
        for rb in unit:
            told = fm.explain_ball(replay, 0, rb, "x")
            faces = " ".join(s["die"] for s in told["steps"])
            # every die rolled is shown, in the order rolled (a fielder drawn as "card k of n")
            shown = [f"card {r.value + 1} of {r.deck}" if r.die == "pick" else f"{r.die} {r.value}"
                     for r in rb.rolls]
            assert faces.replace(",", "") == " ".join(shown)
            assert told["score"] == f"{rb.runs}/{rb.wickets}"
            whose = "bowler's" if rb.rolls[0].value <= 3 else "striker's"
            assert whose in told["steps"][0]["reads"]
    # the scores after the balls are the innings' own
    assert (replay.balls[0][-1].runs, replay.balls[0][-1].wickets) == (replay.match.first.runs,
                                                                       replay.match.first.wickets)


def test_the_filled_sheet_agrees_with_the_match_pages_scorecard(replay: fm.Replay):
    """The sheet's figures are counted in first_match; play.scorecard counts them its own way
    (the page's and `cardgen replay`'s scorecard): the two must agree."""
    sheet = fm.filled_sheet(replay, "A v B")
    cs = replay.cs
    for inn, (bat, bowl, played) in zip(sheet.innings, [
            (replay.bat_first, replay.bat_second, replay.match.first),
            (replay.bat_second, replay.bat_first, replay.match.second)]):
        card = innings_card(cs, played, bat, bowl, 0, 10)
        batted = [row for row in inn.batting if row[2] != "did not bat"]
        assert [row[4:8] for row in batted] == [tuple(row[2:6]) for row in card.batting]
        assert [row[0] for row in card.bowling] == [row[0] for row in inn.bowling]
        # T20 columns: name, over 1-4, overs, maidens, runs, wickets, wides, no-balls
        assert [(r[5], r[6], r[7], r[8], r[9], r[10]) for r in inn.bowling] == \
            [(r[1].removesuffix(".0"), *r[2:7]) for r in card.bowling]   # a scorer writes 4, not 4.0
        assert all(sum(int(x) for x in r[1:5] if x) == int(r[7]) for r in inn.bowling)   # over by over
        assert inn.runs_total == str(played.runs) and inn.wickets == str(played.wickets)
        assert len(inn.fall) == played.wickets
        # one mark per legal ball box in the striker's row (extras share the next box)
        assert len({b.box for b in inn.boxes}) == played.legal_balls
        assert sum(b.out for b in inn.boxes) == played.wickets


@pytest.mark.slow
def test_write_first_match_writes_the_same_filled_sheet_every_time(bbl: CardSet, tmp_path: Path):
    teams = (bbl.teams[0].name, bbl.teams[1].name)
    page = fm.write_first_match(bbl, "BBL_2024-25", teams, tmp_path / "a", ("a4", "letter"))
    again = fm.write_first_match(bbl, "BBL_2024-25", teams, tmp_path / "b", ("a4", "letter"))
    assert page == again
    for d in page["downloads"]:
        assert (tmp_path / "a" / d["href"]).read_bytes() == (tmp_path / "b" / d["href"]).read_bytes()
    assert [d["name"] for d in page["downloads"]] == ["bbl-2024-25-first-match-scoresheet-filled-a4.pdf",
                                                      "bbl-2024-25-first-match-scoresheet-filled-letter.pdf"]
    pdf = pypdfium2.PdfDocument((tmp_path / "a" / page["downloads"][0]["href"]).read_bytes())
    assert len(pdf) == 4   # the kit's sheet: two grid pages, two scorecard pages
    first = pdf[0].get_textpage().get_text_range()
    assert teams[0] in first and page["first_total"].split("/")[0] in first
    assert f"{page['bowler']} (1)" in first
    assert (tmp_path / "a" / page["png"]["src"]).stat().st_size > 50_000
