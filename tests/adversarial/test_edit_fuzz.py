"""Incremental builds publish what clean builds publish, after random edits (fixed seed; the long run
is ``bench/edit_fuzz.py``)."""

from __future__ import annotations

from tests.adversarial.fuzzing import run


def test_random_edits_rebuild_incrementally_to_what_a_clean_build_gives(tmp_path):
    report = run(tmp_path, seed=1, cycles=4)
    assert report.cycles == 4
    assert report.diverged == 0, "\n".join(report.first)
