"""The site code's key (`site.catalogue.site_code_fingerprint`) covers what shapes a set's pages and
nothing else (issue 36: an edit to publishing.py re-rendered every set of a catalogue)."""
from __future__ import annotations

import shutil
from pathlib import Path

from cardgen.site.catalogue import PUBLISHING_ONLY, SITE_PACKAGE, page_modules, site_code_fingerprint
from cardgen.site.pages import TEMPLATE_DIR


def _copy(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the site package's modules and the site templates, to edit."""
    code = tmp_path / "site"
    code.mkdir()
    for path in SITE_PACKAGE.glob("*.py"):
        shutil.copy2(path, code / path.name)
    templates = Path(shutil.copytree(TEMPLATE_DIR, tmp_path / "templates"))
    return code, templates


def _key(code: Path, templates: Path) -> str:
    return site_code_fingerprint(templates, "", page_modules(code))


def _edit(path: Path) -> None:
    path.write_bytes(path.read_bytes() + b"\n# edited\n")


def test_the_real_page_modules_are_the_ones_that_shape_pages():
    names = {p.name for p in page_modules()}
    assert {"pages.py", "views.py", "texts.py", "media.py", "downloads.py", "compare.py",
            "generate.py", "catalogue.py"} <= names
    assert not names & PUBLISHING_ONLY
    assert {p.name for p in SITE_PACKAGE.glob("*.py")} - names == PUBLISHING_ONLY  # each one exists
    assert site_code_fingerprint(TEMPLATE_DIR) == site_code_fingerprint(TEMPLATE_DIR, "", page_modules())


def test_a_publishing_only_edit_keeps_the_key(tmp_path):
    code, templates = _copy(tmp_path)
    before = _key(code, templates)
    for name in sorted(PUBLISHING_ONLY):
        _edit(code / name)
        assert _key(code, templates) == before, name


def test_a_page_module_template_or_new_module_edit_changes_the_key(tmp_path):
    code, templates = _copy(tmp_path)
    seen = {_key(code, templates)}
    for path in (code / "views.py", code / "pages.py", code / "downloads.py", templates / "base.html.j2"):
        _edit(path)
        seen.add(_key(code, templates))
    (code / "cards_extra.py").write_text("X = 1\n")  # a module nobody listed counts too
    seen.add(_key(code, templates))
    assert len(seen) == 6
    assert site_code_fingerprint(templates, "https://example.org/", page_modules(code)) not in seen
