"""Parsers on real and broken input: the Cricsheet match parser, the zip reader, the cricinfo page.

Property tests (hypothesis) feed broken JSON, zips and HTML: the only exception allowed out is
the named `ParseError`; anything else (KeyError, TypeError, RecursionError...) is a crash.
"""
from __future__ import annotations

import copy
import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.errors import ParseError
from cardgen.sources.cricinfo import CricinfoProfile, parse_player_page
from cardgen.sources.cricsheet import ParsedMatch, parse_match
from cardgen.sources.fetch import _zip_members

FIXTURES = Path(__file__).parent / "fixtures"
MIRROR = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "cricsheet"
# a real match: the first BBL 2024-25 file of the mirror. Without the mirror (no ../shared) the
# module still collects, with a stand-in, and each test reading it fails on the `mirror` fixture's
# one clear message (an IndexError here stopped the whole run at collection)
REAL_MATCH_PATH = next(iter(sorted((MIRROR / "bbl_2024-25").glob("*.json"))), MIRROR / "missing.json")
REAL_MATCH = REAL_MATCH_PATH.read_bytes() if REAL_MATCH_PATH.is_file() else b'{"info": {}, "innings": []}'
REAL_DOC = json.loads(REAL_MATCH)
USES_MIRROR = pytest.mark.usefixtures("mirror")
PAGE = (FIXTURES / "cricinfo_player_787073.html").read_text()

PROPERTY = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12,
)


def _paths(doc: Any, prefix: tuple = ()) -> list[tuple]:
    """Paths into a JSON document, for targeted damage (two items of each list are enough)."""
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.extend(_paths(v, prefix + (k,)))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:2]):
            out.extend(_paths(v, prefix + (i,)))
    return out


DOC_PATHS = [p for p in _paths(REAL_DOC) if p]


def _replace(doc: Any, path: tuple, value: Any) -> Any:
    doc = copy.deepcopy(doc)
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return doc


def _delete(doc: Any, path: tuple) -> Any:
    doc = copy.deepcopy(doc)
    node = doc
    for key in path[:-1]:
        node = node[key]
    del node[path[-1]]
    return doc


def _parses_or_parse_error(call) -> object | None:
    try:
        return call()
    except ParseError:
        return None


# -- Cricsheet match files ---------------------------------------------------------------

@pytest.mark.needs_data
@USES_MIRROR
def test_real_match_parses():
    parsed = parse_match(REAL_MATCH, REAL_MATCH_PATH.stem)
    assert parsed.match["balls_per_over"] == 6
    assert {p["team"] for p in parsed.players} == set(REAL_DOC["info"]["teams"])
    assert sum(d["runs_total"] for d in parsed.deliveries) == sum(
        dl["runs"]["total"] for inn in REAL_DOC["innings"] for ov in inn["overs"] for dl in ov["deliveries"])


@pytest.mark.parametrize("raw", [b"", b"{", b"[]", b"null", b'{"info": 3}', b"\xff\xfe\x00",
                                 b'{"info": {"teams": ["A"]}, "innings": []}', b"[" * 100_000])
def test_broken_json_is_a_parse_error(raw):
    with pytest.raises(ParseError):
        parse_match(raw, "broken")


@pytest.mark.needs_data
@USES_MIRROR
@PROPERTY
@given(cut=st.integers(min_value=0, max_value=len(REAL_MATCH) - 2))
def test_truncated_match_file_is_a_parse_error(cut):
    with pytest.raises(ParseError):
        parse_match(REAL_MATCH[:cut], "cut")


@PROPERTY
@given(raw=st.binary(max_size=200))
def test_random_bytes_never_crash_the_match_parser(raw):
    _parses_or_parse_error(lambda: parse_match(raw, "random"))


@pytest.mark.slow
@PROPERTY
@given(doc=json_values)
def test_random_json_never_crashes_the_match_parser(doc):
    _parses_or_parse_error(lambda: parse_match(json.dumps(doc), "random"))


