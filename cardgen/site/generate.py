"""Render the download site: a static folder of HTML pages built from everything in `output/`.

Layout of the site folder (all links relative, so it works from any static host or from disk):

    index.html                      every built set with its downloads
    how-to-print.html               printing, cutting and dice
    assets/site.css, assets/search.js, assets/compare.js
    sets/<SET>/index.html           every card, team by team (+ a static page per filter beside it:
                                    plain links, so an address always shows the page it names)
    sets/<SET>/players/<id>.html    one player's card(s), real stats, real vs expected
    sets/<SET>/files/...            the kit's files (hard links to output/, or copies)
    sets/<SET>/thumbs/...           card thumbnails
    sets/<SET>/<SET>-kit.zip        the whole kit in one zip

The site is written into a temporary folder beside the target and swapped in, so a running
`cardgen serve` never sees half a site. Output is deterministic: no clocks, sorted listings,
fixed zip timestamps.
"""
from __future__ import annotations

import io
import os
import re
import shutil
import stat
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Iterable

import jinja2
from PIL import Image, UnidentifiedImageError
from pypdf import PdfReader
from pypdf.errors import PdfReadError

from cardgen import ATTRIBUTION, __version__
from cardgen import slugs
from cardgen.cache import atomic_write_bytes
from cardgen.calibrate.model import CARD_INDEX, MAX_DEFENCE, card_defence, chart_cells, chart_to_slots
from cardgen.errors import CardgenError, CardSetError
from cardgen.manifest import Manifest, read_manifest, write_manifest
from cardgen.paths import templates_dir
from cardgen.render.card import RUN_RESULTS, WICKET_RESULTS, chart_faces
from cardgen.staging import MARKER as STAGING_MARKER
from cardgen.staging import make_staging, publish_folder, relative_files, remove_stale_staging
from cardgen.site.compare import COMPARE_PAGE, card_rows, pair_context, pair_page
from cardgen.site.kit import (KIT_DOWNLOADS, TTS_FOLDER, GameKit, KitSet, SiteError, find_game_kits, find_sets,
                              find_team_kits, read_game_kit, read_set)

TEMPLATE_DIR = templates_dir() / "site"  # shipped with the package (cardgen.paths)
THUMB_WIDTH = 240  # px; a 63 x 88 mm card is then 335 px tall
THUMB_COLOURS = 64
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)  # fixed zip entry time, so the zip is byte-identical per kit
STORED_SUFFIXES = {".png", ".zip", ".jpg", ".jpeg"}  # already compressed: deflating wastes time

KIND_LABEL = {"striker": "Striker", "bowler": "Bowler"}
# the compare page's table of every card: (key, heading, sorts as a number)
RATING_COLUMNS = (("name", "Card", False), ("team", "Team", False), ("kind", "Kind", False),
                  ("rate", "Strike rate or economy", True), ("out", "Outs or wickets /100 balls", True),
                  ("fours", "4s /100 balls", True), ("sixes", "6s /100 balls", True),
                  ("defence", "Defence", True), ("catch", "Catch", True), ("usage", "Usage", False),
                  ("balls", "Real balls", True))
KIND_PLURAL = {"striker": "Strikers", "bowler": "Bowlers"}
RESULT_LABEL = {
    "B": "Bowled", "W": "Caught", "F": "Fielding chart", "0": "Dot ball (no run)",  # W: as the quick reference
    "1": "1 run", "2": "2 runs", "3": "3 runs", "4": "Four", "6": "Six",
}
REAL_ORDER = ("innings", "balls", "overs", "runs", "dismissals", "strike_rate", "economy", "high_score",
              "fours", "sixes", "dots", "wides", "no_balls")
REAL_LABEL = {
    "innings": "Innings", "balls": "Balls", "runs": "Runs", "fours": "4s", "sixes": "6s",
    "high_score": "High score", "wides": "Wides", "no_balls": "No-balls", "overs": "Overs",
    "economy": "Economy", "strike_rate": "Strike rate", "dots": "Dot balls", "no_ball_runs": "No-ball runs",
}


def default_site_dir(out_dir: Path) -> Path:
    return out_dir / "site"


def slug(text: str) -> str:
    """A file-name-safe, lower-case form of a name (only a-z, 0-9 and '-'), transliterated."""
    return slugs.slug(text)


def _unique_slugs(names: Iterable[str]) -> dict[str, str]:
    seen: dict[str, int] = {}
    out: dict[str, str] = {}
    for name in names:
        base = slug(name)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out[name] = base if n == 0 else f"{base}-{n + 1}"
    return out


DOWNLOADS = "downloads"  # the kit's files again (hard links), under names that say what they are
PAGE_SUFFIXES = {".html", ".htm", ".js", ".css"}


def download_name(set_name: str, relpath: str) -> str:
    """The name a kit file is offered under, so two downloads never save as one name:
    ('BBL_2024-25', 'cards-a4.pdf') -> 'bbl-2024-25-cards-a4.pdf', a team's own
    'teams/sydney-sixers/cards-a4.pdf' -> 'bbl-2024-25-sydney-sixers-cards-a4.pdf', a Tabletop
    Simulator sheet 'tts/sydney-sixers-1.png' -> 'bbl-2024-25-tts-sydney-sixers-1.png'. Every
    team's file was `cards-a4.pdf`, as the whole set's: a second team saved as "cards-a4 (1).pdf"."""
    parts = relpath.split("/")
    if parts[0] == "teams" and len(parts) == 3:
        parts = parts[1:]
    path = Path("-".join(parts))
    return f"{slug(set_name)}-{slug(path.stem)}{path.suffix.lower()}"


def _download_names(set_name: str, relpaths: Iterable[str]) -> dict[str, str]:
    """relpath -> its download name (`download_name`), made unique within the set."""
    names: dict[str, str] = {}
    taken: set[str] = set()
    for rel in sorted(set(relpaths)):
        name = download_name(set_name, rel)
        stem, dot, suffix = name.rpartition(".")
        n = 2
        while name in taken:
            name, n = f"{stem}-{n}{dot}{suffix}", n + 1
        taken.add(name)
        names[rel] = name
    return names


def human_size(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.0f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def _number(value: Any, places: int = 2) -> str:
    if isinstance(value, bool) or value is None:
        return "—"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:.{places}f}"
    return str(value)


def _real_rate(key: str, real: dict[str, Any]) -> float | None:
    """The real-season figure that an `expected` figure estimates, from the card's counts."""
    if isinstance(real.get(key), (int, float)) and not isinstance(real[key], bool) \
            and ("rate" in key or key == "economy"):
        return float(real[key])
    balls = real.get("balls")
    if not isinstance(balls, (int, float)) or balls <= 0:
        return None
    runs, outs = real.get("runs"), real.get("dismissals")
    if key == "strike_rate" and isinstance(runs, (int, float)):
        return 100.0 * runs / balls
    if key == "economy" and isinstance(runs, (int, float)):
        return 6.0 * runs / balls   # runs per 6 balls in both formats, as the stats layer and the cards
    if key in ("dismissal_rate", "wicket_rate") and isinstance(outs, (int, float)):
        return outs / balls
    base = key.removesuffix("_per_ball")
    if base in ("fours", "sixes", "dots", "wides", "no_balls") and isinstance(real.get(base), (int, float)):
        return real[base] / balls
    return None


def _csv_float(text: str | None) -> float | None:
    try:
        return float(text) if text not in (None, "") else None
    except ValueError:
        return None


PER_BALL = ("fours", "sixes", "dots", "wides", "no_balls", "wicket_rate", "dismissal_rate")


def _scale(key: str) -> tuple[float, int]:
    """How a figure is shown: per-ball rates as per 100 balls (1 place), rates with 2 places."""
    if key in ("strike_rate", "economy"):
        return 1.0, 2
    if key.removesuffix("_per_ball") in PER_BALL:
        return 100.0, 1
    return 1.0, 3


# the real-against-card table's rows, in this order (the real figures' order above it): the rate,
# wickets or outs, boundaries, dots, then a bowler's extras; a key not named here goes last
EXPECTED_LABEL = {"strike_rate": "Strike rate", "economy": "Economy",
                  "wicket_rate": "Wickets /100 balls", "dismissal_rate": "Outs /100 balls",
                  "fours": "4s /100 balls", "sixes": "6s /100 balls", "dots": "Dots /100 balls",
                  "wides": "Wides /100 balls", "no_balls": "No-balls /100 balls"}
EXPECTED_ORDER = tuple(EXPECTED_LABEL)


# the figures a card's scoring sets (what the attack band's d20 adds to)
SCORING_LABELS = {EXPECTED_LABEL[k] for k in ("strike_rate", "economy", "fours", "sixes")}
# 100-ball economy is still runs per 6 balls (as the quick reference and the card's Econ say), not per set
PER_SIX_BALLS = " (runs per 6 balls)"


def _humanise(key: str) -> str:
    return key.replace("_", " ").capitalize()


# the card's roles as printed; "*" is the rules' mark for "not this side's job"
ROLE_STAR = {"batting_role": "Mainly a bowler", "bowling_role": "Mainly a batter, rarely bowls"}


def table_caption(relpath: str) -> str:
    """"validation/simulate_ladder.csv" -> "Simulated ladder (simulate_ladder.csv)"."""
    name = relpath.rsplit("/", 1)[-1]
    words = Path(name).stem.replace("_", " ")
    words = re.sub(r"^simulate\b", "simulated", words).replace("team totals", "team totals per match")
    return f"{words.capitalize()} ({name})"


def role_words(key: str, player: dict[str, Any], kinds: Iterable[str]) -> str:
    """A player's batting or bowling role in words; a "*" also says where it is printed: the
    striker card's role line shows the batting role, the bowler card's the bowling role (unless
    it says All-Rounder). A player with no such card sees no "*" anywhere."""
    text = str(player.get(key) or "").strip()
    if text != "*":
        return text
    if key == "batting_role":
        shown = "striker" in kinds
    else:
        shown = "bowler" in kinds and player.get("batting_role") != "All-Rounder"
    return ROLE_STAR[key] + (" (shown as * on the card)" if shown else "")


