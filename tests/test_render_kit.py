"""The printable kit built from the real BBL 2024-25 card set, read back from the files.

The kit is built once per session (and a second time for the byte-identical check); every test
reads those files: PDFs with pypdf (text and drawing operators), PNGs with Pillow.
"""
from __future__ import annotations

import io
import json
import math
import re
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner
from PIL import Image, ImageStat
from pypdf.generic import ContentStream

import pdf_text

from cardgen import ATTRIBUTION
from cardgen.cli import main
from cardgen.errors import CardgenError
from cardgen.manifest import CardSheets, read_manifest
from cardgen.render.card import card_views
from cardgen.render.fonts import fit_text, text_width_mm
from cardgen.render.images import card_image, card_pixels, tts_geometry
from cardgen.render.kit import KitOptions, build_kit
from cardgen.render.layout import MM, load_layout
from cardgen.render.sheets import pages_for, sheet_geometry
from conftest import as_model

PAGE_PT = {"a4": (595.2756, 841.8898), "letter": (612.0, 792.0)}  # 210 x 297 mm, 8.5 x 11 in
FILL_OPERATORS = {b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"}


@pytest.fixture(scope="session")
def bbl_card_set(render_card_sets: dict) -> dict:
    return render_card_sets["BBL"]


@pytest.fixture(scope="session")
def quicket_card_set() -> dict:
    """The default kit's BBL 2024-25 set, made for the Quicket rules (the shipped set, read)."""
    from conftest import shipped_set
    return shipped_set("BBL_2024-25", "quicket")


@pytest.fixture(scope="session")
def kit(quicket_card_set: dict, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default kit: BBL 2024-25 for the Quicket rules, in OUT/BBL_2024-25/."""
    out = tmp_path_factory.mktemp("kit")
    return build_kit(as_model(quicket_card_set), out, KitOptions(progress=False)).folder


@pytest.fixture(scope="session")
def advanced_kit(bbl_card_set: dict, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The advanced kit: BBL 2024-25 for wickets in hand and Defence, in OUT/BBL_2024-25-advanced/."""
    out = tmp_path_factory.mktemp("advanced-kit")
    return build_kit(as_model(bbl_card_set), out, KitOptions(progress=False)).folder


@pytest.fixture(scope="session")
def card_set_file(kit: Path) -> Path:
    return kit / "card-set.json"


def _card_texts(pdf: Path, paper: str, bleed: bool = False) -> list[list[str]]:
    """Text drawn inside each card slot, slot by slot in printed order (fronts only)."""
    geo = sheet_geometry(paper, bleed)
    slots: list[list[str]] = []
    for page in pdf_text.pages(pdf):  # read once a document: several tests read the kit's sheets
        page_slots: dict[int, list[str]] = {}

        def visit(text, cm, tm, font_dict, font_size, page_slots=page_slots):  # noqa: ANN001 - pypdf's visitor signature
            if not text.strip():
                return
            x_mm = tm[4] / MM
            y_mm = geo.page_h - tm[5] / MM
            for row in range(geo.rows):
                for col in range(geo.columns):
                    left, top = geo.card_origin(row, col)
                    if left <= x_mm <= left + geo.card_w and top <= y_mm <= top + geo.card_h:
                        page_slots.setdefault(row * geo.columns + col, []).append(text.strip())

        page.extract_text(visitor_text=visit)
        slots += [page_slots[i] for i in sorted(page_slots)]
    return slots


def _segments_at_page_level(page: pypdf.PageObject) -> list[tuple[float, float, float, float]]:
    """Line segments (m ... l) drawn outside any q/Q block: the crop marks, in points."""
    ops = ContentStream(page.get_contents(), page.pdf).operations
    depth, start, segments = 0, None, []
    for operands, op in ops:
        if op == b"q":
            depth += 1
        elif op == b"Q":
            depth -= 1
        elif depth == 0 and op == b"m":
            start = tuple(float(v) for v in operands)
        elif depth == 0 and op == b"l" and start is not None:
            segments.append((*start, *(float(v) for v in operands)))
    return segments


def _card_for(card_set: dict, team: str, kind: str, surname: str) -> dict:
    found = [c for c in card_set["cards"] if c["team"] == team and c["kind"] == kind
             and surname in c["player"].get("full_name", c["player"]["name"])]
    assert len(found) == 1, found
    return found[0]


@pytest.mark.needs_data
def test_kit_has_every_output(kit: Path, quicket_card_set: dict):
    for name in ("cards-a4.pdf", "cards-letter.pdf", "fielding-chart-a4.pdf", "scoresheet-a4.pdf",
                 "team-sheets-a4.pdf", "quick-reference-a4.pdf", "card-set.json", "fielding-chart-letter.pdf",
                 "scoresheet-letter.pdf", "team-sheets-letter.pdf", "quick-reference-letter.pdf"):
        assert (kit / name).stat().st_size > 1000, name
    from cardgen.calibrate.cardset import load_card_set
    assert load_card_set(kit / "card-set.json")["cards"] == quicket_card_set["cards"]
    assert len(list((kit / "png").glob("*.png"))) == len(quicket_card_set["cards"])
    assert not list(kit.parent.glob(".*")), "the staging folder is left behind"


@pytest.mark.needs_data
def test_start_here_names_every_pdf_with_the_pages_it_prints_on(kit: Path, quicket_card_set: dict):
    """START-HERE.txt, the file a reader opens first: every top-level PDF of the kit is in it with
    its paper and its page count as the PDF itself has it (card sheets without backs: one page a
    sheet), the folders the kit has, the dice, and the data credit."""
    text = (kit / "START-HERE.txt").read_text(encoding="utf-8")
    pdfs = sorted(kit.glob("*.pdf"))
    assert len(pdfs) == 10  # 5 kinds x 2 papers (built from a card set: no season tracker)
    for pdf in pdfs:
        pages = len(pypdf.PdfReader(pdf).pages)
        unit = "sheet" if pdf.name.startswith("cards-") else "page"
        paper = "US Letter" if "letter" in pdf.name else "A4"
        assert f"{paper}: {pdf.name}, {pages} {unit}{'s' if pages != 1 else ''}" in text, pdf.name
    teams = len({c["team"] for c in quicket_card_set["cards"]})
    assert text.startswith(f"Quicket Cricket kit (Quicket rules): Big Bash League 2024-2025 (T20), {teams} teams, "
                           f"{len(quicket_card_set['cards'])} cards\n")
    for said in ("teams/", "png/, tts/", "card-set.json", "a d6, two d10", "a d20", "Actual size",
                 "Ball-by-ball data from Cricsheet (cricsheet.org), used under ODC-By 1.0."):
        assert said in text, said
    assert max(len(line) for line in text.splitlines()) <= 100  # reads in any text window
    # what a first match needs, and what to print the cards on (issue 39, item 8)
    assert "For one match print: the two teams' folders in teams/" in text
    assert "160-220 gsm" in text and "card sleeves" in text


@pytest.mark.needs_data
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pages_are_exactly_the_paper_size(kit: Path, paper: str):
    reader = pypdf.PdfReader(kit / f"cards-{paper}.pdf")
    for page in reader.pages:
        assert [round(float(v), 3) for v in page.mediabox] == [0, 0, *(round(v, 3) for v in PAGE_PT[paper])]
    for name in ("fielding-chart", "scoresheet", "quick-reference", "team-sheets"):  # each names its paper
        for page in pypdf.PdfReader(kit / f"{name}-{paper}.pdf").pages:
            width, height = (float(v) for v in page.mediabox[2:])
            assert {round(width, 3), round(height, 3)} == {round(v, 3) for v in PAGE_PT[paper]}, name


@pytest.mark.needs_data
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_card_prints_its_name_and_figures_on_its_own_team_sheet(kit: Path, quicket_card_set: dict,
                                                                       paper: str):
    views = card_views(as_model(quicket_card_set))
    slots = _card_texts(kit / f"cards-{paper}.pdf", paper)
    assert len(slots) == len(views) == len(quicket_card_set["cards"])
    pages = pages_for(views, 9)
    assert len(pypdf.PdfReader(kit / f"cards-{paper}.pdf").pages) == len(pages)
    teams = [t["name"] for t in quicket_card_set["teams"]]
    by_key = {(c["player"]["id"], c["team"], c["kind"]): c for c in quicket_card_set["cards"]}
    for view, texts in zip(views, slots):
        printed = " ".join(texts)
        for item in view.all_text():
            # every figure is one drawn string; only a long name may wrap onto two lines
            assert item in texts or (item == view.name and item in printed), (item, texts)
        # the raw figures of the card set, independently of the view's formatting code
        card = next(c for k, c in by_key.items() if c["player"]["name"].upper() == view.name
                    and k[1] == view.team and k[2] == view.kind)
        real = card["real"]
        if view.kind == "striker":
            assert f"Balls: {real['balls']}" in texts and f"6s: {real['sixes']}" in texts
        else:
            assert f"Wickets: {real['dismissals']}" in texts
            assert f"{card['usage']['letter']}/{card['usage']['innings']}" in texts
        assert ATTRIBUTION in printed  # the credit, wrapped over two lines on the card
    # sorted by team, packed onto full sheets: only the last sheet may be part-filled
    assert [teams.index(v.team) for v in views] == sorted(teams.index(v.team) for v in views)
    assert all(len(page) == 9 for page in pages[:-1])


@pytest.mark.slow
@pytest.mark.needs_data
def test_chris_green_and_cooper_connolly_cards_show_the_rules_figures(kit: Path, quicket_card_set: dict):
    views = card_views(as_model(quicket_card_set))
    slots = _card_texts(kit / "cards-a4.pdf", "a4")
    green = _card_for(quicket_card_set, "Sydney Thunder", "bowler", "Green")
    connolly = _card_for(quicket_card_set, "Perth Scorchers", "striker", "Connolly")

    def texts_of(card: dict) -> list[str]:
        index = next(i for i, v in enumerate(views) if v.name == card["player"]["name"].upper()
                     and v.team == card["team"] and v.kind == card["kind"])
        return slots[index]

    green_texts = texts_of(green)
    for expected in ("A/11", "Econ: 7.34", "Overs: 41", "Wickets: 12", "BOWLER",
                     green["player"]["name"].upper(), "2024-2025 Sydney (T)"):
        assert expected in green_texts
    connolly_texts = texts_of(connolly)
    for expected in ("SR: 131.46", "Balls: 267", "High: 66", "4s: 20", "6s: 19", "STRIKER",
                     "COOPER CONNOLLY", "2024-2025 Perth"):
        assert expected in connolly_texts
    assert any(t.startswith("C(") and "/ RO(" in t for t in connolly_texts)


@pytest.mark.needs_data
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_drawn_give_63_by_88_mm_cards(kit: Path, paper: str):
    page = pypdf.PdfReader(kit / f"cards-{paper}.pdf").pages[0]
    segments = _segments_at_page_level(page)
    vertical = sorted({round(x1 / MM, 3) for x1, y1, x2, y2 in segments if math.isclose(x1, x2)})
    horizontal = sorted({round(y1 / MM, 3) for x1, y1, x2, y2 in segments if math.isclose(y1, y2)})
    # without bleed neighbouring cards share a cut line: 4 lines make 3 cards each way
    assert len(vertical) == 4 and len(horizontal) == 4
    assert all(math.isclose(b - a, 63.0, abs_tol=0.01) for a, b in zip(vertical, vertical[1:]))
    assert all(math.isclose(b - a, 88.0, abs_tol=0.01) for a, b in zip(horizontal, horizontal[1:]))
    width_mm, height_mm = (float(v) / MM for v in page.mediabox[2:])
    assert math.isclose(vertical[0] + vertical[-1], width_mm, abs_tol=0.01)  # centred
    assert math.isclose(horizontal[0] + horizontal[-1], height_mm, abs_tol=0.01)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [False, True])
def test_a_part_filled_sheet_has_no_crop_marks_along_its_empty_rows(paper: str, bleed: bool):
    """Gamer's audit: the last sheet of The Hundred 2024's cards (4 cards on 9-up A4 and Letter, 1
    on an 8-up bleed sheet) printed the marks of its empty row, inviting a cut through nothing.
    A cut line that is no card's edge gets no marks now; every line a card has keeps both its
    ends (a ruler needs two). Full sheets draw exactly what they did; the back of a part-filled
    sheet mirrors its front's marks, so duplex still lines up."""
    from conftest import _shipped_rule_set
    from cardgen.render.sheets import crop_marks, render_cards_pdf
    views = card_views(as_model(_shipped_rule_set("HUNDRED_2024")))
    geo = sheet_geometry(paper, bleed)
    last = len(views) % geo.per_sheet
    assert (last, geo.per_sheet) == ((1, 8) if bleed else (4, 9))
    # the set's last full sheet and its part-filled one, as the kit prints them
    pdf = render_cards_pdf(views[-(geo.per_sheet + last):], paper, "t", "c", bleed=bleed, backs=True)
    full, full_back, part, part_back = pypdf.PdfReader(io.BytesIO(pdf)).pages
    width_pt = float(full.mediabox[2])

    def lines(page) -> tuple[list[float], list[float]]:
        segments = _segments_at_page_level(page)
        return (sorted({round(x1 / MM, 3) for x1, y1, x2, y2 in segments if math.isclose(x1, x2)}),
                sorted({round(geo.page_h - y1 / MM, 3) for x1, y1, x2, y2 in segments if math.isclose(y1, y2)}))

    def marks(page) -> list[tuple[float, ...]]:
        return sorted(tuple(round(v / MM, 2) for v in (min(a, c), min(b, d), max(a, c), max(b, d)))
                      for a, b, c, d in _segments_at_page_level(page))

    assert len(_segments_at_page_level(full)) == len(crop_marks(geo))
    all_x, all_y = lines(full)
    xs, ys = lines(part)
    if bleed:   # one card: its own two cut lines each way, no other
        left, top = geo.card_origin(0, 0)
        assert xs == [round(left, 3), round(left + geo.card_w, 3)]
        assert ys == [round(top, 3), round(top + geo.card_h, 3)]
    else:       # a full top row and one card below: every column's lines, the rows' but the last
        assert xs == all_x and ys == all_y[:-1]
    assert len(_segments_at_page_level(part)) == 2 * (len(xs) + len(ys))  # both ends of each line
    for front, back in ((full, full_back), (part, part_back)):
        mirrored = sorted((round(width_pt / MM - x2, 2), y1, round(width_pt / MM - x1, 2), y2)
                          for x1, y1, x2, y2 in marks(back))
        assert all(math.isclose(u, v, abs_tol=0.02) for m, n in zip(marks(front), mirrored) for u, v in zip(m, n))
        assert len(marks(front)) == len(mirrored)


@pytest.mark.slow
@pytest.mark.needs_data
def test_second_build_is_byte_identical(kit: Path, quicket_card_set: dict, tmp_path: Path):
    again = build_kit(as_model(quicket_card_set), tmp_path, KitOptions(progress=False)).folder
    first = sorted(p.relative_to(kit) for p in kit.rglob("*") if p.is_file())
    second = sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    assert first == second
    for rel in first:
        assert (kit / rel).read_bytes() == (again / rel).read_bytes(), rel


@pytest.mark.needs_data
def test_longest_real_names_and_a_40_character_name_fit(bbl_card_set: dict):
    layout = load_layout("card")
    inner = layout["width_mm"] - 2 * layout["margin_mm"]
    spec = layout["name"]
    views = card_views(as_model(bbl_card_set))
    longest = sorted(views, key=lambda v: len(v.name))[-3:]
    synthetic_set = json.loads(json.dumps(bbl_card_set))
    card = synthetic_set["cards"][0]
    card["player"]["name"] = "Maximilian-Alexander Wolfeschlegelsteinh"  # 40 characters
    assert len(card["player"]["name"]) == 40
    synthetic = next(v for v in card_views(as_model(synthetic_set)) if v.name == card["player"]["name"].upper())
    for view in longest + [synthetic]:
        fitted = fit_text(view.name, spec["font"], inner, spec["max_pt"], spec["min_pt"],
                          spec["max_lines"], spec["wrap_below_pt"])
        assert not fitted.truncated and fitted.size_pt >= spec["min_pt"]
        assert " ".join(fitted.lines) == view.name
        assert all(text_width_mm(line, spec["font"], fitted.size_pt) <= inner for line in fitted.lines)
        # and on the drawn card no ink reaches the right-hand margin of the name band
        image = card_image(view, 300)
        px = 300 / 25.4
        strip = image.crop((round((layout["width_mm"] - layout["margin_mm"] + 0.4) * px), round(spec["top_mm"] * px),
                            round((layout["width_mm"] - 0.6) * px), round(spec["bottom_mm"] * px)))
        assert all(lo == hi for lo, hi in strip.getextrema()), view.name  # one flat colour


@pytest.mark.needs_data
def test_png_cards_are_300_dpi_and_tts_sheets_fit_4096(kit: Path, quicket_card_set: dict):
    pngs = sorted((kit / "png").glob("*.png"))
    with Image.open(pngs[0]) as first:
        assert first.size == card_pixels(300) == (744, 1039)
    cols, rows, slot_w, slot_h = tts_geometry()
    assert (cols, rows) == (10, 7)
    teams = {t["name"] for t in quicket_card_set["teams"]}
    faces = sorted(p for p in (kit / "tts").glob("*.png") if not p.name.endswith("-back.png"))
    assert len(faces) == len(teams)  # every BBL squad fits one sheet of 69
    for sheet in faces:
        with Image.open(sheet) as im:
            assert max(im.size) <= 4096 and im.size == (cols * slot_w, rows * slot_h)
            last = im.convert("RGB").crop((9 * slot_w, 6 * slot_h, 10 * slot_w, 7 * slot_h))
            # slot 70 is blank: one flat near-white (the 64-colour palette may store white as 254)
            assert all(lo == hi >= 250 for lo, hi in last.getextrema())


@pytest.mark.needs_data
def test_tts_decks_say_how_many_cards_each_sheet_holds(kit: Path, quicket_card_set: dict):
    """Tabletop Simulator's Custom Deck dialog needs Width, Height and Number: the kit's
    tts/decks.json and README.txt give them, and each Number is the cards really drawn on that
    sheet (its slots from Number on are blank), so the deck has no blank and no missing card."""
    from collections import Counter
    cols, rows, slot_w, slot_h = tts_geometry()
    decks = json.loads((kit / "tts" / "decks.json").read_text(encoding="utf-8"))["decks"]
    per_team = Counter(card["team"] for card in quicket_card_set["cards"])
    assert {d["team"]: d["cards"] for d in decks} == dict(per_team)
    readme = (kit / "tts" / "README.txt").read_text(encoding="utf-8")
    assert f"Width {cols}, Height {rows}" in readme
    for deck in decks:
        assert (deck["columns"], deck["rows"]) == (cols, rows) and (kit / deck["back"]).is_file()
        face = deck["face"].removeprefix("tts/")
        assert re.search(rf"^{re.escape(face)} +Number +{deck['cards']} +Back {re.escape(deck['back'][4:])}$",
                         readme, re.M)
        with Image.open(kit / deck["face"]) as im:
            sheet = im.convert("RGB")
        flat = [all(lo == hi for lo, hi in sheet.crop(
            (c * slot_w, r * slot_h, (c + 1) * slot_w, (r + 1) * slot_h)).getextrema())
            for r in range(rows) for c in range(cols)]
        assert flat.index(True) == deck["cards"] and all(flat[deck["cards"]:]), deck["face"]


@pytest.mark.slow
@pytest.mark.parametrize("season", ["BBL_2024-25", "IPL_2025", "HUNDRED_2024"])
def test_striker_and_bowler_cards_differ_in_greyscale(season: str):
    """Printed in black and white a striker card and a bowler card stay apart: the role bar
    (solid black BOWLER, outlined STRIKER) always, by 143 grey levels; the band too, the dark team
    colour against its light tint, by more than 80 where the colour is dark (white band text).
    A light team colour (Chennai Super Kings' yellow, Trent Rockets', Sydney Thunder's lime: black
    band text) cannot be far from its own tint; its band still differs by more than 30."""
    import gzip
    from cardgen.render.card import text_on
    [path] = [p for p in sorted((Path(__file__).resolve().parent.parent / "stats_cache" / "card-sets").glob(
        f"{season}-*.json.gz")) if json.loads(gzip.decompress(p.read_bytes())).get("rule") != "wickets-in-hand"]
    views = card_views(as_model(json.loads(gzip.decompress(path.read_bytes()))))
    layout = load_layout("card")
    px = 300 / 25.4
    bar = layout["role_bar"]
    light = set()
    for team in sorted({v.team for v in views}):
        striker = next(v for v in views if v.team == team and v.kind == "striker")
        bowler = next(v for v in views if v.team == team and v.kind == "bowler")

        def grey(view, top_mm: float, bottom_mm: float) -> float:  # noqa: ANN001
            image = card_image(view, 300).convert("L")
            return ImageStat.Stat(image.crop((0, round(top_mm * px), image.width, round(bottom_mm * px)))).mean[0]
        band_bottom = layout["band"]["height_mm"] - 1.7  # above the striker's team-colour rule
        band = grey(striker, 0, band_bottom) - grey(bowler, 0, band_bottom)
        role_bar = (grey(striker, bar["top_mm"], bar["top_mm"] + bar["height_mm"])
                    - grey(bowler, bar["top_mm"], bar["top_mm"] + bar["height_mm"]))
        assert role_bar > 120, team
        dark = text_on(bowler.team_colour) == "#ffffff"
        if not dark:
            light.add(team)
        assert band > (80 if dark else 30), (team, band)
    assert season != "IPL_2025" or "Chennai Super Kings" in light


@pytest.mark.needs_data
def test_cli_build_one_team_ink_saver_letter(card_set_file: Path, mirror: Path, tmp_path: Path):
    result = CliRunner().invoke(main, ["build", "-c", "BBL", "-s", "2024-25", "--source", str(mirror),
                                       "--out", str(tmp_path), "--paper", "letter", "--team", "perth",
                                       "--ink-saver", "--no-images", "--card-set", str(card_set_file)])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "BBL_2024-25_perth-scorchers"  # its own folder, beside the full kit
    assert result.output.splitlines()[-1] == f"what to print, and how: {folder / 'START-HERE.txt'}"
    assert sorted(p.name for p in tmp_path.iterdir()) == [folder.name]
    assert sorted(p.name for p in folder.iterdir()) == [
        ".cardgen-kit.json", "START-HERE.txt", "card-set.json", "cards-letter.pdf", "fielding-chart-letter.pdf",
        "quick-reference-letter.pdf", "scoresheet-letter.pdf", "team-sheets-letter.pdf"]
    slots = _card_texts(folder / "cards-letter.pdf", "letter")
    assert slots and all("2024-2025 Perth" in texts for texts in slots)
    for name in ("cards-letter.pdf", "fielding-chart-letter.pdf"):
        for page in pypdf.PdfReader(folder / name).pages:
            ops = {op for _, op in ContentStream(page.get_contents(), page.pdf).operations}
            assert not ops & FILL_OPERATORS, name  # ink-saver: outlines only
    # re-running replaces the kit
    again = CliRunner().invoke(main, ["build", "-c", "BBL", "-s", "2024-25", "--out", str(tmp_path),
                                      "--paper", "a4", "--team", "Perth Scorchers", "--no-images",
                                      "--card-set", str(card_set_file)])
    assert again.exit_code == 0, again.output
    assert not (folder / "cards-letter.pdf").exists() and (folder / "cards-a4.pdf").exists()


@pytest.mark.needs_data
def test_cli_bleed_with_backs_mirrors_columns(card_set_file: Path, tmp_path: Path):
    result = CliRunner().invoke(main, ["build", "-c", "BBL", "-s", "2024-25", "--out", str(tmp_path),
                                       "--paper", "a4", "--team", "Sydney Thunder", "--bleed", "--backs",
                                       "--no-images", "--card-set", str(card_set_file)])
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(tmp_path / "BBL_2024-25_sydney-thunder" / "cards-a4.pdf")
    assert len(reader.pages) % 2 == 0
    segments = _segments_at_page_level(reader.pages[0])
    vertical = sorted({round(x1 / MM, 3) for x1, y1, x2, y2 in segments if math.isclose(x1, x2)})
    assert len(vertical) == 8  # with bleed (4 x 2 landscape) every card has its own two cut lines
    assert all(math.isclose(b - a, 63.0, abs_tol=0.01) for a, b in zip(vertical[::2], vertical[1::2]))
    assert all(math.isclose(b - a, 6.0, abs_tol=0.01) for a, b in zip(vertical[1::2], vertical[2::2]))
    # a back page puts the first card's back in the last column
    geo = sheet_geometry("a4", bleed=True)
    front_texts = reader.pages[0].extract_text()
    back = reader.pages[1]
    positions = []
    back.extract_text(visitor_text=lambda t, cm, tm, fd, fs: positions.append((t, tm[4] / MM))
                      if t.strip() == "QUICKET CRICKET" else None)
    first_x = min(x for _, x in positions)
    last_col_left, _ = geo.card_origin(0, geo.columns - 1)
    assert "SYDNEY THUNDER" in back.extract_text() and "Sydney (T)" in front_texts
    assert max(x for _, x in positions) > last_col_left and first_x < geo.card_origin(0, 1)[0]
    # the kit's first file says how this one prints: 8 to a landscape sheet, fronts and backs
    start = (tmp_path / "BBL_2024-25_sydney-thunder" / "START-HERE.txt").read_text(encoding="utf-8")
    assert "Player cards, 8 to a sheet" in start and "print two-sided" in start
    assert "cut at both marks of each gap" in start
    assert f"A4: cards-a4.pdf, {len(reader.pages) // 2} sheets, two-sided" in start
    assert "teams/" not in start and "png/" not in start  # a one-team kit without images
    assert "For one match" not in start  # it names teams/, which a one-team kit has not
    # its manifest says how the sheets print, as the back pages' own footer says it (the site reads it)
    manifest = read_manifest(tmp_path / "BBL_2024-25_sydney-thunder", "team-kit")
    assert manifest is not None and manifest.card_sheets == {"cards-a4.pdf": CardSheets(True, "short", True)}
    assert "duplex: flip on short edge" in back.extract_text().lower()
    assert set(manifest.files) == {p.relative_to(tmp_path / "BBL_2024-25_sydney-thunder").as_posix()
                                   for p in (tmp_path / "BBL_2024-25_sydney-thunder").rglob("*")
                                   if p.is_file() and p.name != ".cardgen-kit.json"}


@pytest.mark.needs_data
@pytest.mark.parametrize("args, message", [
    (["--team", "Nowhere United"], "matches no team"),
    (["--team", "Melbourne"], "matches several teams"),
    (["--season", "2024-25", "-c", "HUNDRED"], "calendar years"),
])
def test_cli_bad_input_gives_one_line_error(card_set_file: Path, tmp_path: Path, args: list[str], message: str):
    season = [] if "-c" in args else ["-c", "BBL", "-s", "2024-25"]  # -c repeats only with --all
    base = ["build", *season, "--out", str(tmp_path), "--no-images", "--card-set", str(card_set_file)]
    result = CliRunner().invoke(main, base + args)
    assert result.exit_code != 0
    assert message in result.output and "Traceback" not in result.output
    assert not (tmp_path / "BBL_2024-25").exists()


def test_cli_build_help_lists_the_options():
    result = CliRunner().invoke(main, ["build", "--help"])
    assert result.exit_code == 0
    for option in ("--paper", "--team", "--bleed", "--ink-saver", "--backs", "--seed", "--source", "--out"):
        assert option in result.output


@pytest.mark.needs_data
def test_a_failed_build_leaves_the_previous_kit_untouched(card_set_file: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch):
    args = ["build", "-c", "BBL", "-s", "2024-25", "--out", str(tmp_path), "--no-images",
            "--card-set", str(card_set_file)]
    assert CliRunner().invoke(main, args + ["--paper", "a4"]).exit_code == 0
    folder = tmp_path / "BBL_2024-25"
    before = {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}

    def broken(*_args, **_kwargs):
        raise CardgenError("disk on fire")

    import cardgen.render.kit as kit_module
    monkeypatch.setattr(kit_module, "render_scoresheet_pdf", broken)
    result = CliRunner().invoke(main, args + ["--paper", "letter"])
    assert result.exit_code != 0 and "disk on fire" in result.output
    assert {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()} == before
    assert [p.name for p in tmp_path.iterdir()] == ["BBL_2024-25"]  # no staging folder left


@pytest.mark.slow
@pytest.mark.needs_data
def test_every_page_of_every_pdf_carries_the_data_credit(kit: Path):
    for pdf in sorted(kit.rglob("*.pdf")):  # the teams' own PDFs too
        for number, text in enumerate(pdf_text.page_texts(pdf), 1):
            assert ATTRIBUTION in " ".join(text.split()), (pdf.name, number)


@pytest.mark.slow
@pytest.mark.needs_data
def test_whole_set_pdfs_bookmark_each_team_at_its_own_pages(kit: Path, quicket_card_set: dict):
    """One bookmark per team, at the page where its cards start; the teams' own PDFs hold exactly those pages."""
    manifest = json.loads((kit / ".cardgen-kit.json").read_text())
    assert manifest["manifest_version"] == 1 and manifest["kind"] == "season-kit"
    assert not (kit / "teams" / "teams.json").exists()  # the manifest is the one list of what a kit holds
    teams = [t["name"] for t in quicket_card_set["teams"]]
    assert [t["name"] for t in manifest["teams"]] == teams
    for paper in ("a4", "letter"):
        whole = pypdf.PdfReader(kit / f"cards-{paper}.pdf")
        marks = [(item.title, whole.get_destination_page_number(item) + 1) for item in whole.outline]
        assert [title for title, _ in marks] == teams
        whole_slots = _card_texts(kit / f"cards-{paper}.pdf", paper)
        whole_texts = pdf_text.page_texts(kit / f"cards-{paper}.pdf")
        done = 0
        for entry, (_, first) in zip(manifest["teams"], marks):
            start, end = entry["pages_in_whole_set"][f"cards-{paper}.pdf"]
            assert start == first
            own = kit / entry["files"][f"cards-{paper}"]
            assert 1 <= len(pypdf.PdfReader(own).pages) <= end - start + 1
            names = {c["player"]["name"].upper() for c in quicket_card_set["cards"] if c["team"] == entry["name"]}
            for number in (start, end):  # the range starts and ends on pages holding the team's cards
                assert any(n in whole_texts[number - 1] for n in names), (entry["name"], number)
            # the team's own PDF prints exactly the team's cards, in the whole set's order
            slots = _card_texts(own, paper)
            assert slots == whole_slots[done:done + len(slots)]
            assert len(slots) == entry["cards"] == sum(c["team"] == entry["name"] for c in quicket_card_set["cards"])
            done += len(slots)
        assert done == len(whole_slots) and marks[-1][1] <= len(whole.pages)
    sheet = pypdf.PdfReader(kit / manifest["teams"][0]["files"]["team-sheet-a4"])
    assert teams[0].upper() in sheet.pages[0].extract_text().upper()
    assert teams[1].upper() not in " ".join(p.extract_text().upper() for p in sheet.pages)


@pytest.mark.needs_data
def test_one_team_build_leaves_the_full_kit_byte_identical(kit: Path, quicket_card_set: dict, tmp_path: Path):
    import shutil
    out = tmp_path / "out"
    shutil.copytree(kit, out / kit.name)
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    result = build_kit(as_model(quicket_card_set), out, KitOptions(team="Perth Scorchers", progress=False, workers=1))
    after = {p.relative_to(out / kit.name): p.read_bytes() for p in (out / kit.name).rglob("*") if p.is_file()}
    assert after == {rel.relative_to(kit.name): data for rel, data in before.items()}
    assert result.folder == out / "BBL_2024-25_perth-scorchers"
    one = json.loads((result.folder / "card-set.json").read_text())
    assert {c["team"] for c in one["cards"]} == {"Perth Scorchers"} and len(one["teams"]) == 1
    assert not (result.folder / "teams").exists()


@pytest.mark.slow
@pytest.mark.needs_data
def test_build_makes_the_quicket_rules_kit_and_the_advanced_kit_beside_it(tmp_path: Path, monkeypatch,
                                                                         mirror: Path):
    """`build` makes the cards for the Quicket rules as printed (issue 34): `"rules": "quicket"`,
    no Defence rating, no wickets-in-hand table, in OUT/<CODE>_<season>/; `--rules advanced`
    the advanced kit in OUT/<CODE>_<season>-advanced/, with the table; `--classic` (the old name
    of the printed rules) is the default kit again. A --card-set file keeps its own rules."""
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    runner = CliRunner()
    out = tmp_path / "out"
    kits = {}
    for flags in ([], ["--rules", "advanced"], ["--classic"]):
        args = ["build", "-c", "HUNDRED", "-s", "2024", "--source", str(mirror), "--out", str(out),
                "--no-images", "--paper", "a4", *flags]
        result = runner.invoke(main, args)
        assert result.exit_code == 0, result.output
        folder = out / ("HUNDRED_2024-advanced" if "advanced" in flags else "HUNDRED_2024")
        card_set = json.loads((folder / "card-set.json").read_text())
        # every printed piece: each PDF's text (one string a file) and START-HERE.txt
        printed = {path.name: " ".join(" ".join(page.extract_text() for page in pypdf.PdfReader(path).pages).split())
                   for path in sorted(folder.glob("*.pdf"))}
        printed["START-HERE.txt"] = (folder / "START-HERE.txt").read_text()
        kits[" ".join(flags) or "default"] = (card_set, printed, result.output)
    quicket, printed, output = kits["default"]
    assert (quicket["rules"], quicket["rule"]) == ("quicket", "classic")
    assert not any("defence" in c for c in quicket["cards"])
    assert not any("Wickets in hand" in text or "Defence" in text
                   for name, text in printed.items() if name.endswith(".pdf"))
    assert "rules-a4.pdf" not in printed   # the rules sheet is the advanced kit's
    # START-HERE, the quick reference, the scoresheet and the team sheets say which rules they
    # are made for
    for name in ("START-HERE.txt", "quick-reference-a4.pdf", "scoresheet-a4.pdf", "team-sheets-a4.pdf"):
        assert "Quicket rules" in printed[name], name
    assert not any("Advanced rules" in text for name, text in printed.items() if name.endswith(".pdf"))
    assert "cardgen build -c HUNDRED -s 2024 --rules advanced" in output   # how to make the other
    assert "cardgen build -c HUNDRED -s 2024 --rules advanced" in printed["START-HERE.txt"]
    advanced, printed, _ = kits["--rules advanced"]
    assert (advanced["rules"], advanced["rule"]) == ("advanced", "wickets-in-hand")
    assert any(c.get("defence") for c in advanced["cards"])
    for name in ("START-HERE.txt", "quick-reference-a4.pdf", "scoresheet-a4.pdf", "team-sheets-a4.pdf", "rules-a4.pdf"):
        assert "Advanced rules" in printed[name], name
    for name in ("quick-reference-a4.pdf", "scoresheet-a4.pdf", "rules-a4.pdf"):
        assert "Wickets in hand" in printed[name], name
    # the rules sheet has both rules in full, and the quick reference and START-HERE name it
    sheet = " ".join(printed["rules-a4.pdf"].split())
    assert "R12. Wickets in hand" in sheet and "R13. Defence" in sheet and "Super Fives" in sheet
    assert "rules-a4.pdf" in printed["START-HERE.txt"] and "rules sheet" in printed["quick-reference-a4.pdf"]
    # the advanced sheets say plainly that the cards need the two rules, and how to print the other kit
    for name in ("START-HERE.txt", "rules-a4.pdf"):
        text = " ".join(printed[name].split())
        assert "score too little" in text and "cardgen build -c HUNDRED -s 2024" in text, name
    # no printed piece of either kit offers to skip a rule its cards are made for
    for kit, (_, printed, _) in kits.items():
        for name, text in printed.items():
            assert not re.search(r"\bskip|optional|recommended", text, re.IGNORECASE), (kit, name)
    assert kits["--classic"][0] == quicket
    assert sorted(p.name for p in out.iterdir()) == ["HUNDRED_2024", "HUNDRED_2024-advanced"]
    # a --card-set file keeps its own rules: --rules naming the other is refused
    result = runner.invoke(main, ["build", "-c", "HUNDRED", "-s", "2024", "--rules", "quicket", "--card-set",
                                  str(out / "HUNDRED_2024-advanced" / "card-set.json"),
                                  "--out", str(tmp_path / "x")])
    assert result.exit_code == 2 and "made for the Advanced rules" in result.output
    result = runner.invoke(main, ["build", "--game", "quick-cricket", "--rules", "advanced",
                                  "--out", str(tmp_path / "x")])
    assert result.exit_code == 2 and "--rules" in result.output


@pytest.mark.slow
@pytest.mark.needs_data
def test_workers_write_the_same_kit_and_preflight_it_as_check_folder_does(bbl_card_set: dict, tmp_path: Path,
                                                                          monkeypatch):
    """The PDFs are rendered and preflighted in worker processes: the files are the same as one
    process writes, and the problems found on the way are check_folder's, in its order (a
    scoresheet with text at the paper's edge stands in for a broken layout)."""
    from reportlab.pdfgen.canvas import Canvas

    import cardgen.render.kit as kit_module
    from cardgen.render.preflight import check_folder

    def edge_scoresheet(*_args, **_kwargs) -> bytes:
        import io
        buf = io.BytesIO()
        canvas = Canvas(buf, pagesize=PAGE_PT["a4"], invariant=1)
        canvas.drawString(2, 400, "too close to the edge")
        canvas.showPage()
        canvas.save()
        return buf.getvalue()

    monkeypatch.setattr(kit_module, "render_scoresheet_pdf", edge_scoresheet)
    files = {}
    for workers in (1, 2):
        options = KitOptions(papers=("a4",), images=False, progress=False, workers=workers, preflight=True)
        result = build_kit(as_model(bbl_card_set), tmp_path / f"w{workers}", options)
        pdfs, problems = check_folder(result.folder)
        assert result.pdfs == pdfs and result.problems == problems
        assert problems and {p.file for p in problems} == {"scoresheet-a4.pdf"}
        files[workers] = {p.relative_to(result.folder): p.read_bytes() for p in result.folder.rglob("*")
                          if p.is_file()}
    assert files[1] == files[2]


def _build(card_set_file: Path, out: Path):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, ["build", "-c", "BBL", "-s", "2024-25", "--out", str(out), "--no-images",
                                     "--paper", "a4", "--card-set", str(card_set_file)])


