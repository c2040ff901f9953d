"""Card sets built from the real BBL 2024-25 and Hundred 2024 data: schema, printed facts, CLI."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from cardgen.calibrate.cardset import (CardSetError, load_card_set,
                                       write_card_set)
from cardgen.calibrate.model import chart_to_slots
from cardgen.competitions import get_competition
from conftest import as_model

pytestmark = pytest.mark.needs_data

SCHEMA = Path(__file__).resolve().parents[2] / "shared" / "schemas" / "card-set.schema.json"



@pytest.fixture(scope="session")
def bbl_set(render_card_sets) -> dict:
    """The session's BBL 2024-25 set (conftest), a copy of its own for these tests."""
    return copy.deepcopy(render_card_sets["BBL"])


@pytest.fixture(scope="session")
def hundred_set(render_card_sets) -> dict:
    return copy.deepcopy(render_card_sets["HUNDRED"])


def _card(card_set: dict, cricsheet_name: str, kind: str) -> dict:
    found = [c for c in card_set["cards"]
             if c["player"]["cricsheet_name"] == cricsheet_name and c["kind"] == kind]
    assert len(found) == 1, f"{cricsheet_name} {kind}: {len(found)} cards"
    return found[0]


@pytest.mark.parametrize("which", ["bbl_set", "hundred_set"])
def test_card_set_is_schema_valid_and_charts_cover_1_to_100(which, request):
    card_set = request.getfixturevalue(which)
    jsonschema.validate(card_set, json.loads(SCHEMA.read_text()))
    for card in card_set["cards"]:
        slots = chart_to_slots(card["chart"])  # raises unless 1..100 is covered exactly once
        assert slots.sum() == 100
        if card["kind"] == "striker":
            assert all(r["result"] != "B" for r in card["chart"])
        else:
            assert card["usage"]["letter"] in ("A+", "A", "B", "C", "D")
        assert card["player"]["batting_role"] in ("Opening", "Top", "Middle", "Wicketkeeper",
                                                  "All-Rounder", "*")
    cells = card_set["fielding_chart"]["cells"]
    assert len(cells) == 6 and all(len(row) == 20 for row in cells)
    results = {c for row in cells for c in row}
    assert {"wide", "no_ball", "leg_bye", "lbw", "catch_chance", "run_out_chance",
            "stumping_chance"} <= results


def test_teams_have_short_names_orders_and_keepers(bbl_set):
    teams = {t["name"]: t for t in bbl_set["teams"]}
    assert len(teams) == 8
    assert teams["Sydney Thunder"]["short_name"] == "Sydney (T)"
    assert teams["Sydney Sixers"]["short_name"] == "Sydney (S)"
    assert teams["Perth Scorchers"]["short_name"] == "Perth"
    ids = {c["player"]["id"] for c in bbl_set["cards"]}
    for t in teams.values():
        assert len(t["batting_order"]) == 11
        assert t["wicketkeeper"] in t["batting_order"]
        assert set(t["bowlers"]) <= ids
        assert not set(t["reserves"]) & set(t["batting_order"])


def test_cj_green_bowler_card(bbl_set):
    card = _card(bbl_set, "CJ Green", "bowler")
    assert card["usage"] == {"letter": "A", "innings": 11}
    assert card["real"]["economy"] == 7.34
    assert card["real"]["overs"] == "41.0"
    assert card["real"]["dismissals"] == 12
    assert card["team"] == "Sydney Thunder"


def test_c_connolly_striker_card(bbl_set):
    card = _card(bbl_set, "C Connolly", "striker")
    real = card["real"]
    assert (real["strike_rate"], real["balls"], real["high_score"], real["fours"], real["sixes"]) \
        == (131.46, 267, 66, 20, 19)
    assert card["player"]["name"] == "Cooper Connolly"


def test_every_card_carries_its_real_dot_balls(bbl_set, bbl_stats):
    """The site showed '—' for every player's real dot balls beside the card's expected ones: the
    set kept no real count. Each card's `real.dots` is its player's, from the stats tables."""
    bat = bbl_stats.batting.groupby(["player_id", "team"])["dots"].sum()
    bowl = bbl_stats.bowling.groupby(["player_id", "team"])["dots"].sum()
    checked = 0
    for card in bbl_set["cards"]:
        table = bat if card["kind"] == "striker" else bowl
        key = (card["player"]["id"], card["team"])
        if key in table.index:
            assert card["real"]["dots"] == int(table.loc[key]), (card["player"]["name"], card["kind"])
            assert 0 <= card["real"]["dots"] <= card["real"]["balls"]
            checked += 1
    assert checked > 200
    connolly = _card(bbl_set, "C Connolly", "striker")["real"]
    assert 0.2 < connolly["dots"] / connolly["balls"] < 0.5  # a T20 batter's share of dots


def test_write_and_load_round_trip(bbl_set, tmp_path):
    path = write_card_set(bbl_set, tmp_path)
    assert path == tmp_path / "BBL_2024-25-advanced" / "card-set.json"   # the advanced kit's folder
    assert load_card_set(path) == json.loads(json.dumps(bbl_set))
    assert load_card_set(path.parent)["season"] == "2024-25"
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(CardSetError):
        load_card_set(tmp_path / "bad.json")
    with pytest.raises(CardSetError):
        load_card_set(tmp_path / "missing.json")


