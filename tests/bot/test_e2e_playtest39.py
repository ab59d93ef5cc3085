"""End-to-end: play-test 39 (stop 56), a long evening in four locales. marie (fr) hosts
bob (en-US), alice (en-GB) and hans (de, a locale the bot has no catalogue for) at presi
for 25 rounds and more over several games: carol (fr) asks for a seat in the first game
and gets one at the next, bob leaves mid-round and comes back within his seat's wait, the
host turns the revolution on and then plays to six rounds between games; at the end
/president stats, leaderboard and history are read against what the rounds showed, and
the table's stored snapshot is weighed at rounds 1, 10 and 25. A second scene plays a
revolution read in the four locales (docs/bot.md « Play-test 39: a long evening (stop 56) »)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import plural, t
from bot.storage import jsoncodec
from bot.tables.table import Table
from engine import Game, Phase
from engine.cards import Card
from fakediscord import FakeDiscord, TestUser

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    controls_of,
    create_table,
    database_url,
    leave_game,
    message,
    play_until,
    record_charts,
    tick,
)
from .reading import well_written
from .test_e2e_settings import open_form

LOCALES = {"marie": "fr", "bob": "en-US", "alice": "en-GB", "hans": "de", "carol": "fr"}
ROLES = ("P", "VP", "N", "VL", "L")
# « 1. **marie** · Président · +2 à cette manche, total 2 pts » (the table's French).
RESULT = re.compile(r"^\d+\. \*\*(\w+)\*\* · ([^·]+) · \+(\d+) à cette manche, "
                    r"total (\d+)\u00a0pts?$")
STANDING = re.compile(r"^\d+\. \*\*(\w+)\*\* · (\d+)\u00a0pts?$")


class Evening:
    """What the players read over the evening, kept to check the end against."""

    def __init__(self) -> None:
        self.gained: Counter[str] = Counter()   # this game's points, summed from the rounds
        self.roles: dict[str, Counter[str]] = {n: Counter() for n in LOCALES}
        self.rounds: dict[str, int] = Counter()
        self.games: list[int] = []              # each finished game's rounds
        self.winners: list[str] = []
        self.totals: dict[str, list[int]] = {}  # this game's totals after each round
        self.charts: list[dict[str, tuple[int, ...]]] = []  # each finished game's
        self.sizes: dict[int, int] = {}
        self.boards: list[int] = []

    def round_over(self, board: str, game: Game, played: int, snapshot: int) -> None:
        """The round's results as the table message shows them: each line's points add up
        to its total; at the game's end the standings agree with the totals."""
        self.boards.append(len(board))
        lines = board.split("\n")
        start = next(i for i, line in enumerate(lines) if line.startswith("🏁 **"))
        results = [m for line in lines[start + 1:] if (m := RESULT.match(line))]
        assert len(results) == game.seats
        for found in results:
            name, role, gained, total = found.groups()
            self.gained[name] += int(gained)
            assert self.gained[name] == int(total), board
            self.roles[name][role] += 1
            self.totals.setdefault(name, []).append(int(total))
            self.rounds[name] += 1
        if played in (1, 10, 25):
            self.sizes[played] = snapshot
        if game.phase is Phase.GAME_OVER:
            standings = {m[1]: int(m[2]) for line in lines if (m := STANDING.match(line))}
            assert standings == dict(self.gained), board
            self.winners.append(board.split("victoire\u00a0: ")[1].split("\n")[0])
            self.games.append(game.round_no)
            self.charts.append({n: tuple(points) for n, points in self.totals.items()})
            self.gained.clear()
            self.totals.clear()


def dealt(game: Game) -> Callable[[], bool]:
    """Whether ``game``'s exchange is done and its round is being played."""
    return lambda: game.phase is Phase.PLAY


def over(game: Game) -> Callable[[], bool]:
    """Whether ``game``'s round (or the game) is over."""
    return lambda: game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER)


def snapshot_size(table: Table) -> int:
    return len(jsoncodec.dumps(table.to_dict()))


async def back_within_the_wait(fake: FakeDiscord, clock: LinkedClock, table: Table,
                               bob: Player) -> None:
    """bob leaves mid-round by `/president leave`, is told his seat waits, and comes back
    by `/president join`: the table says so, his hand is back."""
    user = bob.user
    await user.slash("president leave")
    prompt = user.last_ephemeral()
    well_written(prompt, "en-US")
    [quit_button] = [b for b in controls_of(prompt)[1] if b.custom_id and ":quit:" in b.custom_id]
    assert quit_button.custom_id is not None
    await user.click(prompt, quit_button.custom_id)
    await tick(fake, clock, 3)
    await user.slash("president join")
    assert "🂠 **Your hand** (" in user.last_ephemeral().content
    bob.hand_id = user.last_ephemeral().id
    await tick(fake, clock, 1)
    board = message(user, table.table_message_id).content
    assert board.split("\n")[-1] == t("fr", "table.reopen_hand")
    assert "• " + t("fr", "ev.back", name="bob") in board


