"""End-to-end, play-test 28: a chatty channel. Friends talk while they play; within a few
messages the table message (the trick, whose turn it is, « Ma main ») scrolls out of a
phone's view. Once `BURIED_AFTER` messages by others sit below it, the table comes back to
the bottom after a quiet moment or at its next redraw, at most once every `EVERY` seconds,
and the old message becomes a pointer to it without buttons (docs/bot.md, « Play-test 28 »)."""

from pathlib import Path

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.publisher.buried import BURIED_AFTER, EVERY, QUIET
from bot.tables.table import Table
from engine import Phase
from fakediscord import FakeDiscord, Message, TestUser
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    create_table,
    database_url,
    host_against_bots,
    marie_and_bob_against_a_bot,
    message,
    play_until,
    restart,
    table_in_a_thread,
    tick,
)


async def at_her_turn(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                      host: TestUser) -> Table:
    """``host`` plays classic against two bots, at her turn, the table message drawn."""
    table = await host_against_bots(bot, host, "classic", 2)
    await tick(fake, clock, 1)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [Player(host)], lambda: game.to_act == 0)
    await tick(fake, clock, 1)
    await tick(fake, clock, 1)
    return table


async def her_turn_with_bob(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                            host: str, locale: str = "en-US"
                            ) -> tuple[TestUser, TestUser, Table]:
    """``host`` (in ``locale``) at her turn as in `at_her_turn`, bob (in ``locale`` too)
    by her side to chat: the players, then the table."""
    her = fake.add_user(host, locale=locale)
    bob = fake.add_user("bob", locale=locale)
    return her, bob, await at_her_turn(fake, clock, bot, her)


