"""The terminal sandbox drives the real bot on the fake Discord by typed lines."""

import pytest

from bot.client import PresidentBot
from bot.sandbox import Terminal, countdowns, parse_options
from fakediscord import FakeDiscord, UserActionError

from .conftest import LinkedClock
from .e2e import play_until, table_of, tick


async def test_typed_lines_create_a_table_and_play(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    user = fake.add_user("you", locale="fr")
    terminal = Terminal(fake, user)
    answers = iter(["1"])

    async def ask(prompt: str) -> str:
        return next(answers)

    monkeypatch.setattr(terminal, "ask", ask)
    await terminal.handle("/president create preset:wild7")
    terminal.show()
    table = table_of(president, user)
    await terminal.handle("3")  # Ajouter un bot
    terminal.show()
    await terminal.handle("5")  # Lancer
    await tick(fake, clock, 1)
    terminal.show()
    assert table.game is not None
    await terminal.handle("B 1")  # Ma main, on the table message
    terminal.show()
    screen = capsys.readouterr().out
    assert "Ta main (26)" in screen.replace("**", "")
    game = table.game
    await play_until(fake, clock, [], lambda: game.to_act == 0)
    terminal.show()
    version = game.version
    await terminal.handle("1")  # the hand's first select: asks which option, answers 1
    assert game.version > version
    with pytest.raises(UserActionError):
        await terminal.handle("99")
    assert parse_options(["preset:presi"]) == {"preset": "presi"}


def test_countdowns_are_drawn_relative_to_now() -> None:
    assert countdowns("to play <t:130:R>", 100.0) == "to play (in 30s)"
    assert countdowns("<t:90:R>", 100.0) == "(10s ago)"


async def test_french_names_and_controls_redrawn_since_the_screen_was_printed(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    user = fake.add_user("you", locale="fr")
    terminal = Terminal(fake, user)

    async def ask(prompt: str) -> str:
        return "1"

    monkeypatch.setattr(terminal, "ask", ask)
    await terminal.handle("/president ouvrir regles:wild7")  # as a French client shows it
    table = table_of(president, user)
    assert table.rules.preset_id == "wild7"
    terminal.show()
    await terminal.handle("3")  # Ajouter un bot
    terminal.show()
    await terminal.handle("5")  # Lancer
    await tick(fake, clock, 1)
    terminal.show()
    await terminal.handle("B 1")  # Ma main
    game = table.game
    assert game is not None
    await play_until(fake, clock, [], lambda: game.to_act == 0)
    terminal.show()
    option = game.legal_plays(0)[0]
    await president.service.play(table, user.id, option.cards, option.announce, game.version)
    await play_until(fake, clock, [], lambda: game.to_act == 0)  # the bot answered
    await tick(fake, clock, 1)  # and the hand was redrawn
    version = game.version
    await terminal.handle("1")  # the printed hand is outdated: act on the one shown now
    assert game.version > version
