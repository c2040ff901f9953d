"""The first ten minutes of a new user (issue 39, item 8): what `cardgen --help`, a bare
`cardgen build`, `competitions` and `preflight` say to someone who has read nothing yet."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from cardgen.cli import COMMAND_SUMMARIES, main


def test_help_lists_every_command_with_a_whole_summary_and_shows_examples():
    result = CliRunner().invoke(main, ["--help"], terminal_width=100)
    assert result.exit_code == 0
    listed = result.output.split("Commands:")[1]
    commands = sorted(main.commands)
    assert sorted(COMMAND_SUMMARIES) == commands  # a new command needs its summary
    for name in commands:
        # click's own listing cuts each docstring at 45 characters and ends it with "..."
        assert f"{name} " in listed and COMMAND_SUMMARIES[name] in " ".join(listed.split())
    assert "..." not in listed
    assert "cardgen build -c BBL -s 2024-25" in result.output  # an example to copy
    assert "first use" in result.output


def test_a_bare_build_says_what_to_give_with_an_example_and_no_hidden_default():
    result = CliRunner().invoke(main, ["build"])
    assert result.exit_code != 0
    message = result.output.strip().splitlines()
    assert len(message) == 1
    assert "--competition BBL --season 2024-25" in message[0]
    assert "cardgen competitions" in message[0]
    assert "quicket" not in message[0].lower()  # the default game is not the user's concern here


def test_competitions_says_what_a_dash_means(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    result = CliRunner().invoke(main, ["competitions"])
    assert result.exit_code == 0
    assert " -\n" in result.output  # some competition has nothing offline in an empty cache
    assert "downloaded on first use" in result.output


def test_preflight_names_a_missing_folder_as_missing(tmp_path: Path):
    missing = tmp_path / "outptu"
    result = CliRunner().invoke(main, ["preflight", str(missing)])
    assert result.exit_code != 0
    assert "does not exist" in result.output and "not a folder" not in result.output
    file = tmp_path / "cards.txt"
    file.write_text("x")
    result = CliRunner().invoke(main, ["preflight", str(file)])
    assert result.exit_code != 0 and "is a file" in result.output
