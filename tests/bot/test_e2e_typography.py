"""End-to-end: every screen a player reads through a game keeps its language's spacing — in
French, no line can start with a lone « ? », « : » or « » », whatever fragments (names,
cards, places, points) a line is built from."""

import pytest

from bot.client import PresidentBot
from bot.i18n import lang
from engine import Phase
from fakediscord import FakeDiscord, Message

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    create_table,
    host_against_three_bots,
    message,
    play_until,
    tick,
)
from .typography import faults


def texts(shown: Message) -> list[str]:
    """Everything on a message a player reads: its text, embeds, buttons and menus."""
    found = [shown.content, *shown.text_displays]
    for embed in shown.embeds:
        found += [embed.title or "", embed.description or "", embed.footer or ""]
        found += [text for field in embed.fields for text in (field.name, field.value)]
    found += [button.label or "" for button in shown.buttons]
    for menu in shown.selects:
        found.append(menu.placeholder or "")
        found += [text for option in menu.options
                  for text in (option.label, option.description or "")]
    return [text for text in found if text]


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_every_screen_of_a_game_keeps_its_spacing(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """A player opens a table, reads its rules, plays two rounds (an exchange between
    them) against three bots through their hand, and sees the game's end: every text they
    were shown on the way, from the table message to the menus of their hand, is checked."""
    user = fake.add_user("marie", locale=locale)
    seen: set[str] = set()

    def look() -> bool:
        """Note every text on the player's screen; false, to sit in `play_until`'s test."""
        for shown in user.visible():
            seen.update(texts(shown))
        return False

    await create_table(president, user)
    look()
    await user.slash("president rules")
    await user.slash("president settings")
    look()
    await user.slash("president end")
    table = await host_against_three_bots(president, user, "rounds:2")
    game = table.game
    assert game is not None
    player = Player(user)
    await tick(fake, clock, 1)
    await player.open_hand(president)
    while game.phase is not Phase.GAME_OVER:
        await play_until(fake, clock, [player], lambda: look() or game.phase in (
            Phase.ROUND_OVER, Phase.GAME_OVER))
        await tick(fake, clock, 1)
        look()
        if game.phase is Phase.ROUND_OVER:
            await user.click(message(user, table.table_message_id),
                             cid(table, "next", game.version))
    assert game.round_no == 2
    assert any(":" in text for text in seen)  # the lines checked have punctuation
    assert message(user, table.table_message_id).content in seen
    language = lang(locale)
    assert {text: faults(text, language) for text in seen if faults(text, language)} == {}
