"""The player-attributes table cardgen ships (issue 11 item 5): reproducible from the shared
players folder, the same attributes as that folder, and complete kits from a bare mirror."""
from __future__ import annotations

import json
import shutil

import pandas as pd
import pytest
from click.testing import CliRunner

from cardgen.cache import CACHE_ENV
from cardgen.cli import main
from cardgen.competitions import USER_FILE_ENV
from cardgen.errors import EXIT_USAGE, SourceError
from cardgen.sources.fetch import SOURCE_ENV
from cardgen.sources.players import (PLAYERS_ENV, SHIPPED_TABLE, cricinfo_keys, derive_shipped_table,
                                     load_attributes, load_shipped_attributes, shipped_table)
from tests.conftest import PLAYERS

pytestmark = pytest.mark.needs_data


def test_shipped_table_is_derived_from_the_players_folder():
    derived = derive_shipped_table(PLAYERS)
    shipped = pd.read_csv(SHIPPED_TABLE, dtype=str, keep_default_na=False)
    # the committed file is exactly what the maintainer command writes from ../shared
    pd.testing.assert_frame_equal(derived.reset_index(drop=True), shipped)
    meta = pd.read_csv(PLAYERS / "player_meta.csv", dtype=str, keep_default_na=False)
    assert set(meta["cricsheet_id"]) - {""} <= set(shipped["player_id"])  # every player there
    assert "dob" not in shipped and "birthplace" not in shipped


def test_shipped_attributes_match_the_folder_on_a_season():
    ids = sorted(pd.read_csv(PLAYERS / "bbl_2024-25_players.csv", dtype=str)["cricsheet_id"])
    folder = load_attributes(PLAYERS, ids).set_index("player_id")
    shipped = load_shipped_attributes(ids).set_index("player_id")
    assert set(shipped.index) == set(folder.index) and len(folder) >= 150
    cols = ["full_name", "country", "batting_hand", "bowling_type", "playing_role", "key_cricinfo"]
    pd.testing.assert_frame_equal(shipped.loc[folder.index, cols], folder[cols])


@pytest.mark.slow
def test_build_from_a_bare_mirror_has_bowling_roles(mirror, tmp_path):
    bare = tmp_path / "my-mirror"  # no players/ folder beside it, no CARDGEN_PLAYERS
    shutil.copytree(mirror / "wpl_2023", bare / "wpl_2023")
    env = {CACHE_ENV: str(tmp_path / "cache"), SOURCE_ENV: str(bare), PLAYERS_ENV: None,
           "CARDGEN_CRICINFO": None, USER_FILE_ENV: None, "CARDGEN_NAMES": None}
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", "-c", "WPL", "-s", "2023", "--out", str(out),
                                       "--no-images", "--paper", "a4"], env=env)
    assert result.exit_code == 0, result.output
    assert "from cardgen's attributes table" in result.output and "players had none" in result.output
    card_set = json.loads((out / "WPL_2023" / "card-set.json").read_text(encoding="utf-8"))
    types = load_shipped_attributes(sorted({c["player"]["id"] for c in card_set["cards"]}))
    types = {pid: t for pid, t in zip(types["player_id"], types["bowling_type"]) if isinstance(t, str)}
    bowlers = [c for c in card_set["cards"] if c["kind"] == "bowler"]
    typed = [c for c in bowlers if types.get(c["player"]["id"])]
    assert len(typed) >= 0.8 * len(bowlers)  # the rest have no bowling style in player_meta
    for card in typed:
        assert card["player"]["bowling_role"] == types[card["player"]["id"]], card["player"]["name"]
    # and names from the table's full names, not the register's initials
    names = {c["player"]["cricsheet_name"]: c["player"]["name"] for c in card_set["cards"]}
    assert names["HK Matthews"] == "Hayley Matthews" and names["S Mandhana"] == "Smriti Mandhana"
    assert shipped_table() is not None


def test_a_players_folder_of_another_shape_is_a_one_line_error(mirror, tmp_path):
    """A `players/` folder beside a mirror is picked up by itself; files in it without the
    register's columns are named in an error, never a KeyError traceback."""
    root = tmp_path / "mirror"
    shutil.copytree(mirror / "wpl_2023", root / "wpl_2023")
    players = tmp_path / "players"
    players.mkdir()
    (players / "player_meta.csv").write_text("id,name\n1,Someone\n", encoding="utf-8")
    env = {CACHE_ENV: str(tmp_path / "cache"), SOURCE_ENV: None, PLAYERS_ENV: None,
           "CARDGEN_CRICINFO": None, USER_FILE_ENV: None}
    args = ["stats", "-c", "WPL", "-s", "2023", "--source", str(root), "--table", "league"]
    result = CliRunner().invoke(main, args, env=env)
    assert result.exit_code == EXIT_USAGE and "Traceback" not in result.output, result.output
    (line,) = result.output.strip().splitlines()
    assert line.startswith(f"Error: players table {players / 'player_meta.csv'} lacks the column(s) "
                           "cricsheet_id") and PLAYERS_ENV in line
    # the register without its ESPNcricinfo column, and a file that is not CSV at all
    good_meta = "cricinfo_id,cricsheet_id,full_name,country,batting_style,bowling_style,playing_role\n"
    (players / "player_meta.csv").write_text(good_meta + "1,ab12cd34,A B,X,,,\n", encoding="utf-8")
    (players / "people.csv").write_text("identifier,name\nab12cd34,A B\n", encoding="utf-8")
    with pytest.raises(SourceError, match=r"people.csv lacks the column\(s\) key_cricinfo"):
        load_attributes(players, ["ab12cd34"])
    with pytest.raises(SourceError, match="people.csv lacks"):
        cricinfo_keys(players, ["ab12cd34"])
    (players / "people.csv").write_bytes(b"identifier,key_cricinfo\n\"ab12cd34,\xff\xfe\n")
    with pytest.raises(SourceError, match="people.csv cannot be read"):
        load_attributes(players, ["ab12cd34"])
    # an optional season-squad file of another shape is passed over, as an unreadable one was
    (players / "people.csv").write_text("identifier,key_cricinfo\nab12cd34,99\n", encoding="utf-8")
    (players / "wpl_2023_players.csv").write_text("player,team\nA B,X\n", encoding="utf-8")
    attrs = load_attributes(players, ["ab12cd34"])
    # the row's key is its own profile's (player_meta's cricinfo_id); the register's is kept too
    assert attrs[["player_id", "full_name", "key_cricinfo", "cricinfo_keys"]].values.tolist() == [
        ["ab12cd34", "A B", "1", "99"]]


def test_shipped_name_sex_table_is_derived_from_the_players_folder():
    """The name-word table the identity check reads (cardgen/sources/data/name_sex.csv.gz) is
    what the maintainer command writes from ../shared and nomquamgender's data (a test extra)."""
    import gzip

    from cardgen.sources.given_names import NAME_SEX_TABLE, derive_name_sex_table
    pytest.importorskip("nomquamgender")
    assert gzip.decompress(NAME_SEX_TABLE.read_bytes()).decode("utf-8") == derive_name_sex_table(PLAYERS)
