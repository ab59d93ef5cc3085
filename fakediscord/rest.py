"""The REST API under ``/api/v10``: routing, auth, the call log, 429s, error bodies.

Bodies are JSON with a Content-Type of exactly ``application/json``: discord.py parses
nothing else as JSON (aiohttp's ``json_response`` adds a charset and login then breaks).
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from aiohttp import BodyPartReader, hdrs, web

from . import errors
from .calls import CallLog, CallRecord, Failure
from .commands import CommandRegistry
from .emojis import ApplicationEmojis
from .errors import DiscordError
from .gateway import Gateway
from .interactions import InteractionHub
from .latency import Latency
from .messages import MessageWriter, Upload
from .payloads import (
    ATTACH_FILES,
    EMBED_LINKS,
    MANAGE_THREADS,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    bot_permissions,
    bot_reaches,
    bot_user_payload,
    channel_payload,
    member_payload,
    message_payload,
    user_payload,
)
from .ratelimits import RateLimiter
from .settle import Activity
from .state import Channel, StoredMessage, World

API = "/api/v10"
GATEWAY_PATH = "/gateway"
NOT_IMPLEMENTED = "route not implemented by fakediscord"
CRASHED = "fakediscord failed on this request, see the log"

_log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def json_response(body: object, status: int = 200) -> web.Response:
    return web.Response(
        body=json.dumps(body).encode(), status=status, content_type="application/json"
    )


def no_content() -> web.Response:
    return web.Response(status=204)


async def read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    """The JSON payload, whether sent as JSON or as multipart ``payload_json`` plus files."""
    if request.content_type == "multipart/form-data":
        payload: Any = {}
        uploads = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):
                continue
            if part.name == "payload_json":
                payload = json.loads(await part.text())
            elif part.filename:
                data = await part.read()
                kind = part.headers.get(hdrs.CONTENT_TYPE, "application/octet-stream")
                uploads.append(Upload(part.filename, kind, len(data)))
        return payload, uploads
    if not request.can_read_body:
        return {}, []
    return await request.json(), []


def _too_many_requests(
    retry_after: float, is_global: bool, headers: dict[str, str] | None = None
) -> web.Response:
    """A 429 as Discord's edge sends it; discord.py retries only when ``Via`` is present.

    The body is the Rate Limit Response Structure (message, retry_after, global) of
    discord-api-docs topics/rate-limits; ``headers`` are the bucket's, which "will also be
    sent in this response"."""
    body = {
        "message": "You are being rate limited.",
        "retry_after": retry_after,
        "global": is_global,
    }
    response = json_response(body, 429)
    response.headers["Via"] = "1.1 google"
    response.headers["Retry-After"] = str(math.ceil(retry_after))
    response.headers["X-RateLimit-Scope"] = "global" if is_global else "user"
    if is_global:
        response.headers["X-RateLimit-Global"] = "true"
    response.headers.update(headers or {})
    return response


def _template(request: web.Request) -> str:
    """The route template (``/channels/{channel_id}/messages``), or the path if unrouted."""
    resource = request.match_info.route.resource
    path = request.path.removeprefix(API)
    return path if resource is None else resource.canonical.removeprefix(API)


def _sending(channel: Channel) -> int:
    """The permission that lets the bot post in ``channel``: in a thread "The SEND_MESSAGES
    permission has no effect in threads; users must have SEND_MESSAGES_IN_THREADS to talk in
    a thread" (Threads, Permissions,
    https://discord.com/developers/docs/topics/threads#permissions)."""
    return SEND_MESSAGES_IN_THREADS if channel.thread else SEND_MESSAGES


def _flag(request: web.Request, name: str) -> bool:
    return request.query.get(name, "").lower() in ("1", "true")


