"""Application emojis: the emojis an application owns, usable in every server.

Routes and limits from Discord's documentation, discord/discord-api-docs
``docs/resources/Emoji.md`` (« List / Get / Create / Modify / Delete Application Emoji »):

- ``GET /applications/{application.id}/emojis`` answers ``{"items": [emoji, ...]}``;
- ``POST`` takes ``name`` and ``image`` (a data URI, "the 128x128 emoji image"); an
  application owns at most 2,000 emojis; an image is at most 256 KiB;
- ``PATCH .../emojis/{emoji.id}`` renames (``name`` only), ``DELETE`` answers 204.

Emoji names are 2 to 32 characters, letters, digits and underscores (the documented
pattern), unique within the application. The store lives as long as the fake, so a
restarted bot finds the emojis it created.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from . import errors
from .errors import DiscordError
from .payloads import user_payload
from .state import World

MAX_EMOJIS = 2000
MAX_IMAGE_BYTES = 256 * 1024
NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")
_DATA_URI = re.compile(r"^data:image/(png|jpeg|gif|webp);base64,(.*)$", re.DOTALL)
UNKNOWN_EMOJI = 10014
MAXIMUM_EMOJIS = 30008

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class StoredEmoji:
    id: int
    name: str
    image: bytes


def _json(body: object, status: int = 200) -> web.Response:
    # rest.json_response, repeated: rest imports this module, so it cannot import rest.
    return web.Response(body=json.dumps(body).encode(), status=status,
                        content_type="application/json")


def _field_error(field: str, code: str, message: str) -> DiscordError:
    return errors.invalid_form_body({field: {"_errors": [{"code": code, "message": message}]}})


class ApplicationEmojis:
    """The application's emojis, and the REST handlers that read and change them."""

    def __init__(self, world: World) -> None:
        self._world = world
        self.emojis: dict[int, StoredEmoji] = {}

    def routes(self) -> list[tuple[str, str, Handler]]:
        base = "/applications/{application_id}/emojis"
        return [
            ("GET", base, self._list),
            ("POST", base, self._create),
            ("GET", base + "/{emoji_id}", self._get),
            ("PATCH", base + "/{emoji_id}", self._edit),
            ("DELETE", base + "/{emoji_id}", self._delete),
        ]

    def add(self, name: str, image: bytes) -> StoredEmoji:
        """Create an emoji under Discord's limits (also how a test fills the application)."""
        if len(self.emojis) >= MAX_EMOJIS:
            raise DiscordError(400, MAXIMUM_EMOJIS, "Maximum number of emojis reached (2000)")
        self._check_name(name)
        if len(image) > MAX_IMAGE_BYTES:
            raise _field_error("image", "BINARY_TYPE_MAX_SIZE",
                               "File cannot be larger than 256.0 kb.")
        emoji = StoredEmoji(self._world.snowflakes.next(), name, image)
        self.emojis[emoji.id] = emoji
        self._world.emoji_ids.add(emoji.id)
        return emoji

    def _check_name(self, name: object, exclude: int | None = None) -> None:
        if not isinstance(name, str) or not NAME.match(name):
            raise _field_error("name", "STRING_TYPE_REGEX",
                               "String value did not match validation regex.")
        if any(e.name == name and e.id != exclude for e in self.emojis.values()):
            raise _field_error("name", "APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
                               "An application emoji with that name already exists.")

    def payload(self, emoji: StoredEmoji) -> dict[str, Any]:
        return {
            "id": str(emoji.id),
            "name": emoji.name,
            "roles": [],
            "user": user_payload(self._world.bot),
            "require_colons": True,
            "managed": False,
            "animated": False,
            "available": True,
        }

    def _owned(self, request: web.Request) -> None:
        if int(request.match_info["application_id"]) != self._world.application_id:
            raise errors.missing_access()

    def _emoji(self, request: web.Request) -> StoredEmoji:
        self._owned(request)
        emoji = self.emojis.get(int(request.match_info["emoji_id"]))
        if emoji is None:
            raise DiscordError(404, UNKNOWN_EMOJI, "Unknown Emoji")
        return emoji

    async def _list(self, request: web.Request) -> web.Response:
        self._owned(request)
        return _json({"items": [self.payload(e) for e in self.emojis.values()]})

    async def _get(self, request: web.Request) -> web.Response:
        return _json(self.payload(self._emoji(request)))

    async def _create(self, request: web.Request) -> web.Response:
        self._owned(request)
        body = await request.json()
        match = _DATA_URI.match(str(body.get("image", "")))
        if match is None:
            raise _field_error("image", "IMAGE_INVALID", "Invalid image data")
        try:
            image = base64.b64decode(match.group(2), validate=True)
        except binascii.Error:
            raise _field_error("image", "IMAGE_INVALID", "Invalid image data") from None
        return _json(self.payload(self.add(body.get("name"), image)), 201)

    async def _edit(self, request: web.Request) -> web.Response:
        emoji = self._emoji(request)
        body = await request.json()
        if "name" in body:
            self._check_name(body["name"], exclude=emoji.id)
            emoji.name = body["name"]
        return _json(self.payload(emoji))

    async def _delete(self, request: web.Request) -> web.Response:
        gone = self._emoji(request).id
        del self.emojis[gone]
        self._world.emoji_ids.discard(gone)
        return web.Response(status=204)
