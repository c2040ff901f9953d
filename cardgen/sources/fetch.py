"""Find a season's Cricsheet match files: on cricsheet.org, on a mirror URL, or in a local folder.

A *source* is either a base URL that serves Cricsheet's zip downloads
(`{base}/bbl_male_json.zip`, default https://cricsheet.org/downloads) or a folder holding
a mirror: per-season folders (`bbl_2024-25/*.json`, the layout of `shared/data/cricsheet`),
Cricsheet zips, or loose match files. Raw downloads are kept in the user's cache (`raw/`, see cardgen.cache).
"""
from __future__ import annotations

import io
import json
import os
import re
import sys
import time
import warnings
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from collections.abc import Iterator

from cardgen import __version__, options
from cardgen.cache import Cache
from cardgen.competitions import Competition, match_season, normalise_season
if TYPE_CHECKING:  # requests is imported where a download starts: reading a mirror never needs it
    import requests

from cardgen.errors import (CardgenError, DownloadTimeout, NetworkError, ParseError, ReadLimitExceeded,
                            SkippedInput, SourceError, UnknownSeason)
from cardgen.sources.archive import ZIP_ERRORS, ReadLimits, check_zip, read_match_file, zip_members
from cardgen.text import clean_text

DEFAULT_SOURCE = "https://cricsheet.org/downloads"
SOURCE_ENV = "CARDGEN_SOURCE"
USER_AGENT = f"cardgen/{__version__} (print-and-play cricket cards; polite, cached)"
# Every download is bounded: a server that does not connect, that connects and stays silent,
# or that trickles bytes fails with a message naming which limit it hit. A download ends at the
# latest after DEADLINE + READ_TIMEOUT seconds (the deadline is checked between reads).
CONNECT_TIMEOUT = 10.0  # s to open the connection
READ_TIMEOUT = 30.0  # s of silence (no byte at all) from a connected server
DEADLINE = 600.0  # s for one whole download, retries included (a season zip is a few MB)
TIMEOUT = (CONNECT_TIMEOUT, READ_TIMEOUT)  # what requests calls (connect, read)
DEADLINE_ENV = "CARDGEN_DOWNLOAD_DEADLINE"
READ_TIMEOUT_ENV = "CARDGEN_DOWNLOAD_TIMEOUT"
CHUNK = 64 * 1024
DOWNLOAD_ATTEMPTS = 2  # a body cut short (or an unreadable zip) is fetched once more


@dataclass(frozen=True)
class MatchFile:
    match_id: str
    raw: bytes


def resolve_source(source: str | None) -> str:
    """The source to use: the argument, else $CARDGEN_SOURCE, else cricsheet.org."""
    return source or os.environ.get(SOURCE_ENV) or DEFAULT_SOURCE


def is_url(source: str) -> bool:
    return source.startswith(("http://", "https://"))


def make_session() -> requests.Session:
    """One polite session per source: a clear User-Agent and retries with back-off."""
    import requests
    from requests.adapters import HTTPAdapter
    from urllib3.util.retry import Retry
    session = requests.Session()
    session.headers["User-Agent"] = USER_AGENT
    # the body is streamed as raw bytes (read1, below), which requests does not decompress: ask
    # for the zip as it is, so a server that gzips what clients accept still sends a zip
    session.headers["Accept-Encoding"] = "identity"
    # refused connections and 5xx answers are retried; a read time-out is not (a server that
    # stayed silent once will likely stay silent, and each try would cost READ_TIMEOUT again),
    # and a Retry-After header cannot make us wait beyond a few seconds
    retry = Retry(total=3, connect=2, read=0, backoff_factor=0.5,
                  status_forcelist=(429, 500, 502, 503, 504), allowed_methods=("GET", "HEAD"),
                  respect_retry_after_header=False)
    adapter = HTTPAdapter(max_retries=retry)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


def is_event_of(info: dict, comp: Competition) -> bool:
    """Whether a match's info block is a match of this competition (any season)."""
    if info.get("gender") and info.get("gender") != comp.gender:
        return False
    if comp.event_names:
        event = info.get("event") or {}
        return isinstance(event, dict) and event.get("name") in comp.event_names
    return info.get("team_type") == comp.team_type and info.get("match_type") == "T20"


