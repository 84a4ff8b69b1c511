"""HttpServer's connection limits: beyond `max_connections` open connections a request gets uvicorn's
503 at once, and a connection whose request does not arrive whole within `receive_timeout` seconds
(slow-loris: nothing sent, or a header byte now and then) is closed, so it cannot hold a place."""

from __future__ import annotations

import asyncio
import socket
import time

import httpx
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from lexicon_service.http import HttpServer


def _app() -> Starlette:
    async def hello(request):
        return PlainTextResponse("hello")

    return Starlette(routes=[Route("/", hello)])


def _connect(server: HttpServer) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # a request head never finished
    return sock


def test_a_request_beyond_max_connections_gets_503_and_the_server_serves_on():
    server = HttpServer(_app(), "127.0.0.1:0", max_connections=2).start()
    held = []
    try:
        with httpx.Client(base_url=server.url, timeout=5) as first:
            held = [_connect(server) for _ in range(2)]
            time.sleep(0.2)  # the server has accepted them
            assert first.get("/").status_code == 503  # 2 held: the limit; this one is over it
            held.pop().close()
            time.sleep(0.2)
        with httpx.Client(base_url=server.url, timeout=5) as client:
            answer = client.get("/")
            assert answer.status_code == 200 and answer.text == "hello"
    finally:
        for sock in held:
            sock.close()
        server.stop()


def test_a_request_that_does_not_arrive_in_time_is_closed():
    server = HttpServer(_app(), "127.0.0.1:0", max_connections=2, receive_timeout=0.5).start()
    try:
        silent = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        slow = _connect(server)
        started = time.monotonic()
        assert slow.recv(100) == b"" and silent.recv(100) == b""  # closed by the server, nothing answered
        assert time.monotonic() - started < 3
        silent.close()
        slow.close()
        time.sleep(0.1)
        with httpx.Client(base_url=server.url, timeout=5) as client:  # their places are free again
            assert client.get("/").status_code == 200
    finally:
        server.stop()


def test_a_body_the_app_has_not_taken_yet_is_not_cut_by_the_receive_timeout():
    # uvicorn stops reading a body beyond 64 KiB until the app takes it: the wait is the server's, not
    # a slow client's, and the request must not be closed for it
    async def late_reader(request):
        await asyncio.sleep(1.0)
        return PlainTextResponse(str(len(await request.body())))

    app = Starlette(routes=[Route("/late", late_reader, methods=["POST"])])
    server = HttpServer(app, "127.0.0.1:0", receive_timeout=0.3).start()
    try:
        with httpx.Client(base_url=server.url, timeout=5) as client:
            answer = client.post("/late", content=b"x" * 1_000_000)
            assert answer.status_code == 200 and answer.text == "1000000"
    finally:
        server.stop()
