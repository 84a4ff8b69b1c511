"""A compiled lexicon, loaded for lookups (the runtime side; never imports build_tools).

The format (directory layout, manifest, readings.bin, tables.json) is described and owned by
``lexicon_service/lexicon_format.py``.

Loading maps copies of the tries, readings.bin and the move graph's search layout (a private copy,
or the sealed copy server processes share: never a file that can change under the server) and reads
the tables into memory; it checks every file's size and sha256 on the bytes it uses,
the manifest's fields, the tables' indices and the rule set, so a truncated, corrupt or
inconsistent lexicon is refused with ``LexiconCorruptError`` naming the file; an unknown format or
format version, a bad name or rule set, with ``LexiconFormatError``.
"""

from __future__ import annotations

import mmap
import os
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

from lexicon_service.lexicon_format import (  # noqa: F401 - FORMAT... and the errors: imported from here too
    FILES,
    FORMAT,
    FORMAT_VERSION,
    FORMS,
    HEADWORDS,
    LEAVES,
    MOVE_GRAPH,
    NAME_RE,
    OPTIONAL_FILES,
    READINGS,
    REFUSALS,
    SUPPORTED_VERSIONS,
    TABLES,
    LexiconCorruptError,
    LexiconError,
    LexiconFormatError,
    check_manifest,
    check_readings_size,
    checksum,
    find_refusals,
    listed_files,
    new_checksum,
    parse_leave_table,
    parse_search_graph,
    parse_tables,
    read_manifest,
    record_fields,
    unpack_readings,
    verify_entry,
    verify_files,
)


MAX_FILE_BYTES = 4 << 30  # no lexicon file is this large; a bigger one is not read


@dataclass(frozen=True)
class Reading:
    """Why a form is in the lexicon: its headword, its tag (common vocabulary) and the rule."""

    form: str
    headword: str
    tag: str
    rule: str
    model: str = ""    # a guessed headword: the lemma whose paradigm it was inflected after
    # where the reading came from (``origin_of``): SGJP, the Czech paradigm engine, guessed,
    # Hunspell affix form, word list, tagged list
    origin: str = field(default="", compare=False)


def generator_of(manifest: dict) -> str:
    """What made the readings of a lexicon that carry no mark of their own: the language's generator
    (SGJP for Polish, the Czech paradigm engine), and a tagged list when the lexicon has one (its
    readings look like the generator's)."""
    rule_set = manifest.get("rule_set")
    language = rule_set.get("language") if isinstance(rule_set, dict) else None
    sources = manifest.get("sources")
    kinds = {s.get("kind") for s in sources if isinstance(s, dict)} if isinstance(sources, list) else set()
    made = []
    if kinds & {"headwords", "hunspell"}:
        made.append({"pl": "SGJP", "cs": "Czech paradigm engine"}.get(language, "headword expansion"))
    if "tagged" in kinds:
        made.append("tagged list")
    return " or ".join(made) or "unknown"


def origin_of(tag: str, rule: str, model: str, generator: str) -> str:
    """Where one reading came from: guessed (inflected by analogy), a Hunspell affix form of an SGJP
    lemma (tag HUNSPELL), a word list, else the lexicon's generator (``generator_of``)."""
    if model or rule == "guessed":
        return "guessed"
    if rule == "word-list":
        return "word list"
    if "HUNSPELL" in tag.split(";"):
        return "Hunspell affix form"
    return generator


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


def _read_checked(p: Path, want: dict, verify: bool) -> bytes:
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


def _private_copy(p: Path, want: dict | None, verify: bool):
    """(an unlinked private copy of the file, its size, its sha256). The copy is what gets mapped:
    nobody can truncate or overwrite it under the server. The checksum is of the bytes copied."""
    return _copy_checked(p, tempfile.TemporaryFile(prefix="lexicon-"), want, verify)


