"""Games in PostgreSQL (games/pgstore.py) shared by several servers: events appended on one server reach
WatchGame on another through LISTEN/NOTIFY, a due timer fires once however many servers hold the game, and
while PostgreSQL is down writes fail UNAVAILABLE with nothing acknowledged lost, coming back by themselves.
Each test needs PostgreSQL (tests/conftest.py starts one per session; skipped, with the reason, without)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from lexicon_service.errors import Conflict, Refused, StoreUnavailable
from lexicon_service.games.sessions import GameSessions
from lexicon_service.grpc_gen import session_pb2
from lexicon_service.rules import load_rule_set
from lexicon_service.server import create_server
from tests.game_helpers import FakeClock, Player, create, find_play, tile_text, tiles_of, two_tile_lexicons

pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[postgres]')")
from lexicon_service.games.pgstore import PostgresStore  # noqa: E402


@pytest.fixture(scope="module")
def lexicon_dir(tmp_path_factory):
    return two_tile_lexicons(tmp_path_factory.mktemp("pg-lexicons"), ("pl-scrabble", "cs-kriskros"))


def _wait_for(condition, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_a_game_started_on_one_server_is_moved_on_the_other_and_watched_live_on_a_third_client(lexicon_dir,
                                                                                                postgres_url):
    rs = load_rule_set("pl-scrabble")
    servers = [create_server("localhost:0", lexicon_dir, games_db=postgres_url) for _ in range(2)]
    for srv, _ in servers:
        srv.game_sessions.poll = 60.0  # no polling: only a notification can wake the watcher in time
        srv.start()
    (_, first), (_, second) = servers
    try:
        created, (ann, bob), _ = create(first, "pl-scrabble", seed=3)
        watcher = Player(second, created.game_id, bob.token)
        stream = watcher.stub.WatchGame(session_pb2.WatchGameRequest(game_id=created.game_id),
                                        metadata=watcher.md, timeout=30)
        assert next(stream).kind == "created"
        ann_there = Player(second, created.game_id, ann.token)  # Ann moves on the other server
        mine = ann_there.get()
        latencies = []
        start = time.monotonic()
        ann_there.play(find_play(rs, mine.board, tiles_of(rs, mine.rack)))
        event = next(stream)
        latencies.append(time.monotonic() - start)
        assert event.kind == "play" and event.player == 0
        for turn in (bob, ann, bob):  # passes on the first server, watched on the second
            start = time.monotonic()
            turn.pass_()
            event = next(stream)
            latencies.append(time.monotonic() - start)
            assert event.kind == "pass"
        assert max(latencies) < 2.0, latencies  # a poll of 60 s would take a minute
        stream.cancel()
        for p in (ann, bob, watcher, ann_there):
            p.close()
    finally:
        for srv, _ in servers:
            srv.stop(None).wait()
    # the cancelled stream's watcher, waiting for a notification, was woken by the stop: no thread left
    assert not [t.name for t in threading.enumerate() if t.name.startswith("lexicon-watch")]


def test_the_http_event_stream_of_one_server_delivers_moves_made_on_another(lexicon_dir, postgres_url):
    import httpx

    from lexicon_service.http import HttpServer, create_app
    from tests.test_http_sessions import read_events

    servers = [create_server("localhost:0", lexicon_dir, games_db=postgres_url) for _ in range(2)]
    for srv, _ in servers:
        srv.game_sessions.poll = 60.0
        srv.start()
    (_, first), (second, _) = servers
    web = HttpServer(create_app(second.registry, servicers={"session": second.game_sessions}, heartbeat=0.3),
                     "localhost:0").start()
    try:
        created, (ann, bob), _ = create(first, "pl-scrabble", seed=4)
        with httpx.Client(base_url=web.url, timeout=10) as watcher, \
                watcher.stream("GET", f"/v1/games/{created.game_id}/events") as stream:
            lines = stream.iter_lines()
            assert [e[2]["kind"] for e in read_events(lines, 1)[0]] == ["created"]
            ann.pass_()  # on the first server
            (_, event_id, event), = read_events(lines, 1, timeout=3)[0]
            assert (event_id, event["kind"], event["player"]) == ("2", "pass", 0)
        ann.close()
        bob.close()
    finally:
        web.stop()
        for srv, _ in servers:
            srv.stop(None).wait()


def test_a_due_move_timer_fires_once_however_many_servers_hold_the_game(postgres_url):
    rs = load_rule_set("cs-kriskros")  # a 60 s move timer: a timeout forfeits the turn
    clock = FakeClock()
    stores = [PostgresStore(postgres_url) for _ in range(3)]
    try:
        services = [GameSessions(store, clock=clock) for store in stores]
        game_id, _, _, _ = services[0].create_game("cs-kriskros", rs, ["A", "B"], seed=5)
        for service in services:
            service.get_game(game_id, None)  # every server holds the game in its cache
        clock.advance(61)
        barrier = threading.Barrier(len(services))

        def tick(service):
            barrier.wait()
            service.tick(game_id)

        threads = [threading.Thread(target=tick, args=(service,)) for service in services]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        rows = stores[0].load(game_id)
        kinds = [kind for _, kind, _ in rows]
        assert kinds == ["created", "pass"] and '"timeout"' in rows[1][2], rows  # one forfeited turn
        versions = {service.get_game(game_id, None)[0].version for service in services}
        assert versions == {len(kinds)}
    finally:
        for store in stores:
            store.close()


def test_the_first_append_wins_across_stores(postgres_url):
    first, second = PostgresStore(postgres_url), PostgresStore(postgres_url)
    try:
        first.append("0123456789abcdef", 0, [("created", "{}")])
        with pytest.raises(Conflict):
            second.append("0123456789abcdef", 0, [("created", "{}")])
        with pytest.raises(ValueError, match="cannot take this event"):  # text PostgreSQL cannot hold
            second.append("0123456789abcdef", 1, [("pass", "{\x00}")])
        with pytest.raises(ValueError, match="cannot take this event"):
            second.append("0123456789abcdef", 1, [("pass", "\ud800")])
        assert [v for v, _, _ in second.load("0123456789abcdef")] == [1]
    finally:
        first.close()
        second.close()


def test_postgres_restarted_under_load_loses_no_acknowledged_append_and_writes_resume(postgres_server,
                                                                                      postgres_url):
    store = PostgresStore(postgres_url)
    changes = []
    store.on_change(changes.append)
    acknowledged: dict[str, int] = {}
    errors: list[BaseException] = []
    stop = threading.Event()

    def writer(n: int) -> None:
        game_id = f"{n:016x}"
        version = 0
        while not stop.is_set():
            try:
                version = store.append(game_id, version, [("pass", "{}")], request_id=f"r{version + 1}")
                acknowledged[game_id] = version
            except StoreUnavailable:
                time.sleep(0.05)
            except Exception as exc:  # noqa: BLE001 - any other error fails the test
                errors.append(exc)
                return

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    try:
        time.sleep(0.5)
        postgres_server.stop("fast")
        assert _wait_for(lambda: not store.writable, 5)
        with pytest.raises(StoreUnavailable):
            store.append("feedfacefeedface", 0, [("created", "{}")])
        down = dict(acknowledged)
        time.sleep(0.5)
        assert acknowledged == down  # nothing acknowledged while it is down
    finally:
        postgres_server.start()
    assert _wait_for(lambda: store.writable, 10)  # by itself: the probe on the listening thread
    before = sum(acknowledged.values())
    assert _wait_for(lambda: sum(acknowledged.values()) > before + 8, 10)
    stop.set()
    for t in threads:
        t.join()
    assert not errors, errors
    assert changes[:2] == [False, True]
    for game_id, version in acknowledged.items():  # every acknowledged append is there, none beyond a gap
        assert [v for v, _, _ in store.load(game_id)][-1] >= version
    store.close()


def test_health_is_not_serving_while_postgres_is_down(lexicon_dir, postgres_server, postgres_url):
    srv, port = create_server("localhost:0", lexicon_dir, games_db=postgres_url)
    srv.start()
    try:
        with grpc.insecure_channel(f"localhost:{port}") as channel:
            health = health_pb2_grpc.HealthStub(channel)

            def status():
                return health.Check(health_pb2.HealthCheckRequest(service="lexicon.v1.GameSessionService"),
                                    timeout=5).status

            assert status() == health_pb2.HealthCheckResponse.SERVING
            created, (ann, _), _ = create(port, "pl-scrabble", seed=1)
            postgres_server.stop("fast")
            try:
                with pytest.raises(grpc.RpcError) as err:
                    ann.pass_()
                assert err.value.code() == grpc.StatusCode.UNAVAILABLE
                assert _wait_for(lambda: status() == health_pb2.HealthCheckResponse.NOT_SERVING, 5)
            finally:
                postgres_server.start()
            assert _wait_for(lambda: status() == health_pb2.HealthCheckResponse.SERVING, 10)
            assert ann.pass_().version == 2
            ann.close()
    finally:
        srv.stop(None).wait()


def test_serve_takes_a_postgres_url_from_db_and_from_lexicon_db(lexicon_dir, postgres_url):
    for args, env in ((["--db", postgres_url], {}), ([], {"LEXICON_DB": postgres_url})):
        environ = dict(os.environ, LEXICON_GC_TUNING="0", **env)
        proc = subprocess.Popen([sys.executable, "-m", "lexicon_service", "serve", "--address", "localhost:0",
                                 "--lexicons", str(lexicon_dir), "--log-level", "WARNING", *args],
                                stdout=subprocess.PIPE, text=True, env=environ)
        try:
            line = proc.stdout.readline()
            assert "serving" in line, line
            port = int(line.split(" on ")[1].split()[0].rsplit(":", 1)[1])
            created, (ann, _), _ = create(port, "pl-scrabble", seed=2)
        finally:
            proc.terminate()
            proc.wait()
        store = PostgresStore(postgres_url)
        try:
            assert store.load(created.game_id)[0][1] == "created"  # in PostgreSQL, not a file
        finally:
            store.close()
        ann.close()


def test_an_unreachable_database_is_a_clear_start_up_error(tmp_path):
    with pytest.raises(OSError, match="cannot open the games database postgresql://nobody@"):
        PostgresStore(f"postgresql://nobody:secret@/postgres?host={tmp_path}&port=1")


def test_through_nginx_a_game_survives_a_server_killed_and_is_watched_across_servers(lexicon_dir):
    import shutil

    if shutil.which("nginx") is None:
        pytest.skip("nginx is not installed (apt-get install nginx); the proxy test skipped")
    from deploy.cluster import Cluster

    rs = load_rule_set("pl-scrabble")
    cluster = Cluster(lexicon_dir, servers=2, durable=False)
    try:
        created, (ann, bob), _ = create(cluster.port, "pl-scrabble", seed=8)  # through the proxy
        first, second = (Player(port, created.game_id, ann.token) for port in cluster.server_ports)
        watcher = Player(cluster.port, created.game_id, bob.token)  # a third client, through the proxy
        stream = watcher.stub.WatchGame(session_pb2.WatchGameRequest(game_id=created.game_id),
                                        metadata=watcher.md, timeout=60)
        assert next(stream).kind == "created"
        mine = first.get()
        first.play(find_play(rs, mine.board, tiles_of(rs, mine.rack)))  # on one server
        assert next(stream).kind == "play"
        Player(cluster.server_ports[1], created.game_id, bob.token).pass_()  # on the other
        assert next(stream).kind == "pass"
        stream.cancel()
        acknowledged = second.get().version
        cluster.kill_server(0)  # SIGKILL, the whole process group
        start = time.monotonic()
        while True:  # the proxy's next call goes to the server left
            try:
                assert ann.pass_().version == acknowledged + 1
                break
            except grpc.RpcError as err:
                assert err.code() == grpc.StatusCode.UNAVAILABLE and time.monotonic() - start < 2.0, err
                time.sleep(0.05)
        assert time.monotonic() - start <= 2.0
        for p in (ann, bob, first, second, watcher):
            p.close()
    finally:
        cluster.stop()


def test_a_database_that_refuses_writes_acknowledges_no_move_and_writes_resume_by_themselves(postgres_server,
                                                                                            postgres_url):
    import psycopg

    store = PostgresStore(postgres_url)
    service = GameSessions(store, clock=FakeClock())
    rs = load_rule_set("pl-scrabble")
    game_id, tokens, _, _ = service.create_game("pl-scrabble", rs, ["A", "B"], seed=1)
    admin = psycopg.connect(postgres_server.url(), autocommit=True)
    try:
        admin.execute("ALTER SYSTEM SET default_transaction_read_only = on")  # every session, at reload
        admin.execute("SELECT pg_reload_conf()")
        time.sleep(0.3)
        with pytest.raises(StoreUnavailable):
            service.submit_move(game_id, tokens[0], pass_=True, request_id="p1")
        assert not store.writable
        assert [kind for _, kind, _ in store.load(game_id)] == ["created"]  # nothing stored
    finally:
        admin.execute("ALTER SYSTEM RESET default_transaction_read_only")
        admin.execute("SELECT pg_reload_conf()")
        admin.close()
    assert _wait_for(lambda: store.writable, 10)  # the probe found writes succeed again
    assert service.submit_move(game_id, tokens[0], pass_=True, request_id="p1").version == 2
    store.close()


def test_a_move_on_a_game_no_other_server_touched_reads_nothing_from_the_store(postgres_url):
    """The server decides on the state it holds; the append's version check stands for the read."""
    store = PostgresStore(postgres_url)
    try:
        service = GameSessions(store, clock=FakeClock())
        game_id, tokens, _, _ = service.create_game("cs-kriskros", load_rule_set("cs-kriskros"), ["A", "B"], seed=5)
        service.get_game(game_id, tokens[0])
        loads = []
        real_load = store.load
        store.load = lambda *args, **kw: loads.append(args) or real_load(*args, **kw)
        first = service.submit_move(game_id, tokens[0], pass_=True)
        second = service.submit_move(game_id, tokens[1], pass_=True)
        assert first.version == 2 and second.version >= 3  # the second pass may end the game
        assert loads == []
        assert [v for v, _, _ in real_load(game_id)] == list(range(1, second.version + 1))
    finally:
        store.close()


