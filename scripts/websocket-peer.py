"""A WebSocket server for Ferry's interop tests, on the `websockets` library (a client and server implementation
independent of the one Ferry runs on): what a Ferry user meets in the wild. permessage-deflate is on (the library's
default), so a client that offers it gets it.

Paths:
  /echo                  every message back, text as text, binary as binary
  /fragmented            one text message "Hello, wörld" in three fragments, then waits for the client's close
  /close?code=N&reason=R closes with that code and reason
  /ping                  pings the client ("are you there"), then sends "pong received" once the pong came
  /big?size=N            one binary message of N bytes (0, 1, ..., 250, 0, ...)
  /headers               the upgrade request's header fields as one JSON text message
  /extensions            the Sec-WebSocket-Extensions the server answered, as one text message
Subprotocols: the first of "chat.v2", "chat.v1" that the client offers, else none.

usage: websocket-peer.py PORT PIDFILE
"""
import asyncio, json, os, signal, sys
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

SUBPROTOCOLS = ["chat.v2", "chat.v1"]


def select_subprotocol(connection, offered):
    for name in SUBPROTOCOLS:
        if name in offered:
            return name
    return None


async def handler(ws):
    url = urlsplit(ws.request.path)
    query = parse_qs(url.query)
    try:
        if url.path == "/echo":
            async for message in ws:
                await ws.send(message)
        elif url.path == "/fragmented":
            await ws.send(["Hello, w", "ö", "rld"])
            await ws.wait_closed()
        elif url.path == "/close":
            await ws.close(int(query.get("code", ["1000"])[0]), query.get("reason", [""])[0])
        elif url.path == "/ping":
            pong = await ws.ping(b"are you there")
            await pong
            await ws.send("pong received")
            await ws.wait_closed()
        elif url.path == "/big":
            size = int(query.get("size", ["0"])[0])
            await ws.send(bytes(i % 251 for i in range(size)))
            await ws.wait_closed()
        elif url.path == "/headers":
            await ws.send(json.dumps({name: value for name, value in ws.request.headers.raw_items()}))
            await ws.wait_closed()
        elif url.path == "/extensions":
            await ws.send(ws.response.headers.get("Sec-WebSocket-Extensions", ""))
            await ws.wait_closed()
        else:
            await ws.close(4004, "no such path")
    except ConnectionClosed:
        pass


async def main():
    port, pidfile = int(sys.argv[1]), sys.argv[2]
    stop = asyncio.get_running_loop().create_future()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set_result, None)
    async with serve(
        handler, "127.0.0.1", port, subprotocols=SUBPROTOCOLS, select_subprotocol=select_subprotocol,
        max_size=64 * 1024 * 1024,
    ):
        with open(pidfile + ".tmp", "w") as f:
            f.write(f"{os.getpid()}\n")
        os.replace(pidfile + ".tmp", pidfile)
        print(f"websocket peer listening on ws://127.0.0.1:{port}", flush=True)
        await stop


if __name__ == "__main__":
    asyncio.run(main())
