"""The long run of the edit/rebuild fuzz: random edits to a small rulebook, each followed by an
incremental and a clean build, compared on nodes.json, objects.inv, the node indices and every
page's node links (see tests.adversarial.fuzzing.py).

    .venv/bin/python bench/edit_fuzz.py --cycles 1000 --seed 1

Prints the cycles run and how many diverged (the goal is 0), and the first divergence in full.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.adversarial.fuzzing import run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="rpg-edit-fuzz-") as root:
        report = run(Path(root), args.seed, args.cycles, progress=True)
    print(f"seed {args.seed}: {report.cycles} cycles, {report.diverged} diverged "
          f"({time.perf_counter() - started:.0f} s)")
    for line in report.first:
        print(line)
    return 1 if report.diverged else 0


if __name__ == "__main__":
    sys.exit(main())
