"""`Screen.fingerprint` covers everything a message displays: a restart trusts it for what a
message shows (`bot.tables.landed`), and skips the edit of any message whose digest matches."""

from __future__ import annotations

import discord

from bot.packages.screen import Screen


def _select(emoji: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Select(custom_id="play", options=[
        discord.SelectOption(label="3", value="3", emoji=emoji)]))
    return view


def _button(emoji: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(custom_id="hand", label="Ma main", emoji=emoji))
    return view


def _embed(field: str, footer: str = "") -> discord.Embed:
    embed = discord.Embed(title="Stats", description="marie")
    embed.add_field(name="Parties", value=field)
    if footer:
        embed.set_footer(text=footer)
    return embed


async def test_an_option_s_emoji_alone_changes_the_fingerprint() -> None:
    assert Screen("hand", _select("🂡")).fingerprint != Screen("hand", _select("🃏")).fingerprint
    assert Screen("hand", _select("🂡")).fingerprint == Screen("hand", _select("🂡")).fingerprint


async def test_a_button_s_emoji_alone_changes_the_fingerprint() -> None:
    assert Screen("t", _button("🂠")).fingerprint != Screen("t", _button("🃏")).fingerprint


async def test_an_embed_s_fields_and_footer_change_the_fingerprint() -> None:
    assert Screen("", embed=_embed("3")).fingerprint != Screen("", embed=_embed("4")).fingerprint
    assert Screen("", embed=_embed("3")).fingerprint != \
        Screen("", embed=_embed("3", footer="page 2")).fingerprint
    assert Screen("", embed=_embed("3")).fingerprint == Screen("", embed=_embed("3")).fingerprint


async def test_only_the_text_sent_counts() -> None:
    """Discord shows at most 2,000 characters (`Screen.kwargs` cuts the rest): text beyond
    them changes nothing shown."""
    long = "a" * 2000
    assert Screen(long + "b").fingerprint == Screen(long + "c").fingerprint
    assert Screen("a").fingerprint != Screen("b").fingerprint
