"""The `cardgen` command line. Library code raises `CardgenError`s; only this module prints them."""
from __future__ import annotations

import contextlib
import errno
import functools
import io
import os
import re
import signal
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any
from collections.abc import Callable

import click

if TYPE_CHECKING:  # the model (and numpy) load when a command reads a card set
    from cardgen.cardset import CardSet

from cardgen import __version__, options
from cardgen.competitions import Competition, get_competition, normalise_season
from cardgen.errors import (EXIT_BROKEN_PIPE, EXIT_BUG, EXIT_ENVIRONMENT, EXIT_INTERRUPTED,
                            EXIT_TERMINATED, INTERRUPTED, CardgenError, CardgenWarning, Terminated)

DEFAULT_OUT = Path("output")

# --- the one place where errors become messages and exit codes ----------------------------------
# Staging and temporary names inside OUT or the cache: a message names the user's folder instead.
_INTERNAL_NAME = re.compile(r"^\..*(\.build-|\.new[.-]|\.old[.-]|\.tmp$)")
_OS_ADVICE = {
    errno.EACCES: ("permission denied", "choose a folder you can write to (--out, CARDGEN_CACHE) "
                                        "or fix its permissions"),
    errno.EPERM: ("operation not permitted", "choose a folder you can write to (--out, CARDGEN_CACHE) "
                                             "or fix its permissions"),
    errno.EROFS: ("the file system is read-only", "choose a writable folder (--out, CARDGEN_CACHE)"),
    errno.ENOSPC: ("no space left on the disk", "free some space or choose a folder on another disk; "
                                                "nothing half-written was kept"),
    errno.EDQUOT: ("disk quota exceeded", "free some space or choose a folder on another disk; "
                                          "nothing half-written was kept"),
    errno.ENOTDIR: ("a part of the path is a file, not a folder", "choose another folder"),
    errno.EEXIST: ("a file is where a folder is needed", "choose another folder or move the file"),
    errno.EISDIR: ("is a folder, not a file", "give a file's path"),
    errno.ENOENT: ("no such file or folder", "check the path"),
    errno.ENAMETOOLONG: ("the path is too long", "choose a shorter folder name"),
    errno.EMFILE: ("too many open files", "raise the open-file limit (ulimit -n) and run again"),
    errno.ENOMEM: ("out of memory", "close other programs or ask for a smaller run"),
    errno.EIO: ("input/output error", "check the disk"),
}


def user_path(filename: Any) -> str:
    """The path to show a user: cut at our own staging or temporary folder, if any."""
    if filename is None:
        return ""
    parts = Path(os.fsdecode(filename)).parts
    for i, part in enumerate(parts):
        if _INTERNAL_NAME.match(part):
            return str(Path(*parts[:i])) if i else part
    return str(Path(*parts))


def _broken_pipe(exc: BaseException) -> bool:
    return isinstance(exc, OSError) and exc.errno == errno.EPIPE


def describe_error(exc: BaseException) -> tuple[str, int] | None:
    """A one-line message saying what to do and the exit code, for every expected error.

    None for anything else (a bug: `_as_exit` saves its traceback for the report).
    """
    if isinstance(exc, CardgenError):
        return str(exc), exc.exit_code
    if type(exc).__module__.split(".")[0] in ("requests", "urllib3"):
        # requests' errors are OSErrors too; the sources layer wraps them, this is the safety net
        return (f"network error ({exc.__class__.__name__}); check the connection or pass "
                f"--source with a local mirror", EXIT_ENVIRONMENT)
    if _broken_pipe(exc):
        return None  # `cardgen stats | head`: ends quietly (CardgenGroup, _ended_by_the_reader)
    if isinstance(exc, OSError):
        what, advice = _OS_ADVICE.get(exc.errno or -1, (exc.strerror or str(exc), "check the folder"))
        where = user_path(exc.filename)
        return (f"cannot use {where}: {what}; {advice}" if where else f"{what}; {advice}",
                EXIT_ENVIRONMENT)
    if isinstance(exc, UnicodeError):
        # a bare UnicodeError (not Encode/Decode/Translate) has no .reason
        return (f"text could not be encoded or decoded ({exc.__class__.__name__}: "
                f"{getattr(exc, 'reason', exc)}); "
                f"use a UTF-8 locale or set PYTHONIOENCODING=utf-8", EXIT_ENVIRONMENT)
    if isinstance(exc, MemoryError):
        return ("out of memory; ask for a smaller run (see the command's --help for its limits)",
                EXIT_ENVIRONMENT)
    return None