@pytest.mark.slow
@pytest.mark.needs_data
def test_a_folder_that_is_not_a_kit_keeps_its_files_unless_the_kit_would_replace_one(
        card_set_file: Path, tmp_path: Path):
    """The README said such a folder is refused; it is kept, files and all, and refused only when
    a file of it has the name of one the kit writes. The message said the kept files were 'of
    the previous kit', where there was none (helper-51)."""
    folder = tmp_path / "out" / "BBL_2024-25"
    folder.mkdir(parents=True)
    (folder / "notes.txt").write_text("mine")
    result = _build(card_set_file, tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "kept 1 file(s) already in the folder that the build does not write (notes.txt)" in result.output
    assert (folder / "notes.txt").read_text() == "mine" and (folder / "cards-a4.pdf").is_file()
    other = tmp_path / "other" / "BBL_2024-25"
    other.mkdir(parents=True)
    (other / "cards-a4.pdf").write_text("mine")
    result = _build(card_set_file, tmp_path / "other")
    assert result.exit_code == 2 and "holds cards-a4.pdf, which cardgen did not write" in result.output
    assert (other / "cards-a4.pdf").read_text() == "mine"


@pytest.mark.slow
@pytest.mark.needs_data
def test_rebuild_keeps_the_users_files_and_the_reports_while_the_cards_are_the_same(
        card_set_file: Path, tmp_path: Path):
    """Review finding: a rebuild used to delete everything in the kit folder it had not just
    written -- the user's notes and the validate / compare-games reports."""
    out = tmp_path / "out"
    assert _build(card_set_file, out).exit_code == 0
    folder = out / "BBL_2024-25"
    (folder / "notes.txt").write_text("print on 300 gsm")
    (folder / "validation").mkdir()
    (folder / "validation" / "summary.json").write_text("{}")  # as `cardgen validate` leaves it
    (folder / "cards-letter.pdf").write_bytes(b"%PDF from a build with --paper both")
    marker = json.loads((folder / ".cardgen-kit.json").read_text())
    marker["files"].append("cards-letter.pdf")  # ... which that build wrote
    (folder / ".cardgen-kit.json").write_text(json.dumps(marker))
    again = _build(card_set_file, out)
    assert again.exit_code == 0, again.output
    assert "kept 2 file(s) already in the folder" in again.output
    assert (folder / "notes.txt").read_text() == "print on 300 gsm"
    assert (folder / "validation" / "summary.json").is_file()
    assert not (folder / "cards-letter.pdf").exists()  # the build's own file of an older run: gone
    # other cards: the report describes the old ones and goes, the user's notes stay
    other = json.loads(card_set_file.read_text())
    other["cards"][0]["player"]["name"] = "Someone Else"
    other_file = tmp_path / "other-card-set.json"
    other_file.write_text(json.dumps(other))
    changed = _build(other_file, out)
    assert changed.exit_code == 0, changed.output
    assert "removed the old validation/ report" in changed.output
    assert not (folder / "validation").exists() and (folder / "notes.txt").is_file()


@pytest.mark.needs_data
def test_calibrate_never_puts_other_cards_into_a_built_kit(card_set_file: Path, tmp_path: Path, monkeypatch):
    """Review finding: `calibrate --classic` after `build` left a classic card-set.json beside PDFs
    printed for the rule (the site and validate read it); now each rule set has its own folder,
    and calibrating other cards into either kit is refused."""
    out = tmp_path / "out"
    assert _build(card_set_file, out).exit_code == 0
    kit_set = (out / "BBL_2024-25" / "card-set.json").read_text()
    other = json.loads(kit_set)
    other["cards"][0]["player"]["name"] = "Someone Else"
    monkeypatch.setattr("cardgen.calibrate.cardset.build_card_set", lambda *a, **k: other)
    result = CliRunner().invoke(main, ["calibrate", "-c", "BBL", "-s", "2024-25", "--out", str(out)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "holds a kit printed from other cards; run `cardgen build -c BBL -s 2024-25`" in result.output
    assert (out / "BBL_2024-25" / "card-set.json").read_text() == kit_set
    # the same cards: nothing to refuse
    monkeypatch.setattr("cardgen.calibrate.cardset.build_card_set", lambda *a, **k: json.loads(kit_set))
    same = CliRunner().invoke(main, ["calibrate", "-c", "BBL", "-s", "2024-25", "--out", str(out)])
    assert same.exit_code == 0, same.output


@pytest.mark.slow
@pytest.mark.needs_data
def test_build_refuses_a_folder_that_is_not_a_kit(card_set_file: Path, tmp_path: Path):
    """Review finding: a file, or a folder of the user's, at OUT/BBL_2024-25 was deleted."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "BBL_2024-25").write_text("my notes")
    refused = _build(card_set_file, out)
    assert refused.exit_code == 2 and "is a file, not a cardgen folder" in refused.output
    assert (out / "BBL_2024-25").read_text() == "my notes"
    (out / "BBL_2024-25").unlink()
    (out / "BBL_2024-25").mkdir()
    (out / "BBL_2024-25" / "cards-a4.pdf").write_bytes(b"%PDF my own cards")
    clash = _build(card_set_file, out)
    assert clash.exit_code == 2 and "cards-a4.pdf, which cardgen did not write" in clash.output
    assert (out / "BBL_2024-25" / "cards-a4.pdf").read_bytes() == b"%PDF my own cards"
    assert sorted(p.name for p in out.iterdir()) == ["BBL_2024-25"]  # no staging left behind


def test_a_one_team_kit_says_r13_on_its_match_sheets_when_the_season_rates_other_sides(defence_card_sets,
                                                                                      tmp_path, pdf_words):
    """A --team kit is played against another team's kit: a side with no rated striker still
    meets the season's rated ones, so its quick reference and scoresheet say R13 as the whole kit's
    do; its own team sheet has no Defence column (none of its cards has one)."""
    card_set = defence_card_sets["T20"]
    rated_teams = {c["team"] for c in card_set["cards"] if c.get("defence")}
    plain_team = next(t["name"] for t in card_set["teams"] if t["name"] not in rated_teams)
    options = KitOptions(team=plain_team, papers=("a4",), images=False, progress=False, workers=1)
    folder = build_kit(as_model(card_set), tmp_path / "rated", options).folder
    quick_reference = pdf_words(folder / "quick-reference-a4.pdf")
    assert "Defence N (R13, some striker cards): on a W off the bowler's card roll a d20: 1-N" in quick_reference
    assert pdf_words(folder / "scoresheet-a4.pdf").count("Defence N (R13, some striker cards)") == 2  # both innings
    assert "Defence" not in pdf_words(folder / "team-sheets-a4.pdf")
    # a season with no rating: nothing of R13 in the one-team kit either
    plain_set = {**card_set, "cards": [{k: v for k, v in c.items() if k != "defence"} for c in card_set["cards"]]}
    folder = build_kit(as_model(plain_set), tmp_path / "plain", options).folder
    for name in ("quick-reference-a4.pdf", "scoresheet-a4.pdf", "team-sheets-a4.pdf"):
        assert "R13" not in pdf_words(folder / name) and "Defence" not in pdf_words(folder / name), name


@pytest.mark.slow
@pytest.mark.needs_data
def test_every_pdf_of_the_kit_prints_the_season_one_way(kit: Path):
    """Review finding (helper-45): the cards and team sheets printed "2024-2025" (the rules'
    example cards' form) while the quick reference, fielding chart, scoresheet and the card sheets'
    footers printed "2024-25": one kit, one season, two spellings. Every page (and each PDF's
    title, which a viewer shows) now prints the cards' form; the folder keeps the short one."""
    assert kit.name == "BBL_2024-25"
    for pdf in sorted(kit.rglob("*.pdf")):
        reader = pypdf.PdfReader(pdf)
        text = "\n".join(pdf_text.page_texts(pdf))  # pypdf's text of each page, read once a document
        name = pdf.relative_to(kit).as_posix()
        assert not re.search(r"2024-25(?!\d)", text), name
        assert "2024-2025" in text, name
        assert "2024-2025" in reader.metadata.title, name
    assert (kit / "tts" / "README.txt").read_text().startswith("BBL 2024-2025: ")


@pytest.mark.slow
def test_variants_print_the_cards_three_more_ways_and_the_site_offers_them(quicket_card_set: dict, kit: Path,
                                                                          tmp_path: Path):
    """Issue 38: the low-ink, bleed and backs printings existed only as build options, one at a
    time. --variants writes each beside the plain sheets, which stay byte for byte the plain
    build's; the manifest says how each prints; the site offers each under a name of its own,
    the same bytes as the kit's file."""
    from cardgen.render.kit import card_variants
    from cardgen.render.preflight import sheet_bleed
    from cardgen.site.generate import generate_site
    folder = build_kit(as_model(quicket_card_set), tmp_path, KitOptions(papers=("a4",), variants=True, images=False,
                                                               progress=False)).folder
    assert (folder / "cards-a4.pdf").read_bytes() == (kit / "cards-a4.pdf").read_bytes()
    sheets = read_manifest(folder).card_sheets
    assert sheets["cards-a4-backs.pdf"] == CardSheets(True, "long", False)
    assert sheets["cards-a4-bleed.pdf"] == CardSheets(False, "short", True)   # 8 a landscape sheet
    assert sheets["cards-a4-ink-saver.pdf"] == sheets["cards-a4.pdf"] == CardSheets(False, "long", False)
    bleed = sheet_bleed((folder / "cards-a4-bleed.pdf").read_bytes(), "cards-a4-bleed.pdf")
    assert bleed is not None and bleed.least > 2.9   # A4's 3 mm, read back from the PDF
    plain = len(pypdf.PdfReader(folder / "cards-a4.pdf").pages)
    assert len(pypdf.PdfReader(folder / "cards-a4-backs.pdf").pages) == 2 * plain   # a back after each front
    # low ink: fewer filled shapes than the plain sheets
    def fills(name: str) -> int:
        page = pypdf.PdfReader(folder / name).pages[0]
        return sum(op in FILL_OPERATORS for _, op in ContentStream(page.get_contents(), None).operations)
    assert fills("cards-a4-ink-saver.pdf") < fills("cards-a4.pdf")
    site = generate_site(tmp_path).site_dir / "sets" / folder.name
    page = (site / "index.html").read_text(encoding="utf-8")
    for variant in ("ink-saver", "bleed", "backs"):
        name = f"bbl-2024-25-cards-a4-{variant}.pdf"
        assert f'download="{name}"' in page
        assert (site / "downloads" / name).read_bytes() == (folder / f"cards-a4-{variant}.pdf").read_bytes()
    # a kit built with --bleed already prints with bleed: no second bleed file
    assert set(card_variants(KitOptions(bleed=True, variants=True))) == {"", "ink-saver", "backs"}
