"""Kith's /v1/live socket for the benches: the messages one device receives, with when each arrived."""

import asyncio
import json
import time

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


async def live_messages(url, token, done, open_timeout=120):
    """Yields (arrival in epoch ms, message) for each message on `url` (ws://…/v1/live) signed in
    with `token`, until the asyncio event `done` is set. The library answers the server's pings;
    the bench's own are off, so 1,000 sockets cost no extra traffic. Each message is awaited
    plainly, without a timeout of its own: one process reads 1,000 sockets, and a timer per
    message (`asyncio.wait_for`) made that process, not the server, what a fan-out's latency
    measured (issue 18). The socket is closed once `done` is set, which ends the messages."""
    async with connect(url, additional_headers={"Authorization": f"Bearer {token}"}, max_queue=None,
                       open_timeout=open_timeout, ping_interval=None) as socket:
        async def close_when_done():
            await done.wait()
            await socket.close()

        closer = asyncio.create_task(close_when_done())
        try:
            async for text in socket:
                yield time.time() * 1000, json.loads(text)
        except ConnectionClosed:
            pass
        finally:
            closer.cancel()