@dataclass
class Versus:
    """One figure of a card: the real season, the card's expectation, and the simulator's check."""
    label: str
    real: str
    expected: str
    simulated: str = "—"
    interval: str = "—"
    verdict: str = "—"  # "inside", "outside" or "—" (not checked)


@dataclass
class CardView:
    """What a page needs to show one card."""
    index: int
    player_id: str
    name: str
    full_name: str
    team: str
    team_slug: str
    kind: str
    kind_label: str
    position: int | None
    player_page: str  # relative to the set folder
    png: str | None  # relative to the set folder
    thumb: str | None
    thumb_size: tuple[int, int] | None
    alt: str
    ratings: list[tuple[str, str]] = field(default_factory=list)
    ratings_note: str = ""  # what a bowler's Usage letter/number means, as the team sheets print it
    defence: int | None = None  # a striker card's Defence rating (docs/rules.md R13), else None
    boundary_note: str = ""  # where a striker card with no 4 or 6 face gets its player's boundaries
    consolidate_note: str = ""  # why a striker card batted mostly while consolidating has many W faces
    wicket_note: str = ""  # where a bowler card with no W or B face gets its player's wickets
    out_note: str = ""  # why a striker card is out more often than its batter was (its floor)
    chart: list[tuple[str, str, str]] = field(default_factory=list)  # range, code, meaning
    real: list[tuple[str, str]] = field(default_factory=list)
    versus: list[Versus] = field(default_factory=list)
    checked: bool = False  # the simulator's validation checked this card
    verdict: str = ""  # the simulator's verdict on the card, in words
    verdict_ok: bool | None = None
    anchor: str = ""  # the id of this card's section on the player page
    link: str = ""  # the player page, at this card's section unless it is the page's first card
    card: dict[str, Any] = field(default_factory=dict)


@dataclass
class SiteReport:
    site_dir: Path
    sets: list[str]
    games: list[str]  # other game systems' kits, as folders under OUT
    pages: int
    files: int
    skipped: list[str]  # set folders left out
    problems: list[str] = field(default_factory=list)  # why, and anything else left out
    kept: list[str] = field(default_factory=list)  # files of the old site cardgen did not write
    team_kits: list[str] = field(default_factory=list)  # build --team folders, not listed
    rendered: list[str] = field(default_factory=list)  # sets whose pages were rendered this time
    carried: list[str] = field(default_factory=list)  # sets carried over unchanged from the old site
    search_bytes: int = 0  # the search index, every shard


def _environment() -> jinja2.Environment:
    if not TEMPLATE_DIR.is_dir():
        raise SiteError(f"site templates are missing at {TEMPLATE_DIR}")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATE_DIR)),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True,
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    env.filters["size"] = human_size
    env.globals["role_words"] = role_words
    env.globals["table_caption"] = table_caption
    return env


DEFENCE_NAMED = 3  # rated cards the how-to-play page names per kit: an IPL season rates 22


def highest_defence(views: list[CardView]) -> list[CardView]:
    """The kit's highest Defence ratings (R13), the few the how-to-play page names for the kit
    (every one is on the kit's team sheets): highest first, and among equal ratings (a season has
    several 20s) the batter who faced most balls, the name a reader knows, then card order."""
    def balls(view: CardView) -> int:
        real = view.card.get("real")
        faced = real.get("balls") if isinstance(real, dict) else None
        return faced if _is_count(faced) else 0
    return sorted((v for v in views if v.defence), key=lambda v: (-int(v.defence or 0), -balls(v)))[:DEFENCE_NAMED]


BOUNDARY_FACES = (("4", "fours", "four"), ("6", "sixes", "six"))


def _block(card: dict[str, Any], key: str) -> dict[str, Any]:
    """A card's `real` or `expected` figures ({} when a hand-edited set has none, or not as a
    mapping: a note is no validator)."""
    block = card.get(key)
    return block if isinstance(block, dict) else {}


def boundary_note(card: dict[str, Any], attack_die: bool) -> str:
    """For a striker card with no 4 (or 6) face whose player hit some in the season: where its
    boundaries come from, so a reader does not take the card for a mistake (MS Dhoni, IPL 2025:
    12 sixes in 145 balls, a card of dots and singles that plays to his real sixes); for a card
    with no run face at all whose player scored (a tail-ender's short stay in the attack band:
    9-38 cards a shipped rule set), where its runs come from. `attack_die`: the set is made for
    the wickets-in-hand rule, whose attack die turns dots into boundaries."""
    if card.get("kind") != "striker":
        return ""
    faces = chart_faces(card)
    real = _block(card, "real")
    expected = _block(card, "expected")
    balls = real.get("balls")
    if not _is_count(balls) or balls <= 0:
        return ""
    source = ("from the bowler's card (half of every ball is read from it) and from the attack die "
              "of the wickets-in-hand rule, which turns dots into fours and sixes"
              if attack_die else "from the bowler's card (half of every ball is read from it)")
    runs = real.get("runs")
    if not faces & RUN_RESULTS and _is_count(runs) and runs > 0:
        # no run face at all: a short stay mostly in the attack band (docs/calibration.md
        # section 10), whose dots the attack die turns into runs
        return (f"No run on this card, yet {runs} run{'' if runs == 1 else 's'} in {balls} real "
                f"ball{'' if balls == 1 else 's'}: a card's runs also come {source}.")
    missing = [(face, key, word) for face, key, word in BOUNDARY_FACES
               if face not in faces and _is_count(real.get(key)) and real[key] > 0
               and isinstance(expected.get(key), (int, float)) and expected[key] > 0]
    if not missing:
        return ""
    hit = " and ".join(f"{real[key]} {word if real[key] == 1 else key}" for _, key, word in missing)
    played = " and ".join(f"{100 * expected[key]:.1f} {key} (real {100 * (_real_rate(key, real) or 0):.1f})"
                          for _, key, _ in missing)
    note = (f"No {' or '.join(face for face, _, _ in missing)} on this card, yet {hit} in {balls} "
            f"real ball{'' if balls == 1 else 's'}: a card's boundaries also come {source}.")
    # rates per 100 balls say something only for a season of some length (the qualified cards')
    return note + (f" Played against the league's bowlers, the card hits {played} a 100 balls."
                   if balls >= qualify_balls() else "")


FLOOR_NOTE_MARGIN = 1.2  # a qualified card with this many times (and one more) its player's wickets or outs


def _over_floor(expected_rate: float, count: int, balls: int) -> bool:
    """Whether a card's expected wickets or outs over its player's real balls are at least
    FLOOR_NOTE_MARGIN times (and one more than) the real `count`."""
    return expected_rate * balls >= max(FLOOR_NOTE_MARGIN * count, count + 1)


def wicket_note(card: dict[str, Any], attack_die: bool) -> str:
    """For a bowler card with no W or B face whose player took wickets: where its wickets come
    from, so a reader does not take the card for a mistake. A bowler whose real wicket rate is
    below what the batters' half of each delivery already gives gets no W of his own (Rashid
    Khan, IPL 2025: 9 wickets in 330 balls; 6-18 qualified bowlers a shipped season), and under
    the wickets-in-hand rule a death bowler's wickets come mostly from the attack die (Matheesha
    Pathirana, IPL 2025, 13 in 251). For a qualified card that still takes at least 20% (and a
    wicket) more than its player did, whatever its faces: that it does, and why (Ellyse Perry,
    WPL 2023: 4 wickets in 140 balls, her card 6.7 a 100 balls against 2.9; docs/calibration.md
    section 10). `attack_die`: the set is made for the rule."""
    if card.get("kind") != "bowler":
        return ""
    faces = chart_faces(card)
    real = _block(card, "real")
    wickets, balls = real.get("dismissals"), real.get("balls")
    if not (_is_count(wickets) and _is_count(balls)) or balls <= 0:
        return ""
    source = ("from the batter's card (half of every ball is read from it), from the fielding "
              "chart's catches, LBWs and stumpings, and from the attack die of the wickets-in-hand "
              "rule, which bowls or has caught a batter on some dots" if attack_die else
              "from the batter's card (half of every ball is read from it) and from the fielding "
              "chart's catches, LBWs and stumpings")
    expected = _block(card, "expected").get("wicket_rate")
    rated = isinstance(expected, (int, float)) and balls >= qualify_balls()
    if not faces & WICKET_RESULTS and wickets > 0:
        note = (f"No W or B on this card, yet {wickets} wicket{'' if wickets == 1 else 's'} in {balls} "
                f"real ball{'' if balls == 1 else 's'}: a bowler's wickets also come {source}.")
        if rated:
            note += (f" Played against the league's batters, the card takes {100 * expected:.1f} "
                     f"wickets a 100 balls (real {100 * wickets / balls:.1f}).")
        return note
    if not rated or not _over_floor(expected, wickets, balls):
        return ""
    try:
        f_faces = int(chart_to_slots(card.get("chart"))[CARD_INDEX["F"]])
    except CardSetError:
        return ""
    took = f"{wickets} in {balls} balls" if wickets else f"none in {balls} balls"
    die = " from the attack die of the wickets-in-hand rule," if attack_die else ""
    return (f"Played against the league's batters, this card takes {100 * expected:.1f} wickets a 100 "
            f"balls; its bowler took {100 * wickets / balls:.1f} ({took}). A bowler's wickets also come "
            f"from the batter's card (half of every ball is read from it),{die} and from the fielding "
            f"chart's catches, LBWs and stumpings, which this card reaches on its {f_faces} F "
            f"face{'' if f_faces == 1 else 's'} (they carry its wides, no-balls and byes too), so it "
            f"takes more than its bowler did.")


