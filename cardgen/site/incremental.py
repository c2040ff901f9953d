"""The site folder, published in place set by set (issue 36: 300 seasons are 250,000 files).

Layer: site, under `generate` (which renders into a staging folder and calls this); it renders
no page and reads no kit.

Each set folder (`sets/<SET>/`) holds its own manifest (`manifest.Manifest`, kind "site": every
file its render wrote); the site's manifest lists the pages above the sets and each set's
manifest. A render of the site:

- leaves a carried set's folder where it is (`carried`: its record says it was rendered from
  the same kit by the same code, and its folder still holds every file its manifest lists):
  nothing of it is read but its folder listing, nothing written. (A whole new site of hard links
  was 250,000 links made, listed, made readable and unlinked again: 150 s at 300 seasons.)
- renames each rendered set's folder into place whole (`staging.publish_folder`, which keeps
  any file in it that cardgen did not write);
- then moves the pages above the sets (home, competitions, how-to pages, assets, the search
  index) into place, each file replaced by a rename;
- then removes what the last render wrote and this one did not (a set no longer given, a page no
  longer made) and writes the site's manifest.

So a reader sees every page and every set folder whole, the old or the new; a page above the
sets links only to sets already in place (sets come in first and go out last). A killed run
leaves staging folders that the next run removes (`staging.remove_stale_staging`), and a site
whose set folders are each whole, which the next run completes.
"""
from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from cardgen.manifest import FILE_NAME, Manifest, read_manifest, write_manifest
from cardgen.staging import MARKER, FolderInUse, publish_folder, remove_tree

SETS = "sets"
PUBLIC_FOLDER = 0o755  # a web server running as another user lists and reads the site


def files_under(folder: Path) -> list[str]:
    """Every file (and symlink) under `folder` as sorted relative POSIX paths (`os.scandir`:
    a set folder of 800 files is listed in a few milliseconds)."""
    found: list[str] = []

    def walk(path: str, prefix: str) -> None:
        with os.scandir(path) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    walk(entry.path, f"{prefix}{entry.name}/")
                else:
                    found.append(prefix + entry.name)
    if folder.is_dir():
        walk(os.fspath(folder), "")
    return sorted(found)


def seal_set(folder: Path, generator: str) -> int:
    """Write a rendered set folder's manifest (last: a folder holding one is whole); returns its
    file count, the manifest included."""
    files = tuple(rel for rel in files_under(folder) if rel != FILE_NAME)
    write_manifest(folder, Manifest(kind="site", files=files, generator=generator))
    return len(files) + 1


@dataclass(frozen=True)
class CarriedSet:
    """A set folder of the old site left in place: its file count and the files in it that
    cardgen did not write (a user's, kept as they are)."""
    files: int
    theirs: tuple[str, ...]
    pending: bool   # it holds superseded files a killed run left (`drop_superseded`)


def carried(site_dir: Path, name: str) -> CarriedSet | None:
    """The set folder `sets/<name>` of the site, if it holds every file its manifest lists
    (else None: it is rendered again)."""
    folder = site_dir / SETS / name
    manifest = read_manifest(folder, "site")
    if manifest is None:
        return None
    present = files_under(folder)
    if not set(manifest.files) <= set(present):
        return None
    return CarriedSet(len(manifest.files) + 1, tuple(rel for rel in present if not manifest.owns(rel)),
                      bool(manifest.superseded))


def set_manifest_path(name: str) -> str:
    return f"{SETS}/{name}/{FILE_NAME}"


@dataclass(frozen=True)
class OldSite:
    """What the site's manifest says the last render wrote. A site from before per-set
    manifests listed every file of every set; its sets are known by those files."""
    manifest: Manifest | None

    def _set_of(self, rel: str) -> str | None:
        parts = rel.split("/", 2)
        return parts[1] if len(parts) == 3 and parts[0] == SETS else None

    @property
    def sets(self) -> set[str]:
        files = self.manifest.files if self.manifest is not None else ()
        return {name for name in map(self._set_of, files) if name is not None}

    @property
    def root_files(self) -> list[str]:
        files = self.manifest.files if self.manifest is not None else ()
        return [rel for rel in files if self._set_of(rel) is None]

    def owns(self, rel: str) -> bool:
        return self.manifest is not None and self.manifest.owns(rel)

    def owns_in_set(self, site_dir: Path, name: str) -> Callable[[str], bool]:
        """Whether cardgen wrote a file of the old set folder (relative to it): its own manifest
        says, or else the site's listing of every file (a site from before)."""
        own = read_manifest(site_dir / SETS / name, "site")
        if own is not None:
            return own.owns
        return lambda rel: self.owns(f"{SETS}/{name}/{rel}")


@dataclass(frozen=True)
class Published:
    root_files: int  # the files above the set folders, the site's manifest included
    kept: list[str]  # files cardgen did not write, kept (but for those in carried sets)


