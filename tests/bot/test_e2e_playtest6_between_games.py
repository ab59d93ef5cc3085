"""End-to-end: play-test 6, between games — a friend arriving while a finished game shows
its results, a waiting player who becomes the host, and the host's choice once a game is
over at a table of friends and bots."""

from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import button_names, t
from bot.tables.table import Table
from engine import Game, Phase
from fakediscord import FakeDiscord, TestUser
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    create_table,
    database_url,
    host_against_bots,
    host_against_three_bots,
    leave_game,
    message,
    play_until,
    table_of,
    tick,
    two_humans_against_a_bot,
)

LOCALES = ["fr", "en"]


def over(game: Game) -> bool:
    return game.phase is Phase.GAME_OVER


async def finished_game(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                        host: TestUser, bots: int, **rules: object) -> tuple[Table, Game]:
    """``host`` plays one round of classic against ``bots`` bots through to the game's
    end, its results shown."""
    marie = Player(host)
    table = await host_against_bots(bot, host, "classic", bots, game_end="rounds:1", **rules)
    await tick(fake, clock, 1)
    await marie.open_hand(bot)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [marie], lambda: over(game))
    await tick(fake, clock, 1)
    return table, game


async def ask_to_join(fake: FakeDiscord, clock: LinkedClock, table: Table,
                      user: TestUser) -> str:
    """``user`` clicks « Rejoindre » on the finished game's table message: their answer."""
    board = message(user, table.table_message_id)
    await user.click(board, t(table.locale, "btn.join"))  # the public message's language
    await tick(fake, clock, 1)
    return user.last_ephemeral().content


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_friend_arriving_at_game_over_is_seated_by_replay(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: sam arrived while marie's finished classic game showed its
    results; he could not get in until marie ended it, and « Rejouer » kept exactly the
    same players. He asks from the game's own message, the message names him as waiting
    and tells the host what « Rejouer » does for him, and « Rejouer » deals him in."""
    marie = fake.add_user("marie", locale=locale)
    sam = fake.add_user("sam", locale=locale)
    table, game = await finished_game(fake, clock, instant, marie, 2)
    assert await ask_to_join(fake, clock, table, sam) == t(locale, "lobby.queued_next_game", **button_names(locale))
    assert table.queued(sam.id) and table.seat_of(sam.id) is None
    shown = message(marie, table.table_message_id).content
    assert t(locale, "table.waiting_next", names="sam") in shown
    assert t(locale, "table.host_over_waiting", host="marie",
             max=table.rules.max_players) in shown
    await sam.slash("president hand")  # his hand says where he stands
    assert t(locale, "hand.queue_next_game", **button_names(locale)) in sam.last_ephemeral().content

    await marie.click(message(marie, table.table_message_id),
                      cid(table, "replay", game.version))
    replayed = table.game
    assert replayed is not None and replayed is not game and replayed.seats == 4
    assert replayed.version > game.version and 3 not in replayed.bots
    assert [p.name for p in table.seats][-1] == "sam" and table.queue == []
    await tick(fake, clock, 1)
    await Player(sam).open_hand(instant)
    assert t(locale, "hand.not_seated") not in sam.last_ephemeral().content
    assert sam.last_ephemeral().selects or sam.last_ephemeral().buttons
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_replay_seats_friends_before_the_host_bots_and_names_who_has_no_seat(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """With the rules' three seats taken by marie and her two bots, sam, zoé and tom ask
    for the next game: as in the lobby, friends come before the host's bots, so sam and
    zoé take their seats; tom, for whom there is none, is named in the new game's history
    with why, and stays on the list."""
    marie = fake.add_user("marie", locale=locale)
    friends = [fake.add_user(name, locale=locale) for name in ("sam", "zoé", "tom")]
    table, game = await finished_game(fake, clock, instant, marie, 2, max_players=3)
    for friend in friends:
        await ask_to_join(fake, clock, table, friend)
    await marie.slash("president replay")
    assert [p.name for p in table.seats] == ["marie", "sam", "zoé"]
    assert [p.name for p in table.queue] == ["tom"]
    replayed = table.game
    assert replayed is not None and replayed.seats == 3 and replayed.bots == set()
    await tick(fake, clock, 1)
    assert t(locale, "ev.no_seat_next", name="tom", max=3) in \
        message(marie, table.table_message_id).content
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_end_game_seats_those_waiting_in_the_lobby(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """« Terminer » takes the table back to its lobby with the friend who asked seated
    there, before the host's bots."""
    marie = fake.add_user("marie", locale=locale)
    sam = fake.add_user("sam", locale=locale)
    table, game = await finished_game(fake, clock, instant, marie, 2)
    await ask_to_join(fake, clock, table, sam)
    await marie.click(message(marie, table.table_message_id), cid(table, "end", game.version))
    assert table.game is None and table.queue == []
    assert table.seat_of(sam.id) is not None
    await tick(fake, clock, 1)
    assert "**sam**" in message(marie, table.lobby_message_id).content
    fake.assert_no_errors()


async def test_the_list_for_the_next_game_outlives_a_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """The bot restarting between sam's request and marie's « Rejouer » loses nothing: the
    restored table still names him, and the replay deals him in."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=0)
    marie = fake.add_user("marie", locale="fr")
    sam = fake.add_user("sam")
    table, game = await finished_game(fake, clock, bot, marie, 2)
    await ask_to_join(fake, clock, table, sam)
    await bot.service.drain()
    await fake.disconnect(bot)

    again = await connect_bot(fake, clock, url, bot_pause=0)
    restored = table_of(again, marie)
    await tick(fake, clock, 1)
    assert restored is not table and [p.user_id for p in restored.queue] == [sam.id]
    assert t("fr", "table.waiting_next", names="sam") in \
        message(marie, restored.table_message_id).content
    await marie.click(message(marie, restored.table_message_id),
                      cid(restored, "replay", game.version))
    assert restored.seat_of(sam.id) is not None and restored.queue == []
    await again.service.drain()
    await fake.disconnect(again)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_seated_player_who_becomes_host_is_told_in_their_hand(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: the new host learnt it from one history line that fast bots
    pushed out within seconds. Their hand says so until they act as host, the table
    message marks the host as the lobby does, and the round's end names who chooses."""
    marie, leo = (Player(fake.add_user(n, locale=locale)) for n in ("marie", "léo"))
    table = await create_table(instant, marie.user)
    await instant.service.set_rules(table, marie.user.id,
                                    table.rules.replace(game_end="rounds:2"))
    lobby = message(marie.user, table.lobby_message_id)
    await leo.user.click(lobby, cid(table, "join"))
    for _ in range(2):
        await marie.user.click(lobby, cid(table, "addbot"))
    await marie.user.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    await leo.open_hand(instant)
    game = table.game
    assert game is not None
    await leave_game(marie.user)
    await tick(fake, clock, 1)
    assert table.is_host(leo.user.id)
    assert leo.hand.content.startswith(t(locale, "hand.new_host"))
    board = message(leo.user, table.table_message_id).content
    assert "**léo** · " in board and t(locale, "table.host_mark") in board

    await play_until(fake, clock, [leo], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    assert t(locale, "table.host_next", host="léo") in \
        message(leo.user, table.table_message_id).content
    await leo.user.click(message(leo.user, table.table_message_id),
                         cid(table, "next", game.version))
    await tick(fake, clock, 1)
    assert t(locale, "hand.new_host") not in leo.hand.content  # he has acted as host
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_waiting_player_who_becomes_host_is_told_in_their_hand(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """léo waited at marie's proletario table of bots when she went home: the hand he
    opens says he is the host now, and the round's end names him as the one choosing."""
    marie = fake.add_user("marie", locale=locale)
    leo = fake.add_user("léo", locale=locale)
    table = await host_against_bots(president, marie, "proletario", 3)
    await leo.slash("president join")
    await leave_game(marie)
    assert table.is_host(leo.id)
    await leo.slash("president hand")
    assert leo.last_ephemeral().content.startswith(t(locale, "hand.new_host"))
    game = table.game
    assert game is not None
    for _ in range(600):
        if game.phase is Phase.ROUND_OVER:
            break
        await tick(fake, clock, 5)
    await tick(fake, clock, 1)
    assert t(locale, "table.host_next", host="léo") in \
        message(leo, table.table_message_id).content
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_host_told_of_a_missing_permission_reads_it_as_a_warning(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """« Je n’arrive plus à publier la table » was the one refusal-like message without
    « ⚠️ », though it says the table shows nothing of what the host just did, as the
    missing permission refuses /president create: it leads with it like the others."""
    marie = fake.add_user("marie", locale=locale)
    table = await host_against_three_bots(instant, marie, "rounds:2")
    await tick(fake, clock, 1)
    board = message(marie, table.table_message_id)
    fake.set_bot_permissions(fake.channel, view_channel=False)
    await tick(fake, clock, 1)
    await marie.click(board, cid(table, "hand"))
    permission = t(locale, "perm.view_channel")
    assert marie.last_ephemeral().content == "⚠️ " + t(locale, "err.cannot_post",
                                                        permission=permission)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_player_leaving_a_finished_game_leaves_the_others_their_replay(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """léo going home with /president leave once the game was over sent marie and
    her two bots back to the lobby: « Rejouer » was gone. Only his seat goes; the results
    stay shown, and « Rejouer » deals marie, her bots and sam (who asked) without it."""
    marie, leo = (Player(fake.add_user(n, locale=locale)) for n in ("marie", "léo"))
    sam = fake.add_user("sam", locale=locale)
    table, game = await two_humans_against_a_bot(fake, clock, instant, marie, leo, bots=2,
                                                 game_end="rounds:1")
    await play_until(fake, clock, [marie, leo], lambda: over(game))
    await tick(fake, clock, 1)
    await ask_to_join(fake, clock, table, sam)
    await leo.user.slash("president leave")
    await tick(fake, clock, 1)
    assert table.game is game and over(game) and table.notice is None
    assert table.seat_of(leo.user.id) is None and table.queued(sam.id)
    shown = message(marie.user, table.table_message_id).content
    assert t(locale, "table.host_over_waiting", host="marie",
             max=table.rules.max_players) in shown
    await marie.user.click(message(marie.user, table.table_message_id),
                           cid(table, "replay", game.version))
    replayed = fresh(table).game
    assert replayed is not None and replayed is not game and replayed.seats == 4
    assert [p.name for p in table.seats][-1] == "sam" and table.queue == []
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_too_few_left_after_a_finished_game_takes_the_table_to_its_lobby(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """With léo gone, marie and her one bot are two, and classic needs three: no game to
    replay, so the table goes to its lobby, saying the game is over (not « too few
    players », as it ended with its results)."""
    marie, leo = (Player(fake.add_user(n, locale=locale)) for n in ("marie", "léo"))
    table, game = await two_humans_against_a_bot(fake, clock, instant, marie, leo,
                                                 game_end="rounds:1")
    await play_until(fake, clock, [marie, leo], lambda: over(game))
    await tick(fake, clock, 1)
    await leo.user.slash("president leave")
    await tick(fake, clock, 1)
    assert table.game is None and [p.name for p in table.seats] == ["marie", "Bot 1"]
    shown = message(marie.user, table.lobby_message_id).content
    assert t(locale, "table.finished") in shown
    assert t(locale, "table.back_to_lobby") not in shown
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_friend_arriving_mid_game_gets_on_the_list_for_the_next_one(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """sam, arriving mid-game at a table without a queue, was told to come back at its
    end. He is put on the list for the next game at once, and told that « Rejouer » or
    « Terminer » seats him then; the round's end does not (such a table seats nobody
    between rounds), « Rejouer » does."""
    marie = Player(fake.add_user("marie", locale=locale))
    sam = fake.add_user("sam", locale=locale)
    table = await host_against_bots(instant, marie.user, "classic", 2, game_end="rounds:2")
    await tick(fake, clock, 1)
    await sam.slash("president join")
    assert sam.last_ephemeral().content == t(locale, "lobby.listed_next_game", **button_names(locale))
    assert table.queued(sam.id) and table.seat_of(sam.id) is None
    await sam.slash("president hand")
    assert t(locale, "hand.queue_next_game", **button_names(locale)) in sam.last_ephemeral().content
    await sam.slash("president join")
    assert sam.last_ephemeral().content == "⚠️ " + t(locale, "err.already_listed")
    await marie.open_hand(instant)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [marie], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    await marie.user.click(message(marie.user, table.table_message_id),
                           cid(table, "next", game.version))
    assert table.seat_of(sam.id) is None and [p.user_id for p in table.queue] == [sam.id]
    await play_until(fake, clock, [marie], lambda: over(game))
    await tick(fake, clock, 1)
    await marie.user.click(message(marie.user, table.table_message_id),
                           cid(table, "replay", game.version))
    assert table.seat_of(sam.id) is not None and table.queue == []
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_friend_arriving_at_a_full_lobby_others_wait_at_joins_the_list(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """After « Terminer », ada, left on the list by a full table, kept waiting, but zoé
    arriving then was refused. She joins the list behind ada and is told she takes a seat
    in her turn; the host opening two more seats seats them both, in order."""
    marie = fake.add_user("marie", locale=locale)
    friends = [fake.add_user(n, locale=locale) for n in ("sam", "tom", "ada")]
    zoe = fake.add_user("zoé", locale=locale)
    table, game = await finished_game(fake, clock, instant, marie, 2, max_players=3)
    for friend in friends:
        await ask_to_join(fake, clock, table, friend)
    await marie.click(message(marie, table.table_message_id), cid(table, "end", game.version))
    assert table.game is None and [p.name for p in table.queue] == ["ada"]
    await zoe.slash("president join")
    assert zoe.last_ephemeral().content == t(locale, "lobby.listed_full")
    assert [p.name for p in table.queue] == ["ada", "zoé"]
    await instant.service.set_rules(table, marie.id, table.rules.replace(max_players=4))
    assert [p.name for p in table.seats][-1] == "ada" and [p.name for p in table.queue] == ["zoé"]
    await instant.service.set_rules(table, marie.id, table.rules.replace(max_players=5))
    assert [p.name for p in table.seats][-2:] == ["ada", "zoé"] and table.queue == []
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_friend_watching_a_game_asks_for_a_seat_from_the_table_message(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """Mid-game, the only way onto the list for the next game was `/president join`: the
    table message offered « Rejoindre » only once the game was over. It now offers it
    throughout, with the command's answers: listed once, then refused as already listed;
    a seated player is told they already have a seat."""
    marie = Player(fake.add_user("marie", locale=locale))
    sam = fake.add_user("sam", locale=locale)
    table = await host_against_bots(instant, marie.user, "classic", 2, game_end="rounds:2")
    await tick(fake, clock, 1)
    board = message(sam, table.table_message_id)
    await sam.click(board, cid(table, "join"))
    assert sam.last_ephemeral().content == t(locale, "lobby.listed_next_game", **button_names(locale))
    assert table.queued(sam.id) and table.seat_of(sam.id) is None
    await sam.click(board, cid(table, "join"))
    assert sam.last_ephemeral().content == "⚠️ " + t(locale, "err.already_listed")
    await marie.user.click(board, cid(table, "join"))
    assert marie.user.last_ephemeral().content == "⚠️ " + t(locale, "err.already_seated")
    assert [p.user_id for p in table.queue] == [sam.id]
    fake.assert_no_errors()
