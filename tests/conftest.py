"""Shared fixtures: the local Cricsheet mirror in ../shared and a throwaway cache."""
from __future__ import annotations

import inspect
import json
import os
import sys
import tempfile
import types
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple
from collections.abc import Callable, Mapping

try:
    import fcntl
except ImportError:  # Windows: no xdist sharing, each worker computes its own
    fcntl = None  # type: ignore[assignment]

import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

from cardgen.cache import Cache

if TYPE_CHECKING:
    from cardgen.cardset import CardSet

# property tests draw the same examples every run (a failure reproduces) and keep no example
# database in the checkout (.hypothesis/); CI=true already does this, now every run does
settings.register_profile("cardgen", derandomize=True, database=None)
settings.load_profile("cardgen")
set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "cardgen-tests-hypothesis")  # its own caches

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
MIRROR = SHARED / "data" / "cricsheet"
PLAYERS = SHARED / "data" / "players"

# The browser tests (test_site_browser.py, test_play_page.py) share one Playwright and one Chromium
# per session: a second sync Playwright in the same process is refused ("inside the asyncio loop").
CHROMIUM = "/usr/bin/chromium"
# The flags that let Chromium start on a machine with no network: no sandbox (root in CI), no GPU,
# and none of the background connections (QUIC, component updates, sync) that would be refused.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# Playwright's waits (navigation, clicks, selectors, downloads) end as soon as their condition
# holds; its 30 s default bound was near what a page load took on a loaded CI machine (load
# 8-20 on 2 cores), so the bound, which only caps a failure, is wide.
BROWSER_WAIT_MS = 300_000


@pytest.fixture(scope="session")
def playwright():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def chromium(playwright):
    """One headless Chromium for the session (starting one takes a second or two); every test
    opens its own context in it (_launch)."""
    try:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=CHROMIUM_ARGS, timeout=BROWSER_WAIT_MS)
    except Exception as exc:  # noqa: BLE001 - any failure to start is the same loud failure
        pytest.fail(f"headless Chromium ({CHROMIUM}) could not start: {exc}\n"
                    "install Debian's chromium (see .ci/run)", pytrace=False)
    yield browser
    browser.close()


# --- the needs_data marker -----------------------------------------------------------------------
# A test that reads ../shared (the mirror, the players folder, the schema) carries
# `@pytest.mark.needs_data`, so that a clone alone can leave it out (./test.sh --fast). It is put
# on at collection, so nobody has to remember it, on every test that
# - asks for the `mirror` fixture, directly or through any fixture built on it (bbl_stats,
#   card_set_file, ...), or
# - names a path under ../shared (MIRROR, PLAYERS, SHARED or a module constant of its own built
#   from them), in its body, in a fixture it asks for, or in a function of its module they call.
# A test that reads ../shared some other way must be marked by hand; if it is not, it fails with
# the path it read (an audit hook watches file opens, listings and command lines while an
# unmarked test runs): otherwise it would pass here and fail on a clone alone.
NEEDS_DATA = "needs_data"
DATA_FIXTURES = frozenset({"mirror"})  # every fixture that reads ../shared is built on these
_SHARED_PREFIX = str(SHARED) + os.sep
_READ_EVENTS = frozenset({"open", "os.listdir", "os.scandir", "glob.glob", "glob.glob/2",
                          "shutil.copyfile", "shutil.copytree", "subprocess.Popen", "os.exec",
                          "os.posix_spawn"})


class _Unmarked:
    """While an unmarked test runs, the ../shared paths it read (`reads`); None otherwise."""
    reads: list[str] | None = None


def _under_shared(value: Any) -> str | None:
    if isinstance(value, (list, tuple)):
        return next((p for p in map(_under_shared, value) if p), None)
    if not isinstance(value, (str, bytes, os.PathLike)):
        return None
    try:
        text = os.fsdecode(value)
    except (TypeError, ValueError):
        return None
    if "shared" not in text:  # the cheap test first: the hook sees every file the suite opens
        return None
    for word in text.split():  # a subprocess's argument list may be one string
        if os.path.abspath(word).startswith(_SHARED_PREFIX):
            return word
    return None


