"""The lexicon format, both directions: what ``lexicon-build`` writes and ``lexicon.py`` reads.

Only this module knows the layout, the manifest's format fields and ``files`` entries, the
readings.bin records and tables.json; build_tools imports it (the runtime never imports
build_tools). The bytes of the optional move graph are owned by ``movegen/graph.py``; this module
names the file and delegates to it.

A lexicon is a directory ``NAME.lex/`` (pymorphy2 style), written into a temporary directory and
renamed into place only when complete:

    manifest.json     format, format_version, rule set (with its source text), profile,
                      sources (kind, name, bytes, sha256), counts, builder version, options, and
                      ``files``: the byte size and sha256 of every other file
    forms.marisa      marisa-trie of the tile keys
    headwords.marisa  marisa-trie of the headwords (id -> text with restore_key)
    tables.json       tag strings, rule names, tag sets (lists of [tag id, rule id]); optional
                      "models": {headword: model lemma} for headwords inflected by analogy, Czech
                      and Polish alike (their readings: tag feature GUESSED, rule "guessed"; Czech
                      lexicons of before it named the model in the rule, "guessed:<model>", which
                      explain reads the same way)
    readings.bin      provenance: uint32 offsets[n_forms + 1] indexed by the form's trie id,
                      then uint64 records (headword id << 32 | tag set id), little-endian
    moves.gaddag      optional: the move graph (lexicon_service/movegen/graph.py); a lexicon
                      without it serves checks, and move generation names the command that adds it.
                      Lexicons built before it was named for its format hold it as moves.kwg
                      (the same bytes), which is read the same way
    refused.tsv       optional: the forms the build met and refused by a named rule of the profile
                      (every rule but a catch-all ``*``), and admitted by no reading: one line
                      ``key<TAB>rule<TAB>headword[<TAB>detail]`` each, sorted by their UTF-8 bytes,
                      so that `explain` can say why a word is not in the lexicon; the optional
                      detail says how the headword got the refused tag. Kris Kros refusing the
                      place-name adjective mostecký: ``mostecký\tplace-name-adjective\tmostecký\t``
                      ``place name Most, rule irregular: irregular derivation``

JSON files are written with sorted keys, one-space indent, UTF-8 (not escaped) and a final newline,
so the same content gives the same bytes.

Worked example: a lexicon of the two forms "kot" (trie id 0) and "koty" (trie id 1), the headword
"kot" (headwords trie id 0) and tables.json ::

    {"rules": ["sgjp"], "tags": ["subst:pl:nom:m2", "subst:sg:nom:m2"],
     "tagsets": [[[0, 0]], [[1, 0]]]}

"kot" has one reading (headword 0, tag set 1: tag 1 by rule 0), "koty" one (headword 0, tag set 0),
so readings.bin is offsets [0, 1, 2] then records [0 << 32 | 1, 0 << 32 | 0]: 3 x 4 + 2 x 8 = 28
bytes, ``00000000 01000000 02000000 0100000000000000 0000000000000000`` (hex, little-endian). The
readings of form id i are records[offsets[i]:offsets[i + 1]]. Its ``files`` entry in the manifest
is ``{"bytes": 28, "sha256": "<hex digest of the 28 bytes>"}``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from array import array
from pathlib import Path
from itertools import accumulate

from lexicon_service.movegen import graph, leaves, winprob
from lexicon_service.movegen.graph import FILE_NAME as MOVE_GRAPH
from lexicon_service.movegen.graph import OLD_FILE_NAME as OLD_MOVE_GRAPH
from lexicon_service.movegen.leaves import FILE_NAME as LEAVES
from lexicon_service.movegen.winprob import FILE_NAME as WIN_TABLE

FORMAT = "czpl-lexicon"
FORMAT_VERSION = 1
SUPPORTED_VERSIONS = (1,)
MANIFEST = "manifest.json"
FORMS = "forms.marisa"
HEADWORDS = "headwords.marisa"
TABLES = "tables.json"
READINGS = "readings.bin"
REFUSALS = "refused.tsv"
FILES = (FORMS, HEADWORDS, TABLES, READINGS)
OPTIONAL_FILES = (MOVE_GRAPH, OLD_MOVE_GRAPH, REFUSALS)  # checked like the others when the manifest lists them
# the same, added to a built lexicon (lexicon-build --leaves, --win-table; a --defaults build, or one with
# --leave-games, writes leaves.tsv too)
ADDED_FILES = (LEAVES, WIN_TABLE)
ALL_FILES = frozenset((*FILES, *OPTIONAL_FILES, *ADDED_FILES))
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")

# a readings.bin record: headword id in the high 32 bits, tag set id in the low 32
HEADWORD_SHIFT = 32
TAGSET_MASK = 0xFFFFFFFF


class LexiconError(Exception):
    """Base of every error about a lexicon file."""


class LexiconFormatError(LexiconError):
    """Not a lexicon, or a lexicon of a format/version this program does not read."""


class LexiconCorruptError(LexiconError):
    """A lexicon whose files are truncated, missing or do not match their checksums."""


# --- checksums and files entries ------------------------------------------------------------

def new_checksum():
    """The running checksum of a file's bytes (``update`` as they come, ``hexdigest`` at the end)."""
    return hashlib.sha256()


