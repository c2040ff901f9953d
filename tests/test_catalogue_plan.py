"""Which seasons `cardgen catalogue` builds (cardgen.catalogue.plan), from a folder and from a
URL served over loopback; the counts are the test mirror's own files."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_catalogue_engine import DAMAGED, GOOD, make_mirror
from test_sources_http import LoopbackServer, build_zip

from cardgen.cache import Cache
from cardgen.catalogue.plan import find_seasons
from cardgen.competitions import get_competition
from cardgen.errors import UnknownCompetition, UnknownSeason


def _files(root: Path, label: str) -> int:
    code, season = label.split()
    return len(list((root / f"{get_competition(code).mirror_folder}_{season}").glob("*.json")))


def test_every_season_of_a_folder_biggest_first(tmp_path: Path) -> None:
    root = make_mirror(tmp_path)
    plan = find_seasons(str(root))
    assert {p.label: p.matches for p in plan.seasons} == {label: _files(root, label) for label in (*GOOD, DAMAGED)}
    assert [p.matches for p in plan.seasons] == sorted((p.matches for p in plan.seasons), reverse=True)
    assert plan.notes == ()


def test_competitions_and_since_choose(tmp_path: Path) -> None:
    root = make_mirror(tmp_path)
    assert {p.label for p in find_seasons(str(root), ("bbl",), 2032).seasons} == {"BBL 2032-33", DAMAGED}
    assert {p.label for p in find_seasons(str(root), ("HUNDRED",)).seasons} == {"HUNDRED 2030"}
    with pytest.raises(UnknownSeason, match="from 2040 on"):
        find_seasons(str(root), (), 2040)
    with pytest.raises(UnknownCompetition):
        find_seasons(str(root), ("NOPE",))
    plan = find_seasons(str(root), ("BBL", "IPL"))
    assert "IPL: no season of it in" in " ".join(plan.notes)


def _copy_as(root: Path, folder: str, **info: object) -> None:
    """The synthetic T20 season's matches again in `folder`, their info changed by `info`."""
    (root / folder).mkdir()
    for n, path in enumerate(sorted((root / "bbl_2030-31").glob("*.json"))):
        doc = json.loads(path.read_text(encoding="utf-8"))
        doc["info"].update(info)
        (root / folder / f"other-{n}.json").write_text(json.dumps(doc), encoding="utf-8")


def test_what_cannot_be_built_is_a_note_not_a_season(tmp_path: Path) -> None:
    root = make_mirror(tmp_path)
    _copy_as(root, "made_up", event={"name": "Made Up League"})
    _copy_as(root, "ten_overs", event={"name": "Made Up Ten"}, overs=10)
    plan = find_seasons(str(root))
    assert {p.label for p in plan.seasons} == {*GOOD, DAMAGED}
    notes = " ".join(plan.notes)
    assert "Made Up League (men): not in the competitions table" in notes


def test_a_url_lists_each_competition_zip(tmp_path: Path) -> None:
    root = make_mirror(tmp_path)
    bbl, hundred = get_competition("BBL"), get_competition("HUNDRED")
    zips = {bbl.download_file: build_zip(root, ["bbl_2030-31", "bbl_2031-32"]),
            hundred.download_file: build_zip(root, ["hundred_men_2030"])}
    with LoopbackServer(zips) as server:
        url = f"{server.url}/good"
        plan = find_seasons(url, cache=Cache(tmp_path / "cache"))
        assert {p.label: p.matches for p in plan.seasons} == {
            label: _files(root, label) for label in ("BBL 2030-31", "BBL 2031-32", "HUNDRED 2030")}
        assert any(n.startswith("IPL: not listed") for n in plan.notes)  # no zip of it: a note
        asked = find_seasons(url, ("BBL",), cache=Cache(tmp_path / "cache"))
        assert {p.label for p in asked.seasons} == {"BBL 2030-31", "BBL 2031-32"}
