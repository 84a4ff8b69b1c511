"""Memory held for clients that never read their answers, against a real server over loopback.

    python bench/bench_slow_readers.py --lexicons lexicons [--connections 1000] [--streams 3000]
        [--grpc-connections 40 --grpc-streams 64 --grpc-words 3000]

Starts `lexicon-service serve --http` (one process by default: every connection lands on it) with every
lexicon in --lexicons, and measures the server's resident memory (VmRSS of all its processes, from
psutil) idle, at the peak and after the clients have gone, in two phases:
  * HTTP: --connections connections each POST one ~100 KB `:check` (--words words, per-word results:
    an answer of ~1 MB) and never read (a tiny receive buffer, and segments of a real network's size).
    Reports when the server had closed them all (its open files back to the idle count).
  * gRPC: one HTTP/2 connection opening --streams `CheckWords` streams of the same words. The client
    reads the socket (it acknowledges SETTINGS and PINGs, so keep-alive pings do not end it) but never
    grants flow-control window for the answers, so they stay queued in the server. Reports how many
    streams the server took and how many it refused (RST_STREAM REFUSED_STREAM).
  * gRPC, many connections: --grpc-connections connections each opening --grpc-streams such streams of
    --grpc-words words unknown to the lexicon (each answered with a message: a 254 KB answer for 3,000);
    meanwhile a fresh client on a connection of its own makes one short call, which must be answered.
  * gRPC, idle connections: --grpc-idle-connections connections that open no stream; what each holds.
The targets: growth at the peak at most +100 MB per phase, and memory back within 100 MB of idle
after the clients have gone. The baseline is the idle RSS of the same run; growth is printed as a
ratio to it. --server-option passes options to serve (e.g. --server-option=--http-write-timeout=60).
Only loopback is used.
"""

from __future__ import annotations

import argparse
import json
import resource
import select
import socket
import struct
import sys
import threading
import time
from pathlib import Path

import psutil

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from loadgen import (_DATA, _END_HEADERS, _END_STREAM, _GOAWAY, _HEADERS, _PING, _PREFACE, _RST_STREAM,  # noqa: E402
                     _SETTINGS, _ACK, _WINDOW_UPDATE, _frame, _literal, lexicons_and_words, load_average,
                     process_tree, rss_mb, start_server, stop_server)

TARGET_GROWTH_MB = 100
REFUSED_STREAM = 7


def raise_open_files(wanted: int) -> int:
    """The soft open-file limit raised towards `wanted` (within the hard limit); the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return soft


class RssSampler:
    """The server's summed VmRSS every `interval` s in a thread; `peak` is the largest seen."""

    def __init__(self, pid: int, interval: float = 0.1) -> None:
        self.pid = pid
        self.interval = interval
        self.peak = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, rss_mb(self.pid)[0])
            self._stop.wait(self.interval)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


def settle(pid: int, seconds: float = 3.0) -> float:
    """The server's RSS after `seconds` of quiet (the lowest of a few readings)."""
    readings = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        readings.append(rss_mb(pid)[0])
        time.sleep(0.25)
    return min(readings)


def open_files(pid: int) -> int:
    """File descriptors the process and its children hold open."""
    total = 0
    for p in process_tree(pid):
        try:
            total += psutil.Process(p).num_fds()
        except psutil.Error:
            pass
    return total


def check_request(port: int, lexicon: str, words: list[str]) -> bytes:
    body = json.dumps({"words": words}, ensure_ascii=False).encode()
    return (f"POST /v1/lexicons/{lexicon}:check HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body


def slow_http(proc, lexicon: str, words: list[str], connections: int, wait: float) -> dict:
    """`connections` clients that send one check each and never read; the server's RSS and the time it
    took to close them."""
    port = int(proc.http_url.rsplit(":", 1)[1])
    request = check_request(port, lexicon, words)
    socks = []
    files_before = open_files(proc.pid)
    started = time.monotonic()
    with RssSampler(proc.pid) as sampler:
        for _ in range(connections):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a reader that takes nothing
            # segments of a real network's size: with loopback's 64 KB ones the server's kernel takes a
            # whole answer into its send buffer, and nothing stays queued in the process
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 1400)
            sock.connect(("127.0.0.1", port))
            sock.sendall(request)
            socks.append(sock)
        sent = time.monotonic() - started
        # the server has closed them when its open files are back to what they were (a connection closed
        # behind an unread answer shows the client nothing: the end of stream waits behind the answer)
        closed_after, most = None, 0
        while time.monotonic() - started < wait:
            files = open_files(proc.pid)
            most = max(most, files)
            if most > files_before + 2 >= files:
                closed_after = time.monotonic() - started
                break
            time.sleep(0.2)
        peak = sampler.peak
        held = rss_mb(proc.pid)[0]
    for sock in socks:
        sock.close()
    return {"sent_s": sent, "peak": peak, "held_before_close": held, "closed_after_s": closed_after,
            "request_kb": len(request) / 1024}


