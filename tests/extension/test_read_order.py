"""``rpg_read_first``: the pages a build reads before the others, and nothing else changes."""

from __future__ import annotations

from pathlib import Path

import pytest

from sphinx_rpg.read_order import read_first

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_pages_named_first_come_first_in_the_patterns_order_the_rest_in_theirs():
    names = ["a/one", "b/costly", "c/two", "d/costly", "e/three"]
    assert read_first(names, ["d/*", "*costly"]) == ["d/costly", "b/costly", "a/one", "c/two", "e/three"]
    assert read_first(names, []) == names
    assert read_first(names, ["nothing/*"]) == names


def _book(tmp_path: Path, **conf: object) -> Path:
    src = tmp_path / "book"
    src.mkdir(parents=True)
    settings = "".join(f"{name} = {value!r}\n" for name, value in conf.items())
    (src / "conf.py").write_text(f'extensions = ["sphinx_rpg"]\n{settings}')
    (src / "index.rst").write_text("Book\n====\n\n.. toctree::\n\n   alpha\n   beta\n   gamma\n")
    for name in ("alpha", "beta", "gamma"):
        (src / f"{name}.rst").write_text(f"{name.title()}\n=====\n\nThe page {name}.\n")
    return src


def _read_order_and_pages(make_app, src: Path) -> tuple[list[str], dict[str, str]]:
    app = make_app("html", srcdir=src)
    order: list[str] = []
    app.connect("source-read", lambda app, docname, source: order.append(docname))
    app.build()
    app.cleanup()
    out = Path(app.outdir)
    pages = {name: (out / f"{name}.html").read_text() for name in ("index", "alpha", "beta", "gamma")}
    return order, pages


def test_a_build_reads_the_pages_named_in_rpg_read_first_before_the_others_and_writes_the_same_pages(
        make_app, tmp_path):
    plain_order, plain_pages = _read_order_and_pages(make_app, _book(tmp_path / "plain"))
    first_order, first_pages = _read_order_and_pages(make_app, _book(tmp_path / "first",
                                                                     rpg_read_first=["gamma"]))
    assert plain_order == ["alpha", "beta", "gamma", "index"]
    assert first_order == ["gamma", "alpha", "beta", "index"]
    assert first_pages == plain_pages
