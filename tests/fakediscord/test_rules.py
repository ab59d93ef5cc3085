"""Replies Discord refuses are refused here too, with Discord's error codes."""

from __future__ import annotations

import pytest

from fakediscord import DiscordError, FakeDiscord, SettleTimeout, TestUser
from fakediscord.command_limits import check_commands
from fakediscord.limits import check_message, check_modal

from .tinybot import TinyBot


async def test_answer_after_three_seconds_is_unknown_interaction(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    inter = await alice.slash("slow", settle=False)
    fake.clock.advance(3.01)
    bot.gate.set()
    await fake.settle()

    refused = fake.expect_error(10062)
    assert (refused.status, refused.user) == (404, "alice")
    assert not inter.acknowledged
    assert alice.visible() == []


async def test_answer_within_three_seconds_is_fine(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    inter = await alice.slash("slow", settle=False)
    fake.clock.advance(2.9)
    bot.gate.set()
    await fake.settle()

    assert inter.response_type == 4


async def test_second_acknowledgement_is_refused(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    await alice.slash("double")

    assert fake.expect_error(40060).status == 400
    assert [m.content for m in alice.visible()] == ["one"]


@pytest.mark.parametrize(
    ("kind", "path"),
    [
        ("options26", ["components", "0", "components", "0", "options"]),
        ("customid101", ["components", "0", "components", "0", "custom_id"]),
        ("duplicate", ["components", "0", "components", "1", "custom_id"]),
        ("long", ["content"]),
    ],
)
async def test_reply_breaking_a_limit_is_invalid_form_body(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser, kind: str, path: list[str]
) -> None:
    inter = await alice.slash("broken", kind=kind)

    refused = fake.expect_error(50035)
    assert refused.status == 400 and refused.error is not None
    node = refused.error["errors"]
    for key in path:
        node = node[key]
    assert node["_errors"]
    assert not inter.acknowledged
    assert len(bot.failures) == 1
    assert alice.visible() == []


async def test_edit_with_an_expired_token(fake: FakeDiscord, bot: TinyBot, alice: TestUser) -> None:
    await alice.slash("edit_later")
    fake.clock.advance(15 * 60 + 1)
    bot.gate.set()
    await fake.settle()

    assert fake.expect_error(50027).status == 401
    assert alice.last_ephemeral().content == "first"


async def test_followup_with_an_expired_token(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    await alice.slash("later")
    fake.clock.advance(15 * 60 + 1)
    bot.gate.set()
    await fake.settle()

    fake.expect_error(50027)
    assert alice.last_ephemeral().loading


async def test_unexpected_errors_fail_the_test(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    await alice.slash("broken", kind="long")

    with pytest.raises(AssertionError, match="50035 Invalid Form Body"):
        fake.assert_no_errors()
    fake.expect_error(50035)
    with pytest.raises(AssertionError, match="expected a Discord error 10062"):
        fake.expect_error(10062)


async def test_settle_names_interactions_the_bot_never_answers(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    await alice.slash("slow", settle=False)
    with pytest.raises(SettleTimeout, match="/slow by alice"):
        await fake.settle(timeout=0.2)
    bot.gate.set()
    await fake.settle()


def _errors(payload: dict[str, object]) -> dict[str, object]:
    with pytest.raises(DiscordError) as caught:
        check_message(payload)
    assert caught.value.errors is not None
    return caught.value.errors


def _button(custom_id: str, label: str = "b") -> dict[str, object]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def _row(*children: dict[str, object]) -> dict[str, object]:
    return {"type": 1, "components": list(children)}


def test_layout_limits() -> None:
    six_rows = [_row(_button(f"r{i}")) for i in range(6)]
    assert "_errors" in _errors({"components": six_rows})["components"]  # type: ignore[operator]

    six_buttons = [_row(*(_button(f"b{i}") for i in range(6)))]
    assert _errors({"components": six_buttons})["components"]["0"]["components"]["_errors"]  # type: ignore[index]

    select = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}
    mixed = [_row(_button("b"), select)]
    assert "COMPONENT_LAYOUT_WIDTH_EXCEEDED" in str(_errors({"components": mixed}))

    assert "BASE_TYPE_MAX_LENGTH" in str(_errors({"components": [_row(_button("b", "x" * 81))]}))
    too_many = {**select, "max_values": 2}
    assert "SELECT_COMPONENT_MAX_VALUES_TOO_LARGE" in str(_errors({"components": [_row(too_many)]}))
    long_option = {**select, "options": [{"label": "a" * 101, "value": "a"}]}
    assert _errors({"components": [_row(long_option)]})


def test_the_limits_a_big_table_comes_near() -> None:
    """What a crowded table's messages and hands come near, refused one past Discord's
    limit and accepted at it: content, options per select, an option's description, a
    custom_id."""
    assert "content" in _errors({"content": "c" * 2001})
    check_message({"content": "c" * 2000})
    options = [{"label": f"{i}", "value": f"{i}"} for i in range(26)]
    select = {"type": 3, "custom_id": "s", "options": options}
    assert "options" in str(_errors({"components": [_row(select)]}))
    check_message({"components": [_row({**select, "options": options[:25]})]})
    described = [{"label": "a", "value": "a", "description": "d" * 101}]
    assert "description" in str(_errors({"components": [_row({**select, "options": described})]}))
    assert "custom_id" in str(_errors({"components": [_row(_button("i" * 101))]}))
    check_message({"components": [_row(_button("i" * 100))]})


def test_embed_limits() -> None:
    assert "embeds" in _errors({"embeds": [{"title": "t"}] * 11})
    assert _errors({"embeds": [{"description": "d" * 4097}]})
    total = [{"description": "d" * 4000}, {"description": "d" * 2001}]
    assert "MAX_EMBED_SIZE_EXCEEDED" in str(_errors({"embeds": total}))
    check_message({"embeds": [{"description": "d" * 4096}]})


def test_an_attachments_alt_text_is_at_most_1024_characters() -> None:
    picture = {"filename": "points.png", "description": "d" * 1025}
    assert "attachments" in _errors({"attachments": [picture]})
    check_message({"attachments": [{**picture, "description": "d" * 1024}]})


def test_components_v2_rules() -> None:
    v2 = 1 << 15
    legacy = {"flags": v2, "content": "no", "components": [{"type": 10, "content": "x"}]}
    assert "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2" in str(_errors(legacy))
    text = [{"type": 10, "content": "x" * 2001}, {"type": 10, "content": "y" * 2000}]
    assert "COMPONENT_DISPLAY_TEXT_TOO_LONG" in str(_errors({"flags": v2, "components": text}))
    nested = [{"type": 17, "components": [{"type": 17, "components": []}]}]
    assert "UNION_TYPE_CHOICES" in str(_errors({"flags": v2, "components": nested}))
    section = {
        "type": 9,
        "components": [{"type": 10, "content": "Seat 1"}],
        "accessory": _button("sit"),
    }
    check_message(
        {"flags": v2, "components": [{"type": 17, "components": [section, _row(_button("go"))]}]}
    )
    assert "COMPONENT_CUSTOM_ID_DUPLICATED" in str(
        _errors({"flags": v2, "components": [section, _row(_button("sit"))]})
    )


def test_empty_message_and_modal() -> None:
    with pytest.raises(DiscordError) as caught:
        check_message({"content": ""})
    assert caught.value.code == 50006
    with pytest.raises(DiscordError):
        check_modal({"custom_id": "m", "title": "t" * 46, "components": []})


def test_a_custom_emoji_on_a_component_must_exist() -> None:
    """A button or an option showing a custom emoji the application does not own (one
    deleted since, say) is refused, as Discord answers BUTTON_COMPONENT_INVALID_EMOJI; a
    unicode emoji has no id and always passes."""
    option = {"label": "9", "value": "9", "emoji": {"id": "77", "name": "fr_9H_abcdef"}}
    select = {"type": 3, "custom_id": "s", "options": [option]}
    button = {**_button("b"), "emoji": {"id": "77", "name": "fr_9H_abcdef"}}
    for rows in ([{"type": 1, "components": [select]}], [{"type": 1, "components": [button]}]):
        with pytest.raises(DiscordError) as caught:
            check_message({"components": rows}, emoji_ids={76})
        assert "BUTTON_COMPONENT_INVALID_EMOJI" in str(caught.value.errors)
        check_message({"components": rows}, emoji_ids={77})
    unicode = {**_button("u"), "emoji": {"id": None, "name": "🃏"}}
    check_message({"components": [{"type": 1, "components": [unicode]}]})


def _command(**changes: object) -> dict[str, object]:
    option = {"type": 3, "name": "preset", "description": "rules", "required": False,
              "choices": [{"name": "Classic", "value": "classic"}]}
    command: dict[str, object] = {"name": "president", "description": "Play", "type": 1,
                                  "options": [option]}
    command.update(changes)
    return command


@pytest.mark.parametrize("command", [
    _command(name="join!"),                                      # outside the naming regex
    _command(name_localizations={"fr": "Re Joindre"}),           # a localized name too
    _command(description_localizations={"fr": "d" * 101}),       # localized description > 100
    _command(options=[{"type": 3, "name": "a", "description": "a", "required": False},
                      {"type": 3, "name": "b", "description": "b", "required": True}]),
    _command(options=[{"type": 3, "name": "p", "description": "p",
                       "choices": [{"name": "c" * 101, "value": "c"}]}]),
    _command(options=[{"type": 3, "name": "p", "description": "p",
                       "choices": [{"name": "c", "value": "v" * 101}]}]),
    _command(options=[{"type": 3, "name": f"o{i}", "description": "d" * 100,
                       "description_localizations": {"fr": "é" * 100},
                       "choices": [{"name": "n" * 100, "value": "v" * 100}] * 25}
                      for i in range(2)]),                       # over 8000 characters
])
def test_commands_discord_would_refuse(command: dict[str, object]) -> None:
    with pytest.raises(DiscordError):
        check_commands([command])


def test_commands_in_every_script_the_naming_rule_allows() -> None:
    check_commands([_command(name="président", name_localizations={"fr": "président",
                                                                    "hi": "खेल", "th": "เล่น"})])


def _modal(field: dict[str, object], **label: object) -> dict[str, object]:
    return {"custom_id": "m", "title": "Turn seconds", "components": [
        {"type": 18, "label": "New value", **label, "component": field}]}


TEXT = {"type": 4, "custom_id": "v", "style": 1}


@pytest.mark.parametrize("modal", [
    _modal(TEXT, label="l" * 46),                                  # a Label's label > 45
    _modal(TEXT, description="d" * 101),                           # its description > 100
    {"custom_id": "m", "title": "t", "components": [{"type": 18, "component": TEXT}]},
    _modal({**TEXT, "placeholder": "p" * 101}),                    # placeholder > 100
    _modal({**TEXT, "max_length": 5000}),
    _modal({**TEXT, "min_length": 10, "max_length": 5}),
    _modal({"type": 3, "custom_id": "s", "disabled": True,
            "options": [{"label": "a", "value": "a"}]}),           # disabled in a modal
    {"custom_id": "m", "title": "t", "components": [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "b", "custom_id": "b"}]}]},
])
def test_modals_discord_would_refuse(modal: dict[str, object]) -> None:
    with pytest.raises(DiscordError):
        check_modal(modal)


def test_a_labelled_text_input_within_the_limits_passes() -> None:
    check_modal(_modal({**TEXT, "placeholder": "45", "min_length": 1, "max_length": 20},
                       description="Seconds per turn, 10 to 600"))


def test_an_edit_reparses_mentions_only_when_it_changes_the_content(fake: FakeDiscord) -> None:
    """Discord rebuilds a message's mentions when an edit changes its content, by the
    edit's allowed_mentions or by default; an edit of other fields (a file attached) keeps
    those the message had."""
    none: dict[str, list[str]] = {"parse": []}
    message = fake.writer.create(fake.channel, {"content": "<@1>", "allowed_mentions": none}, [])
    fake.writer.edit(message, {"components": []}, [])
    assert not fake.writer.may_ping(message.id)
    fake.writer.edit(message, {"content": "<@1> again"}, [])
    assert fake.writer.may_ping(message.id)
    fake.writer.edit(message, {"content": "<@1>", "allowed_mentions": none}, [])
    assert not fake.writer.may_ping(message.id)


def test_a_new_message_notifies_the_users_its_allowed_mentions_let_through(
    fake: FakeDiscord,
) -> None:
    """Only users both mentioned in the content and let through by allowed_mentions are
    notified (all those mentioned without it), as the message is created, never by an edit."""
    only_2 = {"parse": [], "users": ["2"]}
    message = fake.writer.create(fake.channel, {"content": "<@1> <@2>",
                                                "allowed_mentions": only_2}, [])
    assert fake.writer.pinged(message.id) == {2}
    fake.writer.edit(message, {"content": "<@1> <@2> <@3>"}, [])
    assert fake.writer.pinged(message.id) == {2}
    plain = fake.writer.create(fake.channel, {"content": "<@!1> and <@3>"}, [])
    assert fake.writer.pinged(plain.id) == {1, 3}
    users = fake.writer.create(fake.channel, {"content": "<@1>",
                                              "allowed_mentions": {"parse": ["users"]}}, [])
    assert fake.writer.pinged(users.id) == {1}
    nobody = fake.writer.create(fake.channel, {"content": "<@1>",
                                               "allowed_mentions": {"parse": []}}, [])
    assert fake.writer.pinged(nobody.id) == frozenset()
