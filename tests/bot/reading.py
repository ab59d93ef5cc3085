"""What a player reads on a message, and whether it is fit to be read: the play-tests'
eye on every lobby, panel, table message and hand they pass (play-tests 39 and 40)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from bot.i18n import CATALOGUES
from fakediscord import Message, TestUser

# A catalogue key shown as it is (« hand.folded ») where its words should be.
KEYS = {key for catalogue in CATALOGUES.values() for key in catalogue}


def read(msg: Message) -> str:
    """Everything a player reads on ``msg``: its text (`Message.text`: content, text
    displays, each embed's author, title, description, fields and footer) and its
    controls' words."""
    words = [msg.text]
    words += [s.placeholder or "" for s in msg.selects]
    words += [o.label for s in msg.selects for o in s.options]
    words += [b.label or "" for b in msg.buttons]
    return "\n".join(words)


def well_written(msg: Message, locale: str) -> None:
    """Within Discord's limits, no key shown raw, and each language's typography."""
    assert len(msg.content) <= 2000
    assert len(msg.buttons) + len(msg.selects) <= 25 and all(
        len(s.options) <= 25 for s in msg.selects)
    text = read(msg)
    assert not KEYS & set(re.findall(r"\b[a-z_]+(?:\.[a-z_0-9]+)+\b", text)), text
    if locale == "fr":
        assert "'" not in text and " :" not in text.replace("\u00a0:", ""), text
    else:
        assert "’" not in text and "\u00a0:" not in text and "«" not in text, text


def changed(users: dict[str, TestUser], seen: dict[tuple[str, int], str],
            dms: bool = False) -> Iterator[tuple[str, Message, str]]:
    """Each message a member sees (and their DMs with ``dms``) whose words changed since
    ``seen`` last held them: a play-test reads every version once, not the same one at
    each step. ``seen`` is updated as they are yielded."""
    for name, user in users.items():
        shown = user.visible() + user.visible(user.dm) if dms else user.visible()
        for msg in shown:
            text = read(msg)
            if seen.get((name, msg.id)) != text:
                seen[(name, msg.id)] = text
                yield name, msg, text