@pytest.mark.needs_data
@USES_MIRROR
@PROPERTY
@given(path=st.sampled_from(DOC_PATHS), value=json_values, delete=st.booleans())
def test_damaged_real_match_is_parsed_or_refused_by_name(path, value, delete):
    damaged = _delete(REAL_DOC, path) if delete else _replace(REAL_DOC, path, value)
    result = _parses_or_parse_error(lambda: parse_match(damaged, "damaged"))
    assert result is None or isinstance(result, ParsedMatch)


@pytest.mark.needs_data
@USES_MIRROR
@pytest.mark.parametrize("path, value", [(("info", "teams"), 3), (("info", "balls_per_over"), 1e309),
                                         (("info", "registry"), {"people": ["x"]}), (("innings", 0, "overs"), {"x": 1})])
def test_damage_that_must_be_refused(path, value):
    with pytest.raises(ParseError):
        parse_match(_replace(REAL_DOC, path, value), "damaged")


# -- zips ----------------------------------------------------------------------------------

def _real_zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted((MIRROR / "bbl_2024-25").glob("*.json"))[:3]:
            zf.writestr(path.name, path.read_bytes())
    return buf.getvalue()


REAL_ZIP = _real_zip()


@pytest.mark.needs_data
@USES_MIRROR
def test_real_zip_reads():
    assert len(list(_zip_members(REAL_ZIP, "test"))) == 3


@pytest.mark.needs_data
@USES_MIRROR
@PROPERTY
@given(cut=st.integers(min_value=0, max_value=len(REAL_ZIP) - 1))
def test_truncated_zip_is_a_parse_error(cut):
    with pytest.raises(ParseError):
        list(_zip_members(REAL_ZIP[:cut], "cut"))


@pytest.mark.needs_data
@USES_MIRROR
@PROPERTY
@given(offset=st.integers(min_value=0, max_value=len(REAL_ZIP) - 1), junk=st.binary(min_size=1, max_size=16))
def test_corrupted_zip_reads_or_is_a_parse_error(offset, junk):
    damaged = REAL_ZIP[:offset] + junk + REAL_ZIP[offset + len(junk):]
    _parses_or_parse_error(lambda: list(_zip_members(damaged, "damaged")))


# -- ESPNcricinfo player page ------------------------------------------------------------------

def test_cricinfo_page_gives_known_as_full_name_and_styles():
    p = parse_player_page(PAGE)
    assert p == CricinfoProfile(
        cricinfo_id="787073", known_as="Chris Green", full_name="Christopher James Green",
        country="Australia", born="October 01, 1993, Durban, Natal, South Africa",
        batting_style="Right hand Bat", bowling_style="Right arm Offbreak",
        playing_role="Bowling Allrounder")


def test_cricinfo_page_without_next_data_uses_visible_blocks():
    start = PAGE.index('<script id="__NEXT_DATA__"')
    page = PAGE[:start] + PAGE[PAGE.index("</script>", start) + len("</script>"):]
    p = parse_player_page(page, "787073")
    assert (p.known_as, p.full_name, p.playing_role) == ("Chris Green", "Christopher James Green",
                                                         "Bowling Allrounder")
    assert p.country is None  # the country comes only from the page data
    assert p.cricinfo_id == "787073"


def test_cricinfo_page_with_broken_next_data_still_reads():
    page = PAGE.replace('{"props":{"appPageProps"', '{"props":{"appPageProps"::', 1)
    p = parse_player_page(page)
    assert (p.full_name, p.batting_style) == ("Christopher James Green", "Right hand Bat")


def test_cricinfo_page_with_next_data_nested_too_deeply_still_reads():
    """A hostile page's 100,000-deep data was a RecursionError (exit 70): now broken data."""
    start = PAGE.index('<script id="__NEXT_DATA__"')
    start = PAGE.index(">", start) + 1
    page = PAGE[:start] + "[" * 100_000 + "]" * 100_000 + PAGE[PAGE.index("</script>", start):]
    p = parse_player_page(page)
    assert (p.full_name, p.batting_style) == ("Christopher James Green", "Right hand Bat")


def test_cricinfo_next_data_only():
    start = PAGE.index('<main>')
    page = PAGE[:start] + PAGE[PAGE.index("</main>") + len("</main>"):]
    p = parse_player_page(page)
    # the data's own lower-case styles, when the visible blocks are gone
    assert (p.batting_style, p.bowling_style, p.playing_role) == (
        "right-hand bat", "right-arm offbreak", "bowling allrounder")


