"""Check that every link, image, stylesheet and script on every page of a site resolves.

Relative targets must be files inside the site (and a `#fragment` an id on the target page);
absolute http(s) links are only collected, never fetched (tests never use the internet).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from bs4 import BeautifulSoup

LINK_ATTRIBUTES = (("a", "href"), ("img", "src"), ("link", "href"), ("script", "src"))


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


def _ids(path: Path, cache: dict[Path, set[str]]) -> set[str]:
    if path not in cache:
        soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
        cache[path] = {str(tag["id"]) for tag in soup.find_all(id=True)}
    return cache[path]


def check_links(site_dir: Path) -> LinkReport:
    site_dir = site_dir.resolve()
    ids: dict[Path, set[str]] = {}
    checked, broken, external = 0, [], []
    for page in sorted(site_dir.rglob("*.html")):
        rel_page = page.relative_to(site_dir).as_posix()
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        for tag_name, attribute in LINK_ATTRIBUTES:
            for tag in soup.find_all(tag_name):
                target = tag.get(attribute)
                if target is None:
                    continue
                link = Link(rel_page, tag_name, str(target))
                checked += 1
                parts = urlsplit(link.target)
                if parts.scheme or parts.netloc:
                    external.append(link)
                    continue
                resolved = (page.parent / unquote(parts.path)).resolve() if parts.path else page
                inside = resolved == site_dir or site_dir in resolved.parents
                if not inside or not resolved.is_file():
                    broken.append(link)
                elif parts.fragment and resolved.suffix == ".html" \
                        and parts.fragment not in _ids(resolved, ids):
                    broken.append(link)
    return LinkReport(checked=checked, broken=broken, external=external)
