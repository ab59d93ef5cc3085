"""The tiny bot's happy paths through the real discord.py client."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

from fakediscord import FakeDiscord, TestUser, TextInput, UserActionError, render_message
from tests.fresh import fresh

from .tinybot import TinyBot


async def test_sync_registers_the_command_tree(fake: FakeDiscord, bot: TinyBot) -> None:
    assert sorted(c.name for c in bot.synced) == [
        "broken",
        "double",
        "edit_later",
        "later",
        "post",
        "president",
        "slow",
    ]
    president = next(c for c in bot.synced if c.name == "president")
    synced = fake.commands.find(fake.guild.id, "president")
    assert synced is not None and president.id == int(synced["id"])
    assert [c.route for c in fake.calls] == [
        "/users/@me",
        "/oauth2/applications/@me",
        "/applications/{application_id}/commands",
    ]


async def test_slash_with_subcommand_options_and_public_reply(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser, bob: TestUser
) -> None:
    inter = await alice.slash("president create", preset="Classic", seats=6, public=False)

    assert inter.response_type == 4
    table, hosting = alice.visible()
    assert table.content.endswith("(classic, 6 seats, public=False) by alice")
    assert not table.ephemeral and table.interaction_user == "alice"
    assert [b.label for b in table.buttons] == ["Join"]
    assert hosting.ephemeral and hosting.content.startswith("You host table")
    assert list(bot.tables.values()) == [table.id]
    assert (inter.original_message_id, inter.followup_ids) == (table.id, [hosting.id])
    assert [m.id for m in fake.messages()] == [table.id, hosting.id]
    assert [m.id for m in bob.visible()] == [table.id]


async def test_ephemeral_view_carries_locales_and_renders(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    await alice.slash("president hand")

    hand = alice.last_ephemeral()
    assert hand.content == "Your hand (fr/en-US)"
    assert render_message(hand) == "\n".join(
        [
            "Président (to alice) [only you can see this]",
            "Your hand (fr/en-US)",
            "[1] (Pass)  [2] (Note)  [3] (Fold)  [4] (Wait) (disabled)",
            "[5] <Choose cards> (pick 1-1)",
            "    - K×2",
            "    - Q×1",
        ]
    )


async def test_select_updates_the_ephemeral_message(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    await alice.slash("president hand")
    hand = alice.last_ephemeral()

    inter = await alice.select(hand, ["K×2"])

    assert inter.response_type == 7
    after = alice.last_ephemeral()
    assert after.id == hand.id and after.content == "You picked ['K2']"
    assert after.edited


async def test_deferred_click_then_edit_original(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    await alice.slash("president hand")
    hand = alice.last_ephemeral()
    mark = fake.mark()

    inter = await alice.click(hand, "Pass")

    assert inter.response_type == 6
    assert alice.last_ephemeral().content == "You passed"
    assert alice.last_ephemeral().components == ()
    assert [(c.method, c.route) for c in fake.calls_since(mark)] == [
        ("POST", "/interactions/{webhook_id}/{webhook_token}/callback"),
        ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ]
    assert {c.user for c in fake.calls_since(mark)} == {"alice"}


async def test_dynamic_item_click_on_public_message(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser, bob: TestUser
) -> None:
    await alice.slash("president create", preset="presi")
    table = bob.last_message()

    await bob.click(table, "Join")

    assert bob.last_message().content.endswith("\nbob joined")
    assert bot.joins == [(int(str(table.buttons[0].custom_id).split(":")[1]), bob.id)]


async def test_user_option_is_resolved_to_a_member(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser, bob: TestUser
) -> None:
    await alice.slash("president invite", who=bob)

    assert alice.last_message().content == f"alice invites {bob.mention}"


async def test_modal_round_trip(fake: FakeDiscord, bot: TinyBot, alice: TestUser) -> None:
    inter = await alice.slash("president rename")

    assert inter.response_type == 9
    assert alice.modal is not None and alice.modal.title == "Rename the table"
    with pytest.raises(UserActionError, match="takes 0 to 20 characters"):
        await alice.modal_submit(name="x" * 21)

    await alice.modal_submit({"Table name": "Chez Alice"})

    assert fresh(alice).modal is None
    assert alice.last_message().content == "Renamed to Chez Alice"


async def test_subcommand_group(fake: FakeDiscord, bot: TinyBot, alice: TestUser) -> None:
    inter = await alice.slash("president rules set", knob="revolution", value="off")

    assert inter.data["options"] == [
        {
            "type": 2,
            "name": "rules",
            "options": [
                {
                    "type": 1,
                    "name": "set",
                    "options": [
                        {"type": 3, "name": "knob", "value": "revolution"},
                        {"type": 3, "name": "value", "value": "off"},
                    ],
                }
            ],
        }
    ]
    assert alice.last_message().content == "revolution = off"


async def test_modal_opened_from_a_button_updates_its_message(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    await alice.slash("president hand")
    hand = alice.last_ephemeral()
    await alice.click(hand, "Note")
    assert alice.modal is not None
    assert alice.modal.inputs == (TextInput("note", "Your note", 1, False, None, None, None, None),)

    inter = await alice.modal_submit({"Your note": "bluff"})

    assert inter.response_type == 7
    assert alice.last_ephemeral().id == hand.id
    assert alice.last_ephemeral().content == "Note: bluff"


async def test_delete_original_response(fake: FakeDiscord, bot: TinyBot, alice: TestUser) -> None:
    await alice.slash("president hand")

    await alice.click(alice.last_ephemeral(), "Fold")

    assert alice.visible() == []


async def test_file_upload_is_multipart(fake: FakeDiscord, bot: TinyBot, alice: TestUser) -> None:
    await alice.slash("president export")

    sent = alice.last_ephemeral()
    assert (sent.content, sent.attachments) == ("Your hand", ("hand.txt",))
    assert render_message(sent).endswith("[file: hand.txt]")


async def test_channel_message_is_posted_and_edited(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser, bob: TestUser
) -> None:
    mark = fake.mark()
    await alice.slash("post")

    post = bob.last_message()
    assert post.content == "posted and edited" and post.edited
    assert post.interaction_user is None
    assert [(c.method, c.route) for c in fake.calls_since(mark)] == [
        ("POST", "/channels/{channel_id}/messages"),
        ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
        ("POST", "/channels/{channel_id}/messages"),
        ("DELETE", "/channels/{channel_id}/messages/{message_id}"),
        ("POST", "/interactions/{webhook_id}/{webhook_token}/callback"),
    ]
    assert [m.content for m in bob.visible()] == ["posted and edited"]


async def test_deferred_thinking_is_filled_by_the_first_followup(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    await alice.slash("later")
    thinking = alice.last_ephemeral()
    assert thinking.loading and "is thinking" in render_message(thinking)

    bot.gate.set()
    await fake.settle()

    done = alice.last_ephemeral()
    assert (done.id, done.content, done.loading) == (thinking.id, "done thinking", False)


async def test_edit_of_ephemeral_through_token(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    await alice.slash("edit_later")
    bot.gate.set()
    await fake.settle()

    assert alice.last_ephemeral().content == "second"


async def test_what_the_ui_would_not_allow(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser, bob: TestUser
) -> None:
    await alice.slash("president hand")
    hand = alice.last_ephemeral()

    with pytest.raises(UserActionError, match="disabled"):
        await alice.click(hand, "Wait")
    with pytest.raises(UserActionError, match="cannot see"):
        await bob.click(hand, "Pass")
    with pytest.raises(UserActionError, match="no option 'A×4'"):
        await alice.select(hand, ["A×4"])
    with pytest.raises(UserActionError, match="not synced"):
        await alice.slash("poker")
    with pytest.raises(UserActionError, match="only offers"):
        await alice.slash("president create", preset="wild7")
    with pytest.raises(UserActionError, match="between 2 and 8"):
        await alice.slash("president create", preset="classic", seats=9)
    with pytest.raises(UserActionError, match="requires option 'preset'"):
        await alice.slash("president create")
    with pytest.raises(UserActionError, match="needs a subcommand"):
        await alice.slash("president")
    assert fake.interactions[-1].description == "/president hand"


async def test_several_guilds_and_channels(fake: FakeDiscord, bot: TinyBot) -> None:
    other = fake.add_guild("Other", locale="es-ES")
    lobby = fake.add_channel(other, "lobby")
    carol = fake.add_user("carol", guilds=[other])
    await fake.settle()

    await carol.slash("president hand")

    assert carol.channel == lobby
    assert carol.last_ephemeral(lobby).content == "Your hand (en-US/es-ES)"
    assert bot.get_channel(lobby.id) is not None
    guild = bot.get_guild(other.id)
    assert guild is not None and guild.get_member(carol.id) is not None
    with pytest.raises(UserActionError, match="not a member"):
        await carol.slash("president hand", channel=fake.channel)


async def test_guild_commands_are_scoped_to_their_guild(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    @app_commands.command(description="Guild only")
    async def ping(interaction: discord.Interaction[TinyBot]) -> None:
        await interaction.response.send_message("pong")

    here = discord.Object(fake.guild.id)
    bot.tree.add_command(ping, guild=here)
    mark = fake.mark()
    await bot.tree.sync(guild=here)
    assert [c.route for c in fake.calls_since(mark)] == [
        "/applications/{application_id}/guilds/{guild_id}/commands"
    ]
    other = fake.add_guild("Other")
    fake.add_channel(other, "lobby")
    carol = fake.add_user("carol", guilds=[other])

    inter = await alice.slash("ping")

    assert inter.data["guild_id"] == str(fake.guild.id)
    assert alice.last_message().content == "pong"
    with pytest.raises(UserActionError, match="not synced"):
        await carol.slash("ping")
