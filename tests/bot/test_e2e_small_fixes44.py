"""End-to-end: small fixes after play-tests 17 and 18 (docs/bot.md, « Small fixes (stop
44) »), in French and in English: a skipped player's hand says why their turn was skipped;
`/president addbot` during a game with no end but the host's says what can be done; a table
closed right after « Terminer » keeps the finished game's results."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.i18n.typography import french
from bot.tables.table import Table
from engine import GameEnd, Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import Player, cid, create_table, deal, host_against_bots, message, play_until, tick

LOCALES = ["fr", "en-US"]


async def skipped_by_an_equal(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                              locale: str, preset: str, hands: list[list[str]],
                              ) -> tuple[Player, Table]:
    """marie (in ``locale``) against two bots at ``preset``, dealt ``hands``, the first bot
    opening: the second answers its card with an equal one, which skips her turn."""
    marie = Player(fake.add_user("marie", locale=locale))
    table = await host_against_bots(bot, marie.user, preset, 2)
    await tick(fake, clock, 1)
    game = deal(bot, table, hands, opener=1)
    await marie.open_hand(bot)
    for _ in range(10):
        if 0 in table.skipped:
            break
        await tick(fake, clock, 1)
    assert game.to_act == 1 and game.trick and 0 in table.skipped
    await tick(fake, clock, 1)  # (the hand's coalesced redraw)
    return marie, table


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_player_skipped_by_an_equal_at_presi_is_told_so_in_their_hand(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-tests: at presi, « Bot 2 » answered Bot 1's 4 with a 4; marie's turn was
    skipped, which only the history said (« égalité : tour sauté pour marie ») as her hand
    read « Ce n’est pas ton tour : c’est à Bot 1 de jouer ». Her hand says it, above whose
    turn it is, until her turn comes round (or the trick closes)."""
    marie, table = await skipped_by_an_equal(
        fake, clock, president, locale, "presi",
        # Five cards each: at four or fewer the normal bots search their end (stop 52).
        [["3O", "KC", "AB"], ["4O", "5O", "6O", "7O", "8O"], ["4C", "NC", "NE", "7C", "8C"]])
    told = t(locale, "hand.skipped.skip_next", name="🤖 Bot 2")
    lines = marie.hand.content.split("\n")
    assert told in lines  # above whose turn it is now
    assert lines[lines.index(told) + 1] in (t(locale, "hand.waiting", name=bot)
                                            for bot in ("🤖 Bot 1", "🤖 Bot 2"))
    if locale == "fr":
        assert french("⏭️ Ton tour a été sauté : **🤖 Bot 2** a répondu par une égalité, qui "
                      "fait sauter le tour suivant.") in lines
    else:
        assert "⏭️ Your turn was skipped: **🤖 Bot 2** gave an equal answer, which skips the " \
               "next player." in lines
    game = table.game
    assert game is not None
    for _ in range(10):  # Bot 1, then Bot 2, then marie again (or the trick closed)
        if game.to_act == 0 or not game.trick:
            break
        await tick(fake, clock, 1)
    await tick(fake, clock, 1)
    assert not table.skipped
    assert told not in marie.hand.content
    fake.assert_no_errors()


