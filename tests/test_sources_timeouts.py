"""Downloads are bounded: servers that never answer, trickle bytes or stall fail within the limits.

Each hostile server is a raw socket on 127.0.0.1 served by a thread of this test; the threads
stop themselves (a stop event, and at most HOLD seconds per connection), so nothing outlives
the test. Nothing touches the internet.
"""
from __future__ import annotations

import select
import socket
import threading
import time
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from cardgen.cache import CACHE_ENV
from cardgen.cli import main
from cardgen.competitions import get_competition
from cardgen.errors import EXIT_ENVIRONMENT, DownloadTimeout
from cardgen.sources import fetch
from cardgen.sources.fetch import DownloadLimits, download_zip

BBL = get_competition("BBL")
HOLD = 120.0  # s a hostile connection is held at most (past every bound asserted here)
LIMITS = DownloadLimits(connect=0.5, read=1.0, deadline=2.5)
# The tests name what timed out and which limit from the error itself; the clock only shows
# the download is bounded at all (the unbounded case waited 486 s). 20x the limit is coarse
# enough for a CI machine under load (load average 8-20 seen on 2 cores) and still below HOLD
# and the kernel's own connect give-up (~127 s of SYN retries), so an ignored limit cannot pass.
BOUND = 20.0


class HostileServer:
    """Accepts HTTP connections and misbehaves: `silent`, `trickle` or `stall`."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.stop = threading.Event()
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.1)
        self.threads: list[threading.Thread] = []
        self.accepted = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def _wait(self, seconds: float) -> bool:
        """Sleep unless told to stop; False when stopping."""
        return not self.stop.wait(seconds)

    def _handle(self, conn: socket.socket) -> None:
        started = time.monotonic()
        with conn:
            conn.settimeout(30.0)  # a loaded client may take a while to send its request
            try:
                conn.recv(65536)  # the request
                if self.mode in ("trickle", "stall"):
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/zip\r\n"
                                 b"Content-Length: 100000\r\n\r\n")
                if self.mode == "stall":
                    conn.sendall(b"PK" + b"\0" * 30000)  # some of the body, then silence
                if self.mode == "slow":  # a whole body, in four pieces 0.2 s apart
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 4000\r\n\r\n")
                    for _ in range(4):
                        if not self._wait(0.2):
                            return
                        conn.sendall(b"y" * 1000)
                    return
                while time.monotonic() - started < HOLD and self._wait(0.2):
                    if self.mode == "trickle":
                        conn.sendall(b"x")  # a byte every 0.2 s: never silent for long
            except OSError:
                pass  # the client hung up: that is the point

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.accepted += 1
            worker = threading.Thread(target=self._handle, args=(conn,), daemon=True)
            worker.start()
            self.threads.append(worker)

    def __enter__(self) -> HostileServer:
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(5)
        self.sock.close()
        for worker in self.threads:
            worker.join(5)
        assert not any(t.is_alive() for t in [self.thread, *self.threads])


@pytest.fixture
def hostile(request) -> Iterator[HostileServer]:
    with HostileServer(request.param) as server:
        yield server


def _timed_download(server: HostileServer, tmp_cache) -> tuple[str, float]:
    started = time.monotonic()
    with pytest.raises(DownloadTimeout) as info:
        download_zip(server.url, BBL, tmp_cache, limits=LIMITS)
    elapsed = time.monotonic() - started
    raw = tmp_cache.root / "raw"
    assert not raw.exists() or not any(raw.iterdir())  # nothing half-downloaded is kept
    assert "\n" not in str(info.value)
    return str(info.value), elapsed


@pytest.mark.slow
@pytest.mark.parametrize("hostile", ["silent"], indirect=True)
def test_a_server_that_never_answers_fails_at_the_read_timeout(hostile, tmp_cache):
    message, elapsed = _timed_download(hostile, tmp_cache)
    assert "did not answer within 1 s (read time-out)" in message and "127.0.0.1" in message
    assert elapsed < BOUND * LIMITS.read
    assert hostile.accepted == 1  # a silent server is not asked again and again


@pytest.mark.slow
@pytest.mark.parametrize("hostile", ["trickle"], indirect=True)
def test_a_trickling_server_fails_at_the_deadline(hostile, tmp_cache):
    message, elapsed = _timed_download(hostile, tmp_cache)
    assert "did not finish within its 2.5 s deadline" in message and "of 0.1 MB received" in message
    # not cut short (a byte every 0.2 s never trips the read time-out); load only adds time, so
    # the lower bound cannot flake
    assert LIMITS.deadline <= elapsed < BOUND * LIMITS.deadline


@pytest.mark.slow
@pytest.mark.parametrize("hostile", ["stall"], indirect=True)
def test_a_server_that_stalls_mid_body_fails_at_the_read_timeout(hostile, tmp_cache):
    message, elapsed = _timed_download(hostile, tmp_cache)
    assert "stopped sending bbl_male_json.zip for 1 s (read time-out)" in message
    assert elapsed < BOUND * LIMITS.read


@pytest.mark.slow
def test_a_server_that_never_accepts_fails_at_the_connect_timeout(tmp_cache):
    """A listening socket whose accept queue is full: the kernel drops further SYNs."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(0)
    fillers = []
    try:
        for _ in range(4):  # fill the accept queue (its length is backlog + 1 on Linux)
            filler = socket.socket()
            filler.setblocking(False)
            filler.connect_ex(server.getsockname())
            fillers.append(filler)
        # the first filler's handshake completing means the accept queue is full (poll, not sleep)
        _, writable, _ = select.select([], fillers[:1], [], 10)
        assert writable, "the accept queue never filled"
        started = time.monotonic()
        with pytest.raises(DownloadTimeout) as info:
            download_zip(f"http://127.0.0.1:{server.getsockname()[1]}", BBL, tmp_cache, limits=LIMITS)
        elapsed = time.monotonic() - started
    finally:
        for filler in fillers:
            filler.close()
        server.close()
    assert "within 0.5 s (connect time-out)" in str(info.value)
    # urllib3 tries to connect up to 3 times (2 retries, 0.5 s back-off), each bounded: 3 s at most
    assert elapsed < BOUND * (3 * LIMITS.connect + 1.5)


