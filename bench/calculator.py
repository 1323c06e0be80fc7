#!/usr/bin/env python3
"""The in-browser dice calculator: time to the first answer, time of each further one, bytes it adds.

    .venv/bin/python bench/calculator.py [--site docs/_build/html] [--repeats 3]

Serves a built site (``python3 dev.py site`` makes one, with Pyodide vendored) on 127.0.0.1 and drives
the system's Chromium with Playwright, every other host blocked:

* **cold**: a fresh browser context opens the manual's calculator and presses Compute; the time from
  the click to the answer is Pyodide's start, the engine wheel's installation and one answer.
* **warm**: in that tab, each expression of a list across the five systems is asked in turn (the form
  filled, Compute pressed, after the previous answer was painted) and timed from the click to the answer
  laid out on the page (the page's layout forced, as the next frame would do it) and to the next frame
  painted; the first one is the first question after the start.  Each answer's time is split as the
  page's marks record it (``rpgCalculators[0].last.timing``): the question's way to Python, Python in the
  worker (engine, folding, bars, JSON), the answer's way back, ``JSON.parse``, building the DOM, and
  the forced layout; long tasks (over 50 ms) on the page are counted.  Long distributions are asked once
  more with **Show all** (a row per outcome).  Next to it, the same question answered natively
  (``rules.calculator.answer``; engine caches cleared first) and by the command line's own code
  (``rpg odds EXPR`` in this process, without the interpreter's start).  The target: a warm answer
  within 100 ms for every expression the command line answers within 100 ms.
* **size**: the bytes the calculator adds to the site (vendored Pyodide, the wheel, the scripts),
  raw and gzip-compressed, as a web server would send them.

Prints a markdown report and writes it to ``bench/_out/calculator.md``.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import http.server
import io
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from rules.calculator import answer  # noqa: E402
from rules.dice import clear_caches  # noqa: E402

OUT = HERE / "_out"
PAGE = "manual/calculator.html"
#: (system, notation): what readers ask, across the systems, plus some of the largest answers.
EXPRESSIONS = [
    ("", "3d6"), ("", "4d6kh3"), ("", "2d20kh1+5"), ("", "6d6>=5"), ("", "d6!"), ("", "10d10"), ("", "1d100"),
    ("", "2d6kh1"), ("", "20d6"), ("", "8d12kh4"), ("", "100d6"), ("", "50d20"),
    ("nemron", "Agility 2 › Athletics 1"), ("nemron", "1d6 › 1d10 › 1d8"), ("nemron", "1d4 › 1d6 › 1d8 › 1d10 › 1d12"),
    ("heimr", "C+2 P+1"), ("heimr", "C+5 P+3"), ("heimr", "C-4 P+2"), ("heimr", "C+8"),
    ("nugget", "5 dice lid-off"), ("nugget", "12 dice lid-off"), ("nugget", "10 dice lid-on"),
    ("", "1d10000"),
]
#: Asked once more with "Show all" (when the page folds them): a row per outcome, on the reader's request.
SHOW_ALL = {"100d6", "50d20", "1d10000"}
#: Ask (or, with ``every``, press "Show all" on the last answer); the time runs from the click to the
#: answer laid out: the loop ends when the answer is in the page, then layout is forced.
ASK_JS = """async ([system, notation, every]) => {
    const calc = window.rpgCalculators[0];
    const f = calc.form.elements;
    const number = calc.asked + 1;
    const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
    await frame();  // the previous answer painted: nothing of it is left to do
    if (!window.rpgLongTasks) {
        window.rpgLongTasks = [];
        new PerformanceObserver(list => list.getEntries().forEach(e => window.rpgLongTasks.push(e.duration)))
            .observe({type: "longtask"});
    }
    const longBefore = window.rpgLongTasks.length;
    let t0;
    if (every) {
        const button = calc.result.querySelector("button[data-action=all]");
        if (!button) return null;
        t0 = performance.now();
        button.click();
    } else {
        f.system.value = system; f.notation.value = notation; f.target.value = "";
        t0 = performance.now();
        calc.form.querySelector("button[type=submit]").click();
    }
    await new Promise(resolve => {  // the moment the page marks the answer shown, not a timer's next turn
        const watch = new MutationObserver(() => {
            if (calc.root.getAttribute("data-answered") === String(number)) { watch.disconnect(); resolve(); }
        });
        watch.observe(calc.root, {attributes: true, attributeFilter: ["data-answered"]});
    });
    const t1 = performance.now();
    calc.root.getBoundingClientRect();
    const t2 = performance.now();
    await frame();
    const t3 = performance.now();
    await new Promise(r => setTimeout(r, 20));  // long task entries arrive after the task
    return {ms: t2 - t0, painted: t3 - t0, layout: t2 - t1, engine_ms: calc.last.ms, error: calc.last.error || null,
            timing: calc.last.timing || null, long: window.rpgLongTasks.slice(longBefore),
            rows: calc.result.querySelectorAll("tbody tr:not(.rpg-calculator-spacer)").length};
}"""
#: Where the worker's start went (ms): Pyodide, the engine wheel, the page's systems imported, one answer.
MARKS_JS = "window.rpgCalculatorStart || null"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def serve(root: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def cli_ms(system: str, notation: str, repeats: int = 3) -> float:
    """What ``rpg odds NOTATION [--system SYSTEM]`` spends on the question, its table printed (median,
    engine caches cleared each time; the interpreter's start and imports left out)."""
    from sphinx_rpg.cli import main as rpg

    arguments = ["odds", notation, *(["--system", system] if system else [])]
    times = []
    for _ in range(repeats + 1):
        clear_caches()
        start = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            rpg(arguments)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times[1:])  # the first imports the system's package


