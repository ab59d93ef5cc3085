"""The websocket gateway: HELLO, heartbeats, IDENTIFY/RESUME, and event dispatch."""

from __future__ import annotations

import asyncio
import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .payloads import bot_user_payload, guild_payload, member_payload
from .settle import Activity
from .state import World

HEARTBEAT_INTERVAL_MS = 41_250
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
RECONNECT_PLEASE = 4000
# A snowflake's top 42 bits are its timestamp; Discord shards guilds on them.
SHARD_SHIFT = 22

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, REQUEST_MEMBERS = 0, 1, 2, 6, 8
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11


@dataclass
class Session:
    """A gateway session; it survives its websocket so the client can RESUME it."""

    id: str
    intents: int
    # IDENTIFY's ``shard``: (shard_id, num_shards); (0, 1) when the client sent none.
    shard: tuple[int, int] = (0, 1)
    seq: int = 0

    def owns(self, guild_id: int | None) -> bool:
        """Whether this session receives the events of ``guild_id``: Discord's sharding
        formula ``shard_id = (guild_id >> 22) % num_shards``, and events without a guild
        (DMs) go to shard 0 only (discord-api-docs, topics/gateway.md, "Sharding")."""
        shard_id, num_shards = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> SHARD_SHIFT) % num_shards == shard_id


@dataclass
class Connection:
    """One websocket; frames go through a queue so dispatch order is send order."""

    ws: web.WebSocketResponse
    outbox: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    session: Session | None = None
    sending: bool = False


class Gateway:
    """Speaks just enough of the gateway protocol for discord.py, in plain JSON text frames.

    discord.py asks for zlib-stream compression but also accepts text frames, so nothing
    is compressed. Events dispatched while a session has no websocket are dropped. Tokens
    are not checked here: REST login already refused a wrong one.
    """

    def __init__(self, world: World, activity: Activity) -> None:
        self._world = world
        self._activity = activity
        self._sessions: dict[str, Session] = {}
        self._connections: list[Connection] = []
        self.url = ""
        # The ``shards`` GET /gateway/bot recommends (what SHARD_COUNT=auto runs).
        self.recommended_shards = 1

    @property
    def connected(self) -> bool:
        """Whether some bot has identified and can receive events."""
        return any(c.session is not None and not c.ws.closed for c in self._connections)

    def busy(self) -> bool:
        return any(c.sending or not c.outbox.empty() for c in self._connections)

    def closing(self) -> bool:
        """Whether a websocket is closed but its handler has not let go of it yet."""
        return any(c.ws.closed for c in self._connections)

    def dispatch(
        self, event: str, data: dict[str, Any], *, intent: int | None = None, once: bool = False
    ) -> None:
        """Queue an event for every identified session subscribed to ``intent`` whose shard
        owns the event's guild, or with ``once`` for the first of them only.

        An interaction is an event of the second kind: Discord delivers INTERACTION_CREATE
        to one connection, and a bot that is answering it twice (or a stopping bot that is
        still connected) would be a bug the fake must not create. Routing by shard is what
        makes a process of a sharded bot see only its own guilds' clicks.
        """
        guild_id = _guild_of(event, data)
        for connection in self._connections:
            session = connection.session
            if connection.ws.closed or session is None or not session.owns(guild_id):
                continue
            if intent is None or session.intents & intent:
                self._dispatch_to(connection, event, data)
                if once:
                    return

    async def close(self) -> None:
        for connection in list(self._connections):
            await connection.ws.close()

    async def drop(self) -> None:
        """Close every websocket with a code that tells the client to resume."""
        for connection in list(self._connections):
            await connection.ws.close(code=RECONNECT_PLEASE, message=b"fakediscord dropped you")

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        connection = Connection(ws)
        self._connections.append(connection)
        writer = asyncio.create_task(self._write(connection))
        self._send(connection, {"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        try:
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    self._receive(connection, json.loads(message.data))
        finally:
            self._connections.remove(connection)
            writer.cancel()
            self._activity.touch()
        return ws

    def _send(self, connection: Connection, frame: dict[str, Any]) -> None:
        # Serialised now: the stored objects a payload points into may change before it is sent.
        connection.outbox.put_nowait(json.dumps(frame))

    async def _write(self, connection: Connection) -> None:
        while True:
            frame = await connection.outbox.get()
            connection.sending = True
            try:
                await connection.ws.send_str(frame)
            except ConnectionResetError:
                return
            finally:
                connection.sending = False
                self._activity.touch()

    def _receive(self, connection: Connection, frame: dict[str, Any]) -> None:
        op, data = frame.get("op"), frame.get("d") or {}
        if op == HEARTBEAT:
            self._send(connection, {"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            self._identify(connection, data)
        elif op == RESUME:
            self._resume(connection, data)
        elif op == REQUEST_MEMBERS:
            self._send_members(connection, data)

    def _identify(self, connection: Connection, data: dict[str, Any]) -> None:
        raw = data.get("shard") or [0, 1]
        shard = (int(raw[0]), int(raw[1]))
        session = Session(id=uuid.uuid4().hex, intents=int(data.get("intents", 0)), shard=shard)
        self._sessions[session.id] = session
        connection.session = session
        world = self._world
        joined = [
            g for g in world.guilds.values() if world.bot.id in g.members and session.owns(g.id)
        ]
        self._dispatch_to(
            connection,
            "READY",
            {
                "v": 10,
                "user": bot_user_payload(world.bot),
                "guilds": [{"id": str(g.id), "unavailable": True} for g in joined],
                "session_id": session.id,
                "session_type": "normal",
                "resume_gateway_url": self.url,
                "shard": list(shard),
                "application": {"id": str(world.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "user_settings": {},
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "auth": {},
                "_trace": ["fakediscord"],
            },
        )
        for guild in joined:
            self._dispatch_to(connection, "GUILD_CREATE", guild_payload(world, guild))

    def _dispatch_to(self, connection: Connection, event: str, data: dict[str, Any]) -> None:
        session = connection.session
        assert session is not None
        session.seq += 1
        self._send(connection, {"op": DISPATCH, "t": event, "s": session.seq, "d": data})

    def _resume(self, connection: Connection, data: dict[str, Any]) -> None:
        session = self._sessions.get(data.get("session_id") or "")
        if session is None:
            self._send(connection, {"op": INVALID_SESSION, "d": False})
            return
        connection.session = session
        self._dispatch_to(connection, "RESUMED", {"_trace": ["fakediscord"]})

    def _send_members(self, connection: Connection, data: dict[str, Any]) -> None:
        if connection.session is None:
            return
        guild = self._world.guilds.get(int(data.get("guild_id") or 0))
        if guild is None:
            return
        wanted = {int(u) for u in data.get("user_ids") or []}
        query = (data.get("query") or "").lower()
        members = [
            member_payload(self._world, guild, uid)
            for uid in guild.members
            if (not wanted or uid in wanted)
            and self._world.users[uid].name.lower().startswith(query)
        ]
        limit = data.get("limit") or 0
        self._dispatch_to(
            connection,
            "GUILD_MEMBERS_CHUNK",
            {
                "guild_id": str(guild.id),
                "members": members[:limit] if limit else members,
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
                "nonce": data.get("nonce"),
            },
        )


def _guild_of(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event belongs to, which decides its shard: GUILD_CREATE and its kin
    carry it as ``id``, every other guild event as ``guild_id``."""
    raw = data.get("id") if event in GUILD_EVENTS else data.get("guild_id")
    return None if raw is None else int(raw)


GUILD_EVENTS = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})
