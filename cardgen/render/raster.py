"""PDF pages as PNG images, with pypdfium2 (a pip dependency: no system binary such as poppler).

Used for the page previews of the game kits and the download site. The same PDF bytes and DPI
give the same PNG bytes (pdfium renders deterministically; Pillow writes no timestamp).
"""
from __future__ import annotations

import io
import threading
from typing import TYPE_CHECKING
from collections.abc import Callable

from cardgen.errors import CardgenError

if TYPE_CHECKING:
    from PIL import Image

POINTS_PER_INCH = 72.0
# pdfium is not thread-safe: one render at a time in a process (previews are small and few)
_LOCK = threading.Lock()


class RasterError(CardgenError):
    """A PDF that could not be rendered to an image."""


def pdf_pages_images(pdf: bytes, scale_for: Callable[[float], float], first: int = 1,
                     last: int | None = 1) -> list[Image.Image]:
    """Pages `first`..`last` (1-based, inclusive; `last=None` for all) of a PDF as RGB images,
    each drawn at `scale_for(page width in points)` pixels per point.

    Pages beyond the end are left out, so asking for 4 pages of a 2-page PDF gives 2 images.
    """
    import pypdfium2 as pdfium

    if first < 1:
        raise ValueError("pages count from 1")
    out: list[Image.Image] = []
    with _LOCK:
        try:
            doc = pdfium.PdfDocument(pdf)
        except pdfium.PdfiumError as exc:
            raise RasterError(f"not a readable PDF ({exc})") from None
        try:
            end = len(doc) if last is None else min(last, len(doc))
            for index in range(first - 1, end):
                page = doc[index]
                try:
                    bitmap = page.render(scale=scale_for(page.get_width()))
                    out.append(bitmap.to_pil().convert("RGB"))
                finally:
                    page.close()
        except pdfium.PdfiumError as exc:
            raise RasterError(f"a page of the PDF could not be rendered ({exc})") from None
        finally:
            doc.close()
    return out


def pdf_pages_png(pdf: bytes, dpi: float, first: int = 1, last: int | None = 1) -> list[bytes]:
    """Pages `first`..`last` (1-based, inclusive; `last=None` for all) of a PDF as PNG bytes."""
    if dpi <= 0 or first < 1:
        raise ValueError("dpi must be positive and pages count from 1")
    out: list[bytes] = []
    for image in pdf_pages_images(pdf, lambda _width: dpi / POINTS_PER_INCH, first, last):
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        out.append(buffer.getvalue())
    return out


def pdf_page_png(pdf: bytes, dpi: float, page: int = 1) -> bytes:
    """One page of a PDF as PNG bytes."""
    pages = pdf_pages_png(pdf, dpi, first=page, last=page)
    if not pages:
        raise RasterError(f"the PDF has no page {page}")
    return pages[0]