def publish(build_root: Path, site_dir: Path, rendered: Iterable[str], listed: Iterable[str],
            old: OldSite, generator: str, pending: Iterable[str] = ()) -> Published:
    """Put what was rendered into `build_root` in place in `site_dir`: the `rendered` set
    folders, then the pages above the sets; then drop what `old` lists and this render did
    not write (`listed` names every set of the site now), and the superseded files of the sets
    rendered and of the `pending` ones (carried sets a killed run left them in). FolderInUse,
    before anything changes, if a page to be placed would replace a file cardgen did not write."""
    rendered, listed, pending = list(rendered), list(listed), list(pending)
    root_files = [rel for rel in files_under(build_root) if rel != MARKER and not rel.startswith(f"{SETS}/")]
    clash = next((rel for rel in root_files if os.path.lexists(site_dir / rel) and not old.owns(rel)), None)
    if clash is not None:
        raise FolderInUse(f"{site_dir} holds {clash}, which cardgen did not write and would replace; "
                          "move it away or choose another --site-dir")
    new_files = sorted({*root_files, *(set_manifest_path(name) for name in listed)})
    _public_dir(site_dir)
    _public_dir(site_dir / SETS)
    # first the manifest of both renders, so a run killed below leaves nothing that is
    # cardgen's taken for the user's
    write_manifest(site_dir, Manifest(kind="site", files=tuple(sorted({*new_files, *(
        old.manifest.files if old.manifest is not None else ())})), generator=generator))
    kept: list[str] = []
    for name in rendered:
        new, final = build_root / SETS / name, site_dir / SETS / name
        owns = old.owns_in_set(site_dir, name)
        _keep_previous(final, new, owns)
        kept += [f"{SETS}/{name}/{rel}" for rel in publish_folder(new, final, owns)]
    for rel in root_files:
        _place(build_root / rel, site_dir / rel, site_dir)
    placed = set(root_files)
    for rel in old.root_files:
        if rel not in placed and rel != FILE_NAME:
            _remove_file(site_dir, rel)
    for name in sorted(old.sets - set(listed)):
        _drop_set(site_dir, name, old)
    for name in [*rendered, *pending]:   # the pages above the sets link only to the new renders now
        drop_superseded(site_dir / SETS / name)
    write_manifest(site_dir, Manifest(kind="site", files=tuple(new_files), generator=generator))
    return Published(len(root_files) + 1, sorted(kept + _theirs_outside_sets(site_dir, new_files, listed)))


def _theirs_outside_sets(site_dir: Path, manifest_files: Iterable[str], sets: Iterable[str]) -> list[str]:
    """The files of the site cardgen did not write, outside the set folders `sets`."""
    owned = set(manifest_files) | {FILE_NAME}
    skip = set(sets)
    found: list[str] = []
    for top, dirs, names in os.walk(site_dir):
        rel_top = os.path.relpath(top, site_dir).replace(os.sep, "/")
        prefix = "" if rel_top == "." else rel_top + "/"
        if prefix == f"{SETS}/":
            dirs[:] = [d for d in dirs if d not in skip]
        found += [prefix + name for name in names if prefix + name not in owned]
    return sorted(found)


def _keep_previous(final: Path, new: Path, owns: Callable[[str], bool]) -> None:
    """Into a set's new render, the files of its previous one that the new lacks (hard links),
    listed as `superseded` in its manifest: the pages above the sets in place now link to them
    (a thumbnail named after a player renamed since, say) until they are replaced too."""
    if not final.is_dir() or final.is_symlink():
        return
    manifest = read_manifest(new, "site")
    if manifest is None:
        return
    have = set(manifest.files) | {FILE_NAME}
    previous = [rel for rel in files_under(final) if rel not in have and owns(rel)]
    for rel in previous:
        target = new / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(final / rel, target)
        except OSError:   # another file system: copy the bytes
            shutil.copyfile(final / rel, target)
    if previous:
        write_manifest(new, replace(manifest, files=tuple(sorted(have - {FILE_NAME} | set(previous))),
                                    superseded=tuple(previous)))


def drop_superseded(folder: Path) -> None:
    """Remove a set folder's superseded files (`_keep_previous`), once nothing links them. A
    run killed before this leaves them listed; the next run removes them."""
    manifest = read_manifest(folder, "site")
    if manifest is None or not manifest.superseded:
        return
    gone = set(manifest.superseded)
    for rel in manifest.superseded:
        _remove_file(folder, rel)
    write_manifest(folder, replace(manifest, files=tuple(rel for rel in manifest.files if rel not in gone),
                                   superseded=()))


def _place(source: Path, target: Path, site_dir: Path) -> None:
    """A page above the sets into its place (a rename: a reader has the old page or the new)."""
    if target.parent != site_dir:
        _public_dir(target.parent, parents=True)
    os.replace(source, target)


def _public_dir(folder: Path, parents: bool = False) -> None:
    folder.mkdir(parents=parents, exist_ok=True)
    folder.chmod(PUBLIC_FOLDER)


def _remove_file(site_dir: Path, rel: str) -> None:
    """Unlink a page cardgen wrote before, and the folders it leaves empty (not the site's)."""
    path = site_dir / rel
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except IsADirectoryError:
        return
    parent = path.parent
    while parent != site_dir and parent.is_dir() and not any(parent.iterdir()):
        parent.rmdir()
        parent = parent.parent


def _drop_set(site_dir: Path, name: str, old: OldSite) -> None:
    """Remove a set folder the site no longer lists, but for the files in it cardgen did not
    write."""
    folder = site_dir / SETS / name
    if not folder.is_dir() or folder.is_symlink():
        return
    owns = old.owns_in_set(site_dir, name)
    present = files_under(folder)
    if all(owns(rel) for rel in present):
        remove_tree(folder)
        return
    for rel in present:
        if owns(rel):
            _remove_file(folder, rel)
