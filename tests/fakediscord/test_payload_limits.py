"""Payload rules of Discord's docs the fake enforces since stop 46: mentions and nonce,
trimmed embeds and their URLs, button styles, select defaults, modal layout, upload
sizes. Each is refused one past the rule, with Discord's code, and accepted at it."""

from __future__ import annotations

from typing import Any

import pytest

from fakediscord import DiscordError, FakeDiscord, TestUser
from fakediscord.limits import check_message, check_modal
from fakediscord.messages import Upload
from fakediscord.payloads import gateway_message_payload, message_payload

from .tinybot import TinyBot

MiB = 1024 * 1024


def _refused(check: Any, *args: Any) -> str:
    with pytest.raises(DiscordError) as caught:
        check(*args)
    assert caught.value.code == 50035 and caught.value.status == 400
    return str(caught.value.errors)


def _write(fake: FakeDiscord, payload: dict[str, Any]) -> str:
    return _refused(fake.writer.create, fake.channel, payload, [])


def test_mentions_parse_and_ids_are_mutually_exclusive(fake: FakeDiscord) -> None:
    both = {"content": "<@1>", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}
    assert "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE" in _write(fake, both)
    roles = {"content": "<@&2>", "allowed_mentions": {"parse": ["roles"], "roles": ["2"]}}
    assert "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE" in _write(fake, roles)
    assert "BASE_TYPE_CHOICES" in _write(fake, {"content": "x", "allowed_mentions":
                                                {"parse": ["here"]}})
    crowd = {"content": "x", "allowed_mentions": {"users": [str(i) for i in range(101)]}}
    assert "BASE_TYPE_MAX_LENGTH" in _write(fake, crowd)
    # "Passing a falsy value such as null or an empty array into the users field does not
    # trigger a validation error"; parse for one kind and ids for the other is fine.
    fake.writer.create(fake.channel, {"content": "<@1>", "allowed_mentions":
                                      {"parse": ["users"], "users": [], "roles": ["2"]}}, [])
    fake.writer.create(fake.channel, {"content": "x", "allowed_mentions":
                                      {"users": [str(i) for i in range(100)]}}, [])


def test_an_edit_and_a_deferred_answer_have_their_mentions_judged_too(fake: FakeDiscord
                                                                      ) -> None:
    message = fake.writer.create(fake.channel, {"content": "x"}, [])
    both = {"parse": ["users"], "users": ["1"]}
    assert "allowed_mentions" in _refused(fake.writer.edit, message,
                                          {"content": "y", "allowed_mentions": both}, [])
    assert message.content == "x"
    with pytest.raises(DiscordError):
        fake.writer.create(fake.channel, {"allowed_mentions": both}, [], loading=True)


def test_a_nonce_is_at_most_25_characters(fake: FakeDiscord) -> None:
    assert "NONCE_TYPE_TOO_LONG" in _write(fake, {"content": "x", "nonce": "n" * 26})
    fake.writer.create(fake.channel, {"content": "x", "nonce": "n" * 25}, [])
    fake.writer.create(fake.channel, {"content": "x", "nonce": 10 ** 18}, [])


def test_embed_text_is_measured_trimmed_and_a_blank_field_is_missing() -> None:
    blank = {"embeds": [{"fields": [{"name": "Seats", "value": "   "}]}]}
    assert "BASE_TYPE_REQUIRED" in _refused(check_message, blank)
    check_message({"embeds": [{"fields": [{"name": "Seats", "value": "\u200b"}]}]})
    check_message({"embeds": [{"title": "  " + "t" * 256 + "\n"}]})
    assert "title" in _refused(check_message, {"embeds": [{"title": "t" * 257}]})
    assert "BASE_TYPE_REQUIRED" in _refused(check_message, {"embeds": [
        {"title": "t", "footer": {"icon_url": "https://x.invalid/i.png"}}]})
    assert "BASE_TYPE_REQUIRED" in _refused(check_message, {"embeds": [
        {"title": "t", "author": {"name": " "}}]})


