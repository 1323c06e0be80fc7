"""The combat stack, played with scripted dice; expected outcomes from the source's examples and rules."""

import pytest

from rules.dice import ScriptedSource
from rules.dndalike.characters import ActionDice, Character, Stats, action_dice
from rules.dndalike.combat import (
    Combat,
    Combatant,
    CombatSettings,
    DndalikeError,
    current_ac,
    fatigue_to_act,
    hits,
    turn_order,
    ACTIONS,
)
from rules.dndalike.skills import Task
from rules.dndalike.spellcasting import Spell, SpellStones


def hero(name="Georgia", **kw):
    kw.setdefault("armour_class", 1)
    kw.setdefault("health", 6)
    return Combatant(name, "heroes", **kw)


def monster(name="Orc", **kw):
    kw.setdefault("armour_class", 2)
    kw.setdefault("health", 5)
    return Combatant(name, "monsters", **kw)


def test_turn_order_party_present_longest_goes_first():
    assert turn_order({"heroes": 5, "monsters": 0}) == ("monsters", "heroes")
    with pytest.raises(DndalikeError, match="'soon'"):
        turn_order({"heroes": "soon"})
    with pytest.raises(DndalikeError, match="heroes"):
        Combat([hero()], ScriptedSource([]), order=("monsters",))


def test_stack_georgia_attack_two_misses_after_the_orc_dodges_with_three():
    georgia, orc = hero(), monster()
    fight = Combat([orc, georgia], ScriptedSource([2, 3]), order=("heroes", "monsters"))
    jab = fight.announce(georgia, "Jab", orc)
    assert hits(jab.value, jab.natural, current_ac(orc))  # a hit, had it resolved now
    fight.announce(orc, "Dodge")
    assert orc.fatigue == 1 and orc.pool["M"] == 0
    lines = fight.resolve_all()
    assert current_ac(orc) == 3
    assert lines[-1] == "Georgia's 2 against armour class 3: miss"


def test_interrupting_movement_goblin_is_jabbed_as_it_passes_then_finishes_its_move():
    goblin = monster("Goblin", armour_class=1, health=4, lesser=True, place="hall")
    georgia = hero(place="door")
    fight = Combat([goblin, georgia], ScriptedSource([4, 5]), order=("monsters", "heroes"))
    move = fight.announce(goblin, "Move", path=("door", "labyrinth"))
    fight.merge(georgia, "Jab", move, at="door")
    lines = fight.resolve_all()
    assert "Goblin takes 1 wound (1 in all)" in lines
    assert lines.index("Goblin reaches door") < lines.index("Goblin takes 1 wound (1 in all)") < \
        lines.index("Goblin reaches labyrinth")
    assert goblin.place == "labyrinth"
    other = monster("Kobold", place="hall")
    fight2 = Combat([other, hero("Ann", place="hall")], ScriptedSource([3]), order=("monsters", "heroes"))
    with pytest.raises(DndalikeError, match="'attic'"):
        fight2.merge(fight2.combatants[1], "Jab", fight2.announce(other, "Move", path=("door",)), at="attic")


def test_slow_and_quick_slow_actions_only_on_own_turn_with_an_empty_stack():
    georgia, orc = hero(), monster()
    fight = Combat([orc, georgia], ScriptedSource([3, 4]), order=("monsters", "heroes"))
    with pytest.raises(DndalikeError, match="someone else's turn"):
        fight.announce(georgia, "Jab", orc)
    fight.announce(orc, "Jab", georgia)
    with pytest.raises(DndalikeError):
        fight.announce(orc, "Move", path=("door",))
    fight.announce(georgia, "Dodge")  # quick: fine
    assert fatigue_to_act(ACTIONS["Dodge"], georgia, own_turn=False, stack_empty=False) == 0


