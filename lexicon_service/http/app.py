"""The HTTP side of `lexicon-service serve --http`: a Starlette app over the gRPC servicers.

`create_app(registry, ...)` builds the app on the registry the gRPC server serves from, so both APIs
answer from the same lexicons (and reload together). Routes:

* the JSON API (`api.ROUTES`), each route one servicer method;
* `GET /v1/games/{game_id}/events`, WatchGame as Server-Sent Events (with the session servicer);
* `POST /v1/games:view`, the game viewer's call: ReplayGame plus the board after every line and the
  ScoreMove breakdown of every play (HTTP only; not a gRPC method);
* `/judge`, `/lookup`, `/games`: the pages (static files in `static/`), `/sw.js` their service worker;
* `/openapi.json`, `/healthz`.

Bearer tokens guard `/v1/*` exactly as the gRPC interceptor guards the services (same check); the
pages, their files, `/openapi.json` and `/healthz` are open, as gRPC health is.
"""

from __future__ import annotations

import asyncio
import math
import re
import threading
import time
from importlib import resources

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from lexicon_service.grpc_gen import game_pb2, session_pb2
from lexicon_service.http import api
from lexicon_service.http.openapi import build_openapi
from lexicon_service.http.security import (AllowedHosts, HostAllowList, SecurityHeaders, cors_middleware, page_policy,
                                           require_json)
from lexicon_service.server.auth import BearerTokenInterceptor
from lexicon_service.games.roles import Caller, caller_of, client_address
from lexicon_service.server.stream_quota import StreamQuota
from lexicon_service.server.game_servicer import GameServicer
from lexicon_service.server.lexicon_servicer import LexiconServicer
from lexicon_service.core.limits import Limits
from lexicon_service.http.viewer import view_game

JSON = "application/json"
STATIC = resources.files("lexicon_service.http") / "static"
PAGES = {"/judge": "judge.html", "/lookup": "lookup.html", "/games": "games.html", "/director": "director.html"}
TIMEOUT_HEADER = "x-server-timeout"  # seconds; the call's deadline, as a gRPC client's timeout


def inline_page(name: str) -> bytes:
    """A page with its own stylesheet and scripts from static/ written into it: one request instead of
    four before the page can run (the judge's first verdict after a load). The files stay as they are."""
    def embed(tag: str, file_name: str) -> str:
        text = (STATIC / file_name).read_text(encoding="utf-8")
        if f"</{tag}" in text:
            raise ValueError(f"{file_name} holds </{tag}: it cannot be written into a page")
        return f"<{tag}>\n{text}</{tag}>"

    html = (STATIC / name).read_text(encoding="utf-8")
    html = re.sub(r'<link rel="stylesheet" href="/static/([\w.-]+)">', lambda m: embed("style", m.group(1)), html)
    html = re.sub(r'<script src="/static/([\w.-]+)"></script>', lambda m: embed("script", m.group(1)), html)
    return html.encode("utf-8")


def plain_name(rpc: str) -> str:
    """CheckWords -> check_words: the servicer's plain method, whose gRPC face the RPC is."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", rpc).lower()


def _plain_answer(method, message, argument) -> dict:
    answer = method(message, argument)
    return answer if isinstance(answer, dict) else api.to_json_dict(answer)


def _peer_of(request: Request) -> str:
    """The client's address as gRPC's peer() writes it (its port included)."""
    client = request.client
    if client is None:
        return ""
    family = "ipv6" if ":" in client.host else "ipv4"
    host = f"[{client.host}]" if family == "ipv6" else client.host
    return f"{family}:{host}:{client.port}"


def _caller(request: Request, deadline: float | None) -> Caller:
    """Who makes the call: its headers (the game token, the director key), its address, its deadline."""
    return caller_of(request.headers.items(), client=client_address(_peer_of(request)), deadline=deadline)


async def read_body(request: Request, max_bytes: int) -> bytes:
    """The request body, refused (RESOURCE_EXHAUSTED) as soon as it passes `max_bytes`."""
    declared = request.headers.get("content-length")
    if declared and declared.isdecimal() and int(declared) > max_bytes:
        raise api.ApiError(api.grpc.StatusCode.RESOURCE_EXHAUSTED,
                           f"request body larger than max ({declared} vs. {max_bytes} bytes)")
    chunks, size = [], 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > max_bytes:
                raise api.ApiError(api.grpc.StatusCode.RESOURCE_EXHAUSTED,
                                   f"request body larger than max ({size}+ vs. {max_bytes} bytes)")
            chunks.append(chunk)
    except ClientDisconnect:  # a client's doing, not an internal error
        raise api.ApiError(api.grpc.StatusCode.CANCELLED, "the client went away while sending the body") from None
    return b"".join(chunks)


async def read_json_body(request: Request, max_bytes: int) -> dict:
    """The request's JSON object; the body must be declared application/json (security.require_json)."""
    require_json(request.headers.get("content-type"))
    return api.parse_json_body(await read_body(request, max_bytes), max_bytes)


