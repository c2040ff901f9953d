"""The site's pictures: card thumbnails, page previews of the kit's PDFs and of the validation
reports, and what a shared link shows (the Open Graph title, line and card picture).

Layer: site. Rasterises with pypdfium2 (render.raster) and Pillow; writes atomically.
"""
from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

from PIL import Image

from cardgen import slugs
from cardgen.cache import atomic_write_bytes
from cardgen.site.kit import KitSet
from cardgen.site.views import KIND_PLURAL, CardView

THUMB_WIDTH = 240  # px; a 63 x 88 mm card is then 335 px tall


THUMB_COLOURS = 64


PREVIEW_DPI = 60  # readable plot titles, small files


PREVIEW_PAGES = 4


KIT_PREVIEW_WIDTH = 300  # px: a page preview beside its download link


def _save_png(image: Image.Image, dst: Path, colours: int = 128) -> None:
    data = io.BytesIO()
    image.quantize(colours, dither=Image.Dither.NONE).save(data, format="PNG", compress_level=6)
    atomic_write_bytes(dst, data.getvalue())


def pdf_previews(pdf: Path, out_dir: Path, stem: str) -> list[Path]:
    """PNG previews of a report's first pages (`<stem>-<n>.png`), drawn with pypdfium2."""
    from cardgen.render.raster import RasterError, pdf_pages_png
    try:
        pages = pdf_pages_png(pdf.read_bytes(), PREVIEW_DPI, first=1, last=PREVIEW_PAGES)
    except (OSError, RasterError):
        return []  # a report that cannot be read is still linked, just not previewed
    paths = []
    for number, png in enumerate(pages, start=1):
        path = out_dir / f"{stem}-{number}.png"
        atomic_write_bytes(path, png)
        paths.append(path)
    return paths


def first_page_preview(pdf: Path, dst: Path) -> tuple[int, int] | None:
    """The first page of a kit PDF as a small PNG; its size, or None if the PDF cannot be read."""
    from cardgen.render.raster import RasterError, pdf_pages_images
    try:
        images = pdf_pages_images(pdf.read_bytes(), lambda width_pt: KIT_PREVIEW_WIDTH / width_pt)
    except (OSError, RasterError):
        return None  # a PDF that cannot be read is still linked, just not previewed
    if not images:
        return None
    _save_png(images[0], dst)
    return images[0].size


def write_thumb(src: Path, dst: Path) -> tuple[int, int]:
    with Image.open(src) as opened:
        image = opened.convert("RGB")
    height = round(image.height * THUMB_WIDTH / image.width)
    # reducing_gap: a fast integer box reduction first, then Lanczos for the last step
    thumb = image.resize((THUMB_WIDTH, height), Image.Resampling.LANCZOS, reducing_gap=2.0)
    data = io.BytesIO()
    # cards are a few flat colours: 64 of them look the same and make the file a third the size
    thumb.quantize(THUMB_COLOURS, dither=Image.Dither.NONE).save(data, format="PNG", compress_level=6)
    atomic_write_bytes(dst, data.getvalue())
    return thumb.size


_PAPER_SUFFIX = re.compile(r"\s*\((A4|US Letter)\)$")


def _paper_of(size: tuple[int, int]) -> str | None:
    """A4 or US Letter from a page's shape (portrait or landscape), else None."""
    from cardgen.render.common import PAPER_LABELS, page_size_mm
    ratio = max(size) / min(size)
    for paper, label in PAPER_LABELS.items():
        if abs(ratio - max(page_size_mm(paper)) / min(page_size_mm(paper))) < 0.02:
            return label
    return None


def kit_previews(kit: KitSet, set_root: Path) -> list[dict[str, Any]]:
    """One picture per document of the kit (pypdfium2, its first page), with a download link per
    paper it comes in ("Fielding chart: A4, 1 page · US Letter, 1 page"): the A4 and Letter
    copies of a sheet look alike, and ten thumbnails of five sheets only made the choice harder."""
    found: dict[str, dict[str, Any]] = {}
    for download in kit.downloads:
        if not download.relpath.endswith(".pdf"):
            continue
        stem = Path(download.relpath).stem
        document = re.sub(r"-(a4|letter)$", "", stem)
        rel = f"previews/kit-{slugs.slug(stem)}.png"
        size = first_page_preview(kit.folder / download.relpath, set_root / rel)
        if size is None:
            continue
        suffix = _PAPER_SUFFIX.search(download.label)
        paper = _paper_of(size) or (suffix.group(1) if suffix else None)
        entry = found.setdefault(document, {"src": rel, "size": size, "links": [],
                                            "label": _PAPER_SUFFIX.sub("", download.label)})
        entry["links"].append({"href": download.relpath, "paper": paper or "PDF",
                               "pages": kit.page_counts.get(download.relpath)})
        if entry["src"] != rel:
            (set_root / rel).unlink(missing_ok=True)  # the other paper's copy is not shown
    for entry in found.values():  # A4 first, as on the rest of the page
        entry["links"].sort(key=lambda link: link["paper"] != "A4")
    return list(found.values())


def share_of(kit: KitSet, set_rel: str, views: list[CardView], team: dict[str, Any] | None,
              kind: str | None, player: CardView | None = None) -> dict[str, str]:
    """What a shared link of a set, team or player page shows: a title, a line, a card's picture
    (its thumbnail, relative to the site's root)."""
    pictured = next((v for v in views if v.thumb), None)
    if player is not None:
        cards = " and ".join(dict.fromkeys(f"{v.kind_label.lower()} card" for v in views))
        teams = ", ".join(dict.fromkeys(v.team for v in views))
        title = f"{player.name} · {kit.title}"
        description = (f"{player.name} ({teams}), {kit.title}: the {cards} for print-and-play "
                       "Quicket Cricket, made from the real season's ball-by-ball data.")
    elif team is not None:
        title = f"{team['name']} · {kit.title}"
        description = (f"{team['name']}, {kit.title}: {team['cards']} print-and-play cards "
                       f"({team['strikers']} strikers, {team['bowlers']} bowlers) and a team sheet, "
                       "made from the real season's ball-by-ball data.")
    else:
        team_count = len({v.team for v in views})
        title = kit.title + (f" · {KIND_PLURAL[kind]}" if kind else "")
        description = (f"{kit.title}: {len(views)} print-and-play Quicket Cricket cards of {team_count} "
                       "teams, made from the real season's ball-by-ball data, with sheets to print.")
    return {"title": title, "description": description,
            "image": f"{set_rel}/{pictured.thumb}" if pictured and pictured.thumb else "",
            "image_alt": pictured.alt if pictured else ""}
