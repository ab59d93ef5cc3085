"""End-to-end: play-test 42 (stop 58), languages of one's own. marie (a French device)
opens a classic table on a server that chose no language, so its public messages speak
French; john (en-US) chose French before the evening, fred (en-GB) keeps « As Discord
says »; two bots sit with them. Mid-game marie chooses English, her open hand redrawn in
it at once. Every control of a hand, refusals (not their turn, another's prompt, a stale
click), the exchange, the break and leave prompts, `/president rules`, `stats`, `/privacy`
and `/forget`: every message each one sees is read, each private one wholly in its
reader's language, the commands it names as their client lists them (docs/bot.md
« Play-test 42: languages of one's own (stop 58) »)."""

from __future__ import annotations

import os
from pathlib import Path

from bot.i18n import t
from engine import Phase
from fakediscord import FakeDiscord, TestUser
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    Player,
    act_or_wait,
    cid,
    connect_bot,
    create_table,
    database_url,
    deal,
    message,
    tick,
)
from .reading import Reader, read

DUMP = os.environ.get("PT42_DUMP")  # a file to write every message read to, to read it through
DEVICES = {"marie": "fr", "john": "en-US", "fred": "en-GB"}



def refused(user: TestUser, text: str) -> None:
    answer = user.last_ephemeral().content
    assert answer.startswith("⚠️ " + text), answer


async def test_an_evening_of_three_languages_of_ones_own(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path) -> None:
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    users = {name: fake.add_user(name, locale=locale) for name, locale in DEVICES.items()}
    marie, john, fred = users.values()
    reader = Reader(users, DEVICES, "fr", DUMP)
    await john.slash("president my-language", language="fr")
    reader.chosen["john"] = "fr"
    await fred.slash("president my-language", language="auto")
    reader()
    assert john.last_ephemeral().content == t("fr", "my_language.set", language="français")

    table = await create_table(bot, marie, "classic")
    await bot.service.set_options(table, marie.id, hints=True)
    lobby = message(marie, table.lobby_message_id)
    for user in (john, fred):
        await user.click(lobby, cid(table, "join"))
    await john.click(lobby, cid(table, "start"))  # the host's
    refused(john, t("fr", "err.not_host", host=marie.id))
    for _ in range(2):
        await marie.click(lobby, cid(table, "addbot"))
    await marie.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    game = fresh(table).game
    assert game is not None and game.seats == 5
    players = [Player(u) for u in users.values()]
    for player in players:
        await player.open_hand(bot)
    reader()
    marie_hand, john_hand, fred_hand = (p.hand for p in players)
    assert "**Ta main**" in marie_hand.content and "**Ta main**" in john_hand.content
    assert "**Your hand**" in fred_hand.content

    # john's turn: advice first, then the play it offers; his old menu later is stale.
    assert game.to_act == 1
    await john.click(john_hand, cid(table, "hint", game.version))
    reader()
    old = players[1].hand
    await players[1].act()
    await tick(fake, clock, 1)
    reader()

    # marie switches mid-game: her open hand speaks English at once, the table French.
    await marie.slash("president my-language", language="en")
    reader.chosen["marie"] = "en"
    assert marie.last_ephemeral().content == t("en", "my_language.set", language="English")
    await tick(fake, clock, 1)  # within the pace a hand is edited at (a second)
    assert "**Your hand**" in message(marie, marie_hand.id).content
    reader()
    menu = next(s for s in old.selects if ":play:" in s.custom_id)
    await john.select_shown(old, [menu.options[0].value], select=menu.custom_id)
    assert message(john, old.id).content.startswith("⚠️ " + t("fr", "err.already_played"))
    reader()
    await tick(fake, clock, 1)
    reader()
    # fred passes from his hand, marie refreshes hers; the round is played out.
    fred_pass = next(b.custom_id for b in players[2].hand.buttons
                     if b.custom_id and ":pass:" in b.custom_id)
    await fred.click(players[2].hand, fred_pass)
    await marie.click(players[0].hand, cid(table, "refresh"))
    reader()
    while game.phase is not Phase.ROUND_OVER:
        await act_or_wait(fake, clock, players)
        reader()
    await tick(fake, clock, 1)
    reader()
    board = message(john, table.table_message_id)
    await john.click(board, cid(table, "next", game.version))  # the host's
    refused(john, t("fr", "err.not_host", host=marie.id).split(" (")[0])
    await marie.click(board, cid(table, "next", game.version))
    await tick(fake, clock, 1)
    reader()
    assert fresh(game).phase is Phase.EXCHANGE
    while fresh(game).phase is Phase.EXCHANGE:
        await act_or_wait(fake, clock, players)
        reader()
    await tick(fake, clock, 1)
    reader()
    # Refusals that name a command: each as its reader's client lists it.
    for user, command, words in ((john, "president create", {"preset": "classic"}),
                                 (marie, "president replay", {}),
                                 (fred, "president kick", {"member": fred.user}),
                                 (john, "president resume", {})):
        await user.slash(command, **words)
    reader()
    # In a thread under the table's channel, where the evening talks: its history is the
    # channel's, says marie's private answer, naming the command as her client lists it.
    thread = fake.add_thread(fake.channel, "apéro", marie)
    await fake.settle()
    await marie.slash("president history", channel=thread)
    shown = marie.last_ephemeral(thread)
    reader.check("marie", shown, read(shown))
    assert "(`/president historique`" in shown.text, shown.text
    # -- a break and a leave, then the asides ----------------------------------------------
    await john.slash("president pause")
    reader()
    await john.click(message(john, table.table_message_id), cid(table, "play_on"))
    await marie.click(message(marie, table.table_message_id), cid(table, "pause"))
    reader()
    offer = marie.last_ephemeral()
    assert "`/president continuer`" in offer.content  # her device's name for it
    await marie.click(offer, t("en", "btn.pause_reason"))
    form = marie.modal
    assert form is not None and form.title == t("en", "pause.form.title")
    await marie.modal_submit({t("en", "pause.form.field"): "pizza"})
    reader()
    await marie.slash("president continue")
    reader()
    await fred.slash("president leave")
    reader()
    prompt = fred.last_ephemeral()
    await fred.click(prompt, prompt.buttons[-1].custom_id or "")
    reader()
    # john leaves too, looks at his hand from the table (a bot plays his seat), comes back.
    await john.slash("president leave")
    prompt = john.last_ephemeral()
    assert "`/president join` avant la fin de la manche" in prompt.content
    await john.click(prompt, prompt.buttons[-1].custom_id or "")
    await john.click(message(john, table.table_message_id), cid(table, "hand"))
    assert "`/president join` avant la fin de la manche" in john.last_ephemeral().content
    reader()
    for _ in range(20):  # the others play on; his hand follows without his clicks
        await act_or_wait(fake, clock, players[:1])
        reader()
    await john.slash("president join")
    assert fresh(table).player(john.id) is not None
    reader()
    for user in users.values():
        await user.slash("president rules")
        await user.slash("president stats")
        await user.slash("president leaderboard")
        await user.slash("president privacy")
        reader()
    # The evening ends; john erases himself from a private message with the bot.
    await marie.slash("president end")
    await tick(fake, clock, 1)
    reader()
    await marie.click(marie.last_ephemeral(), t("en", "btn.stop_game"))
    await tick(fake, clock, 1)
    await john.slash("president leave")
    for _ in range(2):  # the lobby, then the table closed: nothing names john any more
        await marie.slash("president end")
    await tick(fake, clock, 1)
    assert table.closed
    reader()
    await john.slash("privacy", channel=john.dm)
    await john.slash("forget", channel=john.dm)
    question = john.last_ephemeral(john.dm)
    await john.click(question, t("fr", "btn.forget"))
    reader()
    assert bot.languages.chosen(john.id) is None
    del reader.chosen["john"]  # Discord's language again: English
    await john.slash("privacy", channel=john.dm)
    assert t("en", "privacy.now_none") in john.last_ephemeral(john.dm).text
    await john.slash("president rules")
    reader()
    fake.assert_no_errors()
    await fake.disconnect(bot)


