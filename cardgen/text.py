"""Text as it enters from a file (a match file, a names file, a card set): no control or
bidirectional-formatting characters, and no longer than a name can be. A right-to-left override
(U+202E) in a name was honoured on the printed card ("EDIRREVO LTR NAME"); a tab or a newline
breaks a table or a card line. Letters of every script, their joiners (U+200C, U+200D) and
accents stay as they are.

Layer: below every package (sources, the card set's loader and the site read it).
"""
from __future__ import annotations

import re

# The longest text one field may hold (a player's name from a names file, a label, the
# attribution): a pasted paragraph prints (its file names are cut), a 100 KB one is not a name.
MOST_TEXT_CHARS = 1000
# A team's name names folders and files (OUT/<CODE>_<season>_<team>/, teams/, tts/), each at
# most 255 bytes: a 5,000-character team name failed as "the path is too long; choose a shorter
# folder name", blaming the folder. The longest real team names have some 30 characters.
MOST_TEAM_NAME_CHARS = 100

# the bidirectional embeddings, overrides and isolates, and the marks (U+061C, U+200E, U+200F)
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
# C0 and C1 controls, DEL, the line and paragraph separators: a space where they stood
_SPACE = {c: " " for c in [*range(0x00, 0x20), 0x7f, *range(0x80, 0xa0), 0x2028, 0x2029]}
_TABLE = {**_SPACE, **{ord(c): None for c in BIDI_CONTROLS}}
_SPACES = re.compile(r"\s{2,}")


def clean_text(text: str) -> str:
    """`text` without control or bidirectional-formatting characters; where any were taken out,
    runs of spaces made one and the ends trimmed. A text with none comes back as it is (every
    real name: the parsed tables do not change)."""
    if text.isascii() and text.isprintable():  # the fast path of nearly every name
        return text
    cleaned = text.translate(_TABLE)
    return text if cleaned == text else _SPACES.sub(" ", cleaned).strip()
