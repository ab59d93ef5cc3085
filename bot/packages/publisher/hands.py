"""Every player's ephemeral hand, redrawn through their latest interaction's token.

The table's hands flush (`Hands.flush`) draws every hand that changed and hands it to its
player's own lane of the refresh coalescer (`lane`), which sends one edit of theirs at a
time. The acting player's own hand is answered by their interaction and recorded here
(`Hands.shown`), so the flush does not edit it a second time.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import discord

from bot.graphemes import cut
from bot.i18n import t
from bot.packages.controls import MOVED_HAND, button, heard, view
from bot.packages.game.hand import hand_screen
from bot.packages.publisher.acks import Acks
from bot.packages.screen import Screen
from bot.tables.clock import done_by
from bot.tables.table import Table
from bot.tables.tokens import Farewell, HandLink

if TYPE_CHECKING:
    from bot.packages.host import Host

log = logging.getLogger(__name__)

# How long before a hand's token runs out its last edit says it stops following the game.
LAPSE_AHEAD = 20.0
# The message an interaction token answered with: for a hand, the hand itself.
ORIGINAL: Any = "@original"


LANE = "hand"
# How long, on the bot's clock, a start holds its restored tables' hands for the card faces
# (`Hands.restored`): one listing of the application's emojis, slow at worst (a start that
# has faces to upload lets them go as it finds out); past this, hands are text.
FACES_WAIT = 10.0


def farewell_screen(table: Table, farewell: Farewell) -> Screen:
    """A hand's last words. One that moved to another message (« Ma main » pressed on a
    second device) offers to come back here: a player back at the computer read « Ta main
    suit maintenant un autre message » about a phone left in a pocket, with no control,
    and had to find the table message, scrolled away, to play from where they sat
    (play-test 32). Its click is a new interaction, so it works whatever this token's age."""
    locale = farewell.link.locale or table.locale
    text = t(locale, farewell.key)
    if farewell.key != "hand.moved":
        return Screen(text)
    return Screen(text, view(button(table.id, MOVED_HAND, t(locale, "btn.hand_here"),
                                    style=discord.ButtonStyle.primary)))


def _closed_screen(table: Table, link: HandLink) -> Screen:
    """What a hand or a farewell still open says once its table closed, in its language."""
    return Screen(t(link.locale or table.locale, "hand.closed"))


def lane(table_id: int, user_id: int) -> tuple[str, int, int]:
    """The refresh coalescer's key for one player's hand at a table (`Hands._hand`)."""
    return (LANE, table_id, user_id)


def _lapsing(table: Table, locale: str) -> str:
    """What a hand says as its token runs out. In the lobby it has no « Actualiser » and
    no game to follow: « ⏸️ Cette main ne suit plus la partie : **Actualiser**, ci-dessous »
    named a button it did not have (play-test 44); there it says where the cards will be."""
    hand = t(table.locale, "btn.my_hand")
    if table.game is None:
        return t(locale, "hand.lapsing_lobby", hand=hand)
    return t(locale, "hand.lapsing", refresh=t(locale, "btn.refresh"), hand=hand)