async def test_a_player_skipped_by_ta_gueule_is_told_so_and_the_snapshot_keeps_it(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """Classic's « ta gueule »: marie holds no 4 after two 4s. Her hand names the rule as
    the history does. The line is the table's (`Table.skipped`), in its snapshot, so a
    restarted bot still says it; a snapshot without one stores none."""
    marie, table = await skipped_by_an_equal(
        fake, clock, president, "fr", "classic",
        [["3H", "KC", "AS"], ["4H", "5H", "6H"], ["4C", "JC", "JD"]])
    line = french("⏭️ Ton tour a été sauté : **🤖 Bot 2** a répondu par une égalité et tu n’as "
                  "pas cette valeur (« ta gueule »).")
    assert line in marie.hand.content.split("\n")
    restored = Table.from_dict(table.to_dict())
    assert restored.skipped == table.skipped
    assert "skipped" not in Table.from_dict({**table.to_dict(), "skipped": {}}).to_dict()
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_adding_a_bot_during_proletario_says_how_its_seats_fill(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-tests: during a proletario game, `/president addbot` answered « Une
    partie est en cours à cette table ; attends qu’elle se termine. », advice a game that
    ends only when the host stops it does not let anyone follow. It says how the game ends
    (« Terminer », between rounds), and that bots already hold every seat without a person
    and give theirs up to the queue (RULES §10)."""
    marie = fake.add_user("marie", locale=locale)
    table = await host_against_bots(president, marie, "proletario", 0)
    await tick(fake, clock, 1)
    assert table.game is not None and table.rules.game_end.kind == "unlimited"
    await marie.slash("president addbot")
    said = marie.last_ephemeral().content
    assert said == "⚠️ " + t(locale, "err.game_running_unlimited_bots",
                     end=t(table.locale, "btn.end_game"))
    assert t(locale, "err.game_running") not in said
    if locale == "fr":
        assert said == "⚠️ " + french(
            "Cette partie n’a pas de fin fixée : elle dure jusqu’à ce que l’hôte l’arrête "
            "avec **Terminer**, entre deux manches. D’ici là, les bots tiennent déjà chaque "
            "place sans humain, et à la fin de chaque manche ils cèdent la leur au prochain "
            "de la file.")
    else:
        assert said == "⚠️ " + (
            "This game has no set end: it lasts until the host stops it with **End game**, "
            "between rounds. Until then, bots already hold every seat without a person, and "
            "at the end of each round they give theirs up to the next in the queue.")
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_adding_a_bot_during_an_unlimited_classic_game_says_when_bots_are_added(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """The same at any table whose game ends only by the host's choice (`game_end:
    unlimited`): without bots filling its seats, they are added in the lobby once the host
    has stopped the game. (A game with an end keeps « attends qu’elle se termine »:
    tests/bot/test_e2e_refusal_matrix.py.)"""
    marie = fake.add_user("marie", locale=locale)
    table = await host_against_bots(president, marie, "classic", 2,
                                    game_end=GameEnd("unlimited"))
    await tick(fake, clock, 1)
    await marie.slash("president addbot")
    said = marie.last_ephemeral().content
    assert said == "⚠️ " + t(locale, "err.game_running_unlimited", end=t(table.locale, "btn.end_game"))
    if locale == "fr":
        assert said == "⚠️ " + french(
            "Cette partie n’a pas de fin fixée : elle dure jusqu’à ce que l’hôte l’arrête "
            "avec **Terminer**, entre deux manches. Les bots s’ajoutent et se retirent "
            "ensuite, au salon d’attente.")
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_closing_the_table_right_after_the_games_end_keeps_its_results(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: the host pressed **Terminer** at the end of the game and closed
    the table with `/president terminer` within the second. The closing wrote its text over
    the finished game's results, whose message the lobby's redraw had not yet retired: the
    standings were gone from the channel. The closing retires that message as the redraw
    would, its text kept, ending on « Cette table est fermée. »."""
    marie = Player(fake.add_user("marie", locale=locale))
    table = await create_table(president, marie.user)
    await president.service.set_rules(table, marie.user.id,
                                      table.rules.replace(game_end=GameEnd("rounds", 1)))
    lobby = message(marie.user, table.lobby_message_id)
    for _ in range(2):
        await marie.user.click(lobby, cid(table, "addbot"))
    await marie.user.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    await marie.open_hand(president)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [marie], lambda: game.phase is Phase.GAME_OVER)
    results_id = table.table_message_id
    end = cid(table, "end", game.version)
    # Where a bot makes the game's last move, the results are drawn within the second
    # after it (marie's own last move is drawn at once): wait for them, a quarter second
    # at a time, so the click below comes within the second of their drawing either way.
    for _ in range(8):
        if end in [b.custom_id for b in message(marie.user, results_id).buttons]:
            break
        await tick(fake, clock, 0.25)
    # The results were drawn less than a second ago: the lobby's redraw that « Terminer »
    # asks for waits for the rest of that second, and the closing comes first.
    standings = t(table.locale, "table.standings")
    await marie.user.click(message(marie.user, results_id), end)
    await marie.user.slash("president end")  # within the second: no redraw in between
    assert marie.user.last_ephemeral().content == t(locale, "lobby.ended")
    await tick(fake, clock, 1)
    kept = message(marie.user, results_id)
    assert not kept.buttons
    lines = kept.content.split("\n")
    assert standings in lines
    assert lines[-1] == t(table.locale, "lobby.closed")
    assert any(line.startswith("🏆") for line in lines)  # who won, above the standings
    fake.assert_no_errors()
