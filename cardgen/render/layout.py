"""Layouts as data: the JSON files in `templates/` (lengths in mm), loaded once per process."""
from __future__ import annotations

import functools
import json
from typing import Any

from cardgen.errors import CardgenError
from cardgen.paths import templates_dir

TEMPLATES_DIR = templates_dir()  # shipped with the package (cardgen.paths), never the working directory
MM = 72.0 / 25.4  # PDF points per millimetre


class TemplateError(CardgenError):
    """A layout or text template in templates/ is missing or unreadable."""


@functools.cache
def load_layout(name: str) -> dict[str, Any]:
    """`templates/<name>.json` as a dict (cached; treat it as read-only)."""
    path = TEMPLATES_DIR / f"{name}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise TemplateError(f"cannot read layout {path}: {exc}") from None


def text_template(name: str) -> Any:
    """`templates/<name>` as a jinja2 template of plain text (the quick reference, START-HERE.txt):
    nothing escaped, trailing newline kept, an unknown variable an error."""
    import jinja2  # only the text sheets need it
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)), autoescape=False,
                             keep_trailing_newline=True, undefined=jinja2.StrictUndefined)
    return env.get_template(name)


@functools.lru_cache(maxsize=1024)  # a kit uses a few dozen colours, tens of thousands of times
def hex_to_rgb(colour: str) -> tuple[float, float, float]:
    """'#0b4f9c' -> (r, g, b) in 0..1."""
    text = colour.lstrip("#")
    return tuple(int(text[i:i + 2], 16) / 255.0 for i in (0, 2, 4))  # type: ignore[return-value]


def mix(colour: str, with_white: float) -> str:
    """A tint of `colour`: `with_white` = 0 keeps it, 1 gives white."""
    r, g, b = hex_to_rgb(colour)
    parts = [round(255 * (c + (1 - c) * with_white)) for c in (r, g, b)]
    return "#" + "".join(f"{p:02x}" for p in parts)
