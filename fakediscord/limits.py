"""Discord's size and layout rules for messages, components, modals and commands.

Each broken rule is reported at its field path in Discord's nested error shape, so a
failing test says exactly which row, option or embed the bot got wrong.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from . import errors
from .state import COMPONENTS_V2

# From discord-api-docs. Create Message (developers/resources/message.mdx,
# https://discord.com/developers/docs/resources/message#create-message): content « up to
# 2000 characters », embeds « Up to 10 `rich` embeds (up to 6000 characters) »; Embed
# Limits there give the title, description, fields and the rest. Component Reference
# (developers/components/reference.mdx,
# https://discord.com/developers/docs/components/reference): « Legacy messages allow up to
# 5 action rows as top-level components », an Action Row holds « Up to 5 interactive
# button components or a single select component », a button's label « max 80
# characters », a custom_id « 1-100 characters », a string select's options « max 25 »
# and its placeholder « max 150 characters », an option's label, value and description
# « max 100 characters » each, « Messages allow up to 40 total components ».
MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER = 2048
MAX_AUTHOR_NAME = 256
MAX_EMBED_TOTAL = 6000
MAX_ACTION_ROWS = 5
MAX_ROW_WIDTH = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_OPTION_TEXT = 100
MAX_PLACEHOLDER = 150
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
MAX_MODAL_TITLE = 45
MAX_MODAL_COMPONENTS = 5
MAX_TEXT_INPUT_LABEL = 45
MAX_TEXT_INPUT_VALUE = 4000
MAX_LABEL_DESCRIPTION = 100
MAX_TEXT_INPUT_PLACEHOLDER = 100
#: "description (alt text) for the file (max 1024 characters)", Attachment Structure,
#: https://discord.com/developers/docs/resources/message#attachment-object
MAX_ATTACHMENT_DESCRIPTION = 1024

ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
SELECTS = frozenset({3, 5, 6, 7, 8})
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR = 9, 10, 11, 12, 13, 14
CONTAINER, LABEL = 17, 18
V2_TOP_LEVEL = frozenset(
    {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER}
)
V2_IN_CONTAINER = V2_TOP_LEVEL - {CONTAINER}
LINK_STYLE, PREMIUM_STYLE = 5, 6

Path = tuple[str | int, ...]


class FormErrors:
    """Collects every broken rule of one request before answering, as Discord does."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def add(self, path: Path, code: str, message: str) -> None:
        node = self.tree
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def length(self, path: Path, value: object, low: int, high: int) -> None:
        """Check a string or list length the way Discord words it."""
        size = len(value) if isinstance(value, str | list) else 0
        if size > high and low == 0:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")
        elif not low <= size <= high:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def required(self, path: Path, container: Mapping[str, Any], key: str) -> bool:
        if container.get(key) in (None, ""):
            self.add((*path, key), "BASE_TYPE_REQUIRED", "This field is required")
            return False
        return True

    def raise_if_any(self) -> None:
        if self.tree:
            raise errors.invalid_form_body(self.tree)


def walk(
    components: Sequence[Mapping[str, Any]], path: Path = ("components",)
) -> Iterator[tuple[Path, Mapping[str, Any]]]:
    """Every component with its path, depth first, through rows, containers and sections."""
    for index, component in enumerate(components):
        here = (*path, index)
        yield here, component
        children = component.get("components")
        if isinstance(children, list):
            yield from walk(children, (*here, "components"))
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, Mapping):
                yield (*here, key), child
                yield from walk(child.get("components") or [], (*here, key, "components"))


def check_message(message: Mapping[str, Any], emoji_ids: AbstractSet[int] = frozenset()) -> None:
    """Validate the message as it would be stored (after merging an edit); ``emoji_ids``:
    the custom emojis its components may show (the application's)."""
    form = FormErrors()
    content = message.get("content") or ""
    embeds = message.get("embeds") or []
    components = message.get("components") or []
    v2 = bool((message.get("flags") or 0) & COMPONENTS_V2)
    form.length(("content",), content, 0, MAX_CONTENT)
    if v2:
        _check_v2(form, content, embeds, components)
    else:
        _check_embeds(form, embeds)
        form.length(("components",), components, 0, MAX_ACTION_ROWS)
        for index, row in enumerate(components):
            _check_row(form, ("components", index), row)
    _check_custom_ids(form, components)
    _check_emojis(form, components, emoji_ids)
    for index, attachment in enumerate(message.get("attachments") or []):
        form.length(("attachments", index, "description"), attachment.get("description") or "",
                    0, MAX_ATTACHMENT_DESCRIPTION)
    form.raise_if_any()
    if not (content or embeds or components or message.get("attachments") or message.get("poll")):
        raise errors.empty_message()