class CardgenExit(click.ClickException):
    """A one-line message with its own exit code (click prints "Error: ..." and exits)."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self._exit_code = exit_code

    # click declares exit_code a class constant (1) and reads it from the instance: each
    # CardgenExit answers with its own
    @property
    def exit_code(self) -> int:
        return self._exit_code

    @exit_code.setter
    def exit_code(self, value: int) -> None:
        self._exit_code = value


def _as_exit(exc: BaseException) -> CardgenExit | None:
    if isinstance(exc, Terminated):
        return CardgenExit("terminated (SIGTERM); nothing half-written was kept", EXIT_TERMINATED)
    if isinstance(exc, KeyboardInterrupt):
        return CardgenExit(INTERRUPTED, EXIT_INTERRUPTED)
    described = describe_error(exc)
    if described:
        return CardgenExit(*described)
    if not isinstance(exc, Exception) or os.environ.get(DEBUG_ENV) or _broken_pipe(exc):
        return None  # SystemExit and the like; a developer's traceback; `| head`
    return _bug(exc)


DEBUG_ENV = "CARDGEN_DEBUG"  # set (to anything): a bug shows its traceback instead


def _bug(exc: Exception) -> CardgenExit:
    """A bug in cardgen: one line for the user, the traceback saved to a file they can send."""
    import platform
    import tempfile
    import traceback
    report = "".join([f"cardgen {__version__}, Python {platform.python_version()}, "
                      f"{platform.platform()}\ncommand: {' '.join(sys.argv)}\n\n",
                      *traceback.format_exception(type(exc), exc, exc.__traceback__)])
    saved: str | None = None
    try:
        fd, saved = tempfile.mkstemp(prefix="cardgen-bug-", suffix=".txt")
        with open(fd, "w", encoding="utf-8") as f:
            f.write(report)
    except OSError:  # a full or read-only temp folder: no half-written report is left
        if saved:
            Path(saved).unlink(missing_ok=True)
        saved = None
    what = " ".join(f"{type(exc).__name__}: {exc}".split())[:160]
    where = (f"the details are in {saved}" if saved
             else f"run again with {DEBUG_ENV}=1 to see the details")
    return CardgenExit(f"cardgen hit a bug ({what}); {where}: please report it with the "
                       f"command you ran", EXIT_BUG)


def friendly_errors(func: Callable) -> Callable:
    """Turn expected errors into a one-line message and a documented exit code (never a traceback).

    The group does the same for every command; this decorator keeps commands that are called on
    their own (tests, other groups) just as friendly.
    """
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except click.exceptions.Exit:
            raise
        except (click.ClickException, click.Abort):
            raise
        except BaseException as exc:  # noqa: B036 - KeyboardInterrupt and SIGTERM included
            mapped = _as_exit(exc)
            if mapped is None:
                raise
            raise mapped from None
    return wrapper


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated()


def _ended_by_the_reader() -> click.exceptions.Exit:
    """The reader of the output went away (`cardgen stats | head -1`): no message, no traceback
    and exit 141, as a tool the shell's `| head` stops ends (click's own ending was exit 1, "a
    check failed"). What is still buffered goes nowhere, so the exit's flush cannot fail again."""
    for stream in (sys.stdout, sys.stderr):
        try:
            fd = stream.fileno()
        except (AttributeError, ValueError, io.UnsupportedOperation):
            continue  # an in-memory stream (CliRunner) cannot break
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    return click.exceptions.Exit(EXIT_BROKEN_PIPE)


