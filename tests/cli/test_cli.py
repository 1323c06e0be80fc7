"""The ``rpg`` command line: readable output, --json, one-line errors and exit codes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sphinx_rpg.cli import main

ROOTS = Path(__file__).parent.parent / "extension" / "roots"
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def rpg(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_roll_shows_each_die_the_kept_ones_and_the_total(capsys):
    status, out, _ = rpg(capsys, "roll", "4d6kh3", "--seed", "7")
    assert status == 0 and out.startswith("4d6kh3")
    assert rpg(capsys, "roll", "4d6kh3", "--seed", "7")[1] == out  # the seed reproduces the roll


@pytest.mark.parametrize("seed", ["-1", "4294967296", "12345678901234567890123456"])
def test_roll_takes_only_the_seeds_the_page_takes(capsys, seed):
    with pytest.raises(SystemExit) as stopped:
        main(["roll", "2d6", "--seed", seed])
    out, err = capsys.readouterr()
    assert stopped.value.code != 0 and out == ""
    assert "the seed must be a whole number from 0 to 4294967295" in err and err.count("\n") == 1


def test_roll_with_a_seed_shows_the_dice_the_page_shows_for_it(capsys):
    from rules.calculator import roll_json

    for seed in ("0", "7", "4294967295"):
        status, out, _ = rpg(capsys, "roll", "4d6kh3", "--seed", seed, "--json")
        page = json.loads(roll_json("4d6kh3", seed=seed))
        assert status == 0 and json.loads(out)["dice"] == page["dice"]


def test_roll_json_lists_dice_and_checks_the_dc(capsys):
    status, out, _ = rpg(capsys, "roll", "2d6+3", "--seed", "1", "--dc", "8", "--json")
    data = json.loads(out)
    assert status == 0 and len(data["dice"]) == 2
    assert data["total"] == sum(d["face"] for d in data["dice"]) + 3
    assert data["success"] == (data["total"] >= 8)


def test_roll_nemron_pool_with_the_drama_die_its_registration_adds(capsys):
    argv = ["roll", "1d6 > 1d10 > 1d8", "--system", "nemron", "--seed", "3", "--drama", "--json"]
    status, out, _ = rpg(capsys, *argv)
    data = json.loads(out)
    assert status == 0 and [d["sides"] for d in data["dice"]] == [6, 10, 8]
    assert data["total"] == max(d["face"] for d in data["dice"])
    assert 1 <= data["drama"]["face"] <= 20


def test_drama_is_no_flag_of_plain_dice(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["roll", "1d20", "--drama"])
    assert stopped.value.code == 2 and "--drama" in capsys.readouterr().err


@pytest.mark.parametrize("system", ["heimr", "rules.heimr", "rules.heimr:REGISTRY"])
def test_system_is_a_short_name_or_an_import_path(capsys, system):
    status, out, _ = rpg(capsys, "odds", "C+1", "--system", system, "--dc", "10-10", "--json")
    assert status == 0 and json.loads(out)["rows"] == [{"DC": 10, "P(success)": "1/10"}]


def test_a_users_own_game_rolls_with_its_registered_notation(capsys, tmp_path, monkeypatch):
    (tmp_path / "mygame.py").write_text(
        "from rules.dice import Dist, parse\n"
        "from rules.nodes import Registry\n"
        "from rules.systems import SystemNotation\n"
        "REGISTRY = Registry('mygame', notation=SystemNotation(\n"
        "    parse=lambda text: parse(text.replace('coin', 'd2')).dist(), example='3coin',\n"
        "    roll=lambda text, source: parse(text.replace('coin', 'd2')).roll(source)))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    status, out, _ = rpg(capsys, "odds", "2coin", "--system", "mygame:REGISTRY", "--dc", "4-4", "--json")
    assert status == 0 and json.loads(out)["rows"] == [{"DC": 4, "P(success)": "1/4"}]
    status, out, _ = rpg(capsys, "roll", "2coin", "--system", "mygame", "--seed", "1", "--json")
    assert status == 0 and [d["sides"] for d in json.loads(out)["dice"]] == [2, 2]


def test_odds_prints_exact_success_table_with_bars(capsys):
    status, out, _ = rpg(capsys, "odds", "3d6", "--under", "10-10")
    assert status == 0 and "50.0%" in out and "#" * 20 in out


def test_odds_fold_prints_the_calculators_folded_table(capsys):
    from rules.calculator import answer

    status, out, _ = rpg(capsys, "odds", "100d6", "--fold", "--json")
    rows = answer("100d6")["rows"]
    assert status == 0 and [r["Result"] for r in json.loads(out)["rows"]] == [r["outcome"] for r in rows]
    assert [r["P(= result)"] for r in json.loads(out)["rows"]] == [r["p"] for r in rows]
    assert rpg(capsys, "odds", "100d6", "--fold")[1].splitlines()[1].split()[:3] == ["≤", "293", "<0.1%"]
    status, _, err = rpg(capsys, "odds", "3d6", "--fold", "--dc", "5-9")
    assert status != 0 and "--fold folds the table of every result" in err


def test_odds_json_gives_exact_fractions(capsys):
    status, out, _ = rpg(capsys, "odds", "2d6", "--dc", "7-7", "--json")
    assert status == 0 and json.loads(out)["rows"] == [{"DC": 7, "P(success)": "7/12"}]


@pytest.mark.parametrize("argv, message", [
    (["roll", "3d0"], "side"),
    (["roll", "2d6", "--system", "nosuchgame"], "unknown game system 'nosuchgame'"),
    (["odds", "2d6", "--system", "spurg"], "registers no notation"),
    (["odds", "2d6", "--system", "os:path"], "not a rules.nodes.Registry"),
    (["roll", "1d6 > 1d8"], "game system's notation"),
    (["odds", "d6", "--dc", "1-3", "--under", "1-3"], "either --dc or --under"),
    (["odds", "d6", "--dc", "9-1"], "runs backwards"),
    (["roll", "5000d6"], "at most 1,000"),
])
def test_bad_input_is_one_line_and_exit_two(capsys, argv, message):
    status, out, err = rpg(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_check_reports_every_node_problem_with_file_and_line(capsys, tmp_path):
    docs = shutil.copytree(ROOTS / "test-warnings", tmp_path / "docs")
    status, out, _ = rpg(capsys, "check", str(docs))
    assert status == 1
    assert "index.rst:26: node reference target not found: 'Test.Nowhere.Missing' [node.ref]" in out
    assert "other.rst:4:" in out and "[node.duplicate]" in out
    assert out.strip().endswith("8 node problems in " + str(docs))


def test_check_reads_sphinx_warning_records_and_honours_suppress_warnings(capsys, tmp_path):
    docs = shutil.copytree(ROOTS / "test-warnings", tmp_path / "docs")
    with (docs / "conf.py").open("a") as conf:
        conf.write('\nsuppress_warnings = ["node.ref"]\nshow_warning_types = False\n')
    status, out, _ = rpg(capsys, "check", str(docs), "--json")
    problems = json.loads(out)["problems"]
    assert status == 1 and len(problems) == 7 and {p["kind"] for p in problems} == {"node.uid", "node.type",
                                                                                    "node.duplicate"}
    assert all(p["location"].startswith(str(docs)) and not p["message"].endswith("]") for p in problems)


def test_check_of_a_clean_book_exits_zero(capsys, tmp_path):
    docs = shutil.copytree(ROOTS / "test-basic", tmp_path / "docs")
    status, out, _ = rpg(capsys, "check", str(docs), "--json")
    assert status == 0 and json.loads(out) == {"problems": []}


def test_check_leaves_no_directive_or_role_registered_behind(capsys, tmp_path):
    """Like sphinx-build: a second build in the same process (a tool, a test) starts from docutils' own."""
    from docutils.parsers.rst import directives, roles

    docs = shutil.copytree(ROOTS / "test-basic", tmp_path / "docs")
    before = (set(directives._directives), set(roles._roles))  # type: ignore[attr-defined]
    assert rpg(capsys, "check", str(docs), "--json")[0] == 0
    assert (set(directives._directives), set(roles._roles)) == before  # type: ignore[attr-defined]


