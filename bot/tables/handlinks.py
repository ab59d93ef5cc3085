"""Where each player's hand is shown: the link to the interaction that last showed it
(`Table.hands`), through which it is refreshed until that interaction's token runs out."""

from __future__ import annotations

from collections.abc import Callable

from bot.tables.clock import Clock
from bot.tables.deadlines import Deadlines
from bot.tables.outbox import Outbox
from bot.tables.seating import Seating
from bot.tables.table import Table
from bot.tables.tokens import Farewell, HandLink


class HandLinks:
    """`refresh` redraws the table, `changed` stores and redraws it, `touch` stores it: the
    service's."""

    def __init__(self, clock: Clock, deadlines: Deadlines, seating: Seating, outbox: Outbox, *,
                 refresh: Callable[[Table], None],
                 changed: Callable[[Table], None],
                 touch: Callable[[Table], None]) -> None:
        self.clock = clock
        self.deadlines = deadlines
        self.seating = seating
        self.outbox = outbox
        self._refresh = refresh
        self._changed = changed
        self._touch = touch

    def unanswered(self, table: Table, user_id: int, link: HandLink,
                   previous: HandLink | None) -> None:
        """The interaction of `link` could not be answered (Discord refused the answer,
        past its 3 seconds): its token is dead and its message never showed the hand. The
        hand follows `previous` again, the one its player still sees (its « moved » farewell
        taken back), or none, and is redrawn: what the click changed (a card played) showed
        on the table while the hand kept the card and « À toi » (play-test 37)."""
        if table.hands.get(user_id) is not link:
            return  # a newer interaction showed the hand since
        table.farewells = [f for f in table.farewells if f.link is not previous]
        if previous is not None:
            table.hands[user_id] = previous
        else:
            del table.hands[user_id]
        self._touch(table)
        self._refresh(table)

    def remember(self, table: Table, user_id: int, link: HandLink, *,
                 new_message: bool = False) -> None:
        """The user's latest interaction now shows their hand: refresh through it from now on.
        `new_message`: it shows the hand in a message of its own (My hand pressed again),
        not in the one the previous link edits."""
        previous = table.hands.get(user_id)
        table.hands[user_id] = link
        self.deadlines.human_seen(table)
        fresh = previous is None or not previous.valid(self.clock.now())
        elsewhere = new_message or (
            previous is not None and None not in (previous.message_id, link.message_id)
            and previous.message_id != link.message_id)
        if elsewhere and not fresh and previous is not None:
            # The hand they opened before stays on their screen: it says where the hand
            # went rather than keep a state no refresh will reach any more. So too when
            # they click an older hand, whose message the hand follows from then on (a
            # player back from a train tunnel pressed « Actualiser » on one: the newer
            # froze with its controls, play-test 14).
            table.farewells.append(Farewell(user_id, previous, "hand.moved"))
            self._refresh(table)
        if fresh or (previous is not None and (previous.lapsed or previous.frozen)):
            self._refresh(table)  # the table message stops asking this player for My hand
        # The player's language follows their Discord client's, seated or queued: it is
        # what their hand is redrawn in, and a queued player takes it to their seat.
        player = table.player(user_id)
        relocated = player is not None and player.locale != link.locale
        if player is not None:
            player.locale = link.locale
        if user_id in table.away:
            self.seating.come_back(table, user_id)
            self._changed(table)
        elif (fresh or relocated or elsewhere) \
                and not (self.outbox.store is not None and self.outbox.store.stopped):
            # Saved at once when a restart would otherwise lose the hand, its language, or
            # the message the player now looks at (a restart would refresh the hand they
            # opened before, further up, and leave this one frozen; a click answered while
            # the process stops has nothing to save it to). A newer link to the same message
            # (a click on the hand) waits for the next move's save: the restart's refresh
            # reaches that message through the previous link, and clicks stay cheap.
            self._touch(table)
