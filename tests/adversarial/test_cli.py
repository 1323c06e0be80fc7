"""Careless commands: every error is one line (argparse's too), output survives a closed pipe or a full
disk, control characters are escaped, empty values are refused, and ``rpg export`` never destroys a
file it did not write."""

from __future__ import annotations

import errno
import json
import os

import pytest

from sphinx_rpg import cli
from tests.adversarial.harness import forget_modules, write_book


def run(argv, capsys):
    try:
        status = cli.main(argv)
    except SystemExit as exit_:
        status = exit_.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def assert_one_line_error(err: str) -> None:
    assert err.endswith("\n") and err.count("\n") == 1, repr(err)
    assert "Traceback" not in err and "usage:" not in err
    assert not any(ord(c) < 32 and c != "\n" or 0x7f <= ord(c) <= 0x9f for c in err), repr(err)


USAGE_ERRORS = [
    ("no-command", []),
    ("unknown-command", ["nosuch"]),
    ("roll-without-notation", ["roll"]),
    ("odds-without-notation", ["odds"]),
    ("seed-not-a-number", ["roll", "2d6", "--seed", "x"]),
    ("dc-not-a-number", ["roll", "2d6", "--dc", "hard"]),
    ("unknown-option", ["roll", "2d6", "--bogus"]),
    ("option-without-value", ["odds", "3d6", "--dc"]),
    ("export-without-folder", ["export"]),
    ("check-without-folder", ["check"]),
]


@pytest.mark.parametrize("name, argv", USAGE_ERRORS, ids=[c[0] for c in USAGE_ERRORS])
def test_usage_errors_are_one_line(capsys, name, argv):
    status, out, err = run(argv, capsys)
    assert status == cli.EXIT_ERROR and out == ""
    assert_one_line_error(err)


@pytest.mark.parametrize("argv", [
    ["roll", "-1d6", "--seed", "3"], ["odds", "-(1d8+2)+10", "--dc", "1-3"], ["odds", "-d4"], ["roll", "--", "-1d6"],
])
def test_notation_starting_with_a_minus_needs_no_double_dash(capsys, argv):
    status, out, err = run(argv, capsys)
    assert status == cli.EXIT_OK and err == "" and out


EMPTY_VALUES = [
    ("empty-dc", ["odds", "3d6", "--dc", ""]),
    ("empty-under", ["odds", "3d6", "--under", ""]),
    ("blank-dc", ["odds", "3d6", "--dc", "   "]),
    ("empty-system-roll", ["roll", "2d6", "--system", ""]),
    ("empty-system-odds", ["odds", "3d6", "--system", ""]),
    ("empty-notation", ["roll", ""]),
    ("blank-notation", ["odds", " "]),
    ("empty-output", ["export", "docs", "-o", ""]),
    ("empty-folder", ["check", ""]),
]


@pytest.mark.parametrize("name, argv", EMPTY_VALUES, ids=[c[0] for c in EMPTY_VALUES])
def test_empty_option_values_are_refused(capsys, name, argv):
    status, out, err = run(argv, capsys)
    assert status == cli.EXIT_ERROR and out == "" and "empty value" in err
    assert_one_line_error(err)


CONTROL_CHARACTERS = [
    ("colour-escape", ["roll", "2d6\x1b[31m"]),
    ("bell", ["odds", "3d6\x07"]),
    ("title-escape", ["roll", "\x1b]0;pwned\x07"]),
    ("escape-in-range", ["odds", "3d6", "--dc", "1-\x1b[2J"]),
    ("escape-in-system", ["roll", "2d6", "--system", "nem\x1bron"]),
    ("newline-injection", ["roll", "2d6\nrpg: all good"]),
    ("c1-control", ["odds", "3d6\x9b31m"]),
]


@pytest.mark.parametrize("name, argv", CONTROL_CHARACTERS, ids=[c[0] for c in CONTROL_CHARACTERS])
def test_control_characters_are_escaped_in_errors(capsys, name, argv):
    status, out, err = run(argv, capsys)
    assert status == cli.EXIT_ERROR and out == ""
    assert_one_line_error(err)


class _Closed:
    """A stdout whose reader went away (``| head -1``) or whose disk is full."""

    def __init__(self, error: OSError) -> None:
        self.error = error

    def write(self, text: str) -> int:
        raise self.error

    def flush(self) -> None:
        raise self.error

    def fileno(self) -> int:
        raise OSError(errno.EBADF, "no descriptor")


