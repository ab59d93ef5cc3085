"""End-to-end: what earlier stops left and stop 49 fixed (docs/bot.md, « Leftovers
(stop 49) »): the word owed to an unreadable table's channel, posted then killed, is posted
once even when the next start comes after Discord has forgotten the post's nonce."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.packages.permissions import INVITE
from fakediscord import FakeDiscord, errors
from fakediscord.messages import NONCE_WINDOW

from .conftest import LinkedClock
from .e2e import database_url, tick
from .test_e2e_unreadable_restart import posted_then_killed, start


async def test_an_unreadable_table_s_word_is_posted_once_by_a_start_past_the_nonce(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The next start comes ten minutes later, when Discord no longer enforces the post's
    nonce (« in the past few minutes »; the fake's two). It posted the word a second time;
    it now finds the bot's own post in the channel's history, after the word was owed, and
    posts nothing. The start after says nothing either."""
    url = database_url(tmp_path)
    channel, said = await posted_then_killed(fake, clock, url, monkeypatch, caplog)
    await tick(fake, clock, 5 * NONCE_WINDOW.total_seconds())
    for _ in range(2):
        bot = await start(fake, clock, url)
        assert [m.content for m in fake.messages(channel)] == [said]
        await fake.disconnect(bot)
    fake.expect_error(errors.UNKNOWN_MESSAGE)
    fake.assert_no_errors()


async def test_a_bot_with_only_what_its_invite_asks_posts_the_word_once(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A server whose @everyone was trimmed of Read Message History, the bot's role holding
    exactly what its invite asks for (`permissions.INVITE`). The invite did not ask for
    it: the late start could not read the channel and posted the word a second time. It
    asks for it now (stop 50), and the word is posted once."""
    fake.set_everyone_permissions(fake.guild, read_message_history=False)
    fake.guild.bot_permissions = INVITE.value
    url = database_url(tmp_path)
    channel, said = await posted_then_killed(fake, clock, url, monkeypatch, caplog)
    await tick(fake, clock, 5 * NONCE_WINDOW.total_seconds())
    bot = await start(fake, clock, url)
    assert [m.content for m in fake.messages(channel)] == [said]
    await fake.disconnect(bot)
    fake.expect_error(errors.UNKNOWN_MESSAGE)
    fake.assert_no_errors()


async def test_where_a_channel_denies_read_message_history_the_word_is_posted_again(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Where the bot may not read the channel's history (the invite asks for Read Message
    History since stop 50, but a channel's overwrite may deny it), Discord answers it with
    no message (« If the current user is missing the READ_MESSAGE_HISTORY permission in the
    channel, then no messages will be returned », Get Channel Messages): the late start
    cannot tell the word was said and says it again, rather than risk not saying it (docs/bot.md,
    « Privacy and leftovers (stop 50) »). This is what is left."""
    url = database_url(tmp_path)
    channel, said = await posted_then_killed(fake, clock, url, monkeypatch, caplog)
    fake.set_bot_permissions(channel, read_message_history=False)
    await tick(fake, clock, 5 * NONCE_WINDOW.total_seconds())
    bot = await start(fake, clock, url)
    assert [m.content for m in fake.messages(channel)] == [said, said]
    await fake.disconnect(bot)
    fake.expect_error(errors.UNKNOWN_MESSAGE)
    fake.assert_no_errors()
