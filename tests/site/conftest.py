"""Fixtures for the browser tests: the site built once, served on 127.0.0.1, and headless Chromium.

Chromium is the system's own binary (Debian's ``chromium-headless-shell`` or ``chromium``, or
``$CHROMIUM``) driven by Playwright for Python; Playwright never downloads a browser here.  Every
request a page makes to a host other than the loopback one is recorded (``page_log.external``), so a
test can assert that the site loads nothing from a CDN, and it never leaves the browser: Chromium
sends it to a proxy on a loopback port that refuses every connection, and its own resolver maps every
other host to nothing, as a second fence.  (Both fences are Chromium's own: a Playwright route would
pause every request of the site for a round trip to the driver, a third of each page load's CPU.)

Only tests that ask for these fixtures pay for them (the build takes most of the file's runtime).
"""

from __future__ import annotations


import http.server
import os
import re
import shutil
import socket
import sys
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterator
from urllib.parse import urlsplit

import pytest

from tests.site.pages import PageHtml, one_page_per_kind, read_page, site_pages

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
ARTIFACTS = Path(__file__).resolve().parent / "_artifacts"
VIEWPORT = {"width": 1280, "height": 900}
#: A phone in portrait (an iPhone 12-15, in CSS pixels), as ``phone_page`` shows the site.
PHONE = {"width": 390, "height": 844}
#: How long (ms) a browser action or wait may take before it fails: a bound, never a wait (a passing
#: test goes on at the event it waits for), so it is set for a loaded machine: 15 s failed a share link
#: test at load 5, and a test runner's machine may be busier still.
BOUND = 60_000
#: The hosts Chromium reaches directly; every other request goes to a proxy that refuses it.
LOOPBACK_HOSTS = "127.0.0.1,localhost,[::1]"
#: Every URL but the loopback ones (and data:, blob:, about:).
NOT_LOOPBACK = re.compile(r"^(?!(?:https?|wss?)://(?:127\.0\.0\.1|localhost|\[::1\])(?:[:/]|$))(?!data:|blob:|about:)")


# -- Chromium ----------------------------------------------------------------------------------------
#: The browsers tried in turn.  Debian's ``chromium-headless-shell`` is the headless-only build of the
#: same Chromium (the one Playwright itself runs headless): it renders a page for about two thirds of
#: the CPU the full browser takes in headless mode, so the browser tests prefer it.
CHROMIUMS = ("chromium-headless-shell", "chromium", "chromium-browser")


def find_chromium() -> str | None:
    """``$CHROMIUM`` if set, else the first of ``CHROMIUMS`` the system has."""
    explicit = os.environ.get("CHROMIUM")
    if explicit:
        return shutil.which(explicit)
    return next(filter(None, map(shutil.which, CHROMIUMS)), None)


@pytest.fixture(scope="session")
def chromium_binary() -> str:
    """The browser, or a skip (developer machine) / failure (``$CI`` set) when it is not installed."""
    binary = find_chromium()
    message = None
    if binary is None:
        message = ("headless Chromium is not installed: the built site was not checked in a browser "
                   "(install it with `apt-get install chromium-headless-shell`; .ci/run does so as root or "
                   "with sudo)")
    else:
        try:
            import playwright.sync_api  # noqa: F401  (the `test` extra installs it)
        except ImportError:
            message = "Playwright for Python is not installed (pip install -e '.[test]')"
    if message is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set and {message}", pytrace=False)
        pytest.skip(message)
    assert binary is not None
    return binary


@dataclass
class PageLog:
    """What one test's tab did that a test may want to forbid."""

    #: Uncaught JavaScript exceptions (``pageerror``), as their messages.
    exceptions: list[str] = field(default_factory=list)
    #: Every request to a host that is not the loopback one (none of them leaves the browser).
    external: list[str] = field(default_factory=list)


#: Chromium's features the browser tests turn off beyond Playwright's own.  RenderDocument gives every
#: cross-document navigation a new frame host (and a new frame in the renderer) where Chromium otherwise
#: keeps the frame and swaps its document: the older way, the one Playwright itself ran for months of
#: 2025-2026 (microsoft/playwright#37714).  Without it the browser tests took 7% less CPU (tests/site/ in
#: one process, three alternated runs: 104.0-116.5 CPU-s against 113.2-122.1), and what they check is
#: the same: the accessibility audit's findings, every screenshot, every test's result.
DISABLED_FEATURES = ("RenderDocument",)
#: Playwright's own ``--disable-features`` (1.65.2).  Chromium keeps only the last ``--disable-features``
#: it is given (ours comes after Playwright's), so ours repeats them; ``launched_browser`` reads the
#: command line Chromium was started with and, if Playwright turns off a feature this list lacks, starts
#: it again with that feature too (``test_chromium_turns_off_every_feature_playwright_turns_off`` then
#: fails, to have it added here).
PLAYWRIGHT_DISABLED = ("AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
                       "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
                       "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect", "TcpPortRandomizationWin",
                       "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled", "PreconnectToSearch",
                       "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion")