@pytest.mark.parametrize("html", ["", "<html><body><p>Not a player</p></body></html>", "<<<>>>"])
def test_non_player_page_is_a_parse_error(html):
    with pytest.raises(ParseError):
        parse_player_page(html)


@PROPERTY
@given(cut=st.integers(min_value=0, max_value=len(PAGE)))
def test_truncated_cricinfo_page_reads_or_is_a_parse_error(cut):
    result = _parses_or_parse_error(lambda: parse_player_page(PAGE[:cut]))
    assert result is None or isinstance(result, CricinfoProfile)


@PROPERTY
@given(text=st.text(max_size=300))
def test_random_html_never_crashes_the_cricinfo_parser(text):
    _parses_or_parse_error(lambda: parse_player_page(text))


@PROPERTY
@given(data=json_values)
def test_random_next_data_never_crashes_the_cricinfo_parser(data):
    page = f'<script id="__NEXT_DATA__" type="application/json">{json.dumps(data)}</script>'
    _parses_or_parse_error(lambda: parse_player_page(page))


# -- values checked where they enter (issue 40, case 11) -----------------------------------

def _first_delivery_path() -> tuple:
    return ("innings", 0, "overs", 0, "deliveries", 0)


@USES_MIRROR
@pytest.mark.parametrize("field, value, refusal", [
    (("runs", "batter"), -6, "runs.batter is -6, outside 0-10"),  # accepted before: a batter's runs went down
    (("runs", "batter"), 11, "runs.batter is 11, outside 0-10"),
    (("runs", "total"), -6, "runs.total is -6, outside 0-30"),
    (("runs", "extras"), -1, "runs.extras is -1, outside 0-20"),
    (("extras", "wides"), -1, "extras.wides is -1, outside 0-10"),
    (("extras", "byes"), 99, "extras.byes is 99, outside 0-10"),
    (("extras", "penalty"), -5, "extras.penalty is -5, outside 0-10"),
    (("extras", "legbyes"), 10**400, "extras.legbyes is 10000000000000000000... (401 characters), outside 0-10"),
    (("runs", "batter"), float("nan"), "runs.batter: expected an integer, got nan"),
    (("runs", "batter"), float("inf"), "runs.batter: expected an integer, got inf"),
])
def test_absurd_runs_and_extras_refuse_the_match_by_name(field, value, refusal):
    doc = copy.deepcopy(REAL_DOC)
    delivery = doc
    for key in _first_delivery_path():
        delivery = delivery[key]
    delivery.setdefault(field[0], {})[field[1]] = value
    with pytest.raises(ParseError) as caught:
        parse_match(json.dumps(doc, allow_nan=True), "1443999")
    message = str(caught.value)
    assert message == f"match 1443999 innings 1 over 0: {refusal}", message


@USES_MIRROR
def test_three_wickets_on_one_delivery_and_impossible_overs_are_refused():
    doc = copy.deepcopy(REAL_DOC)
    delivery = doc["innings"][0]["overs"][0]["deliveries"][0]
    out = {"player_out": delivery["batter"], "kind": "bowled"}
    delivery["wickets"] = [out, out, out]
    with pytest.raises(ParseError, match="3 wickets on one delivery, outside 0-2"):
        parse_match(doc, "w")
    for path, value, refusal in ((("innings", 0, "overs", 0, "over"), -1, "over is -1, outside 0-1000"),
                                 (("info", "balls_per_over"), 0, "info.balls_per_over is 0, outside 1-10"),
                                 (("info", "overs"), -20, "info.overs is -20, outside 1-1000")):
        with pytest.raises(ParseError, match=refusal):
            parse_match(_replace(REAL_DOC, path, value), "v")


