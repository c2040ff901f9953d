"""cardgen/manifest.py: the one kit manifest, written and read back; damaged ones and the
markers cardgen wrote before it (version 0)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardgen.manifest import (FILE_NAME, MANIFEST_VERSION, CardSheets, Download, Manifest, TeamFiles,
                              read_manifest, write_manifest)


def _season_kit() -> Manifest:
    return Manifest(kind="season-kit", files=("START-HERE.txt", "cards-a4.pdf", "teams/perth/cards-a4.pdf"),
                    generator="cardgen 1.2.3", card_set_sha256="ab" * 32,
                    card_sheets={"cards-a4.pdf": CardSheets(True, "short", True)},
                    teams=(TeamFiles("Perth Scorchers", "Perth", "teams/perth", 13, 7, 6,
                                     {"cards-a4": "teams/perth/cards-a4.pdf"}, {"cards-a4.pdf": (3, 4)}),))


def test_a_manifest_reads_back_as_it_was_written(tmp_path: Path) -> None:
    for manifest in (_season_kit(),
                     Manifest(kind="game-kit", files=("a.pdf", "a.png"), generator="cardgen 1.2.3", game="roll-and-play",
                              name="Roll & Play", competition="BBL", season="2024-25", attribution="rules by X",
                              downloads=(Download("a.pdf", "The deck", "pdf"), Download("a.png", "page 1", "png"))),
                     Manifest(kind="site", files=("index.html",), generator="cardgen 1.2.3")):
        write_manifest(tmp_path, manifest)
        assert read_manifest(tmp_path) == manifest
        assert read_manifest(tmp_path, manifest.kind) == manifest
        assert read_manifest(tmp_path, "team-kit") is None  # another kind of folder
    doc = json.loads((tmp_path / FILE_NAME).read_text())
    assert doc["manifest_version"] == MANIFEST_VERSION and doc["written_by"] == "cardgen site"


def test_a_manifest_owns_only_the_files_it_lists(tmp_path: Path) -> None:
    manifest = _season_kit()
    assert manifest.owns("cards-a4.pdf") and manifest.owns(FILE_NAME)
    assert not manifest.owns("notes.txt") and not manifest.owns("validation/summary.json")


@pytest.mark.parametrize("text", ["", "[]", "{not json", '{"manifest_version": 99, "kind": "site", "files": []}',
                                  '{"manifest_version": 1, "kind": "bakery", "files": []}',
                                  '{"manifest_version": 1, "kind": "site", "files": "index.html"}',
                                  '{"manifest_version": 1, "kind": "site", "files": [1, 2]}',
                                  '{"written_by": "someone else", "files": ["a.pdf"]}'])
def test_a_damaged_or_foreign_manifest_is_no_manifest(tmp_path: Path, text: str) -> None:
    """Nothing in a folder is taken for cardgen's on a manifest it cannot trust (a rebuild then
    refuses to replace the folder instead of deleting a user's files)."""
    (tmp_path / FILE_NAME).write_text(text)
    assert read_manifest(tmp_path) is None
    assert read_manifest(tmp_path / "missing") is None


def test_hostile_entries_are_left_out(tmp_path: Path) -> None:
    doc = {"manifest_version": 1, "kind": "season-kit", "files": ["cards-a4.pdf"],
           "card_sheets": {"cards-a4.pdf": {"backs": True, "flip": "sideways", "landscape": False}, "x.pdf": 3},
           "teams": [{"name": "Perth", "files": {"cards-a4": "teams/p.pdf", "bad": 7},
                      "pages_in_whole_set": {"cards-a4.pdf": [1, "2"], "cards-letter.pdf": [2, 3]}, "cards": "13"},
                     {"files": {}}, "Sydney"]}
    (tmp_path / FILE_NAME).write_text(json.dumps(doc))
    manifest = read_manifest(tmp_path)
    assert manifest is not None
    assert manifest.card_sheets == {"cards-a4.pdf": CardSheets(True, "long", False)}
    assert manifest.teams == (TeamFiles("Perth", files={"cards-a4": "teams/p.pdf"},
                                        pages_in_whole_set={"cards-letter.pdf": (2, 3)}),)


def test_the_markers_before_the_manifest_are_read_as_version_0(tmp_path: Path) -> None:
    """A folder the previous cardgen wrote is still known for cardgen's, so a rebuild replaces
    its files (the old markers among them) and keeps the user's."""
    kit = tmp_path / "BBL_2024-25"
    (kit / "teams").mkdir(parents=True)
    (kit / FILE_NAME).write_text(json.dumps({"written_by": "cardgen build", "card_set_sha256": "cd" * 32,
                                             "files": ["cards-a4.pdf", "teams/teams.json"]}))
    (kit / "teams" / "teams.json").write_text(json.dumps({"teams": [
        {"name": "Perth", "files": {"cards-a4": "teams/perth/cards-a4.pdf"}, "pages_in_whole_set": {"cards-a4.pdf": [1, 2]}}]}))
    manifest = read_manifest(kit)
    assert manifest is not None and (manifest.kind, manifest.version) == ("season-kit", 0)
    assert manifest.card_set_sha256 == "cd" * 32 and manifest.owns("teams/teams.json")
    assert [t.pages_in_whole_set for t in manifest.teams] == [{"cards-a4.pdf": (1, 2)}]

    site = tmp_path / "site"
    site.mkdir()
    (site / ".cardgen-site").write_text(json.dumps({"written_by": "cardgen site", "files": ["index.html"]}))
    manifest = read_manifest(site, "site")
    assert manifest is not None and manifest.owns("index.html") and manifest.owns(".cardgen-site")

    game = tmp_path / "quick-cricket"
    game.mkdir()
    (game / "kit.json").write_text(json.dumps({"game": "quick-cricket", "name": "Quick Cricket", "generator": "cardgen 0.1",
                                               "files": [{"path": "cards-a4.pdf", "label": "Cards", "kind": "pdf"}]}))
    manifest = read_manifest(game, "game-kit")
    assert manifest is not None and manifest.downloads == (Download("cards-a4.pdf", "Cards", "pdf"),)
    assert manifest.owns("kit.json") and manifest.owns("cards-a4.pdf") and not manifest.owns("notes.txt")
    (game / "kit.json").write_text(json.dumps({"name": "Mine", "files": []}))  # a user's kit.json: not ours
    assert read_manifest(game) is None


def test_a_kit_fingerprint_changes_with_any_file_of_the_kit(tmp_path):
    """kit_fingerprint: the same folder gives the same digest; a rewritten file (a new size or
    time), a file added after the build (validation/) or a changed manifest gives another."""
    import os
    from cardgen.manifest import kit_fingerprint
    folder = tmp_path / "BBL_2024-25"
    folder.mkdir()
    (folder / "card-set.json").write_text("{}")
    write_manifest(folder, Manifest(kind="season-kit", files=("card-set.json",)))
    first = kit_fingerprint(folder)
    assert first is not None and kit_fingerprint(folder) == first
    stat = (folder / "card-set.json").stat()
    os.utime(folder / "card-set.json", ns=(stat.st_atime_ns, stat.st_mtime_ns + 1))
    second = kit_fingerprint(folder)
    assert second != first
    (folder / "validation").mkdir()
    (folder / "validation" / "report.md").write_text("ok")
    assert kit_fingerprint(folder) not in (first, second)
    (folder / ".cardgen-kit.json").unlink()
    assert kit_fingerprint(folder) is None
