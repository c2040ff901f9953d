"""The docs: the site builds with `mkdocs build --strict` (a broken link or a page the nav names
that is missing fails it), the README stays short, and its relative links lead to files."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README_MOST_WORDS = 1500  # issue 39: a short README; the rest lives in docs/


@pytest.mark.slow
def test_the_docs_site_builds_strict(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)  # caps a hang only
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "index.html").is_file() and (tmp_path / "kit.html").is_file()


def test_the_readme_is_short_and_its_links_lead_to_files() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.split()) <= README_MOST_WORDS
    targets = [t for t in re.findall(r"\]\(([^)\s]+)\)", text) if not re.match(r"[a-z]+:", t)]
    assert targets, "the README links to its docs pages"
    missing = [t for t in targets if not (ROOT / t.split("#")[0]).exists()]
    assert not missing, missing
