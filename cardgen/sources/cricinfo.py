"""ESPNcricinfo player pages: attributes for players the offline tables lack.

Fetching and parsing are separate. `parse_player_page` is a pure function (HTML in, a
`CricinfoProfile` out, `ParseError` on anything it cannot read); it reads the page's
`__NEXT_DATA__` JSON (`props.appPageProps.data.player`) and, where that is missing or broken,
the visible profile blocks ("Full Name", "Born", "Batting Style", "Bowling Style", "Playing Role").

The scraper runs only when allowed (`CARDGEN_CRICINFO=1`, or a base URL such as a loopback
test server) and only for players the tables lack; pages are kept in the raw cache so a
player is fetched once.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from collections.abc import Iterable

import pandas as pd

from cardgen.cache import Cache

if TYPE_CHECKING:  # bs4 is imported only to parse a page (not for reading cached tables)
    import requests  # and requests only to fetch one
    from bs4 import BeautifulSoup
from cardgen.errors import ParseError, SourceError
from cardgen.readfile import parse_json
from cardgen.sources.fetch import TIMEOUT, make_session
from cardgen.sources.locations import CRICINFO_ENV as CRICINFO_ENV  # re-exported (home: sources.locations)
from cardgen.sources.locations import DEFAULT_BASE_URL, scraping_base_url
from cardgen.sources.players import ATTRIBUTE_COLUMNS, batting_hand, bowling_type, is_keeper_role

# the short profile address; cricinfo redirects it to /cricketers/<slug>-<id>
PROFILE_PATH = "/ci/content/player/{cricinfo_id}.html"
POLITE_DELAY = 1.0  # seconds between live requests
LABELS = {"full name": "full_name", "born": "born", "batting style": "batting_style",
          "bowling style": "bowling_style", "playing role": "playing_role"}


@dataclass(frozen=True)
class CricinfoProfile:
    cricinfo_id: str | None
    known_as: str | None  # the name cricinfo prints, e.g. "Chris Green"
    full_name: str | None  # e.g. "Christopher James Green"
    country: str | None
    born: str | None
    batting_style: str | None
    bowling_style: str | None
    playing_role: str | None


def _text(value: Any) -> str | None:
    if isinstance(value, str) and value.strip():
        return " ".join(value.split())
    return None


def _first(value: Any) -> str | None:
    if isinstance(value, list):
        return next((t for t in (_text(v) for v in value) if t), None)
    return _text(value)


def _next_data_player(soup: BeautifulSoup) -> dict[str, Any]:
    """The player object of the page's Next.js data, or {} if absent or unreadable."""
    tag = soup.find("script", id="__NEXT_DATA__")
    if tag is None or not tag.string:
        return {}
    try:
        doc = parse_json(tag.string)
    except ValueError:  # NestedTooDeeply too: a hostile page's 100,000-deep data
        return {}  # broken JSON: fall back to the visible blocks
    player: Any = doc
    for key in ("props", "appPageProps", "data", "player"):
        player = player.get(key) if isinstance(player, dict) else None
    return player if isinstance(player, dict) else {}


def _visible_blocks(soup: BeautifulSoup) -> dict[str, str]:
    """The label/value pairs of the profile grid: <p>Batting Style</p><span>Right hand Bat</span>."""
    found: dict[str, str] = {}
    for label in soup.find_all(["p", "span", "div", "dt", "h5"]):
        key = LABELS.get(label.get_text(" ", strip=True).casefold())
        if key is None or key in found:
            continue
        value = label.find_next_sibling()
        text = _text(value.get_text(" ", strip=True)) if value is not None else None
        if text:
            found[key] = text
    return found


