"""The websocket gateway: HELLO, heartbeats, IDENTIFY/RESUME, and event dispatch."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .clock import FakeClock
from .payloads import bot_user_payload, guild_payload, member_payload
from .settle import Activity
from .state import World

# HELLO's ``heartbeat_interval`` as Discord sends it (developers/events/gateway.mdx,
# « Hello Event »: "heartbeat_interval: 41250"); `Gateway.heartbeat_interval` may shorten it.
HEARTBEAT_INTERVAL = 41.25
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MODERATION = 1 << 2
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12  # « DIRECT_MESSAGES (1 << 12) - MESSAGE_CREATE […] »
# Not an event of its own: without it, a user's message arrives with its content emptied
# (see `Gateway.dispatch`'s ``without_content``).
INTENT_MESSAGE_CONTENT = 1 << 15
RECONNECT_PLEASE = 4000
# Gateway close event codes (discord-api-docs, topics/opcodes-and-status-codes.mdx, "Gateway
# Close Event Codes"); discord.py reconnects on none of these three.
AUTHENTICATION_FAILED, INVALID_SHARD, SHARDING_REQUIRED = 4004, 4010, 4011
# A snowflake's top 42 bits are its timestamp; Discord shards guilds on them.
SHARD_SHIFT = 22

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT, REQUEST_MEMBERS = 0, 1, 2, 6, 7, 8
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11
# "When you close the connection to the gateway with close code 1000 or 1001, your session
# will be invalidated" (developers/events/gateway.mdx, "Initiating a Disconnect"): what
# discord.py's ``Client.close`` asks for (see `Gateway.end_detached`). Any other close
# leaves it resumable.
SESSION_ENDING_CLOSES = frozenset({1000, 1001})
# The dispatches a session keeps for a RESUME. Discord documents no number ("It's possible
# your app won't reconnect in time to Resume", "Resuming"); a RESUME whose ``seq`` is older
# than what is kept gets an Invalid Session, as one that came too late does.
RESUME_BACKLOG = 2000


@dataclass(frozen=True)
class GatewayLimits:
    """What Discord limits about starting gateway sessions; the defaults are Discord's.

    From discord-api-docs, developers/events/gateway.mdx:

    - ``guilds_per_shard``: "Sharding": "Each shard can only support a maximum of 2500
      guilds"; an IDENTIFY whose session would handle more is closed with 4011 Sharding
      required ("The session would have handled too many guilds", opcodes-and-status-codes,
      "Gateway Close Event Codes"). Tests set a small number.
    - ``max_concurrency`` and ``identify_window``: "Session Start Limit Object":
      ``max_concurrency`` is the "Number of identify requests allowed per 5 seconds", per
      rate limit key ``shard_id % max_concurrency`` ("Sharding", "Max Concurrency"). A
      too-early IDENTIFY gets an Invalid Session (opcode 9) ("Identifying", "Rate Limiting").
    - ``session_starts`` and ``reset_after``: "Identifying": "Clients are limited to 1000
      IDENTIFY calls to the websocket in a 24-hour period ... does not include RESUME calls.
      Upon hitting this limit, all active sessions for the app will be terminated, the bot
      token will be reset"; ``total``/``remaining``/``reset_after`` of GET /gateway/bot.
    """

    guilds_per_shard: int = 2500
    max_concurrency: int = 1
    identify_window: float = 5.0
    session_starts: int = 1000
    reset_after: float = 24 * 60 * 60.0


@dataclass(frozen=True)
class Sent:
    """One dispatch of a session, kept for a RESUME (see `Session.backlog`)."""

    seq: int
    event: str
    frame: str  # serialised when dispatched, as a live connection would have been sent it
    interaction: int | None = None  # an INTERACTION_CREATE's interaction id


@dataclass
class Session:
    """A gateway session; it survives its websocket so the client can RESUME it.

    While it has no websocket (dropped, its client not back yet) Discord goes on queueing
    its events: "Discord has a process for reconnecting and resuming, which allows your app
    to replay any lost events starting from the last sequence number it received"
    (developers/events/gateway.mdx, "Resuming"). ``backlog`` holds its last dispatches, sent
    or not, so a RESUME replays those after the client's ``seq``."""

    id: str
    intents: int
    # IDENTIFY's ``shard``: (shard_id, num_shards); (0, 1) when the client sent none.
    shard: tuple[int, int] = (0, 1)
    seq: int = 0
    sent: Counter[str] = field(default_factory=Counter)  # dispatches sent, per event name
    backlog: deque[Sent] = field(default_factory=lambda: deque(maxlen=RESUME_BACKLOG))
    connection: Connection | None = None  # its live websocket, if any
    delivered: int = 0  # the last seq handed to a live websocket

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
    outbox: asyncio.Queue[str | Close] = field(default_factory=asyncio.Queue)
    session: Session | None = None
    sending: bool = False
    cut: bool = False  # closed by the fake: the client's reply code ends no session
    # Zombied (`Gateway.zombie`): the socket stays open but nothing it carries gets through:
    # no Heartbeat ACK, and (unless ``events_flow``) no dispatch, which waits in the session
    # for a RESUME as if the socket were gone.
    zombie: bool = False
    events_flow: bool = False
    heartbeats: int = 0  # the heartbeats its client sent


