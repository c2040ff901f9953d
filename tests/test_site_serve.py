"""`cardgen serve` against hostile sites and clients (issue 40, cases 1 and 5).

The server answers only regular files whose real path lies inside the site folder: a symlink
out of the site (to a folder or a file), a FIFO or an index page that points elsewhere gets the
site's 404 page, as every `..` does. A client that closes the connection mid-answer is one log
line at most, never a traceback.
"""
from __future__ import annotations

import os
import re
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from collections.abc import Iterator

import pytest

from cardgen.site.serve import make_server, servable


NOT_FOUND = "<h1>Page not found</h1>"
SECRET = "user secret: never served"


@pytest.fixture
def hostile_site(tmp_path: Path) -> Path:
    """A site folder with its 404 page and a page, beside a user's folder with a secret in it,
    and links from inside the site out to that folder and file (and one that stays inside)."""
    site = tmp_path / "out" / "site"
    (site / "sets").mkdir(parents=True)
    (site / "index.html").write_text("<h1>Home</h1>")
    (site / "404.html").write_text(f"{NOT_FOUND}")
    (site / "sets" / "page.html").write_text("<h1>A page</h1>")
    user = tmp_path / "user-leakdir"
    user.mkdir()
    (user / "user-secret.txt").write_text(SECRET)
    (user / "index.html").write_text(SECRET)
    os.symlink(user, site / "user-leakdir")  # a folder outside
    os.symlink(user / "user-secret.txt", site / "secret.txt")  # a file outside
    os.symlink(site / "sets" / "page.html", site / "alias.html")  # inside: allowed
    inner = site / "linked-index"
    inner.mkdir()
    os.symlink(user / "index.html", inner / "index.html")  # a folder's page from outside
    os.mkfifo(site / "pipe.html")  # a FIFO would hang open() forever
    return site


@pytest.fixture
def base_url(hostile_site: Path) -> Iterator[str]:
    server = make_server(hostile_site, 0, quiet=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=60) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_symlinks_out_of_the_site_are_not_served(base_url: str):
    """Case 1: GET /user-leakdir/user-secret.txt returned 200 with a file from outside the site."""
    for path in ("/user-leakdir/user-secret.txt", "/user-leakdir/", "/user-leakdir/index.html",
                 "/secret.txt", "/linked-index/", "/linked-index/index.html"):
        status, body = _get(base_url + path)
        assert (status, SECRET in body) == (404, False), path
        assert NOT_FOUND in body, path


def test_a_fifo_in_the_site_is_a_404_not_a_hang(base_url: str):
    status, body = _get(base_url + "/pipe.html")  # the 60 s time-out fails the test if it hangs
    assert status == 404 and NOT_FOUND in body


def test_the_site_itself_and_links_inside_it_are_still_served(base_url: str):
    assert _get(base_url + "/") == (200, "<h1>Home</h1>")
    assert _get(base_url + "/sets/page.html") == (200, "<h1>A page</h1>")
    assert _get(base_url + "/alias.html") == (200, "<h1>A page</h1>")  # its real path is inside


def test_traversal_in_any_spelling_is_a_404(base_url: str, hostile_site: Path):
    """What the battery tried, kept: none of these reaches the user's folder."""
    for path in ("/../user-leakdir/user-secret.txt", "/%2e%2e/user-leakdir/user-secret.txt",
                 "/%252e%252e/user-leakdir/user-secret.txt", "//etc/passwd", "/..%5cuser-leakdir",
                 "/sets/..%2f..%2fuser-leakdir/user-secret.txt", "/index.html%00.txt"):
        with socket.create_connection(("127.0.0.1", int(base_url.rsplit(":", 1)[1])), timeout=60) as s:
            s.sendall(f"GET {path} HTTP/1.0\r\n\r\n".encode())
            answer = b""
            while chunk := s.recv(65536):
                answer += chunk
        assert answer.split(b" ", 2)[1] == b"404", path
        assert SECRET.encode() not in answer, path


def test_servable_judges_the_real_path(hostile_site: Path):
    root = os.path.realpath(hostile_site)
    assert servable(str(hostile_site / "index.html"), root)
    assert servable(str(hostile_site / "sets"), root)  # a folder: its 404 or its index page
    assert not servable(str(hostile_site / "secret.txt"), root)
    assert not servable(str(hostile_site / "pipe.html"), root)
    assert not servable(str(hostile_site / "no-such.html"), root)
    # a site folder that is itself a link (OUT/site -> elsewhere) still serves its own files
    link = hostile_site.parent / "site-link"
    os.symlink(hostile_site, link)
    assert servable(str(link / "index.html"), os.path.realpath(link))


