"""Is ``rules`` sphinx-rpg's own engine?  A designer's package named ``rules`` would shadow it.

The engine ships as the top-level package ``rules`` next to ``sphinx_rpg``.  A project folder that
holds its own ``rules`` (and is put on ``sys.path`` by conf.py or pytest) hides it, and every import
of ``rules.nodes`` then fails deep inside Sphinx with a crash report.  Importing ``sphinx_rpg`` finds
that first, loads the real engine in its place, and keeps the problem for a located ``node.registry``
warning (and a one-line error from ``rulebook_sybil``) that names both places and the fix.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ENGINE = "rules"
#: Where the engine must be: beside this package, in the same installation or checkout.
EXPECTED = Path(__file__).resolve().parent.parent / ENGINE
FIX = ("rename your package (to your game's name, as `rpg new` does) and name its registry in conf.py as "
       "'yourgame:REGISTRY'; never put a game inside sphinx-rpg's 'rules' package")


class EngineShadowedError(ImportError):
    """The ``rules`` that Python finds is not sphinx-rpg's engine; the message names both places."""


def _found_at() -> Path | None:
    """The folder of the ``rules`` package Python imports (or has imported), None if there is none."""
    module = sys.modules.get(ENGINE)
    if module is not None:
        locations = list(getattr(module, "__path__", []) or [])
        origin = getattr(module, "__file__", None)
        return Path(origin).resolve().parent if origin else (Path(locations[0]).resolve() if locations else None)
    try:
        spec = importlib.util.find_spec(ENGINE)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if spec.origin and spec.origin not in ("namespace", "built-in", "frozen"):
        return Path(spec.origin).resolve().parent if spec.submodule_search_locations else Path(spec.origin).resolve()
    locations = list(spec.submodule_search_locations or [])
    return Path(locations[0]).resolve() if locations else None


def engine_problem() -> str | None:
    """Why the importable ``rules`` is not the engine, or None when it is."""
    found = _found_at()
    if found is None:
        return (f"sphinx-rpg's engine package {ENGINE!r} cannot be imported (it belongs at {EXPECTED}); "
                "reinstall sphinx-rpg")
    if found != EXPECTED:
        return (f"the package {ENGINE!r} that Python imports is {found}, not sphinx-rpg's engine at {EXPECTED}: "
                f"a package or module of your own named {ENGINE!r} shadows it; {FIX}")
    return None


def _load_real_engine() -> None:
    """Put sphinx-rpg's own ``rules`` in ``sys.modules`` (dropping a foreign one already imported)."""
    # The extension's one sys.modules edit, and why it must be: the engine is the top-level package
    # ``rules``, and a designer's own ``rules`` first on sys.path would make every import of it fail
    # inside Sphinx.  It happens only then, and the build reports it (node.registry) with the fix.
    for name in [n for n in sys.modules if n == ENGINE or n.startswith(ENGINE + ".")]:
        del sys.modules[name]
    spec = importlib.util.spec_from_file_location(ENGINE, EXPECTED / "__init__.py",
                                                  submodule_search_locations=[str(EXPECTED)])
    if spec is None or spec.loader is None:
        raise EngineShadowedError(f"cannot load sphinx-rpg's engine from {EXPECTED}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[ENGINE] = module
    spec.loader.exec_module(module)


#: What was wrong with ``rules`` when sphinx_rpg was imported (None: nothing); reported by the build.
SHADOWED: str | None = None


def secure_engine() -> str | None:
    """Make ``import rules`` give sphinx-rpg's engine; returns the problem found, or None."""
    global SHADOWED
    problem = engine_problem()
    if problem and (EXPECTED / "__init__.py").is_file():
        _load_real_engine()
        SHADOWED = problem
    elif problem:
        raise EngineShadowedError(problem)
    return SHADOWED