def test_embed_urls_take_only_their_schemes() -> None:
    picture = {"title": "t", "image": {"url": "attachment://points.png"},
               "thumbnail": {"url": "https://x.invalid/t.png"}, "url": "https://x.invalid"}
    check_message({"embeds": [picture]})
    for bad in ({**picture, "image": {"url": "ftp://x.invalid/p.png"}},
                {**picture, "footer": {"text": "f", "icon_url": "data:image/png;base64,"}},
                {**picture, "author": {"name": "a", "url": "attachment://points.png"}},
                {**picture, "author": {"name": "a", "url": "points.png"}}):
        assert "URL_TYPE_INVALID_SCHEME" in _refused(check_message, {"embeds": [bad]})
    assert "BASE_TYPE_REQUIRED" in _refused(check_message, {"embeds": [
        {"title": "t", "image": {}}]})


def _row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"components": [{"type": 1, "components": list(children)}]}


LINK = {"type": 2, "style": 5, "label": "Rules", "url": "https://x.invalid/rules"}


def test_a_button_has_the_fields_of_its_style() -> None:
    check_message(_row(LINK))
    assert "BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE" in _refused(
        check_message, _row({**LINK, "custom_id": "rules"}))
    primary = {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}
    assert "BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE" in _refused(
        check_message, _row({**primary, "url": "https://x.invalid"}))
    assert "sku_id" in _refused(check_message, _row({**primary, "sku_id": "1"}))
    assert "url" in _refused(check_message, _row({**LINK, "url": "https://x.invalid/"
                                                  + "u" * 495}))
    check_message(_row({**LINK, "url": "https://x.invalid/" + "u" * 494}))
    assert "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED" in _refused(
        check_message, _row({"type": 2, "style": 5, "url": "https://x.invalid"}))
    premium = {"type": 2, "style": 6, "sku_id": "1"}
    check_message(_row(premium))
    assert "label" in _refused(check_message, _row({**premium, "label": "Buy"}))


def _options(count: int, defaults: int) -> list[dict[str, Any]]:
    return [{"label": f"{i}", "value": f"{i}", "default": i < defaults} for i in range(count)]


def test_a_select_shows_no_more_defaults_than_it_takes() -> None:
    select = {"type": 3, "custom_id": "s", "min_values": 0, "max_values": 2,
              "options": _options(5, 2)}
    check_message(_row(select))
    assert "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES" in _refused(
        check_message, _row({**select, "options": _options(5, 3)}))
    chosen = [{"id": str(i), "type": "user"} for i in range(3)]
    users = {"type": 5, "custom_id": "u", "min_values": 1, "max_values": 2,
             "default_values": chosen}
    assert "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES" in _refused(check_message, _row(users))
    check_message(_row({**users, "default_values": chosen[:2]}))


TEXT = {"type": 4, "custom_id": "v", "style": 1}
SELECT = {"type": 3, "custom_id": "s", "options": _options(3, 0)}


def _modal(*components: dict[str, Any]) -> dict[str, Any]:
    return {"custom_id": "m", "title": "Turn seconds", "components": list(components)}


def _label(child: dict[str, Any]) -> dict[str, Any]:
    return {"type": 18, "label": "New value", "component": child}


@pytest.mark.parametrize("modal", [
    _modal(_label({**TEXT, "style": 3})),                          # no such text input style
    _modal(_label({k: v for k, v in TEXT.items() if k != "style"})),
    _modal({"type": 1, "components": [TEXT]}),                     # a row's input lacks a label
    _modal({"type": 1, "components": [{**TEXT, "label": "a"},
                                      {**TEXT, "custom_id": "w", "label": "b"}]}),
    _modal(_label({"type": 2, "style": 1, "label": "b", "custom_id": "b"})),
    _modal(SELECT),                                                # a select outside a Label
    _modal(_label({**SELECT, "min_values": 0})),                   # required, yet min 0
    _modal({"type": 10}),                                          # text display, no content
])
def test_modal_layouts_discord_would_refuse(modal: dict[str, Any]) -> None:
    _refused(check_modal, modal)