def test_tumble_two_handed_and_bow_let_slow_actions_go_quick():
    rogue = hero("Rogue", powers={"Tumble"})
    brute = hero("Brute", features=action_dice("two-handed weapon").features)
    archer = hero("Archer", features=action_dice("bow").features, place="ledge")
    orc = monster(place="ledge")
    rogue.place = brute.place = "ledge"
    archer.place = "hill"
    fight = Combat([orc, rogue, brute, archer], ScriptedSource([3, 2, 4, 5, 2]), order=("monsters", "heroes"))
    fight.announce(orc, "Jab", rogue)
    fight.announce(rogue, "Move", path=("here",))
    assert rogue.fatigue == 1
    fight.announce(brute, "Jab", orc)
    assert brute.fatigue == 1
    fight.announce(archer, "Jab", orc, aim=False)  # a bow shot: quick for free (into a melee: random target)
    assert archer.fatigue == 0


def test_natural_six_always_hits_and_natural_one_always_misses():
    assert hits(6, 6, 9) and not hits(1, 1, 0) and hits(3, 3, 3) and not hits(2, 2, 3)
    georgia, orc = hero(), monster(armour_class=7)
    fight = Combat([georgia, orc], ScriptedSource([6, 3]), order=("heroes", "monsters"))
    fight.announce(georgia, "Jab", orc)
    assert "Orc takes 1 wound (1 in all)" in fight.resolve_all()


def test_reach_out_of_reach_at_resolution_fails_even_on_a_natural_six():
    georgia, orc = hero(), monster(place="far away")
    fight = Combat([georgia, orc], ScriptedSource([6]), order=("heroes", "monsters"))
    fight.announce(georgia, "Jab", orc)
    assert fight.resolve_all()[-1] == "Orc is out of reach: the attack fails"


def test_move_and_dodge_raise_armour_class_to_the_die_max_or_set():
    orc = monster(armour_class=3)
    fight = Combat([orc], ScriptedSource([1]), order=("monsters",))
    fight.announce(orc, "Dodge")
    fight.resolve_all()
    assert current_ac(orc) == 3
    assert current_ac(orc, CombatSettings(raise_ac="set")) == 1
    with pytest.raises(DndalikeError, match="'add'"):
        CombatSettings(raise_ac="add")


def test_dexterity_bonus_adds_to_the_movement_die():
    orc = monster(movement_bonus=1)
    fight = Combat([orc], ScriptedSource([4]), order=("monsters",))
    assert fight.announce(orc, "Dodge").value == 5


def test_block_cancels_a_melee_attack_no_higher_than_the_shield_die():
    georgia = hero(dice=ActionDice(1, 1, 1), features={"block"})
    orc = monster()
    fight = Combat([orc, georgia], ScriptedSource([3, 4]), order=("monsters", "heroes"))
    jab = fight.announce(orc, "Jab", georgia)
    fight.announce(georgia, "Block", jab)
    lines = fight.resolve_all()
    assert "Orc: Jab on Georgia (A 3) is cancelled (blocked: A 3 against S 4)" in lines
    assert georgia.damage.count == 0
    fight = Combat([orc, georgia], ScriptedSource([5, 2, 3]), order=("monsters", "heroes"))
    orc.pool, georgia.pool = orc.dice.as_dict(), georgia.dice.as_dict()
    jab = fight.announce(orc, "Jab", georgia)
    fight.announce(georgia, "Block", jab)
    assert "Georgia takes 1 wound (1 in all)" in fight.resolve_all()


def test_block_cancels_a_ranged_attack_and_returns_the_shield_die():
    georgia = hero(dice=ActionDice(1, 1, 1), features={"block"})
    archer = monster("Archer", features={"ranged", "quick attacks"}, place="ledge")
    fight = Combat([archer, georgia], ScriptedSource([4, 1]), order=("monsters", "heroes"))
    shot = fight.announce(archer, "Jab", georgia)
    fight.announce(georgia, "Block", shot)
    assert georgia.pool["S"] == 0
    fight.resolve_all()
    assert shot.status == "cancelled" and georgia.pool["S"] == 1
    with pytest.raises(DndalikeError, match="'block'"):
        Combat([archer, hero("Ann")], ScriptedSource([4]), order=("monsters", "heroes")).announce(
            hero("Ann"), "Block", shot)


