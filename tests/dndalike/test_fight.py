"""Whole DnDalike fights a GM might run, each step checked against the rule it follows.

Turn order by party, action dice paid into the stack, attacks against armour class (raised by a
DODGE), a natural 1, the Heavy Hitter and Riposte powers, wounds (secret dice for the normal, tallies
for the lesser), a coup de grace that kills, spells with their casting saves, gathering power, the
sorcerer's end-of-turn save and fatigue up to the maximum, then a rest and the price of the next power.
The second fight builds its fighters from character sheets and adds a move cut short by a merged
attack, a block, a bow shot aimed into a melee with a Lucky save, a two-handed weapon's double wounds
through a dodge, a die bought back with fatigue, a finishing blow that fails on a normal character,
a lesser one's that kills, a rest through the tracker and a level's health.
"""

from rules.dice import ScriptedSource
from rules.dndalike.characters import ActionDice, Character, Stats, health_gain
from rules.dndalike.combat import Combat, Combatant, current_ac, hits, turn_order
from rules.dndalike.core import save_succeeds
from rules.dndalike.levels import next_power_cost, power_price
from rules.dndalike.matchup import wants_blow
from rules.dndalike.skills import rest
from rules.dndalike.spellcasting import Spell, SpellStones
from rules.dndalike.statblocks import orc as orc_sheet
from rules.dndalike.wounds import wounds_dealt

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
    outcome = fight.rest(merla)
    assert outcome == rest(2) and (outcome.fatigue, outcome.wound_removed, outcome.stones_regained) == (0, True, True)
    assert merla.fatigue == 0 and merla.stones.bag == ["Fire", "Water"]
    assert merla.damage.count == 0 and merla.damage.rolls == []  # the one wound (its die 3) healed
    # advancement: Georgia's third power, of her own (dominant) class, costs the table's price
    assert next_power_cost(["Fighter", "Fighter"], "Fighter") == power_price(3)


# -- a second fight: sheets, a move cut short, a shield, a bow, two hands, a blow that fails -----------
PLAIN = Stats(10, 10, 10, 10, 10, 10)
BRAKK = Character(Stats(15, 10, 10, 10, 10, 10), ("Fighter",), "Light Armour", ("two-handed weapon",))
SELA = Character(PLAIN, ("Fighter",), "Heavy Armour", ("weapon", "shield"))
PIP = Character(PLAIN, ("Rogue",), "Nothing", ("bow",))
CHIEF = Character(Stats(14, 10, 15, 6, 9, 8), ("Fighter", "Fighter"), "Light Armour")

SECOND_DICE = [
    2, 4,        # monsters: the Orc moves into the hall (M 2); Sela's jab merged into the move (A 4)
    3, 5,        # the Chief jabs Pip (A 3); Sela blocks (S 5)
    5, 1, 4, 3,  # heroes: Pip shoots the Chief (A 5), aims into the melee (a Lucky save: 1 and 4); wound die 3
    3, 3, 2, 5,  # Brakk's two-handed jab (A 3 +1); the Chief dodges (M 3); two wound dice 2 and 5
    4,           # Sela, her Attack die bought back with fatigue, tries a coup de grace (A 4)
    6, 4,        # monsters: the Orc's jab on Brakk, a natural 6; his wound die 4
    1,           # the Chief's jab on Sela, a natural 1
    5,           # heroes: Sela jabs the Orc (A 5)
    5, 4, 3,     # Brakk's coup de grace (A 5 +1): the lesser Orc's two wounds rolled afresh, 4 and 3
]


