"""Preflight on the real kits: BBL 2024-25 and The Hundred 2024 in every print option, and every
other game system's kit, must report zero problems.

Kept fast: no card PNGs, each kit built once (module scope). The full kit (every file, both
papers, per-team folders) is built with --backs for each competition; the options that change
pages (--bleed, --ink-saver) are then checked on the files they change: the card sheets, drawn by
the same function the build calls, and the fielding chart. A kit with --backs holds the same
front pages as the kit without (checked below), so the backs builds cover both.
"""
from __future__ import annotations

import itertools
import re
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner

from cardgen import ATTRIBUTION
from cardgen.cli import main
from cardgen.render.card import card_views
from cardgen.render.fielding import render_fielding_pdf
from cardgen.render.kit import KitOptions, build_kit
from cardgen.render.preflight import check_folder, check_pdf
from cardgen.render.sheets import render_cards_pdf
from conftest import as_model

pytestmark = pytest.mark.needs_data

OPTIONS = list(itertools.product([False, True], [False, True]))  # (bleed, ink_saver)


@pytest.fixture(scope="module")
def kits(render_card_sets: dict, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each competition's full kit with backs, both papers (the --paper default)."""
    return {code: build_kit(as_model(card_set), tmp_path_factory.mktemp(code), KitOptions(
        backs=True, images=False, progress=False)).folder for code, card_set in render_card_sets.items()}


@pytest.mark.parametrize("code", ["BBL", "HUNDRED"])
def test_preflight_finds_nothing_in_the_full_quicket_kits(kits: dict, code: str):
    files, problems = check_folder(kits[code])
    names = {f.relative_to(kits[code]).as_posix() for f in files}
    for suffix in ("-a4", "-letter"):  # --paper both: every sheet for every paper, each naming it
        assert {f"scoresheet{suffix}.pdf", f"fielding-chart{suffix}.pdf", f"team-sheets{suffix}.pdf",
                f"quick-reference{suffix}.pdf"} <= names
    assert {"cards-a4.pdf", "cards-letter.pdf"} <= names
    assert problems == [], "\n".join(map(str, problems[:20]))


@pytest.mark.parametrize("code", ["BBL", "HUNDRED"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed, ink_saver", OPTIONS)
def test_preflight_finds_nothing_in_the_card_sheets_and_fielding_chart_in_every_option(
        render_card_sets: dict, code: str, paper: str, bleed: bool, ink_saver: bool):
    card_set = render_card_sets[code]
    cards = render_cards_pdf(card_views(as_model(card_set)), paper, f"{code} cards", ATTRIBUTION, bleed=bleed,
                             ink_saver=ink_saver, backs=True)
    problems = check_pdf(cards, f"cards-{paper}.pdf")
    problems += check_pdf(render_fielding_pdf(as_model(card_set), paper, ATTRIBUTION, ink_saver), "fielding-chart-a4.pdf")
    assert problems == [], "\n".join(map(str, problems[:20]))


def test_a_kit_without_backs_prints_exactly_the_fronts_of_the_kit_with_backs(render_card_sets: dict,
                                                                              tmp_path: Path):
    views = card_views(as_model(render_card_sets["HUNDRED"]))[:30]
    with_backs = pypdf.PdfReader(_pdf(render_cards_pdf(views, "letter", "t", "c", bleed=True, backs=True),
                                      tmp_path / "b.pdf")).pages
    fronts = pypdf.PdfReader(_pdf(render_cards_pdf(views, "letter", "t", "c", bleed=True),
                                  tmp_path / "f.pdf")).pages
    assert len(with_backs) == 2 * len(fronts) == 2 * 4  # 30 cards, 8 to a bleed sheet
    for i, page in enumerate(fronts):
        assert page.get_contents().get_data() == with_backs[2 * i].get_contents().get_data()


def _pdf(data: bytes, path: Path) -> Path:
    path.write_bytes(data)
    return path


def test_bbl_cards_fit_on_27_a4_sheets(kits: dict):
    # 238 cards, 9 to a sheet, packed: 27 sheets (32 when every team started a new sheet)
    pages = len(pypdf.PdfReader(kits["BBL"] / "cards-a4.pdf").pages)
    assert pages // 2 <= 27  # the kit was built with backs: two pages per sheet


GAMES = ["quick-cricket", "roll-and-play", "competitive-patience", "cricket-the-game"]


@pytest.fixture(scope="module")
def game_kits(mirror: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    """Each other game system's kit for BBL 2024-25 (both papers), built once: (folder, CLI output)."""
    kits = {}
    for game in GAMES:
        out = tmp_path_factory.mktemp(game)
        result = CliRunner().invoke(main, ["build", "--game", game, "-c", "BBL", "-s", "2024-25",
                                           "--source", str(mirror), "--out", str(out)])
        assert result.exit_code == 0, result.output
        kits[game] = (out, result.output)
    return kits


@pytest.mark.parametrize("game", GAMES)
def test_preflight_finds_nothing_in_the_other_game_systems_kits(game: str, game_kits: dict):
    folder, output = game_kits[game]
    files, problems = check_folder(folder)
    assert files and problems == [], "\n".join(map(str, problems[:20]))
    assert "preflight: 0 problems" in output


@pytest.mark.parametrize("game", GAMES)
def test_no_text_but_a_credit_line_prints_under_6_pt_in_the_other_game_systems_kits(game: str, game_kits: dict):
    """Print audit: under 6 pt a home print is hard to read, yet Cricket: The Game's CONFIDENCE
    (5.6 pt), Roll & Play's "when batting" / "when bowling" (5.6), chance-card note (5.6) and
    scoresheet "bat / bowl" (5.2), Competitive Patience's turn numbers (4.5) and the sheets'
    "Print at 100% ..." footer (5.25) printed smaller. Only the credit lines, which no one needs
    to play, stay smaller."""
    from cardgen.games.competitive_patience.kit import CREDIT as PATIENCE_CREDIT
    from cardgen.games.quick_cricket.kit import NAME as QUICK_NAME
    from cardgen.games.roll_and_play import CLASSIC_CREDIT
    credits = [ATTRIBUTION, f"{CLASSIC_CREDIT} {ATTRIBUTION}", PATIENCE_CREDIT,
               f"{QUICK_NAME} \u00b7 18-card game \u00b7 cardgen",
               f"Not an official card. Board and decks: Zero Point Games. {ATTRIBUTION}"]
    folder, _ = game_kits[game]
    small = {(path.name, text) for path in sorted(folder.rglob("*.pdf"))
             for text in _texts_under(path.read_bytes(), 6.0, credits)}
    assert not small, sorted(small)[:20]


@pytest.mark.parametrize("code", ["BBL", "HUNDRED"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_fielding_chart_prints_every_result_at_6_pt_or_more(render_card_sets: dict, code: str, paper: str):
    """Print audit: on US Letter (landscape, 11.9 mm cells) "Stumped" printed at 5.75 pt."""
    pdf = render_fielding_pdf(as_model(render_card_sets[code]), paper, ATTRIBUTION)
    assert _texts_under(pdf, 6.0, [ATTRIBUTION]) == []


def _texts_under(pdf: bytes, points: float, credits: list[str]) -> list[str]:
    """Every text of the PDF printed smaller than `points`, but for parts of the `credits` lines
    (whitespace-normalised; a credit may wrap over several text objects)."""
    import pypdfium2

    from tests.test_render_layout import pdf_texts
    credits = [" ".join(c.split()) for c in credits]
    small = []
    for index in range(len(pypdfium2.PdfDocument(pdf))):
        for raw_text, size, _ in pdf_texts(pdf, index):
            text = " ".join(raw_text.split())
            if size < points - 1e-3 and text and not any(text in credit for credit in credits):
                small.append(text)
    return small


@pytest.mark.parametrize("game", ["roll-and-play", "cricket-the-game"])
def test_a_players_season_reads_1_run_and_1_wkt_not_1_runs(game: str, game_kits: dict):
    """Print audit: the squad sheet and cards printed "1 runs, SR 50" (Lloyd Pope) and "1 wkts"
    (Peter Hatzoglou, BBL 2024-25)."""
    import re
    folder, _ = game_kits[game]
    text = " ".join(" ".join(page.extract_text() for page in pypdf.PdfReader(path).pages)
                    for path in sorted(folder.rglob("*.pdf")))
    text = " ".join(text.split())
    assert re.search(r"(?<![\d.])1 (run|wkt)\b", text)  # the season has such players ...
    assert not re.search(r"(?<![\d.])1 (runs|wkts|balls)\b", text)  # ... and they read right
    assert re.search(r"\b\d+ runs\b", text) and re.search(r"\b\d+ wkts\b", text)


CARD_TEXT_CLEAR_MM = 2.5  # templates/card.json: no text this close to a card's cut line


def _text_nearest_a_cut(pdf: bytes, geo) -> tuple[float, str]:
    """(distance in mm, text) of the text that comes nearest a cut line of the card it is on, over
    every page; texts off the cards (the sheet's header and footer) are not on a card."""
    import pypdfium2
    import pypdfium2.raw as raw

    from cardgen.render.layout import MM
    xs, ys = geo.cut_lines()
    nearest = (float("inf"), "")
    for page in pypdfium2.PdfDocument(pdf):
        H = page.get_height() / MM
        textpage = page.get_textpage()
        for obj in page.get_objects():
            if obj.type != raw.FPDF_PAGEOBJ_TEXT:
                continue
            lo, b, r, t = (v / MM for v in obj.get_bounds())
            top, bottom = H - t, H - b
            cx, cy = (lo + r) / 2, (top + bottom) / 2
            if not (xs[0] < cx < xs[-1] and ys[0] < cy < ys[-1]):
                continue
            x0, x1 = max(x for x in xs if x <= cx), min(x for x in xs if x >= cx)
            y0, y1 = max(y for y in ys if y <= cy), min(y for y in ys if y >= cy)
            d = min(lo - x0, x1 - r, top - y0, y1 - bottom)
            if d < nearest[0]:
                text = textpage.get_text_bounded(lo * MM, b * MM, r * MM, t * MM).strip()
                if text:
                    nearest = (d, text)
    return nearest


@pytest.mark.parametrize("code", ["BBL", "HUNDRED"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_text_on_a_quicket_card_comes_within_2_5_mm_of_its_cut_line(render_card_sets: dict, code: str,
                                                                       paper: str):
    """Print audit: the card's credit line ended 0.86 mm above the card's bottom cut line, so a
    cut a millimetre high took its last line; every other text kept 2.6 mm or more."""
    from cardgen.render.sheets import sheet_geometry
    views = card_views(as_model(render_card_sets[code]))
    distance, text = _text_nearest_a_cut(render_cards_pdf(views, paper, "t", ATTRIBUTION), sheet_geometry(paper))
    assert distance >= CARD_TEXT_CLEAR_MM, (distance, text)


@pytest.mark.parametrize("game, name", [("roll-and-play", "team-deck"), ("roll-and-play", "chance-cards"),
                                        ("roll-and-play", "pitch-deck"), ("quick-cricket", "cards"),
                                        ("cricket-the-game", "player-cards")])
def test_no_text_on_the_other_games_cards_comes_within_2_5_mm_of_its_cut_line(game: str, name: str,
                                                                              game_kits: dict):
    """Print audit: Roll & Play's credit ended 1.46 mm and Quick Cricket's footer 1.86 mm above
    the card's cut line."""
    from cardgen.games.printing import card_geometry
    folder, _ = game_kits[game]
    for paper in ("a4", "letter"):
        [path] = folder.rglob(f"{name}-{paper}.pdf")
        distance, text = _text_nearest_a_cut(path.read_bytes(), card_geometry(paper, 63.0, 88.0))
        assert distance >= CARD_TEXT_CLEAR_MM, (path.name, distance, text)


def _viewer_preferences(pdf: bytes) -> dict:
    import io
    prefs = pypdf.PdfReader(io.BytesIO(pdf)).trailer["/Root"].get("/ViewerPreferences")
    return {str(k): str(v) for k, v in (prefs or {}).items()}


def test_the_print_dialog_opens_at_actual_size_and_two_sided_the_way_the_backs_flip(kits: dict,
                                                                                     render_card_sets: dict):
    """Print audit: a viewer's print dialog opened on "fit to page", which prints 63 x 88 mm cards
    a few per cent small (they no longer match a sleeve or a bought card), and on one-sided for
    sheets with backs. The PDFs now ask for actual size, and a kit with backs for two-sided
    printing flipped as its footer says (long edge; short edge for the landscape bleed sheets)."""
    folder = kits["BBL"]  # built with --backs
    for name in ("cards-a4.pdf", "cards-letter.pdf"):
        assert _viewer_preferences((folder / name).read_bytes()) == {
            "/PrintScaling": "/None", "/Duplex": "/DuplexFlipLongEdge"}, name
    for name in ("scoresheet-a4.pdf", "fielding-chart-letter.pdf"):
        assert _viewer_preferences((folder / name).read_bytes()) == {"/PrintScaling": "/None"}, name
    views = card_views(as_model(render_card_sets["HUNDRED"]))[:18]
    bleed_backs = render_cards_pdf(views, "a4", "t", ATTRIBUTION, bleed=True, backs=True)
    assert _viewer_preferences(bleed_backs)["/Duplex"] == "/DuplexFlipShortEdge"
    assert "/Duplex" not in _viewer_preferences(render_cards_pdf(views, "a4", "t", ATTRIBUTION))


@pytest.mark.parametrize("game", ["roll-and-play", "cricket-the-game"])
def test_the_other_systems_real_season_kits_print_the_season_as_the_quicket_cards(game: str, game_kits: dict):
    """Review finding (helper-45): Roll & Play's team edition and Cricket: The Game's cards printed
    "BBL 2024-25", the Quicket cards of the same season "2024-2025". Folder names keep the short form."""
    folder, _ = game_kits[game]
    pdfs = sorted(folder.rglob("*.pdf"))
    assert pdfs and all("BBL_2024-25" in p.parent.as_posix() for p in pdfs)
    seasoned = []
    for pdf in pdfs:
        text = "\n".join(page.extract_text() or "" for page in pypdf.PdfReader(pdf).pages)
        assert not re.search(r"2024-25(?!\d)", text), pdf.name
        seasoned += ["2024-2025" in text]
    assert sum(seasoned) >= 2  # both papers' cards (Roll & Play's chance cards print no season)
