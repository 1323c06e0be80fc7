"""Fixtures for the browser test: the site built once, served on 127.0.0.1, and headless Chromium.

Chromium is the system's own binary (Debian's ``chromium`` package), driven over the Chrome DevTools
Protocol with nothing but the standard library: a minimal websocket client (RFC 6455, text frames
only) talks to ``--remote-debugging-port=0``, whose port Chromium writes to ``DevToolsActivePort`` in
its fresh profile.  No browser driver is downloaded and no network is used: every host but 127.0.0.1
resolves to nothing, so the CDN scripts of a page (MathJax) fail at once instead of hanging.

Only tests that ask for these fixtures pay for them (the build takes most of the file's runtime).
"""

from __future__ import annotations

import base64
import http.server
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import threading
import time
from functools import partial
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
ARTIFACTS = Path(__file__).resolve().parent / "_artifacts"
VIEWPORT = (1280, 900)


# -- Chromium ----------------------------------------------------------------------------------------
def find_chromium() -> str | None:
    """``$CHROMIUM`` if set, else the system's ``chromium`` (Debian) or ``chromium-browser``."""
    explicit = os.environ.get("CHROMIUM")
    if explicit:
        return shutil.which(explicit)
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def chromium_binary() -> str:
    """The browser, or a skip (developer machine) / failure (``$CI`` set) when it is not installed."""
    binary = find_chromium()
    if binary is None:
        message = ("headless Chromium is not installed: the built site was not checked in a browser "
                   "(install it with `apt-get install chromium`; .ci/run does so as root or with sudo)")
        if os.environ.get("CI"):
            pytest.fail(f"CI is set and {message}", pytrace=False)
        pytest.skip(message)
    return binary


class CDPError(RuntimeError):
    pass


class WebSocket:
    """Just enough of a websocket client for the DevTools protocol (client frames masked, text only)."""

    def __init__(self, host: str, port: int, path: str, timeout: float = 10.0) -> None:
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise CDPError("DevTools closed the connection during the websocket handshake")
            head += chunk
        head, self.buffer = head.split(b"\r\n\r\n", 1)
        self.message = b""  # the fragments of a message not yet complete
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise CDPError(f"websocket handshake refused: {head[:200]!r}")

    def _send_frame(self, opcode: int, payload: bytes) -> None:
        header = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def send(self, text: str) -> None:
        self._send_frame(0x1, text.encode())

    def _frame(self) -> tuple[bool, int, bytes] | None:
        """The first complete frame of the buffer (fin, opcode, payload), consumed; None if incomplete.

        Nothing is consumed before the whole frame is there, so a timeout never loses a frame's head.
        """
        buf = self.buffer
        if len(buf) < 2:
            return None
        n, pos = buf[1] & 0x7F, 2
        if n == 126:
            if len(buf) < 4:
                return None
            n, pos = struct.unpack("!H", buf[2:4])[0], 4
        elif n == 127:
            if len(buf) < 10:
                return None
            n, pos = struct.unpack("!Q", buf[2:10])[0], 10
        mask = b""
        if buf[1] & 0x80:
            mask, pos = buf[pos:pos + 4], pos + 4
        if len(buf) < pos + n:
            return None
        payload, self.buffer = buf[pos:pos + n], buf[pos + n:]
        if mask:
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        return bool(buf[0] & 0x80), buf[0] & 0x0F, payload

    def recv(self, timeout: float) -> str:
        """The next text message; ``socket.timeout`` when none is complete within ``timeout`` seconds."""
        self.sock.settimeout(max(timeout, 0.01))
        while True:
            frame = self._frame()
            if frame is None:
                chunk = self.sock.recv(1 << 20)
                if not chunk:
                    raise CDPError("DevTools closed the connection")
                self.buffer += chunk
                continue
            fin, opcode, payload = frame
            if opcode == 0x8:
                raise CDPError("DevTools closed the websocket")
            if opcode == 0x9:
                self._send_frame(0xA, payload)
            elif opcode in (0x0, 0x1, 0x2):
                self.message += payload
                if fin:
                    text, self.message = self.message.decode(), b""
                    return text

    def close(self) -> None:
        try:
            self._send_frame(0x8, b"")
        except OSError:
            pass
        self.sock.close()


class Browser:
    """One headless Chromium with a fresh profile, driven over one DevTools websocket."""

    def __init__(self, binary: str, profile: Path, log: Path, timeout: float = 20.0) -> None:
        args = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--no-default-browser-check", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-extensions", "--disable-dev-shm-usage", "--hide-scrollbars",
                "--mute-audio", "--no-proxy-server",
                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
                f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}", f"--user-data-dir={profile}",
                "--remote-debugging-port=0", "about:blank"]
        self.log = log
        self._log_file = open(log, "wb")
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=self._log_file,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + timeout
        while True:
            lines = port_file.read_text().split() if port_file.exists() else []
            if len(lines) == 2:
                break
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise CDPError(f"Chromium did not start (exit status {self.proc.returncode}):\n"
                               f"{log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.05)
        self.ws = WebSocket("127.0.0.1", int(lines[0]), lines[1])

    def call(self, method: str, params: dict[str, Any] | None = None, session: str | None = None,
             timeout: float = 15.0) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.ws.send(json.dumps(message))
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise CDPError(f"no answer to {method} within {timeout} s")
            try:
                reply = json.loads(self.ws.recv(remaining))
            except socket.timeout:
                continue
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise CDPError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_event(self, method: str, session: str, since: int, timeout: float = 15.0) -> dict[str, Any]:
        """The first ``method`` event of ``session`` at or after position ``since`` of ``self.events``."""
        deadline = time.monotonic() + timeout
        while True:
            for event in self.events[since:]:
                if event["method"] == method and event.get("sessionId") == session:
                    return event
            since = len(self.events)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise CDPError(f"no {method} event within {timeout} s")
            try:
                reply = json.loads(self.ws.recv(min(remaining, 0.5)))
            except socket.timeout:
                continue
            if "method" in reply:
                self.events.append(reply)

    def new_page(self) -> "Page":
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, target, session)
        for domain in ("Page.enable", "Runtime.enable"):
            self.call(domain, session=session)
        self.call("Emulation.setDeviceMetricsOverride", {"width": VIEWPORT[0], "height": VIEWPORT[1],
                                                         "deviceScaleFactor": 1, "mobile": False},
                  session=session)
        return page

    def close(self) -> None:
        try:
            if not hasattr(self, "ws"):  # it never answered: nothing to ask politely
                self.proc.terminate()
            else:
                try:
                    self.call("Browser.close", timeout=5)
                except (CDPError, OSError):
                    pass
                self.ws.close()
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)  # the group of the browser this fixture started
            self.proc.wait(timeout=10)
        finally:
            self._log_file.close()