async def stored_at_her_turn(fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
                             ) -> tuple[str, PresidentBot, TestUser, TestUser, Table]:
    """A bot on a database file (for the tests that restart it): marie (fr) at her turn as
    in `at_her_turn`, bob (fr) by her side to chat. Returned with the database's url."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    return url, bot, *await her_turn_with_bob(fake, clock, bot, "marie", "fr")


async def chat(fake: FakeDiscord, friend: TestUser, lines: int) -> None:
    """``friend`` posts ``lines`` messages, received by the bot before the clock moves."""
    for n in range(lines):
        friend.say(f"mdr {n}")
    await fake.settle()


def channel_calls(fake: FakeDiscord, mark: int) -> list[str]:
    return [c.method for c in fake.calls_since(mark) if c.route.startswith("/channels/")]


def link(table: Table) -> str:
    return (f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/"
            f"{table.table_message_id}")


async def test_a_table_buried_under_chatter_comes_back_to_the_bottom_after_a_quiet_moment(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie, bob, table = await her_turn_with_bob(fake, clock, president, "marie", "fr")
    old = table.table_message_id
    assert old is not None
    mark = fake.mark()
    await chat(fake, bob, BURIED_AFTER - 1)
    await tick(fake, clock, QUIET + 1)
    assert table.table_message_id == old  # still in view
    assert channel_calls(fake, mark) == []
    await chat(fake, bob, 1)
    await tick(fake, clock, QUIET - 1)
    assert table.table_message_id == old  # the friends are still talking
    await tick(fake, clock, 1)
    new = table.table_message_id
    assert new not in (None, old)
    assert channel_calls(fake, mark) == ["POST", "PATCH"]  # posted, then the old one edited
    assert marie.last_message().id == new
    board = message(marie, new)
    assert board.button(t("fr", "btn.my_hand")).custom_id == cid(table, "hand")
    pointer = message(marie, old)
    assert pointer.content == t("fr", "table.brought_down", link=link(table))
    assert pointer.content.startswith("⬇️ La table est redescendue tout en bas\u00a0: ")
    assert not pointer.components
    await marie.click(board, cid(table, "hand"))  # its buttons work
    assert marie.last_ephemeral().ephemeral
    fake.assert_no_errors()


async def test_a_click_on_the_buried_message_as_it_was_shown_is_still_answered(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    alice, bob, table = await her_turn_with_bob(fake, clock, president, "alice")
    shown: Message = message(alice, table.table_message_id)
    await chat(fake, bob, BURIED_AFTER)
    await tick(fake, clock, QUIET + 1)
    assert table.table_message_id != shown.id
    # Her phone still showed the old message's buttons as it was brought down.
    await alice.click_shown(shown, t("en", "btn.my_hand"))
    assert t("en", "hand.title", count=0, cards="").split("(")[0] in \
        alice.last_ephemeral().content
    fake.assert_no_errors()


async def test_a_move_brings_a_buried_table_back_at_once_with_its_change(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie, bob, table = await her_turn_with_bob(fake, clock, president, "marie", "fr")
    old = table.table_message_id
    await chat(fake, bob, BURIED_AFTER)
    mark = fake.mark()
    game = table.game
    assert game is not None
    version = game.version
    await play_until(fake, clock, [Player(marie)], lambda: game.version > version)
    assert table.table_message_id != old
    assert channel_calls(fake, mark)[:2] == ["POST", "PATCH"]  # with the move, at once
    assert message(marie, old).content == t("fr", "table.brought_down", link=link(table))
    fake.assert_no_errors()


async def test_members_edits_do_not_bury_the_table(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    alice, bob, table = await her_turn_with_bob(fake, clock, president, "alice")
    old = table.table_message_id
    said = bob.say("gg")
    for n in range(BURIED_AFTER):
        bob.edit_said(said, f"gg {n}")
    await fake.settle()
    await tick(fake, clock, QUIET + 1)
    assert table.table_message_id == old
    fake.assert_no_errors()


async def test_a_table_comes_back_at_most_once_every_interval(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    alice, bob, table = await her_turn_with_bob(fake, clock, president, "alice")
    await chat(fake, bob, BURIED_AFTER)
    await tick(fake, clock, QUIET + 1)
    first = table.table_message_id
    back_at = clock.now()
    await chat(fake, bob, BURIED_AFTER)
    await tick(fake, clock, QUIET + 1)
    assert table.table_message_id == first  # back too recently
    clock.advance(EVERY - (clock.now() - back_at) - 1)
    await fake.settle()
    assert table.table_message_id == first
    await tick(fake, clock, 1)
    second = table.table_message_id
    assert second not in (None, first)
    assert message(alice, first).content == t("en", "table.brought_down", link=link(table))
    assert message(alice, first).content.startswith("⬇️ The table moved back down to the bottom: ")
    fake.assert_no_errors()


async def test_a_deleted_table_message_still_comes_back_and_a_deleted_pointer_does_not(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie, bob, table = await her_turn_with_bob(fake, clock, president, "marie", "fr")
    old = table.table_message_id
    assert old is not None
    await chat(fake, bob, BURIED_AFTER)
    await tick(fake, clock, QUIET + 1)
    new = table.table_message_id
    assert new not in (None, old)
    mark = fake.mark()
    fake.delete_message(old)  # a moderator tidies the pointer away
    await fake.settle()
    assert table.table_message_id == new and channel_calls(fake, mark) == []
    fake.delete_message(new)
    await tick(fake, clock, 1)  # the refresh's interval since it was brought back
    assert table.table_message_id not in (None, old, new)
    fake.assert_no_errors()


async def test_a_restart_edits_the_table_message_brought_back(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    url, bot, marie, bob, table = await stored_at_her_turn(fake, clock, tmp_path)
    old = table.table_message_id
    await chat(fake, bob, BURIED_AFTER)
    await tick(fake, clock, QUIET + 1)
    new = table.table_message_id
    assert new not in (None, old)
    pointer = message(marie, old).content
    again = await restart(fake, clock, bot, url)
    restored = again.service.registry.by_id(table.id)
    assert restored is not None and restored.table_message_id == new
    assert message(marie, old).content == pointer
    assert marie.last_message().id == new
    await again.close()
    fake.assert_no_errors()


async def test_a_lobby_buried_under_chatter_comes_back_and_its_old_join_button_still_seats(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie = fake.add_user("marie", locale="fr")
    bob = fake.add_user("bob")
    table = await create_table(president, marie)
    await tick(fake, clock, 1)
    old = table.lobby_message_id
    assert old is not None
    shown = message(bob, old)
    await chat(fake, marie, BURIED_AFTER)  # « qui vient ? »
    await tick(fake, clock, QUIET + 1)
    new = table.lobby_message_id
    assert new not in (None, old)
    assert bob.last_message().id == new
    link = f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{new}"
    assert message(bob, old).content == t("fr", "table.brought_down", link=link)
    assert not message(bob, old).components
    # bob's client still showed the old lobby's buttons as it moved.
    await bob.click_shown(shown, t("fr", "btn.join"))
    assert table.seat_of(bob.id) is not None
    fake.assert_no_errors()


async def test_a_table_buried_in_a_thread_archived_meanwhile_comes_back_and_wakes_it(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """The friends' chatter wakes the thread; a moderator archives it before the quiet
    moment is over: the post brings the table back and wakes it, and the old message
    becomes the pointer with no refused call."""
    marie = fake.add_user("marie", locale="fr")
    thread, table = await table_in_a_thread(fake, clock, president, marie)
    bob = fake.add_user("bob", locale="fr")
    bob.channel = thread
    old = table.table_message_id
    fake.archive_thread(thread)
    await fake.settle()
    await chat(fake, bob, BURIED_AFTER)  # the first one wakes it
    assert not thread.archived
    fake.archive_thread(thread)
    await fake.settle()
    await tick(fake, clock, QUIET + 1)
    assert not fresh(thread).archived and table.table_message_id not in (None, old)
    assert message(marie, old).content == t("fr", "table.brought_down", link=link(table))
    fake.assert_no_errors()


async def test_the_bots_own_posts_do_not_count(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """Once back, the table's own new message (the bot's post) is not counted below it:
    one member's message short of `BURIED_AFTER` leaves it where it is."""
    marie = fake.add_user("marie", locale="fr")
    bob = fake.add_user("bob", locale="fr")
    await at_her_turn(fake, clock, president, marie)
    await chat(fake, bob, BURIED_AFTER)
    await tick(fake, clock, QUIET + 1)
    assert president.publisher.buried.returns == 1
    await chat(fake, bob, BURIED_AFTER - 1)
    for _ in range(int(EVERY + QUIET) + 1):
        await tick(fake, clock, 1)
    assert president.publisher.buried.returns == 1  # not brought back again
    fake.assert_no_errors()


