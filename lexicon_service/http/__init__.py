"""HTTP/JSON API and web pages (word judge, lookup, game viewer) over the gRPC servicers:
`create_app(registry, ...)` and `HttpServer` (see docs/service.md)."""

from lexicon_service.http.app import create_app
from lexicon_service.http.server import HttpServer

__all__ = ["HttpServer", "create_app"]
