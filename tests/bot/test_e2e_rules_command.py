"""End-to-end: /president rules with no table in the channel, and a preset's rules asked for
at a table."""

from bot.client import PresidentBot
from bot.i18n.typography import french
from fakediscord import FakeDiscord

from .e2e import create_table, message


async def test_rules_without_a_table_show_the_classic_preset_and_open_nothing(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    """From the closing note: a player who wanted the rules before anyone opened a table
    was only told there was no table in the channel."""
    marie = fake.add_user("marie", locale="fr")
    await marie.slash("president rules")
    shown = marie.last_ephemeral()
    assert [e.title for e in shown.embeds] == ["📜 Règles du préréglage · Président classique"]
    page = shown.text.split("\n")
    assert french("ℹ️ Pas encore de table dans ce salon : voici les règles de départ, que l’hôte "
        "pourra changer. `/president ouvrir` ouvre une table.") in page
    assert french("🂠 Des plus faibles aux plus fortes : 3 4 5 6 7 8 9 10 V D R A 2. On joue 1 à 4 "
        "cartes d’une même valeur.") in page
    assert "Les réglages sont ceux du préréglage." in page
    assert president.service.registry.in_channel(fake.channel.id) is None
    fake.assert_no_errors()


async def test_rules_without_a_table_show_the_preset_asked_for(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    john = fake.add_user("john", locale="en-US")
    await john.slash("president rules", preset="wild7")
    shown = john.last_ephemeral()
    assert [e.title for e in shown.embeds] == ["📜 Rules of a preset · Wild 7s"]
    assert "No table in this channel yet" in shown.text
    assert "7s are wild: played with other cards they take those cards' value" in shown.text
    marie = fake.add_user("marie", locale="fr")
    await marie.slash("president rules", preset="presi")
    assert [e.title for e in marie.last_ephemeral().embeds] == [
        "📜 Règles du préréglage · Presi (jeu espagnol)"]
    fake.assert_no_errors()


async def test_at_a_table_a_preset_asked_for_says_it_is_not_the_tables(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    john = fake.add_user("john", locale="en-US")
    table = await create_table(president, john, "classic")
    await john.slash("president rules", preset="classic")
    shown = john.last_ephemeral()
    assert [e.title for e in shown.embeds] == ["📜 Rules of a preset · Classic Président"]
    assert "ℹ️ This table plays this preset unchanged: these are its rules too." in \
        shown.text.split("\n")

    await president.service.set_rules(table, john.id, table.rules.replace(revolution=False))
    await john.slash("president rules", preset="classic")
    page = john.last_ephemeral().text.split("\n")
    assert "ℹ️ These are the rules of the Classic Président preset, not this table's: " \
        "`/president rules` without a preset shows the table's." in page
    assert "The settings are the preset's." in page  # the preset's own: revolution on
    await john.slash("president rules", preset="presi")
    assert "not this table's" in john.last_ephemeral().text
    assert [e.title for e in john.last_ephemeral().embeds] == [
        "📜 Rules of a preset · Presi (Spanish deck)"]

    await john.slash("president rules")  # no preset: the table's own, as before
    shown = john.last_ephemeral()
    assert [e.title for e in shown.embeds] == ["📜 Rules of this table · Classic Président"]
    assert "not this table's" not in shown.text and "Revolution: off" in shown.text
    assert "Rules:" in message(john, table.lobby_message_id).content
    fake.assert_no_errors()