def _check_emojis(form: FormErrors, components: Sequence[Mapping[str, Any]],
                  emoji_ids: AbstractSet[int]) -> None:
    """A custom emoji (one with an id) on a button or a select option must exist: Discord
    answers 400 50035 ``BUTTON_COMPONENT_INVALID_EMOJI`` "Invalid emoji" otherwise, on
    options too (discord/discord-api-docs issue 8071). The reference pages do not list it;
    an emoji deleted while a message still uses it is the case that matters."""
    for path, component in walk(components):
        shown = [(path, component.get("emoji"))]
        shown += [((*path, "options", i), o.get("emoji"))
                  for i, o in enumerate(component.get("options") or [])]
        for where, emoji in shown:
            if isinstance(emoji, Mapping) and emoji.get("id") is not None \
                    and int(emoji["id"]) not in emoji_ids:
                form.add((*where, "emoji", "id"), "BUTTON_COMPONENT_INVALID_EMOJI",
                         "Invalid emoji")


def _check_embeds(form: FormErrors, embeds: Sequence[Mapping[str, Any]]) -> None:
    form.length(("embeds",), list(embeds), 0, MAX_EMBEDS)
    total = 0
    for index, embed in enumerate(embeds):
        path: Path = ("embeds", index)
        title, description = embed.get("title") or "", embed.get("description") or ""
        footer = (embed.get("footer") or {}).get("text") or ""
        author = (embed.get("author") or {}).get("name") or ""
        form.length((*path, "title"), title, 0, MAX_EMBED_TITLE)
        form.length((*path, "description"), description, 0, MAX_EMBED_DESCRIPTION)
        form.length((*path, "footer", "text"), footer, 0, MAX_FOOTER)
        form.length((*path, "author", "name"), author, 0, MAX_AUTHOR_NAME)
        fields = embed.get("fields") or []
        form.length((*path, "fields"), fields, 0, MAX_EMBED_FIELDS)
        total += len(title) + len(description) + len(footer) + len(author)
        for number, item in enumerate(fields):
            field_path = (*path, "fields", number)
            if form.required(field_path, item, "name"):
                form.length((*field_path, "name"), item["name"], 1, MAX_FIELD_NAME)
            if form.required(field_path, item, "value"):
                form.length((*field_path, "value"), item["value"], 1, MAX_FIELD_VALUE)
            total += len(item.get("name") or "") + len(item.get("value") or "")
    if total > MAX_EMBED_TOTAL:
        form.add(
            ("embeds",),
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}",
        )


def _check_row(form: FormErrors, path: Path, row: Mapping[str, Any]) -> None:
    if row.get("type") != ACTION_ROW:
        form.add(
            (*path, "type"), "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (1,).'
        )
        return
    children = row.get("components") or []
    form.length((*path, "components"), children, 1, MAX_ROW_WIDTH)
    if len(children) > 1 and any(c.get("type") in SELECTS for c in children):
        form.add(
            (*path, "components"),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )
    for index, child in enumerate(children):
        child_path = (*path, "components", index)
        kind = child.get("type")
        if kind == BUTTON:
            _check_button(form, child_path, child)
        elif kind in SELECTS:
            _check_select(form, child_path, child)
        else:
            form.add(
                (*child_path, "type"),
                "UNION_TYPE_CHOICES",
                'Value of field "type" must be one of (2, 3, 5, 6, 7, 8).',
            )


def _check_custom_id(form: FormErrors, path: Path, component: Mapping[str, Any]) -> None:
    if form.required(path, component, "custom_id"):
        form.length((*path, "custom_id"), component["custom_id"], 1, MAX_CUSTOM_ID)