def _held_or_private_copy(p: Path, want: dict, verify: bool, shared: SharedFiles | None):
    """(file object, size, sha256) of the sealed copy `shared` holds of the file, else of a private copy."""
    held = shared.open(want) if shared is not None else None
    return held or _private_copy(p, want, verify)


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
    import fcntl

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
    import fcntl

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
    """The name a shared search layout of the move graph is held under: the sha256 of moves.kwg's bytes
    (the manifest's entry `move_graph`) and of the rule set it was checked against."""
    sha = move_graph.get("sha256") if isinstance(move_graph, dict) else None
    rule_set = manifest.get("rule_set")
    text = rule_set.get("source_text") if isinstance(rule_set, dict) else None
    if not isinstance(sha, str) or not isinstance(text, str):
        return None
    return checksum(f"search-layout\0{sha}\0{text}".encode("utf-8", "surrogatepass"))


def _sealed_search_layout(root: Path, manifest: dict, want: dict):
    """(a memfd holding the search layout of the lexicon's move graph, sealed, its size): the graph read
    and checked as a lexicon's loading does (size, sha256, the rule set, every arc)."""
    from lexicon_service.rules import parse_rule_set

    p = root / MOVE_GRAPH
    rule_set = parse_rule_set(manifest["rule_set"]["source_text"], f"{root}:manifest.json:rule_set")
    layout = parse_search_graph(p, _read_checked(p, want, verify=True), rule_set)
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

    def __init__(self, files: dict[str, tuple[int, int]] | None = None) -> None:
        self.files = dict(files or {})  # sha256 -> (file descriptor, size)
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
                key = search_layout_key(files.get(MOVE_GRAPH), manifest)
                if key is not None and key not in shared.files:
                    copy, size = _sealed_search_layout(root, manifest, files[MOVE_GRAPH])
                    shared._owned[key] = (copy, str(root / MOVE_GRAPH))
                    shared.files[key] = (copy.fileno(), size)
            except (OSError, LexiconError, ValueError, KeyError, TypeError):
                continue
        return shared

    @classmethod
    def from_environment(cls, value: str | None) -> SharedFiles:
        """The copies a parent passed (`environment`): "sha256:fd:size,..."; malformed entries are ignored."""
        files = {}
        for entry in (value or "").split(","):
            parts = entry.split(":")
            if len(parts) == 3 and len(parts[0]) == 64 and parts[1].isdecimal() and parts[2].isdecimal():
                files[parts[0]] = (int(parts[1]), int(parts[2]))
        return cls(files)

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
        from concurrent import futures

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
        import fcntl

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


def _map_trie(p: Path, copy):
    """The trie of a private copy, mapped (read into memory where /proc/self/fd is missing)."""
    import marisa_trie

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


def _models_trie(models: dict):
    """The models table (headword -> model lemma) as a trie of UTF-8 values: as a dict, Polish's 88,000
    entries held 20 MB of Python objects in every server process (and twice during a reload); the trie
    0.6 MB. A headword that is no trie key (a lone surrogate) could never be looked up: left out."""
    import marisa_trie

    items = []
    for head, model in models.items():
        try:
            head.encode("utf-8")
            items.append((head, model.encode("utf-8", "surrogatepass")))
        except UnicodeEncodeError:
            continue
    return marisa_trie.BytesTrie(items)


# Tries whose structure passed `check_trie_structure`, by the sha256 of their bytes (content, not path).
_structure_ok: set[str] = set()
_structure_lock = threading.Lock()


def check_trie_structure(tries: dict[str, tuple], timeout: float | None = None) -> None:
    """Walk every key of each trie in a child process, so that a trie whose checksum matches but
    whose structure is damaged is refused here instead: marisa would crash the process on it, or
    loop for ever. `tries`: name -> (open private copy, sha256). Tries already checked (same
    sha256) are skipped. `timeout`: by default 10 s plus 2 s a MB (a walk takes ~0.1 s a MB)."""
    todo = {name: (copy, sha) for name, (copy, sha) in tries.items() if sha not in _structure_ok}
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
    with _structure_lock:
        _structure_ok.update(sha for _, sha in todo.values())