def test_a_closed_pipe_ends_quietly(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdout", _Closed(BrokenPipeError(errno.EPIPE, "Broken pipe")))
    status = cli.main(["odds", "3d6"])
    assert status == cli.EXIT_OK and capsys.readouterr().err == ""


def test_a_full_disk_is_one_line_on_stderr(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdout", _Closed(OSError(errno.ENOSPC, "No space left on device")))
    status = cli.main(["odds", "3d6"])
    err = capsys.readouterr().err
    assert status == cli.EXIT_ERROR and "No space left on device" in err
    assert_one_line_error(err)


BROKEN_CONFS = [
    ("raises", "extensions = ['sphinx_rpg']\n1 / 0\n", "ZeroDivisionError"),
    ("exits", "import sys\nextensions = ['sphinx_rpg']\nsys.exit(3)\n", "sys.exit"),
    ("syntax-error", "extensions = [\n", "syntax error"),
    ("multi-line-error", "raise ValueError('one\\ntwo\\nthree')\n", "three"),
]


@pytest.mark.parametrize("name, conf, fragment", BROKEN_CONFS, ids=[c[0] for c in BROKEN_CONFS])
def test_check_on_a_broken_conf_is_one_line(tmp_path, capsys, name, conf, fragment):
    (tmp_path / "conf.py").write_text(conf)
    (tmp_path / "index.rst").write_text("Index\n=====\n")
    status, out, err = run(["check", str(tmp_path)], capsys)
    assert status == cli.EXIT_ERROR and fragment in err
    assert_one_line_error(err)


@pytest.fixture
def book(tmp_path):
    root = write_book(tmp_path / "book", {"index": ".. node:def:: Energy\n   :uid: Adv.Trait.Energy\n"})
    yield root
    forget_modules(root)


NOT_EXPORTS = [
    ("conf-py", "conf.py", None),
    ("other-json", "other.json", '{"a": 1}\n'),
    ("empty-file", "empty.json", ""),
    ("json-with-nodes-key", "fake.json", '{"nodes": []}\n'),
    ("binary", "blob.bin", "\x00\x01\x02"),
]


@pytest.mark.parametrize("name, filename, content", NOT_EXPORTS, ids=[c[0] for c in NOT_EXPORTS])
def test_export_refuses_to_replace_a_file_it_did_not_write(book, capsys, name, filename, content):
    target = book / filename
    if content is not None:
        target.write_text(content)
    before = target.read_bytes()
    status, out, err = run(["export", str(book), "-o", str(target)], capsys)
    assert status == cli.EXIT_ERROR and "--force" in err and target.read_bytes() == before
    assert_one_line_error(err)
    status, _, _ = run(["export", str(book), "-o", str(target), "--force"], capsys)
    assert status == cli.EXIT_OK and json.loads(target.read_text())["nodes"][0]["uid"] == "Adv.Trait.Energy"


def test_export_replaces_an_earlier_export_and_leaves_no_temporary_file(book, tmp_path, capsys):
    target = tmp_path / "nodes.json"
    assert run(["export", str(book), "-o", str(target)], capsys)[0] == cli.EXIT_OK
    assert run(["export", str(book), "-o", str(target)], capsys)[0] == cli.EXIT_OK
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book", "nodes.json"]
    assert oct(target.stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_export_to_a_directory_is_refused(book, tmp_path, capsys):
    status, _, err = run(["export", str(book), "-o", str(tmp_path)], capsys)
    assert status == cli.EXIT_ERROR and "is a directory" in err


def test_export_below_a_file_is_one_line(book, tmp_path, capsys):
    (tmp_path / "afile").write_text("not a folder")
    status, _, err = run(["export", str(book), "-o", str(tmp_path / "afile" / "such" / "n.json")], capsys)
    assert status == cli.EXIT_ERROR
    assert_one_line_error(err)


def test_an_export_that_fails_while_writing_keeps_the_old_file(book, tmp_path, capsys, monkeypatch):
    target = tmp_path / "nodes.json"
    assert run(["export", str(book), "-o", str(target)], capsys)[0] == cli.EXIT_OK
    before = target.read_bytes()

    real_fsync, calls = os.fsync, []

    def counted(descriptor):
        calls.append(descriptor)
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", counted)
    assert run(["export", str(book), "-o", str(target)], capsys)[0] == cli.EXIT_OK
    last = len(calls)  # the copy to the target is the export's last file written
    calls.clear()

    def full_disk(descriptor):
        calls.append(descriptor)
        if len(calls) == last:  # the build's own files are written; the copy to the target is not
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", full_disk)
    status, _, err = run(["export", str(book), "-o", str(target)], capsys)
    assert status == cli.EXIT_ERROR and "No space left on device" in err
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book", "nodes.json"]