@dataclass(frozen=True)
class Close:
    """Queued in an outbox: close the websocket with ``code`` once the frames before it
    (an Invalid Session, the last events) are sent."""

    code: int
    reason: bytes


class Gateway:
    """Speaks just enough of the gateway protocol for discord.py, in plain JSON text frames.

    discord.py asks for zlib-stream compression but also accepts text frames, so nothing
    is compressed. Events dispatched while a session has no websocket wait in its backlog
    for a RESUME (`Session`); a session its client closed with 1000 or 1001, or that
    :meth:`up` ends, gets none. Tokens are not checked here: REST login already refused a
    wrong one.

    :meth:`down` and :meth:`up` model a gap in the bot's connection (flaky network, a
    gateway incident): every websocket is cut, and what the reconnecting client sends is
    answered only once the connection is back, by a RESUME that replays the gap's events or
    by an Invalid Session that makes it IDENTIFY again.
    """

    def __init__(
        self,
        world: World,
        activity: Activity,
        clock: FakeClock,
        token: str,
        limits: GatewayLimits | None = None,
    ) -> None:
        self._world = world
        self._activity = activity
        self._clock = clock
        self._token = token
        self.limits = limits or GatewayLimits()
        self._sessions: dict[str, Session] = {}
        self._connections: list[Connection] = []
        self.url = ""
        # At least this many ``shards`` in GET /gateway/bot (a test's say; see recommended).
        self._fewest_shards = 1
        # Identify pacing: when each rate limit key last started a session (fake clock).
        self._identified_at: dict[int, float] = {}
        # Session starts in the current window, which began at _window_start (None: none).
        self._starts = 0
        self._window_start: float | None = None
        # Set once the session start limit was hit: Discord resets the bot's token.
        self.token_reset = False
        self.identifies: list[tuple[int, int]] = []  # the shards of accepted IDENTIFYs
        self.refused: list[tuple[tuple[int, int], int | str]] = []  # (shard, close code|why)
        self.resumes: list[int] = []  # how many events each accepted RESUME replayed
        # Between down() and up(): the IDENTIFYs and RESUMEs waiting for the connection.
        self._held: list[tuple[Connection, dict[str, Any]]] | None = None
        # Interactions waiting in a detached session's backlog, and those lost with a
        # session that could not be resumed (their users saw « This interaction failed »).
        self.undelivered: set[int] = set()
        self.replayed: set[int] = set()  # interactions a RESUME delivered
        self.lost_interactions: list[int] = []
        self._live_before_down = 0
        self._ended_sent: Counter[str] = Counter()  # what ended sessions were sent
        # Seconds between heartbeats, sent in HELLO: Discord's unless a test shortens it so
        # that discord.py's keep-alive thread, which waits on the wall clock, looks often.
        self.heartbeat_interval = HEARTBEAT_INTERVAL
        self.zombies = 0  # connections zombied by `zombie` that their client has not closed

    @property
    def recommended_shards(self) -> int:
        """``shards`` of GET /gateway/bot: the fewest shards none of which would exceed
        ``limits.guilds_per_shard`` (so a bot running it is never closed with 4011), and
        at least what a test set here (what SHARD_COUNT=auto then runs). Discord documents
        it only as the "Recommended number of shards to use when connecting"
        (developers/events/gateway.mdx, "Get Gateway Bot")."""
        guilds = self._bot_guilds()
        count = max(self._fewest_shards, -(-len(guilds) // self.limits.guilds_per_shard), 1)
        while _most_per_shard(guilds, count) > self.limits.guilds_per_shard:
            count += 1
        return count

    @recommended_shards.setter
    def recommended_shards(self, count: int) -> None:
        self._fewest_shards = count

    def session_start_limit(self) -> dict[str, int]:
        """GET /gateway/bot's ``session_start_limit`` (developers/events/gateway.mdx,
        "Session Start Limit Object"), on the fake clock."""
        self._renew_window()
        if self._window_start is None:
            reset_after = 0.0
        else:
            reset_after = self._window_start + self.limits.reset_after - self._clock.monotonic()
        return {
            "total": self.limits.session_starts,
            "remaining": self.limits.session_starts - self._starts,
            "reset_after": round(reset_after * 1000),
            "max_concurrency": self.limits.max_concurrency,
        }

    def identify_allowed_at(self, shard_id: int) -> float:
        """When (on the fake clock's ``monotonic``) ``shard_id`` may IDENTIFY next: its
        rate limit key ``shard_id % max_concurrency`` started a session at most once per
        ``identify_window`` (developers/events/gateway.mdx, "Sharding", "Max Concurrency").
        A key that never started one may at any time: not "now", which on a clock that
        follows the wall clock is already later than the IDENTIFY being judged."""
        last = self._identified_at.get(shard_id % self.limits.max_concurrency)
        return float("-inf") if last is None else last + self.limits.identify_window

    @property
    def connected(self) -> bool:
        """Whether some bot has identified and can receive events."""
        return any(c.session is not None and not c.ws.closed for c in self._connections)

    @property
    def reachable(self) -> bool:
        """Whether Discord has a session to send an interaction to: a connected one, or one
        whose websocket dropped and that its client may still RESUME (it gets the
        interaction then, too late to answer within the three seconds, or never)."""
        return self.connected or any(_open(s) is None for s in self._sessions.values())

    def sent(self, event: str) -> int:
        """How many ``event`` dispatches were sent to clients, every session's, ended ones
        included."""
        return self._ended_sent[event] + sum(s.sent[event] for s in self._sessions.values())

    def busy(self) -> bool:
        return any(c.sending or not c.outbox.empty() for c in self._connections)

    def closing(self) -> bool:
        """Whether a websocket is closed but its handler has not let go of it yet."""
        return any(c.ws.closed for c in self._connections)

    def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        *,
        intent: int | None = None,
        once: bool = False,
        without_content: dict[str, Any] | None = None,
    ) -> None:
        """Queue an event for every identified session subscribed to ``intent`` whose shard
        owns the event's guild, or with ``once`` for the first of them only.

        ``without_content``: what a session without the MESSAGE_CONTENT intent gets instead
        of ``data`` (« Apps without the intent will receive empty values in fields that
        contain user-inputted content », Message Content Intent,
        https://discord.com/developers/docs/events/gateway#message-content-intent).

        An interaction is an event of the second kind: Discord delivers INTERACTION_CREATE
        to one connection, and a bot that is answering it twice (or a stopping bot that is
        still connected) would be a bug the fake must not create. Routing by shard is what
        makes a process of a sharded bot see only its own guilds' clicks. Nothing but its
        GUILD_CREATE and GUILD_DELETE is sent of a guild in an outage.
        """
        guild_id = _guild_of(event, data)
        guild = self._world.guilds.get(guild_id) if guild_id is not None else None
        if guild is not None and not guild.available and event not in GUILD_EVENTS:
            # During an outage nothing of the guild reaches the bot: the GUILD_CREATE that
            # ends it describes the guild as it then is (`FakeDiscord.end_outage`).
            return
        # Live sessions first: an interaction goes to a detached one only if no other is
        # connected (its client is reconnecting, or gone for good).
        sessions = sorted(self._sessions.values(), key=lambda s: _open(s) is None)
        for session in sessions:
            if not session.owns(guild_id):
                continue
            if intent is None or session.intents & intent:
                shown = data
                if without_content is not None and not session.intents & INTENT_MESSAGE_CONTENT:
                    shown = without_content
                self._queue(session, event, shown)
                if once:
                    return

    async def close(self) -> None:
        for connection in list(self._connections):
            await connection.ws.close()

    async def drop(self) -> None:
        """Close every websocket with a code that tells the client to resume."""
        for connection in list(self._connections):
            connection.cut = True
            await connection.ws.close(code=RECONNECT_PLEASE, message=b"fakediscord dropped you")

    def reconnect(self) -> None:
        """Send every connection a Reconnect (opcode 7): "your app should attempt to
        reconnect and resume immediately" (gateway-events.mdx, "Reconnect")."""
        for connection in list(self._connections):
            if connection.session is not None:
                self._send(connection, {"op": RECONNECT, "d": None})

    def invalid_session(self, *, resumable: bool) -> None:
        """Send every connection an Invalid Session (opcode 9): ``d`` "indicates whether
        the session may be resumable" (gateway-events.mdx, "Invalid Session"). Not
        resumable, the session is over and its client must IDENTIFY again; resumable,
        the client RESUMEs ("Resuming": "This is an unlikely scenario, but it is
        possible")."""
        for connection in list(self._connections):
            session = connection.session
            if session is None:
                continue
            if not resumable:
                self._end(session)
                connection.session = session.connection = None
            self._send(connection, {"op": INVALID_SESSION, "d": resumable})

    def zombie(self, *, events_flow: bool = False) -> None:
        """Every live connection goes zombie: its socket stays open, but the heartbeats
        its client sends are no longer ACKed and (unless ``events_flow``) no event reaches
        it; they wait in its session, as for a dropped socket, for a RESUME to replay them.
        Discord's answer to it: "If a client does not receive a heartbeat ACK between its
        attempts at sending heartbeats, this may be due to a failed or "zombied"
        connection. The client should then immediately terminate the connection with any
        close code besides 1000 or 1001, then reconnect and attempt to Resume"
        (developers/events/gateway.mdx, « Sending Heartbeats »). Nothing here closes it:
        the client must notice (discord.py does when it has received nothing at all for its
        ``heartbeat_timeout``, an ACK or an event alike, so with ``events_flow`` it never
        does)."""
        for connection in list(self._connections):
            if connection.session is not None and not connection.ws.closed:
                connection.zombie, connection.events_flow = True, events_flow
                self.zombies += 1

    async def down(self) -> None:
        """The bot's connection is gone: every websocket is cut (as :meth:`drop`), and the
        IDENTIFY or RESUME of a client that connects again waits for :meth:`up`. Events go
        on into the sessions' backlogs meanwhile."""
        if self._held is None:
            self._held = []
            self._live_before_down = self.live()
        await self.drop()

    def heartbeats(self) -> dict[int, int]:
        """The heartbeats each live connection's client sent so far, by connection."""
        return {id(c): c.heartbeats for c in self._connections
                if c.session is not None and not c.ws.closed}

    def attached(self) -> set[str]:
        """The ids of the sessions that have a live websocket."""
        return {sid for sid, s in self._sessions.items() if s.connection is not None}

    def end_detached(self, session_ids: set[str]) -> None:
        """End those of ``session_ids`` that lost their websocket: their client stopped.
        Discord would keep them "a few minutes" whatever code discord.py closed with (its
        ``Client.close`` asks for 1000, but its reader closes first with 4000), sending
        their events nowhere; ending them at once makes a click meant for a stopped bot
        fail loudly (`InteractionHub.start`) instead of waiting in a dead session."""
        for session_id in session_ids:
            session = self._sessions.get(session_id)
            if session is not None and session.connection is None:
                self._end(session)

    def live(self) -> int:
        """How many connections have a session and are open."""
        return sum(1 for c in self._connections if c.session is not None and not c.ws.closed)

    def back(self) -> bool:
        """After :meth:`down`: whether every client that was connected waits for the
        connection (its IDENTIFY or RESUME held); after :meth:`up`, whether they all are
        connected again (resumed, or identified anew)."""
        if self._held is not None:
            return len(self._held) >= self._live_before_down
        return self.live() >= self._live_before_down

    def up(self, *, resumable: bool = True) -> None:
        """The connection is back. With ``resumable``, each waiting RESUME replays the
        events its client missed, in order, then RESUMED. Without, the sessions that lost
        their websocket have timed out ("the session will remain active and timeout after a
        few minutes", "Initiating a Disconnect"): each RESUME gets an Invalid Session with
        ``d: false`` and its client must IDENTIFY again ("Resuming"); the interactions
        queued for those sessions are lost (their users were told « This interaction
        failed »)."""
        held, self._held = self._held or [], None
        if not resumable:
            for session in [s for s in self._sessions.values() if s.connection is None]:
                self._end(session)
        for connection, frame in held:
            if not connection.ws.closed:
                self._receive(connection, frame)

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        connection = Connection(ws)
        self._connections.append(connection)
        writer = asyncio.create_task(self._write(connection))
        interval = round(self.heartbeat_interval * 1000)
        self._send(connection, {"op": HELLO, "d": {"heartbeat_interval": interval}})
        try:
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    self._receive(connection, json.loads(message.data))
        finally:
            self._connections.remove(connection)
            writer.cancel()
            if connection.zombie:
                self.zombies -= 1
            session = connection.session
            if session is not None and session.connection is connection:
                session.connection = None
                if not connection.cut and ws.close_code in SESSION_ENDING_CLOSES:
                    self._end(session)
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
                if isinstance(frame, Close):
                    connection.cut = True
                    await connection.ws.close(code=frame.code, message=frame.reason)
                    return
                await connection.ws.send_str(frame)
            except ConnectionResetError:
                return
            finally:
                connection.sending = False
                self._activity.touch()

    def _receive(self, connection: Connection, frame: dict[str, Any]) -> None:
        op, data = frame.get("op"), frame.get("d") or {}
        if op in (IDENTIFY, RESUME) and self._held is not None:
            self._held.append((connection, frame))
        elif op == HEARTBEAT:
            connection.heartbeats += 1
            if not connection.zombie:
                self._send(connection, {"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            self._identify(connection, data)
        elif op == RESUME:
            self._resume(connection, data)
        elif op == REQUEST_MEMBERS:
            self._send_members(connection, data)

    def _identify(self, connection: Connection, data: dict[str, Any]) -> None:
        """Start a session, refusing it as Discord does (see :class:`GatewayLimits`):
        4004 for a token that is not the bot's (or was reset), 4010 for a ``shard`` that is
        no ``[shard_id, num_shards]`` with ``0 <= shard_id < num_shards``, 4011 when the
        session would handle more than ``guilds_per_shard`` guilds, and an Invalid Session
        (``d: false``, not resumable) for an IDENTIFY earlier than its rate limit key allows.
        An accepted IDENTIFY uses up one session start; the one that finds none left
        terminates every session and resets the token (then 4004, and REST answers 401)."""
        shard = _shard(data.get("shard"))
        if data.get("token") != self._token or self.token_reset:
            self._refuse(connection, shard or (0, 0), AUTHENTICATION_FAILED)
            return
        if shard is None:
            self._refuse(connection, (-1, -1), INVALID_SHARD)
            return
        world = self._world
        session = Session(id=uuid.uuid4().hex, intents=int(data.get("intents", 0)), shard=shard)
        joined = [g for g in self._bot_guilds() if session.owns(g.id)]
        if len(joined) > self.limits.guilds_per_shard:
            self._refuse(connection, shard, SHARDING_REQUIRED)
            return
        now = self._clock.monotonic()
        if now < self.identify_allowed_at(shard[0]):
            self.refused.append((shard, "identify too early"))
            self._send(connection, {"op": INVALID_SESSION, "d": False})
            return
        self._renew_window()
        if self._starts >= self.limits.session_starts:
            self.token_reset = True
            self.refused.append((shard, "session start limit"))
            for other in list(self._connections):
                self._closing(other, AUTHENTICATION_FAILED, b"session start limit reached")
            return
        self._starts += 1
        if self._window_start is None:
            self._window_start = now
        self._identified_at[shard[0] % self.limits.max_concurrency] = now
        self.identifies.append(shard)
        self._sessions[session.id] = session
        connection.session = session
        session.connection = connection
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
        # "Guilds that are unavailable due to an outage will send a Guild Delete event"
        # instead of the GUILD_CREATE that backfills the others (Guild Create,
        # https://discord.com/developers/docs/events/gateway-events#guild-create).
        for guild in joined:
            if guild.available:
                self._dispatch_to(connection, "GUILD_CREATE", guild_payload(world, guild))
            else:
                self._dispatch_to(connection, "GUILD_DELETE",
                                  {"id": str(guild.id), "unavailable": True})

    def _bot_guilds(self) -> list[Any]:
        world = self._world
        return [g for g in world.guilds.values() if world.bot.id in g.members]

    def _renew_window(self) -> None:
        """Begin a new session start window once ``reset_after`` has passed."""
        start = self._window_start
        if start is not None and self._clock.monotonic() >= start + self.limits.reset_after:
            self._window_start, self._starts = None, 0

    def _refuse(self, connection: Connection, shard: tuple[int, int], code: int) -> None:
        self.refused.append((shard, code))
        self._closing(connection, code, CLOSE_REASONS[code])

    def _closing(self, connection: Connection, code: int, reason: bytes) -> None:
        connection.outbox.put_nowait(Close(code, reason))

    def _dispatch_to(self, connection: Connection, event: str, data: dict[str, Any]) -> None:
        session = connection.session
        assert session is not None
        self._queue(session, event, data)

    def _queue(self, session: Session, event: str, data: dict[str, Any]) -> None:
        """Number the event, keep it for a RESUME, and send it if the session is connected."""
        session.seq += 1
        interaction = int(data["id"]) if event == "INTERACTION_CREATE" else None
        # Serialised now: the stored objects a payload points into may change before it is sent.
        sent = Sent(session.seq, event,
                    json.dumps({"op": DISPATCH, "t": event, "s": session.seq, "d": data}),
                    interaction)
        session.backlog.append(sent)
        connection = _open(session)
        if connection is not None:
            self._deliver(session, connection, sent)
        elif interaction is not None:
            self.undelivered.add(interaction)

    def _deliver(self, session: Session, connection: Connection, sent: Sent) -> None:
        session.sent[sent.event] += 1
        session.delivered = sent.seq
        if sent.interaction is not None:
            self.undelivered.discard(sent.interaction)
        connection.outbox.put_nowait(sent.frame)

    def _end(self, session: Session) -> None:
        """The session is over: no RESUME of it, and the interactions it never delivered
        are lost."""
        if self._sessions.pop(session.id, None) is None:
            return
        self._ended_sent.update(session.sent)
        for sent in session.backlog:
            if sent.interaction is not None and sent.seq > session.delivered:
                self.undelivered.discard(sent.interaction)
                self.lost_interactions.append(sent.interaction)
                self._world.interactions[sent.interaction].abandoned = True

    def _resume(self, connection: Connection, data: dict[str, Any]) -> None:
        """"If successful, the Gateway will send the missed events in order, finishing with
        a Resumed event" (developers/events/gateway.mdx, "Resuming"): those after the
        client's ``seq``. A session that is over, or whose backlog no longer reaches back
        to that ``seq``, gets an Invalid Session with ``d: false``: the client must
        IDENTIFY again."""
        if data.get("token") != self._token or self.token_reset:
            self._refuse(connection, (0, 0), AUTHENTICATION_FAILED)
            return
        session = self._sessions.get(data.get("session_id") or "")
        seq = data.get("seq")
        last = seq if isinstance(seq, int) and not isinstance(seq, bool) else 0
        if session is not None and session.backlog and session.backlog[0].seq > last + 1:
            self._end(session)
            session = None
        if session is None:
            self._send(connection, {"op": INVALID_SESSION, "d": False})
            return
        if session.connection is not None:  # resumed elsewhere while that one still lived
            session.connection.session = None
        connection.session = session
        session.connection = connection
        missed = [sent for sent in session.backlog if sent.seq > last]
        for sent in missed:
            self._deliver(session, connection, sent)
            if sent.interaction is not None:
                self.replayed.add(sent.interaction)
        self.resumes.append(len(missed))
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


def _open(session: Session) -> Connection | None:
    """The session's websocket if it is open and carries events; a closing one's frames
    would be lost, and a zombie's never arrive (`Gateway.zombie`)."""
    connection = session.connection
    if connection is None or connection.ws.closed:
        return None
    return None if connection.zombie and not connection.events_flow else connection


def _guild_of(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event belongs to, which decides its shard: GUILD_CREATE and its kin
    carry it as ``id``, every other guild event as ``guild_id``."""
    raw = data.get("id") if event in GUILD_EVENTS else data.get("guild_id")
    return None if raw is None else int(raw)


GUILD_EVENTS = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})


CLOSE_REASONS = {
    AUTHENTICATION_FAILED: b"Authentication failed.",
    INVALID_SHARD: b"Invalid shard.",
    SHARDING_REQUIRED: b"Sharding required.",
}


def _shard(raw: object) -> tuple[int, int] | None:
    """IDENTIFY's ``shard`` as (shard_id, num_shards), (0, 1) when absent, None when it is
    no valid shard: "The first item in this array should be the zero-based integer value of
    the current shard, while the second represents the total number of shards"
    (developers/events/gateway.mdx, "Sharding"); anything else is 4010 Invalid shard."""
    if raw is None:
        return (0, 1)
    if not isinstance(raw, list) or len(raw) != 2:
        return None
    shard_id, num_shards = raw
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in raw):
        return None
    if num_shards < 1 or not 0 <= shard_id < num_shards:
        return None
    return (shard_id, num_shards)


def _most_per_shard(guilds: list[Any], count: int) -> int:
    per_shard = [0] * count
    for guild in guilds:
        per_shard[(guild.id >> SHARD_SHIFT) % count] += 1
    return max(per_shard)
