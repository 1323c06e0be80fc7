"""Progression: spending XP on ranks, learning skills, domains and their features, milestones.

Raising a node one rank costs XP equal to its current rank, and a node that just ranked up waits one
in-game month before it may again.  New skills take a month of training and 1 XP; a skill becomes a
domain for 2 XP, and each domain feature costs 2 XP more.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.nemron.nodes import MAX_RANK, NODE_TYPE_RULES, node_type_rule
from rules.nemron.registry import REGISTRY, NemronError
from rules.values import is_whole

#: In-game days per month (the training period of a new skill is 30 days).
DAYS_PER_MONTH = 30
#: Training for a new skill: hours a day, days, then XP to finish.
TRAINING_HOURS_PER_DAY, TRAINING_DAYS, NEW_SKILL_XP = 2, 30, 1
#: XP to turn a skill into a domain, and per domain feature.
DOMAIN_XP, DOMAIN_FEATURE_XP = 2, 2
#: XP a milestone yields: minor, and the further award of a major one.
MINOR_MILESTONE_XP, MAJOR_MILESTONE_EXTRA_XP = (1, 2), (2, 3)


@REGISTRY.rule("Generic.Rule.RankUpCost", "Rank-up Cost", "RU", formula="max(rank, 1)")
def rank_up_cost(rank: int, *, zero_rank_is_free: bool = False) -> int:
    """XP to raise a node one rank: its current rank.

    Read literally, a rank-0 node would rise for free; this book charges it 1 XP (the price of a new
    skill's first rank) unless ``zero_rank_is_free`` is set.
    """
    if not is_whole(rank) or not 0 <= rank <= MAX_RANK:
        raise NemronError(f"rank {rank!r} is outside 0-{MAX_RANK}")
    if rank == MAX_RANK:
        raise NemronError(f"rank {rank} is the highest rank: nothing to raise it to")
    return rank if zero_rank_is_free else max(rank, 1)


@REGISTRY.rule("Generic.Rule.Cooldown", "Levelling Cool-down", "RU", values={"days": DAYS_PER_MONTH})
def cooldown_over(last_rank_up_day: int | None, today: int, *, gm_override: bool = False) -> bool:
    """Whether a node may rank up today: a month (30 in-game days) after its last rank-up, or when the
    GM waives the wait."""
    for what, day in (("the last rank-up day", last_rank_up_day), ("today", today)):
        if day is not None and (not is_whole(day)):
            raise NemronError(f"{what} must be a whole in-game day, not {day!r}")
    if last_rank_up_day is None or gm_override:
        return True
    if today < last_rank_up_day:
        raise NemronError(f"day {today} is before the last rank-up on day {last_rank_up_day}")
    return today - last_rank_up_day >= DAYS_PER_MONTH


@dataclass
class Domain:
    """A skill upgraded to a domain, and the features bought for it (with the day of each purchase)."""

    skill: str
    features: dict[str, int] = field(default_factory=dict)


@dataclass
class Progress:
    """A character's advancement ledger: XP, node ranks and types, cool-downs, training and domains.

    ``nodes`` maps a node name to ``(type codes, rank)``; ``day`` is the in-game day.  ``training``
    maps a skill being learned to the hours practised on each in-game day.
    """

    xp: int
    nodes: dict[str, tuple[str, int]] = field(default_factory=dict)
    day: int = 0
    last_rank_up: dict[str, int] = field(default_factory=dict)
    training: dict[str, dict[int, int]] = field(default_factory=dict)
    domains: dict[str, Domain] = field(default_factory=dict)
    zero_rank_is_free: bool = False

    def __post_init__(self) -> None:
        if not is_whole(self.xp) or self.xp < 0:
            raise NemronError(f"XP must be a whole number of at least 0, not {self.xp!r}")

    def _pay(self, cost: int, what: str) -> None:
        if cost > self.xp:
            raise NemronError(f"{what} costs {cost} XP, only {self.xp} XP left")
        self.xp -= cost

    def rank_up(self, name: str, *, gm_override: bool = False) -> int:
        """Raise a node one rank; returns the new rank."""
        if name not in self.nodes:
            raise NemronError(f"the character has no node {name!r}")
        types, rank = self.nodes[name]
        for code in types.split(","):
            if not node_type_rule(code.strip()).ranks_with_xp:
                raise NemronError(f"{name!r} is of type {types}: {NODE_TYPE_RULES[code.strip()].name} "
                                   "nodes cannot be raised with XP")
        cost = rank_up_cost(rank, zero_rank_is_free=self.zero_rank_is_free)
        if not cooldown_over(self.last_rank_up.get(name), self.day, gm_override=gm_override):
            raise NemronError(f"{name!r} ranked up on day {self.last_rank_up[name]}: "
                                f"wait until day {self.last_rank_up[name] + DAYS_PER_MONTH}")
        self._pay(cost, f"raising {name!r} from rank {rank}")
        self.nodes[name] = (types, rank + 1)
        self.last_rank_up[name] = self.day
        return rank + 1

    def training_days(self, skill: str) -> int:
        """In-game days on which ``skill`` was practised for at least 2 hours."""
        return sum(1 for hours in self.training.get(skill, {}).values() if hours >= TRAINING_HOURS_PER_DAY)

    def train(self, skill: str, hours: int) -> int:
        """Log ``hours`` of practice on a new skill on the current :attr:`day`; returns the days that count.

        A day counts once it holds 2 hours in all (two 1-hour sessions do); practising more on the same
        day does not make it count twice.
        """
        if skill in self.nodes:
            raise NemronError(f"the character already has {skill!r}")
        if not is_whole(hours) or hours < 0:
            raise NemronError(f"training hours must be a whole number of at least 0, not {hours!r}")
        log = self.training.setdefault(skill, {})
        log[self.day] = log.get(self.day, 0) + hours
        return self.training_days(skill)

    def learn(self, skill: str) -> int:
        """Finish a new skill after 30 days of training by paying 1 XP; it starts at rank 1."""
        days = self.training_days(skill)
        if days < TRAINING_DAYS:
            raise NemronError(f"{skill!r} has {days} of {TRAINING_DAYS} training days")
        self._pay(NEW_SKILL_XP, f"learning {skill!r}")
        del self.training[skill]
        self.nodes[skill] = ("S", 1)
        return 1

    def make_domain(self, skill: str, *, available: bool = True) -> Domain:
        """Upgrade a skill the character has into a domain for 2 XP (if the setting has such a domain)."""
        if self.nodes.get(skill, ("", 0))[0] != "S":
            raise NemronError(f"{skill!r} is not a skill the character has")
        if not available:
            raise NemronError(f"the setting has no domain for {skill!r}")
        if skill in self.domains:
            raise NemronError(f"{skill!r} is already a domain")
        self._pay(DOMAIN_XP, f"making {skill!r} a domain")
        self.domains[skill] = Domain(skill)
        return self.domains[skill]

    def buy_feature(self, skill: str, feature: str) -> int:
        """Buy a domain feature for 2 XP: never more features than the domain's rank, one per month."""
        domain = self.domains.get(skill)
        if domain is None:
            raise NemronError(f"{skill!r} is not a domain")
        if feature in domain.features:
            raise NemronError(f"{skill!r} already has the feature {feature!r}")
        rank = self.nodes[skill][1]
        if len(domain.features) >= rank:
            raise NemronError(f"{skill!r} at rank {rank} already has {len(domain.features)} feature(s)")
        last = max(domain.features.values(), default=None)
        if last is not None and self.day - last < DAYS_PER_MONTH:
            raise NemronError(f"{skill!r} gained a feature on day {last}: the next one comes on day "
                              f"{last + DAYS_PER_MONTH}")
        self._pay(DOMAIN_FEATURE_XP, f"the feature {feature!r}")
        domain.features[feature] = self.day
        return len(domain.features)


REGISTRY.define("Generic.Rule.LearnSkill", "Learning a Skill", "RU", implementation=Progress.learn,
             summary="2 hours a day for 30 in-game days, then 1 XP: the skill at rank 1.",
             values={"hours": TRAINING_HOURS_PER_DAY, "days": TRAINING_DAYS, "xp": NEW_SKILL_XP})
REGISTRY.define("Generic.Rule.SkillDomain", "Skill Domain", "RU", implementation=Progress.make_domain,
             summary="A skill becomes a domain for 2 XP.", values={"xp": DOMAIN_XP})
REGISTRY.define("Generic.Rule.DomainFeature", "Domain Feature", "RU", implementation=Progress.buy_feature,
             summary="2 XP each; at most the domain's rank in features, one per month.",
             values={"xp": DOMAIN_FEATURE_XP})


@REGISTRY.rule("Generic.Rule.Milestone", "Milestones", "RU",
            values={"minor_low": MINOR_MILESTONE_XP[0], "minor_high": MINOR_MILESTONE_XP[1],
                    "major_extra_low": MAJOR_MILESTONE_EXTRA_XP[0], "major_extra_high": MAJOR_MILESTONE_EXTRA_XP[1]})
def milestone_xp(kind: str, *, cumulative: bool = True) -> tuple[int, int]:
    """The (least, most) XP a milestone awards.

    A minor milestone gives 1-2 XP.  A major one gives "a further" 2-3: this book reads that as on top
    of the minor award (3-5 in all); ``cumulative=False`` gives 2-3 alone.
    """
    if kind == "minor":
        return MINOR_MILESTONE_XP
    if kind == "major":
        low, high = MAJOR_MILESTONE_EXTRA_XP
        if cumulative:
            return low + MINOR_MILESTONE_XP[0], high + MINOR_MILESTONE_XP[1]
        return low, high
    raise NemronError(f"a milestone is 'minor' or 'major', not {kind!r}")


def award_milestone(progress: Progress, kind: str, xp: int, *, cumulative: bool = True) -> int:
    """Give a milestone's XP, checked against its range; returns the new total."""
    low, high = milestone_xp(kind, cumulative=cumulative)
    if not is_whole(xp) or not low <= xp <= high:
        raise NemronError(f"a {kind} milestone awards {low}-{high} XP, not {xp!r}")
    progress.xp += xp
    return progress.xp
