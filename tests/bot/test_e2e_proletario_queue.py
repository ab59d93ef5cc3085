"""End-to-end: proletario with more people than seats. The Proletario who gives up their
seat to the queue (RULES §10) takes their points with them, and those still count when the
game ends (RULES §8, « the current totals are final »): a player waiting with the best
total wins, on the table, in their hand, in the history and in the stats."""

from __future__ import annotations

from pathlib import Path

from bot.client import PresidentBot
from bot.i18n import plural, t
from bot.packages.game.table_message import results_lines
from bot.tables.table import Table
from engine import Phase
from fakediscord import FakeDiscord, TestUser

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    controls_of,
    database_url,
    humans_only,
    message,
    play_until,
    tick,
)


class Passer(Player):
    """A player who passes whenever they may while `passing`: they finish last, or near."""

    passing = False

    async def act(self) -> bool:
        if self.passing and self.hand_id is not None:
            shown = self.hand
            for button in controls_of(shown)[1]:
                if button.custom_id and ":pass:" in button.custom_id:
                    await self.user.click(shown, button.custom_id)
                    return True
        return await super().act()


async def dan_steps_off_leading(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                                ) -> tuple[Table, list[TestUser], TestUser]:
    """Four at proletario, dan English and the others French, and zoé waiting in the
    queue; dan wins the first four rounds, the others passing what they can, then passes
    in the fifth and finishes it Proletario with the best total. The host deals the sixth: dan gives up his
    seat for the queue, his 12 points with him. The table, its seated French players (the
    host first) and dan."""
    users = [fake.add_user(name, locale="fr") for name in ("amelie", "bruno", "chloé")]
    dan = fake.add_user("dan", locale="en-US")
    zoe = fake.add_user("zoé", locale="fr")
    table, seated = await humans_only(fake, clock, bot, [*users, dan], "proletario")
    assert table.rules.game_end.kind == "unlimited"
    await zoe.click(message(zoe, table.table_message_id), cid(table, "join"))
    game = table.game
    assert game is not None and table.queued(zoe.id)
    passers = [Passer(user) for user in (*users, dan, zoe)]
    for passer, opened in zip(passers, seated, strict=False):
        passer.hand_id = opened.hand_id
    players: list[Player] = list(passers)
    host = users[0]
    for round_no in range(1, 6):
        for passer in passers:
            passer.passing = (passer.user is dan) == (round_no == 5)
        await play_until(fake, clock, players, lambda: game.phase is Phase.ROUND_OVER)
        await tick(fake, clock, 1)
        await host.click(message(host, table.table_message_id), cid(table, "next", game.version))
        await tick(fake, clock, 1)
        for player in players:
            if table.seat_of(player.user.id) is not None:
                await player.open_hand(bot)
    assert table.queue[-1].user_id == dan.id and table.seat_of(dan.id) is None
    key = table.queue[-1].key
    assert game.off_table == {key: 12}
    assert all(points < 12 for points in game.points), game.points
    return table, users, dan


async def test_the_proletario_waiting_with_the_best_total_wins_the_stopped_game(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path) -> None:
    """dan waits in the queue with 12 points, the seated leader has fewer: the host stops
    the game with no set end, and dan wins it. The engine chose the winners among the
    seats alone: dan was left out of the final standings, and of the win."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    table, french, dan = await dan_steps_off_leading(fake, clock, bot)
    host = french[0]
    game = table.game
    assert game is not None
    # Waiting, dan is told his points wait with him: nothing else showed them.
    await dan.slash("president hand")
    assert t("en", "hand.queue_points", total=plural("en", "n.points", 12)) \
        in dan.last_ephemeral().text
    await host.slash("president end")
    assert host.last_ephemeral().text == t("fr", "end.confirm.leaders", names="dan")
    await host.click(host.last_ephemeral(), "Arrêter la partie")
    await tick(fake, clock, 1)
    assert game.phase is Phase.GAME_OVER and not game.stopped_early
    assert game.winners == (str(dan.id),)

    board = message(host, table.table_message_id).content
    won = plural("fr", "table.game_over", 1, names="dan")
    standing = t("fr", "table.standing_waiting", place=1, name="dan",
                 total=plural("fr", "n.points", 12))
    assert won in board and standing in board, board
    await dan.slash("president hand")
    assert t("en", "hand.game_won", total=plural("en", "n.points", 12)) \
        in dan.last_ephemeral().text

    # dan leaves the queue once the game is over: its results stand, naming him still,
    # and so do they after a restart.
    await dan.slash("president leave")
    await tick(fake, clock, 1)
    assert not table.queued(dan.id)
    shown = message(host, table.table_message_id).content
    assert won in shown and standing in shown, shown
    again = Table.from_dict(table.to_dict())
    assert again.game is not None
    assert results_lines("fr", again, again.game) == results_lines("fr", table, game)

    await bot.service.drain()
    assert bot.storage is not None
    stats = await bot.storage.player_stats(fake.guild.id, dan.id)
    assert (stats.games, stats.wins) == (1, 1)
    await dan.slash("president stats")
    assert plural("en", "n.wins", 1) in dan.last_ephemeral().text
    await host.slash("president history")
    assert plural("fr", "history.winners", 1, names="dan") in host.last_ephemeral().text
    await fake.disconnect(bot)
    fake.assert_no_errors()