class UnreadStreams:
    """One HTTP/2 connection to the gRPC port that opens streams and never grants window for their
    answers; it answers SETTINGS and PINGs and respects the server's window for its own data."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.sendall(_PREFACE + _frame(_SETTINGS, 0, 0, struct.pack(">HI", 2, 0)))
        self.send_window = 65535
        self.stream_windows: dict[int, int] = {}
        self.initial_window = 65535
        self.max_streams = None  # as the server's SETTINGS say (None: no limit)
        self.refused = 0
        self.answered_headers = 0
        self.statuses: dict[int, str] = {}  # stream -> its trailers' grpc-status (the code's number)
        self.reset: set[int] = set()  # streams the server reset (RST_STREAM, refused ones included)
        self._headers = None  # the HPACK decoder, made at the first header block (its table spans them all)
        self.goaway: str | None = None
        self.closed = False
        self.buffer = b""
        self.block = (b"\x83\x86" + _literal(4, b"/lexicon.v1.LexiconService/CheckWords")
                      + _literal(1, f"127.0.0.1:{port}".encode())
                      + b"\x0f\x10" + bytes((16,)) + b"application/grpc" + b"\x00\x02te\x08trailers")

    def read(self, timeout: float) -> None:
        ready, _, _ = select.select([self.sock], [], [], timeout)
        if not ready:
            return
        try:
            chunk = self.sock.recv(1 << 16)
        except OSError:
            chunk = b""
        if not chunk:
            self.closed = True
            return
        buffer = self.buffer + chunk
        i = 0
        replies = []
        while len(buffer) - i >= 9:
            length = int.from_bytes(buffer[i:i + 3], "big")
            if len(buffer) - i < 9 + length:
                break
            kind, flags = buffer[i + 3], buffer[i + 4]
            stream = int.from_bytes(buffer[i + 5:i + 9], "big") & 0x7FFFFFFF
            payload = buffer[i + 9:i + 9 + length]
            i += 9 + length
            if kind == _SETTINGS and not flags & _ACK:
                for k in range(0, len(payload), 6):
                    key, value = struct.unpack(">HI", payload[k:k + 6])
                    if key == 4:  # SETTINGS_INITIAL_WINDOW_SIZE: open streams' windows move with it
                        for open_stream in self.stream_windows:
                            self.stream_windows[open_stream] += value - self.initial_window
                        self.initial_window = value
                    elif key == 3:  # SETTINGS_MAX_CONCURRENT_STREAMS
                        self.max_streams = value
                replies.append(_frame(_SETTINGS, _ACK, 0))
            elif kind == _PING and not flags & _ACK:
                replies.append(_frame(_PING, _ACK, 0, payload))
            elif kind == _WINDOW_UPDATE:
                grant = int.from_bytes(payload, "big") & 0x7FFFFFFF
                if stream == 0:
                    self.send_window += grant
                elif stream in self.stream_windows:
                    self.stream_windows[stream] += grant
            elif kind == _RST_STREAM:
                self.stream_windows.pop(stream, None)
                self.reset.add(stream)
                if int.from_bytes(payload, "big") == REFUSED_STREAM:
                    self.refused += 1
            elif kind == _HEADERS:
                self._header_block(stream, flags, payload)
            elif kind == _GOAWAY:
                self.goaway = f"error {int.from_bytes(payload[4:8], 'big')} {payload[8:]!r}"
        self.buffer = buffer[i:]
        if replies:
            self.sock.sendall(b"".join(replies))

    def _header_block(self, stream: int, flags: int, block: bytes) -> None:
        """An answer's headers (counted) or its trailers (their grpc-status kept); grpc sends neither padded
        nor with priority, nor split over CONTINUATION frames."""
        import hpack

        if self._headers is None:
            self._headers = hpack.Decoder()
        fields = dict(self._headers.decode(block))
        if not flags & _END_STREAM:
            self.answered_headers += 1
        else:
            self.statuses[stream] = fields.get("grpc-status", "")

    def open_streams(self, count: int, message: bytes, limit: float) -> int:
        """Open `count` streams, each sending `message`; the number whose request went out whole."""
        payload = b"\x00" + len(message).to_bytes(4, "big") + message
        end = time.monotonic() + limit
        sent = 0
        for number in range(count):
            stream = 1 + 2 * number
            self.sock.sendall(_frame(_HEADERS, _END_HEADERS, stream, self.block))
            self.stream_windows[stream] = self.initial_window
            offset = 0
            while offset < len(payload):
                if self.closed or self.goaway or time.monotonic() > end:
                    return sent
                if stream not in self.stream_windows:  # refused: its data is not wanted
                    break
                room = min(self.send_window, self.stream_windows[stream], 16384, len(payload) - offset)
                if room <= 0:
                    self.read(0.05)
                    continue
                last = offset + room == len(payload)
                self.sock.sendall(_frame(_DATA, _END_STREAM if last else 0, stream, payload[offset:offset + room]))
                self.send_window -= room
                self.stream_windows[stream] -= room
                offset += room
            else:
                sent += 1
            self.read(0)
        return sent


def unread_streams(proc, lexicon: str, words: list[str], streams: int, wait: float) -> dict:
    from lexicon_service.grpc_gen import lexicon_pb2

    message = lexicon_pb2.CheckWordsRequest(lexicon=lexicon, words=words).SerializeToString()
    client = UnreadStreams(proc.port)
    started = time.monotonic()
    with RssSampler(proc.pid) as sampler:
        sent = client.open_streams(streams, message, wait)
        # the server works through what it took; keep answering its frames meanwhile
        until_memory_settles(proc.pid, started, wait, lambda: client.read(0.2), stop=lambda: client.closed)
        peak = sampler.peak
    client.sock.close()
    return {"sent": sent, "max_streams": client.max_streams, "refused": client.refused, "answers_started": client.answered_headers,
            "goaway": client.goaway, "closed_by_server": client.closed, "peak": peak,
            "elapsed_s": time.monotonic() - started, "message_kb": len(message) / 1024}


def until_memory_settles(pid: int, started: float, wait: float, read_once, stop=lambda: False) -> None:
    """Calls `read_once` until `wait` seconds from `started` have passed, `stop()` is true, or the server's
    RSS has moved by no more than 2 MB for 3 s."""
    quiet_since, last = time.monotonic(), rss_mb(pid)[0]
    while time.monotonic() - started < wait and not stop():
        read_once()
        now = rss_mb(pid)[0]
        if abs(now - last) > 2:
            quiet_since, last = time.monotonic(), now
        elif time.monotonic() - quiet_since > 3:
            break


def served_meanwhile(port: int, lexicon: str) -> tuple[str, float]:
    """One fresh client's short CheckWords on a connection of its own: its status and seconds taken."""
    import grpc
    from lexicon_service.grpc_gen import lexicon_pb2, lexicon_pb2_grpc

    started = time.monotonic()
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)]) as channel:
        try:
            lexicon_pb2_grpc.LexiconServiceStub(channel).CheckWords(
                lexicon_pb2.CheckWordsRequest(lexicon=lexicon, words=["kot"]), timeout=10)
            status = "OK"
        except grpc.RpcError as exc:
            status = exc.code().name
    return status, time.monotonic() - started


