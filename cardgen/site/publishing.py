"""Getting files into the site and the site into place: kit files hard-linked (or copied), the
download names, the zips (fixed timestamps: byte-identical), world-readable permissions and the
checks on the site folder. What a render keeps, replaces and drops of the site folder is
`incremental`.

Layer: site. Reads no card set and renders no page.
"""
from __future__ import annotations

import io
import os
import shutil
import stat
import zipfile
from collections.abc import Iterable
from pathlib import Path

from cardgen import slugs
from cardgen.cache import atomic_write_bytes
from cardgen.manifest import read_manifest
from cardgen.site.kit import SiteError

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


def link_or_copy(src: Path, dst: Path) -> None:
    """Hard-link a kit file into the site (no extra disk), or copy it when a link cannot serve.

    A file only its owner may read (a temp-file default) is copied, so the site can be made
    world-readable for a static host without changing the output folder.
    """
    dst.parent.mkdir(parents=True, exist_ok=True)
    if src.stat().st_mode & stat.S_IROTH:
        try:
            os.link(src, dst)
            return
        except OSError:  # another file system, or links not allowed: copy the bytes
            pass
    shutil.copyfile(src, dst)


def publish_permissions(root: Path) -> None:
    """Folders 755, own files 644: a web server running as another user can read the site."""
    root.chmod(0o755)
    for path in root.rglob("*"):
        if path.is_dir():
            path.chmod(0o755)
        elif path.stat().st_nlink == 1:  # hard links stay as the output folder has them
            path.chmod(0o644)


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


def check_site_dir(site_dir: Path, set_folders: list[Path]) -> None:
    """Refuse a site folder whose replacement would delete something that is not a site."""
    site = site_dir.resolve()
    for folder in set_folders:
        if folder.resolve() in site.parents or folder.resolve() == site:
            raise SiteError(f"the site folder {site_dir} is inside the set {folder.name}; "
                            "choose another --site-dir")
        if site in folder.resolve().parents:
            raise SiteError(f"the set {folder.name} is inside the site folder {site_dir}, which is "
                            "replaced as a whole; choose another --site-dir")
    if site_dir.is_dir() and any(site_dir.iterdir()) and read_manifest(site_dir, "site") is None:
        raise SiteError(f"{site_dir} exists and is not a cardgen site; choose an empty or new --site-dir")
    if site_dir.exists() and not site_dir.is_dir():
        raise SiteError(f"{site_dir} is a file, not a folder")
