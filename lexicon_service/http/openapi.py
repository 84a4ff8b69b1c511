"""/openapi.json, generated from the route table and the proto descriptors, so it cannot drift from
the messages: each schema is the proto3 JSON mapping of one message (lowerCamelCase names, enums as
names, int64 as strings, google.protobuf.Struct as an object)."""

from __future__ import annotations

from google.protobuf.descriptor import FieldDescriptor

from lexicon_service.grpc_gen import game_pb2, session_pb2
from lexicon_service.http import api

_SCALARS = {
    FieldDescriptor.TYPE_STRING: {"type": "string"},
    FieldDescriptor.TYPE_BOOL: {"type": "boolean"},
    FieldDescriptor.TYPE_INT32: {"type": "integer", "format": "int32"},
    FieldDescriptor.TYPE_SINT32: {"type": "integer", "format": "int32"},
    FieldDescriptor.TYPE_UINT32: {"type": "integer", "format": "int32"},
    FieldDescriptor.TYPE_INT64: {"type": "string", "format": "int64"},
    FieldDescriptor.TYPE_UINT64: {"type": "string", "format": "int64"},
    FieldDescriptor.TYPE_DOUBLE: {"type": "number"},
    FieldDescriptor.TYPE_FLOAT: {"type": "number"},
    FieldDescriptor.TYPE_BYTES: {"type": "string", "format": "byte"},
}


def _schema_name(descriptor) -> str:
    return descriptor.full_name.replace("lexicon.v1.", "")


def _field_schema(fd, schemas: dict) -> dict:
    if fd.type == FieldDescriptor.TYPE_MESSAGE:
        if fd.message_type.full_name == "google.protobuf.Struct":
            item = {"type": "object", "additionalProperties": True}
        else:
            _add_message(fd.message_type, schemas)
            item = {"$ref": f"#/components/schemas/{_schema_name(fd.message_type)}"}
    elif fd.type == FieldDescriptor.TYPE_ENUM:
        item = {"type": "string", "enum": [v.name for v in fd.enum_type.values]}
    else:
        item = dict(_SCALARS[fd.type])
    if fd.is_repeated:
        return {"type": "array", "items": item}
    return item


def _add_message(descriptor, schemas: dict) -> str:
    name = _schema_name(descriptor)
    if name not in schemas:
        schemas[name] = {}  # placeholder against recursion
        schemas[name] = {"type": "object", "properties": {
            fd.json_name: _field_schema(fd, schemas) for fd in descriptor.fields}}
    return name


def _response_descriptor(route: api.ApiRoute):
    if route.response is not None:
        return route.response.DESCRIPTOR
    for service in route.request.DESCRIPTOR.file.services_by_name.values():
        if route.rpc in service.methods_by_name:
            return service.methods_by_name[route.rpc].output_type
    raise LookupError(f"{route.rpc}: no such rpc beside {route.request.DESCRIPTOR.full_name}; give the route a response")


_DESCRIPTION = (
    "The gRPC services lexicon.v1.LexiconService, lexicon.v1.GameService, "
    "lexicon.v1.GameSessionService and lexicon.v1.TournamentService over HTTP/JSON (proto3 JSON mapping). "
    "Errors carry the gRPC status code name and message. Game calls take the game token as "
    "`Authorization: Bearer`, or as `X-Game-Token` when the server has tokens of its own; a tournament's "
    "director calls take its director key as `X-Director-Key`. A request body must be sent as "
    "`Content-Type: application/json` (else 415); the `Host` header must name the server (else 400; "
    "`serve --http-allowed-hosts`). Cross-origin calls from web pages (CORS) are refused unless the "
    "server lists the page's origin (`serve --http-cors-origins`). Every answer carries "
    "X-Content-Type-Options, X-Frame-Options, Referrer-Policy and Content-Security-Policy headers.")


