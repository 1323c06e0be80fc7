"""The wheel and the sdist carry everything an installed sphinx-rpg needs, and nothing of the build."""

from __future__ import annotations

import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("sphinx_rpg", "rules")


def package_files() -> set[str]:
    """Every file of the two packages in the checkout: code, static files, templates, schema, starter."""
    return {path.relative_to(ROOT).as_posix() for package in PACKAGES for path in (ROOT / package).rglob("*")
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"}


def test_the_wheel_holds_every_package_file_static_templates_schema_and_starter(dists):
    names = set(zipfile.ZipFile(dists.wheel).namelist())
    assert package_files() - names == set()
    for needed in ("sphinx_rpg/static/sphinx_rpg.css", "sphinx_rpg/schema/nodes.schema.json",
                   "sphinx_rpg/templates/rpg-kept-page.html", "sphinx_rpg/starter/docs/conf.py_t",
                   "sphinx_rpg/starter/dot-github/workflows/rulebook.yml_t"):
        assert needed in names


def test_the_wheel_holds_only_the_two_packages_and_its_metadata(dists):
    names = zipfile.ZipFile(dists.wheel).namelist()
    assert sorted({name.split("/")[0] for name in names}) == ["rules", "sphinx_rpg", "sphinx_rpg-0.1.0.dist-info"]


def test_the_wheel_installs_the_rpg_command(dists):
    entry_points = zipfile.ZipFile(dists.wheel).read("sphinx_rpg-0.1.0.dist-info/entry_points.txt").decode()
    assert "rpg = sphinx_rpg.cli:main" in entry_points


def test_the_sdist_holds_every_package_file(dists):
    with tarfile.open(dists.sdist) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    assert package_files() - names == set()
