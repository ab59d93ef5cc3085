"""What plays and passes say about a hand: the beliefs search deals hidden cards by.

Players answer with their weakest whole group that beats the trick without spending a
control card, when they hold one (the reference bot and every level here do, and so do most
people), and they open a trick with their weakest value, all of it. So a seat that passed,
or answered with a control card or a wild, held no such group; a seat that answered with a
plain group held no such group weaker than it (unless it held two cards or fewer: then
players play anything); and a seat that led a plain value held all those cards of it and
nothing weaker. Players do not always play so:
these are beliefs, which :mod:`engine.determinize` honours as far as a deal allows, not
facts like the cards given in the exchange.

Measured (docs/bots.md): the hard level against 3× greedy in classic, 400 first rounds of
seed 1 at 20 samples, placed 1.90 on average dealing the unseen cards uniformly, 1.75 with
these beliefs (1.80 from passes and leads alone), and 1.50 when given the real hands: what
it does not know costs it the most. Reading a seat known to be the reference bot by that
bot's own rule (``naive``) took hard against 3× greedy a further 0.07 of a place lower,
paired, on 360 deals of presi, classic and proletario (docs/bots.md, stop 54).

>>> from engine import Game, Rules
>>> from engine.actions import Action
>>> from engine.view import player_view
>>> game = Game.new(Rules.preset("classic"), seats=4, seed=3)
>>> seat = game.to_act
>>> lead = game.legal_plays(seat)[0]  # its weakest value, one card of it
>>> _ = game.apply(seat, Action.play(lead))
>>> seen = beliefs(player_view(game, game.to_act))
>>> (seat, lead.level) in seen.none  # it led all it had of that value
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from .cards import THREE, TWO, Card
from .leads import LATE_CARDS, Unseen, sure_winner
from .plays import PlayOption, legal_options
from .rules import Rules
from .state import Tell, TrickPlay
from .view import PlayerView

__all__ = ["Beliefs", "beliefs", "breakers", "spenders"]

SMALL_HAND = 2  # with this many cards or fewer, players answer with anything: a pass says nothing


class Beliefs(NamedTuple):
    """Counts of values in the other seats' hands now, as the tells suggest."""

    not_exact: tuple[tuple[int, int, int], ...]  # (seat, level, n): holds any count but n
    none: tuple[tuple[int, int], ...]  # (seat, level): holds none of level
    fewer: tuple[tuple[int, int, int], ...] = ()  # (seat, level, n): holds fewer than n


def beliefs(view: PlayerView, answerers: frozenset[int] = frozenset(), *,
            searched_end: int = 0, naive: frozenset[int] = frozenset(),
            waiting: frozenset[int] = frozenset()) -> Beliefs:
    """The beliefs the view's tells give about every other seat still holding cards.

    ``answerers``: seats whose player is known to answer whenever it can (the normal level:
    its tactics never pass while a play is possible, save to avoid a penalised finish). Where
    the rules leave no other reason to pass (no finish penalty) and no wild to complete a
    group, such a seat's pass says it held no legal play at all, not only no whole group,
    and its control cards and broken groups say which control cards it lacked
    (:func:`_read_spent`).
    ``searched_end``: with this many cards or fewer such a seat searches instead (the normal
    level's end, :mod:`engine.bots.endsearch`), and may pass holding a play, lead or answer
    with any of its cards: nothing it does then is read.
    ``naive``: seats whose player is known to play the reference bot's own rule
    (:class:`engine.players.GreedyPlayer`): their answers and passes are read by that rule
    exactly (:func:`_read_naive`).
    ``waiting``: seats known to lead as the normal level does in one-lap tricks, the next
    group up while a lone weakest card waits (``lone_waits``, :mod:`engine.bots.tactics`):
    their leads there say at most one card of each weaker value, unless the lead may have
    been a sure winner (:func:`_read_lead`)."""
    not_exact: set[tuple[int, int, int]] = set()
    none: set[tuple[int, int]] = set()
    fewer: set[tuple[int, int, int]] = set()
    rules = view.rules
    exact_passes = rules.finish_penalty == "none" and rules.wild_level is None
    for tell in view.tells:
        seat = tell.seat
        if seat == view.seat or not view.hand_sizes[seat]:
            continue
        later = view.played[seat][tell.before:]
        since: dict[int, int] = {}
        for card in later:
            since[card.value] = since.get(card.value, 0) + 1
        held = view.hand_sizes[seat] + len(later)
        if tell.top is None:
            if tell.play is None or (seat in answerers and held <= searched_end):
                continue  # (its end search may lead any of its cards)
            _read_lead(view, tell.play, tell.revolution, since, none, fewer,
                       seat in waiting and rules.trick_end == "one_lap", seat in waiting)
            continue
        if seat in naive:
            _read_naive(view, tell, since, held, not_exact, none, fewer)
            continue
        if tell.play is None and exact_passes and seat in answerers and held > searched_end:
            _read_no_answer(view, tell, since, fewer, none)
            continue
        if seat in answerers and held > searched_end and exact_passes and \
                tell.play is not None:
            _read_spent(view, tell, since, none, fewer)
        if held <= SMALL_HAND or (seat in answerers and held <= searched_end):
            continue  # (few cards: anything answers; or its end search chose)
        levels = _answers(view, tell.top, tell.revolution, tell.constraint)
        play = tell.play
        if play is not None and _plain(play, tell.revolution):
            # It answered with a plain group: it held no whole group weaker than that one.
            levels = [v for v in levels if (v > play.level if tell.revolution
                                            else v < play.level)]
        for level in levels:  # (a pass, a wild or a control card: no whole group at all)
            n = tell.top.count - since.get(level, 0)
            if n >= 0:
                not_exact.add((seat, level, n))
    return Beliefs(tuple(sorted(not_exact)), tuple(sorted(none)), tuple(sorted(fewer)))


