"""``rpg new DIR``: a starter rulebook with its own engine package, ready to build and test.

The templates live in ``sphinx_rpg/starter/`` (package data; the manual includes them verbatim).  A
template file ends in ``_t``; a leading ``dot-`` becomes ``.``, the folder ``package`` becomes the
game's package; ``{{game}}``, ``{{package}}``, ``{{System}}`` and the class name ``GameError`` are
replaced (the last so that Python templates stay valid Python), nothing is evaluated.
Nothing is ever overwritten: a directory that holds anything is refused.
"""

from __future__ import annotations

import keyword
import re
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

STARTER = Path(__file__).parent / "starter"
#: Package names a game must not take: the engine's, the extension's, and the project's own folders.
RESERVED = frozenset({"rules", "sphinx_rpg", "docs", "tests", "test", "wheels", "conftest"})
_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+<>:.])\1{2,}$")
#: Characters a game's name may not hold: each would break a file the starter writes (a reST title, a
#: Python string, a TOML string) or show as something else than it is.
_FORBIDDEN = "\"\\`*{}"
#: Unicode categories refused in a game's name: control, format (bidi overrides, zero-width), surrogate,
#: private-use and unassigned characters, and the line and paragraph separators (docutils breaks lines there).
_FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


class NewProjectError(ValueError):
    """A target directory or a game/package name that ``rpg new`` cannot use; the message says why."""


@dataclass(frozen=True)
class Starter:
    """What the templates are filled with."""

    game: str
    package: str

    @property
    def system(self) -> str:
        """The uid prefix: the package name in CamelCase (``my_game`` -> ``MyGame``)."""
        return "".join(part[:1].upper() + part[1:] for part in self.package.split("_") if part)

    def fill(self, text: str) -> str:
        return (text.replace("{{game}}", self.game).replace("{{package}}", self.package)
                .replace("{{System}}", self.system).replace("GameError", f"{self.system}Error"))


def package_name(game: str) -> str:
    """A valid, unclaimed Python package name for a game: ``"My Game"`` -> ``my_game``."""
    name = re.sub(r"[^0-9a-zA-Z]+", "_", game.strip().lower()).strip("_")
    if not name:
        name = "game"
    if name[0].isdigit():
        name = f"game_{name}"
    if name in RESERVED or keyword.iskeyword(name) or name in sys.stdlib_module_names:
        name = f"{name}_game"
    return name


def check_package(name: str) -> str:
    """``name`` if a game may use it as its package name, else a NewProjectError saying why."""
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", name) or keyword.iskeyword(name):
        raise NewProjectError(f"package name {name!r} is not a lower-case Python identifier")
    if name in RESERVED:
        taken = "the rules engine" if name == "rules" else "reserved"
        raise NewProjectError(f"package name {name!r} is taken ({taken}); pick another")
    if name in sys.stdlib_module_names:
        raise NewProjectError(f"package name {name!r} would shadow the standard library module of that name")
    return name


def check_game_name(title: str) -> str:
    """``title`` if the starter's files can hold it as it is, else a NewProjectError naming the character."""
    if not title:
        raise NewProjectError("the game's name is empty")
    for character in title:
        category = unicodedata.category(character)
        if category in _FORBIDDEN_CATEGORIES:
            name = unicodedata.name(character, "a control character")
            raise NewProjectError(f"game name {title!r} holds U+{ord(character):04X} ({name.lower()}, category "
                                  f"{category}): give a name of printable characters")
        if character in _FORBIDDEN:
            raise NewProjectError(f"game name {title!r} holds {character!r}, which a page cannot show as is "
                                  "(quote, backslash, backtick, asterisk and braces are refused)")
    return title


def _fix_underlines(text: str) -> str:
    """Stretch reST heading underlines to the filled-in title (a long game name needs a long line)."""
    lines = text.split("\n")
    for number in range(1, len(lines)):
        title, line = lines[number - 1], lines[number]
        if title.strip() and _UNDERLINE.match(line) and len(line) < len(title):
            lines[number] = line[0] * len(title)
    return "\n".join(lines)


def target_path(template: PurePosixPath, package: str) -> PurePosixPath:
    parts = [package if part == "package" and index == 0 else part
             for index, part in enumerate(template.parts)]
    parts = ["." + part[len("dot-"):] if part.startswith("dot-") else part for part in parts]
    parts[-1] = parts[-1].removesuffix("_t")
    return PurePosixPath(*parts)


def templates() -> list[PurePosixPath]:
    """Every template file, relative to the starter folder, in a stable order."""
    return sorted(PurePosixPath(path.relative_to(STARTER).as_posix())
                  for path in STARTER.rglob("*_t") if path.is_file())


def plan(starter: Starter) -> dict[PurePosixPath, str]:
    """Target path -> filled-in text, for every file of the starter project."""
    files = {}
    for template in templates():
        text = starter.fill((STARTER / template).read_text(encoding="utf-8"))
        target = target_path(template, starter.package)
        files[target] = _fix_underlines(text) if target.suffix == ".rst" else text
    return files


def create(directory: Path, game: str | None = None, package: str | None = None) -> list[Path]:
    """Write the starter project into ``directory`` (absent or empty); returns the files written."""
    directory = Path(directory)
    if directory.exists() and not directory.is_dir():
        raise NewProjectError(f"{directory} exists and is not a directory")
    if directory.is_dir() and any(directory.iterdir()):
        raise NewProjectError(f"{directory} is not empty; rpg new only writes into a new or empty directory")
    title = check_game_name((game or directory.resolve().name.replace("_", " ").replace("-", " ").title()).strip())
    starter = Starter(title, check_package(package) if package else package_name(title))
    files = plan(starter)
    written = []
    directory.mkdir(parents=True, exist_ok=True)
    for relative, text in files.items():
        path = directory / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "x", encoding="utf-8") as handle:  # "x": never replace a file
            handle.write(text)
        written.append(path)
    return written