class Rest:
    """Builds the aiohttp application and answers each route from the shared state."""

    def __init__(
        self,
        world: World,
        gateway: Gateway,
        writer: MessageWriter,
        hub: InteractionHub,
        commands: CommandRegistry,
        log: CallLog,
        activity: Activity,
        token: str,
        limiter: RateLimiter,
        latency: Latency,
    ) -> None:
        self._world = world
        self._gateway = gateway
        self._writer = writer
        self._hub = hub
        self._commands = commands
        self._log = log
        self._activity = activity
        self._token = token
        self._limiter = limiter
        self._latency = latency
        self.emojis = ApplicationEmojis(world)

    def application(self) -> web.Application:
        app = web.Application(middlewares=[self._middleware])
        app.router.add_get(GATEWAY_PATH, self._gateway.handle)
        routes: list[tuple[str, str, Handler]] = [
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway_bot),
            ("GET", "/users/@me", self._get_me),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/users/{user_id}", self._get_user),
            ("GET", "/applications/{application_id}/commands", self._get_commands),
            ("PUT", "/applications/{application_id}/commands", self._put_commands),
            (
                "GET",
                "/applications/{application_id}/guilds/{guild_id}/commands",
                self._get_commands,
            ),
            (
                "PUT",
                "/applications/{application_id}/guilds/{guild_id}/commands",
                self._put_commands,
            ),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("GET", "/channels/{channel_id}/messages", self._get_history),
            ("POST", "/channels/{channel_id}/messages", self._post_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._patch_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message),
            ("POST", "/interactions/{webhook_id}/{webhook_token}/callback", self._post_callback),
            ("POST", "/webhooks/{webhook_id}/{webhook_token}", self._post_followup),
        ]
        for method in ("GET", "PATCH", "DELETE"):
            for reference in ("@original", "{message_id}"):
                path = "/webhooks/{webhook_id}/{webhook_token}/messages/" + reference
                routes.append((method, path, self._webhook_message))
        routes += self.emojis.routes()
        for method, path, handler in routes:
            app.router.add_route(method, API + path, handler)
        return app

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path == GATEWAY_PATH:
            return await handler(request)
        # The call's latency first (fakediscord/latency.py): it arrives, is judged (deadlines,
        # rate limits) and logged when its delay has passed. Not counted as in flight meanwhile:
        # settle() sees it through the latency's own count and moves the fake clock past it.
        delay = await self._latency.travel(_template(request))
        if delay and (request.transport is None or request.transport.is_closing()):
            # The caller hung up while its call was on its way (a bot shutting down): the
            # call never arrives, and there is nobody to answer.
            return no_content()
        self._activity.begin()
        try:
            return await self._answer(request, handler, delay)
        finally:
            self._activity.end()

    async def _answer(
        self, request: web.Request, handler: Handler, delay: float
    ) -> web.StreamResponse:
        path = request.path.removeprefix(API)
        token = request.match_info.get("webhook_token")
        interaction = None if token is None else self._world.interaction_by_token(token)
        # A token Discord reset (session start limit, fakediscord/gateway.py) is refused.
        authorized = (request.headers.get(hdrs.AUTHORIZATION) == f"Bot {self._token}"
                      and not self._gateway.token_reset)
        call = CallRecord(
            method=request.method,
            route=_template(request),
            path=path,
            time=self._world.clock.monotonic(),
            latency=delay,
            caller=self._world.bot.name if authorized or interaction else "anonymous",
            status=0,
            user=None if interaction is None else self._world.users[interaction.user_id].name,
        )
        # Threads whose inactivity ran out archived themselves meanwhile (`World.archive_idle`).
        self._writer.archive_idle()
        uploads = request.content_type == "multipart/form-data"  # files (Uploading Files)
        limit = self._log.take_rate_limit(call.method, call.route, call.user, uploads)
        if limit is not None:
            self._log.add(replace(call, status=429, injected=True))
            return _too_many_requests(limit.retry_after, limit.is_global)
        failure = self._log.take_failure(call.method, call.route, uploads)
        if failure is not None and not failure.handled:
            return self._fail(request, call, failure)
        channel_id = request.match_info.get("channel_id")
        webhook_id = request.match_info.get("webhook_id")
        top_level = channel_id if webhook_id is None else f"{webhook_id}/{token}"
        verdict = self._limiter.judge(call.method, call.route, top_level)
        if verdict.refused:
            self._log.add(replace(call, status=429, note="rate limited"))
            return _too_many_requests(verdict.retry_after, verdict.is_global, verdict.headers)
        response = await self._handle(request, handler, call, token, authorized)
        if failure is not None:  # carried out, its answer lost on the way back
            return self._fail(request, call, failure)
        response.headers.update(verdict.headers)
        return response

    def _fail(self, request: web.Request, call: CallRecord, failure: Failure) -> web.Response:
        """An injected failure (`FakeDiscord.inject_error`, `inject_disconnect`): the error
        Discord would answer, or the connection dropped unanswered, which aiohttp's client
        raises as `ServerDisconnectedError` (a PATCH or POST is not idempotent: it does not
        send it again), the call carried out first where `Failure.handled` (logged twice
        then: as carried out, and as failed)."""
        if failure.status is None:
            self._log.add(replace(call, injected=True, note="connection dropped"))
            if request.transport is not None:
                request.transport.abort()
            return no_content()
        body = failure.body or {}
        self._log.add(replace(call, status=failure.status, code=body.get("code"), error=body,
                              injected=True))
        return json_response(body, failure.status)

    async def _handle(
        self,
        request: web.Request,
        handler: Handler,
        call: CallRecord,
        token: str | None,
        authorized: bool,
    ) -> web.StreamResponse:
        try:
            if token is None and not authorized:
                raise errors.unauthorized()
            answer = await handler(request)
        except DiscordError as exc:
            self._log.add(replace(call, status=exc.status, code=exc.code, error=exc.body()))
            return json_response(exc.body(), exc.status)
        except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
            missing = errors.route_not_found()
            self._log.add(
                replace(call, status=404, code=0, error=missing.body(), note=NOT_IMPLEMENTED)
            )
            return json_response(missing.body(), 404)
        except Exception as exc:
            # A 500 would make discord.py retry with real sleeps (1 s, 3 s...): answer 400.
            _log.exception("fakediscord could not handle %s %s", call.method, call.path)
            body = {"message": f"fakediscord could not handle this request: {exc!r}", "code": 0}
            self._log.add(replace(call, status=400, code=0, error=body, note=CRASHED))
            return json_response(body, 400)
        self._log.add(replace(call, status=answer.status))
        return answer

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self._gateway.url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        gateway = self._gateway
        return json_response({"url": gateway.url, "shards": gateway.recommended_shards,
                              "session_start_limit": gateway.session_start_limit()})

    async def _get_me(self, request: web.Request) -> web.Response:
        return json_response(bot_user_payload(self._world.bot))

    async def _get_application(self, request: web.Request) -> web.Response:
        bot = self._world.bot
        return json_response(
            {
                "id": str(self._world.application_id),
                "name": bot.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": user_payload(bot),
                "bot": user_payload(bot),
                "team": None,
                "verify_key": "0" * 64,
                "summary": "",
                "flags": 0,
                "rpc_origins": [],
                "redirect_uris": [],
                "tags": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(self._world.guilds),
                "integration_types_config": {"0": {}},
            }
        )

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self._world.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise errors.unknown_user()
        return json_response(user_payload(user))

    def _command_scope(self, request: web.Request) -> int | None:
        if int(request.match_info["application_id"]) != self._world.application_id:
            raise errors.missing_access()
        if "guild_id" not in request.match_info:
            return None
        guild = self._world.guilds.get(int(request.match_info["guild_id"]))
        if guild is None or self._world.bot.id not in guild.members:
            raise errors.missing_access()
        return guild.id

    async def _get_commands(self, request: web.Request) -> web.Response:
        return json_response(self._commands.listing(self._command_scope(request)))

    async def _put_commands(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        body, _ = await read_body(request)
        return json_response(self._commands.sync(scope, body))

    async def _get_member(self, request: web.Request) -> web.Response:
        guild = self._world.guilds.get(int(request.match_info["guild_id"]))
        user_id = int(request.match_info["user_id"])
        if guild is None or user_id not in guild.members:
            raise errors.unknown_member()
        return json_response(member_payload(self._world, guild, user_id))

    def _require(self, channel: Channel, *needed: int) -> None:
        """Refuse a channel route as Discord does. Without VIEW_CHANNEL the channel is out of
        reach, 403 50001 Missing Access ("Denying a user or a role VIEW_CHANNEL on a channel
        implicitly denies other permissions on the channel", Implicit Permissions,
        https://discord.com/developers/docs/topics/permissions#implicit-permissions), and so
        is a voice channel without CONNECT and a private thread the bot is not in
        (`payloads.bot_reaches`); without another permission the route needs, 403 50013
        Missing Permissions."""
        granted = bot_permissions(self._world, channel)
        if not bot_reaches(self._world, channel):
            raise errors.missing_access()
        if any(not granted & flag for flag in needed):
            raise errors.missing_permissions()

    def _in_archived(self, channel: Channel, *, posting: bool) -> None:
        """Threads a moderator archived or locked (Threads, Locked Threads and Active &
        Archived Threads, https://discord.com/developers/docs/topics/threads#locked-threads):
        without MANAGE_THREADS no message is created or updated in a locked one (160005);
        an archived one refuses edits (50083), and a post unarchives it, with a
        THREAD_UPDATE, "unless the thread has been locked by a moderator": then the post is
        refused as any operation on an archived thread ("only active threads can be
        manipulated"), MANAGE_THREADS or not; only unarchiving it reopens it."""
        if channel.locked and not bot_permissions(self._world, channel) & MANAGE_THREADS:
            raise errors.thread_locked()
        if not channel.archived:
            return
        if not posting or channel.locked:
            raise errors.archived_thread()
        self._writer.unarchive(channel)

    async def _get_channel(self, request: web.Request) -> web.Response:
        """Get Channel (« Get a channel by ID », with the bot's thread member where it is one,
        https://discord.com/developers/docs/resources/channel#get-channel): an archived
        thread too, which the gateway does not list (« archived threads are not synced
        up-front via the gateway », Threads, Active & Archived Threads,
        https://discord.com/developers/docs/topics/threads#active-archived-threads); a
        deleted channel or thread is 404 Unknown Channel (10003), one out of the bot's reach
        403 Missing Access (`_require`)."""
        channel = self._world.channel(int(request.match_info["channel_id"]))
        self._require(channel)
        return json_response(channel_payload(channel, self._world.bot.id))

    async def _get_history(self, request: web.Request) -> web.Response:
        channel = self._world.channel(int(request.match_info["channel_id"]))
        self._require(channel)
        # "If the current user is missing the READ_MESSAGE_HISTORY permission in the channel,
        # then no messages will be returned" (Get Channel Messages,
        # https://discord.com/developers/docs/resources/message#get-channel-messages).
        if not bot_permissions(self._world, channel) & READ_MESSAGE_HISTORY:
            return json_response([])
        before = int(request.query.get("before", 0)) or None
        after = int(request.query.get("after", 0))
        limit = min(int(request.query.get("limit", 50)), 100)
        found = [
            m
            for m in self._world.visible(self._world.bot.id, channel.id)
            if after < m.id and (before is None or m.id < before)
        ]
        chosen = found[:limit] if "after" in request.query else found[-limit:]
        return json_response([message_payload(self._world, m) for m in reversed(chosen)])

    async def _post_message(self, request: web.Request) -> web.Response:
        channel = self._world.channel(int(request.match_info["channel_id"]))
        payload, uploads = await read_body(request)
        # "When operating on a guild channel, the current user must have the SEND_MESSAGES
        # permission" (Create Message, limitations,
        # https://discord.com/developers/docs/resources/message#create-message); embeds
        # without EMBED_LINKS and files without ATTACH_FILES are refused with 50013 too; in
        # a thread Send Messages in Threads stands for Send Messages (`_sending`).
        needed = [_sending(channel)]
        if payload.get("embeds"):
            needed.append(EMBED_LINKS)
        if uploads:
            needed.append(ATTACH_FILES)
        self._require(channel, *needed)
        self._in_archived(channel, posting=True)
        message = self._writer.nonced(payload) or self._writer.create(channel, payload, uploads)
        return json_response(message_payload(self._world, message))

    def _channel_message(self, request: web.Request, *needed: int) -> StoredMessage:
        channel = self._world.channel(int(request.match_info["channel_id"]))
        self._require(channel, *needed)
        return self._world.public_message(channel.id, int(request.match_info["message_id"]))

    async def _get_message(self, request: web.Request) -> web.Response:
        # "requires the current user to have the VIEW_CHANNEL and READ_MESSAGE_HISTORY
        # permissions" (Get Channel Message, same page).
        message = self._channel_message(request, READ_MESSAGE_HISTORY)
        return json_response(message_payload(self._world, message))

    async def _patch_message(self, request: web.Request) -> web.Response:
        payload, uploads = await read_body(request)
        # An edit "can be edited by the original message author" without SEND_MESSAGES, but
        # its files are uploads ("Any provided files will be **appended** to the message",
        # Edit Message, https://discord.com/developers/docs/resources/message#edit-message):
        # ATTACH_FILES "Allows for uploading images and files" (Permissions, Bitwise
        # Permission Flags, https://discord.com/developers/docs/topics/permissions), and
        # "Denying `SEND_MESSAGES` implicitly denies `MENTION_EVERYONE`, `SEND_TTS_MESSAGES`,
        # `ATTACH_FILES`, and `EMBED_LINKS`" (same page, Implicit Permissions). Without them
        # an edit with new files is refused whole, 403 50013.
        channel = self._world.channel(int(request.match_info["channel_id"]))
        message = self._channel_message(request, *(
            (ATTACH_FILES, _sending(channel)) if uploads else ()))
        self._in_archived(self._world.channel(message.channel_id), posting=False)
        self._writer.edit(message, payload, uploads)
        return json_response(message_payload(self._world, message))

    async def _delete_message(self, request: web.Request) -> web.Response:
        self._writer.delete(self._channel_message(request))
        return no_content()

    async def _post_callback(self, request: web.Request) -> web.Response:
        body, uploads = await read_body(request)
        answer = self._hub.callback(
            int(request.match_info["webhook_id"]),
            request.match_info["webhook_token"],
            body,
            uploads,
        )
        return json_response(answer) if _flag(request, "with_response") else no_content()

    async def _post_followup(self, request: web.Request) -> web.Response:
        payload, uploads = await read_body(request)
        message = self._hub.followup(
            int(request.match_info["webhook_id"]),
            request.match_info["webhook_token"],
            payload,
            uploads,
        )
        return (
            json_response(message_payload(self._world, message))
            if _flag(request, "wait")
            else no_content()
        )

    async def _webhook_message(self, request: web.Request) -> web.Response:
        reference = request.match_info.get("message_id", "@original")
        message = self._hub.webhook_message(
            int(request.match_info["webhook_id"]), request.match_info["webhook_token"], reference
        )
        if request.method == "DELETE":
            self._writer.delete(message)
            return no_content()
        if request.method == "PATCH":
            payload, uploads = await read_body(request)
            self._writer.edit(message, payload, uploads)
        return json_response(message_payload(self._world, message))
