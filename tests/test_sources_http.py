"""The HTTP path against a loopback server that serves Cricsheet-style zips built from the mirror.

Nothing here touches the internet: the server listens on 127.0.0.1 on a random port, and the
zips are built in a temp folder at test time from ../shared/data/cricsheet.
"""
from __future__ import annotations

import gzip
import io
import json
import threading
import zipfile
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from collections.abc import Iterator

import pandas as pd
import pytest
import requests
from click.testing import CliRunner

from cardgen.cli import main
from cardgen.competitions import get_competition
from cardgen.errors import SourceError
from cardgen.sources import fetch
from cardgen.sources.fetch import SOURCE_ENV, USER_AGENT, download_zip, match_files, resolve_source
from cardgen.stats.load import season_stats

FIXTURES = Path(__file__).parent / "fixtures"
BBL = get_competition("BBL")


def build_zip(mirror: Path, folders: list[str]) -> bytes:
    """A zip laid out like Cricsheet's downloads: flat <match_id>.json files plus a README."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("README.txt", "loopback test zip\n")
        for folder in folders:
            for path in sorted((mirror / folder).glob("*.json")):
                zf.writestr(path.name, path.read_bytes())
    return buf.getvalue()


class LoopbackServer:
    """Serves /<mode>/<file>: good zips, zips cut mid-body, truncated zips, 404s, flaky 503s,
    gzip-encoded zips (`gzip`: when the client accepts gzip, as web servers do; `gzipalways`:
    whatever the client asked for)."""

    def __init__(self, files: dict[str, bytes]) -> None:
        self.files = files
        self.hits: Counter[str] = Counter()
        self.user_agents: list[str] = []
        self.accept_encodings: list[str] = []
        self.flaky_failures = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # keep test output quiet
                pass

            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                server.hits[self.path] += 1
                server.user_agents.append(self.headers.get("User-Agent", ""))
                accept = self.headers.get("Accept-Encoding", "")
                server.accept_encodings.append(accept)
                if self.path in server.files:  # a page served at its own path
                    mode, body = "good", server.files[self.path]
                else:
                    mode, _, name = self.path.strip("/").partition("/")
                    body = server.files.get(name)
                if body is None or mode == "missing":
                    self.send_error(404)
                    return
                if mode == "flaky" and server.flaky_failures < 2:
                    server.flaky_failures += 1
                    self.send_error(503)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/zip")
                if mode == "short":  # a complete HTTP answer carrying half a zip
                    body = body[: len(body) // 2]
                if mode == "gzipalways" or (mode == "gzip" and "gzip" in accept):
                    body = gzip.compress(body, mtime=0)
                    self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if mode == "cut":  # promise the whole zip, send half, hang up
                    self.wfile.write(body[: len(body) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                       daemon=True)

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> LoopbackServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="module")
def bbl_zip(mirror: Path) -> bytes:
    return build_zip(mirror, ["bbl_2023-24", "bbl_2024-25"])


@pytest.fixture
def server(bbl_zip: bytes) -> Iterator[LoopbackServer]:
    page = (FIXTURES / "cricinfo_player_787073.html").read_bytes()
    with LoopbackServer({BBL.download_file: bbl_zip,
                         "/ci/content/player/787073.html": page}) as srv:
        yield srv


@pytest.mark.needs_data
def test_url_mirror_gives_the_same_matches_as_the_folder(server, mirror, tmp_cache):
    from_url = match_files(BBL, "2024-25", f"{server.url}/good", cache=tmp_cache)
    from_folder = match_files(BBL, "2024-25", str(mirror))
    assert [m.match_id for m in from_url] == [m.match_id for m in from_folder]
    assert all(a.raw == b.raw for a, b in zip(from_url, from_folder))
    # the other season in the same zip is filtered out
    assert len(from_url) == len(list((mirror / "bbl_2024-25").glob("*.json")))
    assert server.user_agents == [USER_AGENT]


@pytest.mark.needs_data
def test_download_is_cached_and_reused(server, tmp_cache):
    source = f"{server.url}/good"
    match_files(BBL, "2024-25", source, cache=tmp_cache)
    match_files(BBL, "2023-24", source, cache=tmp_cache)
    assert server.hits[f"/good/{BBL.download_file}"] == 1
    assert len(list((tmp_cache.root / "raw").iterdir())) == 1


@pytest.mark.needs_data
def test_stats_over_http_equal_stats_from_folder(server, bbl_stats, tmp_cache):
    st = season_stats(BBL, "2024-25", f"{server.url}/good", cache=tmp_cache)
    pd.testing.assert_frame_equal(st.batting, bbl_stats.batting)
    pd.testing.assert_frame_equal(st.bowling, bbl_stats.bowling)
    assert st.league == bbl_stats.league


@pytest.mark.needs_data
def test_interrupted_download_leaves_cache_usable_and_is_refetched(server, tmp_cache):
    with pytest.raises(SourceError, match="cut short"):
        download_zip(f"{server.url}/cut", BBL, tmp_cache)
    # tried twice, cached nothing (not even a temp file)
    assert server.hits[f"/cut/{BBL.download_file}"] == fetch.DOWNLOAD_ATTEMPTS
    raw = tmp_cache.root / "raw"
    assert not raw.exists() or not any(raw.iterdir())
    # the same cache then serves a good download, and keeps it
    files = match_files(BBL, "2024-25", f"{server.url}/good", cache=tmp_cache)
    assert len(files) > 40
    assert len(list(raw.iterdir())) == 1


@pytest.mark.needs_data
def test_truncated_zip_is_refused_not_cached(server, tmp_cache):
    with pytest.raises(SourceError, match="complete zip"):
        download_zip(f"{server.url}/short", BBL, tmp_cache)
    raw = tmp_cache.root / "raw"
    assert not raw.exists() or not any(raw.iterdir())


@pytest.mark.needs_data
def test_corrupt_cached_zip_is_detected_and_refetched(server, tmp_cache):
    source = f"{server.url}/good"
    first = download_zip(source, BBL, tmp_cache)
    (cached,) = list((tmp_cache.root / "raw").iterdir())
    cached.write_bytes(first[: len(first) // 3])  # a download cut short by a crash
    again = download_zip(source, BBL, tmp_cache)
    assert again == first
    assert server.hits[f"/good/{BBL.download_file}"] == 2
    assert cached.read_bytes() == first


@pytest.mark.needs_data
def test_download_asks_for_the_zip_as_it_is(server, bbl_zip, tmp_cache):
    """A web server that gzips what the client accepts must send the zip untouched: the
    download streams raw bytes, so a gzip-encoded body would never be a zip."""
    assert download_zip(f"{server.url}/gzip", BBL, tmp_cache) == bbl_zip
    assert server.accept_encodings == ["identity"]
    assert server.hits[f"/gzip/{BBL.download_file}"] == 1


@pytest.mark.needs_data
def test_gzip_encoded_download_is_decoded(server, bbl_zip, tmp_cache):
    """A server that gzips the body even when asked not to still gives the zip."""
    assert download_zip(f"{server.url}/gzipalways", BBL, tmp_cache) == bbl_zip
    assert server.hits[f"/gzipalways/{BBL.download_file}"] == 1


@pytest.mark.needs_data
def test_missing_file_is_a_one_line_source_error(server, tmp_cache):
    with pytest.raises(SourceError, match="HTTP 404") as info:
        download_zip(f"{server.url}/missing", BBL, tmp_cache)
    assert "\n" not in str(info.value)


@pytest.mark.slow
@pytest.mark.needs_data
def test_server_errors_are_retried(server, tmp_cache):
    data = download_zip(f"{server.url}/flaky", BBL, tmp_cache)
    assert zipfile.ZipFile(io.BytesIO(data)).testzip() is None
    assert server.hits[f"/flaky/{BBL.download_file}"] == 3  # two 503s, then the zip


def test_unreachable_server_is_a_source_error(tmp_cache, monkeypatch):
    # port 9 (discard) on loopback: nothing listens, the connection is refused at once
    monkeypatch.setattr(fetch, "make_session", requests.Session)
    with pytest.raises(SourceError, match="could not download"):
        download_zip("http://127.0.0.1:9", BBL, tmp_cache)


@pytest.mark.needs_data
def test_source_env_variable(monkeypatch, mirror):
    monkeypatch.setenv(SOURCE_ENV, str(mirror))
    assert resolve_source(None) == str(mirror)
    assert resolve_source("http://example.invalid/x") == "http://example.invalid/x"
    monkeypatch.delenv(SOURCE_ENV)
    assert resolve_source(None) == fetch.DEFAULT_SOURCE


@pytest.mark.needs_data
def test_corrupt_derived_table_is_rebuilt(mirror, tmp_cache):
    st = season_stats(BBL, "2024-25", str(mirror), cache=tmp_cache)
    ((entry, _),) = tmp_cache.entries()
    batting = tmp_cache.table_dir(entry) / "batting.csv"
    good = batting.read_bytes()
    batting.write_bytes(good[: len(good) // 2])  # truncated by a crash mid-write
    assert not tmp_cache.is_complete(entry)
    again = season_stats(BBL, "2024-25", str(mirror), cache=tmp_cache)
    assert batting.read_bytes() == good
    pd.testing.assert_frame_equal(again.batting, st.batting)


@pytest.mark.needs_data
def test_cricinfo_scraper_over_loopback(server, tmp_cache, monkeypatch):
    """A player the tables lack is filled from his (loopback) ESPNcricinfo page, fetched once."""
    from cardgen.sources.cricinfo import CRICINFO_ENV, scraping_base_url
    from cardgen.sources.players import ATTRIBUTE_COLUMNS
    from cardgen.stats.load import _add_scraped
    monkeypatch.setenv(CRICINFO_ENV, server.url)
    assert scraping_base_url() == server.url
    players = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "players"
    empty = pd.DataFrame(columns=ATTRIBUTE_COLUMNS)
    for _ in range(2):
        attrs = _add_scraped(empty, players, ["19b9f399"], tmp_cache)  # CJ Green's register id
    row = attrs.set_index("player_id").loc["19b9f399"]
    assert (row["known_as"], row["full_name"], row["country"]) == (
        "Chris Green", "Christopher James Green", "Australia")
    assert (row["batting_hand"], row["bowling_type"], row["attribute_source"]) == ("right", "Spin", "cricinfo")
    assert server.hits["/ci/content/player/787073.html"] == 1  # the second run read the cache
    monkeypatch.setenv(CRICINFO_ENV, "0")
    assert scraping_base_url() is None


@pytest.mark.needs_data
def test_cli_stats_with_a_url_source(server, tmp_path):
    env = {"CARDGEN_CACHE": str(tmp_path / "cache"), SOURCE_ENV: None, "CARDGEN_CRICINFO": None}
    result = CliRunner().invoke(main, ["stats", "-c", "BBL", "-s", "2023-24", "--source",
                                       f"{server.url}/good", "--format", "json", "--table", "league"],
                                env=env)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["league"]["matches"] == 41
    # the same through the environment variable, now answered from the cached download
    result = CliRunner().invoke(main, ["stats", "-c", "BBL", "-s", "2024-25", "--table", "league"],
                                env={**env, SOURCE_ENV: f"{server.url}/good"})
    assert result.exit_code == 0, result.output
    assert server.hits[f"/good/{BBL.download_file}"] == 1


@pytest.mark.needs_data
def test_requests_carry_a_timeout_and_the_user_agent(bbl_zip, tmp_cache):
    seen = {}

    class RecordingSession:
        headers = {"User-Agent": USER_AGENT}

        def get(self, url, **kwargs):
            seen.update(kwargs, url=url)
            resp = requests.Response()
            resp.status_code, resp.raw = 200, io.BytesIO(bbl_zip)
            return resp

    download_zip("http://127.0.0.1:1/m", BBL, tmp_cache, session=RecordingSession())
    assert seen["url"] == f"http://127.0.0.1:1/m/{BBL.download_file}"
    assert seen["timeout"] == fetch.TIMEOUT and all(t > 0 for t in fetch.TIMEOUT)
    assert seen["stream"] is True  # streamed, so the deadline is checked between reads
    session = fetch.make_session()
    assert session.headers["User-Agent"] == USER_AGENT and "cardgen/" in USER_AGENT
    assert session.get_adapter("https://cricsheet.org").max_retries.total >= 2