def test_a_server_told_late_of_another_servers_move_answers_from_the_store_not_its_cache(postgres_url):
    """Server B's notice of A's move is lost (as if late): B's cached state is stale, yet every answer it
    gives is the store's: a read answer is checked against the store, an append conflicts and decides again."""
    rs = load_rule_set("cs-kriskros")
    store_a, store_b = PostgresStore(postgres_url), PostgresStore(postgres_url)
    try:
        a, b = GameSessions(store_a, clock=FakeClock()), GameSessions(store_b, clock=FakeClock())
        game_id, tokens, _, _ = a.create_game("cs-kriskros", rs, ["A", "B"], seed=5)

        def exchange(service, p):
            rack = a.get_game(game_id, tokens[p])[0].rack_text(p)  # A is current: a read there
            return service.submit_move(game_id, tokens[p], exchange=tile_text(tiles_of(rs, rack)[0], rs)).version

        assert b.get_game(game_id, tokens[0])[0].version == 1  # B holds the game, current
        store_b._subscribers.clear()  # B hears of no other server's append from now on
        assert exchange(a, 0) == 2
        assert b.get_game(game_id, tokens[0])[0].version == 2  # a read is checked against the store
        assert exchange(a, 1) == 3
        assert exchange(b, 0) == 4  # B's cache: player 1's turn, refused unread, then read: player 0's
        assert exchange(a, 1) == 5
        with pytest.raises(Refused, match="turn"):  # B's cache: player 1's turn; its append conflicts
            exchange(b, 1)
        assert [v for v, _, _ in store_a.load(game_id)] == [1, 2, 3, 4, 5]
    finally:
        store_a.close()
        store_b.close()