def parse_player_page(html: bytes | str, cricinfo_id: str | None = None) -> CricinfoProfile:
    """Read one ESPNcricinfo player page. Pure: no network, no files."""
    if isinstance(html, bytes):
        html = html.decode("utf-8", errors="replace")
    if not isinstance(html, str):
        raise ParseError("player page: expected HTML text")
    try:
        from bs4 import BeautifulSoup
        soup = BeautifulSoup(html, "html.parser")
        player = _next_data_player(soup)
        blocks = _visible_blocks(soup)
        heading = soup.find("h1")
        heading_text = _text(heading.get_text(" ", strip=True)) if heading is not None else None
    except (ValueError, TypeError, AttributeError, RecursionError, AssertionError) as exc:
        raise ParseError(f"player page {cricinfo_id or '?'}: unreadable HTML "
                         f"({exc.__class__.__name__})") from exc
    if not player and not blocks:
        where = f"player page {cricinfo_id}" if cricinfo_id else "player page"
        raise ParseError(f"{where}: no player profile found (not an ESPNcricinfo player page?)")
    country = player.get("country")
    country_name = _text(country.get("name")) if isinstance(country, dict) else _text(country)
    object_id = player.get("objectId")
    return CricinfoProfile(
        cricinfo_id=str(object_id) if isinstance(object_id, (int, str)) and str(object_id) else cricinfo_id,
        known_as=_text(player.get("longName")) or _text(player.get("name")) or heading_text,
        full_name=blocks.get("full_name") or _text(player.get("fullName")),
        country=country_name,
        born=blocks.get("born"),
        batting_style=blocks.get("batting_style") or _first(player.get("longBattingStyles")),
        bowling_style=blocks.get("bowling_style") or _first(player.get("longBowlingStyles")),
        playing_role=blocks.get("playing_role") or _first(player.get("playingRoles")),
    )


def fetch_player_page(cricinfo_id: str, base_url: str = DEFAULT_BASE_URL,
                      session: requests.Session | None = None, cache: Cache | None = None) -> bytes:
    """One player page, from the raw cache or the network."""
    url = base_url.rstrip("/") + PROFILE_PATH.format(cricinfo_id=cricinfo_id)
    key = Cache.key("cricinfo", url)
    if cache is not None:
        cached = cache.get_raw(key, validate=_looks_like_profile)
        if cached is not None:
            return cached
    import requests  # only here: a kit built from the mirror never loads it
    session = session or make_session()
    try:
        resp = session.get(url, timeout=TIMEOUT)
    except requests.RequestException as exc:
        raise SourceError(f"could not fetch {url} ({exc.__class__.__name__})") from exc
    if resp.status_code != 200:
        raise SourceError(f"{url} answered HTTP {resp.status_code}")
    data = resp.content
    if cache is not None and _looks_like_profile(data):
        cache.put_raw(key, data)
    return data


def _looks_like_profile(data: bytes) -> bool:
    try:
        parse_player_page(data)
    except ParseError:
        return False
    return True


def profile_row(player_id: str, profile: CricinfoProfile) -> dict[str, Any]:
    """A profile as a row of the attributes table."""
    return {
        "player_id": player_id,
        "full_name": profile.full_name,
        "known_as": profile.known_as,
        "country": profile.country,
        "batting_hand": batting_hand(profile.batting_style),
        "bowling_style": profile.bowling_style,
        "bowling_type": bowling_type(profile.bowling_style),
        "playing_role": profile.playing_role,
        "is_keeper": is_keeper_role(profile.playing_role),
        "key_cricinfo": profile.cricinfo_id,
        "attribute_source": "cricinfo",
    }


def scrape_attributes(wanted: Iterable[tuple[str, str]], base_url: str,
                      cache: Cache | None = None, session: requests.Session | None = None,
                      delay: float = POLITE_DELAY) -> pd.DataFrame:
    """Attributes for (player_id, cricinfo_id) pairs; a page that fails is skipped, not fatal."""
    session = session or make_session()
    rows = []
    live = not base_url.startswith(("http://127.", "http://localhost"))
    for n, (player_id, cricinfo_id) in enumerate(wanted):
        if live and n:
            time.sleep(delay)
        try:
            page = fetch_player_page(cricinfo_id, base_url, session=session, cache=cache)
            rows.append(profile_row(player_id, parse_player_page(page, cricinfo_id)))
        except (SourceError, ParseError):
            continue  # inference fills in whoever the scraper could not
    return pd.DataFrame(rows, columns=ATTRIBUTE_COLUMNS)


__all__ = ["CricinfoProfile", "parse_player_page", "fetch_player_page", "scrape_attributes",
           "scraping_base_url", "profile_row"]
