"""A tiny discord.py bot exercising what the Président bot relies on, right and wrong."""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord
from discord import app_commands

from fakediscord.clock import FakeClock

IDENTIFY_WINDOW = 5.0

CARDS = [
    discord.SelectOption(label="K×2", value="K2"),
    discord.SelectOption(label="Q×1", value="Q1"),
]


class JoinButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"table:(?P<id>\d+):join"
):
    """Restart-safe: its custom_id carries everything the callback needs."""

    def __init__(self, table_id: int) -> None:
        super().__init__(discord.ui.Button(label="Join", custom_id=f"table:{table_id}:join"))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> JoinButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: TinyBot = interaction.client
        bot.joins.append((self.table_id, interaction.user.id))
        assert interaction.message is not None
        await interaction.response.edit_message(
            content=f"{interaction.message.content}\n{interaction.user.display_name} joined"
        )


def table_view(table_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(JoinButton(table_id))
    return view


class HandView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.cards: discord.ui.Select[HandView] = discord.ui.Select(
            placeholder="Choose cards", options=list(CARDS), custom_id="hand:cards"
        )
        self.cards.callback = self.pick  # type: ignore[method-assign]
        self.add_item(self.cards)

    @discord.ui.button(label="Pass", custom_id="hand:pass")
    async def pass_turn(
        self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="You passed", view=None)

    @discord.ui.button(label="Note", custom_id="hand:note")
    async def note(
        self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.send_modal(NoteModal())

    @discord.ui.button(label="Fold", custom_id="hand:fold")
    async def fold(
        self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.defer()
        await interaction.delete_original_response()

    @discord.ui.button(label="Wait", custom_id="hand:wait", disabled=True)
    async def hold(
        self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]
    ) -> None:
        raise AssertionError("disabled buttons cannot be clicked")

    async def pick(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.edit_message(content=f"You picked {self.cards.values}")


class RenameModal(discord.ui.Modal, title="Rename the table"):
    name: discord.ui.TextInput[RenameModal] = discord.ui.TextInput(
        label="Table name", custom_id="name", max_length=20
    )

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"Renamed to {self.name.value}")


class NoteModal(discord.ui.Modal, title="Note"):
    """Opened from a button, so its submit may update the hand (response type 7)."""

    text: discord.ui.Label[NoteModal] = discord.ui.Label(
        text="Your note", component=discord.ui.TextInput(custom_id="note", required=False)
    )

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        assert isinstance(self.text.component, discord.ui.TextInput)
        await interaction.response.edit_message(content=f"Note: {self.text.component.value or '-'}")


def broken_view(kind: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if kind == "options26":
        options = [discord.SelectOption(label=f"card {i}") for i in range(26)]
        view.add_item(discord.ui.Select(custom_id="too-many", options=options))
    elif kind == "customid101":
        view.add_item(discord.ui.Button(label="Long", custom_id="x" * 101))
    elif kind == "duplicate":
        view.add_item(discord.ui.Button(label="One", custom_id="same"))
        view.add_item(discord.ui.Button(label="Two", custom_id="same"))
    return view


president = app_commands.Group(name="president", description="Président tables")


@president.command(description="Open a table")
@app_commands.choices(
    preset=[
        app_commands.Choice(name="Classic", value="classic"),
        app_commands.Choice(name="Presi", value="presi"),
    ]
)
async def create(
    interaction: discord.Interaction[Any],
    preset: str,
    seats: app_commands.Range[int, 2, 8] = 4,
    public: bool = True,
) -> None:
    bot: TinyBot = interaction.client
    table_id = interaction.id % 10_000
    await interaction.response.send_message(
        f"Table {table_id} ({preset}, {seats} seats, public={public}) by {interaction.user.display_name}",
        view=table_view(table_id),
    )
    bot.tables[table_id] = (await interaction.original_response()).id
    await interaction.followup.send(f"You host table {table_id}", ephemeral=True)


@president.command(description="Show your hand")
async def hand(interaction: discord.Interaction[Any]) -> None:
    locale = (
        f"{interaction.locale.value}/{interaction.guild_locale and interaction.guild_locale.value}"
    )
    await interaction.response.send_message(
        f"Your hand ({locale})", view=HandView(), ephemeral=True
    )


@president.command(description="Invite someone")
async def invite(interaction: discord.Interaction[Any], who: discord.Member) -> None:
    await interaction.response.send_message(
        f"{interaction.user.display_name} invites {who.mention}"
    )


@president.command(description="Export your hand as a file")
async def export(interaction: discord.Interaction[Any]) -> None:
    upload = discord.File(io.BytesIO(b"KH KS QD"), filename="hand.txt")
    await interaction.response.send_message("Your hand", file=upload, ephemeral=True)


rules = app_commands.Group(name="rules", description="Table rules", parent=president)


@rules.command(name="set", description="Change a rule")
async def set_rule(interaction: discord.Interaction[Any], knob: str, value: str) -> None:
    await interaction.response.send_message(f"{knob} = {value}")


@president.command(description="Rename the table")
async def rename(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_modal(RenameModal())


@app_commands.command(description="Answers only once the test opens the gate")
async def slow(interaction: discord.Interaction[Any]) -> None:
    bot: TinyBot = interaction.client
    await bot.gate.wait()
    await interaction.response.send_message("finally")


@app_commands.command(description="Thinks, then answers through a follow-up once the gate opens")
async def later(interaction: discord.Interaction[Any]) -> None:
    bot: TinyBot = interaction.client
    await interaction.response.defer(ephemeral=True, thinking=True)
    await bot.gate.wait()
    await interaction.followup.send("done thinking")


@app_commands.command(description="Edits its reply once the gate opens")
async def edit_later(interaction: discord.Interaction[Any]) -> None:
    bot: TinyBot = interaction.client
    await interaction.response.send_message("first", ephemeral=True)
    await bot.gate.wait()
    await interaction.edit_original_response(content="second")


@app_commands.command(description="Two handlers answer the same interaction")
async def double(interaction: discord.Interaction[Any]) -> None:
    await asyncio.gather(
        interaction.response.send_message("one"),
        interaction.response.send_message("two"),
        return_exceptions=True,
    )


@app_commands.command(description="Posts to the channel and edits the post")
async def post(interaction: discord.Interaction[Any]) -> None:
    assert isinstance(interaction.channel, discord.TextChannel)
    message = await interaction.channel.send("posted")
    await message.edit(content="posted and edited")
    await (await interaction.channel.send("temporary")).delete()
    await interaction.response.send_message("ok", ephemeral=True)


@app_commands.command(description="Replies in ways Discord refuses")
@app_commands.choices(
    kind=[
        app_commands.Choice(name=k, value=k)
        for k in ("options26", "customid101", "duplicate", "long")
    ]
)
async def broken(interaction: discord.Interaction[Any], kind: str) -> None:
    content = "x" * 2001 if kind == "long" else "broken"
    await interaction.response.send_message(content, view=broken_view(kind))


class TinyBot(discord.Client):
    def __init__(self, **options: Any) -> None:
        """``options`` go to discord.py, e.g. ``shard_id`` and ``shard_count``."""
        intents = discord.Intents.default()
        intents.members = True  # so the fake answers member chunking (op 8) at startup
        super().__init__(intents=intents, guild_ready_timeout=0, **options)
        self.tree = app_commands.CommandTree(self)
        self.gate = asyncio.Event()
        self.joins: list[tuple[int, int]] = []
        self.tables: dict[int, int] = {}
        self.failures: list[Exception] = []
        self.synced: list[app_commands.AppCommand] = []
        commands: list[app_commands.Group | app_commands.Command[Any, Any, Any]] = [
            president,
            slow,
            later,
            edit_later,
            double,
            post,
            broken,
        ]
        for command in commands:
            self.tree.add_command(command)
        self.tree.on_error = self.record_failure  # type: ignore[method-assign]

    async def setup_hook(self) -> None:
        self.add_dynamic_items(JoinButton)
        self.synced = await self.tree.sync()

    async def record_failure(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        self.failures.append(error)


class ShardedTinyBot(TinyBot, discord.AutoShardedClient):
    """The same bot as an AutoShardedClient, which asks ``GET /gateway/bot`` first."""

    def __init__(self, clock: FakeClock, **options: Any) -> None:
        super().__init__(**options)
        self.clock = clock
        self.last_identify: float | None = None

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Space IDENTIFYs by Discord's 5 seconds (max_concurrency 1) on the fake clock, as
        discord.py's default does on the wall clock: the fake refuses them sooner."""
        if self.last_identify is not None:
            await self.clock.sleep(self.last_identify + IDENTIFY_WINDOW - self.clock.monotonic())
        self.last_identify = self.clock.monotonic()
