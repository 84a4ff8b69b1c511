"""Copies of a lexicon's files as its load maps them: a private unlinked copy, or a sealed in-memory copy
(memfd) that the serve supervisor makes once and its server processes share (`SharedFiles`); each
checked for size and sha256 on the bytes copied, so nothing mapped can change under a server. And the
check of a trie's structure in a child process (`check_trie_structure`), which marisa cannot survive
on a damaged trie whose checksum matches."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from concurrent import futures
import fcntl

import marisa_trie


from lexicon_service.lexicon_format import (
    FORMS,
    HEADWORDS,
    READINGS,
    LexiconCorruptError,
    LexiconError,
    checksum,
    listed_files,
    move_graph_name,
    new_checksum,
    parse_search_graph,
    read_manifest,
    verify_entry,
)
from lexicon_service.rules.ruleset_text import parse_rule_set

MAX_FILE_BYTES = 4 << 30  # no lexicon file is this large; a bigger one is not read


def _read_at_most(fh, limit: int) -> bytes | None:
    """The file's bytes, None when there are more than ``limit``. Not ``fh.read(limit + 1)``: that
    allocates the whole limit (4 GiB) at once, which fails where memory is not overcommitted."""
    size = os.fstat(fh.fileno()).st_size
    if size > limit:
        return None
    data = fh.read(size + 1)
    if len(data) <= size:
        return data
    more = bytearray(data)  # longer than fstat said (/proc, a device): read on, bounded
    while len(more) <= limit and (block := fh.read(1 << 20)):
        more += block
    return bytes(more) if len(more) <= limit else None


def read_checked(p: Path, want: dict, verify: bool) -> bytes:
    """The file's bytes, read once: the checksum is of exactly the bytes that are used."""
    try:
        with open(p, "rb") as fh:
            data = _read_at_most(fh, MAX_FILE_BYTES)
    except FileNotFoundError:
        raise LexiconCorruptError(f"{p.parent}: missing file {p.name}") from None
    except OSError as exc:
        raise LexiconCorruptError(f"{p}: cannot read ({exc.strerror})") from None
    if data is None:
        raise LexiconCorruptError(f"{p}: larger than {MAX_FILE_BYTES} bytes")
    if verify:
        verify_entry(p, want, checksum(data), len(data))
    return data


def private_copy(p: Path, want: dict | None, verify: bool):
    """(an unlinked private copy of the file, its size, its sha256). The copy is what gets mapped:
    nobody can truncate or overwrite it under the server. The checksum is of the bytes copied."""
    return _copy_checked(p, tempfile.TemporaryFile(prefix="lexicon-"), want, verify)


def held_or_private_copy(p: Path, want: dict, verify: bool, shared: SharedFiles | None):
    """(file object, size, sha256) of the sealed copy `shared` holds of the file, else of a private copy."""
    held = shared.open(want) if shared is not None else None
    return held or private_copy(p, want, verify)


def _copy_checked(p: Path, copy, want: dict | None, verify: bool):
    """(`copy` holding the file's bytes, their size, their sha256), checked against `want` (the
    manifest's entry) when `verify`; `copy` is closed on any failure."""
    h = new_checksum()
    size = 0
    buffer = bytearray(1 << 20)  # one buffer, reused: no large allocations left behind in the heap
    view = memoryview(buffer)
    try:
        with open(p, "rb") as fh:
            while n := fh.readinto(buffer):
                h.update(view[:n])
                copy.write(view[:n])
                size += n
                if size > MAX_FILE_BYTES:
                    raise LexiconCorruptError(f"{p}: larger than {MAX_FILE_BYTES} bytes")
        copy.flush()
        sha = h.hexdigest()
        if verify and want is not None:
            verify_entry(p, want, sha, size)
    except FileNotFoundError:
        copy.close()
        raise LexiconCorruptError(f"{p.parent}: missing file {p.name}") from None
    except OSError as exc:
        copy.close()
        raise LexiconCorruptError(f"{p}: cannot read ({exc.strerror})") from None
    except BaseException:
        copy.close()
        raise
    return copy, size, sha


