"""Effects: applying boons and conditions by roll, decay, intentions."""

import pytest

from rules.dice import ScriptedSource
from rules.nemron.effects import DAZED, INSPIRED, NemronError, Intention, apply_effect


def test_apply_effect_gains_the_kept_roll_as_ranks():
    inspired = INSPIRED.start()
    assert apply_effect(inspired, "1d6 › 1d8", ScriptedSource([4, 6])) == 6
    assert inspired.rank == 6
    assert inspired.decay() == 5


def test_apply_effect_with_fixed_ranks_rolls_nothing():
    dazed = DAZED.start()
    assert apply_effect(dazed, "1d6", ScriptedSource([]), fixed=1) == 1
    with pytest.raises(NemronError, match="-1"):
        apply_effect(dazed, "1d6", ScriptedSource([]), fixed=-1)


def test_intentions_are_the_four_published():
    assert [i.value for i in Intention] == ["Use Ability", "Do Damage", "Apply Boons", "Apply Conditions"]


def test_luck_comes_from_good_drama_only():
    from rules.nemron.checks import Drama, drama
    from rules.nemron.effects import NemronError, gain_luck
    from rules.nemron.nodes import Charges
    luck = Charges("Luck")
    assert gain_luck(luck, drama(20)) == 1
    assert gain_luck(luck, Drama.GOOD) == 2
    for outcome in (drama(1), drama(19)):
        with pytest.raises(NemronError, match=repr(outcome)):
            gain_luck(luck, outcome)
    with pytest.raises(NemronError, match="'Luck'"):
        gain_luck("Luck", Drama.GOOD)  # type: ignore[arg-type]
    assert luck.spend() == 1