def test_check_of_a_directory_without_conf_py_is_an_error(capsys, tmp_path):
    status, _, err = rpg(capsys, "check", str(tmp_path))
    assert status == 2 and "no conf.py" in err


def test_export_writes_the_node_catalogue(capsys, tmp_path):
    docs = shutil.copytree(ROOTS / "test-basic", tmp_path / "docs")
    target = tmp_path / "out.json"
    status, out, _ = rpg(capsys, "export", str(docs), "-o", str(target))
    assert status == 0 and "wrote 2 nodes" in out
    assert {n["uid"] for n in json.loads(target.read_text())["nodes"]} == {"Generic.Trait.Energy",
                                                                            "Generic.Attribute.HP"}


def test_export_to_an_unwritable_place_is_an_error(capsys, tmp_path):
    docs = shutil.copytree(ROOTS / "test-basic", tmp_path / "docs")
    (tmp_path / "a-file").write_text("mine")
    status, _, err = rpg(capsys, "export", str(docs), "-o", str(tmp_path / "a-file" / "dir" / "x.json"))
    assert status == 2 and "cannot write" in err and (tmp_path / "a-file").read_text() == "mine"


def test_export_makes_the_folders_of_a_first_release(capsys, tmp_path):
    docs = shutil.copytree(ROOTS / "test-basic", tmp_path / "docs")
    status, out, _ = rpg(capsys, "export", str(docs), "-o", str(docs / "_releases" / "v0.1" / "nodes.json"))
    assert status == 0 and (docs / "_releases" / "v0.1" / "nodes.json").is_file()


@pytest.mark.parametrize("command", [[], ["roll"], ["odds"], ["check"], ["export"]])
def test_help_is_available_everywhere(capsys, command):
    # in this process (``python -m sphinx_rpg.cli`` itself runs in the --version test below)
    with pytest.raises(SystemExit) as exit:
        main([*command, "--help"])
    assert exit.value.code == 0 and "usage: rpg" in capsys.readouterr().out


def test_the_rpg_script_is_installed():
    script = Path(sys.executable).with_name("rpg")
    result = subprocess.run([str(script), "odds", "d4", "--json"], capture_output=True, text=True)
    assert result.returncode == 0 and json.loads(result.stdout)["rows"][0]["P(= result)"] == "1/4"


def test_version_names_the_package_and_its_version():
    from sphinx_rpg import __version__

    result = subprocess.run([sys.executable, "-m", "sphinx_rpg.cli", "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.strip() == f"rpg (sphinx-rpg) {__version__}"


def test_export_to_dash_writes_the_catalogue_to_stdout_and_no_file(capsys, tmp_path, monkeypatch):
    docs = shutil.copytree(ROOTS / "test-basic", tmp_path / "docs")
    monkeypatch.chdir(tmp_path)
    status, out, _ = rpg(capsys, "export", str(docs), "-o", "-")
    assert status == 0 and not (tmp_path / "-").exists()
    assert {n["uid"] for n in json.loads(out)["nodes"]} == {"Generic.Trait.Energy", "Generic.Attribute.HP"}
