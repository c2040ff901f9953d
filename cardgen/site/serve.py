"""Serve the generated site on the loopback interface (a local preview, not a production server)."""
from __future__ import annotations

import functools
import http.server
from http import HTTPStatus
from pathlib import Path

HOST = "127.0.0.1"
NOT_FOUND_PAGE = "404.html"  # written by cardgen.site.generate


class _Handler(http.server.SimpleHTTPRequestHandler):
    quiet = False

    def list_directory(self, path):  # type: ignore[no-untyped-def]
        """A folder without index.html is not a page: no raw "Directory listing"."""
        self.send_error(HTTPStatus.NOT_FOUND, "File not found")
        return None

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """A missing page gets the site's own 404 page (Python's bare error page otherwise)."""
        page = Path(self.directory) / NOT_FOUND_PAGE
        if code != HTTPStatus.NOT_FOUND or not page.is_file():
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


def make_server(site_dir: Path, port: int = 8000, quiet: bool = False) -> http.server.ThreadingHTTPServer:
    """A threaded HTTP server for `site_dir` on 127.0.0.1:`port` (0 picks a free port)."""
    handler = type("SiteHandler", (_Handler,), {"quiet": quiet})
    factory = functools.partial(handler, directory=str(site_dir))
    return _Server((HOST, port), factory)