def command_line(*markers: str) -> list[str] | None:
    """The arguments of the running process started with every one of ``markers`` (Linux's /proc), or
    ``None`` if there is no such process."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                arguments = (entry / "cmdline").read_bytes().decode(errors="replace").split("\0")
            except OSError:
                continue
            if all(marker in arguments for marker in markers):
                return arguments
    return None


def features_lost(arguments: list[str]) -> set[str]:
    """The features an earlier ``--disable-features`` of ``arguments`` names and the last one, the only one
    Chromium reads, does not."""
    lists = [set(arg.partition("=")[2].split(",")) - {""} for arg in arguments if arg.startswith("--disable-features=")]
    return set().union(*lists[:-1]) - lists[-1] if lists else set()


@dataclass
class Launch:
    """The session's Chromium, and what its first start showed of Playwright's own disabled features."""

    browser: Any  # a Playwright ``Browser``
    #: Playwright's disabled features that ``PLAYWRIGHT_DISABLED`` lacked (the browser was started again
    #: with them too); ``None``: the command line could not be read, so Playwright's own list stands alone.
    lost: set[str] | None
    #: The command line of the first start (empty if it could not be read).
    arguments: list[str] = field(default_factory=list)


@pytest.fixture(scope="session")
def launched_browser(chromium_binary: str) -> Iterator[Launch]:
    """Headless Chromium for the whole session, with ``DISABLED_FEATURES`` turned off beside Playwright's own."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright, socket.socket() as refusing:
        refusing.bind(("127.0.0.1", 0))  # bound, never listening: a connection to it is refused at once
        proxy = f"http://127.0.0.1:{refusing.getsockname()[1]}"

        def launch(disabled: tuple[str, ...]) -> Any:
            extra = [f"--disable-features={','.join(disabled)}"] if disabled else []
            return playwright.chromium.launch(
                executable_path=chromium_binary, headless=True, proxy={"server": proxy, "bypass": LOOPBACK_HOSTS},
                args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                      "--disable-background-networking", "--disable-component-update",
                      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", *extra])

        disabled = (*PLAYWRIGHT_DISABLED, *DISABLED_FEATURES)
        if not Path("/proc").is_dir():  # the command line cannot be read: Playwright's own list stands alone
            launched = Launch(launch(()), None)
        else:
            instance = launch(disabled)
            arguments = command_line(f"--proxy-server={proxy}", "--remote-debugging-pipe")
            lost = None if arguments is None else features_lost(arguments)
            if lost is None or lost:  # unseen, or Playwright's list has grown: never lose a feature it turns off
                instance.close()
                instance = launch(() if lost is None else (*disabled, *sorted(lost)))
            launched = Launch(instance, lost, arguments or [])
        try:
            yield launched
        finally:
            launched.browser.close()


@pytest.fixture(scope="session")
def browser(launched_browser: Launch) -> Any:
    """One headless Chromium (Playwright ``Browser``) for the whole session."""
    return launched_browser.browser


def new_context(browser: Any, log: PageLog | Callable[[], PageLog], **options: Any) -> Any:
    """A fresh browser context (own cache, storage, media settings) whose external requests are recorded
    in ``log`` (or in the log a callable names: the shared tab's current test's); ``browser`` blocks them."""
    options.setdefault("reduced_motion", "reduce")  # no smooth scrolling to wait for (the site honours it)
    context = browser.new_context(viewport=options.pop("viewport", VIEWPORT), **options)
    context.set_default_timeout(BOUND)
    current = log if callable(log) else (lambda: log)

    def record(request: Any) -> None:
        if NOT_LOOPBACK.match(request.url):
            current().external.append(request.url)

    context.on("request", record)
    return context


@pytest.fixture
def page_log() -> PageLog:
    return PageLog()


class SharedTab:
    """One desktop tab in one context, lent to every test that asks for ``page`` on this worker.

    A fresh context per test costs a renderer process of its own (about 0.4 s of CPU); the tab is made
    as good as new instead: before each test it leaves the last page (about:blank), takes back the
    desktop size, the screen media, the light colour scheme and the mouse's place, and its context
    forgets cookies, permissions and the storage of every origin it visited.  Tests that need other
    context settings (screen, colour scheme, no JavaScript) open their own with ``open_page``; the tests
    on a phone share the tab ``phone_page`` lends, a second ``SharedTab`` (a mobile viewport with touch
    is a setting of the context).

    The HTTP cache is kept from test to test: the site's files never change during a session, so a copy
    of one is the file itself, and with it Chromium keeps the compiled code of the site's scripts instead
    of fetching and compiling them again for every test.  What the tests check of the requests stays
    true: a request the site fails (a 4xx or 5xx, sent with no freshness) is never answered from the
    cache, and a test that counts what a page fetches opens a context of its own (``open_page``).

    The storage is cleared through one DevTools session, opened with the tab: a session opened and
    detached at every test cost two more round trips to the browser for each test (and one was opened
    even when the last test had visited no site).
    """

    def __init__(self, browser: Any, viewport: dict[str, int] = VIEWPORT, **options: Any) -> None:
        self.browser = browser
        self.viewport = viewport
        self.options = options  # the context's settings (a phone's is_mobile and has_touch)
        self.log = PageLog()
        self.origins: set[str] = set()
        self.context: Any = None
        self.tab: Any = None
        self.devtools: Any = None  # the tab's DevTools session: clears the storage of the origins visited

    def _open(self) -> None:
        self.context = new_context(self.browser, lambda: self.log, viewport=self.viewport, **self.options)
        self.tab = self.context.new_page()
        self.devtools = self.context.new_cdp_session(self.tab)
        self.tab.on("pageerror", lambda error: self.log.exceptions.append(str(error)))
        self.tab.on("framenavigated", lambda frame: self.origins.add(_origin(frame.url)))

    def lend(self, log: PageLog | None = None) -> Any:
        """The tab, clean, its exceptions and external requests recorded in ``log`` (or in a new log,
        ``self.log``) from now on."""
        if self.tab is None or self.tab.is_closed():
            self.close()
            self._open()
        self.tab.goto("about:blank")
        self.log = PageLog() if log is None else log
        self.context.clear_cookies()
        self.context.clear_permissions()
        for origin in sorted(self.origins - {""}):
            self.devtools.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        self.origins.clear()
        self.tab.set_viewport_size(self.viewport)
        # a test's emulate_media (print, dark) must not outlive it: back to the context's own settings
        self.tab.emulate_media(media="null", color_scheme="light", reduced_motion="reduce", forced_colors="none")
        self.tab.set_default_timeout(BOUND)
        self.tab.mouse.move(0, 0)
        return self.tab

    def close(self) -> None:
        if self.context is not None:
            self.context.close()  # detaches the DevTools session too
        self.context = self.tab = self.devtools = None


def _origin(url: str) -> str:
    """``scheme://host:port`` of a page's URL; empty for about:, data: and blob: pages."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") else ""


@contextmanager
def _held_tab(browser: Any, *settings: Any, **options: Any) -> Iterator[SharedTab]:
    """A :class:`SharedTab` for a session, closed at its end however it ends."""
    shared = SharedTab(browser, *settings, **options)
    try:
        yield shared
    finally:
        shared.close()


@pytest.fixture(scope="session")
def shared_tab(browser: Any) -> Iterator[SharedTab]:
    with _held_tab(browser) as shared:
        yield shared


@pytest.fixture
def page(shared_tab: SharedTab, page_log: PageLog) -> Any:
    """A Playwright ``Page`` at desktop size (1280x900), light colour scheme, as good as a new one."""
    return shared_tab.lend(page_log)


@pytest.fixture(scope="session")
def shared_phone_tab(browser: Any) -> Iterator[SharedTab]:
    with _held_tab(browser, PHONE, is_mobile=True, has_touch=True) as shared:
        yield shared


@pytest.fixture
def phone_page(shared_phone_tab: SharedTab, page_log: PageLog) -> Any:
    """A Playwright ``Page`` on a phone (390x844, mobile viewport, touch), light, as good as a new one:
    one context for every phone test of the worker, not one each."""
    return shared_phone_tab.lend(page_log)


@pytest.fixture
def open_page(browser: Any, page_log: PageLog) -> Iterator[Any]:
    """A factory for more tabs with other settings: ``open_page(viewport={"width": 390, "height": 844}, color_scheme="dark")``."""
    contexts: list[Any] = []

    def make(**options: Any) -> Any:
        context = new_context(browser, page_log, **options)
        contexts.append(context)
        tab = context.new_page()
        tab.on("pageerror", lambda error: page_log.exceptions.append(str(error)))
        return tab

    try:
        yield make
    finally:
        for context in contexts:
            context.close()


@pytest.fixture(scope="module")
def module_page(browser: Any) -> Iterator[tuple[Any, PageLog]]:
    """One tab (and its log) for a whole test module: for a page whose start is costly (the dice
    calculator starts Pyodide once and answers every question of the module in that tab)."""
    log = PageLog()
    context = new_context(browser, log)
    tab = context.new_page()
    tab.on("pageerror", lambda error: log.exceptions.append(str(error)))
    try:
        yield tab, log
    finally:
        context.close()


# -- the site ----------------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def built_site(chromium_binary: str, request: pytest.FixtureRequest) -> Path:
    """The whole site: the test command's own -W build, or one -W build of the working tree.

    Asks for ``chromium_binary`` first so a machine without a browser skips before any build.
    """
    path: Path = request.getfixturevalue("built_html")
    return path


class _SiteHandler(http.server.SimpleHTTPRequestHandler):
    requests: list[tuple[str, int]]
    holds: list[tuple[str, threading.Event]]

    def do_GET(self) -> None:
        for marker, released in list(self.holds):
            if marker in self.path:
                released.wait()  # until the test lets it go (SiteServer.hold, which always does)
        super().do_GET()

    def log_request(self, code: Any = "-", size: Any = "-") -> None:
        self.requests.append((self.path, int(code)))

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _SiteHTTPServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # the browser left the page before the answer arrived: nothing went wrong on the site
        super().handle_error(request, client_address)


class SiteServer:
    """The built site over HTTP on 127.0.0.1 (a free port), with every request it answered."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.requests: list[tuple[str, int]] = []
        self.holds: list[tuple[str, threading.Event]] = []
        handler = type("Handler", (_SiteHandler,), {"requests": self.requests, "holds": self.holds})
        self.httpd = _SiteHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(root)))
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="site-server", daemon=True)
        self.thread.start()

    @contextmanager
    def hold(self, marker: str) -> Iterator[None]:
        """Keep every request whose path contains ``marker`` unanswered until the block ends (on every
        exit path): a test can then act while a page is surely still waiting for it, with no race."""
        hold = (marker, threading.Event())
        self.holds.append(hold)
        try:
            yield
        finally:
            self.holds.remove(hold)
            hold[1].set()

    def failures(self, since: int = 0) -> list[tuple[str, int]]:
        """Requests the site could not answer (the favicon Chromium always asks for aside)."""
        return [(path, code) for path, code in self.requests[since:]
                if code >= 400 and urlsplit(path).path != "/favicon.ico"]

    def pages(self) -> list[str]:
        """The site-relative path of every HTML page of the built site, sorted."""
        return site_pages(self.root)

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


