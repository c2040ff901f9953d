"""The catalogue side of the site: what each set page leaves for the pages above it (a record),
the competitions those records make, and the search index over every player of every season.

Layer: site, under `generate` (which renders pages and calls this); it reads no kit and renders
no page, so it stays fast at a few hundred seasons.

A set's record (`sets/<SET>/catalogue-entry.json`) is written beside its pages. It holds what the
home page, the competition pages, the search and the how-to pages need of the set, and the
fingerprint of the kit it was rendered from (`manifest.kit_fingerprint`) with the site code's;
the next render of the site carries an unchanged set's folder over as it is and reads only its
record. The root pages are always made from records, fresh or carried, so a set renders the
same whether it was re-rendered this time or not.

The search index is static JavaScript (`assets/search/<shard>.js`, one shard per first letter of
a name's words), so it loads from file:// too (a fetch of JSON does not there) and only when a
visitor searches: the home page itself carries none of it.
"""
from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Iterable

from cardgen import __version__
from cardgen.cache import atomic_write_bytes
from cardgen.fingerprint import Fingerprint
from cardgen.readfile import read_json_file

RECORD_FILE = "catalogue-entry.json"
RECORD_VERSION = 1
SEARCH_FOLDER = "assets/search"
SETS_SHARD = "sets"


# the site modules that only get pages into place, serve or check them: no byte of a set's
# folder depends on them, so an edit to one re-renders no set (issue 36: an edit to publishing
# re-rendered all 300). Every other module counts, a new one too: a list of the modules that
# count missed compare.py once. (What a set's folder holds besides its pages, the download
# names and the zips, is `downloads`, which counts.)
PUBLISHING_ONLY = frozenset({"incremental.py", "linkcheck.py", "publishing.py", "serve.py"})
SITE_PACKAGE = Path(__file__).resolve().parent


def page_modules(folder: Path = SITE_PACKAGE) -> list[Path]:
    """The modules of the site package (`folder`) that shape its pages, sorted."""
    return sorted(p for p in folder.glob("*.py") if p.name not in PUBLISHING_ONLY and p.is_file())


def site_code_fingerprint(template_dir: Path, site_url: str = "", modules: Iterable[Path] | None = None) -> str:
    """The key of what the site's pages are made with: cardgen's version, the modules that shape
    pages (`page_modules`, unless `modules` are given), every template and asset, and the address
    the pages are made for. A change to any re-renders every set."""
    code = [(p.name, p) for p in (page_modules() if modules is None else modules)]
    templates = [(p.name, p) for p in template_dir.iterdir() if p.is_file()]
    return (Fingerprint("site-code").add("version", __version__).add("site-url", site_url)
            .files("module:", code).files("template:", templates).hexdigest())


def read_record(path: Path, fingerprint: str | None, code: str) -> dict[str, Any] | None:
    """A set's record if it was rendered from this kit fingerprint by this site code, else None
    (missing, damaged, another version: the set is rendered again)."""
    if fingerprint is None:
        return None
    try:
        doc = read_json_file(path)
    except (OSError, ValueError):
        return None
    if not isinstance(doc, dict) or doc.get("record_version") != RECORD_VERSION \
            or doc.get("fingerprint") != fingerprint or doc.get("site_code") != code:
        return None
    return doc


