"""End-to-end: play-test 18, « a host's evening and a newcomer's first game »: a newcomer's
first commands, clicks they may not make and first hand; a host running games in a row in a
channel and a thread (settings, bots of each level, kicks, the host role handed on, games
ended early, replays, the stats), in French and in English."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.i18n import button_names, t
from bot.i18n.typography import french
from bot.packages.game.table_message import closing_notice
from bot.tables.logentry import LogEntry
from bot.tables.table import Table
from engine import GameEnd, Phase
from fakediscord import FakeDiscord, TestUser

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    create_table,
    dealt_against_two_bots,
    leave_game,
    message,
    play_until,
    tick,
    two_humans_against_a_bot,
)

LOCALES = ["fr", "en-US"]


async def back_in_the_lobby(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                            host: TestUser, guest: TestUser | None = None) -> Table:
    """``host`` (with ``guest`` seated, if any) plays a one-round classic game against bots
    to its end, then presses **Terminer**: the table is back in its lobby, shown."""
    table = await create_table(bot, host)
    await bot.service.set_rules(table, host.id, table.rules.replace(game_end=GameEnd("rounds", 1)))
    lobby = message(host, table.lobby_message_id)
    if guest is not None:
        await guest.click(lobby, cid(table, "join"))
    for _ in range(2):
        await host.click(lobby, cid(table, "addbot"))
    await host.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    players = [Player(host)] + ([Player(guest)] if guest is not None else [])
    for player in players:
        await player.open_hand(bot)
    game = table.game
    assert game is not None
    await play_until(fake, clock, players, lambda: game.phase is Phase.GAME_OVER)
    await tick(fake, clock, 1)
    await host.click(message(host, table.table_message_id), cid(table, "end", game.version))
    await tick(fake, clock, 1)
    assert table.game is None
    assert t(table.locale, "table.finished") in message(host, table.lobby_message_id).content
    return table


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_table_closed_after_a_game_does_not_ask_the_host_to_press_start(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: after the evening's last game the host pressed **Terminer**, then
    closed the table with `/president terminer`. Its lobby read « 🏁 La partie est terminée.
    Invitez du monde ou ajoutez des bots : l’hôte appuie sur **Lancer** pour rejouer. » above
    « Cette table est fermée. »: the lobby's notice was kept in the closed message, whose
    buttons were gone. A closed table keeps why it went back to its lobby, not what to do
    there."""
    marie = fake.add_user("marie", locale=locale)
    table = await back_in_the_lobby(fake, clock, president, marie)
    lobby_id = table.lobby_message_id
    await marie.slash("president end")
    assert marie.last_ephemeral().content == t(locale, "lobby.ended")
    await tick(fake, clock, 1)
    closed = message(marie, lobby_id)
    assert closed.content == t(locale, "lobby.closed")
    assert not closed.buttons
    if locale == "fr":
        assert closed.content == "Cette table est fermée."
    fake.assert_no_errors()


