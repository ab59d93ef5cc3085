"""End-to-end: leftovers of stop 59 that players would notice (docs/bot.md « Leftovers of
stop 59 (stop 60) »): a guest's `/president settings` mid-game, and the lobby's other host
actions (`/president addbot`, `/president start`), and a break's offer taken back in the
language the player reads now.

Time is the fake's: nothing sleeps."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.controls import WARNING
from bot.tables.table import Table
from fakediscord import FakeDiscord, TestUser
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import cid, connect_bot, create_table, database_url, message, tick
from .test_e2e_playtest29 import a_humans_turn, pause, play_on


async def game_on(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot, marie: TestUser,
                  bob: TestUser) -> Table:
    """marie's table with bob and a bot at it, its game started."""
    table = await create_table(bot, marie)
    await bob.slash("president join")
    lobby = message(marie, table.lobby_message_id)
    await marie.click(lobby, cid(table, "addbot"))
    await marie.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    assert fresh(table).game is not None and not table.is_host(bob.id)
    return table


@pytest.mark.parametrize(("device", "chosen"), [("en-US", None), ("fr", "en")])
async def test_a_guest_s_settings_mid_game_say_first_they_are_fixed_until_the_lobby(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, device: str, chosen: str | None,
) -> None:
    """Play-test 43: bob, seated at marie's French table mid-game, typed `/president
    settings` and read only that the host may, and that he could take the role over if she
    had not acted in ten minutes; he would then have been refused, the settings being
    fixed until the lobby. That comes first now, to anyone, in the player's own language
    (his device's, or the one he chose: paul's French device, English chosen), the
    command named as his client lists it; nothing about the host."""
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    marie = fake.add_user("marie", locale="fr")
    bob = fake.add_user("bob", locale=device)
    if chosen is not None:
        await bob.slash("president my-language", language=chosen)
    table = await game_on(fake, clock, bot, marie, bob)

    await bob.slash("president settings")
    answer = bob.last_ephemeral()
    rules = "`/president rules`" if device == "en-US" else "`/president règles`"
    assert answer.ephemeral and answer.content.startswith(
        WARNING + "The rules and the table's settings"), answer.content
    assert rules in answer.content and "host" not in answer.content, answer.content
    assert table.host_id == marie.id
    await fake.disconnect(bot)
    fake.assert_no_errors()


@pytest.mark.parametrize(("device", "chosen"), [("en-US", None), ("fr", "en")])
async def test_a_guest_s_lobby_actions_mid_game_say_first_a_game_is_on(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, device: str, chosen: str | None,
) -> None:
    """As the settings: bob, seated at marie's French table mid-game, typed `/president
    addbot` or `/president start` and read only that the host may, and that he could take
    the role over if she had not acted in ten minutes, where he would then have read that a
    game is on. That comes first now, to anyone, in the player's own language (his
    device's, or the one he chose), the button named as the table shows it; nothing about
    the host. zoe, watching without a seat, holds no hand to be pointed to."""
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    marie = fake.add_user("marie", locale="fr")
    bob = fake.add_user("bob", locale=device)
    zoe = fake.add_user("zoe", locale=device)
    for user in (bob, zoe):
        if chosen is not None:
            await user.slash("president my-language", language=chosen)
    table = await game_on(fake, clock, bot, marie, bob)

    hand = t(table.locale, "btn.my_hand")  # as the table message shows it
    assert hand == "Ma main"
    for user, command, expected in (
            (bob, "addbot", t("en", "err.game_running")),
            (bob, "start", t("en", "err.already_started", hand=hand)),
            (zoe, "addbot", t("en", "err.game_running")),
            (zoe, "start", t("en", "err.game_running"))):
        await user.slash(f"president {command}")
        answer = user.last_ephemeral()
        assert answer.ephemeral and answer.content == WARNING + expected, answer.content
    assert table.host_id == marie.id and len(table.seats) == 3
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_break_s_offer_is_taken_back_in_the_language_chosen_since(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """bob (en-US) presses « Pause » and is offered, in English, to give a reason; he then
    chooses French with `/president my-language`, and his hand is redrawn in it. The offer
    kept the language it was sent in for its one later edit, « this break is over », in
    English beside his French hand: it now speaks the language heard last from him
    (`TableService.locale_of`), as the table's « picks up again » to its host does."""
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    marie, bob, table, _ = await a_humans_turn(fake, clock, bot, "en-US")
    await pause(fake, clock, bob.user, table)
    offer = bob.user.last_ephemeral()
    assert [b.label for b in offer.buttons] == [t("en-US", "btn.pause_reason")]
    await bob.user.slash("president my-language", language="fr")
    await play_on(fake, bob.user, table)
    await tick(fake, clock, 1)
    assert fresh(table).pause is None
    shown = message(bob.user, offer.id)
    assert shown.content == t("fr", "pause.offer_over") and not shown.buttons, shown.content
    await fake.disconnect(bot)
    fake.assert_no_errors()
