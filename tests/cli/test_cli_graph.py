"""``rpg graph``: which rules of a bundled system derive from which."""

from __future__ import annotations

import json

from sphinx_rpg.cli import main


def test_graph_lists_energy_from_control_sense_and_focus(capsys):
    assert main(["graph", "--system", "nemron"]) == 0
    out = capsys.readouterr().out
    assert "Energy (Generic.Trait.Energy) <- Control, Sense, Focus" in out


def test_graph_json_names_dependencies_and_users_by_uid(capsys):
    assert main(["graph", "--system", "spurg", "--json"]) == 0
    nodes = {n["uid"]: n for n in json.loads(capsys.readouterr().out)["nodes"]}
    assert nodes["Spurg.Rule.StartingSpeed"]["depends_on"] == ["Spurg.Ability.Agility", "Spurg.Ability.Vitality"]
    assert nodes["Spurg.Ability.Agility"]["used_by"] == ["Spurg.Rule.AbilityPoints", "Spurg.Rule.StartingSpeed"]


def test_graph_dot_is_a_graphviz_digraph(capsys):
    assert main(["graph", "--system", "spurg", "--dot"]) == 0
    out = capsys.readouterr().out
    assert out.startswith('digraph "spurg" {') and '"Spurg.Ability.Agility" -> "Spurg.Rule.StartingSpeed";' in out