def test_a_closed_table_keeps_who_left_but_not_who_hosts_next() -> None:
    """The lobby's other notices that say what to do there go too (the new host's « le
    lancement et les réglages passent entre ses mains », a person seated before a bot); a
    member gone from the server is still said, and why a game was cancelled."""
    for key in ("table.finished", "lobby.new_host", "lobby.bot_gave_way"):
        assert closing_notice(LogEntry(key, {"name": "paul", "bot": "Bot 1"})) is None
    gone = LogEntry("lobby.new_host_gone", {"name": "paul", "gone": "léa"}, (7,))
    assert closing_notice(gone) == LogEntry("table.member_gone", {"name": "léa"}, (7,))
    cancelled = LogEntry("table.cancelled", {"name": "léa"}, (7,))
    assert closing_notice(cancelled) == cancelled
    assert closing_notice(None) is None


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_host_leaving_the_lobby_after_a_game_names_the_new_host(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: back in the lobby after a game, marie (the host) left. The lobby
    kept « l’hôte appuie sur **Lancer** pour rejouer » and said nothing of paul taking the
    role, where a lobby without that notice says « 👑 **paul** devient l’hôte de la table »:
    only the 👑 beside his name showed it."""
    marie = fake.add_user("marie", locale=locale)
    paul = fake.add_user("paul", locale=locale)
    table = await back_in_the_lobby(fake, clock, president, marie, paul)
    await marie.slash("president leave")
    await tick(fake, clock, 1)
    assert table.host_id == paul.id
    lobby = message(paul, table.lobby_message_id).content
    assert t(locale, "lobby.new_host", name="paul") in lobby.split("\n")
    assert t(locale, "table.finished") not in lobby
    if locale == "fr":
        assert french("👑 **paul** devient l’hôte de la table : le lancement et les réglages "
                      "passent entre ses mains.") in lobby
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_host_handed_the_role_between_rounds_is_told_the_choice_is_theirs_now(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: the host left while the table waited for **Manche suivante**.
    The heir's hand read « 👑 Tu es maintenant l’hôte de la table : à la fin de la manche,
    c’est toi qui choisis la suite. »: the round was over, and the table message waited on
    them (« L’hôte, paul, choisit : **Manche suivante** ou **Terminer** »)."""
    marie = Player(fake.add_user("marie", locale=locale))
    paul = Player(fake.add_user("paul", locale=locale))
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, paul,
                                                 bots=2, game_end=GameEnd("rounds", 3))
    await play_until(fake, clock, [marie, paul], lambda: game.phase is Phase.ROUND_OVER)
    await leave_game(marie.user)
    await tick(fake, clock, 1)
    assert table.host_id == paul.user.id and game.phase is Phase.ROUND_OVER
    told = t(locale, "hand.new_host_between", **button_names(locale))
    assert told in paul.hand.content.split("\n")
    assert t(locale, "hand.new_host") not in paul.hand.content
    board = message(paul.user, table.table_message_id)
    assert {t(locale, "btn.next_round"), t(locale, "btn.end_game")} <= {
        b.label for b in board.buttons}
    if locale == "fr":
        assert french("👑 Tu es maintenant l’hôte de la table : la manche est finie, à toi de "
                      "choisir **Manche suivante** ou **Terminer** sur le message de la "
                      "table.") in paul.hand.content
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_play_menu_shows_its_cards_in_the_hands_order(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: a newcomer's hand read « 9♦ 9♥ … R♣ R♦ R♥ » and its menus
    offered the pair « 9♥ 9♦ » and three Kings « R♦ R♣ R♥ », in the order the cards were
    dealt: a play's label now lists its cards as the hand does."""
    host = Player(fake.add_user("marie", locale=locale))
    await dealt_against_two_bots(
        fake, clock, president, host,
        [["9H", "KD", "9D", "KC", "KH", "4S"], ["5C", "6C", "8C", "JC", "QC", "AC"],
         ["5D", "6D", "8D", "JD", "QD", "AD"]], opener=0)
    labels = {o.value: o.label for menu in host.hand.selects for o in menu.options}
    kings = {"fr": "R♣ R♦ R♥", "en-US": "K♣ K♦ K♥"}[locale]
    assert labels["9H.9D"] == "9♦ 9♥"
    assert labels["KD.KC.KH"] == kings
    emoji = next(o.emoji for menu in host.hand.selects for o in menu.options
                 if o.value == "9H.9D")
    # The face of the label's first card, named for the reader (`CardFaces.emoji`).
    assert emoji == {"fr": ":9_de_carreau:", "en-US": ":9_of_diamonds:"}[locale]
    hand = next(line for line in host.hand.content.split("\n") if line.startswith("🂠"))
    assert hand.endswith(f"4♠ 9♦ 9♥ {kings}")
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_a_play_on_the_table_shows_its_cards_in_the_hands_order(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """The play-test's menus now follow the hand's order; the trick kept the deal's: the
    pair the hand read « 9♦ 9♥ » lay on the table as « 9♥ 9♦ »."""
    host = Player(fake.add_user("marie", locale=locale))
    table, _ = await dealt_against_two_bots(
        fake, clock, president, host,
        [["9H", "KD", "9D", "KC", "KH", "4S"], ["5C", "6C", "8C", "JC", "QC", "AC"],
         ["5D", "6D", "8D", "JD", "QD", "AD"]], opener=0)
    menu = next(m for m in host.hand.selects if ":play:" in m.custom_id
                and any(o.value == "9H.9D" for o in m.options))
    await host.user.select(host.hand, ["9H.9D"], select=menu.custom_id)
    played = t(locale, "table.trick_play", name="marie", cards="9♦ 9♥")
    assert played in host.hand.content  # her hand, redrawn as the play is accepted
    await tick(fake, clock, 1.5)  # the table message's refresh; the bots pass meanwhile
    assert played in message(host.user, table.table_message_id).content
    fake.assert_no_errors()
