"""End-to-end, play-test 30: the onlookers and the latecomer. A game under way in a busy
channel; a friend who has no seat watches it from the public table message alone, and
clicks its buttons; a latecomer asks for a seat; another friend comes to watch the last
round only. Each speaks a language other than the table's: every private answer must be in
theirs (docs/bot.md, « Play-test 30 »)."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.i18n import button_names, plural, t
from bot.packages.controls import WARNING
from bot.tables import turnover
from bot.tables.hosting import HOST_IDLE_SECONDS
from engine import Phase
from fakediscord import FakeDiscord
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    host_against_bots,
    message,
    play_until,
    tick,
    two_humans_against_a_bot,
)

#: (the table's language, the onlooker's): each reads the other's.
PAIRS = [("fr", "en-US"), ("en-US", "fr")]


def first_line(text: str) -> str:
    return text.split("\n")[0]


@pytest.mark.parametrize(("locale", "theirs"), PAIRS)
async def test_a_friend_come_for_the_last_round_reads_that_it_is_the_last(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str, theirs: str
) -> None:
    """From the play-test: zoé came to watch « the last round » of a game of three. The
    table message read « 🃏 Manche 2 · Président classique » and nothing said how many
    rounds the game had: the lobby's rules line had scrolled away with it. The title says
    « sur 3 », and « la dernière » at the last."""
    marie = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob", locale=locale))
    zoe = fake.add_user("zoé", locale=theirs)
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob,
                                                 game_end="rounds:2")
    await tick(fake, clock, 1)
    preset = t(locale, "preset.classic")
    board = message(zoe, table.table_message_id).content
    assert first_line(board) == t(locale, "table.title_of", round=1, rounds=2, preset=preset)
    assert first_line(board).startswith("🃏 **Manche 1** sur 2 · " if locale == "fr"
                                        else "🃏 **Round 1** of 2 · ")
    await play_until(fake, clock, [marie, bob], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    await marie.user.click(message(marie.user, table.table_message_id),
                           cid(table, "next", game.version))
    await tick(fake, clock, 1)
    last = t(locale, "table.title_last", round=2, rounds=2, preset=preset)
    assert first_line(message(zoe, table.table_message_id).content) == last
    assert ", la dernière · " in last if locale == "fr" else ", the last · " in last
    await play_until(fake, clock, [marie, bob], lambda: game.phase is Phase.GAME_OVER)
    await tick(fake, clock, 1)
    assert first_line(message(zoe, table.table_message_id).content) == last
    fake.assert_no_errors()


@pytest.mark.parametrize(("locale", "theirs"), PAIRS)
async def test_an_onlooker_reads_the_target_of_a_game_to_points_and_none_without_end(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str, theirs: str
) -> None:
    """A presi game plays to 11 points: its title says so, where the seats' points are read
    against it. A wild7 game its host set to no end: its title is the round's and the preset's."""
    marie = fake.add_user("marie", locale=locale)
    zoe = fake.add_user("zoé", locale=theirs)
    presi = await host_against_bots(president, marie, "presi", 2)
    await tick(fake, clock, 1)
    target = plural(locale, "game_end.target", 11)
    assert first_line(message(zoe, presi.table_message_id).content) == t(
        locale, "table.title_target", round=1, preset=t(locale, "preset.presi"), target=target)
    assert target == ("11 points à atteindre" if locale == "fr" else "first to 11 points")

    alice = fake.add_user("alice", locale=locale)
    alice.channel = fake.add_channel(fake.guild, "wild")
    await fake.settle()
    wild = await host_against_bots(president, alice, "wild7", 2, game_end="unlimited")
    await tick(fake, clock, 1)
    assert first_line(message(alice, wild.table_message_id).content) == t(
        locale, "table.title", round=1, preset=t(locale, "preset.wild7"))
    fake.assert_no_errors()


@pytest.mark.parametrize(("locale", "theirs"), PAIRS)
async def test_an_onlooker_pressing_next_for_a_silent_host_is_told_a_seat_is_needed(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str, theirs: str
) -> None:
    """From the play-test: the round was over, marie (the host) had gone to the kitchen,
    and the table read « L’hôte ne répond pas : n’importe qui à la table peut choisir à sa
    place. » carol, watching, pressed « Manche suivante » and read « Only the host can do
    that »: what the table had just offered her. She is told, in her language, that a seat
    is what it takes; the table's French says « ayant une place », as its English said
    « seated »; nothing changes. bob, seated, then deals as the table said."""
    marie = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob", locale=locale))
    carol = fake.add_user("carol", locale=theirs)
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob)
    await play_until(fake, clock, [marie, bob], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    board = message(carol, table.table_message_id)
    await carol.click(board, cid(table, "next", game.version))  # the host not silent yet
    assert carol.last_ephemeral().content == WARNING + t(theirs, "err.not_host",
                                                         host=marie.user.id)
    await tick(fake, clock, HOST_IDLE_SECONDS + 1)
    board = message(carol, table.table_message_id)
    assert t(locale, "table.host_quiet") in board.content
    assert ("ayant une place" if locale == "fr" else "anyone seated") in \
        t(locale, "table.host_quiet")
    version = game.version

    for action in ("next", "end"):
        await carol.click(board, cid(table, action, version))
        answer = carol.last_ephemeral()
        assert answer.ephemeral
        assert answer.content == WARNING + t(theirs, "err.not_host_unseated",
                                             host=marie.user.id)
    await carol.slash("president end")
    assert carol.last_ephemeral().content == WARNING + t(theirs, "err.not_host_unseated",
                                                         host=marie.user.id)
    assert fresh(game).phase is Phase.ROUND_OVER and game.version == version
    assert table.host_id == marie.user.id

    await bob.user.click(message(bob.user, table.table_message_id), cid(table, "next", version))
    await tick(fake, clock, 1)
    assert table.host_id == bob.user.id and fresh(game).round_no == 2
    fake.assert_no_errors()


@pytest.mark.parametrize(("locale", "theirs"), PAIRS)
async def test_an_onlookers_hand_button_names_the_join_button_under_the_table(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str, theirs: str
) -> None:
    """From the play-test: dave, a latecomer, pressed « Ma main » on the table and read
    « To play, use `/president join` », a command to type, while the table's own
    « Rejoindre » sat beside the button he had pressed. The answer names that button, as
    the table writes it, and the command in his language; the button does what it says."""
    marie = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob", locale=locale))
    dave = fake.add_user("dave", locale=theirs)
    table, _ = await two_humans_against_a_bot(fake, clock, president, marie, bob)
    await tick(fake, clock, 1)
    board = message(dave, table.table_message_id)
    await dave.click(board, cid(table, "hand"))
    said = dave.last_ephemeral().content.split("\n")
    join = t(locale, "btn.join")
    assert said == [t(theirs, "hand.not_seated"),
                    t(theirs, "hand.join_later", **button_names(locale))]
    assert f"**{join}**" in said[1] and join in [b.label for b in board.buttons]
    assert ("`/president rejoindre`" if theirs == "fr" else "`/president join`") in said[1]
    await dave.click(board, cid(table, "join"))
    assert dave.last_ephemeral().content == t(theirs, "lobby.listed_next_game",
                                              **button_names(locale))
    assert table.queued(dave.id)
    fake.assert_no_errors()


@pytest.mark.parametrize(("locale", "theirs"), PAIRS)
async def test_a_latecomer_to_proletarios_last_round_is_listed_for_the_next_game(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str, theirs: str
) -> None:
    """From the play-test: dave came to proletario's last round (the second of two) and
    pressed « Rejoindre »: « The table is full: you are in the queue and take a seat between
    rounds », the table « En attente de la prochaine manche : dave », his hand « Between
    rounds, the queue takes the bots' seats first ». No round followed: the game ended,
    and only « Rejouer » seated him. He is told so from the start, in his language, and the
    table and his hand say the next game; « Rejouer » seats him, as it did."""
    marie = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob", locale=locale))
    dave = fake.add_user("dave", locale=theirs)
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob,
                                                 "proletario", bots=2, game_end="rounds:2")
    await play_until(fake, clock, [marie, bob], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    await marie.user.click(message(marie.user, table.table_message_id),
                           cid(table, "next", game.version))
    await play_until(fake, clock, [marie, bob], lambda: fresh(game).phase is Phase.PLAY)
    await tick(fake, clock, 1)
    assert fresh(game).round_no == 2 and turnover.last_round(table)

    board = message(dave, table.table_message_id)
    await dave.click(board, cid(table, "join"))
    assert dave.last_ephemeral().content == t(theirs, "lobby.listed_last_round",
                                              **button_names(locale))
    await tick(fake, clock, 1)
    shown = message(dave, table.table_message_id).content
    assert t(locale, "table.waiting_next", names="dave") in shown
    assert t(locale, "table.waiting_round", names="dave") not in shown
    await dave.click(board, cid(table, "hand"))
    assert dave.last_ephemeral().content.split("\n") == [
        t(theirs, "hand.listed.first"), t(theirs, "hand.queue_next_game", **button_names(locale))]
    await dave.click(board, cid(table, "join"))
    assert dave.last_ephemeral().content == WARNING + t(theirs, "err.already_listed")

    await play_until(fake, clock, [marie, bob], lambda: fresh(game).phase is Phase.GAME_OVER)
    await tick(fake, clock, 1)
    assert not turnover.last_round(fresh(table))
    await marie.user.click(message(marie.user, table.table_message_id),
                           cid(table, "replay", game.version))
    await tick(fake, clock, 1)
    assert table.seat_of(dave.id) is not None
    fake.assert_no_errors()


@pytest.mark.parametrize(("locale", "theirs"), PAIRS)
async def test_a_latecomer_to_proletarios_first_round_of_two_still_queues_for_the_next(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str, theirs: str
) -> None:
    """The round before the last keeps the queue: dave is seated at the next deal."""
    marie = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob", locale=locale))
    dave = fake.add_user("dave", locale=theirs)
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob,
                                                 "proletario", bots=2, game_end="rounds:2")
    await tick(fake, clock, 1)
    assert not turnover.last_round(table)
    await dave.click(message(dave, table.table_message_id), cid(table, "join"))
    assert dave.last_ephemeral().content == t(theirs, "lobby.queued")
    await tick(fake, clock, 1)
    assert t(locale, "table.waiting_round", names="dave") in \
        message(dave, table.table_message_id).content
    await play_until(fake, clock, [marie, bob], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    await marie.user.click(message(marie.user, table.table_message_id),
                           cid(table, "next", game.version))
    await tick(fake, clock, 1)
    assert fresh(game).round_no == 2 and table.seat_of(dave.id) is not None
    fake.assert_no_errors()
