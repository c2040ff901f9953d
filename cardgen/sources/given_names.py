"""Which sex a full name points to, so an attribute row can be checked against the season: a
women's competition's player is a woman (`cardgen.stats.identity`).

The judgement reads a compact table cardgen ships (`data/name_sex.csv.gz`: name word -> female /
male), derived by the maintainer from the full names of the shipped attributes table and the name
data of the nomquamgender package (Van Buskirk, Clauset and Larremore, MIT licence; each word's
share of women among the people of that name, pooled from many national name lists): only words
it places with at least CONFIDENT certainty from MIN_SOURCES or more lists are kept.

Only the first given name decides, and only when no other word of the name points the other way:
in many South Asian names the second word is the father's given name ("Yastika Harish Bhatia"),
and in some the first is a family name ("Dayalan Hemalatha"). A name that starts with initials
("MW Downes"), or whose first word the table lacks, gets no judgement (None). Over the 845
players of the nine mirror seasons with a full name this judged 596 of 830 and none wrongly
(tests/test_stats_identity.py).
"""
from __future__ import annotations

import functools
import gzip
import io
import re
from pathlib import Path

from anyascii import anyascii

NAME_SEX_TABLE = Path(__file__).resolve().parent / "data" / "name_sex.csv.gz"
CONFIDENT = 0.9   # share of one sex among the name's bearers in nomquamgender's data
MIN_SOURCES = 3   # name lists the share is pooled from
SEXES = ("female", "male")  # Cricsheet's info.gender words

_INITIALS = re.compile(r"^[A-Z]{1,4}\.?$")


def name_words(text: str) -> list[str]:
    """Lower-case ASCII letter runs of two or more ("Lea-Marie" -> ["lea", "marie"])."""
    return [w for w in re.split(r"[^a-z]+", anyascii(text).casefold()) if len(w) > 1]


@functools.cache
def name_sex_table() -> dict[str, str]:
    """The shipped table as {word: "female" | "male"} (empty for a damaged install: no judgement)."""
    try:
        text = gzip.decompress(NAME_SEX_TABLE.read_bytes()).decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError, gzip.BadGzipFile):
        text = ""
    rows = (line.split(",") for line in text.splitlines()[1:])
    return {r[0]: r[1] for r in rows if len(r) == 2 and r[1] in SEXES}


def name_sex(full_name: str | None, table: dict[str, str] | None = None) -> str | None:
    """"female" or "male" when the full name's first given name says so and no other word of it
    says the other; None when the name gives no clear answer."""
    table = name_sex_table() if table is None else table
    words = (full_name or "").split()
    if not words or _INITIALS.match(words[0]):
        return None
    first = {table.get(w) for w in name_words(words[0])} - {None}
    if len(first) != 1:
        return None
    sex = first.pop()
    others = {table.get(w) for word in words[1:] for w in name_words(word)}
    return None if (set(SEXES) - {sex}) & others else sex


def derive_name_sex_table(players_dir: Path) -> str:
    """The shipped table's CSV text (maintainer step; needs `pip install nomquamgender`): every
    word of the players folder's full names that nomquamgender's data places confidently."""
    try:
        from nomquamgender.nomquamgender import name_data
    except ImportError as exc:  # pragma: no cover - a maintainer without the package
        raise SystemExit("pip install nomquamgender first (the name data the table is derived from)") from exc
    from cardgen.sources.players import derive_shipped_table
    words = {w for name in derive_shipped_table(players_dir)["full_name"] for w in name_words(name)}
    out = io.StringIO()
    out.write("word,sex\n")
    for word in sorted(words):
        entry = name_data.get(word)
        if not entry or entry[0] < MIN_SOURCES:
            continue
        share_female = float(entry[2])
        if share_female >= CONFIDENT:
            out.write(f"{word},female\n")
        elif share_female <= 1 - CONFIDENT:
            out.write(f"{word},male\n")
    return out.getvalue()


def write_name_sex_table(players_dir: Path, path: Path = NAME_SEX_TABLE) -> Path:
    """Write the shipped table (gzip with a fixed timestamp: the same inputs, the same bytes)."""
    from cardgen.cache import atomic_write_bytes
    text = derive_name_sex_table(players_dir)
    atomic_write_bytes(path, gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))
    return path


if __name__ == "__main__":  # pragma: no cover - maintainer command: rewrite the shipped table
    import sys
    print(write_name_sex_table(Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/data/players")))
