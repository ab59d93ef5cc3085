"""End-to-end: play-test 6, between games — a friend arriving while a finished game shows
its results, a waiting player who becomes the host, and the host's choice once a game is
over at a table of friends and bots."""

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import cid, host_against_three_bots, message, tick

LOCALES = ["fr", "en"]


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_host_told_of_a_missing_permission_reads_it_as_a_warning(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """« Je n’arrive plus à publier la table » was the one refusal-like message without
    « ⚠️ », though it says the table shows nothing of what the host just did, as the
    missing permission refuses /president create: it leads with it like the others."""
    marie = fake.add_user("marie", locale=locale)
    table = await host_against_three_bots(instant, marie, "rounds:2")
    await tick(fake, clock, 1)
    board = message(marie, table.table_message_id)
    fake.set_bot_permissions(fake.channel, view_channel=False)
    for _ in range(120):  # until the table's next redraw is refused
        if fake.invalid_requests():
            break
        await tick(fake, clock, 1)
    fake.expect_error(50001)
    await marie.click(board, cid(table, "hand"))
    permission = t(locale, "perm.view_channel")
    assert marie.last_ephemeral().content == "⚠️ " + t(locale, "err.cannot_post",
                                                        permission=permission)
