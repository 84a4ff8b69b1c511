"""What every command line of the package shares: the `lexicon-service` subcommands (lexicon_service/
commands/) and `lexicon-build`.

Errors caused by the user's input never show a traceback: `run_reporting_errors` turns a `UserError`,
an `OSError`, a decoding error or a `ValueError` into one line ``PROG: error: ...`` and exit status 2.
Input text files and standard input are read as UTF-8 with an optional byte-order mark (`read_text`,
`text_lines`); argument types for durations and whole numbers in a request field's range.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from typing import Callable, Iterable, Iterator


class UserError(Exception):
    """An error caused by the user's input: printed as one line, exit status 2, no traceback."""


# Raised by user input (bad files, paths, values); anything else is a bug and keeps its traceback.
USER_ERRORS = (UserError, OSError, UnicodeError, ValueError)
MAX_MESSAGE = 500


def error_line(exc: BaseException) -> str:
    """One printable line describing an input error (an OSError names its file)."""
    if isinstance(exc, OSError):
        reason = exc.strerror or str(exc)
        files = [f for f in (exc.filename, exc.filename2) if f is not None]
        text = f"{' -> '.join(map(str, files))}: {reason}" if files else reason
    elif isinstance(exc, UnicodeDecodeError):
        text = f"not {exc.encoding.upper()} text (byte {exc.object[exc.start]:#04x} at offset {exc.start})"
    else:
        text = str(exc) or type(exc).__name__
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in " ".join(text.split()))
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE] + "..."


def _silence_stdout() -> None:
    """After a broken pipe, stop Python's exit-time flush from reporting it again."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def run_reporting_errors(prog: str, func: Callable[..., int | None], *args) -> int:
    """``func(*args)``'s exit status; an input error is one line on stderr and status 2."""
    try:
        return int(func(*args) or 0)
    except BrokenPipeError:  # e.g. `dump | head`
        _silence_stdout()
        return 0
    except USER_ERRORS as exc:
        print(f"{prog}: error: {error_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130


def _decode_line(raw: bytes, name: str, lineno: int) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"{name}:{lineno}: not UTF-8 text (byte {raw[exc.start]:#04x} at column "
                        f"{exc.start + 1})") from None


def text_lines(stream: Iterable, name: str) -> Iterator[str]:
    """Lines (ends stripped) of a binary or text stream of UTF-8; a byte-order mark is dropped and
    an undecodable line is a `UserError` naming ``name:line``."""
    for lineno, line in enumerate(stream, 1):
        if isinstance(line, bytes):
            line = _decode_line(line, name, lineno)
        if lineno == 1:
            line = line.removeprefix("\ufeff")
        yield line.rstrip("\r\n")


def seconds(text: str, *, zero_ok: bool = False) -> float:
    """A command-line duration: a finite number of seconds, more than 0 (or 0 itself with
    ``zero_ok``) and less than 1e9 (grpc fails inf, nan and negative deadlines at once as
    DEADLINE_EXCEEDED, which reads like a slow server; a huge grace period overflows time_t)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    low_ok = value >= 0 if zero_ok else value > 0
    if not (low_ok and value < 1e9) or math.isnan(value):
        raise argparse.ArgumentTypeError(f"must be {'0 or more' if zero_ok else 'more than 0'} and less than "
                                         f"1e9, not {text}")
    return value


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from `low` to `high` (a request field's range; beyond it the
    message could not be built, and the error named no option)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text[:40]!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low:,} to {high:,}, not {text[:40]}")
        return value

    parse.__name__ = "whole number"
    return parse


UINT32, INT32, UINT64 = (0, 2**32 - 1), (-2**31, 2**31 - 1), (0, 2**64 - 1)


def check_token(token: str, where: str) -> str:
    """A token travels in an HTTP header: visible ASCII only (grpc refuses anything else with an INTERNAL
    'Invalid metadata' and a line of its C core on stderr)."""
    if not all("!" <= c <= "~" for c in token):
        raise UserError(f"{where}: a token is visible ASCII characters without spaces")
    return token


MAX_INPUT_BYTES = 16 << 20   # a board, rack or game record read whole is far smaller; /dev/zero is not


def read_input(path: str) -> bytes | str:
    """A whole input file ('-' = standard input) of at most MAX_INPUT_BYTES (a `UserError` beyond)."""
    name = "<stdin>" if path == "-" else path
    limit = MAX_INPUT_BYTES
    try:
        if path == "-":
            stream = getattr(sys.stdin, "buffer", sys.stdin)
            data = stream.read(limit + 1)
        else:
            with open(path, "rb") as fh:
                data = fh.read(limit + 1)
    except OSError as exc:
        raise UserError(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise UserError(f"{name}: larger than {limit:,} bytes; not an input of this command")
    return data


def read_text(path: str) -> str:
    """A whole UTF-8 text file ('-' = standard input), without its byte-order mark."""
    name = "<stdin>" if path == "-" else path
    data = read_input(path)
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        lineno = data.count(b"\n", 0, exc.start) + 1
        raise UserError(f"{name}:{lineno}: not UTF-8 text (byte {data[exc.start]:#04x})") from None


def message_json(message, indent: int | None = 2) -> str:
    """An API answer (a protobuf message) as `--json` prints it, in the local commands and the client
    (indent=None: on one line, as the client prints a stream's events)."""
    # here, not at the top: json_format is slow to import (docs/development.md) and every command line imports
    # this module
    from google.protobuf import json_format

    as_dict = json_format.MessageToDict(message)
    _sort_map_fields(as_dict, message.DESCRIPTOR)
    return json.dumps(as_dict, ensure_ascii=False, indent=indent)


def _sort_map_fields(as_dict: dict, descriptor) -> None:
    """Puts the keys of every map field of `as_dict` (a message as MessageToDict gives it) in sorted order: a
    protobuf map iterates in an order that differs between processes, and the same answer must print the same."""
    for field in descriptor.fields:
        value = as_dict.get(field.json_name)
        if value is None or field.message_type is None:
            continue
        if field.message_type.GetOptions().map_entry:
            entry_value = field.message_type.fields_by_name["value"].message_type
            as_dict[field.json_name] = value = dict(sorted(value.items()))
            items = value.values() if entry_value is not None else ()
            descriptor_of_items = entry_value
        else:
            items = value if isinstance(value, list) else (value,)
            descriptor_of_items = field.message_type
        for item in items:
            if isinstance(item, dict):
                _sort_map_fields(item, descriptor_of_items)
