"""HttpServer's connection limits: beyond `max_connections` open connections a request gets uvicorn's
503 at once, and a connection whose request does not arrive whole within `receive_timeout` seconds
(slow-loris: nothing sent, or a header byte now and then) is closed, so it cannot hold a place."""

from __future__ import annotations

import asyncio
import json
import socket
import time

import httpx
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from lexicon_service.http import HttpServer
from lexicon_service.server.memory import release_freed_memory


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


ANSWER = b"x" * (2 << 20)  # larger than what the kernel takes into a connection's socket buffers


def _large_answer_app() -> Starlette:
    async def large(request):
        return PlainTextResponse(ANSWER)

    return Starlette(routes=[Route("/large", large)])


def _slow_reader(port: int) -> socket.socket:
    """A client that asks for the large answer and reads none of it: a tiny receive buffer and segments of a
    real network's size (with loopback's 64 KB ones the server's kernel would take much of the answer)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 1400)
    sock.connect(("127.0.0.1", port))
    sock.sendall(b"GET /large HTTP/1.1\r\nHost: x\r\n\r\n")
    return sock


def _rss_mb() -> float:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024


def test_clients_that_do_not_read_are_closed_after_the_write_timeout_within_the_queued_bytes_bound():
    # before: no write timeout, and every answer queued whole (50 x 2 MB held until the clients left;
    # uvicorn's keep-alive close waited for the queue to drain, for ever)
    server = HttpServer(_large_answer_app(), "127.0.0.1:0", write_timeout=1.0, max_queued_bytes=4 << 20).start()
    connections = server.server.server_state.connections
    stop_releasing = release_freed_memory()  # as serve does: freed answers go back to the system
    socks = []
    try:
        before = _rss_mb()
        started = time.monotonic()
        socks = [_slow_reader(server.port) for _ in range(50)]
        queued = peak = 0.0
        while time.monotonic() - started < 10 and (len(connections) or time.monotonic() - started < 0.5):
            queued = max(queued, sum(c.transport.get_write_buffer_size() for c in list(connections)))
            peak = max(peak, _rss_mb())
            time.sleep(0.02)
        closed_after = time.monotonic() - started
        assert not connections, f"{len(connections)} connections still open after {closed_after:.1f} s"
        assert closed_after < 5  # 1 s without progress, looked at every 0.25 s
        assert queued <= (4 << 20) + len(ANSWER)  # the bound, and the one answer that went over it
        assert peak - before < 40, (before, peak)  # unbounded: 50 answers of 2 MB, 100 MB
        with httpx.Client(base_url=server.url, timeout=5) as client:  # readers are served as before
            assert client.get("/large").content == ANSWER
    finally:
        for sock in socks:
            sock.close()
        if stop_releasing is not None:
            stop_releasing()
        server.stop()


def test_a_client_that_reads_slowly_but_steadily_is_not_cut_by_the_write_timeout():
    server = HttpServer(_large_answer_app(), "127.0.0.1:0", write_timeout=1.0).start()
    try:
        sock = _slow_reader(server.port)
        received = 0
        started = time.monotonic()
        while received < len(ANSWER):
            chunk = sock.recv(64 << 10)
            assert chunk, f"closed after {received:,} bytes"
            received += len(chunk)
            time.sleep(0.05)  # ~1 MB/s: some of the queue is taken in every look
        assert time.monotonic() - started > 1.0  # longer than the write timeout, and not closed
        sock.close()
    finally:
        server.stop()


def test_requests_waiting_for_a_thread_are_not_read_and_decoded_all_at_once(monkeypatch):
    # before: every request was read and decoded (a 100 KB check: ~1 MB) before it waited for one of the
    # threads; 1,000 of them waiting held ~900 MB
    import threading

    from lexicon_service.http import api, create_app

    release = threading.Event()
    decoded = []
    parse = api.parse_json_body

    def counted(raw, max_bytes):
        decoded.append(len(raw))
        return parse(raw, max_bytes)

    class Blocked:
        def check_words_json(self, request, deadline):
            release.wait(10)
            return {"lexicon": request.lexicon}

        def __getattr__(self, name):  # the other routes' methods, not called here
            return None

    monkeypatch.setattr(api, "parse_json_body", counted)
    app = create_app(None, fast_threads=1, servicers={"lexicon": Blocked()})
    server = HttpServer(app, "127.0.0.1:0").start()
    body = json.dumps({"words": ["kot"] * 20_000}).encode()
    threads = [threading.Thread(target=lambda: httpx.post(server.url + "/v1/lexicons/pl-scrabble:check",
                                                          content=body, timeout=20,
                                                          headers={"Content-Type": "application/json"}))
               for _ in range(8)]
    try:
        for thread in threads:
            thread.start()
        time.sleep(1.0)  # all 8 have been sent
        assert len(decoded) == 2  # the fast pool's thread, and one ready for it
        release.set()
        for thread in threads:
            thread.join(20)
        assert len(decoded) == 8
    finally:
        release.set()
        server.stop()


def test_a_body_answered_unread_is_dropped_and_the_next_request_on_the_connection_is_answered():
    # the read-ahead bound paused reading again while the rest of such a body was being dropped: the
    # connection hung
    async def refuse(request):
        await asyncio.sleep(0.3)  # the body arrives meanwhile, beyond what is read ahead
        return PlainTextResponse("no", status_code=400)

    app = Starlette(routes=[Route("/refuse", refuse, methods=["POST"]), Route("/", _app().routes[0].endpoint)])
    server = HttpServer(app, "127.0.0.1:0").start()
    try:
        with httpx.Client(base_url=server.url, timeout=5) as client:
            assert client.post("/refuse", content=b"x" * 200_000).status_code == 400
            assert client.get("/").text == "hello"  # the same kept-alive connection
    finally:
        server.stop()
