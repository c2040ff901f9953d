"""What a local Cricsheet mirror holds: every event and season in it, known to the table or not."""
from __future__ import annotations

import json
import re
import warnings
import zipfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from cardgen.competitions import (INNINGS_OVERS, Competition, all_competitions, competition_from_entry,
                                   is_split_label, match_season)
from cardgen.errors import ParseError, ReadLimitExceeded, SkippedInput
from cardgen.sources.archive import ZIP_ERRORS, ReadLimits, read_match_file, zip_members
from cardgen.sources.fetch import is_event_of, match_identity, mirror_paths


@dataclass
class MirrorEvent:
    """One Cricsheet event (name + sex) found in a mirror, with its seasons and match counts."""
    event: str
    gender: str  # Cricsheet's "male" / "female"
    team_type: str
    balls_per_over: int
    competition: Competition | None  # None: not in the table (nor the user's file)
    seasons: dict[str, int] = field(default_factory=dict)  # season (CLI form) -> matches
    labels: dict[str, set[str]] = field(default_factory=dict)  # season -> Cricsheet labels
    code: str = ""  # the competition's code, or the one suggested for an event the table lacks
    split_season: bool = False  # an event the table lacks: its labels straddle New Year ("2024/25")
    overs: int = INNINGS_OVERS  # the overs most of its matches were scheduled for (info.overs)

    @property
    def sex(self) -> str:
        return "women" if self.gender == "female" else "men"


def _zip_infos(path: Path, limits: ReadLimits) -> list[tuple[str, dict]]:
    """The info blocks of a zip's match files, with their match ids (file names); a damaged zip or
    member lists nothing (the reader skips it with a warning when a build reads it), nor does a
    zip beyond the read limits, with a warning (a build stops at it)."""
    infos = []
    try:
        with zipfile.ZipFile(path) as zf:
            for name, raw in zip_members(zf, str(path), limits, skip=lambda name, exc: None):
                try:
                    info = json.loads(raw).get("info")
                except (ValueError, AttributeError, RecursionError):
                    continue
                if isinstance(info, dict):
                    infos.append((Path(name).stem, info))
    except ZIP_ERRORS:
        pass
    except ReadLimitExceeded as exc:
        warnings.warn(SkippedInput(f"{exc}; its matches are not listed"), stacklevel=2)
        return []
    return infos


def _infos(root: Path, limits: ReadLimits) -> dict[Path, list[tuple[str, dict]]]:
    """The info block of every match file in a mirror (any depth) with its match id (the file
    name), by the file (or zip) it is in."""
    out: dict[Path, list[tuple[str, dict]]] = {}
    for path in sorted(root.rglob("*")):
        if path.suffix == ".json" and path.is_file():
            try:
                info = json.loads(read_match_file(path, limits)).get("info")
            except (OSError, ValueError, AttributeError, RecursionError, ParseError):
                continue  # not a match file (a README, a damaged download, a FIFO): nothing to list
            if isinstance(info, dict):
                out[path] = [(path.stem, info)]
        elif path.suffix == ".zip" and path.is_file():
            out[path] = _zip_infos(path, limits)
    return out


def _read_by(comp: Competition, root: Path, infos: dict[Path, list[tuple[str, dict]]]) -> list[dict]:
    """The matches a build of `comp` reads from this mirror: the files `mirror_paths` picks,
    matches `is_event_of` accepts (the reader's own definitions, so a listed season builds), each
    match once however many copies the mirror holds (the reader keeps the first file of a match
    id or of a match's identity, `match_identity`)."""
    read: list[dict] = []
    seen: set[object] = set()
    for path in mirror_paths(root, comp):
        for match_id, info in infos.get(path, ()):
            keys = {("id", match_id), ("info", *match_identity(info))}
            if not keys & seen and is_event_of(info, comp):
                read.append(info)
                seen |= keys
    return read


def _straddles_new_year(found: list[dict]) -> bool:
    """Whether one of the event's split-form labels ("2024/25") holds matches of two calendar
    years: a season played across New Year (BBL), not a label Cricsheet gave a one-year edition
    (PSL's "2020/21", played in 2021)."""
    years: dict[str, set[str]] = defaultdict(set)
    for info in found:
        label = str(info.get("season", ""))
        if is_split_label(label):
            years[label].add(str((info.get("dates") or [""])[0])[:4])
    return any(len(y - {""}) > 1 for y in years.values())


def _usual_overs(found: list[dict]) -> int:
    """The overs most of the matches were scheduled for (info.overs; INNINGS_OVERS when none says)."""
    overs = Counter(int(i["overs"]) for i in found if str(i.get("overs", "")).isdigit())
    return overs.most_common(1)[0][0] if overs else INNINGS_OVERS