@dataclass
class PageVisit:
    """One page of the site as the browser loaded it."""

    path: str
    text: str  # what a reader sees: document.body.innerText
    prose: str  # the same without code (pre, code): what the page says rather than quotes
    external: list[str]  # requests to other hosts (blocked)
    exceptions: list[str]  # uncaught JavaScript exceptions
    failures: list[tuple[str, int]]  # requests the site's server could not answer


#: What each page shows, read after its load event: all of it, and its prose (code left out).
_TEXT_JS = """(() => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {acceptNode: node =>
        node.parentElement.closest("pre, code, script, style, template")
            ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
    const prose = [];
    while (walker.nextNode()) prose.push(walker.currentNode.textContent);
    return [document.body.innerText, prose.join("")];
})()"""


@pytest.fixture(scope="session")
def site_html(built_site: Path) -> dict[str, PageHtml]:
    """Every HTML page of the built site as its own HTML says it (``pages.read_page``: no browser), by path:
    its prose, what it loads, its kind.  The whole-site tests check every page here."""
    return {path: read_page(built_site, path) for path in site_pages(built_site)}


@pytest.fixture(scope="session")
def site_tour(browser: Any, site: SiteServer, site_html: dict[str, PageHtml]) -> dict[str, PageVisit]:
    """One page of every kind (``pages.one_page_per_kind``: the scripts it loads and the extension's
    widgets they act on), loaded once in one tab: what only a browser sees (a script's exception, a
    request a script makes, the text a script writes) is the same on every page of a kind.  The kinds
    are read from the pages' HTML, so a new kind of page is toured without being listed here."""
    log = PageLog()
    context = new_context(browser, log)
    tab = context.new_page()
    tab.on("pageerror", lambda error: log.exceptions.append(str(error)))
    visits: dict[str, PageVisit] = {}
    try:
        for path in one_page_per_kind(site.root, site_html):
            since, external, exceptions = len(site.requests), len(log.external), len(log.exceptions)
            tab.goto(site.url + path)
            text, prose = tab.evaluate(_TEXT_JS)
            visits[path] = PageVisit(path, text, prose, log.external[external:], log.exceptions[exceptions:],
                                     site.failures(since))
    finally:
        context.close()
    return visits


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """tests/site/_artifacts/: screenshots a reviewer looks at (git-ignored)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