def breakers(view: PlayerView) -> frozenset[int]:
    """The other seats seen splitting a group: they played some cards of a value, holding
    more than two cards, then more of the same value later. Such a player does not keep its
    groups whole, so search should not model it as one who does."""
    return _seen(view, lambda tell, play, later: _plain(play, tell.revolution) and
                 sum(1 for c in later if c.value == play.level) > play.count)


def spenders(view: PlayerView) -> frozenset[int]:
    """The other seats seen answering a trick with a joker, a wild or the top single alone
    while holding more than two cards. The reference bot answers only with whole natural
    groups then, and a player who holds back spends no control card: such a seat plays
    neither way, so search should not model it as either."""
    return _seen(view, lambda tell, play, later: tell.top is not None and (
        play.special is not None or any(c.value != play.level for c in play.cards)))


def _seen(view: PlayerView,
          doing: Callable[[Tell, TrickPlay, Sequence[Card]], bool]) -> frozenset[int]:
    """The other seats with a play ``doing`` says yes to (given the tell, its play and the
    cards the seat played since), made holding more than two cards."""
    out: set[int] = set()
    for tell in view.tells:
        seat, play = tell.seat, tell.play
        if seat == view.seat or play is None or seat in out:
            continue
        later = view.played[seat][tell.before:]
        if view.hand_sizes[seat] + len(later) > SMALL_HAND and doing(tell, play, later):
            out.add(seat)
    return frozenset(out)


def _plain(play: TrickPlay, revolution: bool) -> bool:
    """Natural cards of one value that is not the control value (2s, or 3s in revolution)."""
    return play.special is None and play.level != (THREE if revolution else TWO) and \
        all(c.value == play.level for c in play.cards)


def _read_lead(view: PlayerView, play: TrickPlay, revolution: bool, since: dict[int, int],
               none: set[tuple[int, int]], fewer: set[tuple[int, int, int]],
               lone_waits: bool = False, normal: bool = False) -> None:
    """A plain lead: all the seat's cards of that value, nothing weaker. The led cards are
    among those played since, so the seat now holds none of that value or weaker ones
    (unless it played more of them later: then it did not lead so, and no belief).

    ``lone_waits``: the seat leads as the normal level does in one-lap tricks
    (:func:`engine.bots.tactics.judge`): its weakest group, or the next one up while a lone
    weakest card waits. It then held at most one card of each weaker value (and of one
    value only, which a weaker card played since shows). Unless it led a sure winner
    (:func:`_maybe_sure`), which it does before anything weaker once at most one other
    group is left, or the rules have revolutions (a quad may wait): then the lead says
    only that it held no more of that value.

    ``normal``: the seat is known to lead as the normal level does, wherever tricks end: a
    lead that may have been a sure winner, or (tricks lasting until all pass) a lone card
    led late, when the others held fewer than ``LATE_CARDS`` cards between them (the
    tactics then lead the weakest lone card before a weaker pair or triple), says only that
    it held no more of that value; where the rules have revolutions, nothing is read of a
    weaker value it may have held all four of (such a quad may wait)."""
    if not _plain(play, revolution):
        return
    seat = play.seat
    wild = view.rules.wild_level
    weaker = [v for v in view.rules.deck_kind.values
              if v != wild and (v > play.level if revolution else v < play.level)]
    if since.get(play.level, 0) > play.count:
        return  # it held more of that value than it led
    if lone_waits or normal:
        start = view.pile.index(play.cards[0])
        mine = set(view.played[seat])
        # What the seat had not seen then, as far as this view knows (see _maybe_sure).
        unseen = list(view.hand) + [c for c in view.pile[start:] if c not in mine]
        after = set(view.pile[start:])
        then = [view.hand_sizes[s] + sum(1 for c in view.played[s] if c in after)
                for s in view.order if s != seat]
        late = not lone_waits and play.count == 1 and sum(then) < LATE_CARDS
        if late or _maybe_sure(view.rules, play, revolution, unseen, max(then, default=0)):
            # A sure winner goes before weaker groups (three 8s nothing unseen beat, led
            # before a pair of 3s no more was unseen to beat: stop 57), and late a lone
            # card before a weaker group: such a lead says nothing of weaker values.
            none.add((seat, play.level))
            return
        if view.rules.revolution:  # (a quad that would hurt the rest of the hand waits)
            seen = {c.value for c in unseen} | {c.value for c in view.pile[:start]}
            weaker = [v for v in weaker if v in seen]
    later = [v for v in weaker if since.get(v, 0)]
    if not later:
        if lone_waits:
            none.add((seat, play.level))
            fewer.update((seat, v, 2) for v in weaker)
            return
    elif not lone_waits or len(later) > 1 or since[later[0]] > 1:
        return  # it played a weaker value later: it did not lead its weakest
    none.update((seat, v) for v in weaker + [play.level])


