"""The fields every set cardgen writes carries beyond the shared contract (issue 39): what a card
gives in play (`expected`), its player's balls by rule band (`situations`) and by phase
(`real.phase_balls`), `full_name`, a card's `png`, a side's `bowlers` and `reserves`, the
rule's `rule_parameters`, build stamps. cardgen's schema extension describes them and the model
types them, once, at the load: every shipped set validates and reads as typed values, and a
hand-edited set with a bad value in one of them is one line naming it, on the command line and on
the site, never a traceback from a page that reads it."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from cardgen.cardset import (CardSet, CardSetError, Expected, PhaseBalls, RuleParameters, Situations,
                             dumps, load_card_set, schema_problem)
from cardgen.paths import bundled_tables_dir, league_schema_path, schema_path

SHIPPED = sorted((bundled_tables_dir() / "card-sets").glob("*.json.gz"))


def _doc(path: Path) -> dict:
    return json.loads(gzip.decompress(path.read_bytes()))


def _advanced(code: str) -> dict:
    """A shipped advanced-rules set (it has situations and rule_parameters) of one season."""
    for path in SHIPPED:
        if path.name.startswith(code + "-"):
            doc = _doc(path)
            if doc.get("rule_parameters"):
                return doc
    raise AssertionError(f"no shipped advanced set of {code}")


def test_there_are_shipped_sets_of_both_rule_sets():
    assert len(SHIPPED) >= 10
    assert {bool(_doc(p).get("rule_parameters")) for p in SHIPPED} == {True, False}


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_set_validates_and_reads_as_typed_fields(path: Path):
    """The shipped sets are byte for byte what calibrating gives (test_calibrate_reuse), so this is
    every set the calibration writes for the bundled seasons: both schemas pass it, the model
    types each of the extension's fields, and writing the model again gives the file's text."""
    doc = _doc(path)
    for schema in (schema_path(), league_schema_path()):
        jsonschema.validate(doc, json.loads(schema.read_text()))
    card_set = CardSet.from_json(doc)
    assert dumps(card_set) == dumps(doc)
    bowlers = card_set.bowlers
    assert bowlers and all(isinstance(c.expected, Expected) and c.expected.economy > 0 for c in bowlers)
    assert all(isinstance(c.real.phase_balls, PhaseBalls) for c in bowlers)
    assert all(sum(c.real.phase_balls.values()) == c.real.balls for c in bowlers)
    assert all(c.expected.strike_rate is not None for c in card_set.strikers)
    assert all(isinstance(p, str) for t in card_set.teams for p in t.bowlers + t.reserves)
    assert any(c.player.full_name for c in card_set.cards)
    if doc.get("rule_parameters"):
        rule = card_set.rule_parameters
        assert isinstance(rule, RuleParameters) and rule.name == "wickets-in-hand"
        assert rule.consolidate_d20_safe == tuple(doc["rule_parameters"]["consolidate_d20_safe"])
        assert dict(rule) == doc["rule_parameters"]   # the rule's own reader sees the document
        shares = [c.situations for c in card_set.cards if c.situations is not None]
        assert shares and all(isinstance(s, Situations) and abs(sum(s.values()) - 1) < 1e-5 for s in shares)
    else:
        assert card_set.rule_parameters is None


def _first(doc: dict, kind: str) -> dict:
    return next(c for c in doc["cards"] if c["kind"] == kind)


# (a hand edit, the words the one line says: where, and the bad value)
EDITS = [
    (lambda d: _first(d, "bowler")["expected"].update(economy="8.6"), "expected/economy: '8.6' is not of type 'number'"),
    (lambda d: _first(d, "striker").update(expected="n/a"), "expected: 'n/a' is not of type 'object'"),
    (lambda d: _first(d, "striker")["situations"].update(consolidate=True), "situations/consolidate: True is not of type 'number'"),
    (lambda d: _first(d, "striker").update(situations=[0.2, 0.8]), "situations: [0.2, 0.8] is not of type 'object'"),
    (lambda d: _first(d, "bowler")["real"]["phase_balls"].update(death="lots"), "phase_balls/death: 'lots' is not of type 'integer'"),
    (lambda d: _first(d, "bowler")["real"]["phase_balls"].update(death=-4), "phase_balls/death: -4 is less than the minimum of 0"),
    (lambda d: d["rule_parameters"].update(consolidate_d20_safe=[1]), "consolidate_d20_safe: [1] is too short"),
    (lambda d: d["rule_parameters"].update(consolidate_from_balls_per_wicket="eight"), "consolidate_from_balls_per_wicket: 'eight' is not of type 'number'"),
    (lambda d: d["teams"][0].update(bowlers=["616a8149", 2]), "bowlers/1: 2 is not of type 'string'"),
    (lambda d: d["teams"][0].update(reserves="none"), "reserves: 'none' is not of type 'array'"),
    (lambda d: _first(d, "striker")["player"].update(full_name=42), "full_name: 42 is not of type 'string'"),
    (lambda d: _first(d, "striker").update(position="7"), "position: '7' is not of type 'integer'"),
    (lambda d: _first(d, "striker").update(png=["a.png"]), "png: ['a.png'] is not of type 'string'"),
    (lambda d: d.update(built=20241201), "built: 20241201 is not of type 'string'"),
]


@pytest.fixture(scope="module")
def bbl() -> dict:
    return _advanced("BBL_2024-25")


def _edited(bbl: dict, edit, folder: Path) -> Path:
    doc = json.loads(json.dumps(bbl))
    edit(doc)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "card-set.json").write_text(json.dumps(doc))
    return folder / "card-set.json"


@pytest.mark.parametrize("edit, words", EDITS)
def test_a_bad_value_in_a_described_field_is_one_line_at_the_load(bbl, tmp_path, edit, words):
    path = _edited(bbl, edit, tmp_path)
    with pytest.raises(CardSetError) as raised:
        load_card_set(path)
    message = str(raised.value)
    assert message.startswith(f"{path} is not a valid card set: ") and words in message
    assert "\n" not in message
    assert schema_problem(bbl) is None and load_card_set(_edited(bbl, lambda d: None, tmp_path / "ok"))


@pytest.mark.parametrize("edit, words", EDITS[:3] + EDITS[6:7])
def test_the_model_types_a_document_built_in_memory_too(bbl, edit, words):
    """CardSet.from_json, which reads the sets cardgen builds in memory without the schema's
    walk, refuses the same values with one line naming the card and the field."""
    doc = json.loads(json.dumps(bbl))
    edit(doc)
    field = words.split(":")[0].split("/")[0]
    with pytest.raises(CardSetError, match=field) as raised:
        CardSet.from_json(doc)
    assert "\n" not in str(raised.value)


@pytest.mark.needs_data
@pytest.mark.parametrize("edit, words", [EDITS[0], EDITS[6], EDITS[8]])
def test_the_cli_gives_one_line_for_a_bad_described_field(bbl, tmp_path, mirror, edit, words):
    from cardgen.cache import CACHE_ENV
    from cardgen.cli import main
    from cardgen.errors import EXIT_USAGE
    from cardgen.sources.fetch import SOURCE_ENV
    path = _edited(bbl, edit, tmp_path / "set")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", "-c", "BBL", "-s", "2024-25", "--card-set", str(path),
                                       "--no-images", "--out", str(out)],
                                env={CACHE_ENV: str(tmp_path / "cache"), SOURCE_ENV: str(mirror)})
    assert result.exit_code == EXIT_USAGE and "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: ") and words in lines[0], result.output
    assert not any(p.is_file() for p in out.rglob("*")) if out.exists() else True


@pytest.mark.parametrize("edit, words", [EDITS[1], EDITS[4], EDITS[6], EDITS[10]])
def test_the_site_skips_such_a_set_with_one_line(bbl, tmp_path, edit, words):
    """The site's load: a SiteError of one line naming the file (generate_site then skips the set
    and says so), not a page's traceback."""
    from cardgen.site.kit import SiteError, load_card_set_file
    path = _edited(bbl, edit, tmp_path)
    with pytest.raises(SiteError) as raised:
        load_card_set_file(path)
    assert str(raised.value).startswith(f"{path} is not a valid card set: ") and words in str(raised.value)
    assert "\n" not in str(raised.value)