def checksum(data: bytes) -> str:
    """The checksum of these bytes, as the manifest records it (sha256, hex)."""
    h = new_checksum()
    h.update(data)
    return h.hexdigest()


def file_checksum(path: str | os.PathLike) -> tuple[int, str]:
    """(size, checksum) of a file, read in blocks; OSError as the file system raises it."""
    h = new_checksum()
    size = 0
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
            size += len(block)
    return size, h.hexdigest()


def file_entry(data: bytes) -> dict:
    """A manifest entry of a file with these bytes: its size and checksum."""
    return {"bytes": len(data), "sha256": checksum(data)}


def file_entry_of(path: str | os.PathLike) -> dict:
    """A manifest entry of the file at ``path`` (``file_entry`` of its bytes, read in blocks)."""
    size, sha = file_checksum(path)
    return {"bytes": size, "sha256": sha}


def source_entry(kind: str, path: str | os.PathLike) -> dict:
    """The manifest's ``sources`` entry of a build's input file: its kind, name, size and checksum."""
    return {"kind": kind, "name": Path(path).name, **file_entry_of(path)}


def verify_entry(path: Path, want: dict, sha256: str | None, size: int | None = None) -> None:
    """Check a file's size and checksum (None: the file is missing) against its manifest entry
    ``want``; LexiconCorruptError naming the file if they differ. ``size`` None: the file's own."""
    if sha256 is None:
        raise LexiconCorruptError(f"{path.parent}: missing file {path.name}")
    size = path.stat().st_size if size is None else size
    if size != want.get("bytes"):
        raise LexiconCorruptError(f"{path}: truncated or altered ({size} bytes, manifest says {want.get('bytes')})")
    if sha256 != want.get("sha256"):
        raise LexiconCorruptError(f"{path}: checksum mismatch (sha256 differs from the manifest)")


def verify_files(root: Path, manifest: dict) -> None:
    """Check every file's size and checksum against the manifest (as loading does)."""
    files = listed_files(root, manifest)
    for name in [*FILES, *(n for n in (*OPTIONAL_FILES, *ADDED_FILES) if n in files)]:
        p = root / name
        verify_entry(p, files[name], file_checksum(p)[1] if p.is_file() else None)


def listed_files(root: Path, manifest: dict) -> dict:
    """The manifest's ``files`` (name -> entry): every file of the format, optional ones or no other."""
    files = manifest.get("files")
    if (not isinstance(files, dict) or not set(FILES) <= set(files) <= ALL_FILES
            or not all(isinstance(v, dict) for v in files.values())):
        raise LexiconCorruptError(f"{root}: manifest does not list the lexicon's files")
    return files


