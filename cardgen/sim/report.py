"""Validation reports: CSV tables and a PDF page of plots (reportlab graphics), written atomically,
and a report's files together (`written_together`).

Everything written is a pure function of the tables, and the PDF is built with reportlab's
invariant mode, so the same seed gives byte-identical files.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from pathlib import Path
from xml.sax.saxutils import escape
from typing import Any
from collections.abc import Iterator, Sequence

import numpy as np
import pandas as pd
from reportlab.graphics.shapes import Circle, Drawing, Line, Rect, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from cardgen.cache import atomic_write_bytes, current_umask

SIM_COLOUR = colors.HexColor("#1f6fb2")
REAL_COLOUR = colors.HexColor("#d9622b")
FAIL_COLOUR = colors.HexColor("#c0392b")


def report_dir(out_dir: Path, set_folder: str) -> Path:
    return Path(out_dir) / set_folder / "validation"


# the files of the reports being made (`written_together`), innermost last
_held: list[list[tuple[Path, bytes]]] = []


@contextlib.contextmanager
def written_together() -> Iterator[None]:
    """Hold every file the block writes, then write them all when it ends: each to a temporary
    name first, then the renames. A run stopped inside the block (Ctrl+C, an error, a full disk
    while the PDF is drawn or written) leaves the previous report whole: never this run's tables
    beside the last run's PDF."""
    files: list[tuple[Path, bytes]] = []
    _held.append(files)
    try:
        yield
    finally:
        _held.remove(files)
    _write_all(files)


def _write_all(files: list[tuple[Path, bytes]]) -> None:
    staged: list[tuple[Path, Path]] = []
    try:
        for path, data in files:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
            staged.append((Path(tmp_name), path))
            with os.fdopen(fd, "wb") as fh:
                os.fchmod(fh.fileno(), 0o666 & ~current_umask())  # as atomic_write_bytes
                fh.write(data)
        for tmp, path in staged:
            os.replace(tmp, path)
    except BaseException:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        raise


def _write(path: Path, data: bytes) -> None:
    if _held:
        _held[-1].append((Path(path), data))
    else:
        atomic_write_bytes(path, data)


def write_csv(path: Path, df: pd.DataFrame) -> None:
    _write(path, df.to_csv(index=False, lineterminator="\n", float_format="%.6g").encode("utf-8"))


def write_json(path: Path, doc: dict[str, Any]) -> None:
    _write(path, (json.dumps(doc, indent=1, sort_keys=True, default=_plain) + "\n").encode("utf-8"))


def _plain(x: Any) -> Any:
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating,)):
        return float(x)
    if isinstance(x, np.bool_):
        return bool(x)
    raise TypeError(type(x))


def _nice(lo: float, hi: float) -> tuple[float, float]:
    if not np.isfinite(lo) or not np.isfinite(hi):
        return 0.0, 1.0
    if hi - lo < 1e-12:
        return lo - 0.5, hi + 0.5
    pad = 0.05 * (hi - lo)
    return lo - pad, hi + pad


def _fmt(v: float) -> str:
    return f"{v:.3g}" if abs(v) < 10 else f"{v:.0f}"


def scatter(title: str, real: Sequence[float], sim: Sequence[float], flagged: Sequence[bool] | None = None,
            width: float = 85 * mm, height: float = 70 * mm) -> Drawing:
    """Real (x) against simulated (y), with the y = x line; flagged points in red."""
    d = Drawing(width, height)
    x = np.asarray(real, float)
    y = np.asarray(sim, float)
    ok = np.isfinite(x) & np.isfinite(y)
    x, y = x[ok], y[ok]
    flags = np.asarray(flagged, bool)[ok] if flagged is not None else np.zeros(len(x), bool)
    left, bottom, w, h = 28, 22, width - 36, height - 38
    both = np.concatenate([x, y])
    lo, hi = _nice(float(both.min()), float(both.max())) if len(both) else (0.0, 1.0)
    d.add(String(width / 2, height - 10, title, fontSize=8, textAnchor="middle"))
    d.add(Rect(left, bottom, w, h, fillColor=None, strokeColor=colors.grey, strokeWidth=0.5))
    d.add(Line(left, bottom, left + w, bottom + h, strokeColor=colors.lightgrey, strokeWidth=0.7))

    def px(v: float) -> float:
        return left + (v - lo) / (hi - lo) * w

    def py(v: float) -> float:
        return bottom + (v - lo) / (hi - lo) * h

    for xi, yi, f in zip(x, y, flags):
        d.add(Circle(px(xi), py(yi), 1.6, fillColor=FAIL_COLOUR if f else SIM_COLOUR,
                     strokeColor=None))
    for v in np.linspace(lo, hi, 4):
        d.add(String(px(v), bottom - 8, _fmt(v), fontSize=5.5, textAnchor="middle"))
        d.add(String(left - 2, py(v) - 2, _fmt(v), fontSize=5.5, textAnchor="end"))
    d.add(String(left + w / 2, 2, "real", fontSize=6, textAnchor="middle"))
    d.add(String(6, bottom + h / 2, "sim", fontSize=6))
    return d


