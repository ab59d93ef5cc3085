"""Public messages speak the server's language; each player's own messages keep theirs."""

from pathlib import Path

from bot.client import PresidentBot
from bot.i18n import public_locale
from fakediscord import FakeDiscord
from fakediscord.forge import MANAGE_GUILD, Forger, leaf_options
from fakediscord.state import APPLICATION_COMMAND

from .conftest import LinkedClock
from .e2e import cid, connect_bot, database_url, message, table_of, tick


def test_the_servers_choice_then_a_community_locale_then_the_creator() -> None:
    assert public_locale("fr", "en-US", True, "en-US") == "fr"
    assert public_locale(None, "fr", True, "en-US") == "fr"
    assert public_locale(None, "en-US", False, "fr") == "fr"  # en-US says nothing here
    assert public_locale(None, None, True, "en-GB") == "en-GB"


async def test_a_community_server_in_french_gets_french_tables(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    guild = fake.add_guild("Le Cercle", locale="fr")
    fake.add_channel(guild, "cartes")
    await fake.settle()
    cached = president.get_guild(guild.id)
    assert cached is not None
    cached.features.append("COMMUNITY")
    john = fake.add_user("john", guilds=[guild])  # an English client
    await john.slash("president create", preset="classic")
    table = table_of(president, john)
    lobby = message(john, table.lobby_message_id)
    assert "Table de Président" in lobby.content
    await john.click(lobby, cid(table, "start"))  # refused: in John's own language
    assert "At least 3 players, bots included, are needed" in john.last_ephemeral().content
    await john.click(lobby, cid(table, "addbot"))
    await john.click(lobby, cid(table, "addbot"))
    await john.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    board = message(john, table.table_message_id)
    assert "Manche 1" in board.content
    await john.click(board, cid(table, "hand"))
    assert "Your hand" in john.last_ephemeral().content
    fake.assert_no_errors()


async def test_admins_choose_the_servers_language_and_a_host_their_tables(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    bot = await connect_bot(fake, clock, database_url(tmp_path, "p.db"))
    storage = bot.storage
    assert storage is not None
    forger = Forger(fake)
    john = fake.add_user("john")
    marie = fake.add_user("marie", locale="fr")
    admin = fake.add_user("admin")
    await john.slash("president create", preset="classic")
    table = table_of(bot, john)
    assert "Président table" in message(john, table.lobby_message_id).content

    await marie.slash("president language", language="en")  # neither host nor admin
    assert marie.last_ephemeral().content.startswith("⚠️ Changer la langue est réservé aux admins du serveur")
    assert (await storage.get_guild_settings(fake.guild.id)).language is None

    # The host sets their own table's language, not the server's.
    await john.slash("president language", language="fr")
    assert john.last_ephemeral().content.startswith("This table now speaks French.")
    assert (await storage.get_guild_settings(fake.guild.id)).language is None
    await tick(fake, clock, 1)
    assert "Table de Président" in message(john, table.lobby_message_id).content

    other = fake.add_channel(fake.guild, "second")
    await fake.settle()
    john.channel = other
    await john.slash("president create", preset="presi")  # the server's language is unchanged
    second = table_of(bot, john)
    assert "Président table" in message(john, second.lobby_message_id).content

    # A value outside the command's choices, even from an admin, changes nothing.
    admin.channel = other
    data = forger.command(admin, "president language", language="fr")
    leaf_options(data)[0]["value"] = "CLASSIC"
    refused = await forger.send(admin, APPLICATION_COMMAND, data, permissions=MANAGE_GUILD)
    assert refused.response_type == 4
    assert admin.last_ephemeral().content.startswith("⚠️ This command or one of its options")
    assert (await storage.get_guild_settings(fake.guild.id)).language is None

    # Manage Server sets the server's language: every open table switches.
    data = forger.command(admin, "president language", language="fr")
    await forger.send(admin, APPLICATION_COMMAND, data, permissions=MANAGE_GUILD)
    assert admin.last_ephemeral().content == "Tables on this server now speak French."
    assert (await storage.get_guild_settings(fake.guild.id)).language == "fr"
    await tick(fake, clock, 1)
    assert "Table de Président" in message(john, second.lobby_message_id).content
    await john.slash("president rules")
    assert "Rules of this table" in john.last_ephemeral().text

    john.channel = fake.channel
    await john.slash("president language", language="auto")  # back to the server's: French
    assert john.last_ephemeral().content.startswith("This table now follows")
    await tick(fake, clock, 1)
    assert "Table de Président" in message(john, table.lobby_message_id).content
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_table_opened_while_an_admin_switches_the_language_takes_the_new_one(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """Play-test 13: `/president ouvrir` and an admin's `/president langue fr` at the same
    instant; the admin was told every table now speaks French, and the new table stayed
    English: it had read the language before the switch and set it after."""
    bot = await connect_bot(fake, clock, database_url(tmp_path, "p.db"))
    forger = Forger(fake)
    john, admin = fake.add_user("john"), fake.add_user("admin")
    await john.slash("president create", preset="classic", settle=False)
    data = forger.command(admin, "president language", language="fr")
    await forger.send(admin, APPLICATION_COMMAND, data, permissions=MANAGE_GUILD, settle=False)
    await fake.settle()
    await tick(fake, clock, 2)
    assert admin.last_ephemeral().content == "Tables on this server now speak French."
    table = table_of(bot, john)
    assert table.locale == "fr"
    assert "Table de Président" in message(john, table.lobby_message_id).content
    await fake.disconnect(bot)
    fake.assert_no_errors()
