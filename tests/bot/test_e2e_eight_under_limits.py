"""Eight people at one table under Discord's rate limits, with latency (stop 57).

Play-test 40 counted about 8 Discord calls a move with eight people seated (a table edit,
an edit per open hand) with the fake's rate limits off. Here the fake enforces them as it
reads Discord's docs (`fakediscord/ratelimits.py`: a channel's message routes 5 per 5 s,
each interaction token's webhook routes 5 per 2 s, interaction routes outside the global
50 per second), every call takes 80 ms ± 40 ms, and discord.py's waits (a bucket's reset, a
429's retry) follow the fake's clock. What a player feels is read on that clock: from a
click to its answer, and to the move showing on every other hand and on the table message.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest

from bot.client import PresidentBot
from bot.packages.game.hand import hand_screen
from bot.packages.game.table_message import table_screen
from bot.tables.table import Table
from engine import Phase
from fakediscord import FakeDiscord, LatencyConfig, RateLimitConfig, TestUser

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    controls_of,
    http_waits_on_the_fake_clock,
    message,
    table_of,
    tick,
    webhook_waits_on_the_fake_clock,
)

PEOPLE = {"marie": "fr", "claire": "fr", "bob": "en-US", "dave": "en-GB",
          "alice": "en-US", "emile": "fr", "fred": "en-GB", "léa": "fr"}
STEP = 0.1  # the resolution of the measures, on the fake clock
HAND_EDIT = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
TABLE_EDIT = "/channels/{channel_id}/messages/{message_id}"


@pytest.fixture
async def shims(monkeypatch: pytest.MonkeyPatch, fake: FakeDiscord,
                president: PresidentBot) -> AsyncIterator[None]:
    """discord.py's waits, webhook and REST, on the fake clock; ended before the bot stops."""
    webhook = webhook_waits_on_the_fake_clock(monkeypatch, fake)
    http = http_waits_on_the_fake_clock(monkeypatch, fake)
    yield
    webhook.end()
    http.end()


@dataclass
class Feel:
    """What the players felt, in seconds of the fake clock."""

    answers: list[float] = field(default_factory=list)  # a click to its answer's arrival
    hands: list[float] = field(default_factory=list)  # a move to each other hand's next edit
    boards: list[float] = field(default_factory=list)  # a move to the table message's
    turns: list[float] = field(default_factory=list)  # a move to the next player's hand
    behind: dict[str, float] = field(default_factory=dict)  # a hand's longest stale spell
    moves: int = 0
    stale_clicks: int = 0  # clicks on a hand that no longer offered that move


def up_to_date(table: Table, player: Player, now: float) -> bool:
    seated = table.player(player.user.id)
    assert seated is not None
    return player.hand.content == hand_screen(table, player.user.id, seated.locale,
                                              now=now).content


def board_up_to_date(fake: FakeDiscord, table: Table, user: TestUser, now: float) -> bool:
    return message(user, table.table_message_id).content == table_screen(table, now).content


def offers_a_move(player: Player) -> bool:
    selects, buttons = controls_of(player.hand)
    return any(":play:" in s.custom_id or ":give" in s.custom_id for s in selects) or any(
        b.custom_id is not None and (":pass:" in b.custom_id or ":give_ok:" in b.custom_id)
        for b in buttons)