def test_wounds_and_the_stack_a_wound_forces_a_save_or_loses_stacked_abilities():
    brute = hero("Brute", features=action_dice("two-handed weapon").features)
    orc = monster()
    # orc A 3, brute A 5 (quick for 1 fatigue), damage 2 and 4 (double wounds), orc's save 1 fails
    fight = Combat([orc, brute], ScriptedSource([3, 5, 2, 4, 1]), order=("monsters", "heroes"))
    jab = fight.announce(orc, "Jab", brute)
    fight.announce(brute, "Jab", orc)
    lines = fight.resolve_all()
    assert "Orc takes 2 wounds (2 in all)" in lines
    assert jab.status == "cancelled" and brute.damage.count == 0 and orc.damage.total == 6


def test_wounds_and_the_stack_a_hit_without_a_wound_saves_with_advantage():
    fighter = hero("Fighter", dice=ActionDice(1, 2, 0), powers={"Trip"})
    goblin = monster("Goblin", armour_class=1)
    # goblin Dodge M 5 then Move M? the goblin has one M die: Jab instead, then Dodge is the target
    goblin.dice = ActionDice(2, 1, 0)
    goblin.pool = goblin.dice.as_dict()
    fight = Combat([goblin, fighter], ScriptedSource([4, 3, 5, 2, 1]), order=("monsters", "heroes"))
    jab = fight.announce(goblin, "Jab", fighter)           # A 4
    dodge = fight.announce(goblin, "Dodge")                # M 3
    fight.announce(fighter, "Trip", dodge)                 # A 5 vs AC 1: hit, dodge cancelled
    lines = fight.resolve()
    assert dodge.status == "cancelled"
    assert "Goblin saves against fatigue 1: 2/1 -> success" in lines  # advantage: two dice, keep 2
    assert jab.status == "stacked"


def test_death_cancels_every_stacked_ability():
    goblin = monster("Goblin", armour_class=1, health=3, lesser=True)
    goblin.damage.count = 2
    archer = hero("Archer", features={"ranged", "quick attacks"})
    fight = Combat([goblin, archer], ScriptedSource([4, 5, 2, 3]), order=("monsters", "heroes"))
    jab = fight.announce(goblin, "Jab", archer)
    fight.announce(archer, "Coup de Grace", goblin)
    lines = fight.resolve_all()
    assert "finishing blow: damage 5 (rolled 2+3) against health 3" in lines
    assert not goblin.alive and jab.status == "cancelled"


def test_coup_de_grace_that_does_not_kill_a_normal_character_changes_nothing():
    orc = monster(health=9)
    orc.damage.rolls, orc.damage.count = [3, 4], 2
    georgia = hero()
    fight = Combat([georgia, orc], ScriptedSource([5]), order=("heroes", "monsters"))
    fight.announce(georgia, "Coup de Grace", orc)
    assert "finishing blow: damage 7 against health 9" in fight.resolve_all() and orc.alive


def test_ranged_into_melee_aim_costs_fatigue_and_a_save_or_hits_someone_else():
    archer = hero("Archer", features={"ranged", "quick attacks"}, place="ledge")
    georgia, orc = hero(place="door"), monster(place="door")
    fight = Combat([archer, georgia, orc], ScriptedSource([5, 1, 1, 3]), order=("heroes", "monsters"))
    shot = fight.announce(archer, "Jab", orc)
    assert archer.fatigue == 1 and shot.target is georgia
    fight.resolve_all()
    assert georgia.damage.count == 1
    archer.pool = archer.dice.as_dict()
    fight = Combat([archer, georgia, orc], ScriptedSource([5, 2]), order=("heroes", "monsters"))
    assert fight.announce(archer, "Jab", georgia, aim=False).target is orc  # sorted: Georgia, Orc


def test_heavy_hitter_fatigues_the_target_even_on_a_miss():
    fighter, orc = hero("Fighter", powers={"Heavy Hitter"}), monster(armour_class=4)
    fight = Combat([fighter, orc], ScriptedSource([2]), order=("heroes", "monsters"))
    fight.announce(fighter, "Jab", orc)
    fight.resolve_all()
    assert orc.fatigue == 1 and orc.damage.count == 0


