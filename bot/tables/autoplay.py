"""Which automated seat moves next, how long it waits, and who plays it.

Bots fill seats (the lobby's, proletario's, a leaver's) and the autopilot plays for an absent
player; both act through the same engine actions as people. What they decide is the
engine's (engine/bots); this module only says when and at what level.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.tables.house import DEFAULT_LEVEL
from bot.tables.table import Table
from engine import Game, Phase
from engine.bots import Bot, make_bot

# Fast mode: a bot waits between these many turn-based pauses before each move.
FAST_BOT_PAUSES = (5 / 3, 10 / 3)


def next_seat(game: Game, table_id: int) -> int | None:
    """The automated seat that should act next, if any.

    Fast mode has no turns: every bot with a move races for it, as people do. Which one moves
    is drawn, seeded by the table and the game's state (reproducible, and the same after a
    restore): taking the first in seat order gave it every move, and seat order decided the
    round (play-test 13: the first bot was President in 97 rounds of 100)."""
    if game.phase is Phase.EXCHANGE:
        for seat in range(game.seats):
            due = game.exchange_due(seat)
            if due is not None and due.ready and game.automated(seat):
                return seat
        return None
    if game.phase is not Phase.PLAY:
        return None
    if not game.rules.fast:
        turn = game.to_act
        return turn if turn is not None and game.automated(turn) else None
    ready = [seat for seat in game.players
             if game.automated(seat) and (game.legal_plays(seat) or game.can_pass(seat))]
    if not ready:
        return None
    return random.Random(f"{table_id}:{game.round_no}:{game.version}:fast").choice(ready)


def delay(table: Table, game: Game, pause: float) -> float:
    """How long the next bot move waits, on the service's clock.

    Turn-based, a bot waits `pause` (BOT_PAUSE_SECONDS). Fast mode has no turns: a bot
    answering at that pace would take every trick before a person has read it, so it waits
    a human time, a random draw between `FAST_BOT_PAUSES` times `pause` (2.5–5 s with the
    default 1.5 s). The draw comes from a generator seeded by the table and the game's
    version: tests are reproducible, and a restored table draws the same delays."""
    if not game.rules.fast:
        return pause
    low, high = FAST_BOT_PAUSES
    draw = random.Random(f"{table.id}:{game.round_no}:{game.version}").uniform(low, high)
    return draw * pause


def player_of(table: Table, game: Game, seat: int, *, samples: int | None,
              budget: float, clock: Callable[[], float]) -> Bot:
    """Who plays this automated seat: a seated bot at its level; the autopilot of an absent
    player at normal level. Seeded by the table and the game's state, so a decision is
    reproducible and a restored table decides the same way."""
    player = table.seats[seat]
    level = player.level if player.is_bot else DEFAULT_LEVEL
    seed = random.Random(f"{table.id}:{game.round_no}:{game.version}:{seat}").getrandbits(32)
    # The other bots and their levels are public (the lobby shows them); people, even on
    # autopilot, are not a level. A bot that replaced a leaver this round plays from now
    # on, but the seat's earlier moves this round were the leaver's.
    others = {s: p.level for s, p in enumerate(table.seats) if s != seat and p.is_bot}
    return make_bot(level, seed, samples=samples, budget=budget, clock=clock, others=others,
                    taken_over=frozenset(table.left_seats))
