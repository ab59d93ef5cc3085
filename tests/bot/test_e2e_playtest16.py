"""End-to-end: play-test 16, whole games of every preset in French and in English, by a
demanding host and players: settings tuned, bots of each level, the exchange, a player
leaving mid-game, hints, the stats."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.i18n.typography import french
from bot.tables.table import Table
from engine import GameEnd, Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import Player, cid, create_table, message, play_until, tick


class Passer(Player):
    """A player who passes whenever they may: they finish last, or near."""

    async def act(self) -> bool:
        if self.hand_id is not None:
            for button in self.hand.buttons:
                if button.custom_id and ":pass:" in button.custom_id:
                    await self.user.click(self.hand, button.custom_id)
                    return True
        return await super().act()


async def bots_and_last_give_way(fake: FakeDiscord, president: PresidentBot,
                                  clock: LinkedClock, locale: str
                                  ) -> tuple[Table, list[Passer], Passer, dict[int, str]]:
    """Two people and two bots at proletario, three more waiting; round 1 played and round
    2 dealt: the queue took both bots' seats, then the round's last place gave theirs up.
    Returns the table, the two seated at first, the one sent to the queue, and who held
    each seat that changed hands."""
    users = [fake.add_user(name, locale=locale)
             for name in ("marie", "lucas", "zoé", "paul", "inès")]
    host = users[0]
    table = await create_table(president, host, "proletario")
    await president.service.set_rules(table, host.id,
                                      table.rules.replace(game_end=GameEnd("rounds", 3)))
    await users[1].click(message(users[1], table.lobby_message_id), cid(table, "join"))
    await host.click(message(host, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    game = table.game
    assert game is not None and sum(p.is_bot for p in table.seats) == 2
    for user in users[2:]:
        await user.click(message(user, table.table_message_id), cid(table, "join"))
    assert [p.user_id for p in table.queue] == [u.id for u in users[2:]]
    await users[2].slash("president hand")  # waiting, nobody sent them there: the rule alone
    assert users[2].last_ephemeral().text.split("\n") == [
        t(locale, "hand.queued.first"), t(locale, "hand.queue_seats")]
    seated = [Passer(u) for u in users[:2]]
    for player in seated:
        await player.open_hand(president)
    await play_until(fake, clock, list(seated), lambda: game.phase is Phase.ROUND_OVER)
    assert game.ranking is not None
    last = next(p for p in seated if table.seat_of(p.user.id) == game.ranking[-1])
    await tick(fake, clock, 1)
    before = {seat: p.name for seat, p in enumerate(table.seats)}
    await host.click(message(host, table.table_message_id), cid(table, "next", game.version))
    await tick(fake, clock, 1)
    assert not any(p.is_bot for p in table.seats)
    assert [p.user_id for p in table.queue] == [last.user.id]
    changed = {seat: name for seat, name in before.items() if table.seats[seat].name != name}
    return table, seated, last, changed


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_the_last_place_who_gave_way_while_bots_sat_is_told_why(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: two people and two bots at proletario, three more waiting.
    Between rounds the queue took both bots' seats, then the round's last place gave
    theirs up (RULES §10, the seed: « Les bots cèdent leur place, puis le Proletario »). The
    hand of the one sent to the queue read only « ⏳ Tu es en tête de la file d’attente.
    Entre deux manches, la file prend les places des bots ; sans bot, la dernière place de
    la manche cède la sienne. »: bots had sat at the table, so the rule it quoted seemed to
    have passed them by. The hand now says they gave their seat up as the last place, and
    the rule says the bots' seats go first."""
    _, _, last, _ = await bots_and_last_give_way(fake, president, clock, locale)
    told = {"fr": [french(line) for line in ["🪑 Tu as fini à la dernière place (**Proletario**) et cédé ta place à "
                   "la file d’attente : tu te rassieds quand ton tour vient.",
                   "⏳ Tu es en tête de la file d’attente.",
                   "Entre deux manches, la file prend d’abord les places des bots ; quand il "
                   "n’en reste plus, la dernière place de la manche cède la sienne."]],
            "en-US": ["🪑 You finished last (**Proletario**) and gave your seat up to the "
                      "queue: you sit again when your turn comes.",
                      "⏳ You are first in the queue.",
                      "Between rounds, the queue takes the bots' seats first; once no bot is "
                      "left, the round's last place gives up theirs."]}[locale]
    assert last.hand.text.split("\n") == told
    await last.user.slash("president hand")
    assert last.user.last_ephemeral().text.split("\n") == told
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_the_table_says_whose_seat_each_newcomer_took_this_round(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: at round 2's deal the newcomers sat with the roles of the seats
    they took (« p3fr · 14 cartes · VP »), and the table message said nothing of the bots
    and the last place they replaced: only each newcomer's own hand did. Through the round
    each such seat says whose it was; the next round's results name who played it."""
    table, seated, _, changed = await bots_and_last_give_way(fake, president, clock, locale)
    assert len(changed) == 3  # the two bots' seats, and the last place's
    board = message(seated[0].user, table.table_message_id).content
    for seat, name in changed.items():
        line = next(line for line in board.split("\n")
                    if f"**{table.seats[seat].name}**" in line)
        # The bots' seats name them as their own lines did (a bot of the default level).
        assert (t(locale, "table.took_seat_bot", name=f"🤖 {name}",
                  level=t(locale, "level.normal"))
                if name.startswith("Bot ") else t(locale, "table.took_seat", name=name)) in line
    kept = [seat for seat in range(len(table.seats)) if seat not in changed]
    for seat in kept:  # who kept their seat took nobody's
        line = next(line for line in board.split("\n")
                    if f"**{table.seats[seat].name}**" in line)
        assert t(locale, "table.took_seat", name="").strip(" ·") not in line
    fake.assert_no_errors()
