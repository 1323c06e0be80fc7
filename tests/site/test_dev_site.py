"""``python3 dev.py site`` builds the two editions side by side (the player's at a lower priority), the
supplements after the designer's."""

from __future__ import annotations

import threading
from types import ModuleType

import pytest

from tests.site.test_dev import dev  # noqa: F401  (the fixture: dev.py as a module)

#: Longer than any wait here takes when the editions run side by side; reached only by a failing test.
PATIENCE = 60


def test_the_player_edition_builds_beside_the_designer_edition_not_after_it(dev: ModuleType,  # noqa: F811
                                                                           monkeypatch: pytest.MonkeyPatch):
    player_started = threading.Event()
    built: list[str] = []
    niced: list[str] = []  # the player edition yields to the longer chain: the designer's, then the supplements
    lock = threading.Lock()

    def run(*args: str, env: dict[str, str] | None = None, log: list[str] | None = None, nice: bool = False,
            bytecode: bool = False) -> int:
        output = args[-1]
        if "compileall" in args:  # the checkout's own bytecode, before any build (see the test below)
            return 0
        if "rpg_edition=player" in args:
            player_started.set()
        elif output == "docs/_build/html":  # the designer edition ends only once the player's has begun
            assert player_started.wait(PATIENCE), "the designer edition was built alone"
        with lock:
            built.append(output)
            if nice:
                niced.append(output)
        return 0

    monkeypatch.setattr(dev, "run", run)
    assert dev.site() == 0
    supplements = [output for output in built if "/supplements/" in output]
    assert supplements and set(built) == {"docs/_build/html", "docs/_build/player", *supplements}
    assert all(built.index("docs/_build/html") < built.index(output) for output in supplements)
    assert niced == ["docs/_build/player"]


def test_a_failed_designer_edition_builds_no_supplement_and_fails_the_site(dev: ModuleType,  # noqa: F811
                                                                         monkeypatch: pytest.MonkeyPatch):
    built: list[str] = []
    monkeypatch.setattr(dev, "run", lambda *args, **_: 0 if "compileall" in args
                        else built.append(args[-1]) or int(args[-1] == "docs/_build/html"))
    assert dev.site() == 1
    assert sorted(built) == ["docs/_build/html", "docs/_build/player"]


def test_the_editions_write_the_bytecode_of_what_they_import_once_the_checkout_is_compiled_by_hash(
        dev: ModuleType, monkeypatch: pytest.MonkeyPatch):  # noqa: F811
    """The site's .venv comes without bytecode (compiling every installed module costs more than the
    builds' imports): the editions write it, after the checkout's own modules were compiled checked by
    hash, so no module of the checkout gets a bytecode checked by its time stamp; the supplements, which
    import a module of their own, write none."""
    calls: list[tuple[str, bool]] = []
    lock = threading.Lock()

    def run(*args: str, bytecode: bool = False, **_: object) -> int:
        with lock:
            calls.append(("compileall --invalidation-mode checked-hash" if "compileall" in args
                          and args[args.index("--invalidation-mode") + 1] == "checked-hash" else args[-1], bytecode))
        return 0

    monkeypatch.setattr(dev, "run", run)
    assert dev.site() == 0
    assert calls[0] == ("compileall --invalidation-mode checked-hash", False)
    supplements = [call for call in calls if "/supplements/" in call[0]]
    assert set(calls[1:]) - set(supplements) == {("docs/_build/html", True), ("docs/_build/player", True)}
    assert supplements and not any(bytecode for _, bytecode in supplements)