def histogram(title: str, sim: np.ndarray, real: np.ndarray, bins: int = 30,
              width: float = 85 * mm, height: float = 60 * mm) -> Drawing:
    """Simulated totals as a density histogram; real totals as orange ticks on the axis."""
    d = Drawing(width, height)
    sim = np.asarray(sim, float)
    real = np.asarray(real, float)
    lo = float(min(sim.min(), real.min() if len(real) else sim.min()))
    hi = float(max(sim.max(), real.max() if len(real) else sim.max()))
    edges = np.linspace(lo, hi + 1e-9, bins + 1)
    dens, _ = np.histogram(sim, bins=edges, density=True)
    rdens, _ = np.histogram(real, bins=edges, density=True) if len(real) else (np.zeros(bins), None)
    left, bottom, w, h = 24, 20, width - 30, height - 42
    top = max(dens.max(), rdens.max(), 1e-9)
    d.add(String(width / 2, height - 10, title, fontSize=8, textAnchor="middle"))
    d.add(Rect(left, bottom, w, h, fillColor=None, strokeColor=colors.grey, strokeWidth=0.5))
    bw = w / bins
    for k in range(bins):
        d.add(Rect(left + k * bw, bottom, bw * 0.95, h * dens[k] / top, fillColor=SIM_COLOUR,
                   strokeColor=None))
        if rdens[k] > 0:  # real density as an outline
            d.add(Rect(left + k * bw, bottom, bw * 0.95, h * rdens[k] / top, fillColor=None,
                       strokeColor=REAL_COLOUR, strokeWidth=0.8))
    for v in np.linspace(lo, hi, 5):
        d.add(String(left + (v - lo) / (hi - lo + 1e-9) * w, bottom - 8, f"{v:.0f}", fontSize=5.5,
                     textAnchor="middle"))
    d.add(String(width / 2, height - 18, "blue: simulated, orange outline: real", fontSize=5.5,
                 textAnchor="middle"))
    return d


def _label(column: str) -> str:
    """A table column's printed header: the CSV's name in words ("real_first_innings_total")."""
    return str(column).replace("_", " ")


TABLE_FONT_PT = (6.5, 4.5)  # a report table's text size, and the smallest it shrinks to fit
CELL_PAD_PT = 3.0


def _table(rows: list[list[Any]], width: float) -> Table:
    """A report table that fits `width` (points): headers in words, wrapped between words; each
    column as wide as its longest cell or header word, in a text size that fits them all (wide
    CSV tables used to run off the page, or squeeze words into each other)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth
    body = [[str(c) for c in r] for r in rows[1:]]
    labels = [_label(c) for c in rows[0]]

    def needs(size: float) -> list[float]:
        return [max([stringWidth(r[i], "Helvetica", size) for r in body]
                    + [stringWidth(w, "Helvetica-Bold", size - 0.5) for w in labels[i].split()] + [size])
                + 2 * CELL_PAD_PT + 1 for i in range(len(labels))]

    size, smallest = TABLE_FONT_PT
    while sum(needs(size)) > width and size > smallest:
        size = max(smallest, size - 0.25)
    need = needs(size)
    widths = [w * width / sum(need) for w in need]  # spread to the full width (or squeeze the last bit)
    header = ParagraphStyle("table-header", fontName="Helvetica-Bold", fontSize=size - 0.5, leading=size + 0.5)
    table = Table([[Paragraph(escape(label), header) for label in labels]] + body,
                  colWidths=widths, repeatRows=1)
    table.setStyle(TableStyle([("FONTSIZE", (0, 1), (-1, -1), size),
                               ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8eef5")),
                               ("GRID", (0, 0), (-1, -1), 0.25, colors.lightgrey),
                               ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
                               ("LEFTPADDING", (0, 0), (-1, -1), CELL_PAD_PT),
                               ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PAD_PT),
                               ("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 1)]))
    return table


def _grid(drawings: list[Drawing]) -> Table:
    rows = [drawings[i:i + 2] + [""] * (2 - len(drawings[i:i + 2])) for i in range(0, len(drawings), 2)]
    return Table(rows)


def write_pdf(path: Path, title: str, lines: list[str], tables: list[tuple[str, pd.DataFrame]],
              drawings: list[Drawing]) -> None:
    styles = getSampleStyleSheet()
    buf = io.BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=A4, leftMargin=12 * mm, rightMargin=12 * mm,
                            topMargin=12 * mm, bottomMargin=12 * mm, title=title,
                            author="cardgen", invariant=1)
    story: list[Any] = [Paragraph(title, styles["Title"])]
    story += [Paragraph(line, styles["Normal"]) for line in lines]
    story.append(Spacer(1, 4 * mm))
    if drawings:
        story.append(_grid(drawings))
    for caption, df in tables:
        story.append(Spacer(1, 4 * mm))
        story.append(Paragraph(caption, styles["Heading3"]))
        story.append(_table([list(df.columns)] + df.astype(object).where(df.notna(), "").values.tolist(),
                            doc.width))
    doc.build(story)
    _write(path, buf.getvalue())