# A sealed copy can never change again: not be written, grown or shrunk, nor its seals undone.
_SEALS = ("F_SEAL_SEAL", "F_SEAL_SHRINK", "F_SEAL_GROW", "F_SEAL_WRITE")
SHARED_FILES = (FORMS, HEADWORDS, READINGS)  # what server processes share, with the move graph's search layout


def _seals() -> int | None:
    """The seals a shared copy must carry; None where memfds cannot be sealed (not Linux)."""
    if not hasattr(os, "memfd_create") or not all(hasattr(fcntl, name) for name in (*_SEALS, "F_ADD_SEALS")):
        return None
    seals = 0
    for name in _SEALS:
        seals |= getattr(fcntl, name)
    return seals


def _memfd(p: Path, suffix: str = ""):
    return open(os.memfd_create(f"lexicon:{p.parent.name}/{p.name}{suffix}", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING),
                "w+b")


def _seal(copy) -> None:
    try:
        fcntl.fcntl(copy.fileno(), fcntl.F_ADD_SEALS, _seals())
    except OSError:
        copy.close()
        raise


def _sealed_copy(p: Path, want: dict):
    """(a memfd holding the file's bytes, sealed, its size) when they match the manifest's size and
    sha256; the checksum is of the bytes copied, and once sealed nothing can change them."""
    copy, size, _ = _copy_checked(p, _memfd(p), want, verify=True)
    _seal(copy)
    return copy, size


def search_layout_key(move_graph: dict, manifest: dict) -> str | None:
    """The name a shared search layout of the move graph is held under: the sha256 of the move graph's bytes
    (the manifest's entry `move_graph`) and of the rule set it was checked against."""
    sha = move_graph.get("sha256") if isinstance(move_graph, dict) else None
    rule_set = manifest.get("rule_set")
    text = rule_set.get("source_text") if isinstance(rule_set, dict) else None
    if not isinstance(sha, str) or not isinstance(text, str):
        return None
    return checksum(f"search-layout\0{sha}\0{text}".encode("utf-8", "surrogatepass"))


def _sealed_search_layout(p: Path, manifest: dict, want: dict):
    """(a memfd holding the search layout of the lexicon's move graph at `p`, sealed, its size): the graph
    read and checked as a lexicon's loading does (size, sha256, the rule set, every arc)."""
    rule_set = parse_rule_set(manifest["rule_set"]["source_text"], f"{p.parent}:manifest.json:rule_set")
    layout = parse_search_graph(p, read_checked(p, want, verify=True), rule_set)
    copy = _memfd(p, ":search-layout")
    try:
        copy.write(layout)
        copy.flush()
    except BaseException:
        copy.close()
        raise
    _seal(copy)
    return copy, len(layout)


