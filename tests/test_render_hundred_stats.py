"""100-ball bowler figures agree with their economy (issue 11 item 8): balls, not 5-ball overs,
beside an economy per six balls, on the card and on the team sheet."""
from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from cardgen.render.card import card_views
from cardgen.render.sample import rules_example_card_set
from cardgen.render.teamsheets import render_team_sheets_pdf
from conftest import as_model


def _hundred_set() -> dict:
    card_set = rules_example_card_set()
    card_set["format"] = "100-ball"
    card_set["competition"] = {"code": "HUNDRED", "name": "The Hundred (men)", "nation": "England", "sex": "men"}
    card_set["season"] = "2024"
    for card in card_set["cards"]:
        if card["kind"] == "bowler":
            card["real"].update({"balls": 35, "runs": 39, "economy": 6.69, "overs": "7.0"})
    return card_set


@pytest.mark.needs_data
def test_hundred_bowler_cards_print_balls_and_an_economy_per_six_of_them(render_card_sets):
    """Every real Hundred 2024 bowler card: its balls, and an economy that is 6 x runs / those balls."""
    card_set = render_card_sets["HUNDRED"]
    bowlers = [c for c in card_set["cards"] if c["kind"] == "bowler"]
    assert len(bowlers) > 40
    for card in bowlers:
        [view] = card_views(as_model({**card_set, "cards": [card]}))
        real = card["real"]
        items = [i for line in view.stats for i in line]
        assert f"Balls: {real['balls']}" in items and not any(i.startswith("Overs") for i in items)
        assert f"Econ: {6 * real['runs'] / real['balls']:.2f}" in items, (view.name, items, real)


def test_t20_bowler_card_keeps_overs():
    bowler = next(v for v in card_views(as_model(rules_example_card_set())) if v.kind == "bowler")
    items = [i for line in bowler.stats for i in line]
    assert "Overs: 41" in items and "Econ: 7.34" in items  # the rules' own example card


def test_hundred_team_sheet_column_is_balls():
    text = "\n".join(p.extract_text() for p in
                     PdfReader(io.BytesIO(render_team_sheets_pdf(as_model(_hundred_set()), "a4", "credit"))).pages)
    assert "Balls" in text and "Overs" not in text.replace("overs per innings", "")


@pytest.mark.needs_data
def test_every_usage_letter_on_the_team_sheets_is_in_the_band_their_legend_gives(render_card_sets):
    """Print audit: the team sheets' legend read "letter = average overs per innings" on The
    Hundred too, whose letters count balls (20 = A+), and gave no bands, so "A+/1" or "C/6" could
    not be read off the sheet. Each real bowler's letter must fall in the band the printed legend
    states, for his average per innings bowled."""
    import re
    for code, unit in (("HUNDRED", 1), ("BBL", 6)):  # balls per unit the legend counts in
        card_set = render_card_sets[code]
        pdf = render_team_sheets_pdf(as_model(card_set), "a4", "credit")
        text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages).split())
        legend = re.search(r"Usage: letter = average (\w+) an innings bowled \((.*?)\); number = innings bowled",
                           text)
        assert legend, text[:600]
        assert legend.group(1) == ("balls" if unit == 1 else "overs")
        bands = {}
        for letter, under, lo, hi in re.findall(r"(A\+|[A-D]) = (under )?(\d+)(?:-(\d+))?", legend.group(2)):
            lo_f = float(lo)
            bands[letter] = ((0.0, lo_f) if under else (lo_f, float("inf")) if letter == "A+"
                             else (lo_f, float(hi)))
        assert set(bands) == {"A+", "A", "B", "C", "D"}
        bowlers = [c for c in card_set["cards"] if c["kind"] == "bowler"]
        assert len(bowlers) > 40
        for card in bowlers:
            average = card["real"]["balls"] / unit / card["usage"]["innings"]
            low, high = bands[card["usage"]["letter"]]
            assert low <= average < high or (card["usage"]["letter"] == "A+" and average >= low), \
                (code, card["player"]["name"], card["usage"], average)
            # and the sheet prints that letter/innings for him
            assert f"{card['usage']['letter']}/{card['usage']['innings']}" in text
