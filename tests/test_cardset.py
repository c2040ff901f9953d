"""The typed card set (cardgen/cardset.py): it round-trips every set cardgen writes byte for
byte, keeps what it does not know, and answers the team facts once."""
from __future__ import annotations

import dataclasses
import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from cardgen.cardset import CardSet, Card, FILE_NAME, dumps, load_card_set
from cardgen.errors import CardSetError
from cardgen.render.sample import rules_example_card_set
from cardgen.sim.example import example_card_set

SHIPPED = sorted((Path(__file__).resolve().parents[1] / "stats_cache" / "card-sets").glob("*.json.gz"))


def test_the_shipped_card_sets_are_there():
    # the round trip below runs on every set the repository ships (both rule variants of six
    # seasons); an empty glob would pass it vacuously
    assert len(SHIPPED) >= 10


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name.split("-")[0] + p.name[-20:-8])
def test_every_shipped_card_set_round_trips_byte_for_byte(path: Path, tmp_path: Path):
    text = dumps(json.loads(gzip.decompress(path.read_bytes())))
    (tmp_path / FILE_NAME).write_text(text, encoding="utf-8")
    card_set = load_card_set(tmp_path)
    assert isinstance(card_set, CardSet) and all(isinstance(c, Card) for c in card_set.cards)
    assert dumps(card_set) == text


@pytest.mark.parametrize("doc", [example_card_set(), example_card_set("100-ball", np.random.default_rng(3)),
                                 rules_example_card_set()], ids=["example", "random-hundred", "rules-example"])
def test_the_in_code_sets_round_trip(doc: dict):
    assert dumps(CardSet.from_json(doc)) == dumps(doc)


def test_an_explicit_null_is_written_again_and_an_absent_key_is_not():
    doc = rules_example_card_set()
    del doc["cards"][0]["player"]["keeper"]          # absent ...
    assert doc["cards"][1]["player"]["keeper"] is None  # ... and null
    back = CardSet.from_json(doc).to_json()
    assert "keeper" not in back["cards"][0]["player"]
    assert back["cards"][1]["player"]["keeper"] is None and "keeper" in back["cards"][1]["player"]
    assert back == doc


def test_keys_the_model_does_not_know_are_kept_where_they_were():
    doc = rules_example_card_set()
    doc["rules"] = "quicket"                 # a field the model knows (issue 34) ...
    doc["house_rules"] = "super overs to five"   # ... and one it does not
    doc["cards"][0]["note"] = "a newer writer's field"
    doc["cards"][0]["player"]["born"] = "1993-12-01"
    doc["teams"][0]["colour"] = "#f60"
    card_set = CardSet.from_json(doc)
    assert card_set.extra == {"house_rules": "super overs to five"}
    assert card_set.rules == "quicket"
    assert card_set.to_json() == doc


def test_a_changed_field_is_written_and_the_rest_stays():
    card_set = CardSet.from_json(rules_example_card_set())
    green = card_set.cards[0]
    moved = dataclasses.replace(green, player=dataclasses.replace(green.player, catch=20))
    doc = dataclasses.replace(card_set, cards=(moved,) + card_set.cards[1:]).to_json()
    expected = rules_example_card_set()
    expected["cards"][0]["player"]["catch"] = 20
    assert doc == expected


def test_team_facts():
    doc = example_card_set(teams=("Sydney Thunder", "Perth Scorchers", "Hobart Hurricanes"))
    # Hobart's bowler cards go: its every match was washed out before it bowled
    doc["cards"] = [c for c in doc["cards"] if not (c["team"] == "Hobart Hurricanes" and c["kind"] == "bowler")]
    del doc["teams"][1]["batting_order"]
    card_set = CardSet.from_json(doc)
    assert card_set.playable_teams() == {"Sydney Thunder", "Perth Scorchers"}
    assert not card_set.has_both_decks("Hobart Hurricanes")
    assert card_set.lacking_decks("Hobart Hurricanes") == ["bowler"]
    assert card_set.usual_xi("Sydney Thunder") == [f"syd{i:02d}" for i in range(11)]
    # no line-up in the set: the team's striker cards in the set's order
    assert card_set.usual_xi("Perth Scorchers") == [f"per{i:02d}" for i in range(11)]
    assert card_set.keeper("Sydney Thunder") == "syd02"
    assert card_set.team_names() == ["Sydney Thunder", "Perth Scorchers", "Hobart Hurricanes"]
    one = card_set.only_team("Perth Scorchers")
    assert {c.team for c in one.cards} == {"Perth Scorchers"} and [t.name for t in one.teams] == ["Perth Scorchers"]


