"""The combat log: a seeded fight follows guards, hiding, readied actions, climbing and the situation."""

import pytest

from rules.dice import SeededSource
from rules.heimr.defence import HIDDEN_POTENTIAL_BONUS
from rules.heimr.modules import find_weapon
from rules.heimr.tracker import Fighter, Skirmish, HeimrError

DARKNESS = 1


def cast():
    return [
        Fighter("Ada", 1, 3, 6, attack=(1, 1), dodge=(1, 0), shield="Medium shield", block=(1, 1)),
        Fighter("Dax", 1, 1, 10, attack=(1, 0), dodge=(2, 0), weapon="Light weapon", climbing=6),
        Fighter("Cora", 1, 2, 5, attack=(2, 0), dodge=(1, 0), weapon="Bow", hidden_from={"Ada", "Dax"}),
        Fighter("Bram", 2, 2, 7, attack=(1, 1), dodge=(1, 0)),
    ]


TEAMS = {"Ada": "A", "Dax": "A", "Cora": "B", "Bram": "B"}


BORDER = "B2|B3"


def play(seed):
    """A fixed table policy: Ada guards Dax in rounds 1-2 and the border B2|B3 in rounds 3-4, else
    strikes Bram; Dax readies for Bram in round 1 and otherwise strikes Bram; Cora shoots Dax (or Ada);
    Bram charges Dax in round 1, outmanoeuvres Ada's guard in round 2, charges across the border with
    Ada on the far side in round 3 and tries to cross with Ada on his side in round 4."""
    fight = Skirmish(cast(), SeededSource(seed), darkness=DARKNESS)
    fight.start()
    readied = []
    for _ in range(40):
        me = fight.current
        foes = [n for n in fight.standing() if TEAMS[n] != TEAMS[me.name]]
        if not foes or (TEAMS[me.name] == "A" and foes == ["Cora"] and me.name != "Ada"):
            break
        ward = [p for p in fight.guards if p.active and not p.border]
        border = [p for p in fight.guards if p.active and p.border]
        if me.name == "Ada" and fight.round <= 2 and "Dax" in fight.standing() and not ward:
            fight.guard("Dax")
        elif me.name == "Ada" and fight.round in (3, 4) and not border:
            fight.guard(BORDER, border=True)
        elif me.name == "Dax" and fight.round == 1:
            readied.append(fight.ready("Bram leaves cover"))
        elif me.name == "Cora":
            fight.attack(foes[-1] if "Dax" not in foes else "Dax", action="shoot")
        elif TEAMS[me.name] == "A":
            if "Bram" in foes:  # Cora is hidden from them: they cannot attack her
                fight.attack("Bram")
        else:
            target = "Dax" if "Dax" in foes else foes[0]
            if fight.round == 2 and ward and "Ada" in fight.standing() and target == "Dax":
                fight.outmanoeuvre(ward[0])
                fight.attack(target)
            elif fight.round in (3, 4) and border and "Ada" in fight.standing() and target == "Dax":
                fight.cross(border[0], guard_on_my_side=fight.round == 4,
                            charge=target if fight.round == 3 else None)
            else:
                fight.attack(target, action="charge" if fight.round == 1 else "attack")
        fight.end_turn()
    return fight, readied


def test_seeded_fight_follows_guards_hiding_readied_actions_climbing_and_darkness():
    fight, readied = play(93)
    fighters = {f.name: f for f in cast()}
    intercepted = [b for b in fight.blows if b.intercepted_by]
    slipped = [b for b in fight.blows if b.slipped_past]
    free = [b for b in fight.blows if b.line.startswith("Bram outmanoeuvres")]
    assert intercepted and slipped and free  # the seed exercises every guard rule
    for blow in fight.blows:
        me, defender = fighters[blow.attacker], fighters[blow.defender]
        weapon = find_weapon(me.weapon)
        hidden = defender.name in me.hidden_from and blow.action in ("charge", "shoot")
        climbing = 1 if fight.fighters[me.name].climbing is not None else 0  # Dax never falls on this seed
        assert blow.attack_roll == (me.attack[0] - DARKNESS - climbing, me.attack[1] + (weapon.bonus or 0)
                                    + (HIDDEN_POTENTIAL_BONUS if hidden else 0))
        assert (blow.hit > 0) == (blow.attack > blow.defence)
        if blow.defence_kind == "block":  # a shield's bonus counts on a block
            assert blow.defence_roll[1] == defender.block[1] + 3
        assert blow.defence_roll[0] <= (defender.block or defender.dodge)[0] - DARKNESS
        if blow.intercepted_by:  # the guard steps in, then its guard is over
            assert blow.defender == blow.intercepted_by == "Ada" and blow.target == "Dax"
        if blow.slipped_past:  # nobody hidden from the guard is stopped by it
            assert blow.attacker == "Cora" and blow.intercepted_by is None
    for blow in free:  # the guard's free attack is dodged at one consistency less
        assert blow.defence_roll[0] <= fighters["Bram"].dodge[0] - 1 - DARKNESS
    # once Bram outmanoeuvred Ada's guard, his next attack on Dax was not intercepted
    after = fight.blows[fight.blows.index(free[0]) + 1]
    assert after.attacker == "Bram" and after.target == "Dax" and after.intercepted_by is None
    # the border: a charge across it with Ada on the far side hits Ada; with Ada on his side he is stopped
    assert any(line == "Bram charges across B2|B3" for line in fight.log)
    assert any(line == "Bram is stopped at B2|B3 by Ada (guard over)" for line in fight.log)
    stopped = sum("is stopped at" in line for line in fight.log)
    assert len(intercepted) + stopped == sum(not p.active for p in fight.guards)  # one interception per guard
    # Dax's readied action never fired and was lost when his next turn came
    assert readied and all(r.state == "lost" for r in readied)
    assert any("readied action (on Bram leaves cover) is lost" in line for line in fight.log)
    # Dax was climbing: every Hit he took called for a hold-on roll
    dax_hits = [line for line in fight.log if "Hit to Dax" in line]
    assert dax_hits and all("holds on" in line for line in dax_hits) and fight.fighters["Dax"].climbing == 6


def test_combat_log_refuses_illegal_attacks():
    fight = Skirmish(cast(), SeededSource(1))
    with pytest.raises(HeimrError, match="start"):
        fight.attack("Ada")
    fight.start()
    me = fight.current
    with pytest.raises(HeimrError, match="'Ghost'"):
        fight.attack("Ghost")
    with pytest.raises(HeimrError, match="cannot attack"):
        fight.attack(me.name)
    with pytest.raises(HeimrError, match="distinct"):
        Skirmish(cast()[:1], SeededSource(1))
    with pytest.raises(HeimrError, match="-2"):
        Skirmish(cast(), SeededSource(1), darkness=-2)


def test_hidden_target_cannot_be_attacked_in_the_log():
    fight = Skirmish(cast(), SeededSource(2))
    fight.start()
    while fight.current.name != "Ada":
        fight.end_turn()
    with pytest.raises(HeimrError, match="Cora is hidden from Ada"):
        fight.attack("Cora")
