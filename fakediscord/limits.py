"""Discord's size and layout rules for messages, components, modals and commands.

Each broken rule is reported at its field path in Discord's nested error shape, so a
failing test says exactly which row, option or embed the bot got wrong.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from datetime import datetime
from typing import Any

import regex

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
# « max 100 characters » each, « Messages allow up to 40 total components ». Lengths are
# counted in code points, as Python's len does: "Our API uses Python 3, so the API
# calculates length based on the number of codepoints in the string" (a Discord engineer,
# discord/discord-api-docs issue 1315).
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
#: JSON error code 30015, "Maximum number of attachments in a message reached (10)" (JSON
#: error codes, developers/topics/opcodes-and-status-codes.mdx): the one place the docs
#: give the count; the files of a message as stored, those an edit keeps and adds.
MAX_ATTACHMENTS = 10
#: A button's "url?: URL for link-style buttons; max 512 characters" (Component Reference,
#: Button Structure, developers/components/reference.mdx).
MAX_BUTTON_URL = 512
#: Create Message's nonce: "up to 25 characters"; allowed mentions' roles and users: "max
#: 100" each, parse one of "roles", "users", "everyone" (developers/resources/message.mdx,
#: https://discord.com/developers/docs/resources/message#allowed-mentions-object).
MAX_NONCE = 25
MAX_MENTION_IDS = 100
MENTION_TYPES = ("roles", "users", "everyone")

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


def check_message(message: Mapping[str, Any], emoji_ids: AbstractSet[int] = frozenset(),
                  request: Mapping[str, Any] | None = None) -> None:
    """Validate the message as it would be stored (after merging an edit); ``emoji_ids``:
    the custom emojis its components may show (the application's); ``request``: the body
    that writes it, whose own fields (allowed mentions, nonce) are judged in the same
    answer, as Discord lists every broken field of a request at once.

    "At least one of `content`, `embeds`, `sticker_ids`, `components`, `files[n]`, `poll`
    [...] is required" (Create Message, developers/resources/message.mdx), and content of
    whitespace alone counts as none: Discord answers 50006 « Cannot send an empty
    message » to ``content: "\\n"`` (NITKC-DEV/Kisarazu-Multi-Manager issue 32), as it
    trims an embed's texts. The docs say nothing of it; which characters Discord trims is
    not written either, so the fake trims what Python's ``str.strip`` does."""
    form = FormErrors()
    if request is not None:
        _check_request(form, request)
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
    if len(message.get("attachments") or []) > MAX_ATTACHMENTS:
        raise errors.max_attachments()
    if not (content.strip() or embeds or components or message.get("attachments")
            or message.get("poll")):
        raise errors.empty_message()


def check_request(request: Mapping[str, Any]) -> None:
    """The request fields of a write that stores no message yet (a deferred response)."""
    form = FormErrors()
    _check_request(form, request)
    form.raise_if_any()


def _check_request(form: FormErrors, request: Mapping[str, Any]) -> None:
    """Allowed mentions and nonce (Create Message, JSON/Form Params, and Allowed Mentions
    Object, developers/resources/message.mdx): "the `parse` field is **mutually exclusive**
    with the other fields", which Discord answers as ``MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE``
    ('parse:["users"] and users: [ids...] are mutually exclusive.'), "Passing a falsy value
    such as `null` or an empty array into the `users` field does not trigger a validation
    error"; roles and users "max 100" each; a nonce "up to 25 characters"."""
    mentions = request.get("allowed_mentions")
    if isinstance(mentions, Mapping):
        parse = list(mentions.get("parse") or [])
        for index, kind in enumerate(parse):
            if kind not in MENTION_TYPES:
                form.add(("allowed_mentions", "parse", index), "BASE_TYPE_CHOICES",
                         f"Value must be one of {MENTION_TYPES}.")
        for kind in ("roles", "users"):
            ids = list(mentions.get(kind) or [])
            if ids and kind in parse:
                form.add(("allowed_mentions",), "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                         f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.')
            form.length(("allowed_mentions", kind), ids, 0, MAX_MENTION_IDS)
    nonce = request.get("nonce")
    if isinstance(nonce, str) and len(nonce) > MAX_NONCE:
        form.add(("nonce",), "NONCE_TYPE_TOO_LONG",
                 f"Must be {MAX_NONCE} or fewer characters long.")


def _check_emojis(form: FormErrors, components: Sequence[Mapping[str, Any]],
                  emoji_ids: AbstractSet[int]) -> None:
    """The emoji on a button or a select option: a partial emoji, "`name`, `id`, and
    `animated`" (Component Reference, Button and String Select Option Structure,
    developers/components/reference.mdx), so either a custom emoji, by id, or a unicode
    one, by name (the docs' own example options are ``{"name": "🐜"}``). The reference
    pages name no refusal; Discord answers 400 50035 ``BUTTON_COMPONENT_INVALID_EMOJI``
    "Invalid emoji", on select options too (discord/discord-api-docs issue 8071): at
    ``emoji.id`` for a custom emoji that does not exist (an emoji deleted while a message
    still uses it is the case that matters), at ``emoji.name`` for a name that is no
    unicode emoji (« black_nib », Crownicles/Crownicles issue 3110) or for an emoji with
    neither (``{}``, bwmarrin/discordgo issue 1479). The JSON error codes' 50151 "The
    specified emoji is invalid" is not the answer components get, in all three reports."""
    for path, component in walk(components):
        shown = [(path, component.get("emoji"))]
        shown += [((*path, "options", i), o.get("emoji"))
                  for i, o in enumerate(component.get("options") or [])]
        for where, emoji in shown:
            if not isinstance(emoji, Mapping):
                continue
            if emoji.get("id") is not None:
                if int(emoji["id"]) not in emoji_ids:
                    form.add((*where, "emoji", "id"), "BUTTON_COMPONENT_INVALID_EMOJI",
                             "Invalid emoji")
            elif not is_unicode_emoji(emoji.get("name")):
                form.add((*where, "emoji", "name"), "BUTTON_COMPONENT_INVALID_EMOJI",
                         "Invalid emoji")


# An emoji sequence of Unicode's UTS #51 (ED-14 to ED-17): a keycap, a flag (two regional
# indicators), or emoji (presentation selector or skin tone allowed, a tag sequence after
# the first) joined by ZWJ; a bare digit, « # » or « * » has the Emoji property yet is
# text. Discord checks names against its own emoji list, which the docs do not publish:
# the fake takes any such sequence, so what it refuses Discord refuses (text, a card
# symbol like « 🂠 » that Unicode does not count as emoji), and a sequence Discord lacks
# may pass here.
_EMOJI_PART = r"(?![0-9#*])\p{Emoji}[\uFE0F\p{Emoji_Modifier}]?"
UNICODE_EMOJI = regex.compile(
    rf"[0-9#*]\uFE0F?\u20E3|\p{{Regional_Indicator}}{{2}}"
    rf"|{_EMOJI_PART}(?:[\U000E0020-\U000E007E]+\U000E007F)?(?:\u200D{_EMOJI_PART})*"
)


def is_unicode_emoji(name: object) -> bool:
    """Whether ``name`` is one unicode emoji, as a component's emoji ``name`` must be."""
    return isinstance(name, str) and UNICODE_EMOJI.fullmatch(name) is not None


def _check_embeds(form: FormErrors, embeds: Sequence[Mapping[str, Any]]) -> None:
    """Embed Limits (developers/resources/message.mdx,
    https://discord.com/developers/docs/resources/message#embed-object-embed-limits):
    "Leading and trailing whitespace characters are not included (they are trimmed
    automatically)", so a field's name or value of spaces alone is missing, and the
    lengths, the 6000 in total among them, count the trimmed text. A footer's ``text`` and
    an author's ``name`` are not optional once the footer or author is sent (Embed Footer
    and Embed Author Structure), and the URLs the docs restrict are "only http(s)" (an
    author's url), or "http(s) and attachments" (the pictures: Embed Image Structure, the
    ``icon_url`` fields)."""
    form.length(("embeds",), list(embeds), 0, MAX_EMBEDS)
    total = 0
    for index, embed in enumerate(embeds):
        path: Path = ("embeds", index)
        texts = [((*path, "title"), _trim(embed.get("title")), MAX_EMBED_TITLE),
                 ((*path, "description"), _trim(embed.get("description")),
                  MAX_EMBED_DESCRIPTION)]
        for key, text_key, limit in (("footer", "text", MAX_FOOTER),
                                     ("author", "name", MAX_AUTHOR_NAME)):
            part = embed.get(key)
            if isinstance(part, Mapping):
                text = _trim(part.get(text_key))
                if form.required((*path, key), {text_key: text}, text_key):
                    texts.append(((*path, key, text_key), text, limit))
        fields = embed.get("fields") or []
        form.length((*path, "fields"), fields, 0, MAX_EMBED_FIELDS)
        for number, item in enumerate(fields):
            field_path = (*path, "fields", number)
            for key, limit in (("name", MAX_FIELD_NAME), ("value", MAX_FIELD_VALUE)):
                text = _trim(item.get(key))
                if form.required(field_path, {key: text}, key):
                    texts.append(((*field_path, key), text, limit))
        for where, text, limit in texts:
            form.length(where, text, 0, limit)
            total += len(text)
        _check_embed_urls(form, path, embed)
        _check_embed_color_and_time(form, path, embed)
    if total > MAX_EMBED_TOTAL:
        form.add(
            ("embeds",),
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}",
        )


def _trim(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


_WEB = ("http", "https")
_WEB_OR_FILE = ("http", "https", "attachment")
_EMBED_URLS: tuple[tuple[Path, tuple[str, ...]], ...] = (
    (("author", "url"), _WEB), (("author", "icon_url"), _WEB_OR_FILE),
    (("footer", "icon_url"), _WEB_OR_FILE), (("image", "url"), _WEB_OR_FILE),
    (("thumbnail", "url"), _WEB_OR_FILE),
)


def _check_embed_urls(form: FormErrors, path: Path, embed: Mapping[str, Any]) -> None:
    for picture in ("image", "thumbnail"):
        if isinstance(embed.get(picture), Mapping):
            form.required((*path, picture), embed[picture], "url")
    for keys, schemes in _EMBED_URLS:
        node: object = embed
        for key in keys:
            node = node.get(str(key)) if isinstance(node, Mapping) else None
        if node is None:
            continue
        scheme = str(node).partition("://")[0] if "://" in str(node) else ""
        if scheme.lower() not in schemes:
            form.add((*path, *keys), "URL_TYPE_INVALID_SCHEME",
                     f'Scheme "{scheme}" is not supported. Scheme must be one of {schemes}.')


#: The largest colour: Embed Structure gives "color?: integer, color code of the embed",
#: an RGB value (discord-api-docs pull 247: "a hex value (base 16) of a color represented
#: in base 10"), so 0xFFFFFF at most; the bound is that reading, the docs give none.
MAX_EMBED_COLOR = 0xFFFFFF


def _check_embed_color_and_time(form: FormErrors, path: Path, embed: Mapping[str, Any]
                                ) -> None:
    """An embed's ``color`` is an integer and its ``timestamp`` an "ISO8601 timestamp"
    (Embed Structure, developers/resources/message.mdx). Discord's refusal of a timestamp
    reads « Could not parse 1500218461229. Should be ISO8601. » (discordjs/discord.js pull
    1688; Discord4J/Discord4J issue 196); the docs give no inner code for either refusal,
    so the fake names them in Discord's style (``NUMBER_TYPE_*``, ``DATE_TIME_TYPE_PARSE``)."""
    color = embed.get("color")
    if color is not None:
        if not isinstance(color, int) or isinstance(color, bool):
            form.add((*path, "color"), "NUMBER_TYPE_COERCE", f'Value "{color}" is not int.')
        elif not 0 <= color <= MAX_EMBED_COLOR:
            form.add((*path, "color"), "NUMBER_TYPE_MAX",
                     f"int value should be between 0 and {MAX_EMBED_COLOR}.")
    stamp = embed.get("timestamp")
    if stamp is not None and not _is_iso8601(stamp):
        form.add((*path, "timestamp"), "DATE_TIME_TYPE_PARSE",
                 f"Could not parse {stamp}. Should be ISO8601.")


def _is_iso8601(value: object) -> bool:
    if not isinstance(value, str):
        return False
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


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
    """Button Structure and styles (developers/components/reference.mdx,
    https://discord.com/developers/docs/components/reference#button): "Non-link and
    non-premium buttons **must** have a `custom_id`, and cannot have a `url` or a
    `sku_id`", "Link buttons **must** have a `url`, and cannot have a `custom_id`" (Discord
    answers ``BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE``), "Premium buttons
    **must** contain a `sku_id`, and cannot have a `custom_id`, `label`, `url`, or
    `emoji`"; the url is "max 512 characters"."""
    style = button.get("style")
    if style not in range(1, 7):
        form.add(
            (*path, "style"),
            "UNION_TYPE_CHOICES",
            'Value of field "style" must be one of (1, 2, 3, 4, 5, 6).',
        )
    form.length((*path, "label"), button.get("label") or "", 0, MAX_BUTTON_LABEL)
    if style == LINK_STYLE:
        if form.required(path, button, "url"):
            form.length((*path, "url"), button["url"], 1, MAX_BUTTON_URL)
        forbidden: tuple[str, ...] = ("custom_id", "sku_id")
    elif style == PREMIUM_STYLE:
        form.required(path, button, "sku_id")
        forbidden = ("custom_id", "label", "url", "emoji")
    else:
        _check_custom_id(form, path, button)
        forbidden = ("url", "sku_id")
    for key in forbidden:
        if button.get(key) is None:
            continue
        if key in ("custom_id", "url") and style != PREMIUM_STYLE:
            form.add((*path, key), "BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE",
                     "A custom id and url cannot both be specified")
        else:
            form.add((*path, key), "BUTTON_COMPONENT_INVALID_FIELD",
                     f"A button of style {style} cannot have a {key}")
    if style != PREMIUM_STYLE and not (button.get("label") or button.get("emoji")):
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
    # Auto-populated selects: "number of default values must be in the range defined by
    # `min_values` and `max_values`" (User Select Structure, developers/components/
    # reference.mdx); a string select's options marked ``default`` are its default values,
    # held to its max_values the same way.
    if select.get("type") != STRING_SELECT:
        chosen = len(select.get("default_values") or [])
        if chosen and not low <= chosen <= high:
            form.add((*path, "default_values"), "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES",
                     "The specified number of default values is outside min_values and "
                     "max_values")
        return
    options = select.get("options") or []
    form.length((*path, "options"), options, 1, MAX_SELECT_OPTIONS)
    if sum(1 for option in options if option.get("default")) > high:
        form.add((*path, "options"), "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES",
                 "The specified number of default values exceeds the specified maximum values")
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
    """custom_ids and component ids unique in a message or modal. Anatomy of a Component
    (developers/components/reference.mdx): "id?: 32 bit integer used as an optional
    identifier for component", "The `id` must be unique within the message", and "Sending
    components with an `id` of `0` is allowed but will be treated as empty"."""
    ids: set[int] = set()
    for path, component in walk(components):
        number = component.get("id")
        if not number:
            continue
        if not isinstance(number, int) or not 0 < number < 2 ** 31:
            form.add((*path, "id"), "NUMBER_TYPE_MAX",
                     "int value should be between 0 and 2147483647.")
        elif number in ids:
            form.add((*path, "id"), "COMPONENT_ID_DUPLICATED",
                     "Component id cannot be duplicated")
        ids.add(number)
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


MODAL_TOP_LEVEL = frozenset({ACTION_ROW, TEXT_DISPLAY, LABEL})
#: Label Child Components: text input, the five selects, file upload, radio group,
#: checkbox group and checkbox.
LABEL_CHILDREN = frozenset({TEXT_INPUT, *SELECTS, 19, 21, 22, 23})


def check_modal(modal: Mapping[str, Any], emoji_ids: AbstractSet[int] = frozenset()) -> None:
    """A modal (response type 9): title, custom_id and up to five text inputs or selects,
    each alone in a row or in a Label. From the Component Reference
    (https://discord.com/developers/docs/components/reference): a Label's "label: The label
    text; max 45 characters" and "description?: max 100 characters", its "component: The
    component within the label", one of the Label Child Components; a text input's
    ``style`` one of Short (1) or Paragraph (2), its placeholder "max 100 characters",
    min_length "min 0, max 4000", max_length "min 1, max 4000"; "Using `disabled` in a
    modal will result in an error"; buttons are "only used in messages"; a string select's
    "`min_values` must be either omitted or at least `1` if `required` is omitted or
    `true`". The modal's components are Labels, Text Displays or (deprecated) Action Rows
    holding one text input, which then carries its own label. A select's options show
    emojis under the rules of a message's (``emoji_ids``: the application's)."""
    form = FormErrors()
    if form.required((), modal, "title"):
        form.length(("title",), modal["title"], 1, MAX_MODAL_TITLE)
    _check_custom_id(form, (), modal)
    components = modal.get("components") or []
    form.length(("components",), components, 1, MAX_MODAL_COMPONENTS)
    for index, top in enumerate(components):
        _check_modal_layout(form, ("components", index), top)
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
            if component.get("required", True) is not False \
                    and component.get("min_values", 1) == 0:
                form.add((*path, "min_values"), "SELECT_COMPONENT_MIN_VALUES_REQUIRED",
                         "min_values must be at least 1 for a required select")
        elif kind == BUTTON:
            form.add(path, "COMPONENT_TYPE_INVALID", "Buttons are only used in messages")
        if component.get("disabled"):
            form.add((*path, "disabled"), "COMPONENT_DISABLED_IN_MODAL",
                     "Components in a modal cannot be disabled")
    _check_custom_ids(form, components)
    _check_emojis(form, components, emoji_ids)
    form.raise_if_any()


def _check_modal_layout(form: FormErrors, path: Path, top: Mapping[str, Any]) -> None:
    kind = top.get("type")
    if kind not in MODAL_TOP_LEVEL:
        form.add((*path, "type"), "UNION_TYPE_CHOICES",
                 f'Value of field "type" must be one of {tuple(sorted(MODAL_TOP_LEVEL))}.')
    elif kind == LABEL:
        child = top.get("component")
        if not isinstance(child, Mapping):
            form.add((*path, "component"), "BASE_TYPE_REQUIRED", "This field is required")
        elif child.get("type") not in LABEL_CHILDREN:
            form.add((*path, "component", "type"), "UNION_TYPE_CHOICES",
                     f'Value of field "type" must be one of {tuple(sorted(LABEL_CHILDREN))}.')
    elif kind == TEXT_DISPLAY:
        form.required(path, top, "content")
    else:
        children = top.get("components") or []
        form.length((*path, "components"), children, 1, 1)
        for index, child in enumerate(children):
            if child.get("type") == TEXT_INPUT:
                form.required((*path, "components", index), child, "label")


def _check_text_input(form: FormErrors, path: Path, field: Mapping[str, Any]) -> None:
    _check_custom_id(form, path, field)
    if field.get("style") not in (1, 2):
        form.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")
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
    # A pre-filled value the field's own max_length cannot hold: the docs bound ``value`` by
    # 4,000 only ("Pre-filled value for this component; max 4000 characters", Text Input
    # Structure) and do not say whether Discord holds it to max_length or cuts it. The
    # fake refuses it, with the length refusal it gives any field: a form whose value the
    # player could not type back as is, is a bug in the bot either way.
    value = field.get("value") or ""
    if isinstance(high, int) and 1 <= high < len(value) <= MAX_TEXT_INPUT_VALUE:
        form.length((*path, "value"), value, 0, high)
    # A pre-filled value shorter than the field's min_length ("Minimum input length for a
    # text input", Text Input Structure), the empty one included, is refused at ``value``:
    # « value[BASE_TYPE_MIN_LENGTH]: Must be 1 or more in length. » (discordjs/discord.js
    # pull request 10805), and « an empty value may be set when not constrained by
    # `min_length` » (pull request 11182, after issue 11181 found Discord taking "").
    # Without a ``value`` the field starts empty, which only its submit holds to min_length
    # (the player's client: `fakediscord.client`).
    given = field.get("value")
    if isinstance(given, str) and isinstance(low, int) and 0 < low <= MAX_TEXT_INPUT_VALUE \
            and len(given) < low:
        form.add((*path, "value"), "BASE_TYPE_MIN_LENGTH", f"Must be {low} or more in length.")
