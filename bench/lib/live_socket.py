"""Kith's /v1/live socket for the benches: the messages one device receives, with when each arrived."""

import asyncio
import json
import time

from websockets.asyncio.client import connect


async def live_messages(url, token, done, open_timeout=120):
    """Yields (arrival in epoch ms, message) for each message on `url` (ws://…/v1/live) signed in
    with `token`, until the asyncio event `done` is set. The library answers the server's pings;
    the bench's own are off, so 1,000 sockets cost no extra traffic."""
    async with connect(url, additional_headers={"Authorization": f"Bearer {token}"}, max_queue=None,
                       open_timeout=open_timeout, ping_interval=None) as socket:
        while not done.is_set():
            try:
                text = await asyncio.wait_for(socket.recv(), timeout=1)
            except asyncio.TimeoutError:
                continue
            yield time.time() * 1000, json.loads(text)