class Page:
    """A browser tab: navigate, evaluate JavaScript, wait for a condition, take a screenshot."""

    def __init__(self, browser: Browser, target: str, session: str) -> None:
        self.browser, self.target, self.session = browser, target, session
        self._events_at_start = len(browser.events)

    def call(self, method: str, params: dict[str, Any] | None = None, timeout: float = 15.0) -> dict[str, Any]:
        return self.browser.call(method, params, session=self.session, timeout=timeout)

    def goto(self, url: str, timeout: float = 15.0) -> None:
        since = len(self.browser.events)
        result = self.call("Page.navigate", {"url": url}, timeout=timeout)
        if result.get("errorText"):
            raise CDPError(f"navigation to {url} failed: {result['errorText']}")
        if "loaderId" in result:  # omitted for a same-document navigation (only the #anchor changed)
            self.browser.wait_event("Page.loadEventFired", self.session, since, timeout)

    def click_and_wait_for_load(self, js_element: str, timeout: float = 15.0) -> None:
        """Click the element the expression ``js_element`` returns, as a user would, and wait for the new page."""
        box = self.evaluate(f"""(() => {{
            const el = {js_element};
            el.scrollIntoView({{block: "center"}});
            const r = el.getClientRects()[0];  // a link broken over two lines: its first line
            return {{x: r.left + r.width / 2, y: r.top + r.height / 2}};
        }})()""")
        since = len(self.browser.events)
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", {"type": kind, "x": box["x"], "y": box["y"],
                                                   "button": "left", "clickCount": 1})
        self.browser.wait_event("Page.loadEventFired", self.session, since, timeout)

    def evaluate(self, expression: str, timeout: float = 15.0) -> Any:
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True}, timeout=timeout)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise CDPError(f"JavaScript error: {details.get('exception', {}).get('description') or details}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 15.0) -> Any:
        """Poll until the expression is truthy; its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise CDPError(f"timed out after {timeout} s waiting for: {expression}")
            time.sleep(0.05)

    def screenshot(self, path: Path) -> bytes:
        data = base64.b64decode(self.call("Page.captureScreenshot", {"format": "png"})["data"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return data

    def exceptions(self) -> list[str]:
        """Uncaught JavaScript exceptions thrown in this tab so far."""
        return [event["params"]["exceptionDetails"].get("exception", {}).get("description")
                or event["params"]["exceptionDetails"].get("text", "?")
                for event in self.browser.events[self._events_at_start:]
                if event["method"] == "Runtime.exceptionThrown" and event.get("sessionId") == self.session]

    def close(self) -> None:
        try:
            self.browser.call("Target.closeTarget", {"targetId": self.target}, timeout=5)
        except (CDPError, OSError):
            pass


@pytest.fixture(scope="session")
def browser(chromium_binary: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    workdir = tmp_path_factory.mktemp("chromium")
    instance = Browser(chromium_binary, workdir / "profile", workdir / "chromium.log")
    try:
        yield instance
    finally:
        instance.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    tab = browser.new_page()
    try:
        yield tab
    finally:
        tab.close()


# -- the site ----------------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def built_site(chromium_binary: str, request: pytest.FixtureRequest) -> Path:
    """The whole site: the test command's own -W build, or one -W build of the working tree.

    Asks for ``chromium_binary`` first so a machine without a browser skips before any build.
    """
    return request.getfixturevalue("built_html")


class _SiteHandler(http.server.SimpleHTTPRequestHandler):
    requests: list[tuple[str, int]]

    def log_request(self, code: Any = "-", size: Any = "-") -> None:
        self.requests.append((self.path, int(code)))

    def log_message(self, format: str, *args: Any) -> None:
        pass


class SiteServer:
    def __init__(self, root: Path) -> None:
        self.requests: list[tuple[str, int]] = []
        handler = type("Handler", (_SiteHandler,), {"requests": self.requests})
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(root)))
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="site-server", daemon=True)
        self.thread.start()

    def failures(self, since: int = 0) -> list[tuple[str, int]]:
        """Requests the site could not answer (the favicon Chromium always asks for aside)."""
        return [(path, code) for path, code in self.requests[since:]
                if code >= 400 and urlsplit(path).path != "/favicon.ico"]

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


@pytest.fixture(scope="session")
def site(built_site: Path) -> Iterator[SiteServer]:
    server = SiteServer(built_site)
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