def write_record(path: Path, record: dict[str, Any]) -> dict[str, Any]:
    """Write a record; returns it as read back (JSON types only), the shape a carried set has."""
    data = (json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n").encode("utf-8")
    atomic_write_bytes(path, data)
    return json.loads(data)


# --- competitions -------------------------------------------------------------------------------

@dataclass
class Competition:
    """One competition of the catalogue and its sets, the newest season first."""
    code: str
    name: str
    nation: str
    slug: str
    sets: list[dict[str, Any]]

    @property
    def page(self) -> str:
        return f"competitions/{self.slug}.html"

    @property
    def seasons(self) -> list[str]:
        return list(dict.fromkeys(s["season"] for s in self.sets))

    @property
    def formats(self) -> list[str]:
        return sorted({str(s.get("format") or "") for s in self.sets} - {""})


def competitions(records: list[dict[str, Any]], slug: Any) -> list[Competition]:
    """The records (already in page order: by competition name, newest season first) grouped by
    competition code; `slug` makes a page name of a code."""
    found: dict[str, Competition] = {}
    for record in records:
        comp = record["competition"]
        key = comp["code"] or comp["name"]
        if key not in found:
            found[key] = Competition(comp["code"], comp["name"], comp["nation"], slug(key) or "competition", [])
        found[key].sets.append(record)
    taken: dict[str, int] = {}
    for competition in found.values():   # two codes that slug alike keep pages of their own
        n = taken.get(competition.slug, 0)
        taken[competition.slug] = n + 1
        if n:
            competition.slug = f"{competition.slug}-{n + 1}"
    return list(found.values())


# --- the search index -----------------------------------------------------------------------------

def fold(text: str) -> str:
    """Lower case without accents, as the search script folds what a visitor types."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c)).lower()


def words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", fold(text))


def shard_of(word: str) -> str:
    """The shard a word's entries are in: its first letter (a-z), "0" for a digit, "_" else."""
    first = word[:1]
    if "a" <= first <= "z":
        return first
    return "0" if first.isdigit() else "_"


def search_index(records: list[dict[str, Any]]) -> dict[str, Any]:
    """The index as shards: the sets table, and per shard the players (one entry per player id,
    with every season he has a card in), the teams and the sets whose words start there."""
    sets = [[r["name"], r["title"], r["competition"]["code"]] for r in records]
    players: dict[str, list[Any]] = {}
    teams: dict[str, list[Any]] = {}
    for index, record in enumerate(records):
        for player in record.get("players", []):
            # one entry per person and printed name (a name printed otherwise in another
            # season, as a --names file may, is found under both)
            key = f'{player["id"]}\0{player["name"]}'
            entry = players.setdefault(key, [player["name"], player["full_name"], []])
            entry[2].append([index, ", ".join(player["teams"]), player["page"]])
        for team in record.get("team_pages", []):
            teams.setdefault(team["name"], [team["name"], []])[1].append([index, team["page"]])
    shards: dict[str, dict[str, list[Any]]] = {}

    def put(kind: str, entry: Any, text: Iterable[str]) -> None:
        for key in sorted({shard_of(w) for t in text for w in words(t)}):
            shards.setdefault(key, {"p": [], "t": [], "s": []})[kind].append(entry)

    for key in sorted(players, key=lambda k: (fold(players[k][0]), k)):
        entry = players[key]
        put("p", entry, (entry[0], entry[1]))
    for name in sorted(teams, key=fold):
        put("t", teams[name], (name,))
    for index, record in enumerate(records):
        put("s", index, (record["title"], record["competition"]["code"]))
    return {"sets": sets, "shards": shards}


def write_search_index(root: Path, records: list[dict[str, Any]]) -> dict[str, int]:
    """Write the index under `root`/assets/search/; returns each file's size in bytes."""
    index = search_index(records)
    folder = root / SEARCH_FOLDER
    sizes: dict[str, int] = {}

    def write(name: str, call: str, data: Any) -> None:
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        # a script, not JSON: <script src> loads from file:// where fetch() does not
        text = f'CardgenSearch.{call}({body});\n'.replace("</", "<\\/")
        blob = text.encode("utf-8")
        atomic_write_bytes(folder / f"{name}.js", blob)
        sizes[f"{name}.js"] = len(blob)

    write(SETS_SHARD, "sets", index["sets"])
    for key in sorted(index["shards"]):
        write(key, "shard", [key, index["shards"][key]])
    # which shards exist: a letter no name starts with is answered without loading anything
    write("shards", "known", sorted(index["shards"]))
    return sizes
