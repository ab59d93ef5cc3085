"""End-to-end: a moderator deletes a table's public message. It used to come back only at the
table's next change (a bot's move, a turn timer), leaving players without its buttons
meanwhile; MESSAGE_DELETE now has it posted afresh at once. Each test waits for a quiet
table (the refresh's one-second interval over, the human to act) and moves no clock after
the deletion, so nothing else could have posted it."""

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.game import chart
from bot.tables.table import Table
from engine import Phase
from fakediscord import FakeDiscord, TestUser

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    create_table,
    host_against_bots,
    message,
    play_until,
    record_charts,
    table_of,
    tick,
)


async def quiet_game(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                     host: TestUser) -> Table:
    """``host`` plays classic against two bots; the bots have played up to the host's
    turn, and the table message shows it."""
    table = await host_against_bots(bot, host, "classic", 2)
    await tick(fake, clock, 1)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [Player(host)], lambda: game.to_act == 0)
    await tick(fake, clock, 1)
    await tick(fake, clock, 1)
    return table


def channel_posts(fake: FakeDiscord, mark: int) -> list[str]:
    return [c.method for c in fake.calls_since(mark)
            if c.route.startswith("/channels/") and c.method == "POST"]


async def test_a_deleted_table_message_is_posted_again_at_once(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie = fake.add_user("marie", locale="fr")
    table = await quiet_game(fake, clock, president, marie)
    old = table.table_message_id
    assert old is not None
    mark = fake.mark()
    fake.delete_message(old)
    await fake.settle()
    assert table.table_message_id not in (None, old)
    assert channel_posts(fake, mark) == ["POST"]  # one post, through the refresh
    board = message(marie, table.table_message_id)
    await marie.click(board, cid(table, "hand"))  # its buttons work
    assert t("fr", "hand.title", count=0, cards="").split("(")[0] in \
        marie.last_ephemeral().content
    fake.assert_no_errors()


async def test_a_deleted_lobby_is_posted_again_and_seats_from_its_buttons(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie = fake.add_user("marie", locale="fr")
    bob = fake.add_user("bob")
    table = await create_table(president, marie)
    await tick(fake, clock, 1)
    await tick(fake, clock, 1)
    old = table.lobby_message_id
    assert old is not None
    fake.delete_message(old)
    await fake.settle()
    assert table.lobby_message_id not in (None, old)
    await bob.click(message(bob, table.lobby_message_id), cid(table, "join"))
    assert table.seat_of(bob.id) is not None
    fake.assert_no_errors()


async def test_a_bulk_delete_reposts_the_table_message_once_and_ignores_the_rest(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """A moderation bot purging the channel: one MESSAGE_DELETE_BULK. The old lobby (retired
    when the game started) stays deleted, as the game shows no lobby."""
    marie = fake.add_user("marie", locale="fr")
    table = await quiet_game(fake, clock, president, marie)
    lobby, board = table.lobby_message_id, table.table_message_id
    assert lobby is not None and board is not None
    mark = fake.mark()
    fake.delete_messages(marie.channel, [lobby, board])
    await fake.settle()
    assert table.table_message_id not in (None, board)
    assert channel_posts(fake, mark) == ["POST"]
    assert not [m for m in marie.visible() if m.id == lobby]
    fake.assert_no_errors()


async def test_deleting_a_message_that_is_not_the_table_s_changes_nothing(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """The results message of a game the table moved on from is history, not a control."""
    marie = fake.add_user("marie", locale="fr")
    table = await host_against_bots(president, marie, "classic", 2)
    await tick(fake, clock, 1)
    board = table.table_message_id
    await marie.slash("president end")
    await marie.click(marie.last_ephemeral(), t("fr", "btn.stop_game"))
    await marie.slash("president end")  # the finished game back to the lobby
    await tick(fake, clock, 1)
    assert table.game is None and table_of(president, marie) is table
    mark = fake.mark()
    assert board is not None and table.table_message_id is None
    fake.delete_message(board)
    await fake.settle()
    assert channel_posts(fake, mark) == []
    fake.assert_no_errors()


async def test_a_deleted_results_message_comes_back_with_its_chart(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = record_charts(monkeypatch)
    marie = Player(fake.add_user("marie", locale="fr"))
    table = await host_against_bots(instant, marie.user, "classic", 2, game_end="rounds:1")
    await tick(fake, clock, 1)
    await marie.open_hand(instant)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [marie], lambda: game.phase is Phase.GAME_OVER)
    await tick(fake, clock, 1)
    await tick(fake, clock, 1)
    old = table.table_message_id
    assert old is not None and len(drawn) == 1
    fake.delete_message(old)
    await fake.settle()
    assert table.table_message_id not in (None, old)
    assert message(marie.user, table.table_message_id).attachments == (chart.FILENAME,)
    fake.assert_no_errors()
