"""What a set's downloads are called and what its zips hold: the names a kit file is offered
under (`downloads/`), and the zips (fixed timestamps, so byte-identical per kit).

Layer: site. Part of what a set's folder holds, so the site code's fingerprint covers it
(`catalogue.site_code_fingerprint`); getting the files into place is `publishing`.
"""
from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable
from pathlib import Path

from cardgen import slugs
from cardgen.cache import atomic_write_bytes

ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)  # fixed zip entry time, so the zip is byte-identical per kit


STORED_SUFFIXES = {".png", ".zip", ".jpg", ".jpeg"}  # already compressed: deflating wastes time


DOWNLOADS = "downloads"  # the kit's files again (hard links), under names that say what they are


PAGE_SUFFIXES = {".html", ".htm", ".js", ".css"}


def download_name(set_name: str, relpath: str) -> str:
    """The name a kit file is offered under, so two downloads never save as one name:
    ('BBL_2024-25', 'cards-a4.pdf') -> 'bbl-2024-25-cards-a4.pdf', a team's own
    'teams/sydney-sixers/cards-a4.pdf' -> 'bbl-2024-25-sydney-sixers-cards-a4.pdf', a Tabletop
    Simulator sheet 'tts/sydney-sixers-1.png' -> 'bbl-2024-25-tts-sydney-sixers-1.png'. Every
    team's file was `cards-a4.pdf`, as the whole set's: a second team saved as "cards-a4 (1).pdf"."""
    parts = relpath.split("/")
    if parts[0] == "teams" and len(parts) == 3:
        parts = parts[1:]
    path = Path("-".join(parts))
    return f"{slugs.slug(set_name)}-{slugs.slug(path.stem)}{path.suffix.lower()}"


def download_names(set_name: str, relpaths: Iterable[str]) -> dict[str, str]:
    """relpath -> its download name (`download_name`), made unique within the set."""
    names: dict[str, str] = {}
    taken: set[str] = set()
    for rel in sorted(set(relpaths)):
        name = download_name(set_name, rel)
        stem, dot, suffix = name.rpartition(".")
        n = 2
        while name in taken:
            name, n = f"{stem}-{n}{dot}{suffix}", n + 1
        taken.add(name)
        names[rel] = name
    return names


def write_zip(files: list[Path], base: Path, top: str, dst: Path) -> None:
    """Files under `base` as one zip in folder `top/`, sorted, with a fixed timestamp (byte-identical)."""
    write_named_zip([(f"{top}/{path.relative_to(base).as_posix()}", path) for path in sorted(files)], dst)


def write_named_zip(entries: list[tuple[str, Path]], dst: Path) -> None:
    """(name in the zip, file) pairs as one zip, in that order, with a fixed timestamp."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, path in entries:
            info = zipfile.ZipInfo(name, ZIP_EPOCH)
            info.external_attr = 0o644 << 16
            info.compress_type = (zipfile.ZIP_STORED if path.suffix.lower() in STORED_SUFFIXES
                                  else zipfile.ZIP_DEFLATED)
            zf.writestr(info, path.read_bytes())
    atomic_write_bytes(dst, buffer.getvalue())
