"""File-name slugs of names: one function for the kit's file names and the site's links."""
from __future__ import annotations

import re


def slug(text: str) -> str:
    """A lower-case, file-name-safe form of a name (a-z, 0-9 and '-'), transliterated.

    "Δημήτρης Παπαδόπουλος" -> "dimitris-papadopoylos", "Sébastien Côté" -> "sebastien-cote",
    so a name outside ASCII keeps a readable file name instead of vanishing from it.
    """
    from anyascii import anyascii  # ISC licence; ASCII text passes through unchanged
    return re.sub(r"[^a-z0-9]+", "-", anyascii(str(text)).lower()).strip("-") or "x"
