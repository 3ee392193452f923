"""The built site in headless Chromium: the browser of ``tests/test_book.py``, and the site
served as a reader's browser gets it, for "Run here"'s browser tests
(``tests/test_book_run_here.py``) and its benchmark (``tests/bench_run_here.py``).

- :class:`Site` serves ``_build/html`` on 127.0.0.1 with a Content-Security-Policy that allows
  only the site itself, and records every violation the browser reports (a script, a fetch,
  a worker's request to another host: the page's and its workers' own requests only, not the
  browser's background traffic);
- :class:`Trap` is the browser's proxy: every request for another host goes to it, and it
  refuses them all, so the network beyond the site is cut;
- :func:`chromium` starts headless Chromium, with a profile of its own (a cold cache) and the
  trap as its proxy when asked;
- :func:`answered` is an exercise's cell as a reader who solved it has it.
"""

from __future__ import annotations

import ast
import functools
import http.server
import json
import shutil
import socket
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "_build" / "html"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
CSP_REPORTS = "/__csp-report"
POLICY = (
    "default-src 'self' 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval' data: blob:; "
    f"report-uri {CSP_REPORTS}"
)


class Site:
    """``_build/html`` on http://127.0.0.1:PORT/, with the policy above; ``reports`` holds the
    violations, ``paths`` every path asked for."""

    def __init__(self, folder: Path = SITE) -> None:
        self.reports: list[dict] = []
        self.paths: list[str] = []
        site = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            def end_headers(self) -> None:
                self.send_header("Content-Security-Policy", POLICY)
                super().end_headers()

            def do_POST(self) -> None:
                if self.path != CSP_REPORTS:
                    self.send_error(404)
                    return
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                site.reports.append(json.loads(body or b"{}"))
                self.send_response(204)
                self.end_headers()

            def log_message(self, format, *args) -> None:
                site.paths.append(self.path)

        self.server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(Handler, directory=str(folder))
        )
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"

    def __enter__(self) -> Site:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


class Trap:
    """A proxy on 127.0.0.1 that answers every request with 403; ``requests`` holds the first
    line of each (the browser's own background traffic lands here too)."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            with connection:
                connection.settimeout(2)
                try:
                    first = connection.recv(4096).split(b"\r\n", 1)[0]
                    self.requests.append(first.decode("latin-1"))
                    connection.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
                except OSError:
                    pass

    def __enter__(self) -> Trap:
        threading.Thread(target=self._serve, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.socket.close()


def chromium(profile: Path | None = None, proxy_port: int | None = None):
    """Headless Chromium (1300 x 1000); with ``profile``, that profile folder; with
    ``proxy_port``, every host but 127.0.0.1 behind that proxy (a :class:`Trap`)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--window-size=1300,1000",
    ]
    if profile is not None:
        flags.append(f"--user-data-dir={profile}")
    if proxy_port is not None:
        flags.append(f"--proxy-server=http://127.0.0.1:{proxy_port}")
    for flag in flags:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the console, for tests
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def answered(stub: str, solution: tuple[Path, str]) -> str:
    """The cell of a reader who solved the exercise: the stub's imports, then the solution
    module's imports and the object its solution toggle shows (``(file, name)``)."""
    path, name = solution
    source = path.read_text()
    (shown,) = [n for n in ast.parse(source).body if getattr(n, "name", None) == name]
    imports = [
        ast.get_source_segment(text, n)
        for text in (stub, source)
        for n in ast.parse(text).body
        if isinstance(n, ast.Import | ast.ImportFrom)
    ]
    return "\n".join(imports) + "\n\n\n" + ast.get_source_segment(source, shown)
