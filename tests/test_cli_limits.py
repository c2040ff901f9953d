"""Run sizes are bounded: beyond the limit a one-line usage error, the limit stated in --help."""
from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from cardgen.cli import main
from cardgen.errors import EXIT_USAGE
from cardgen.cli.games import MAX_INNINGS
from cardgen.cli.simulate import MAX_BALLS, MAX_SEASONS
from conftest import as_model

SEASON = ["-c", "BBL", "-s", "2024-25"]


@pytest.mark.parametrize("command, option, limit, asked", [
    ("compare-games", "--innings", MAX_INNINGS, "99999999999"),
    ("simulate", "--seasons", MAX_SEASONS, "100000000"),
    ("validate", "--balls", MAX_BALLS, "1000000000"),
])
def test_a_run_beyond_the_limit_is_a_one_line_usage_error(command, option, limit, asked, tmp_path):
    result = CliRunner().invoke(main, [command, *SEASON, option, asked, "--out", str(tmp_path)])
    assert result.exit_code == EXIT_USAGE and "Traceback" not in result.output
    assert f"Invalid value for '{option}': {asked} is not in the range" in result.output
    assert f"<=x<={limit}" in result.output
    assert list(tmp_path.iterdir()) == []  # refused before any work
    help_text = " ".join(CliRunner().invoke(main, [command, "--help"]).output.split())
    assert f"{limit:,}" in help_text  # the limit is stated where the option is explained


@pytest.mark.needs_data
def test_validate_reports_progress_for_every_ball(render_card_sets: dict[str, dict]):
    """The progress callback sees each card's balls as they are played (so a long run shows it)."""
    from cardgen.sim.validate import STREAMS_PER_CARD, validate_cards
    card_set = render_card_sets["BBL"]  # the session's BBL 2024-25 set (validate only reads it)
    seen: list[int] = []
    validate_cards(as_model(card_set), 400, np.random.default_rng(0), progress=seen.append)
    def played(balls: int) -> int:  # balls are played in whole steps of STREAMS_PER_CARD
        return -(-balls // STREAMS_PER_CARD) * STREAMS_PER_CARD
    # the strikers' and the bowlers' passes of 400 balls (the short average-opponent pass is silent)
    assert sum(seen) == 2 * played(400)
    assert len(seen) > 2
