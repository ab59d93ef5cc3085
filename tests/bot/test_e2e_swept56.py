"""End-to-end: the start-up sweep of deleted places' house rows (stop 56, docs/bot.md
« Deleted places, swept »). Places deleted while the bot was down, where no table met
404 Unknown Channel, forget their rows at the next start: a thread of a deleted channel
with no call, any other place the server's GUILD_CREATE does not list after one Get
Channel each, at most `PER_GUILD` a start, `SPACING` apart on the bot's clock."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import update

from bot.client import PresidentBot
from bot.packages.president.sweep import PER_GUILD, RECHECK_SECONDS, SPACING
from bot.storage.models import HouseRule
from engine.rules import RulesDict
from fakediscord import Channel, FakeDiscord

from .conftest import LinkedClock
from .e2e import connect_bot, database_url, restart, tick

PRESI: RulesDict = {"preset": "presi", "set": {"revolution": False}}
GET_CHANNEL = "/channels/{channel_id}"


async def places(bot: PresidentBot, guild_id: int) -> dict[int, int | None]:
    """The server's places that keep house rows, with the channel each thread's say."""
    assert bot.storage is not None
    return {p.channel_id: p.parent_id for p in await bot.storage.house_places(guild_id)}


def asked(fake: FakeDiscord, mark: int) -> list[int]:
    """The places the bot asked Discord about since `mark` (Get Channel)."""
    return [int(c.path.rsplit("/", 1)[-1]) for c in fake.calls_since(mark, GET_CHANNEL)
            if c.method == "GET"]


async def swept(fake: FakeDiscord, clock: LinkedClock) -> None:
    """Long enough on the bot's clock for a whole server's questions."""
    for _ in range(PER_GUILD + 2):
        await tick(fake, clock, SPACING)


async def test_places_deleted_while_the_bot_was_down_are_swept_at_its_starts(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """#general keeps rows, and so do its threads « actif » (active), « archivé »
    (archived), « supprimé », « ancien » (archived, its row from before 0014, no channel)
    and « caché » (the bot may no longer view it), #pause, #parti and #vieux with its
    thread « fil ». During a redeploy #parti, #vieux (and « fil » with it) and « supprimé »
    are deleted. The start forgets « fil »'s rows with no call (its channel is not listed),
    and asks about the five first places not listed: #parti, #vieux and « supprimé » are
    404 Unknown Channel (forgotten), « archivé » and « ancien » answer (kept, « ancien »
    learning its channel); « caché », the sixth, waits for the next start, which gets 403
    (kept). A third start asks nothing. #general deleted during a fourth's redeploy, its
    threads' rows go with no call, « ancien »'s too since it learned its channel, and
    #general's after one Get Channel: only #pause keeps its rows, which the bot may not
    view since the start, but GUILD_CREATE lists it all the same (no question)."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    general = marie.channel
    pause = fake.add_channel(fake.guild, "pause")
    gone = fake.add_channel(fake.guild, "parti")
    old = fake.add_channel(fake.guild, "vieux")
    thread_of_old = fake.add_thread(old, "fil", marie)
    archived = fake.add_thread(general, "archivé", marie)
    deleted = fake.add_thread(general, "supprimé", marie)
    before = fake.add_thread(general, "ancien", marie)
    hidden = fake.add_thread(general, "caché", marie)
    active = fake.add_thread(general, "actif", marie)
    await fake.settle()
    storage = bot.storage
    assert storage is not None
    guild = fake.guild.id
    for place in (pause, gone):
        await storage.remember_house_rules(guild, place.id, PRESI)
    threads: list[tuple[Channel, Channel]] = [
        (old, thread_of_old), *((general, t) for t in (archived, deleted, before, hidden,
                                                       active))]
    for channel, thread in threads:
        await storage.remember_house_rules(guild, channel.id, PRESI, thread_id=thread.id)
    async with storage._write() as connection:  # « ancien »'s row, as written before 0014
        await connection.execute(update(HouseRule).where(
            HouseRule.channel_id == before.id).values(parent_id=None))
    fake.archive_thread(archived)
    fake.archive_thread(before)
    fake.set_bot_permissions(hidden, view_channel=False)
    fake.set_bot_permissions(pause, view_channel=False)  # listed all the same
    await fake.settle()

    def redeploy() -> None:
        for place in (gone, old, deleted):
            fake.delete_channel(place)

    mark = fake.mark()
    bot = await restart(fake, clock, bot, url, meanwhile=redeploy)
    await swept(fake, clock)
    assert asked(fake, mark) == [gone.id, old.id, archived.id, deleted.id, before.id]
    for _ in range(3):
        fake.expect_error(10003)
    assert await places(bot, guild) == {
        general.id: None, pause.id: None, archived.id: general.id, before.id: general.id,
        hidden.id: general.id, active.id: general.id}

    mark = fake.mark()
    bot = await restart(fake, clock, bot, url)
    await swept(fake, clock)
    assert asked(fake, mark) == [hidden.id]
    fake.expect_error(50001)  # Missing Access: kept, asked again in a week
    assert hidden.id in await places(bot, guild)

    mark = fake.mark()
    bot = await restart(fake, clock, bot, url)
    await swept(fake, clock)
    assert asked(fake, mark) == []

    mark = fake.mark()
    bot = await restart(fake, clock, bot, url, meanwhile=lambda: fake.delete_channel(general))
    await swept(fake, clock)
    assert asked(fake, mark) == [general.id]
    fake.expect_error(10003)
    assert await places(bot, guild) == {pause.id: None}
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_place_found_there_is_asked_about_again_after_a_week(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """An archived thread's rows cost one Get Channel at the first start, none at the next
    ones for `RECHECK_SECONDS`, one again after; deleted meanwhile, they go then."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = fake.add_user("marie", locale="en-US")
    archived = fake.add_thread(marie.channel, "archived", marie)
    await fake.settle()
    assert bot.storage is not None
    await bot.storage.remember_house_rules(fake.guild.id, marie.channel.id, PRESI,
                                           thread_id=archived.id)
    fake.archive_thread(archived)
    await fake.settle()
    mark = fake.mark()
    bot = await restart(fake, clock, bot, url)
    await swept(fake, clock)
    assert asked(fake, mark) == [archived.id]
    mark = fake.mark()
    bot = await restart(fake, clock, bot, url, down=RECHECK_SECONDS - 60)
    await swept(fake, clock)
    assert asked(fake, mark) == []
    mark = fake.mark()
    bot = await restart(fake, clock, bot, url, down=120,
                        meanwhile=lambda: fake.delete_channel(archived))
    await swept(fake, clock)
    assert asked(fake, mark) == [archived.id]
    fake.expect_error(10003)
    assert archived.id not in await places(bot, fake.guild.id)
    await fake.disconnect(bot)
    fake.assert_no_errors()
