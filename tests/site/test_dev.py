"""``python3 dev.py site`` installs only what building the site needs; ``dev.py test`` installs it all."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def dev(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """dev.py as a module whose .venv is an empty temporary folder."""
    spec = importlib.util.spec_from_file_location("dev_under_test", ROOT / "dev.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "VENV", tmp_path)
    return module


def extras() -> dict[str, list[str]]:
    tomllib = pytest.importorskip("tomllib")
    with open(ROOT / "pyproject.toml", "rb") as file:
        return tomllib.load(file)["project"]["optional-dependencies"]


def names(requirements: list[str]) -> set[str]:
    return {requirement.split(">")[0].split("=")[0].split("<")[0].strip().lower() for requirement in requirements}


def test_the_site_extra_holds_the_theme_myst_and_matplotlib_and_no_test_tool():
    site = names(extras()["site"])
    assert {"furo", "myst-parser", "matplotlib"} <= site
    assert site.isdisjoint({"pytest", "icepool", "sphinx-needs", "sybil", "hypothesis", "playwright"})


def test_the_site_command_installs_the_site_extra_and_the_test_command_everything(dev):
    assert dev.EXTRAS["site"] == "site"
    assert set(dev.EXTRAS["test"].split(",")) >= {"test", "site", "myst", "chart"}


def test_a_venv_made_for_the_tests_serves_the_site_but_not_the_other_way_round(dev, monkeypatch):
    installs: list[list[str]] = []
    monkeypatch.setattr(dev.subprocess, "run", lambda args, **kwargs: installs.append(args))
    monkeypatch.setattr(dev, "BIN", dev.VENV)
    (dev.VENV / "python").write_text("")  # an existing interpreter: no venv is created
    dev.ensure_venv("test")
    assert installs[-1][-1] == f".[{dev.EXTRAS['test']}]"
    dev.ensure_venv("site")
    assert len(installs) == 1, "the test environment already holds everything the site needs"
    dev._stamp("test").unlink()
    dev.ensure_venv("site")
    assert installs[-1][-1] == ".[site]" and len(installs) == 2
    dev.ensure_venv("test")
    assert installs[-1][-1] == f".[{dev.EXTRAS['test']}]" and len(installs) == 3


def test_a_changed_pyproject_installs_again(dev, monkeypatch):
    installs: list[list[str]] = []
    monkeypatch.setattr(dev.subprocess, "run", lambda args, **kwargs: installs.append(args))
    monkeypatch.setattr(dev, "BIN", dev.VENV)
    (dev.VENV / "python").write_text("")
    dev.ensure_venv("site")
    monkeypatch.setattr(dev, "_fingerprint", lambda extras: "another pyproject.toml")
    dev.ensure_venv("site")
    assert len(installs) == 2