def out_note(card: dict[str, Any], attack_die: bool) -> str:
    """For a qualified striker card out at least 20% (and once) more often than its batter was:
    that it is, and why (docs/calibration.md section 10: the bowler's half of every ball, the
    chart's catches and run-outs and the attack die's out faces; a Defence rating saves only the
    bowler card's W). Jamie Overton, BBL 2024-25: out twice in 122 balls, his card, rated 20, 3.5
    times a 100 balls."""
    if card.get("kind") != "striker":
        return ""
    real = _block(card, "real")
    outs, balls = real.get("dismissals"), real.get("balls")
    expected = _block(card, "expected").get("dismissal_rate")
    if not (_is_count(outs) and _is_count(balls) and isinstance(expected, (int, float))) \
            or balls < qualify_balls() or not _over_floor(expected, outs, balls):
        return ""
    took = f"{outs} in {balls} balls" if outs else f"never in {balls} balls"
    die = " and the attack die of the wickets-in-hand rule" if attack_die else ""
    figures = (f"Played against the league's bowlers, this card is out {100 * expected:.1f} times a "
               f"100 balls; its batter {100 * outs / balls:.1f} ({took}).")
    try:
        rated = card_defence(card) >= MAX_DEFENCE
    except CardSetError:  # a hand-edited rating the kit could not print: say nothing of it
        rated = False
    if rated:
        return (f"{figures} Its Defence {MAX_DEFENCE} saves every W read from the bowler's card, but "
                f"the fielding chart's catches and run-outs{die} dismiss a batter whatever his card "
                f"shows, so the card is out more often than he was.")
    return (f"{figures} Half of every ball is read from the bowler's card, and its W, the fielding "
            f"chart's catches and run-outs{die} dismiss a batter whatever his own card shows, so the "
            f"card is out more often than he was.")


# A striker card whose player batted mostly while his side consolidated (rules R12: a caught W
# is saved on the consolidate die) prints more W faces than his real rate looks to need: 10-18
# striker cards a shipped season have 25 or more (Sam Harper, BBL 2023-24, 23 balls: 45). Said
# on the player page so the card is not taken for a mistake.
CONSOLIDATE_NOTE_SHARE = 0.6
CONSOLIDATE_NOTE_W_FACES = 25


def consolidate_note(card: dict[str, Any], card_set: dict[str, Any]) -> str:
    """For a striker card of a wickets-in-hand set with many W faces whose real balls came mostly
    in the consolidate band: why, and the dismissal rate it plays to against the real one."""
    if card.get("kind") != "striker" or card_set.get("rule") != "wickets-in-hand":
        return ""
    share = (card.get("situations") or {}).get("consolidate") if isinstance(card.get("situations"), dict) else None
    safe = (card_set.get("rule_parameters") or {}).get("consolidate_d20_safe")
    try:
        w_faces = int(chart_to_slots(card.get("chart"))[CARD_INDEX["W"]])
    except CardSetError:
        return ""
    if not (isinstance(share, (int, float)) and share >= CONSOLIDATE_NOTE_SHARE
            and w_faces >= CONSOLIDATE_NOTE_W_FACES and isinstance(safe, list) and len(safe) == 2):
        return ""
    real = _block(card, "real")
    expected = _block(card, "expected").get("dismissal_rate")
    edge = (card_set.get("rule_parameters") or {}).get("consolidate_from_balls_per_wicket")
    when = f" ({edge:g} or more balls left for each wicket in hand)" if isinstance(edge, (int, float)) else ""
    note = (f"{round(100 * share)}% of the real balls came while the batting side was consolidating"
            f"{when}, where a catch is saved on a d20 of {safe[0]}-{safe[1]} (the wickets-in-hand "
            f"rule). So this card prints {w_faces} W faces")
    outs, balls = real.get("dismissals"), real.get("balls")
    if isinstance(expected, (int, float)) and _is_count(outs) and _is_count(balls) and balls > 0:
        small = "; a short stay, so the card is shrunk toward the league" if balls < qualify_balls() else ""
        note += (f": played that way it is out {100 * expected:.1f} times a 100 balls "
                 f"(real {100 * outs / balls:.1f}{small})")
    return note + "."


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _card_views(kit: KitSet) -> list[CardView]:
    from cardgen.render.card import defence_rating, printed_keeper_rating  # read as the card prints it (R13, R9)
    card_set = kit.card_set
    balls_per_over = 5 if card_set.get("format") == "100-ball" else 6
    teams = [t.get("name") for t in card_set.get("teams", []) if isinstance(t, dict) and t.get("name")]
    for card in card_set["cards"]:
        if card.get("team") not in teams:
            teams.append(card.get("team"))
    team_slugs = _unique_slugs(str(t) for t in teams)
    player_slugs = _unique_slugs(sorted({str(c["player"].get("id") or c["player"]["name"])
                                         for c in card_set["cards"]}))
    views: list[CardView] = []
    for index, card in enumerate(card_set["cards"]):
        player = card["player"]
        pid = str(player.get("id") or player["name"])
        kind = card["kind"]
        name = str(player.get("name", ""))
        team = str(card.get("team", ""))
        ratings: list[tuple[str, str]] = []
        ratings_note = ""
        defence = None
        if kind == "striker":
            for key, label in (("catch", "Catching C"), ("run_out", "Run-out RO")):
                if isinstance(player.get(key), int):
                    ratings.append((label, str(player[key])))
            keeper = printed_keeper_rating(player)  # as the card prints it (R9's 10 for one who kept in no match)
            if keeper:
                ratings.append(("Keeper", str(keeper)))
            try:
                defence = defence_rating(card)
            except CardSetError:  # a hand-edited set the kit could not print: leave it out, as a bad rating above
                defence = None
            if defence:
                ratings.append(("Defence", str(defence)))
        usage = card.get("usage")
        if isinstance(usage, dict) and usage.get("letter"):
            ratings.append(("Usage", f"{usage['letter']}/{usage.get('innings', '')}"))
            from cardgen.render.teamsheets import usage_legend
            # a band never breaks at its hyphen either ("B = 10-" at a line's end, "15" on the next)
            ratings_note = re.sub(r"(\d)-(\d)", "\\1\u2011\\2", usage_legend(hundred=balls_per_over != 6))
        chart = []
        for row in card.get("chart", []):
            lo, hi, code = row.get("lo"), row.get("hi"), str(row.get("result"))
            chart.append((f"{lo}" if lo == hi else f"{lo}–{hi}", "•" if code == "0" else code,
                          RESULT_LABEL.get(code, code)))
        real = dict(card["real"]) if isinstance(card.get("real"), dict) else {}
        if balls_per_over != 6:
            real.pop("overs", None)  # 100-ball: balls (shown), not 5-ball sets beside Econ per 6
        if real.pop("high_score_not_out", False) and isinstance(real.get("high_score"), int):
            real["high_score"] = f"{real['high_score']}*"  # not out, as scorecards print it
        real_rows = [(REAL_LABEL.get(k, ("Wickets" if kind == "bowler" else "Times out")
                                     if k == "dismissals" else _humanise(k)), _number(v))
                     for k, v in sorted(real.items(), key=lambda kv: (REAL_ORDER.index(kv[0]) if kv[0] in REAL_ORDER
                                                                 else len(REAL_ORDER), kv[0]))
                     if not isinstance(v, (dict, list))]
        if balls_per_over != 6:
            real_rows = [(label + PER_SIX_BALLS if label == REAL_LABEL["economy"] else label, value)
                         for label, value in real_rows]
        if isinstance(real.get("phase_balls"), dict):   # as the team sheet's PP / Mid / Death
            from cardgen.render.teamsheets import phase_shares
            from cardgen.stats.tables import PHASES
            try:
                shares = phase_shares(real)
            except (TypeError, ValueError):   # a hand-edited set: leave the row out
                shares = []
            if shares and all(shares):
                real_rows.append(("When bowled", " · ".join(f"{p} {s}" for p, s in zip(PHASES, shares))))
        expected = _block(card, "expected")
        versus: list[Versus] = []
        checks = kit.validation.card_checks.get((kind, pid, team), {})
        for key, exp in sorted(expected.items(), key=lambda kv: (
                EXPECTED_ORDER.index(kv[0]) if kv[0] in EXPECTED_ORDER else len(EXPECTED_ORDER), kv[0])):
            if not isinstance(exp, (int, float)) or isinstance(exp, bool):
                continue
            got = _real_rate(key, real)
            factor, places = _scale(key)

            def shown(value: float | None, factor: float = factor, places: int = places) -> str:
                return "—" if value is None else f"{value * factor:.{places}f}"

            sim, lo, hi = (_csv_float(checks.get(f"{part}_{key}")) for part in ("sim", "lo", "hi"))
            # a rate cannot be negative: the normal interval's lower end is clipped at 0
            interval = f"{shown(max(0.0, lo))} – {shown(hi)}" if lo is not None and hi is not None else "—"
            inside = {"True": "inside", "False": "outside"}.get(checks.get(f"ok_{key}", ""), "—")
            label = EXPECTED_LABEL.get(key, _humanise(key))
            if key == "economy" and balls_per_over != 6:
                label += PER_SIX_BALLS
            versus.append(Versus(label, shown(got), shown(float(exp)),
                                 shown(sim), interval, inside))
        verdict, verdict_ok = _verdict(checks, versus, card)
        png = kit.card_pngs.get(index)
        kind_label = KIND_LABEL[kind]
        views.append(CardView(
            index=index, player_id=pid, name=name, full_name=str(player.get("full_name") or name),
            team=team, team_slug=team_slugs[team], kind=kind, kind_label=kind_label,
            position=card.get("position") if isinstance(card.get("position"), int) else None,
            player_page=f"players/{player_slugs[pid]}.html",
            png=f"files/{png}" if png else None, thumb=None, thumb_size=None,
            alt=f"{kind_label} card: {name}, {team}", ratings=ratings, ratings_note=ratings_note, defence=defence,
            chart=chart,
            real=real_rows, versus=versus, checked=bool(checks), verdict=verdict, verdict_ok=verdict_ok,
            boundary_note=boundary_note(card, card_set.get("rule") == "wickets-in-hand"),
            consolidate_note=consolidate_note(card, card_set),
            wicket_note=wicket_note(card, card_set.get("rule") == "wickets-in-hand"),
            out_note=out_note(card, card_set.get("rule") == "wickets-in-hand"), card=card))
    _set_anchors(views)
    return views


