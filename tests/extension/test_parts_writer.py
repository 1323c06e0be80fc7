"""Big catalogue files are written part by part, and only when their text changed (``files.write_parts_if_changed``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from sphinx_rpg.files import write_parts_if_changed


class Parts:
    """The parts of a text, counting how often they are asked for."""

    def __init__(self, *parts: str) -> None:
        self.parts, self.calls = parts, 0

    def __call__(self) -> Iterator[str]:
        self.calls += 1
        yield from self.parts


def test_a_new_file_is_written_from_one_pass_over_its_parts(tmp_path: Path) -> None:
    parts = Parts("{", '"a":1', "}")
    assert write_parts_if_changed(tmp_path / "nodes.json", parts) is True
    assert (tmp_path / "nodes.json").read_text(encoding="utf-8") == '{"a":1}'
    assert parts.calls == 1


def test_a_file_that_holds_the_text_already_is_not_written(tmp_path: Path) -> None:
    path = tmp_path / "nodes.json"
    path.write_text('{"a":1}', encoding="utf-8")
    before = path.stat().st_mtime_ns
    assert write_parts_if_changed(path, Parts("{", '"a":1', "}")) is False
    assert path.stat().st_mtime_ns == before


def test_a_file_whose_text_changed_is_written_again(tmp_path: Path) -> None:
    path = tmp_path / "nodes.json"
    path.write_text('{"a":1}', encoding="utf-8")
    parts = Parts("{", '"a":2', "}")
    assert write_parts_if_changed(path, parts) is True
    assert path.read_text(encoding="utf-8") == '{"a":2}'
    assert parts.calls == 1  # written and compared in one pass
    assert [file.name for file in tmp_path.iterdir()] == ["nodes.json"]  # no temporary file left


def test_a_file_left_as_it_was_leaves_no_temporary_file_beside_it(tmp_path: Path) -> None:
    path = tmp_path / "nodes.json"
    path.write_text('{"a":1}', encoding="utf-8")
    parts = Parts("{", '"a":1', "}")
    assert write_parts_if_changed(path, parts) is False
    assert parts.calls == 1
    assert [file.name for file in tmp_path.iterdir()] == ["nodes.json"]