@pytest.mark.slow
@pytest.mark.parametrize("hostile", ["silent"], indirect=True)
def test_cli_names_what_timed_out_in_one_line_with_exit_3(hostile, tmp_path):
    env = {CACHE_ENV: str(tmp_path / "cache"), "CARDGEN_CRICINFO": None,
           fetch.READ_TIMEOUT_ENV: "1", fetch.DEADLINE_ENV: "3"}
    result = CliRunner().invoke(main, ["stats", "-c", "BBL", "-s", "2024-25", "--refresh",
                                       "--source", hostile.url], env=env)
    assert result.exit_code == EXIT_ENVIRONMENT, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "read time-out" in lines[0] and "--source" in lines[0], lines


def test_limits_from_the_environment(monkeypatch):
    monkeypatch.setenv(fetch.DEADLINE_ENV, "90")
    monkeypatch.setenv(fetch.READ_TIMEOUT_ENV, "5")
    assert DownloadLimits.from_env() == DownloadLimits(connect=5, read=5, deadline=90)
    monkeypatch.setenv(fetch.DEADLINE_ENV, "soon")
    result = CliRunner().invoke(main, ["stats", "-c", "BBL", "-s", "2024-25", "--refresh",
                                       "--source", "http://127.0.0.1:9"])
    assert result.exit_code == 2 and "CARDGEN_DOWNLOAD_DEADLINE='soon' is not a number" in result.output


@pytest.mark.parametrize("hostile", ["slow"], indirect=True)
def test_progress_is_reported_while_a_slow_download_completes(hostile, monkeypatch):
    seen: list[tuple[int | None, int]] = []

    class Bar:
        def __init__(self, total, label):
            self.total, self.label = total, label

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def update(self, n):
            seen.append((self.total, n))
    monkeypatch.setattr(fetch, "_progress_bar", Bar)
    body = fetch.fetch_body(fetch.make_session(), f"{hostile.url}/bbl_male_json.zip", LIMITS, time.monotonic())
    assert body == b"y" * 4000
    assert len(seen) >= 2 and sum(n for _, n in seen) == 4000 and {t for t, _ in seen} == {4000}
