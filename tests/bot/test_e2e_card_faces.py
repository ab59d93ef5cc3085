"""Card faces as application emojis, on the fake Discord: created once, found again after
a restart, re-uploaded only when redrawn, and text cards when the sync fails."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.config import Config
from bot.packages.cards.emojis import faces
from bot.packages.cards.faces import ASSETS
from fakediscord import FakeDiscord, Message, TestUser

from .conftest import BOT_PAUSE, LinkedClock
from .e2e import cid, message, table_of, tick

EMOJIS = "/applications/{application_id}/emojis"
ONE_EMOJI = EMOJIS + "/{emoji_id}"
# A face in a message's text, named for its reader (`face_alt`: « <:dame_de_coeur:id> »).
FACE = re.compile(r"<:[a-z0-9_]+:\d+>")
FACE_NAME = re.compile(r":[a-z0-9_]+:")
ALL_FACES = 52 + 2 + 48 + 12 + 4  # and the French readers' courts (V D R)


async def start(fake: FakeDiscord, clock: LinkedClock) -> PresidentBot:
    bot = PresidentBot(Config(token=fake.token, bot_pause=BOT_PAUSE), clock=clock,
                       with_storage=False, guild_ready_timeout=0)
    await fake.connect(bot)
    await fake.settle()
    # The uploads hold places in the bot's budget (45 a second): time moves them along.
    while bot.faces_sync is not None and not bot.faces_sync.done():
        await tick(fake, clock, 1)
    return bot


async def wild7_hand(fake: FakeDiscord, bot: PresidentBot, clock: LinkedClock,
                     host: TestUser) -> Message:
    """A two-seat wild7 table (26 cards each, the largest hand), the host's hand once it
    offers plays."""
    await host.slash("president create", preset="wild7")
    table = table_of(bot, host)
    lobby = message(host, table.lobby_message_id)
    await host.click(lobby, cid(table, "addbot"))
    await host.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    await host.click(message(host, table.table_message_id), cid(table, "hand"))
    hand_id = host.last_ephemeral().id
    for _ in range(30):
        if message(host, hand_id).selects:
            break
        await tick(fake, clock, 1)
    return message(host, hand_id)


def methods(fake: FakeDiscord, mark: int) -> list[str]:
    return [c.method for c in fake.calls_since(mark) if c.route in (EMOJIS, ONE_EMOJI)]


async def test_faces_are_created_once_then_found_by_name_after_a_restart(
    fake: FakeDiscord, clock: LinkedClock,
) -> None:
    began = clock.now()
    bot = await start(fake, clock)
    assert methods(fake, 0) == ["GET"] + ["POST"] * ALL_FACES
    # Each went through the bot's budget for Discord's global limit (docs/bot.md): 119
    # calls at 45 a second take more than two seconds.
    assert bot.budget.taken == 1 + ALL_FACES
    assert clock.now() - began >= 2
    assert len(fake.emojis.emojis) == len(faces.emojis) == ALL_FACES
    await fake.disconnect(bot)
    assert faces.emojis == {}  # a stopped bot shows no faces it cannot vouch for

    mark = fake.mark()
    again = await start(fake, clock)
    assert methods(fake, mark) == ["GET"]  # nothing uploaded again
    assert len(faces.emojis) == ALL_FACES

    hand = await wild7_hand(fake, again, clock, fake.add_user("alice", locale="fr"))
    line = next(x for x in hand.content.splitlines() if FACE.match(x))
    assert len(FACE.findall(line)) == 26 and FACE.sub("", line) == ""
    assert "Ta main" in hand.content  # the text line stays, for servers without the faces
    assert len(hand.content) <= 2000
    options = [o for s in hand.selects for o in s.options]
    # Named for the reader (`CardFaces.emoji`), not by the emoji's own name (« fr_3C_… »).
    assert options and all(o.emoji and FACE_NAME.fullmatch(o.emoji)
                           and not o.emoji.startswith(":fr_") for o in options)
    await fake.disconnect(again)


async def test_a_redrawn_face_alone_is_uploaded_again(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    await fake.disconnect(await start(fake, clock))
    drawn = tmp_path / "cards"
    shutil.copytree(ASSETS, drawn)
    (drawn / "fr_KH.png").write_bytes((ASSETS / "fr_QH.png").read_bytes())  # a new drawing
    monkeypatch.setattr(faces, "directory", drawn)
    old = {e.id for e in fake.emojis.emojis.values()}
    mark = fake.mark()
    bot = await start(fake, clock)
    # The old drawing stays: another process may still show it, and Discord refuses a
    # component showing a deleted emoji.
    assert methods(fake, mark) == ["GET", "POST"]
    assert len(fake.emojis.emojis) == ALL_FACES + 1 and old <= set(fake.emojis.emojis)
    await fake.disconnect(bot)


async def test_at_discords_cap_the_oldest_stale_drawing_makes_room(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    await fake.disconnect(await start(fake, clock))
    for i in range(2000 - ALL_FACES):  # the application at Discord's 2,000 emojis
        fake.emojis.add(f"other_{i}", b"\x89PNG")
    drawn = tmp_path / "cards"
    shutil.copytree(ASSETS, drawn)
    (drawn / "fr_KH.png").write_bytes((ASSETS / "fr_QH.png").read_bytes())
    monkeypatch.setattr(faces, "directory", drawn)
    was = next(e.name for e in fake.emojis.emojis.values() if e.name.startswith("fr_KH_"))
    mark = fake.mark()
    bot = await start(fake, clock)
    assert methods(fake, mark) == ["GET", "DELETE", "POST"]
    names = {e.name for e in fake.emojis.emojis.values()}
    assert len(names) == 2000 and was not in names and "other_0" in names
    assert len(faces.emojis) == ALL_FACES
    await fake.disconnect(bot)


async def test_cards_stay_text_when_the_sync_fails(fake: FakeDiscord, clock: LinkedClock) -> None:
    for i in range(2000):  # an application already at Discord's 2,000 emojis
        fake.emojis.add(f"other_{i}", b"\x89PNG")
    bot = await start(fake, clock)
    fake.expect_error(30008)
    assert faces.emojis == {}
    hand = await wild7_hand(fake, bot, clock, fake.add_user("alice", locale="en"))
    assert not FACE.search(hand.content) and "Your hand" in hand.content
    assert all(o.emoji is None for s in hand.selects for o in s.options)
    await fake.disconnect(bot)