def test_loading_checks_the_schema_and_the_rule(tmp_path: Path):
    doc = rules_example_card_set()
    doc["cards"][0]["player"]["catch"] = 21
    (tmp_path / FILE_NAME).write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CardSetError, match=r"is not a valid card set: cards/0/player/catch: 21 is greater"):
        load_card_set(tmp_path)
    doc = rules_example_card_set()
    doc.update(rule="wickets-in-hand", rule_parameters={"name": "wickets-in-hand"})
    (tmp_path / FILE_NAME).write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CardSetError, match=r"rule_parameters are damaged"):
        load_card_set(tmp_path)


def _league_doc() -> dict:
    """The rules example dressed as a league's set: the fields `cardgen league` adds."""
    doc = rules_example_card_set()
    teams = [t["name"] for t in doc["teams"]]
    doc["own_league"] = {"name": "Mine", "baseline": "the mean of 2 seasons", "rounds": 1,
                         "baseline_seasons": ["BBL 2024-25", "WPL 2023"], "chart_from": "BBL 2024-25",
                         "fixtures": [[teams[0], teams[1]]], "average_innings": 160.5,
                         "players": [{"id": "x", "name": "X", "season": "WPL 2023", "points": 1.5, "side": None}]}
    for i, card in enumerate(doc["cards"]):
        card["points"] = {"card": 1.0 * i, "player": 2.0, "batting": 1.5, "bowling": 0.0, "fielding": 0.5}
        card["source"] = {"competition": "WPL", "season": "2023", "team": "Mumbai Indians", "position": 3}
    doc["teams"][0]["points"] = 12.5
    return doc


def test_a_league_set_s_fields_are_typed_and_round_trip():
    doc = _league_doc()
    card_set = CardSet.from_json(doc)
    own = card_set.own_league
    assert own is not None and own.name == "Mine" and own.baseline_seasons == ("BBL 2024-25", "WPL 2023")
    assert own.fixtures == ((doc["teams"][0]["name"], doc["teams"][1]["name"]),)
    assert "own_league" not in card_set.extra and own.extra["average_innings"] == 160.5
    card = card_set.cards[1]
    assert card.points is not None and card.points.card == 1.0 and card.points.fielding == 0.5
    assert card.source is not None and card.source.label == "WPL 2023" and card.source.position == 3
    assert card_set.teams[0].points == 12.5 and card_set.teams[1].points is None
    assert card_set.to_json() == doc and dumps(card_set) == dumps(doc)
    # a season's set has none of them, and writes none
    season = CardSet.from_json(rules_example_card_set())
    assert season.own_league is None and season.cards[0].points is None and season.cards[0].source is None
    assert "own_league" not in season.to_json() and "points" not in season.to_json()["cards"][0]


@pytest.mark.parametrize("damage, where", [
    (lambda d: d["cards"][0]["points"].update(card="lots"), r"cards/0/points/card: 'lots' is not of type 'number'"),
    (lambda d: d["cards"][1]["source"].pop("season"), r"cards/1/source: 'season' is a required property"),
    (lambda d: d["own_league"].pop("fixtures"), r"own_league: 'fixtures' is a required property"),
    (lambda d: d["own_league"]["fixtures"].append(["only one"]), r"own_league/fixtures/1: \['only one'\] is too short"),
    (lambda d: d["teams"][0].update(points="high"), r"teams/0/points: 'high' is not of type 'number'"),
])
def test_loading_checks_a_league_set_s_fields(damage, where: str, tmp_path: Path):
    doc = _league_doc()
    (tmp_path / FILE_NAME).write_text(json.dumps(doc), encoding="utf-8")
    assert load_card_set(tmp_path).own_league is not None
    damage(doc)
    (tmp_path / FILE_NAME).write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CardSetError, match=r"is not a valid card set: " + where):
        load_card_set(tmp_path)