def mark_structure_checked(sha256s) -> None:
    """Trust tries with these sha256s as already walked (the serve supervisor checked them)."""
    with _structure_lock:
        _structure_ok.update(x for x in sha256s if len(x) == 64)


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


class Lexicon:
    """A loaded lexicon: membership (tile keys), prefixes, and readings for `explain`.

    Nothing is mapped from the lexicon directory: the tries and readings.bin are mapped from copies
    (unlinked private files, or `shared` sealed ones), the move graph's search layout made from a
    mapped private copy of moves.kwg (or mapped from `shared`), the tables read into memory, so a
    lexicon file
    truncated or overwritten in place under a running server changes nothing. Every file's
    checksum is of the bytes actually used. `check_structure` also walks the tries in a child
    process first (the server does; see `check_trie_structure`)."""

    def __init__(self, path: str | os.PathLike, *, verify: bool = True, check_structure: bool = False,
                 shared: SharedFiles | None = None, with_leaves: bool = True) -> None:
        self.path = Path(path)
        self._disk_state = disk_state(self.path)  # before anything is read: a change during the load shows
        self.manifest = read_manifest(self.path)
        check_manifest(self.path, self.manifest)
        files = listed_files(self.path, self.manifest)
        self.name: str = self.manifest.get("name") or self.path.stem
        self._generator = generator_of(self.manifest)
        self._file = None
        self._mm = None
        tables = _read_checked(self.path / TABLES, files[TABLES], verify)
        copies = []
        try:
            for name in SHARED_FILES:
                copies.append(_held_or_private_copy(self.path / name, files[name], verify, shared))
        except BaseException:
            for copy, _, _ in copies:
                copy.close()
            raise
        (forms, _, forms_sha), (heads, _, heads_sha), (self._file, size, _) = copies
        try:
            if check_structure:
                check_trie_structure({str(self.path / FORMS): (forms, forms_sha),
                                      str(self.path / HEADWORDS): (heads, heads_sha)})
            self._forms = _map_trie(self.path / FORMS, forms)
            self._heads = _map_trie(self.path / HEADWORDS, heads)
        except BaseException:
            self._file.close()
            raise
        finally:
            forms.close()  # the mappings keep the (unlinked) copies alive
            heads.close()
        try:
            self._tags, self._rules, self._tagsets, models = parse_tables(self.path / TABLES, tables)
            self._models = _models_trie(models)
            n = len(self._forms)
            if n != self.manifest["counts"]["forms"]:
                raise LexiconCorruptError(f"{self.path}: trie holds {n} forms, manifest says "
                                          f"{self.manifest['counts']['forms']}")
            check_readings_size(self.path / READINGS, size, n)
            self._mm = mmap.mmap(self._file.fileno(), 0, access=mmap.ACCESS_READ)
            self._mv = memoryview(self._mm)
            self._offsets, self._records = unpack_readings(self.path / READINGS, self._mv, n)
            self._rule_set = None
            try:
                self.rule_set  # noqa: B018 - parsed now, so a bad rule set is refused at load
            except ValueError as exc:
                raise LexiconFormatError(f"{self.path}: the manifest's rule set is not valid: {exc}") from None
        except BaseException:
            self._file.close()
            raise
        # the move graph (movegen/graph.py) as move generation reads it (graph.search_layout), when the
        # lexicon has one; only this form is kept (`move_graph` gives the arcs back)
        self.search_graph = None
        if MOVE_GRAPH in files:
            self.search_graph = self._load_move_graph(files[MOVE_GRAPH], verify, shared)
        self.leaves = None  # the leave table (movegen/leaves.py), when the lexicon has one
        if LEAVES in files and with_leaves:
            self.leaves = self._load_optional(LEAVES, files[LEAVES], verify, parse_leave_table)
        # the forms the build refused by a named rule (lexicon_format: refused.tsv), mapped from a
        # private copy: a lookup touches a few pages
        self._refusals_file = self._refusals = None
        if REFUSALS in files:
            try:
                self._refusals_file, size, _ = _private_copy(self.path / REFUSALS, files[REFUSALS], verify)
                self._refusals = mmap.mmap(self._refusals_file.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
            except BaseException:
                self.close()
                raise
        # Fast bound membership test (the hot path of the rules engine).
        self.is_admissible = self._forms.__contains__

    @property
    def has_move_graph(self) -> bool:
        return self.search_graph is not None

    @property
    def move_graph(self) -> bytes | None:
        """The move graph's arc array (movegen/graph.py), None without one; made anew from
        `search_graph` on each call (0.15 s for pl-scrabble: for the KWG export, not for a request)."""
        if self.search_graph is None:
            return None
        from lexicon_service.movegen.graph import arcs_of_layout

        return arcs_of_layout(self.search_graph)

    def _load_optional(self, name: str, want: dict, verify: bool, parse):
        """parse(path, bytes, rule set) of the optional file `name` (checked against `want`); the lexicon
        is closed when it is refused."""
        p = self.path / name
        try:
            return parse(p, _read_checked(p, want, verify), self.rule_set)
        except BaseException:
            self.close()
            raise

    def _load_move_graph(self, want: dict, verify: bool, shared: SharedFiles | None):
        """The search layout: a read-only mapping of the sealed layout `shared` holds (made once by the
        process that starts the server processes, from the same bytes and rule set, and checked as
        here), else made here from a mapped private copy of moves.kwg (its bytes never on the heap)."""
        p = self.path / MOVE_GRAPH
        try:
            held = shared.open_search_layout(search_layout_key(want, self.manifest)) if shared is not None else None
            if held is not None:
                with held[0] as layout:  # the mapping keeps the sealed copy alive
                    if held[1] > 0:
                        return memoryview(mmap.mmap(layout.fileno(), 0, access=mmap.ACCESS_READ))
            copy, size, _ = _private_copy(p, want, verify)
            with copy:  # the mapping keeps the copy alive until the layout is made
                data = mmap.mmap(copy.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
            return parse_search_graph(p, memoryview(data), self.rule_set)
        except BaseException:
            self.close()
            raise

    def unchanged_on_disk(self) -> bool:
        """True while the lexicon's directory and files are those it was loaded from (same inodes,
        sizes and modification times): a reload may keep this lexicon instead of loading it again."""
        return self._disk_state is not None and disk_state(self.path) == self._disk_state

    # --- membership -------------------------------------------------------------------------
    def is_admissible(self, key: str) -> bool:  # replaced per instance by the trie's own method
        return key in self._forms

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key in self._forms

    def __len__(self) -> int:
        return len(self._forms)

    def keys(self, prefix: str = "") -> list[str]:
        """All tile keys starting with prefix, sorted."""
        return sorted(self._forms.keys(prefix))

    def has_prefix(self, prefix: str) -> bool:
        """True when some admissible key starts with prefix (the empty prefix: lexicon not empty)."""
        for _ in self._forms.iterkeys(prefix):
            return True
        return False

    # --- provenance -------------------------------------------------------------------------
    @property
    def rule_set(self):
        """The rule set the lexicon was built for, parsed from the text embedded in the manifest."""
        if self._rule_set is None:
            from lexicon_service.rules import parse_rule_set

            rs = self.manifest.get("rule_set", {})
            self._rule_set = parse_rule_set(rs.get("source_text", ""),
                                            f"{self.path}:manifest.json:rule_set")
        return self._rule_set

    def display(self, key: str) -> str:
        """Readable text of a tile key (multi-letter tiles spelled out)."""
        try:
            return self.rule_set.tile_set.text_of_key(key)
        except Exception:
            return key

    def explain(self, key: str) -> list[Reading]:
        """Every reading (headword, tag, rule) that put this key in the lexicon; [] if absent."""
        try:
            kid = self._forms[key]
        except KeyError:
            return []
        form = self.display(key)
        out: list[Reading] = []
        first, last = self._offsets[kid], self._offsets[kid + 1]
        if not first <= last <= len(self._records):
            raise LexiconCorruptError(f"{self.path / READINGS}: offsets of form {kid} out of range")
        n_heads, n_tagsets = len(self._heads), len(self._tagsets)
        for i in range(first, last):
            rec = self._records[i]
            head_id, tagset_id = record_fields(rec)
            if head_id >= n_heads or tagset_id >= n_tagsets:
                raise LexiconCorruptError(f"{self.path / READINGS}: reading {i} refers to a headword "
                                          "or tag set that does not exist")
            head = self._heads.restore_key(head_id)
            found = self._models.get(head)
            model = found[0].decode("utf-8", "surrogatepass") if found else ""
            for tag_id, rule_id in self._tagsets[tagset_id]:
                tag = self._tags[tag_id]
                rule = self._rules[rule_id]
                # a headword may have SGJP readings beside guessed ones (a homograph)
                guessed = model if model and "GUESSED" in tag.split(";") else ""
                if rule.startswith("guessed:"):     # Czech lexicons built before the models table
                    rule, guessed = "guessed", guessed or rule[8:]
                out.append(Reading(form, head, tag, rule, guessed, origin_of(tag, rule, guessed, self._generator)))
        return out

    def refusals(self, key: str) -> list[tuple[str, str, str]]:
        """(profile rule, headword, detail) of each reading the build refused this tile key by a named rule
        (detail: how the headword got the refused tag, e.g. the place name of a place-name adjective; "" if
        the build said nothing),
        when no reading admitted it; [] for a form the build never met, or a lexicon built before
        refused.tsv existed."""
        if not self._refusals:
            return []
        return find_refusals(self._refusals, key)

    def close(self) -> None:
        self.is_admissible = lambda key: False
        refusals, self._refusals = getattr(self, "_refusals", None), None
        if isinstance(refusals, mmap.mmap):
            refusals.close()
        if getattr(self, "_refusals_file", None) is not None:
            self._refusals_file.close()
        try:
            self._offsets.release()
            self._records.release()
            self._mv.release()
        except Exception:
            pass
        if self._mm is not None:
            try:
                self._mm.close()
            except BufferError:
                pass
            self._mm = None
        if self._file is not None:
            self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self) -> str:
        return f"<Lexicon {self.name!r}: {len(self)} forms from {self.path}>"


def disk_state(path: Path):
    """(inode, size, modification time) of a lexicon directory and of each entry in it, sorted by name;
    None when it cannot be read."""
    try:
        entries = [(".", os.stat(path))]
        with os.scandir(path) as it:
            entries += [(entry.name, entry.stat(follow_symlinks=True)) for entry in it]
    except OSError:
        return None
    return tuple(sorted((name, st.st_ino, st.st_size, st.st_mtime_ns) for name, st in entries))


def load_lexicon(path: str | os.PathLike, *, verify: bool = True, check_structure: bool = False,
                 shared: SharedFiles | None = None, with_leaves: bool = True) -> Lexicon:
    """Load a lexicon directory; refuses unknown formats/versions and corrupt or truncated files.
    `check_structure`: also walk the tries in a child process (see `check_trie_structure`).
    `shared`: sealed copies to map instead of private ones, for files with their sha256s.
    `with_leaves`: False leaves the leave table out (unread, unchecked: `lexicon-build --leaves` replaces it)."""
    return Lexicon(path, verify=verify, check_structure=check_structure, shared=shared, with_leaves=with_leaves)


def resolve_lexicon_path(name_or_path: str, lexicons_dir: str | os.PathLike = "lexicons") -> Path:
    """A lexicon given as a path (``lexicons/pl-scrabble.lex``) or a name (``pl-scrabble``,
    looked up as ``<lexicons_dir>/<name>.lex``)."""
    p = Path(name_or_path)
    candidate = Path(lexicons_dir) / f"{name_or_path}.lex"
    # a bare name is the lexicon of that name, even beside a file or directory so named here
    if "/" not in name_or_path and os.sep not in name_or_path and p.suffix != ".lex" and candidate.exists():
        return candidate
    if p.exists():
        return p
    if candidate.exists():
        return candidate
    return p
