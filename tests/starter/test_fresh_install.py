"""From nothing to a tested rulebook, as a new user: install the wheel, ``rpg new``, build, pytest; then
the manual's chapter "Your own game" followed step by step, and the starter's own CI from a fresh clone.

One fresh virtual environment, no access to this checkout: sphinx-rpg comes from its built wheel (put
in the starter's ``wheels/`` folder, as its README says), its dependencies from offline wheels.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import venv
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import clean_environment

ROOT = Path(__file__).resolve().parents[2]
CHAPTER = ROOT / "docs" / "manual" / "own-game.rst"


def run(*command: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    # bytecode is written, as on a user's machine: each later command imports Sphinx without compiling it
    environment = {key: value for key, value in clean_environment().items() if key != "PYTHONDONTWRITEBYTECODE"}
    return subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True, text=True, timeout=600,
                          env=environment)


@dataclass(frozen=True)
class User:
    """A designer's virtual environment with sphinx-rpg installed, and the starter it made."""

    venv: Path
    project: Path

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    def tool(self, name: str) -> Path:
        return self.venv / "bin" / name


def install(python: Path, *arguments: str | Path, cwd: Path) -> None:
    """``pip install`` into the user's venv, offline (pip is lent by this venv, through ``pip --python``)."""
    done = run(sys.executable, "-m", "pip", "--isolated", "--python", python, "install", "--quiet", "--no-compile",
               "--no-index", *arguments, cwd=cwd)
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def user(tmp_path_factory: pytest.TempPathFactory, dists, offline_wheels) -> User:
    """An empty venv; the wheel sphinx-rpg ships, installed by pip with its dependencies resolved; ``rpg new``;
    then the starter's requirements.txt (the ``designer`` extra) installed as its README says."""
    home = tmp_path_factory.mktemp("user")
    folder = home / "venv"
    venv.EnvBuilder(with_pip=False).create(folder)
    python = folder / "bin" / "python"
    install(python, "--find-links", offline_wheels, dists.wheel, cwd=home)
    where = run(python, "-c", "import sphinx_rpg, rules; print(sphinx_rpg.__file__); print(rules.__file__)", cwd=home)
    assert all(Path(line).is_relative_to(folder) for line in where.stdout.split()), where.stdout

    project = home / "tower"
    created = run(folder / "bin" / "rpg", "new", project, "--name", "Tower Climbers", cwd=home)
    assert created.returncode == 0, created.stderr
    shutil.copy(dists.wheel, project / "wheels")
    install(python, "--find-links", offline_wheels, "--find-links", project / "wheels", "-r", "requirements.txt",
            cwd=project)
    return User(folder, project)


def test_a_new_project_builds_with_warnings_as_errors_and_its_examples_pass(user, tmp_path):
    project = tmp_path / "tower"
    shutil.copytree(user.project, project)
    build = run(user.tool("sphinx-build"), "-W", "--keep-going", "-q", "-b", "html", "docs", "docs/_build/html",
                cwd=project)
    assert build.returncode == 0, build.stderr
    assert (project / "docs" / "_build" / "html" / "checks.html").is_file()

    tests = run(user.tool("pytest"), "-q", cwd=project)
    assert tests.returncode == 0, tests.stdout[-3000:]
    assert "13 passed" in tests.stdout
    one_page = run(user.tool("pytest"), "-q", "docs/checks.rst", cwd=project)  # no -p no:doctest needed
    assert one_page.returncode == 0 and "3 passed" in one_page.stdout, one_page.stdout[-3000:]


#: The name of every distribution the user's environment holds, one a line (what ``pip list`` names, read
#: by the environment's own Python from the same metadata, without pip's second and a half of start-up).
LIST_DISTRIBUTIONS = "import importlib.metadata as m; print('\\n'.join(d.metadata['Name'] for d in m.distributions()))"


def test_the_starter_installs_no_tool_of_sphinx_rpgs_own_development(user):
    listed = run(user.python, "-c", LIST_DISTRIBUTIONS, cwd=user.project)
    assert listed.returncode == 0, listed.stderr
    names = {re.sub(r"[-_.]+", "-", line).lower() for line in listed.stdout.split()}
    assert {"myst-parser", "sybil", "pytest", "sphinx-autobuild"} <= names
    assert not names & {"playwright", "mypy", "ruff", "sphinx-needs", "hypothesis", "icepool", "furo", "matplotlib",
                        "pydata-sphinx-theme", "pytest-xdist"}


