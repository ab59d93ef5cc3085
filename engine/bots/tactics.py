"""The heuristic judgement every level shares: which listed play to make, or whether to pass.

One function, :func:`judge`, decides from a hand, the options the engine listed and the top of
the trick, with card counting (what is still unseen) for the normal bot and in the hard bot's
rollouts, without for the easy bot. Its rules, in order:

- go out now when a play empties the hand and is not a penalised finish;
- never leave a hand made only of penalised cards (2s, and 7s in wild7): the last play
  would be penalised, which is what sinks the reference bot in wild7 (it keeps its 2s and
  wilds for the end and finishes last in most rounds);
- answer with the weakest play that keeps groups whole and spends no control card
  (2s, jokers, the top single card, wilds);
- else answer all the same, with a control card first, then by breaking a group: never pass
  while a play is possible. A pass is final for the trick, and winning tricks is what gives
  the leads that get low cards out. Measured against the reference bot (2,000 rounds per
  preset, seed 2), passing to keep control cards or groups for later cost 0.11 to 0.17 of
  a place (docs/bots.md);
- going out penalised is said as such: it is chosen only when every end left is penalised;
- no quad that would start (or end) a revolution against the rest of the hand;
- lead sure winners (closing plays, or plays nothing unseen can answer) when at most one
  other group remains, so the lead comes back for the last one; else lead the weakest group.
  A hand holding penalised cards (2s, and 7s in wild7) once led its sure winners with two
  other groups left: a sure winner spent so buys one lead, where kept it takes a trick
  whenever one is needed. Waiting gains 0.02 of a place in classic and 0.01 in wild7
  against greedy (docs/bots.md « Penalised cards wait (stop 50) »).
  Unseen jokers do not make a lead unsure: a joker answers anything, so counting them made
  no lead but a joker sure until both had been seen, yet their holders seldom spend them
  on a lead only a joker beats. Leading such plays as sure gains 0.04 of a place in
  proletario against greedy, 0.01 in classic dealt with jokers (docs/bots.md « Proletario's
  normal (stop 53) »); the « Conseil » says a joker could answer (``lead_joker``).
  Late in the round (the others hold fewer than 25 cards between them), in tricks that last
  until all pass, a hand whose weakest whole group is a pair or more leads its weakest lone
  card first and keeps the group, which the others answer less often, to win a lead back:
  0.04–0.05 of a place in presi against greedy, noise in classic and wild7. In one-lap
  tricks the last to answer takes the trick however rarely the others answer, and the rule
  cost proletario 0.01–0.03 (docs/bots.md « Where normal loses in presi (stop 51) »).

The levels that count cards (normal and hard) add one lead (``lone_waits``): in one-lap
tricks, where each other seat answers once, a lone weakest card is answered by the others'
own lowest singles at no cost to them; with three whole groups or more, the next group up is
led and the lone card waits (proletario, docs/bots.md « A lone card waits »: hard's since
stop 43; normal's since stop 54, with its end search in one-lap tricks, « Proletario's
normal, continued (stop 54) »). Easy keeps the plain lead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..cards import SEVEN, TWO, Card
from ..leads import LATE_CARDS, Unseen, level_strength, sure_winner
from ..plays import PlayOption, TrickTop
from ..rules import Rules

__all__ = ["REASONS", "judge"]

# Why :func:`judge` chose its play, one code per rule above (the bot's « Conseil » says it).
REASONS = ("go_out", "no_play", "avoid_bad_end", "bad_end_forced", "dodge_bad_end", "lead_sure",
           "lead_joker", "lead_low", "lead_next", "lead_lone", "answer_cheap", "control", "break")
# Whole groups a hand must hold for its lone weakest card to wait (``lone_waits``).
LONE_WAITS_GROUPS = 3


def _reversal_hurts(hand: Sequence[Card], quad: PlayOption, revolution: bool) -> bool:
    """Whether the cards left after this quad are weaker, all told, in the order it would
    bring than in the order now."""
    now = after = 0
    for card in hand:
        if card.suit != "" and card not in quad.cards:
            now += level_strength(card.value, revolution)
            after += level_strength(card.value, not revolution)
    return after < now


def penalised(option: PlayOption, rules: Rules) -> bool:
    """Whether going out with this play is punished (RULES §8)."""
    if rules.finish_penalty == "none" or option.special == "joker":
        return False
    if option.level == TWO:
        return True
    return rules.finish_penalty == "two_or_wild" and any(c.value == SEVEN for c in option.cards)


def judge(
    hand: Sequence[Card],
    options: Sequence[PlayOption],
    can_pass: bool,
    top: TrickTop | None,
    rules: Rules,
    revolution: bool,
    opponents: Sequence[int],
    unseen: Unseen | None = None,
    lone_waits: bool = False,
) -> tuple[PlayOption | None, str]:
    """The play to make (None: pass) and the rule that chose it, one of :data:`REASONS`.
    ``opponents``: hand sizes of the others still in; ``unseen``: card counting, if any;
    ``lone_waits``: the hard level's lead in one-lap tricks (see the module docstring).

    Rollouts call this thousands of times per decision, so each option and card is looked
    at once (no per-card or per-option helper calls on the common paths)."""
    if not options:
        return None, "no_play"
    size = len(hand)
    for option in options:
        if option.count == size and not penalised(option, rules):
            return option, "go_out"
    wild = rules.wild_level
    penalty = rules.finish_penalty
    either = penalty == "two_or_wild"
    held: dict[int, int] = {}
    bad: set[Card] = set()
    # The values a hand may not end on, read once rather than the knob at every card.
    penalised_values = () if penalty == "none" else (TWO, SEVEN) if either else (TWO,)
    for card in hand:
        if card.suit == "":  # a joker: in no group, never a bad end
            continue
        value = card.value
        if value != wild:
            held[value] = held.get(value, 0) + 1
        if value in penalised_values:
            bad.add(card)

    if bad:
        # Never leave only penalised cards, nor go out penalised while the hand holds a card
        # it could end on (wild7: 7♠ 5♥ as two 5s sends last; 7♠ alone, then 5♥, does not).
        clean = len(bad) < size
        usable = []
        for option in options:
            rest = size - option.count
            if rest == 0:
                if not (clean and penalised(option, rules)):
                    usable.append(option)
            elif sum(1 for c in bad if c not in option.cards) != rest:
                usable.append(option)
        if not usable:
            if can_pass:
                return None, "avoid_bad_end"
            usable = list(options)
    else:
        usable = list(options)
    # Plays set aside for the penalised end they would leave (the Conseil says so, below).
    spared = usable if len(usable) < len(options) else None
    if rules.revolution:
        # A quad reverses the order: never against a hand the reversal would weaken (four 3s
        # led from a hand of aces and 2s made them its weakest cards), unless it goes out.
        kept = [o for o in usable if o.count != 4 or o.count == size
                or not _reversal_hurts(hand, o, revolution)]
        usable = kept or usable

    def strength(option: PlayOption) -> tuple[int, int, int]:
        return (level_strength(option.level, revolution), option.wilds, 1 if option.special else 0)

    def whole(option: PlayOption) -> bool:
        return option.special is None and option.wilds == 0 and \
            held.get(option.level, 0) == option.count and option.announce is None

    controls: list[PlayOption] = []
    plain: list[PlayOption] = []
    for option in usable:
        if option.special is not None or option.wilds > 0 or \
                (TWO - option.level if revolution else option.level) == TWO:
            controls.append(option)
        else:
            plain.append(option)
    if top is None:
        choice, reason = _lead(usable, plain, whole, strength, set(held), rules, revolution,
                               unseen, max(opponents, default=0),
                               lone_waits and rules.trick_end == "one_lap",
                               rules.trick_end == "all_passed" and sum(opponents) < LATE_CARDS)
    elif cheap := [o for o in plain if held.get(o.level, 0) == o.count and o.announce is None]:
        # The whole plain groups (no special card, no wild: a plain option's strength is
        # its value's), the weakest first of equals, as min(cheap, key=strength) takes it.
        choice = cheap[0]
        weakest = TWO - choice.level if revolution else choice.level
        for o in cheap:
            if (TWO - o.level if revolution else o.level) < weakest:
                choice, weakest = o, TWO - o.level if revolution else o.level
        reason = "answer_cheap"
    elif controls:
        # Spend as few control cards as will do: a wild only when needed, then the fewest
        # cards (presi's 2 of oros alone beats a pair of 2s), then a 2 before the top single.
        def spent(o: PlayOption) -> tuple[int, int, bool, tuple[int, int, int]]:
            return o.wilds, o.count, o.special is not None, strength(o)

        choice, reason = min(controls, key=spent), "control"
    else:
        choice, reason = min(plain, key=strength), "break"
    if choice.count == size:  # penalised (go_out took the others), every card being so
        return choice, "bad_end_forced"
    if spared is not None and reason in ("control", "break", "lead_low"):
        # « No cheaper answer », « your weakest cards »: not so where a cheaper play was
        # set aside for the penalised end it would leave (A♠ 2♠ on a 7: the 2, not the ace).
        mine = strength(choice)
        if any(strength(o) < mine for o in options if o not in spared):
            return choice, "dodge_bad_end"
    return choice, reason


def _lead(usable: list[PlayOption], plain: list[PlayOption],
          whole: Callable[[PlayOption], bool],
          strength: Callable[[PlayOption], tuple[int, int, int]], groups: set[int],
          rules: Rules, revolution: bool, unseen: Unseen | None,
          biggest: int, lone_waits: bool, late: bool) -> tuple[PlayOption, str]:
    """Opening a trick: sure winners first when one group is left, else the weakest group
    (or, with ``lone_waits``, the next one up when the weakest is a lone card; ``late``,
    the weakest lone card before a weaker pair or triple)."""
    sure = [o for o in usable if sure_winner(o, rules, revolution, unseen, biggest, False)]
    leftover = [level for level in groups
                if not any(o.level == level and o.special is None and not o.wilds
                           for o in sure)]
    # The wilds are one stock: they make a sure winner of one more group at most, not of
    # every group they could join (wild7: four 3s of two 7s from thirteen cards was not
    # « your last cards »; play-test 16).
    widened = next((level for level in leftover
                    if any(o.level == level and o.special is None and o.wilds
                           for o in sure)), None)
    if widened is not None:
        leftover.remove(widened)
    if sure and len(leftover) <= 1:
        # Penalised cards go first (they must not be last), then the ones using most cards.
        def first(o: PlayOption) -> tuple[bool, int, bool, int, int]:
            return penalised(o, rules), o.count, whole(o), -o.wilds, -strength(o)[0]

        best = max(sure, key=first)
        strict = sure_winner(best, rules, revolution, unseen, biggest)
        return best, "lead_sure" if strict else "lead_joker"
    groups_first = [o for o in plain if whole(o)]
    if groups_first:
        ranked = sorted(groups_first, key=strength)
        if lone_waits and ranked[0].count == 1 and \
                len({o.level for o in ranked}) >= LONE_WAITS_GROUPS:
            return next(o for o in ranked if o.level != ranked[0].level), "lead_next"
        if late and ranked[0].count > 1:
            lone = next((o for o in ranked if o.count == 1), None)
            if lone is not None:
                return lone, "lead_lone"
        return ranked[0], "lead_low"
    return min(plain or usable, key=strength), "lead_low"
