"""The player edition's general index lists the game's terms; a designer page's entries stay in the designer's."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.extension.test_editions import build, warnings_of, write_play

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

MANUAL = """
Settings
========

.. index:: single: rpg_spend_limit

.. py:function:: spend_energy(cost)

   The engine's call behind spending.
"""

PLAY = """
Play
====

.. index:: single: Resting

Resting brings Energy back.
"""


def general_index(app) -> str:
    return (Path(app.outdir) / "genindex.html").read_text()


def test_a_designer_pages_index_entries_are_left_out_of_the_player_editions_index(make_app, tmp_path):
    src = write_play(tmp_path / "book", ("manual", MANUAL), ("play", PLAY), extra_conf='rpg_designer_text = ["manual.rst"]')
    player = build(make_app, src, confoverrides={"rpg_edition": "player"})
    assert warnings_of(player) == ""
    index = general_index(player)
    assert "Resting" in index  # a rule page's entry stays
    assert "rpg_spend_limit" not in index and "spend_energy" not in index
    assert "call behind spending." in (Path(player.outdir) / "manual.html").read_text()  # the text stays


def test_the_designer_edition_indexes_every_page(make_app, tmp_path):
    src = write_play(tmp_path / "book", ("manual", MANUAL), ("play", PLAY), extra_conf='rpg_designer_text = ["manual.rst"]')
    index = general_index(build(make_app, src))
    assert "Resting" in index and "rpg_spend_limit" in index and "spend_energy" in index
