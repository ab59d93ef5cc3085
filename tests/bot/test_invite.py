"""The invite the docs give and the one the bot hands out (`permissions.absent`) ask for the
same permissions, Read Message History among them since stop 50 (docs/bot.md, « Privacy and
leftovers (stop 50) »)."""

import re
from pathlib import Path

from bot.packages.permissions import INVITE

ROOT = Path(__file__).resolve().parents[2]


def test_the_invite_asks_for_read_message_history() -> None:
    assert INVITE.read_message_history
    assert (INVITE.view_channel, INVITE.send_messages, INVITE.send_messages_in_threads,
            INVITE.attach_files) == (True, True, True, True)


def test_the_deploy_guide_s_invite_link_is_the_bot_s() -> None:
    text = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    asked = {int(found) for found in re.findall(r"permissions=(\d+)", text)}
    assert asked == {INVITE.value}
    assert f"`{INVITE.value}`" in text
