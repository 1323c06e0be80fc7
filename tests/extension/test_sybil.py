"""The Sybil integration: a rulebook's examples run, with the rule object bound inside node:def."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sphinx_rpg.binding import bind
from sphinx_rpg.sybil import registries_from_conf, rulebook_sybil

ROOT = Path(__file__).parent / "roots" / "test-bound"


@pytest.fixture(autouse=True)
def bound_rules_on_path(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))
    bind.cache_clear()
    yield
    bind.cache_clear()
    sys.modules.pop("bound_rules", None)


def run_examples(path: Path, registries=("bound_rules:REGISTRY",)) -> list[str]:
    """Evaluate every example of a page; returns the failure messages."""
    failures = []
    for example in rulebook_sybil(list(registries)).parse(path):
        try:
            example.evaluate()
        except Exception as error:  # sybil raises SybilFailure for a wrong result
            failures.append(str(error))
    return failures


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def test_examples_inside_a_node_def_see_node_and_rule(tmp_path):
    page = write(tmp_path, "page.rst", """
        .. node:def:: Power
           :uid: Bound.Attribute.Power

           >>> node.title
           'Power (A)'
           >>> rule(2)
           8
        """)
    assert run_examples(page) == []


def test_examples_share_one_namespace_per_page_and_fail_when_wrong(tmp_path):
    page = write(tmp_path, "page.rst", """
        >>> x = 40

        Later:

        >>> x + 2
        43
        """)
    failures = run_examples(page)
    assert len(failures) == 1 and "43" in failures[0] and "42" in failures[0]


def test_examples_outside_a_node_def_do_not_see_a_rule(tmp_path):
    page = write(tmp_path, "page.rst", """
        .. node:def:: Power
           :uid: Bound.Attribute.Power

           Inside.

        >>> 'node' in dir()
        False
        """)
    assert run_examples(page) == []


def test_myst_pages_run_their_examples_with_the_rule_bound(tmp_path):
    page = write(tmp_path, "page.md", """
        # Rules

        ````{node:def} Power
        :uid: Bound.Attribute.Power

        ```python
        >>> rule(4)
        12
        ```
        ````
        """)
    examples = list(rulebook_sybil(["bound_rules:REGISTRY"]).parse(page))
    assert len(examples) == 1
    assert run_examples(page) == []


def test_registries_are_read_from_conf_py():
    assert registries_from_conf(ROOT / "conf.py") == ["bound_rules:REGISTRY"]


def test_the_sybil_collects_pages_below_the_calling_conftest(tmp_path):
    sybil = rulebook_sybil(["bound_rules:REGISTRY"])
    assert Path(sybil.path) == Path(__file__).resolve().parent
    assert Path(rulebook_sybil(path=tmp_path).path) == tmp_path.resolve()


def test_examples_after_a_node_def_no_longer_see_its_rule(tmp_path):
    page = write(tmp_path, "page.rst", """
        .. node:def:: Power
           :uid: Bound.Attribute.Power

           >>> rule(1)
           6

        After the node:

        >>> 'rule' in dir(), 'node' in dir()
        (False, False)
        """)
    assert run_examples(page) == []


def test_myst_colon_fences_bind_the_rule_too(tmp_path):
    page = write(tmp_path, "page.md", """
        :::{node:def} Power
        :uid: Bound.Attribute.Power

        ```python
        >>> rule(0)
        4
        ```
        :::
        """)
    assert run_examples(page) == []


# -- a rulebook's own conftest, run by pytest as a designer runs it ---------------------------------
def rulebook_project(tmp_path: Path) -> Path:
    """A project whose docs/conftest.py names conf.py relatively, as the README and ``rpg new`` do."""
    project = tmp_path / "project"
    docs = project / "docs"
    docs.mkdir(parents=True)
    (project / "pytest.ini").write_text("[pytest]\n")
    (docs / "conf.py").write_text(f"import sys\nsys.path.insert(0, {str(ROOT)!r})\n"
                                  "extensions = ['sphinx_rpg']\nrpg_registries = ['bound_rules:REGISTRY']\n")
    (docs / "conftest.py").write_text("from sphinx_rpg.sybil import rulebook_sybil\n"
                                      "pytest_collect_file = rulebook_sybil(conf_py='conf.py').pytest()\n")
    write(docs, "page.rst", """
        .. node:def:: Power
           :uid: Bound.Attribute.Power

           >>> rule(2)
           8
           >>> node.title
           'Power (A)'
        """)
    return project


def run_pytest(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "SPHINX_RPG_"))}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *map(str, args)],
                          cwd=cwd, capture_output=True, text=True, timeout=300, env=environment)


def test_the_conftest_finds_conf_py_whatever_the_working_directory(tmp_path):
    project = rulebook_project(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = run_pytest(project / "docs", "--rootdir", project, cwd=elsewhere)
    assert result.returncode == 0 and "2 passed" in result.stdout, result.stdout + result.stderr


def test_a_page_named_on_the_command_line_runs_through_sybil_alone(tmp_path):
    # pytest's doctest plugin would also collect docs/page.rst, without node and rule: a NameError
    project = rulebook_project(tmp_path)
    result = run_pytest("page.rst", cwd=project / "docs")
    assert result.returncode == 0 and "2 passed" in result.stdout, result.stdout + result.stderr


@pytest.mark.parametrize("folder", ["_build/html/_sources", ".pytest_cache", ".venv/lib", "node_modules/x"])
def test_pages_inside_build_output_or_tool_caches_are_not_collected(tmp_path, folder):
    page = write(tmp_path, "page.rst", ">>> 1\n1\n")
    hidden = tmp_path / folder / "page.rst"
    hidden.parent.mkdir(parents=True)
    hidden.write_text(page.read_text())
    sybil = rulebook_sybil(path=tmp_path)
    assert sybil.should_parse(page) and not sybil.should_parse(hidden)
