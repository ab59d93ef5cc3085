"""End-to-end: what stop 49's features do together, as its review found them (docs/bot.md,
« Review of stop 49 »): a host's break (play-test 29) on a table that channel chatter
buries (play-test 28)."""

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.publisher.buried import BURIED_AFTER, EVERY, QUIET
from fakediscord import FakeDiscord
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import cid, message, tick
from .test_e2e_playtest28 import chat, her_turn_with_bob


async def test_a_paused_table_buried_under_the_chat_comes_back_paused_and_continues(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """The pizza arrives and everyone talks: marie's paused table, buried, comes back to
    the bottom saying the break once, with « Continuer » and no « Pause »; the clocks
    still wait (the timer's deadline unset, no bot plays), and « Continuer » on the new
    message runs them on."""
    marie, bob, table = await her_turn_with_bob(fake, clock, president, "marie", "fr")
    game = table.game
    assert game is not None
    await marie.click(message(marie, table.table_message_id), cid(table, "pause"))
    await fake.settle()
    old, version = table.table_message_id, game.version
    await chat(fake, bob, BURIED_AFTER)
    await tick(fake, clock, QUIET + 1)

    new = table.table_message_id
    assert new not in (None, old) and table.pause is not None
    board = message(marie, new)
    assert board.content.count(t("fr", "table.paused_until", button=t("fr", "btn.play_on"),
                                 at=f"<t:{int(table.pause.since) + 3600}:R>")) == 1
    labels = [b.label for b in board.buttons]
    assert t("fr", "btn.play_on") in labels and t("fr", "btn.pause") not in labels
    assert not message(marie, old).components
    await tick(fake, clock, 120)
    assert game.version == version and table.paused_since is not None

    await marie.click(board, cid(table, "play_on"))
    await fake.settle()
    assert fresh(table).pause is None and fresh(table).paused_since is None
    assert table.timer_deadline is not None
    fake.assert_no_errors()


async def test_the_hosts_pause_and_continue_as_shown_on_a_message_just_brought_down_work(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """The chat brings the table down as marie presses « Pause » on the message her phone
    still shows, and again as she presses « Continuer »: each does what it says, as « Ma
    main » and « Rejoindre » do there (play-test 28), rather than « this button was shown
    for an earlier moment ». Neither depends on what the message showed: a break holds
    whatever the game is at, and only a break is continued."""
    marie, bob, table = await her_turn_with_bob(fake, clock, president, "marie", "fr")
    shown = message(marie, table.table_message_id)
    await chat(fake, bob, BURIED_AFTER)
    await tick(fake, clock, QUIET + 1)
    assert table.table_message_id != shown.id
    record = await marie.click_shown(shown, t("fr", "btn.pause"))
    # (before: « Ce bouton date… »); its one followup is the break's reason offered (stop 51)
    assert record.acknowledged and len(record.followup_ids) == 1
    assert marie.last_ephemeral().content.startswith(
        t("fr", "done.paused", button=t("fr", "btn.play_on")))
    assert table.pause is not None
    await tick(fake, clock, 1)
    assert t("fr", "btn.play_on") in [b.label for b in
                                      message(marie, table.table_message_id).buttons]

    shown = message(marie, table.table_message_id)
    await tick(fake, clock, EVERY)
    await chat(fake, bob, BURIED_AFTER)
    await tick(fake, clock, QUIET + 1)
    assert table.table_message_id != shown.id
    await marie.click_shown(shown, t("fr", "btn.play_on"))
    assert fresh(table).pause is None and fresh(table).paused_since is None
    fake.assert_no_errors()
