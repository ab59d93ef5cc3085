"""End-to-end: a player's own language (`/president my-language`, stop 58). John's Discord
says en-US; he chooses French: his hands, refusals and answers are French on every server,
after a restart too, while the table's public messages keep their rule; « As Discord
says » brings English back; `/privacy` lists the choice and `/forget` erases it."""

import asyncio
import logging
from pathlib import Path

import pytest
from sqlalchemy.exc import ProgrammingError

from bot.client import LANGUAGES_RELOAD_INTERVAL, PresidentBot, create_bot
from bot.config import Config
from bot.i18n import OwnLocale, t
from bot.storage import Storage
from fakediscord import FakeDiscord, Message, TestUser
from fakediscord.forge import Forger, leaf_options
from fakediscord.state import APPLICATION_COMMAND

from .conftest import LinkedClock
from .e2e import (
    cid,
    connect_bot,
    database_url,
    french_john_at_alice_s_table,
    message,
    restart,
    table_of,
    tick,
)


def _storage(bot: PresidentBot) -> Storage:
    assert bot.storage is not None
    return bot.storage


def _refused(user: TestUser) -> str:
    return user.last_ephemeral().content


async def _one_of_shards(fake: FakeDiscord, clock: LinkedClock, url: str) -> PresidentBot:
    """A process running one shard of several: it reads others' choices every
    `LANGUAGES_RELOAD_INTERVAL`, as only a sharded process does."""
    config = Config(token=fake.token, database_url=url, shard_count=1, shard_ids=(0,))
    bot = create_bot(config, clock=clock, guild_ready_timeout=0)
    await fake.connect(bot, advance=clock.advance)
    return bot


async def _hand_at_a_table(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                           alice: TestUser, john: TestUser) -> Message:
    """Alice opens a classic table, john joins, a bot fills a seat, the round is dealt:
    john's open hand, the message a reading elsewhere must redraw."""
    await alice.slash("president create", preset="classic")
    table = table_of(bot, alice)
    lobby = message(alice, table.lobby_message_id)
    await john.slash("president join")
    await alice.click(lobby, cid(table, "addbot"))
    await alice.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    await john.slash("president hand")
    return john.last_ephemeral()


async def _john_at_a_table(fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, *,
                           sharded: bool, french: bool = False
                           ) -> tuple[str, PresidentBot, TestUser, TestUser, Message]:
    """A process on a database in ``tmp_path`` (one shard of several if ``sharded``);
    alice and john (en-US), john choosing French first if ``french``; his hand at her
    table (`_hand_at_a_table`), read in the language he reads: the database's url, the
    process, alice, john and his hand."""
    url = database_url(tmp_path, "p.db")
    if sharded:
        bot = await _one_of_shards(fake, clock, url)
    else:
        bot = await connect_bot(fake, clock, url)
    alice, john = fake.add_user("alice"), fake.add_user("john")
    if french:
        await john.slash("president my-language", language="fr")
    hand = await _hand_at_a_table(fake, clock, bot, alice, john)
    assert ("**Ta main**" if french else "**Your hand**") in hand.content
    return url, bot, alice, john, hand


async def _redeployed(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                      url: str) -> PresidentBot:
    """A redeploy of a sharded process: it stops once what it was sending is sent, and
    a new one starts on the same database; a second passes."""
    await asyncio.gather(*bot.service.outbox.pending(), return_exceptions=True)
    await fake.disconnect(bot)
    bot = await _one_of_shards(fake, clock, url)
    await tick(fake, clock, 1)
    return bot


async def _chosen_elsewhere(url: str, user: TestUser, language: str | None) -> None:
    """What another process's `/president my-language` stores."""
    elsewhere = await Storage.open(url)
    try:
        await elsewhere.choose_language(user.id, language)
    finally:
        await elsewhere.close()


async def _given_up_elsewhere_and_read(fake: FakeDiscord, clock: LinkedClock,
                                       bot: PresidentBot, url: str, user: TestUser,
                                       hand: Message) -> None:
    """Another process stores the user's « As Discord says »; this one's next reading
    takes it and redraws their open hand in their Discord's English."""
    await _chosen_elsewhere(url, user, None)
    await tick(fake, clock, LANGUAGES_RELOAD_INTERVAL)
    await tick(fake, clock, 1)
    assert bot.languages.chosen(user.id) is None
    assert "**Your hand**" in message(user, hand.id).content


