"""The user's name corrections: a CSV of Cricsheet register id -> printed name (`--names FILE`).

Read once per command (the CLI calls `use_overrides`); every printed name, on cards, team
sheets, the other games' kits and card-set.json, goes through `cardgen.calibrate.people
.printed_name`, which asks `active_overrides()` first.
"""
from __future__ import annotations

import csv
import io
import os
from pathlib import Path

from cardgen.errors import CardgenError

NAMES_ENV = "CARDGEN_NAMES"
ID_COLUMNS = ("id", "player_id", "identifier", "cricsheet_id")
NAME_COLUMNS = ("name", "printed_name", "known_as")

_active: dict[str, str] = {}
KNOWN_AS_TABLE = Path(__file__).resolve().parent / "data" / "known_as.csv"
FAMILIAR_TABLE = Path(__file__).resolve().parent / "data" / "familiar_given_names.csv"
_known_as: dict[str, str] | None = None
_familiar: dict[str, str] | None = None


class NamesFileError(CardgenError):
    """A names file that cannot be read or lacks its columns."""


def read_name_overrides(path: Path) -> dict[str, str]:
    """{register id: printed name} from a CSV with an id column (id, player_id, identifier or
    cricsheet_id) and a name column (name, printed_name or known_as); other columns (the
    Cricsheet name, a note) are ignored, so a user can keep the file readable."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise NamesFileError(f"cannot read names file {path} ({exc.__class__.__name__}); "
                             f"give a UTF-8 CSV with columns id,name") from None
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip().casefold() for h in (reader.fieldnames or [])]
    id_col = next((c for c in ID_COLUMNS if c in header), None)
    name_col = next((c for c in NAME_COLUMNS if c in header), None)
    if id_col is None or name_col is None:
        raise NamesFileError(f"names file {path} needs an id column and a name column "
                             f"(header e.g. id,name); found {', '.join(header) or 'no header'}")
    out: dict[str, str] = {}
    for row in reader:
        row = {(k or "").strip().casefold(): (v or "").strip() for k, v in row.items() if k}
        pid, name = row.get(id_col, ""), " ".join(row.get(name_col, "").split())
        if pid and name:
            out[pid] = name
    return out


def use_overrides(path: Path | None) -> dict[str, str]:
    """Make a names file the active corrections for this run (None: none, or $CARDGEN_NAMES)."""
    global _active
    if path is None and os.environ.get(NAMES_ENV):
        path = Path(os.environ[NAMES_ENV])
    _active = read_name_overrides(path) if path is not None else {}
    return dict(_active)


def clear_overrides() -> None:
    """No corrections active (what a finished command leaves behind)."""
    global _active
    _active = {}


def active_overrides() -> dict[str, str]:
    return _active


def apply_overrides(card_set: dict, overrides: dict[str, str] | None = None) -> dict:
    """The card set with the corrections applied to every card's printed name (a card set
    built before the file was written, or loaded with --card-set, gets them too)."""
    overrides = active_overrides() if overrides is None else overrides
    if not overrides:
        return card_set
    for card in card_set.get("cards", []):
        player = card.get("player") or {}
        if player.get("id") in overrides:
            player["name"] = overrides[player["id"]]
    return card_set


def known_as_table() -> dict[str, str]:
    """cardgen's own short list of known-as names (register id -> name) for players whose
    legal names do not lead to the name people use: initials that are the name ("MS Dhoni",
    "KL Rahul") and family names first ("PWH de Silva" is Wanindu Hasaranga). Add to it the
    way a user's --names file does; ESPNcricinfo's known-as name, when scraped, comes first."""
    global _known_as
    if _known_as is None:
        try:
            _known_as = read_name_overrides(KNOWN_AS_TABLE)
        except NamesFileError:  # a damaged install: the naming rule still works
            _known_as = {}
    return _known_as


def familiar_given_names() -> dict[str, str]:
    """Formal given name -> the short form nearly every cricketer with that name plays under
    ("Christopher" -> "Chris", "Thomas" -> "Tom"). Only names whose short form is the rule in
    the bundled seasons' squads are listed; the players who keep the formal name (Matthew Wade)
    are in the known-as list, which comes first."""
    global _familiar
    if _familiar is None:
        try:
            with FAMILIAR_TABLE.open(encoding="utf-8", newline="") as handle:
                _familiar = {row["formal"].strip(): row["familiar"].strip()
                             for row in csv.DictReader(handle)
                             if (row.get("formal") or "").strip() and (row.get("familiar") or "").strip()}
        except (OSError, KeyError, csv.Error):  # a damaged install: print the formal name
            _familiar = {}
    return _familiar