async def between_games(marie: TestUser, table: Table, games: int) -> None:
    """marie changes a knob in the settings panel: the revolution on after the first game,
    six rounds after the second (typed as a French host types it), then « Terminé »."""
    await marie.slash("president settings")
    if games == 1:
        await open_form(marie, "revolution")
    else:
        await open_form(marie, "game_end")
        await marie.modal_submit({"Nouvelle valeur": "6 manches"})
    panel = marie.last_ephemeral()
    well_written(panel, "fr")
    await marie.click(panel, cid(table, "done"))


async def test_a_long_evening_in_four_locales(fake: FakeDiscord, clock: LinkedClock,
                                              tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = record_charts(monkeypatch)
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    users = {name: fake.add_user(name, locale=locale) for name, locale in LOCALES.items()}
    marie, carol = users["marie"], users["carol"]
    table = await create_table(bot, marie, "presi")
    for name in ("bob", "alice", "hans"):
        await users[name].click(message(users[name], table.lobby_message_id),
                                cid(table, "join"))
    await marie.click(message(marie, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    players = [Player(users[n]) for n in ("marie", "bob", "alice", "hans")]
    for player in players:
        await player.open_hand(bot)
    seen = Evening()
    played = 0
    while played < 25:
        game = table.game
        assert game is not None
        if played == 1:
            await carol.slash("president join")
            assert carol.last_ephemeral().content.startswith(
                t("fr", "lobby.listed_next_game", replay="Rejouer", end="Terminer").split(" :")[0])
        if played == 3:
            await play_until(fake, clock, players, dealt(game))
            await back_within_the_wait(fake, clock, table, players[1])
        await play_until(fake, clock, players,
                         over(game))
        await tick(fake, clock, 1)
        played += 1
        board = message(marie, table.table_message_id)
        well_written(board, "fr")
        for player in players:
            well_written(player.hand, LOCALES[player.user.name])
        seen.round_over(board.content, game, played, snapshot_size(table))
        if game.phase is Phase.ROUND_OVER:
            await marie.click(board, cid(table, "next", game.version))
            await tick(fake, clock, 1)
            continue
        # Between games: the host goes back to the lobby and changes a knob in the panel.
        await marie.slash("president end")
        await between_games(marie, table, len(seen.games))
        await tick(fake, clock, 1)
        lobby = message(marie, table.lobby_message_id)
        well_written(lobby, "fr")
        assert "Révolution\u00a0: oui" in lobby.content
        assert ("6 manches" in lobby.content) is (len(seen.games) >= 2)
        assert "carol" in lobby.content  # the list's player has her seat
        await marie.click(lobby, cid(table, "start"))
        await tick(fake, clock, 1)
        if len(players) == 4:
            players.append(Player(carol))
        for player in players:
            await player.open_hand(bot)
    # Nothing grows from game to game: the table message stays the size of a round's
    # results, the snapshot keeps only the game under way (its chart's rows).
    assert max(seen.boards) < 2 * seen.boards[0] and max(seen.boards) <= 1200, seen.boards
    assert seen.sizes[25] < 1.25 * seen.sizes[1], seen.sizes
    for name, user in users.items():
        locale = LOCALES[name]
        await user.slash("president stats")
        [stats] = user.last_ephemeral().embeds
        well_written(user.last_ephemeral(), locale)
        assert stats.description is not None
        rows = stats.description.split("\n")
        # Every round they played, each role as many times as the table showed it.
        counts = {r: seen.roles[name][t("fr", f"role.presi.{r}")] for r in ROLES}
        shown = " · ".join(t(locale, "stats.role_count", n=counts[r],
                             role=t(locale, f"role.presi.{r}")) for r in ROLES if counts[r])
        assert rows[-1] == shown, (rows, seen.roles[name])
        wins = seen.winners.count(name)
        games = len(seen.games) if name != "carol" else len(seen.games) - 1
        assert rows[0].startswith(" · ".join([
            t(locale, "n.games.one" if games == 1 else "n.games.many", n=games),
            t(locale, "n.wins.one" if wins == 1 or (wins == 0 and locale == "fr")
              else "n.wins.many", n=wins)])), rows[0]
        await user.slash("president history")
        well_written(user.last_ephemeral(), locale)
        await user.slash("president leaderboard")
        well_written(user.last_ephemeral(), locale)
    await marie.slash("president history")
    [past] = marie.last_ephemeral().embeds
    assert past.description is not None
    told = [(int(m[1]), m[2]) for line in past.description.split("\n")
            if (m := re.search(r"· (\d+) manches · victoire\u00a0: (\w+)$", line))]
    assert told == list(zip(seen.games, seen.winners, strict=True))[::-1], (told, seen.games)
    # Each past game's chart, picked from the history (in bob's English), draws the totals
    # its rounds showed.
    await users["bob"].slash("president history")
    page = users["bob"].last_ephemeral()
    [menu] = page.selects
    for option, points in zip(menu.options, seen.charts[::-1], strict=True):
        await users["bob"].select(page, [option.value], select=menu.custom_id)
        well_written(users["bob"].last_ephemeral(), "en-US")
        assert dict(zip(drawn[-1].names, drawn[-1].series, strict=True)) == points
    fake.assert_no_errors()
    await fake.disconnect(bot)


async def test_a_cancelled_game_is_in_the_history_as_the_stats_count_it(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Found beside the evening: four play two rounds of presi, then hans leaves for good
    and 60 s later the game is cancelled (RULES §10, « no result »). `/president history`
    said « Aucune partie n’a encore été jouée ici. » while everyone's stats counted the two
    rounds. It lists the game now, cancelled, with its rounds and no winner, and its chart;
    the stats count its rounds, and it beside the games, as the history shows it
    (docs/bot.md « Cancelled games in the history (stop 56) »)."""
    drawn = record_charts(monkeypatch)
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    names = ("marie", "bob", "alice", "hans")
    users = {name: fake.add_user(name, locale=LOCALES[name]) for name in names}
    marie = users["marie"]
    table = await create_table(bot, marie, "presi")
    for name in names[1:]:
        await users[name].click(message(users[name], table.lobby_message_id),
                                cid(table, "join"))
    await marie.click(message(marie, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    players = [Player(users[name]) for name in names]
    for player in players:
        await player.open_hand(bot)
    game = table.game
    assert game is not None
    seen = Evening()
    for played in (1, 2):
        await play_until(fake, clock, players, over(game))
        await tick(fake, clock, 1)
        board = message(marie, table.table_message_id)
        seen.round_over(board.content, game, played, 0)
        await marie.click(board, cid(table, "next", game.version))
        await tick(fake, clock, 1)
    assert game.phase is not Phase.GAME_OVER and game.round_no == 3
    await leave_game(users["hans"])
    await tick(fake, clock, table.rules.leave_grace_seconds + 1)
    assert table.game is None
    await tick(fake, clock, 1)  # the fresh lobby posted
    assert t("fr", "table.cancelled", name="hans") in message(
        marie, table.lobby_message_id).content
    for name, user in users.items():
        locale = LOCALES[name]
        await user.slash("president history")
        page = user.last_ephemeral()
        well_written(page, locale)
        [listed] = page.embeds
        assert listed.description is not None
        [line] = listed.description.split("\n")
        assert line.startswith("1. ") and line.endswith(" · ".join([
            plural(locale, "n.rounds", 2), t(locale, "history.cancelled")])), line
        [menu] = page.selects
        [option] = menu.options
        assert option.description == t(locale, "history.cancelled")
        await user.select(page, [option.value], select=menu.custom_id)
        well_written(user.last_ephemeral(), locale)
        assert dict(zip(drawn[-1].names, drawn[-1].series, strict=True)) == {
            who: tuple(points) for who, points in seen.totals.items()}
        await user.slash("president stats")
        well_written(user.last_ephemeral(), locale)
        [stats] = user.last_ephemeral().embeds
        assert stats.description is not None
        assert stats.description.startswith(" · ".join([
            plural(locale, "n.games_cancelled", 1, games=plural(locale, "n.games", 0)),
            plural(locale, "n.wins", 0), plural(locale, "n.rounds", 2)])), stats.description
    fake.assert_no_errors()
    await fake.disconnect(bot)


SUITS = "BCEO"
VALUES = ("3", "4", "5", "6", "7", "8", "9", "J", "N", "K", "A", "2")


async def test_a_revolution_read_in_four_locales(fake: FakeDiscord, president: PresidentBot,
                                                 clock: LinkedClock) -> None:
    """marie opens presi's first trick with four 5s, the revolution on: the table says it
    in French, and each hand in its reader's language, hans's (de) in English."""
    users = [fake.add_user(name, locale=LOCALES[name]) for name in ("marie", "bob", "alice",
                                                                     "hans")]
    marie = users[0]
    table = await create_table(president, marie, "presi")
    await president.service.set_rules(table, marie.id, table.rules.replace(revolution=True))
    for user in users[1:]:
        await user.click(message(user, table.lobby_message_id), cid(table, "join"))
    await marie.click(message(marie, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    mine = ["3O", "5B", "5C", "5E", "5O", "4B", "6B", "7B", "8B", "9B", "JB", "NB"]
    rest = [v + s for v in VALUES for s in SUITS if v + s not in mine]
    hands = [mine, rest[0::3], rest[1::3], rest[2::3]]
    table.game = Game.new(table.rules, seats=4, seed=1, opener=0,
                          hands=[[Card.parse(c) for c in hand] for hand in hands])
    president.service._after(table, [])
    await tick(fake, clock, 1)
    players = [Player(user) for user in users]
    for player in players:
        await player.open_hand(president)
    quad = next(m for m in players[0].hand.selects if m.custom_id.endswith(":40"))
    await marie.select(players[0].hand, [quad.options[0].value], select=quad.custom_id)
    await tick(fake, clock, 1)
    board = message(marie, table.table_message_id)
    well_written(board, "fr")
    assert t("fr", "table.revolution") in board.content
    assert "• " + t("fr", "ev.revolution_on", name="marie") in board.content
    for player in players:
        locale = LOCALES[player.user.name]
        well_written(player.hand, locale)
        assert t(locale, "hand.revolution_top_single",
                 card=t(locale, "card.top_single")) in player.hand.content
    fake.assert_no_errors()
