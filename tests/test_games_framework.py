"""The games registry, `cardgen build --game` for the generic systems, and the Quicket adapter."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from cardgen.cli import main
from cardgen.competitions import get_competition
from cardgen.games import UnknownGame, get_game
from cardgen.games.base import BuildRequest
from cardgen.games.quick_cricket import rules as R


def test_registry_gives_each_system_its_code() -> None:
    for code in ("quicket", "quick-cricket", "competitive-patience"):
        system = get_game(code)
        assert system.code == code and system.name
    assert get_game(" Quick-Cricket ").code == "quick-cricket"
    assert not get_game("quick-cricket").uses_real_players and get_game("quicket").uses_real_players
    with pytest.raises(UnknownGame, match="choose one of"):
        get_game("french-cricket")


def _manifest(folder: Path) -> dict:
    doc = json.loads((folder / ".cardgen-kit.json").read_text())
    assert doc["manifest_version"] == 1 and doc["kind"] == "game-kit"
    for entry in doc["downloads"]:
        assert (folder / entry["path"]).is_file() and entry["label"] and entry["kind"] in ("pdf", "png", "json", "txt")
    return doc


def test_build_quick_cricket(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["build", "--game", "quick-cricket", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "quick-cricket"
    # its last line points at the kit's first file, as a Quicket build's does (helper-51)
    assert result.output.splitlines()[-1] == f"what to print, and how: {folder / 'START-HERE.txt'}"
    doc = _manifest(folder)
    assert doc["game"] == "quick-cricket" and doc["competition"] is None and doc["season"] is None
    assert {e["path"] for e in doc["downloads"] if e["kind"] == "pdf"} == {
        "cards-a4.pdf", "cards-letter.pdf", "scoresheet-a4.pdf", "scoresheet-letter.pdf", "rules-a4.pdf",
        "rules-letter.pdf"}
    cards = PdfReader(folder / "cards-a4.pdf")
    assert len(cards.pages) == 2                                  # 18 cards, 9 to a sheet
    text = "".join(page.extract_text() for page in cards.pages)
    for needle in ("Pace pitch", "Spin pitch", "Slower ball", "MOVE", "STROKE", "Wickets 5-9 down",
                   "NOT OUT", "Fielder"):
        assert needle in text
    assert text.count("UMPIRE") == 3 and text.count("RUNS CHART") == 4 and text.count("BOWLER \u00b7 PATH") == 4
    for chart in R.RUNS_CHARTS:                                   # the engine's numbers are printed
        assert all(str(v) in text for v in chart.runs)
    for paper, size_mm in (("a4", (210, 297)), ("letter", (215.9, 279.4))):
        # gamer's audit: with both papers (the default) the scoresheet came in A4 only, and on
        # Letter at actual size its foot (the no-ball note and the credit) falls off the page
        page = PdfReader(folder / f"scoresheet-{paper}.pdf").pages[0]
        assert [round(float(v) / 72 * 25.4, 1) for v in page.mediabox[2:]] == list(size_mm)
        sheet = page.extract_text()
        assert "10th wicket" in sheet and "Fall of wickets" in sheet and "Reviews left" in sheet
    assert (folder / "cards-a4-page1.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the kit opens with START-HERE.txt, first in the manifest: each PDF by its label, with the
    # page count the PDF itself has, and how to print
    assert doc["downloads"][0] == {"path": "START-HERE.txt", "label": "Start here: what each file is (text)",
                               "kind": "txt"}
    start = (folder / "START-HERE.txt").read_text(encoding="utf-8")
    assert start.startswith("Quick Cricket kit\n") and "Actual size" in start and doc["attribution"] in start
    for entry in (e for e in doc["downloads"] if e["kind"] == "pdf"):
        pages = len(PdfReader(folder / entry["path"]).pages)
        assert f"   {entry['label']}\n      {entry['path']}, {pages} page{'s' if pages != 1 else ''}\n" in start
    # deterministic: a rebuild writes byte-identical PDFs
    first = {p.name: p.read_bytes() for p in folder.glob("*.pdf")}
    assert CliRunner().invoke(main, ["build", "--game", "quick-cricket", "--out", str(tmp_path)]).exit_code == 0
    assert first == {p.name: p.read_bytes() for p in folder.glob("*.pdf")}


def test_a_rebuild_replaces_the_kit_whole_and_keeps_other_files(tmp_path: Path) -> None:
    """Other games' kits are staged and swapped in like Quicket's (review finding): a file an
    earlier kit listed and this one does not write goes, a file cardgen never wrote stays, and
    an interrupted build leaves the previous kit as it was."""
    args = ["build", "--game", "quick-cricket", "--out", str(tmp_path), "--paper", "a4"]
    assert CliRunner().invoke(main, args).exit_code == 0
    folder = tmp_path / "quick-cricket"
    doc = json.loads((folder / ".cardgen-kit.json").read_text())
    doc["files"].append("cards-old-layout.pdf")
    (folder / ".cardgen-kit.json").write_text(json.dumps(doc))
    (folder / "cards-old-layout.pdf").write_bytes(b"%PDF stale")
    (folder / "my-house-rules.txt").write_text("two bouncers an over")
    before = {p.name: p.read_bytes() for p in folder.iterdir()}

    from cardgen.games import printing
    real_preview, calls = printing.page_one_png, []

    def disk_fills(*a, **k):  # the disk fills after the first PDF and its preview are written
        calls.append(1)
        if len(calls) > 1:
            raise OSError(28, "No space left on device")
        return real_preview(*a, **k)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(printing, "page_one_png", disk_fills)
        failed = CliRunner().invoke(main, args)
        assert failed.exit_code == 3 and len(calls) == 2, failed.output
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["quick-cricket"]  # no staging left
    assert CliRunner().invoke(main, args).exit_code == 0
    assert not (folder / "cards-old-layout.pdf").exists()
    assert (folder / "my-house-rules.txt").read_text() == "two bouncers an over"


def test_build_competitive_patience(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["build", "--game", "competitive-patience", "--paper", "letter",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "competitive-patience"
    doc = _manifest(folder)
    assert {e["path"] for e in doc["downloads"] if e["kind"] == "pdf"} == {"scoresheet-letter.pdf", "rules-letter.pdf"}
    rules_page = PdfReader(folder / "rules-letter.pdf").pages[0]
    # the rules card comes in the paper asked for (an A4 card printed on Letter loses its foot)
    assert round(float(rules_page.mediabox.width)) == 612 and round(float(rules_page.mediabox.height)) == 792
    rules = rules_page.extract_text()
    for variant in ("British rules", "Derek Hill", "South African", "New Zealand"):
        assert variant in rules
    page = PdfReader(folder / "scoresheet-letter.pdf").pages[0]
    assert round(float(page.mediabox.width)) == 612             # US Letter
    assert "Fall of wickets" in page.extract_text()


def test_build_errors_are_one_line(tmp_path: Path) -> None:
    for args in (["build", "--out", str(tmp_path)],                       # quicket needs a season
                 ["build", "--game", "quicket", "-c", "BBL", "--out", str(tmp_path)]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code != 0 and "give --competition and --season" in result.output
        assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1
    result = CliRunner().invoke(main, ["build", "--game", "cricket", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "Invalid value for '--game'" in result.output


def test_quicket_adapter_folder_is_the_existing_kit_folder(tmp_path: Path) -> None:
    system = get_game("quicket")
    req = BuildRequest(tmp_path, get_competition("BBL"), "2024-25", None, ("a4",), 0)
    assert system.kit_folder(req) == tmp_path / "BBL_2024-25"
    assert get_game("quick-cricket").kit_folder(req) == tmp_path / "quick-cricket"


def test_quicket_adapter_builds_the_existing_kit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The adapter's build is render.kit.build_kit over the calibrated set (here a small example
    set stands in for the ~20 s calibration)."""
    from cardgen.games import quicket
    from cardgen.cardset import CardSet
    from cardgen.sim.example import example_card_set
    example = example_card_set()
    example["competition"] = {"code": "BBL", "name": "Big Bash League"}
    monkeypatch.setattr(quicket, "calibrated_set", lambda comp, season, source: CardSet.from_json(example))
    req = BuildRequest(tmp_path, get_competition("BBL"), "2024-25", None, ("a4",), 0)
    files = get_game("quicket").build(req)
    names = {f.relative_to(tmp_path / "BBL_2024-25").as_posix() for f in files}
    assert {"card-set.json", "cards-a4.pdf", "scoresheet-a4.pdf", "fielding-chart-a4.pdf"} <= names
    assert all(f.is_file() for f in files)
    with pytest.raises(quicket.NeedsSeason):
        get_game("quicket").build(BuildRequest(tmp_path, None, None, None, ("a4",), 0))
