"""The `cardgen` command's entry point (and `python -m cardgen`'s): Ctrl+C while the command is
still starting up is the same one line and exit code 130 as Ctrl+C at any later moment.

Layer: above the CLI, which it imports; nothing imports it. Before this, a Ctrl+C in the first
second (Python importing click, pandas and cardgen) printed a KeyboardInterrupt traceback. Until
a command runs, Ctrl+C ends the process at once: nothing has been written yet. While it runs,
the CLI turns Ctrl+C into a KeyboardInterrupt again, so every clean-up runs
(`cardgen.cli.CardgenGroup.invoke`). Only Python's own start-up, before the first line of
cardgen runs (some 30 ms), is beyond its reach; so this module imports next to nothing.
"""
from __future__ import annotations

import contextlib
import os
import signal
import sys

from cardgen.errors import EXIT_INTERRUPTED, INTERRUPTED  # a module of constants: nothing to import

_LINE = f"Error: {INTERRUPTED}\n".encode()


def exit_quietly(signum: int, frame: object) -> None:
    """SIGINT before a command runs: the one line, exit 130, no traceback (and no clean-up to
    do: nothing is written before a command runs)."""
    try:
        os.write(2, _LINE)
    finally:
        os._exit(EXIT_INTERRUPTED)


def main() -> None:
    with contextlib.suppress(ValueError):  # not the main thread (an embedding program): leave signals alone
        signal.signal(signal.SIGINT, exit_quietly)
    from cardgen.cli import main as cli
    sys.exit(cli())
