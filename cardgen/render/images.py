"""Card PNGs at 300 dpi and Tabletop Simulator deck sheets (10 x 7, the 70th slot blank)."""
from __future__ import annotations

import io
import re
from PIL import Image

from cardgen.render.card import CardView, draw_back, draw_card
from cardgen.render.layout import load_layout
from cardgen.render.painter import PilPainter


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def card_pixels(dpi: float) -> tuple[int, int]:
    L = load_layout("card")
    return round(L["width_mm"] / 25.4 * dpi), round(L["height_mm"] / 25.4 * dpi)


def card_image(view: CardView, dpi: float, ink_saver: bool = False, back: bool = False,
               show_kind: bool = True) -> Image.Image:
    image = Image.new("RGB", card_pixels(dpi), "white")
    if back:
        draw_back(PilPainter(image, dpi), view, ink_saver, show_kind=show_kind)
    else:
        draw_card(PilPainter(image, dpi), view, ink_saver)
    return image


def png_bytes(image: Image.Image) -> bytes:
    """PNG of a card or sheet. Cards hold a handful of flat colours plus anti-aliasing, so a
    64-colour palette (fast octree, no dither) looks the same, is ~3x smaller and encodes faster."""
    buf = io.BytesIO()
    palette = image.quantize(colors=64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    palette.save(buf, format="PNG", compress_level=6)
    return buf.getvalue()


def png_name(index: int, view: CardView) -> str:
    return f"{index:03d}-{slug(view.team)}-{slug(view.name)}-{view.kind}.png"


def tts_geometry() -> tuple[int, int, int, int]:
    """(columns, rows, slot width, slot height) with the sheet at most max_px on each side."""
    spec = load_layout("sheets")["tts"]
    L = load_layout("card")
    cols, rows, max_px = spec["columns"], spec["rows"], spec["max_px"]
    slot_w = max_px // cols
    slot_h = round(slot_w * L["height_mm"] / L["width_mm"])
    if slot_h * rows > max_px:
        slot_h = max_px // rows
        slot_w = round(slot_h * L["width_mm"] / L["height_mm"])
    return cols, rows, slot_w, slot_h


def tts_dpi() -> float:
    """The resolution at which a card fills one TTS slot exactly."""
    _, _, slot_w, _ = tts_geometry()
    return slot_w / load_layout("card")["width_mm"] * 25.4


def tts_sheets(views: list[CardView], ink_saver: bool = False) -> list[Image.Image]:
    """Deck sheets of up to 69 faces each; the 70th slot stays blank (TTS's hidden-card slot).
    Cards are drawn straight at slot size (sharper and faster than shrinking the 300 dpi PNGs)."""
    cols, rows, slot_w, slot_h = tts_geometry()
    per_sheet = cols * rows - 1
    dpi = tts_dpi()
    sheets = []
    for start in range(0, len(views), per_sheet):
        sheet = Image.new("RGB", (cols * slot_w, rows * slot_h), "white")
        for i, view in enumerate(views[start:start + per_sheet]):
            r, c = divmod(i, cols)
            image = card_image(view, dpi, ink_saver)
            sheet.paste(image.crop((0, 0, slot_w, slot_h)), (c * slot_w, r * slot_h))
        sheets.append(sheet)
    return sheets

