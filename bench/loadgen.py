"""What the bench scripts share: the server they start, the process readings they report (psutil), the lean
clients and the load loop that drives them.

  * `start_server`: `lexicon-service serve` as a child on free loopback ports, its log in a file.
  * `process_tree`, `cpu_seconds`, `rss_mb`, `pss_mb`, `memfd_mb`, `load_average`, `percentile`.
  * `lexicons_and_words`, `fuzz_text`: the fuzzers' lexicons, sample words and random text.
  * `H2Connection`: a lean gRPC client over one plain TCP socket, HTTP/2 framing by hand and HPACK by the
    hpack library, cheap enough a call that most of the machine goes to the server (docs/development.md);
    `Http1Connection`: the same for the JSON API over keep-alive HTTP/1.1.
  * `run_load`: many such connections from one thread, in a closed loop (each slot sends its next
    call when the last is answered) or an open loop (a fixed rate on a schedule, latency counted from
    the scheduled start, so a slow server cannot hide its queue by slowing the clients down).
Every loop is bounded in time and calls, and only loopback is used.
"""

from __future__ import annotations

import json
import os
import re
import selectors
import socket
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def lexicons_and_words(directory, per_lexicon: int = 2000) -> tuple[list[str], list[str]]:
    """The names of the lexicons in `directory` and up to `per_lexicon` words of each (SystemExit
    when there is none)."""
    from lexicon_service.lexicon import load_lexicon

    names = sorted(p.name[:-4] for p in Path(directory).glob("*.lex"))
    if not names:
        raise SystemExit(f"no lexicons in {directory}")
    words = []
    for name in names:
        with load_lexicon(Path(directory) / f"{name}.lex") as lexicon:
            keys = [k for _, k in zip(range(per_lexicon), lexicon._forms.iterkeys("k"))]
            words += [lexicon.display(k) for k in keys if lexicon.display(k).isalpha()]
    return names, words


# Letters of both languages (and x), from which the fuzzers' random text is mostly made
LETTERS = "aąbcćdeęfghijklłmnńoóprsśtuwyzźżčďěňřšťůýx"


def fuzz_text(rnd, words: list[str], odd: list[str], max_len: int = 20) -> str:
    """A random text: a lexicon word (maybe upper-cased), letters with some of `odd` among them,
    or any code points but surrogates; of lengths at the edges the service cares about."""
    kind = rnd.random()
    if kind < 0.4 and words:
        word = rnd.choice(words)
        return word.upper() if rnd.random() < 0.3 else word
    n = rnd.choice([0, 1, 2, 3, 5, 8, 15, 16, 33, 64, 65, rnd.randrange(max_len + 1)])
    if kind < 0.8:
        return "".join(rnd.choice(LETTERS) if rnd.random() > 0.1 else rnd.choice(odd) for _ in range(n))
    return "".join(chr(rnd.choice([rnd.randrange(32, 0x300), rnd.randrange(0x300, 0xD800),
                                   rnd.randrange(0xE000, 0x110000)])) for _ in range(n))


# GenerateMoves' hostile racks and limits, and the computer players' levels, for both service fuzzers
COMPUTER_LEVELS = ("best", "club", "beginner", "equity")
HUGE_LIMITS = (1_000_000, 1_000_001, 2**31 - 1)  # the most the generator lists, one more, int32's most


def hostile_rack(rnd, text) -> str:
    """A rack: blanks, none or too many tiles, letters outside every alphabet, Kris Kros digraph tiles
    written every way, odd marks, or `text(n)` (the fuzzer's random text of up to n characters)."""
    return rnd.choice(["KOTABC?", "??KOTAB", "AEINRSW", "KOT", "???", "", "KOTABCDE", "?" * rnd.choice([1, 2, 3, 8, 40]),
                       "KOTABCDEF" * rnd.choice([1, 2, 30]), "CHATA", "[CH]ATA", "[ch]ata", "C[H]", "[CH", "CH]",
                       "[XY]", "[]", "QXẞÅ", "kota?", "\u0301K", "K\u030cO", "Ł" * 9, "[CH][CH][CH]??",
                       text(9).upper(), text(40)])