def _maybe_sure(rules: Rules, play: TrickPlay, revolution: bool, unseen: Sequence[Card],
                biggest: int) -> bool:
    """Whether the seat may have led this plain play as a sure winner, by the normal level's
    own test (:func:`engine.leads.sure_winner`, unseen jokers not counted, a quad the one
    closing play: see ``quads_only`` there): unless it closes, it is sure only if nothing
    the seat had not seen answered it, with its own count of cards or more held by another
    seat. What this view knows the seat had not seen: this hand, and the cards the other
    seats played since (``unseen``); ``biggest``: the most cards another seat held then. A
    lead those may have left sure may have been one. An unseen top single makes none sure:
    its holder holds a card, so ``biggest`` is 1 or more."""
    return sure_winner(PlayOption("", play.level, play.count, ()), rules, revolution,
                       Unseen(unseen, rules), biggest, jokers=False, quads_only=True)


def _read_no_answer(view: PlayerView, tell: Tell, since: dict[int, int],
                    fewer: set[tuple[int, int, int]], none: set[tuple[int, int]]) -> None:
    """A pass from a seat that answers whenever it can: it held fewer cards of each value
    than the smallest group of it that would have answered (the engine's own legality,
    asked of each value and size), and no joker that would have. Translated to the hand now
    with the cards it played since; a pass the reading cannot explain says nothing."""
    rules = view.rules
    top = tell.top
    assert top is not None
    suits = len(rules.deck_kind.suits)  # the most cards of one value a group can hold
    found: list[tuple[int, int]] = []  # (level, most it can hold now)
    for level in rules.deck_kind.values:
        smallest = _smallest(rules, tell, top, level, suits)
        if smallest is not None:
            most = smallest - 1 - since.get(level, 0)
            if most < 0:
                return  # it played more of that value later than it can have held
            found.append((level, most))
    for value in _answering_jokers(rules, tell, top):
        if since.get(value):
            return  # it held a joker that would have answered
        found.append((value, 0))
    seat = tell.seat
    for level, most in found:
        if most == 0:
            none.add((seat, level))
        else:
            fewer.add((seat, level, most + 1))


def _read_spent(view: PlayerView, tell: Tell, since: dict[int, int],
                none: set[tuple[int, int]], fewer: set[tuple[int, int, int]]) -> None:
    """An answer from a seat that answers as the tactics do (:func:`engine.bots.tactics.judge`):
    a control card only where no whole plain group answered, the fewest control cards then,
    a 2 before a joker, the weaker joker first; a broken group only where no control card
    answered. So a joker says it held no group of as few 2s that answered (nor the weaker
    joker), two 2s or more no joker that answered nor fewer 2s that did, and a broken group
    (seen once the seat plays more of that value) no joker and no group of 2s that
    answered. Translated to the hand now with the cards it played since; nothing is read of
    a joker it played since, nor in a revolution."""
    play = tell.play
    top = tell.top
    assert play is not None and top is not None
    if tell.revolution:
        return  # (the tactics' control cards are not the 2s then: not read)
    rules = view.rules
    control = TWO
    spent = 0  # the control cards among those played since that this answer spent
    # (The jokers that answered are asked only of an answer that reads something.)
    if play.special == "joker":
        most = play.count  # as many 2s or fewer would have been spent first
        lacked = [v for v in _answering_jokers(rules, tell, top)
                  if v < play.level]  # the weaker joker goes first
    elif _plain(play, tell.revolution) and since.get(play.level, 0) > play.count:
        most = len(rules.deck_kind.suits)  # it broke a group: no control card answered
        lacked = _answering_jokers(rules, tell, top)
    elif play.special is None and play.level == control and \
            all(c.value == control for c in play.cards):
        most = play.count - 1  # the fewest 2s that answered
        # (a lone joker is fewer cards)
        lacked = _answering_jokers(rules, tell, top) if play.count > 1 else []
        spent = play.count
    else:
        return
    if any(since.get(v) for v in lacked):
        return  # it played such a joker later: it did not answer so
    none.update((tell.seat, v) for v in lacked)
    smallest = _smallest(rules, tell, top, control, most)
    if smallest is None:
        return
    left = smallest - 1 - (since.get(control, 0) - spent)  # the most it can hold now
    if left == 0:
        none.add((tell.seat, control))
    elif left > 0:
        fewer.add((tell.seat, control, left + 1))


