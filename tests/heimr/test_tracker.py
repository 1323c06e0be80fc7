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
        if any(f.injured for f in fight.fighters.values()):  # the injury rules have tests of their own
            break
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


def duel(dice, *, a=None, b=None, **options):
    """Two fighters at consistency 0 (one d6 a roll); initiative dice first (A then B)."""
    from rules.dice import ScriptedSource
    a = Fighter("A", 0, 3, **{"hp": 4, "attack": (0, 0), "dodge": (0, 0), **(a or {})})
    b = Fighter("B", 0, 0, **{"hp": 4, "attack": (0, 0), "dodge": (0, 0), **(b or {})})
    fight = Skirmish([a, b], ScriptedSource([6, 1, *dice]), **options)
    fight.start()
    return fight, a, b


def test_a_fighter_at_zero_hp_or_below_is_injured_and_fights_on():
    # A swings 6 + 3 = 9 at B (2 HP), B dodges 1: 2 Hit, 0 HP, injured: location d6 1, an arm
    fight, a, b = duel([6, 1, 1], b={"hp": 2})
    blow = fight.attack("B")
    assert (blow.hit, b.hp, blow.location) == (2, 0, "arm")
    assert b.standing and b.injured and b.injuries == ["arm"] and b.effects == {"Drop"}
    assert "B" in fight.standing() and "Bloodied" in blow.line


def test_mutilated_fighters_are_out_and_a_deeper_reading_kills():
    fight, a, b = duel([6, 1, 5], b={"hp": -2})  # 2 Hit: -4 HP, Mutilated, out; location torso
    blow = fight.attack("B")
    assert b.hp == -4 and not b.standing and fight.standing() == ["A"] and "Mutilated, unconscious" in blow.line
    fight, a, b = duel([1, 1, 5], a={"weapon": "Great weapon"}, b={"hp": -3}, deeper="dead")  # 3 Hit: -6
    assert fight.attack("B").line.endswith(": dead, hit in the torso (Daze)")


@pytest.mark.parametrize(("face", "effect"), [(2, "Drop"), (4, "Fall"), (6, "Daze")])
def test_injury_effects_by_hit_location_last_until_the_end_of_the_next_turn(face, effect):
    fight, a, b = duel([6, 1, face], b={"hp": 1})
    fight.attack("B")
    assert b.effects == {effect}
    assert fight.end_turn() is b
    if effect in ("Drop", "Daze"):
        with pytest.raises(HeimrError, match="next turn"):
            fight.attack("A")
    else:  # prone: -2 consistency on his attack (a d6 and two d10s, the lowest counts)
        from rules.dice import ScriptedSource
        fight.source = ScriptedSource([5, 9, 9, 1])
        assert fight.attack("A").attack_roll == (-2, 3)
    fight.end_turn()
    assert b.effects == set()


def test_a_dazed_defender_cannot_defend():
    fight, a, b = duel([6, 5], b={"effects": {"Daze"}})
    blow = fight.attack("B")
    assert blow.landed and blow.defence_kind == "none (dazed)" and b.defences.uses["dodge"] == 0


def test_declining_to_defend_lets_the_attack_land_and_uses_no_defence():
    fight, a, b = duel([1])  # A rolls 1 + 3 = 4; B does not defend
    blow = fight.attack("B", defence="none")
    assert blow.landed and blow.hit == 2 and b.defences.uses == {"dodge": 0, "block": 0, "parry": 0}


def test_parry_stops_melee_attacks_only_one_per_wielded_weapon():
    fight, a, b = duel([2, 6, 2], b={"parry": (0, 1)})  # 5 vs parry 7: parried; a second parry is refused
    assert fight.attack("B", defence="parry").defence_kind == "parry"
    assert not fight.blows[-1].landed
    with pytest.raises(Exception, match="one parry per wielded melee weapon"):
        fight.attack("B", defence="parry")
    fight, a, b = duel([3], a={"weapon": "Bow"}, b={"parry": (0, 1)})
    with pytest.raises(HeimrError, match="cannot parry a shot"):
        fight.attack("B", action="shoot", defence="parry")


