"""The match page a kit carries: `play.html` with its engine and data in `play/` beside it.

Opened from the kit folder (file://, no server, no network) or from the site (which copies the
kit's files). The page is static; `play/set-data.js` holds the kit's card set (as card-set.json
has it), its fingerprint (a match file records it, and `cardgen replay` checks it), and the real
fixture list with each result, for season mode. Plain scripts, not ES modules: a page opened
from file:// cannot load modules.
"""
from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any
from collections.abc import Iterable, Mapping

import jinja2

from cardgen.cardset import CardSet, dumps
from cardgen.play.matchfile import card_set_fingerprint
from cardgen.render.common import printed_season_of
from cardgen.render.kit import MATCH_PAGE
from cardgen.render.season_tracker import Fixture
from cardgen.rule_sets import TITLES, rules_of_set

STATIC = Path(__file__).with_name("static")
PAGE = MATCH_PAGE   # the kit names it in START-HERE.txt
FOLDER = "play"
DATA_FILE = "set-data.js"
# the page's own files, in the order it loads the scripts (the data first)
SCRIPTS = ("engine.js", "captain.js", "match.js", "scorecard.js", "page.js")
STYLES = ("play.css",)
RULES_WORDS = {
    "quicket": "the rules as printed",
    "advanced": "wickets in hand (R12) and Defence (R13), the rules these cards are made for",
}


def league_fixtures(card_set: CardSet) -> tuple[Fixture, ...]:
    """A league's round robin (`own_league.fixtures`: [side batting first, the other]) as the
    page's fixture list: numbered in order, no date, venue or real result (none was played)."""
    own = card_set.own_league
    return tuple(Fixture(match_id=f"league-{n}", number=n, date="", stage="", team1=str(first),
                         team2=str(second), venue="", innings=(), result="", winner="", method="")
                 for n, (first, second) in enumerate(own.fixtures if own is not None else (), start=1))


def page_data(card_set: CardSet, fixtures: Iterable[Fixture]) -> dict[str, Any]:
    """What the page reads: the card set, its fingerprint and the season's fixtures (a
    league's set: its round robin, `league_fixtures`)."""
    doc = json.loads(dumps(card_set))  # the set exactly as its card-set.json holds it
    fixtures = tuple(fixtures) or league_fixtures(card_set)
    teams = {t.get("name") for t in doc.get("teams", [])}
    return {"cardSet": doc, "fingerprint": card_set_fingerprint(doc),
            "fixtures": [asdict(f) for f in fixtures if f.team1 in teams and f.team2 in teams]}


def data_script(data: Mapping[str, Any]) -> bytes:
    """set-data.js: the data as one JavaScript assignment (no `</script>` can end it early)."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return f"globalThis.QUICKET_DATA = {text};\n".encode()


def _template() -> jinja2.Template:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(STATIC)), autoescape=True,
                             keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    return env.get_template("play.html.j2")


def page_html(card_set: CardSet, rules: str) -> bytes:
    comp = card_set.competition
    season = printed_season_of(comp.code or "", card_set.season or "")
    own = card_set.own_league
    title = f"{comp.name or comp.code or ''} {season}".strip() if own is None else str(own.name)
    html = _template().render(title=title, season=season, format=card_set.format or "",
                              league=own.name if own else None, baseline=own.baseline if own else None,
                              rounds=own.rounds if own else None,
                              rules=rules, rules_label=TITLES[rules],
                              rules_words=RULES_WORDS[rules], all_rules_words=RULES_WORDS, folder=FOLDER, data_file=DATA_FILE,
                              scripts=SCRIPTS, styles=STYLES)
    return html.encode("utf-8")


def kit_files(card_set: CardSet, fixtures: Iterable[Fixture] = ()) -> dict[str, bytes]:
    """{path in the kit: bytes} of the match page: play.html, and the engine, style and data in
    play/."""
    data = page_data(card_set, fixtures)
    files = {PAGE: page_html(card_set, rules_of_set(card_set))}
    for name in SCRIPTS + STYLES:
        files[f"{FOLDER}/{name}"] = (STATIC / name).read_bytes()
    files[f"{FOLDER}/{DATA_FILE}"] = data_script(data)
    return files