def _smallest(rules: Rules, tell: Tell, top: TrickPlay, level: int, most: int) -> int | None:
    """The fewest cards of ``level``, ``most`` at the most, that as a plain group would have
    answered the tell's trick (its ``top``): the engine's own legality, asked of each size;
    None where none would have."""
    return next((k for k in range(1, most + 1) if legal_options(
        [PlayOption("", level, k, ())], top, tell.revolution, rules.equal_allowed,
        rules.two_beats_larger, tell.constraint)), None)


def _answering_jokers(rules: Rules, tell: Tell, top: TrickPlay) -> list[int]:
    """The values of the deck's jokers that, played alone, would have answered the tell's
    trick (its ``top``), weaker first: the engine's own legality."""
    return [card.value for card in rules.deck_kind.jokers() if legal_options(
        [PlayOption(card.rank, card.value, 1, (card,), special="joker")], top,
        tell.revolution, rules.equal_allowed, rules.two_beats_larger, tell.constraint)]


def _read_naive(view: PlayerView, tell: Tell, since: dict[int, int], held: int,
                not_exact: set[tuple[int, int, int]], none: set[tuple[int, int]],
                fewer: set[tuple[int, int, int]]) -> None:
    """A trick answered or passed by a seat known to play the reference bot's rule: holding
    more than two cards it answers with its weakest natural group of a value it holds exactly
    that many of (2s included), else passes; holding two or fewer it plays whatever answers.
    So such a pass says it held no exact natural group that answered, 2s included (or, with
    two cards or fewer, no legal play at all), and such an answer that it held no exact group
    of a weaker value that answered, and all its cards of the value it played. An answer the
    rule cannot make says nothing."""
    play = tell.play
    top = tell.top
    assert top is not None
    if held <= SMALL_HAND:
        if play is None and view.rules.wild_level is None:
            _read_no_answer(view, tell, since, fewer, none)
        return
    rules = view.rules
    sign = -1 if tell.revolution else 1  # strength: the order the trick was played in
    if play is not None:
        if play.special is not None or play.announce is not None or \
                any(c.value != play.level for c in play.cards):
            return  # a joker, a wild or an announcement: not the reference rule's answer
        if since.get(play.level, 0) != play.count:
            return  # it played more of that value later: it did not play all it held
        none.add((tell.seat, play.level))
    for level, count in _groups(rules, top, tell.revolution, tell.constraint):
        if play is not None and sign * level >= sign * play.level:
            continue
        n = count - since.get(level, 0)
        if n >= 0:
            not_exact.add((tell.seat, level, n))


def _groups(rules: Rules, top: TrickPlay, revolution: bool,
            constraint: tuple[int, int] | None) -> list[tuple[int, int]]:
    """Every natural group (value, size) that would have answered ``top``, 2s included and
    wilds aside: the engine's own legality, asked of each value and size. A single 2 is left
    out where one 2 is the top single card (presi): played alone it is no plain group."""
    suits = len(rules.deck_kind.suits)
    return [(level, count) for level in rules.deck_kind.values if level != rules.wild_level
            for count in range(1, suits + 1)
            if not (count == 1 and level == TWO and rules.top_single is not None)
            and legal_options([PlayOption("", level, count, ())], top, revolution,
                             rules.equal_allowed, rules.two_beats_larger, constraint)]


def _answers(view: PlayerView, top: TrickPlay, revolution: bool,
             constraint: tuple[int, int] | None) -> list[int]:
    """The values of which a plain group of the top's size would have answered it (the
    control value and wilds aside): the engine's own legality, asked of one group per value."""
    rules = view.rules
    control = THREE if revolution else TWO
    wild = rules.wild_level
    groups = [PlayOption("", v, top.count, ()) for v in rules.deck_kind.values
              if v != control and v != wild]
    return [o.level for o in legal_options(groups, top, revolution, rules.equal_allowed,
                                           rules.two_beats_larger, constraint)]
