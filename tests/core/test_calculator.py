"""rules.calculator: the one function behind ``rpg odds`` and the in-page dice calculator."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from rules.calculator import MAX_TEXT, CalculatorError, answer, answer_json, distribution_of, odds, roll_json
from rules.dice import ComputationTooLargeError, NotationError, parse
from rules.systems import load_registry


def test_plain_notation_gives_the_exact_distribution_of_the_dice_engine():
    assert distribution_of("4d6kh3") == parse("4d6kh3").dist()


def test_a_systems_own_notation_gives_what_the_system_registers():
    assert distribution_of("C+2 P+1", "heimr") == load_registry("heimr").notation.parse("C+2 P+1")


def test_every_outcome_is_shown_with_its_exact_chance_and_the_chance_of_at_least_it():
    data = answer("2d6")
    dist = parse("2d6").dist()
    assert [row["outcome"] for row in data["rows"]] == list(range(2, 13))
    for row in data["rows"]:
        assert Fraction(row["p"]) == dist.p(row["outcome"]) and Fraction(row["p_ge"]) == dist.p_ge(row["outcome"])
    assert data["rows"][5] == {"outcome": 7, "p": "1/6", "percent": "16.7%", "p_ge": "7/12", "percent_ge": "58.3%"}


def test_the_mean_is_exact_and_the_spread_is_the_standard_deviation():
    data = answer("3d6")
    assert data["mean"] == "21/2" and data["mean_text"] == "10.500" and data["sd_text"] == "2.958"


def test_a_dc_gives_the_chance_of_at_least_it_and_a_target_of_at_most_it():
    dist = parse("3d6").dist()
    assert answer("3d6", dc=12)["target"] == {"kind": "at least", "value": 12, "p": str(dist.p_ge(12)),
                                              "percent": "37.5%"}
    assert Fraction(answer("3d6", under=9)["target"]["p"]) == dist.p_le(9)


def test_a_dc_and_a_target_together_are_refused():
    with pytest.raises(CalculatorError, match="not both"):
        answer("3d6", dc=10, under=10)
    with pytest.raises(CalculatorError, match="not both"):
        odds("3d6", dc=range(3, 5), under=range(3, 5))


def test_bad_notation_is_the_engines_own_message():
    with pytest.raises(NotationError) as raised:
        parse("3d0")
    assert json.loads(answer_json("3d0")) == {"error": str(raised.value)}


def test_too_large_an_expression_is_refused_at_once_by_the_work_bound():
    with pytest.raises(ComputationTooLargeError) as raised:
        parse("1000d1000").dist()
    assert json.loads(answer_json("1000d1000")) == {"error": str(raised.value)}


def test_a_system_the_calculator_does_not_offer_is_refused_before_anything_is_imported():
    code = ("import sys, json; from rules.calculator import answer_json; "
            "print(json.dumps([answer_json('1d6', 'antigravity', systems=['nemron']), 'antigravity' in sys.modules]))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    message, imported = json.loads(result.stdout)
    assert json.loads(message) == {"error": "this calculator offers no game system 'antigravity' (it offers: nemron)"}
    assert imported is False


def test_a_dc_that_is_not_a_whole_number_is_refused_by_name():
    assert json.loads(answer_json("1d6", dc="7.5")) == {"error": "the DC must be a whole number, not '7.5'"}
    assert json.loads(answer_json("1d6", under="ten")) == {"error": "the target must be a whole number, not 'ten'"}


def test_an_empty_dc_means_no_dc():
    assert json.loads(answer_json("1d6", dc=" "))["target"] is None


def test_text_longer_than_the_limit_is_refused_before_it_is_read():
    data = json.loads(answer_json("1" * (MAX_TEXT + 1)))
    assert data["error"] == f"the notation is {MAX_TEXT + 1} characters long; the limit is {MAX_TEXT}"


def test_a_system_with_no_notation_of_its_own_says_so():
    assert json.loads(answer_json("3d6", "spurg", systems=["spurg"])) == {
        "error": "system 'spurg' registers no notation of its own"}


def test_rpg_odds_prints_the_calculators_rows(capsys):
    from sphinx_rpg.cli import main

    assert main(["odds", "C+2 P+1", "--system", "heimr", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    rows = answer("C+2 P+1", "heimr")["rows"]
    assert [Fraction(r["P(= result)"]) for r in printed["rows"]] == [Fraction(r["p"]) for r in rows]
    assert Fraction(printed["mean"]) == Fraction(answer("C+2 P+1", "heimr")["mean"])


def test_a_roll_shows_the_dice_rpg_roll_shows_with_the_same_seed(capsys):
    from sphinx_rpg.cli import main

    for notation, system in [("4d6kh3", None), ("C+2 P+1", "heimr"), ("5 dice lid-off", "nugget"),
                             ("Agility 2 › Athletics 1", "nemron")]:
        arguments = ["roll", notation, "--seed", "1234", "--dc", "7", "--json"] + (["--system", system] if system else [])
        assert main(arguments) == 0
        printed = json.loads(capsys.readouterr().out)
        rolled = json.loads(roll_json(notation, system, "1234", "7", None, [system] if system else []))
        assert (rolled["dice"], rolled["total"], rolled["success"]) == (printed["dice"], printed["total"],
                                                                         printed["success"])


def test_a_roll_under_a_target_succeeds_at_or_below_it():
    rolled = json.loads(roll_json("3d6", seed=99, under="10"))
    assert rolled["success"] == (rolled["total"] <= 10)


def test_a_seed_outside_32_bits_is_refused():
    assert json.loads(roll_json("1d6", seed=str(2**32))) == {
        "error": "the seed must be a whole number from 0 to 4294967295, not '4294967296'"}
    assert "error" in json.loads(roll_json("1d6", seed=None))


def test_a_long_distribution_comes_with_its_tails_folded_and_every_row_on_request():
    folded, every = answer("100d6"), answer("100d6", every=True)
    dist = parse("100d6").dist()
    assert folded["folded"] and not every["folded"] and folded["outcomes"] == every["outcomes"] == 501
    assert len(folded["rows"]) == 115 and [row["outcome"] for row in every["rows"]] == list(range(100, 601))
    assert folded["rows"][0] == {"outcome": "≤ 293", "p": str(dist.p_le(293)), "percent": "<0.1%", "p_ge": "1",
                                 "percent_ge": "100%", "from": 100, "to": 293}
    high = folded["rows"][-1]
    assert (high["outcome"], high["from"], high["to"], high["percent"]) == ("≥ 407", 407, 600, "<0.1%")
    assert folded["rows"][1:-1] == every["rows"][194:307]  # the rows kept are the very rows of the whole table
    assert {k: v for k, v in folded.items() if k not in ("rows", "folded")} == \
        {k: v for k, v in every.items() if k not in ("rows", "folded")}
    assert json.loads(answer_json("100d6", every=True)) == every and json.loads(answer_json("100d6")) == folded


def test_a_short_distribution_is_never_folded():
    assert answer("3d6") == answer("3d6", every=True) and not answer("3d6")["folded"]


def test_the_chart_gives_each_bar_in_thousandths_of_the_tallest_with_its_percentage():
    chart = answer("2d6")["chart"]
    assert chart == {"first": list(range(2, 13)), "last": list(range(2, 13)),
                     "heights": [167, 333, 500, 667, 833, 1000, 833, 667, 500, 333, 167],
                     "percents": ["2.8%", "5.6%", "8.3%", "11.1%", "13.9%", "16.7%", "13.9%", "11.1%", "8.3%", "5.6%",
                                  "2.8%"], "size": 1, "last_size": 1}


def test_the_chart_leaves_out_only_the_negligible_tails_whatever_the_table_shows():
    assert answer("100d6")["chart"]["first"] == list(range(294, 407))  # the table's own rows
    assert answer("100d6", every=True)["chart"] == answer("100d6")["chart"]
    wide = answer("50d20")["chart"]["first"]  # 120 rows of their own, but about 250 outcomes not negligible
    assert len(wide) > 200 and wide == list(range(wide[0], wide[-1] + 1))


def test_a_chart_of_more_outcomes_than_bars_sums_runs_of_outcomes_into_each_bar():
    uniform = answer("1d10000")["chart"]  # 4 outcomes at each end are together 1/2500: negligible
    assert (uniform["size"], uniform["last_size"], len(uniform["first"])) == (34, 30, 294)  # 9,992 outcomes
    assert (uniform["first"][:2], uniform["last"][:2], uniform["last"][-1]) == ([5, 39], [38, 72], 9996)
    assert uniform["percents"][:2] == ["0.3%", "0.3%"] and uniform["percents"][-1] == "0.3%"  # 34/10000, 30/10000
    assert set(uniform["heights"][:-1]) == {1000} and uniform["heights"][-1] == 882  # 30/34 of the others


def test_the_answer_of_a_question_asked_again_is_the_same_and_its_target_its_own():
    first, again = answer_json("100d6", dc="350"), answer_json("100d6", dc="350")
    assert first == again and json.loads(first) == answer("100d6", dc=350)
    other = json.loads(answer_json("100d6", under="350"))
    assert other == answer("100d6", under=350) and other["target"]["kind"] == "at most"
    assert json.loads(answer_json("100d6"))["target"] is None
