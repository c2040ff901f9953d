"""Serve the generated site on the loopback interface (a local preview, not a production server).

Only regular files whose real path lies inside the site folder are answered: a symlink out of
the site (to a folder or a file), a FIFO or a device is the site's 404, as a missing page is.
A client that goes away mid-answer (a browser cancelling a PDF download) is one log line.
"""
from __future__ import annotations

import functools
import http.server
import os
import stat
import sys
import time
from http import HTTPStatus
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"
NOT_FOUND_PAGE = "404.html"  # written by cardgen.site.generate
INDEX_PAGES = ("index.html", "index.htm")  # what http.server answers a folder with


def servable(path: str, root: str) -> bool:
    """Whether `path` may be answered from the site folder `root` (a real path): its real path
    is inside `root` and it is a regular file, or a folder whose index page is one (or that has
    none: the handler answers it with the 404 page)."""
    try:
        real = os.path.realpath(path)
        mode = os.stat(real).st_mode
    except (OSError, ValueError):  # missing (the handler's 404), a link loop, a NUL in the name
        return False
    if real != root and not real.startswith(root.rstrip(os.sep) + os.sep):
        return False
    if stat.S_ISREG(mode):
        return True
    if not stat.S_ISDIR(mode):  # a FIFO would hang the answer, a device is not a page
        return False
    for index in INDEX_PAGES:  # the one http.server picks
        candidate = os.path.join(real, index)
        if os.path.lexists(candidate):
            return servable(candidate, root)
    return True


class _Handler(http.server.SimpleHTTPRequestHandler):
    quiet = False

    def send_head(self):  # type: ignore[no-untyped-def]
        """http.server's answer, for what `servable` allows only (else the 404 page)."""
        path = self.translate_path(self.path)
        if not servable(path, os.path.realpath(self.directory)):
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        return super().send_head()

    def list_directory(self, path):  # type: ignore[no-untyped-def]
        """A folder without index.html is not a page: no raw "Directory listing"."""
        self.send_error(HTTPStatus.NOT_FOUND, "File not found")
        return None

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """A missing page gets the site's own 404 page (Python's bare error page otherwise)."""
        page = Path(self.directory) / NOT_FOUND_PAGE
        if code != HTTPStatus.NOT_FOUND or not servable(str(page), os.path.realpath(self.directory)):
            super().send_error(code, message, explain)
            return
        try:
            body = page.read_bytes()
        except OSError:
            super().send_error(code, message, explain)
            return
        self.log_error("code %d, message %s", code, message)
        self.send_response(code, message)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (stdlib signature)
        if not self.quiet:
            super().log_message(format, *args)


class _Server(http.server.ThreadingHTTPServer):
    # the listen backlog: 5 (the default) made 50 parallel clients wait ~2 s for dropped SYNs
    request_queue_size = 128
    quiet = False

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that closed the connection before the answer was sent (a cancelled download)
        is one line, not socketserver's traceback; anything else is left to socketserver."""
        exc = sys.exc_info()[1]
        if not isinstance(exc, ConnectionError):  # BrokenPipe, ConnectionReset, ConnectionAborted
            super().handle_error(request, client_address)
            return
        if not self.quiet:
            host = client_address[0] if isinstance(client_address, tuple) else client_address
            when = time.strftime("%d/%b/%Y %H:%M:%S")  # as http.server's request lines
            sys.stderr.write(f"{host} - - [{when}] closed the connection before the answer was "
                             f"sent ({type(exc).__name__})\n")


def make_server(site_dir: Path, port: int = 8000, quiet: bool = False) -> http.server.ThreadingHTTPServer:
    """A threaded HTTP server for `site_dir` on 127.0.0.1:`port` (0 picks a free port)."""
    handler = type("SiteHandler", (_Handler,), {"quiet": quiet})
    factory = functools.partial(handler, directory=str(site_dir))
    server = _Server((HOST, port), factory)
    server.quiet = quiet
    return server
