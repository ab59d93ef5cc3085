"""End-to-end: play-test 41 (stop 58), an English host's evening for French players. alice
(en-US) opens classic in a server that is not a Community one (the public messages speak
her English), tunes the panel (revolution off, « ta gueule », one-lap tricks, the finishing
penalty, two rounds); marie and claire (fr) join; three seats, then five once emile (who
asked mid-game) and gaston (who watched) sit. Refusals of others' buttons and of stale
ones, `/president rules` mid-game, the exchange with the President choosing the cards to
give, the leaderboard and stats afterwards; every message each one sees read in its
reader's language (docs/bot.md « Play-test 41: an English host, French players (stop 58) »)."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import plural, t
from bot.i18n.cards import rank_words
from bot.packages.game.lines import place, role_name
from bot.packages.rules_text import rules_page
from bot.tables.table import Table
from engine import Phase
from fakediscord import FakeDiscord, TestUser
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import Player, cid, connect_bot, create_table, database_url, message, tick
from .reading import changed, read, well_written
from .test_e2e_playtest17 import dealt, play
from .test_e2e_settings import open_form

DUMP = os.environ.get("PT41_DUMP")  # a file to write every message read to, to read it through
HUMANS = {"alice": "en-US", "marie": "fr", "claire": "fr", "emile": "fr", "gaston": "fr"}


class Reader:
    """Every message each member sees, read once each time it changes: within Discord's
    limits, no raw key, in its reader's language (the public ones in the host's, as the
    server is not a Community one: `public_locale`). Keeps the longest of each kind."""

    def __init__(self, users: dict[str, TestUser]) -> None:
        self.users = users
        self.seen: dict[tuple[str, int], str] = {}
        self.longest: Counter[str] = Counter()

    def __call__(self) -> None:
        for name, msg, text in changed(self.users, self.seen):
            well_written(msg, HUMANS[name] if msg.ephemeral else "en-US")
            if DUMP:
                with open(DUMP, "a", encoding="utf-8") as f:
                    print(f"--- {name} #{msg.id} {len(msg.content)}", text, sep="\n", file=f)
            kind = "private" if msg.ephemeral else "public"
            self.longest[kind] = max(self.longest[kind], len(msg.content))


def refused(user: TestUser, key: str, **words: object) -> None:
    """``user``'s last answer is the refusal ``key``, privately and in French."""
    answer = user.last_ephemeral()
    assert answer.content.startswith("⚠️ " + t("fr", key, **words)), answer.content


async def tune(alice: TestUser, table: Table, reader: Reader) -> None:
    """alice's panel: each change confirmed in English, what differs from the preset marked."""
    await alice.slash("president settings")
    await open_form(alice, "revolution")  # classic has it on: she turns it off
    for knob, value in (("on_equal", "skip_unless_holding"), ("trick_end", "one_lap")):
        await open_form(alice, knob)
        await alice.select(alice.last_ephemeral(), [value], select=cid(table, "value", 0, knob))
        reader()
    await open_form(alice, "game_end")
    await alice.modal_submit({"New value": "2 rounds"})
    panel = alice.last_ephemeral()
    reader()
    assert panel.content.startswith("✅ Saved — End of the game: 2 rounds.")
    shown = read(panel).split("\n")
    assert "✏️ **Revolution**: off (preset: on)" in shown
    assert "✏️ **Trick ends**: after one lap (preset: when everyone else has passed)" in shown
    assert "▫️ **Finishing penalty**: finishing on a 2" in shown


async def gift_of_choice(players: list[Player], reader: Reader) -> tuple[str, list[str]]:
    """The one giving by choice picks cards other than the weakest the menu checked: who,
    and which."""
    for player in players:
        menus = [m for m in player.hand.selects if ":give:" in m.custom_id]
        if menus:
            [menu] = menus
            checked = [o.value for o in menu.options if o.default]
            chosen = [o.value for o in menu.options if not o.default][:len(checked)]
            await player.user.select(player.hand, chosen, select=menu.custom_id)
            reader()
            return player.user.name, chosen
    raise AssertionError("nobody gives by choice")


async def one_move(players: list[Player]) -> None:
    """The first of ``players`` whose hand offers a move makes it."""
    for player in players:
        if await player.act():
            return
    raise AssertionError("nobody could move")