def computer_players(rnd, text, n_players: int) -> list[tuple[int, str]]:
    """(seat, level) of CreateGame's computer players: every level and unknown ones, seats out of range
    or twice, every seat a computer."""
    seats = rnd.choice([[], [0], [1], [0, 1], list(range(n_players)), [0, 0], [n_players], [2**32 - 1],
                        [rnd.randrange(8) for _ in range(rnd.randrange(1, 6))]])
    return [(seat, rnd.choice(["", *COMPUTER_LEVELS, *COMPUTER_LEVELS, "Best", "best ", "equity\0", text(6)]))
            for seat in seats]


# Games with computer players the fuzzers create to act on: (player names, computer seats), each at every level:
# a computer against a person (moving second and first), two computers and a person, computers only.
COMPUTER_GAMES = ((["Ann", "Cpu"], [1]), (["Cpu", "Bob"], [0]), (["A", "B", "C"], [0, 2]), (["C1", "C2"], [0, 1]))


# --- the server and its process ------------------------------------------------------------------
def start_server(lexicons, *options: str, log_level: str = "WARNING", new_session: bool = False,
                 http: bool = False, wait_serving: bool = False) -> subprocess.Popen:
    """Spawn `lexicon-service serve --address 127.0.0.1:0 --lexicons LEXICONS *options` (with `http`, also
    `--http 127.0.0.1:0`). The process comes back with `port`, `http_url` (with `http`), `server_processes`,
    `log` (its stderr: a file, never a pipe, which would fill unread and stall the server) and `startup`
    (seconds from the spawn to its "serving" line, or with `wait_serving` to health SERVING)."""
    log = tempfile.TemporaryFile(mode="w+")
    started = time.perf_counter()
    command = [sys.executable, "-m", "lexicon_service", "serve", "--address", "127.0.0.1:0", "--lexicons",
               str(lexicons), *(["--http", "127.0.0.1:0"] if http else []), *options, "--log-level", log_level]
    proc = subprocess.Popen(command, cwd=ROOT, env=dict(os.environ, PYTHONUNBUFFERED="1"), stdout=subprocess.PIPE,
                            stderr=log, text=True, start_new_session=new_session)
    proc.log = log
    lines = [proc.stdout.readline()]  # "lexicon-service: serving N lexicon(s) on 127.0.0.1:PORT (...)"
    if http:
        lines.append(proc.stdout.readline())  # "... HTTP on http://127.0.0.1:PORT; ..."
    port = re.search(r"127\.0\.0\.1:(\d+)", lines[0])
    url = re.search(r"HTTP on (\S+);", lines[-1]) if http else None
    if not port or (http and not url):
        proc.kill()
        proc.wait()
        raise SystemExit(f"server did not start: {lines!r} {server_log(proc)[-2000:]}")
    proc.port = int(port.group(1))
    proc.http_url = url.group(1) if url else None
    processes = re.search(r"\((\d+) processes\)", lines[0])
    proc.server_processes = int(processes.group(1)) if processes else 1
    if wait_serving:
        _wait_serving(proc, started)
    proc.startup = time.perf_counter() - started
    return proc


def _wait_serving(proc, started: float, limit: float = 60.0) -> None:
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with grpc.insecure_channel(f"127.0.0.1:{proc.port}") as ch:
        stub = health_pb2_grpc.HealthStub(ch)
        while True:
            try:
                if stub.Check(health_pb2.HealthCheckRequest(), timeout=1).status == health_pb2.HealthCheckResponse.SERVING:
                    return
            except grpc.RpcError:
                pass
            if time.perf_counter() - started > limit:
                proc.kill()
                raise SystemExit(f"server not SERVING after {limit:.0f} s")
            time.sleep(0.005)


def stop_server(proc, timeout: float = 20.0) -> int:
    """SIGTERM (a supervisor relays it), then SIGKILL after `timeout` s; the exit status."""
    proc.terminate()
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    return proc.returncode


def server_log(proc) -> str:
    proc.log.seek(0)
    return proc.log.read()


# --- process readings (psutil) --------------------------------------------------------------------
def percentile(values, q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, int(round(q / 100.0 * (len(values) - 1)))))
    return values[k]


def process_tree(pid: int) -> list[int]:
    """The process and its children (serve --processes runs one server per child)."""
    try:
        return [pid, *(child.pid for child in psutil.Process(pid).children())]
    except psutil.Error:
        return [pid]


