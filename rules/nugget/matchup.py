"""NUGGET encounter odds: the book's stat blocks fight through the fight tracker.

Each fighter is the stat block's character: the doctor as the creation rules make her (she fights with
Brawling and defends with it), the thug as a minion with a creature's Brawn, Fighting 2 and a big club.
:class:`~rules.nugget.tracker.Fight` plays every round (initiative, phases, defence once a phase,
Resistance); a seeded simulation runs through it.  A one-against-one fight also has an exact model
(:class:`DuelModel`): a player character is out only when Unconscious or Dead, so the Hurts and
Injuries she piles up have no bound, but past a point no rule reads them (no initiative total can
reach phase 1, no defence pool has a die left), so the model's states stop counting there and the
mean of what each fighter took is carried as the chain's expected gain each round.  A fight ends when
one side is out; a draw is a fight still going after :data:`rules.matchup.MAX_ROUNDS` rounds (the
exact chain: a fight that can never end).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache

from rules.dice import DiceSource, Dist, ScriptedSource
from rules.matchup import DRAW, MAX_ROUNDS, Duel, Matchup, MatchupError, Played, fighters_named, on_side
from rules.nugget.characters import Character, Skill, check_attribute
from rules.nugget.combat import attack_pool, defence_pool, hit_damage, hits, weapon_base
from rules.nugget.harm import Effect, Wounds, damage_effect, resisted_damage
from rules.nugget.initiative import (
    MINION_INITIATIVE,
    action_phases,
    minion_initiative,
    roll_initiative,
    wound_penalty,
)
from rules.nugget.npcs import TIERS, is_out
from rules.nugget.registry import REGISTRY
from rules.nugget.rolls import DIE_SIDES, is_too_hard, outcome_distribution, success_distribution
from rules.nugget.statblocks import THUG, THUG_FIGHTING, doctor
from rules.nugget.tracker import Fight, Fighter

#: What a fighter has "left": the Hurt and Injury boxes it has not yet taken.
LEFT_LABEL = "Hurts and Injuries taken"


def doctor_fighter(name: str, side: str) -> Fighter:
    """The doctor with her fists: Brawling to hit and to defend, unarmed, hand to hand."""
    ada = doctor()
    ada = Character(name, ada.attributes, ada.occupation, ada.core_skill, ada.skills, ada.goals, ada.destiny)
    brawling = ada.skill_dice("Brawling")
    return Fighter(ada, side, brawling, brawling, weapon_base("unarmed"))


def thug_fighter(name: str, side: str) -> Fighter:
    """The dockside thug: a minion (out at the first Hurt) swinging a big club with Fighting 2."""
    levels = {attribute: check_attribute(attribute, level, creature=True) for attribute, level in THUG.items()}
    thug = Character(name, levels, "Thug", Skill("Fighting", THUG_FIGHTING, fighting=True, close_combat=True))
    return Fighter(thug, side, THUG_FIGHTING, THUG_FIGHTING, weapon_base("big club"), tier="minion")


#: Stat block name -> (the block's own name, the builder).
FIGHTERS: dict[str, tuple[str, Callable[[str, str], Fighter]]] = {
    "doctor": ("Dr Ada Kell", doctor_fighter), "thug": ("Dockside thug", thug_fighter)}


def fighters(names: Sequence[str], side: str, taken: set[str]) -> list[Fighter]:
    """The fighters of side ``side``, from stat block names."""
    makers = {name: (base, on_side(maker, side)) for name, (base, maker) in FIGHTERS.items()}
    return fighters_named("nugget", names, makers, taken)


def play(side_a: Sequence[Fighter], side_b: Sequence[Fighter], source: DiceSource) -> Played:
    """One fight through :class:`Fight` with fresh fighters; returns the winning side and the wounds taken."""
    fresh = [Fighter(f.character, f.side, f.attack_skill, f.defence_skill, f.weapon, f.armour, f.hand_to_hand, f.tier)
             for f in (*side_a, *side_b)]
    fight = Fight(fresh, source)
    while not fight.over and fight.round < MAX_ROUNDS:
        fight.play_round()
    taken = tuple(f.condition.physical.hurts + f.condition.physical.injuries for f in fresh)
    standing = {f.side for f in fresh if f.standing}
    if not fight.over or not standing:
        return Played(DRAW, fight.round, taken)
    return Played(0 if standing == {"a"} else 1, fight.round, taken)


# -- the exact model of a one-against-one fight ------------------------------------------------------
#: One fighter in the exact model: Hurts and Injuries as far as any rule still reads them, and whether it is out.
Harm = tuple[int, int, bool]
#: A fight's state between rounds: each fighter's harm.
DuelState = tuple[Harm, Harm]
#: Within a round: the state so far -> (its chance, each fighter's unrecorded harm times that chance).
Partial = dict[DuelState, tuple[Fraction, Fraction, Fraction]]
#: The same as one entry: (state, chance, each fighter's unrecorded harm times the chance).
Outcome = tuple[DuelState, Fraction, Fraction, Fraction]
#: A die that cannot be rolled counts no successes (and no fumble).
NOTHING_ROLLED = Dist.constant(0)
#: Injuries past which the model stops looking for a pool or an initiative that still changes.
MAX_COUNTED = 50


class DuelModel(Duel[Fighter]):
    """The exact one-against-one fight, a round at a time (:class:`rules.matchup.FightModel`).

    Every chance comes from the rules the tracker calls: initiative (``roll_initiative`` for each face of
    the die, ``minion_initiative``) and ``action_phases``, the attack and defence pools with their
    Injuries, ``hits``, ``hit_damage``, the Resistance roll (``resisted_damage``, fumbles included),
    ``damage_effect`` and ``is_out``.  In a duel each attack meets a defence rolled for it (the one
    attacker acts once a phase).  A fighter's Hurts are kept only while one more could still cost it an
    action, and its Injuries while one more changes a pool or its initiative; the rest is counted in
    :meth:`gained`.  Fights with Destiny re-rolls are not modelled (the book's fights spend none).
    """

    def __init__(self, a: Fighter, b: Fighter) -> None:
        for fighter in (a, b):
            if fighter.condition.physical != Wounds() or fighter.condition.mental != Wounds():
                raise MatchupError(f"{fighter.name}: the exact duel starts unharmed")
        self.pair = (a, b)
        self.caps = tuple(self._caps(f) for f in self.pair)
        self._attack = cache(self._attack_uncached)
        self._play = cache(self._play_uncached)
        self._orders = cache(self._orders_uncached)
        self._rounds: dict[DuelState, tuple[list[tuple[Fraction, DuelState]], tuple[Fraction, ...]]] = {}

    @staticmethod
    def _top(fighter: Fighter) -> int:
        """The highest initiative total the fighter can reach unharmed."""
        rolls = fighter.tier is None or TIERS[fighter.tier].rolls_initiative
        return (DIE_SIDES if rolls else MINION_INITIATIVE) + fighter.character.initiative_bonus

    def _caps(self, fighter: Fighter) -> tuple[int, int]:
        """(Hurts, Injuries) a rule may still read: past the first no total reaches phase 1; past the
        second no defence pool (nor attack pool) has a die and no initiative acts either."""
        agility = fighter.character.attribute("Agility")
        injuries = 0
        while injuries < MAX_COUNTED and not (
                injuries >= self._top(fighter)
                and is_too_hard(defence_pool(fighter.defence_skill, agility, injuries=injuries))
                and is_too_hard(attack_pool(fighter.attack_skill, agility, injuries=injuries))):
            injuries += 1
        tier = TIERS[fighter.tier or "villain"]
        return (max(self._top(fighter), tier.out_at_hurts or 0),
                max(injuries, tier.out_at_injuries or 0))

    def _record(self, fighter: int, hurts: int, injuries: int) -> tuple[int, int]:
        """The counts the state keeps: Injuries up to their cap, Hurts up to where the rest stop mattering."""
        hurt_cap, injury_cap = self.caps[fighter]
        kept = min(injuries, injury_cap)
        return min(hurts, max(hurt_cap - kept, TIERS[self.pair[fighter].tier or "villain"].out_at_hurts or 0)), kept

    def _harms(self, fighter: int) -> tuple[int, int]:
        """(standing, out): how many recorded harms the fighter can be in while standing, and at most
        while out.  Each Injury count up to its cap keeps the Hurts :meth:`_record` keeps beside it; a
        tier out at a count of Hurts or Injuries stands only below both."""
        hurt_cap, injury_cap = self.caps[fighter]
        tier = TIERS[self.pair[fighter].tier or "villain"]
        floor = tier.out_at_hurts or 0
        recorded = [(injuries, min(max(hurt_cap - injuries, floor), hurt_cap)) for injuries in range(injury_cap + 1)]
        out = sum(hurts + 1 for _, hurts in recorded)
        standing = sum(min(hurts + 1, tier.out_at_hurts or hurts + 1) for injuries, hurts in recorded
                       if tier.out_at_injuries is None or injuries < tier.out_at_injuries)
        return standing, out

    @property
    def estimate(self) -> int:
        """Both standing, or one of them out (the fight stops at the first out, so never both)."""
        (up_a, out_a), (up_b, out_b) = self._harms(0), self._harms(1)
        return up_a * up_b + out_a * up_b + up_a * out_b

    def start(self) -> list[tuple[Fraction, DuelState]]:
        return [(Fraction(1), ((0, 0, False), (0, 0, False)))]

    def _phases(self, fighter: int, penalty: int) -> list[tuple[Fraction, tuple[int, ...]]]:
        """The phases ``fighter`` acts in this round with a wound penalty of ``penalty`` (initiative reads
        Hurts and Injuries only as their sum), with their chances (one initiative die, or none)."""
        me = self.pair[fighter]
        bonus = me.character.initiative_bonus
        if me.tier is not None and not TIERS[me.tier].rolls_initiative:
            return [(Fraction(1), action_phases(minion_initiative(bonus, hurts=penalty)))]
        return [(Fraction(1, DIE_SIDES), action_phases(roll_initiative(bonus, ScriptedSource([face]), hurts=penalty)))
                for face in range(1, DIE_SIDES + 1)]

    def _attack_uncached(self, attacker: int, own_injuries: int,
                         their_injuries: int) -> tuple[tuple[Fraction, Effect], ...]:
        """What one attack does to the other fighter, as effects on the damage table with their chances."""
        me, foe = self.pair[attacker], self.pair[1 - attacker]
        pool = attack_pool(me.attack_skill, me.character.attribute("Agility"), injuries=own_injuries)
        guard = defence_pool(foe.defence_skill, foe.character.attribute("Agility"), injuries=their_injuries)
        soak = foe.character.physical_resistance
        attack = NOTHING_ROLLED if is_too_hard(pool) else success_distribution(pool)
        defence = NOTHING_ROLLED if is_too_hard(guard) else success_distribution(guard)
        resisted = (Dist.constant((0, False)) if is_too_hard(soak) else outcome_distribution(soak)).items()
        effects: dict[Effect, Fraction] = {}
        for rolled, p in attack.items():
            for defended, q in defence.items():
                if not hits(rolled, defended):
                    effects[Effect()] = effects.get(Effect(), Fraction(0)) + p * q
                    continue
                damage = hit_damage(rolled, defended, me.weapon, brawn=me.character.attribute("Brawn"),
                                    hand_to_hand=me.hand_to_hand, armour=foe.armour)
                for (successes, fumble), r in resisted:
                    effect = damage_effect(resisted_damage(damage, successes, fumble))
                    effects[effect] = effects.get(effect, Fraction(0)) + p * q * r
        return tuple((p, effect) for effect, p in effects.items() if p)

    def _strike(self, attacker: int, state: DuelState) -> list[tuple[Fraction, DuelState, int]]:
        """The states one attack leads to, with their chances and the harm the new state does not record."""
        target = 1 - attacker
        own, theirs = state[attacker], state[target]
        out = []
        for p, effect in self._attack(attacker, own[1], theirs[1]):
            wounds = Wounds(theirs[0], theirs[1]).take(effect)
            down = is_out(self.pair[target].tier or "villain", wounds)
            hurts, injuries = self._record(target, wounds.hurts, wounds.injuries)
            after = list(state)
            after[target] = (hurts, injuries, down)
            out.append((p, (after[0], after[1]), wounds.hurts + wounds.injuries - hurts - injuries))
        return out

    def _solve_round(self, state: DuelState) -> tuple[list[tuple[Fraction, DuelState]], tuple[Fraction, ...]]:
        """One round from ``state``: each way the initiative dice fall gives an order of actions (only
        who acts when matters in a duel), and each order is played out from the state."""
        if state in self._rounds:
            return self._rounds[state]
        result: Partial = {}
        for order, weight in self._orders(wound_penalty(*state[0][:2]), wound_penalty(*state[1][:2])):
            for end, chance, gain_a, gain_b in self._play(order, state):
                old = result.get(end, (Fraction(0), Fraction(0), Fraction(0)))
                result[end] = (old[0] + weight * chance, old[1] + weight * gain_a, old[2] + weight * gain_b)
        moves = [(chance, end) for end, (chance, _, _) in result.items()]
        gains = (sum((g for _, g, _ in result.values()), Fraction(0)),
                 sum((g for _, _, g in result.values()), Fraction(0)))
        self._rounds[state] = (moves, gains)
        return moves, gains

    def _orders_uncached(self, penalty_a: int, penalty_b: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
        """Who acts when this round (0 or 1 per action, in order), with its chance, from both initiatives."""
        bonuses = [f.character.initiative_bonus for f in self.pair]
        orders: dict[tuple[int, ...], Fraction] = {}
        for p, first in self._phases(0, penalty_a):
            for q, second in self._phases(1, penalty_b):
                turns = sorted(((phase, who) for who, phases in ((0, first), (1, second)) for phase in phases),
                               key=lambda turn: (-turn[0], -bonuses[turn[1]]))
                order = tuple(who for _, who in turns)
                orders[order] = orders.get(order, Fraction(0)) + p * q
        return tuple(orders.items())

    def _play_uncached(self, order: tuple[int, ...], state: DuelState) -> tuple[Outcome, ...]:
        """The states the actions of ``order`` lead to from ``state`` (none once either fighter is out),
        each with its chance and each fighter's unrecorded harm weighted by that chance."""
        if not order or state[0][2] or state[1][2]:
            return ((state, Fraction(1), Fraction(0), Fraction(0)),)
        who = order[0]
        after: Partial = {}
        for p, middle, unrecorded in self._strike(who, state):
            now = (unrecorded if who == 1 else 0, unrecorded if who == 0 else 0)  # the one struck took it
            for end, q, gain_a, gain_b in self._play(order[1:], middle):
                old = after.get(end, (Fraction(0), Fraction(0), Fraction(0)))
                after[end] = (old[0] + p * q, old[1] + p * (q * now[0] + gain_a), old[2] + p * (q * now[1] + gain_b))
        return tuple((end, chance, gain_a, gain_b) for end, (chance, gain_a, gain_b) in after.items())

    def round(self, state: DuelState) -> list[tuple[Fraction, DuelState]]:
        return self._solve_round(state)[0]

    def gained(self, state: DuelState) -> tuple[Fraction, ...]:
        """Each fighter's Hurts and Injuries taken this round (on average) beyond what the states record."""
        return self._solve_round(state)[1]

    def outcome(self, state: DuelState) -> int | None:
        if state[0][2]:
            return 1
        if state[1][2]:
            return 0
        return None

    def left(self, state: DuelState) -> tuple[int, ...]:
        return (state[0][0] + state[0][1], state[1][0] + state[1][1])


@REGISTRY.matchups.publish
def matchup(side_a: Sequence[str], side_b: Sequence[str]) -> Matchup:
    """The fight between two lists of stat block names, played through the tracker; one against one
    also has an exact model."""
    taken: set[str] = set()
    a, b = fighters(side_a, "a", taken), fighters(side_b, "b", taken)
    model = DuelModel(a[0], b[0]) if len(a) == len(b) == 1 else None
    return Matchup((" and ".join(f.name for f in a), " and ".join(f.name for f in b)),
                   tuple(f.name for f in (*a, *b)), LEFT_LABEL, lambda source: play(a, b, source), model)
