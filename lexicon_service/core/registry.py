"""The loaded lexicons, served by name, swapped atomically on reload.

A `Snapshot` is an immutable name -> lexicon mapping. Calls take the current snapshot with
`registry.acquire()` (a reference count under a lock) and use it to the end, so a reload
never changes the lexicon under a running call. `reload()` loads the whole directory into a new
snapshot first, keeping each lexicon whose directory and files are unchanged on disk since it was
loaded; only if every lexicon loads is the snapshot swapped in (one reference assignment). The old
snapshot's lexicons that no newer snapshot kept are closed when its last call releases it.
A failed reload leaves the old snapshot serving and is reported to the caller.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import logging
from concurrent import futures
import threading
import time
from pathlib import Path
from typing import Callable

from lexicon_service.lexicon import load_lexicon
from lexicon_service.lexicon_copies import CheckedTries
from lexicon_service.errors import NotReadyError, UnknownLexiconError, UnknownRuleSetError
from lexicon_service.wording import counted
from lexicon_service.rules import list_rule_sets, load_rule_set

log = logging.getLogger("lexicon_service.server")

LEXICON_SUFFIX = ".lex"
LOAD_THREADS = 4


class ReloadError(Exception):
    """The directory could not be (re)loaded; the previous lexicons stay in service."""


class Snapshot:
    def __init__(self, lexicons: dict, generation: int, directory: Path, rule_sets=(),
                 release: Callable | None = None) -> None:
        self.lexicons = dict(lexicons)
        # release(lexicon) -> True when no other open snapshot holds it (then it is closed with this one)
        self._release = release
        self.generation = generation
        self.directory = directory
        self.loaded_at = time.time()
        self._refs = 0
        self._retired = False
        self._closed = False
        self.cache: dict = {}  # per-snapshot derived objects (servicers' per-lexicon helpers)
        # Rule sets of the loaded lexicons, by id (a client may name them in ScoreMove/ReplayGame), then
        # `rule_sets` (the local commands' --rules, which may be a file) under ids the lexicons leave free.
        self.rule_sets = {}
        for rule_set in [lexicon.rule_set for lexicon in self.lexicons.values()] + list(rule_sets):
            self.rule_sets.setdefault(rule_set.id, rule_set)

    def lexicon(self, name: str):
        try:
            return self.lexicons[name]
        except KeyError:
            raise UnknownLexiconError(name, self.lexicons) from None

    def names(self) -> list[str]:
        return sorted(self.lexicons)

    def _close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for lexicon in self.lexicons.values():
            if self._release is not None and not self._release(lexicon):
                continue  # a newer snapshot kept it (unchanged on disk)
            close = getattr(lexicon, "close", None)
            if close is not None:
                try:
                    close()
                except Exception:  # noqa: BLE001 - closing must not break the swap
                    log.exception("closing lexicon %s", getattr(lexicon, "name", "?"))


class LexiconRegistry:
    def __init__(self, directory, loader: Callable | None = None) -> None:
        self.directory = Path(directory)
        # by default, tries walked once per registry (a reload of an unchanged lexicon does not walk again)
        self._loader = loader or functools.partial(load_lexicon, check_structure=True, checked_tries=CheckedTries())
        self._lock = threading.Lock()
        self._reload_lock = threading.Lock()
        self._current: Snapshot | None = None
        self._generation = 0
        self.last_error: str | None = None
        self.reload_count = 0
        self._listeners: list[Callable[[Snapshot], None]] = []
        self._holders: dict[int, int] = {}  # id(lexicon) -> open snapshots holding it (under _lock)

    # --- loading ---------------------------------------------------------------------------
    def lexicon_paths(self) -> list[Path]:
        if not self.directory.is_dir():
            raise ReloadError(f"lexicon directory {str(self.directory)!r} does not exist")
        return sorted(p for p in self.directory.iterdir() if p.name.endswith(LEXICON_SUFFIX))

    def _wait_for_builds(self, timeout: float = 2.0) -> None:
        """lexicon-build replaces X.lex by renaming X.lex -> X.lex.old-PID, X.lex.tmp-PID -> X.lex; a
        reload in between would miss X. Wait (briefly) while such a swap is in progress."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            names = [p.name for p in self.directory.iterdir()] if self.directory.is_dir() else []
            swapping = [n for n in names if ".lex.old-" in n]
            if not swapping:
                return
            time.sleep(0.05)

    def _build_in_progress(self) -> bool:
        try:
            return any(".lex.old-" in p.name or ".lex.tmp-" in p.name for p in self.directory.iterdir())
        except OSError:
            return False

    def _directory_state(self):
        """Names and inodes of the directory's entries: changes when lexicon-build swaps one in."""
        try:
            return sorted((p.name, p.stat().st_ino) for p in self.directory.iterdir())
        except OSError:
            return None

    def _load_all_settled(self, attempts: int = 3) -> dict:
        """`_load_all`, retried when it failed while lexicon-build was swapping a lexicon in (a
        swap still in progress, or one completed during the load: the directory changed under it)."""
        for attempt in range(attempts):
            before = self._directory_state()
            try:
                return self._load_all()
            except ReloadError:
                swapped = self._directory_state() != before
                if attempt == attempts - 1 or not (swapped or self._build_in_progress()):
                    raise
                time.sleep(0.1)
        raise AssertionError("unreachable")

    def _load_all(self) -> dict:
        """Load every lexicon of the directory (several at once: loading is mostly reading,
        hashing and waiting for the structure check) and check the whole set before any is used."""
        self._wait_for_builds()
        paths = self.lexicon_paths()
        if not paths:
            raise ReloadError(f"no *{LEXICON_SUFFIX} lexicons in {str(self.directory)!r}")
        # A lexicon whose directory and files are unchanged since it was loaded is kept, not loaded
        # again: a reload then costs the changed lexicons only, in time and in memory.
        current = self._current
        in_use = {id(lexicon) for lexicon in current.lexicons.values()} if current is not None else set()
        kept = {Path(lexicon.path): lexicon for lexicon in (current.lexicons.values() if current else ())
                if callable(getattr(lexicon, "unchanged_on_disk", None)) and getattr(lexicon, "path", None)}

        def load(path: Path):
            lexicon = kept.get(path)
            if lexicon is not None and lexicon.unchanged_on_disk():
                return lexicon
            return self._loader(path)

        with futures.ThreadPoolExecutor(max_workers=min(LOAD_THREADS, len(paths)),
                                        thread_name_prefix="lexicon-load") as pool:
            attempts = [pool.submit(load, path) for path in paths]
        loaded: dict = {}
        results = []
        for path, attempt in zip(paths, attempts):
            exc = attempt.exception()
            results.append((path, None if exc else attempt.result(), exc))
        try:
            for path, lexicon, exc in results:
                if exc is not None:  # any failure refuses the whole reload
                    raise ReloadError(f"{path}: {exc}") from exc
                name = getattr(lexicon, "name", None) or path.name[: -len(LEXICON_SUFFIX)]
                if not isinstance(name, str) or not name:
                    raise ReloadError(f"{path}: lexicon name {name!r} is not a name")
                if name in loaded:
                    raise ReloadError(f"{path}: lexicon name {name!r} is used twice")
                loaded[name] = lexicon
        except BaseException:
            for _, lexicon, _ in results:
                if lexicon is not None and id(lexicon) not in in_use:
                    with contextlib.suppress(Exception):
                        lexicon.close()
            raise
        return loaded

    def reload(self) -> Snapshot:
        """Load every lexicon in the directory and swap them in atomically.

        Raises `ReloadError` (and keeps the current lexicons) when any lexicon fails to load.
        """
        with self._reload_lock:
            started = time.perf_counter()
            try:
                lexicons = self._load_all_settled()
            except ReloadError as exc:
                self.last_error = str(exc)
                if self._current is not None:
                    log.error("reload failed, still serving generation %s: %s", self._generation, exc)
                raise
            try:
                snapshot = Snapshot(lexicons, self._generation + 1, self.directory, release=self._release)
            except Exception as exc:  # noqa: BLE001 - e.g. a lexicon's rule set: refuse the reload
                with self._lock:
                    in_use = set(self._holders)
                for lexicon in lexicons.values():
                    if id(lexicon) in in_use:
                        continue
                    with contextlib.suppress(Exception):
                        lexicon.close()
                self.last_error = str(exc)
                log.error("reload failed, still serving generation %s: %s", self._generation, exc)
                raise ReloadError(str(exc)) from exc
            with self._lock:
                for lexicon in lexicons.values():
                    self._holders[id(lexicon)] = self._holders.get(id(lexicon), 0) + 1
                self._generation += 1
                old, self._current = self._current, snapshot
            kept = sum(old is not None and lexicon in old.lexicons.values() for lexicon in lexicons.values())
            self._retire(old)
            release_freed_memory()
            self.last_error = None
            self.reload_count += 1
            log.info(
                "loaded %s (%s; %d unchanged on disk, kept) from %s in %.0f ms, generation %d",
                counted(len(lexicons), "lexicon"), ", ".join(sorted(lexicons)), kept, self.directory,
                (time.perf_counter() - started) * 1000, snapshot.generation,
            )
        for listener in list(self._listeners):
            listener(snapshot)
        return snapshot

    load = reload

    def _release(self, lexicon) -> bool:
        """One snapshot holding `lexicon` closed: True when none holds it any more (close it)."""
        with self._lock:
            left = self._holders.get(id(lexicon), 1) - 1
            if left > 0:
                self._holders[id(lexicon)] = left
                return False
            self._holders.pop(id(lexicon), None)
            return True

    def on_reload(self, listener: Callable[[Snapshot], None]) -> None:
        self._listeners.append(listener)

    # --- use -----------------------------------------------------------------------------------
    @property
    def ready(self) -> bool:
        return self._current is not None

    @property
    def generation(self) -> int:
        return self._generation

    def current(self) -> Snapshot:
        """The current snapshot without holding it (for listings; not for using lexicons)."""
        snapshot = self._current
        if snapshot is None:
            raise NotReadyError()
        return snapshot

    @contextlib.contextmanager
    def acquire(self):
        """Hold the current snapshot for the duration of a call."""
        with self._lock:
            snapshot = self._current
            if snapshot is None:
                raise NotReadyError()
            snapshot._refs += 1
        try:
            yield snapshot
        finally:
            with self._lock:
                snapshot._refs -= 1
                close = snapshot._retired and snapshot._refs == 0
            if close:
                snapshot._close()

    @contextlib.contextmanager
    def lexicons_in_use(self):
        """name -> lexicon (None when not loaded) of the current snapshot, held for the call's duration;
        nothing (None) before the first load."""
        try:
            held = self.acquire()
            snapshot = held.__enter__()
        except NotReadyError:
            yield None
            return
        try:
            yield snapshot.lexicons.get
        finally:
            held.__exit__(None, None, None)

    def close(self) -> None:
        with self._lock:
            snapshot, self._current = self._current, None
        self._retire(snapshot)

    def _retire(self, snapshot) -> None:
        """A snapshot no longer current closes now if no call holds it, else when the last one ends."""
        if snapshot is None:
            return
        with self._lock:
            snapshot._retired = True
            close = snapshot._refs == 0
        if close:
            snapshot._close()


def release_freed_memory() -> None:
    """Hand the heap's free pages back to the system (glibc's malloc_trim; elsewhere nothing). Loading
    parses every tables.json (megabytes of JSON for Polish) and frees the parse; without this its pages stayed
    resident in every server process, and grew with each reload."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return
    trim(0)


def resolve_rule_set(snapshot: Snapshot, name: str):
    """A rule set by id: one of the loaded lexicons', else a shipped one. Never a path: clients
    must not make the server read files."""
    if name in snapshot.rule_sets:
        return snapshot.rule_sets[name]

    shipped = list_rule_sets()
    if name not in shipped:
        raise UnknownRuleSetError(name, set(shipped) | set(snapshot.rule_sets))
    return load_rule_set(name)