@USES_MIRROR
def test_a_negative_run_no_longer_lowers_a_batters_runs(tmp_path):
    """In a season, the damaged match is skipped with a warning naming it (as a NaN was), and
    every other match is counted as before; --strict makes it the error."""
    import warnings
    from cardgen.competitions import get_competition
    from cardgen.errors import SkippedInput
    from cardgen.sources.fetch import MatchFile
    from cardgen.stats.load import load_season_data
    files = [MatchFile(p.stem, p.read_bytes()) for p in sorted((MIRROR / "bbl_2024-25").glob("*.json"))[:3]]
    doc = json.loads(files[0].raw)
    doc["innings"][0]["overs"][0]["deliveries"][0]["runs"]["batter"] = -6
    damaged = [MatchFile(files[0].match_id, json.dumps(doc).encode()), *files[1:]]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        season = load_season_data(get_competition("BBL"), "2024-25", files=damaged)
    skipped = [str(w.message) for w in caught if issubclass(w.category, SkippedInput)]
    assert skipped == [f"match {files[0].match_id} innings 1 over 0: runs.batter is -6, outside 0-10; "
                       f"skipped (--strict stops instead)"]
    assert sorted(season.matches["match_id"]) == [f.match_id for f in files[1:]]
    assert (season.deliveries["runs_batter"] >= 0).all()


# -- names as they enter (issue 40, case 10) -----------------------------------------------

@USES_MIRROR
def test_control_and_bidi_override_characters_are_taken_out_of_names():
    """A right-to-left override (U+202E) in a name was honoured on the printed card."""
    doc = copy.deepcopy(REAL_DOC)
    batter = doc["innings"][0]["overs"][0]["deliveries"][0]["batter"]
    hostile = f"\u202e{batter[::-1]}\u202c"  # what the eye reads as the name, stored reversed
    tabbed = f"{batter}\t\u2066x\u2069\n"

    def rename(node: Any, old: str, new: str) -> Any:
        if isinstance(node, dict):
            return {rename(k, old, new): rename(v, old, new) for k, v in node.items()}
        if isinstance(node, list):
            return [rename(v, old, new) for v in node]
        return new if node == old else node

    for name, printed in ((hostile, batter[::-1]), (tabbed, f"{batter} x")):
        parsed = parse_match(rename(doc, batter, name), "bidi")
        names = {d["batter"] for d in parsed.deliveries} | {p["player"] for p in parsed.players}
        assert printed in names and name not in names
        assert not any(c in n for n in names for c in "\u202e\u202c\u2066\u2069\t\n")
        # the cleaned name still finds its register id
        ids = {d["batter_id"] for d in parsed.deliveries if d["batter"] == printed}
        assert ids == {doc["info"]["registry"]["people"][batter]}


def test_clean_text_leaves_every_real_name_alone():
    from cardgen.text import clean_text
    for name in ("Rashid Khan", "Quinton de Kock", "Zoë Ηλίας Дмитрий", "ज़\u200dहीर", "Mohammad Nabi "):
        assert clean_text(name) == name
    assert clean_text("\u202eEMAN\u202c") == "EMAN"
    assert clean_text("A\x00B\x1bC\x7f\u2028D") == "A B C D"


@USES_MIRROR
def test_a_team_or_player_name_longer_than_a_name_can_be_refuses_the_match():
    """A 5,000-character team name failed a build as "the path is too long" (it names folders
    and files); a player's name goes into the card set, whose loader refuses over 1,000."""
    from cardgen.text import MOST_TEAM_NAME_CHARS, MOST_TEXT_CHARS
    doc = copy.deepcopy(REAL_DOC)
    team = doc["info"]["teams"][0]
    at_the_limit = (team + " x" * 60)[:MOST_TEAM_NAME_CHARS]
    renamed = json.loads(json.dumps(doc).replace(json.dumps(team), json.dumps(at_the_limit)))
    assert parse_match(renamed, "t").match["team1"] == at_the_limit
    longer = json.loads(json.dumps(doc).replace(json.dumps(team), json.dumps(team * 500)))
    with pytest.raises(ParseError, match=f"match t: info.teams: a name of {len(team) * 500:,} characters, "
                                         f"over the limit of {MOST_TEAM_NAME_CHARS}"):
        parse_match(longer, "t")
    player = next(iter(doc["info"]["registry"]["people"]))
    longer = json.loads(json.dumps(doc).replace(json.dumps(player), json.dumps("y" * (MOST_TEXT_CHARS + 1))))
    with pytest.raises(ParseError, match=f"info.registry.people: a name of {MOST_TEXT_CHARS + 1:,} characters"):
        parse_match(longer, "p")
