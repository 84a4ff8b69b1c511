"""The application layer: what the service does, as plain functions over plain values.

The gRPC servicers (lexicon_service/server), the HTTP routes (lexicon_service/http) and the CLI are
adapters over it: they read their own request format, call these functions and write the answer in
their own format. Errors are the domain errors of lexicon_service/server/errors.py (each client
mistake names its request field); errors.py maps them to gRPC statuses and HTTP codes, in one place.
"""
