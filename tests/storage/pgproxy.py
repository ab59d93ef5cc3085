"""A TCP proxy in the test process, in front of the test PostgreSQL server, that a test can
cut (close every connection, refuse new ones), blackhole (accept, forward nothing) and
restore: database outages simulated without touching the real server (play-test 14)."""

from __future__ import annotations

import asyncio
import contextlib


class PgProxy:
    def __init__(self, target: tuple[str, int] = ("127.0.0.1", 5432)) -> None:
        self.target = target
        self.server: asyncio.AbstractServer | None = None
        self.port = 0
        self.mode = "up"  # up | down | blackhole
        self.pipes: set[asyncio.Task[None]] = set()
        self.writers: set[asyncio.StreamWriter] = set()
        self.accepted = 0
        self._flowing = asyncio.Event()  # cleared while black-holed
        self._flowing.set()

    async def start(self, port: int = 0) -> None:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", port)
        self.port = self.server.sockets[0].getsockname()[1]

    def url(self, url: str) -> str:
        from sqlalchemy.engine import make_url
        return make_url(url).set(host="127.0.0.1", port=self.port).render_as_string(
            hide_password=False)

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.accepted += 1
        if self.mode == "down":
            writer.transport.abort()
            return
        self.writers.add(writer)
        try:
            up_r, up_w = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self.writers.add(up_w)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while True:
                    data = await src.read(65536)
                    if not data:
                        break
                    await self._flowing.wait()
                    if self.mode == "down":
                        break
                    dst.write(data)
                    await dst.drain()
            except (OSError, asyncio.CancelledError):
                pass
            finally:
                with contextlib.suppress(Exception):
                    dst.transport.abort()

        for src, dst in ((reader, up_w), (up_r, writer)):
            task = asyncio.get_running_loop().create_task(pipe(src, dst))
            self.pipes.add(task)
            task.add_done_callback(self.pipes.discard)

    async def cut(self) -> None:
        """Every connection reset, new ones refused (the server's port closed)."""
        self.mode = "down"
        self._flowing.set()
        if self.server is not None:
            self.server.close()
            self.server = None
        for w in list(self.writers):
            with contextlib.suppress(Exception):
                w.transport.abort()
        self.writers.clear()
        for task in list(self.pipes):
            task.cancel()
        await asyncio.sleep(0)

    def blackhole(self) -> None:
        """Connections stay open and new ones are accepted, but nothing is forwarded (a
        failover's old primary gone silent, a network partition)."""
        self.mode = "blackhole"
        self._flowing.clear()

    async def restore(self) -> None:
        self.mode = "up"
        self._flowing.set()
        if self.server is None:
            self.server = await asyncio.start_server(self._client, "127.0.0.1", self.port)
