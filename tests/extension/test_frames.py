"""Files of keyed frames (``sphinx_rpg.frames``): what the catalogue's pieces and the pages' link counts
are kept in between builds."""

from __future__ import annotations

from pathlib import Path

import pytest

from sphinx_rpg.frames import Frames, append_frames, filter_frames, write_frames

MAGIC = b"test frames\n"


def _written(path: Path, frames: dict[bytes, bytes], header: object = "one") -> Frames:
    write_frames(path, MAGIC, header, frames.items())
    return Frames(path, MAGIC, header)


def test_each_frame_is_read_back_by_its_key(tmp_path):
    kept = _written(tmp_path / "f", {b"a": b"first", b"page/b": b"", b"c": bytes(range(256)) * 9})
    assert sorted(kept.spans) == [b"a", b"c", b"page/b"]
    assert [kept.value(key) for key in (b"a", b"page/b", b"c")] == [b"first", b"", bytes(range(256)) * 9]
    with pytest.raises(KeyError):
        kept.value(b"missing")
    kept.close()


def test_kept_frames_are_copied_as_they_lie_beside_new_ones(tmp_path):
    path = tmp_path / "f"
    old = _written(path, {b"a": b"1", b"b": b"22", b"c": b"333", b"d": b"4444"})
    # b and c lie one after the other (one run); d is dropped; e is new; a is kept after it
    write_frames(path, MAGIC, "one", [(b"b", None), (b"c", None), (b"e", b"55555"), (b"a", None)], old)
    assert old.spans == {}  # closed before its file was replaced
    again = Frames(path, MAGIC, "one")
    assert {key: again.value(key) for key in again.spans} == {b"b": b"22", b"c": b"333", b"e": b"55555", b"a": b"1"}
    again.close()


def test_a_file_written_under_another_header_holds_no_frame(tmp_path):
    _written(tmp_path / "f", {b"a": b"1"}, header=("version", 1)).close()
    assert len(Frames(tmp_path / "f", MAGIC, ("version", 2))) == 0


@pytest.mark.parametrize("damage", [lambda data: data[:-1], lambda data: b"not frames" + data,
                                    lambda data: data + b"\x00"],
                         ids=["cut short", "not a frames file", "a frame's head cut short"])
def test_a_damaged_file_holds_no_frame(tmp_path, damage):
    path = tmp_path / "f"
    _written(path, {b"a": b"1", b"b": b"2"}).close()
    path.write_bytes(damage(path.read_bytes()))
    assert len(Frames(path, MAGIC, "one")) == 0


def test_a_missing_file_holds_no_frame(tmp_path):
    assert len(Frames(tmp_path / "nothing", MAGIC, "one")) == 0


def test_a_key_longer_than_its_length_field_is_refused_and_the_old_file_stays(tmp_path):
    path = tmp_path / "f"
    _written(path, {b"a": b"1"}).close()
    with pytest.raises(ValueError, match="65,535 bytes"):
        write_frames(path, MAGIC, "one", [(b"k" * 70_000, b"v")])
    assert Frames(path, MAGIC, "one").value(b"a") == b"1"


def test_a_filtered_file_keeps_the_accepted_frames_and_adds_the_new_ones(tmp_path):
    from sphinx_rpg.frames import filter_frames, header_of

    path = tmp_path / "f"
    _written(path, {b"a": b"1", b"b": b"22", b"c": b"333"}).close()
    written = filter_frames(path, MAGIC, "two", lambda key: key != b"b", [(b"d", b"4444"), (b"a", b"not kept")])
    assert written == {b"a", b"c", b"d"} and header_of(path, MAGIC) == "two"
    again = Frames(path, MAGIC, "two")
    assert {key: again.value(key) for key in again.spans} == {b"a": b"1", b"c": b"333", b"d": b"4444"}
    again.close()


def test_a_filtered_damaged_file_keeps_the_frames_before_the_damage(tmp_path):
    from sphinx_rpg.frames import filter_frames

    path = tmp_path / "f"
    kept = _written(path, {b"a": b"1", b"b": b"22"})
    b_ends = kept.spans[b"b"][2]
    kept.close()
    path.write_bytes(path.read_bytes()[:b_ends - 1])  # b's value cut short (and the table gone)
    assert filter_frames(path, MAGIC, "one", lambda key: True, [(b"c", b"3")]) == {b"a", b"c"}
    again = Frames(path, MAGIC, "one")
    assert {key: again.value(key) for key in again.spans} == {b"a": b"1", b"c": b"3"}
    again.close()


def test_a_file_whose_table_is_lost_is_read_frame_by_frame(tmp_path):
    """Opening reads the table at the file's end; when the place of the table is lost, every frame is
    still found, one after the other."""
    path = tmp_path / "f"
    kept = _written(path, {b"a": b"1", b"b": b"22"})
    first_frame = kept.spans[b"a"][0]
    kept.close()
    data = path.read_bytes()
    path.write_bytes(data[:first_frame - 8] + bytes(8) + data[first_frame:])
    again = Frames(path, MAGIC, "one")
    assert {key: again.value(key) for key in again.spans} == {b"a": b"1", b"b": b"22"}
    again.close()


def test_frames_added_in_place_are_read_back_and_the_dropped_ones_are_gone(tmp_path):
    path = tmp_path / "f"
    old = _written(path, {b"a": b"1" * 100, b"b": b"2" * 100, b"c": b"3" * 100})
    size = path.stat().st_size
    assert append_frames(path, old, [b"a", b"c", b"d"], [(b"d", b"44"), (b"x", b"not live")])
    old.close()
    assert path.stat().st_size < size + 100  # the new frame and table, not a copy of the file
    again = Frames(path, MAGIC, "one")
    assert {key: again.value(key) for key in again.spans} == {b"a": b"1" * 100, b"c": b"3" * 100, b"d": b"44"}
    again.close()


def test_a_file_mostly_of_dead_frames_is_left_to_be_written_whole(tmp_path):
    path = tmp_path / "f"
    old = _written(path, {b"a": b"1" * 100, b"b": b"2" * 100, b"c": b"3" * 100})
    before = path.read_bytes()
    assert not append_frames(path, old, [b"a"], [])  # 200 dead bytes against 100 live
    assert path.read_bytes() == before
    old.close()


def test_a_file_cut_while_frames_were_added_in_place_holds_no_frame(tmp_path):
    """Stopped after the new frames, before the table's place was changed: no mix of old and new."""
    path = tmp_path / "f"
    old = _written(path, {b"a": b"1" * 100, b"b": b"2" * 100})
    before = path.read_bytes()
    assert append_frames(path, old, [b"a", b"b", b"c"], [(b"c", b"3" * 100)])
    old.close()
    after = path.read_bytes()
    start = len(MAGIC) + len(b"frames 2\n") + 4 + int.from_bytes(after[len(MAGIC) + 9:len(MAGIC) + 13], "big")
    path.write_bytes(after[:start] + before[start:start + 8] + after[start + 8:])  # the old table's place
    assert Frames(path, MAGIC, "one").spans == {}


def test_a_file_with_frames_added_in_place_is_filtered_without_its_dead_frames(tmp_path):
    path = tmp_path / "f"
    old = _written(path, {b"a": b"1" * 100, b"b": b"22"})
    assert append_frames(path, old, [b"a", b"c"], [(b"c", b"333")])
    old.close()
    assert filter_frames(path, MAGIC, "one", lambda key: True, []) == {b"a", b"c"}
    again = Frames(path, MAGIC, "one")
    assert {key: again.value(key) for key in again.spans} == {b"a": b"1" * 100, b"c": b"333"}
    again.close()
