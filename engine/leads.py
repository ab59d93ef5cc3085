"""What a lead counts on: when it surely wins its trick, and when the round is late.

The tactics (:mod:`engine.bots.tactics`) lead by these and the tells (:mod:`engine.tells`)
read the normal level's leads by them, so both take them from here: a reading that kept its
own copy would drift from the play it reads. They live in the engine, not in
:mod:`engine.bots`, because the bots import the tells (tests/test_layering.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import TWO, Card
from .plays import PlayOption
from .rules import Rules

__all__ = ["LATE_CARDS", "Unseen", "closes", "level_strength", "sure_winner"]

# Late in the round, when the others hold fewer cards than this between them (the tactics'
# lone lead, :mod:`engine.bots.tactics`): the split stop 20 and stop 50 measured « early » by.
LATE_CARDS = 25


class Unseen:
    """Counts of the cards nobody has shown yet (the other hands), by value."""

    __slots__ = ("naturals", "wilds", "jokers", "top_single")

    def __init__(self, cards: Sequence[Card], rules: Rules) -> None:
        wild = rules.wild_level
        top_single = rules.top_single
        # Built at every lead of every rollout: locals, and ``is_joker`` read inline.
        naturals: dict[int, int] = {}
        jokers: list[int] = []
        wilds = 0
        seen_top = False
        for card in cards:
            value = card.value
            if card.suit == "":  # a joker
                jokers.append(value)
            elif value == wild:
                wilds += 1
            else:
                if card is top_single:
                    seen_top = True
                naturals[value] = naturals.get(value, 0) + 1
        self.naturals = naturals
        self.wilds = wilds
        self.jokers = jokers
        self.top_single = seen_top


def level_strength(level: int, revolution: bool) -> int:
    """A value's place in the order play is judged by now: higher beats lower."""
    return TWO - level if revolution else level


def closes(option: PlayOption, rules: Rules, revolution: bool) -> bool:
    """Whether this play closes the trick by rule the moment it lands (it wins the trick)."""
    if option.special == "top_single":
        return True
    if option.special == "joker":
        return rules.jokers_close
    if rules.closing_rank == "best" and option.level == (0 if revolution else TWO):
        return True
    if rules.closing_rank == "two" and option.level == TWO:
        return True
    return rules.four_closes and option.count == 4


def sure_winner(option: PlayOption, rules: Rules, revolution: bool, unseen: Unseen | None,
                biggest_hand: int, jokers: bool = True, quads_only: bool = False) -> bool:
    """Whether leading this play surely wins the trick: it closes, or nothing unseen answers.
    ``jokers=False``: unseen jokers are not counted as answers (« only a joker beats it »).
    ``quads_only``: of the plays that close by rule, only a quad counts. The tells read so
    (:func:`engine.tells.beliefs`, as stop 57 measured it) and keep their reading as it was
    measured: they read plain plays only, which leaves out jokers, the top single and the
    control value, so the one closing play this sets apart is 2s led in a revolution where
    2s close (``closing_rank: two``), which the tactics lead as sure and the tells read as
    a weakest lead; the weakest value then, it leaves nothing weaker to read."""
    if (rules.four_closes and option.count == 4) if quads_only else \
            closes(option, rules, revolution):
        return True
    if unseen is None or option.special is not None:
        return False
    count = option.count
    jokered = jokers and bool(unseen.jokers)
    if biggest_hand < count and not jokered and not unseen.top_single:
        return True
    if jokered or (unseen.top_single and biggest_hand >= 1):
        return False
    if rules.revolution and count == 4:
        revolution = not revolution  # the quad reverses the order its answers are judged in
    mine = level_strength(option.level, revolution)
    wilds = unseen.wilds
    equal = rules.equal_allowed
    shorter_twos = rules.two_beats_larger and not revolution and count > 1
    for level, held in unseen.naturals.items():
        other = TWO - level if revolution else level  # level_strength, inlined: hot loop
        if other > mine or (other == mine and equal):
            need = count - 1 if shorter_twos and level == TWO else count
            if held + wilds >= need:
                return False
    # Wilds alone take any announced value: the strongest of the current order (2s, or 3s
    # in a revolution) when nothing else beats the play.
    return not (unseen.wilds >= count and (mine < TWO or (mine == TWO and rules.equal_allowed)))