def _check_button(form: FormErrors, path: Path, button: Mapping[str, Any]) -> None:
    style = button.get("style")
    if style not in range(1, 7):
        form.add(
            (*path, "style"),
            "UNION_TYPE_CHOICES",
            'Value of field "style" must be one of (1, 2, 3, 4, 5, 6).',
        )
    form.length((*path, "label"), button.get("label") or "", 0, MAX_BUTTON_LABEL)
    if style == LINK_STYLE:
        form.required(path, button, "url")
    elif style == PREMIUM_STYLE:
        form.required(path, button, "sku_id")
    else:
        _check_custom_id(form, path, button)
        if not (button.get("label") or button.get("emoji")):
            form.add(
                path,
                "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                "A button needs a label or an emoji",
            )


def _check_select(form: FormErrors, path: Path, select: Mapping[str, Any]) -> None:
    _check_custom_id(form, path, select)
    form.length((*path, "placeholder"), select.get("placeholder") or "", 0, MAX_PLACEHOLDER)
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not 0 <= low <= MAX_SELECT_OPTIONS:
        form.add(
            (*path, "min_values"),
            "NUMBER_TYPE_MAX",
            f"int value should be between 0 and {MAX_SELECT_OPTIONS}.",
        )
    if not 1 <= high <= MAX_SELECT_OPTIONS:
        form.add(
            (*path, "max_values"),
            "NUMBER_TYPE_MAX",
            f"int value should be between 1 and {MAX_SELECT_OPTIONS}.",
        )
    if low > high:
        form.add(
            (*path, "min_values"),
            "SELECT_COMPONENT_MIN_GREATER_THAN_MAX",
            "min_values must be less than or equal to max_values",
        )
    if select.get("type") != STRING_SELECT:
        return
    options = select.get("options") or []
    form.length((*path, "options"), options, 1, MAX_SELECT_OPTIONS)
    if options and high > len(options):
        form.add(
            (*path, "max_values"),
            "SELECT_COMPONENT_MAX_VALUES_TOO_LARGE",
            "max_values must be less than or equal to the number of options",
        )
    seen: set[str] = set()
    for index, option in enumerate(options):
        option_path = (*path, "options", index)
        for key in ("label", "value"):
            if form.required(option_path, option, key):
                form.length((*option_path, key), option[key], 1, MAX_OPTION_TEXT)
        form.length(
            (*option_path, "description"), option.get("description") or "", 0, MAX_OPTION_TEXT
        )
        if option.get("value") in seen:
            form.add(
                (*option_path, "value"),
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                "Option values must be unique",
            )
        seen.add(option.get("value") or "")


