"""Check that every link, image, stylesheet and script on every page of a site resolves.

Relative targets must be files inside the site (and a `#fragment` an id on the target page);
root-relative ones (`/assets/...`, on the 404 page) resolve from the site's root; absolute http(s)
links are only collected, never fetched (tests never use the internet).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

LINK_ATTRIBUTES = {"a": "href", "img": "src", "link": "href", "script": "src"}


@dataclass(frozen=True)
class Link:
    page: str  # relpath of the page inside the site
    tag: str
    target: str


@dataclass
class LinkReport:
    checked: int
    broken: list[Link]
    external: list[Link]


class _PageScan(HTMLParser):
    """Collects a page's link targets and element ids in one pass (the stdlib parser is enough)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str]] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        wanted = LINK_ATTRIBUTES.get(tag)
        if wanted and values.get(wanted) is not None:
            self.links.append((tag, str(values[wanted])))

    handle_startendtag = handle_starttag


def _scan(path: Path) -> _PageScan:
    scan = _PageScan()
    scan.feed(path.read_text(encoding="utf-8"))
    scan.close()
    return scan


class _Scans(dict[Path, _PageScan]):
    """Pages scanned, and any other page scanned when it is first asked for."""

    def __missing__(self, page: Path) -> _PageScan:
        self[page] = _scan(page)
        return self[page]


def check_links(site_dir: Path, pages_of: Iterable[Path] | None = None) -> LinkReport:
    """Every link of every page of the site, or of the pages `pages_of` (the pages above the
    sets of a 300-season site, say: its 200,000 set pages are scanned only where a link asks
    for one's ids)."""
    site_dir = site_dir.resolve()
    chosen = sorted(site_dir.rglob("*.html")) if pages_of is None else sorted(p.resolve() for p in pages_of)
    pages = _Scans({page: _scan(page) for page in chosen})
    checked, broken, external = 0, [], []
    for page in chosen:
        scan = pages[page]
        rel_page = page.relative_to(site_dir).as_posix()
        for tag, target in scan.links:
            link = Link(rel_page, tag, target)
            checked += 1
            parts = urlsplit(target)
            if parts.scheme or parts.netloc:
                external.append(link)
                continue
            base = site_dir if parts.path.startswith("/") else page.parent
            resolved = (base / unquote(parts.path).lstrip("/")).resolve() if parts.path else page
            inside = site_dir in resolved.parents
            if not inside or not resolved.is_file() or parts.fragment and resolved.suffix == ".html" and parts.fragment not in pages[resolved].ids:
                broken.append(link)
    return LinkReport(checked=checked, broken=broken, external=external)