# -- the manual's chapter, step by step ------------------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """One block of the chapter's "Growing the game" section: a file to write, to extend, or commands."""

    caption: str
    text: str


def chapter_steps() -> list[Step]:
    """The captioned blocks of the section, in the chapter's order, with their text dedented."""
    text = CHAPTER.read_text(encoding="utf-8")
    section = text[text.index("Growing the game, step by step"):text.index("More of the same")]
    steps = []
    pattern = re.compile(r"^\.\. code-block:: \S+\n   :caption: (?P<caption>.+)\n\n(?P<body>(?:   .*\n|\n)+)", re.M)
    for match in pattern.finditer(section):
        body = "\n".join(line[3:] for line in match.group("body").rstrip("\n").split("\n"))
        steps.append(Step(match.group("caption"), body + "\n"))
    return steps


def apply(step: Step, project: Path, user: User) -> None:
    """Do what a block says, as a designer would: write a new file, add at the end, add to the toctree, run."""
    if step.caption == "in the project's folder":
        for line in step.text.splitlines():
            command = shlex.split(line.removeprefix("$ "))
            done = run(user.tool(command[0]), *command[1:], cwd=project)
            assert done.returncode == 0, f"{line}: {done.stdout[-2000:]}{done.stderr[-2000:]}"
        return
    name, _, how = step.caption.partition(" (")
    path = project / name
    if how == "new)":
        assert not path.exists(), path
        path.write_text(step.text, encoding="utf-8")
    elif how == "add at the end)":
        path.write_text(path.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + step.text, encoding="utf-8")
    elif how == "add to the toctree)":
        lines = path.read_text(encoding="utf-8").split("\n")
        last = lines.index(".. toctree::")
        for number in range(last + 1, len(lines)):  # the directive's body: indented lines and blank ones
            if lines[number].strip() and not lines[number].startswith("   "):
                break
            if lines[number].strip() and not lines[number].lstrip().startswith(":"):
                last = number
        lines[last + 1:last + 1] = [f"   {entry}" for entry in step.text.split()]
        path.write_text("\n".join(lines), encoding="utf-8")
    else:
        pytest.fail(f"the test does not know how to follow a block captioned {step.caption!r}")


def test_the_chapter_has_a_step_for_each_kind_of_thing_a_designer_adds():
    blocks = "".join(step.text for step in chapter_steps())
    for directive in ("{node:ref}", ":::{node:example}", ":chart:", ":vary:", "node:sheet::", "node:statblock::",
                      "@REGISTRY.statblock", "node:calculator::", "rpg export", "rpg_releases", "node:changes::"):
        assert directive in blocks, directive


def test_following_the_chapter_keeps_the_starters_ci_green_in_a_fresh_clone(user, tmp_path):
    project = tmp_path / "tower"
    shutil.copytree(user.project, project)
    for step in chapter_steps():
        apply(step, project, user)
    assert (project / "docs" / "_releases" / "v0.1" / "nodes.json").is_file()

    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed")
    identity = ["-c", "user.name=Designer", "-c", "user.email=designer@example.invalid", "-c", "init.defaultBranch=main"]
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "the chapter, followed"]):
        done = run(git, *identity, *command, cwd=project)
        assert done.returncode == 0, done.stderr
    ignored = run(git, "status", "--porcelain", "--ignored", cwd=project).stdout
    assert "docs/_build/" in ignored or "_build" not in ignored  # build output never committed
    clone = tmp_path / "clone"
    assert run(git, "clone", "-q", project, clone, cwd=tmp_path).returncode == 0
    assert (clone / "wheels" / next(project.glob("wheels/*.whl")).name).is_file()  # the wheel is committed

    ci = run(user.python, "ci.py", cwd=clone)
    assert ci.returncode == 0, f"{ci.stdout[-4000:]}\n{ci.stderr[-4000:]}"
    assert ci.stdout.count("build succeeded") == 2 and re.search(r"\d+ passed", ci.stdout), ci.stdout[-3000:]
    site = clone / "docs" / "_build"
    assert "rpg-statblock" in (site / "html" / "creatures.html").read_text()
    assert "rpg-sheet" in (site / "player" / "sheet.html").read_text()
    assert (site / "html" / "lore.html").is_file() and ":::" not in (site / "html" / "lore.html").read_text()
