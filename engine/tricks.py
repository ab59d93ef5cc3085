"""Tricks: what a seat may play or pass now, and what a play or a pass does to the trick.

The engine's hot path: rollouts spend most of their time in :meth:`Tricks.legal_plays` and
:meth:`Tricks._apply_play`. When a play ends the round, this layer hands over to the rounds
layer through the seam :meth:`engine.state.GameState._end_round`.
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action
from .cards import SEVEN, THREE, TWO, Card
from .errors import IllegalAction
from .events import (
    Event,
    Out,
    Passed,
    Penalised,
    Played,
    RevolutionChanged,
    SameOrPass,
    Skipped,
    TrickClosed,
)
from .plays import PlayOption, Signature, legal_options, opening_options, plain_options, signature
from .state import GameState, Phase, Tell, TrickPlay

__all__ = ["Tricks"]


class _Discard(list[Event]):
    """An event list that keeps nothing: :meth:`Tricks.step` returns no event, so it builds
    none of the common ones (a play, a pass, a trick closed: ``is _QUIET`` below), and the
    rare ones (going out, a revolution, a skip) it appends here are dropped."""

    def append(self, event: Event, /) -> None:
        pass


_QUIET = _Discard()

# A play and its tell are built at every play of every rollout: ``tuple.__new__`` makes the
# same named tuple without the generated ``__new__``'s keyword handling (half its cost).
_tuple = tuple.__new__


class Tricks(GameState):
    """Legality and mechanics of tricks, on top of the shared state."""

    # ------------------------------------------------------------------ legality
    def _may_play_now(self, seat: int) -> None:
        if self.to_act == seat and self.phase is Phase.PLAY and self.hands[seat]:
            return  # the common case, checked first: it runs at every decision
        if self.phase is not Phase.PLAY:
            raise self._wrong_phase("Nobody plays cards during {phase}.")
        if not 0 <= seat < self.seats or not self.active[seat]:
            raise IllegalAction("not_seated", "This seat is not in the round.")
        if not self.hands[seat]:
            raise IllegalAction("already_out", "You have no cards left in this round.")
        if self.rules.fast:
            if seat in self.passed:
                raise IllegalAction("passed", "You passed: wait for the next trick.")
        elif self.to_act != seat:
            raise IllegalAction("not_your_turn", "It is not your turn.", to_act=self.to_act)

    def _check_seen(self, seen: int | None) -> None:
        if seen is not None and seen < self.trick_version:
            raise IllegalAction(
                "stale", "Too late: the trick changed before your play arrived.",
                by=self.last_player,
            )

    def legal_plays(self, seat: int) -> list[PlayOption]:
        """Every kind of play the seat may make now (empty when it may not play)."""
        if self._legal_version == self.version:
            cached = self._legal_cache.get(seat)
            if cached is not None:
                return cached
        else:
            self._legal_cache.clear()
            self._legal_version = self.version
        options: list[PlayOption]
        if self.to_act == seat and self.phase is Phase.PLAY and self.hands[seat]:
            options = self._options(seat)  # _may_play_now's common case, read inline
        else:
            try:
                self._may_play_now(seat)
            except IllegalAction:
                options = []
            else:
                options = self._options(seat)
        self._legal_cache[seat] = options
        return options

    def _options(self, seat: int) -> list[PlayOption]:
        base = self._base.get(seat)
        if base is None:
            base = self._opening(seat)
        r = self.rules
        held = self.constraint
        constraint = (held[1], held[2]) if held is not None and held[0] == seat else None
        trick = self.trick
        return legal_options(base, trick[-1] if trick else None, self.revolution,
                             r.equal_allowed, r.two_beats_larger, constraint)

    def _opening(self, seat: int) -> list[PlayOption]:
        """The seat's opening options, built from its hand and kept until it changes."""
        base = opening_options(self.hands[seat], deck=self.deck, wild_level=self._wild,
                               top_single=self.rules.top_single)
        self._base[seat] = base
        return base

    def verify_play(
        self, seat: int, cards: Sequence[Card], announce: str | None = None,
        seen: int | None = None,
    ) -> PlayOption:
        """The option these cards make if the play is legal now; IllegalAction otherwise."""
        self._may_play_now(seat)
        self._check_seen(seen)
        hand = self.hands[seat]
        for card in cards:
            if card not in hand:
                raise IllegalAction("not_in_hand", f"You do not hold {card}.", card=str(card))
        key = signature(cards, announce, self.deck, self._wild, self.rules.top_single)
        for option in self.legal_plays(seat):
            if option.key == key:
                return option
        raise self._why_illegal(seat, key)

    def can_play(self, seat: int, cards: Sequence[Card], announce: str | None = None,
                 seen: int | None = None) -> bool:
        try:
            self.verify_play(seat, cards, announce, seen)
        except IllegalAction:
            return False
        return True

    def _why_illegal(self, seat: int, key: Signature) -> IllegalAction:
        special, level, count, wilds = key
        top = self.top
        rank = self.deck.rank_of(level)
        if self.constraint is not None and self.constraint[0] == seat:
            _, c_level, c_count = self.constraint
            return IllegalAction(
                "same_or_pass", "You may only play the same value, without wilds, or pass.",
                value=self.deck.rank_of(c_level), count=c_count,
            )
        if top is None:
            return IllegalAction("illegal_play", "This play is not allowed.")
        if top.special == "joker":
            return IllegalAction("only_joker", "Only a stronger joker may answer a joker.")
        if self.rules.two_beats_larger and not self.revolution and top.special is None \
                and top.level == TWO:  # in a revolution the 2s are the weakest (RULES §7)
            return IllegalAction("only_joker", "After a group of 2s only a joker may answer.")
        if count != top.count:
            return IllegalAction("wrong_count", f"Play exactly {top.count} card(s).",
                                 count=top.count)
        if level == top.level and not self.rules.equal_allowed:
            return IllegalAction("equal_not_allowed", "You must play strictly higher.",
                                 value=top.value)
        return IllegalAction("too_low", f"{rank} does not beat {top.value}.", value=top.value)

    def verify_pass(self, seat: int, seen: int | None = None) -> None:
        self._may_play_now(seat)
        # A pass answers the trick its player saw, like a play: one sent from a hand drawn
        # for an earlier trick (fast mode) must not drop its player from one never shown.
        self._check_seen(seen)
        if not self.trick:
            raise IllegalAction("must_open", "You open this trick: you must play.")
        if self.rules.fast and seat == self.last_player:
            raise IllegalAction("last_player_cannot_pass",
                                "You made the last play: you cannot pass.")

    def can_pass(self, seat: int) -> bool:
        """Same answer as :meth:`verify_pass`, without raising (asked at every decision)."""
        if self.phase is not Phase.PLAY or not self.trick or not self.hands[seat]:
            return False
        if self.rules.fast:
            return seat not in self.passed and seat != self.last_player
        return self.to_act == seat

    # ------------------------------------------------------------------ actions
    def play(self, seat: int, cards: Sequence[Card], announce: str | None = None,
             seen: int | None = None) -> list[Event]:
        """Play these exact cards (``announce``: the value of a play made only of wilds)."""
        option = self.verify_play(seat, cards, announce, seen)
        self._human_acted(seat)
        events = self._begin()
        self._apply_play(seat, tuple(cards), option, events)
        return self._finish(events)

    def play_option(self, seat: int, option: PlayOption, seen: int | None = None) -> list[Event]:
        """Play one of :meth:`legal_plays`' options (the engine's choice of suits).

        The check is membership in the listed options, which is what makes the listing and
        the verification agree by construction; an option not listed now is refused.
        """
        if seen is not None:
            self._check_seen(seen)
        if option not in self.legal_plays(seat):  # listed only when the seat may play now
            return self.play(seat, option.cards, option.announce, seen)
        # Inlined _human_acted and _begin: this is the engine's hottest path.
        self.timeouts[seat] = 0
        self.version += 1
        events: list[Event] = []
        self._apply_play(seat, option.cards, option, events)
        return self._finish(events)

    def pass_turn(self, seat: int, seen: int | None = None) -> list[Event]:
        if seen is not None or not self.can_pass(seat):
            self.verify_pass(seat, seen)  # raises with the reason
        self.timeouts[seat] = 0
        self.version += 1
        events: list[Event] = []
        self._apply_pass(seat, events)
        return self._finish(events)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every play option, then pass when passing is legal: what a player may do now."""
        actions = [Action.play(o) for o in self.legal_plays(seat)]
        if self.can_pass(seat):
            actions.append(Action.pass_())
        return actions

    # ------------------------------------------------------------------ search support
    def step(self, seat: int, option: PlayOption | None) -> None:
        """Rollouts' fast path: apply an option taken from :meth:`legal_plays` (None: pass).

        Nothing is verified and no event is returned: the caller vouches that ``option`` was
        listed for ``seat`` now (or that the seat may pass). The resulting state is the one
        :meth:`play_option` / :meth:`pass_turn` reach; a test holds the two paths together.
        """
        self.timeouts[seat] = 0
        self.version += 1
        if option is None:
            self._apply_pass(seat, _QUIET)
        else:
            self._apply_play(seat, option.cards, option, _QUIET)
        self._finish(_QUIET)

    def prime(self) -> None:
        """Search support: build every seat's opening options now. Play keeps them in step
        with the hands and :meth:`clone` shares them, so the copies of a sampled deal that
        search plays on (one per candidate move) build none of them again."""
        for seat in self.order:
            if self.hands[seat] and seat not in self._base:
                self._opening(seat)

    def scratch(self) -> None:
        """Search support: make this game (and the clones made of it from now on) a
        scratch copy to roll out. Its plays and passes are no longer recorded in
        :attr:`played` and :attr:`tells` (the moments search's beliefs are read from, at
        the root, before any rollout: nothing in a rollout reads them), which saves a
        record per play and per pass; everything else moves as in any game. Such a game
        is not one to show or store: its records stop where it was made a scratch copy."""
        self._records = False

    # ------------------------------------------------------------------ trick mechanics
    def _apply_play(self, seat: int, cards: tuple[Card, ...], option: PlayOption,
                    events: list[Event]) -> None:
        r = self.rules
        hand = self.hands[seat]
        for card in cards:
            hand.remove(card)
        self._refresh_base(seat, option, cards)
        self.pile.extend(cards)
        level, count, special = option.level, option.count, option.special
        trick = self.trick
        previous = trick[-1] if trick else None
        if previous is not None and previous.special is None and special is None \
                and previous.level == level:
            self._run += count
        else:
            self._run = count if special is None else 0
        play = _tuple(TrickPlay, (seat, cards, level, count, option.value, special,
                                  option.announce))
        if self._records:
            played = self.played[seat]
            held = self.constraint
            self.tells.append(_tuple(Tell, (seat, len(played), previous, play, self.revolution,
                                            (held[1], held[2]) if held is not None
                                            and held[0] == seat else None)))
            played.extend(cards)
        trick.append(play)
        self.last_player = seat
        self.constraint = None
        self.trick_version = self.version
        self._restart = True
        if events is not _QUIET:
            events.append(Played(seat, cards, option.value, count, option.announce, special))

        close: str | None = None
        if special == "top_single":
            close = "top_single"
        elif special == "joker":
            close = "joker" if r.jokers_close else None
        else:
            before = self.revolution
            if count == 4 and r.revolution:
                self.revolution = not self.revolution
                events.append(RevolutionChanged(seat, self.revolution))
            if r.closing_rank == "best" and level == (THREE if before else TWO):
                close = "best"
            elif r.closing_rank == "two" and level == TWO:
                close = "two"
            elif r.four_closes and self._run >= 4:
                close = "four"

        if not hand:
            self._went_out(seat, play, events)
            if self._round_finished():
                self._end_round(events)
                return
            if close is None and r.finishing_closes_trick:
                close = "finished"
        if close is not None:
            self._close_trick(close, events)
            return
        if r.fast:
            if self._fast_all_passed():
                self._close_trick("all_passed", events)
            return
        following = self._following(seat)
        equal = (previous is not None and previous.special is None
                 and previous.level == level and previous.count == count)
        if following is not None and equal:
            if r.on_equal == "skip_next":
                events.append(Skipped(following))
                following = self._following(following)
            elif r.on_equal == "skip_unless_holding":
                if self._holds(following, level, count):
                    self._constrain(following, level, count, events)
                else:
                    self.lacks.append((following, level, count))
                    events.append(Skipped(following))
                    following = self._following(following)
            elif r.on_equal == "same_or_pass":
                self._constrain(following, level, count, events)
        if following is None:
            self._close_trick("lap" if r.trick_end == "one_lap" else "all_passed", events)
        else:
            self.to_act = following

    def _refresh_base(self, seat: int, played: PlayOption, cards: tuple[Card, ...]) -> None:
        """Keep the seat's opening options in step with its hand after a play.

        Only the played value's options change when no wild or named card is involved, so
        those are swapped in place (rebuilding the whole list at every play is the engine's
        largest cost); anything else rebuilds from scratch on the next listing. 2s played
        by a seat that held no top single card are plain cards too (presi's other 2s).
        """
        base = self._base.get(seat)
        if base is None:
            return
        level = played.level
        named = self.rules.top_single
        if played.special is not None or self._wild is not None or (
            level == TWO and named is not None
            and (named in cards or named in self.hands[seat])
        ):
            del self._base[seat]
            return
        # A value's plain options are contiguous, counts 1..k, the last holding all k cards.
        first = base.index(played) - played.count + 1  # listed, so it is in the base
        last = first + 1
        while last < len(base) and base[last].level == level and base[last].special is None:
            last += 1
        group = base[last - 1].cards  # every card of the value, the options its prefixes
        # The option's own cards are the group's first ones (search and play_option play
        # them); cards named by a player may be any of the group's.
        remaining = group[played.count:] if cards is played.cards else \
            tuple([c for c in group if c not in cards])
        fresh = plain_options(remaining, False) if remaining else []
        self._base[seat] = base[:first] + fresh + base[last:]

    def _constrain(self, seat: int, level: int, count: int, events: list[Event]) -> None:
        self.constraint = (seat, level, count)
        events.append(SameOrPass(seat, self.deck.rank_of(level), count))

    def _holds(self, seat: int, level: int, count: int) -> bool:
        held = [c for c in self.hands[seat] if c.value == level]
        if count == 1 and self.rules.top_single is not None:
            held = [c for c in held if c is not self.rules.top_single]
        return len(held) >= count

    def _run_length(self) -> int:
        """Cards of the top value lying consecutively at the top of the trick.

        Play keeps this count in ``_run`` as it goes; this recounts it for a restored state.
        """
        if not self.trick:
            return 0
        top_level = self.trick[-1].level
        total = 0
        for play in reversed(self.trick):
            if play.special is not None or play.level != top_level:
                break
            total += play.count
        return total

    def _apply_pass(self, seat: int, events: list[Event]) -> None:
        if self.rules.pass_is_final or self.rules.fast:
            self.passed.add(seat)
        held = self.constraint
        mine = held is not None and held[0] == seat
        if self._records:
            self.tells.append(_tuple(Tell, (seat, len(self.played[seat]), self.trick[-1], None,
                                            self.revolution,
                                            (held[1], held[2]) if held is not None and mine
                                            else None)))
        if mine:
            self.constraint = None
        if events is not _QUIET:
            events.append(Passed(seat))
        if self.rules.fast:
            if self._fast_all_passed():
                self._close_trick("all_passed", events)
            return
        self._restart = True
        following = self._following(seat)
        if following is None:
            self._close_trick("lap" if self.rules.trick_end == "one_lap" else "all_passed",
                              events)
        else:
            self.to_act = following

    def _fast_all_passed(self) -> bool:
        if self.last_player is None:
            return False
        return all(
            s in self.passed for s in self.order if s != self.last_player and self.hands[s]
        )

    def _following(self, seat: int) -> int | None:
        """The next seat to get a chance in this trick, or None when the trick must close."""
        if self.rules.trick_end == "one_lap":
            while self.lap:
                candidate = self.lap.pop(0)
                if self.hands[candidate]:
                    return candidate
            return None
        last, hands, passed = self.last_player, self.hands, self.passed
        for candidate in self._cycles[seat]:
            if candidate == last:
                return None
            if hands[candidate] and candidate not in passed:
                return candidate
        return None

    def _next_with_cards(self, seat: int) -> int | None:
        for candidate in self._cycles[seat]:
            if self.hands[candidate]:
                return candidate
        return None

    def _close_trick(self, reason: str, events: list[Event]) -> None:
        winner = self.last_player
        assert winner is not None
        opener = winner if self.hands[winner] else self._next_with_cards(winner)
        if events is not _QUIET:
            top = self.trick[-1].value if self.trick else None
            events.append(TrickClosed(winner, reason, opener, top))
        self._open_trick(opener)

    def _open_trick(self, opener: int | None) -> None:
        self.trick = []
        self.passed = set()
        self.constraint = None
        self.last_player = None
        self.opener = opener
        self.forced_opener = None
        self._run = 0
        self.trick_version = self.version
        self._restart = True
        self.to_act = None if self.rules.fast else opener
        if opener is not None and self.rules.trick_end == "one_lap":
            start = self.order.index(opener)
            n = len(self.order)
            self.lap = [self.order[(start + i) % n] for i in range(1, n)]
        else:
            self.lap = []

    # ------------------------------------------------------------------ finishing
    def _went_out(self, seat: int, play: TrickPlay, events: list[Event]) -> None:
        self.out.append(seat)
        place = self.finish_place(seat)
        assert place is not None
        events.append(Out(seat, len(self.out), place))
        penalty = self.rules.finish_penalty
        if penalty == "none" or play.special == "joker":
            return
        on_two = play.level == TWO
        # « Finir sa main sur un 2 ou avec un 7 » (the wild7 seed): a 7 among the cards,
        # wild at this table or not.
        on_seven = any(c.value == SEVEN for c in play.cards)
        if on_two or (penalty == "two_or_wild" and on_seven):
            self.penalised.append(seat)
            events.append(Penalised(seat, len(self.order) - len(self.penalised) + 1,
                                    "2" if on_two else "7"))

    def _round_finished(self) -> bool:
        return sum(1 for s in self.order if self.hands[s]) <= 1

    def finish_place(self, seat: int) -> int | None:
        """The place a seat that went out this round holds (None while it holds cards):
        finishers rank in order above the penalised ones, who stack from the bottom."""
        if seat in self.penalised:
            return len(self.order) - self.penalised.index(seat)
        if seat not in self.out:
            return None
        return 1 + sum(1 for s in self.out[:self.out.index(seat)] if s not in self.penalised)
