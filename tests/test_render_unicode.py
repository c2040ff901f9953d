"""Names in Greek, Cyrillic and any accent print as named, on PDF and PNG; slugs stay readable.

The font (DejaVu Sans, shipped in the package) is read back from the files we make: the PDF's
text and embedded font, the kit PNG's pixels against the name drawn with that font and with the
missing-glyph box.
"""
from __future__ import annotations

import copy
import io
import os
from pathlib import Path

import numpy as np
import pypdf
import pytest
import reportlab
from PIL import Image, ImageDraw, ImageFont
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from cardgen.render.fonts import FONT_DIR, PDF_NAMES, covered, font_path, printable, text_width_mm, upper
from cardgen.render.card import card_views
from cardgen.render.images import card_image, png_bytes
from cardgen.render.kit import KitOptions, build_kit
from cardgen.render.layout import load_layout
from cardgen.render.painter import PilPainter
from cardgen.slugs import slug
from conftest import as_model

GREEK = "Δημήτρης Παπαδόπουλος"
CYRILLIC = "Дмитрий Иванов"
ACCENTS = "Sébastien Côté-Łukasz Nguyễn"
CJK = "王小明"


@pytest.fixture(scope="module")
def renamed_set(render_card_sets: dict[str, dict]) -> dict:
    """BBL 2024-25 with four players of its first team renamed into other scripts (a copy: the
    session's set is shared)."""
    card_set = copy.deepcopy(render_card_sets["BBL"])
    team = card_set["cards"][0]["team"]
    ids = list(dict.fromkeys(c["player"]["id"] for c in card_set["cards"] if c["team"] == team))
    names = dict(zip(ids, (GREEK, CYRILLIC, ACCENTS, CJK)))
    for card in card_set["cards"]:
        card["player"]["name"] = names.get(card["player"]["id"], card["player"]["name"])
    return card_set


