"""Rounds and the exchange: the end of a round, the next deal, who opens, the gifts.

The exchange sits here rather than in :mod:`engine.exchange` because it is a step of the
round's start (deal, exchange, open): it needs the deal and the opener, while
:mod:`engine.exchange` keeps the pure rules of which cards a giver may choose.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .cards import Card, Deck
from .errors import IllegalAction
from .events import (
    Dealt,
    Event,
    ExchangeDone,
    ExchangeGiven,
    ExchangeStarted,
    GameOver,
    Out,
    RoundOver,
)
from .exchange import ExchangeDue, Gift, allowed_cards, check_gift, default_gift
from .roles import exchange_pairs, roles_for
from .state import Phase, Who
from .tricks import Tricks

__all__ = ["DECIDING_CARDS", "Rounds"]

# The card whose holder opens a first round, by `first_opener` (RULES.md); `random` has none.
# Not dealt, the first seat in play order opens ("seat_order").
DECIDING_CARDS = {"queen_of_hearts": Card.parse("QH"), "three_of_oros": Card.parse("3O")}


class Rounds(Tricks):
    """Rounds from deal to scores, the exchange between them, and the game's end."""

    # ------------------------------------------------------------------ round end
    def _final_ranking(self) -> tuple[int, ...]:
        holders = [s for s in self.order if self.hands[s]]
        finishers = [s for s in self.out if s not in self.penalised]
        return tuple(finishers + holders + list(reversed(self.penalised)))

    def _end_round(self, events: list[Event]) -> None:
        ranking = self._final_ranking()
        self.ranking = ranking
        roles = roles_for(len(ranking), self.rules.vp_at_three)
        gained = [0] * self.seats
        for seat, role in zip(ranking, roles, strict=True):
            gained[seat] = self.rules.points[role]
            self.points[seat] += gained[seat]
        self.phase = Phase.ROUND_OVER
        self.rounds_scored += 1
        self.trick = []
        self.passed = set()
        self.constraint = None
        self.to_act = None
        self.last_player = None
        self._restart = True
        role_by_seat = self.roles
        events.append(RoundOver(
            self.round_no, ranking, tuple(r or "" for r in role_by_seat), tuple(gained),
            tuple(self.points),
        ))
        end = self.rules.game_end
        if end.kind == "rounds" and end.n is not None and self.round_no >= end.n:
            self._end_game(self._leaders(), False, events)
        elif end.kind == "target" and end.n is not None \
                and any(self.points[s] >= end.n for s in ranking):
            winners = self._leaders()
            if self.rules.target_tie == "ranking":
                # presi: when P and VP both reach the target, P wins.
                winners = (next(s for s in ranking if s in winners),)
            self._end_game(winners, False, events)

    def standings(self) -> list[tuple[Who, int]]:
        """The game's places, best first, as (who, place): the seats in play and the players
        waiting off the table with their points (`step_off`), by points, tied totals sharing
        a place, except where the rules break a tie at the target by the last round's
        places (``target_tie`` "ranking": presi's President, on as many points as the
        Vice-president, is first, as :attr:`winners` says). Below the target, ties stand.

        >>> from engine import Game, Rules
        >>> Game.new(Rules.preset("classic"), seats=3, seed=1).standings()
        [(0, 1), (1, 1), (2, 1)]
        """
        end = self.rules.game_end
        ranked = self.ranking if (self.rules.target_tie == "ranking" and end.kind == "target"
                                  and self.phase is Phase.GAME_OVER and not self.stopped_early
                                  and self.ranking is not None) else ()

        def key(who: Who) -> tuple[int, int]:
            reached = end.n is not None and self.total(who) >= end.n
            return (-self.total(who),
                    ranked.index(who) if reached and who in ranked else len(ranked))

        everyone: list[Who] = [*self.players, *self.off_table]
        order = sorted(everyone, key=key)
        places: list[tuple[Who, int]] = []
        for index, who in enumerate(order):
            tied = index > 0 and key(order[index - 1]) == key(who)
            places.append((who, places[-1][1] if tied else index + 1))
        return places

    def _leaders(self) -> tuple[Who, ...]:
        """Everyone on the highest total: the seats in play and, RULES §8's « current totals
        are final » counting every player's, those waiting off the table with theirs."""
        everyone: list[Who] = [s for s in range(self.seats) if self.active[s]]
        everyone.extend(self.off_table)
        best = max(self.total(who) for who in everyone)
        return tuple(who for who in everyone if self.total(who) == best)

    def _end_game(self, winners: tuple[Who, ...], stopped: bool, events: list[Event]) -> None:
        self.phase = Phase.GAME_OVER
        self.winners = winners
        self.stopped_early = stopped
        self.to_act = None
        self.gifts = []
        events.append(GameOver(winners, stopped))

    # ------------------------------------------------------------------ rounds
    def verify_next_round(self) -> None:
        if self.phase is not Phase.ROUND_OVER:
            raise IllegalAction("round_not_over", "The round is not over.")
        if sum(self.active) < 2:
            raise IllegalAction("too_few_players", "At least two players are needed.")

    def next_round(self, hands: Sequence[Sequence[Card]] | None = None) -> list[Event]:
        """Deal the next round (``hands``: a given deal, for scenarios and tests)."""
        self.verify_next_round()
        self._begin()
        events = self._start_round(hands, None)
        return self._finish(events)

    def remove_seat(self, seat: int) -> None:
        """Free a seat between rounds, or once the game is over: it is no longer dealt (the
        table shrinks), and a replay (`Game.replay`) deals without it."""
        self._between_rounds()
        self.active[seat] = False
        self.bots.discard(seat)
        self.autopilot.discard(seat)
        self.version += 1

    def freed_seats(self, leaving: Collection[int] = ()) -> list[int]:
        """The seats freed during the game (`remove_seat`), with ``leaving`` (seats in
        play now that the caller frees at the round's end), that a newcomer may sit at for
        the next deal (`reopen_seat`): lowest first, no more than ``max_players`` leaves room
        for beside the seats that stay."""
        staying = sum(1 for s in range(self.seats) if self.active[s] and s not in leaving)
        free = [s for s in range(self.seats) if not self.active[s] or s in leaving]
        return free[:max(0, self.rules.max_players - staying)]

    def reopen_seat(self, seat: int) -> None:
        """A newcomer sits, between rounds, at a seat freed earlier (`remove_seat`): it is
        dealt again from the next round, with 0 points, no autopilot and no timeouts
        (`take_seat`'s newcomer). Its rank is the seat's: the place it finished the round
        just played at if it was played then (a leaver's, finished by a bot, as a bot's seat
        taken keeps its rank, RULES §10, whether its player left during the round or after
        it), else none: Neutral (`roles`), with no part in the exchange, until a round of
        its own ends. Refused where the seat is in play, or the rules' ``max_players``
        leaves no room (`freed_seats`)."""
        self._between_rounds()
        if not 0 <= seat < self.seats or seat not in self.freed_seats():
            raise IllegalAction("seat_not_free", "This seat is not free to sit at.")
        self.active[seat] = True
        self.bots.discard(seat)
        self.autopilot.discard(seat)
        self.points[seat] = 0
        self.timeouts[seat] = 0
        self.version += 1

    def _between_rounds(self) -> None:
        if self.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER):
            raise IllegalAction("round_not_over", "Seats change only between rounds.")

    def step_off(self, seat: int, key: str) -> None:
        """The seat's player gives it up between rounds to wait off the table (RULES §10:
        with no bot seated, proletario's last place joins the end of the queue). Their
        points wait with them under ``key``, the caller's name for that player: they still
        count in the standings and for the win (RULES §8 compares every player's totals),
        and come back when they sit again (`take_seat`). The seat holds none meanwhile."""
        self._between_rounds()
        if key in self.off_table:
            raise ValueError(f"{key!r} already waits off the table")
        self.off_table[key] = self.points[seat]
        self.points[seat] = 0
        self.version += 1

    def take_seat(self, seat: int, key: str | None = None) -> None:
        """Someone else sits at the seat between rounds (RULES §10: a waiting player takes a
        bot's seat, or the last place's, and with it its rank), bringing their own points:
        those they left the table with under ``key`` (`step_off`), 0 for a newcomer. Points
        belong to who scored them, not to the chair, so a newcomer never starts with, or
        wins on, what a bot or the player before them scored. Nor do they sit down on the
        autopilot the player before them had earned by their timeouts (RULES §10: it plays
        for that player until *they* press « Reprendre »), nor with those timeouts counted."""
        self._between_rounds()
        self.points[seat] = self.off_table.pop(key, 0) if key is not None else 0
        self.autopilot.discard(seat)
        self.timeouts[seat] = 0
        self.version += 1

    def leave_off_table(self, key: str) -> None:
        """A player waiting off the table leaves the game while it goes on: their points no
        longer count, as a seated leaver's stop counting once a bot takes the seat at 0.
        Once the game is over its standings stand, theirs included: nothing changes."""
        if self.phase is not Phase.GAME_OVER and self.off_table.pop(key, None) is not None:
            self.version += 1

    def _play_order(self) -> list[int]:
        seated = [s for s in range(self.seats) if self.active[s]]
        if self.rules.reseat_by_rank and self.ranking is not None:
            ranked = [s for s in self.ranking if self.active[s]]
            return ranked + [s for s in seated if s not in ranked]
        return seated

    def _deal(self) -> list[list[Card]]:
        cards = list(_DECK_CARDS[self.deck])
        self.rng.shuffle(cards)
        seated = self.order
        ranked = [s for s in (self.ranking or ()) if self.active[s]]
        mode = self.rules.deal_extras
        if mode == "rotate":
            start = (self.round_no - 1) % len(seated)
            sequence = seated[start:] + seated[:start]
        elif mode == "to_top":
            if ranked:
                sequence = ranked + [s for s in seated if s not in ranked]
            else:
                sequence = list(seated)
                self.rng.shuffle(sequence)
        else:  # from_last: extras to the last place first, then up the ranking
            if ranked:
                sequence = list(reversed(ranked)) + [s for s in seated if s not in ranked]
            else:
                sequence = list(seated)
        # One card at a time round the sequence: position k gets cards k, k+n, k+2n...
        hands: list[list[Card]] = [[] for _ in range(self.seats)]
        for position, seat in enumerate(sequence):
            hands[seat] = cards[position::len(sequence)]
        return hands

    def _start_round(self, hands: Sequence[Sequence[Card]] | None,
                     opener: int | None) -> list[Event]:
        self.round_no += 1
        self.round_version = self.version
        if self.ranking is not None:
            ranked = tuple(s for s in self.ranking if self.active[s])
            self.ranking = ranked
        self.order = self._play_order()
        if hands is not None:
            if len(hands) != self.seats:
                raise ValueError("one hand per seat")
            self.hands = [list(h) for h in hands]
        else:
            self.hands = self._deal()
        self.out, self.penalised, self.pile = [], [], []
        self.swaps, self.lacks, self.tells = [], [], []
        self.deciding = None
        self.played = [[] for _ in range(self.seats)]
        self._base.clear()
        self.revolution = False
        self.trick, self.passed, self.constraint = [], set(), None
        self.last_player = None
        self.winners = ()
        events: list[Event] = []
        pairs = exchange_pairs(self.ranking, self.rules.vp_at_three) if self.ranking else []
        self.forced_opener = opener
        if pairs:
            self.phase = Phase.EXCHANGE
            self.to_act = None
            self._restart = True
            events.append(Dealt(self.round_no, tuple(self.hand_sizes()), None))
            self._begin_exchange(pairs, events)
        else:
            self.phase = Phase.PLAY
            first, why = self._first_opener()
            first = self._holding(first)
            events.append(Dealt(self.round_no, tuple(self.hand_sizes()), first, why))
            self._open_round(first, events)
        return events

    def _holding(self, seat: int) -> int:
        """``seat``, or the next seat holding cards if it holds none."""
        return seat if self.hands[seat] else (self._next_with_cards(seat) or seat)

    def _open_round(self, opener: int, events: list[Event]) -> None:
        """Open the round's first trick. A seat that holds no card when play starts (a set-up
        position may deal an empty hand, to stand for a player already out) has emptied its
        hand before anyone plays: it goes out first, in seat order, and is ranked as such."""
        for seat in self.order:
            if not self.hands[seat]:
                self.out.append(seat)
                place = self.finish_place(seat)
                assert place is not None
                events.append(Out(seat, len(self.out), place))
        if self._round_finished():
            self._end_round(events)
        else:
            self._open_trick(opener)

    def _first_opener(self) -> tuple[int, str]:
        """Who opens the round, and why (the reason the events carry: a knob's value, "given"
        for a set-up position, "seat_order" when the deciding card was not dealt)."""
        r = self.rules
        if self.forced_opener is not None:
            return self.forced_opener, "given"
        if self.ranking:
            last = r.round_opener == "last_place"
            return (self.ranking[-1] if last else self.ranking[0]), r.round_opener
        card = DECIDING_CARDS.get(r.first_opener)
        if card is not None:
            for seat in self.order:
                if card in self.hands[seat]:
                    self.deciding = (seat, card)
                    return seat, r.first_opener
            return self.order[0], "seat_order"
        return self.rng.choice(self.order), "random"

    # ------------------------------------------------------------------ exchange
    def _begin_exchange(self, pairs: list[tuple[int, int, int]], events: list[Event]) -> None:
        r = self.rules
        self.gifts = []
        for low, high, count in pairs:
            self.gifts.append(Gift(low, high, count, "best"))
            self.gifts.append(Gift(high, low, count, r.exchange_return))
        events.append(ExchangeStarted(tuple(pairs)))
        if r.low_gives == "auto":
            for gift in self.gifts:
                if gift.mode == "best":
                    self._record_gift(gift, self._default_gift(gift), True, events)

    def _record_gift(self, gift: Gift, cards: tuple[Card, ...], automatic: bool,
                     events: list[Event]) -> None:
        gift.cards = cards
        gift.automatic = automatic
        if not self.rules.exchange_blind:
            self._transfer(gift, events)

    def _transfer(self, gift: Gift, events: list[Event]) -> None:
        assert gift.cards is not None
        for card in gift.cards:
            self.hands[gift.giver].remove(card)
            self.hands[gift.receiver].append(card)
        self._base.pop(gift.giver, None)
        self._base.pop(gift.receiver, None)
        gift.transferred = True
        self.swaps.append((gift.giver, gift.receiver, gift.cards, gift.mode))
        events.append(ExchangeGiven(gift.giver, gift.receiver, gift.cards, gift.automatic,
                                    (gift.giver, gift.receiver)))

    def _pending_gift(self, seat: int) -> Gift | None:
        for gift in self.gifts:
            if gift.giver == seat and gift.cards is None:
                return gift
        return None

    def _open_gift(self, seat: int) -> Gift | None:
        """The gift this seat may still choose: its pending one, or the rules' automatic pick
        while a blind exchange holds it back. The proletario seed lets every giver choose
        (« Tu choisis ce que tu donnes sans voir ce que tu reçois »): a low role may pick
        which of its equal best cards go, until the swap, instead of the rules' pick."""
        gift = self._pending_gift(seat)
        if gift is not None:
            return gift
        for gift in self.gifts:
            if gift.giver == seat and gift.automatic and not gift.transferred:
                return gift
        return None

    def gift_on_hold(self, seat: int) -> tuple[int, tuple[Card, ...], bool] | None:
        """The seat's own gift once chosen (or given for it by the rules), while the exchange
        still holds it back: (receiver, cards, automatic). In a blind exchange the cards stay
        in the giver's hand until every gift is chosen, so its player is told where they go
        rather than left wondering why they are still there."""
        if self.phase is not Phase.EXCHANGE:
            return None
        for gift in self.gifts:
            if gift.giver == seat and gift.cards is not None and not gift.transferred:
                return gift.receiver, gift.cards, gift.automatic
        return None

    def gift_choice(self, seat: int) -> ExchangeDue | None:
        """What the seat may still choose in the exchange: its due gift (`exchange_due`), or
        the automatic gift a blind exchange holds back for a low role, which it may replace
        by its own pick among the cards of the same values (`allowed`) until the swap. A
        table offers that pick only when ``allowed`` holds more cards than ``count``."""
        due = self.exchange_due(seat)
        if due is not None or self.phase is not Phase.EXCHANGE:
            return due
        gift = self._open_gift(seat)
        if gift is None:
            return None
        return ExchangeDue(gift.giver, gift.receiver, gift.count, gift.mode,
                           allowed_cards(self.hands[seat], gift, self.rules.top_single),
                           self._gift_ready(gift))

    def _gift_ready(self, gift: Gift) -> bool:
        if self.rules.exchange_blind or gift.mode == "best":
            return True
        return all(g.cards is not None for g in self.gifts
                   if g.mode == "best" and g.giver == gift.receiver)

    def exchange_due(self, seat: int) -> ExchangeDue | None:
        if self.phase is not Phase.EXCHANGE:
            return None
        gift = self._pending_gift(seat)
        if gift is None:
            return None
        if self._due_version != self.version:
            self._due_cache.clear()
            self._due_version = self.version
        due = self._due_cache.get(seat)
        if due is None:  # tables ask every seat after every change; the sort is the cost
            due = ExchangeDue(gift.giver, gift.receiver, gift.count, gift.mode,
                              allowed_cards(self.hands[seat], gift, self.rules.top_single),
                              self._gift_ready(gift))
            self._due_cache[seat] = due
        return due

    def verify_give(self, seat: int, cards: Sequence[Card]) -> None:
        if self.phase is not Phase.EXCHANGE:
            raise self._wrong_phase("There is no exchange now.")
        gift = self._open_gift(seat)
        if gift is None:
            raise IllegalAction("not_giver", "You have nothing to give in this exchange.")
        if not self._gift_ready(gift):
            raise IllegalAction("wait_gift", "Wait until you have received your cards.")
        check_gift(self.hands[seat], cards, gift, self.rules.top_single)

    def can_give(self, seat: int, cards: Sequence[Card]) -> bool:
        try:
            self.verify_give(seat, cards)
        except IllegalAction:
            return False
        return True

    def give(self, seat: int, cards: Sequence[Card]) -> list[Event]:
        """Choose the cards this seat gives in the exchange."""
        self.verify_give(seat, cards)
        self._human_acted(seat)
        events = self._begin()
        gift = self._open_gift(seat)
        assert gift is not None
        self._record_gift(gift, tuple(cards), False, events)
        self._maybe_finish_exchange(events)
        return self._finish(events)

    def _maybe_finish_exchange(self, events: list[Event]) -> None:
        if any(g.cards is None for g in self.gifts):
            return
        for gift in self.gifts:
            if not gift.transferred:
                self._transfer(gift, events)
        self.gifts = []
        self.phase = Phase.PLAY
        opener, why = self._first_opener()
        opener = self._holding(opener)
        events.append(ExchangeDone(opener, why))
        self._open_round(opener, events)

    def _default_gift(self, gift: Gift) -> tuple[Card, ...]:
        return default_gift(self.hands[gift.giver], gift, self.rules.top_single)


_DECK_CARDS = {deck: tuple(deck.cards()) for deck in Deck}
