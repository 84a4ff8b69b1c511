"""Save stage: write a lexicon directory atomically (temporary directory, then rename).

The format is ``lexicon_service/lexicon_format.py``'s (it owns both directions). Output is
deterministic: no timestamps, JSON with sorted keys, marisa tries built from the same key sets;
the same inputs give byte-identical files.

Safety of the output path: only a lexicon (a directory whose manifest.json is one of ours) is ever
replaced; anything else at the path is refused (`check_output`). The new lexicon is written to
``NAME.tmp-PID`` and renamed into place (the previous one goes aside as ``NAME.old-PID`` for the
moment of the swap); an exception or a signal turned into one (lexicon-build handles SIGTERM)
removes the temporary directory and puts the previous lexicon back. What SIGKILL leaves behind is
removed by the next save into the same directory (`remove_stale_temporaries`); loaders only read
``*.lex`` and ignore these names.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

from lexicon_service.lexicon_format import (
    FORMAT,
    FORMS,
    HEADWORDS,
    LEAVES,
    MANIFEST,
    MOVE_GRAPH,
    OLD_MOVE_GRAPH,
    READINGS,
    REFUSALS,
    TABLES,
    file_entry,
    file_entry_of,
    is_lexicon_file,
    is_manifest,
    listed_files,
    manifest_bytes,
    move_graph_bytes,
    tables_bytes as encode_tables,
)
from build_tools.errors import BuildError
from build_tools.leave_fitting import DEFAULT_SEED, make_leave_table
from build_tools.winprob import make_win_table
from lexicon_service.lexicon import LexiconError, load_lexicon
from lexicon_service.movegen.winprob import FILE_NAME

_TEMPORARY = re.compile(r"^(?P<name>.+)\.(?P<kind>tmp|old)-(?P<pid>\d+)$")


class OutputError(ValueError):
    """The output path cannot be written, or holds something that is not a lexicon."""


def is_lexicon(path: Path) -> bool:
    """A directory with a manifest.json of this project's format (any version)."""
    try:
        manifest = json.loads((path / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return path.is_dir() and is_manifest(manifest)


def check_output(out: str | os.PathLike) -> Path:
    """Make sure a lexicon can be saved at ``out`` before any work is done: it is absent or a lexicon,
    and its directory exists (created if needed) and takes a new directory. Raises OutputError."""
    out = Path(out)
    if (out.exists() or out.is_symlink()) and not is_lexicon(out):
        kind = "a directory" if out.is_dir() else "a file"
        raise OutputError(f"output {out} exists and is {kind} that is not a lexicon (no {MANIFEST} of a "
                          f"{FORMAT} lexicon); only a lexicon is replaced: remove it or choose another path")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"output {out}: cannot create directory {out.parent}: {exc.strerror or exc}") from None
    probe = out.with_name(f"{out.name}.tmp-{os.getpid()}")
    try:
        probe.mkdir()
        probe.rmdir()
    except FileExistsError:
        pass  # our own temporary directory from an earlier save in this process: writable
    except OSError as exc:
        raise OutputError(f"output {out}: cannot write in {out.parent}: {exc.strerror or exc}") from None
    return out


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _holds_only_lexicon_files(path: Path) -> bool:
    try:
        return all(is_lexicon_file(p.name) and p.is_file() and not p.is_symlink() for p in path.iterdir())
    except OSError:
        return False


def remove_stale_temporaries(directory: str | os.PathLike) -> list[Path]:
    """Remove the ``NAME.tmp-PID`` directories a save killed by SIGKILL left in ``directory`` (the PID
    is dead; the directory holds only lexicon files). A ``NAME.old-PID`` left between the two renames
    of the swap goes back to ``NAME`` when that is missing, and is removed otherwise. Returns what
    was removed or restored."""
    done: list[Path] = []
    try:
        entries = list(Path(directory).iterdir())
    except OSError:
        return done
    for entry in entries:
        m = _TEMPORARY.match(entry.name)
        if not m or int(m["pid"]) == os.getpid() or _pid_alive(int(m["pid"])):
            continue
        if entry.is_symlink() or not entry.is_dir() or not _holds_only_lexicon_files(entry):
            continue
        final = entry.with_name(m["name"])
        if m["kind"] == "old" and not (final.exists() or final.is_symlink()) and is_lexicon(entry):
            os.rename(entry, final)
        else:
            shutil.rmtree(entry, ignore_errors=True)
        done.append(entry)
    return done


def _write(path: Path, data: bytes) -> dict:
    with open(path, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    return file_entry(data)


def save_lexicon(out: str | os.PathLike, forms_trie, heads_trie, tables: dict, readings: bytes,
                 manifest: dict, *, tables_bytes: bytes | None = None, move_graph: bytes | None = None,
                 refusals: bytes | None = None, leave_games: int = 0, quiet: bool = True,
                 threads: int = 1) -> Path:
    """Write the lexicon to ``out`` (a directory), replacing a previous lexicon (never anything
    else) only when the new one is complete. Returns the path. ``tables_bytes``: tables.json's bytes
    (``lexicon_format.tables_bytes(tables)``, made beforehand: a build makes them while its forms trie
    is built), None to make them here;
    ``move_graph``: the bytes of moves.gaddag (lexicon_service/movegen/graph.py), None for none;
    ``refusals``: the bytes of refused.tsv (``lexicon_format.refusals_bytes``), None for none;
    ``leave_games``: self-play games for a leave table (leaves.tsv, made from the complete lexicon before it
    replaces the old one; needs ``move_graph``; on ``threads`` threads), 0 for none."""
    out = check_output(out)
    remove_stale_temporaries(out.parent)
    tmp = out.with_name(f"{out.name}.tmp-{os.getpid()}")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir()
    old = None
    try:
        files = {}
        forms_trie.save(str(tmp / FORMS))
        heads_trie.save(str(tmp / HEADWORDS))
        for name in (FORMS, HEADWORDS):
            files[name] = file_entry_of(tmp / name)
        files[TABLES] = _write(tmp / TABLES, tables_bytes if tables_bytes is not None else encode_tables(tables))
        files[READINGS] = _write(tmp / READINGS, readings)
        if move_graph is not None:
            files[MOVE_GRAPH] = _write(tmp / MOVE_GRAPH, move_graph)
        if refusals is not None:
            files[REFUSALS] = _write(tmp / REFUSALS, refusals)
        _write(tmp / MANIFEST, manifest_bytes(manifest, files))
        if leave_games and move_graph is not None:
            add_leave_table(tmp, leave_games, DEFAULT_SEED, quiet, threads)
        if out.exists() or out.is_symlink():
            if not is_lexicon(out):  # appeared while we were building
                raise OutputError(f"output {out} exists and is not a lexicon; not replaced")
            old = out.with_name(f"{out.name}.old-{os.getpid()}")
            os.rename(out, old)
        os.rename(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        if old is not None and not (out.exists() or out.is_symlink()):
            os.rename(old, out)  # interrupted between the two renames: the previous lexicon stays
        raise
    if old is not None:
        if old.is_dir() and not old.is_symlink():
            shutil.rmtree(old)
        else:
            old.unlink()
    return out


def add_move_graph(path: str | os.PathLike) -> Path:
    """Build the move graph of an existing lexicon from its forms and add it (replacing one there):
    moves.gaddag is written under a temporary name and renamed, then the manifest the same way, so a
    reader sees the old lexicon or the new one. A graph under its old name (moves.kwg, a lexicon built
    before) leaves the manifest with it and is then removed: the new file replaces it."""
    root = Path(path)
    with load_lexicon(root) as lexicon:
        data = move_graph_bytes(lexicon.keys(), lexicon.rule_set)
        manifest = lexicon.manifest
    old = OLD_MOVE_GRAPH in listed_files(root, manifest)
    _add_file(root, manifest, MOVE_GRAPH, data, drop=OLD_MOVE_GRAPH if old else None)
    if old:
        (root / OLD_MOVE_GRAPH).unlink(missing_ok=True)
    return root


def add_leave_table(path: str | os.PathLike, games: int, seed: int, quiet: bool = False, threads: int = 1) -> Path:
    """Make the leave table of an existing lexicon (it needs its move graph) from `games` self-play games
    with `seed` (build_tools/leave_fitting.py) and add it as leaves.tsv (replacing one there), written as
    `add_move_graph` writes moves.gaddag."""
    return _add_self_play_table(path, LEAVES, lambda lexicon: make_leave_table(lexicon, games, seed, quiet, threads),
                                with_leaves=False)


def add_win_table(path: str | os.PathLike, games: int, seed: int, quiet: bool = False) -> Path:
    """Make the win-probability table of an existing lexicon (it needs its move graph; its leave table,
    when it has one, sets the players' level) from `games` self-play games with `seed`
    (build_tools/winprob.py) and add it as winprob.tsv (replacing one there), as `add_leave_table` does."""
    return _add_self_play_table(path, FILE_NAME, lambda lexicon: make_win_table(lexicon, games, seed, quiet),
                                with_win_table=False)


def _add_self_play_table(path: str | os.PathLike, file_name: str, make, **load_options) -> Path:
    """`make(lexicon)`'s table added to the lexicon at `path` as `file_name`; `load_options` leave out the
    table being replaced (a damaged one there is what this replaces)."""
    root = Path(path)
    try:
        lexicon = load_lexicon(root, **load_options)
    except LexiconError as exc:
        raise BuildError(str(exc)) from None
    with lexicon:
        if not lexicon.has_move_graph:
            raise BuildError(f"{root} has no move graph, which self-play needs; add it first with "
                             f"`lexicon-build --move-graph-only {root}`")
        data = make(lexicon).to_bytes()
        manifest = lexicon.manifest
    return _add_file(root, manifest, file_name, data)


def _add_file(root: Path, manifest: dict, name: str, data: bytes, drop: str | None = None) -> Path:
    """Add (or replace) the file `name` of the lexicon at `root`: the file is written under a temporary
    name and renamed, then the manifest listing it (and no longer listing `drop`) the same way, so a
    reader sees the old lexicon or the new one."""
    tmp_file = root / f"{name}.tmp-{os.getpid()}"
    tmp_manifest = root / f"{MANIFEST}.tmp-{os.getpid()}"
    try:
        entry = _write(tmp_file, data)
        os.rename(tmp_file, root / name)
        listed = {k: v for k, v in listed_files(root, manifest).items() if k != drop}
        _write(tmp_manifest, manifest_bytes(manifest, dict(listed, **{name: entry})))
        os.rename(tmp_manifest, root / MANIFEST)
    finally:
        for tmp in (tmp_file, tmp_manifest):
            if tmp.exists():
                tmp.unlink()
    return root
