"""Maintainer script: the DejaVu Sans subsets shipped in cardgen/render/fontfiles/.

DejaVu Sans is Bitstream Vera (reportlab's font, used before) extended to Greek, Cyrillic and
many more accents, with the same outlines and advance widths for Vera's characters, so names
that printed before print the same. The subsets keep Latin (with every extension), Greek,
Cyrillic, combining accents, punctuation and the symbols the templates use, with hinting
(for the PNG cards); each face is about a third of the full font.

Source: Debian's fonts-dejavu-core (/usr/share/fonts/truetype/dejavu). Needs fontTools:
    apt-get install fonts-dejavu-core && pip install fonttools && python3 docs/make_fonts.py
"""
from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

SOURCE = Path("/usr/share/fonts/truetype/dejavu")
TARGET = Path(__file__).resolve().parent.parent / "cardgen" / "render" / "fontfiles"
FACES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf", "DejaVuSans-BoldOblique.ttf")
RANGES = [
    (0x0020, 0x007E), (0x00A0, 0x02FF),  # Latin-1, Latin Extended-A/B, IPA, spacing modifiers
    (0x0300, 0x036F),  # combining accents
    (0x0370, 0x03FF), (0x1F00, 0x1FFF),  # Greek and Greek Extended
    (0x0400, 0x052F),  # Cyrillic and Cyrillic Supplement
    (0x1E00, 0x1EFF),  # Latin Extended Additional (Vietnamese, Welsh ...)
    (0x2000, 0x206F), (0x20A0, 0x20CF), (0x2100, 0x215F),  # punctuation, currency, letterlike
    (0x2190, 0x21FF), (0x2200, 0x22FF), (0x2500, 0x25FF),  # arrows, maths, boxes and shapes
    (0x2600, 0x26FF), (0x2700, 0x27BF), (0xFB00, 0xFB06),  # symbols, dingbats, ligatures
    (0xFFFD, 0xFFFD),  # the replacement character
]


def main() -> None:
    TARGET.mkdir(parents=True, exist_ok=True)
    unicodes = [u for lo, hi in RANGES for u in range(lo, hi + 1)]
    for face in FACES:
        options = subset.Options()
        options.hinting = True  # sharper PNG cards at small sizes
        options.name_IDs = ["*"]  # keep the copyright and licence records
        options.name_languages = ["*"]
        options.notdef_outline = True
        options.glyph_names = False
        font = TTFont(SOURCE / face)
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=unicodes)
        subsetter.subset(font)
        font.save(TARGET / face)
        print(f"{face}: {(TARGET / face).stat().st_size // 1024} KiB", file=sys.stderr)


if __name__ == "__main__":
    main()