def children(pid: int) -> list[int]:
    """The process's direct children, sorted."""
    try:
        return sorted(child.pid for child in psutil.Process(pid).children())
    except psutil.Error:
        return []


def listening(pid: int, port: int) -> bool:
    """Whether the process holds a socket listening on the TCP port (SO_REUSEPORT: one of several)."""
    try:
        return any(c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port
                   for c in psutil.Process(pid).net_connections(kind="tcp"))
    except psutil.Error:
        return False


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its children so far (nan once one has gone)."""
    total = 0.0
    for p in process_tree(pid):
        try:
            times = psutil.Process(p).cpu_times()
        except psutil.Error:
            return float("nan")
        total += times.user + times.system
    return total


def _peak_rss_kb(pid: int) -> int:
    # psutil has no peak resident set on Linux (VmHWM): read it where the kernel keeps it
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def rss_mb(pid: int) -> tuple[float, float]:
    """(resident, peak resident) in MB of a process and its children, summed (shared pages counted in each)."""
    rss = hwm = 0.0
    for p in process_tree(pid):
        try:
            rss += psutil.Process(p).memory_info().rss / (1 << 20)
            hwm += _peak_rss_kb(p) / 1024
        except (psutil.Error, OSError):
            return float("nan"), float("nan")
    return rss, hwm


def pss_mb(pid: int) -> float:
    """Proportional set size in MB of a process and its children, summed: a page shared by n of them
    counts 1/n in each, so the sum is the memory they use together (RSS sums count a shared page in each)."""
    total = 0.0
    for p in process_tree(pid):
        try:
            total += psutil.Process(p).memory_full_info().pss / (1 << 20)
        except psutil.Error:
            return float("nan")
    return total


def reset_peak(pid: int) -> None:
    """Reset VmHWM to the current RSS (Linux >= 4.0: write 5 to clear_refs; psutil has no such call)."""
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5")
    except OSError:
        pass


def memfd_mb(pid: int, prefix: str = "/memfd:lexicon:") -> float:
    """MB of the distinct memfds named `prefix`... that a process and its children hold open (serve's
    sealed lexicon copies). In memory once, whether mapped or not; PSS counts only their mapped pages
    that were touched. (psutil's open_files lists regular files only, so the descriptors are read here.)"""
    seen = {}
    for p in process_tree(pid):
        try:
            fds = os.listdir(f"/proc/{p}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{p}/fd/{fd}").startswith(prefix):
                    st = os.stat(f"/proc/{p}/fd/{fd}")
                    seen[st.st_ino] = st.st_size
            except OSError:
                continue
    return sum(seen.values()) / (1 << 20)


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


# --- the lean load generator: gRPC over HTTP/2 on plain sockets ------------------------------------
# RFC 9113 (HTTP/2) framing by hand, as much of it as unary gRPC calls need; RFC 7541 (HPACK) by the hpack
# library. The framing is our own: the maintained state machine (h2) costs several times the client CPU a
# call and caps one thread below the server's rate (docs/development.md), and bench_slow_readers.py must
# break the protocol's rules (streams beyond the server's limit), which a conforming library refuses to do.
_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
_DATA, _HEADERS, _RST_STREAM, _SETTINGS, _PING, _GOAWAY, _WINDOW_UPDATE, _CONTINUATION = 0, 1, 3, 4, 6, 7, 8, 9
_END_STREAM, _ACK, _END_HEADERS, _PADDED, _PRIORITY = 0x1, 0x1, 0x4, 0x8, 0x20


class H2Error(Exception):
    """The server sent something this client does not handle (reported as a failed call)."""


class HpackDecoder:
    """RFC 7541 header-block decoding: the hpack library's decoder (python-hyper; Huffman-coded strings
    included), with blocks that leave its dynamic table as it was cached by their bytes: after the first
    calls a server's answers repeat the same few blocks, which need no decoding again."""

    def __init__(self) -> None:
        import hpack

        self._decoder = hpack.Decoder()
        self._table = self._decoder.header_table
        self.version = 0  # changes with the table
        self._cache: dict = {}

    def _state(self) -> tuple:
        entries = self._table.dynamic_entries
        return (entries[0] if entries else None, len(entries), self._table.maxsize)

    def decode(self, block: bytes) -> dict[bytes, bytes]:
        import hpack

        key = (self.version, block)
        headers = self._cache.get(key)
        if headers is not None:
            return headers
        before = self._state()
        try:
            headers = dict(self._decoder.decode(block, raw=True))
        except hpack.HPACKError as exc:
            raise H2Error(f"bad header block: {exc}") from exc
        after = self._state()
        # an insertion puts a new tuple first (identity), an eviction or a size update changes the count or size
        if after[0] is not before[0] or after[1:] != before[1:]:
            self.version += 1
        elif len(self._cache) < 256:
            self._cache[key] = headers
        return headers


def _frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    return len(payload).to_bytes(3, "big") + bytes((kind, flags)) + stream.to_bytes(4, "big") + payload


def _literal(index: int, value: bytes) -> bytes:
    """An HPACK literal without indexing: a static-table name (index < 15) and a plain value."""
    return bytes((index, len(value))) + value


class H2Connection:
    """One client: one TCP connection to the server, calls as HTTP/2 streams (several may overlap)."""

    def __init__(self, port: int, path: str, number: int, headers=()) -> None:
        """`headers`: more request headers, (name, value) bytes pairs (tokens; the fuzzers' odd bytes)."""
        import hpack

        self.number = number
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.hpack = HpackDecoder()
        self.buffer = b""
        self.next_stream = 1
        self.calls: dict[int, list] = {}  # stream id -> [start time, response bytes, tag]
        self.send_window = 65535  # the server's connection-level flow-control window for our data
        self.received = 0  # response bytes since our last connection WINDOW_UPDATE
        self.headers_in_progress = None  # (stream, end of stream, block) until END_HEADERS
        self.waiting: list = []  # calls held back by flow control
        self.dead: str | None = None
        block = (b"\x83\x86"  # :method POST, :scheme http
                 + _literal(4, path.encode()) + _literal(1, f"127.0.0.1:{port}".encode())
                 + b"\x0f\x10" + bytes((16,)) + b"application/grpc"  # content-type (static index 31)
                 + b"\x00\x02te\x08trailers")
        extra = [hpack.NeverIndexedHeaderTuple(name, value) for name, value in headers]
        self.header_block = block + (hpack.Encoder().encode(extra, huffman=False) if extra else b"")
        # settings: no server push, a large per-stream receive window; then a large connection window
        settings = struct.pack(">HIHI", 2, 0, 4, 1 << 30)
        self.sock.sendall(_PREFACE + _frame(_SETTINGS, 0, 0, settings)
                          + _frame(_WINDOW_UPDATE, 0, 0, ((1 << 30) - 65535).to_bytes(4, "big")))
        self.sock.setblocking(False)

    def send(self, message: bytes, started: float, tag=None) -> None:
        """Start a call with a serialized request message (`started`: when its latency starts)."""
        payload = b"\x00" + len(message).to_bytes(4, "big") + message
        if len(payload) > self.send_window or self.waiting:
            self.waiting.append((message, started, tag))
            return
        stream = self.next_stream
        self.next_stream += 2
        self.send_window -= len(payload)
        self.calls[stream] = [started, b"", tag]
        self._write(_frame(_HEADERS, _END_HEADERS, stream, self.header_block)
                    + _frame(_DATA, _END_STREAM, stream, payload))

    def _write(self, data: bytes) -> None:
        try:
            sent = self.sock.send(data)
        except BlockingIOError:
            sent = 0
        if sent < len(data):  # the socket buffer is full (rare): finish blocking
            self.sock.setblocking(True)
            try:
                self.sock.sendall(data[sent:])
            finally:
                self.sock.setblocking(False)

    def on_readable(self, done) -> None:
        """Read what has arrived; `done(started, ok, response message or error, tag)` per finished call."""
        try:
            chunk = self.sock.recv(1 << 18)
        except BlockingIOError:
            return
        except OSError as exc:
            self._fail(f"connection error: {exc}", done)
            return
        if not chunk:
            self._fail("connection closed by the server", done)
            return
        buffer = self.buffer + chunk if self.buffer else chunk
        i, n = 0, len(buffer)
        replies = []
        while n - i >= 9:
            length = int.from_bytes(buffer[i:i + 3], "big")
            if n - i < 9 + length:
                break
            kind, flags = buffer[i + 3], buffer[i + 4]
            stream = int.from_bytes(buffer[i + 5:i + 9], "big") & 0x7FFFFFFF
            payload = buffer[i + 9:i + 9 + length]
            i += 9 + length
            if kind == _DATA:
                self.received += length
                if flags & _PADDED:
                    payload = payload[1:len(payload) - payload[0]]
                call = self.calls.get(stream)
                if call is not None:
                    call[1] += payload
                    if flags & _END_STREAM:
                        del self.calls[stream]
                        done(call[0], False, "stream ended without trailers", call[2])
            elif kind == _HEADERS or kind == _CONTINUATION:
                if kind == _HEADERS:
                    if flags & _PADDED:
                        payload = payload[1:len(payload) - payload[0]]
                    if flags & _PRIORITY:
                        payload = payload[5:]
                    self.headers_in_progress = (stream, flags & _END_STREAM, payload)
                elif self.headers_in_progress is not None:
                    first, end, block = self.headers_in_progress
                    self.headers_in_progress = (first, end, block + payload)
                if flags & _END_HEADERS and self.headers_in_progress is not None:
                    stream, end, block = self.headers_in_progress
                    self.headers_in_progress = None
                    try:
                        headers = self.hpack.decode(block)
                    except (H2Error, IndexError) as exc:
                        self._fail(f"bad header block: {exc}", done)
                        return
                    if end:  # trailers (or a trailers-only error answer)
                        call = self.calls.pop(stream, None)
                        if call is not None:
                            status = headers.get(b"grpc-status")
                            if status == b"0":
                                done(call[0], True, call[1], call[2])
                            else:
                                message = headers.get(b"grpc-message", b"").decode("utf-8", "replace")
                                done(call[0], False, f"grpc-status {status!r}: {message}", call[2])
            elif kind == _SETTINGS:
                if not flags & _ACK:
                    replies.append(_frame(_SETTINGS, _ACK, 0))
            elif kind == _PING:
                if not flags & _ACK:
                    replies.append(_frame(_PING, _ACK, 0, payload))
            elif kind == _WINDOW_UPDATE:
                if stream == 0:
                    self.send_window += int.from_bytes(payload, "big") & 0x7FFFFFFF
            elif kind == _RST_STREAM:
                call = self.calls.pop(stream, None)
                if call is not None:
                    done(call[0], False, f"stream reset (error {int.from_bytes(payload, 'big')})", call[2])
            elif kind == _GOAWAY:
                self._fail(f"GOAWAY (error {int.from_bytes(payload[4:8], 'big')}) {payload[8:]!r}", done)
                return
        self.buffer = buffer[i:]
        if self.received > 1 << 28:
            replies.append(_frame(_WINDOW_UPDATE, 0, 0, self.received.to_bytes(4, "big")))
            self.received = 0
        if replies:
            self._write(b"".join(replies))
        if self.waiting:
            waiting, self.waiting = self.waiting, []
            for item in waiting:
                self.send(*item)

    def _fail(self, why: str, done) -> None:
        self.dead = why
        calls, self.calls = self.calls, {}
        waiting, self.waiting = self.waiting, []
        for started, _, tag in list(calls.values()) + waiting:
            done(started, False, why, tag)

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


class Http1Connection:
    """One keep-alive HTTP/1.1 connection: prebuilt requests, one at a time; the same interface as
    H2Connection (`send`, `on_readable(done)`, `dead`)."""

    def __init__(self, port: int, number: int = 0) -> None:
        self.number = number
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        # room for a whole request (~15 KB): a blocking send must never wait for the server to read,
        # or this one thread stops reading the other connections' answers meanwhile
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
        self.buffer = b""
        self.call = None  # (started, tag) of the call in flight
        self.dead: str | None = None

    @staticmethod
    def post(path: str, body: bytes) -> bytes:
        return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n").encode() + body

    def send(self, request: bytes, started: float, tag=None) -> None:
        self.buffer = b""
        self.call = (started, tag)
        self.sock.sendall(request)

    def on_readable(self, done) -> None:
        """`done(started, ok, body or error, tag)` once the answer is complete (ok: status 200)."""
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            self.dead = "server closed the connection"
            call, self.call = self.call, None
            if call is not None:
                done(call[0], False, self.dead, call[1])
            return
        self.buffer += chunk
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return
        head = self.buffer[:end].decode("latin-1")
        length = int(re.search(r"(?im)^content-length:\s*(\d+)", head).group(1))
        if len(self.buffer) < end + 4 + length or self.call is None:
            return
        status, body = int(head.split(" ", 2)[1]), self.buffer[end + 4:end + 4 + length]
        (started, tag), self.call = self.call, None
        if status == 200:
            done(started, True, body, tag)
        else:
            done(started, False, f"HTTP {status}: {body[:200]!r}", tag)

    def close(self) -> None:
        self.sock.close()


def json_check(check):
    """A check of an HTTP answer's body from a check of its JSON."""
    return lambda body, slot: check(json.loads(body))


# --- the load loop ---------------------------------------------------------------------------------
@dataclass
class LoadResult:
    calls: int  # answered, and the answer passed its check
    elapsed: float
    latencies: list[float]
    failed: int
    examples: list[str]  # the first few failures
    cpu: float  # this process's CPU seconds (the clients)
    lateness: list[float] = field(default_factory=list)  # open loop: how late each call went out (s)
    skipped: int = 0  # open loop: calls not sent (their slot could not take one)


def run_load(conns, send, check, seconds: float, *, rate: float | None = None, slots: int | None = None,
             max_calls: int | None = None, overrun: float = 30.0) -> LoadResult:
    """Drive `conns` (objects with `sock` and `on_readable(done)`, calling `done(started, ok, result,
    slot)` per answer) from this thread, for `seconds`.

    `send(slot, started)` sends the next call of a slot (0 <= slot < `slots`, default one per
    connection) and returns False when it cannot (its connection is dead, its game is waiting).
    `check(result, slot)` reads an answer and raises on a wrong one (a failed call). Closed loop
    (`rate` None): every slot sends its next call when the last is answered, until the time is up or
    `max_calls` are answered. Open loop: `rate` calls/s in all, call k on slot k mod slots at its
    scheduled time, latency from that time. Gives up `overrun` s after the end."""
    slots = len(conns) if slots is None else slots
    selector = selectors.DefaultSelector()
    for conn in conns:
        selector.register(conn.sock, selectors.EVENT_READ, conn)
    latencies: list[float] = []
    errors: list[str] = []
    lateness: list[float] = []
    clock = time.perf_counter
    in_flight = 0
    skipped = 0

    def fire(slot: int, started: float) -> bool:
        nonlocal in_flight
        if send(slot, started) is False:
            return False
        in_flight += 1
        return True

    def done(started, ok, result, slot):
        nonlocal in_flight
        in_flight -= 1
        if ok:
            try:
                check(result, slot)
            except Exception as exc:  # noqa: BLE001 - a wrong answer is a failed call
                errors.append(f"bad response: {exc!r}")
            else:
                latencies.append(clock() - started)
        else:
            errors.append(str(result))
        if rate is None and clock() < deadline and (max_calls is None or len(latencies) < max_calls):
            fire(slot, clock())

    cpu0 = time.process_time()
    started = clock()
    deadline = started + seconds
    total = int(seconds * rate) if rate else 0
    interval = 1.0 / rate if rate else 0.0
    if rate is None:
        for slot in range(slots):
            fire(slot, clock())
    k = 0
    while True:
        if k < total:
            now = clock()
            while k < total and started + k * interval <= now:
                scheduled = started + k * interval
                if fire(k % slots, scheduled):
                    lateness.append(now - scheduled)
                else:
                    skipped += 1
                k += 1
        if k >= total and in_flight <= 0:
            break
        timeout = max(0.0, started + k * interval - clock()) if k < total else 1.0
        for key, _ in selector.select(timeout):
            key.data.on_readable(done)
        if clock() > deadline + overrun:
            errors.append(f"calls still unanswered {overrun:.0f} s after the end of the phase")
            break
    elapsed = clock() - started
    cpu = time.process_time() - cpu0
    selector.close()
    for conn in conns:
        conn.close()
    return LoadResult(len(latencies), elapsed, latencies, len(errors), errors[:3], cpu, lateness, skipped)
