#!/usr/bin/env python3
"""Build the synthetic rulebook's flavours side by side: wall time and peak memory against plain Sphinx.

    python3 bench/build.py [--scale 1] [--repeats 3] [--flavours plain,rpg,...] [--jobs 1,2]

Generates ``bench/synthetic.py``'s flavours at ``--scale`` times the default size (500 pages, 10,000
nodes, 50,000 references), then for every repeat and every ``-j`` runs ``sphinx-build`` in a child
process for every flavour: a fresh build (empty output and doctree directories), then incremental
ones, one per kind of edit (``--edit-kinds``: a paragraph appended, a paragraph inserted under the
title so every node moves down, a node renamed, moved to the next page, deleted;
``synthetic.edited_pages``).  The flavours take turns build by build, so drift in the machine's speed
lands on every column alike.  After
each measured incremental build the edit is undone and an unmeasured build brings the output back to
the unedited book, so every edit starts from the same state.  Wall time and the child's peak
resident memory (``ru_maxrss`` from ``os.wait4``: the largest of the build process and the worker
processes it reaped, so with ``-j 2`` it is the biggest single process, not their sum) are collected;
the table shows medians over the repeats and the ratio to each flavour's plain-Sphinx baseline (same
content without the extension, and the same process settings: ``rpg-bound-exit`` and its baseline
``plain-exit`` both freeze what is left for the collector at exit with the same conf.py line, since
sphinx_rpg itself changes no process state).

Sphinx runs from a virtual environment of its own, ``bench/_out/venv`` (``pip install -e .[bench]``
with ``constraints.txt``, refreshed when either file changes), unless ``--python`` names another
interpreter that has sphinx-rpg and sphinx-needs installed (``pip install -e .[bench]``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import venv
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import synthetic  # noqa: E402  (bench/ is not a package)

OUT = HERE / "_out"
VENV = OUT / "venv"
SCENARIOS = ("fresh", *(f"incremental:{kind}" for kind in synthetic.EDITS))


# -- environment ----------------------------------------------------------------------------------
def ensure_venv(path: Path = VENV) -> Path:
    """Create or refresh the benchmark's own virtual environment; returns its python."""
    python = path / ("Scripts" if os.name == "nt" else "bin") / "python"
    stamp = path / ".bench-stamp"
    digest = hashlib.sha256(b"bench")
    for name in ("pyproject.toml", "constraints.txt"):
        if (ROOT / name).exists():
            digest.update((ROOT / name).read_bytes())
    wanted = digest.hexdigest()
    if stamp.exists() and stamp.read_text().strip() == wanted and python.exists():
        return python
    if not python.exists():
        print(f"bench: creating {path}", file=sys.stderr, flush=True)
        venv.EnvBuilder(with_pip=True).create(path)
    print("bench: installing sphinx-rpg[bench] into it", file=sys.stderr, flush=True)
    command = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    if (ROOT / "constraints.txt").exists():
        command += ["-c", str(ROOT / "constraints.txt")]
    subprocess.run([*command, "-e", f"{ROOT}[bench]"], cwd=ROOT, check=True)
    stamp.write_text(wanted + "\n")
    return python


# -- one build ------------------------------------------------------------------------------------
@dataclass
class Run:
    flavour: str
    scenario: str
    jobs: int
    repeat: int
    seconds: float
    cpu_seconds: float
    peak_mib: float
    warnings: int
    status: int
    log: str = ""


def sphinx_build(python: Path, src: Path, build: Path, jobs: int, log: Path,
                 extra: tuple[str, ...] = (), settings: tuple[str, ...] = ()) -> tuple[float, float, float, int, int]:
    """Run sphinx-build in a child; (wall s, cpu s, peak MiB, warnings, exit status).

    ``extra``: interpreter options; ``settings``: ``NAME=VALUE`` configuration overrides (``-D``).
    """
    command = [str(python), *extra, "-m", "sphinx", "-b", "html", "-q", "-j", str(jobs),
               *(arg for setting in settings for arg in ("-D", setting)),
               "-d", str(build / "doctrees"), str(src), str(build / "html")]
    env = dict(os.environ, PYTHONHASHSEED="0")
    # as on a writer's machine, modules are compiled once and cached (some sandboxes and CI images
    # set PYTHONDONTWRITEBYTECODE, which recompiles the 10,000-node registry module on every build)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with log.open("w") as stderr:
        start = time.perf_counter()
        # cwd=src: "python -m" puts the working directory first on sys.path; the project's checkout
        # must not shadow the installed packages (or PYTHONPATH) by accident
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr, env=env, cwd=src)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    text = log.read_text(errors="replace")
    warnings = sum(1 for line in text.splitlines() if "WARNING" in line or "ERROR" in line)
    return (seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, warnings, child.returncode)


def write_pages(src: Path, pages: dict[str, str]) -> None:
    """Write docname -> text, each newer than the last read whatever the file system's timestamp grain."""
    future = time.time() + 2
    for docname, text in pages.items():
        path = src / f"{docname}.rst"
        path.write_text(text, encoding="utf-8")
        os.utime(path, (future, future))


