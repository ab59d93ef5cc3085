from __future__ import annotations

from fakediscord import FakeDiscord, TestUser, render_message

from .tinybot import TinyBot


async def test_slash_creates_table(fake: FakeDiscord, bot: TinyBot, alice: TestUser) -> None:
    inter = await alice.slash("president create", preset="classic")
    assert inter.response_type == 4
    for m in alice.visible():
        print(render_message(m))
    print(fake.calls)
