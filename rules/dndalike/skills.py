"""Skills, sneaking, resting and keeping watch.

A skill is a task that takes time.  Characters make *progress* with saving throws (as many attempts
as their skill level allows), then someone attempts *completion*: one die per point of progress
against the task's hidden progress requirement.  Sneaking and keeping watch are both built from the
same two steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from rules.dice import DiceSource, Dist
from rules.dndalike.core import Edge, SaveResult, save_probability, saving_throw
from rules.dndalike.registry import REGISTRY, DndalikeError
from rules.providers import Choice, Int
from rules.tables import Cell, Table
from rules.values import is_whole, require_whole

#: Skill levels and the progress attempts each allows.
SKILL_LEVELS: dict[str, int] = {"Unskilled": 1, "Skilled": 2, "Expert": 3}
#: How a progress save's target is chosen (see :func:`progress_target`).
TARGET_RULES = ("task", "fatigue", "harder")
#: How the completion dice are read (see :func:`completion_succeeds`).
COMPLETION_MODES = ("sum", "each", "any")


def completion_mode_error(value: object) -> DndalikeError:
    return DndalikeError(f"unknown completion mode {value!r} (use one of {', '.join(COMPLETION_MODES)})")


# ------------------------------------------------------------------------------------------ progress

@REGISTRY.rule("Dndalike.Rule.ProgressAttempts", "Progress Attempts", "RU",
            values={"unskilled": 1, "skilled": 2, "expert": 3})
def max_attempts(skill_level: str) -> int:
    """How many times a character may try to progress one task: 1, 2 or 3 by skill level."""
    try:
        return SKILL_LEVELS[skill_level]
    except KeyError:
        raise DndalikeError(f"unknown skill level {skill_level!r} (known: {', '.join(SKILL_LEVELS)})") from None


def progress_target(fatigue: int, difficulty: int | None = None, *, rule: str = "task") -> int:
    """The number a progress save must meet.

    ``rule="task"`` (default): a task with a difficulty uses it, otherwise the saver's fatigue.
    ``rule="fatigue"``: always current fatigue, as for any saving throw.  ``rule="harder"``: the
    higher of the two.
    """
    require_whole(fatigue, "fatigue", minimum=0, error=DndalikeError)
    if difficulty is not None:
        require_whole(difficulty, "difficulty", minimum=0, error=DndalikeError)
    if rule == "task":
        return fatigue if difficulty is None else difficulty
    if rule == "fatigue":
        return fatigue
    if rule == "harder":
        return fatigue if difficulty is None else max(fatigue, difficulty)
    raise DndalikeError(f"unknown progress target rule {rule!r} (use one of {', '.join(TARGET_RULES)})")


@dataclass
class Task:
    """A skill task: its secret progress requirement, an optional difficulty, and the progress so far."""

    requirement: int
    difficulty: int | None = None
    progress: int = 0
    attempts: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        require_whole(self.requirement, "progress requirement", minimum=0, error=DndalikeError)
        if self.difficulty is not None:
            require_whole(self.difficulty, "difficulty", minimum=0, error=DndalikeError)


@REGISTRY.rule("Dndalike.Roll.Progress", "Progress", "RL", dice="1d6")
def attempt_progress(task: Task, who: str, skill_level: str, fatigue: int, source: DiceSource, *,
                     int_bonus: int = 0, how: Edge = Edge.NORMAL, rule: str = "task") -> SaveResult:
    """One progress attempt: a saving throw (Intelligence bonus added); success adds 1 progress."""
    allowed = max_attempts(skill_level)
    used = task.attempts.get(who, 0)
    if used >= allowed:
        raise DndalikeError(f"{who!r} ({skill_level}) has used all {allowed} progress attempt(s) on this task")
    target = progress_target(fatigue, task.difficulty, rule=rule)
    result = saving_throw(source, target, how=how, modifier=int_bonus)
    task.attempts[who] = used + 1
    if result.success:
        task.progress += 1
    return result


def progress_distribution(attempts: int, target: int, *, int_bonus: int = 0,
                          how: Edge = Edge.NORMAL) -> Dist:
    """Exact distribution of the progress ``attempts`` saves against ``target`` produce."""
    require_whole(attempts, "attempts", minimum=0, error=DndalikeError)
    p = save_probability(target, how=how, modifier=int_bonus)
    one = Dist.from_weights({1: p, 0: 1 - p}) if 0 < p < 1 else Dist.constant(int(p == 1))
    return one.repeat_sum(attempts) if attempts else Dist.constant(0)


# ---------------------------------------------------------------------------------------- completion

def completion_succeeds(faces: Sequence[int], requirement: int, *, mode: str = "sum", int_bonus: int = 0) -> bool:
    """Read completion dice against the requirement.

    ``mode="sum"`` (default): the total of the dice (plus the Intelligence bonus) must reach the
    requirement.  ``"each"``: every die must; ``"any"``: one die is enough (bonus added per die).
    """
    require_whole(requirement, "progress requirement", minimum=0, error=DndalikeError)
    for face in faces:
        if not is_whole(face) or not 1 <= face <= 6:
            raise DndalikeError(f"a completion die face must be a whole number of at least 1, not {face!r}")
    if mode == "sum":
        return sum(faces) + int_bonus >= requirement
    if mode == "each":
        return all(face + int_bonus >= requirement for face in faces)
    if mode == "any":
        return any(face + int_bonus >= requirement for face in faces)
    raise completion_mode_error(mode)


@dataclass(frozen=True)
class CompletionResult:
    dice: tuple[int, ...]
    requirement: int
    success: bool

    @property
    def total(self) -> int:
        return sum(self.dice)


@REGISTRY.rule("Dndalike.Roll.Completion", "Completion", "RL", dice="1d6 per progress")
def attempt_completion(task: Task, source: DiceSource, *, mode: str = "sum", int_bonus: int = 0) -> CompletionResult:
    """Reveal the requirement and roll a die per point of progress; failing may be a disaster."""
    faces = tuple(source.roll(6) for _ in range(task.progress))
    return CompletionResult(faces, task.requirement,
                            completion_succeeds(faces, task.requirement, mode=mode, int_bonus=int_bonus))


def completion_probability(progress: int, requirement: int, *, mode: str = "sum", int_bonus: int = 0) -> Fraction:
    """Exact chance a completion roll with ``progress`` dice meets ``requirement``."""
    require_whole(progress, "progress", minimum=0, error=DndalikeError)
    require_whole(requirement, "progress requirement", minimum=0, error=DndalikeError)
    if mode == "sum":
        return (Dist.die(6).repeat_sum(progress) + int_bonus).p_ge(requirement) if progress else \
            Fraction(int(int_bonus >= requirement))
    one = Dist.die(6).p_ge(requirement - int_bonus)
    if mode == "each":
        return one ** progress
    if mode == "any":
        return 1 - (1 - one) ** progress
    raise completion_mode_error(mode)


@REGISTRY.table(most_progress=Int(0, 20), lowest=Int(1, 30), highest=Int(1, 30), mode=Choice(*COMPLETION_MODES))
def completion_odds(most_progress: int = 6, lowest: int = 2, highest: int = 14, mode: str = "sum") -> Table:
    """Chance of completing a task, by progress made (rows) and requirement (columns)."""
    require_whole(most_progress, "progress", minimum=0, error=DndalikeError)
    requirements = range(require_whole(lowest, "requirement", minimum=0, error=DndalikeError),
                         require_whole(highest, "requirement", minimum=0, error=DndalikeError) + 1)
    columns = ("Progress", *(f"Need {r}" for r in requirements))
    rows: list[tuple[Cell, ...]] = [(n, *(completion_probability(n, r, mode=mode) for r in requirements))
            for n in range(1, most_progress + 1)]
    return Table.of(columns, rows, "Completion odds", probabilities=columns[1:])


# ---------------------------------------------------------------------------------------- sneaking

@REGISTRY.rule("Dndalike.Rule.Sneaking", "Sneaking", "RU")
def sneak(fatigues: Sequence[int], source: DiceSource, *, hows: Sequence[Edge] | None = None) -> int:
    """Each sneaker saves; every failed save adds 1 progress to the spotter's pool.  Returns the
    progress added.  The spotter then rolls completion (see :func:`spot`)."""
    hows = list(hows) if hows is not None else [Edge.NORMAL] * len(fatigues)
    return sum(not saving_throw(source, f, how=h).success for f, h in zip(fatigues, hows, strict=True))


def sneak_progress_distribution(fatigues: Sequence[int]) -> Dist:
    """Exact distribution of the progress one round of sneaking hands the spotter."""
    total = Dist.constant(0)
    for fatigue in fatigues:
        p_fail = 1 - save_probability(fatigue)
        total = total + Dist.from_weights({1: p_fail, 0: 1 - p_fail})
    return total


def spot(progress: int, requirement: int, source: DiceSource) -> CompletionResult:
    """The spotter's completion roll against the sneakers: a die per point of progress gathered."""
    return attempt_completion(Task(requirement, progress=require_whole(progress, "progress", minimum=0,
                                                                       error=DndalikeError)), source)


