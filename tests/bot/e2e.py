"""Helpers for end-to-end tests: find the bot's messages and play like a person would."""

from __future__ import annotations

from collections.abc import Callable

from bot.client import PresidentBot
from bot.tables.table import Table
from engine import Game, Phase
from fakediscord import Button, FakeDiscord, Message, Select, TestUser

from .conftest import LinkedClock


def table_of(bot: PresidentBot, user: TestUser) -> Table:
    table = bot.service.registry.in_channel(user.channel.id)
    assert table is not None
    return table


def cid(table: Table, action: str, version: int = 0, arg: str = "") -> str:
    return f"pz:{table.id}:{action}:{version}:{arg}"


def message(user: TestUser, message_id: int | None) -> Message:
    assert message_id is not None
    found = [m for m in user.visible() if m.id == message_id]
    assert found, f"{user.name} cannot see message {message_id}"
    return found[0]


def hand(user: TestUser) -> Message:
    """The user's newest ephemeral that shows a hand (their hand message)."""
    return user.last_ephemeral()


async def tick(fake: FakeDiscord, clock: LinkedClock, seconds: float = 1.0) -> None:
    clock.advance(seconds)
    await fake.settle()


async def host_against_three_bots(bot: PresidentBot, host: TestUser, game_end: str) -> Table:
    """A classic table where ``host`` plays three bots, started, ending by ``game_end``."""
    await host.slash("president create", preset="classic")
    table = table_of(bot, host)
    await bot.service.set_rules(table, host.id, table.rules.replace(game_end=game_end))
    lobby = message(host, table.lobby_message_id)
    for _ in range(3):
        await host.click(lobby, cid(table, "addbot"))
    await host.click(lobby, cid(table, "start"))
    assert table.game is not None
    return table


async def let_timers_play(fake: FakeDiscord, clock: LinkedClock, game: Game,
                          phase: Phase) -> None:
    """Let the human's turn timer run out until ``phase``: the server plays for them."""
    for _ in range(600):
        if game.phase is phase:
            return
        await tick(fake, clock, 30)
    raise AssertionError(f"the game never reached {phase.value}")


def controls_of(msg: Message) -> tuple[list[Select], list[Button]]:
    return list(msg.selects), list(msg.buttons)


class Player:
    """A test user who keeps one hand message open and plays simply: the first play
    offered, else pass; in the exchange, what the bot pre-checks, else the first cards."""

    def __init__(self, user: TestUser) -> None:
        self.user = user
        self.hand_id: int | None = None

    @property
    def hand(self) -> Message:
        return message(self.user, self.hand_id)

    async def open_hand(self, bot: PresidentBot) -> None:
        table = table_of(bot, self.user)
        board = message(self.user, table.table_message_id)
        await self.user.click(board, cid(table, "hand"))
        self.hand_id = self.user.last_ephemeral().id

    async def act(self) -> bool:
        """One move if the hand offers one; False when there is nothing to do."""
        if self.hand_id is None:
            return False
        shown = self.hand
        selects, buttons = controls_of(shown)
        confirm = next((b.custom_id for b in buttons
                        if b.custom_id and ":give_ok:" in b.custom_id), None)
        gifts = [m for m in selects if ":give:" in m.custom_id]
        if confirm is not None and not confirm.endswith(":"):
            await self.user.click(shown, confirm)  # the pre-checked cards
            return True
        if gifts and confirm is not None:  # a hand too big for one select: pick, then confirm
            first = gifts[0]
            await self.user.select(shown, [o.value for o in first.options[:first.max_values]],
                                   select=first.custom_id)
            await self.user.click(self.hand, confirm)
            return True
        if gifts:
            first = gifts[0]
            await self.user.select(shown, [o.value for o in first.options[:first.min_values]],
                                   select=first.custom_id)
            return True
        for menu in selects:
            if ":play:" in menu.custom_id:
                await self.user.select(shown, [menu.options[0].value], select=menu.custom_id)
                return True
        for button in buttons:
            if button.custom_id and ":pass:" in button.custom_id:
                await self.user.click(shown, button.custom_id)
                return True
        return False


async def play_until(fake: FakeDiscord, clock: LinkedClock, players: list[Player],
                     done: Callable[[], bool], steps: int = 3000) -> None:
    """Humans act through their hands; when none can, time passes for bots and timers."""
    for _ in range(steps):
        if done():
            return
        acted = False
        for player in players:
            if await player.act():
                acted = True
                break
        if not acted:
            await tick(fake, clock, 1.0)
    raise AssertionError("the game did not reach the expected point")
