"""The user's name corrections: a CSV of Cricsheet register id -> printed name (`--names FILE`).

Read once per command (the CLI reads it with `read_names` into `RunOptions.names`); every printed name, on cards, team
sheets, the other games' kits and card-set.json, goes through `cardgen.calibrate.people
.printed_name`, which asks `active_overrides()` first.
"""
from __future__ import annotations

import csv
import functools
import io
import os
import warnings
from pathlib import Path
from collections.abc import Mapping
from typing import TYPE_CHECKING
from collections.abc import Iterable

if TYPE_CHECKING:
    import pandas as pd

from cardgen import options
from cardgen.errors import CardgenError, CardgenWarning
from cardgen.readfile import FileTooLarge, NotARegularFile, read_bounded
from cardgen.text import MOST_TEXT_CHARS, clean_text

NAMES_ENV = "CARDGEN_NAMES"
ID_COLUMNS = ("id", "player_id", "identifier", "cricsheet_id")
NAME_COLUMNS = ("name", "printed_name", "known_as")

MOST_NAMES_FILE_BYTES = 10_000_000  # a names file for every player in the register is ~0.5 MB
UNMATCHED_NAMED = 5  # ids named in the warning about ids that match no player
KNOWN_AS_TABLE = Path(__file__).resolve().parent / "data" / "known_as.csv"
FAMILIAR_TABLE = Path(__file__).resolve().parent / "data" / "familiar_given_names.csv"


class NamesFileError(CardgenError):
    """A names file that cannot be read or lacks its columns."""


def read_name_overrides(path: Path) -> dict[str, str]:
    """{register id: printed name} from a CSV with an id column (id, player_id, identifier or
    cricsheet_id) and a name column (name, printed_name or known_as); other columns (the
    Cricsheet name, a note) are ignored, so a user can keep the file readable."""
    text = _read_text(Path(path))
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip().casefold() for h in (reader.fieldnames or [])]
    id_col = next((c for c in ID_COLUMNS if c in header), None)
    name_col = next((c for c in NAME_COLUMNS if c in header), None)
    if id_col is None or name_col is None:
        raise NamesFileError(f"names file {path} needs an id column and a name column "
                             f"(header e.g. id,name); found {', '.join(header) or 'no header'}")
    out: dict[str, str] = {}
    lines: dict[str, int] = {}
    try:
        for row in reader:
            row = {(k or "").strip().casefold(): clean_text(v or "").strip()
                   for k, v in row.items() if k and isinstance(v, str)}
            pid, name = row.get(id_col, ""), " ".join(row.get(name_col, "").split())
            if not (pid and name):
                continue
            if len(name) > MOST_TEXT_CHARS:  # the card set's loader refuses longer text
                raise NamesFileError(f"names file {path}, line {reader.line_num}: a name of {len(name):,} "
                                     f"characters, over the limit of {MOST_TEXT_CHARS:,}; shorten it")
            if pid in out:
                warnings.warn(CardgenWarning(
                    f"names file {path}: id {pid} is given twice (lines {lines[pid]} and "
                    f"{reader.line_num}); the later name, {name!r}, is used"), stacklevel=2)
            out[pid], lines[pid] = name, reader.line_num
    except csv.Error as exc:
        raise NamesFileError(f"names file {path} is not a readable CSV (line {reader.line_num}: {exc}); "
                             f"give a UTF-8 CSV with columns id,name") from None
    return out


def _read_text(path: Path) -> str:
    """The file's text: a regular UTF-8 file of a sensible size (a FIFO would block the read)."""
    advice = "give a UTF-8 CSV with columns id,name"
    try:
        return read_bounded(path, MOST_NAMES_FILE_BYTES).decode("utf-8-sig")
    except NotARegularFile:
        raise NamesFileError(f"names file {path} is not a regular file; {advice}") from None
    except FileTooLarge:
        raise NamesFileError(f"names file {path} is over {MOST_NAMES_FILE_BYTES // 1_000_000} MB, "
                             f"far more than a name for every player; {advice}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise NamesFileError(f"cannot read names file {path} ({exc.__class__.__name__}); "
                             f"{advice}") from None


