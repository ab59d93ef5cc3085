"""End-to-end: play-test 26 (stop 48), the regulars: a server's friends playing evening
after evening, and what `/president stats`, `leaderboard` and `history` tell them. Each test
is a thing a regular would call wrong, as they met it."""

import re
from pathlib import Path

import pytest

from bot.i18n import t
from bot.packages.game.chart import points_chart
from bot.storage import SeatRef
from engine import Phase
from fakediscord import FakeDiscord, Message, TestUser
from fakediscord.forge import MANAGE_GUILD, Forger
from fakediscord.limits import BUTTON
from fakediscord.state import APPLICATION_COMMAND, MESSAGE_COMPONENT

from .conftest import LinkedClock
from .e2e import (
    Player,
    alice_and_bob_stored,
    cid,
    connect_bot,
    database_url,
    host_against_bots,
    humans_only,
    leave_game,
    message,
    play_every_round,
    play_until,
    record_charts,
    restart,
    table_of,
    tick,
)


async def rating_line(player: Player) -> str:
    """The preset line of the player's /president stats: « **Classic Président** · rating
    1062 (1 round counted) · 1 round »."""
    await player.user.slash("president stats")
    return player.user.last_ephemeral().text.split("\n")[2]


def rating_of(line: str) -> int:
    found = re.search(r"rating (\d+)", line)
    assert found is not None, line
    return int(found[1])