def build_openapi() -> dict:
    schemas: dict = {
        "Error": {"type": "object", "required": ["error"], "properties": {"error": {
            "type": "object", "required": ["code", "status", "message"], "properties": {
                "code": {"type": "integer", "description": "the HTTP status"},
                "status": {"type": "string", "description": "the gRPC status code name, e.g. INVALID_ARGUMENT"},
                "message": {"type": "string", "description": "the gRPC status message, e.g. 'words[3]: empty word'"},
            }}}},
    }
    errors, body_errors = _error_responses()
    timeout = _timeout_header()
    paths: dict = {}
    # every route, served or not: the API's description
    for route in (*api.ROUTES, *api.SESSION_ROUTES, *api.TOURNAMENT_ROUTES):
        operation = _route_operation(route, schemas, timeout, body_errors if route.body else errors)
        paths.setdefault(route.path, {})[route.method.lower()] = operation
    paths["/v1/games:view"] = {"post": _view_game_operation(schemas, timeout, body_errors)}
    paths[api.WATCH_PATH] = {"get": _watch_game_operation(schemas, errors)}
    return {
        "openapi": "3.0.3",
        "info": {"title": "czpl-lexicon JSON API", "version": "v1", "description": _DESCRIPTION},
        "paths": paths,
        "components": {"schemas": schemas, "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
        "security": [{}, {"bearer": []}],
    }


def _error_response(description: str) -> dict:
    return {"description": description, "content": {
        "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def _error_responses() -> tuple[dict, dict]:
    """The error answers of a route without a body, and of one with a body (also 415)."""
    errors = {str(status): _error_response(code.name) for code, status in (
        (api.grpc.StatusCode.INVALID_ARGUMENT, 400), (api.grpc.StatusCode.UNAUTHENTICATED, 401),
        (api.grpc.StatusCode.NOT_FOUND, 404), (api.grpc.StatusCode.RESOURCE_EXHAUSTED, 429),
        (api.grpc.StatusCode.UNAVAILABLE, 503), (api.grpc.StatusCode.DEADLINE_EXCEEDED, 504))}
    errors["400"]["description"] += " (also a Host header this server does not answer to)"
    body_errors = {**errors, "415": _error_response(
        "INVALID_ARGUMENT: the body is not declared Content-Type: application/json (a charset parameter may "
        "say utf-8); every route with a body requires it, even for an empty one")}
    return errors, body_errors


def _timeout_header() -> dict:
    return {"name": "X-Server-Timeout", "in": "header", "required": False,
            "description": "seconds the call may take (its deadline, as a gRPC timeout); 0: the deadline has "
                           "passed, 504 DEADLINE_EXCEEDED without any work; leave out for no deadline",
            "schema": {"type": "number", "minimum": 0}}


def _route_operation(route: api.ApiRoute, schemas: dict, timeout: dict, errors: dict) -> dict:
    """One route of the table: its parameters (path, query, timeout), body, answer and errors."""
    request_name = _add_message(route.request.DESCRIPTOR, schemas)
    response_name = _add_message(_response_descriptor(route), schemas)
    path_names = api.path_fields(route.path)
    parameters = [{"name": n, "in": "path", "required": True, "schema": {"type": "string"}} for n in path_names]
    if route.query:
        for fd in route.request.DESCRIPTOR.fields:
            if fd.name not in path_names:
                parameters.append({"name": fd.name, "in": "query", "required": False,
                                   "schema": _field_schema(fd, schemas)})
    parameters.append(timeout)
    operation = {
        "operationId": route.rpc,
        "summary": route.summary,
        "parameters": parameters,
        "responses": {"200": {"description": "OK", "content": {"application/json": {
            "schema": {"$ref": f"#/components/schemas/{response_name}"}}}}, **errors},
    }
    if route.body:
        operation["requestBody"] = {"required": True, "description": (
            f"{request_name} in the proto3 JSON mapping; the path's {', '.join(path_names)} may be left out"
            if path_names else f"{request_name} in the proto3 JSON mapping"),
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{request_name}"}}}}
    return operation


def _view_game_operation(schemas: dict, timeout: dict, body_errors: dict) -> dict:
    """The game viewer's call (HTTP only), with its GameView schema."""
    request_name = _add_message(game_pb2.ReplayGameRequest.DESCRIPTOR, schemas)
    response_name = _add_message(game_pb2.ReplayGameResponse.DESCRIPTOR, schemas)
    _add_message(game_pb2.ScoreMoveResponse.DESCRIPTOR, schemas)
    schemas["GameView"] = {"type": "object", "properties": {
        "replay": {"$ref": f"#/components/schemas/{response_name}"},
        "layout": {"type": "object", "description": "rows, columns, premiums (row-major names: DL, TL, DW, TW, "
                   "or empty), start square, tile points", "additionalProperties": True},
        "steps": {"type": "array", "description": "one per replay line: the board after it, for a play its "
                  "ScoreMove breakdown, and the record's #note lines of that event (a server-held game notes a "
                  "director's score adjustment so)", "items": {"type": "object", "properties": {
                      "board": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
                      "move": {"allOf": [{"$ref": "#/components/schemas/ScoreMoveResponse"}], "nullable": True},
                      "recordNotes": {"type": "array", "items": {"type": "string"}}}}},
    }}
    return {
        "operationId": "ViewGame",
        "summary": "The game viewer's call: ReplayGame plus the board after every line and each play's "
                   "score breakdown (HTTP only).",
        "parameters": [timeout],
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": {"$ref": f"#/components/schemas/{request_name}"}}}},
        "responses": {"200": {"description": "OK", "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/GameView"}}}}, **body_errors},
    }


def _watch_game_operation(schemas: dict, errors: dict) -> dict:
    """WatchGame as Server-Sent Events (HTTP's streaming route)."""
    event_name = _add_message(session_pb2.WatchGameResponse.DESCRIPTOR, schemas)
    return {
        "operationId": "WatchGame",
        "summary": "Every event of the game as it happens, the history first (WatchGame), as Server-Sent Events: "
                   "each event's data is one WatchGameResponse in proto3 JSON and its id the version; a "
                   "`: heartbeat` comment keeps the connection open; an error after the start is an event "
                   "named rpc-error whose data is an Error. Ends when the game ends.",
        "parameters": [
            {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}},
            {"name": "after_version", "in": "query", "required": False, "schema": {"type": "string", "format": "int64"},
             "description": "send events after this version (default 0: the whole history)"},
            {"name": "Last-Event-ID", "in": "header", "required": False, "schema": {"type": "string"},
             "description": "as after_version (a reconnecting EventSource sends it)"}],
        "responses": {"200": {"description": "text/event-stream of WatchGameResponse", "content": {
            api.SSE: {"schema": {"$ref": f"#/components/schemas/{event_name}"}}}}, **errors},
    }
