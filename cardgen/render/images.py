"""Card PNGs at 300 dpi and Tabletop Simulator deck sheets (10 x 7, the 70th slot blank)."""
from __future__ import annotations

import io
import re
from typing import Callable

from PIL import Image

from cardgen.render.card import CardView, draw_back, draw_card
from cardgen.render.layout import load_layout
from cardgen.render.painter import PilPainter


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def card_pixels(dpi: int) -> tuple[int, int]:
    L = load_layout("card")
    return round(L["width_mm"] / 25.4 * dpi), round(L["height_mm"] / 25.4 * dpi)


def card_image(view: CardView, dpi: int, ink_saver: bool = False, back: bool = False,
               show_kind: bool = True) -> Image.Image:
    image = Image.new("RGB", card_pixels(dpi), "white")
    if back:
        draw_back(PilPainter(image, dpi), view, ink_saver, show_kind=show_kind)
    else:
        draw_card(PilPainter(image, dpi), view, ink_saver)
    return image


def png_bytes(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    # few colours, large flat areas: fast zlib level 1 keeps files small enough and encoding quick
    image.save(buf, format="PNG", compress_level=1)
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


def tts_sheets(images: list[Image.Image]) -> list[Image.Image]:
    """Deck sheets of up to 69 faces each; the 70th slot stays blank (TTS's hidden-card slot)."""
    cols, rows, slot_w, slot_h = tts_geometry()
    per_sheet = cols * rows - 1
    sheets = []
    for start in range(0, len(images), per_sheet):
        sheet = Image.new("RGB", (cols * slot_w, rows * slot_h), "white")
        for i, image in enumerate(images[start:start + per_sheet]):
            r, c = divmod(i, cols)
            sheet.paste(image.resize((slot_w, slot_h), Image.Resampling.LANCZOS), (c * slot_w, r * slot_h))
        sheets.append(sheet)
    return sheets


def render_card_images(views: list[CardView], dpi: int, ink_saver: bool = False,
                       progress: Callable[[int], None] | None = None) -> list[Image.Image]:
    images = []
    for view in views:
        images.append(card_image(view, dpi, ink_saver))
        if progress:
            progress(1)
    return images