async def test_a_round_talked_through_keeps_one_live_table_message_at_the_bottom(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """marie (French) and bob (English) play a round against a bot, zoé commenting each move:
    the table comes back below the chat once it is buried, not again within `EVERY`, then
    its round's results with « Manche suivante » do, and that button works there; the
    channel never holds two messages with the table's buttons."""
    marie, bob, table, game = await marie_and_bob_against_a_bot(fake, clock, president)
    zoe = fake.add_user("zoé", locale="fr")

    def live() -> list[int]:
        return [m.id for m in marie.user.visible() if not m.ephemeral and m.buttons]

    for _ in range(3000):
        if game.phase is not Phase.PLAY:
            break
        if await marie.act() or await bob.act():
            await chat(fake, zoe, 2)  # « bien joué », « à toi ! »
            assert live() == [table.table_message_id]
        else:
            await tick(fake, clock, 1)
    assert game.phase is Phase.ROUND_OVER
    buried = president.publisher.buried
    assert buried.returns == 1  # buried again since, but back too recently
    for _ in range(int(EVERY)):
        await tick(fake, clock, 1)
    assert buried.returns == 2
    results = marie.user.last_message()
    assert results.id == table.table_message_id and live() == [results.id]
    pointers = [m for m in marie.user.visible()
                if m.content.startswith("⬇️ La table est redescendue tout en bas")]
    assert len(pointers) == 2 and all(not m.buttons for m in pointers)
    await marie.user.click(results, t("fr", "btn.next_round"))
    await tick(fake, clock, 1)
    assert game.round_no == 2 and live() == [table.table_message_id]
    fake.assert_no_errors()


async def test_other_bots_and_webhooks_posts_bury_the_table_too(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """A music bot and a proxy webhook take the same room on a screen as members do."""
    alice = fake.add_user("alice")
    table = await at_her_turn(fake, clock, president, alice)
    old = table.table_message_id
    music = fake.add_user("DJ", bot=True)
    for n in range(BURIED_AFTER // 2):
        music.say(f"Now playing: track {n}")
        fake.webhook_says(alice.channel, "Proxy", f"lol {n}")
    await fake.settle()
    await tick(fake, clock, QUIET + 1)
    assert table.table_message_id not in (None, old)
    assert message(alice, old).content == t("en", "table.brought_down", link=link(table))
    fake.assert_no_errors()