class SharedFiles:
    """Sealed in-memory copies (memfds) of lexicon files, by sha256, made once by the process that
    starts the server processes and inherited by them (file descriptors survive exec; a private
    mapping would not). A server process loading a file whose manifest gives one of these sha256s
    maps the sealed copy instead of making a private copy of its own, so the processes share one
    copy's pages. A sealed copy can be neither written nor resized by anyone, so a file changed on
    disk cannot touch it, as with a private copy. Files not held (another sha256: a lexicon changed
    since) are copied privately as before."""

    def __init__(self, files: dict[str, tuple[int, int]] | None = None,
                 checked_tries: CheckedTries | None = None) -> None:
        self.files = dict(files or {})  # sha256 -> (file descriptor, size)
        # the tries whose structure the process that made the copies walked (`check_structure`)
        self.checked_tries = checked_tries if checked_tries is not None else CheckedTries()
        self._owned: dict = {}  # sha256 -> (copy, path) of the copies this process made (closed by `close`)

    @classmethod
    def read_directory(cls, directory) -> SharedFiles:
        """Sealed copies of the shared files of every lexicon in `directory` whose size and sha256
        match its manifest; a lexicon that does not is left out (loading it reports why). Empty
        where memfds cannot be sealed."""
        shared = cls()
        if _seals() is None:
            return shared
        for root in sorted(Path(directory).glob("*.lex")):
            try:
                manifest = read_manifest(root)
                files = listed_files(root, manifest)
                for name in SHARED_FILES:
                    want = files[name]
                    if want.get("sha256") in shared.files:
                        continue
                    copy, size = _sealed_copy(root / name, want)
                    shared._owned[want["sha256"]] = (copy, str(root / name))
                    shared.files[want["sha256"]] = (copy.fileno(), size)
                graph = move_graph_name(files)
                key = search_layout_key(files.get(graph), manifest)
                if key is not None and key not in shared.files:
                    copy, size = _sealed_search_layout(root / graph, manifest, files[graph])
                    shared._owned[key] = (copy, str(root / graph))
                    shared.files[key] = (copy.fileno(), size)
            except (OSError, LexiconError, ValueError, KeyError, TypeError):
                continue
        return shared

    @classmethod
    def from_environment(cls, value: str | None, checked: str | None = None) -> SharedFiles:
        """The copies a parent passed (`environment`): "sha256:fd:size,..."; malformed entries are ignored.
        `checked`: the sha256s of the tries it walked ("sha256,..."; `check_structure`)."""
        files = {}
        for entry in (value or "").split(","):
            parts = entry.split(":")
            if len(parts) == 3 and len(parts[0]) == 64 and parts[1].isdecimal() and parts[2].isdecimal():
                files[parts[0]] = (int(parts[1]), int(parts[2]))
        return cls(files, CheckedTries((checked or "").split(",")))

    def environment(self) -> str:
        return ",".join(f"{sha}:{fd}:{size}" for sha, (fd, size) in self.files.items())

    def fds(self) -> tuple[int, ...]:
        return tuple(fd for fd, _ in self.files.values())

    def total_bytes(self) -> int:
        return sum(size for _, size in self.files.values())

    def check_structure(self) -> list[str]:
        """Walk the tries this process copied (`check_trie_structure`), a child process for each lexicon,
        all at once; the sha256s of those that passed. A lexicon that fails is left out (each server
        process walks it again, and loading it reports why)."""
        by_lexicon: dict[str, dict] = {}
        for sha, (copy, path) in self._owned.items():
            if path.endswith(".marisa"):
                by_lexicon.setdefault(str(Path(path).parent), {})[path] = (copy, sha)

        def check(tries: dict) -> list[str]:
            try:
                check_trie_structure(tries)
            except LexiconError:
                return []
            return [sha for _, sha in tries.values()]

        if not by_lexicon:
            return []
        with futures.ThreadPoolExecutor(max_workers=len(by_lexicon)) as pool:
            return [sha for shas in pool.map(check, by_lexicon.values()) for sha in shas]

    def open(self, want: dict | None):
        """(a file object of the sealed copy, its size, its sha256) for a file the manifest describes
        as `want`, or None when no copy of it is held or the descriptor is not a sealed copy of its size."""
        sha = want.get("sha256") if isinstance(want, dict) else None
        held = self.files.get(sha) if isinstance(sha, str) else None
        if held is None or held[1] != want.get("bytes"):
            return None
        return self._open_sealed(sha, *held)

    def open_search_layout(self, key: str | None):
        """(a file object of the sealed search layout held under `key` (`search_layout_key`), its size,
        the key), or None as `open`."""
        held = self.files.get(key) if isinstance(key, str) else None
        return None if held is None else self._open_sealed(key, *held)

    def _open_sealed(self, sha: str, fd: int, size: int):
        try:
            if os.fstat(fd).st_size != size \
                    or fcntl.fcntl(fd, fcntl.F_GET_SEALS) & _seals() != _seals():
                return None
            return open(os.dup(fd), "rb", buffering=0), size, sha
        except (OSError, TypeError, ValueError):  # not a descriptor, not a memfd, no seals here
            return None

    def close(self) -> None:
        for copy, _ in self._owned.values():
            copy.close()
        self._owned.clear()
        self.files.clear()