def is_lexicon_file(name: str) -> bool:
    """A name a lexicon directory may hold."""
    return name in ALL_FILES or name == MANIFEST


# --- manifest -------------------------------------------------------------------------------

def json_bytes(obj) -> bytes:
    """The bytes of a JSON file of a lexicon (deterministic: sorted keys, no escapes, final newline)."""
    return (json.dumps(obj, ensure_ascii=False, sort_keys=True, indent=1) + "\n").encode("utf-8")


def manifest_bytes(manifest: dict, files: dict) -> bytes:
    """manifest.json's bytes: the build's fields with the format, its version and the files' entries."""
    assert set(FILES) <= set(files) <= ALL_FILES
    return json_bytes(dict(manifest, format=FORMAT, format_version=FORMAT_VERSION, files=files))


def is_manifest(manifest) -> bool:
    """A parsed manifest.json of this format (any version)."""
    return isinstance(manifest, dict) and manifest.get("format") == FORMAT


def read_manifest(path: str | os.PathLike) -> dict:
    """The manifest of a lexicon directory, checked for format and version only."""
    root = Path(path)
    if not root.exists():
        raise LexiconFormatError(f"{root}: no such lexicon")
    if not root.is_dir():
        raise LexiconFormatError(f"{root}: not a lexicon (a lexicon is a directory with {MANIFEST})")
    mpath = root / MANIFEST
    if not mpath.is_file():
        raise LexiconFormatError(f"{root}: not a lexicon (no {MANIFEST})")
    try:
        manifest = json.loads(mpath.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise LexiconCorruptError(f"{mpath}: corrupt manifest ({exc})") from None
    if not is_manifest(manifest):
        raise LexiconFormatError(f"{root}: not a {FORMAT} lexicon (format is "
                                 f"{manifest.get('format') if isinstance(manifest, dict) else '?'!r})")
    version = manifest.get("format_version")
    if version not in SUPPORTED_VERSIONS:
        raise LexiconFormatError(
            f"{root}: lexicon format version {version!r} is not supported by this program "
            f"(it reads {', '.join(map(str, SUPPORTED_VERSIONS))}); rebuild it with lexicon-build "
            f"or upgrade lexicon-service")
    return manifest


def check_manifest(root: Path, manifest: dict) -> None:
    """The manifest fields the loader relies on have the right types (a manifest is input too)."""
    name = manifest.get("name")
    if name is not None and not (isinstance(name, str) and NAME_RE.fullmatch(name)):
        raise LexiconFormatError(f"{root}: manifest name {name!r} is not a lexicon name "
                                 "(letters, digits, '.', '_', '-'; at most 64)")
    counts = manifest.get("counts")
    if not isinstance(counts, dict) or not isinstance(counts.get("forms"), int) or counts["forms"] < 0:
        raise LexiconFormatError(f"{root}: manifest counts.forms is missing or not a count")
    rule_set = manifest.get("rule_set")
    if not isinstance(rule_set, dict) or not isinstance(rule_set.get("source_text"), str):
        raise LexiconFormatError(f"{root}: manifest rule_set.source_text is missing")


# --- readings.bin ---------------------------------------------------------------------------

def pack_readings(lengths, records) -> bytes:
    """readings.bin's bytes: ``lengths[i]`` readings of form id i (None: one each), then ``records``
    (``headword id << HEADWORD_SHIFT | tag set id``), all forms' in form id order."""
    offsets = array("I", accumulate(lengths, initial=0) if lengths is not None else range(len(records) + 1))
    return offsets.tobytes() + array("Q", records).tobytes()


def check_readings_size(path: Path, size: int, n_forms: int) -> None:
    """LexiconCorruptError unless ``size`` bytes can be readings.bin of ``n_forms`` forms."""
    if size < 4 * (n_forms + 1) or (size - 4 * (n_forms + 1)) % 8:
        raise LexiconCorruptError(f"{path}: truncated")
    if sys.byteorder != "little":  # the format is little-endian
        raise LexiconFormatError("big-endian machines are not supported")


def unpack_readings(path: Path, buffer: memoryview, n_forms: int) -> tuple[memoryview, memoryview]:
    """(offsets, records) of readings.bin's bytes ``buffer`` (views of it, not copies) for a lexicon
    of ``n_forms`` forms; LexiconCorruptError if its size cannot be that."""
    check_readings_size(path, len(buffer), n_forms)
    return buffer[: 4 * (n_forms + 1)].cast("I"), buffer[4 * (n_forms + 1):].cast("Q")


def record_fields(record: int) -> tuple[int, int]:
    """(headword id, tag set id) of one record."""
    return record >> HEADWORD_SHIFT, record & TAGSET_MASK


# --- tables.json ----------------------------------------------------------------------------

def tables_bytes(tables: dict) -> bytes:
    """tables.json's bytes of {"tags", "rules", "tagsets"[, "models"]}."""
    return json_bytes(tables)


def parse_tables(path: Path, data: bytes) -> tuple[list, list, list, dict]:
    """(tags, rules, tagsets, models) of tables.json's bytes, every index checked; LexiconCorruptError
    naming ``path`` if not."""
    try:
        tables = json.loads(data.decode("utf-8"))
        tags, rules, tagsets = tables["tags"], tables["rules"], tables["tagsets"]
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
        raise LexiconCorruptError(f"{path}: cannot read ({exc})") from None
    if not (isinstance(tags, list) and isinstance(rules, list) and isinstance(tagsets, list)
            and all(isinstance(x, str) for x in tags) and all(isinstance(x, str) for x in rules)):
        raise LexiconCorruptError(f"{path}: tags, rules and tagsets must be lists (of strings)")
    n_tags, n_rules = len(tags), len(rules)
    for i, tagset in enumerate(tagsets):
        if not isinstance(tagset, list) or not all(
                isinstance(pair, list) and len(pair) == 2 and type(pair[0]) is int and type(pair[1]) is int
                and 0 <= pair[0] < n_tags and 0 <= pair[1] < n_rules for pair in tagset):
            raise LexiconCorruptError(f"{path}: tagsets[{i}] refers to a tag or rule that does not exist")
    models = tables.get("models", {})
    if not (isinstance(models, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in models.items())):
        raise LexiconCorruptError(f"{path}: models must map headwords to model lemmas (strings)")
    return tags, rules, tagsets, models


# --- moves.gaddag (its bytes: movegen/graph.py) ----------------------------------------------

def move_graph_name(files: dict) -> str | None:
    """The name the manifest's ``files`` list the move graph under (moves.gaddag, or moves.kwg in a
    lexicon built before the file was named for its format); None without one."""
    return next((name for name in (MOVE_GRAPH, OLD_MOVE_GRAPH) if name in files), None)


def move_graph_bytes(keys, rule_set) -> bytes:
    """moves.gaddag's bytes for these tile keys (``graph.build_move_graph``)."""
    return graph.build_move_graph(keys, rule_set)


def parse_leave_table(path: Path, data: bytes, rule_set):
    """The LeaveTable in leaves.tsv's bytes (``leaves.parse_leave_table``); LexiconCorruptError naming ``path``."""
    try:
        return leaves.parse_leave_table(data, rule_set)
    except leaves.LeaveTableError as exc:
        raise LexiconCorruptError(f"{path}: {exc}") from None


def parse_win_table(path: Path, data: bytes, rule_set):
    """The WinTable in winprob.tsv's bytes (``winprob.parse_win_table``); LexiconCorruptError naming ``path``."""
    try:
        return winprob.parse_win_table(data, rule_set)
    except winprob.WinTableError as exc:
        raise LexiconCorruptError(f"{path}: {exc}") from None


def parse_search_graph(path: Path, data, rule_set) -> bytes:
    """The search layout (``graph.search_layout``) of the move graph's arcs (``graph.parse_move_graph``);
    LexiconCorruptError naming ``path``."""
    try:
        return graph.search_layout(graph.parse_move_graph(data, rule_set))
    except graph.MoveGraphError as exc:
        raise LexiconCorruptError(f"{path}: {exc}") from None


def refusals_bytes(refused: dict, details: dict | None = None) -> bytes:
    """refused.tsv's bytes from {tile key: {(rule, headword), ...}} and {headword: detail} (what the
    build says of how the headword got the refused tag; a fourth field when there is one): a line
    each, sorted by bytes."""
    details = details or {}

    def line(key: str, rule: str, head: str) -> bytes:
        detail = details.get(head, "")
        if "\t" in detail or "\n" in detail:
            detail = ""
        return f"{key}\t{rule}\t{head}{chr(9) + detail if detail else ''}\n".encode("utf-8")

    lines = sorted(line(key, rule, head) for key, pairs in refused.items()
                   for rule, head in pairs if "\t" not in head and "\n" not in head)
    return b"".join(lines)


# A lookup's work is bounded whatever refused.tsv holds (its sha256 may be recomputed by whoever damaged
# it): a line is read up to MAX_REFUSAL_LINE bytes (the build writes lines of a few dozen), and at most
# MAX_REFUSALS_FOUND lines of one key are returned (the build writes one per refused reading).
MAX_REFUSAL_LINE = 4096
MAX_REFUSALS_FOUND = 64


def find_refusals(data, key: str) -> list[tuple[str, str, str]]:
    """The (rule, headword, detail) triples refused.tsv's bytes `data` (bytes or a mapping of them) give
    the tile key (detail "" on a line of three fields), by binary search over its sorted lines (a few
    pages touched, nothing built); lines of damaged bytes that do not parse, or longer than
    MAX_REFUSAL_LINE, are skipped, and at most MAX_REFUSALS_FOUND are returned."""
    prefix = key.encode("utf-8") + b"\t"
    if len(prefix) > MAX_REFUSAL_LINE:
        return []
    lo, hi = 0, len(data)
    while lo < hi:                      # the first line not below prefix starts at or after lo
        mid = (lo + hi) // 2
        start = _line_start(data, mid)
        end = _line_end(data, start)
        # the line's first len(prefix) bytes (with its newline when shorter) order it against prefix
        if data[start:min(end + 1, start + len(prefix))] < prefix:
            lo = end + 1
        else:
            hi = start
    out = []
    for _ in range(MAX_REFUSALS_FOUND):  # lines looked at: the ones skipped count too
        if lo >= len(data):
            break
        end = _line_end(data, lo)
        if data[lo:lo + len(prefix)] != prefix:
            break
        if end - lo <= MAX_REFUSAL_LINE:
            fields = bytes(data[lo + len(prefix):end]).decode("utf-8", "replace").split("\t")
            if len(fields) in (2, 3):
                out.append((fields[0], fields[1], fields[2] if len(fields) == 3 else ""))
        lo = end + 1
    return out


def _line_start(data, at: int) -> int:
    """Where the line holding `at` starts, looked for at most MAX_REFUSAL_LINE bytes back (beyond, the
    line is too long to be one of the build's: `at` stands for its start)."""
    floor = max(0, at - MAX_REFUSAL_LINE)
    found = data.rfind(b"\n", floor, at)
    return found + 1 if found >= 0 else (0 if floor == 0 else at)


def _line_end(data, start: int) -> int:
    """Where the line from `start` ends (its newline, or the data's end), looked for at most
    MAX_REFUSAL_LINE + 1 bytes on: beyond, that bound stands for it."""
    stop = min(len(data), start + MAX_REFUSAL_LINE + 1)
    found = data.find(b"\n", start, stop)
    return found if found >= 0 else stop
