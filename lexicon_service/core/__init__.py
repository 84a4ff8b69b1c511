"""The core: what the service does, as plain functions over plain values, knowing no transport.

Word checks, explanations and searches (`words.py`, `search.py`), replay, analysis and the game viewer
(`plays.py`), the loaded lexicons (`registry.py`) and the bounds of a request (`limits.py`). The gRPC
servicers (lexicon_service/server), the HTTP routes (lexicon_service/http) and the CLI are adapters over
it: they read their own request format, call these functions and write the answer in their own format.
Errors are those of lexicon_service/errors.py (each client mistake names its request field), answered
from its one table by every transport.
"""
