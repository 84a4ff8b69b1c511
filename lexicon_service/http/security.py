"""What keeps the JSON API and the pages to the clients meant to use them (docs/service.md,
"Browsers: Host, Content-Type, CORS, security headers"):

* `require_json`: a request body must be declared `application/json`. A browser sends a cross-site
  request without asking the server first (no CORS preflight) only with a text/plain, form or multipart
  body, so a page of another site can no longer create games or check words through a user's browser.
* `HostAllowList` / `AllowedHosts`: the `Host` header must name this server (DNS rebinding: a name the
  attacker controls, pointed at 127.0.0.1, would make the server same-origin with the attacker's page).
* `SecurityHeaders`: nosniff, no framing, no referrer, and a Content-Security-Policy on every answer;
  the pages get one that admits exactly their own inline scripts and styles (`page_policy`).
* CORS is Starlette's CORSMiddleware, off unless origins are given (`cors_middleware`).
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import re
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware

from lexicon_service.http import api

JSON = "application/json"
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
WILDCARD_BINDS = ("", "0.0.0.0", "::")  # listening on every address of the machine
UNSUPPORTED_MEDIA_TYPE = 415


def require_json(content_type: str | None) -> None:
    """Refuses (415) a body not declared `application/json`; a charset parameter may say utf-8 (the
    body is read as UTF-8, so another charset would be misread)."""
    media_type, _, parameters = (content_type or "").partition(";")
    charsets = [value.strip().strip('"').lower() for name, _, value in (p.partition("=") for p in parameters.split(";"))
                if name.strip().lower() == "charset"]
    if media_type.strip().lower() != JSON or any(c not in ("utf-8", "utf8") for c in charsets):
        shown = repr(content_type) if content_type is not None else "missing"
        raise api.ApiError(api.grpc.StatusCode.INVALID_ARGUMENT,
                           f"Content-Type: {shown}; the body must be sent as {JSON} (in UTF-8)",
                           http_status=UNSUPPORTED_MEDIA_TYPE)


# --- Host -------------------------------------------------------------------------------------------------
_NAME = re.compile(r"[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?")


def host_name(host: str) -> str | None:
    """The name of a Host header value (lowercase; an IPv6 address in brackets), without its port;
    None when it is no host[:port]."""
    host = host.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        name, rest = host[:end + 1], host[end + 1:]
        if end < 0 or not _is_ip(name[1:-1]) or ":" not in name:
            return None
    else:
        name, colon, port = host.partition(":")
        rest = colon + port
        if not _NAME.fullmatch(name):
            return None
    if rest and not (rest[0] == ":" and rest[1:].isascii() and rest[1:].isdecimal()):
        return None
    return name


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class HostAllowList:
    """The names a request's Host may give: exact names, `*.example.com` (its subdomains), or `*` (any).
    The port is not compared: DNS rebinding changes the name, and a proxy may change the port.
    `any_ip_address`: also every IP address literal (a rebinding attack needs a name, so an address
    is safe; the default of a server listening on every address, reached by whichever one)."""

    names: tuple[str, ...] = LOOPBACK_NAMES
    any_ip_address: bool = False

    @classmethod
    def for_address(cls, host: str) -> "HostAllowList":
        """The default for a server listening on `host` (the host part of --http): that host, localhost,
        127.0.0.1 and [::1]; listening on every address, also the machine's names and any IP address."""
        host = host.strip("[]").lower()
        if host in WILDCARD_BINDS:
            machine = {socket.gethostname().lower(), socket.getfqdn().lower()}
            return cls(tuple(dict.fromkeys((*LOOPBACK_NAMES, *sorted(n for n in machine if n)))), True)
        own = f"[{host}]" if ":" in host else host
        return cls(tuple(dict.fromkeys((own, *LOOPBACK_NAMES))))

    @classmethod
    def parse(cls, text: str) -> "HostAllowList":
        """A comma-separated list (--http-allowed-hosts); ValueError names a bad item."""
        names = []
        for item in (part.strip().lower() for part in text.split(",")):
            if not item:
                continue
            if item == "*" or (item.startswith("*.") and host_name(item[2:]) == item[2:]):
                names.append(item)
                continue
            name = host_name(item)
            if name is None or "*" in item:
                raise ValueError(f"{item!r} is not a host name, an IP address, *.domain or *")
            if name != item:
                raise ValueError(f"{item!r}: give the name without the port (the port is not compared)")
            names.append(name)
        if not names:
            raise ValueError("no host given (give * to admit any Host)")
        return cls(tuple(dict.fromkeys(names)))

    def admits(self, host: str | None) -> bool:
        name = host_name(host) if host is not None else None
        if name is None:
            return False
        if self.any_ip_address and _is_ip(name):
            return True
        return any(pattern == "*" or name == pattern or (pattern.startswith("*.") and name.endswith(pattern[1:]))
                   for pattern in self.names)


