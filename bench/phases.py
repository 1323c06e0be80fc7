#!/usr/bin/env python3
"""Where a build's CPU time goes, phase by phase and handler by handler, plain Sphinx beside sphinx_rpg.

    python3 bench/phases.py --scale 0.25 [--flavours plain,rpg-bound] [--edit-kinds ...] [--python ...]

``build.py`` gives one CPU figure per build; this splits it, to find what the extension costs over
plain Sphinx.  Each build runs in a child process (``-j 1``, the same as ``build.py``'s) that wraps
Sphinx's own phases with ``time.process_time``: start-up (configuration, extensions, loading the
environment), read (parsing, transforms, ``doctree-read``), the environment pickle and consistency
checks, resolve (``get_and_resolve_doctree``: post-transforms, references, ``doctree-resolved``),
write (the HTML translator, templates, the search index, doctree pickles) and finish (static files,
indices, the search index dump, ``build-finished``); and it times every event handler, by event and
function, so a feature's share shows by name.  Flavours alternate build by build (fresh, then each
edit), so the two columns of a row were measured at the same load.  No wall time: the machine is
shared, and CPU time moves less.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import pickle
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import synthetic  # noqa: E402  (bench/ is not a package)
from build import write_pages  # noqa: E402

PHASES = ("start-up", "read", "pickle+check", "resolve", "write", "finish", "total")


# -- the child: one instrumented build ------------------------------------------------------------
def _child(src: str, out: str, result: str) -> int:
    """Run one ``-j 1`` HTML build in this process; write its phase and handler CPU times to ``result``."""
    from docutils.transforms import Transformer
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.builders.html import StandaloneHTMLBuilder
    from sphinx.environment import BuildEnvironment
    from sphinx.events import EventManager

    phases: dict[str, float] = dict.fromkeys(PHASES, 0.0)
    handlers: dict[str, float] = {}
    details: dict[str, float] = {}  # each transform, and the write phase's parts
    depth = [0]

    @contextmanager
    def timed(name: str) -> Iterator[None]:
        started = time.process_time()
        try:
            yield
        finally:
            phases[name] += time.process_time() - started

    def wrap(owner: Any, attribute: str, name: str, subtract: tuple[str, ...] = ()) -> None:
        original = getattr(owner, attribute)

        def timed_call(*args: Any, **kwargs: Any) -> Any:
            if depth[0]:  # nested inside another timed phase (a resolve inside write): counted there
                return original(*args, **kwargs)
            before = {n: phases[n] for n in subtract}
            depth[0] += 1
            started = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                depth[0] -= 1
                spent = time.process_time() - started
                phases[name] += spent - sum(phases[n] - before[n] for n in subtract)

        setattr(owner, attribute, timed_call)

    wrap(Builder, "read", "read")
    wrap(BuildEnvironment, "check_consistency", "pickle+check")
    wrap(Builder, "finish", "finish")
    wrap(StandaloneHTMLBuilder, "finish", "finish")
    original_resolve = BuildEnvironment.get_and_resolve_doctree

    def resolve(self: Any, *args: Any, **kwargs: Any) -> Any:
        with timed("resolve"):
            return original_resolve(self, *args, **kwargs)

    BuildEnvironment.get_and_resolve_doctree = resolve  # type: ignore[method-assign]
    original_write = Builder.write

    def write(self: Any, *args: Any, **kwargs: Any) -> Any:
        before = phases["resolve"]
        started = time.process_time()
        try:
            return original_write(self, *args, **kwargs)
        finally:
            phases["write"] += time.process_time() - started - (phases["resolve"] - before)

    Builder.write = write  # type: ignore[method-assign]
    original_emit = EventManager.emit

    def emit(self: EventManager, name: str, *args: Any, allowed_exceptions: tuple[type[Exception], ...] = ()) -> Any:
        listeners = self.listeners.get(name, [])
        wrapped = []
        for listener in listeners:
            handler = listener.handler
            key = f"{name}: {getattr(handler, '__module__', '?')}.{getattr(handler, '__qualname__', repr(handler))}"

            def run(*a: Any, _handler: Callable[..., Any] = handler, _key: str = key) -> Any:
                started = time.process_time()
                try:
                    return _handler(*a)
                finally:
                    handlers[_key] = handlers.get(_key, 0.0) + time.process_time() - started

            wrapped.append((listener, run))
        saved = list(listeners)
        self.listeners[name] = [listener._replace(handler=run) for listener, run in wrapped]
        try:
            if name == "build-finished":
                with timed("finish"):
                    return original_emit(self, name, *args, allowed_exceptions=allowed_exceptions)
            return original_emit(self, name, *args, allowed_exceptions=allowed_exceptions)
        finally:
            self.listeners[name] = saved

    EventManager.emit = emit  # type: ignore[method-assign]

    def apply_transforms(self: Transformer) -> None:  # docutils' loop, each transform timed by class
        self.document.reporter.attach_observer(self.document.note_transform_message)
        while self.transforms:
            if not self.sorted:
                self.transforms.sort(reverse=True)
                self.sorted = True
            priority, transform_class, pending, kwargs = self.transforms.pop()
            started = time.process_time()
            transform_class(self.document, startnode=pending).apply(**kwargs)
            key = f"transform {transform_class.__module__}.{transform_class.__name__}"
            details[key] = details.get(key, 0.0) + time.process_time() - started
            self.applied.append((priority, transform_class, pending, kwargs))
        self.document.reporter.detach_observer(self.document.note_transform_message)

    Transformer.apply_transforms = apply_transforms  # type: ignore[method-assign]
    def part(original: Callable[..., Any], key: str) -> Callable[..., Any]:
        def timed_part(*args: Any, **kwargs: Any) -> Any:
            started = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                details[key] = details.get(key, 0.0) + time.process_time() - started

        return timed_part

    for attribute in ("handle_page", "index_page", "write_doc", "write_doc_serialized"):
        original = getattr(StandaloneHTMLBuilder, attribute)
        setattr(StandaloneHTMLBuilder, attribute, part(original, f"write: {attribute}"))

    collecting: dict[int, float] = {}

    def collector(stage: str, info: dict[str, int]) -> None:  # the cyclic garbage collector's own time
        generation = info.get("generation", 2)
        if stage == "start":
            collecting[generation] = time.process_time()
        elif generation in collecting:
            key = f"gc: generation {generation}"
            details[key] = details.get(key, 0.0) + time.process_time() - collecting.pop(generation)

    gc.callbacks.append(collector)
    for name in ("dump", "load"):  # the environment's pickle, and the doctrees'
        setattr(pickle, name, part(getattr(pickle, name), f"pickle.{name}"))
    app = Sphinx(src, src, out + "/html", out + "/doctrees", "html", status=None, warning=sys.stderr,
                 freshenv=False, parallel=1)
    phases["start-up"] = time.process_time()  # the interpreter's own start and imports included
    app.build()
    phases["total"] = time.process_time()
    accounted = sum(phases[n] for n in PHASES if n not in ("total", "pickle+check", "start-up"))
    phases["pickle+check"] = phases["total"] - phases["start-up"] - accounted
    Path(result).write_text(json.dumps({"phases": phases, "handlers": handlers, "details": details,
                                             "status": app.statuscode}))
    return 0


# -- the driver -----------------------------------------------------------------------------------
def build(python: Path, src: Path, out: Path) -> dict[str, Any]:
    result = out / "phases.json"
    env = dict(os.environ, PYTHONHASHSEED="0")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with (out / "build.log").open("w") as log:
        subprocess.run([str(python), str(Path(__file__).resolve()), "--child", str(src), str(out), str(result)],
                       stdout=subprocess.DEVNULL, stderr=log, env=env, cwd=src, check=True)
    data: dict[str, Any] = json.loads(result.read_text())
    return data


def report(scenario: str, results: dict[str, dict[str, Any]], top: int) -> str:
    flavours = list(results)
    lines = [f"### {scenario}", "", "| phase | " + " | ".join(flavours) + " | difference |",
             "| --- |" + " ---: |" * (len(flavours) + 1)]
    for phase in PHASES:
        values = [results[f]["phases"][phase] for f in flavours]
        lines.append(f"| {phase} | " + " | ".join(f"{v:.2f}" for v in values) + f" | {values[-1] - values[0]:+.2f} |")
    last = results[flavours[-1]]["handlers"]
    ours = sorted(((v, k) for k, v in last.items() if "sphinx_rpg" in k or "sphinx_design" in k), reverse=True)
    lines += ["", f"Handlers of sphinx_rpg / sphinx_design ({flavours[-1]}), CPU s:", ""]
    lines += [f"- {value:.2f} {key}" for value, key in ours[:top]]
    first, others = results[flavours[0]]["details"], results[flavours[-1]]["details"]
    moved = sorted(((others.get(k, 0.0) - first.get(k, 0.0), k) for k in first.keys() | others.keys()),
                   key=lambda pair: -abs(pair[0]))
    lines += ["", f"Transforms and write steps, {flavours[-1]} minus {flavours[0]} (largest first), CPU s:", ""]
    lines += [f"- {delta:+.2f} {key} ({first.get(key, 0.0):.2f} -> {others.get(key, 0.0):.2f})"
              for delta, key in moved[:top]]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        return _child(*argv[1:4])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=0.25)
    parser.add_argument("--flavours", default="plain,rpg-bound", help="comma-separated; the first is the baseline")
    parser.add_argument("--edit-kinds", default=",".join(synthetic.EDITS))
    parser.add_argument("--python", type=Path, default=Path(sys.executable))
    parser.add_argument("--out", type=Path, default=HERE / "_out" / "phases")
    parser.add_argument("--top", type=int, default=12, help="handlers listed per build")
    args = parser.parse_args(argv)
    python = Path(os.path.abspath(args.python))
    flavours = [f.strip() for f in args.flavours.split(",") if f.strip()]
    size = {k: max(1, round(synthetic.DEFAULTS[k] * args.scale)) for k in ("pages", "nodes", "refs")}
    src_root = args.out / "src"
    synthetic.generate(src_root, flavours=tuple(flavours), **size)
    content = synthetic.make_content(**size)
    builds = {f: args.out / "build" / f for f in flavours}
    for path in builds.values():
        shutil.rmtree(path, ignore_errors=True)
        path.mkdir(parents=True)
    text = [f"Synthetic rulebook at {args.scale:g}x ({size}), -j 1, CPU seconds.\n"]
    fresh = {f: build(python, src_root / f, builds[f]) for f in flavours}
    text.append(report("fresh", fresh, args.top))
    print(text[-1], flush=True)
    for serial, kind in enumerate(k.strip() for k in args.edit_kinds.split(",") if k.strip()):
        results = {}
        for flavour in flavours:
            src = src_root / flavour
            edited = synthetic.edited_pages(flavour, content, kind, serial)
            originals = {doc: (src / f"{doc}.rst").read_text(encoding="utf-8") for doc in edited}
            write_pages(src, edited)
            try:
                results[flavour] = build(python, src, builds[flavour])
            finally:
                write_pages(src, originals)
                build(python, src, builds[flavour])  # back to the unedited book, unmeasured
        text.append(report(kind, results, args.top))
        print(text[-1], flush=True)
    (args.out / "phases.md").write_text("\n".join(text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
