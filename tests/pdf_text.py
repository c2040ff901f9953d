"""A PDF's pages as the tests read them back with pypdf, each distinct document parsed and each
page's text extracted once per test process.

pypdf's text extraction is pure Python and was most of what the render tests cost: the same
document (the session's kit, a sheet rendered again from the same set) was parsed and read page
by page in test after test. The cache is keyed by the document's bytes (SHA-256), so a file that
changed, or a sheet rendered from a changed set, is read afresh; what a test gets back is what
pypdf extracts from those bytes, so every assertion reads the same text it read before.
"""
from __future__ import annotations

import hashlib
import io
from pathlib import Path
from typing import Any
from collections.abc import Callable, Sequence

import pypdf

# (text, cm, tm, font_dict, font_size): what pypdf hands a visitor_text callback
TextRun = tuple[str, list[float], list[float], Any, float]

_DOCUMENTS: dict[str, list[CachedPage]] = {}


class CachedPage:
    """A pypdf page whose extract_text() (plain, or with a visitor_text callback) is computed once:
    a second call returns the same text and replays the same runs to the visitor. Everything else
    (mediabox, get_contents, pdf, ...) is the pypdf page's own."""

    def __init__(self, page: pypdf.PageObject) -> None:
        self._page = page
        self._extracted: tuple[str, tuple[TextRun, ...]] | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._page, name)

    def _extract(self) -> tuple[str, tuple[TextRun, ...]]:
        if self._extracted is None:
            runs: list[TextRun] = []

            def visit(text: str, cm: list[float], tm: list[float], font_dict: Any, font_size: float) -> None:
                runs.append((text, list(cm), list(tm), font_dict, font_size))

            text = self._page.extract_text(visitor_text=visit)  # the visitor leaves the text as it is
            self._extracted = (text, tuple(runs))
        return self._extracted

    def extract_text(self, *args: Any, visitor_text: Callable[..., Any] | None = None,
                     **kwargs: Any) -> str:
        if args or kwargs:  # another mode (layout, orientations): pypdf's own, not cached
            return self._page.extract_text(*args, visitor_text=visitor_text, **kwargs)
        text, runs = self._extract()
        if visitor_text is not None:
            for text_run, cm, tm, font_dict, font_size in runs:
                visitor_text(text_run, list(cm), list(tm), font_dict, font_size)  # copies: a visitor may keep them
        return text


def pages(pdf: bytes | Path | str) -> list[CachedPage]:
    """The document's pages (its bytes, or a file), parsed once per distinct document."""
    data = pdf if isinstance(pdf, bytes) else Path(pdf).read_bytes()
    key = hashlib.sha256(data).hexdigest()
    found = _DOCUMENTS.get(key)
    if found is None:
        found = _DOCUMENTS[key] = [CachedPage(p) for p in pypdf.PdfReader(io.BytesIO(data)).pages]
    return list(found)


def page_texts(pdf: bytes | Path | str) -> list[str]:
    """Each page's text (pypdf's extract_text()), page by page."""
    return [page.extract_text() for page in pages(pdf)]


def words(pdf: bytes | Path | str, indices: Sequence[int] | None = None) -> str:
    """The document's text (or these pages'), as a reader finds it: whitespace runs as one space."""
    texts = page_texts(pdf)
    chosen = texts if indices is None else [texts[i] for i in indices]
    return " ".join(" ".join(text.split()) for text in chosen)
