"""Application emojis on the fake, through discord.py's own calls, with Discord's limits."""

from __future__ import annotations

import discord
import pytest

from fakediscord import FakeDiscord

from .tinybot import TinyBot

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 64


async def test_create_list_rename_delete(fake: FakeDiscord, bot: TinyBot) -> None:
    made = await bot.create_application_emoji(name="pz_card", image=PNG)
    assert made.is_application_owned()
    assert [(e.id, e.name) for e in await bot.fetch_application_emojis()] == [(made.id, "pz_card")]
    assert fake.emojis.emojis[made.id].image == PNG
    renamed = await made.edit(name="pz_other")
    assert (await bot.fetch_application_emoji(made.id)).name == renamed.name == "pz_other"
    await renamed.delete()
    assert await bot.fetch_application_emojis() == []


@pytest.mark.parametrize(("name", "image", "code"), [
    ("a", PNG, 50035),                      # under 2 characters
    ("has-dash", PNG, 50035),               # letters, digits and underscores only
    ("x" * 33, PNG, 50035),                 # over 32 characters
    ("big", PNG + b"\0" * 256 * 1024, 50035),  # over 256 KiB
])
async def test_limits(fake: FakeDiscord, bot: TinyBot, name: str, image: bytes, code: int) -> None:
    with pytest.raises(discord.HTTPException) as refused:
        await bot.create_application_emoji(name=name, image=image)
    assert refused.value.code == code
    fake.expect_error(code)


async def test_names_are_unique_and_an_application_owns_at_most_2000(
    fake: FakeDiscord, bot: TinyBot
) -> None:
    await bot.create_application_emoji(name="twice", image=PNG)
    with pytest.raises(discord.HTTPException):
        await bot.create_application_emoji(name="twice", image=PNG)
    fake.expect_error(50035)
    for i in range(1999):
        fake.emojis.add(f"e{i}", PNG)
    with pytest.raises(discord.HTTPException) as refused:
        await bot.create_application_emoji(name="one_more", image=PNG)
    assert refused.value.code == 30008
    fake.expect_error(30008)