class Hands:
    """The hands' edits. What each hand shows is kept on its link (`HandLink.fingerprint`;
    the link is in the table's snapshot, not what it shows, so a restart draws each hand
    once) and its pending edit in its lane: nothing is kept here that a restart would
    need."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        # Per table, the farewells shown with « Afficher ma main ici » whose token may
        # still be valid: edited when the table closes (`closed`), their button then of no
        # use. In memory only: a restart forgets them, and their click is told the table
        # is gone, as for those whose token ran out.
        self._moved: dict[int, list[Farewell]] = {}
        # What Discord acknowledged each hand shows, by its link's token: a stop keeps it
        # (`Publisher.landed`). Each edit through a link, or answer creating one, is one.
        self.acks = Acks()
        # The restored tables whose hands wait for the card faces (`restored`, `release`).
        self._held: set[int] = set()
        # Per table and player, the notice their hand's next redraw carries (`unanswered`),
        # and per drawing carrying one, the drawing without it: what the hand is kept as
        # showing, so that the notice stays until the hand changes, as an answer's does.
        self._told: dict[tuple[int, int], tuple[HandLink, str]] = {}
        self._plain: dict[tuple[int, str], str] = {}
        # Per table, whose turn it was at its last refresh and the game's version (`turn`).
        self._turns: dict[int, tuple[int, int]] = {}

    async def flush(self, table: Table) -> None:
        """Every hand that changed goes to its player's own lane (`_hand`), coalesced as
        the table's messages are. Hand edits go through interaction tokens, outside the
        global limit and the budget, each token its own bucket ("webhook_id +
        webhook_token", Rate Limits, https://discord.com/developers/docs/topics/rate-limits):
        a 429 on one says nothing of the others. Yet discord.py sleeps a webhook's 429 out
        inside the awaited edit, and while the table's hands were edited together, one
        limited hand held every other hand of the table until it was over. Now a lane still
        sending gets what is drawn here once it is done, and the others go on."""
        if table.id in self._held:
            return  # drawn once the card faces are known (`release`)
        now = self.bot.service.clock.now()
        table.farewells = [f for f in table.farewells if f.link.valid(now)]
        # A farewell to a hand whose message is not sent yet (« Ma main » pressed while its
        # save goes on) waits: edited before, Discord answers 10008 Unknown Message and the
        # hand keeps its controls. Its answer asks for a refresh (`show_hand`).
        drawn: dict[int, tuple[HandLink, Screen] | None] = {
            f.user_id: None for f in table.farewells if f.link.answered}
        # The queue too: proletario's last place goes there between rounds, and their hand
        # must stop showing the cards of the round before.
        for player in [*table.humans(), *table.queue]:
            if player.user_id is not None:
                hand = self._drawn(table, player.user_id, player.locale, now)
                if hand is not None:
                    drawn[player.user_id] = hand
        for user_id, hand in drawn.items():
            self._to_lane(table, user_id, hand)

    def turn(self, table: Table) -> None:
        """The hand of the person whose turn it now is goes at once, once a turn, not on the
        hands' beat (`flush`, at most once a second): they wait for it to play. At eight
        people clicking 0.3 s after their hand offered a move, the next player's controls
        came 0.66 s after the move on average, up to 1.09 s; at once, 0.08 s, a call's
        latency (`tests/bot/test_e2e_eight_under_limits.py`). One edit more a turn at most:
        the beat's next flush finds the hand drawn, unless it changed again."""
        mark = table.turn_mark()
        before = self._turns.pop(table.id, None)
        if mark is None:
            return
        self._turns[table.id] = mark
        # The turn stayed with whoever had it at the last refresh: by their own move, whose
        # answer draws their hand (hurried here, the edit went through their older token
        # while that answer was on its way, crossing it, and the table was redrawn once
        # more, its message up to a second late at each move), or by no move at all.
        if before is not None and before[0] == mark[0] or table.id in self._held:
            return
        user_id = mark[0]
        key = lane(table.id, user_id)
        if self.bot.service.coalescer.hurried(key) == mark:
            return

        async def flush() -> None:
            player = table.player(user_id)
            if table.closed or player is None:
                return
            now = self.bot.service.clock.now()
            await self._hand(table, user_id, self._drawn(table, user_id, player.locale, now))

        self.bot.service.coalescer.request(key, flush, urgent=mark)

    def _drawn(self, table: Table, user_id: int, locale: str,
               now: float) -> tuple[HandLink, Screen] | None:
        """The hand of `user_id` as it is to be shown now through its link, or None when
        there is nothing to send: no hand open and answered, or one showing this already."""
        link = table.hands.get(user_id)
        if link is None or not link.valid(now) or not link.answered or link.frozen:
            return None  # (an unanswered hand is drawn afresh when sent: show_hand)
        try:
            page = link.page(_version(table))
            screen = hand_screen(table, user_id, locale, page=page, now=now)
            owed = self._told.pop((table.id, user_id), None)
            if owed is not None and owed[0] is link:  # not for a hand opened since
                plain = screen.fingerprint
                screen = hand_screen(table, user_id, locale, notice=owed[1], page=page,
                                     now=now)
                self._plain[(table.id, screen.fingerprint)] = plain
        except Exception:  # one unrenderable hand must not starve the others
            log.exception("could not render the hand of %s", user_id)
            return None
        # A lane still sending may land something else than what its link last showed.
        if screen.fingerprint != link.fingerprint \
                or not self.bot.service.coalescer.idle(lane(table.id, user_id)):
            return link, screen
        return None

    def _to_lane(self, table: Table, user_id: int, hand: tuple[HandLink, Screen] | None) -> None:
        """The player's lane runs with `hand`, which replaces a drawing still waiting there:
        only the latest state of a hand matters."""
        async def flush() -> None:
            await self._hand(table, user_id, hand)

        self.bot.service.coalescer.request(lane(table.id, user_id), flush)

    async def _hand(self, table: Table, user_id: int,
                    hand: tuple[HandLink, Screen] | None) -> None:
        """One player's lane: their farewells, and their hand as `flush` last drew it
        through the link it was drawn for. One run at a time per player, so no edit of
        theirs overtakes an older one; a run that waits out a 429 holds only them."""
        if table.closed:
            return
        now = self.bot.service.clock.now()
        taken = [f for f in table.farewells
                 if f.user_id == user_id and f.link.answered and f.link.valid(now)]
        table.farewells = [f for f in table.farewells if not any(f is g for g in taken)]
        # A farewell to the message their hand is in again (they clicked that older hand
        # since) would say it moved on the one message that shows it: dropped.
        current = table.hands.get(user_id)
        farewells = [f for f in taken if not _same_message(current, f.link)]
        edits: list[Awaitable[object]] = [self._farewell(table, f) for f in farewells]
        if hand is not None:
            link, screen = hand
            # A newer link was answered with a newer state: the next refresh draws it.
            if table.hands.get(user_id) is link and link.valid(now) and not link.frozen \
                    and screen.fingerprint != link.fingerprint:
                edits.append(self._redraw_hand(table, user_id, link, screen))
        await asyncio.gather(*edits)

    async def _farewell(self, table: Table, farewell: Farewell) -> None:
        """Edit a farewell; one shown with its button is kept for the table's closing, or
        told of it at once if the table closed while it was on its way."""
        shown = await self._edit(table, farewell.user_id, farewell.link,
                                 farewell_screen(table, farewell))
        current = table.hands.get(farewell.user_id)
        if current is not None and _same_message(current, farewell.link):
            # Its player clicked that hand while the farewell was on its way (a 429 held
            # it): it may have landed over the hand, which is then not known to show
            # anything (`acks`, what a stop keeps) and is drawn again; nor is it a farewell
            # to keep for the closing.
            self.acks.unknown(current.token)
            current.fingerprint = ""
            self.bot.service.refresh(table)
        elif shown and farewell.key == "hand.moved" and table.closed:
            # The table closed while it was on its way (a 429 held it): the closing edited
            # the farewells owed and kept, not this one, whose button could now only be told
            # the table is gone. Its player's lane, which the closing waits for, says so.
            await self._edit(table, farewell.user_id, farewell.link,
                             _closed_screen(table, farewell.link))
        elif shown and farewell.key == "hand.moved":
            now = self.bot.service.clock.now()
            self._moved[table.id] = [
                f for f in self._moved.get(table.id, []) if f.link.valid(now)] + [farewell]

    async def _redraw_hand(self, table: Table, user_id: int, link: HandLink,
                           screen: Screen) -> None:
        """Edit one hand; a hand Discord no longer lets the bot edit is forgotten (unless
        the player opened a newer one meanwhile). A newer one opened on the same message
        meanwhile (a click on this hand; a message not yet known may be the same) was
        answered with its state, which this older edit may have landed over: it is
        drawn again."""
        edited = await self._edit(table, user_id, link, screen)
        current = table.hands.get(user_id)
        if current is link:
            if not edited:
                del table.hands[user_id]
            return
        landed = link.fingerprint == screen.fingerprint
        if self._crossed(current, link) and landed:
            assert current is not None  # (`_crossed` says so)
            current.fingerprint = ""
            self.bot.service.refresh(table)

    def _crossed(self, current: HandLink | None, link: HandLink) -> bool:
        """After an edit through an older `link`: whether the player's `current` one may
        show the same message, which that edit may then have changed, landed or not (a 5xx,
        no answer): not known to show anything until its own next edit (`acks`)."""
        if current is None or current is link or (
                None not in (current.message_id, link.message_id)
                and current.message_id != link.message_id):
            return False
        self.acks.unknown(current.token)
        return True

    async def _edit(self, table: Table, user_id: int, link: HandLink, screen: Screen) -> bool:
        """Redraw a hand through its player's latest interaction; False if Discord refused,
        or if the link expired before the edit could be sent.

        The link was valid when the edit was decided, but discord.py may hold the edit on
        the token's rate limit (it sleeps out a 429's retry_after, or an exhausted bucket,
        then sends): sent after the token's 15 minutes, the edit would be refused with 401
        « Invalid Webhook Token », which counts toward Cloudflare's ban (discord-api-docs,
        topics/rate-limits.md, "Invalid Request Limit"). An edit still waiting when the link
        expires is dropped instead, and the hand handled as expired: the table asks its
        player to press « Ma main »."""
        webhook = discord.Webhook.partial(link.application_id, link.token, client=self.bot)
        with self.acks.edit(link.token, table.id) as sent:
            edit = asyncio.ensure_future(webhook.edit_message(
                ORIGINAL, content=cut(screen.content, 2000), view=screen.view))
            if not await done_by(self.bot.service.clock, link.expires, edit):
                await asyncio.wait({edit})  # until it has stopped: no request left on its way
                log.info("hand of %s: its token expired while the edit waited", user_id)
                return False
            try:
                edit.result()
            except discord.RateLimited as err:  # a long 429: the next refresh tries again
                log.warning("hand of %s rate limited for %.1f s", user_id, err.retry_after)
                return True
            except discord.HTTPException as err:
                log.info("hand of %s no longer editable (%s)", user_id, err.status)
                return False
            sent.shown = screen.fingerprint
            link.fingerprint = self._plain.pop((table.id, screen.fingerprint),
                                               screen.fingerprint)
        return True

    def shown(self, table: Table, interaction: discord.Interaction[Host],
              screen: Screen, *, new_message: bool, page: int = 0) -> HandLink:
        """This interaction's original response is now the user's hand: refresh through it.
        `screen`: the hand as a refresh would draw it, without the answer's notice (kept
        until the hand changes), at `page` of its plays. `new_message`: a message of its
        own, not the hand the interaction was clicked on, which no refresh may edit before
        it is sent (`HandLink.answered`)."""
        clicked = interaction.message.id if interaction.message is not None else None
        link = HandLink(int(interaction.application_id), interaction.token,
                        heard(interaction), screen.fingerprint,
                        str(interaction.locale), answered=not new_message,
                        message_id=None if new_message else clicked,
                        turned=(_version(table), page) if page else None)
        self.bot.service.hands.remember(table, interaction.user.id, link,
                                        new_message=new_message)
        self._lapse_at_expiry(table, interaction.user.id, link)
        return link

    def unanswered(self, table: Table, user_id: int, link: HandLink,
                   previous: HandLink | None) -> None:
        """`shown`'s interaction could not be answered (`controls.too_late`): the hand
        follows `previous` again (`HandLinks.unanswered`), with its last edit as its token
        runs out. Its player read « This interaction failed », and may take their card for
        not played, though it is: the hand, redrawn, says the click went through, in the
        click's language (play-test 37)."""
        if previous is not None and table.hands.get(user_id) is link:
            self._told[(table.id, user_id)] = (previous, t(link.locale, "hand.went_through"))
        self.bot.service.hands.unanswered(table, user_id, link, previous)
        if previous is not None and table.hands.get(user_id) is previous:
            self._lapse_at_expiry(table, user_id, previous)

    def restored(self, table: Table) -> None:
        """A table restored from storage: its hands' links are as they were saved, and
        each gets its last edit as its token runs out (`_lapse_at_expiry`).

        Its hands wait for the card faces (`release`, once the start's sync of them is
        over or finds faces to upload, `FACES_WAIT` at most): a new process knows none until
        it has listed them, and
        the restore's first redraw drew every open hand with text cards, the next one
        (`PresidentBot.sync_faces`) with its faces again: at every redeploy each player saw
        their cards' pictures go and come back, at two edits a hand (play-test 36). The
        table messages wait already, for their server's GUILD_CREATE."""
        for user_id, link in table.hands.items():
            self._lapse_at_expiry(table, user_id, link)
        self._held.add(table.id)
        self.bot.service.scheduler.after((LANE, "held"), FACES_WAIT, self._release_late)

    def release(self) -> None:
        """The card faces are known (or will not be): the held hands are drawn."""
        held, self._held = self._held, set()
        self.bot.service.scheduler.cancel((LANE, "held"))
        for table_id in held:
            table = self.bot.service.registry.by_id(table_id)
            if table is not None and not table.closed:
                self.bot.service.refresh(table)

    async def _release_late(self) -> None:
        self.release()

    def _lapse_at_expiry(self, table: Table, user_id: int, link: HandLink) -> None:
        """A hand nobody touched for the life of its token stops being refreshed, and
        said nothing of it: a player back after 20 minutes read « c'est à alice de jouer »
        while it was their turn (play-test 14). Its last edit, as the token runs out,
        says so and how to get it back (its « Actualiser » answers with a fresh token).
        One call per idle hand every 14 minutes; any later interaction replaces the link,
        and this with it."""
        async def lapse() -> None:
            now = self.bot.service.clock.now()
            player = table.player(user_id)
            if table.closed or player is None or table.hands.get(user_id) is not link \
                    or not link.valid(now) or not link.answered:
                return
            locale = link.locale or player.locale
            notice = _lapsing(table, locale)
            link.frozen = True
            self.bot.service.refresh(table)  # the table message asks for « Ma main »
            await self._edit(table, user_id, link, hand_screen(
                table, user_id, locale, notice=notice, page=link.page(_version(table)),
                now=now))
            self._crossed(table.hands.get(user_id), link)  # « Ma main » pressed meanwhile

        self.bot.service.scheduler.at((table.id, "lapse", user_id),
                                      link.expires - LAPSE_AHEAD, lapse)

    async def closed(self, table: Table) -> None:
        """The table is gone: so say the hands still open on it, and their farewells owed.

        Each after its player's redraw on its way (`_hand`), if any: sent through an older
        token than the closing's (the player clicked their hand meanwhile) and held by a
        429, it landed after « Cette table est fermée », and the hand showed the game and
        its controls at a closed table for good (stop 47). The same token's edits follow
        one another already: discord.py sends one request of a token at a time."""
        links = [*table.hands.items(), *((f.user_id, f.link) for f in table.farewells)]
        # And the farewells already shown with « Afficher ma main ici » (play-test 32):
        # closed, their click could only be told the table is gone. An ephemeral message is
        # edited only through its interaction's token, "valid for 15 minutes" (Followup
        # Messages, https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages),
        # so those older keep their button, and that answer (`err.table_gone`). One whose
        # message shows the hand again (its button pressed) is edited once, as the hand.
        held = {link.message_id for _, link in links}
        links += [(f.user_id, f.link) for f in self._moved.pop(table.id, [])
                  if f.link.message_id is None or f.link.message_id not in held]
        table.farewells.clear()
        # A table closed for idleness has only hands older than their 15-minute tokens:
        # editing them would be refused with 401s, which count toward Cloudflare's ban
        # (discord-api-docs, topics/rate-limits.md, "Invalid Request Limit"); a click on
        # such a hand is told the table is gone.
        now = self.bot.service.clock.now()

        async def close(user_id: int, link: HandLink) -> None:
            await self.bot.service.coalescer.ran(lane(table.id, user_id))
            await self._edit(table, user_id, link, _closed_screen(table, link))

        # Side by side, as refreshes are (`flush`): one token held on a 429 holds no other.
        await asyncio.gather(*(close(user_id, link) for user_id, link in links
                               if link.valid(now)))

    def forget(self, table_id: int) -> None:
        """A closed table's lanes go with it (`Publisher.closed`), and its farewells."""
        self._moved.pop(table_id, None)
        self._turns.pop(table_id, None)
        self._told = {key: told for key, told in self._told.items() if key[0] != table_id}
        self._plain = {key: plain for key, plain in self._plain.items() if key[0] != table_id}
        self.acks.forget(table_id)
        self.bot.service.coalescer.forget_where(
            lambda key: isinstance(key, tuple) and key[:2] == (LANE, table_id))


def _same_message(current: HandLink | None, link: HandLink) -> bool:
    """Whether `current`, the player's hand now, is another link known to show the message
    `link` edits (a click on that older hand made it the hand again)."""
    return current is not None and current is not link and link.message_id is not None \
        and current.message_id == link.message_id


def _version(table: Table) -> int | None:
    """The version of the table's game a hand is drawn at, None between games."""
    return table.game.version if table.game is not None else None
