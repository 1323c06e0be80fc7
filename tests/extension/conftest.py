"""Shared helpers for the extension's Sphinx integration tests: small books, builds, edits, warnings.

Test modules cannot import a conftest, so each helper is a fixture that hands back the function.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import pytest

PAGES = 8  # Sphinx reads in parallel only when more than five documents are outdated


@pytest.fixture(scope="session")
def rootdir() -> Path:
    """Small doc projects under tests/extension/roots/test-*/ (copied to a temp dir per test)."""
    return Path(__file__).parent / "roots"


def _write_book(root: Path, *, nodes_per_page: int = 3, references: bool = True, listing: bool = True,
                project: str = "many", extra_conf: str = "") -> Path:
    """A book of PAGES pages with ``nodes_per_page`` nodes each (uids ``Book.Page<n>.Thing<k>``).

    With ``references`` every page refers to the next page's nodes; with ``listing`` the index page
    lists every node.
    """
    root.mkdir(parents=True, exist_ok=True)
    (root / "conf.py").write_text(f'extensions = ["sphinx_rpg"]\nproject = "{project}"\n{extra_conf}\n')
    toctree = "\n".join(f"   page{n}" for n in range(PAGES))
    index = f"Book\n====\n\n.. toctree::\n\n{toctree}\n"
    if listing:
        index += "\n.. node:list::\n   :columns: name, uid\n"
    (root / "index.rst").write_text(index)
    for n in range(PAGES):
        nodes = "\n".join(f".. node:def:: Thing {n}-{k}\n   :uid: Book.Page{n}.Thing{k}\n   :type: E\n\n"
                          f"   Thing {k} of page {n}.\n" for k in range(nodes_per_page))
        page = f"Page {n}\n=======\n\n{nodes}"
        if references:
            following = (n + 1) % PAGES
            refs = " ".join(f":node:ref:`Book.Page{following}.Thing{k}`" for k in range(nodes_per_page))
            page += f"\nSee {refs}.\n"
        (root / f"page{n}.rst").write_text(page)
    return root


@pytest.fixture
def write_book() -> Callable[..., Path]:
    return _write_book


def _two_pages(root: Path, project: str, a_body: str, b_page: str) -> Path:
    """A book of two pages under ``root/book``: page ``a`` defines ``Alpha`` (uid ``Book.A``, type E) with
    ``a_body`` as its body; page ``b`` holds ``b_page`` below its title."""
    source = root / "book"
    source.mkdir()
    (source / "conf.py").write_text(f'extensions = ["sphinx_rpg"]\nproject = "{project}"\n')
    (source / "index.rst").write_text("Book\n====\n\n.. toctree::\n\n   a\n   b\n")
    (source / "a.rst").write_text(f"A\n=\n\n.. node:def:: Alpha\n   :uid: Book.A\n   :type: E\n\n   {a_body}\n")
    (source / "b.rst").write_text(f"B\n=\n\n{b_page}\n")
    return source


@pytest.fixture
def two_pages(tmp_path: Path) -> Callable[[str, str, str], Path]:
    """``two_pages(project, a_body, b_page)``: see ``_two_pages`` (in the test's own folder)."""
    return lambda project, a_body, b_page: _two_pages(tmp_path, project, a_body, b_page)


def _touch(path: Path) -> None:
    """Make the next build see ``path`` as changed, whatever the file system's timestamp grain."""
    future = time.time() + 5
    os.utime(path, (future, future))


@pytest.fixture
def touch() -> Callable[[Path], None]:
    return _touch


def _edit(path: Path, old: str, new: str) -> None:
    """Replace ``old`` with ``new`` in a source file, as a user would, later in time."""
    text = path.read_text()
    assert old in text, f"{old!r} is not in {path.name}"
    path.write_text(text.replace(old, new))
    _touch(path)


@pytest.fixture
def edit() -> Callable[[Path, str, str], None]:
    return _edit


def _warning_text(app: Any) -> str:
    """What the build warned, without the terminal's colour codes."""
    return re.sub(r"\x1b\[[0-9;]*m", "", app.warning.getvalue())


@pytest.fixture
def warning_text() -> Callable[[Any], str]:
    return _warning_text


@pytest.fixture
def build(make_app: Callable[..., Any]) -> Callable[..., Any]:
    """``build(srcdir, builder="html", **options)``: one build, then undo the app's docutils registrations
    so a later app in the same test starts clean."""
    def run(srcdir: Path, builder: str = "html", **options: Any) -> Any:
        app = make_app(builder, srcdir=srcdir, **options)
        app.build()
        app.cleanup()
        return app
    return run


@pytest.fixture
def fresh_registries() -> Iterator[None]:
    """Each build imports the test root's rule module afresh, as a new sphinx-build process would."""
    from sphinx_rpg.binding import bind

    bind.cache_clear()
    sys.modules.pop("bound_rules", None)
    yield
    bind.cache_clear()
    sys.modules.pop("bound_rules", None)


def build_fresh(srcdir: Path, rule_module: str, builder: str = "html", builddir: Path | None = None,
                **confoverrides: Any) -> Any:
    """Build ``srcdir`` once with a fresh environment, importing ``rule_module`` afresh (as a new
    sphinx-build process would) and dropping it after; the finished app, its docutils registrations
    undone (``cleanup``), for tests that only read what the build made."""
    from sphinx.testing.util import SphinxTestApp

    from sphinx_rpg.binding import bind

    bind.cache_clear()
    sys.modules.pop(rule_module, None)
    app = SphinxTestApp(builder, srcdir=srcdir, freshenv=True, builddir=builddir,
                        confoverrides=confoverrides or None, status=StringIO(), warning=StringIO())
    try:
        app.build()
    finally:
        app.cleanup()
        bind.cache_clear()
        sys.modules.pop(rule_module, None)
    return app


@pytest.fixture(scope="session")
def built(rootdir: Path, tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Any]:
    """``built(testroot, builder="html", **confoverrides)``: that test root built once (a fresh environment)
    in this test process, the finished app shared by every test that only reads what the build made (its
    pages, environment, warnings).  The same build as ``@pytest.mark.sphinx(builder, testroot=...,
    freshenv=True)`` gives a test's ``app``; a test that edits, builds again or changes the app makes its own.

    Each build imports the root's rule module afresh (as ``fresh_registries`` does) and undoes its
    docutils registrations after (``cleanup``), so the apps built before and after it are not touched."""
    apps: dict[tuple[str, str, str], Any] = {}

    def build(testroot: str, builder: str = "html", **confoverrides: Any) -> Any:
        key = (testroot, builder, repr(sorted(confoverrides.items())))
        if key not in apps:
            apps[key] = build_fresh(rootdir / f"test-{testroot}", "bound_rules", builder,
                                    tmp_path_factory.mktemp(f"built-{testroot}-{builder}"), **confoverrides)
        return apps[key]

    return build
