"""``rpg matchup``: a fight's odds from a shell, exact or simulated, with --json and one-line errors."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from sphinx_rpg.cli import main

TINY = Path(__file__).parent.parent / "extension" / "roots" / "matchup-rules"
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def rpg(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as stop:  # argparse refuses a bad argument before the command runs
        status = int(stop.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def tiny(monkeypatch):
    monkeypatch.syspath_prepend(str(TINY))
    yield "tiny_fight_rules:REGISTRY"
    sys.modules.pop("tiny_fight_rules", None)


def test_an_exact_matchup_prints_each_sides_chance_and_json_gives_the_fractions(capsys, tiny):
    status, out, _ = rpg(capsys, "matchup", "--system", tiny, "ann", "bob")
    assert status == 0 and "exact (absorbing Markov chain over 3 fight states)" in out
    assert "Ann wins  75.0%" in out and "Bob wins  25.0%" in out
    data = json.loads(rpg(capsys, "matchup", "--system", tiny, "ann", "bob", "--json")[1])
    assert data["exact"] and [Fraction(p) for p in data["wins"]] == [Fraction(3, 4), Fraction(1, 4)]
    assert Fraction(data["mean_rounds"]) == Fraction(3, 2)


def test_a_simulated_matchup_says_how_many_fights_and_the_seed_reproduces_it(capsys, tiny):
    argv = ["matchup", "--system", tiny, "ann", "bob", "--simulate", "--fights", "300", "--seed", "9", "--json"]
    data = json.loads(rpg(capsys, *argv)[1])
    assert not data["exact"] and data["fights"] == 300 and data["seed"] == 9
    assert json.loads(rpg(capsys, *argv)[1]) == data


def test_brandon_against_the_raider_is_simulated_through_the_tracker(capsys):
    status, out, _ = rpg(capsys, "matchup", "--system", "nemron", "brandon", "raider", "--fights", "50")
    assert status == 0 and out.startswith("Brandon against Raider (nemron): simulated: 50 seeded fights")


@pytest.mark.parametrize(("argv", "message"), [
    (["brandon", "dragon"], "no fighter 'dragon'"),
    (["brandon", "raider", "--exact"], "far more than the exact budget"),
    (["brandon", "raider,,raider"], "is not a side"),
    (["brandon", "raider", "--fights", "0"], "play 1 to 100,000 fights"),
])
def test_a_bad_matchup_is_one_line_and_exit_2(capsys, argv, message):
    status, out, err = rpg(capsys, "matchup", "--system", "nemron", *argv)
    assert status == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1


def test_a_system_without_a_fight_model_says_so(capsys, monkeypatch, tmp_path):
    (tmp_path / "silent_rules.py").write_text('from rules.nodes import Registry\n'
                                              'REGISTRY = Registry("silent", title="Silent", node_types={"A": "A"})\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        status, _, err = rpg(capsys, "matchup", "--system", "silent_rules:REGISTRY", "ann", "bob")
    finally:
        sys.modules.pop("silent_rules", None)
    assert status == 2 and "publishes no fight model" in err


def test_the_dndalike_orcs_duel_is_answered_exactly(capsys):
    status, out, _ = rpg(capsys, "matchup", "--system", "dndalike", "orc", "orc")
    assert status == 0 and "Orc against Orc 2 (dndalike): exact" in out and "Orc 2 wins" in out
