"""Plain-text pictures of messages and modals, for failure output and the terminal sandbox.

Buttons and selects are numbered ``[1]``, ``[2]``... in the order of
:attr:`Message.controls`, so a sandbox can let a person type a number to act.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .limits import ACTION_ROW, BUTTON, CONTAINER, SECTION, SELECTS, SEPARATOR, TEXT_DISPLAY
from .snapshots import Button, Embed, Message, Modal, Select, TextInput


def render_message(message: Message) -> str:
    """The message roughly as Discord's client draws it, one block per line."""
    header = message.author
    if message.interaction_user:
        header += f" (to {message.interaction_user})"
    if message.ephemeral:
        header += " [only you can see this]"
    if message.dismissed:
        header += " [dismissed]"
    if message.edited:
        header += " (edited)"
    lines = [header]
    if message.loading:
        lines.append(f"{message.author} is thinking...")
    if message.content:
        lines.extend(message.content.splitlines())
    for embed in message.embeds:
        lines.extend("| " + line for line in _embed(embed))
    lines.extend(f"[file: {name}]" for name in message.attachments)
    counter = iter(range(1, len(message.controls) + 1))
    lines.extend(_components(message.components, counter))
    return "\n".join(lines)


def render_modal(modal: Modal) -> str:
    """A modal as a form: its title, then each field with its constraints."""
    lines = [f"== {modal.title} =="]
    for field in modal.inputs:
        if isinstance(field, TextInput):
            need = "required" if field.required else "optional"
            size = f", {field.min_length or 0}-{field.max_length or 4000} chars"
            shown = f" = {field.value!r}" if field.value else ""
            lines.append(f"{field.label} [{field.custom_id}] ({need}{size}){shown}")
        else:
            lines.extend(_select(field, None))
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
    components: tuple[dict[str, Any], ...] | list[Any], counter: Iterator[int]
) -> Iterator[str]:
    for component in components:
        kind = component.get("type")
        if kind == ACTION_ROW:
            row = component.get("components") or []
            buttons = [c for c in row if c.get("type") == BUTTON]
            if buttons:
                yield "  ".join(_button(Button.parse(b), next(counter)) for b in buttons)
            for select in (c for c in row if c.get("type") in SELECTS):
                yield from _select(Select.parse(select), next(counter))
        elif kind == TEXT_DISPLAY:
            yield from str(component.get("content", "")).splitlines()
        elif kind == SECTION:
            yield from _components(component.get("components") or [], counter)
            accessory: Mapping[str, Any] = component.get("accessory") or {}
            if accessory.get("type") == BUTTON:
                yield "  " + _button(Button.parse(accessory), next(counter))
        elif kind == CONTAINER:
            yield from (
                "| " + line for line in _components(component.get("components") or [], counter)
            )
        elif kind == SEPARATOR:
            yield "-" * 20
        else:
            yield f"<component type {kind}>"


def _button(button: Button, number: int) -> str:
    face = " ".join(p for p in (button.emoji, button.label) if p)
    suffix = " (disabled)" if button.disabled else ""
    if button.url:
        suffix += f" -> {button.url}"
    return f"[{number}] ({face}){suffix}"


def _select(select: Select, number: int | None) -> Iterator[str]:
    prefix = "" if number is None else f"[{number}] "
    count = f"pick {select.min_values}-{select.max_values}"
    suffix = " (disabled)" if select.disabled else ""
    yield f"{prefix}<{select.placeholder or select.custom_id}> ({count}){suffix}"
    for option in select.options:
        face = " ".join(p for p in (option.emoji, option.label) if p)
        default = " *" if option.default else ""
        yield f"    - {face}{default}"