def run_all(python: Path, src_root: Path, content: synthetic.Content, flavours: list[str], jobs: list[int],
            repeats: int, work: Path, save: Callable[[list[Run]], object] = lambda runs: None, edits: int = 1,
            kinds: tuple[str, ...] = synthetic.EDITS, rpg_settings: tuple[str, ...] = ()) -> list[Run]:
    """Every build; ``save(runs)`` after each one, so an interrupted run still leaves its table.

    Each repeat is a fresh build followed by ``edits`` incremental builds of each kind of edit:
    incremental builds are short and noisy, so they are worth more samples than fresh ones.  The
    flavours take turns build by build (each scenario is built in every flavour before the next
    one, and the order turns round from one scenario to the next), so a machine that slows down or
    speeds up during the run weighs on every column alike instead of on the flavours measured last.
    """
    runs: list[Run] = []
    scenarios = ["fresh"] + [f"incremental:{kind}" for kind in kinds for _ in range(edits)]
    for repeat in range(repeats):
        for j in jobs:
            for flavour in flavours:
                build = work / f"{flavour}-j{j}"
                shutil.rmtree(build, ignore_errors=True)
                build.mkdir(parents=True)
            for step, scenario in enumerate(scenarios):
                turn = (repeat + step) % len(flavours)
                for flavour in flavours[turn:] + flavours[:turn]:
                    settings = rpg_settings if flavour.startswith("rpg") else ()
                    run = _measure(python, src_root / flavour, work / f"{flavour}-j{j}", content, flavour,
                                   scenario, j, repeat, serial=len(runs), settings=settings)
                    runs.append(run)
                    save(runs)
                    print(f"bench: {flavour:19} {scenario:22} -j {j}  repeat {repeat}: {run.seconds:7.1f} s "
                          f"{run.peak_mib:7.0f} MiB  {run.warnings} warnings"
                          + (f"  EXIT {run.status}, see {run.log}" if run.status else ""),
                          file=sys.stderr, flush=True)
    return runs


def _measure(python: Path, src: Path, build: Path, content: synthetic.Content, flavour: str, scenario: str,
             jobs: int, repeat: int, serial: int, settings: tuple[str, ...] = ()) -> Run:
    """One measured build of ``scenario``; an edit is undone afterwards by an unmeasured build."""
    kind = scenario.partition(":")[2]
    edited = synthetic.edited_pages(flavour, content, kind, serial) if kind else {}
    originals = {doc: (src / f"{doc}.rst").read_text(encoding="utf-8") for doc in edited}
    write_pages(src, edited)
    log = build / f"{scenario.replace(':', '-')}.log"
    try:
        result = sphinx_build(python, src, build, jobs, log, settings=settings)
    finally:
        if edited:  # back to the unedited book, unmeasured
            write_pages(src, originals)
            sphinx_build(python, src, build, jobs, build / "restore.log", settings=settings)
    return Run(flavour, scenario, jobs, repeat, *result, log=str(log))


# -- report ---------------------------------------------------------------------------------------
def medians(runs: list[Run]) -> dict[tuple[str, str, int], dict[str, float]]:
    groups: dict[tuple[str, str, int], list[Run]] = {}
    for run in runs:
        groups.setdefault((run.flavour, run.scenario, run.jobs), []).append(run)
    return {key: {"seconds": statistics.median(r.seconds for r in group),
                  "cpu_seconds": statistics.median(r.cpu_seconds for r in group),
                  "peak_mib": statistics.median(r.peak_mib for r in group),
                  "warnings": max(r.warnings for r in group),
                  "failed": sum(1 for r in group if r.status), "n": len(group)}
            for key, group in groups.items()}


