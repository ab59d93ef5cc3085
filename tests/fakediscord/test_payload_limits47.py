"""Payload rules the fake enforces since stop 47: a component's unicode emoji, a message of
whitespace alone, an embed's colour and timestamp, a pre-filled text input past its
max_length, and ten files a message. Each is refused past the rule and accepted at it."""

from __future__ import annotations

from typing import Any

import pytest

from fakediscord import DiscordError, FakeDiscord
from fakediscord.limits import check_message, check_modal
from fakediscord.messages import Upload


def _refused(check: Any, *args: Any) -> str:
    with pytest.raises(DiscordError) as caught:
        check(*args)
    assert caught.value.code == 50035 and caught.value.status == 400
    return str(caught.value.errors)


def _button(emoji: dict[str, Any]) -> dict[str, Any]:
    return {"components": [{"type": 1, "components": [
        {"type": 2, "style": 2, "custom_id": "b", "emoji": emoji}]}]}


def _option(emoji: dict[str, Any]) -> dict[str, Any]:
    return {"components": [{"type": 1, "components": [
        {"type": 3, "custom_id": "s", "options": [
            {"label": "A", "value": "a", "emoji": emoji}]}]}]}


@pytest.mark.parametrize("name", [
    "🐜", "♠", "♠️", "❤️", "👍🏽", "🇫🇷", "1️⃣", "👨‍👩‍👧", "🏴󠁧󠁢󠁳󠁣󠁴󠁿",
])
def test_a_unicode_emoji_is_taken_on_a_button_and_an_option(name: str) -> None:
    check_message(_button({"name": name}))
    check_message(_option({"name": name}))


@pytest.mark.parametrize("emoji", [
    {"name": "black_nib"}, {"name": "🂠"}, {"name": "1"}, {"name": "🐜🐜"},
    {"name": "♠ "}, {"name": ""}, {},
])
def test_a_name_that_is_no_unicode_emoji_is_invalid(emoji: dict[str, Any]) -> None:
    for message in (_button(emoji), _option(emoji)):
        errors = _refused(check_message, message)
        assert "'emoji': {'name'" in errors and "BUTTON_COMPONENT_INVALID_EMOJI" in errors


def test_a_custom_emoji_is_judged_by_its_id_alone() -> None:
    check_message(_button({"id": "5", "name": "fr_10H_3fa2c1"}), frozenset({5}))
    assert "'emoji': {'id'" in _refused(check_message, _button({"id": "6", "name": "x"}),
                                        frozenset({5}))


def test_content_of_whitespace_alone_is_an_empty_message(fake: FakeDiscord) -> None:
    for blank in (" ", "\n", " \t\n "):
        with pytest.raises(DiscordError) as caught:
            fake.writer.create(fake.channel, {"content": blank}, [])
        assert (caught.value.status, caught.value.code) == (400, 50006)
    message = fake.writer.create(fake.channel, {"content": " x "}, [])
    with pytest.raises(DiscordError) as caught:
        fake.writer.edit(message, {"content": "\n"}, [])
    assert caught.value.code == 50006 and message.content == " x "
    fake.writer.create(fake.channel, {"content": " ", "embeds": [{"title": "t"}]}, [])


def test_an_embed_colour_is_a_24_bit_integer() -> None:
    for color in (0, 0xFFFFFF):
        check_message({"embeds": [{"title": "t", "color": color}]})
    assert "NUMBER_TYPE_MAX" in _refused(check_message, {"embeds": [
        {"title": "t", "color": 0x1000000}]})
    assert "NUMBER_TYPE_MAX" in _refused(check_message, {"embeds": [
        {"title": "t", "color": -1}]})
    assert "NUMBER_TYPE_COERCE" in _refused(check_message, {"embeds": [
        {"title": "t", "color": "#ff0000"}]})


def test_an_embed_timestamp_is_iso8601() -> None:
    for stamp in ("2025-01-06T12:00:00+00:00", "2025-01-06T12:00:00.299000Z"):
        check_message({"embeds": [{"title": "t", "timestamp": stamp}]})
    for bad in ("1500218461229", "06/01/2025 12:00", 1500218461229):
        errors = _refused(check_message, {"embeds": [{"title": "t", "timestamp": bad}]})
        assert "'timestamp'" in errors and "Should be ISO8601" in errors


def _text_input(**more: Any) -> dict[str, Any]:
    return {"custom_id": "m", "title": "Turn seconds", "components": [
        {"type": 18, "label": "New value",
         "component": {"type": 4, "custom_id": "v", "style": 1, **more}}]}


def test_a_prefilled_value_fits_the_inputs_max_length() -> None:
    check_modal(_text_input(max_length=3, value="abc"))
    check_modal(_text_input(value="a" * 4000))
    errors = _refused(check_modal, _text_input(max_length=3, value="abcd"))
    assert "'value'" in errors and "BASE_TYPE_MAX_LENGTH" in errors


def test_a_message_holds_at_most_ten_files(fake: FakeDiscord) -> None:
    def files(count: int, start: int = 0) -> list[Upload]:
        return [Upload(f"p{i}.png", "image/png", 10) for i in range(start, start + count)]

    message = fake.writer.create(fake.channel, {"content": "charts"}, files(10))
    with pytest.raises(DiscordError) as caught:
        fake.writer.create(fake.channel, {"content": "charts"}, files(11))
    assert (caught.value.status, caught.value.code) == (400, 30015)
    with pytest.raises(DiscordError) as caught:
        fake.writer.edit(message, {}, files(1, 10))
    assert caught.value.code == 30015 and len(message.attachments) == 10


def test_a_modal_selects_options_show_emojis_as_a_message_does() -> None:
    def modal(emoji: dict[str, Any]) -> dict[str, Any]:
        return {"custom_id": "m", "title": "Deck", "components": [
            {"type": 18, "label": "Deck", "component": {
                "type": 3, "custom_id": "s", "options": [
                    {"label": "A", "value": "a", "emoji": emoji}]}}]}

    check_modal(modal({"name": "🃏"}))
    check_modal(modal({"id": "5", "name": "x"}), frozenset({5}))
    assert "BUTTON_COMPONENT_INVALID_EMOJI" in _refused(check_modal, modal({"name": "ace"}))
    assert "BUTTON_COMPONENT_INVALID_EMOJI" in _refused(check_modal, modal({"id": "6"}),
                                                        frozenset({5}))