async def test_leaving_a_round_one_is_losing_does_not_keep_a_rating_safe(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """alice and bob, with a bot, three rounds of classic. In the second, bob leaves at
    once, a bot finishing his round. His rating stayed as it was, the round missing from
    his stats as if he had not sat down, and alice, the only human left, got nothing for
    it either: « rating 1062 (1 round counted) · 2 rounds ». He is now rated as finishing
    the round behind her, the round counted for both, and his rating chart ends where his
    stats stand, a restart while the bot played his round out notwithstanding. The question
    before he leaves says so."""
    drawn = record_charts(monkeypatch)
    bot, alice, bob, table, game = await alice_and_bob_stored(fake, clock, tmp_path,
                                                              "rounds:3")
    await play_until(fake, clock, [alice, bob], lambda: game.phase is Phase.ROUND_OVER)
    await bot.service.drain()
    alice_before, bob_before = rating_of(await rating_line(alice)), \
        rating_of(await rating_line(bob))
    await tick(fake, clock, 1)
    await alice.user.click(message(alice.user, table.table_message_id),
                           cid(table, "next", game.version))
    await tick(fake, clock, 1)

    await bob.user.slash("president leave")  # he is told before he confirms
    assert bob.user.last_ephemeral().text.endswith(
        " gives you your seat back, as long as someone is still at the table. For your rating, this round counts as finished behind "
        "every human who stays at the table.")
    await leave_game(bob.user)
    # A redeploy while the bot plays his round out: the restored seat is still his to leave.
    bot = await restart(fake, clock, bot, database_url(tmp_path))
    restored = table_of(bot, alice.user).game
    assert restored is not None
    await alice.open_hand(bot)
    await play_until(fake, clock, [alice],
                     lambda: restored.phase in (Phase.ROUND_OVER, Phase.GAME_OVER))
    await bot.service.drain()

    alice_line, bob_line = await rating_line(alice), await rating_line(bob)
    assert alice_line.endswith(" (2 rounds counted) · 2 rounds"), alice_line
    assert bob_line.endswith(" (2 rounds counted) · 2 rounds"), bob_line
    assert rating_of(alice_line) > alice_before and rating_of(bob_line) < bob_before
    drawn.clear()
    await bob.user.slash("president stats")
    assert [chart.series for chart in drawn] == [((bob_before, rating_of(bob_line)),)]
    footer = bob.user.last_ephemeral().embeds[0].footer  # what a rating is
    assert footer is not None and footer.endswith(
        "; leaving a round counts as finishing it behind those who stay, but a round the "
        "host or a moderator removes someone from does not count for them.")
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_player_who_leaves_once_out_of_cards_keeps_the_place_they_won(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    """The first of alice and bob out of cards leaves while the other and the bot play the
    round out: nothing was left to a bot, their place was won. They were rated behind the
    one still playing, who finished after them, as if they had fled the round, and told
    so as they left. The round is theirs as played, a restart while it ends
    notwithstanding: rated at their place, their role in their stats, their points on
    their line of the game's chart."""
    bot, alice, bob, table, game = await alice_and_bob_stored(fake, clock, tmp_path,
                                                              "rounds:3")
    seated = {alice: table.seat_of(alice.user.id), bob: table.seat_of(bob.user.id)}
    seat = {player: at for player, at in seated.items() if at is not None}
    assert len(seat) == 2

    def one_out() -> bool:
        return game.phase is Phase.PLAY and any(seat[p] in game.out for p in (alice, bob))

    while True:  # the round where a human goes out first, the bot still playing
        await play_until(fake, clock, [alice, bob],
                         lambda: one_out() or game.phase is not Phase.PLAY)
        if one_out():
            break
        assert game.phase is Phase.ROUND_OVER
        await tick(fake, clock, 1)
        await alice.user.click(message(alice.user, table.table_message_id),
                               cid(table, "next", game.version))
        await tick(fake, clock, 1)
    out, other = (alice, bob) if seat[alice] in game.out else (bob, alice)
    await bot.service.drain()
    out_before, other_before = rating_of(await rating_line(out)), \
        rating_of(await rating_line(other))
    storage = bot.storage
    assert storage is not None
    held_before = await storage.player_stats(fake.guild.id, out.user.id)

    await out.user.slash("president leave")
    assert out.user.last_ephemeral().text == t("en", "leave.confirm.round_lobby_out") + " " + \
        t("en", "leave.host", name="bob")  # the host: the role goes (play-test 45)
    await leave_game(out.user)
    # A redeploy while the round is played out: the seat is still theirs as played.
    bot = await restart(fake, clock, bot, database_url(tmp_path))
    storage = bot.storage
    assert storage is not None
    restored = table_of(bot, other.user).game
    assert restored is not None
    await other.open_hand(bot)
    await play_until(fake, clock, [other], lambda: restored.phase is not Phase.PLAY)
    await bot.service.drain()
    # The game's chart draws their points on their own line, as a past game's does.
    shown = points_chart(table_of(bot, other.user), "en")
    assert shown is not None and shown.names == ("alice", "bob", "Bot 1 (normal)"), shown

    out_line, other_line = await rating_line(out), await rating_line(other)
    assert rating_of(out_line) > out_before and rating_of(other_line) < other_before, \
        (out_line, other_line)
    role = restored.roles[seat[out]]  # the one they won this round
    assert role is not None
    stats = await storage.player_stats(fake.guild.id, out.user.id)
    assert stats.times(role) == held_before.times(role) + 1
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_player_alone_with_bots_is_not_told_of_a_rating_when_leaving(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    """With no other human at the table the round rates nobody: the question before
    leaving says nothing of a rating, in French as in English."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    await host_against_bots(bot, marie, "classic", 3)
    await tick(fake, clock, 1)
    await marie.slash("president leave")
    # Alone with bots, leaving closes the table (play-test 44): it says so, not that a bot
    # finishes the round and the game goes on without her.
    assert marie.last_ephemeral().text == t("fr", "leave.confirm.close")
    await fake.disconnect(bot)
    fake.assert_no_errors()


def counts(stats: str) -> tuple[int, int, int]:
    """(games, wins, rounds) of a /president stats answer, in English."""
    found = re.search(r"(\d+) games? · (\d+) wins? · (\d+) rounds?", stats)
    assert found is not None, stats
    return int(found[1]), int(found[2]), int(found[3])


async def test_a_season_at_every_preset_on_two_servers_adds_up(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three regulars, evening after evening: a game at each preset on « Home » (the first
    replayed), two on « Away » (all three are members of both), the bot restarting between
    two games and in the middle of one, bea renaming herself. Their stats count every game, win and round the
    tables announced, once, on each server apart; the leaderboard lists the ratings the
    stats show, best first; each channel's history numbers its games; ann's erasure leaves
    the others' totals whole; « Away »'s erasure leaves « Home » whole."""
    record_charts(monkeypatch)
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    away = fake.add_guild("Away")
    cards = fake.add_channel(away, "cards")
    users = [fake.add_user(name, guilds=[fake.guild, away]) for name in ("ann", "bea", "cy")]
    expected: dict[tuple[int, int], list[int]] = {}  # (server, user): games, wins, rounds
    evenings = [(fake.guild.id, fake.channel, preset)
                for preset in ("classic", "presi", "proletario", "wild7")]
    evenings[2:2] = [(away.id, cards, "classic"), (away.id, cards, "wild7")]
    for evening, (server, channel, preset) in enumerate(evenings):
        for user in users:
            user.channel = channel
        if evening == 2:
            users[1].user.name = "bea ✨"
        table, players = await humans_only(fake, clock, bot, users, preset,
                                           game_end="rounds:1")
        if evening == 3:  # a redeploy in the middle of the first round
            for player in players:
                await player.act()
            bot = await restart(fake, clock, bot, url)
            table = table_of(bot, users[0])
            for player in players:
                await player.open_hand(bot)
        for game_of_the_evening in range(2 if evening == 0 else 1):
            if game_of_the_evening:  # « Rejouer »: the same rules again
                over = table.game
                assert over is not None
                await tick(fake, clock, 1)
                await users[0].click(message(users[0], table.table_message_id),
                                     cid(table, "replay", over.version))
                await tick(fake, clock, 1)
                for player in players:
                    await player.open_hand(bot)
            game = table.game
            assert game is not None
            await play_every_round(fake, clock, table, players)
            for seat, held in enumerate(table.seats):
                if held.user_id is None:  # proletario's fourth seat, a bot
                    continue
                total = expected.setdefault((server, held.user_id), [0, 0, 0])
                total[0] += 1
                total[1] += seat in game.winners
                total[2] += 1
        await users[0].slash("president end")
        await users[0].slash("president end")
        if evening == 1:
            bot = await restart(fake, clock, bot, url)
        clock.advance(2 * 24 * 3600)
    await bot.service.drain()

    for server, channel, games in ((fake.guild.id, fake.channel, 5), (away.id, cards, 2)):
        for user in users:
            user.channel = channel
            await user.slash("president stats")
            assert counts(user.last_ephemeral().text) == tuple(expected[server, user.id])
        await users[0].slash("president history")
        lines = users[0].last_ephemeral().text.split("\n")[1:]
        assert [line.split(".")[0] for line in lines] == [str(n) for n in range(games, 0, -1)]
    for user in users:
        user.channel = fake.channel
    assert await board_agrees_with_stats(users, "classic")

    before = [counts((await stats_of(user)).text) for user in users[1:]]
    await users[0].slash("president forget")
    await users[0].click(users[0].last_ephemeral(), "Erase everything")
    assert [counts((await stats_of(user)).text) for user in users[1:]] == before
    await users[1].slash("president leaderboard")
    assert f"<@{users[0].id}>" not in users[1].last_ephemeral().text
    await board_agrees_with_stats(users[1:], "classic")
    users[1].channel = fake.channel
    await users[1].slash("president history")
    page = users[1].last_ephemeral().text
    assert re.search(r"\bann\b", page) is None
    assert page.count("Erased player") == expected[fake.guild.id, users[0].id][1]

    forger = Forger(fake)
    users[1].channel = cards
    await forger.send(users[1], APPLICATION_COMMAND,
                      forger.command(users[1], "president forget-server"),
                      permissions=MANAGE_GUILD)
    await forger.send(users[1], MESSAGE_COMPONENT,
                      {"custom_id": users[1].last_ephemeral().button("Erase everything")
                       .custom_id, "component_type": BUTTON},
                      message=users[1].last_ephemeral(), permissions=MANAGE_GUILD)
    assert "has not played on this server yet" in (await stats_of(users[1])).text
    users[1].channel = fake.channel
    assert counts((await stats_of(users[1])).text) == tuple(expected[fake.guild.id, users[1].id])
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def stats_of(user: TestUser) -> Message:
    await user.slash("president stats")
    return user.last_ephemeral()


async def board_agrees_with_stats(users: list[TestUser], preset: str) -> bool:
    """The leaderboard at ``preset`` lists the rated ``users`` best first, each at the
    rating their stats show for it."""
    await users[0].slash("president leaderboard", preset=preset)
    rows = re.findall(r"(\d+)\. <@(\d+)> · rating (\d+)", users[0].last_ephemeral().text)
    shown = {int(user): int(rating) for _, user, rating in rows}
    for user in users:
        line = next(line for line in (await stats_of(user)).text.split("\n")
                    if line.startswith("**Classic Président**"))
        assert shown[user.id] == rating_of(line), (shown, line)
    ratings = [int(rating) for _, _, rating in rows]
    assert ratings == sorted(ratings, reverse=True) and len(rows) == len(users)
    return True


async def test_players_the_leaderboard_shows_level_share_their_place(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    """bea lost her one round to eve, a newcomer; cy lost his to dan, who had played twice.
    The board read « 3. bea · rating 927 · 1 round counted », « 4. cy · rating 927 · 1
    round counted »: their unrounded ratings differ by a fraction of a point the board
    does not show, and it numbered them apart for it. They share their place now."""
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    storage = bot.storage
    assert storage is not None
    ann, bea, cy, dan, eve = (fake.add_user(name) for name in ("ann", "bea", "cy", "dan", "eve"))
    table_id = await storage.create_table(fake.guild.id, fake.channel.id, ann.id,
                                          {"preset": "classic", "set": {}})
    game_id = await storage.start_game(table_id, game_no=1, preset="classic",
                                       rules={"preset": "classic", "set": {}}, seats=[])
    for number, (winner, loser) in enumerate(((dan, ann), (eve, bea), (eve, dan), (dan, cy)),
                                             start=1):
        await storage.record_round(
            game_id, number, ranking=[0, 1], roles=["P", "L"], points=[3, 0],
            seats=[SeatRef(winner.id, False, winner.user.name),
                   SeatRef(loser.id, False, loser.user.name)])

    await ann.slash("president leaderboard", preset="classic")
    await tick(fake, clock, 1)  # its members asked of Discord (stop 50), behind the start's calls
    rows = re.findall(r"(\d+)\. <@(\d+)> · rating (\d+) · (.*)", ann.last_ephemeral().text)
    shown = {int(user): (int(rank), rating, rounds) for rank, user, rating, rounds in rows}
    assert shown[bea.id][1:] == shown[cy.id][1:] == ("927", "1 round counted")
    assert shown[bea.id][0] == shown[cy.id][0]
    ranks = [int(rank) for rank, _, _, _ in rows]
    assert ranks == sorted(ranks)
    await fake.disconnect(bot)
    fake.assert_no_errors()
