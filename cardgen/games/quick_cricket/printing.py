"""Printing helpers shared by the generic game kits (Quick Cricket, Competitive Patience).

They reuse the render layer's primitives unchanged: the PdfPainter (mm from the top-left), the
Vera fonts, invariant-mode canvases (byte-identical PDFs) and the card-sheet crop marks.
"""
from __future__ import annotations

import io
import json
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate, Paragraph, Spacer

from cardgen import ATTRIBUTION, __version__
from cardgen.cache import atomic_write_bytes
from cardgen.errors import CardgenError
from cardgen.render.common import new_canvas, page_size_mm
from cardgen.render.fonts import PDF_NAMES, register_fonts, text_width_mm
from cardgen.render.layout import MM, TEMPLATES_DIR
from cardgen.render.painter import PdfPainter
from cardgen.render.sheets import SheetGeometry, crop_marks

CardFace = Callable[[PdfPainter], None]


class GameTemplateError(CardgenError):
    """A game layout in templates/games/ is missing or unreadable."""


def load_game_layout(code: str, name: str = "layout") -> dict[str, Any]:
    path = TEMPLATES_DIR / "games" / code / f"{name}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise GameTemplateError(f"cannot read layout {path}: {exc}") from None


def wrap(text: str, style: str, size_pt: float, width_mm: float) -> list[str]:
    """Greedy word wrap at `size_pt` into lines no wider than `width_mm`."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            trial = f"{line} {word}".strip()
            if line and text_width_mm(trial, style, size_pt) > width_mm:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def text_block(p: PdfPainter, x: float, y: float, text: str, style: str, size_pt: float,
               width_mm: float, leading: float = 1.2, colour: str = "#000000",
               align: str = "left") -> float:
    """Wrapped text with its first baseline at y; returns the y after the last line."""
    step = size_pt * leading / MM
    for line in wrap(text, style, size_pt, width_mm):
        tx = x + width_mm / 2 if align == "centre" else x
        p.text(tx, y, line, style, size_pt, colour, align=align)
        y += step
    return y


def sheet_geometry(paper: str, card_w: float, card_h: float, columns: int, rows: int,
                   gap: float = 0.0) -> SheetGeometry:
    page_w, page_h = page_size_mm(paper)
    block_w = columns * card_w + (columns - 1) * gap
    block_h = rows * card_h + (rows - 1) * gap
    return SheetGeometry(paper, page_w, page_h, card_w, card_h, columns, rows,
                         (page_w - block_w) / 2, (page_h - block_h) / 2, gap, gap, 0.0)


def card_sheets_pdf(faces: Sequence[CardFace], paper: str, title: str, credit: str,
                    card_w: float, card_h: float, columns: int = 3, rows: int = 3) -> bytes:
    """Cards n-up with crop marks, true scale, a footer on every sheet (invariant PDF)."""
    geo = sheet_geometry(paper, card_w, card_h, columns, rows)
    canvas, buf, _, _ = new_canvas(paper, title, credit)
    per = columns * rows
    pages = [faces[i:i + per] for i in range(0, len(faces), per)]
    for number, page in enumerate(pages, 1):
        canvas.setStrokeColorRGB(0, 0, 0)
        canvas.setLineWidth(0.2 * MM)
        for x1, y1, x2, y2 in crop_marks(geo):
            canvas.line(x1 * MM, (geo.page_h - y1) * MM, x2 * MM, (geo.page_h - y2) * MM)
        for i, face in enumerate(page):
            row, col = divmod(i, columns)
            x, y = geo.card_origin(row, col)
            canvas.saveState()
            face(PdfPainter(canvas, x * MM, (geo.page_h - y) * MM))
            canvas.restoreState()
        canvas.setFillColorRGB(0.25, 0.25, 0.25)
        canvas.setFont(PDF_NAMES["regular"], 6)
        canvas.drawCentredString(geo.page_w / 2 * MM, 2 * MM,
                                 f"{title} \u00b7 sheet {number} of {len(pages)} \u00b7 print at 100% "
                                 f"(actual size) \u00b7 {credit}")
        canvas.showPage()
    canvas.save()
    return buf.getvalue()


def page_pdf(paper: str, title: str, credit: str, draw: Callable[[PdfPainter, float, float], None],
             landscape: bool = False) -> bytes:
    """One page drawn by `draw(painter, width_mm, height_mm)`."""
    canvas, buf, w, h = new_canvas(paper, title, credit, landscape=landscape)
    draw(PdfPainter(canvas, 0, h * MM), w, h)
    canvas.showPage()
    canvas.save()
    return buf.getvalue()


def rules_pdf(paper: str, title: str, credit: str, sections: Sequence[tuple[str, Sequence[str]]],
              size_pt: float = 9.0) -> bytes:
    """A rules sheet: a title, then headed sections of paragraphs (invariant PDF)."""
    register_fonts()
    w, h = page_size_mm(paper)
    buf = io.BytesIO()
    margin = 14 * MM
    doc = BaseDocTemplate(buf, pagesize=(w * MM, h * MM), invariant=1, title=title,
                          author="cardgen", creator="cardgen", subject=credit,
                          leftMargin=margin, rightMargin=margin, topMargin=margin, bottomMargin=margin)

    def footer(canvas, _doc) -> None:  # type: ignore[no-untyped-def]
        canvas.setFont(PDF_NAMES["italic"], 6.5)
        canvas.setFillColor(colors.HexColor("#444444"))
        canvas.drawCentredString(w * MM / 2, 6 * MM, credit)

    frame = Frame(margin, margin, w * MM - 2 * margin, h * MM - 2 * margin, id="body")
    doc.addPageTemplates([PageTemplate(id="page", frames=[frame], onPage=footer)])
    head = ParagraphStyle("head", fontName=PDF_NAMES["bold"], fontSize=size_pt + 2,
                          leading=(size_pt + 2) * 1.25, spaceBefore=5, spaceAfter=2)
    body = ParagraphStyle("body", fontName=PDF_NAMES["regular"], fontSize=size_pt,
                          leading=size_pt * 1.3, spaceAfter=2.5)
    big = ParagraphStyle("title", fontName=PDF_NAMES["bold"], fontSize=17, leading=21, spaceAfter=6)
    story: list[Any] = [Paragraph(title, big)]
    for heading, paragraphs in sections:
        story.append(Paragraph(heading, head))
        story.extend(Paragraph(text, body) for text in paragraphs)
        story.append(Spacer(1, 2))
    doc.build(story)
    return buf.getvalue()


def page1_png(pdf: bytes, dpi: int = 80) -> bytes | None:
    """Page 1 as PNG via pdftoppm (poppler); None when pdftoppm is not installed."""
    exe = shutil.which("pdftoppm")
    if exe is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "in.pdf"
        src.write_bytes(pdf)
        subprocess.run([exe, "-png", "-r", str(dpi), "-f", "1", "-l", "1", "-singlefile",
                        str(src), str(Path(tmp) / "out")], check=True, capture_output=True)
        return (Path(tmp) / "out.png").read_bytes()


def write_kit(folder: Path, game: str, name: str, files: Sequence[tuple[str, bytes, str, str]],
              competition: str | None = None, season: str | None = None,
              credit: str = ATTRIBUTION) -> list[Path]:
    """Write (relative path, bytes, label, kind) files and the kit.json manifest, each atomically.

    Each PDF also gets its page-1 PNG beside it (label "... page 1"), for the download site.
    """
    written: list[Path] = []
    entries: list[dict[str, str]] = []
    for rel, data, label, kind in files:
        atomic_write_bytes(folder / rel, data)
        written.append(folder / rel)
        entries.append({"path": rel, "label": label, "kind": kind})
        if kind == "pdf":
            png = page1_png(data)
            if png is not None:
                png_rel = rel[:-4] + "-page1.png"
                atomic_write_bytes(folder / png_rel, png)
                written.append(folder / png_rel)
                entries.append({"path": png_rel, "label": f"{label}: page 1", "kind": "png"})
    manifest = {"game": game, "name": name, "competition": competition, "season": season,
                "files": entries, "attribution": credit, "generator": f"cardgen {__version__}"}
    atomic_write_bytes(folder / "kit.json",
                       (json.dumps(manifest, sort_keys=True, indent=1) + "\n").encode("utf-8"))
    written.append(folder / "kit.json")
    return written
