"""Card faces beyond the hand, on the fake Discord: the trick on the table message and the
exchange notes show faces under their text line when the faces are synced, only the text
when they are not, and every message stays within Discord's 2,000 characters."""

from __future__ import annotations

from bot.client import PresidentBot
from bot.i18n.typography import french
from bot.tables.table import Table
from engine import Card, Phase, TrickPlay
from fakediscord import FakeDiscord, Message, TestUser

from .conftest import LinkedClock
from .e2e import (
    cid,
    deal,
    host_against_bots,
    host_against_three_bots,
    let_timers_play,
    message,
    table_of,
    tick,
)
from .test_e2e_card_faces import FACE, start


def face_lines(content: str) -> list[str]:
    return [line for line in content.splitlines() if FACE.match(line)]


def under(content: str, text: str) -> str:
    """The line right under the first line holding ``text``."""
    lines = content.splitlines()
    at = next(i for i, line in enumerate(lines) if text in line)
    return lines[at + 1] if at + 1 < len(lines) else ""


async def open_hand(host: TestUser, table: Table) -> Message:
    await host.click(message(host, table.table_message_id), cid(table, "hand"))
    return host.last_ephemeral()


async def second_round(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                       host: TestUser) -> Table:
    """``host`` against three bots, once the second round's exchange is done."""
    table = await host_against_three_bots(bot, host, "rounds:3")
    game = table.game
    assert game is not None
    await let_timers_play(fake, clock, game, Phase.ROUND_OVER)
    await host.click(message(host, table.table_message_id),
                     cid(table, "next", version=game.version))
    await let_timers_play(fake, clock, game, Phase.PLAY)
    return table


async def until_trick(fake: FakeDiscord, clock: LinkedClock, table: Table) -> None:
    game = table.game
    assert game is not None
    for _ in range(60):
        if game.trick and game.phase is Phase.PLAY:
            return
        await tick(fake, clock, 1)
    raise AssertionError("no card was ever on the table")


async def test_the_trick_and_the_exchange_notes_show_faces_under_their_text(
    fake: FakeDiscord, clock: LinkedClock,
) -> None:
    bot = await start(fake, clock)
    host = fake.add_user("alice", locale="fr")
    table = await second_round(fake, clock, bot, host)
    hand = await open_hand(host, table)
    for note in ("Tu as donné", " t’a donné "):
        assert FACE.match(under(hand.content, note))
    await until_trick(fake, clock, table)
    shown = message(host, table.table_message_id).content
    assert french("Sur la table :") in shown  # the text line stays for servers without the faces
    faces = under(shown, french("Sur la table :"))
    game = table.game
    assert game is not None
    assert len(FACE.findall(faces)) == sum(len(p.cards) for p in game.trick)
    assert len(shown) <= 2000
    await fake.disconnect(bot)


async def test_without_synced_faces_the_trick_and_notes_are_text(
    fake: FakeDiscord, clock: LinkedClock,
) -> None:
    for i in range(2000):  # an application already at Discord's 2,000 emojis: no faces
        fake.emojis.add(f"other_{i}", b"\x89PNG")
    bot = await start(fake, clock)
    fake.expect_error(30008)
    host = fake.add_user("alice", locale="en")
    table = await second_round(fake, clock, bot, host)
    hand = await open_hand(host, table)
    assert "You gave" in hand.content and "You received" in hand.content
    assert not FACE.search(hand.content)
    await until_trick(fake, clock, table)
    shown = message(host, table.table_message_id).content
    assert "On the table:" in shown and not FACE.search(shown)
    await fake.disconnect(bot)