def table(runs: list[Run], manifest: dict[str, Any], flavours: list[str], jobs: list[int]) -> str:
    stats = medians(runs)
    baseline = manifest["baseline"]

    def samples(scenario: str) -> int:
        return max((int(s["n"]) for (_, sc, _), s in stats.items() if sc == scenario), default=0)

    lines = [f"Synthetic rulebook: {manifest['pages']} pages, {manifest['nodes']} nodes, {manifest['refs']} "
             f"references (seed {manifest['seed']}); medians of {samples('fresh')} fresh and "
             f"{samples('incremental:append')} incremental build(s) of each edit per row. "
             "Peak = largest single process (ru_maxrss).", "",
             "| build | -j | flavour | baseline | time (s) | × baseline | CPU (s) | × baseline | peak (MiB) "
             "| × baseline | sphinx-needs ÷ this | warnings |",
             "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for scenario in SCENARIOS:
        for j in jobs:
            for flavour in flavours:
                s = stats.get((flavour, scenario, j))
                if s is None:
                    continue
                base = stats.get((baseline[flavour], scenario, j))
                needs = stats.get((synthetic.PEER.get(flavour, ""), scenario, j))
                time_ratio = f"{s['seconds'] / base['seconds']:.2f}" if base else "n/a"
                cpu_ratio = f"{s['cpu_seconds'] / base['cpu_seconds']:.2f}" if base else "n/a"
                mem_ratio = f"{s['peak_mib'] / base['peak_mib']:.2f}" if base else "n/a"
                vs_needs = f"{needs['seconds'] / s['seconds']:.1f}" if needs else ""
                note = f"{s['warnings']}" + (f" (failed {s['failed']})" if s["failed"] else "")
                lines.append(f"| {scenario} | {j} | {flavour} | {baseline[flavour]} | {s['seconds']:.1f} | "
                             f"{time_ratio} | {s['cpu_seconds']:.1f} | {cpu_ratio} | {s['peak_mib']:.0f} | "
                             f"{mem_ratio} | {vs_needs} | {note} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="1 = defaults (500 pages, 10k nodes, 50k refs)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--edits", type=int, default=1,
                        help="incremental builds of each kind of edit after every fresh build (default 1)")
    parser.add_argument("--edit-kinds", default=",".join(synthetic.EDITS),
                        help=f"comma-separated subset of {', '.join(synthetic.EDITS)}")
    parser.add_argument("--flavours", default=",".join(synthetic.FLAVOURS), help="comma-separated subset")
    parser.add_argument("--jobs", default="1,2", help="comma-separated -j values")
    parser.add_argument("--seed", type=int, default=synthetic.DEFAULTS["seed"])
    parser.add_argument("--out", type=Path, default=OUT, help="work directory (default bench/_out)")
    parser.add_argument("--python", type=Path, help="interpreter with sphinx-rpg[bench] (default: own venv)")
    parser.add_argument("--rpg-setting", action="append", default=[], metavar="NAME=VALUE",
                        help="a configuration override (sphinx-build -D) for the sphinx-rpg flavours, such as "
                             "rpg_keep_unchanged_indices=0 (repeatable)")
    parser.add_argument("--profile", metavar="FLAVOUR",
                        help="instead of benchmarking, write a cProfile of one -j 1 build of FLAVOUR")
    parser.add_argument("--profile-build", choices=SCENARIOS, default="fresh",
                        help="with --profile: the fresh build, or one incremental build after it")
    args = parser.parse_args(argv)

    python = Path(os.path.abspath(args.python)) if args.python else ensure_venv()  # not resolve(): keep the venv
    flavours = [f.strip() for f in args.flavours.split(",") if f.strip()]
    for flavour in flavours:
        base = synthetic.BASELINE.get(flavour)
        if base is None:
            parser.error(f"unknown flavour {flavour!r}")
        if base not in flavours and not args.profile:
            flavours.insert(0, base)  # a ratio needs its baseline
    flavours = list(dict.fromkeys(flavours))
    jobs = [int(j) for j in args.jobs.split(",")]
    size = {k: max(1, round(synthetic.DEFAULTS[k] * args.scale)) for k in ("pages", "nodes", "refs")}
    label = f"scale{args.scale:g}"
    src_root = args.out / label / "src"
    print(f"bench: generating {size} into {src_root}", file=sys.stderr, flush=True)
    manifest = synthetic.generate(src_root, seed=args.seed, flavours=tuple(flavours), **size)
    content = synthetic.make_content(seed=args.seed, **size)
    kinds = tuple(k.strip() for k in args.edit_kinds.split(",") if k.strip())
    unknown = [k for k in kinds if k not in synthetic.EDITS]
    if unknown:
        parser.error(f"unknown edit kind(s) {', '.join(unknown)}; choose from {', '.join(synthetic.EDITS)}")

    if args.profile:
        build = args.out / label / "profile" / args.profile
        shutil.rmtree(build, ignore_errors=True)
        build.mkdir(parents=True)
        stats = build / f"{args.profile_build}.prof"
        profiler = ("-m", "cProfile", "-o", str(stats))
        src = src_root / args.profile
        if args.profile_build != "fresh":
            sphinx_build(python, src, build, 1, build / "fresh.log")
            edited = synthetic.edited_pages(args.profile, content, args.profile_build.partition(":")[2], 0)
            originals = {doc: (src / f"{doc}.rst").read_text(encoding="utf-8") for doc in edited}
            write_pages(src, edited)
            try:
                result = sphinx_build(python, src, build, 1, build / "incremental.log", profiler)
            finally:
                write_pages(src, originals)
        else:
            result = sphinx_build(python, src, build, 1, build / "fresh.log", profiler)
        print(f"bench: profiled {args.profile} ({args.profile_build}): {result[0]:.1f} s, "
              f"{result[2]:.0f} MiB -> {stats}")
        return result[4]

    def save(runs: list[Run]) -> str:
        report = table(runs, manifest, flavours, jobs)
        if args.rpg_setting:
            report = f"sphinx-rpg flavours built with {' '.join('-D ' + s for s in args.rpg_setting)}.\n\n{report}"
        (args.out / f"results-{label}.json").write_text(
            json.dumps({"manifest": manifest, "runs": [asdict(r) for r in runs]}, indent=1) + "\n")
        (args.out / f"results-{label}.md").write_text(report)
        return report

    runs = run_all(python, src_root, content, flavours, jobs, args.repeats, args.out / label / "build", save,
                   edits=args.edits, kinds=kinds, rpg_settings=tuple(args.rpg_setting))
    print(save(runs))
    return 1 if any(r.status for r in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