def test_riposte_cancels_a_melee_attack_with_a_lower_attack_die():
    georgia, orc = hero(powers={"Riposte"}), monster()
    fight = Combat([orc, georgia], ScriptedSource([3, 4]), order=("monsters", "heroes"))
    jab = fight.announce(orc, "Jab", georgia)
    fight.announce(georgia, "Riposte", jab)
    fight.resolve_all()
    assert jab.status == "cancelled" and georgia.damage.count == 0


def test_cast_a_spell_natural_six_puts_a_free_copy_on_the_stack():
    wizard = hero("Merla", stones=SpellStones(active=["Fire"]), dice=ActionDice(2, 0, 0))
    orc = monster()
    fight = Combat([wizard, orc], ScriptedSource([3, 6, 4, 5]), order=("heroes", "monsters"))
    fight.announce(wizard, "Cast a Spell", orc, spell=Spell("Fire Bolt", 1, "Fire"), stones=["Fire"])
    assert wizard.stones.discard == ["Fire"]
    with pytest.raises(DndalikeError):
        fight.announce(wizard, "Cast a Spell", orc, spell=Spell("Fire Bolt", 1, "Fire"), stones=["Fire"])
    lines = fight.resolve_all()
    assert lines.count("Fire Bolt takes effect") == 2 and wizard.fatigue == 1
    lines = fight.end_turn()
    assert "Merla's sorcery save: 5 -> success" in lines
    with pytest.raises(DndalikeError, match="someone else's turn"):
        fight.announce(wizard, "Cast a Spell", orc, spell=Spell("Fire Bolt", 1, "Fire"), stones=["Fire"])
    fight.end_turn()
    with pytest.raises(DndalikeError, match="stone"):
        fight.announce(wizard, "Cast a Spell", orc, spell=Spell("Fire Bolt", 1, "Fire"), stones=[])


def test_gather_power_and_exert():
    wizard = hero("Merla", stones=SpellStones(bag=["Fire"]), dice=ActionDice(2, 0, 0), powers={"Exert"})
    fight = Combat([wizard], ScriptedSource([2, 3, 1]), order=("heroes",))
    fight.announce(wizard, "Gather Power")
    fight.resolve_all()
    assert wizard.stones.active == ["Fire"] and wizard.pool["M"] == 0
    fight.announce(wizard, "Exert", die_type="M")
    fight.resolve_all()
    assert wizard.pool["M"] == 1 and wizard.fatigue == 1


def test_powerful_stone_counts_as_a_natural_six():
    wizard = hero("Merla", stones=SpellStones(active=["Fire"]), powers={"Powerful"})
    orc = monster(armour_class=9)
    fight = Combat([wizard, orc], ScriptedSource([5, 2]), order=("heroes", "monsters"))
    item = fight.announce(wizard, "Jab", orc, stone_as="A")
    assert (item.natural, wizard.pool["A"], wizard.fatigue) == (6, 1, 0)
    assert "Orc takes 1 wound (1 in all)" in fight.resolve_all()


def test_end_of_turn_needs_an_empty_stack_then_refreshes_dice_and_armour():
    georgia, orc = hero(), monster()
    fight = Combat([orc, georgia], ScriptedSource([3, 4]), order=("monsters", "heroes"))
    fight.announce(orc, "Dodge")
    with pytest.raises(DndalikeError):
        fight.end_turn()
    fight.resolve_all()
    assert current_ac(orc) == 3 and orc.pool["M"] == 0
    assert fight.end_turn()[-1] == "turn: heroes"
    assert current_ac(orc) == 2 and orc.pool["M"] == 1 and fight.active_party == "heroes"


def test_skill_attempt_in_combat_costs_a_movement_die():
    georgia = hero()
    task = Task(requirement=3)
    fight = Combat([georgia], ScriptedSource([2, 4, 4]), order=("heroes",))
    fight.announce(georgia, "Skill Attempt", task=task, skill_level="Skilled")
    fight.resolve_all()
    assert task.progress == 1 and georgia.pool["M"] == 0


