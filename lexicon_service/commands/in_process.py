"""The core run in this process, for the local commands (`check`, `explain`, `validate`, `replay`, `moves`,
`analyse`; lexicon_service/core): the lexicons this process opened as a registry snapshot, the bounds a
local run keeps, and the core's errors as the command line names them.

A local command calls the same core function as the gRPC and HTTP servers and builds the same answer
message, so `--json` prints what `client --json` prints for the same input against a server with the
same lexicons.
"""

from __future__ import annotations

import contextlib
import math
from pathlib import Path

from lexicon_service.command_line import MAX_INPUT_BYTES, UserError
from lexicon_service.core.limits import Limits

# Imports inside functions: a subcommand's dependencies load when it runs, not when lexicon-service builds
# its parser, which imports every subcommand's module (startup cost: docs/development.md).

# A local run bounds neither time nor the moves it lists (up to movegen.MAX_LISTED: core.plays.generate asks
# for one more than max_results, to know there were more) and takes any record it can read (cli.read_input's
# bound); words keep the server's bounds, so that a word a server refuses is refused here too.
LIMITS = Limits(max_results=999_999, max_generate_seconds=math.inf, max_gcg_chars=MAX_INPUT_BYTES,
                max_gcg_lines=MAX_INPUT_BYTES)


def snapshot(lexicons=(), rule_sets=(), directory: str = "."):
    """A registry snapshot of lexicons opened by the command (each under its name, as a server names
    it) and rule sets it loaded (ids, or .rules files a server would not read)."""
    from lexicon_service.core.registry import Snapshot

    return Snapshot({lexicon.name: lexicon for lexicon in lexicons}, 0, Path(directory), rule_sets)


@contextlib.contextmanager
def user_errors(options: dict[str, str] | None = None):
    """The app's errors as `UserError`s: a field named in `options` (field -> option) by its option
    ("--rack: 9 tiles; ..."), other fields as the server names them ("words[3]: empty word"), a missing
    move graph by its own message. Other exceptions pass unchanged."""
    from lexicon_service.errors import ServiceError, as_field_error

    try:
        yield
    except Exception as exc:  # noqa: BLE001 - what is not the core's passes unchanged
        from lexicon_service.movegen import MoveGraphMissing

        if isinstance(exc, MoveGraphMissing):
            raise UserError(str(exc)) from None
        field_error = as_field_error(exc)
        if field_error is None:
            if isinstance(exc, ServiceError):
                raise UserError(str(exc)) from None
            raise
        option = (options or {}).get(field_error.field, field_error.field)
        message = field_error.message
        raise UserError(message if message.startswith(f"{option}:") else f"{option}: {message}") from None
