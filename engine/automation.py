"""Timers and automation: the countdown the caller runs, what expiry does, and the seats
the engine plays itself (bots, autopilots, players who left).

The top layer, since a timeout or an automated seat may act in any phase; it also closes
every action (:meth:`Automation._finish`), which the lower layers call through the seam
declared in :class:`engine.state.GameState`.

What the automated seats play is the caller's to say (a :class:`Chooser`, e.g.
:class:`engine.players.GreedyPlayer`): the game imports no player.
"""

from __future__ import annotations

import random
from typing import Protocol

from .actions import Action
from .cards import Card
from .errors import IllegalAction
from .events import AutopilotChanged, Event, Left, TimedOut
from .exchange import Gift
from .plays import PlayOption
from .rounds import Rounds
from .rules import Rules
from .state import Phase, Timer, Who

__all__ = ["Automation", "Chooser"]


def _best_last(gift: Gift) -> bool:
    """A timed-out exchange records the other gifts before the low roles' best cards."""
    return gift.mode != "best"


class Chooser(Protocol):
    """Decides for a seat the engine plays itself (``autoplay``): a gift in the exchange, a
    play or a pass in a trick, among the actions the game lists. It reads the game through
    :class:`Rounds`, so a player need not import the layers above."""

    def choose(self, game: Rounds, seat: int) -> Action: ...


class Automation(Rounds):
    """Timers, absence, bots and the autopilot, on top of rounds and tricks.

    ``autoplay``: what plays bot and autopilot seats at once, as soon as each must act (the
    scenario runner passes :class:`engine.players.GreedyPlayer`); None leaves them to the
    caller, which paces its bots (the bot). The state holds no player, so it is declared here
    rather than in :class:`engine.state.GameState`.
    """

    def __init__(self, rules: Rules, seats: int, rng: random.Random,
                 autoplay: Chooser | None = None) -> None:
        super().__init__(rules, seats, rng)
        self.autoplay = autoplay

    # ------------------------------------------------------------------ timers
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

    # ------------------------------------------------------------------ time and absence
    def verify_timeout(self) -> None:
        if self.timer is None:
            raise IllegalAction("no_timer", "No timer is running.")

    def timeout(self) -> list[Event]:
        """The running timer expired: act as RULES.md §9–§10 say."""
        self.verify_timeout()
        events = self._begin()
        if self.phase is Phase.EXCHANGE:
            late = tuple(sorted({g.giver for g in self.gifts
                                 if g.cards is None and not self.automated(g.giver)}))
            events.append(TimedOut("exchange", None, late))
            for gift in sorted(self.gifts, key=_best_last):
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

    def verify_leave(self, seat: int) -> None:
        """A seat leaves once: a second leave, or one by a seat a bot plays from the start,
        would change nothing, and is refused as any action that cannot be taken."""
        if not 0 <= seat < self.seats or not self.active[seat]:
            raise IllegalAction("not_seated", "This seat is not in the game.")
        if seat in self.bots:
            raise IllegalAction("already_left", "A bot already plays this seat.")

    def can_leave(self, seat: int) -> bool:
        try:
            self.verify_leave(seat)
        except IllegalAction:
            return False
        return True

    def leave(self, seat: int) -> list[Event]:
        """The player left: a bot plays the seat from now on (the table frees it later)."""
        self.verify_leave(seat)
        self._begin()
        self.bots.add(seat)
        self.autopilot.discard(seat)
        return self._finish([Left(seat)])

    def verify_stop(self) -> None:
        if self.phase is Phase.GAME_OVER:
            raise IllegalAction("game_over", "The game is already over.")

    def stop_winners(self) -> tuple[Who, ...]:
        """Who would win if the host ended the game now (`stop`): the leaders on points
        when the game has no set end (RULES §8, « current totals are final »), those
        waiting off the table included, once the totals hold something; nobody otherwise.
        Stopped before any round counted, with no points set up, every seat level at 0
        would be a winner."""
        if self.rules.game_end.kind == "unlimited" and (self.rounds_scored or any(self.points)):
            return self._leaders()
        return ()

    def stop(self) -> list[Event]:
        """The host ends the game: it is over early unless the totals decide it
        (`stop_winners`)."""
        self.verify_stop()
        events = self._begin()
        winners = self.stop_winners()
        self._end_game(winners, not winners, events)
        self._restart = True
        return self._finish(events)

    def set_bot(self, seat: int, bot: bool) -> None:
        """Hand a seat to a bot, or back to a human (e.g. a waiting player takes a bot's seat)."""
        if bot:
            self.bots.add(seat)
        else:
            self.bots.discard(seat)
            self.autopilot.discard(seat)
            self.timeouts[seat] = 0
        self.version += 1

    # ------------------------------------------------------------------ automation
    def _automate(self, bot: Chooser, events: list[Event]) -> None:
        """Let ``bot`` (``autoplay``) act for bot and autopilot seats until a human must."""
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
                    if self.rules.fast and not self.legal_plays(seat) \
                            and not self.can_pass(seat):
                        # Fast mode has no turn to wait for: a seat that passed, or whose
                        # play is on top with nothing to beat it, waits for the next trick.
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
        if self.autoplay is not None:
            self._automate(self.autoplay, events)
        if self._restart:
            self.timer_serial += 1
            self._restart = False
        return events