def test_a_weapon_in_each_hand_gives_two_attack_rolls_at_one_target():
    # 3 + 2 vs dodge 1; 3 + 2 vs a second dodge at C -2: d6 1, d10s 5, 5 -> 1
    fight, a, b = duel([3, 1, 3, 1, 5, 5], a={"weapon": "Light weapon", "off_hand": "Light weapon"})
    blow = fight.attack("B")
    assert [blow.attack, blow.more[0].attack] == [5, 5] and b.hp == 2
    assert str(blow).count("\n") == 1 and fight.blows[-2:] == [blow, blow.more[0]]
    assert b.defences.uses["dodge"] == 2  # the second roll met a second dodge


def test_shots_carry_the_range_penalty_and_stop_at_the_weapons_range():
    fight, a, b = duel([6, 1, 1, 1], a={"weapon": "Bow", "attack": (3, 0)})  # C 3 - floor(5/2) = 1
    assert fight.attack("B", action="shoot", distance=5).attack_roll == (1, 1)
    with pytest.raises(Exception, match="beyond the weapon's range"):
        fight.attack("B", action="shoot", distance=7)
    with pytest.raises(HeimrError, match="shot"):
        fight.attack("B", distance=2)


def test_shooting_into_a_cluster_takes_its_size_as_penalty_and_passes_a_dodged_shot_on():
    from rules.dice import ScriptedSource
    a = Fighter("A", 0, 3, 4, attack=(3, 0), dodge=(0, 0), weapon="Bow")
    b = Fighter("B", 0, 2, 4, attack=(0, 0), dodge=(0, 0))
    c = Fighter("C", 0, 1, 4, attack=(0, 0), dodge=(0, 0), shield="Medium shield", block=(0, 0))
    # initiative A, B, C; shot at C: C 3 - 2 = 1 (d6, d10) 5, C blocks 6 + 3: stops there
    fight = Skirmish([a, b, c], ScriptedSource([6, 4, 4, 5, 2, 6]))
    fight.start()
    blow = fight.attack("C", action="shoot", cluster=["B", "C"])
    assert (blow.attack_roll[0], blow.defence_kind, blow.more) == (1, "block", ())
    # shot at B: dodged (C 1: 6 vs 6), passed on to C at C 2: d6 4, d10s 9, 2 -> 10; C's second block
    # this round is at C -2: the lowest of 6, 9, 9 is 6, + 3 = 9: a hit
    fight.source = ScriptedSource([5, 2, 6, 4, 9, 2, 6, 9, 9])
    blow = fight.attack("B", action="shoot", cluster=["B", "C"])
    assert [(x.defender, x.attack_roll[0], x.landed) for x in (blow, *blow.more)] == [("B", 1, False),
                                                                                      ("C", 2, True)]
    assert c.hp == 1


def test_fatigue_gates_physical_rolls_and_grows_on_a_low_d6():
    # A has Stamina 1: fatigue 3.  Raw 2 fails the gate (no defence rolled) and 2 < 3 raises it to 4.
    fight, a, b = duel([2, 4, 3], a={"stamina": 1})
    assert a.fatigue == 3
    blow = fight.attack("B")
    assert not blow.landed and blow.defence_kind == "none" and "fails fatigue 3" in blow.line and a.fatigue == 4
    # raw 4 clears 4, and 4 < 4 does not raise it; B dodges 3
    assert fight.attack("B").landed and a.fatigue == 4
    assert fight.breather() == 3 and a.fatigue == 3
    # a defence that fails its gate lets the attack land: B (fatigue 3) dodges with raw 1
    fight, a, b = duel([1, 1, 6], b={"stamina": 1})
    blow = fight.attack("B")
    assert blow.landed and blow.defence_kind == "dodge (fails fatigue 3)" and b.fatigue == 4


def test_a_called_hit_location_replaces_the_roll():
    fight, a, b = duel([6, 1], b={"hp": 2})  # no location die is drawn
    blow = fight.attack("B", location="leg")
    assert blow.location == "leg" and b.effects == {"Fall"}
    with pytest.raises(HeimrError, match="'wing'"):
        fight.attack("B", location="wing")
