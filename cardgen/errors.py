"""Small named exceptions. The library raises these; only the CLI turns them into messages.

Exit codes (documented in the README, "When things go wrong"): 1 = a check failed (`validate`),
2 = usage or input error (every `CardgenError` not listed below), 3 = environment (the disk,
permissions, the network: `EnvironmentProblem`), 70 = a bug in cardgen (the CLI saves the
traceback to a file to report), 130/143 = interrupted by Ctrl+C / SIGTERM, 141 = the reader of
the output went away (`cardgen stats | head -1`).
"""

EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_ENVIRONMENT = 3
EXIT_BUG = 70  # EX_SOFTWARE (sysexits.h): an internal error, not the user's input or machine
EXIT_INTERRUPTED = 130  # 128 + SIGINT, the shell's convention
EXIT_TERMINATED = 143  # 128 + SIGTERM
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as a tool the shell's `| head` stops ends
INTERRUPTED = "interrupted; nothing half-written was kept"  # Ctrl+C's one line (after "Error: ")


class CardgenError(Exception):
    """Base class for every error cardgen reports to a user."""

    exit_code = EXIT_USAGE


class EnvironmentProblem(CardgenError):
    """The machine, not the input: disk, permissions, network. Exit code 3."""

    exit_code = EXIT_ENVIRONMENT


class UnknownCompetition(CardgenError):
    """A competition code or alias that is not in the vocabulary table."""


class UnknownSeason(CardgenError):
    """A season that is malformed or not available from the chosen source."""


class SourceError(CardgenError):
    """A source (Cricsheet, mirror, scraper) could not supply data."""


class NetworkError(SourceError, EnvironmentProblem):
    """A download failed on the way: no connection, a time-out, a body cut short."""


class DownloadTimeout(NetworkError):
    """A server that did not connect, answer or finish within its time limit."""


class ReadLimitExceeded(SourceError):
    """An archive beyond a read limit (unpacked size, entries, compression ratio: a zip bomb?)."""


class ParseError(CardgenError):
    """Input that a parser could not read (malformed JSON, HTML, zip)."""


class CardSetError(CardgenError):
    """A card set that is missing, unreadable or unplayable (a bad chart, unknown team, missing
    cards). One class: `cardgen.calibrate.cardset` and `cardgen.sim.model` both re-export it."""


class CacheError(CardgenError):
    """A cache entry that is unreadable or inconsistent."""


class RunTooLarge(CardgenError):
    """A run size (innings, seasons, balls) beyond what the machine can be asked to do."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl+C so every clean-up (`finally`) runs the same way."""


class CardgenWarning(UserWarning):
    """Something left out or worked around; the CLI prints it as one `warning:` line."""


class SkippedInput(CardgenWarning):
    """An input file that could not be read and was skipped (`--strict` makes it an error)."""
