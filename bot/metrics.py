"""Prometheus metrics of one bot process (docs/deploy.md, "Metrics and alerts").

Each bot holds its own `CollectorRegistry`, so several bots in one test process never share
figures. Figures the bot keeps anyway (open tables, accepted actions) are read at scrape
time by a collector rather than mirrored on every change; Discord calls are observed through
an aiohttp `TraceConfig` handed to discord.py (`http_trace`), which sees every request of
the bot's session, interaction callbacks and webhook edits included, without touching
discord.py's HTTP client. The endpoint is served by aiohttp in the bot's own event loop:
nothing runs in a thread, and stopping the bot stops it.
"""

from __future__ import annotations

import logging
import re
import socket
from collections.abc import Callable, Iterable, Iterator
from types import SimpleNamespace
from typing import TYPE_CHECKING

import aiohttp
from aiohttp import web
from discord.utils import snowflake_time
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.registry import Collector

from engine import Phase

if TYPE_CHECKING:
    from bot.tables.budget import CallBudget
    from bot.tables.service import TableService
    from bot.tables.table import Table

log = logging.getLogger(__name__)

# Discord answers 401, 403 and 429 (except 429s of a shared bucket) count toward the
# 10,000 invalid requests per 10 minutes after which Cloudflare bans the bot's IP
# (discord-api-docs, topics/rate-limits.md, "Invalid Request Limit").
INVALID_STATUSES = frozenset({401, 403, 429})

# Seconds; Discord drops an interaction not acknowledged within 3 s.
ACK_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
LAG_BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
# Seconds a bot's search waits for a worker; a hard search's own budget is 80 ms.
WAIT_BUCKETS = (0.001, 0.005, 0.02, 0.05, 0.08, 0.16, 0.32, 0.64, 1.28)

_API = re.compile(r"^/api/v\d+")
_CALLBACK = re.compile(r"^/interactions/(\d+)/[^/]+/callback$")
# Ids become {id} and interaction/webhook tokens {token}, so the route label stays a
# template with a bounded number of values.
_ID = re.compile(r"/\d+(?=/|$)")
_TOKEN = re.compile(r"^(/(?:interactions|webhooks)/\{id\})/[^/]+")


def route_of(path: str) -> str:
    """The route template of a request path: `/channels/{id}/messages/{id}`."""
    path = _ID.sub("/{id}", _API.sub("", path))
    return _TOKEN.sub(r"\1/{token}", path)


def table_state(table: Table) -> str:
    """The table's stored status, as `bot.storage` names it."""
    game = table.game
    if game is None:
        return "lobby"
    return "finished" if game.phase is Phase.GAME_OVER else "playing"


class _TableCollector(Collector):
    """Reads the table service and the call budget at scrape time: nothing to update on
    every change."""

    def __init__(self, service: TableService, budget: CallBudget) -> None:
        self._service = service
        self._budget = budget

    def collect(self) -> Iterator[Metric]:
        tables = GaugeMetricFamily("president_open_tables", "Tables open in this process",
                                   labels=["state"])
        counts = dict.fromkeys(("lobby", "playing", "finished"), 0)
        for table in self._service.registry.tables():
            counts[table_state(table)] += 1
        for state, count in counts.items():
            tables.add_metric([state], count)
        yield tables
        yield CounterMetricFamily("president_actions", "Game actions applied (moves, "
                                  "timeouts, bot moves); rate() gives actions per second",
                                  value=self._service.actions)
        budget = self._budget
        yield CounterMetricFamily("president_call_budget_taken", "Channel calls (posts, "
                                  "edits) let through the bot-wide rate budget",
                                  value=budget.taken)
        yield CounterMetricFamily("president_call_budget_waited", "Of those, calls that had "
                                  "to wait for a later window: the budget was full",
                                  value=budget.waited)
        yield GaugeMetricFamily("president_call_budget_per_second", "The budget's limit: "
                                "channel calls per second", value=budget.limit / budget.window)
        thinker = self._service.thinker
        yield GaugeMetricFamily("president_search_queue", "Bot searches waiting for a "
                                "worker process now", value=thinker.workers.queued)
        yield GaugeMetricFamily("president_searches_in_flight", "Bot searches asked and "
                                "not answered: queued or searching", value=thinker.running)
        yield GaugeMetricFamily("president_search_workers", "Worker processes the bots "
                                "search in (SEARCH_WORKERS)", value=thinker.workers.count)
        yield CounterMetricFamily("president_searches_started", "Bot searches a worker "
                                  "took up", value=thinker.started)
        yield CounterMetricFamily("president_searches_shortened", "Of those, hard searches "
                                  "given less than their budget: late, or sharing it with "
                                  "those waiting", value=thinker.shortened)

    def describe(self) -> Iterable[Metric]:
        return []


