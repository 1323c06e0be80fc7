#!/usr/bin/env python3
"""Two versions of sphinx-rpg on the same rebuilds, alternated build by build, CPU seconds.

    python3 bench/ab.py --versions base=/tmp/old-checkout,new=. [--scale 1] [--flavour rpg-bound]
                        [--edit-kinds append,delete] [--rounds 3] [--python .venv/bin/python]

A change to a rebuild's cost is often smaller than the noise of a shared machine between two
``build.py`` runs.  This runs the versions side by side instead: each gets its own copy of the
synthetic book and one fresh build (unmeasured), then every round measures one rebuild of each edit
kind per version, the versions alternating, so both see the same load (``--edit-kinds fresh`` measures
builds from scratch the same way: the output and doctrees removed before each).  A version is a checkout
(its ``sphinx_rpg`` and ``rules`` go first on ``PYTHONPATH``); the interpreter is shared.  Each
measured build is followed by an unmeasured one of the undone edit, as in ``build.py``.  The table
gives each version's median CPU seconds (and the samples) and median peak memory (``ru_maxrss``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import synthetic  # noqa: E402  (bench/ is not a package)
from build import sphinx_build, write_pages  # noqa: E402

#: The edit kind that is no edit: the versions' builds from scratch, alternated like the rebuilds.
FRESH = "fresh"


def _with_path(checkout: Path) -> None:
    os.environ["PYTHONPATH"] = str(checkout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--versions", required=True, help="name=checkout,name=checkout (two or more)")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--flavour", default="rpg-bound")
    parser.add_argument("--edit-kinds", default=",".join(synthetic.EDITS),
                        help=f"comma-separated: {', '.join(synthetic.EDITS)}, or {FRESH} (a build from scratch)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--python", type=Path, default=Path(sys.executable))
    parser.add_argument("--out", type=Path, default=HERE / "_out" / "ab")
    args = parser.parse_args(argv)
    python = Path(os.path.abspath(args.python))
    versions = {name: Path(path).resolve() for name, _, path in
                (item.partition("=") for item in args.versions.split(","))}
    kinds = [k.strip() for k in args.edit_kinds.split(",") if k.strip()]
    size = {k: max(1, round(synthetic.DEFAULTS[k] * args.scale)) for k in ("pages", "nodes", "refs")}
    content = synthetic.make_content(**size)
    saved = os.environ.get("PYTHONPATH")
    work: dict[str, tuple[Path, Path]] = {}
    for name, checkout in versions.items():
        src_root, build = args.out / name / "src", args.out / name / "build"
        shutil.rmtree(args.out / name, ignore_errors=True)
        synthetic.generate(src_root, flavours=(args.flavour,), **size)
        build.mkdir(parents=True)
        _with_path(checkout)
        result = sphinx_build(python, src_root / args.flavour, build, 1, build / "fresh.log")
        print(f"ab: {name} fresh {result[1]:.1f} s CPU, {result[2]:.0f} MiB peak, exit {result[4]}",
              file=sys.stderr, flush=True)
        work[name] = (src_root / args.flavour, build)
    samples: dict[tuple[str, str], list[float]] = {}
    peaks: dict[tuple[str, str], list[float]] = {}
    serial = 0
    for round_ in range(args.rounds):
        for kind in kinds:
            order = list(versions) if (round_ + serial) % 2 == 0 else list(reversed(versions))
            for name in order:
                src, build = work[name]
                _with_path(versions[name])
                if kind == FRESH:  # the output and the doctrees removed: a build from scratch
                    shutil.rmtree(build)
                    build.mkdir()
                    result = sphinx_build(python, src, build, 1, build / "fresh.log")
                    samples.setdefault((name, kind), []).append(result[1])
                    peaks.setdefault((name, kind), []).append(result[2])
                    print(f"ab: round {round_} {kind:10} {name:8} {result[1]:6.2f} s CPU, {result[2]:.0f} MiB peak, "
                          f"exit {result[4]}", file=sys.stderr, flush=True)
                    continue
                edited = synthetic.edited_pages(args.flavour, content, kind, serial)
                originals = {doc: (src / f"{doc}.rst").read_text(encoding="utf-8") for doc in edited}
                write_pages(src, edited)
                try:
                    result = sphinx_build(python, src, build, 1, build / f"{kind}.log")
                finally:
                    write_pages(src, originals)
                    sphinx_build(python, src, build, 1, build / "restore.log")
                samples.setdefault((name, kind), []).append(result[1])
                peaks.setdefault((name, kind), []).append(result[2])
                print(f"ab: round {round_} {kind:10} {name:8} {result[1]:6.2f} s CPU, {result[2]:.0f} MiB peak, "
                      f"exit {result[4]}",
                      file=sys.stderr, flush=True)
            serial += 1
    if saved is None:
        os.environ.pop("PYTHONPATH", None)
    else:
        os.environ["PYTHONPATH"] = saved
    names = list(versions)
    lines = ["| edit | " + " | ".join(f"{n} CPU s | {n} peak MiB" for n in names) + " |",
             "| --- |" + " ---: |" * (2 * len(names))]
    for kind in kinds:
        cells = [f"{statistics.median(samples[(n, kind)]):.2f} ({', '.join(f'{v:.2f}' for v in samples[(n, kind)])}) "
                 f"| {statistics.median(peaks[(n, kind)]):.0f}" for n in names]
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    text = "\n".join(lines)
    print(text)
    (args.out / "ab.json").write_text(json.dumps({"cpu_seconds": {f"{n}:{k}": v for (n, k), v in samples.items()},
                                                  "peak_mib": {f"{n}:{k}": v for (n, k), v in peaks.items()}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
