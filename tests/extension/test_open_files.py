"""The files kept beside the doctrees are read where they lie, one frame at a time (``sphinx_rpg.frames``),
so a build holds them open while it works; it closes every one of them however it ends."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import sphinx_rpg.previews

pytestmark = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads this process's open files")


def _open_beside(doctreedir: Path) -> list[str]:
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(str(doctreedir)):
            found.append(target)
    return found


def test_a_rebuild_that_patches_links_leaves_no_kept_file_open(build, edit, two_pages):
    source = two_pages("open files", "Alpha is first.", "See :node:ref:`Book.A`.")
    first = build(source)
    edit(source / "a.rst", ".. node:def:: Alpha", ".. node:def:: Alpha Prime")  # b.html's link is patched
    again = build(source)
    assert (Path(again.outdir) / "b.html").read_text().count("Alpha Prime") >= 1
    assert _open_beside(Path(first.doctreedir)) == []


def test_a_build_that_fails_before_its_pages_leaves_no_kept_file_open(build, edit, two_pages, monkeypatch):
    source = two_pages("open files", "Alpha is first.", "See :node:ref:`Book.A`.")
    first = build(source)

    def broken(app, builder):
        raise RuntimeError("a handler failed")

    edit(source / "a.rst", ".. node:def:: Alpha", ".. node:def:: Alpha Prime")
    monkeypatch.setattr(sphinx_rpg.previews, "write_previews", broken)
    with pytest.raises(Exception, match="a handler failed"):
        build(source)
    assert _open_beside(Path(first.doctreedir)) == []
