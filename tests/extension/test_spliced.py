"""Files of one item per node (``sphinx_rpg.spliced``): written again item by item, an item that did not
change copied from last build's file, the others made."""

from __future__ import annotations

import os
from pathlib import Path

from sphinx_rpg.spliced import write_items


def _write(path: Path, identities: list[bytes], key: str = "k", old=None) -> tuple[object, list[int]]:
    made: list[int] = []

    def make(index: int) -> str:
        made.append(index)
        return f'"{identities[index].decode()}"'

    return write_items(path, "[", "]\n", key, identities, make, old), made


def test_the_items_of_last_builds_file_are_copied_and_only_the_new_ones_made(tmp_path):
    path = tmp_path / "f.json"
    first, made = _write(path, [b"a", b"b", b"c"])
    assert path.read_text() == '["a","b","c"]\n' and made == [0, 1, 2]
    second, made = _write(path, [b"a", b"d", b"c", b"e"], old=first)
    assert path.read_text() == '["a","d","c","e"]\n' and made == [1, 3]
    third, made = _write(path, [b"e", b"a"], old=second)
    assert path.read_text() == '["e","a"]\n' and made == []


def test_a_file_changed_since_it_was_written_has_every_item_made(tmp_path):
    path = tmp_path / "f.json"
    first, _ = _write(path, [b"a", b"b"])
    path.write_text('["x","y"]\n')
    _, made = _write(path, [b"a", b"b"], old=first)
    assert made == [0, 1] and path.read_text() == '["a","b"]\n'


def test_items_made_under_another_key_are_made_again(tmp_path):
    path = tmp_path / "f.json"
    first, _ = _write(path, [b"a", b"b"], key="settings one")
    _, made = _write(path, [b"a", b"b"], key="settings two", old=first)
    assert made == [0, 1]


def test_a_file_that_would_be_written_as_it_is_keeps_its_time(tmp_path):
    path = tmp_path / "f.json"
    first, _ = _write(path, [b"a", b"b"])
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    first = first._replace(mtime_ns=1_000_000_000)
    again, made = _write(path, [b"a", b"b"], old=first)
    assert made == [] and path.stat().st_mtime_ns == 1_000_000_000 and again == first


def test_runs_of_copied_items_leave_the_layout_a_fresh_write_would(tmp_path):
    path, fresh = tmp_path / "f.json", tmp_path / "g.json"
    steps = [[b"%03d" % n for n in range(40)],
             [b"%03d" % n for n in range(40) if n != 7] + [b"new"],  # a deletion, an item at the end
             [b"new"] + [b"%03d" % n for n in range(40) if n not in (7, 20)] + [b"020"],  # moves
             [b"%03d" % n for n in range(0, 40, 2)]]  # every other item
    layout = None
    for identities in steps:
        layout, made = _write(path, identities, old=layout)
        expected, _ = _write(fresh, identities)
        assert path.read_text() == fresh.read_text()
        assert (layout.offsets, layout.lengths, layout.identities) == (expected.offsets, expected.lengths,
                                                                      expected.identities)
    assert made == []  # the last step's items all lay in the file before it