def test_modal_layouts_discord_takes() -> None:
    check_modal(_modal({"type": 10, "content": "Seconds per turn"}, _label(TEXT),
                       _label({**SELECT, "custom_id": "t", "min_values": 0,
                               "required": False}),
                       {"type": 1, "components": [{**TEXT, "custom_id": "w", "label": "Old"}]}))


def test_an_upload_is_at_most_10_mib_and_a_request_25(fake: FakeDiscord) -> None:
    def upload(size: int, name: str = "points.png") -> Upload:
        return Upload(name, "image/png", size)

    for files in ([upload(10 * MiB + 1)],
                  [upload(9 * MiB, f"p{i}.png") for i in range(3)]):
        with pytest.raises(DiscordError) as caught:
            fake.writer.create(fake.channel, {"content": "chart"}, files)
        assert (caught.value.status, caught.value.code) == (413, 40005)
    message = fake.writer.create(fake.channel, {"content": "chart"}, [upload(10 * MiB)])
    with pytest.raises(DiscordError):
        fake.writer.edit(message, {}, [upload(11 * MiB, "more.png")])
    assert len(message.attachments) == 1


async def test_a_deferred_answer_takes_no_flag_but_ephemeral(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    """A deferral showing « thinking » may be private and nothing else: a components-v2
    message, say, is written by the later edit. The refused deferral leaves the interaction
    open, and the bot's own answer still goes through."""
    inter = await alice.slash("slow", settle=False)
    v2 = {"type": 5, "data": {"flags": (1 << 15) | 64}}
    assert "flags" in _refused(fake.hub.callback, inter.id, inter.token, v2, [])
    assert not inter.acknowledged
    bot.gate.set()
    await fake.settle()
    assert inter.response_type == 4


def test_component_ids_are_unique_32_bit_integers() -> None:
    button = {"type": 2, "style": 1, "label": "Go", "custom_id": "go", "id": 7}
    other = {**button, "custom_id": "stop"}
    assert "COMPONENT_ID_DUPLICATED" in _refused(check_message, _row(button, other))
    assert "id" in _refused(check_message, _row({**button, "id": 2 ** 31}))
    check_message(_row(button, {**other, "id": 8}))
    check_message(_row({**button, "id": 0}, {**other, "id": 0}))     # 0 reads as none


def test_an_enforced_nonce_returns_the_message_it_created_for_two_minutes(
    fake: FakeDiscord,
) -> None:
    """Create Message's `enforce_nonce` (fakediscord.messages.NONCE_WINDOW): the same nonce
    within the window gets the first message back; unenforced, or later, or once that
    message is deleted, a new one is created."""
    sent = {"content": "x", "nonce": "n1", "enforce_nonce": True}
    first = fake.writer.create(fake.channel, sent, [])
    assert fake.writer.nonced(sent) is first
    assert fake.writer.nonced({**sent, "enforce_nonce": False}) is None
    assert fake.writer.nonced({**sent, "nonce": "n2"}) is None
    fake.clock.advance(120)
    assert fake.writer.nonced(sent) is first
    fake.clock.advance(1)
    assert fake.writer.nonced(sent) is None
    again = fake.writer.create(fake.channel, sent, [])
    fake.delete_message(again.id)
    assert fake.writer.nonced(sent) is None


def test_a_message_carries_the_nonce_it_was_created_with(fake: FakeDiscord) -> None:
    """« nonce? | integer or string » of the Message Object, as Create Message sent it,
    in its answer and its MESSAGE_CREATE; none without one."""
    sent = fake.writer.create(fake.channel, {"content": "x", "nonce": "n1"}, [])
    numbered = fake.writer.create(fake.channel, {"content": "x", "nonce": 25}, [])
    plain = fake.writer.create(fake.channel, {"content": "x"}, [])
    assert message_payload(fake.world, sent)["nonce"] == "n1"
    assert gateway_message_payload(fake.world, numbered)["nonce"] == 25
    assert "nonce" not in message_payload(fake.world, plain)