class AllowedHosts:
    """ASGI middleware: a request whose Host the allow-list does not admit gets 400 INVALID_ARGUMENT
    naming the header, in the API's error format. (Starlette's TrustedHostMiddleware answers in plain
    text and cannot admit every IP address literal.)"""

    def __init__(self, app, allow_list: HostAllowList) -> None:
        self.app = app
        self.allow_list = allow_list

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            host = Headers(scope=scope).get("host")
            if not self.allow_list.admits(host):
                shown = repr(host) if host is not None else "missing"
                error = api.ApiError(api.grpc.StatusCode.INVALID_ARGUMENT,
                                     f"Host: {shown} is not a name this server answers to "
                                     "(serve --http-allowed-hosts)")
                await api.error_response(error)(scope, receive, send)
                return
        await self.app(scope, receive, send)


# --- CORS -------------------------------------------------------------------------------------------------
# What a page of an allowed origin may send and read: the headers the API reads and sends back.
CORS_METHODS = ("GET", "POST")
CORS_REQUEST_HEADERS = ("Authorization", "Content-Type", "X-Game-Token", "X-Server-Timeout", "Last-Event-ID")
CORS_EXPOSED_HEADERS = ("lexicon-reason", "lexicon-version", "lexicon-values")


def parse_origins(text: str) -> tuple[str, ...]:
    """A comma-separated list of origins (--http-cors-origins): `scheme://host[:port]`, or `*` for any;
    ValueError names a bad item."""
    origins = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        if item == "*":
            origins.append(item)
            continue
        parts = urlsplit(item)
        try:
            parts.port  # noqa: B018 - raises on a bad port
        except ValueError:
            raise ValueError(f"{item!r}: bad port") from None
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname or parts.username is not None \
                or parts.path or parts.query or parts.fragment or item.endswith(("?", "#")):
            raise ValueError(f"{item!r} is not an origin (scheme://host[:port], no path) or *")
        origins.append(f"{parts.scheme.lower()}://{parts.netloc.lower()}")  # as a browser sends Origin
    if not origins:
        raise ValueError("no origin given")
    return tuple(dict.fromkeys(origins))


def cors_middleware(origins) -> list[Middleware]:
    """CORSMiddleware for `origins` (none: no CORS; a cross-origin page cannot read answers or send JSON).
    Tokens travel in headers, never cookies, so credentials stay off."""
    if not origins:
        return []
    return [Middleware(CORSMiddleware, allow_origins=list(origins), allow_methods=CORS_METHODS,
                       allow_headers=CORS_REQUEST_HEADERS, expose_headers=CORS_EXPOSED_HEADERS, max_age=600)]


# --- security headers -------------------------------------------------------------------------------------
# Answers other than pages (JSON, files) are never documents: nothing may load, nothing may frame them.
API_POLICY = "default-src 'none'; frame-ancestors 'none'"
SECURITY_HEADERS = (
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
    # a page opened as /judge?token=... must not send the token to where a link leads
    ("referrer-policy", "no-referrer"),
    ("cross-origin-resource-policy", "same-origin"),
)
_INLINE = re.compile(r"<(script|style)>(.*?)</\1>", re.DOTALL)


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def page_policy(html: str) -> str:
    """A page's Content-Security-Policy: its own inline scripts and styles (by hash) and nothing else;
    the API and the service worker of this origin; images of this origin and data: URLs (the favicon,
    the game viewer's PNG export); no framing, no plugins, no <base>."""
    scripts = [_hash(body) for tag, body in _INLINE.findall(html) if tag == "script"]
    styles = [_hash(body) for tag, body in _INLINE.findall(html) if tag == "style"]
    return "; ".join((
        "default-src 'none'",
        "script-src " + (" ".join(dict.fromkeys(scripts)) or "'none'"),
        "style-src " + (" ".join(dict.fromkeys(styles)) or "'none'"),
        "img-src 'self' data:",
        "connect-src 'self'",
        "worker-src 'self'",
        "manifest-src 'self'",
        "form-action 'self'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    ))


class SecurityHeaders:
    """ASGI middleware: SECURITY_HEADERS on every answer, and API_POLICY unless the answer has its own."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", ()))
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS:
                    headers.setdefault(name, value)
                headers.setdefault("content-security-policy", API_POLICY)
            await send(message)

        await self.app(scope, receive, send_with_headers)