def _tolerant_streams() -> None:
    """Never crash on a name the terminal's encoding lacks (PYTHONIOENCODING=latin-1, C locale)."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and (stream.encoding or "").lower().replace("-", "") != "utf8":
            with contextlib.suppress(ValueError, io.UnsupportedOperation):
                stream.reconfigure(errors="replace")


class OneLineUsageError(click.UsageError):
    """A usage error as one line, as every other error is: click prints the usage and a hint on
    lines of their own first ("Usage: cardgen build [OPTIONS]", "Try ... for help.")."""

    def show(self, file: Any = None) -> None:
        where = f" (see '{self.ctx.command_path} --help')" if self.ctx is not None else ""
        click.echo(f"Error: {self.format_message().rstrip('.')}{where}", err=True, file=file)


def _one_line(exc: click.UsageError) -> click.UsageError:
    """`exc` as a OneLineUsageError; `cardgen` alone (click's help for no arguments) stays as it is."""
    no_args = getattr(click.exceptions, "NoArgsIsHelpError", OneLineUsageError)  # click >= 8.2
    if isinstance(exc, (OneLineUsageError, no_args)):
        return exc
    return OneLineUsageError(exc.format_message(), exc.ctx)


class CardgenGroup(click.Group):
    """The command group: SIGTERM handled like Ctrl+C, tolerant output, and errors mapped in one place."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        _tolerant_streams()
        previous = None
        with contextlib.suppress(ValueError):  # not the main thread (an embedding program): leave signals alone
            previous = signal.signal(signal.SIGTERM, _raise_terminated)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("always", CardgenWarning)  # each skipped file, every time
                shown = warnings.showwarning

                def show(message: Any, category: type[Warning], *rest: Any, **kw: Any) -> None:
                    if issubclass(category, CardgenWarning):
                        click.echo(f"warning: {message}", err=True)
                    else:
                        shown(message, category, *rest, **kw)
                warnings.showwarning = show
                return super().main(*args, **kwargs)
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list with each command's whole summary (COMMAND_SUMMARIES), where click
        would cut the docstring's first sentence at 45 characters."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, COMMAND_SUMMARIES.get(name) or command.get_short_help_str(limit=200)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:  # the group's own options ("cardgen --bogus", "cardgen --help | head -1")
            return super().make_context(*args, **kwargs)
        except click.UsageError as exc:
            raise _one_line(exc) from None
        except OSError as exc:
            if _broken_pipe(exc):
                raise _ended_by_the_reader() from None
            raise

    def invoke(self, ctx: click.Context) -> Any:
        try:
            os.getcwd()
        except FileNotFoundError:  # else the first relative path fails as "no such file or folder"
            raise CardgenExit("the working folder no longer exists (deleted or moved); cd to a "
                              "folder that exists and run again", EXIT_ENVIRONMENT) from None
        interrupt = _interruptible()
        # --refresh, --strict and --names fill in this command's options (cardgen.options): they
        # end with it, so whatever runs in the process after it starts from the defaults
        try:
            with options.command_options():
                return super().invoke(ctx)
        except click.UsageError as exc:
            raise _one_line(exc) from None
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except BaseException as exc:  # noqa: B036
            if _broken_pipe(exc):
                raise _ended_by_the_reader() from None
            mapped = _as_exit(exc)
            if mapped is None:
                raise
            raise mapped from None
        finally:
            if interrupt is not None:
                signal.signal(signal.SIGINT, interrupt)


def _interruptible() -> Any:
    """Ctrl+C raises KeyboardInterrupt while a command runs, so its clean-up runs and it ends in
    the one line and 130 (`cardgen.launch` ended the process at once while it started up); the
    handler it replaced, to put back after the command (None: not the main thread)."""
    try:
        return signal.signal(signal.SIGINT, signal.default_int_handler)
    except ValueError:
        return None


def resolve(competition: str, season: str) -> tuple[Competition, str]:
    comp = get_competition(competition)
    return comp, normalise_season(comp, season)


def check_season_format(comp: Competition, season: str, source: str | None, stats: Any = None) -> None:
    """A season not of the game's format refused in one line (`cardgen.catalogue.season`, which
    `cardgen catalogue` runs too; imported when used: the CLI starts without it)."""
    from cardgen.catalogue.season import check_season_format as check
    check(comp, season, source, stats)


def _use_names(ctx: click.Context, param: click.Parameter, value: Path | None) -> None:
    from cardgen.sources.names import names_file, read_names
    try:
        options.update(names=read_names(value), names_file=names_file(value))
    except CardgenError as exc:  # one line and its exit code (2: a bad file), like every other error
        raise CardgenExit(str(exc), exc.exit_code) from None


def _request_refresh(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    options.update(refresh=value)
    return value


def _strict_callback(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not ctx.resilient_parsing:
        options.update(strict=True if value else None)  # None: $CARDGEN_STRICT decides


def _check_source(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A --source that can be neither a mirror folder nor a URL is an input error (exit 2) before
    any work: a file (it failed later as a disk error, exit 3) or a URL scheme cardgen cannot read."""
    if not value or ctx.resilient_parsing:
        return value
    from cardgen.errors import EXIT_USAGE
    from cardgen.sources.fetch import is_url
    if is_url(value):
        return value
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", value):
        raise CardgenExit(f"source {value} is not a URL cardgen can read; pass --source with an "
                          f"http:// or https:// URL, or a folder of match files", EXIT_USAGE)
    path = Path(value).expanduser()
    if path.exists() and not path.is_dir():
        raise CardgenExit(f"source {value} is a file, not a folder of match files; pass --source "
                          f"with a Cricsheet mirror folder or URL", EXIT_USAGE)
    return value