def test_bad_actions_raise_specific_errors():
    georgia, orc = hero(), monster()
    fight = Combat([georgia, orc], ScriptedSource([1, 1]), order=("heroes", "monsters"))
    with pytest.raises(DndalikeError, match="'Fireball'"):
        fight.announce(georgia, "Fireball")
    with pytest.raises(DndalikeError):
        fight.announce(georgia, "Jab")
    with pytest.raises(DndalikeError, match="no sorcerer"):
        fight.announce(georgia, "Gather Power")
    fight.announce(georgia, "Jab", orc)
    fight.resolve_all()
    with pytest.raises(DndalikeError, match="0 A dice"):
        fight.announce(georgia, "Jab", orc)


def test_combatant_from_a_character_sheet():
    sheet = Character(Stats(16, 9, 5, 12, 18, 15), ("Fighter",), "Heavy Armour", ("weapon", "shield"))
    c = Combatant.from_character("Georgia", "heroes", sheet, powers=["Trip"])
    assert (c.armour_class, c.health, c.fatigue, c.maximum_fatigue, c.attack_bonus) == (4, 5, 3, 8, 1)
    assert c.pool == {"M": 1, "A": 1, "S": 1} and "block" in c.features


def test_heavy_hitter_fatigue_past_the_maximum_is_a_wound():
    fighter = hero("Fighter", powers={"Heavy Hitter"})
    orc = monster(armour_class=6, fatigue=6, maximum_fatigue=6)
    fight = Combat([fighter, orc], ScriptedSource([2, 5]), order=("heroes", "monsters"))
    fight.announce(fighter, "Jab", orc)
    lines = fight.resolve_all()
    assert "Orc takes 1 wound (1 in all)" in lines and orc.fatigue == 7 and orc.damage.rolls == [5]


def test_bad_combatant_numbers_and_die_faces_are_refused_by_name():
    from rules.dndalike import combat
    from rules.dndalike.core import DndalikeError

    with pytest.raises(combat.DndalikeError, match="health 0"):
        combat.Combatant("Ghost", "monsters", armour_class=1, health=0)
    with pytest.raises(combat.DndalikeError, match="armour class 'x'"):
        combat.Combatant("Orc", "monsters", armour_class="x", health=5)
    with pytest.raises(combat.DndalikeError, match="fatigue -1"):
        combat.Combatant("Orc", "monsters", armour_class=1, health=5, fatigue=-1)
    # a Charisma of -2 with no armour is a legal armour class of -2
    assert combat.Combatant("Oaf", "heroes", armour_class=-2, health=5).armour_class == -2
    with pytest.raises(DndalikeError, match="7"):
        combat.hits(7, 7, 2)                      # no d6 shows a natural 7
    with pytest.raises(combat.DndalikeError, match="True"):
        combat.CombatSettings(ranged_aim_fatigue=True)


def test_basic_trip_anyone_slow_and_stops_movement_until_end_of_turn():
    ann, orc = hero("Ann"), monster(dice=ActionDice(1, 1, 0))
    fight = Combat([ann, orc], ScriptedSource([4]))
    with pytest.raises(DndalikeError, match="slow"):  # not in response: it is a slow action
        fight.announce(orc, "Basic Trip", ann)
    fight.announce(ann, "Basic Trip", orc)
    assert fight.resolve_all()[-1] == "Orc is tripped until the end of the turn"
    with pytest.raises(DndalikeError, match="Orc is tripped"):
        fight.announce(orc, "Dodge")
    fight.end_turn()
    assert not orc.tripped
    fight2 = Combat([hero("Bo"), monster()], ScriptedSource([4]), settings=CombatSettings(basic_trip=False))
    with pytest.raises(DndalikeError, match="basic_trip=False"):
        fight2.announce(fight2.combatants[0], "Basic Trip", fight2.combatants[1])