async def test_a_player_who_chose_french_reads_french_until_they_go_back_to_discords(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    url = database_url(tmp_path, "p.db")
    bot = await connect_bot(fake, clock, url)
    alice, john = fake.add_user("alice"), fake.add_user("john")  # both en-US

    await john.slash("president my-language", language="fr")
    assert _refused(john) == t("fr", "my_language.set", language="français")
    assert await _storage(bot).player_languages() == {john.id: "fr"}

    hand, hand_button = await french_john_at_alice_s_table(fake, clock, bot, alice, john)

    # Restarted: the choice comes back from the database, not from the table's snapshot.
    bot = await restart(fake, clock, bot, url)
    assert bot.languages.chosen(john.id) == "fr"
    await john.slash("president start")  # mid-game: said so first (stop 60)
    assert _refused(john) == "⚠️ " + t("fr", "err.already_started", hand=hand_button)
    await john.slash("president hand")
    assert "**Ta main**" in john.last_ephemeral().content

    # « As Discord says »: English again, his open hand redrawn in it.
    shown = john.last_ephemeral()
    await john.slash("president my-language", language="auto")
    assert _refused(john) == t("en", "my_language.automatic_set")
    assert await _storage(bot).player_languages() == {}
    await tick(fake, clock, 1)
    assert "**Your hand**" in message(john, shown.id).content
    await john.slash("president start")  # mid-game: said so first (stop 60)
    assert _refused(john) == "⚠️ " + t("en", "err.already_started", hand=hand_button)
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_the_choice_is_listed_by_privacy_and_erased_by_forget(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """A choice is all the bot keeps of john, who never played: `/privacy` says so in
    French, `/forget` asks and erases it, and his next answer follows Discord again. A
    choice the command does not offer is refused, in his language, and changes nothing."""
    bot = await connect_bot(fake, clock, database_url(tmp_path, "p.db"))
    john = fake.add_user("john")
    await john.slash("president my-language", language="fr")

    data = Forger(fake).command(john, "president my-language", language="en")
    leaf_options(data)[0]["value"] = "de"
    await Forger(fake).send(john, APPLICATION_COMMAND, data)
    assert _refused(john) == "⚠️ " + t("fr", "err.bad_command")
    assert await _storage(bot).player_languages() == {john.id: "fr"}

    await john.slash("president privacy")
    shown = john.last_ephemeral().text
    assert t("fr", "privacy.now", summary="ta langue") in shown
    assert t("fr", "privacy.language_kept", language="français") in shown
    assert t("fr", "privacy.client_kept", client="en-US") in shown  # kept with it (0020)

    await john.slash("president forget")
    question = john.last_ephemeral()
    assert question.content == t("fr", "forget.confirm", summary="ta langue",
                                 erased=t("fr", "privacy.erased_name"))
    await john.click(question, "Tout effacer")
    assert message(john, question.id).content.startswith(
        t("fr", "forget.done", summary="ta langue", erased="%").split("%")[0])
    assert await _storage(bot).player_languages() == {}
    assert bot.languages.chosen(john.id) is None

    await john.slash("president privacy")
    assert t("en", "privacy.now_none") in john.last_ephemeral().text
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_two_devices_in_two_languages_read_the_one_chosen(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """Play-test 32's player: a phone in French, a computer in English (each interaction
    says the language of the device it came from). Without a choice the hand follows the
    last one used; with English chosen it stays English whichever device clicks."""
    bot = await connect_bot(fake, clock, database_url(tmp_path, "p.db"))
    marie = fake.add_user("marie", locale="fr")  # the phone
    await marie.slash("president create", preset="classic")
    table = table_of(bot, marie)
    lobby = message(marie, table.lobby_message_id)
    for _ in range(2):
        await marie.click(lobby, cid(table, "addbot"))
    await marie.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    await marie.slash("president hand")
    hand = marie.last_ephemeral()
    assert "**Ta main**" in hand.content

    marie.user.locale = "en-US"  # the computer
    await marie.slash("president rules")
    await tick(fake, clock, 1)
    assert "**Your hand**" in message(marie, hand.id).content  # as before stop 58

    await marie.slash("president my-language", language="en")
    assert _refused(marie) == t("en", "my_language.set", language="English")
    marie.user.locale = "fr"  # the phone again
    await marie.slash("president rules")
    assert "Rules of this table" in marie.last_ephemeral().text
    await tick(fake, clock, 1)
    assert "**Your hand**" in message(marie, hand.id).content
    assert "Manche 1" in message(marie, table.table_message_id).content  # public: French still
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_without_a_database_the_choice_is_refused(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    """Kept in memory only, a choice would go at the next start unsaid: refused, in the
    player's language, and nothing is chosen."""
    marie = fake.add_user("marie", locale="fr")
    await marie.slash("president my-language", language="en")
    assert _refused(marie) == "⚠️ " + t("fr", "err.my_language_unavailable")
    assert president.languages.chosen(marie.id) is None
    fake.assert_no_errors()


async def test_a_sharded_process_reads_a_choice_made_on_another(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """A player's servers may be run by several processes: one stores their choice, the
    others read every choice again each `LANGUAGES_RELOAD_INTERVAL` (an erasure too)."""
    url = database_url(tmp_path, "p.db")
    bot = await _one_of_shards(fake, clock, url)
    john = fake.add_user("john")
    elsewhere = await Storage.open(url)  # another process's
    try:
        await elsewhere.choose_language(john.id, "fr")
        await john.slash("president hand")
        assert _refused(john) == "⚠️ " + t("en", "err.no_table")
        await tick(fake, clock, LANGUAGES_RELOAD_INTERVAL)
        await john.slash("president hand")  # French words, the commands his client lists
        assert _refused(john) == "⚠️ " + t(OwnLocale("fr", "en-US"), "err.no_table")
        assert (await elsewhere.forget_user(john.id)).language
        await tick(fake, clock, LANGUAGES_RELOAD_INTERVAL)
        assert bot.languages.chosen(john.id) is None
    finally:
        await elsewhere.close()
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_table_opened_by_a_player_who_chose_speaks_their_language(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """Public messages keep their rule; its last step, on a server that chose nothing and
    is no Community one, is the opener's language: for a player who chose, their choice."""
    bot = await connect_bot(fake, clock, database_url(tmp_path, "p.db"))
    john = fake.add_user("john")
    await john.slash("president my-language", language="fr")
    await john.slash("president create", preset="classic")
    assert "Table de Président" in message(john, table_of(bot, john).lobby_message_id).content
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_the_commands_a_message_names_are_those_the_players_client_lists(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """Discord's command picker lists each command under its name for the client's locale
    (discord-api-docs, Application Commands, Localization), whatever language the player
    chose: john, en-US, chose French and reads French words around `/president create`;
    marie, fr, chose English and reads English ones around `/president ouvrir`. Public
    messages keep their rule: the table's language names the commands too."""
    bot = await connect_bot(fake, clock, database_url(tmp_path, "p.db"))
    alice, john = fake.add_user("alice"), fake.add_user("john")
    marie = fake.add_user("marie", locale="fr")
    await john.slash("president my-language", language="fr")
    await marie.slash("president my-language", language="en")

    await john.slash("president hand")
    assert _refused(john) == \
        "⚠️ Il n’y a pas de table dans ce salon. Ouvres-en une avec `/president create`."
    await marie.slash("president hand")
    assert _refused(marie) == \
        "⚠️ There is no table in this channel. Open one with `/president ouvrir`."
    await john.slash("president rules")
    assert "l’hôte pourra changer. `/president create` ouvre une table." \
        in john.last_ephemeral().text
    await marie.slash("president rules")
    assert "which the host may change. `/president ouvrir` opens a table." \
        in marie.last_ephemeral().text
    await marie.slash("president privacy")
    assert "To erase it all, on every server: `/president oublier`, or `/oublier` in a " \
        "private message" in marie.last_ephemeral().text

    await alice.slash("president create", preset="classic")
    table = table_of(bot, alice)
    lobby = message(alice, table.lobby_message_id)
    assert t("en", "lobby.rules_hint") in lobby.content  # alice's English table's
    await john.slash("president hand")  # not seated: the way to a seat
    assert "Pour jouer, appuie sur **Join** dans le salon d’attente, ou `/president join`." \
        in john.last_ephemeral().content
    await john.slash("president join")
    for _ in range(2):
        await alice.click(lobby, cid(table, "addbot"))
    await alice.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    await john.slash("president leave")
    prompt = john.last_ephemeral().content
    assert prompt.startswith("Quitter la partie")
    assert "`/president join` avant la fin de la manche te rend ta place, tant que quelqu’un reste à la table." in prompt
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def _gated_reading(bot: PresidentBot, monkeypatch: pytest.MonkeyPatch
                         ) -> tuple[asyncio.Task[None], asyncio.Event]:
    """A sharded process's reading of every choice, its rows read but held on their way
    back (a slow database, a busy loop) until the event returned is set."""
    storage = _storage(bot)
    read = storage.player_languages
    gate, rows_read = asyncio.Event(), asyncio.Event()

    async def held() -> dict[int, str]:
        rows = await read()
        rows_read.set()
        await gate.wait()
        return rows

    monkeypatch.setattr(storage, "player_languages", held)
    reading = asyncio.create_task(bot.reload_languages())
    await rows_read.wait()
    monkeypatch.setattr(storage, "player_languages", read)
    return reading, gate


async def test_a_choice_made_while_a_reading_is_on_its_way_stays(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sharded process reads every choice again each minute. John chooses French while
    a reading's rows, read before his choice was stored, are on their way: they are older
    than his choice, which stays (it was replaced by them, his next answers English for up
    to a minute). So does an erasure: `/forget` while a reading that still held his choice
    is on its way, and the choice is gone from this process at once, not back for a
    minute."""
    url = database_url(tmp_path, "p.db")
    bot = await _one_of_shards(fake, clock, url)
    john = fake.add_user("john")

    reading, gate = await _gated_reading(bot, monkeypatch)
    await john.slash("president my-language", language="fr")
    gate.set()
    await reading
    assert bot.languages.chosen(john.id) == "fr"
    await john.slash("president hand")
    assert _refused(john) == "⚠️ " + t(OwnLocale("fr", "en-US"), "err.no_table")

    reading, gate = await _gated_reading(bot, monkeypatch)
    await john.slash("president forget")
    await john.click(john.last_ephemeral(), "Tout effacer")
    gate.set()
    await reading
    assert bot.languages.chosen(john.id) is None
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_reading_that_fails_by_a_bug_is_logged_and_the_readings_go_on(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture
) -> None:
    """A reading that fails otherwise than by the database being away (here the table
    missing, as during a rollback below 0019 while a process of this version still runs)
    is logged with its traceback, and the next one still comes: the readings stopped for
    good, the process's players read choices made elsewhere only after its restart."""
    url = database_url(tmp_path, "p.db")
    bot = await _one_of_shards(fake, clock, url)
    john = fake.add_user("john")
    storage = _storage(bot)
    read = storage.player_languages

    async def missing() -> dict[int, str]:
        raise ProgrammingError("SELECT", {}, Exception('relation "player_languages" does '
                                                       "not exist"))

    monkeypatch.setattr(storage, "player_languages", missing)
    await tick(fake, clock, LANGUAGES_RELOAD_INTERVAL)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == \
        ["timer ('languages',) failed"]
    caplog.clear()
    monkeypatch.setattr(storage, "player_languages", read)
    await storage.choose_language(john.id, "fr")  # as another process would
    await tick(fake, clock, LANGUAGES_RELOAD_INTERVAL)
    assert bot.languages.chosen(john.id) == "fr"
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_choice_read_from_another_process_redraws_the_open_hand(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """John plays on a server this process runs and chooses French on one another process
    runs: at the next reading his open hand here is redrawn in French, as the choice
    redraws it on the process that stored it, not only at his next click here."""
    url, bot, alice, john, hand = await _john_at_a_table(fake, clock, tmp_path, sharded=True)
    await _chosen_elsewhere(url, john, "fr")  # another process's
    await tick(fake, clock, LANGUAGES_RELOAD_INTERVAL)
    await tick(fake, clock, 1)
    assert "**Ta main**" in message(john, hand.id).content
    assert "Round 1" in message(alice, table_of(bot, alice).table_message_id
                                ).content  # public: alice's
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_choice_stored_while_the_bot_was_down_reaches_the_restored_hand(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """John chose French on a server another process runs while this one was stopped (or
    before this one's snapshot kept his seat's new language): the restored table's seat
    and his open hand take the choice at the start, not at his next click."""
    url, bot, alice, john, hand = await _john_at_a_table(fake, clock, tmp_path, sharded=False)
    await _chosen_elsewhere(url, john, "fr")  # this process never reads it: it stops first
    bot = await restart(fake, clock, bot, url)
    assert bot.languages.chosen(john.id) == "fr"
    assert "**Ta main**" in message(john, hand.id).content
    assert "Round 1" in message(alice, bot.service.registry.tables()[0].table_message_id
                                ).content  # public: alice's English
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_choice_given_up_on_another_process_redraws_the_hand_in_discords(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """John (en-US) chose French here, then « As Discord says » on a server another
    process runs: at the next reading his open hand here is English again, his Discord's
    language as his last interaction here sent it, not French until his next click."""
    url, bot, _, john, hand = await _john_at_a_table(fake, clock, tmp_path, sharded=True,
                                                     french=True)
    await _given_up_elsewhere_and_read(fake, clock, bot, url, john, hand)
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_first_choice_given_up_elsewhere_before_any_other_click_redraws_in_discords(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """John (en-US) holds his hand here, chooses French here (his first choice: the
    command redraws his hand in French), then « As Discord says » on a server another
    process runs, without clicking here meanwhile: the command that chose said what his
    Discord speaks, so the next reading redraws his hand in English, not French until his
    next click here (review of stop 59)."""
    url, bot, _, john, hand = await _john_at_a_table(fake, clock, tmp_path, sharded=True)
    await john.slash("president my-language", language="fr")
    await tick(fake, clock, 1)
    assert "**Ta main**" in message(john, hand.id).content
    await _given_up_elsewhere_and_read(fake, clock, bot, url, john, hand)
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_choice_given_up_elsewhere_after_a_restart_here_redraws_in_discords(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """John (en-US) chose French and holds his French hand here; this process restarts
    (a redeploy); without clicking here since, he gives the choice up on a server another
    process runs. Nothing of his interactions here survived the restart: the next reading
    redrew nothing, and his hand stayed French until his next click here (stop 59's
    leftover). The locale Discord sent with the choice is stored with it (0020) and read
    at the start: the hand is English at the next reading."""
    url, bot, _, john, hand = await _john_at_a_table(fake, clock, tmp_path, sharded=True,
                                                     french=True)
    assert await _storage(bot).client_locales() == {john.id: "en-US"}
    bot = await _redeployed(fake, clock, bot, url)  # nothing heard from john since
    assert "**Ta main**" in message(john, hand.id).content
    await _given_up_elsewhere_and_read(fake, clock, bot, url, john, hand)
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_choice_given_up_while_the_bot_was_stopped_is_followed_at_the_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """John (en-US) chose French and holds his French hand here; while this process is
    stopped he gives the choice up on a server another process runs (the row goes, and
    the locale kept with it). The restored seat kept the locale his Discord sent
    (`Player.client`): his hand is English at the restart, not French until his next click
    here (stop 60's leftover); his answers follow."""
    url, bot, _, john, hand = await _john_at_a_table(fake, clock, tmp_path, sharded=False,
                                                     french=True)
    await _chosen_elsewhere(url, john, None)  # this process never reads it: it stops first
    bot = await restart(fake, clock, bot, url)
    assert bot.languages.chosen(john.id) is None
    assert "**Your hand**" in message(john, hand.id).content
    table = bot.service.registry.tables()[0]
    seat = table.player(john.id)
    assert seat is not None and (seat.locale, seat.client) == ("en-US", None)
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_choice_stored_before_0020_given_up_elsewhere_after_a_restart_redraws(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """John's French was stored without the locale his Discord sent (before 0020, or by
    an older process during the deploy); he plays here, this process restarts, and he
    gives the choice up on a server another process runs without clicking here since:
    nothing read says his Discord's locale, but his seat kept it from his clicks here, so
    the next reading redraws his hand in English."""
    url = database_url(tmp_path, "p.db")
    bot = await _one_of_shards(fake, clock, url)
    alice, john = fake.add_user("alice"), fake.add_user("john")
    await _chosen_elsewhere(url, john, "fr")  # no client_locale, as before 0020
    await tick(fake, clock, LANGUAGES_RELOAD_INTERVAL)
    hand = await _hand_at_a_table(fake, clock, bot, alice, john)
    assert "**Ta main**" in hand.content
    assert await _storage(bot).client_locales() == {}
    bot = await _redeployed(fake, clock, bot, url)  # nothing heard from john since
    assert "**Ta main**" in message(john, hand.id).content
    await _given_up_elsewhere_and_read(fake, clock, bot, url, john, hand)
    await john.slash("president start")
    assert "already" in _refused(john)
    await fake.disconnect(bot)
    fake.assert_no_errors()