def native_ms(system: str, notation: str, repeats: int = 3) -> float:
    """What the command line spends on the question (median, engine caches cleared each time)."""
    answer(notation, system or None)  # imports the system's package once, as the CLI process would
    times = []
    for _ in range(repeats):
        clear_caches()
        start = time.perf_counter()
        answer(notation, system or None)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def sizes(site: Path) -> list[tuple[str, int, int]]:
    """(what, bytes, gzip bytes) of each part the calculator adds to the site."""
    static = site / "_static"
    parts = {"Pyodide (vendored)": sorted((static / "rpg" / "pyodide").glob("*")),
             "engine wheel": sorted((static / "rpg").glob("*.whl")),
             "calculator.js, worker, css, manifest": [static / "calculator.js", static / "calculator-worker.js",
                                                      static / "calculator.css", static / "rpg" / "calculator.json"]}
    rows = []
    for name, files in parts.items():
        raw = sum(f.stat().st_size for f in files if f.is_file())
        packed = sum(len(gzip.compress(f.read_bytes(), 6)) for f in files if f.is_file())
        rows.append((name, raw, packed))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", default=str(ROOT / "docs" / "_build" / "html"), help="a built site")
    parser.add_argument("--repeats", type=int, default=3, help="cold starts to time")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    site = Path(args.site)
    if not (site / "_static" / "rpg" / "calculator.json").is_file():
        print(f"{site} has no calculator: build the site first (python3 dev.py site)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    server, url = serve(site)
    cold: list[float] = []
    marks: list[dict[str, float]] = []
    warm: list[tuple[str, str, dict[str, Any], float, float, float]] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, headless=True,
                                             args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        for repeat in range(args.repeats):
            context = browser.new_context()
            context.route(lambda u: not u.startswith(url), lambda route: route.abort())
            tab = context.new_page()
            tab.goto(url + PAGE)
            result = tab.evaluate(ASK_JS, ["", "3d6", False])
            cold.append(result["ms"])
            marks.append(tab.evaluate(MARKS_JS) or {})
            if repeat == args.repeats - 1:
                for system, notation in EXPRESSIONS:
                    measured = tab.evaluate(ASK_JS, [system, notation, False])
                    again = tab.evaluate(ASK_JS, [system, notation, False])  # the same question asked again
                    warm.append((system or "standard", f"`{notation}`", measured, again["ms"],
                                 native_ms(system, notation), cli_ms(system, notation)))
                    every = tab.evaluate(ASK_JS, [system, notation, True]) if notation in SHOW_ALL else None
                    if every:
                        warm.append((system or "standard", f"`{notation}`, Show all", every, float("nan"),
                                     float("nan"), float("nan")))
            context.close()
        browser.close()
    server.shutdown()

    lines = ["# Dice calculator", "", f"Site: `{site}`; Chromium headless; {args.repeats} cold starts.", "",
             f"**Cold** (Pyodide start + wheel install + first answer, `3d6`): median {statistics.median(cold):.0f} ms "
             f"(runs: {', '.join(f'{c:.0f}' for c in cold)} ms)", ""]
    if any(marks):
        parts = ("pyodide", "engine", "systems", "firstAnswer")
        lines += ["Of the worker's start (medians): " + ", ".join(
            f"{name} {statistics.median(m.get(name, 0.0) for m in marks):.0f} ms" for name in parts), ""]
    lines += ["**Warm** (click to the answer laid out; painted: to the next frame; of which: to Python, Python "
              "in the worker, back, `JSON.parse`, DOM, forced layout; long: tasks over 50 ms; native = "
              "`rules.calculator.answer` in CPython; CLI = `rpg odds` in-process, its table printed)",
              "", "| system | expression | rows | browser (ms) | painted | to Py | Python | back | parse | DOM "
              "| layout | long | again | native | CLI | target met |",
              "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|"]
    for system, notation, m, again, native, cli in warm:
        t = m.get("timing") or {}
        if native != native:  # Show all: the reader's request for every row, no target
            met = "n/a (on request)"
        else:
            met = "n/a (CLI > 100 ms)" if cli > 100 else ("yes" if m["ms"] <= 100 else "no")
        note = f" (refused: {m['error'][:60]})" if m["error"] else ""
        long = ", ".join(f"{d:.0f}" for d in m["long"]) or "-"
        lines.append(f"| {system} | {notation}{note} | {m['rows']} | {m['ms']:.1f} | {m['painted']:.1f} | "
                     + " | ".join(f"{t.get(k, float('nan')):.1f}" for k in ("queued", "python", "transfer", "parse",
                                                                            "shown"))
                     + f" | {m['layout']:.1f} | {long} | {again:.1f} | {native:.1f} | {cli:.1f} | {met} |")
    lines += ["", "**Size** added to the site", "", "| part | bytes | gzip |", "|---|---:|---:|"]
    total_raw = total_gzip = 0
    for name, raw, packed in sizes(site):
        lines.append(f"| {name} | {raw:,} | {packed:,} |")
        total_raw, total_gzip = total_raw + raw, total_gzip + packed
    lines.append(f"| **total** | {total_raw:,} | {total_gzip:,} |")
    report = "\n".join(lines) + "\n"
    OUT.mkdir(exist_ok=True)
    (OUT / "calculator.md").write_text(report)
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