def test_a_fight_of_sheets_with_a_move_cut_short_a_shield_a_bow_two_hands_then_a_rest_and_a_new_power():
    brakk = Combatant.from_character("Brakk", "heroes", BRAKK, powers=["Heavy Hitter"], place="hall")
    sela = Combatant.from_character("Sela", "heroes", SELA, place="hall")
    pip = Combatant.from_character("Pip", "heroes", PIP, powers=["Lucky"], place="hall")
    orc = Combatant.from_character("Orc", "monsters", orc_sheet(), lesser=True, place="stairs")
    chief = Combatant.from_character("Chief", "monsters", CHIEF, place="hall")
    order = turn_order({"heroes": 2, "monsters": 0})  # the monsters were there first
    fight = Combat([brakk, sela, pip, orc, chief], ScriptedSource(SECOND_DICE), order=order)
    assert order == ("monsters", "heroes") and fight.active_party == "monsters"
    assert (brakk.fatigue, sela.fatigue, pip.fatigue) == (2, 3, 0)  # armour's permanent fatigue

    # a move interrupted: the merged jab lands when the Orc reaches the hall, a tally for a lesser one
    move = fight.announce(orc, "Move", path=("hall",))
    fight.merge(sela, "Jab", move, at="hall")
    lines = fight.resolve_all()
    assert "Orc reaches hall" in lines and orc.damage.count == 1 and orc.damage.rolls == []
    # a block: Pip stands in Sela's melee range; the Chief's A 3 is no higher than her S 5
    jab = fight.announce(chief, "Jab", pip)
    fight.announce(sela, "Block", jab)
    fight.resolve_all()
    assert jab.status == "cancelled" and pip.damage.count == 0
    fight.end_turn()

    # a bow into a melee: Pip aims (1 fatigue) and saves with Lucky's advantage, keeping the 4
    shot = fight.announce(pip, "Jab", chief)
    assert pip.fatigue == 1 and shot.target is chief and not save_succeeds(1, 1)
    assert "Pip saves against fatigue 1: 1/4 -> success" in fight.log
    fight.resolve_all()
    assert chief.damage.rolls == [3]
    # two hands: the dodge raises armour class to 3, Brakk's 3 + 1 still hits for two wounds, and
    # Heavy Hitter adds a fatigue to the Chief's own from the dodge
    fight.announce(brakk, "Jab", chief)
    fight.announce(chief, "Dodge")
    lines = fight.resolve_all()
    assert current_ac(chief) == 3 and hits(4, 3, 3) and "Brakk's 4 against armour class 3: hit" in lines
    assert chief.damage.count == 1 + wounds_dealt(1, two_handed=True) and chief.damage.rolls == [3, 2, 5]
    assert chief.fatigue == 2 + 1 + 1
    # a spent Attack die bought back with fatigue; the finishing blow shows 10 against health 14
    fight.announce(sela, "Regain a Die", die_type="A")
    fight.resolve_all()
    assert sela.fatigue == 4 and sela.pool["A"] == 1
    fight.announce(sela, "Coup de Grace", chief)
    lines = fight.resolve_all()
    assert "finishing blow: damage 10 against health 14" in lines and chief.alive
    assert chief.blow_failed_at == 3 and not wants_blow(3, 14, lesser=False, failed_at=chief.blow_failed_at)
    fight.end_turn()
    assert current_ac(chief) == 2  # the dodge lapsed with the turn

    # a natural 6 always hits (a secret wound die for a normal character); a natural 1 always misses
    fight.announce(orc, "Jab", brakk)
    fight.resolve_all()
    fight.announce(chief, "Jab", sela)
    lines = fight.resolve_all()
    assert brakk.damage.rolls == [4] and "Chief's 1 against armour class 3: miss" in lines
    fight.end_turn()

    # a lesser character's finishing blow rolls its wounds afresh: 4 + 3 reaches health 7
    fight.announce(sela, "Jab", orc)
    fight.resolve_all()
    fight.announce(brakk, "Coup de Grace", orc)
    lines = fight.resolve_all()
    assert "finishing blow: damage 7 (rolled 4+3) against health 7" in lines and not orc.alive
    assert orc.fatigue == 2 + 1  # Heavy Hitter, hit or miss

    # after the fight: a rest through the tracker (armour's fatigue stays, one wound heals)
    expected = rest(brakk.fatigue, permanent_fatigue=brakk.permanent_fatigue)
    assert fight.rest(brakk) == expected and brakk.damage.count == 0 and brakk.fatigue == 2
    assert fight.rest(sela).fatigue == 3 and fight.rest(pip).fatigue == 0
    # advancement: a second Fighter power adds the class's health plus the Constitution bonus
    stronger = BRAKK.gain_power("Fighter")
    assert stronger.health == BRAKK.health + health_gain("Fighter", 0) == 12
    assert next_power_cost(["Fighter"], "Rogue") == power_price(2) * 3 // 2
