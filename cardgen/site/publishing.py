"""Getting files into the site and the site into place: kit files hard-linked (or copied),
world-readable permissions and the checks on the site folder. What a render keeps, replaces and
drops of the site folder is `incremental`; what the downloads are called and the zips hold is
`downloads`.

Layer: site. Reads no card set and renders no page: a change here re-renders no set
(`catalogue.site_code_fingerprint` leaves this module out).
"""
from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from cardgen.manifest import read_manifest
from cardgen.site.kit import SiteError


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
