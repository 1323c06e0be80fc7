#!/usr/bin/env python3
"""``python3 dev.py site`` from a fresh clone, timed as CI and a new contributor meet it, A/B alternated.

    python3 bench/site.py [--against COMMIT ...] [--repeats 3] [--keep]

Each run clones this repository (its committed ``HEAD``, or ``COMMIT`` for the other side) into a new
temporary folder, with nothing of this checkout's ``.venv``, ``.cache`` or ``docs/_build``, and runs
``python3 dev.py site`` there: making ``.venv``, vendoring Pyodide, both editions and the supplements.
With ``--against`` (once or more) the commits take turns run by run, so all meet the same load.  The table gives
each run's wall time, the CPU time of every process it started and the lines ``dev.py`` prints about
its stages, then the medians; the load average is printed before and after, since the figure needs a
quiet machine (the target is a two-core machine with nothing else running).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The lines of dev.py's output that say how long a stage took.
STAGES = ("ready in", "edition of the site is at", "the site took")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def one_run(commit: str, folder: Path) -> tuple[float, float, list[str]]:
    """Clone ``commit`` into ``folder`` and build its site: (wall s, CPU s, dev.py's stage lines)."""
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(folder)], check=True)
    subprocess.run(["git", "-C", str(folder), "checkout", "--quiet", commit], check=True)
    spent, started = children_cpu(), time.monotonic()
    done = subprocess.run([sys.executable, "dev.py", "site"], cwd=folder, capture_output=True, text=True)
    wall, cpu = time.monotonic() - started, children_cpu() - spent
    if done.returncode:
        raise SystemExit(f"dev.py site failed at {commit}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    lines = [line.removeprefix("dev.py: ") for line in done.stdout.splitlines() if any(s in line for s in STAGES)]
    return wall, cpu, lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", action="append", default=[], help="another commit, run in turns with HEAD")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--keep", action="store_true", help="keep the clones (their sites) for a look")
    arguments = parser.parse_args()
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    sides = [head, *arguments.against]
    print(f"load average before: {os.getloadavg()[0]:.2f} (cores: {os.cpu_count()})", flush=True)
    results: dict[str, list[tuple[float, float]]] = {side: [] for side in sides}
    work = Path(tempfile.mkdtemp(prefix="rpg-site-bench-"))
    try:
        for repeat in range(arguments.repeats):
            for side in sides:
                wall, cpu, lines = one_run(side, work / f"{side}-{repeat}")
                results[side].append((wall, cpu))
                print(f"{side} run {repeat + 1}: {wall:.1f} s wall, {cpu:.1f} s CPU  ({'; '.join(lines)})", flush=True)
                if not arguments.keep:
                    shutil.rmtree(work / f"{side}-{repeat}")
    finally:
        if not arguments.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    for side, runs in results.items():
        print(f"{side}: median {statistics.median(w for w, _ in runs):.1f} s wall, "
              f"{statistics.median(c for _, c in runs):.1f} s CPU over {len(runs)} runs")
    if arguments.keep:
        print(f"clones kept in {work}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