@pytest.mark.slow
def test_cli_writes_card_set(mirror, tmp_path, monkeypatch):
    from cardgen.cli import main
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    runner = CliRunner()
    result = runner.invoke(main, ["calibrate", "--competition", "BBL", "--season", "2024-25",
                                  "--source", str(mirror), "--out", str(tmp_path / "out"),
                                  "--report"])
    assert result.exit_code == 0, result.output
    path = tmp_path / "out" / "BBL_2024-25" / "card-set.json"
    assert path.is_file() and "made for the Quicket Cricket rules as printed" in result.output
    # the report: a row per card with real vs expected, the summary and the cards outside
    assert "Connolly" in result.output and "SR within +/-2%" in result.output
    assert "cards outside tolerance" in result.output and "unreachable" in result.output
    # Connolly's row: balls, real SR 131.46, then for SR, dismissal rate, 4s and 6s per ball the
    # real figure, the expected one and the error (real 4s 20/267 = 0.075, 6s 19/267 = 0.071)
    row = next(line for line in result.output.splitlines()
               if line.startswith("striker  Cooper Connolly"))
    cells = row.replace("|", " ").split()
    assert cells[3:5] == ["267", "131.46"], row
    assert cells[cells.index("131.46") + 3] == "0.0262"  # 7 outs in 267 balls
    # no Defence rating: the Quicket rules have none (the advanced set rates him, R13)
    assert "0.075" in cells and "0.071" in cells and len(cells) == 16, row
    # same inputs, byte-identical output: what this process calibrated is the set committed
    # from another (tests/test_calibrate_reuse.py, the shipped sets)
    from cardgen.cardset import dumps
    from cardgen.calibrate.reuse import SHIPPED_OPTIONS, fingerprint, shipped_path
    from cardgen.stats.load import season_stats
    import gzip
    comp = get_competition("BBL")
    stats = season_stats(comp, "2024-25")
    shipped = shipped_path(comp, "2024-25", fingerprint(stats, comp, "2024-25", SHIPPED_OPTIONS[0],
                                                        versions=False), SHIPPED_OPTIONS[0])
    assert path.read_bytes() == gzip.decompress(shipped.read_bytes())
    assert dumps(json.loads(path.read_text(encoding="utf-8"))).encode("utf-8") == path.read_bytes()
    bad = runner.invoke(main, ["calibrate", "--competition", "NOPE", "--season", "2024"])
    assert bad.exit_code != 0 and "Traceback" not in bad.output


def test_expected_figures_are_reproducible_from_the_written_set(bbl_set):
    """What the simulator's `validate` compares with: the set alone gives back every card's
    expected figures (league means re-derived from the charts and real balls; the wickets-in-hand
    rule over each card's real situations)."""
    from cardgen.calibrate.expect import (defence_of, model_from_card_set, pairing_figures,
                                          rule_matrix_of)
    doc = json.loads(json.dumps(bbl_set))
    model = model_from_card_set(doc)
    assert doc["rule"] == "wickets-in-hand" and doc["rules"] == "advanced"
    for card in doc["cards"]:
        slots = chart_to_slots(card["chart"]).astype(float)
        rule = rule_matrix_of(doc, card)
        if card["kind"] == "striker":
            got = model.striker(slots, rule, defence_of(card))
            assert got["strike_rate"] == pytest.approx(card["expected"]["strike_rate"], abs=2e-3)
            assert got["dismissal_rate"] == pytest.approx(card["expected"]["dismissal_rate"], abs=2e-5)
        else:
            got = model.bowler(slots, rule)
            assert got["economy"] == pytest.approx(card["expected"]["economy"], abs=2e-4)
            assert got["wicket_rate"] == pytest.approx(card["expected"]["wicket_rate"], abs=2e-5)
    green = _card(doc, "CJ Green", "bowler")["player"]["id"]
    connolly = _card(doc, "C Connolly", "striker")["player"]["id"]
    pair = pairing_figures(doc, green, connolly)
    assert sum(pair["outcomes"].values()) == pytest.approx(1.0)
    assert 0 < pair["striker"]["strike_rate"] < 300


def test_a_card_set_saved_with_a_byte_order_mark_still_reads(card_set_file: Path, tmp_path: Path):
    """Notepad and some editors save UTF-8 with a byte-order mark: the set, its kit and its site
    page read as the file without it (a hand-edited set was refused: "Unexpected UTF-8 BOM")."""
    from cardgen.render.kit import KitOptions, build_kit
    from cardgen.site.kit import load_card_set_file
    marked = tmp_path / "card-set.json"
    marked.write_bytes(b"\xef\xbb\xbf" + card_set_file.read_bytes())
    assert load_card_set(marked) == load_card_set(card_set_file)
    assert load_card_set_file(marked) == load_card_set_file(card_set_file)
    one_team = load_card_set(marked)["teams"][0]["name"]
    kit = build_kit(as_model(load_card_set(marked)), tmp_path / "out", KitOptions(team=one_team, images=False,
                                                                        papers=("a4",), progress=False))
    assert (kit.folder / "cards-a4.pdf").is_file()