async def test_the_largest_tricks_keep_every_message_within_discord_limits(
    fake: FakeDiscord, clock: LinkedClock,
) -> None:
    """Wild 7s at 8 seats; the trick is filled by hand with every card dealt, four by four
    (more than any real trick): its faces would not fit, so only its text is shown, and a
    trick of a few plays still gets its faces."""
    bot = await start(fake, clock)
    host = fake.add_user("alice", locale="fr")
    await host.slash("president create", preset="wild7")
    table = table_of(bot, host)
    lobby = message(host, table.lobby_message_id)
    for _ in range(7):
        await host.click(lobby, cid(table, "addbot"))
    await host.click(lobby, cid(table, "start"))
    game = table.game
    assert game is not None and len(game.players) == 8
    for _ in range(60):  # on her turn, with a long timer, nobody plays while we look
        await tick(fake, clock, 1)
        if game.to_act == table.seat_of(host.id):
            break
    assert game.to_act == table.seat_of(host.id)

    def fill(plays: int) -> None:
        dealt = sorted((c for s in game.players for c in game.hand(s)),
                       key=lambda c: (c.value, str(c)))
        groups = [dealt[i:i + 4] for i in range(0, len(dealt), 4)][:plays]
        game.trick = [play_of(index % 8, group) for index, group in enumerate(groups)]

    fill(plays=100)
    bot.service.refresh(table)
    await tick(fake, clock, 1)
    big = message(host, table.table_message_id).content
    hand = await open_hand(host, table)
    for content in (big, hand.content):
        assert len(content) <= 2000
        assert not FACE.match(under(content, french("Sur la table :")))
    assert face_lines(hand.content)  # the hand's own faces come first, and fit

    fill(plays=3)
    bot.service.refresh(table)
    await tick(fake, clock, 1)
    small = message(host, table.table_message_id).content
    assert len(FACE.findall(under(small, french("Sur la table :")))) == 12
    await fake.disconnect(bot)


def play_of(seat: int, cards: list[Card]) -> TrickPlay:
    """A trick entry as the display reads it (seat, cards); the level is the play's own."""
    return TrickPlay(seat=seat, cards=tuple(cards), level=0, count=len(cards),
                     value=cards[0].rank, special=None, announce=None)


async def test_a_server_blocking_external_emojis_still_reads_the_cards_as_text(
    fake: FakeDiscord, clock: LinkedClock,
) -> None:
    """Discord shows such a server ``:fr_5D_64f20f:`` instead of a face: the text line above
    each face line is what its players read, so it must stay."""
    fake.set_bot_permissions(fake.channel, use_external_emojis=False)
    bot = await start(fake, clock)
    host = fake.add_user("alice", locale="fr")
    table = await host_against_three_bots(bot, host, "rounds:3")
    tricks: list[str] = []
    for _ in range(60):  # the table message shows a trick (it is posted, then coalesced)
        if table.table_message_id is not None:
            shown = message(host, table.table_message_id).content
            tricks = [x for x in shown.splitlines() if x.startswith(french("Sur la table :"))]
            if tricks:
                break
        await tick(fake, clock, 1)
    else:
        raise AssertionError("the table message never showed a trick")
    assert any(p.name in tricks[0] for p in table.seats)
    hand = await open_hand(host, table)
    assert "Ta main" in hand.content and face_lines(hand.content)
    await fake.disconnect(bot)


async def test_the_cards_picked_across_split_give_menus_show_their_faces(
    fake: FakeDiscord, clock: LinkedClock,
) -> None:
    """A give spread over several menus lists the cards picked so far: their faces go under
    that line as under the hand's, and none before a card is picked."""
    bot = await start(fake, clock)
    host = fake.add_user("marie", locale="fr")
    table = await host_against_bots(bot, host, "wild7", 1)
    await tick(fake, clock, 1)
    deck = sorted(table.rules.deck_kind.cards(), key=str)
    deal(bot, table, [deck[0::2], deck[1::2]], previous_ranking=[0, 1])  # she gives back 2
    hand = await open_hand(host, table)
    assert not FACE.match(under(hand.content, french("Choisies :")))
    first = next(s for s in hand.selects if ":give:" in s.custom_id)
    picks = [o.value for o in first.options[:2]]
    await host.select(hand, picks, select=first.custom_id)
    shown = message(host, hand.id).content
    assert french("Choisies : ") in shown
    assert len(FACE.findall(under(shown, french("Choisies :")))) == 2
    assert len(shown) <= 2000
    await fake.disconnect(bot)