def _deadline(request: Request) -> float | None:
    raw = request.headers.get(TIMEOUT_HEADER)
    if raw is None:
        return None
    try:
        seconds = float(raw)
    except ValueError:
        raise api.invalid(f"{TIMEOUT_HEADER}: {raw!r} is not a number of seconds") from None
    if not (seconds >= 0 and math.isfinite(seconds)):
        raise api.invalid(f"{TIMEOUT_HEADER}: {raw!r}; must be a finite number of seconds, at least 0")
    if seconds == 0:  # as a gRPC timeout of 0: the deadline has passed before any work
        raise api.ApiError(api.grpc.StatusCode.DEADLINE_EXCEEDED, f"{TIMEOUT_HEADER}: 0; deadline exceeded")
    return time.monotonic() + seconds


def _threadsafe_put(loop, queue: asyncio.Queue, stop: threading.Event):
    """put(item) for another thread: onto `queue` in `loop`; once the loop is gone nobody listens, so the
    stream stops."""
    def put(item) -> None:
        try:
            loop.call_soon_threadsafe(queue.put_nowait, item)
        except RuntimeError:
            stop.set()
    return put


class _Api:
    """Shared state of the API handlers."""

    def __init__(self, servicers: dict, limits: Limits, tokens, workers: int, fast_threads: int,
                 max_streams: int = 64, heartbeat: float = 15.0, stream_quota: StreamQuota | None = None) -> None:
        self.servicers = servicers
        # Event streams: each holds one thread (the servicer's blocking WatchGame); at most max_streams,
        # and at most stream_quota's per client address and per game.
        self.max_streams = max_streams
        self.stream_quota = stream_quota or StreamQuota()
        self.stream_keys: dict[threading.Event, tuple[str, str]] = {}  # open stream -> (client, game)
        self.heartbeat = heartbeat
        self.streams: set[threading.Event] = set()
        self.pumps: set[threading.Thread] = set()  # their threads, joined by close_streams
        self.streams_lock = threading.Lock()
        self.streams_ended = threading.Condition(self.streams_lock)  # a stream left `streams`
        self.closing = False
        self.limits = limits
        self.auth = BearerTokenInterceptor(tokens, exempt_prefixes=()) if tokens else None
        # Threads, as gRPC's two pools: the short calls in a few of their own, the long ones in `workers`.
        # Off the event loop, a call's computing overlaps the reading and writing of the others (see
        # docs/service.md: more 1,000-word calls per second than answered on the loop).
        self.fast_limiter = anyio.CapacityLimiter(fast_threads)
        self.limiter = anyio.CapacityLimiter(workers)
        # Requests read and decoded at once, by pool (fast or not): twice its threads, so the next is ready
        # when one ends. The others wait with their bodies unread (a 100 KB check decoded holds ~1 MB: 1,000
        # of them waiting for the 2 fast threads held ~900 MB; docs/service.md)
        self.decoding = {True: anyio.Semaphore(2 * fast_threads), False: anyio.Semaphore(2 * workers)}

    def authorise(self, request: Request) -> None:
        if self.auth is None:
            return
        header = request.headers.get("authorization")
        problem = self.auth._authorised([("authorization", header)] if header is not None else [])
        if problem is not None:
            raise api.ApiError(api.grpc.StatusCode.UNAUTHENTICATED, problem)

    def handler(self, route: api.ApiRoute):
        """The route's handler: the servicer's plain method (the one its gRPC method calls) with the request's
        deadline, or with its Caller for a route of a service that reads who calls (api.CALLER_SERVICES), in a
        thread of the route's pool; a refusal answered from the one table (errors.answer_of)."""
        method = getattr(self.servicers[route.service], api.JSON_ANSWERS.get(route.rpc) or plain_name(route.rpc))
        fields = api.path_fields(route.path)
        limiter = self.fast_limiter if route.fast else self.limiter
        with_caller = route.service in api.CALLER_SERVICES

        async def handle(request: Request) -> Response:
            if route.body:
                async with self.decoding[route.fast]:
                    return await answer(request)
            return await answer(request)

        async def answer(request: Request) -> Response:
            try:
                self.authorise(request)
                deadline = _deadline(request)
                argument = _caller(request, deadline) if with_caller else deadline
                if route.body:
                    data = await read_json_body(request, self.limits.max_message_bytes)
                elif route.query:
                    data = api.from_query(route.request, request.query_params.multi_items())
                else:
                    data = {}
                api.bind_path(data, route.request, {f: request.path_params[f] for f in fields})
                message = api.to_message(data, route.request, "query" if route.query else "body")
                answer = await anyio.to_thread.run_sync(_plain_answer, method, message, argument, limiter=limiter)
                return Response(api.dumps(answer), media_type=JSON)
            except api.ApiError as exc:
                return api.error_response(exc)
            except Exception as exc:  # noqa: BLE001 - a refusal, or a bug (INTERNAL, logged rate-limited)
                return api.refusal_response(exc)

        handle.__name__ = route.rpc
        return handle

    def close_streams(self, timeout: float = 5.0) -> None:
        """The server stops: every event stream ends (within the servicer's poll), new ones are refused;
        waits up to `timeout` s for their threads to end."""
        deadline = time.monotonic() + timeout
        with self.streams_lock:
            self.closing = True
            for stop in self.streams:
                stop.set()
            if self.streams:  # each stream's watcher would wait out its poll before seeing its stop
                self.servicers["session"].games.watchers.wake_all()
            # a stream admitted just now gets its thread started after this: wait for every stream
            # to end, then join each thread that ran one (a thread ends right after its stream)
            self.streams_ended.wait_for(lambda: not self.streams, timeout)
            pumps = list(self.pumps)
        for thread in pumps:
            thread.join(max(0.0, deadline - time.monotonic()))

    async def watch_game(self, request: Request) -> Response:
        """WatchGame as Server-Sent Events: one `data:` line per WatchGameResponse (proto3 JSON), its
        version as the event id (a reconnecting EventSource's Last-Event-ID resumes after it), the history
        first; a `: heartbeat` comment every `heartbeat` s; an error after the start as `event: rpc-error`."""
        servicer = self.servicers["session"]
        try:
            message, caller = await self._watch_request(request, servicer)
            stop = self._admit_stream(client_address(_peer_of(request)), message.game_id)
        except api.ApiError as exc:
            return api.error_response(exc)
        except Exception as exc:  # noqa: BLE001
            return api.refusal_response(exc)
        queue: asyncio.Queue = asyncio.Queue()
        put = _threadsafe_put(asyncio.get_running_loop(), queue, stop)
        thread = threading.Thread(target=self._pump_events,
                                  args=(servicer, message, caller, stop, put),
                                  name="lexicon-http-watch", daemon=True)
        with self.streams_lock:
            self.pumps = {t for t in self.pumps if t.is_alive()}
            self.pumps.add(thread)
        thread.start()
        return StreamingResponse(self._sse_events(queue, stop), media_type=api.SSE,
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    async def _watch_request(self, request: Request, servicer):
        """(WatchGameRequest, its Caller) of a watch request, authorised; the game and the token checked
        before the stream starts, so that they get an HTTP status."""
        self.authorise(request)
        data = api.from_query(session_pb2.WatchGameRequest, request.query_params.multi_items())
        last_id = request.headers.get("last-event-id", "").strip()
        if last_id and "after_version" not in data and "afterVersion" not in data:
            if not last_id.isdecimal():
                raise api.invalid(f"Last-Event-ID: {last_id!r} is not a version number")
            data["after_version"] = last_id
        api.bind_path(data, session_pb2.WatchGameRequest, {"game_id": request.path_params["game_id"]})
        message = api.to_message(data, session_pb2.WatchGameRequest, "query")
        caller = _caller(request, None)
        await anyio.to_thread.run_sync(servicer.get_game, session_pb2.GetGameRequest(game_id=message.game_id),
                                       caller, limiter=self.limiter)
        return message, caller

    def _admit_stream(self, client: str, game_id: str) -> threading.Event:
        """A new event stream's stop event, counted among the open streams (and the client's and the
        game's); refused while stopping or full."""
        stop = threading.Event()
        with self.streams_lock:
            if self.closing:
                raise api.ApiError(api.grpc.StatusCode.UNAVAILABLE, "the server is stopping")
            if len(self.streams) >= self.max_streams:
                raise api.ApiError(api.grpc.StatusCode.RESOURCE_EXHAUSTED,
                                   f"too many event streams open (max {self.max_streams})")
            refusal = self.stream_quota.admit(client, game_id)
            if refusal is not None:
                raise api.ApiError(api.grpc.StatusCode.RESOURCE_EXHAUSTED, refusal)
            self.streams.add(stop)
            self.stream_keys[stop] = (client, game_id)
        return stop

    def _pump_events(self, servicer, message, caller: Caller, stop: threading.Event, put) -> None:
        """In a thread of its own: the servicer's WatchGame events put on the stream's queue while the stream
        is open (`stop` not set), then None (the end) or the refusal; the stream is no longer counted open when
        it returns."""
        try:
            for event in servicer.watch_game(message, caller, lambda: not stop.is_set()):
                if stop.is_set():
                    break
                put(event)
            put(None)
        except Exception as exc:  # noqa: BLE001 - a refusal, or INTERNAL (logged rate-limited)
            put(api.refusal(exc)[0])
        finally:
            with self.streams_lock:
                self.streams.discard(stop)
                key = self.stream_keys.pop(stop, None)
                if key is not None:
                    self.stream_quota.release(*key)
                self.streams_ended.notify_all()

    async def _sse_events(self, queue: asyncio.Queue, stop: threading.Event):
        """The stream's body: each queued event as an SSE event, a heartbeat when none came for a while."""
        try:
            while True:
                try:
                    item = await asyncio.wait_for(queue.get(), self.heartbeat)
                except asyncio.TimeoutError:
                    yield b": heartbeat\n\n"
                    continue
                if item is None:
                    return
                if isinstance(item, api.ApiError):
                    yield api.sse_event(item.body(), event="rpc-error")
                    return
                yield api.sse_event(item, event_id=item.version)
        finally:
            stop.set()  # the client went away, or the stream ended: the thread ends within a poll

    async def view_game(self, request: Request) -> Response:
        async with self.decoding[False]:
            return await self._view_game(request)

    async def _view_game(self, request: Request) -> Response:
        try:
            self.authorise(request)
            deadline = _deadline(request)
            data = await read_json_body(request, self.limits.max_message_bytes)
            message = api.to_message(data, game_pb2.ReplayGameRequest)
            game = self.servicers["game"]
            answer = await anyio.to_thread.run_sync(view_game, game.registry, game.limits, message, deadline,
                                                    limiter=self.limiter)
            return Response(api.dumps(answer), media_type=JSON)
        except api.ApiError as exc:
            return api.error_response(exc)
        except Exception as exc:  # noqa: BLE001
            return api.refusal_response(exc)


def create_app(registry, *, limits: Limits | None = None, tokens=(), workers: int = 8, fast_threads: int = 2,
               is_serving=None, servicers: dict | None = None, max_streams: int = 64,
               stream_quota: StreamQuota | None = None,
               heartbeat: float = 15.0, allowed_hosts: HostAllowList | None = None, cors_origins=(),
               service_health=None) -> Starlette:
    """The app over `registry`. `is_serving()` (default: the lexicons are loaded) drives /healthz.
    `service_health(name)` ("SERVING", "NOT_SERVING", None for an unknown name; the gRPC server's
    LexiconServer.health_status) answers /healthz?service=<name>, as grpc.health.v1 Check does.
    `servicers` adds servicers by the name api.ApiRoute.service gives them ("session": the game sessions,
    with their event stream: at most `max_streams` open, and `stream_quota`'s bounds per client address and
    per game (default server.stream_quota's), a heartbeat every `heartbeat` s).
    `allowed_hosts`: the Host names answered (default: localhost, 127.0.0.1, [::1]; serve passes
    HostAllowList.for_address of its --http host); `cors_origins`: the origins whose pages may call the
    API (default none: CORS off). `app.state.close_streams()` ends the event streams (HttpServer.stop calls it)."""
    limits = limits or Limits()
    servicers = {"lexicon": LexiconServicer(registry, limits), "game": GameServicer(registry, limits),
                 **(servicers or {})}
    state = _Api(servicers, limits, list(tokens), workers, fast_threads, max_streams, heartbeat, stream_quota)
    routes = [Route(r.path, state.handler(r), methods=[r.method])
              for r in (*api.ROUTES, *api.SESSION_ROUTES, *api.TOURNAMENT_ROUTES)
              if r.service in servicers]
    if "session" in servicers:
        routes.append(Route(api.WATCH_PATH, state.watch_game, methods=["GET"]))
    routes.append(Route("/v1/games:view", state.view_game, methods=["POST"]))
    openapi = api.dumps(build_openapi())
    serving = is_serving or (lambda: registry.ready)

    async def openapi_json(request: Request) -> Response:
        return Response(openapi, media_type=JSON)

    async def healthz(request: Request) -> Response:
        service = request.query_params.get("service")
        if service is not None and service_health is not None:
            status = service_health(service)
            if status is None:
                return JSONResponse({"status": "SERVICE_UNKNOWN"}, status_code=404)
            return JSONResponse({"status": status}, status_code=200 if status == "SERVING" else 503)
        ok = serving()
        return JSONResponse({"status": "SERVING" if ok else "NOT_SERVING"}, status_code=200 if ok else 503)

    def page(name: str):
        content = inline_page(name)
        headers = {"Cache-Control": "no-cache", "Content-Security-Policy": page_policy(content.decode("utf-8"))}

        async def serve_page(request: Request) -> Response:
            return Response(content, media_type="text/html; charset=utf-8", headers=headers)
        return serve_page

    async def service_worker(request: Request) -> Response:
        # the worker runs under this policy: it fetches (and caches) the pages of this origin
        return FileResponse(str(STATIC / "sw.js"), media_type="text/javascript; charset=utf-8",
                            headers={"Cache-Control": "no-cache",
                                     "Content-Security-Policy": "default-src 'none'; connect-src 'self'"})

    async def home(request: Request) -> Response:
        return RedirectResponse("/judge")

    routes += [
        Route("/openapi.json", openapi_json, methods=["GET"]),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/sw.js", service_worker, methods=["GET"]),
        Route("/", home, methods=["GET"]),
        *(Route(path, page(name), methods=["GET"]) for path, name in PAGES.items()),
        Route("/t/{tournament_id}", page("tournament.html"), methods=["GET"]),  # a tournament's standings
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    async def http_error(request: Request, exc: HTTPException) -> Response:
        code = {404: api.grpc.StatusCode.NOT_FOUND, 405: api.grpc.StatusCode.UNIMPLEMENTED}.get(
            exc.status_code, api.grpc.StatusCode.INVALID_ARGUMENT)
        body = {"error": {"code": exc.status_code, "status": code.name,
                          "message": f"{request.method} {request.url.path}: {exc.detail}"}}
        return Response(api.dumps(body), status_code=exc.status_code, media_type=JSON, headers=exc.headers)

    # outermost first: every answer (a refused Host's too) gets the security headers
    middleware = [Middleware(SecurityHeaders), Middleware(AllowedHosts, allow_list=allowed_hosts or HostAllowList()),
                  *cors_middleware(cors_origins)]
    app = Starlette(routes=routes, middleware=middleware, exception_handlers={HTTPException: http_error})
    app.state.close_streams = state.close_streams
    return app