def competition_options(func: Callable | None = None, *, required: bool = True) -> Callable:
    """--competition, --season, --source, --refresh and --names, shared by every command that
    reads a season (`required=False`: a command that can also play a league's card set, which
    names no real season, checks them itself)."""
    if func is None:
        return lambda f: competition_options(f, required=required)
    func = click.option("--refresh", is_flag=True, expose_value=False, callback=_request_refresh,
                        help="Rebuild the season's tables from the source (downloading again), "
                             "ignoring cached and bundled tables.")(func)
    func = click.option("--names", type=click.Path(dir_okay=False, path_type=Path), default=None,
                        envvar="CARDGEN_NAMES", expose_value=False, callback=_use_names,
                        metavar="FILE",
                        help="Name corrections: CSV of Cricsheet register id -> printed name "
                             "(header id,name); used on every card, sheet and card-set.json "
                             "(env CARDGEN_NAMES).")(func)
    func = click.option("--strict", is_flag=True, expose_value=False, callback=_strict_callback,
                        help="Stop at an unreadable or damaged match file (default: skip it with a "
                             "warning; env CARDGEN_STRICT=1).")(func)
    func = click.option("--source", envvar="CARDGEN_SOURCE", default=None, metavar="DIR|URL",
                        callback=_check_source,
                        help="Cricsheet mirror: a folder of match files or a base URL "
                             "(default: cricsheet.org; env CARDGEN_SOURCE).")(func)
    func = click.option("--season", "-s", required=required,
                        help="Season, e.g. 2024-25 (split seasons) or 2024 (calendar year).")(func)
    func = click.option("--competition", "-c", required=required,
                        help="Competition code or alias, e.g. BBL, HUNDRED, IPL "
                             "(see `cardgen competitions`).")(func)
    return func


RULES_HELP = ("Which rules the cards are made for and played by: quicket, the Quicket Cricket rules "
              "as printed (the default), or advanced: the printed rules plus wickets in hand and "
              "Defence, whose kit goes to OUT/<CODE>_<season>-advanced/.")


def rules_option(func: Callable) -> Callable:
    """--rules quicket|advanced (`cardgen.rule_sets`), and the hidden --classic of old (the printed
    rules, now the default: `--rules quicket`). The command gets `rules`: the name, or None
    when neither was given (a --cards file then plays its own rules; else the default)."""
    from cardgen.rule_sets import ADVANCED, QUICKET, RULE_SETS

    @functools.wraps(func)
    def merged(*args: Any, rules: str | None = None, classic: bool = False, **kwargs: Any) -> Any:
        if classic and rules == ADVANCED:
            raise click.UsageError("--classic is the old name of --rules quicket (the rules as printed); "
                                   "give one of them")
        return func(*args, rules=QUICKET if classic else rules, **kwargs)
    merged = click.option("--classic", is_flag=True, default=False, hidden=True,
                          help="The old name of --rules quicket.")(merged)
    return click.option("--rules", type=click.Choice(RULE_SETS), default=None, help=RULES_HELP)(merged)


def refuse_other_rules(card_set: CardSet, rules: str | None, where: str) -> None:
    """A card set is made for one rule set: asked for the other (`--rules`), say so: never
    play or print it by rules it was not made for."""
    from cardgen.rule_sets import TITLES, rules_of_set
    made_for = rules_of_set(card_set)
    if rules is not None and rules != made_for:
        raise CardgenError(f"{where} is made for the {TITLES[made_for]} ('{made_for}'), not '{rules}': "
                           f"leave out --rules, or make the season's cards with --rules {rules}")


