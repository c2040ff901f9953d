"""Printed names are the names people know (issue 11): the naming rule on the real register and
attributes, and the user's corrections (--names) on every printed surface."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

import pandas as pd

from cardgen.cache import CACHE_ENV
from cardgen.calibrate.people import printed_name
from cardgen.cli import main
from cardgen.competitions import USER_FILE_ENV, get_competition
from cardgen.sources.fetch import SOURCE_ENV
from cardgen.options import RunOptions, current, running_with
from cardgen.sources.names import KNOWN_AS_TABLE, NamesFileError, known_as_table, read_name_overrides, read_names

ROOT = Path(__file__).resolve().parent.parent


def _attrs(code: str, season: str) -> dict[str, dict]:
    """The committed attributes table of a bundled season (register + player_meta)."""
    a = pd.read_csv(ROOT / "stats_cache" / f"{code}_{season}" / "attributes.csv", dtype=str,
                    keep_default_na=False).replace({"": None})
    return {r["player"]: r for r in a.to_dict("records")}


@pytest.mark.parametrize("code, season, cricsheet, printed", [
    ("IPL", "2025", "Rashid Khan", "Rashid Khan"),          # was "RASHID ARMAN"
    ("IPL", "2025", "Mohammed Shami", "Mohammed Shami"),    # was "MOHAMMED AHMED"
    ("IPL", "2025", "Q de Kock", "Quinton de Kock"),        # was "QUINTON KOCK"
    ("IPL", "2025", "Noor Ahmad", "Noor Ahmad"),            # was "NOOR LAKANWAL"
    ("IPL", "2025", "F du Plessis", "Faf du Plessis"),     # was "Francois" (known-as list)
    ("IPL", "2025", "RA Jadeja", "Ravindra Jadeja"),       # was "Ravindrasinh" (known-as list)
    ("IPL", "2025", "B Kumar", "Bhuvneshwar Kumar"),        # full name "Bhuvneshwar Kumar Singh"
    ("IPL", "2025", "M Theekshana", "Maheesh Theekshana"),  # family name first: "Morawakage Maheesh ..."
    ("IPL", "2025", "P Simran Singh", "Prabhsimran Singh"),
    ("IPL", "2025", "M Shahrukh Khan", "Shahrukh Khan"),    # Cricsheet keeps the name he goes by
    ("BBL", "2024-25", "JS Buckingham", "Jordan Buckingham"),  # full name "Jordan Steven Dermott"
    ("BBL", "2024-25", "Waqar Salamkheil", "Waqar Salamkheil"),
    ("BBL", "2024-25", "CJ Green", "Chris Green"),          # "Christopher James Green": short form
    ("BBL", "2024-25", "CA Lynn", "Chris Lynn"),            # was "CHRISTOPHER LYNN"
    ("IPL", "2025", "PJ Cummins", "Pat Cummins"),
    ("IPL", "2025", "TH David", "Tim David"),
    ("IPL", "2025", "PD Salt", "Phil Salt"),
    ("HUNDRED", "2024", "BA Stokes", "Ben Stokes"),
    ("IPL", "2025", "A Nortje", "Anrich Nortje"),          # was "ARNO NORTJE": "Anrich Arno Nortje"
    ("IPL", "2025", "JC Buttler", "Jos Buttler"),           # known-as list beats the short form
    ("BBL", "2023-24", "MS Wade", "Matthew Wade"),          # keeps the formal name (known-as list)
    ("BBL", "2024-25", "SPD Smith", "Steve Smith"),
    ("HUNDRED", "2024", "AU Rashid", "Adil Rashid"),
    ("IPL", "2025", "MS Dhoni", "MS Dhoni"),               # the initials are the name (known-as list)
    ("IPL", "2025", "PWH de Silva", "Wanindu Hasaranga"),  # "Pinnaduwage Wanindu Hasaranga de Silva"
])
def test_names_people_know(code, season, cricsheet, printed):
    attrs = _attrs(code, season)
    assert printed_name(cricsheet, attrs[cricsheet]) == printed


def test_every_printed_name_ends_with_the_cricsheet_surname():
    for code, season in (("IPL", "2025"), ("IPL", "2024"), ("BBL", "2024-25"), ("HUNDRED", "2024")):
        for cricsheet, a in _attrs(code, season).items():
            name = printed_name(cricsheet, a)
            if a["player_id"] in known_as_table():
                continue  # a known-as name from a source may differ (Wanindu Hasaranga)
            assert name.split()[-1] == cricsheet.split()[-1], (cricsheet, name)
            if not cricsheet.split()[0].isupper():
                assert name == cricsheet  # no initials: Cricsheet's name is the known-as name


def test_the_first_given_name_wins_unless_family_names_come_first():
    """When two given names fit the initial, the first is the name (India: "Smriti Shriniwas
    Mandhana", Shriniwas is her father's name), except where full names lead with the family
    name (Sri Lanka: "Morawakage Maheesh Theekshana")."""
    assert printed_name("S Mandhana", {"full_name": "Smriti Shriniwas Mandhana", "country": "India"}) \
        == "Smriti Mandhana"
    assert printed_name("S Pandey", {"full_name": "Shikha Subas Pandey", "country": "India"}) == "Shikha Pandey"
    assert printed_name("M Theekshana", {"full_name": "Morawakage Maheesh Theekshana",
                                         "country": "Sri Lanka"}) == "Maheesh Theekshana"
    # no second name that fits: the one that does, wherever it is
    assert printed_name("K Mendis", {"full_name": "Balapuwaduge Kusal Mendis", "country": "Sri Lanka"}) \
        == "Kusal Mendis"


def test_the_registers_number_is_not_part_of_the_name():
    """Cricsheet numbers namesakes ("Mohammad Nawaz (3)", PSL 2021); a card printed the number."""
    assert printed_name("Mohammad Nawaz (3)", {"full_name": "Mohammad Nawaz"}) == "Mohammad Nawaz"
    assert printed_name("M Nawaz (2)", {"full_name": "Mohammad Nawaz"}) == "Mohammad Nawaz"
    assert printed_name("AB Smith (12)", None) == "AB Smith"
    for code, season in (("IPL", "2025"), ("IPL", "2024"), ("BBL", "2024-25"), ("HUNDRED", "2024"),
                         ("BBL", "2023-24"), ("SMASH", "2024-25")):
        for cricsheet, a in _attrs(code, season).items():
            assert "(" not in printed_name(cricsheet, a), cricsheet


def test_no_source_no_guessing():
    assert printed_name("DS Rathi", {"full_name": None}) == "DS Rathi"
    assert printed_name("JS Buckingham", {"full_name": "Steven Dermott"}) == "JS Buckingham"
    assert printed_name("Q de Kock", {"known_as": "Quinny de Kock", "full_name": "Quinton de Kock"}) \
        == "Quinny de Kock"


def test_names_file(tmp_path):
    path = tmp_path / "names.csv"
    path.write_text("cricsheet_name,id,name\nJS Buckingham,10735e1d,Jordie  Buckingham\n,,\n", encoding="utf-8")
    assert read_name_overrides(path) == {"10735e1d": "Jordie Buckingham"}
    attrs = {"player_id": "10735e1d", "full_name": "Jordan Steven Dermott Buckingham"}
    with running_with(RunOptions(names=read_names(path))):
        assert printed_name("JS Buckingham", attrs) == "Jordie Buckingham"
        assert printed_name("JS Buckingham", None, "10735e1d") == "Jordie Buckingham"
    assert current().names == {}  # the corrections end with the block (a command: with the command)
    assert printed_name("JS Buckingham", attrs) == "Jordan Buckingham"
    # the user's file beats cardgen's own known-as list too
    path.write_text("id,name\n27e003ce,Meghann Lanning\n", encoding="utf-8")
    with running_with(RunOptions(names=read_names(path))):
        assert printed_name("MM Lanning", None, "27e003ce") == "Meghann Lanning"
    assert printed_name("MM Lanning", None, "27e003ce") == "Meg Lanning"
    bad = tmp_path / "bad.csv"
    bad.write_text("who,what\n1,2\n", encoding="utf-8")
    with pytest.raises(NamesFileError) as info:
        read_name_overrides(bad)
    assert "id,name" in str(info.value) and "\n" not in str(info.value)


def _pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


@pytest.mark.slow
@pytest.mark.needs_data
def test_names_file_changes_cards_team_sheets_site_and_card_set(mirror, tmp_path):
    names = tmp_path / "names.csv"
    names.write_text("id,name\n27e003ce,Meg Lanning\n", encoding="utf-8")
    env = {CACHE_ENV: str(tmp_path / "cache"), SOURCE_ENV: str(mirror), "CARDGEN_CRICINFO": None,
           USER_FILE_ENV: None, "CARDGEN_NAMES": None}
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", "-c", "WPL", "-s", "2023", "--out", str(out), "--no-images",
                                       "--paper", "a4", "--names", str(names), "--site"], env=env)
    assert result.exit_code == 0, result.output
    assert "used 22 matches of WPL 2023 (Cricsheet label 2022/23)" in result.output  # the whole edition
    kit = out / "WPL_2023"
    card_set = json.loads((kit / "card-set.json").read_text(encoding="utf-8"))
    lanning = [c for c in card_set["cards"] if c["player"]["id"] == "27e003ce"]
    assert lanning and all(c["player"]["name"] == "Meg Lanning" for c in lanning)
    assert all(c["player"]["cricsheet_name"] == "MM Lanning" for c in lanning)
    assert "MEG LANNING" in _pdf_text(kit / "cards-a4.pdf")
    assert "MEG LANNING" in _pdf_text(kit / "team-sheets-a4.pdf")
    assert "MEGHANN" not in _pdf_text(kit / "team-sheets-a4.pdf")
    site_text = "\n".join(p.read_text(encoding="utf-8") for p in (out / "site").rglob("*.html"))
    assert "Meg Lanning" in site_text and "Meghann Lanning" not in site_text


@pytest.mark.needs_data
def test_a_bad_names_file_is_one_line(mirror, tmp_path):
    result = CliRunner().invoke(main, ["calibrate", "-c", "WPL", "-s", "2023", "--names",
                                       str(tmp_path / "missing.csv")],
                                env={SOURCE_ENV: str(mirror), CACHE_ENV: str(tmp_path / "c")})
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "names file" in result.output and len(result.output.strip().splitlines()) == 1


@pytest.mark.needs_data
def test_a_kept_card_set_is_not_reused_across_names_files(bbl_stats):
    from cardgen.calibrate.reuse import fingerprint
    bbl = get_competition("BBL")
    stats = bbl_stats
    plain = fingerprint(stats, bbl, "2024-25", {"names": {}})
    named = fingerprint(stats, bbl, "2024-25", {"names": {"10735e1d": "Jordan Buckingham"}})
    assert plain != named and plain == fingerprint(stats, bbl, "2024-25", {"names": {}})


@pytest.mark.needs_data
def test_known_as_list_is_well_formed():
    table = known_as_table()
    assert len(table) >= 10
    register = __import__("pandas").read_csv(ROOT.parent / "shared" / "data" / "players" / "people.csv",
                                             dtype=str, usecols=["identifier", "name"])
    names = dict(zip(register["identifier"], register["name"]))
    missing = set(table) - set(names)
    if missing:  # players newer than the register copy (2025 debutants): in the match files
        for path in sorted((ROOT.parent / "shared" / "data" / "cricsheet").rglob("*.json")):
            people = json.loads(path.read_bytes())["info"].get("registry", {}).get("people", {})
            names.update({pid: name for name, pid in people.items() if pid in missing})
    listed = {row["id"]: row["cricsheet_name"] for row in
              __import__("csv").DictReader(KNOWN_AS_TABLE.open(encoding="utf-8"))}
    for pid, known in table.items():
        assert pid in names, pid  # every id is a real register id
        assert names[pid] == listed[pid], (pid, listed[pid])  # ... the player the row names
        assert known and known == " ".join(known.split())


# -- hostile names files (issue 40, case 10) -----------------------------------------------

def test_a_repeated_id_is_warned_about_and_the_later_name_used(tmp_path):
    import warnings
    from cardgen.errors import CardgenWarning
    path = tmp_path / "names.csv"
    path.write_text("id,name\n27e003ce,Meg Lanning\n10735e1d,Jordie Buckingham\n27e003ce,M Lanning\n",
                    encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert read_name_overrides(path) == {"27e003ce": "M Lanning", "10735e1d": "Jordie Buckingham"}
    assert [str(w.message) for w in caught if issubclass(w.category, CardgenWarning)] == [
        f"names file {path}: id 27e003ce is given twice (lines 2 and 4); the later name, 'M Lanning', is used"]


def test_control_and_bidi_characters_are_taken_out_of_a_names_file(tmp_path):
    path = tmp_path / "names.csv"
    path.write_text("id,name\n27e003ce,\u202eGNINNAL GEM\u202c\n10735e1d,Jordie\u0007 Buckingham\n",
                    encoding="utf-8")
    assert read_name_overrides(path) == {"27e003ce": "GNINNAL GEM", "10735e1d": "Jordie Buckingham"}


def test_a_names_file_that_is_a_fifo_is_one_line_not_a_hang(tmp_path, mirror):
    import os
    import subprocess
    import sys
    os.mkfifo(tmp_path / "names.csv")
    run = subprocess.run([sys.executable, "-m", "cardgen.cli", "stats", "-c", "BBL", "-s", "2024-25",
                          "--names", str(tmp_path / "names.csv"), "--table", "league"],
                         capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
                         env={**os.environ, CACHE_ENV: str(tmp_path / "c"), "PYTHONPATH": str(ROOT)})
    assert run.returncode == 2 and run.stderr.strip() == (
        f"Error: names file {tmp_path / 'names.csv'} is not a regular file; give a UTF-8 CSV with columns id,name")


def test_stats_prints_the_corrected_names_and_warns_of_ids_that_match_no_player(tmp_path):
    """`stats --names` printed Cricsheet's names, and ids matching no player (a typo) passed
    without a word."""
    names = tmp_path / "names.csv"
    names.write_text("id,name\n218d4d78,Matt Renshaw\nffffffff,Nobody Atall\n218d4d7x,Typo Renshaw\n",
                     encoding="utf-8")
    env = {CACHE_ENV: str(tmp_path / "c"), "CARDGEN_NAMES": None, SOURCE_ENV: None}
    result = CliRunner().invoke(main, ["stats", "-c", "BBL", "-s", "2024-25", "--table", "batting",
                                       "--format", "csv", "--names", str(names)], env=env)
    assert result.exit_code == 0, result.output
    rows = [line for line in result.output.splitlines() if line.startswith("218d4d78,")]
    assert rows and rows[0].split(",")[1] == "Matt Renshaw"
    assert "MT Renshaw" not in result.output
    warned = [line for line in result.output.splitlines() if line.startswith("warning: ")]
    assert warned == [f"warning: names file {names}: 2 of its 3 ids match no player of BBL 2024-25 (218d4d7x, "
                      f"ffffffff); the ids are Cricsheet register ids, as player.id in card-set.json or "
                      f"player_id in `cardgen stats --table attributes`"]
    plain = CliRunner().invoke(main, ["stats", "-c", "BBL", "-s", "2024-25", "--table", "batting",
                                      "--format", "csv"], env=env)
    assert "218d4d78,MT Renshaw," in plain.output and "warning" not in plain.output


@pytest.mark.slow  # a whole build
def test_build_warns_of_ids_that_match_no_card(card_set_file, tmp_path):
    names = tmp_path / "names.csv"
    names.write_text("id,name\nffffffff,Nobody Atall\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["build", "-c", "BBL", "-s", "2024-25", "--card-set", str(card_set_file),
                                       "--out", str(tmp_path / "out"), "--no-images", "--paper", "a4",
                                       "--names", str(names)],
                                env={CACHE_ENV: str(tmp_path / "c"), "CARDGEN_NAMES": None})
    assert result.exit_code == 0, result.output
    assert (f"warning: names file {names}: 1 of its 1 ids match no player of the card set BBL 2024-25 "
            f"(ffffffff);") in result.output