def _serve(site: Path) -> tuple[subprocess.Popen, int, list[str], threading.Thread]:
    """`cardgen serve` on a free port in a child process; its stderr lines collect in the list,
    read by the thread (which ends when the process has gone)."""
    proc = subprocess.Popen([sys.executable, "-m", "cardgen.cli", "serve", "--out", str(site.parent),
                             "--site-dir", str(site), "--no-refresh", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    found = re.search(r"at http://127\.0\.0\.1:(\d+)/", line)
    if not found:
        proc.kill()
        pytest.fail(f"cardgen serve did not start: {line}{proc.communicate()[1]}")
    errors: list[str] = []
    reader = threading.Thread(target=lambda: errors.extend(proc.stderr), daemon=True)
    reader.start()
    return proc, int(found.group(1)), errors, reader


@pytest.mark.slow
def test_a_client_that_goes_away_is_one_line_never_a_traceback(tmp_path: Path):
    """Case 5: every client that disconnected early printed a BrokenPipeError traceback (a browser
    that cancels a PDF download does it). The answer is a file larger than the socket buffers,
    so the server is still writing when the client resets the connection."""
    site = tmp_path / "out" / "site"
    site.mkdir(parents=True)
    (site / "index.html").write_text("home")
    (site / "cards-a4.pdf").write_bytes(os.urandom(16 * 1024 * 1024))
    proc, port, errors, reader = _serve(site)
    try:
        clients = 3
        for _ in range(clients):
            s = socket.create_connection(("127.0.0.1", port), timeout=60)
            s.sendall(b"GET /cards-a4.pdf HTTP/1.1\r\nHost: x\r\n\r\n")
            s.recv(1024)  # the answer has started
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # RST
            s.close()
        deadline = time.monotonic() + 120  # caps a failure only: the loop ends on the lines
        while time.monotonic() < deadline and sum("closed the connection" in e or "Traceback" in e
                                                  for e in errors) < clients:
            time.sleep(0.05)
        assert _get(f"http://127.0.0.1:{port}/") == (200, "home")  # still serving
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    reader.join(timeout=600)  # the last lines (the bound caps a hung pipe only)
    log = "".join(errors)
    assert "Traceback" not in log and "Error" not in log.replace("ConnectionResetError", "") \
        .replace("BrokenPipeError", ""), log
    gone = [e for e in errors if "closed the connection" in e]
    assert len(gone) == clients, log  # one line each
    assert all(re.match(r"127\.0\.0\.1 - - \[[^]]+\] closed the connection before the answer was "
                        r"sent \((ConnectionResetError|BrokenPipeError)\)$", e.rstrip()) for e in gone)
    requests = [e for e in errors if e not in gone]
    assert all('"GET /' in e for e in requests), log  # the rest are request lines


@pytest.mark.slow
def test_serve_keeps_an_up_to_date_sites_sets_as_they_are(tmp_path: Path):
    """Issue 39: `cardgen serve` (which refreshes the site first, by default) renders no set again
    that has not changed since the last `cardgen site`: it says so, and the set's pages are the
    same files, untouched, before it serves them."""
    from cardgen.site.generate import generate_site
    from test_site_generate import make_synthetic_kit, write_kit_manifest
    out = tmp_path / "out"
    write_kit_manifest(make_synthetic_kit(out), teams=[])   # a finished kit, as `cardgen build` leaves it
    site = generate_site(out).site_dir
    pages = sorted((site / "sets" / "BBL_2024-25").rglob("*.html"))
    before = {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in pages}
    proc = subprocess.Popen([sys.executable, "-m", "cardgen.cli", "serve", "--out", str(out), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        said = []
        for line in proc.stdout:   # the refresh's report, then "serving ... at http://..."
            said.append(line)
            if line.startswith("serving "):
                break
        assert said and said[-1].startswith("serving "), "".join(said) + proc.stderr.read()
        assert "0 set(s) rendered, 1 unchanged and kept\n" in said, said
        assert {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in pages} == before
    finally:
        proc.kill()
        proc.communicate()
