"""A calibration's progress on the terminal: the card solves done so far, as they happen.

A season that calibrates (one Cricsheet has but the project has not shipped, or `--refresh`)
spends seconds to minutes solving cards before the kit's own progress bar starts; without this,
`cardgen build` would print nothing all that time. Every round of solves goes through
`parallel.solve_all`, which reports each round here. How many rounds a season needs is not
known in advance (some steps end early), so the bar counts solves and shows the time taken
rather than guessing a total. A season whose cards are reused solves nothing and draws no bar.
"""
from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from cardgen.calibrate.parallel import reporting_to


@contextmanager
def calibration_progress(title: str, enabled: bool = True) -> Iterator[None]:
    """Within the block, draw "calibrate <title>: N card solves, 00:12 so far" on stderr when it
    is a terminal, from the first solve on; the bar is left as the calibration's one line."""
    if not enabled or not sys.stderr.isatty():
        yield
        return
    bar: Any = None

    def solved(cards: int) -> None:
        nonlocal bar
        if bar is None:
            from tqdm import tqdm
            bar = tqdm(desc=f"calibrate {title}", file=sys.stderr,
                       bar_format="{desc}: {n_fmt} card solves, {elapsed} so far")
        bar.update(cards)

    try:
        with reporting_to(solved):
            yield
    finally:
        if bar is not None:
            bar.close()
