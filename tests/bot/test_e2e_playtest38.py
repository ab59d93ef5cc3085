"""End-to-end: play-test 38 (stop 55), an evening of changing rules. marie (French) hosts
bob and alice (English) at one table; between games she goes classic → wild7 →
proletario with variants (revolution, « ta gueule »), adds bots of each level and removes
one, turns « Conseil » on; bob leaves mid-round and comes back the next game; alice
dismisses her hand and reopens it; old buttons are clicked after a new game started;
/president commands are typed in another channel and in a thread; stats and the
leaderboard afterwards (docs/bot.md « Play-test 38 (stop 55) »)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import join_names, t
from bot.packages.rules_text import rules_page, table_preset_name
from fakediscord import FakeDiscord, Message, TestUser

from .conftest import LinkedClock
from .e2e import cid, connect_bot, create_table, database_url, message, tick
from .test_e2e_settings import open_form


def notice(panel: Message) -> list[str]:
    """The settings panel's lines above its title: what the last change did."""
    lines = panel.content.split("\n")
    title = next(i for i, line in enumerate(lines) if line.startswith("⚙️"))
    return lines[:title]


async def five_seated(fake: FakeDiscord, president: PresidentBot,
                      locale: str) -> tuple[TestUser, Message]:
    """marie hosts a wild7 lobby with two bots (easy, then normal), bob and alice: five
    seated; she opens the settings panel (in ``locale``)."""
    marie = fake.add_user("marie", locale=locale)
    table = await create_table(president, marie, "wild7")
    for level in ("easy", "normal"):
        await marie.slash("president addbot", level=level)
    for name in ("bob", "alice"):
        user = fake.add_user(name)
        await user.click(message(user, table.lobby_message_id), cid(table, "join"))
    assert len(table.seats) == 5
    await marie.slash("president settings")
    return marie, marie.last_ephemeral()


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_a_preset_with_fewer_seats_says_who_left_them(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """Five seated at wild7 (up to 8), marie picks proletario (4 seats, a queue): the bot
    added last leaves the table, and nothing said so. The panel answered only « Enregistré
    — les règles sont celles du préréglage Proletario »; « Bot 2 » was gone from the lobby
    and its host looked for it. The panel now names it, in the host's language."""
    marie, panel = await five_seated(fake, president, locale)
    table = president.service.registry.in_channel(marie.channel.id)
    assert table is not None
    await marie.select(panel, ["proletario"], select=cid(table, "preset"))
    assert [p.name for p in table.seats] == ["marie", "Bot 1", "bob", "alice"]
    said = notice(marie.last_ephemeral())
    assert said[0] == "✅ " + t(locale, "settings.preset_saved",
                               preset=t(locale, "preset.proletario"))
    assert said[1:] == [t(locale, "settings.seats_cut.bots.one", names="**Bot 2**", max=4)]
    fake.assert_no_errors()


async def test_a_seat_knob_cut_names_the_bots_and_the_people_sent_to_the_queue(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """Bots filling the table (a queue), marie types 2 seats for the five seated: both
    bots leave and alice, seated last, waits for a seat. Each is named, in the order they
    sat; alice had no word of it either."""
    marie, panel = await five_seated(fake, president, "fr")
    table = president.service.registry.in_channel(marie.channel.id)
    assert table is not None
    await open_form(marie, "bots_fill")
    await open_form(marie, "max_players")
    await marie.modal_submit({"Nouvelle valeur": "2"})
    assert [p.name for p in table.seats] == ["marie", "bob"]
    assert [p.name for p in table.queue] == ["alice"]
    assert notice(marie.last_ephemeral())[1:] == [
        t("fr", "settings.seats_cut.bots.many", max=2,
          names=join_names("fr", ["**Bot 1**", "**Bot 2**"])),
        t("fr", "settings.seats_cut.people.one", max=2, names="**alice**")]
    fake.assert_no_errors()


async def test_rules_asked_away_from_the_table_are_the_table_s(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """bob plays at marie's proletario table (revolution and « ta gueule » on) in #general;
    he types `/president rules` in #autre, then marie in a thread under #general. bob was
    shown classic's rules, « No table in this channel yet… `/president create` opens a
    table », marie the channel's house rules: not what either plays, where every other
    command told them where their table is. They now read their table's rules, said to
    be the table's in the channel named, each in their language."""
    marie = fake.add_user("marie", locale="fr")
    bob = fake.add_user("bob")
    table = await create_table(president, marie, "proletario")
    await president.service.set_rules(table, marie.id, table.rules.replace(
        revolution=True, equal_allowed=True, on_equal="skip_unless_holding"))
    await bob.click(message(bob, table.lobby_message_id), cid(table, "join"))
    other = fake.add_channel(fake.guild, "autre")
    thread = fake.add_thread(fake.channel, "fil", marie)
    await fake.settle()
    where = f"<#{fake.channel.id}>"
    for user, place, locale, key in ((bob, other, "en", "rules.your_table"),
                                     (marie, thread, "fr", "rules.your_table.thread")):
        await user.slash("president rules", channel=place)
        [shown] = user.last_ephemeral(place).embeds
        assert shown.title == t(locale, "rules.title.yours",
                                preset=table_preset_name(locale, table.rules))
        assert shown.description is not None
        lines = shown.description.split("\n")
        assert lines[0] == t(locale, key, channel=where)
        assert lines[2:] == rules_page(locale, table.rules)
    fake.assert_no_errors()


async def test_back_to_the_preset_says_which_bots_it_took_away(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """#general keeps proletario at six seats as its house rules; marie's next table opens
    on them, and she fills it with five bots. « Revenir au préréglage » in the lobby brings
    back proletario's four seats: two bots went, and its answer was the lobby redrawn
    without them, nothing more. She is now told which, privately."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    table = await create_table(bot, marie, "proletario")
    await bot.service.set_rules(table, marie.id, table.rules.replace(max_players=6))
    await marie.slash("president settings")
    await marie.click(marie.last_ephemeral(), cid(table, "done"))
    await marie.slash("president end")
    await tick(fake, clock, 1)
    table = await create_table(bot, marie, "proletario")
    assert table.rules.max_players == 6
    for _ in range(5):
        await marie.slash("president addbot")
    await tick(fake, clock, 1)
    await marie.click(message(marie, table.lobby_message_id), cid(table, "house_reset"))
    assert [p.name for p in table.seats] == ["marie", "Bot 1", "Bot 2", "Bot 3"]
    assert marie.last_ephemeral().content == t(
        "fr", "settings.seats_cut.bots.many", max=4,
        names=join_names("fr", ["**Bot 4**", "**Bot 5**"]))
    fake.assert_no_errors()
    await fake.disconnect(bot)
