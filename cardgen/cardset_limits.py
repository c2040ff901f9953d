"""The size and shape a card-set document may have, checked at the load edge before anything
else reads it (`cardgen.cardset.load_card_set`).

Layer: beside `cardgen.cardset`, which calls it, below every package; imports only
`cardgen.text` and `cardgen.readfile`. A hand-edited or hostile set fails here, as a usage error
naming the field, instead of deep in a command: a 100,000-deep nesting was a RecursionError ("cardgen hit a bug",
exit 70) and a 5,000-character team name "the path is too long; choose a shorter folder name"
(exit 3), blaming the output folder. The limits are far above any set cardgen writes (the
shipped sets: 5 levels deep, at most 307 items in a list, strings of at most 72 characters,
under 1 MB; team names of at most 27). Control and bidirectional-formatting characters are taken out of its strings, as
they are out of match and names files (`cardgen.text.clean_text`).
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from cardgen.readfile import FileTooLarge, NotARegularFile, read_bounded
from cardgen.text import MOST_TEAM_NAME_CHARS, MOST_TEXT_CHARS, clean_text

MAX_BYTES = 20_000_000  # a card-set.json file
MAX_DEPTH = 16  # objects and lists inside one another
MAX_ITEMS = 10_000  # in one list or object (cards, a chart's ranges, teams)
MAX_TEXT = MOST_TEXT_CHARS  # characters in one string (a name, a label, the attribution)
_TEAM_NAME = re.compile(r"(teams\[\d+\]\.(name|short_name)|cards\[\d+\]\.team)")  # names folders and files
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"\s*:?|[\[\]{},]')  # a string (a key: with its colon), a bracket, a comma


class DocumentTooLarge(ValueError):
    """A card-set file beyond the limits (its message names the field)."""


def document_problem(doc: Any) -> str | None:
    """The first way a parsed card-set document breaks the limits, naming its field
    ("teams[3].name is 5,000 characters long, over the limit of 100"), or None."""
    stack: list[tuple[Any, str, int]] = [(doc, "", 0)]
    while stack:
        node, where, depth = stack.pop()
        place = where or "the top level"
        if depth > MAX_DEPTH:
            return f"{place} is nested deeper than the limit of {MAX_DEPTH} levels"
        if isinstance(node, dict):
            if len(node) > MAX_ITEMS:
                return f"{place} has {len(node):,} keys, over the limit of {MAX_ITEMS:,}"
            for key, value in reversed(list(node.items())):
                if len(key) > MAX_TEXT:
                    return f"a key in {place} is {len(key):,} characters long, over the limit of {MAX_TEXT}"
                stack.append((value, f"{where}.{key}" if where else key, depth + 1))
        elif isinstance(node, list):
            if len(node) > MAX_ITEMS:
                return f"{place} has {len(node):,} items, over the limit of {MAX_ITEMS:,}"
            stack.extend((value, f"{where}[{i}]", depth + 1) for i, value in reversed(list(enumerate(node))))
        elif isinstance(node, str):
            most = MOST_TEAM_NAME_CHARS if _TEAM_NAME.fullmatch(where) else MAX_TEXT
            if len(node) > most:
                return f"{place} is {len(node):,} characters long, over the limit of {most:,}"
    return None


def nesting_problem(text: str) -> str | None:
    """For a document too deep for the JSON parser itself: the field where it passes the
    depth limit, read from the text (strings skipped), or None."""
    kinds: list[str] = []  # the open containers, "{" or "["
    steps: list[str | int] = []  # how each is reached from its parent: its key, or its index
    items: list[int] = []  # in each open list, the index of the item being read
    key = ""
    for token in _TOKENS.finditer(text):
        t = token.group()
        if t in "[{":
            steps.append((items[-1] if kinds[-1] == "[" else key) if kinds else "")
            kinds.append(t)
            items.append(0)
            if len(kinds) - 1 > MAX_DEPTH:
                where = "".join(f"[{s}]" if isinstance(s, int) else f".{s}" for s in steps[1:]).lstrip(".")
                where = where if len(where) <= 120 else f"{where[:117]}..."
                return f"{where or 'the top level'} is nested deeper than the limit of {MAX_DEPTH} levels"
        elif t in "]}":
            if kinds:
                kinds.pop(), steps.pop(), items.pop()
        elif t == ",":
            if items:
                items[-1] += 1
        elif t.endswith(":"):
            key = t[:-1].rstrip()[1:-1]
    return None


def _cleaned(doc: Any) -> Any:
    """`doc` (freshly parsed: it is changed in place) with every string value cleaned."""
    stack = [doc]
    while stack:
        node = stack.pop()
        slots = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for slot, value in list(slots):
            if isinstance(value, str):
                node[slot] = clean_text(value)
            else:
                stack.append(value)
    return doc


def read_document(path: Path) -> Any:
    """The parsed JSON of a card-set file, its strings cleaned: a regular file (a FIFO would
    block the read) of at most MAX_BYTES, nested at most MAX_DEPTH deep. `DocumentTooLarge`
    names what is beyond the limits; OSError, UnicodeDecodeError and json.JSONDecodeError are
    the file's own."""
    try:
        raw = read_bounded(path, MAX_BYTES)
    except NotARegularFile:
        raise DocumentTooLarge("it is not a regular file") from None
    except FileTooLarge:
        raise DocumentTooLarge(f"it is over {MAX_BYTES // 1_000_000} MB, the limit for a card set") from None
    # utf-8-sig: a set saved by Notepad and the like starts with a byte-order mark
    text = raw.decode("utf-8-sig")
    try:
        doc = json.loads(text)
    except RecursionError:  # deeper than the parser itself goes
        raise DocumentTooLarge(nesting_problem(text) or f"it is nested deeper than the limit of "
                                                          f"{MAX_DEPTH} levels") from None
    problem = document_problem(doc)  # before the walk that cleans it, and the schema's walk
    if problem:
        raise DocumentTooLarge(problem)
    return _cleaned(doc)
