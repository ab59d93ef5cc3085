"""Text rendering for failure output and the terminal sandbox."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from fakediscord import Embed, EmbedField, Message, Modal, Select, SelectOption, TextInput
from fakediscord.render import render_message, render_modal


def _message(**overrides: Any) -> Message:
    fields: dict[str, Any] = {
        "id": 1,
        "channel_id": 2,
        "author": "Président",
        "author_id": 3,
        "content": "",
        "embeds": (),
        "components": (),
        "attachments": (),
        "flags": 0,
        "ephemeral": False,
        "loading": False,
        "edited": False,
        "created_at": datetime(2025, 1, 1, tzinfo=UTC),
        "interaction_user": None,
    }
    return Message(**{**fields, **overrides})


def test_embed_and_link_button() -> None:
    embed = Embed(
        "Round 2", "alice leads", (EmbedField("Pile", "K×2", True),), "seed 7", "Table 4", 0xFF0000
    )
    link = {"type": 2, "style": 5, "label": "Rules", "url": "https://example.org/rules"}
    join = {"type": 2, "style": 1, "label": "Join", "custom_id": "j", "emoji": {"name": "🃏"}}
    message = _message(
        content="Hello",
        embeds=(embed,),
        components=({"type": 1, "components": [join, link]},),
        edited=True,
    )

    assert render_message(message) == "\n".join(
        [
            "Président (edited)",
            "Hello",
            "| Table 4",
            "| **Round 2**",
            "| alice leads",
            "| Pile: K×2",
            "| -- seed 7",
            "[1] (🃏 Join)  [2] (Rules) -> https://example.org/rules",
        ]
    )
    assert message.text == "Hello\nTable 4\nRound 2\nalice leads\nPile: K×2\nseed 7"
    assert message.button("j").label == "Join"


def test_components_v2_layout_numbers_controls_in_screen_order() -> None:
    section = {
        "type": 9,
        "components": [{"type": 10, "content": "Seat 1: alice"}],
        "accessory": {"type": 2, "style": 2, "label": "Kick", "custom_id": "kick:1"},
    }
    select = {
        "type": 3,
        "custom_id": "play",
        "placeholder": "Play",
        "max_values": 2,
        "options": [{"label": "K×2", "value": "K2", "default": True}],
    }
    container = {
        "type": 17,
        "components": [section, {"type": 14}, {"type": 1, "components": [select]}],
    }
    message = _message(components=(container, {"type": 12, "items": []}), flags=1 << 15)

    assert render_message(message) == "\n".join(
        [
            "Président",
            "| Seat 1: alice",
            "|   [1] (Kick)",
            "| --------------------",
            "| [2] <Play> (pick 1-2)",
            "|     - K×2 *",
            "<component type 12>",
        ]
    )
    assert [type(c).__name__ for c in message.controls] == ["Button", "Select"]
    assert message.text_displays == ("Seat 1: alice",)


def test_loading_ephemeral_and_modal() -> None:
    thinking = _message(loading=True, ephemeral=True, interaction_user="bob")
    assert (
        render_message(thinking)
        == "Président (to bob) [only you can see this]\nPrésident is thinking..."
    )

    modal = Modal(
        "rename",
        "Rename",
        (
            TextInput("name", "Table name", 1, True, 1, 20, "Chez moi", None),
            Select("seat", "Seat", (SelectOption("1", "1", None, None, False),), 1, 1, False),
        ),
    )
    assert render_modal(modal) == "\n".join(
        [
            "== Rename ==",
            "Table name [name] (required, 1-20 chars) = 'Chez moi'",
            "<Seat> (pick 1-1)",
            "    - 1",
        ]
    )