def _attack_band_scoring(card: Any) -> float | None:
    """`report.attack_band_scoring` of a card the page reads as a dict (None: not a whole card)."""
    from cardgen.calibrate.report import attack_band_scoring
    from cardgen.cardset import Card
    try:
        return attack_band_scoring(card if isinstance(card, Card) else Card.from_json(card))
    except (CardgenError, AttributeError, TypeError):
        return None


def _verdict(checks: dict[str, str], versus: list[Versus],
             card: dict[str, Any] | None = None) -> tuple[str, bool | None]:
    """The simulator's verdict on one card in a sentence (empty when it did not check the card)."""
    if not checks:
        return "", None
    balls = checks.get("real_balls", "")
    if checks.get("qualified") == "False":
        return (f"Not judged: {balls or 'too few'} real balls this season, and a card is only judged "
                f"(qualified) from {qualify_balls()} real balls up."), None
    missed = [v.label for v in versus if v.verdict == "outside"]
    if checks.get("ok") == "True" or (checks.get("ok") is None and not missed):
        return ("Plays like the real season: every real figure lies inside the range this card gives "
                "95% of the time over the same number of balls."), True
    attack = _attack_band_scoring(card) if card else None
    in_attack = (f"{100 * attack:.0f}% of the real balls were in the attack band, where the "
                 "wickets-in-hand rule rolls a d20 on a dot off either card, whoever bowled it, "
                 "and some of its faces are fours and sixes") if attack is not None else ""
    if checks.get("at_limit") == "True":
        why = in_attack or "the league-average opponent's half of each ball alone gives more"
        return ("At the game's limit on: " + ", ".join(missed or ["the overall check"]) + ". No printed "
                f"card could reach the real figure: {why}. The set's check leaves this card out."), None
    text = "Plays differently from the real season on: " + ", ".join(missed or ["the overall check"]) + "."
    if in_attack and {label.removesuffix(PER_SIX_BALLS) for label in missed} & SCORING_LABELS:
        text += f" Why: {in_attack}."
    return text, False


def qualify_balls() -> int:
    """The real balls a card needs before the simulator judges it (the validator's own threshold)."""
    from cardgen.sim.validate import QUALIFY_BALLS
    return int(QUALIFY_BALLS)


def _set_anchors(views: list[CardView]) -> None:
    """Each card's id on its player page: "striker" / "bowler", with the team if a player has two."""
    by_page: dict[str, list[CardView]] = {}
    for view in views:
        by_page.setdefault(view.player_page, []).append(view)
    for cards in by_page.values():
        teams = {v.team for v in cards}
        for view in cards:
            view.anchor = view.kind if len(teams) == 1 else f"{view.kind}-{view.team_slug}"
            view.link = view.player_page


def _set_links(views: list[CardView]) -> None:
    """Link each thumbnail to its own card: the page's first card at the top, the others at their section."""
    seen: set[str] = set()
    for view in views:  # in the order the player page lists them
        view.link = view.player_page if view.player_page not in seen else f"{view.player_page}#{view.anchor}"
        seen.add(view.player_page)


def _team_order(kit: KitSet, views: list[CardView]) -> list[tuple[str, str]]:
    order: list[tuple[str, str]] = []
    for view in views:
        if (view.team, view.team_slug) not in order:
            order.append((view.team, view.team_slug))
    declared = [t.get("name") for t in kit.card_set.get("teams", []) if isinstance(t, dict)]
    return sorted(order, key=lambda t: declared.index(t[0]) if t[0] in declared else len(declared))


def _sorted_cards(views: list[CardView], teams: list[tuple[str, str]], card_set: dict[str, Any]) -> list[CardView]:
    """By team, then as the printed card sheets stack into the decks (render.card.card_views): the
    usual XI in batting order, then the reserves, a player's striker card before his bowler card;
    a card whose player is in neither deck follows, by batting position."""
    from cardgen.render.card import deck_order
    decks = deck_order(card_set)
    team_rank = {name: i for i, (name, _) in enumerate(teams)}
    return sorted(views, key=lambda v: (team_rank[v.team], decks.get((v.team, v.player_id), (2, 0)),
                                        v.position if v.position is not None else 99,
                                        v.kind != "striker", v.name, v.index))


def _link_or_copy(src: Path, dst: Path) -> None:
    """Hard-link a kit file into the site (no extra disk), or copy it when a link cannot serve.

    A file only its owner may read (a temp-file default) is copied, so the site can be made
    world-readable for a static host without changing the output folder.
    """
    dst.parent.mkdir(parents=True, exist_ok=True)
    if src.stat().st_mode & stat.S_IROTH:
        try:
            os.link(src, dst)
            return
        except OSError:  # another file system, or links not allowed: copy the bytes
            pass
    shutil.copyfile(src, dst)


def _publish_permissions(root: Path) -> None:
    """Folders 755, own files 644: a web server running as another user can read the site."""
    root.chmod(0o755)
    for path in root.rglob("*"):
        if path.is_dir():
            path.chmod(0o755)
        elif path.stat().st_nlink == 1:  # hard links stay as the output folder has them
            path.chmod(0o644)


def _write_zip(files: list[Path], base: Path, top: str, dst: Path) -> None:
    """Files under `base` as one zip in folder `top/`, sorted, with a fixed timestamp (byte-identical)."""
    _write_named_zip([(f"{top}/{path.relative_to(base).as_posix()}", path) for path in sorted(files)], dst)


def _write_named_zip(entries: list[tuple[str, Path]], dst: Path) -> None:
    """(name in the zip, file) pairs as one zip, in that order, with a fixed timestamp."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, path in entries:
            info = zipfile.ZipInfo(name, ZIP_EPOCH)
            info.external_attr = 0o644 << 16
            info.compress_type = (zipfile.ZIP_STORED if path.suffix.lower() in STORED_SUFFIXES
                                  else zipfile.ZIP_DEFLATED)
            zf.writestr(info, path.read_bytes())
    atomic_write_bytes(dst, buffer.getvalue())


PREVIEW_DPI = 60  # readable plot titles, small files
PREVIEW_PAGES = 4
KIT_PREVIEW_WIDTH = 300  # px: a page preview beside its download link


def _save_png(image: Image.Image, dst: Path, colours: int = 128) -> None:
    data = io.BytesIO()
    image.quantize(colours, dither=Image.Dither.NONE).save(data, format="PNG", compress_level=6)
    atomic_write_bytes(dst, data.getvalue())


def _pdf_previews(pdf: Path, out_dir: Path, stem: str) -> list[Path]:
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


def _first_page_preview(pdf: Path, dst: Path) -> tuple[int, int] | None:
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


def _write_thumb(src: Path, dst: Path) -> tuple[int, int]:
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


class _Writer:
    """Writes pages into the site being built and counts them."""

    def __init__(self, root: Path, env: jinja2.Environment) -> None:
        self.root, self.env, self.pages = root, env, 0
        self.problems: list[str] = []  # what was left out, for the report

    def page(self, relpath: str, template: str, root: str | None = None, **context: Any) -> None:
        depth = relpath.count("/")
        html = self.env.get_template(template).render(root="../" * depth if root is None else root,
                                                      page_path=relpath,
                                                      attribution=ATTRIBUTION, **context)
        atomic_write_bytes(self.root / relpath, html.encode("utf-8"))
        self.pages += 1


def _filter_pages(teams: list[tuple[str, str]]) -> list[tuple[str | None, str | None, str]]:
    """Every (team slug, kind, file name) combination, each one a static page (works without JS)."""
    pages: list[tuple[str | None, str | None, str]] = [(None, None, "index.html")]
    pages += [(None, kind, f"{kind}s.html") for kind in ("striker", "bowler")]
    for _, team_slug in teams:
        pages.append((team_slug, None, f"team-{team_slug}.html"))
        pages += [(team_slug, kind, f"team-{team_slug}-{kind}s.html") for kind in ("striker", "bowler")]
    return pages


def filter_page_name(team_slug: str | None, kind: str | None) -> str:
    if team_slug is None:
        return "index.html" if kind is None else f"{kind}s.html"
    return f"team-{team_slug}.html" if kind is None else f"team-{team_slug}-{kind}s.html"


def _set_summary(kit: KitSet, views: list[CardView], teams: list[tuple[str, str]]) -> dict[str, Any]:
    raw = kit.card_set.get("competition")
    raw = raw if isinstance(raw, dict) else {}
    comp = {"code": str(raw.get("code", "")), "name": str(raw.get("name") or raw.get("code") or kit.name),
            "nation": str(raw.get("nation") or "")}
    return {
        "name": kit.name, "title": kit.title, "competition": comp,
        "season": kit.season, "season_key": str(kit.card_set.get("season", "")), "format": kit.card_set.get("format", ""),
        "teams": teams, "cards": len(views),
        "strikers": sum(v.kind == "striker" for v in views),
        "bowlers": sum(v.kind == "bowler" for v in views),
        "build_date": kit.build_date,
        "credit": kit.card_set.get("attribution") or ATTRIBUTION,
        "generator": kit.card_set.get("generator", ""),
        "downloads": kit.downloads, "tts": kit.tts_sheets, "other": kit.other_files,
        "tts_readme": kit.tts_readme, "tts_decks": kit.tts_decks,
        "zip": f"{kit.name}-kit.zip", "validation": kit.validation,
        "qualify_balls": qualify_balls() if kit.validation.present else None,
        "pages": dict(kit.page_counts),
        "rule": _rule_of(kit.card_set),
        "play": _match_page(kit),
        **_rules_summary(kit.card_set),
    }


def _rules_summary(card_set: dict[str, Any]) -> dict[str, Any]:
    """Which rule set the kit is made for (`cardgen.rule_sets`), for the pages that show two kits
    of a season side by side: its name, its words, and the medians of its cards' errors on strike
    rate and economy (the qualified cards, calibrate.report.summary), the figure the "which should
    I print?" paragraph quotes."""
    from cardgen.calibrate.report import summary
    from cardgen.errors import CardgenError
    from cardgen.rule_sets import ADVANCED, QUICKET, TITLES, rules_of_set
    # what the set adds, beside its title
    in_short = {QUICKET: "the game as printed, nothing added",
                ADVANCED: "the printed rules plus wickets in hand and Defence"}
    try:
        rules = rules_of_set(card_set)
    except CardgenError:
        return {"rules": None, "rules_title": "", "rules_words": "", "card_median": None}
    try:
        figures = summary(card_set)
        medians = [figures[kind]["median_main_error"] for kind in ("striker", "bowler")]
        median = max(m for m in medians if m is not None) if any(m is not None for m in medians) else None
    except (KeyError, TypeError, ValueError, ZeroDivisionError):   # a hand-made set: no figure to quote
        median = None
    return {"rules": rules, "rules_title": TITLES[rules], "rules_words": in_short[rules],
            "card_median": median}


