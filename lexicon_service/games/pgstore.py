"""The games' event log in PostgreSQL (`serve --db postgresql://...`), shared by servers on several hosts.

The same table and primary key as SqliteStore (games/store.py): a duplicate (game_id, version) is the
optimistic-concurrency conflict, so servers share games without an owner, and a timer due in a game held by
several servers fires once (the first append wins, the others see Conflict and decide again). An append
is one statement, so one implicit transaction, on an autocommit connection of this server's pool; it
returns only after COMMIT (PostgreSQL's own group commit gathers concurrent commits into one WAL flush).
The same statement sends NOTIFY lexicon_games with the game id: a listening connection per server wakes
its WatchGame streams (gRPC and the HTTP event stream) for events appended by the other servers, with no
polling of the table, and tells GameSessions which of its cached games another server moved.

What of SqliteStore applies here: request ids per player, --max-games counted in the transaction (creates
serialised by an advisory lock), damaged games refused (DATA_LOSS) when their versions have gaps or
PostgreSQL reports corrupted data, and the writability callbacks: while the database cannot be reached or
refuses writes (read-only, disk full) appends fail with StoreUnavailable (UNAVAILABLE, retryable, nothing
acknowledged) and health is NOT_SERVING; a probe write every PROBE_SECONDS (on the listening thread) brings
both back by itself. What does not apply: the start-up integrity check and `recover-games` (PostgreSQL
checks its own pages: data checksums, amcheck), the file lock and the bounded WAL (max_wal_size).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import weakref

from lexicon_service.errors import Conflict, DuplicateRequest, GameDamaged, StoreUnavailable, TooManyGames
from lexicon_service.games.store import NOT_A_PLAYER, PROBE_SECONDS, StoreHealth, is_postgres_url  # noqa: F401
from lexicon_service.games.store import SCHEMA as SQLITE_SCHEMA

try:
    import psycopg
    from psycopg import errors as pg_errors
    from psycopg_pool import ConnectionPool, PoolTimeout
except ImportError:  # the [postgres] extra is not installed: is_postgres_url still works, opening says what to do
    psycopg = None

log = logging.getLogger("lexicon_service.games.store")

CHANNEL = "lexicon_games"
POOL_SIZE = 16  # connections per server: the game threads (8) and the WatchGame streams' reads
POOL_TIMEOUT = 2.0  # seconds an append or read waits for a connection before UNAVAILABLE
CONNECT_TIMEOUT = 3  # seconds, libpq's connect_timeout
IDLE_CHECK_SECONDS = 1.0  # a pooled connection idle this long is pinged before use (a restart closes them)
CREATE_LOCK = 0x6C657869  # pg_advisory_xact_lock key serialising schema creation and counted creates

# The events and live_games tables of SQLite (games/store.py), and a row the probe rewrites
SCHEMA = SQLITE_SCHEMA.replace(") WITHOUT ROWID;", ");") + """
CREATE TABLE IF NOT EXISTS store_probe (id INTEGER PRIMARY KEY, at TIMESTAMPTZ NOT NULL);
"""
LIVE = {True: "DELETE FROM live_games WHERE game_id = %s",
        False: "INSERT INTO live_games VALUES (%s) ON CONFLICT DO NOTHING"}


def append_statement(events: int, ended: bool | None) -> str:
    """One statement, so one round trip and (in autocommit) one transaction: the events' rows, the game's
    live_games row, and the NOTIFY; a duplicate (game_id, version) fails it whole."""
    values = ", ".join(["(%s, %s, %s, %s, %s, %s)"] * events)
    live = f", live AS ({LIVE[ended]})" if ended is not None else ""
    return (f"WITH appended AS (INSERT INTO events (game_id, version, kind, data, request_id, request_player) "
            f"VALUES {values}){live} SELECT pg_notify(%s, %s)")


def _shown_url(url: str) -> str:
    """The URL without its password, for messages."""
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    return f"{scheme}{sep}{credentials.split(':')[0]}{at}{host}" if at else url


class PostgresStore(StoreHealth):
    """The event log in one PostgreSQL database, shared by every server that opens it."""

    def __init__(self, url: str, *, pool_size: int = POOL_SIZE, pool_timeout: float = POOL_TIMEOUT) -> None:
        if psycopg is None:
            raise OSError("serve --db postgresql://... needs psycopg: pip install 'czpl-lexicon[postgres]'")
        self.url = url
        self.path = _shown_url(url)  # what messages name, as SqliteStore's path
        self._init_health()  # `damaged` is never set: PostgreSQL refuses its own damaged pages
        self.appends = 0
        self._pool_timeout = pool_timeout
        self._subscribers: list = []
        self._closed = threading.Event()
        kwargs = {"connect_timeout": CONNECT_TIMEOUT, "application_name": "lexicon-service"}
        try:
            with psycopg.connect(url, autocommit=True, **kwargs) as conn:
                with conn.transaction():
                    conn.execute("SELECT pg_advisory_xact_lock(%s)", (CREATE_LOCK,))  # servers starting together
                    conn.execute(SCHEMA)
                    conn.execute("INSERT INTO store_probe VALUES (1, now()) ON CONFLICT DO NOTHING")
        except psycopg.Error as exc:
            raise OSError(f"cannot open the games database {self.path}: {str(exc).strip()}") from None
        # Backend pids of this store's connections: the listener skips their NOTIFYs (the appender itself
        # wakes its watchers). The last few hundred only: connections are replaced after failures.
        self._own_pids: dict[int, None] = {}
        self._last_used: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # connection -> monotonic s
        self._pool = ConnectionPool(url, min_size=2, max_size=pool_size, kwargs=dict(kwargs, autocommit=True),
                                    open=True, configure=self._configure, check=self._check,
                                    name="lexicon-games")
        self._listen_conn = None
        self._thread = threading.Thread(target=self._listen_loop, name="games-listen", daemon=True)
        self._listening = threading.Event()
        self._thread.start()
        self._listening.wait(CONNECT_TIMEOUT + 1)

    def _configure(self, conn) -> None:
        self._own_pids[conn.info.backend_pid] = None
        while len(self._own_pids) > 16 * POOL_SIZE:
            del self._own_pids[next(iter(self._own_pids))]

    def _check(self, conn) -> None:
        """Ping a connection before use only when it has been idle: one under load was just working, and
        the ping would double the round trips of an append."""
        if time.monotonic() - self._last_used.get(conn, 0.0) >= IDLE_CHECK_SECONDS:
            ConnectionPool.check_connection(conn)

    @contextlib.contextmanager
    def _connection(self):
        with self._pool.connection(timeout=self._pool_timeout) as conn:
            try:
                yield conn
            finally:
                self._last_used[conn] = time.monotonic()

    # --- live events ----------------------------------------------------------------------------------
    def subscribe(self, callback) -> None:
        """Call `callback(game_id)` after another server (another store) appended to that game (None:
        events may have been missed, while the listening connection was down: every watcher should read
        again). This store's own appends are not announced to its subscribers: their caller knows."""
        self._subscribers.append(callback)

    def _publish(self, game_id) -> None:
        for callback in list(self._subscribers):
            callback(game_id)

    def _listen_loop(self) -> None:
        while not self._closed.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT) as conn:
                    self._listen_conn = conn
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    self._publish(None)  # anything appended while we were not listening
                    while not self._closed.is_set():
                        for note in conn.notifies(timeout=PROBE_SECONDS):
                            if note.pid not in self._own_pids:
                                self._publish(note.payload)
                        if self.unwritable is not None:
                            self._probe()
            except psycopg.Error as exc:
                if self._closed.is_set():
                    return
                self._cannot_write(exc)
                self._closed.wait(PROBE_SECONDS)
            finally:
                self._listen_conn = None

    # --- health ---------------------------------------------------------------------------------------
    def _cannot_write(self, exc: BaseException) -> StoreUnavailable:
        detail = " ".join(str(exc).split())[:200] or type(exc).__name__
        with self._state_lock:
            first = self.unwritable is None
            self.unwritable = detail
        if first:
            log.warning("the games database %s cannot be written (%s); writes are refused until it can",
                        self.path, detail, extra={"kind": "postgres unavailable"})
            self._changed()
        return StoreUnavailable(f"the games database cannot write now ({detail}); nothing was stored, retry later")

    def _probe(self) -> None:
        try:
            with self._connection() as conn, conn.transaction():
                conn.execute("UPDATE store_probe SET at = now() WHERE id = 1")
        except (psycopg.Error, PoolTimeout) as exc:
            self._cannot_write(exc)
        else:
            self._wrote()

    def damaged_game(self, game_id: str, detail: str, whole_file: bool = False) -> GameDamaged:
        log.error("the games database %s: game %s cannot be read whole (%s)", self.path, game_id, detail,
                  extra={"kind": "damaged game"})
        return GameDamaged(game_id, detail)

    # --- reads ----------------------------------------------------------------------------------------
    def _read(self, sql: str, params=()) -> list:
        try:
            with self._connection() as conn:
                return conn.execute(sql, params).fetchall()
        except (pg_errors.DataCorrupted, pg_errors.IndexCorrupted) as exc:
            raise self.damaged_game(str(params[0]) if params else "?", str(exc).strip()[:120]) from exc
        except (psycopg.Error, PoolTimeout) as exc:
            raise StoreUnavailable(f"the games database cannot be read now ({str(exc).strip()[:200]}); retry") \
                from exc

    def load(self, game_id: str, after: int = 0) -> list[tuple[int, str, str]]:
        rows = self._read("SELECT version, kind, data FROM events WHERE game_id = %s AND version > %s "
                          "ORDER BY version", (game_id, after))
        if rows and (rows[0][0] != after + 1 or rows[-1][0] != after + len(rows)):
            raise self.damaged_game(game_id, f"versions {rows[0][0]}-{rows[-1][0]} after {after} have gaps")
        return [tuple(row) for row in rows]

    def request_version(self, game_id: str, request_id: str, player: int = NOT_A_PLAYER) -> int | None:
        rows = self._read("SELECT version FROM events WHERE game_id = %s AND request_player = %s "
                          "AND request_id = %s", (game_id, player, request_id))
        return rows[0][0] if rows else None

    def game_ids(self) -> list[str]:
        return [r[0] for r in self._read("SELECT DISTINCT game_id FROM events")]

    def live_games(self) -> int:
        return self._read("SELECT count(*) FROM live_games")[0][0]

    def live_game_ids(self, limit: int) -> list[str]:
        return [r[0] for r in self._read("SELECT game_id FROM live_games ORDER BY game_id LIMIT %s", (limit,))]

    # --- writes ---------------------------------------------------------------------------------------
    def append(self, game_id: str, base_version: int, rows, request_id: str | None = None, *,
               request_player: int = NOT_A_PLAYER, ended: bool | None = None, max_live: int | None = None) -> int:
        rows = list(rows)
        if not rows:
            return base_version
        if self._closed.is_set():
            raise RuntimeError("the game store is closed")
        request_id = request_id or None
        values = []
        version = base_version
        for i, (kind, data) in enumerate(rows):
            version += 1
            last = i == len(rows) - 1
            values.append((game_id, version, kind, data, request_id if last else None,
                           request_player if last else None))
        try:
            for _, _, kind, data, _, _ in values:  # text PostgreSQL cannot hold: this append alone fails
                if "\x00" in kind or "\x00" in data:
                    raise ValueError("NUL character")
                kind.encode("utf-8"), data.encode("utf-8")
        except (ValueError, AttributeError) as exc:
            raise ValueError(f"the game store cannot take this event: {exc}") from None
        try:
            with self._connection() as conn:  # autocommit
                try:
                    if base_version == 0 and max_live is not None:  # exact across servers
                        with conn.transaction():
                            conn.execute("SELECT pg_advisory_xact_lock(%s)", (CREATE_LOCK,))
                            if conn.execute("SELECT count(*) FROM live_games").fetchone()[0] >= max_live:
                                raise TooManyGames(max_live)
                            self._insert(conn, game_id, values, ended)
                    else:
                        self._insert(conn, game_id, values, ended)  # committed when it returns
                except pg_errors.UniqueViolation:
                    found = None
                    if request_id:
                        found = conn.execute("SELECT version FROM events WHERE game_id = %s AND request_player = %s"
                                             " AND request_id = %s", (game_id, request_player, request_id)).fetchone()
                    if found:
                        raise DuplicateRequest(found[0]) from None
                    raise Conflict(game_id) from None
        except (psycopg.OperationalError, psycopg.InternalError, pg_errors.ReadOnlySqlTransaction,
                pg_errors.DiskFull, pg_errors.InsufficientResources, PoolTimeout) as exc:
            # unreachable, restarting, read-only, full: nothing committed (an unknown outcome after a lost
            # COMMIT is resolved by the client's retry with its request id)
            raise self._cannot_write(exc) from exc
        except psycopg.DataError as exc:
            raise ValueError(f"the game store cannot take this event: {str(exc).strip()[:120]}") from None
        self.appends += 1
        self._wrote()
        return version

    @staticmethod
    def _insert(conn, game_id: str, values: list[tuple], ended: bool | None) -> None:
        params = [field for row in values for field in row]
        if ended is not None:
            params.append(game_id)
        conn.execute(append_statement(len(values), ended), params + [CHANNEL, game_id])

    def close(self) -> None:
        self._closed.set()
        conn = self._listen_conn
        self._thread.join(timeout=PROBE_SECONDS + 1)
        if self._thread.is_alive() and conn is not None:
            try:
                conn.cancel()
            except psycopg.Error:
                pass
        self._pool.close()