def _event_key(info: dict) -> tuple[str, str, str]:
    event = info.get("event") or {}
    name = str(event.get("name", "")) if isinstance(event, dict) else ""
    return name, str(info.get("gender", "")), str(info.get("team_type", ""))


def _competition_for(name: str, gender: str, team_type: str) -> Competition | None:
    for comp in all_competitions():
        if comp.gender != gender:
            continue
        if comp.event_names and name in comp.event_names:
            return comp
    for comp in all_competitions():  # T20 internationals outside a named tournament
        if comp.gender == gender and not comp.event_names and comp.team_type == team_type:
            return comp
    return None


def suggested_code(event: str, taken: set[str]) -> str:
    """A short code for an event the table lacks: its initials ("Lanka Premier League" -> LPL)."""
    words = re.findall(r"[A-Za-z0-9]+", re.sub(r"['\u2019]s\b", "", event))
    code = "".join(w[0] if not w.isdigit() else w for w in words).upper()[:12] or "COMP"
    candidate, n = code, 2
    while candidate in taken:
        candidate, n = f"{code}{n}", n + 1
    return candidate


def mirror_events(root: Path) -> list[MirrorEvent]:
    """Every T20 and 100-ball event in a mirror (folders, zips, loose files, any depth), each with
    the seasons `cardgen build` finds there: a known competition's matches are counted the way
    the reader reads them, an event the table lacks the way it would read them once added with
    the suggested `toml_entry` (`MirrorEvent.code`)."""
    infos = _infos(root, ReadLimits.from_env())
    # (competition or None, the competition the reader would use, its matches)
    groups: list[tuple[Competition | None, Competition, list[dict]]] = []
    for comp in all_competitions():
        groups.append((comp, comp, _read_by(comp, root, infos)))
    unknown: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
    for info in (i for found in infos.values() for _, i in found):
        if info.get("match_type") not in ("T20", "IT20"):
            continue
        name, gender, team_type = _event_key(info)
        if name and _competition_for(name, gender, team_type) is None:
            unknown[(name, gender, team_type)].append(info)
    taken = {comp.code for comp in all_competitions()}
    for (name, gender, team_type), found in sorted(unknown.items(), key=lambda kv: (kv[0][0].casefold(), kv[0][1:])):
        bpo = max((int(i.get("balls_per_over", 6) or 6) for i in found), default=6)
        code = suggested_code(name, taken)
        taken.add(code)
        probe = competition_from_entry(
            {"code": code, "name": name, "sex": "women" if gender == "female" else "men",
             "format": "100-ball" if bpo == 5 else "T20", "event_names": [name],
             "seasons": "split" if _straddles_new_year(found) else "calendar",
             "team_type": team_type or "club"}, "a mirror event")
        groups.append((None, probe, _read_by(probe, root, infos)))
    out = []
    for known, probe, found in groups:
        if not found:
            continue
        name, gender, team_type = _event_key(found[0])
        if known is not None:
            gender, team_type = known.gender, known.team_type
            name = name if known.event_names else known.name
        bpo = max((int(i.get("balls_per_over", 6) or 6) for i in found), default=6)
        dates_by_label: dict[str, list[str]] = defaultdict(list)
        for i in found:
            dates_by_label[str(i.get("season", ""))].append(str((i.get("dates") or [""])[0]))
        ev = MirrorEvent(name, gender, team_type, bpo, known, code=probe.code,
                         split_season=known is None and probe.split_season, overs=_usual_overs(found))
        for i in found:
            label = str(i.get("season", ""))
            season = match_season(probe, label, str((i.get("dates") or [""])[0]), dates_by_label[label])
            if season is None:
                continue
            ev.seasons[season] = ev.seasons.get(season, 0) + 1
            ev.labels.setdefault(season, set()).add(label)
        if ev.seasons:
            ev.seasons = dict(sorted(ev.seasons.items()))
            out.append(ev)
    return sorted(out, key=lambda e: (e.competition is None, e.competition.code if e.competition else "",
                                      e.event.casefold(), e.gender))


def toml_entry(ev: MirrorEvent, code: str) -> str:
    """A `cardgen-competitions.toml` entry for an event the table lacks."""
    fmt = "100-ball" if ev.balls_per_over == 5 else "T20"
    return (f'[[competition]]\ncode = "{code}"\nname = "{ev.event}"\nsex = "{ev.sex}"\n'
            f'format = "{fmt}"\nseasons = "{"split" if ev.split_season else "calendar"}"\n'
            f'event_names = ["{ev.event}"]\n')
