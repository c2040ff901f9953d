"""cardgen.fingerprint: the one key builder every cache and rebuild decision uses (issue 39)."""
from __future__ import annotations

import os
import re
from pathlib import Path

from cardgen import fingerprint as fpm
from cardgen.fingerprint import Fingerprint, canonical, content_digest, key, listing, package_files, tree_listing

PACKAGE = Path(fpm.__file__).resolve().parent


def test_a_key_is_64_hex_digits_and_a_prefix_when_asked():
    whole = key("download", "https://cricsheet.org/downloads/bbl_male_json.zip")
    assert re.fullmatch(r"[0-9a-f]{64}", whole)
    assert key("download", "https://cricsheet.org/downloads/bbl_male_json.zip", length=20) == whole[:20]


def test_parts_cannot_run_into_each_other():
    """Length-prefixed parts: moving a byte from one part to the next, or from a label into its
    data, gives another key (a plain concatenation would give the same bytes)."""
    one = Fingerprint("k").add("a", "bc").add("d", "e").hexdigest()
    assert one != Fingerprint("k").add("a", "b").add("d", "ce").hexdigest()
    assert one != Fingerprint("k").add("ab", "c").add("d", "e").hexdigest()
    assert Fingerprint("k").add("a", b"x").hexdigest() == Fingerprint("k").add("a", "x").hexdigest()


def test_the_kind_separates_caches_with_the_same_parts():
    assert key("tables-source", "/mirror") != key("download", "/mirror")
    assert Fingerprint("a").hexdigest() != Fingerprint("b").hexdigest()


def test_values_are_hashed_whatever_order_a_dict_was_filled_in():
    assert canonical({"rules": "quicket", "names": {}}) == canonical({"names": {}, "rules": "quicket"})
    assert key("options", {"b": 1, "a": [Path("x")]}) == key("options", {"a": ["x"], "b": 1})
    assert key("options", {"a": 1}) != key("options", {"a": 2})


def test_files_are_hashed_by_label_whatever_order_they_were_found_in(tmp_path):
    (tmp_path / "a.py").write_text("A = 1\n")
    (tmp_path / "b.py").write_text("B = 2\n")
    files = [("a.py", tmp_path / "a.py"), ("b.py", tmp_path / "b.py")]
    forward = Fingerprint("code").files("code:", files).hexdigest()
    assert forward == Fingerprint("code").files("code:", list(reversed(files))).hexdigest()
    (tmp_path / "b.py").write_text("B = 3\n")  # one byte of one file: another key
    assert Fingerprint("code").files("code:", files).hexdigest() != forward


def test_a_listing_is_sorted_and_follows_size_and_time_without_reading(tmp_path):
    for name in ("b.json", "a.json", "sub/c.json"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("{}")
    paths = [tmp_path / "b.json", tmp_path / "sub/c.json", tmp_path / "a.json", tmp_path / "gone.json"]
    names = [entry[0] for entry in listing(paths, tmp_path)]
    assert names == ["a.json", "b.json", "sub/c.json"]  # sorted; a missing file left out
    assert tree_listing(tmp_path) == listing(paths, tmp_path)
    before = key("files", tree_listing(tmp_path))
    info = (tmp_path / "a.json").stat()
    os.utime(tmp_path / "a.json", ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000))
    assert key("files", tree_listing(tmp_path)) != before


def test_package_files_label_from_the_given_root_and_skip_folders(tmp_path):
    pkg = tmp_path / "pkg"
    for rel in ("a.py", "site/b.py", "cache/__pycache__/c.py", "notes.txt~"):
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text("x")
    assert [label for label, _ in package_files(pkg, tmp_path, (".py",))] == ["pkg/a.py", "pkg/site/b.py"]
    assert [label for label, _ in package_files(pkg, tmp_path, (".py",), skip=("site",))] == ["pkg/a.py"]


def test_content_digest_is_the_plain_sha256_manifests_record():
    # what `printf abc | sha256sum` prints: manifests stay checkable with the usual tools
    assert content_digest(b"abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def test_no_other_module_hashes_on_its_own():
    """Every key goes through cardgen.fingerprint: no other module of the package imports hashlib."""
    offenders = [p.relative_to(PACKAGE).as_posix() for p in sorted(PACKAGE.rglob("*.py"))
                 if p.name != "fingerprint.py" and re.search(r"^\s*(import hashlib|from hashlib)",
                                                             p.read_text(encoding="utf-8"), re.M)]
    assert offenders == []