def check_writable(folder: Path) -> None:
    """Fail early (before minutes of work) when `folder` cannot be created or written to.

    Probes the nearest existing ancestor with a temporary file, so nothing is left behind.
    """
    folder = Path(folder)
    probe = folder.absolute()
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder))
    import tempfile
    try:
        with tempfile.TemporaryFile(dir=probe, prefix=".cardgen-probe-"):
            pass
    except OSError as exc:
        raise type(exc)(exc.errno, exc.strerror, str(folder)) from None


def _writable_out(ctx: click.Context, param: click.Parameter, value: Path) -> Path:
    if not ctx.resilient_parsing:
        check_writable(value)
    return value


class FolderPath(click.Path):
    """A folder option or argument that refuses "": an unset shell variable (`--out "$OUT"`)
    would otherwise mean the working folder, and the kit would land there unasked."""

    def __init__(self) -> None:
        super().__init__(file_okay=False, path_type=Path)

    def convert(self, value, param, ctx):  # type: ignore[no-untyped-def]
        if isinstance(value, str) and not value.strip():
            self.fail("is empty: name a folder", param, ctx)
        return super().convert(value, param, ctx)


def out_option(func: Callable | None = None, *, must_write: bool = True,
               help_text: str = "Output folder; the set is written under OUT/<CODE>_<season>/.") -> Callable:
    """--out; a command that writes there checks first that it can (exit 3 at once if not)."""
    def decorate(f: Callable) -> Callable:
        return click.option("--out", "out_dir", type=FolderPath(),
                            default=DEFAULT_OUT, show_default=True,
                            callback=_writable_out if must_write else None,
                            help=help_text)(f)
    return decorate(func) if func is not None else decorate


# `cardgen --help`'s list: one whole phrase a command (each command's --help has the rest)
COMMAND_SUMMARIES = {
    "build": "Build a season's print-and-play kit (cards, sheets, match page)",
    "cache": "Show or clear the cache of downloads, tables and card sets",
    "calibrate": "Calibrate a season's cards into card-set.json",
    "catalogue": "Build every season of a mirror, several at once, then one site",
    "compare-games": "Rank every game system by closeness to the real season",
    "competitions": "List competitions and the seasons available offline",
    "league": "Build a league of your own players from any seasons",
    "preflight": "Check a kit's PDFs as a printer would",
    "replay": "Replay a match saved by a kit's play.html",
    "serve": "Serve the download site on this computer",
    "simulate": "Replay the season many times: ladder, totals, leaders",
    "site": "Render the static download site from the built kits",
    "stats": "Print a season's real batting, bowling and fielding tables",
    "validate": "Play every card and compare it with its real season",
}

MAIN_EPILOG = """\b
Examples:
  cardgen competitions                           what can be built, and offline
  cardgen build -c BBL -s 2024-25                the kit, in output/BBL_2024-25/
  cardgen build -c IPL -s 2025 --paper letter    another season (downloads once)
  cardgen site && cardgen serve                  the download site of output/

Seasons not bundled are downloaded from Cricsheet on first use and cached.
`cardgen COMMAND --help` describes each command."""


@click.group(cls=CardgenGroup, context_settings={"help_option_names": ["-h", "--help"]},
             epilog=MAIN_EPILOG)
@click.version_option(__version__, prog_name="cardgen")
def main() -> None:
    """Print-and-play Quicket Cricket kits from real cricket seasons (data: Cricsheet, ODC-By)."""


# The commands of each layer live in their own module of this package (COMMANDS = [...]): the
# layers themselves never import the command line. Those modules import this one for the shared
# options, so they are added here, after `main` exists.
COMMAND_MODULES = ("cardgen.cli.data", "cardgen.cli.calibrate", "cardgen.cli.build", "cardgen.cli.simulate",
                   "cardgen.cli.site", "cardgen.cli.games", "cardgen.cli.play",
                   "cardgen.cli.league", "cardgen.cli.catalogue")


def _register() -> None:
    import importlib
    for module in COMMAND_MODULES:
        for cmd in importlib.import_module(module).COMMANDS:
            main.add_command(cmd)


_register()