def match_identity(info: Any) -> tuple[str, tuple[str, ...], str, str]:
    """A match as Cricsheet's own info says it: first date, teams, event name and match number.
    Two files with the same identity hold the same match (a second download saved as
    `copy-of-1443060.json`), whatever their names."""
    info = info if isinstance(info, dict) else {}
    teams = info.get("teams")
    named = tuple(sorted(clean_text(str(t)) for t in teams)) if isinstance(teams, list) else ()
    event = info.get("event")
    event = event if isinstance(event, dict) else {}
    number = event.get("match_number")
    return (_first_date(info), named, clean_text(str(event.get("name", ""))),
            "" if number is None else clean_text(str(number)))


def _first_date(info: dict) -> str:
    dates = info.get("dates") or [""]
    return str(dates[0]) if isinstance(dates, list) and dates else ""


def belongs_to(info: dict, comp: Competition, season: str) -> bool:
    """Whether one match's info block is a match of this competition season (judged alone:
    `select_season` also reads a label's other matches)."""
    if not is_event_of(info, comp):
        return False
    date = _first_date(info)
    return match_season(comp, str(info.get("season", "")), date, [date]) == normalise_season(comp, season)


def select_season(infos: list[tuple[str, dict]], comp: Competition, season: str) -> list[str]:
    """Names of the matches that make up a season, whatever Cricsheet labelled them: the 2021
    PSL is filed under "2020/21" and "2021", the 2024 PSL under "2023/24" (see
    `competitions.edition_of_label`)."""
    ours = [(name, info) for name, info in infos if isinstance(info, dict) and is_event_of(info, comp)]
    dates_by_label: dict[str, list[str]] = {}
    for _, info in ours:
        dates_by_label.setdefault(str(info.get("season", "")), []).append(_first_date(info))
    want = normalise_season(comp, season)
    return [name for name, info in ours
            if match_season(comp, str(info.get("season", "")), _first_date(info),
                            dates_by_label[str(info.get("season", ""))]) == want]


def _match_id(name: str) -> str:
    return Path(name).stem


def strict() -> bool:
    """`--strict` (RunOptions.strict, else $CARDGEN_STRICT): an unreadable match file stops the run."""
    return options.current().is_strict


def skip_or_raise(error: ParseError) -> None:
    """One unreadable match file must not block a season: skip it with a one-line warning,
    unless strict, where it is the error."""
    if strict():
        raise error
    warnings.warn(SkippedInput(f"{error}; skipped (--strict stops instead)"), stacklevel=2)


# What the readers below yield for each match file: (match id, where it is as a user would
# find it: a path, or "1443060.json in <the zip>", its bytes).
Found = tuple[str, str, bytes]
DUPLICATES_NAMED = 5  # a mirror holding a season twice (its folder and its zip) names five


class DuplicateMatch(ParseError):
    """A second file holding a match already read (the same id, or the same date, teams,
    event and match number)."""


def _filter(files: Iterator[Found], comp: Competition, season: str) -> list[MatchFile]:
    """The season's match files, each match once: a second copy of one (a second download
    saved as `copy-of-1443060.json`, the season's zip beside its folder) is skipped with a
    warning naming both files, or stops the run with --strict."""
    found: dict[str, tuple[str, bytes, dict]] = {}  # where -> (match id, bytes, info)
    for match_id, where, raw in files:
        try:
            doc = json.loads(raw)
            info = doc.get("info", {})
        except (ValueError, AttributeError, RecursionError) as exc:
            reason = "not valid JSON" if isinstance(exc, ValueError) else "not a match document"
            skip_or_raise(ParseError(f"match file {where}: {reason} ({exc.__class__.__name__})"))
            continue
        if isinstance(info, dict) and is_event_of(info, comp) and where not in found:
            found[where] = (match_id, raw, info)
    chosen: dict[str, bytes] = {}
    first: dict[object, str] = {}  # a match id, or a match's identity -> where it was read
    duplicates: list[DuplicateMatch] = []
    season_files = select_season([(w, info) for w, (_, _, info) in found.items()], comp, season)
    # a file under Cricsheet's own name (<match id>.json) is the copy kept, wherever it sorts
    for where in sorted(season_files, key=lambda w: not found[w][0].isdigit()):
        match_id, raw, info = found[where]
        identity = ("info", *match_identity(info))
        earlier = first.get(("id", match_id)) or first.get(identity)
        if earlier is not None:
            duplicates.append(DuplicateMatch(f"match file {where} holds the same match as {earlier} "
                                             f"({_described(info)})"))
            continue
        first[("id", match_id)] = first[identity] = where
        chosen[match_id] = raw
    _skip_duplicates(duplicates)
    return [MatchFile(mid, chosen[mid]) for mid in sorted(chosen)]