def test_basic_trip_is_slow_so_it_cannot_answer_a_move():
    orc, ann = monster(), hero("Ann", dice=ActionDice(1, 1, 0))
    fight = Combat([orc, ann], ScriptedSource([3, 5, 1]), order=("monsters", "heroes"))
    move = fight.announce(orc, "Move", path=("hall",))
    with pytest.raises(DndalikeError):  # the basic trip cannot answer a move: only the Trip power can
        fight.announce(ann, "Basic Trip", orc)
    assert move.status == "stacked"


def test_regain_a_die_anyone_for_one_fatigue():
    ann = hero("Ann")
    fight = Combat([ann, monster()], ScriptedSource([4, 5]))
    from rules.dndalike.powers import DndalikeError
    with pytest.raises(DndalikeError, match="no A die has been spent"):
        fight.announce(ann, "Regain a Die", die_type="A")
    assert ann.fatigue == 0  # nothing was paid
    fight.announce(ann, "Jab", fight.combatants[1])
    fight.resolve_all()
    fight.announce(ann, "Regain a Die", die_type="A")
    assert fight.resolve_all()[-1] == "Ann regains an A die"
    assert ann.pool["A"] == 1 and ann.fatigue == 1
    with pytest.raises(DndalikeError, match="'no'"):
        CombatSettings(basic_regain="no")  # type: ignore[arg-type]


def test_shot_goes_astray_only_when_the_pick_lands_on_someone_else():
    def shot(pick):
        archer = hero("Archer", features={"ranged", "quick attacks"}, place="ledge")
        georgia, orc = hero("Georgia", place="door"), monster(place="door")
        fight = Combat([archer, georgia, orc], ScriptedSource([5, pick]))
        item = fight.announce(archer, "Jab", orc, aim=False)
        return item.target.name, fight.log[0]
    assert shot(2) == ("Orc", "the DM's pick lands on the intended target, Orc")
    assert shot(1) == ("Georgia", "the shot goes astray: it targets Georgia")


def seeded_skirmish(seed):
    """A fixed table policy, played with a seed: Bo trips the orc, buys an Attack die back with
    fatigue and jabs; an archer shoots the orc in the melee without aiming; the monsters jab Bo."""
    from rules.dice import SeededSource
    bo = hero("Bo", place="door", maximum_fatigue=8)
    archer = hero("Archer", features={"ranged", "quick attacks"}, place="ledge")
    orc = monster("Orc", place="door", dice=ActionDice(1, 1, 0))
    goblin = monster("Goblin", place="door", lesser=True, armour_class=1)
    fight = Combat([bo, archer, orc, goblin], SeededSource(seed))
    events = []
    for _ in range(12):
        if not (orc.alive or goblin.alive) or not (bo.alive or archer.alive):
            break
        if fight.active_party == "heroes":
            if bo.alive and orc.alive and bo.pool["A"]:
                fight.announce(bo, "Basic Trip", orc)
                if orc.pool["M"] and fight.turn % 4 == 2:
                    fight.announce(orc, "Dodge")  # now and then the orc answers before the trip lands
                fight.resolve_all()
                events.append(("tripped", orc.tripped))
                if orc.tripped and orc.pool["M"]:
                    with pytest.raises(DndalikeError, match="tripped"):
                        fight.announce(orc, "Dodge")
                    events.append(("dodge refused", True))
                if bo.fatigue < bo.maximum_fatigue:
                    fight.announce(bo, "Regain a Die", die_type="A")
                    fight.resolve_all()
                    events.append(("regained", bo.pool["A"]))
                    fight.announce(bo, "Jab", orc)
                    fight.resolve_all()
            target = orc if orc.alive else goblin
            if archer.alive and target.alive and archer.pool["A"]:
                start = len(fight.log)
                item = fight.announce(archer, "Jab", target, aim=False)
                events.append(("shot", target.name, item.target.name, fight.log[start:]))
                fight.resolve_all()
        else:
            for monster_ in (orc, goblin):
                victim = bo if bo.alive else None
                if monster_.alive and victim and monster_.pool["A"]:
                    fight.announce(monster_, "Jab", victim)
                    fight.resolve_all()
        fight.end_turn()
    return fight, events