def _check_custom_ids(form: FormErrors, components: Sequence[Mapping[str, Any]]) -> None:
    seen: set[str] = set()
    for path, component in walk(components):
        custom_id = component.get("custom_id")
        if custom_id is None:
            continue
        if custom_id in seen:
            form.add(
                (*path, "custom_id"),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        seen.add(custom_id)


def _check_v2(
    form: FormErrors, content: str, embeds: Sequence[Any], components: Sequence[Mapping[str, Any]]
) -> None:
    if content or embeds:
        form.add(
            ("flags",),
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            "The 'content' and 'embeds' fields cannot be used when using components v2",
        )
    every = list(walk(components))
    if len(every) > MAX_V2_COMPONENTS:
        form.add(
            ("components",),
            "BASE_TYPE_MAX_LENGTH",
            f"Must be {MAX_V2_COMPONENTS} or fewer components in total.",
        )
    text = sum(len(c.get("content") or "") for _, c in every if c.get("type") == TEXT_DISPLAY)
    if text > MAX_V2_TEXT:
        form.add(
            ("components",),
            "COMPONENT_DISPLAY_TEXT_TOO_LONG",
            f"Text display content must be {MAX_V2_TEXT} or fewer in length in total.",
        )
    for index, component in enumerate(components):
        _check_v2_component(form, ("components", index), component, V2_TOP_LEVEL)


def _check_v2_component(
    form: FormErrors, path: Path, component: Mapping[str, Any], allowed: frozenset[int]
) -> None:
    kind = component.get("type")
    if kind not in allowed:
        form.add(
            (*path, "type"),
            "UNION_TYPE_CHOICES",
            f'Value of field "type" must be one of {tuple(sorted(allowed))}.',
        )
    elif kind == ACTION_ROW:
        _check_row(form, path, component)
    elif kind == CONTAINER:
        for index, child in enumerate(component.get("components") or []):
            _check_v2_component(form, (*path, "components", index), child, V2_IN_CONTAINER)
    elif kind == SECTION:
        texts = component.get("components") or []
        form.length((*path, "components"), texts, 1, 3)
        for index, child in enumerate(texts):
            _check_v2_component(
                form, (*path, "components", index), child, frozenset({TEXT_DISPLAY})
            )
        accessory = component.get("accessory") or {}
        if accessory.get("type") == BUTTON:
            _check_button(form, (*path, "accessory"), accessory)
        elif accessory.get("type") != THUMBNAIL:
            form.add(
                (*path, "accessory", "type"),
                "UNION_TYPE_CHOICES",
                'Value of field "type" must be one of (2, 11).',
            )
    elif kind == TEXT_DISPLAY:
        form.required(path, component, "content")


def check_modal(modal: Mapping[str, Any]) -> None:
    """A modal (response type 9): title, custom_id and up to five text inputs or selects,
    each alone in a row or in a Label. From the Component Reference
    (https://discord.com/developers/docs/components/reference): a Label's "label: The label
    text; max 45 characters" and "description?: max 100 characters"; a text input's
    placeholder "max 100 characters", min_length "min 0, max 4000", max_length "min 1, max
    4000"; "Using `disabled` in a modal will result in an error"; buttons are "only used in
    messages"."""
    form = FormErrors()
    if form.required((), modal, "title"):
        form.length(("title",), modal["title"], 1, MAX_MODAL_TITLE)
    _check_custom_id(form, (), modal)
    components = modal.get("components") or []
    form.length(("components",), components, 1, MAX_MODAL_COMPONENTS)
    for path, component in walk(components):
        kind = component.get("type")
        if kind == LABEL and form.required(path, component, "label"):
            form.length((*path, "label"), component["label"], 1, MAX_TEXT_INPUT_LABEL)
            form.length((*path, "description"), component.get("description") or "", 0,
                        MAX_LABEL_DESCRIPTION)
        elif kind == TEXT_INPUT:
            _check_text_input(form, path, component)
        elif kind in SELECTS:
            _check_select(form, path, component)
        elif kind == BUTTON:
            form.add(path, "COMPONENT_TYPE_INVALID", "Buttons are only used in messages")
        if component.get("disabled"):
            form.add((*path, "disabled"), "COMPONENT_DISABLED_IN_MODAL",
                     "Components in a modal cannot be disabled")
    _check_custom_ids(form, components)
    form.raise_if_any()


def _check_text_input(form: FormErrors, path: Path, field: Mapping[str, Any]) -> None:
    _check_custom_id(form, path, field)
    form.length((*path, "label"), field.get("label") or "", 0, MAX_TEXT_INPUT_LABEL)
    form.length((*path, "value"), field.get("value") or "", 0, MAX_TEXT_INPUT_VALUE)
    form.length((*path, "placeholder"), field.get("placeholder") or "", 0,
                MAX_TEXT_INPUT_PLACEHOLDER)
    low, high = field.get("min_length", 0), field.get("max_length", MAX_TEXT_INPUT_VALUE)
    if not 0 <= low <= MAX_TEXT_INPUT_VALUE:
        form.add((*path, "min_length"), "NUMBER_TYPE_MAX",
                 f"int value should be between 0 and {MAX_TEXT_INPUT_VALUE}.")
    if not 1 <= high <= MAX_TEXT_INPUT_VALUE:
        form.add((*path, "max_length"), "NUMBER_TYPE_MAX",
                 f"int value should be between 1 and {MAX_TEXT_INPUT_VALUE}.")
    if low > high:
        form.add((*path, "min_length"), "TEXT_INPUT_MIN_GREATER_THAN_MAX",
                 "min_length must be less than or equal to max_length")
