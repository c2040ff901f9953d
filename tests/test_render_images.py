"""Card images: the painter's cached glyph masks give the very pixels ImageDraw.text draws, and
reportlab's C accelerator (rl-accel) writes the very bytes of its pure-Python fallback."""
from __future__ import annotations

import subprocess
import sys

from PIL import ImageDraw

from cardgen.render import painter
from cardgen.render.card import card_views
from cardgen.render.fielding import render_fielding_pdf
from cardgen.render.images import card_image, tts_dpi
from cardgen.render.layout import load_layout
from cardgen.sim.example import example_card_set
from conftest import as_model


def _plain_text(self, x, y, text, style, size_pt, colour="#000000", align="left"):  # type: ignore[no-untyped-def]
    anchor = {"left": "ls", "centre": "ms", "right": "rs"}[align]
    ImageDraw.Draw(self.image).text((self._p(x), self._p(y)), text, fill=colour, anchor=anchor,
                                    font=painter._pil_font(style, round(size_pt * self.px_per_pt, 1)))


def test_cached_glyphs_draw_the_same_pixels_as_imagedraw(monkeypatch) -> None:
    views = card_views(as_model(example_card_set("T20")))[:12]
    dpis = (load_layout("sheets")["png_dpi"], tts_dpi())
    painter._glyph_mask.cache_clear()
    cached = [card_image(v, dpi).tobytes() for v in views for dpi in dpis]
    assert painter._glyph_mask.cache_info().hits > 0  # labels repeat from card to card
    monkeypatch.setattr(painter.PilPainter, "text", _plain_text)
    plain = [card_image(v, dpi).tobytes() for v in views for dpi in dpis]
    assert cached == plain


def test_rl_accel_writes_the_same_pdf_as_the_python_fallback() -> None:
    import reportlab.lib.rl_accel as accel
    assert "fp_str" in accel._c_funcs, "rl-accel (a dependency) is not installed"
    script = ("import sys; sys.modules['_rl_accel'] = None\n"
              "import reportlab.lib.rl_accel as a; assert 'fp_str' in a._py_funcs\n"
              "from cardgen.render.fielding import render_fielding_pdf\n"
              "from cardgen.cardset import CardSet\n"
              "from cardgen.sim.example import example_card_set\n"
              "sys.stdout.buffer.write(render_fielding_pdf(CardSet.from_json(example_card_set('T20')), 'a4', 'credit'))")
    fallback = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True).stdout
    assert fallback.startswith(b"%PDF")
    assert render_fielding_pdf(as_model(example_card_set("T20")), "a4", "credit") == fallback


def test_tts_sheets_mapped_card_by_card_are_the_png_of_the_whole_sheet_mapped() -> None:
    from cardgen.render.images import png_bytes, tts_sheets
    views = card_views(as_model(example_card_set("T20")))
    team = [v for v in views if v.team == views[0].team]
    colour = team[0].team_colour
    whole = [png_bytes(sheet, colour) for sheet in tts_sheets(team)]
    by_card = tts_sheets(team, team_colour=colour)
    assert [sheet.mode for sheet in by_card] == ["P"] * len(whole)
    assert [png_bytes(sheet, colour) for sheet in by_card] == whole


def test_pdf_text_operators_kept_per_document_write_the_same_bytes(monkeypatch) -> None:
    from cardgen.render.sheets import render_cards_pdf
    views = card_views(as_model(example_card_set("T20")))
    kept = render_cards_pdf(views, "a4", "test cards", "credit")
    shown = painter._shown

    def fresh(c, *args):  # type: ignore[no-untyped-def]
        c._cardgen_shown = {}  # nothing kept: every text split into its subsets again
        return shown(c, *args)
    monkeypatch.setattr(painter, "_shown", fresh)
    assert render_cards_pdf(views, "a4", "test cards", "credit") == kept


def test_card_pngs_say_their_300_dpi_so_they_open_at_card_size(tmp_path) -> None:
    """The kit's card PNGs and TTS backs carry their resolution (a PNG without it opens at 72 or
    96 dpi, a 63 x 88 mm card at 26 x 37 cm); on a real team of the shipped BBL 2024-25 set."""
    import gzip
    import json
    from pathlib import Path
    from PIL import Image
    from cardgen.render.kit import _team_images
    shipped = sorted((Path(__file__).parent.parent / "stats_cache" / "card-sets").glob("BBL_2024-25-*.json.gz"))
    views = card_views(as_model(json.loads(gzip.decompress(shipped[0].read_bytes()))))
    team = [v for v in views if v.team == views[0].team][:3]
    (tmp_path / "png").mkdir()
    (tmp_path / "tts").mkdir()
    names = _team_images(list(enumerate(team)), tmp_path, False)
    layout = load_layout("card")
    for name in [n for n in names if n.startswith("png/")] + [names[-1]]:  # the cards, the back
        with Image.open(tmp_path / name) as image:
            dpi = image.info["dpi"]
            # pHYs stores pixels per metre as an integer: 300 dpi reads back as 299.9994
            assert abs(dpi[0] - 300) < 0.01 and abs(dpi[1] - 300) < 0.01
            size_mm = [px / dpi[0] * 25.4 for px in image.size]
        assert abs(size_mm[0] - layout["width_mm"]) < 0.1 and abs(size_mm[1] - layout["height_mm"]) < 0.1
