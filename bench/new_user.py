#!/usr/bin/env python3
"""From an empty directory to a green starter, timed the way a new user does it.

    python3 bench/new_user.py [--wheel dist/sphinx_rpg-0.1.0-py3-none-any.whl] [--cold] [--keep]

Each step runs in a fresh temporary directory with nothing from this checkout on the path: a virtual
environment (with pip), ``pip install`` of the sphinx-rpg wheel (its dependencies from the package
index, as a user gets them), ``rpg new``, copying the wheel into the starter's ``wheels/``, ``pip
install --find-links wheels -r requirements.txt`` (the ``designer`` extra), and ``python ci.py``
(both editions built with ``-W``, then pytest: what the starter's CI runs).  Without ``--wheel`` the
wheel is first built from this checkout (not timed); ``--cold`` gives pip no cache (a first install
ever).  The table gives each step's wall time, the running total, the share spent installing and
the load average before and after: network and machine load dominate the install steps, so quote
the load with the figure.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build_wheel(folder: Path) -> Path:
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(folder),
                    str(ROOT)], check=True)
    return next(folder.glob("sphinx_rpg-*.whl"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--wheel", type=Path, default=None, help="the sphinx-rpg wheel to install")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument("--cold", action="store_true", help="pip without its cache (--no-cache-dir)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="rpg-new-user-"))
    wheel = args.wheel.resolve() if args.wheel else build_wheel(work / "dist")
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    bin_dir = work / "venv" / "bin"
    project = work / "tower"
    pip = [str(bin_dir / "pip"), "install", "--quiet", *(["--no-cache-dir"] if args.cold else [])]
    steps: list[tuple[str, list[str], Path]] = [
        ("virtual environment", [sys.executable, "-m", "venv", str(work / "venv")], work),
        ("pip install the wheel", [*pip, str(wheel)], work),
        ("rpg new", [str(bin_dir / "rpg"), "new", str(project), "--name", "Tower Climbers"], work),
        ("pip install -r requirements.txt", [*pip, "--find-links", "wheels", "-r", "requirements.txt"], project),
        ("python ci.py", [str(bin_dir / "python"), "ci.py"], project),
    ]
    total = installing = cpu_total = 0.0
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{'step':<34}{'seconds':>9}{'total':>9}{'CPU s':>9}")
    try:
        for name, command, cwd in steps:
            if name == "pip install -r requirements.txt":
                shutil.copy(wheel, project / "wheels")
            start, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
            result = subprocess.run(command, cwd=cwd, env=environment, capture_output=True, text=True)
            elapsed = time.perf_counter() - start
            after_usage = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after_usage.ru_utime - before.ru_utime) + (after_usage.ru_stime - before.ru_stime)
            total += elapsed
            cpu_total += cpu
            installing += elapsed if name.startswith("pip install") else 0.0
            print(f"{name:<34}{elapsed:>9.1f}{total:>9.1f}{cpu:>9.1f}", flush=True)
            if result.returncode != 0:
                print(result.stdout[-2000:], result.stderr[-2000:], file=sys.stderr)
                return 1
        after = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"empty folder to green: {total:.0f} s, {installing / total:.0%} of it installing "
              f"(1-minute load average {load:.1f} before, {after:.1f} after, on {os.cpu_count()} cores); "
              f"{cpu_total:.0f} s of CPU time, the floor a quiet machine approaches (plus the downloads)")
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