def _audit(event: str, args: tuple) -> None:
    reads = _Unmarked.reads
    if reads is None or event not in _READ_EVENTS:
        return
    path = _under_shared(args[:2] if event == "subprocess.Popen" else args[:1])
    if path and len(reads) < 3:
        reads.append(path)


def pytest_configure(config: pytest.Config) -> None:
    sys.addaudithook(_audit)  # for the whole process (a hook cannot be removed); idle between tests


def _is_shared_path(value: Any) -> bool:
    if not isinstance(value, (str, os.PathLike)):
        return False
    try:
        text = os.path.abspath(os.fspath(value))
    except (TypeError, ValueError):
        return False
    return text == str(SHARED) or text.startswith(_SHARED_PREFIX)


def _names(code: types.CodeType) -> set[str]:
    """The global names a function's code (and the code nested in it) refers to."""
    found = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found |= _names(const)
    return found


def _names_shared_path(func: Any, seen: set[Any]) -> bool:
    """Whether `func`, or a function of its own module it calls, names a ../shared path."""
    func = getattr(getattr(func, "hypothesis", None), "inner_test", func)  # a @given test
    func = inspect.unwrap(getattr(func, "__func__", func))
    code, module_globals = getattr(func, "__code__", None), getattr(func, "__globals__", None)
    if code is None or module_globals is None or func in seen:
        return False
    seen.add(func)
    for name in _names(code):
        value = module_globals.get(name)
        if _is_shared_path(value):
            return True
        if (inspect.isfunction(value) and value.__module__ == func.__module__
                and _names_shared_path(value, seen)):
            return True
    return False


def _needs_data(item: pytest.Item) -> bool:
    if DATA_FIXTURES.intersection(getattr(item, "fixturenames", ())):
        return True
    seen: set[Any] = set()
    if _names_shared_path(getattr(item, "obj", None), seen):
        return True
    fixture_info = getattr(item, "_fixtureinfo", None)
    definitions = fixture_info.name2fixturedefs.values() if fixture_info else ()
    return any(_names_shared_path(d.func, seen) for defs in definitions for d in defs)


# --- how ./test.sh shares the suite between its workers (--dist loadfile) ------------------------
# A test file goes to one worker whole (its module fixtures are built once), but for the files in
# SPREAD: their fixtures are session-wide, the costly ones cheap to build twice or shared between
# the workers (_once_per_run), so their tests go one by one to whichever worker is free (the
# scheduler below); they come last and even out the end of the run. Before them the files that
# take longest (LONGEST_FIRST, from a whole run's --durations; issue 39) start first, in this
# order (./test.sh --no-loadscope-reorder keeps it), so a 2-worker run does not end with one long
# file alone on one worker. A file missing from the list only starts later: the order never
# changes what a test sees (no test depends on order).
SPREAD = frozenset({"test_render_sheets.py", "test_render_kit.py"})
LONGEST_FIRST = ("test_site_browser.py", "test_play_engine.py", "test_play_page.py", "test_packaging.py",
                 "test_games_cricket_the_game.py", "test_league_points.py", "test_league_mean.py",
                 "test_games_compare.py", "test_quality.py", "test_stats_tables.py", "test_cli_robust.py")