async def play_game(fake: FakeDiscord, clock: LinkedClock, table: Table, players: list[Player],
                    reader: Reader, during: list[int]) -> list[tuple[str, list[str]]]:
    """The humans play ``table``'s game out, alice dealing each next round, each move's
    messages read; the Discord calls each move cost are added to ``during``. The gifts
    chosen, in order."""
    game = table.game
    assert game is not None
    alice = players[0].user
    gifts = []
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.ROUND_OVER:
            await tick(fake, clock, 1)
            reader()
            await alice.click(message(alice, table.table_message_id),
                              cid(table, "next", game.version))
            await tick(fake, clock, 1)
            reader()
            gifts.append(await gift_of_choice(players, reader))
            continue
        mark = fake.mark()
        await one_move(players)
        await tick(fake, clock, 1)
        during.append(len(fake.calls_since(mark)))
        reader()
    await tick(fake, clock, 1)
    reader()
    return gifts


def results(board: str) -> list[str]:
    """The round's result lines of a table message."""
    lines = board.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("🏁 **"))
    return [line for line in lines[start + 1:] if line[:1].isdigit()]


async def test_an_english_host_s_evening_for_french_players(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path) -> None:
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    users = {name: fake.add_user(name, locale=locale) for name, locale in HUMANS.items()}
    alice, marie, claire, emile, gaston = users.values()
    reader = Reader(users)
    table = await create_table(bot, alice, "classic")
    await tune(alice, table, reader)
    rules = table.rules
    await marie.slash("president settings")  # not the host: refused, nothing changed
    refused(marie, "err.not_host", host=alice.id)
    await alice.click(alice.last_ephemeral(), cid(table, "done"))
    for user in (marie, claire):
        await user.click(message(user, table.lobby_message_id), cid(table, "join"))
    await claire.click(message(claire, table.lobby_message_id), cid(table, "start"))
    assert table.game is None and table.rules == rules
    reader()
    lobby = message(alice, table.lobby_message_id).content
    assert "Rules: 2 rounds · Trick ends: after one lap · Revolution: off" in lobby
    # -- game 1, three seats -----------------------------------------------------------------
    await alice.click(message(alice, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    game = fresh(table).game
    assert game is not None and game.seats == 3
    players = [Player(u) for u in (alice, marie, claire)]
    for player in players:
        await player.open_hand(bot)
    reader()
    first_hand = players[1].hand  # marie's, as she will find it in the next game
    for _ in range(2):  # two moves, then the evening's asides
        await one_move(players)
    await tick(fake, clock, 1)
    version = game.version
    await marie.slash("president rules")
    [page] = marie.last_ephemeral().embeds
    assert page.description is not None
    assert page.description.split("\n") == rules_page("fr", table.rules, seats=3)
    assert "• " + t("fr", "howto.variant.penalty.two") in page.description
    await emile.slash("president join")  # on the list for the next game
    board = message(gaston, table.table_message_id)
    await gaston.click(board, cid(table, "pause"))  # watching, no seat: refused
    refused(gaston, "err.pause_not_seated", host=alice.id)
    await claire.click(board, cid(table, "join"))  # seated already: refused
    refused(claire, "err.already_seated")
    reader()
    assert game.version == version and table.pause is None
    assert [p.name for p in table.queue] == ["emile"]
    during: list[int] = []
    gifts = await play_game(fake, clock, table, players, reader, during)
    assert gifts and gifts[0][0] == "claire"
    final = message(alice, table.table_message_id)
    old_board = final  # as the players will click it later
    # Both others went out on a 2 in the last round: each result line says so
    marked = [line for line in results(final.content) if line.endswith(" · ⚠️ finished on a 2")]
    assert len(marked) == len(game.penalised) == 2, final.content
    await marie.click(final, cid(table, "replay", game.version))  # the host's: refused
    assert fresh(table).game is game and fresh(game).phase is Phase.GAME_OVER
    # -- between games: emile seated from the list, gaston joins, a stale Replay ---------------
    await alice.slash("president end")
    await tick(fake, clock, 1)
    await gaston.click(message(gaston, table.lobby_message_id), cid(table, "join"))
    await alice.slash("president settings")  # one round at five to end the evening
    await open_form(alice, "game_end")
    await alice.modal_submit({"New value": "1 round"})
    await alice.click(alice.last_ephemeral(), cid(table, "done"))
    await claire.click_shown(old_board, cid(table, "replay", game.version))
    refused(claire, "err.stale_button")
    assert fresh(table).game is None and [p.name for p in table.seats] == list(HUMANS)
    reader()
    # -- game 2, five seats ------------------------------------------------------------------
    await alice.click(message(alice, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    second = fresh(table).game
    assert second is not None and second.seats == 5
    players = [Player(u) for u in users.values()]
    for player in players[:1] + players[2:]:
        await player.open_hand(bot)
    # marie plays on from her hand of the first game: its menu answers with her new hand
    menu = first_hand.selects[-1]
    await marie.select_shown(first_hand, [menu.options[0].value], select=menu.custom_id)
    assert fresh(table).game is second
    assert message(marie, first_hand.id).content.startswith("⚠️ " + t("fr", "err.stale"))
    players[1].hand_id = first_hand.id
    reader()
    assert await play_game(fake, clock, table, players, reader, during) == []
    # -- afterwards --------------------------------------------------------------------------
    rounds = {"alice": 3, "marie": 3, "claire": 3, "emile": 1, "gaston": 1}
    for name, user in users.items():
        locale = HUMANS[name]
        await user.slash("president leaderboard")
        board_page = user.last_ephemeral()
        [ranked] = board_page.embeds
        assert ranked.description is not None and len(ranked.description.split("\n")) == 5
        await user.slash("president stats")
        [stats] = user.last_ephemeral().embeds
        assert stats.description is not None
        assert plural(locale, "n.rounds", rounds[name]) in stats.description.split("\n")[0]
    reader()
    if DUMP:
        with open(DUMP, "a", encoding="utf-8") as f:
            print("FIGURES", Counter(during), dict(reader.longest), file=f)
    assert Counter(during).most_common(1)[0][0] <= 6, Counter(during)
    assert reader.longest["public"] <= 1500 and reader.longest["private"] <= 1500
    fake.assert_no_errors()
    await fake.disconnect(bot)


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_a_penalised_finish_is_said_at_the_round_s_end(
        fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str) -> None:
    """From the play-test: marie went out first on a 2 (sent last), then alice's last card,
    a 2, ended the round (sent second to last) with claire President holding a card. alice's
    hand read only « You finished 2nd in the round: Neutral (+1) », never why; marie's
    « ⚠️ You finished on a 2 » gave way at the round's end to « 3rd: Scum »; and the table's
    results « 3. marie · Scum » while « marie finished on a 2 » had scrolled out of the
    recent plays. The hand's result and the table's result line now say it."""
    table, game, (marie, paul, jeanne) = await dealt(
        fake, clock, president, locale, "classic", ["2H", "2S", "KH 4C"])
    await play(fake, clock, marie, "2H")
    await play(fake, clock, paul, "2S")  # the round's last move
    assert game.phase is Phase.ROUND_OVER and game.ranking == (2, 1, 0)
    two = rank_words(locale, "2", 1, False)
    for player, rank, role in ((paul, 2, "N"), (marie, 3, "L")):
        assert t(locale, "hand.round_result_penalised", place=place(locale, rank), rank=two,
                 role=role_name(locale, table, role), gained=1 if role == "N" else 0) \
            in player.hand.content.split("\n")
    await tick(fake, clock, 1)
    board = message(marie.user, table.table_message_id)
    well_written(board, locale)
    lines = results(board.content)
    assert [line.endswith(" · ⚠️ " + t(locale, "table.result_penalised", line="", rank=two)
                          .removeprefix(" · ⚠️ ")) for line in lines] == [False, True, True]
    assert "· ⚠️ " not in t(locale, "table.result_line", place=1, name="x", role="y",
                             gained=0, total="0")
    fake.assert_no_errors()


def test_the_rules_say_where_a_second_penalised_finish_ranks() -> None:
    """The rules read « going out on a 2 sends you last »; the second to do so ranked 2nd
    of 3 and a player still holding a card was President (RULES §8: « the first such
    player becomes last, the next second-to-last »). The page says how they stack."""
    assert t("en", "howto.variant.penalty.two").endswith(
        "the first to go out so ranks last, the next second to last, and so on")
    assert "la suivante l’avant-dernière" in t("fr", "howto.variant.penalty.two_or_wild")

