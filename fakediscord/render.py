"""Plain-text pictures of messages and modals, for failure output and the terminal sandbox.

Buttons and selects are numbered ``[1]``, ``[2]``... in the order of
:attr:`Message.controls`, so a sandbox can let a person type a number to act.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .limits import ACTION_ROW, BUTTON, CONTAINER, SECTION, SELECTS, SEPARATOR, TEXT_DISPLAY
from .snapshots import Button, Embed, Message, Modal, Select, TextInput


@dataclass(frozen=True)
class Words:
    """What a rendering adds around what the bot sent, as a client says it: English here,
    the player's language in the sandbox (whose every other word is the bot's)."""

    to: str = "(to {user})"
    only_you: str = "[only you can see this]"
    dismissed: str = "[dismissed]"
    edited: str = "(edited)"
    thinking: str = "{author} is thinking..."
    file: str = "[file: {name}]"
    disabled: str = "(disabled)"
    pick: str = "pick {low}-{high}"
    required: str = "required"
    optional: str = "optional"
    size: str = "{low}-{high} chars"


ENGLISH = Words()


def render_message(message: Message, words: Words = ENGLISH) -> str:
    """The message roughly as Discord's client draws it, one block per line."""
    header = message.author
    if message.interaction_user:
        header += " " + words.to.format(user=message.interaction_user)
    if message.ephemeral:
        header += " " + words.only_you
    if message.dismissed:
        header += " " + words.dismissed
    if message.edited:
        header += " " + words.edited
    lines = [header]
    if message.loading:
        lines.append(words.thinking.format(author=message.author))
    if message.content:
        lines.extend(message.content.splitlines())
    for embed in message.embeds:
        lines.extend("| " + line for line in _embed(embed))
    lines.extend(words.file.format(name=name) for name in message.attachments)
    counter = iter(range(1, len(message.controls) + 1))
    lines.extend(_components(message.components, counter, words))
    return "\n".join(lines)


def render_modal(modal: Modal, words: Words = ENGLISH) -> str:
    """A modal as a form: its title, then each field with its constraints."""
    lines = [f"== {modal.title} =="]
    for field in modal.inputs:
        if isinstance(field, TextInput):
            need = words.required if field.required else words.optional
            size = words.size.format(low=field.min_length or 0, high=field.max_length or 4000)
            shown = f" = {field.value!r}" if field.value else ""
            lines.append(f"{field.label} [{field.custom_id}] ({need}, {size}){shown}")
        else:
            lines.extend(_select(field, None, words))
    return "\n".join(lines)


def _embed(embed: Embed) -> Iterator[str]:
    if embed.author:
        yield embed.author
    if embed.title:
        yield f"**{embed.title}**"
    if embed.description:
        yield from embed.description.splitlines()
    for field in embed.fields:
        yield f"{field.name}: {field.value}"
    if embed.footer:
        yield f"-- {embed.footer}"


def _components(
    components: tuple[dict[str, Any], ...] | list[Any], counter: Iterator[int], words: Words
) -> Iterator[str]:
    for component in components:
        kind = component.get("type")
        if kind == ACTION_ROW:
            row = component.get("components") or []
            buttons = [c for c in row if c.get("type") == BUTTON]
            if buttons:
                yield "  ".join(_button(Button.parse(b), next(counter), words)
                                for b in buttons)
            for select in (c for c in row if c.get("type") in SELECTS):
                yield from _select(Select.parse(select), next(counter), words)
        elif kind == TEXT_DISPLAY:
            yield from str(component.get("content", "")).splitlines()
        elif kind == SECTION:
            yield from _components(component.get("components") or [], counter, words)
            accessory: Mapping[str, Any] = component.get("accessory") or {}
            if accessory.get("type") == BUTTON:
                yield "  " + _button(Button.parse(accessory), next(counter), words)
        elif kind == CONTAINER:
            yield from (
                "| " + line
                for line in _components(component.get("components") or [], counter, words)
            )
        elif kind == SEPARATOR:
            yield "-" * 20
        else:
            yield f"<component type {kind}>"


def _button(button: Button, number: int, words: Words) -> str:
    face = " ".join(p for p in (button.emoji, button.label) if p)
    suffix = " " + words.disabled if button.disabled else ""
    if button.url:
        suffix += f" -> {button.url}"
    return f"[{number}] ({face}){suffix}"


def _select(select: Select, number: int | None, words: Words) -> Iterator[str]:
    prefix = "" if number is None else f"[{number}] "
    count = words.pick.format(low=select.min_values, high=select.max_values)
    suffix = " " + words.disabled if select.disabled else ""
    yield f"{prefix}<{select.placeholder or select.custom_id}> ({count}){suffix}"
    for option in select.options:
        face = " ".join(p for p in (option.emoji, option.label) if p)
        default = " *" if option.default else ""
        yield f"    - {face}{default}"
