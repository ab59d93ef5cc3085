"""The state one game shares between its concerns, declared once.

:class:`engine.game.Game` is assembled from layers, each in its own module and each building
on the one before: this state, then :mod:`tricks <engine.tricks>`, :mod:`rounds and the
exchange <engine.rounds>`, :mod:`timers and automation <engine.automation>`. Declaring every
attribute here gives mypy one place to check them all; the two calls a lower layer makes into
a higher one (a finished round, a finished action) are declared abstract here, so imports
only ever flow upward and no module needs the assembled class.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from .cards import TWO, Card, Deck
from .errors import IllegalAction
from .events import Event
from .exchange import ExchangeDue, Gift
from .plays import PlayOption
from .roles import roles_for
from .rules import Rules

__all__ = ["GameState", "Phase", "Tell", "Timer", "TrickPlay", "Who"]

#: Who takes part in a game's standings: a seat, or the key under which a player who gave up
#: their seat to wait off the table keeps their points (:attr:`GameState.off_table`).
Who = int | str


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


class Tell(NamedTuple):
    """A public moment that may say something about a seat's hand then: facing ``top``
    (None: it opened the trick) it made ``play`` (None: it passed). What it says depends on
    how the seat plays, so the engine records the moment and search reads it
    (:mod:`engine.tells`)."""

    seat: int
    before: int  # cards the seat had played this round until then
    top: TrickPlay | None
    play: TrickPlay | None
    revolution: bool
    constraint: tuple[int, int] | None  # « ta gueule » / « ou rien » on the seat: level, count


@dataclass(frozen=True, slots=True)
class Timer:
    """The countdown the caller must run. A new ``serial`` means: start it again from full."""

    kind: str  # turn | exchange | fast
    seat: int | None
    seconds: int
    serial: int


class GameState(ABC):
    """The attributes of one game and the queries every concern reads them through."""

    def __init__(self, rules: Rules, seats: int, rng: random.Random) -> None:
        if not 2 <= seats <= 8:
            raise ValueError("a table has 2 to 8 seats")
        self.rules = rules
        self.deck: Deck = rules.deck_kind
        self.seats = seats
        self.rng = rng
        self._wild = rules.wild_level
        self.phase = Phase.PLAY
        self.round_no = 0
        # Rounds of this game that ended with a result: a round stopped midway has none, and
        # a game over cannot tell from its phase whether its last round did.
        self.rounds_scored = 0
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
        # The seat the rules made open the round for holding a card (the first round's queen
        # of hearts or 3 of oros), and that card: the table says why it opens.
        self.deciding: tuple[int, Card] | None = None
        # Every seat's plays this round, in order, and the passes and leads that may tell
        # something of a hand (search's beliefs, engine.tells); public like the pile.
        self.played: list[list[Card]] = [[] for _ in range(seats)]
        self.tells: list[Tell] = []
        # False on a search's scratch copy (:meth:`engine.tricks.Tricks.scratch`): its plays
        # and passes add nothing to ``played`` and ``tells``, which no rollout reads.
        self._records = True
        self.version = 0
        # The version this round began at: a control drawn before it (a menu from an earlier
        # round's exchange, left on a player's screen) belongs to another round.
        self.round_version = 0
        self.trick_version = 0
        self.timer_serial = 0
        self.timeouts = [0] * seats
        self.autopilot: set[int] = set()
        self.bots: set[int] = set()
        # The points of players who gave up their seat between rounds to wait off the table
        # (RULES §10: proletario's last place joins the queue), by the key the caller gave
        # (`step_off`): they still count in the standings and for the win, and come back
        # with their player (`take_seat`).
        self.off_table: dict[str, int] = {}
        self.winners: tuple[Who, ...] = ()
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

    def total(self, who: Who) -> int:
        """The game's points of a seat, or of a player waiting off the table."""
        return self.points[who] if isinstance(who, int) else self.off_table[who]

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
        """Role per seat from the latest finished round (None before any). A seat dealt in
        without a rank (a newcomer at a seat freed a round or more before, `reopen_seat`) is
        Neutral until a round of its own ends: the role the rules give a place that
        exchanges nothing, neither the last place's two best cards for a place they never
        lost nor the President's for one they never won (a **Reading**, docs/engine-api.md).
        The ranked seats keep the roles of the smaller table they finished at."""
        out: list[str | None] = [None] * self.seats
        if self.ranking:
            for seat, role in zip(
                self.ranking, roles_for(len(self.ranking), self.rules.vp_at_three), strict=True
            ):
                out[seat] = role
            for seat in self.order:
                if out[seat] is None:
                    out[seat] = "N"
        return out

    @property
    def top(self) -> TrickPlay | None:
        return self.trick[-1] if self.trick else None

    @property
    def count(self) -> int | None:
        """Cards each play of the current trick must have (None on an empty trick)."""
        top = self.top
        return None if top is None else top.count

    def strength(self, level: int) -> int:
        """Position of a value in the current order (higher is stronger)."""
        return TWO - level if self.revolution else level

    def _sort_key(self, card: Card) -> tuple[int, int, str]:
        if card.is_joker:
            return (2, card.value, "")
        wild = 1 if card.value == self._wild else 0
        return (wild, self.strength(card.value), card.suit)

    # ------------------------------------------------------------------ actions
    def _wrong_phase(self, message: str) -> IllegalAction:
        """The refusal of an action the phase does not take; ``message`` may name the phase
        (``{phase}``). Read here, the phase is a `Phase`, whose value is a str: where the
        caller has just tested it against one member, mypy reads the value as Any."""
        phase = self.phase.value
        return IllegalAction("wrong_phase", message.format(phase=phase), phase=phase)

    def _human_acted(self, seat: int) -> None:
        self.timeouts[seat] = 0

    def _begin(self) -> list[Event]:
        """Start applying an accepted action: every action gets its own version."""
        self.version += 1
        return []

    # ------------------------------------------------------------------ seams
    @abstractmethod
    def _end_round(self, events: list[Event]) -> None:
        """Score the round the last play finished (rounds sit above tricks)."""

    @abstractmethod
    def _finish(self, events: list[Event]) -> list[Event]:
        """Close an applied action: automation, then the timer (the top layer's work)."""
