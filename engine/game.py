"""The game state machine: rounds, tricks, exchange, timers, automation.

Every public action follows the same shape (PokerKit's): ``verify_x`` raises
:class:`IllegalAction` with a reason and changes nothing, ``can_x`` answers yes or no, and ``x``
verifies, applies and returns the list of :mod:`events <engine.events>` it caused. The engine
owns no clock: :attr:`Game.timer` says which countdown runs and ``serial`` tells the caller
when to restart it; the caller reports expiry with :meth:`Game.timeout`.

>>> from engine import Game, Rules
>>> game = Game.new(Rules.preset("classic"), seats=4, seed=1)
>>> game.phase.value, game.to_act is not None, sum(game.hand_sizes())
('play', True, 52)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, NamedTuple

from .actions import Action
from .cards import THREE, TWO, Card, Deck
from .errors import IllegalAction
from .events import (
    AutopilotChanged,
    Dealt,
    Event,
    ExchangeDone,
    ExchangeGiven,
    ExchangeStarted,
    GameOver,
    Left,
    Out,
    Passed,
    Penalised,
    Played,
    RevolutionChanged,
    RoundOver,
    SameOrPass,
    Skipped,
    TimedOut,
    TrickClosed,
)
from .exchange import ExchangeDue, Gift, allowed_cards, check_gift, default_gift
from .observation import Observation, observe
from .plays import (
    PlayOption,
    Signature,
    legal_options,
    opening_options,
    plain_options,
    signature,
)
from .roles import exchange_pairs, roles_for
from .rules import Rules

__all__ = ["ExchangeDue", "Game", "Phase", "Timer", "TrickPlay"]


class Phase(Enum):
    EXCHANGE = "exchange"
    PLAY = "play"
    ROUND_OVER = "round_over"
    GAME_OVER = "game_over"


class TrickPlay(NamedTuple):
    """One accepted play lying in the current trick."""

    seat: int
    cards: tuple[Card, ...]
    level: int
    count: int  # type: ignore[assignment]  # shadows tuple.count, on purpose
    value: str
    special: str | None
    announce: str | None


@dataclass(frozen=True, slots=True)
class Timer:
    """The countdown the caller must run. A new ``serial`` means: start it again from full."""

    kind: str  # turn | exchange | fast
    seat: int | None
    seconds: int
    serial: int


class Game:
    """One game at one table: a sequence of rounds under fixed :class:`Rules`."""

    def __init__(self, rules: Rules, seats: int, rng: random.Random, autoplay: bool) -> None:
        if not 2 <= seats <= 8:
            raise ValueError("a table has 2 to 8 seats")
        self.rules = rules
        self.deck: Deck = rules.deck_kind
        self.seats = seats
        self.rng = rng
        self.autoplay = autoplay
        self._wild = 4 if rules.wild_rank == "7" else None
        self.phase = Phase.PLAY
        self.round_no = 0
        self.hands: list[list[Card]] = [[] for _ in range(seats)]
        self.active = [True] * seats
        self._cycles: dict[int, tuple[int, ...]] = {}
        self.order = list(range(seats))
        self.points = [0] * seats
        self.ranking: tuple[int, ...] | None = None
        self.out: list[int] = []
        self.penalised: list[int] = []
        self.revolution = False
        self.trick: list[TrickPlay] = []
        self.pile: list[Card] = []  # every card played this round, the current trick included
        self.passed: set[int] = set()
        self.last_player: int | None = None
        self.to_act: int | None = None
        self.opener: int | None = None
        self.forced_opener: int | None = None  # a position's given opener, until it opens
        self.constraint: tuple[int, int, int] | None = None  # seat, level, count
        self._run = 0  # cards of the top value lying together at the top (four_closes)
        self.lap: list[int] = []
        self.gifts: list[Gift] = []
        # What a player may later infer, kept for the round (see engine.view): the exchange's
        # transfers (giver, receiver, cards, mode) and the skips that showed a seat lacked a
        # value (seat, level, count: it held fewer than count cards of level).
        self.swaps: list[tuple[int, int, tuple[Card, ...], str]] = []
        self.lacks: list[tuple[int, int, int]] = []
        self.version = 0
        self.trick_version = 0
        self.timer_serial = 0
        self.timeouts = [0] * seats
        self.autopilot: set[int] = set()
        self.bots: set[int] = set()
        self.winners: tuple[int, ...] = ()
        self.stopped_early = False
        self._restart = False
        # What :meth:`new` and :meth:`replay` did (the first deal, who opens and why), for
        # their caller to log; not part of the state, so not serialised.
        self.first_events: list[Event] = []
        self._legal_cache: dict[int, list[PlayOption]] = {}
        self._base: dict[int, list[PlayOption]] = {}  # opening options per seat, per hand
        self._due_cache: dict[int, ExchangeDue] = {}
        self._due_version = -1
        self._legal_version = -1

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(
        cls,
        rules: Rules,
        seats: int,
        seed: int | None = None,
        *,
        bots: Iterable[int] = (),
        hands: Sequence[Sequence[Card]] | None = None,
        previous_ranking: Sequence[int] | None = None,
        opener: int | None = None,
        points: Sequence[int] | None = None,
        autoplay: bool = False,
    ) -> Game:
        """A game with its first round dealt.

        ``hands``/``previous_ranking``/``opener``/``points`` set up a position (scenarios,
        tests); ``previous_ranking`` makes it a later round with roles and an exchange.
        ``autoplay`` makes the engine play bot and autopilot seats itself, at once (the
        scenario runner); the bot leaves it off to pace its bots.
        """
        game = cls(rules, seats, random.Random(seed), autoplay)
        game.bots = set(bots)
        if points is not None:
            game.points = list(points)
        if previous_ranking is not None:
            if sorted(previous_ranking) != list(range(seats)):
                raise ValueError("previous_ranking must list every seat once")
            game.ranking = tuple(previous_ranking)
            game.round_no = 1
        game.first_events = game._finish(game._start_round(hands, opener))
        return game

    def replay(self) -> Game:
        """A new game: same rules, seats and bots, scores reset."""
        game = Game(self.rules, self.seats, random.Random(self.rng.random()), self.autoplay)
        game.bots = set(self.bots)
        game.active = list(self.active)
        game.first_events = game._finish(game._start_round(None, None))
        return game

    # ------------------------------------------------------------------ queries
    @property
    def order(self) -> list[int]:
        """Seats of the current round in play order."""
        return self._order

    @order.setter
    def order(self, seats: list[int]) -> None:
        # Each seat's successors, itself last: turn-passing walks this instead of indexing.
        self._order = seats
        n = len(seats)
        self._cycles = {
            seat: tuple(seats[(i + k) % n] for k in range(1, n + 1))
            for i, seat in enumerate(seats)
        }

    @property
    def players(self) -> list[int]:
        """Seats taking part in the current round, in play order."""
        return self.order

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The seat's cards, weakest first in the current order."""
        return tuple(sorted(self.hands[seat], key=self._sort_key))

    def hand_sizes(self) -> list[int]:
        return [len(h) for h in self.hands]

    def automated(self, seat: int) -> bool:
        """Whether a bot plays this seat now (a bot seat, a player who left, an autopilot)."""
        return seat in self.bots or seat in self.autopilot

    @property
    def roles(self) -> list[str | None]:
        """Role per seat from the latest finished round (None before any)."""
        out: list[str | None] = [None] * self.seats
        if self.ranking is not None:
            for seat, role in zip(
                self.ranking, roles_for(len(self.ranking), self.rules.vp_at_three), strict=True
            ):
                out[seat] = role
        return out

    @property
    def top(self) -> TrickPlay | None:
        return self.trick[-1] if self.trick else None

    @property
    def count(self) -> int | None:
        """Cards each play of the current trick must have (None on an empty trick)."""
        top = self.top
        return None if top is None else top.count

    def observe(self, seat: int | None) -> Observation:
        """What ``seat`` may see (``None``: a spectator); never another player's cards."""
        return observe(self, seat)

    @property
    def timer(self) -> Timer | None:
        r = self.rules
        if self.phase is Phase.EXCHANGE:
            return Timer("exchange", None, r.exchange_seconds, self.timer_serial)
        if self.phase is not Phase.PLAY:
            return None
        if r.fast:
            return Timer("fast", None, r.fast_seconds, self.timer_serial)
        return Timer("turn", self.to_act, r.turn_seconds, self.timer_serial)

    def strength(self, level: int) -> int:
        """Position of a value in the current order (higher is stronger)."""
        return TWO - level if self.revolution else level

    def _sort_key(self, card: Card) -> tuple[int, int, str]:
        if card.is_joker:
            return (2, card.value, "")
        wild = 1 if card.value == self._wild else 0
        return (wild, self.strength(card.value), card.suit)

    # ------------------------------------------------------------------ legality
    def _may_play_now(self, seat: int) -> None:
        if self.to_act == seat and self.phase is Phase.PLAY and self.hands[seat]:
            return  # the common case, checked first: it runs at every decision
        if self.phase is not Phase.PLAY:
            raise IllegalAction("wrong_phase", f"Nobody plays cards during {self.phase.value}.",
                                phase=self.phase.value)
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
        try:
            self._may_play_now(seat)
        except IllegalAction:
            options: list[PlayOption] = []
        else:
            options = self._options(seat)
        self._legal_cache[seat] = options
        return options

    def _options(self, seat: int) -> list[PlayOption]:
        base = self._base.get(seat)
        if base is None:
            base = opening_options(self.hands[seat], deck=self.deck, wild_level=self._wild,
                                   top_single=self.rules.top_single)
            self._base[seat] = base
        r = self.rules
        held = self.constraint
        constraint = (held[1], held[2]) if held is not None and held[0] == seat else None
        trick = self.trick
        return legal_options(base, trick[-1] if trick else None, self.revolution,
                             r.equal_allowed, r.two_beats_larger, constraint)

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
        if self.rules.two_beats_larger and top.special is None and top.level == TWO:
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
        if not self.can_pass(seat):
            self.verify_pass(seat, seen)  # raises with the reason
        self.timeouts[seat] = 0
        self.version += 1
        events: list[Event] = []
        self._apply_pass(seat, events)
        return self._finish(events)

    def _human_acted(self, seat: int) -> None:
        self.timeouts[seat] = 0

    def _begin(self) -> list[Event]:
        """Start applying an accepted action: every action gets its own version."""
        self.version += 1
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        """Every play option, then pass when passing is legal: what a player may do now."""
        actions = [Action.play(o) for o in self.legal_plays(seat)]
        if self.can_pass(seat):
            actions.append(Action.pass_())
        return actions

    def apply(self, seat: int, action: Action, seen: int | None = None) -> list[Event]:
        """Apply an :class:`Action` value (what players return)."""
        if action.kind == "play":
            assert action.option is not None
            return self.play_option(seat, action.option, seen)
        if action.kind == "pass":
            return self.pass_turn(seat, seen)
        if action.kind == "give":
            return self.give(seat, action.cards)
        raise ValueError(f"unknown action {action.kind!r}")

    # ------------------------------------------------------------------ search support
    def step(self, seat: int, option: PlayOption | None) -> None:
        """Rollouts' fast path: apply an option taken from :meth:`legal_plays` (None: pass).

        Nothing is verified and no event is returned: the caller vouches that ``option`` was
        listed for ``seat`` now (or that the seat may pass). The resulting state is the one
        :meth:`play_option` / :meth:`pass_turn` reach; a test holds the two paths together.
        """
        self.timeouts[seat] = 0
        self.version += 1
        events: list[Event] = []
        if option is None:
            self._apply_pass(seat, events)
        else:
            self._apply_play(seat, option.cards, option, events)
        self._finish(events)

    def clone(self, rng: random.Random | None = None) -> Game:
        """An independent copy for search, in tens of microseconds (``to_dict`` is far slower).

        Immutable parts (rules, cards, tuples, the turn cycles) are shared; every container
        play mutates is copied. ``rng``: the copy's random generator (default: a copy of
        this one's state, so the copy deals the same future rounds).
        """
        game = Game.__new__(Game)
        state = game.__dict__
        state.update(self.__dict__)
        state["hands"] = [list(h) for h in self.hands]
        state["active"] = list(self.active)
        state["points"] = list(self.points)
        state["out"] = list(self.out)
        state["penalised"] = list(self.penalised)
        state["trick"] = list(self.trick)
        state["pile"] = list(self.pile)
        state["passed"] = set(self.passed)
        state["lap"] = list(self.lap)
        state["gifts"] = [replace(g) for g in self.gifts]
        state["swaps"] = list(self.swaps)
        state["lacks"] = list(self.lacks)
        state["timeouts"] = list(self.timeouts)
        state["autopilot"] = set(self.autopilot)
        state["bots"] = set(self.bots)
        state["_base"] = dict(self._base)  # option lists are replaced, never mutated
        state["_legal_cache"] = {}
        state["_legal_version"] = -1
        state["_due_cache"] = {}
        state["_due_version"] = -1
        if rng is None:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
        state["rng"] = rng
        return game

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
        play = TrickPlay(seat, cards, level, count, option.value, special, option.announce)
        trick.append(play)
        self.last_player = seat
        self.constraint = None
        self.trick_version = self.version
        self._restart = True
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
        largest cost); anything else rebuilds from scratch on the next listing.
        """
        base = self._base.get(seat)
        if base is None:
            return
        level = played.level
        if played.special is not None or self._wild is not None or (
            level == TWO and self.rules.top_single is not None
        ):
            del self._base[seat]
            return
        # A value's plain options are contiguous, counts 1..k, the last holding all k cards.
        first = base.index(played) - played.count + 1  # listed, so it is in the base
        last = first + 1
        while last < len(base) and base[last].level == level and base[last].special is None:
            last += 1
        remaining = tuple(c for c in base[last - 1].cards if c not in cards)
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
        if self.constraint is not None and self.constraint[0] == seat:
            self.constraint = None
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
        events.append(Out(seat, len(self.out)))
        penalty = self.rules.finish_penalty
        if penalty == "none" or play.special == "joker":
            return
        on_two = play.level == TWO
        on_wild = self._wild is not None and any(c.value == self._wild for c in play.cards)
        if on_two or (penalty == "two_or_wild" and on_wild):
            self.penalised.append(seat)
            events.append(Penalised(seat, len(self.order) - len(self.penalised) + 1,
                                    "2" if on_two else self.rules.wild_rank))

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
        elif end.kind == "target" and end.n is not None:
            reached = [s for s in ranking if self.points[s] >= end.n]
            if reached:
                best = max(self.points[s] for s in reached)
                # Ranking order breaks ties: when P and VP both reach the target, P wins.
                self._end_game((next(s for s in reached if self.points[s] == best),), False,
                               events)

    def _leaders(self) -> tuple[int, ...]:
        seats = [s for s in range(self.seats) if self.active[s]]
        best = max(self.points[s] for s in seats)
        return tuple(s for s in seats if self.points[s] == best)

    def _end_game(self, winners: tuple[int, ...], stopped: bool, events: list[Event]) -> None:
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
        """Free a seat between rounds: it is no longer dealt (the table shrinks)."""
        if self.phase is not Phase.ROUND_OVER:
            raise IllegalAction("round_not_over", "Seats change only between rounds.")
        self.active[seat] = False
        self.bots.discard(seat)
        self.autopilot.discard(seat)
        self.version += 1

    def set_bot(self, seat: int, bot: bool) -> None:
        """Hand a seat to a bot, or back to a human (e.g. a waiting player takes a bot's seat)."""
        if bot:
            self.bots.add(seat)
        else:
            self.bots.discard(seat)
            self.autopilot.discard(seat)
            self.timeouts[seat] = 0
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
        self.swaps, self.lacks = [], []
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
            events.append(Dealt(self.round_no, tuple(self.hand_sizes()), first, why))
            self._open_trick(first)
        return events

    def _first_opener(self) -> tuple[int, str]:
        """Who opens the round, and why (the reason the events carry: a knob's value, "given"
        for a set-up position, "seat_order" when the deciding card was not dealt)."""
        r = self.rules
        if self.forced_opener is not None:
            return self.forced_opener, "given"
        if self.ranking:
            last = r.round_opener == "last_place"
            return (self.ranking[-1] if last else self.ranking[0]), r.round_opener
        deciding = {"queen_of_hearts": Card("Q", "H"), "three_of_oros": Card("3", "O")}
        card = deciding.get(r.first_opener)
        if card is not None:
            for seat in self.order:
                if card in self.hands[seat]:
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
            raise IllegalAction("wrong_phase", "There is no exchange now.",
                                phase=self.phase.value)
        gift = self._pending_gift(seat)
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
        gift = self._pending_gift(seat)
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
        events.append(ExchangeDone(opener, why))
        self._open_trick(opener)

    # ------------------------------------------------------------------ time and absence
    def verify_timeout(self) -> None:
        if self.timer is None:
            raise IllegalAction("no_timer", "No timer is running.")

    def timeout(self) -> list[Event]:
        """The running timer expired: act as RULES.md §9–§10 say."""
        self.verify_timeout()
        events = self._begin()
        if self.phase is Phase.EXCHANGE:
            events.append(TimedOut("exchange", None))
            for gift in sorted(self.gifts, key=lambda g: g.mode != "best"):
                if gift.cards is None:
                    self._record_gift(gift, self._default_gift(gift), True, events)
            self._maybe_finish_exchange(events)
        elif self.rules.fast:
            events.append(TimedOut("fast", None))
            if self.trick:
                self._close_trick("timeout", events)
            elif self.opener is not None:
                self._apply_play(self.opener, *self._weakest_single(self.opener), events)
        else:
            seat = self.to_act
            assert seat is not None
            events.append(TimedOut("turn", seat))
            self._default_action(seat, events)
            self.timeouts[seat] += 1
            limit = self.rules.autopilot_after_timeouts
            if limit is not None and self.timeouts[seat] >= limit and seat not in self.autopilot:
                self.autopilot.add(seat)
                events.append(AutopilotChanged(seat, True))
        self._restart = True
        return self._finish(events)

    def _default_gift(self, gift: Gift) -> tuple[Card, ...]:
        return default_gift(self.hands[gift.giver], gift, self.rules.top_single)

    def _weakest_single(self, seat: int) -> tuple[tuple[Card, ...], PlayOption]:
        singles = [o for o in self._options(seat) if o.count == 1]
        option = min(singles, key=self._smallness)
        return option.cards, option

    def _smallness(self, option: PlayOption) -> tuple[int, int, int, int, int]:
        """Sort key of the server's automatic plays: RULES.md §10 says an automatic action
        never spends a wild card while a natural play would do, so wilds weigh before value."""
        return (1 if option.special else 0, 1 if option.wilds else 0,
                self.strength(option.level), option.wilds, option.count)

    def _default_action(self, seat: int, events: list[Event]) -> None:
        """What the server does for a seat whose time ran out (RULES.md §10)."""
        if self.rules.timeout_action == "smallest":
            options = self._options(seat)  # uncached: the version already moved on
            if self.trick and options:
                option = min(options, key=self._smallness)
                self._apply_play(seat, option.cards, option, events)
                return
        if self.trick:
            self._apply_pass(seat, events)
        else:
            self._apply_play(seat, *self._weakest_single(seat), events)

    def verify_resume(self, seat: int) -> None:
        if seat not in self.autopilot:
            raise IllegalAction("not_on_autopilot", "No autopilot is playing for you.")

    def resume(self, seat: int) -> list[Event]:
        """« Reprendre »: the player takes their seat back from the autopilot."""
        self.verify_resume(seat)
        self._begin()
        self.autopilot.discard(seat)
        self.timeouts[seat] = 0
        return self._finish([AutopilotChanged(seat, False)])

    def leave(self, seat: int) -> list[Event]:
        """The player left: a bot plays the seat from now on (the table frees it later)."""
        if not 0 <= seat < self.seats or not self.active[seat]:
            raise IllegalAction("not_seated", "This seat is not in the game.")
        self._begin()
        self.bots.add(seat)
        self.autopilot.discard(seat)
        return self._finish([Left(seat)])

    def verify_stop(self) -> None:
        if self.phase is Phase.GAME_OVER:
            raise IllegalAction("game_over", "The game is already over.")

    def stop(self) -> list[Event]:
        """The host ends the game: final totals count only when the game has no set end."""
        self.verify_stop()
        events = self._begin()
        if self.rules.game_end.kind == "unlimited":
            self._end_game(self._leaders(), False, events)
        else:
            self._end_game((), True, events)
        self._restart = True
        return self._finish(events)

    # ------------------------------------------------------------------ automation
    def _automate(self, events: list[Event]) -> None:
        """With ``autoplay``, let bot and autopilot seats act until a human must."""
        from .players import GreedyPlayer

        bot = GreedyPlayer()
        progress = True
        while progress:
            progress = False
            if self.phase is Phase.EXCHANGE:
                for gift in list(self.gifts):
                    if gift.cards is None and self.automated(gift.giver) and \
                            self._gift_ready(gift):
                        self._record_gift(gift, self._default_gift(gift), True, events)
                        self._maybe_finish_exchange(events)
                        progress = True
                        break
            elif self.phase is Phase.PLAY:
                seats = self.order if self.rules.fast else (
                    [self.to_act] if self.to_act is not None else [])
                for seat in seats:
                    if not self.automated(seat) or not self.hands[seat]:
                        continue
                    action = bot.choose(self, seat)
                    if action.kind == "pass" and not self.can_pass(seat):
                        continue
                    self.version += 1
                    if action.kind == "pass":
                        self._apply_pass(seat, events)
                    else:
                        assert action.option is not None
                        self._apply_play(seat, action.option.cards, action.option, events)
                    progress = True
                    break

    def _finish(self, events: list[Event]) -> list[Event]:
        if self.autoplay:
            self._automate(events)
        if self._restart:
            self.timer_serial += 1
            self._restart = False
        return events

    # ------------------------------------------------------------------ serialisation
    def to_dict(self) -> dict[str, Any]:
        """The whole state, JSON-safe; :meth:`from_dict` continues identically."""
        from .snapshot import game_to_dict

        return game_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        from .snapshot import game_from_dict

        return game_from_dict(data)


_DECK_CARDS = {deck: tuple(deck.cards()) for deck in Deck}