def names_file(path: Path | None) -> Path | None:
    """The names file a command runs with: `path`, else $CARDGEN_NAMES, else none."""
    if path is None and os.environ.get(NAMES_ENV):
        return Path(os.environ[NAMES_ENV])
    return path


def read_names(path: Path | None) -> dict[str, str]:
    """The corrections a command runs with: the names file at `path` (None: $CARDGEN_NAMES, or none)."""
    path = names_file(path)
    return read_name_overrides(path) if path is not None else {}


def warn_unmatched(player_ids: Iterable[str], of: str, overrides: Mapping[str, str] | None = None) -> list[str]:
    """Warn, in one line, about the corrections whose ids match none of `player_ids` (a typo,
    or a player of another season: `of` says which players, e.g. "BBL 2024-25"); those ids."""
    overrides = active_overrides() if overrides is None else overrides
    unmatched = sorted(set(overrides) - set(player_ids))
    if unmatched:
        shown = ", ".join(unmatched[:UNMATCHED_NAMED]) + (", ..." if len(unmatched) > UNMATCHED_NAMED else "")
        run = options.current()
        where = f"names file {run.names_file}" if run.names_file is not None and overrides is run.names else "names"
        warnings.warn(CardgenWarning(
            f"{where}: {len(unmatched)} of its {len(overrides)} ids match no player of {of} ({shown}); "
            f"the ids are Cricsheet register ids, as player.id in card-set.json or player_id in "
            f"`cardgen stats --table attributes`"), stacklevel=2)
    return unmatched


def active_overrides() -> Mapping[str, str]:
    """The running command's corrections (RunOptions.names)."""
    return options.current().names


def apply_overrides(card_set: dict, overrides: Mapping[str, str] | None = None) -> dict:
    """The card set with the corrections applied to every card's printed name (a card set
    built before the file was written, or loaded with --card-set, gets them too)."""
    overrides = active_overrides() if overrides is None else overrides
    if not overrides:
        return card_set
    for card in card_set.get("cards", []):
        player = card.get("player") or {}
        if player.get("id") in overrides:
            player["name"] = overrides[player["id"]]
    competition = card_set.get("competition")
    code = competition.get("code", "") if isinstance(competition, dict) else ""
    warn_unmatched([str((c.get("player") or {}).get("id")) for c in card_set.get("cards", [])
                    if isinstance(c, dict)], f"the card set {code} {card_set.get('season', '')}".rstrip(),
                   overrides)
    return card_set


def corrected_names(table: pd.DataFrame, overrides: Mapping[str, str] | None = None) -> pd.DataFrame:
    """A stats table (`player_id`, `player`) with the corrections as its players' names."""
    overrides = active_overrides() if overrides is None else overrides
    if not overrides or not {"player_id", "player"} <= set(table.columns):
        return table
    table = table.copy()
    hit = table["player_id"].isin(list(overrides))
    table.loc[hit, "player"] = table.loc[hit, "player_id"].map(overrides)
    return table


@functools.cache
def known_as_table() -> dict[str, str]:
    """cardgen's own short list of known-as names (register id -> name) for players whose
    legal names do not lead to the name people use: initials that are the name ("MS Dhoni",
    "KL Rahul") and family names first ("PWH de Silva" is Wanindu Hasaranga). Add to it the
    way a user's --names file does; ESPNcricinfo's known-as name, when scraped, comes first."""
    try:
        return read_name_overrides(KNOWN_AS_TABLE)
    except NamesFileError:  # a damaged install: the naming rule still works
        return {}


@functools.cache
def familiar_given_names() -> dict[str, str]:
    """Formal given name -> the short form nearly every cricketer with that name plays under
    ("Christopher" -> "Chris", "Thomas" -> "Tom"). Only names whose short form is the rule in
    the bundled seasons' squads are listed; the players who keep the formal name (Matthew Wade)
    are in the known-as list, which comes first."""
    try:
        with FAMILIAR_TABLE.open(encoding="utf-8", newline="") as handle:
            return {row["formal"].strip(): row["familiar"].strip()
                    for row in csv.DictReader(handle)
                    if (row.get("formal") or "").strip() and (row.get("familiar") or "").strip()}
    except (OSError, KeyError, csv.Error):  # a damaged install: print the formal name
        return {}
