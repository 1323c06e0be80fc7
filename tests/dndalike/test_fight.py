"""A whole DnDalike fight a GM might run, each step checked against the rule it follows.

Turn order by party, action dice paid into the stack, attacks against armour class (raised by a
DODGE), a natural 1, the Heavy Hitter and Riposte powers, wounds (secret dice for the normal, tallies
for the lesser), a coup de grace that kills, spells with their casting saves, gathering power, the
sorcerer's end-of-turn save and fatigue up to the maximum, then a rest and the price of the next power.
"""

from rules.dice import ScriptedSource
from rules.dndalike.characters import ActionDice
from rules.dndalike.combat import Combat, Combatant, current_ac, hits
from rules.dndalike.core import save_succeeds
from rules.dndalike.levels import next_power_cost, power_price
from rules.dndalike.skills import rest
from rules.dndalike.spellcasting import Spell, SpellStones
from rules.dndalike.wounds import heal_wound

DICE = [4, 3, 2,   # Georgia's Jab (A 4) on the Orc, who Dodges (M 3); the Orc's wound die 2
        2, 4,      # Merla casts Fire Bolt (M 2); her casting save 4 at -1
        1, 1, 1,   # she gathers power (M 1, M 1) and draws the one stone in her bag
        1,         # end of the heroes' turn: her sorcery save, a natural 1
        5, 6,      # the Orc's Jab (A 5) on Georgia; her Riposte (A 6)
        5, 3,      # the Goblin's Jab (A 5) on Merla; her wound die 3
        5,         # Georgia's Jab (A 5) on the Goblin
        3, 4,      # her Coup de Grace (A 3); the finishing blow's die 4
        2, 2,      # Merla casts Tidal Push (M 2); her casting save 2 at -1
        1,         # end of the heroes' turn: her save, a natural 1
        1,         # the Orc's Jab, a natural 1
        1]         # end of the heroes' next turn: her save, a natural 1 again


def test_a_whole_dndalike_fight_follows_every_rule_a_gm_meets():
    georgia = Combatant("Georgia", "heroes", 2, 6, dice=ActionDice(1, 3, 0), powers={"Heavy Hitter", "Riposte"})
    merla = Combatant("Merla", "heroes", 1, 5, dice=ActionDice(3, 0, 0), maximum_fatigue=2, powers={"Spell"},
                      stones=SpellStones(bag=["Water"], active=["Fire"]))
    orc = Combatant("Orc", "monsters", 2, 6, dice=ActionDice(1, 1, 0))
    goblin = Combatant("Goblin", "monsters", 1, 3, lesser=True, dice=ActionDice(1, 1, 0))
    fight = Combat([georgia, merla, orc, goblin], ScriptedSource(DICE), order=("heroes", "monsters"))
    assert fight.active_party == "heroes"

    # the Orc's DODGE raises its armour class to its die; Georgia's 4 still hits; Heavy Hitter fatigues
    fight.announce(georgia, "Jab", orc)
    fight.announce(orc, "Dodge")
    lines = fight.resolve_all()
    assert "Orc's armour class is 3 until the end of the turn" in lines and current_ac(orc) == 3
    assert hits(4, 4, 3) and "Georgia's 4 against armour class 3: hit" in lines
    assert orc.fatigue == 2 and orc.damage.rolls == [2]  # Dodge's fatigue, Heavy Hitter's; a secret wound die

    # a spell: stones from the active pool to the discard pile; the save at -level decides fatigue
    fight.announce(merla, "Cast a Spell", goblin, spell=Spell("Fire Bolt", 1, "Fire"), stones=["Fire"])
    assert save_succeeds(4, 0, modifier=-1) and "Fire Bolt takes effect" in fight.resolve_all()
    assert merla.stones.discard == ["Fire"] and merla.fatigue == 0
    fight.announce(merla, "Gather Power")
    assert "Merla gathers a Water stone" in fight.resolve_all() and merla.stones.active == ["Water"]

    # the end-of-turn save: a natural 1 fails; she chooses fatigue, below her maximum
    lines = fight.end_turn({"Merla": "fatigue"})
    assert "Merla's sorcery save: 1 -> failure" in lines and merla.fatigue == 1
    assert fight.active_party == "monsters" and current_ac(orc) == 2  # raised armour lapses

    # Riposte: a higher attack die cancels the melee attack (and hits the attacker)
    jab = fight.announce(orc, "Jab", georgia)
    fight.announce(georgia, "Riposte", jab)
    fight.resolve_all()
    assert jab.status == "cancelled" and georgia.damage.count == 0 and orc.fatigue == 3
    # a wound on a normal character is a secret d6
    fight.announce(goblin, "Jab", merla)
    fight.resolve_all()
    assert merla.damage.count == 1 and merla.damage.rolls == [3]
    fight.end_turn()

    # a lesser character's wounds are tallies; a coup de grace rolls a die per wound against health
    fight.announce(georgia, "Jab", goblin)
    fight.resolve_all()
    assert goblin.damage.count == 1 and goblin.damage.rolls == []
    fight.announce(georgia, "Coup de Grace", goblin)
    lines = fight.resolve_all()
    assert "finishing blow: damage 4 (rolled 4) against health 3" in lines and not goblin.alive

    # the gathered stone pays for a Water spell
    fight.announce(merla, "Cast a Spell", orc, spell=Spell("Tidal Push", 1, "Water"), stones=["Water"])
    assert save_succeeds(2, 1, modifier=-1) and "Tidal Push takes effect" in fight.resolve_all()
    fight.end_turn({"Merla": "fatigue"})
    assert merla.fatigue == 2 == merla.maximum_fatigue

    # a natural 1 always misses
    fight.announce(orc, "Jab", georgia)
    assert not hits(1, 1, 2) and "Orc's 1 against armour class 2: miss" in fight.resolve_all()
    fight.end_turn()

    # at her maximum, chosen fatigue is no longer possible: the stones go, and no wound comes
    lines = fight.end_turn({"Merla": "fatigue"})
    assert any("already at maximum fatigue" in line for line in lines)
    assert merla.fatigue == 2 and merla.damage.count == 1 and merla.stones.lost == ["Fire", "Water"]

    # after the fight: a rest clears fatigue, brings the stones back and heals a wound
    outcome = rest(merla.fatigue)
    assert (outcome.fatigue, outcome.wound_removed, outcome.stones_regained) == (0, True, True)
    merla.stones.rest()
    assert merla.stones.bag == ["Fire", "Water"] and heal_wound(merla.damage) == 3 and merla.damage.count == 0
    # advancement: Georgia's third power, of her own (dominant) class, costs the table's price
    assert next_power_cost(["Fighter", "Fighter"], "Fighter") == power_price(3)