def _described(info: dict) -> str:
    date, _, event, number = match_identity(info)
    teams = info.get("teams")
    teams = " v ".join(clean_text(str(t)) for t in teams) if isinstance(teams, list) else "?"
    return ", ".join(part for part in (date, teams, event, f"match {number}" if number else "") if part)


def _skip_duplicates(duplicates: list[DuplicateMatch]) -> None:
    """Each second copy skipped with its warning (the first DUPLICATES_NAMED; then one line for
    the rest), or the first of them the error under --strict."""
    for duplicate in duplicates[:DUPLICATES_NAMED]:
        skip_or_raise(duplicate)
    if len(duplicates) > DUPLICATES_NAMED:
        more = len(duplicates) - DUPLICATES_NAMED
        warnings.warn(SkippedInput(f"and {more} more second cop{'y' if more == 1 else 'ies'} of "
                                   f"matches already read; skipped"), stacklevel=2)


def _zip_members(data: bytes, origin: str, limits: ReadLimits = ReadLimits()) -> Iterator[Found]:
    """The match files of a downloaded zip, within the read limits."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            for name, raw in zip_members(zf, origin, limits):
                yield _match_id(name), f"{name} in {origin}", raw
    except ZIP_ERRORS as exc:
        raise ParseError(f"{origin}: not a readable zip ({exc.__class__.__name__})") from exc


def _mirror_zip_members(path: Path, limits: ReadLimits) -> Iterator[Found]:
    """The match files of a zip in a local mirror. Like a damaged match file, a zip that cannot
    be read, or one of its members, is skipped with a warning (strict: the error): the mirror's
    other files may hold the whole season. A zip beyond the read limits is the error: it needs
    the user (a zip bomb, or a limit to raise), and half of it is no season."""
    try:  # mirror_paths lists regular files only (a FIFO named *.zip is not one)
        zf = zipfile.ZipFile(path)
    except ZIP_ERRORS as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc.__class__.__name__
        skip_or_raise(ParseError(f"{path}: not a readable zip ({reason})"))
        return

    def damaged(name: str, exc: BaseException) -> None:
        skip_or_raise(ParseError(f"match file {name} in {path} cannot be read ({exc.__class__.__name__})"))

    with zf:
        for name, raw in zip_members(zf, str(path), limits, skip=damaged):
            yield _match_id(name), f"{name} in {path}", raw


def season_folder(root: Path, comp: Competition, season: str) -> Path:
    return root / f"{comp.mirror_folder}_{normalise_season(comp, season)}"


def offline_seasons(root: Path, comp: Competition) -> list[str]:
    """Seasons of a competition present as per-season folders in a local mirror."""
    if not root.is_dir():
        return []
    pattern = re.compile(rf"^{re.escape(comp.mirror_folder)}_(\d{{4}}(?:-\d{{2}})?)$")
    seasons = []
    for child in root.iterdir():
        m = pattern.match(child.name)
        if m and child.is_dir():
            seasons.append(m.group(1))
    return sorted(seasons)


def mirror_paths(root: Path, comp: Competition) -> list[Path]:
    """Every file in a mirror that may hold the competition: its per-season folders' match files
    (all of them: a season can sit under another season's label), its Cricsheet zips and loose
    files; a mirror with none of these (an unzipped Cricsheet archive in a sub-folder) is read whole."""
    prefix = f"{comp.mirror_folder}_"
    folders = sorted(p for p in root.iterdir() if p.is_dir() and p.name.startswith(prefix))
    zips = [root / z for z in dict.fromkeys((comp.download_file, f"{comp.cricsheet_name}_json.zip"))
            if (root / z).is_file()]
    loose = sorted(root.glob("*.json"))
    if not (folders or zips or loose):
        return sorted(root.rglob("*.json"))
    return [path for folder in folders for path in sorted(folder.glob("*.json"))] + zips + loose


def _mirror_files(root: Path, comp: Competition, limits: ReadLimits) -> Iterator[Found]:
    for path in mirror_paths(root, comp):
        if path.suffix == ".zip":
            yield from _mirror_zip_members(path, limits)
        else:
            yield from _readable([path], limits)


def _readable(paths: list[Path], limits: ReadLimits) -> Iterator[Found]:
    """(match id, path, bytes) of each file; one that cannot be read (permissions, a folder named *.json,
    a dangling link, a FIFO, a file too large for a match) is skipped with a warning, not the
    end of the season."""
    for path in paths:
        try:
            raw = read_match_file(path, limits)
        except OSError as exc:
            skip_or_raise(ParseError(f"match file {path} cannot be read ({exc.strerror or exc})"))
            continue
        except ParseError as exc:
            skip_or_raise(exc)
            continue
        yield _match_id(path.name), str(path), raw


def _is_json(path: Path, limits: ReadLimits) -> bool:
    try:
        json.loads(read_match_file(path, limits))
    except (OSError, ValueError, RecursionError, ParseError):
        return False
    return True


def from_folder(root: Path, comp: Competition, season: str,
                limits: ReadLimits | None = None) -> list[MatchFile]:
    limits = limits or ReadLimits.from_env()
    files = _filter(_mirror_files(root, comp, limits), comp, season)
    if files:
        return files
    available = offline_seasons(root, comp)
    if normalise_season(comp, season) in available:  # its folder is there: say why none of it is used
        folder = season_folder(root, comp, season)
        readable = sum(_is_json(path, limits) for path in folder.glob("*.json"))
        if not readable:
            raise UnknownSeason(f"{comp.code} {normalise_season(comp, season)}: no match file in {folder} "
                                f"could be read (each skipped file is named above); mirror the season again")
        raise UnknownSeason(f"{comp.code} {normalise_season(comp, season)}: none of the {readable} match "
                            f"files in {folder} is a {comp.sex}'s {comp.name} match of that season; check "
                            f"its entry (`cardgen competitions --source {root}` lists the events found)")
    hint = f"available here: {', '.join(available)}" if available else "no season of it is here"
    raise UnknownSeason(f"{comp.code} {normalise_season(comp, season)} is not in {root} ({hint}; "
                        f"`cardgen competitions --source {root}` lists what is)")


@dataclass(frozen=True)
class DownloadLimits:
    """Time limits of one download, in seconds (env: CARDGEN_DOWNLOAD_TIMEOUT, _DEADLINE)."""
    connect: float = CONNECT_TIMEOUT
    read: float = READ_TIMEOUT
    deadline: float = DEADLINE

    @classmethod
    def from_env(cls) -> DownloadLimits:
        def seconds(name: str, default: float) -> float:
            text = os.environ.get(name)
            if not text:
                return default
            try:
                value = float(text)
            except ValueError:
                value = -1.0
            if not 0 < value < 1e6:
                raise CardgenError(f"{name}={text!r} is not a number of seconds; e.g. {name}={default:g}")
            return value
        read = seconds(READ_TIMEOUT_ENV, READ_TIMEOUT)
        return cls(connect=min(CONNECT_TIMEOUT, read), read=read, deadline=seconds(DEADLINE_ENV, DEADLINE))


def _megabytes(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


def _progress_bar(total: int | None, label: str):  # type: ignore[no-untyped-def]
    from tqdm import tqdm
    return tqdm(total=total, unit="B", unit_scale=True, desc=f"download {label}", leave=False,
                file=sys.stderr, disable=not sys.stderr.isatty())


def _timed_out(exc: BaseException) -> bool:
    """Whether a requests/urllib3 error is (or wraps) a read time-out (retries wrap it)."""
    import requests
    from urllib3.exceptions import ReadTimeoutError
    seen = 0
    current: BaseException | None = exc
    while current is not None and seen < 5:
        if isinstance(current, (ReadTimeoutError, requests.exceptions.ReadTimeout)):
            return True
        current = getattr(current, "reason", None) or (
            current.args[0] if current.args and isinstance(current.args[0], BaseException) else None)
        seen += 1
    return False


class _CutShort(Exception):
    """The body ended before its Content-Length (retried once)."""


def fetch_body(session: requests.Session, url: str, limits: DownloadLimits, started: float) -> bytes:
    """The body of `url`, streamed within the limits; progress on a terminal.

    `started` is the time.monotonic() at which the download's deadline began (retries share it).
    """
    import requests
    from urllib3.exceptions import ProtocolError, ReadTimeoutError
    try:
        host = requests.utils.urlparse(url).netloc or url
    except ValueError as exc:  # e.g. "http://[::1": not a URL at all
        raise SourceError(f"{url} is not a valid URL ({exc}); check --source") from exc
    label = url.rsplit("/", 1)[-1] or host
    advice = "check the network, try again later or pass --source with a local mirror"

    def remaining() -> float:
        return limits.deadline - (time.monotonic() - started)

    def too_slow(got: int, total: int | None) -> DownloadTimeout:
        of = f" of {_megabytes(total)}" if total else ""
        return DownloadTimeout(f"download of {url} did not finish within its {limits.deadline:g} s deadline "
                               f"({_megabytes(got)}{of} received); {advice} "
                               f"(or raise {DEADLINE_ENV})")

    if remaining() <= 0:
        raise too_slow(0, None)
    try:
        resp = session.get(url, timeout=(limits.connect, max(0.01, min(limits.read, remaining()))),
                           stream=True)
    except requests.exceptions.ConnectTimeout as exc:
        raise DownloadTimeout(f"could not connect to {host} within {limits.connect:g} s (connect time-out) "
                              f"to download {label}; {advice}") from exc
    except (requests.exceptions.ReadTimeout, requests.exceptions.ConnectionError) as exc:
        if not _timed_out(exc):
            raise NetworkError(f"could not download {url} ({exc.__class__.__name__}); {advice}") from exc
        raise DownloadTimeout(f"{host} accepted the connection but did not answer within {limits.read:g} s "
                              f"(read time-out) for {label}; {advice}") from exc
    except (requests.exceptions.ChunkedEncodingError, requests.exceptions.ContentDecodingError) as exc:
        raise _CutShort() from exc
    except (requests.exceptions.InvalidURL, requests.exceptions.MissingSchema,
            requests.exceptions.InvalidSchema) as exc:
        raise SourceError(f"{url} is not a URL cardgen can download from ({exc}); check --source") from exc
    except requests.RequestException as exc:
        raise NetworkError(f"could not download {url} ({exc.__class__.__name__}); {advice}") from exc
    with resp:
        if resp.status_code != 200:
            raise SourceError(f"{url} answered HTTP {resp.status_code}; "
                              f"check the competition or pass --source with a mirror")
        length = resp.headers.get("Content-Length", "")
        total = int(length) if length.isdigit() else None
        raw = getattr(resp, "raw", None)
        # read1: whatever one network read brings, so a trickling server cannot hold a read open
        read = getattr(raw, "read1", None) if raw is not None else None
        chunks: list[bytes] = []
        got = 0
        with _progress_bar(total, label) as bar:
            try:
                pieces = (iter(lambda: read(CHUNK), b"") if read is not None
                          else resp.iter_content(CHUNK))
                for chunk in pieces:
                    chunks.append(chunk)
                    got += len(chunk)
                    bar.update(len(chunk))
                    if remaining() <= 0:
                        raise too_slow(got, total)
            except (ReadTimeoutError, requests.exceptions.ConnectionError) as exc:
                if _timed_out(exc):
                    raise DownloadTimeout(
                        f"{host} stopped sending {label} for {limits.read:g} s (read time-out) after "
                        f"{_megabytes(got)}; {advice}") from exc
                raise _CutShort() from exc
            except (ProtocolError, requests.exceptions.ChunkedEncodingError,
                    requests.exceptions.ContentDecodingError) as exc:
                raise _CutShort() from exc
        if total is not None and got < total:
            raise _CutShort()
        return _decoded(b"".join(chunks), resp.headers.get("Content-Encoding", ""), url)


def _decoded(body: bytes, encoding: str, url: str) -> bytes:
    """The body without its Content-Encoding (a server may gzip it though asked not to)."""
    codings = [c.strip().lower() for c in encoding.split(",") if c.strip()]
    for coding in reversed(codings):  # applied in the order listed, so undone from the last
        if coding == "identity":
            continue
        if coding not in ("gzip", "x-gzip", "deflate"):
            raise SourceError(f"{url} was sent with Content-Encoding {coding!r}, which cardgen cannot "
                              f"decode; try again later or pass --source with a local mirror")
        # gzip and zlib data (wbits 32+15 detects either); "deflate" is also sent bare (-15)
        body = _inflate(body, (47, -15) if coding == "deflate" else (47,))
    return body


def _inflate(body: bytes, formats: tuple[int, ...]) -> bytes:
    for wbits in formats:
        decoder = zlib.decompressobj(wbits)
        try:
            data = decoder.decompress(body) + decoder.flush()
        except zlib.error:
            continue
        if decoder.eof:
            return data
    raise _CutShort()  # damaged or incomplete compressed body: fetched once more


def download_zip(base_url: str, comp: Competition, cache: Cache,
                 session: requests.Session | None = None, refresh: bool = False,
                 limits: DownloadLimits | None = None, read_limits: ReadLimits | None = None) -> bytes:
    """The competition's Cricsheet zip, from the cache or downloaded (atomically cached).

    Bounded by `limits` (default: from the environment, else CONNECT_TIMEOUT, READ_TIMEOUT and
    DEADLINE): a dead or trickling server raises `DownloadTimeout` naming the limit it hit. A
    zip beyond `read_limits` (a zip bomb) raises `ReadLimitExceeded` before it is unpacked or
    cached.
    """
    url = f"{base_url.rstrip('/')}/{comp.download_file}"
    key = cache.key("cricsheet", url)
    read_limits = read_limits or ReadLimits.from_env()
    if not refresh:
        cached = cache.get_raw(key, validate=lambda data: _valid_zip(data, read_limits))
        if cached is not None:
            return cached
    limits = limits or DownloadLimits.from_env()
    session = session or make_session()
    started = time.monotonic()
    data = b""
    for attempt in range(1, DOWNLOAD_ATTEMPTS + 1):
        # the adapter retries refused connections and 5xx answers; this loop retries a body
        # that was cut short, which urllib3 cannot retry once the headers have arrived
        try:
            data = fetch_body(session, url, limits, started)
        except _CutShort as exc:
            if attempt < DOWNLOAD_ATTEMPTS:
                continue
            cause = exc.__cause__.__class__.__name__ if exc.__cause__ else "body shorter than announced"
            raise NetworkError(f"download of {url} was cut short ({cause}); try again") from exc
        _check_limits(data, url, read_limits)
        if _valid_zip(data, read_limits):
            break
    else:
        if not data.startswith(b"PK"):  # not a zip at all: a login page, a proxy's or a server's own
            what = "a web page" if data.lstrip()[:1] == b"<" else f"{len(data):,} bytes"
            raise NetworkError(f"{url} answered with {what}, not a zip (a Wi-Fi login page or a "
                               f"proxy?); check the connection, or pass --source with a local mirror")
        raise SourceError(f"{url} did not return a complete zip (download cut short?); try again")
    cache.put_raw(key, data)  # atomic: an interrupted run never leaves half a zip behind
    return data


def _check_limits(data: bytes, url: str, limits: ReadLimits) -> None:
    """`ReadLimitExceeded` for a readable zip whose directory is beyond the limits."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except ZIP_ERRORS:
        return  # not a zip (yet): the caller's checks say what it is
    with zf:
        check_zip(zf, url, limits)


def _valid_zip(data: bytes, limits: ReadLimits) -> bool:
    """A complete zip within the read limits (its every entry unpacked to check the CRCs)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            check_zip(zf, "zip", limits)
            return zf.testzip() is None
    except (*ZIP_ERRORS, ReadLimitExceeded):
        return False


def match_files(comp: Competition, season: str, source: str | None = None,
                cache: Cache | None = None, refresh: bool = False) -> list[MatchFile]:
    """Every match file of a competition season from the chosen source."""
    src = resolve_source(source)
    limits = ReadLimits.from_env()
    if is_url(src):
        cache = cache or Cache()
        data = download_zip(src, comp, cache, refresh=refresh, read_limits=limits)
        files = _filter(_zip_members(data, f"{src.rstrip('/')}/{comp.download_file}", limits), comp, season)
    else:
        root = Path(src).expanduser()
        if not root.exists():
            raise SourceError(f"source folder {root} does not exist; pass --source DIR or URL")
        files = from_folder(root, comp, season, limits)
    if not files:
        raise UnknownSeason(
            f"{comp.code} {normalise_season(comp, season)} has no matches at {src}; "
            f"check the season (e.g. 2024-25 for split seasons)")
    return files
