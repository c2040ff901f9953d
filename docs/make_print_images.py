"""Refresh the print previews of docs/kit.md in docs/images/ (page 1 of each PDF at 100 dpi).

    PYTHONPATH=. python3 docs/make_print_images.py [--source DIR]

Builds the BBL 2024-25 kit (A4 + Letter with its season tracker, and A4 with bleed) and The Hundred 2024 scoresheet
into a temporary folder and renders them with pypdfium2 (the scoresheets' scorecard, page 3, too);
a maintainer script, not part of the product.
"""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from cardgen.cache import Cache
from cardgen.calibrate.cardset import build_card_set
from cardgen.cardset import CardSet
from cardgen.competitions import get_competition
from cardgen.render.card import card_views
from cardgen.render.images import card_image
from cardgen.render.kit import KitOptions, build_kit
from cardgen.render.season_tracker import fixtures_from_tables
from cardgen.stats.load import season_stats

IMAGES = Path(__file__).resolve().parent / "images"
DPI = 100


def page_one(pdf: Path, png: Path, index: int = 0) -> None:
    doc = pdfium.PdfDocument(str(pdf))
    doc[index].render(scale=DPI / 72).to_pil().save(png, optimize=True)
    doc.close()
    print(png.relative_to(IMAGES.parent.parent))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default=str(Path(__file__).resolve().parents[2] / "shared/data/cricsheet"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cache = Cache(Path(tmp) / "cache")  # never the committed stats_cache/
        bbl = CardSet.from_json(build_card_set(get_competition("BBL"), "2024-25", args.source, cache=cache))
        hundred = CardSet.from_json(build_card_set(get_competition("HUNDRED"), "2024", args.source, cache=cache))
        stats = season_stats(get_competition("BBL"), "2024-25", args.source, cache=cache)
        fixtures = fixtures_from_tables(stats.matches, stats.innings)
        kit = build_kit(bbl, Path(tmp) / "plain", KitOptions(images=False, progress=False,
                                                             fixtures=fixtures)).folder
        bleed = build_kit(bbl, Path(tmp) / "bleed", KitOptions(papers=("a4",), bleed=True, images=False,
                                                             progress=False)).folder
        hkit = build_kit(hundred, Path(tmp) / "hundred", KitOptions(papers=("a4",), images=False,
                                                                  progress=False)).folder
        for pdf, png in [("cards-a4.pdf", "cards-a4.png"), ("cards-letter.pdf", "cards-letter.png"),
                         ("fielding-chart-a4.pdf", "fielding-chart.png"), ("scoresheet-a4.pdf", "scoresheet.png"),
                         ("scoresheet-letter.pdf", "scoresheet-letter.png"),
                         ("team-sheets-a4.pdf", "team-sheets.png"), ("quick-reference-a4.pdf", "quick-reference.png"),
                         ("season-tracker-a4.pdf", "season-tracker.png")]:
            page_one(kit / pdf, IMAGES / png)
        page_one(bleed / "cards-a4.pdf", IMAGES / "cards-a4-bleed.png")
        page_one(hkit / "scoresheet-a4.pdf", IMAGES / "scoresheet-100-ball.png")
        # the scoresheet's first scorecard page (page 3: the first innings summed up)
        page_one(kit / "scoresheet-a4.pdf", IMAGES / "scorecard.png", 2)
        page_one(hkit / "scoresheet-a4.pdf", IMAGES / "scorecard-100-ball.png", 2)
    # two cards side by side at 150 dpi: the rules' own examples, Chris Green and Cooper Connolly
    views = card_views(bbl)
    pick = [next(v for v in views if v.kind == "bowler" and v.name.endswith("GREEN") and "Sydney" in v.team),
            next(v for v in views if v.kind == "striker" and v.name.endswith("CONNOLLY"))]
    cards = [card_image(v, 150) for v in pick]
    gap = 24
    sheet = Image.new("RGB", (sum(c.width for c in cards) + gap * 3, cards[0].height + 2 * gap), "white")
    x = gap
    for card in cards:
        sheet.paste(card, (x, gap))
        x += card.width + gap
    sheet.save(IMAGES / "card-examples.png", optimize=True)
    print("docs/images/card-examples.png")


if __name__ == "__main__":
    main()
