"""Serve the generated site on the loopback interface (a local preview, not a production server)."""
from __future__ import annotations

import functools
import http.server
from pathlib import Path

HOST = "127.0.0.1"


class _Handler(http.server.SimpleHTTPRequestHandler):
    quiet = False

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (stdlib signature)
        if not self.quiet:
            super().log_message(format, *args)


def make_server(site_dir: Path, port: int = 8000, quiet: bool = False) -> http.server.ThreadingHTTPServer:
    """A threaded HTTP server for `site_dir` on 127.0.0.1:`port` (0 picks a free port)."""
    handler = type("SiteHandler", (_Handler,), {"quiet": quiet})
    factory = functools.partial(handler, directory=str(site_dir))
    return http.server.ThreadingHTTPServer((HOST, port), factory)