def season_groups(sets: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The kits in page order, those of one season together: a season built both ways (the
    Quicket rules kit and the advanced kit) is one group of two, shown side by side."""
    groups: list[list[dict[str, Any]]] = []
    for kit in sets:
        key = (kit["competition"]["code"], kit["season_key"])
        if groups and (groups[-1][0]["competition"]["code"], groups[-1][0]["season_key"]) == key \
                and kit.get("rules") and all(k.get("rules") not in (None, kit["rules"]) for k in groups[-1]):
            groups[-1].append(kit)
        else:
            groups.append([kit])
    for group in groups:   # the Quicket rules kit first, as `cardgen build` makes it by default
        group.sort(key=lambda k: k.get("rules") != "quicket")
    return groups


def _match_page(kit: KitSet) -> str:
    """The kit's match page (play.html, cardgen.play), as the set's files hold it; "" if none."""
    from cardgen.play.page import PAGE
    return f"files/{PAGE}" if (kit.folder / PAGE).is_file() else ""


def _rule_of(card_set: dict[str, Any]) -> Any:
    """The wickets-in-hand rule this set was made for, with its own attack faces (None: a set
    made for the rules as printed, or one whose rule cannot be read: the page then shows the
    standard faces)."""
    from cardgen.errors import CardgenError
    from cardgen.wickets_in_hand import rule_of_set
    try:
        return rule_of_set(card_set)
    except CardgenError:
        return None


def _team_info(kit: KitSet, views: list[CardView], teams: list[tuple[str, str]]) -> dict[str, dict[str, Any]]:
    """Per team slug: its name, counts, own downloads (with page counts) and pages in the whole-set PDFs."""
    labels = dict(KIT_DOWNLOADS)
    info: dict[str, dict[str, Any]] = {}
    for name, tslug in teams:
        own = kit.teams.get(name)
        team_views = [v for v in views if v.team_slug == tslug]
        ranges = []
        if own is not None:
            for pdf, (first, last) in own.pages.items():
                label = labels.get(pdf, pdf).replace("Player cards", "whole-set cards")
                ranges.append((pdf, label, first, last))
        info[tslug] = {
            "name": name, "slug": tslug, "page": filter_page_name(tslug, None),
            "cards": len(team_views), "strikers": sum(v.kind == "striker" for v in team_views),
            "bowlers": sum(v.kind == "bowler" for v in team_views),
            "downloads": own.downloads if own else [], "pages": own.page_counts if own else {},
            "ranges": ranges, "tts": _team_tts(kit, name), "zip": None, "zip_size": 0,
        }
    return info


def _team_tts(kit: KitSet, team: str) -> list[Any]:
    """A team's own Tabletop Simulator sheets (faces, then its back): as the kit's decks.json
    says, else by the sheets' names (tts/<team>-1.png, tts/<team>-back.png)."""
    from cardgen.render.images import slug as image_slug
    by_rel = {d.relpath: d for d in kit.tts_sheets}
    if kit.tts_decks is not None and kit.tts_decks.teams:
        return [by_rel[rel] for rel in kit.tts_decks.sheets_of(team) if rel in by_rel]
    prefix = f"{TTS_FOLDER}/{image_slug(team)}-"
    return [d for d in kit.tts_sheets if d.relpath.startswith(prefix)
            and re.fullmatch(r"\d+|back", d.relpath[len(prefix):-len(".png")])]


def _sheet_counts(kit: KitSet, info: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Sheets of card for the whole set and for one team, per paper, from the kit's own PDFs: a
    kit with backs has a back page after each sheet, so two pages are one sheet printed two-sided."""
    counts: dict[str, Any] = {}
    for paper in ("a4", "letter"):
        whole = kit.page_counts.get(f"cards-{paper}.pdf")
        printing = kit.card_sheets.get(f"cards-{paper}.pdf")
        sides = 2 if printing is not None and printing.backs else 1
        # a team printed alone: its own PDF's pages (the whole set packs teams onto shared sheets),
        # built with the same options as the whole set's
        per_team = [n // sides for t in info.values() for rel, n in t["pages"].items()
                    if rel.endswith(f"/cards-{paper}.pdf")]
        if whole:
            counts[paper] = {"whole": whole // sides, "team_min": min(per_team) if per_team else None,
                             "team_max": max(per_team) if per_team else None,
                             "backs": sides == 2, "flip": printing.flip if printing else "long",
                             "landscape": bool(printing and printing.landscape)}
    return counts


def _components(kit: KitSet, sheets: dict[str, Any]) -> list[tuple[str, str]]:
    """What a visitor needs to play this set, with the sheet counts of the real kit."""
    rows: list[tuple[str, str]] = []
    from cardgen.render.common import PAPER_LABELS
    for paper, label in PAPER_LABELS.items():
        count = sheets.get(paper)
        if not count:
            continue
        text = f"{count['whole']} sheet{'' if count['whole'] == 1 else 's'} of {label} card for every team's cards"
        if count["team_min"]:
            span = (str(count["team_min"]) if count["team_min"] == count["team_max"]
                    else f"{count['team_min']}–{count['team_max']}")
            text += f"; one team is {span} sheet{'' if span == '1' else 's'}"
        if count["backs"]:
            text += f"; printed on both sides (flip on {count['flip']} edge)"
        rows.append((f"Card stock ({label})", text + "."))
    paper = []
    for relpath, label in (("fielding-chart.pdf", "fielding chart"), ("quick-reference.pdf", "quick reference"),
                           ("team-sheets.pdf", "team sheets"), ("season-tracker.pdf", "season tracker")):
        if relpath in kit.page_counts:
            n = kit.page_counts[relpath]
            paper.append(f"{label} {n} page{'' if n == 1 else 's'}")
    if "scoresheet.pdf" in kit.page_counts:
        paper.append("a scoresheet for each match")
    if paper:
        rows.append(("Plain paper", ", ".join(paper).capitalize() + "."))
    rows.append(("Dice", "One d6 (which card to read), 2d10 (two ten-sided dice, tens and units, read as 1–100) "
                         "and one d20 (fielding chart and catch, run-out and stumping chances)."))
    rows.append(("Also", "Scissors, or a craft knife and a steel ruler; a pencil for the scoresheet."))
    return rows


HOW_TO_PLAY = "how-to-play.html"
FIRST_MATCH = "first-match.html"
RULES_SOURCE = "http://shortseasongames.com"
CHANCE_ORDER = ("catch_chance", "run_out_chance", "stumping_chance", "leg_bye", "wide")


def _scoresheet_shape() -> dict[str, int]:
    """What the printed scoresheet is, for the pages that describe it: grids an innings page and
    balls a grid, per format, and the scorecard's bowling rows (from the renderer and its layout,
    so the words cannot drift from the sheet)."""
    from cardgen.render.layout import load_layout
    from cardgen.render.scoresheet import GRIDS_PER_INNINGS, OVERS_PER_GRID
    return {"grids": GRIDS_PER_INNINGS, "t20_balls": OVERS_PER_GRID * 6, "hundred_balls": OVERS_PER_GRID * 5,
            "scorecard_bowlers": load_layout("sheets")["scorecard"]["bowling_rows"]}


def _default_rule() -> Any:
    """The extra rule of the advanced rules, `cardgen build --rules advanced` (docs/rules.md R12)."""
    from cardgen.wickets_in_hand import RULE_NAME, rule_named
    return rule_named(RULE_NAME)


def _fielding_words() -> dict[str, Any]:
    from cardgen.render.layout import load_layout
    return load_layout("fielding")


def _dice_2d10(roll: int) -> str:
    """How a 1-100 roll looks on the two d10s: tens die and units die (0 and 0 is 100)."""
    return f"tens {roll // 10 % 10}, units {roll % 10}"


def _example_ball(kit: KitSet, views: list[CardView], info: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """One ball of this set, walked through: a real striker's F result read on the set's fielding chart."""
    cells = _chart_cells(kit)
    if not (isinstance(cells, list) and len(cells) == 6 and all(isinstance(r, list) and len(r) == 20 for r in cells)):
        return None
    strikers = [v for v in views if v.kind == "striker" and v.thumb and any(code == "F" for _, code, _ in v.chart)]
    if not strikers:
        return None
    striker = strikers[0]
    # the bowler: the other side's first-choice bowler (team sheet order), else its busiest bowler card
    declared = {t.get("name"): t for t in kit.card_set.get("teams", []) if isinstance(t, dict)}
    bowlers = [v for v in views if v.kind == "bowler" and v.thumb and v.team != striker.team]
    if not bowlers:
        return None
    other = bowlers[0].team
    first_choice = [str(i) for i in declared.get(other, {}).get("bowlers", [])]
    team_bowlers = [v for v in bowlers if v.team == other]
    bowler = min(team_bowlers, key=lambda v: (first_choice.index(v.player_id) if v.player_id in first_choice
                                              else len(first_choice), -(v.card.get("real") or {}).get("balls", 0)))
    f_row = next(row for row in striker.card.get("chart", []) if str(row.get("result")) == "F")
    roll = int(f_row["lo"])
    d6_card = 5  # 4-6: the striker's card
    where = next(((kind, r, c) for kind in CHANCE_ORDER for r, row in enumerate(cells)
                  for c, cell in enumerate(row) if cell == kind), None)
    if where is None:
        return None
    kind, row, col = where
    words = _fielding_words()
    xi = [str(i) for i in declared.get(bowler.team, {}).get("batting_order", [])]
    fielders = [v for v in views if v.team == bowler.team and v.kind == "striker"
                and isinstance(v.card["player"].get("catch"), int) and (not xi or v.player_id in xi)]
    # a middling catcher, so the d20 roll can go either way
    fielder = min(fielders, key=lambda v: (abs(v.card["player"]["catch"] - 10), v.name)) if fielders else None
    catch = fielder.card["player"]["catch"] if fielder else None
    d20_chance = max(1, catch - 2) if isinstance(catch, int) else None
    return {
        "striker": striker, "bowler": bowler, "fielder": fielder, "catch": catch,
        "d6_card": d6_card, "roll": roll, "roll_dice": _dice_2d10(roll), "f_range": f"{f_row['lo']}" if f_row["lo"] == f_row["hi"] else f"{f_row['lo']}–{f_row['hi']}",
        "chart_d6": row + 1, "chart_d20": col + 1, "result": kind,
        "result_short": words["results"].get(kind, {}).get("short", kind),
        "result_legend": words["results"].get(kind, {}).get("legend", ""),
        "d20_chance": d20_chance,
        "bowling_team_page": info.get(bowler.team_slug, {}).get("page", "index.html"),
    }


def _chart_cells(kit: KitSet) -> list[list[str]] | None:
    """The set's fielding chart as the game plays it (fours included), or None if it has none."""
    try:
        return chart_cells(kit.card_set)
    except CardSetError:
        return None


def _fielding_table(kit: KitSet) -> list[list[str]]:
    cells = _chart_cells(kit)
    if not isinstance(cells, list):
        return []
    words = _fielding_words()["results"]
    return [[str(words.get(str(cell), {}).get("short", cell)) for cell in row] for row in cells]


PLAYER_INDEX = "players.html"  # every player of a set, A to Z: the search box's target


def _surname_key(name: str) -> tuple[str, str]:
    parts = name.split()
    return ((parts[-1] if parts else name).casefold(), name.casefold())


def _search_example(views: list[CardView]) -> str:
    """The search box's hint names a player of this set (its first card's surname): a fixed
    "e.g. Short" (BBL's Matt Short) matched nobody in IPL 2025 or the Hundred."""
    for view in views:
        surname = view.name.split()[-1] if view.name.split() else ""
        if re.fullmatch(r"[^\W\d_][\w'-]*", surname):
            return surname
    return ""


def _player_index(views: list[CardView]) -> list[dict[str, Any]]:
    """One entry per player page, sorted by surname: name, teams, card kinds and words to search."""
    by_page: dict[str, list[CardView]] = {}
    for view in views:
        by_page.setdefault(view.player_page, []).append(view)
    players = []
    for page, cards in by_page.items():
        first = cards[0]
        teams = list(dict.fromkeys(c.team for c in cards))
        kinds = " and ".join(dict.fromkeys(c.kind_label.lower() for c in cards))
        players.append({"name": first.name, "full_name": first.full_name, "page": page,
                        "teams": teams, "kinds": kinds,
                        "search": " ".join([first.name, first.full_name, *teams]).casefold()})
    return sorted(players, key=lambda p: _surname_key(p["name"]))


_PAPER_SUFFIX = re.compile(r"\s*\((A4|US Letter)\)$")


def _paper_of(size: tuple[int, int]) -> str | None:
    """A4 or US Letter from a page's shape (portrait or landscape), else None."""
    from cardgen.render.common import PAPER_LABELS, page_size_mm
    ratio = max(size) / min(size)
    for paper, label in PAPER_LABELS.items():
        if abs(ratio - max(page_size_mm(paper)) / min(page_size_mm(paper))) < 0.02:
            return label
    return None


def _kit_previews(kit: KitSet, set_root: Path) -> list[dict[str, Any]]:
    """One picture per document of the kit (pypdfium2, its first page), with a download link per
    paper it comes in ("Fielding chart: A4, 1 page · US Letter, 1 page"): the A4 and Letter
    copies of a sheet look alike, and ten thumbnails of five sheets only made the choice harder."""
    found: dict[str, dict[str, Any]] = {}
    for download in kit.downloads:
        if not download.relpath.endswith(".pdf"):
            continue
        stem = Path(download.relpath).stem
        document = re.sub(r"-(a4|letter)$", "", stem)
        rel = f"previews/kit-{slug(stem)}.png"
        size = _first_page_preview(kit.folder / download.relpath, set_root / rel)
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


def _render_set(writer: _Writer, kit: KitSet, site_root: Path) -> dict[str, Any]:
    set_rel = f"sets/{kit.name}"
    set_root = site_root / set_rel
    for path in kit.all_files():
        _link_or_copy(path, set_root / "files" / path.relative_to(kit.folder))
    zip_name = f"{kit.name}-kit.zip"
    _write_zip(kit.all_files(), kit.folder, kit.name, set_root / zip_name)
    zip_size = (set_root / zip_name).stat().st_size

    views = _card_views(kit)
    teams = _team_order(kit, views)
    views = _sorted_cards(views, teams, kit.card_set)
    _set_links(views)
    for view in views:
        if view.png:
            thumb = f"thumbs/{Path(view.png).stem}.png"
            try:
                view.thumb_size = _write_thumb(set_root / view.png, set_root / thumb)
            except OSError as exc:  # an unreadable PNG: the card is shown as text, the rest goes on
                reason = "not an image" if isinstance(exc, UnidentifiedImageError) else exc.strerror or str(exc)
                writer.problems.append(f"{kit.name}: cannot read {view.png[len('files/'):]} ({reason})")
                view.png = None
                continue
            view.thumb = thumb
    summary = _set_summary(kit, views, teams)
    summary["zip_size"] = zip_size
    # the home page shows a few cards of the set: the first team's first striker and bowler cards
    summary["preview"] = [v for v in views if v.thumb][:4]
    summary["search_example"] = _search_example(views)
    # the judged cards that played differently from their season, by name (the headline gave
    # only a count: "116 of 117 ... play like the real season")
    summary["outside"] = [v for v in views if v.verdict_ok is False]
    previews = []
    for pdf in kit.validation.pdfs:
        pages = _pdf_previews(kit.folder / pdf, set_root / "previews", slug(Path(pdf).stem))
        if pages:
            try:
                total = len(PdfReader(str(kit.folder / pdf)).pages)
            except (PdfReadError, OSError, ValueError):  # the page count is only a caption
                total = len(pages)
            previews.append((pdf, [(p.relative_to(set_root).as_posix(), n, total)
                                   for n, p in enumerate(pages, 1)]))

    info = _team_info(kit, views, teams)
    summary["team_info"] = info
    # every file offered for download, again under a name of its own (hard links: same bytes)
    offered = [d.relpath for d in [*kit.downloads, *kit.tts_sheets, *kit.other_files, *kit.validation.files]]
    offered += [d.relpath for t in info.values() for d in t["downloads"]]
    offered += [kit.tts_readme.relpath] if kit.tts_readme else []
    # a page and its scripts (the match page, play/) only work beside each other: linked in files/
    named = _download_names(kit.name, [rel for rel in offered if Path(rel).suffix not in PAGE_SUFFIXES])
    for rel, name in named.items():
        _link_or_copy(kit.folder / rel, set_root / DOWNLOADS / name)
    summary["named"] = named
    for team in info.values():   # one zip of a team's own files: its cards, team sheet, TTS sheets
        own = [d.relpath for d in [*team["downloads"], *team["tts"]]]
        if not own:
            continue
        team["zip"] = f"{slug(kit.name)}-{team['slug']}.zip"
        _write_named_zip([(f"{team['zip'][:-4]}/{named[rel]}", kit.folder / rel) for rel in own],
                         set_root / DOWNLOADS / team["zip"])
        team["zip_size"] = (set_root / DOWNLOADS / team["zip"]).stat().st_size
    summary["sheets"] = _sheet_counts(kit, info)
    summary["components"] = _components(kit, summary["sheets"])
    summary["kit_previews"] = _kit_previews(kit, set_root)
    summary["kit_preview_of"] = {link["href"]: pv for pv in summary["kit_previews"] for link in pv["links"]}
    summary["example"] = _example_ball(kit, views, info)
    summary["fielding_table"] = _fielding_table(kit)
    summary["defence"] = [v for v in views if v.defence]  # the rated striker cards (R13), in card order
    summary["defence_highest"] = highest_defence(views)
    summary["players"] = _player_index(views)   # the catalogue's search (catalogue.search_index)

    # two teams side by side (compare.py): a page per pair, and compare.html to pick one
    pairs = [{"a": a, "b": b, "a_name": an, "b_name": bn, "page": pair_page(a, b)}
             for i, (an, a) in enumerate(teams) for bn, b in teams[i + 1:]]
    summary["compare"] = COMPARE_PAGE if pairs else ""
    for tslug, team in info.items():
        team["pairs"] = [(p["b_name"] if p["a"] == tslug else p["a_name"], p["page"])
                         for p in pairs if tslug in (p["a"], p["b"])]
    rows = card_rows(views)
    for pair in pairs:
        writer.page(f"{set_rel}/{pair['page']}", "compare-pair.html.j2", kit=summary,
                    pair=pair_context(kit.folder, kit.card_set, rows, (pair["a_name"], pair["a"]),
                                      (pair["b_name"], pair["b"])))
    if pairs:
        writer.page(f"{set_rel}/{COMPARE_PAGE}", "compare.html.j2", kit=summary, pairs=pairs, rows=rows,
                    columns=RATING_COLUMNS)
    for team_slug, kind, filename in _filter_pages(teams):
        shown = [v for v in views if (team_slug is None or v.team_slug == team_slug)
                 and (kind is None or v.kind == kind)]
        groups = [(name, tslug, [v for v in shown if v.team_slug == tslug]) for name, tslug in teams]
        groups = [g for g in groups if g[2]]
        writer.page(f"{set_rel}/{filename}", "set.html.j2", kit=summary, groups=groups, previews=previews,
                    share=_share_of(kit, set_rel, [v for g in groups for v in g[2]],
                                    info.get(team_slug) if team_slug else None, kind),
                    current_team=team_slug, current_kind=kind, shown=len(shown),
                    filter_page=filter_page_name, kind_plural=KIND_PLURAL,
                    team_names=dict((s, n) for n, s in teams), team=info.get(team_slug) if team_slug else None)
    writer.page(f"{set_rel}/{PLAYER_INDEX}", "players.html.j2", kit=summary, players=_player_index(views))
    by_page: dict[str, list[CardView]] = {}
    for view in views:
        by_page.setdefault(view.player_page, []).append(view)
    for page, cards in sorted(by_page.items()):
        writer.page(f"{set_rel}/{page}", "player.html.j2", kit=summary, cards=cards, player=cards[0],
                    share=_share_of(kit, set_rel, cards, None, None, player=cards[0]),
                    bats_with=_stand_in_strikers(kit, cards, views))
    return summary


def _share_of(kit: KitSet, set_rel: str, views: list[CardView], team: dict[str, Any] | None,
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
        teams = len({v.team for v in views})
        title = kit.title + (f" · {KIND_PLURAL[kind]}" if kind else "")
        description = (f"{kit.title}: {len(views)} print-and-play Quicket Cricket cards of {teams} "
                       "teams, made from the real season's ball-by-ball data, with sheets to print.")
    return {"title": title, "description": description,
            "image": f"{set_rel}/{pictured.thumb}" if pictured and pictured.thumb else "",
            "image_alt": pictured.alt if pictured else ""}


def _stand_in_strikers(kit: KitSet, cards: list[CardView], views: list[CardView]) -> list[CardView]:
    """For each team a player has a bowler card but no striker card for: the striker card he bats
    with, as the team sheet names it (render.teamsheets.stand_in_card, docs/rules.md R9)."""
    from cardgen.render.teamsheets import stand_in_card
    strikers = {(v.team, v.player_id): v for v in views if v.kind == "striker"}
    found = []
    for team in dict.fromkeys(c.team for c in cards):
        if (team, cards[0].player_id) in strikers:
            continue
        card = stand_in_card(kit.card_set, team)
        if card is not None:
            view = strikers.get((team, str(card["player"].get("id") or card["player"]["name"])))
            if view is not None:
                found.append(view)
    return found


def _render_game(writer: _Writer, kit: GameKit, site_root: Path) -> dict[str, Any]:
    """A page for another game system's kit: its PDFs, page previews and a zip."""
    rel = f"games/{kit.relname}"
    root = site_root / rel
    for path in kit.files:
        _link_or_copy(path, root / "files" / path.relative_to(kit.folder))
    zip_name = f"{slug(kit.relname)}-kit.zip"
    _write_zip(kit.files, kit.folder, slug(kit.relname), root / zip_name)
    pdfs = {Path(d.relpath).stem: d.relpath for d in kit.downloads}
    previews = []
    for png, label in kit.previews:
        stem = Path(png).stem
        target = pdfs.get(stem.removesuffix("-page1"), png)  # "cards-a4-page1.png" shows "cards-a4.pdf"
        previews.append({"src": f"files/{png}", "label": label, "href": f"files/{target}"})
    summary = {"path": f"{rel}/index.html", "title": kit.title, "name": kit.name,
               "competition": kit.competition, "season": kit.printed_season, "credit": kit.attribution,
               "downloads": kit.downloads, "previews": previews,
               "zip": zip_name, "zip_size": (root / zip_name).stat().st_size}
    writer.page(f"{rel}/index.html", "game.html.j2", game=summary)
    return summary


def _assets(root: Path) -> None:
    for name in ("site.css", "search.js", "catalogue-search.js", "compare.js", "favicon.svg"):
        atomic_write_bytes(root / "assets" / name, (TEMPLATE_DIR / name).read_bytes())


def _swap_in(built: Path, site_dir: Path) -> list[str]:
    """Replace `site_dir` by `built` with renames, so readers see the old or the new site; returns
    the files of the old site kept because cardgen did not write them (a CNAME, a user's page).

    `_check_site_dir` refused any folder that is not a generated site; of a generated one, the
    files its manifest lists are cardgen's."""
    old = read_manifest(site_dir, "site")
    return publish_folder(built, site_dir, lambda rel: old is not None and old.owns(rel))


NOT_FOUND_PAGE = "404.html"  # `cardgen serve` and most static hosts show it for a missing address


def _check_site_dir(site_dir: Path, set_folders: list[Path]) -> None:
    """Refuse a site folder whose replacement would delete something that is not a site."""
    site = site_dir.resolve()
    for folder in set_folders:
        if folder.resolve() in site.parents or folder.resolve() == site:
            raise SiteError(f"the site folder {site_dir} is inside the set {folder.name}; "
                            "choose another --site-dir")
        if site in folder.resolve().parents:
            raise SiteError(f"the set {folder.name} is inside the site folder {site_dir}, which is "
                            "replaced as a whole; choose another --site-dir")
    if site_dir.is_dir() and any(site_dir.iterdir()) and read_manifest(site_dir, "site") is None:
        raise SiteError(f"{site_dir} exists and is not a cardgen site; choose an empty or new --site-dir")
    if site_dir.exists() and not site_dir.is_dir():
        raise SiteError(f"{site_dir} is a file, not a folder")


def site_root(base_url: str) -> str:
    """The address the site is served from, as the 404 page's links start: '/' at a domain's
    root, '/cardgen/' for a project site (user.github.io/cardgen/), or a whole URL."""
    url = base_url.strip()
    if "://" not in url and not url.startswith("/"):
        url = "/" + url
    return url if url.endswith("/") else url + "/"


@dataclass(frozen=True)
class SiteOptions:
    """How `generate` renders a site, beside the kits it is given."""
    base_url: str = "/"  # where the site is served from (`site_root`): the 404 page's links
    games_from: Path | None = None  # an output folder whose other-game kits are listed too
    team_kits: tuple[str, ...] = ()  # one-team kits found beside the sets (named, not listed)
    full: bool = False  # render every set page again, even of a kit that has not changed


def generate_site(out_dir: Path, site_dir: Path | None = None, base_url: str = "/") -> SiteReport:
    """Render the site for every set built under `out_dir` into `site_dir` (default OUT/site).

    A set whose card-set.json cannot be read is skipped and named in the report; the other sets
    are still published. `base_url` is where the site will be served from (`site_root`): only
    the 404 page needs it, every other page links relatively.
    """
    out_dir = Path(out_dir)
    site_dir = Path(site_dir) if site_dir is not None else default_site_dir(out_dir)
    folders = find_sets(out_dir, skip=site_dir)
    site, out = site_dir.resolve(), out_dir.resolve()
    if site == out or site in out.parents:
        raise SiteError(f"the site folder {site_dir} would replace the output folder {out_dir}; "
                        "choose another --site-dir")
    return generate(folders, site_dir, SiteOptions(base_url=base_url, games_from=out_dir,
                                                   team_kits=tuple(find_team_kits(out_dir))))


def generate(kit_dirs: Iterable[Path], site_dir: Path, options: SiteOptions = SiteOptions()) -> SiteReport:
    """Render one site for the season kits in `kit_dirs` (each a `<CODE>_<season>` folder as
    `cardgen build` writes it) into `site_dir`: the home page by competition, a page per
    competition, each set's pages and the search over every player (what `build --all` calls).

    Incremental: a set whose kit has the fingerprint (`manifest.kit_fingerprint`) its pages in
    the old site were rendered from, by the same site code, is carried over as it is (hard
    links); only the others, and the pages above the sets, are rendered. The new site is built
    beside the old one and swapped in, so a reader never sees half of it.
    """
    from cardgen.manifest import kit_fingerprint
    from cardgen.site import catalogue
    site_dir = Path(site_dir)
    folders = [Path(f) for f in kit_dirs]
    env = _environment()
    # Open Graph images must be whole addresses: known only when the site's is (--base-url)
    env.globals["site_url"] = site_root(options.base_url) if "://" in options.base_url else ""
    _check_site_dir(site_dir, folders)
    site_dir.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_staging(site_dir.parent)  # what a killed run left behind
    old = read_manifest(site_dir, "site") if site_dir.is_dir() else None
    # a set page rendered for another address (its share cards) is not carried either
    code = catalogue.site_code_fingerprint(TEMPLATE_DIR, env.globals["site_url"])
    old_files = _files_by_set(old)
    build_root = make_staging(site_dir.parent, site_dir.name, "new")
    try:
        writer = _Writer(build_root, env)
        records: list[dict[str, Any]] = []
        rules: dict[str, Any] = {}   # a rendered set's rule object, for the how-to-play page
        skipped: list[str] = []
        rendered: list[str] = []
        carried: list[str] = []
        seen: set[str] = set()
        for folder in folders:
            if folder.name in seen:
                writer.problems.append(f"{folder}: a second set named {folder.name}; only the first is published")
                skipped.append(folder.name)
                continue
            seen.add(folder.name)
            fingerprint = kit_fingerprint(folder)
            rel = f"sets/{folder.name}"
            record = None if options.full or old is None else catalogue.read_record(
                site_dir / rel / catalogue.RECORD_FILE, fingerprint, code)
            if record is not None and _carry(old_files, site_dir, build_root, rel):
                records.append(record)
                carried.append(folder.name)
                continue
            try:
                kit = read_set(folder)
            except SiteError as exc:
                writer.problems.append(str(exc))
                skipped.append(folder.name)
                continue
            summary = _render_set(writer, kit, build_root)
            rules[kit.name] = summary["rule"]
            records.append(catalogue.write_record(build_root / rel / catalogue.RECORD_FILE,
                                                  _set_record(writer, summary, fingerprint, code)))
            rendered.append(kit.name)
        games: list[dict[str, Any]] = []
        for game_folder in find_game_kits(options.games_from, skip=site_dir) if options.games_from else []:
            try:
                game = read_game_kit(game_folder, options.games_from)
            except SiteError as exc:
                writer.problems.append(str(exc))
                skipped.append(game_folder.relative_to(options.games_from).as_posix())
                continue
            games.append(_render_game(writer, game, build_root))
        # by competition, the newest season first (two stable sorts)
        records.sort(key=lambda s: s["season_key"], reverse=True)
        records.sort(key=lambda s: str(s["competition"]["name"]))
        _render_catalogue(writer, records, games, len(skipped), options)
        # the attack die's faces follow the league: shown as the example kit (or else the first kit
        # made for the rule) prints them
        example = next((s for s in records if s.get("example")), None)
        rule_kit = example if example and example.get("has_rule") else next(
            (s for s in records if s.get("has_rule")), None)
        rule = _default_rule()
        if rule_kit is not None:
            rule = rules.get(rule_kit["name"]) or _rule_of(_carried_card_set(folders, rule_kit["name"])) or rule
        # the Defence rating (R13): every kit with rated cards gets a line (how many, the highest)
        defence_kits = [s for s in records if s.get("defence")]
        writer.page("how-to-print.html", "how-to-print.html.j2", sets=records, scoresheet=_scoresheet_shape())
        writer.page(HOW_TO_PLAY, "how-to-play.html.j2", sets=records, kit=example, rules_source=RULES_SOURCE,
                    fielding=_fielding_words(), rule=rule, rule_kit=rule_kit, defence_kits=defence_kits)
        # the first match: the first set with two teams (issue 38 item 7)
        writer.page(FIRST_MATCH, "first-match.html.j2", kit=next((s for s in records if len(s.get("teams", [])) > 1 and "team_info" in s), None))
        # served for any missing address at any depth, so its links start at the site's root
        writer.page(NOT_FOUND_PAGE, "404.html.j2", root=site_root(options.base_url), sets=records)
        _assets(build_root)
        search_sizes = catalogue.write_search_index(build_root, records)
        written = [rel for rel in relative_files(build_root) if rel != STAGING_MARKER]
        write_manifest(build_root, Manifest(kind="site", files=tuple(written), generator=f"cardgen {__version__}"))
        files = len(written) + 1
        _publish_permissions(build_root)
        kept = _swap_in(build_root, site_dir)
    except BaseException:
        shutil.rmtree(build_root, ignore_errors=True)
        raise
    return SiteReport(site_dir=site_dir, sets=[s["name"] for s in records],
                      games=[g["path"].removeprefix("games/").removesuffix("/index.html") for g in games],
                      pages=writer.pages,
                      files=files, skipped=skipped, problems=writer.problems, kept=kept,
                      team_kits=list(options.team_kits), rendered=rendered, carried=carried,
                      search_bytes=sum(search_sizes.values()))


def _carried_card_set(folders: list[Path], name: str) -> dict[str, Any]:
    """The card set of a kit carried over (the rule it was made for is read from it)."""
    from cardgen.site.kit import CARD_SET_FILE, load_card_set_file
    folder = next(f for f in folders if f.name == name)
    try:
        return load_card_set_file(folder / CARD_SET_FILE)
    except SiteError:
        return {}


def _files_by_set(old: Manifest | None) -> dict[str, list[str]]:
    """The old site's files, by the set folder (`sets/<SET>`) they are in."""
    found: dict[str, list[str]] = {}
    for name in old.files if old is not None else ():
        parts = name.split("/", 2)
        if len(parts) == 3 and parts[0] == "sets":
            found.setdefault(f"sets/{parts[1]}", []).append(name)
    return found


def _carry(old_files: dict[str, list[str]], site_dir: Path, build_root: Path, rel: str) -> bool:
    """Hard-link the old site's files under `rel` (one set's folder) into the new site; False
    (and nothing left of it) if one is missing, so the set is rendered again."""
    if not old_files.get(rel):
        return False
    try:
        made: set[Path] = set()
        for name in old_files[rel]:
            target = build_root / name
            if target.parent not in made:
                target.parent.mkdir(parents=True, exist_ok=True)
                made.add(target.parent)
            try:
                os.link(site_dir / name, target)
            except OSError:   # another file system: copy the bytes
                shutil.copyfile(site_dir / name, target)
    except OSError:
        shutil.rmtree(build_root / rel, ignore_errors=True)
        return False
    return True


def _plain_view(view: CardView | None) -> dict[str, Any] | None:
    """What the pages above a set show of one card (a thumbnail, its link and names)."""
    if view is None:
        return None
    return {"name": view.name, "team": view.team, "team_slug": view.team_slug, "link": view.link,
            "thumb": view.thumb, "thumb_size": list(view.thumb_size) if view.thumb_size else None,
            "alt": view.alt, "defence": view.defence}


def _set_record(writer: _Writer, summary: dict[str, Any], fingerprint: str | None, code: str) -> dict[str, Any]:
    """What the pages above a set need of it (catalogue.py): the facts, its article on the
    home and competition pages as HTML, the how-to pages' figures, and its players and teams
    for the search."""
    example = summary.get("example")
    article = writer.env.get_template("kit-article.html.j2")
    qr = summary["kit_preview_of"].get("quick-reference.pdf")
    return {
        "record_version": 1, "fingerprint": fingerprint, "site_code": code,
        "name": summary["name"], "title": summary["title"], "competition": summary["competition"],
        "season": summary["season"], "season_key": summary["season_key"], "format": summary["format"],
        "rules": summary.get("rules"), "rules_title": summary.get("rules_title", ""),
        "rules_words": summary.get("rules_words", ""), "card_median": summary.get("card_median"),
        "cards": summary["cards"], "strikers": summary["strikers"], "bowlers": summary["bowlers"],
        "has_rule": summary.get("rule") is not None,
        "sheets": summary["sheets"],
        "downloads": [{"relpath": d.relpath, "label": d.label, "size": d.size} for d in summary["downloads"]],
        # the names the downloads save under (downloads/<set>-<file>), as the how-to pages link them
        "named": {rel: name for rel, name in summary.get("named", {}).items()
                  if rel in {d.relpath for d in summary["downloads"]}
                  | {d.relpath for t in summary["team_info"].values() for d in t["downloads"]}},
        # the first-match page's (first-match.html): each team's own files, page and pairs
        "teams": [list(t) for t in summary["teams"]], "pages": summary["pages"], "play": summary["play"],
        "team_info": {tslug: {"name": t["name"], "page": t["page"], "pages": t["pages"],
                              "pairs": [list(pair) for pair in t.get("pairs", [])],
                              "downloads": [{"relpath": d.relpath, "label": d.label} for d in t["downloads"]]}
                      for tslug, t in summary["team_info"].items()},
        "example": None if not example else {
            key: (_plain_view(value) if isinstance(value, CardView) or key in ("striker", "bowler", "fielder")
                  else value) for key, value in example.items()},
        "fielding_table": summary["fielding_table"],
        "format_hundred": summary["format"] == "100-ball",
        "kit_preview_of": {"quick-reference.pdf": {"src": qr["src"], "size": list(qr["size"]), "links": qr["links"]}}
        if qr else {},
        "defence": [{"defence": v.defence} for v in summary["defence"]],
        "defence_highest": [_plain_view(v) for v in summary["defence_highest"]],
        "search_example": summary.get("search_example", ""),
        "team_pages": [{"name": info["name"], "page": f"sets/{summary['name']}/{info['page']}"}
                       for info in summary["team_info"].values()],
        "players": [{"id": Path(p["page"]).stem, "name": p["name"], "full_name": p["full_name"],
                     "teams": p["teams"], "page": f"sets/{summary['name']}/{p['page']}"}
                    for p in summary["players"]],
        # the set's article as the home page (root "") and a competition page ("../") show it
        "article": {depth: article.render(kit=summary, root=prefix, h="h3", sub="h4")
                    for depth, prefix in (("0", ""), ("1", "../"))},
    }


def _render_catalogue(writer: _Writer, records: list[dict[str, Any]], games: list[dict[str, Any]],
                      skipped: int, options: SiteOptions) -> None:
    """The home page (every competition, its newest season in full, the search) and one page
    per competition (every season)."""
    from cardgen.site import catalogue
    comps = catalogue.competitions(records, slug)
    example = next((r["search_example"] for r in records if r.get("search_example")), "")
    writer.page("index.html", "home.html.j2", competitions=comps, sets=records, games=games, skipped=skipped,
                season_groups=season_groups, search_example=example)
    for comp in comps:
        writer.page(comp.page, "competition.html.j2", competition=comp, season_groups=season_groups(comp.sets),
                    search_example=next((r["search_example"] for r in comp.sets if r.get("search_example")), ""))


def refresh_site(out_dir: Path, site_dir: Path | None = None) -> SiteReport:
    """Re-render the site after a build (what `cardgen build --site` calls)."""
    return generate_site(out_dir, site_dir)
