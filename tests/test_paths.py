"""cardgen's own files are found from the package, never from the working directory."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen import paths
from cardgen.calibrate.cardset import CardSetError, load_card_set
from cardgen.cli import main

ROOT = Path(__file__).resolve().parent.parent
SHARED_SCHEMA = ROOT.parent / "shared" / "schemas" / "card-set.schema.json"


def test_data_folders_resolve_from_the_package_whatever_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "templates").mkdir()  # a stray folder of the same name must not be used
    assert paths.templates_dir() in (ROOT / "templates", ROOT / "cardgen" / "templates")
    assert (paths.templates_dir() / "teams.json").is_file()
    assert (paths.bundled_tables_dir() / "BBL_2024-25" / "manifest.json").is_file()
    assert paths.schema_path().is_file()


@pytest.mark.needs_data
def test_the_shipped_schema_is_the_shared_contract():
    assert json.loads(paths.schema_path().read_text()) == json.loads(SHARED_SCHEMA.read_text())


def test_an_installed_package_folder_wins_over_the_checkout(tmp_path, monkeypatch):
    """In a wheel, `cardgen/templates/` sits inside the package; that is the one used."""
    installed = tmp_path / "templates"
    installed.mkdir()
    monkeypatch.setattr(paths, "_installed", lambda name: tmp_path / name)
    assert paths.templates_dir() == installed
    # not installed there: the checkout's top-level folder
    assert paths.bundled_tables_dir() == ROOT / "stats_cache"


def test_a_card_set_that_breaks_the_schema_is_one_clear_error(tmp_path):
    from cardgen.sim.example import example_card_set
    good = example_card_set()
    path = tmp_path / "card-set.json"
    path.write_text(json.dumps(good))
    assert load_card_set(path)["cards"]
    bad = json.loads(json.dumps(good))
    bad["cards"][0]["chart"] = "eleven"
    path.write_text(json.dumps(bad))
    with pytest.raises(CardSetError, match=r"not a valid card set: cards/0/chart: 'eleven' is not of type"):
        load_card_set(path)
    result = CliRunner().invoke(main, ["build", "-c", "BBL", "-s", "2024-25", "--card-set", str(path),
                                       "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1 and "cards/0/chart" in result.output
