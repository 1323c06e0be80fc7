#!/usr/bin/env python3
"""The dice calculator's cold start as a reader meets it: from opening the page to the first answer.

    .venv/bin/python bench/cold_start.py [--site docs/_build/html] [--page nemron/calculator.html]
                                          [--repeats 5] [--think 3] [--sources] [--revisit]

Serves a built site (with Pyodide vendored) on 127.0.0.1; each run is a fresh browser context (an empty
HTTP cache: everything is fetched again, as on a first visit), every other host unreachable.  Two
readers, and two more on request, taking turns (so a change of load lands on all alike):

* **at once**: presses Compute as soon as the form is on the page; the time runs from the start of
  the page's navigation (``performance.timeOrigin``) to the answer on the page.  This is the whole
  cold start: the page, Pyodide, the engine wheel, the page's systems and one answer.
* **after reading**: looks at the page for ``--think`` seconds first (the engine starts by itself when
  the calculator is in view), then presses Compute; the time runs from the click to the answer.
* ``--sources``: the reader who asks at once, on the same site served with a manifest that names no
  bytecode (Pyodide compiles its standard library and the engine at start, as before): the A/B.
* ``--revisit``: the reader who asks at once, on a second visit in the same browser profile (the
  files from the HTTP cache, the wasm compiled code from the browser's code cache).

Prints the median and every run of each (ms), with the machine's load average: figures measured on a
loaded machine are not those of a quiet one.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import shutil
import statistics
import sys
import threading
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))


#: Press Compute (once the form shows) and wait for the answer; ms since the page's navigation started.
AT_ONCE_JS = """async () => {
    while (!(window.rpgCalculators && window.rpgCalculators.length)) await new Promise(r => setTimeout(r, 5));
    const calc = window.rpgCalculators[0];
    const clicked = performance.now();
    calc.form.querySelector("button[type=submit]").click();
    await new Promise(resolve => {
        const done = () => calc.root.getAttribute("data-answered") === "1";
        if (done()) return resolve();
        new MutationObserver((_, watch) => { if (done()) { watch.disconnect(); resolve(); } })
            .observe(calc.root, {attributes: true, attributeFilter: ["data-answered"]});
    });
    return {fromOpen: performance.now(), fromClick: performance.now() - clicked, error: calc.last.error || null,
            marks: window.rpgCalculatorStart || null,
            page: performance.getEntriesByType("navigation").map(e => e.domContentLoadedEventEnd)[0] || null};
}"""


#: The stages of the cold start (``window.rpgCalculatorStart``, ms), as the reader who asks at once meets them.
STAGES = {
    "page": "the page itself (navigation to DOMContentLoaded)",
    "began": "page opened -> the engine's start asked for",
    "worker": "-> the worker running (manifest fetched, worker script loaded)",
    "loader": "-> Pyodide's loader imported (pyodide.mjs)",
    "pyodide": "-> Pyodide booted (loadPyodide: runtime, wasm, standard library)",
    "wheel": "-> the engine fetched and unpacked",
    "engine": "-> the engine imported (rules.calculator)",
    "systems": "-> the page's game systems imported",
    "firstAnswer": "-> a warm-up answer",
    "answer": "-> the reader's answer shown",
}


class _Site(http.server.SimpleHTTPRequestHandler):
    """The built site; under ``/sources/`` the same site with a manifest that names no precompiled standard
    library (Pyodide's own zip, compiled at start: the A/B of ``--sources``)."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        if self.path.startswith(SOURCES):
            self.path = self.path[len(SOURCES) - 1:]
            if self.path.partition("?")[0].endswith("/_static/rpg/calculator.json"):
                manifest = json.loads(Path(self.translate_path(self.path)).read_text(encoding="utf-8"))
                manifest.pop("stdlib", None)
                manifest.pop("bytecode", None)
                body = json.dumps(manifest).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
        super().do_GET()


SOURCES = "/sources/"


def serve(root: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Site, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def chromium() -> str:
    return next(filter(None, map(shutil.which, ("chromium-headless-shell", "chromium"))), "/usr/bin/chromium")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", default=str(ROOT / "docs" / "_build" / "html"), help="a built site")
    parser.add_argument("--page", default="nemron/calculator.html", help="a page with a calculator")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--think", type=float, default=3.0, help="seconds the second reader reads first")
    parser.add_argument("--sources", action="store_true",
                        help="also time a third reader, who asks at once on the same site with its standard "
                             "library compiled at start (the manifest's precompiled stdlib withheld): an A/B "
                             "of the bytecode, taking turns with the others")
    parser.add_argument("--revisit", action="store_true",
                        help="also time a reader who comes back: the page opened once (the engine started), "
                             "then opened again in the same browser profile (HTTP cache, wasm code cache) "
                             "and asked at once")
    args = parser.parse_args()
    site = Path(args.site)
    if not (site / "_static" / "rpg" / "calculator.json").is_file():
        print(f"{site} has no calculator: build the site first (python3 dev.py site)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    server, url = serve(site)
    runs: dict[str, list[float]] = {"at once": [], "after reading": []}
    if args.sources:
        runs["at once, stdlib compiled at start"] = []
    if args.revisit:
        runs["at once, second visit"] = []
    stages: dict[str, list[float]] = {}
    load = os.getloadavg()
    with sync_playwright() as playwright:
        # every host but this one unreachable, by the browser's resolver: a route would turn the HTTP
        # cache off (Playwright's), and with it the second visit's cached and compiled wasm
        browser = playwright.chromium.launch(executable_path=chromium(), headless=True,
                                             args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                                   "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"])
        for _ in range(args.repeats):
            for reader in runs:  # the readers take turns: drift lands on all alike
                context = browser.new_context()
                page = url + (SOURCES[1:] if reader == "at once, stdlib compiled at start" else "") + args.page
                tab = context.new_page()
                if reader == "at once, second visit":  # a first visit, to the answer: then the same again
                    tab.goto(page, wait_until="commit")
                    tab.evaluate(AT_ONCE_JS)
                    tab.close()
                    tab = context.new_page()
                tab.goto(page, wait_until="commit")
                if reader == "after reading":
                    tab.wait_for_load_state("load")
                    # the reader reads; Playwright's own wait keeps the page's requests served (a
                    # time.sleep would hold the event loop that carries them)
                    tab.wait_for_timeout(args.think * 1000)
                result = tab.evaluate(AT_ONCE_JS)
                if result["error"]:
                    print(f"refused: {result['error']}", file=sys.stderr)
                    return 1
                runs[reader].append(result["fromClick"] if reader == "after reading" else result["fromOpen"])
                if reader == "at once" and result["marks"]:
                    marks = dict(result["marks"], page=result["page"] or 0)
                    marks["answer"] = result["fromOpen"] - marks["ready"]
                    for stage in STAGES:
                        stages.setdefault(stage, []).append(float(marks.get(stage) or 0))
                context.close()
        browser.close()
    server.shutdown()
    print(f"# Calculator cold start ({args.page}, {args.repeats} runs, load average at the start "
          f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} on {os.cpu_count()} cores)\n")
    for reader, values in runs.items():
        what = (f"Compute after {args.think:g} s -> answer" if reader == "after reading"
                else "page opened -> first answer")
        print(f"- {reader} ({what}): median {statistics.median(values):.0f} ms "
              f"(runs: {', '.join(f'{v:.0f}' for v in values)})")
    if stages:
        print("\nWhere the reader who asks at once waits (median ms of each stage, in order):\n")
        for stage, words in STAGES.items():
            print(f"- {words}: {statistics.median(stages[stage]):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