# ------------------------------------------------------------------------------------ resting, watch

@dataclass(frozen=True)
class RestOutcome:
    """What a rest gave one character."""

    fatigue: int
    wound_removed: bool
    stones_regained: bool


@REGISTRY.rule("Dndalike.Rule.Rest", "Resting", "RU", values={"wounds_removed": 1})
def rest(fatigue: int, *, permanent_fatigue: int = 0, kept: int = 0, armour_floor: bool = True) -> RestOutcome:
    """A rest clears fatigue, returns all spell stones and heals one wound.

    Armour's permanent fatigue stays while the armour is worn (``armour_floor=True``, the default).
    If the party agreed to keep ``kept`` fatigue to make the watch easier, they recover less, and
    nobody heals a wound or regains stones.
    """
    require_whole(fatigue, "fatigue", minimum=0, error=DndalikeError)
    require_whole(permanent_fatigue, "permanent fatigue", minimum=0, error=DndalikeError)
    require_whole(kept, "kept fatigue", minimum=0, error=DndalikeError)
    floor = permanent_fatigue if armour_floor else 0
    after = min(fatigue, floor + kept) if fatigue > floor else fatigue
    full = kept == 0
    return RestOutcome(after, full, full)


@REGISTRY.rule("Dndalike.Derived.WatchDifficulty", "Watch Difficulty", "derived", formula="1 + DungeonLevel")
def watch_difficulty(dungeon_level: int) -> int:
    """The deeper the dungeon, the harder the watch: 1 + the dungeon level."""
    return 1 + require_whole(dungeon_level, "dungeon level", minimum=0, error=DndalikeError)