@pytest.fixture(scope="module")
def renamed_kit(renamed_set: dict, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """That team's kit (A4, PNGs)."""
    out = tmp_path_factory.mktemp("unicode-kit")
    team = renamed_set["cards"][0]["team"]
    return build_kit(as_model(renamed_set), out, KitOptions(team=team, papers=("a4",), progress=False, workers=1)).folder


def test_the_font_ships_with_the_package_with_its_licence():
    assert FONT_DIR.parent.name == "render" and (FONT_DIR / "LICENSE.txt").is_file()
    assert "Bitstream Vera" in (FONT_DIR / "LICENSE.txt").read_text()
    for style in PDF_NAMES:
        assert Path(font_path(style)).is_file()
    chars = covered()
    for text in (GREEK, CYRILLIC, ACCENTS, GREEK.upper(), CYRILLIC.upper(), "ŁŚŻĆŃĘĄ ĞŞİ ŐŰ ÆØÅ ß Ŵŷ"):
        assert all(ord(ch) in chars for ch in text), text


def test_names_keep_vera_widths_so_existing_layouts_do_not_move():
    """DejaVu Sans is Vera extended: every ASCII/Latin-1 name measures exactly as before."""
    vera_dir = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
    for style, vera in (("regular", "Vera.ttf"), ("bold", "VeraBd.ttf")):
        name = f"TestVera-{style}"
        pdfmetrics.registerFont(TTFont(name, os.path.join(vera_dir, vera)))
        for text in ("CJ GREEN", "Adelaide Strikers", "Ball-by-ball data from Cricsheet", "Müller Ñúñez"):
            assert text_width_mm(text, style, 10) == pytest.approx(
                pdfmetrics.stringWidth(text, name, 10) / (72 / 25.4), abs=1e-9)


def test_printable_and_upper():
    assert printable(GREEK) == GREEK and printable(CYRILLIC) == CYRILLIC and printable(ACCENTS) == ACCENTS
    assert printable(CJK) == "Wang Xiao Ming"  # not boxes, not nothing
    assert printable("Kim 김민수") == "Kim Gim Min Su"
    assert upper(GREEK) == "ΔΗΜΗΤΡΗΣ ΠΑΠΑΔΟΠΟΥΛΟΣ"  # Greek capitals are set without accents
    assert upper(ACCENTS) == "SÉBASTIEN CÔTÉ-ŁUKASZ NGUYỄN"
    assert upper(CYRILLIC) == "ДМИТРИЙ ИВАНОВ"


def test_slugs_keep_a_readable_transliteration():
    assert slug("CJ Green") == "cj-green" and slug("Adelaide Strikers") == "adelaide-strikers"
    assert slug(GREEK) == "dimitris-papadopoylos"
    assert slug(CYRILLIC) == "dmitriy-ivanov"
    assert slug(ACCENTS) == "sebastien-cote-lukasz-nguyen"
    assert slug(CJK) == "wangxiaoming"
    assert slug("???") == "x"


@pytest.mark.needs_data
def test_pdf_cards_carry_the_names_in_an_embedded_font(renamed_kit: Path):
    reader = pypdf.PdfReader(renamed_kit / "cards-a4.pdf")
    text = " ".join(page.extract_text() for page in reader.pages)
    for name in ("ΔΗΜΗΤΡΗΣ", "ΠΑΠΑΔΟΠΟΥΛΟΣ", "ДМИТРИЙ", "ИВАНОВ", "SÉBASTIEN", "ŁUKASZ", "WANG XIAO MING"):
        assert name in text, name
    import re
    for page in reader.pages:
        resources = {str(k): v.get_object() for k, v in page["/Resources"]["/Font"].items()}
        drawing = set(re.findall(r"(/[\w+]+) [\d.]+ Tf(?:(?!Tf).)*?(?:\bTj|\bTJ)",
                                 page.get_contents().get_data().decode("latin-1"), re.S))
        assert drawing, "no text drawn"
        for key in drawing:  # every font that draws text is the embedded DejaVu Sans
            font = resources[key]
            assert "DejaVuSans" in str(font["/BaseFont"]), font
            descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
            assert "/FontFile2" in descendant["/FontDescriptor"].get_object(), font
    sheets = " ".join(p.extract_text() for p in pypdf.PdfReader(renamed_kit / "team-sheets-a4.pdf").pages)
    assert "ΔΗΜΗΤΡΗΣ ΠΑΠΑΔΟΠΟΥΛΟΣ" in sheets and "ДМИТРИЙ ИВАНОВ" in sheets


@pytest.mark.needs_data
def test_png_cards_draw_glyphs_not_boxes(renamed_set: dict, renamed_kit: Path, monkeypatch):
    """The name strip of each renamed card's PNG, pixel for pixel: it is the name drawn with the
    shipped DejaVu Sans (Pillow's own ImageDraw.text, not the painter), and far from the same lines
    drawn as missing-glyph boxes. A painter that used another font, or drew boxes, fails here."""
    names = sorted(p.name for p in (renamed_kit / "png").iterdir())
    for expected in ("dimitris-papadopoylos-striker", "dmitriy-ivanov", "sebastien-cote-lukasz-nguyen",
                     "wang-xiao-ming"):
        assert any(expected in n for n in names), (expected, names[:6])

    dpi = 300  # the kit's PNG resolution
    px = dpi / 25.4
    name_box = load_layout("card")["name"]
    # the name block: below the team badge, above the season line (which starts just under the
    # name box's bottom), inside the card's outline
    left, top, bottom = round(1.0 * px), round(5.8 * px), round((name_box["bottom_mm"] + 0.1) * px)
    # where the painter puts the name lines (positions only; what it draws them with is under test)
    calls: list[tuple] = []
    draw_text = PilPainter.text

    def spy(self, x, y, text, style, size_pt, colour="#000000", align="left"):
        calls.append((x, y, text, style, size_pt, colour, align))
        return draw_text(self, x, y, text, style, size_pt, colour, align)
    monkeypatch.setattr(PilPainter, "text", spy)

    team = renamed_set["cards"][0]["team"]
    views = [v for v in card_views(as_model(renamed_set)) if v.team == team]
    checked = 0
    for name, slugged in ((GREEK, "dimitris-papadopoylos"), (CYRILLIC, "dmitriy-ivanov"),
                          (ACCENTS, "sebastien-cote-lukasz-nguyen")):
        for view in (v for v in views if v.name == upper(name)):
            [png] = (renamed_kit / "png").glob(f"*-{slugged}-{view.kind}.png")
            real = Image.open(png).convert("RGB")
            strip = real.crop((left, top, real.width - left, bottom))
            calls.clear()
            card_image(view, dpi)
            lines = [c for c in calls if c[3] == name_box["font"]
                     and name_box["top_mm"] <= c[1] <= name_box["bottom_mm"]]
            assert " ".join(c[2] for c in lines) == upper(name), lines
            band = max(strip.getcolors(1 << 16))[1]  # the band's flat colour around the name

            def drawn(text_of, strip=strip, band=band, lines=lines, view=view) -> np.ndarray:
                image = Image.new("RGB", strip.size, band)
                draw = ImageDraw.Draw(image)
                for x, y, text, style, size_pt, colour, _ in lines:
                    font = ImageFont.truetype(font_path(style), round(size_pt * dpi / 72, 1))
                    draw.text((x * px - left, y * px - top), text_of(text), fill=colour, anchor="ls",
                              font=font)
                # through the kit's palette, as every kit PNG is
                return np.asarray(Image.open(io.BytesIO(png_bytes(image, view.team_colour))).convert("RGB"))

            pixels = np.asarray(strip)
            glyphs = drawn(lambda text: text)
            boxes = drawn(lambda text: "".join(ch if ch == " " else "\uffff" for ch in text))
            assert (pixels == glyphs).all(), (png.name, int((pixels != glyphs).any(axis=2).sum()))
            # boxes would change a sixth or more of the strip (measured: 16-30 %); 5 % is far
            # from both that and the exact match above
            assert (pixels != boxes).any(axis=2).mean() > 0.05, png.name
            checked += 1
    assert checked == 6  # striker and bowler card of each of the three names