def _fd_path(fileobj) -> str:
    return f"/proc/self/fd/{fileobj.fileno()}"


def map_trie(p: Path, copy):
    """The trie of a private copy, mapped (read into memory where /proc/self/fd is missing)."""
    trie = marisa_trie.Trie()
    try:
        if os.path.exists(_fd_path(copy)):
            trie.mmap(_fd_path(copy))
        else:
            copy.seek(0)
            trie.frombytes(copy.read())
    except (RuntimeError, ValueError, MemoryError, OSError) as exc:
        raise LexiconCorruptError(f"{p}: not a valid trie ({exc})") from None
    return trie


class CheckedTries:
    """The sha256s of tries whose structure passed `check_trie_structure` (content, not path): a server
    holds one for its loads, and the serve supervisor's children start from the ones it walked."""

    def __init__(self, sha256s=()) -> None:
        self._lock = threading.Lock()
        self._passed: set[str] = {x for x in sha256s if isinstance(x, str) and len(x) == 64}

    def __contains__(self, sha256: object) -> bool:
        with self._lock:
            return sha256 in self._passed

    def add(self, sha256s) -> None:
        with self._lock:
            self._passed.update(sha256s)


def check_trie_structure(tries: dict[str, tuple], checked: CheckedTries | None = None,
                         timeout: float | None = None) -> None:
    """Walk every key of each trie in a child process, so that a trie whose checksum matches but
    whose structure is damaged is refused here instead: marisa would crash the process on it, or
    loop for ever. `tries`: name -> (open private copy, sha256). Tries in `checked` (same sha256) are
    skipped, and those that pass are added to it. `timeout`: by default 10 s plus 2 s a MB (a walk takes a small part of that)."""
    todo = {name: (copy, sha) for name, (copy, sha) in tries.items() if checked is None or sha not in checked}
    if not todo:
        return
    fds = [copy.fileno() for copy, _ in todo.values()]
    if timeout is None:
        timeout = 10.0 + 2.0 * sum(os.fstat(fd).st_size for fd in fds) / 1e6
    try:
        done = subprocess.run([sys.executable, "-c", _WALK_SCRIPT, *map(str, fds)], pass_fds=fds,
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise LexiconCorruptError(f"{', '.join(todo)}: structure check did not finish in {timeout:.0f} s") from None
    if done.returncode != 0:
        if done.returncode < 0:
            why = f"killed by {signal.Signals(-done.returncode).name}"
        else:
            lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
            why = lines[-1] if lines else f"exit status {done.returncode}"
        raise LexiconCorruptError(f"{', '.join(todo)}: damaged trie (structure check: {why})")
    if checked is not None:
        checked.add(sha for _, sha in todo.values())


# Run by check_trie_structure in a child: map each trie (inherited file descriptors), walk it
# fully (as bytes, the keys decoded as UTF-8 in bulk), look every 97th key up by its id and back;
# any crash, error or mismatch fails the check.
_WALK_SCRIPT = """
import itertools, sys, marisa_trie
for fd in sys.argv[1:]:
    trie = marisa_trie.BinaryTrie()
    trie.mmap(f"/proc/self/fd/{fd}")
    keys = trie.iterkeys()
    n = 0
    while chunk := list(itertools.islice(keys, 65536)):
        n += len(chunk)
        if n > len(trie):
            sys.exit(f"walk finds more than the {len(trie)} keys the trie holds")
        b"\\n".join(chunk).decode("utf-8")
        for key in chunk[::97]:
            if trie.restore_key(trie.key_id(key)) != key:
                sys.exit("key/id mismatch")
    if n != len(trie):
        sys.exit(f"walk found {n} keys, trie says {len(trie)}")
"""
