"""Card PNGs at 300 dpi and Tabletop Simulator deck sheets (10 x 7, the 70th slot blank)."""
from __future__ import annotations

import functools
import io
import json
from dataclasses import asdict, dataclass

from PIL import Image

from cardgen.render.card import CardView, draw_back, draw_card, ink_of
from cardgen.render.layout import hex_to_rgb, load_layout, mix
from cardgen.render.painter import PilPainter
from cardgen.slugs import slug  # noqa: F401 (the kit imports it from here)


def card_pixels(dpi: float) -> tuple[int, int]:
    L = load_layout("card")
    return round(L["width_mm"] / 25.4 * dpi), round(L["height_mm"] / 25.4 * dpi)


def card_image(view: CardView, dpi: float, ink_saver: bool = False, back: bool = False,
               show_kind: bool = True) -> Image.Image:
    image = Image.new("RGB", card_pixels(dpi), "white")
    if back:
        draw_back(PilPainter(image, dpi), view, ink_saver, show_kind=show_kind, solid=True)  # on screen
    else:
        draw_card(PilPainter(image, dpi), view, ink_saver)
    return image


def _ramp(a: str, b: str, steps: int) -> list[tuple[int, int, int]]:
    ra, rb = hex_to_rgb(a), hex_to_rgb(b)
    return [tuple(round(255 * (x + (y - x) * i / (steps - 1))) for x, y in zip(ra, rb))  # type: ignore[misc]
            for i in range(steps)]


@functools.lru_cache(maxsize=64)
def team_palette(team_colour: str) -> Image.Image:
    """A fixed palette for one team's cards: every flat colour a card uses and the anti-aliasing
    ramps between the colours that touch (text on white, on the band, on the tint)."""
    tint = mix(team_colour, 1 - load_layout("card")["band"]["striker_tint"])
    ink = ink_of(team_colour)  # a light team colour's text on white (a card back's, a note's)
    colours = (_ramp("#ffffff", "#000000", 24) + _ramp(team_colour, "#ffffff", 16)
               + _ramp(tint, "#000000", 16) + _ramp(team_colour, tint, 8) + _ramp(team_colour, "#000000", 8)
               + _ramp(ink, "#ffffff", 8))
    unique = list(dict.fromkeys(colours))[:256]
    palette = Image.new("P", (1, 1))
    palette.putpalette([c for rgb in unique for c in rgb])
    return palette


def png_bytes(image: Image.Image, team_colour: str, dpi: float | None = None) -> bytes:
    """PNG of a card or deck sheet in the team's fixed palette: it looks the same as full colour,
    is ~3x smaller and maps a 300 dpi card in a few milliseconds (no per-image palette search).
    zlib level 1: half the encoding time of level 6 for files about a third larger. An image
    already in the palette (`in_team_palette`) is written as it is. With `dpi` the PNG says its
    resolution, so an image viewer or a print dialog shows the card at its real 63 x 88 mm."""
    buf = io.BytesIO()
    if image.mode != "P":
        image = in_team_palette(image, team_colour)
    image.save(buf, format="PNG", compress_level=1, **({"dpi": (dpi, dpi)} if dpi else {}))
    return buf.getvalue()


def in_team_palette(image: Image.Image, team_colour: str) -> Image.Image:
    """An RGB image mapped to the team's palette, colour by colour (no dithering)."""
    return image.quantize(palette=team_palette(team_colour), dither=Image.Dither.NONE)


# characters of a team's or a player's name in a card's PNG name: a file name holds at most 255
# bytes, and a --names correction can be any length (a pasted paragraph failed the whole build
# with "the path is too long"); the longest real names slug to about 40
NAME_PART_CHARS = 60


def name_part(text: str) -> str:
    """A name as it appears in a card's file name (the site finds the PNG by the same form)."""
    return slug(text)[:NAME_PART_CHARS].rstrip("-") or "x"


def png_name(index: int, view: CardView) -> str:
    return f"{index:03d}-{name_part(view.team)}-{name_part(view.name)}-{view.kind}.png"


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


TTS_README = "tts/README.txt"
TTS_DECKS = "tts/decks.json"   # the same list as data, for the download site


@dataclass(frozen=True)
class TtsDeck:
    """One Tabletop Simulator deck: a face sheet, its team's back, and the numbers TTS's
    Custom Deck dialog asks for (it cannot tell how many of the 70 slots hold a card)."""
    team: str
    face: str      # kit-relative paths
    back: str
    cards: int
    columns: int
    rows: int


def tts_decks(views: list[CardView]) -> list[TtsDeck]:
    """The deck sheets `tts_sheets` draws for these cards, team by team in printed order."""
    cols, rows, _, _ = tts_geometry()
    per_sheet = cols * rows - 1
    by_team: dict[str, int] = {}
    for view in views:
        by_team[view.team] = by_team.get(view.team, 0) + 1
    decks = []
    for team, count in by_team.items():
        for n, start in enumerate(range(0, count, per_sheet), 1):
            decks.append(TtsDeck(team, f"tts/{slug(team)}-{n}.png", f"tts/{slug(team)}-back.png",
                                 min(per_sheet, count - start), cols, rows))
    return decks


def tts_readme(decks: list[TtsDeck], title: str) -> str:
    """How to load the sheets in Tabletop Simulator, with each deck's numbers."""
    cols, rows = decks[0].columns, decks[0].rows
    lines = [f"{title}: Tabletop Simulator decks", "",
             "In Tabletop Simulator: Objects > Components > Custom > Deck, place it, and in its",
             "dialog set Face to a sheet below, Back to its team's back (Browse picks a file on",
             f"this computer), Width {cols}, Height {rows}, and Number to the sheet's card count",
             f"below (a sheet has room for {cols * rows - 1}: a wrong Number deals blank cards or",
             "drops real ones). Leave Unique Backs off, then Import.", ""]
    faces = [d.face.removeprefix("tts/") for d in decks]
    width = max(len(face) for face in faces)
    for face, d in zip(faces, decks):
        lines.append(f"{face:<{width}}  Number {d.cards:>2}  Back {d.back.removeprefix('tts/')}")
    return "\n".join(lines) + "\n"


def tts_decks_json(decks: list[TtsDeck]) -> str:
    return json.dumps({"decks": [asdict(d) for d in decks]}, indent=1, ensure_ascii=False) + "\n"


def tts_sheets(views: list[CardView], ink_saver: bool = False,
               team_colour: str | None = None) -> list[Image.Image]:
    """Deck sheets of up to 69 faces each; the 70th slot stays blank (TTS's hidden-card slot).
    Cards are drawn straight at slot size (sharper and faster than shrinking the 300 dpi PNGs).
    With `team_colour`, the sheets are in that team's palette (`png_bytes`): each card is mapped
    as it is drawn, the same pixels as mapping the whole sheet, without mapping its blank slots."""
    cols, rows, slot_w, slot_h = tts_geometry()
    per_sheet = cols * rows - 1
    dpi = tts_dpi()
    sheets = []
    for start in range(0, len(views), per_sheet):
        size = (cols * slot_w, rows * slot_h)
        if team_colour is None:
            sheet = Image.new("RGB", size, "white")
        else:
            sheet = in_team_palette(Image.new("RGB", (1, 1), "white"), team_colour).resize(size)
        for i, view in enumerate(views[start:start + per_sheet]):
            r, c = divmod(i, cols)
            image = card_image(view, dpi, ink_saver).crop((0, 0, slot_w, slot_h))
            if team_colour is not None:
                image = in_team_palette(image, team_colour)
            sheet.paste(image, (c * slot_w, r * slot_h))
        sheets.append(sheet)
    return sheets