def unread_connections(proc, lexicon: str, words: list[str], connections: int, streams: int, wait: float) -> dict:
    """`connections` HTTP/2 connections, each opening `streams` CheckWords streams whose answers it never
    reads (see UnreadStreams); meanwhile a fresh client's call. The server's RSS peak and what it refused."""
    from lexicon_service.grpc_gen import lexicon_pb2

    message = lexicon_pb2.CheckWordsRequest(lexicon=lexicon, words=words).SerializeToString()
    clients: list[UnreadStreams] = []
    started = time.monotonic()
    with RssSampler(proc.pid) as sampler:
        for _ in range(connections):
            try:
                client = UnreadStreams(proc.port)
            except OSError:  # refused or reset at once: a bound on connections
                clients.append(None)
                continue
            client.open_streams(streams, message, max(1.0, wait / connections))
            clients.append(client)

        def read_every_connection():
            for client in clients:
                if client is not None and not client.closed:
                    client.read(0)
            time.sleep(0.1)

        until_memory_settles(proc.pid, started, wait, read_every_connection)
        meanwhile = served_meanwhile(proc.port, lexicon)
        peak = sampler.peak
    live = [c for c in clients if c is not None]
    result = {"connected": len(live), "refused_connections": connections - len(live),
              "closed_by_server": sum(c.closed for c in live), "goaway": sum(c.goaway is not None for c in live),
              "answers_started": sum(c.answered_headers for c in live), "refused_streams": sum(c.refused for c in live),
              "peak": peak, "meanwhile": meanwhile, "elapsed_s": time.monotonic() - started,
              "message_kb": len(message) / 1024}
    for client in live:
        client.sock.close()
    return result