class Metrics:
    """The process's figures; `serve` exposes them on /metrics."""

    def __init__(self, now: Callable[[], float]) -> None:
        """`now` is the bot's clock, on which interaction snowflakes are compared."""
        self.registry = CollectorRegistry()
        self._now = now
        self.port: int | None = None
        self.calls = Counter("president_discord_calls", "Discord REST calls by route and "
                             "status (status 'error': no answer)",
                             ["method", "route", "status"], registry=self.registry)
        self.invalid = Counter("president_discord_invalid_requests", "Answers that count "
                               "toward Discord's 10,000 invalid requests per 10 minutes",
                               registry=self.registry)
        self.ack = Histogram("president_interaction_ack_seconds", "From an interaction's "
                             "creation (its snowflake) to the bot's first response",
                             buckets=ACK_BUCKETS, registry=self.registry)
        self.snapshot_lag = Histogram("president_snapshot_write_lag_seconds", "From a "
                                      "table's change to its snapshot being stored",
                                      buckets=LAG_BUCKETS, registry=self.registry)
        self.search_wait = Histogram("president_search_wait_seconds", "From a bot's "
                                     "search being asked to a worker taking it",
                                     buckets=WAIT_BUCKETS, registry=self.registry)
        self.restore = Gauge("president_restore_seconds", "How long the last start took "
                             "to restore its tables", registry=self.registry)
        self._runner: web.AppRunner | None = None

    def watch(self, service: TableService, budget: CallBudget) -> None:
        """Report `service`'s tables, actions and bots' searches and `budget`'s use (both
        made after the client, which needs the trace config first)."""
        self.registry.register(_TableCollector(service, budget))
        service.thinker.waited = self.search_wait.observe

    def trace_config(self) -> aiohttp.TraceConfig:
        """For discord.py's `http_trace`: counts every request's answer."""
        trace = aiohttp.TraceConfig()
        trace.on_request_end.append(self._on_request_end)
        trace.on_request_exception.append(self._on_request_exception)
        return trace

    async def _on_request_end(self, session: aiohttp.ClientSession, context: SimpleNamespace,
                              params: aiohttp.TraceRequestEndParams) -> None:
        path = params.url.path
        status = params.response.status
        self.calls.labels(params.method, route_of(path), str(status)).inc()
        shared = params.response.headers.get("X-RateLimit-Scope") == "shared"
        if status in INVALID_STATUSES and not (status == 429 and shared):
            self.invalid.inc()
        callback = _CALLBACK.match(_API.sub("", path))
        if callback is not None and status < 400:
            created = snowflake_time(int(callback[1])).timestamp()
            self.ack.observe(max(0.0, self._now() - created))

    async def _on_request_exception(
        self, session: aiohttp.ClientSession, context: SimpleNamespace,
        params: aiohttp.TraceRequestExceptionParams,
    ) -> None:
        self.calls.labels(params.method, route_of(params.url.path), "error").inc()

    async def serve(self, port: int, host: str = "0.0.0.0") -> None:
        """Serve /metrics on `port` (0: a free one, then in `self.port`)."""
        app = web.Application()
        app.router.add_get("/metrics", self._scrape)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        await web.SockSite(self._runner, sock).start()
        self.port = sock.getsockname()[1]
        log.info("metrics on http://%s:%d/metrics", host, self.port)

    async def _scrape(self, request: web.Request) -> web.Response:
        return web.Response(body=generate_latest(self.registry),
                            headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