@pytest.hookimpl(optionalhook=True)  # a pytest-xdist hook: without xdist, never called
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """--dist loadfile, with the tests of a SPREAD file each a work unit of its own."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class Scheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            spread = Path(nodeid.split("::", 1)[0]).name in SPREAD
            return nodeid if spread else super()._split_scope(nodeid)

    return Scheduling(config, log)


def _schedule(items: list[pytest.Item]) -> None:
    """The order the workers take the files in (see above)."""
    rank = {name: n for n, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: (item.path.name in SPREAD, rank.get(item.path.name, len(rank))))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """needs_data on every test that reaches ../shared by a fixture or a name (before -m selects);
    under pytest-xdist, the groups and the order the workers take the tests in."""
    for item in items:
        if not item.get_closest_marker(NEEDS_DATA) and _needs_data(item):
            item.add_marker(NEEDS_DATA)
    if os.environ.get("PYTEST_XDIST_WORKER"):
        _schedule(items)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    _Unmarked.reads = None if item.get_closest_marker(NEEDS_DATA) else []
    try:
        yield
    finally:
        _Unmarked.reads = None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    report = outcome.get_result()
    reads = _Unmarked.reads
    if reads and report.passed:
        report.outcome = "failed"
        report.longrepr = (f"{item.nodeid} read {', '.join(reads)} in ../shared during "
                           f"{report.when} but is not marked: add @pytest.mark.{NEEDS_DATA} "
                           f"(CONTRIBUTING.md)")
    if reads:
        reads.clear()  # said once


# --- the slow marker: a hint -----------------------------------------------------------------------
# Tests taking seconds carry `@pytest.mark.slow` by hand (CONTRIBUTING.md); the run ends with the
# unmarked ones whose call took longer than SLOW_HINT (a first test's setup also pays for the
# session's imports, so setup is left out), so they get marked before they
# push the fast subset past a minute. A hint, never a failure: timing is noise on a loaded machine.
SLOW_HINT = 5.0  # s; several times what a quick test takes on a loaded 2-core machine
_slow_unmarked: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and "slow" not in report.keywords \
            and NEEDS_DATA not in report.keywords:
        _slow_unmarked[report.nodeid] = report.duration


def pytest_terminal_summary(terminalreporter: Any) -> None:
    slow = sorted(((t, n) for n, t in _slow_unmarked.items() if t > SLOW_HINT), reverse=True)
    if slow:
        terminalreporter.write_sep("-", f"unmarked tests over {SLOW_HINT:.0f} s: mark them "
                                        f"@pytest.mark.slow if they are (CONTRIBUTING.md)")
        for seconds, nodeid in slow[:20]:
            terminalreporter.write_line(f"{seconds:6.1f} s  {nodeid}")


@pytest.fixture(scope="session", autouse=True)
def _every_cardgen_module_imported() -> None:
    """Hypothesis draws some of its examples from the constants of the project's modules that
    are loaded when a property test runs (derandomize or not), so a test's examples depended on
    which tests had imported what before it: test_calibrate_properties.py's strike-rate property
    met a failing example alone and not after test_calibrate_expect.py. Every module of cardgen
    is imported before the first test, so each test draws the same examples whatever ran first
    (`python -m` entry points excepted: importing those runs them)."""
    import importlib
    import pkgutil

    import cardgen
    for module in pkgutil.walk_packages(cardgen.__path__, "cardgen."):
        if module.name.rsplit(".", 1)[-1] != "__main__":
            importlib.import_module(module.name)


@pytest.fixture(scope="session", autouse=True)
def _private_user_cache(tmp_path_factory: pytest.TempPathFactory):
    """The suite never reads or writes the user's own cardgen cache (tests that need another
    cache set CARDGEN_CACHE themselves, which overrides this); under pytest-xdist each
    calibration solves in its own worker (CARDGEN_CALIBRATE_JOBS=1)."""
    patch = pytest.MonkeyPatch()
    patch.setenv("CARDGEN_CACHE", str(tmp_path_factory.mktemp("user-cache")))
    if os.environ.get("PYTEST_XDIST_WORKER") and "CARDGEN_CALIBRATE_JOBS" not in os.environ:
        # the workers already use every core: a calibration in one solves in that process
        patch.setenv("CARDGEN_CALIBRATE_JOBS", "1")
    yield
    patch.undo()


_BUSY = object()


def _once_per_run(computes: dict[str, Callable[[], Any]],
                  tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """{name: compute()} for session fixtures that cost seconds, each computed once per pytest run
    even when pytest-xdist (./test.sh) runs the suite in several worker processes: the first
    worker to need a value computes it under a lock and leaves it as JSON in the run's shared
    temporary folder, and the others read it. A worker first takes the values no other worker
    is computing (two workers calibrate two seasons side by side), then waits for the rest.
    The values must be plain JSON (dicts with str keys, lists, str, int, float, bool, None),
    whose round trip is exact: key order, types and floats come back the same (a value that
    reads back unequal is not shared). Without xdist, or without fcntl's locks, each is simply
    computed."""
    if not os.environ.get("PYTEST_XDIST_WORKER") or fcntl is None:
        return {name: compute() for name, compute in computes.items()}
    folder = tmp_path_factory.getbasetemp().parent  # the run's folder, above each worker's own
    values: dict[str, Any] = {}
    for blocking in (False, True):
        for name, compute in computes.items():
            if name not in values:
                value = _shared_value(folder / f"once-per-run-{name}.json", compute, blocking)
                if value is not _BUSY:
                    values[name] = value
    return {name: values[name] for name in computes}


def _shared_value(path: Path, compute: Callable[[], Any], blocking: bool) -> Any:
    """The value kept at `path`, else computed and kept there; _BUSY when another worker holds
    the lock and `blocking` is false."""
    with open(path.with_suffix(".lock"), "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
        except BlockingIOError:
            return _BUSY
        if path.is_file():
            return json.loads(path.read_text(encoding="utf-8"))
        value = compute()
        text = json.dumps(value, ensure_ascii=False)
        if json.loads(text) == value:
            path.with_suffix(".tmp").write_text(text, encoding="utf-8")
            path.with_suffix(".tmp").replace(path)
        return value


@pytest.fixture(scope="session")
def mirror() -> Path:
    if not MIRROR.is_dir():
        pytest.fail(f"the Cricsheet mirror is missing at {MIRROR} (clone beside ../shared, or leave "
                    f"out the tests that need it: ./test.sh -m 'not needs_data')")
    return MIRROR


@pytest.fixture
def tmp_cache(tmp_path: Path) -> Cache:
    return Cache(tmp_path / "stats_cache")


@pytest.fixture(scope="session")
def bbl_stats(mirror: Path, tmp_path_factory: pytest.TempPathFactory):
    """BBL 2024-25 tables built from the mirror (not the committed cache)."""
    from cardgen.competitions import get_competition
    from cardgen.stats.load import season_stats
    cache = Cache(tmp_path_factory.mktemp("cache"))
    return season_stats(get_competition("BBL"), "2024-25", str(mirror), cache=cache)


@pytest.fixture(scope="session")
def hundred_stats(mirror: Path, tmp_path_factory: pytest.TempPathFactory):
    from cardgen.competitions import get_competition
    from cardgen.stats.load import season_stats
    cache = Cache(tmp_path_factory.mktemp("cache"))
    return season_stats(get_competition("HUNDRED"), "2024", str(mirror), cache=cache)


@pytest.fixture(scope="session")
def render_card_sets(bbl_stats, hundred_stats, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """The BBL 2024-25 (T20) and The Hundred 2024 (100-ball) card sets for the advanced rules
    (wickets in hand and Defence: the sets with the most to print and play), calibrated
    once per session from the mirror's tables: the suite's only calibration of these two seasons
    (a calibration takes 10-12 s; tests that change a set take a deep copy). Under pytest-xdist
    a season is calibrated by the first worker to need it and the others read
    that set (_once_per_run)."""
    from cardgen.calibrate.cardset import card_set_from_stats
    from cardgen.competitions import get_competition

    return _once_per_run(
        {"BBL": lambda: card_set_from_stats(bbl_stats, get_competition("BBL"), "2024-25", "advanced"),
         "HUNDRED": lambda: card_set_from_stats(hundred_stats, get_competition("HUNDRED"), "2024",
                                                "advanced")},
        tmp_path_factory)


@pytest.fixture(scope="session")
def card_set_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """BBL 2024-25's card-set.json for the Quicket rules, as `cardgen calibrate` writes it (the
    default kit's set: the one that ships, read, not calibrated), for the tests that feed a card
    set to other commands: a kit made from it goes to OUT/BBL_2024-25/."""
    from cardgen.calibrate.cardset import write_card_set
    return write_card_set(shipped_set("BBL_2024-25", "quicket"), tmp_path_factory.mktemp("bbl-card-set"))


@pytest.fixture(scope="session")
def advanced_card_set_file(render_card_sets: dict[str, dict], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """BBL 2024-25's advanced card-set.json (the session's calibrated set, written once): a kit
    made from it goes to OUT/BBL_2024-25-advanced/."""
    from cardgen.calibrate.cardset import write_card_set
    return write_card_set(render_card_sets["BBL"], tmp_path_factory.mktemp("bbl-advanced-card-set"))


def shipped_set(name: str, rules: str) -> dict:
    """The shipped card set of one season for `rules` (stats_cache/card-sets/, as cardgen reads
    it when a build reuses it): read, not calibrated."""
    import gzip
    from cardgen.calibrate.reuse import FOLDER
    from cardgen.paths import bundled_tables_dir
    for path in sorted((bundled_tables_dir() / FOLDER).glob(f"{name}-*.json.gz")):
        card_set = json.loads(gzip.decompress(path.read_bytes()))
        if card_set.get("rules") == rules:
            return card_set
    raise AssertionError(f"no shipped {name} set for the {rules} rules")


def as_model(doc: Mapping[str, Any]) -> CardSet:
    """The model of a card-set document a test built, read or changed: what the render layer
    takes (cardgen reads a set once, at the edge: `load_card_set`, or `CardSet.from_json` for a
    set built in memory). Here a document only: a test that has the model already passes it."""
    from cardgen.cardset import CardSet
    if not isinstance(doc, Mapping):
        raise TypeError(f"as_model takes a card-set document, not {type(doc).__name__}")
    return CardSet.from_json(doc)


def _shipped_rule_set(name: str) -> dict:
    """The shipped advanced card set of one season (with the wickets-in-hand rule)."""
    return shipped_set(name, "advanced")


def _ratings_width(card: dict) -> float:
    """The printed width (mm at 1 pt) of a striker card's fielding ratings line."""
    from cardgen.render.card import card_views
    from cardgen.render.fonts import text_width_mm
    [view] = card_views(as_model({"competition": {"code": "X"}, "season": "2024", "cards": [card]}))
    return text_width_mm(view.ratings, "bold", 1.0)


