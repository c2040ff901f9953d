"""Check that every link, image, stylesheet and script on every page of a site resolves.

Relative targets must be files inside the site (and a `#fragment` an id on the target page);
root-relative ones (`/assets/...`, on the 404 page) resolve from the site's root; absolute http(s)
links are only collected, never fetched (tests never use the internet).
"""
from __future__ import annotations

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


def check_links(site_dir: Path) -> LinkReport:
    site_dir = site_dir.resolve()
    pages = {page: _scan(page) for page in sorted(site_dir.rglob("*.html"))}
    checked, broken, external = 0, [], []
    for page, scan in pages.items():
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