async def test_the_second_page_of_a_hand_in_a_language_of_ones_own(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path) -> None:
    """john (en-US, French chosen) holds twenty cards, five of each of ranks 3 to 7: five
    menus, so a second page; his hint and his play from it, in French."""
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    john = Player(fake.add_user("john"))
    await john.user.slash("president my-language", language="fr")
    reader = Reader({"john": john.user}, DEVICES, "fr", DUMP)  # his table: his chosen language
    reader.chosen["john"] = "fr"
    hands = [[r + s for r in "34567" for s in "CDHS"], ["8C", "9C"], ["8D", "9D"]]
    table = await create_table(bot, john.user)
    await bot.service.set_options(table, john.user.id, hints=True)
    for _ in range(2):
        await bot.service.add_bot(table, john.user.id)
    await bot.service.games.start(table, john.user.id)
    game = deal(bot, table, hands, opener=0)
    await tick(fake, clock, 1)
    await john.open_hand(bot)
    reader()
    more = next(b for b in john.hand.buttons if ":page:" in (b.custom_id or ""))
    assert more.label == t("fr", "btn.more", page=2, pages=2)
    await john.user.click(john.hand, more.custom_id or "")
    reader()
    await john.user.click(john.hand, cid(table, "hint", game.version, "1"))
    reader()
    [menu] = [m for m in john.hand.selects if ":play:" in m.custom_id]
    await john.user.select(john.hand, [menu.options[0].value], select=menu.custom_id)
    await tick(fake, clock, 1)
    reader()
    now = fresh(table).game
    assert now is not None and len(now.hand(0)) == 16
    fake.assert_no_errors()
    await fake.disconnect(bot)