def idle_connections(proc, connections: int) -> tuple[int, int, float]:
    """`connections` HTTP/2 connections that open no stream (they answer SETTINGS and PINGs): how many the server
    took, how many it closed, and the server's RSS while they are open."""
    clients = []
    for _ in range(connections):
        try:
            clients.append(UnreadStreams(proc.port))
        except OSError:
            break
    for _ in range(20):
        for client in clients:
            if not client.closed:
                client.read(0)
        time.sleep(0.1)
    held = settle(proc.pid, 2.0)
    closed = sum(client.closed for client in clients)
    for client in clients:
        client.sock.close()
    return len(clients), closed, held


def report_many(args, idle: float, after: float, phase: dict) -> bool:
    """Print the many-connections phase; True when it missed the target."""
    growth, held = phase["peak"] - idle, after - idle
    status, seconds = phase["meanwhile"]
    print(f"[slow-readers] gRPC: {args.grpc_connections} connections x {args.grpc_streams} CheckWords streams x "
          f"{phase['message_kb']:.0f} KB ({args.grpc_words} words), answers never read: {phase['connected']} "
          f"connected, {phase['refused_connections']} refused, {phase['answers_started']} answers begun, "
          f"{phase['refused_streams']} streams refused, {phase['goaway']} GOAWAY, {phase['closed_by_server']} closed "
          f"by the server, {phase['elapsed_s']:.1f} s; a fresh client meanwhile: {status} in {seconds * 1000:.0f} ms")
    print(f"[slow-readers] gRPC: RSS before {idle:.0f} MB, peak {phase['peak']:.0f} MB (+{growth:.0f} MB, "
          f"x{phase['peak'] / idle:.2f}), after close {after:.0f} MB (+{held:.0f} MB); target +{TARGET_GROWTH_MB} MB")
    return growth > TARGET_GROWTH_MB or held > TARGET_GROWTH_MB or status != "OK"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicons", default="lexicons")
    parser.add_argument("--shared", default=None, help="unused (make bench passes it)")
    parser.add_argument("--connections", type=int, default=1000, help="slow HTTP connections (default 1000)")
    parser.add_argument("--streams", type=int, default=3000, help="unread gRPC streams on one connection")
    parser.add_argument("--words", type=int, default=6500, help="words per check (6,500: a ~100 KB request)")
    parser.add_argument("--processes", type=int, default=1, help="server processes (default 1)")
    parser.add_argument("--wait", type=float, default=300.0, help="seconds to wait for the server per phase")
    parser.add_argument("--server-option", action="append", default=[], help="an option for serve (repeatable)")
    parser.add_argument("--grpc-connections", type=int, default=40, help="gRPC connections of unread streams (default 40)")
    parser.add_argument("--grpc-streams", type=int, default=64, help="unread CheckWords streams on each of them (64)")
    parser.add_argument("--grpc-words", type=int, default=3000,
                        help="words per call of those connections: unknown ones, each answered with a message")
    parser.add_argument("--grpc-idle-connections", type=int, default=900,
                        help="gRPC connections that open no stream (default 900; select() takes fds below 1024)")
    parser.add_argument("--skip", choices=["http", "grpc", "grpc-many", "grpc-idle"], action="append", default=[])
    args = parser.parse_args(argv)
    limit = raise_open_files(args.connections + 200)
    if limit < args.connections + 50:
        raise SystemExit(f"ulimit -n is {limit}: too low for {args.connections} connections")
    names, sample = lexicons_and_words(args.lexicons, per_lexicon=args.words)
    lexicon = "pl-scrabble" if "pl-scrabble" in names else names[0]
    words = (sample * (args.words // max(1, len(sample)) + 1))[:args.words]
    proc = start_server(args.lexicons, "--processes", str(args.processes), *args.server_option, http=True,
                        wait_serving=True)
    failed = False
    try:
        idle = settle(proc.pid)
        print(f"[slow-readers] server: {args.processes} process(es), options {args.server_option or 'default'}; "
              f"idle RSS {idle:.0f} MB (the baseline); load average {load_average()}")
        if "http" not in args.skip:
            http = slow_http(proc, lexicon, words, args.connections, args.wait)
            after = settle(proc.pid)
            growth, held = http["peak"] - idle, after - idle
            print(f"[slow-readers] HTTP: {args.connections} connections x {http['request_kb']:.0f} KB check "
                  f"({args.words} words), never read: sent in {http['sent_s']:.1f} s; " + (
                  f"all closed by the server after {http['closed_after_s']:.1f} s" if http['closed_after_s'] is not None
                  else f"still open after {args.wait:.0f} s"))
            print(f"[slow-readers] HTTP: RSS idle {idle:.0f} MB, peak {http['peak']:.0f} MB (+{growth:.0f} MB, "
                  f"x{http['peak'] / idle:.2f} idle), after close {after:.0f} MB (+{held:.0f} MB); "
                  f"target +{TARGET_GROWTH_MB} MB")
            failed |= growth > TARGET_GROWTH_MB or held > TARGET_GROWTH_MB
            idle = after
        if "grpc" not in args.skip:
            grpc_phase = unread_streams(proc, lexicon, words, args.streams, args.wait)
            after = settle(proc.pid)
            growth, held = grpc_phase["peak"] - idle, after - idle
            print(f"[slow-readers] gRPC: 1 connection, {args.streams} CheckWords streams x "
                  f"{grpc_phase['message_kb']:.0f} KB, answers never read (the server allows "
                  f"{grpc_phase['max_streams'] or 'any number of'} streams): {grpc_phase['sent']} requests sent "
                  f"whole, {grpc_phase['refused']} refused (REFUSED_STREAM), {grpc_phase['answers_started']} "
                  f"answers begun, goaway {grpc_phase['goaway']}, closed by the server "
                  f"{grpc_phase['closed_by_server']}, {grpc_phase['elapsed_s']:.1f} s")
            print(f"[slow-readers] gRPC: RSS before {idle:.0f} MB, peak {grpc_phase['peak']:.0f} MB (+{growth:.0f} MB, "
                  f"x{grpc_phase['peak'] / idle:.2f}), after close {after:.0f} MB (+{held:.0f} MB); "
                  f"target +{TARGET_GROWTH_MB} MB")
            failed |= growth > TARGET_GROWTH_MB or held > TARGET_GROWTH_MB
            idle = after
        if "grpc-many" not in args.skip:
            unknown = [word + "x" for word in words[:args.grpc_words]] * (args.grpc_words // max(1, len(words)) + 1)
            phase = unread_connections(proc, lexicon, unknown[:args.grpc_words], args.grpc_connections,
                                       args.grpc_streams, args.wait)
            failed |= report_many(args, idle, settle(proc.pid), phase)
            idle = settle(proc.pid)
        if "grpc-idle" not in args.skip:
            taken, closed, held = idle_connections(proc, args.grpc_idle_connections)
            after = settle(proc.pid)
            print(f"[slow-readers] gRPC: {args.grpc_idle_connections} connections opening no stream: {taken} connected, "
                  f"{closed} closed by the server; RSS before {idle:.0f} MB, with them {held:.0f} MB "
                  f"(+{held - idle:.0f} MB, {(held - idle) * 1024 / max(1, taken):.0f} KB each), after close "
                  f"{after:.0f} MB")
    finally:
        stop_server(proc)
    print(f"[slow-readers] {'FAILED: over the target' if failed else 'within the targets'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