async def seat_eight(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                     preset: str) -> tuple[Table, list[Player]]:
    users = {name: fake.add_user(name, locale=locale) for name, locale in PEOPLE.items()}
    host = users["marie"]
    await host.slash("president create", preset=preset)
    table = table_of(bot, host)
    for user in users.values():
        if user is not host:
            await user.click(message(user, table.lobby_message_id), cid(table, "join"))
    await tick(fake, clock, 1)
    while bot.faces_sync is not None and not bot.faces_sync.done():
        await tick(fake, clock, 1)
    await host.click(message(host, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    players = [Player(user) for user in users.values()]
    for player in players:
        await player.open_hand(bot)
    await tick(fake, clock, 2)
    return table, players


async def play_a_round(fake: FakeDiscord, clock: LinkedClock, table: Table,
                       players: list[Player], feel: Feel, think: float) -> None:
    """Each player clicks `think` seconds after their hand offers a move; between clicks
    the clock moves by `STEP`, and each hand is checked against the state it should show.
    The times a move took to reach the others are read from the calls that landed."""
    game = table.game
    assert game is not None
    offered: dict[str, float] = {}
    stale: dict[str, float] = {}  # since when each hand shows an old state
    moves: list[tuple[int, float, str, str]] = []  # call mark, click, who, who plays next
    for _ in range(20000):
        if game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            break
        now = clock.now()
        for player in players:
            if offers_a_move(player):
                offered.setdefault(player.user.name, now)
            else:
                offered.pop(player.user.name, None)
        for player in [p for p in players if now - offered.get(p.user.name, now + 1) >= think]:
            before = game.version
            mark, clicked = fake.mark(), fake.clock.monotonic()
            await player.act()
            offered.pop(player.user.name, None)
            answers = fake.calls_since(mark, CALLBACK)
            feel.answers.extend(answer.time - clicked for answer in answers[:1])
            if game.version == before:
                feel.stale_clicks += 1
                continue
            feel.moves += 1
            after = next((p.user.name for p in players
                          if table.seat_of(p.user.id) == game.to_act), player.user.name)
            moves.append((mark, clicked, player.user.name, after))
        await tick(fake, clock, STEP)
        now = clock.now()
        for player in players:
            name = player.user.name
            if up_to_date(table, player, now):
                if name in stale:
                    feel.behind[name] = max(feel.behind.get(name, 0.0), now - stale.pop(name))
            else:
                stale.setdefault(name, now - STEP)
    for mark, clicked, who, after in moves:
        first: dict[str, float] = {}
        for call in fake.calls_since(mark):
            key = "table" if call.route == TABLE_EDIT else call.user
            if call.status == 200 and call.route in (HAND_EDIT, TABLE_EDIT) \
                    and key is not None and key != who and key not in first:
                first[key] = call.time - clicked
        if "table" in first:
            feel.boards.append(first.pop("table"))
        feel.hands.extend(first.values())
        if after != who and after in first:
            feel.turns.append(first[after])


def summary(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    return (f"n={len(values)} mean={sum(values) / len(values):.2f} "
            f"median={ordered[len(ordered) // 2]:.2f} p90={ordered[int(len(ordered) * 0.9)]:.2f}"
            f" max={ordered[-1]:.2f}")


@pytest.mark.usefixtures("shims")
@pytest.mark.parametrize("think", [1.0, 0.3])
async def test_eight_people_under_discord_s_limits(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, think: float
) -> None:
    """Eight people (four in French, four in English) play a wild7 round, each clicking
    `think` seconds after their hand offers a move, under the limits with latency: no 429,
    each click answered within a call's latency, the next player's hand showing their turn
    within one (the coalescer's second held it back at a quick pace), no more than nine
    calls a move (a table edit, an answer, an edit per other hand), no hand behind for
    longer than the hands' beat, and once the round is over every hand and the table
    message show its end. The figures are printed (docs/bot.md, « Eight people under
    Discord's limits »)."""
    fake.enable_rate_limits(RateLimitConfig())
    fake.enable_latency(LatencyConfig(mean=0.08, jitter=0.04, seed=1))
    table, players = await seat_eight(fake, clock, president, "wild7")
    feel = Feel()
    mark, began = fake.mark(), fake.clock.monotonic()
    await play_a_round(fake, clock, table, players, feel, think)
    calls = fake.calls_since(mark)
    figures = {
        "moves": feel.moves, "seconds": round(fake.clock.monotonic() - began, 1),
        "calls": len(calls), "429": sum(c.status == 429 for c in calls),
        "routes": dict(Counter(c.route for c in calls)), "answers": summary(feel.answers),
        "hands": summary(feel.hands), "table": summary(feel.boards),
        "next": summary(feel.turns), "behind": max(feel.behind.values(), default=0.0),
        "stale clicks": feel.stale_clicks}
    print(think, figures)
    assert feel.moves >= 40 and figures["429"] == 0
    assert max(feel.answers) < 0.2 and max(feel.turns) < 0.2, figures
    assert len(calls) <= 9 * feel.moves and feel.stale_clicks == 0
    # No hand behind by more than the hands' beat and a call; at a person's pace, nothing
    # folded, the table message shows each move at once (a hand hurried through the
    # mover's older token crossed their answer, and redrew the table a second late).
    assert max(feel.behind.values(), default=0.0) < 1.5, figures
    if think >= 1.0:
        assert max(feel.boards) < 0.2 and max(feel.behind.values(), default=0.0) < 0.2, figures
    await tick(fake, clock, 1)
    now = clock.now()
    assert [p.user.name for p in players if not up_to_date(table, p, now)] == []
    assert board_up_to_date(fake, table, players[0].user, now)
    fake.assert_no_errors()
