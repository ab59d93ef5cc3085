"""End-to-end: a language chosen in a private message with the bot (`/my-language`, stop
59). `/president my-language` is a server command (the group's contexts are [GUILD]); a DM
offers `/my-language` beside `/privacy` and `/forget` (contexts [BOT_DM], discord-api-docs,
Application Commands, Interaction Contexts), with the same option, the same handler and the
same storage: a choice made there is the player's on every server, their hands and
refusals there speak it, `/privacy` lists it and `/forget` erases it."""

from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import OwnLocale, t
from fakediscord import FakeDiscord, TestUser
from fakediscord.commands import build_command_data
from fakediscord.errors import UserActionError
from fakediscord.forge import Forger, leaf_options
from fakediscord.state import APPLICATION_COMMAND

from .conftest import LinkedClock
from .e2e import connect_bot, database_url, french_john_at_alice_s_table, message, tick


def _in_dm(user: TestUser) -> str:
    return user.last_ephemeral(user.dm).content


def _refused(user: TestUser) -> str:
    return user.last_ephemeral().content


async def test_a_language_chosen_in_a_dm_is_spoken_on_the_server(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """john (en-US) chooses French from his DM with the bot: the answer there is French,
    and on the server his refusals, his seat's answer and his hand are French, the commands
    they name his client's (`/president create`), alice's table English. Back to « As
    Discord says » from the DM: his open hand is redrawn in English."""
    bot = await connect_bot(fake, clock, database_url(tmp_path, "p.db"))
    alice, john = fake.add_user("alice"), fake.add_user("john")  # both en-US
    with pytest.raises(UserActionError, match="not synced for"):
        await john.slash("my-language", options={"language": "fr"})  # a server: not offered

    await john.slash("my-language", channel=john.dm, options={"language": "fr"})
    assert _in_dm(john) == t("fr", "my_language.set", language="français")
    assert bot.storage is not None
    assert await bot.storage.player_languages() == {john.id: "fr"}

    await john.slash("president hand")
    assert _refused(john) == "⚠️ " + t(OwnLocale("fr", "en-US"), "err.no_table")
    assert "`/president create`" in _refused(john)
    hand, hand_button = await french_john_at_alice_s_table(fake, clock, bot, alice, john)

    # « As Discord says », from the DM: English again, his open hand on the server too.
    await john.slash("my-language", channel=john.dm, options={"language": "auto"})
    assert _in_dm(john) == t("en", "my_language.automatic_set")
    assert await bot.storage.player_languages() == {}
    await tick(fake, clock, 1)
    assert "**Your hand**" in message(john, hand.id).content
    await john.slash("president start")  # mid-game: said so first (stop 60)
    assert _refused(john) == "⚠️ " + t("en", "err.already_started", hand=hand_button)
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_dm_choice_is_listed_by_privacy_and_erased_by_forget_there(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """marie (fr) chooses English in her DM: `/privacy` there lists it in English and names
    the commands as her French client lists them (`/president ma-langue`, `/ma-langue`);
    `/forget` there asks (« your language ») and erases it; her next answer is French. A
    value the command does not offer, forged, is refused in her language and changes
    nothing."""
    bot = await connect_bot(fake, clock, database_url(tmp_path, "p.db"))
    marie = fake.add_user("marie", locale="fr")
    await marie.slash("my-language", channel=marie.dm, options={"language": "en"})
    assert _in_dm(marie) == t("en", "my_language.set", language="English")

    forger = Forger(fake)
    synced = fake.commands.find(None, "my-language")  # as the DM's picker offers it
    assert synced is not None
    data = build_command_data(fake.world, None, synced, [], {"language": "fr"})
    leaf_options(data)[0]["value"] = "de"
    await forger.send(marie, APPLICATION_COMMAND, data, channel=marie.dm)
    assert _in_dm(marie) == "⚠️ " + t("en", "err.bad_command")
    assert bot.storage is not None
    assert await bot.storage.player_languages() == {marie.id: "en"}

    await marie.slash("privacy", channel=marie.dm)
    shown = marie.last_ephemeral(marie.dm).text
    assert t("en", "privacy.now", summary="your language") in shown
    assert t("en", "privacy.language_kept", language="English") in shown
    assert "(`/president ma-langue`, or `/ma-langue` in a private message with this bot)" \
        in shown

    await marie.slash("forget", channel=marie.dm)
    question = marie.last_ephemeral(marie.dm)
    assert question.content == t("en", "forget.confirm", summary="your language",
                                 erased=t("en", "privacy.erased_name"))
    await marie.click(question, "Erase everything")
    assert await bot.storage.player_languages() == {}
    assert bot.languages.chosen(marie.id) is None
    await marie.slash("privacy", channel=marie.dm)
    assert t("fr", "privacy.now_none") in marie.last_ephemeral(marie.dm).text

    # A `/president` command forged into the DM names the DM's commands, hers among them.
    await forger.send(marie, APPLICATION_COMMAND, forger.command(marie, "president stats"),
                      channel=marie.dm)
    refusal = _in_dm(marie)
    assert refusal == "⚠️ " + t("fr", "err.server_only") and "`/ma-langue`" in refusal
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_without_a_database_the_dm_refuses_the_choice(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    """As `/president my-language` does: a choice held in memory would go at the next
    start, unsaid. Refused in the DM, in the player's language; nothing is chosen."""
    assert fake.commands.names(None) == ["forget", "my-language", "privacy"]
    marie = fake.add_user("marie", locale="fr")
    await marie.slash("my-language", channel=marie.dm, options={"language": "en"})
    assert _in_dm(marie) == "⚠️ " + t("fr", "err.my_language_unavailable")
    assert president.languages.chosen(marie.id) is None
    fake.assert_no_errors()