@pytest.fixture(scope="session")
def defence_card_sets() -> dict[str, dict]:
    """{"T20": BBL 2024-25, "100-ball": The Hundred 2024}: the shipped sets with the rule, every
    Defence rating (R13) they carry taken off, then put on three striker cards: 20 on the card
    with the widest fielding ratings line (a WK(x) beside C / RO: the line most likely not to fit),
    1 on the narrowest and 7 on a wicketkeeper's. Shared: a test that changes one takes a copy."""
    sets = {}
    for fmt, name in (("T20", "BBL_2024-25"), ("100-ball", "HUNDRED_2024")):
        card_set = _shipped_rule_set(name)
        for card in card_set["cards"]:
            card.pop("defence", None)
        strikers = sorted((c for c in card_set["cards"] if c["kind"] == "striker"),
                          key=lambda c: (_ratings_width(c), c["player"]["id"]))
        keeper = next(c for c in strikers[1:-1] if c["player"].get("batting_role") == "Wicketkeeper")
        for card, rating in ((strikers[-1], 20), (strikers[0], 1), (keeper, 7)):
            card["defence"] = rating
        sets[fmt] = card_set
    return sets


class DrawnText(NamedTuple):
    x: float          # mm, rounded to 0.001 mm so equal places compare equal
    y: float
    text: str
    style: str
    size_pt: float
    colour: str
    align: str


class RecordingPainter:
    """A render Painter that draws nothing and records the text it is asked to draw."""

    def __init__(self) -> None:
        self.texts: list[DrawnText] = []

    def rect(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        pass

    def line(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        pass

    def text(self, x, y, text, style, size_pt, colour="#000000", align="left") -> None:  # type: ignore[no-untyped-def]
        self.texts.append(DrawnText(round(x, 3), round(y, 3), text, style, size_pt, colour, align))


@pytest.fixture
def recording_painter() -> type[RecordingPainter]:
    """The class: call it for a fresh painter (a test may draw several cards)."""
    return RecordingPainter


def _pdf_words(path: Path) -> str:
    """A PDF's text, every page, as a reader finds it: whitespace runs read as one space (read
    once per distinct document: tests/pdf_text.py)."""
    import pdf_text
    return pdf_text.words(path)


@pytest.fixture
def pdf_words() -> Callable[[Path], str]:
    """The function: pdf_words(path) -> the document's text, whitespace collapsed."""
    return _pdf_words