def test_seeded_skirmish_trips_regains_and_reports_stray_shots_truthfully():
    fight, events = seeded_skirmish(0)
    kinds = {e[0] for e in events}
    assert {"tripped", "dodge refused", "regained", "shot"} <= kinds
    assert all(e[1] == 1 for e in events if e[0] == "regained")  # the fatigue bought the Attack die back
    shots = [e for e in events if e[0] == "shot"]
    astray = [e for e in shots if any("goes astray" in line for line in e[3])]
    true = [e for e in shots if any("lands on the intended target" in line for line in e[3])]
    assert astray and true  # the seed exercises both outcomes of the pick
    for _, intended, hit, lines in shots:
        if any("goes astray" in line for line in lines):
            assert hit != intended and f"it targets {hit}" in " ".join(lines)
        elif any("pick lands on the intended target" in line for line in lines):
            assert hit == intended
        else:
            assert hit == intended  # nobody else in the melee: no pick


def test_sorcerer_at_maximum_fatigue_who_fails_the_end_of_turn_save_loses_the_stones_not_a_wound():
    wizard = hero("Merla", stones=SpellStones(active=["Fire"], discard=["Water"]), fatigue=6, maximum_fatigue=6)
    fight = Combat([wizard, monster()], ScriptedSource([2]), order=("heroes", "monsters"))
    lines = fight.end_turn({"Merla": "fatigue"})
    assert wizard.fatigue == 6 and wizard.damage.count == 0
    assert wizard.stones.lost == ["Fire", "Water"] and wizard.stones.active == []
    assert any("already at maximum fatigue" in line for line in lines)


def test_resting_through_the_tracker_keeps_armour_fatigue_heals_one_wound_and_returns_stones():
    from rules.dndalike.skills import rest

    sorcerer = hero("Merla", fatigue=5, permanent_fatigue=2, stones=SpellStones(bag=[], active=["Fire"]))
    fight = Combat([sorcerer], ScriptedSource([4, 1]))
    fight.wound(sorcerer, 2)
    assert fight.rest(sorcerer, which="largest") == rest(5, permanent_fatigue=2)
    assert sorcerer.fatigue == 2 and sorcerer.damage.rolls == [1] and sorcerer.stones.bag == ["Fire"]
    # keeping fatigue for an easier watch: less recovered, no wound healed, no stones back
    sorcerer.fatigue = 5
    sorcerer.stones.active = sorcerer.stones.bag
    sorcerer.stones.bag = []
    assert not fight.rest(sorcerer, kept=1).wound_removed
    assert sorcerer.fatigue == 3 and sorcerer.damage.count == 1 and sorcerer.stones.bag == []


def test_nobody_rests_with_abilities_on_the_stack_nor_after_dying():
    georgia, orc = hero(), monster()
    fight = Combat([georgia, orc], ScriptedSource([4, 3]), order=("heroes", "monsters"))
    fight.announce(georgia, "Jab", orc)
    with pytest.raises(DndalikeError, match="1 abilities still wait"):
        fight.rest(georgia)
    fight.resolve_all()
    fight.kill(orc)
    with pytest.raises(DndalikeError, match="Orc is dead"):
        fight.rest(orc)


def test_a_failed_finishing_blow_reveals_a_normal_total_but_not_a_lesser_count():
    chief, goblin = monster("Chief", health=9), monster("Goblin", health=9, lesser=True)
    fight = Combat([hero(dice=ActionDice(1, 2, 0)), chief, goblin], ScriptedSource([2, 5, 5, 1, 1]),
                   order=("heroes", "monsters"))
    fight.wound(chief, 1)
    fight.wound(goblin, 2)
    for target in (chief, goblin):
        fight.announce(fight.combatants[0], "Coup de Grace", target)
        fight.resolve_all()
    assert chief.alive and chief.blow_failed_at == 1
    assert goblin.alive and goblin.blow_failed_at is None  # rolled afresh each time: nothing learnt
