"""End-to-end: what play-test 44 (stop 60) left, fixed at stop 61 (docs/bot.md « Leftovers
of play-test 44 (stop 61) »): each test fails before its fix, in both languages where
words are involved."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from engine import GameEnd, Phase
from fakediscord import FakeDiscord, Message, TestUser
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    LOCALES,
    cid,
    create_table,
    host_against_three_bots,
    let_timers_play,
    message,
    play_until,
    round_one_played,
    three_at_classic,
    tick,
)
from .reading import well_written


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_lobby_stops_saying_too_few_are_left_once_a_bot_makes_the_count(
        fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str) -> None:
    """From the play-test: claire's leaving sent classic's table back to its lobby at two,
    « ⚠️ Il ne reste pas assez de monde à la table : retour au salon d’attente. »; marie
    added a bot, three with it, and the lobby still said too few were left, above « appuie
    sur **Lancer** ». The line now holds only while it is true: gone with the bot, back when
    the bot is removed."""
    players, table = await three_at_classic(fake, president, clock, locale)
    marie, _, claire = (p.user for p in players)
    await claire.slash("president leave")
    await claire.click(claire.last_ephemeral(), t(locale, "btn.quit_game"))
    await play_until(fake, clock, players[:2], lambda: fresh(table).game is None)
    await tick(fake, clock, 1)
    too_few = t(locale, "table.back_to_lobby")
    under = t(locale, "lobby.hint_min", min=3, addbot=t(locale, "btn.addbot"))

    def lobby() -> list[str]:
        return message(marie, table.lobby_message_id).content.split("\n")

    assert too_few in lobby() and under in lobby(), lobby()
    await marie.click(message(marie, table.lobby_message_id), cid(table, "addbot"))
    assert too_few not in lobby() and t(locale, "lobby.hint") in lobby(), lobby()
    well_written(message(marie, table.lobby_message_id), locale[:2])
    await marie.click(message(marie, table.lobby_message_id), cid(table, "removebot"))
    assert too_few in lobby() and under in lobby(), lobby()
    fake.assert_no_errors()


WHILE_SOMEONE_STAYS = {"fr": "te rend ta place, tant que quelqu’un reste à la table.",
                       "en": "gives you your seat back, as long as someone is still at the table."}


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_leaver_s_way_back_is_promised_only_while_someone_stays(
        fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str) -> None:
    """From the play-test: bob left round 2, told « `/president join` before the round ends
    gives you your seat back »; marie, the last one there, left next and the table closed at
    once, taking the promise. bob's prompt had been answered (« You left the table. ») and
    his hand closed: nothing of his was left to tell him, and a word sent unasked for a seat
    he gave up would be noise. So the promise now says what it holds on, « as long as
    someone is still at the table »; the table message says it closed, and his
    `/president join` afterwards that no table is there."""
    players, table = await three_at_classic(fake, president, clock, locale, bots=1)
    marie, bob, claire = (p.user for p in players)
    await claire.slash("president leave")
    await claire.click(claire.last_ephemeral(), t(locale, "btn.quit_game"))
    await bob.slash("president leave")
    asked = bob.last_ephemeral()
    assert asked.content.startswith(t(locale, "leave.confirm.round_lobby")), asked.content
    assert WHILE_SOMEONE_STAYS[locale[:2]] in asked.content, asked.content
    well_written(asked, locale[:2])
    await bob.click(asked, t(locale, "btn.quit_game"))
    shown = table.table_message_id
    await marie.slash("president leave")
    await marie.click(marie.last_ephemeral(), t(locale, "btn.quit_game"))
    await tick(fake, clock, 1)
    assert t(locale, "lobby.closed") in message(bob, shown).content.split("\n")
    await bob.slash("president join")
    assert bob.last_ephemeral().content.endswith(
        t(locale, "err.no_table")), bob.last_ephemeral().content
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_standings_of_a_game_stopped_mid_round_name_its_leavers_not_their_bots(
        fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str) -> None:
    """From the play-test: bob left round 2, then marie, and the table closed with
    « 2. **🤖 bob** · 1 pt » and « 3. **🤖 marie** · 0 pt »: the bots that were finishing
    their round, which counts for nobody, named for points bob and marie had won. They are
    now named themselves, marked as the seat lines mark one who left (« · a quitté la
    table »)."""
    players, table = await three_at_classic(fake, president, clock, locale, bots=1)
    game = await round_one_played(fake, clock, players, table)
    await tick(fake, clock, 1)
    marie = players[0].user
    await marie.click(message(marie, table.table_message_id), cid(table, "next", game.version))
    await tick(fake, clock, 1)
    shown = table.table_message_id  # round 2's message: round 1's keeps its results
    for player in [*players[1:], players[0]]:
        await player.user.slash("president leave")
        await player.user.click(player.user.last_ephemeral(), t(locale, "btn.quit_game"))
    await tick(fake, clock, 1)
    closing = message(marie, shown)
    lines = closing.content.split("\n")
    first = lines.index(t(locale, "table.standings")) + 1
    standings = lines[first:lines.index("", first)]
    assert len(standings) == 4, standings
    gone = t(locale, "table.seat_left")
    for user in (p.user for p in players):
        named = [line for line in standings if f"**{user.name}**" in line]
        assert len(named) == 1 and named[0].endswith(gone), standings
    assert "🤖 Bot 1" in "\n".join(standings)
    assert not any(f"🤖 {p.user.name}" in closing.content for p in players), closing.content
    well_written(closing, locale[:2])
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_start_without_a_seat_in_a_game_with_no_end_says_what_can_be_done(
        fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str) -> None:
    """From stop 60's leftovers: at a table whose game ends only when the host stops it,
    zoe, without a seat, typed `/president start` and read « Une partie est en cours à
    cette table ; attends qu’elle se termine. »: it never ends on its own. She now reads how
    it ends and what she can do: ask for a seat (« Rejoindre », named as the French table
    shows it, or the command as her client lists it); bob, who left his seat this round,
    that `/president join` before its end gives it back; zoe once waiting, that she is."""
    marie = fake.add_user("marie", locale="fr")
    bob, zoe = (fake.add_user(name, locale=locale) for name in ("bob", "zoe"))
    table = await create_table(president, marie)
    await president.service.set_rules(table, marie.id,
                                      table.rules.replace(game_end=GameEnd("unlimited")))
    lobby = message(marie, table.lobby_message_id)
    await bob.click(lobby, cid(table, "join"))
    for _ in range(2):
        await marie.click(lobby, cid(table, "addbot"))
    await marie.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    assert table.game is not None and table.rules.game_end.kind == "unlimited"
    end = t("fr", "btn.end_game")

    async def started(user: TestUser) -> Message:
        await user.slash("president start")
        said = user.last_ephemeral()
        assert t(locale, "err.game_running") not in said.content, said.content
        well_written(said, locale[:2])
        return said

    said = await started(zoe)
    assert said.content == "⚠️ " + t(locale, "err.start_unlimited", end=end,
                                      join=t("fr", "btn.join")), said.content
    await bob.slash("president leave")
    await bob.click(bob.last_ephemeral(), t(locale, "btn.quit_game"))
    assert table.left_seat(bob.id) is not None
    said = await started(bob)
    assert said.content == "⚠️ " + t(locale, "err.start_unlimited_back", end=end), said.content
    await zoe.slash("president join")
    said = await started(zoe)
    assert said.content == "⚠️ " + t(locale, "err.start_unlimited_waiting", end=end), \
        said.content
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_late_replay_where_no_game_could_be_shown_says_first_it_is_late(
        fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str) -> None:
    """From stop 59's review: « Rejouer » pressed again on the finished game's message, as a
    client still showed it, after marie's first press had dealt the next game, and once
    the bot could no longer send messages in the channel, answered « Il me manque la
    permission « Envoyer des messages » dans ce salon… rien n’a été ouvert ni lancé »: the
    button was late, which every other late host button says first, and the game it asked
    for had been dealt. It now says first that the button is late (the word that the table
    can no longer be posted follows, as before)."""
    marie = fake.add_user("marie", locale=locale)
    table = await host_against_three_bots(instant, marie, "rounds:1")
    game = table.game
    assert game is not None
    await let_timers_play(fake, clock, game, Phase.GAME_OVER)
    await tick(fake, clock, 1)
    results = message(marie, table.table_message_id)
    replay = cid(table, "replay", game.version)
    await marie.click(results, replay)
    assert table.game is not game and table.game is not None
    fake.set_bot_permissions(fake.channel, send_messages=False)
    before = {m.id for m in marie.visible()}
    await marie.click_shown(results, replay)
    # The answer, then the word owed to the host that the table can no longer be posted.
    said = [m.content for m in marie.visible() if m.ephemeral and m.id not in before]
    assert said[0] == "⚠️ " + t(locale, "err.stale_button"), said
    fake.assert_no_errors()
