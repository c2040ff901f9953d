"""Preflight on the real kits: BBL 2024-25 and The Hundred 2024 in every print option, and every
other game system's kit, must report zero problems.

Kept fast: no card PNGs; every kit is built once (module scope). A kit with --backs holds the
same front pages as the kit without (checked below), so the backs builds cover both.
"""
from __future__ import annotations

import itertools
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner

from cardgen.cli import main
from cardgen.render.kit import KitOptions, build_kit
from cardgen.render.preflight import check_folder

OPTIONS = list(itertools.product([False, True], [False, True]))  # (bleed, ink_saver)


@pytest.fixture(scope="module")
def kits(render_card_sets: dict, tmp_path_factory: pytest.TempPathFactory) -> dict[tuple, Path]:
    """Every (competition, bleed, ink_saver) kit with backs, both papers (the --paper default)."""
    built = {}
    for code, card_set in render_card_sets.items():
        for bleed, ink_saver in OPTIONS:
            out = tmp_path_factory.mktemp(f"{code}-{int(bleed)}{int(ink_saver)}")
            built[(code, bleed, ink_saver)] = build_kit(card_set, out, KitOptions(
                bleed=bleed, ink_saver=ink_saver, backs=True, images=False, progress=False)).folder
    return built


@pytest.mark.parametrize("code", ["BBL", "HUNDRED"])
@pytest.mark.parametrize("bleed, ink_saver", OPTIONS)
def test_preflight_finds_nothing_in_the_quicket_kits(kits: dict, code: str, bleed: bool, ink_saver: bool):
    folder = kits[(code, bleed, ink_saver)]
    files, problems = check_folder(folder)
    names = {f.name for f in files}
    for suffix in ("", "-letter"):  # --paper both: every sheet for every paper (A4 the plain name)
        assert {f"scoresheet{suffix}.pdf", f"fielding-chart{suffix}.pdf", f"team-sheets{suffix}.pdf",
                f"quick-reference{suffix}.pdf"} <= names
    assert {"cards-a4.pdf", "cards-letter.pdf"} <= names
    assert problems == [], "\n".join(map(str, problems[:20]))


def test_a_kit_without_backs_prints_exactly_the_fronts_of_the_kit_with_backs(render_card_sets: dict,
                                                                              kits: dict, tmp_path: Path):
    plain = build_kit(render_card_sets["HUNDRED"], tmp_path, KitOptions(
        papers=("letter",), bleed=True, images=False, progress=False)).folder
    with_backs = pypdf.PdfReader(kits[("HUNDRED", True, False)] / "cards-letter.pdf").pages
    fronts = pypdf.PdfReader(plain / "cards-letter.pdf").pages
    assert len(with_backs) == 2 * len(fronts)
    for i, page in enumerate(fronts):
        assert page.get_contents().get_data() == with_backs[2 * i].get_contents().get_data()


def test_bbl_cards_fit_on_27_a4_sheets(kits: dict):
    # 238 cards, 9 to a sheet, packed: 27 sheets (32 when every team started a new sheet)
    pages = len(pypdf.PdfReader(kits[("BBL", False, False)] / "cards-a4.pdf").pages)
    assert pages // 2 <= 27  # the kit was built with backs: two pages per sheet
@pytest.mark.parametrize("game", ["quick-cricket", "roll-and-play", "competitive-patience",
                                  "cricket-the-game"])
def test_preflight_finds_nothing_in_the_other_game_systems_kits(game: str, mirror: Path, tmp_path: Path):
    result = CliRunner().invoke(main, ["build", "--game", game, "-c", "BBL", "-s", "2024-25",
                                       "--source", str(mirror), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    files, problems = check_folder(tmp_path)
    assert files and problems == [], "\n".join(map(str, problems[:20]))
    assert "preflight: 0 problems" in result.output
