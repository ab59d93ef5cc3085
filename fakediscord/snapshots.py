"""What a user sees: frozen copies of messages and modals, safe to keep across edits.

A test can hold a :class:`Message` from before a click and compare it with one taken
after; actions such as ``click`` look the message up again by id, so they always act on
what is on screen now.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .errors import UserActionError
from .limits import BUTTON, LABEL, SELECTS, STRING_SELECT, TEXT_DISPLAY, TEXT_INPUT, walk
from .state import StoredMessage, World


def _emoji_text(emoji: Mapping[str, Any] | None) -> str | None:
    if not emoji:
        return None
    return str(emoji.get("name")) if not emoji.get("id") else f":{emoji.get('name')}:"


@dataclass(frozen=True)
class Button:
    label: str | None
    custom_id: str | None
    style: int
    disabled: bool
    emoji: str | None
    url: str | None

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Button:
        return cls(
            label=data.get("label"),
            custom_id=data.get("custom_id"),
            style=int(data.get("style", 1)),
            disabled=bool(data.get("disabled")),
            emoji=_emoji_text(data.get("emoji")),
            url=data.get("url"),
        )


@dataclass(frozen=True)
class SelectOption:
    label: str
    value: str
    description: str | None
    emoji: str | None
    default: bool


@dataclass(frozen=True)
class Select:
    """A select menu; ``type`` 3 is a string select, the only kind users can pick from here."""

    custom_id: str
    placeholder: str | None
    options: tuple[SelectOption, ...]
    min_values: int
    max_values: int
    disabled: bool
    type: int = STRING_SELECT

    @property
    def name(self) -> str:
        return self.placeholder or self.custom_id

    def values_for(self, choices: Sequence[str]) -> list[str]:
        """The option values for choices given by value or, failing that, by label,
        refused when the count is outside ``min_values``..``max_values``."""
        if self.type != STRING_SELECT:
            raise UserActionError(f"select {self.name!r}: only string selects are supported")
        if isinstance(choices, str):
            raise UserActionError("choices are a list, e.g. ['K×2']")
        values = []
        for choice in choices:
            option = next((o for o in self.options if o.value == choice), None)
            option = option or next((o for o in self.options if o.label == choice), None)
            if option is None:
                shown = [o.label for o in self.options]
                raise UserActionError(
                    f"select {self.name!r} has no option {choice!r}; options: {shown}"
                )
            values.append(option.value)
        if not self.min_values <= len(values) <= self.max_values:
            raise UserActionError(
                f"select {self.name!r} takes {self.min_values} to {self.max_values} choices, not {len(values)}"
            )
        return values

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Select:
        options = tuple(
            SelectOption(
                label=o.get("label", ""),
                value=o.get("value", ""),
                description=o.get("description"),
                emoji=_emoji_text(o.get("emoji")),
                default=bool(o.get("default")),
            )
            for o in data.get("options") or []
        )
        return cls(
            custom_id=data.get("custom_id", ""),
            placeholder=data.get("placeholder"),
            options=options,
            min_values=int(data.get("min_values", 1)),
            max_values=int(data.get("max_values", 1)),
            disabled=bool(data.get("disabled")),
            type=int(data["type"]),
        )


@dataclass(frozen=True)
class EmbedField:
    name: str
    value: str
    inline: bool


@dataclass(frozen=True)
class Embed:
    title: str | None
    description: str | None
    fields: tuple[EmbedField, ...]
    footer: str | None
    author: str | None
    color: int | None

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Embed:
        return cls(
            title=data.get("title"),
            description=data.get("description"),
            fields=tuple(
                EmbedField(f.get("name", ""), f.get("value", ""), bool(f.get("inline")))
                for f in data.get("fields") or []
            ),
            footer=(data.get("footer") or {}).get("text"),
            author=(data.get("author") or {}).get("name"),
            color=data.get("color"),
        )


Control = Button | Select


@dataclass(frozen=True)
class Message:
    """A message as one user sees it at one moment.

    ``attachments`` holds file names. ``components`` keeps Discord's raw layout (rows, containers, sections) for renderers;
    ``controls`` lists the buttons and selects in on-screen order, which is the numbering
    :func:`fakediscord.render_message` shows.
    """

    id: int
    channel_id: int
    author: str
    author_id: int
    content: str
    embeds: tuple[Embed, ...]
    components: tuple[dict[str, Any], ...]
    attachments: tuple[str, ...]
    flags: int
    ephemeral: bool
    loading: bool
    edited: bool
    created_at: datetime
    interaction_user: str | None
    # Its user dismissed this ephemeral: only the god's view (FakeDiscord.messages) shows it.
    dismissed: bool = False
    pinned: bool = False
    type: int = 0  # 0 a message; 6 a pin's notice, 20 a command's answer (Message Types)

    @property
    def controls(self) -> tuple[Control, ...]:
        found: list[Control] = []
        for _, data in walk(self.components):
            if data.get("type") == BUTTON:
                found.append(Button.parse(data))
            elif data.get("type") in SELECTS:
                found.append(Select.parse(data))
        return tuple(found)

    @property
    def buttons(self) -> tuple[Button, ...]:
        return tuple(c for c in self.controls if isinstance(c, Button))

    @property
    def selects(self) -> tuple[Select, ...]:
        return tuple(c for c in self.controls if isinstance(c, Select))

    @property
    def text_displays(self) -> tuple[str, ...]:
        """The text of Components V2 text displays, in order."""
        return tuple(
            str(c.get("content", ""))
            for _, c in walk(self.components)
            if c.get("type") == TEXT_DISPLAY
        )

    @property
    def text(self) -> str:
        """Every piece of text on the message, one per line: handy for ``in`` assertions."""
        parts = [self.content, *self.text_displays]
        for embed in self.embeds:
            parts += [embed.author or "", embed.title or "", embed.description or ""]
            parts += [f"{f.name}: {f.value}" for f in embed.fields]
            parts.append(embed.footer or "")
        return "\n".join(p for p in parts if p)

    def button(self, target: str) -> Button:
        """The button whose custom_id, or else label, is ``target``."""
        for key in ("custom_id", "label"):
            matches = [b for b in self.buttons if getattr(b, key) == target]
            if len(matches) == 1:
                return matches[0]
            if matches:
                raise UserActionError(
                    f"{len(matches)} buttons labelled {target!r}: use a custom_id"
                )
        shown = [b.label or b.emoji for b in self.buttons]
        raise UserActionError(f"no button {target!r} on message {self.id}; buttons: {shown}")

    def select(self, name: str | None = None) -> Select:
        """The select menu whose placeholder or custom_id is ``name`` (or the only one)."""
        menus = [s for s in self.selects if name in (None, s.placeholder, s.custom_id)]
        if len(menus) != 1:
            shown = [s.placeholder or s.custom_id for s in self.selects]
            raise UserActionError(
                f"need exactly one select matching {name!r} on message {self.id}; selects: {shown}"
            )
        return menus[0]


@dataclass(frozen=True)
class TextInput:
    custom_id: str
    label: str
    style: int
    required: bool
    min_length: int | None
    max_length: int | None
    value: str | None
    placeholder: str | None


@dataclass(frozen=True)
class Modal:
    """A modal the bot opened for a user, waiting for ``modal_submit``."""

    custom_id: str
    title: str
    inputs: tuple[TextInput | Select, ...]

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Modal:
        inputs: list[TextInput | Select] = []
        for _, component in walk(data.get("components") or []):
            if component.get("type") == LABEL:
                continue
            if component.get("type") in SELECTS:
                inputs.append(Select.parse(component))
            elif component.get("type") == TEXT_INPUT:
                inputs.append(_text_input(component, _label_of(data, component)))
        return cls(custom_id=data["custom_id"], title=data["title"], inputs=tuple(inputs))


def _label_of(modal: Mapping[str, Any], component: Mapping[str, Any]) -> str:
    """Text inputs are labelled themselves, or by the Label component wrapping them."""
    for _, wrapper in walk(modal.get("components") or []):
        if wrapper.get("type") == LABEL and wrapper.get("component") is component:
            return str(wrapper.get("label", ""))
    return str(component.get("label", ""))


def _text_input(data: Mapping[str, Any], label: str) -> TextInput:
    return TextInput(
        custom_id=data["custom_id"],
        label=label,
        style=int(data.get("style", 1)),
        required=bool(data.get("required", True)),
        min_length=data.get("min_length"),
        max_length=data.get("max_length"),
        value=data.get("value"),
        placeholder=data.get("placeholder"),
    )


def snapshot(world: World, message: StoredMessage) -> Message:
    interaction = world.interactions.get(message.interaction_id or 0)
    return Message(
        id=message.id,
        channel_id=message.channel_id,
        author=world.users[message.author_id].name,
        author_id=message.author_id,
        content=message.content,
        embeds=tuple(Embed.parse(e) for e in message.embeds),
        components=tuple(copy.deepcopy(message.components)),
        attachments=tuple(a["filename"] for a in message.attachments),
        flags=message.flags,
        ephemeral=message.ephemeral,
        loading=message.loading,
        edited=message.edited_at is not None,
        created_at=message.created_at,
        interaction_user=None if interaction is None else world.users[interaction.user_id].name,
        dismissed=message.dismissed,
        pinned=message.pinned_at is not None,
        type=message.type,
    )