def test_a_store_announces_other_stores_appends_not_its_own(postgres_url):
    first, second = PostgresStore(postgres_url), PostgresStore(postgres_url)
    try:
        heard_first, heard_second = [], []
        first.subscribe(heard_first.append)
        second.subscribe(heard_second.append)
        first.append("00000000000000aa", 0, [("created", "{}")])
        assert _wait_for(lambda: "00000000000000aa" in heard_second, 5)
        second.append("00000000000000bb", 0, [("created", "{}")])
        assert _wait_for(lambda: "00000000000000bb" in heard_first, 5)
        time.sleep(0.2)
        assert "00000000000000aa" not in heard_first and "00000000000000bb" not in heard_second
    finally:
        first.close()
        second.close()


def test_tournament_stores_opening_together_on_a_new_schema_all_open(postgres_url):
    """Servers starting together each create the tournament tables: none may fail on the other's CREATE."""
    from concurrent.futures import ThreadPoolExecutor

    from lexicon_service.tournaments.store import PostgresTournamentStore

    with ThreadPoolExecutor(8) as pool:
        stores = list(pool.map(lambda _: PostgresTournamentStore(postgres_url), range(8)))
    try:
        assert all(store.tournament_ids() == [] for store in stores)
    finally:
        for store in stores:
            store.close()
