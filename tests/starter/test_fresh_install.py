"""From nothing to a tested rulebook, as a new user: install the wheel, ``rpg new``, build, pytest.

One fresh virtual environment, no access to this checkout: sphinx-rpg comes from its built wheel (put
in the starter's ``wheels/`` folder, as its README says), its dependencies from offline wheels.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from .conftest import clean_environment


def run(*command: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    # bytecode is written, as on a user's machine: each later command imports Sphinx without compiling it
    environment = {key: value for key, value in clean_environment().items() if key != "PYTHONDONTWRITEBYTECODE"}
    return subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True, text=True, timeout=600,
                          env=environment)


@pytest.fixture(scope="module")
def fresh_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty virtual environment (pip is lent by this one, through ``pip --python``)."""
    folder = tmp_path_factory.mktemp("user") / "venv"
    venv.EnvBuilder(with_pip=False).create(folder)
    return folder


def test_a_new_project_builds_with_warnings_as_errors_and_its_examples_pass(fresh_venv, dists, offline_wheels,
                                                                            tmp_path):
    python, scripts = fresh_venv / "bin" / "python", fresh_venv / "bin"
    project = tmp_path / "tower"
    # the wheel sphinx-rpg ships, installed by pip with its dependencies resolved
    install = run(sys.executable, "-m", "pip", "--isolated", "--python", python, "install", "--quiet",
                  "--no-compile", "--no-index", "--find-links", offline_wheels, dists.wheel, cwd=tmp_path)
    assert install.returncode == 0, install.stderr
    where = run(python, "-c", "import sphinx_rpg, rules; print(sphinx_rpg.__file__); print(rules.__file__)",
                cwd=tmp_path)
    assert all(Path(line).is_relative_to(fresh_venv) for line in where.stdout.split()), where.stdout

    created = run(scripts / "rpg", "new", project, "--name", "Tower Climbers", cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    shutil.copy(dists.wheel, project / "wheels")
    tools = run(sys.executable, "-m", "pip", "--isolated", "--python", python, "install", "--quiet", "--no-compile",
                "--no-index", "--find-links", offline_wheels, "--find-links", project / "wheels",
                "-r", "requirements.txt", cwd=project)
    assert tools.returncode == 0, tools.stderr

    build = run(scripts / "sphinx-build", "-W", "--keep-going", "-q", "-b", "html", "docs", "docs/_build/html",
                cwd=project)
    assert build.returncode == 0, build.stderr
    assert (project / "docs" / "_build" / "html" / "checks.html").is_file()

    tests = run(scripts / "pytest", "-q", cwd=project)
    assert tests.returncode == 0, tests.stdout[-3000:]
    assert "13 passed" in tests.stdout
    one_page = run(scripts / "pytest", "-q", "docs/checks.rst", cwd=project)  # no -p no:doctest needed
    assert one_page.returncode == 0 and "3 passed" in one_page.stdout, one_page.stdout[-3000:]