def watch_requirement(resting_fatigues: Sequence[int], kept: int = 0) -> int:
    """The watch's progress requirement: all the resting characters' fatigue, less what they keep."""
    total = sum(require_whole(f, "fatigue", minimum=0, error=DndalikeError) for f in resting_fatigues)
    return max(0, total - require_whole(kept, "kept fatigue", minimum=0, error=DndalikeError))


@dataclass(frozen=True)
class WatchResult:
    progress: int
    completion: CompletionResult

    @property
    def ambushed(self) -> bool:
        return not self.completion.success


@REGISTRY.rule("Dndalike.Rule.KeepingWatch", "Keeping Watch", "RU", values={"watch_fatigue": 1})
def keep_watch(watchers: Sequence[tuple[str, int]], resting_fatigues: Sequence[int], dungeon_level: int,
               source: DiceSource, *, kept: int = 0, rule: str = "task", int_bonus: int = 0) -> WatchResult:
    """Keep watch while the others rest.

    ``watchers`` are ``(skill level, fatigue)`` pairs; each gains 1 fatigue, then uses all their
    progress attempts against the watch difficulty; the pooled progress is rolled as completion
    against :func:`watch_requirement`.  Failure means an ambush.
    """
    task = Task(watch_requirement(resting_fatigues, kept), watch_difficulty(dungeon_level))
    for number, (skill_level, fatigue) in enumerate(watchers):
        for _ in range(max_attempts(skill_level)):
            attempt_progress(task, f"watcher {number + 1}", skill_level, fatigue + 1, source,
                             int_bonus=int_bonus, rule=rule)
    return WatchResult(task.progress, attempt_completion(task, source, int_bonus=int_bonus))


def watch_success_probability(watchers: Sequence[tuple[str, int]], resting_fatigues: Sequence[int],
                              dungeon_level: int, *, kept: int = 0, rule: str = "task") -> Fraction:
    """Exact chance that :func:`keep_watch` keeps the party safe."""
    requirement = watch_requirement(resting_fatigues, kept)
    difficulty = watch_difficulty(dungeon_level)
    progress = Dist.constant(0)
    for skill_level, fatigue in watchers:
        target = progress_target(fatigue + 1, difficulty, rule=rule)
        progress = progress + progress_distribution(max_attempts(skill_level), target)
    return sum((p * completion_probability(n, requirement) for n, p in progress.items()), Fraction(0))
