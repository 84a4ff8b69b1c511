"""Copy every game that still reads whole out of a damaged games file into a new one (`lexicon-service
recover-games`).

The damaged file is only read (opened read-only). Its games are found by walking the events' key: the
next game id after the last one read (one index seek each); a seek that meets a damaged page is tried
again past ever shorter prefixes of that id, so only the games on damaged pages are lost. A game is copied
only when all its events read, run 1..n without a gap, start with its creation, decode and fold, and
agree with the games-in-progress table (an ended game that folds to one in progress lost its last events).
`sqlite3 .dump` cannot do this: it stops at the first damaged page of a WITHOUT ROWID table, and copies the
game it was reading cut short.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass, field

from lexicon_service.errors import GameDamaged
from lexicon_service.games.state import ENDED
from lexicon_service.games.sessions import GameSessions
from lexicon_service.games.store import SqliteStore

NEXT_CHARACTERS = "0123456789abcdefghijklmnopqrstuvwxyz"  # first characters tried when the very first seek fails


@dataclass
class Salvage:
    copied: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)  # found, but not readable whole
    skips: int = 0  # damaged stretches of keys stepped over: the games on them are not known


class _Reading:
    """A store for GameSessions.fold_rows to report damage to: only the error is needed."""

    @staticmethod
    def damaged_game(game_id: str, detail: str, whole_file: bool = False) -> GameDamaged:
        return GameDamaged(game_id, detail)


def _next_id(conn: sqlite3.Connection, after: str, result: Salvage) -> str | None:
    query = "SELECT game_id FROM events WHERE game_id > ? ORDER BY game_id LIMIT 1"
    try:
        row = conn.execute(query, (after,)).fetchone()
        return row[0] if row else None
    except sqlite3.DatabaseError:
        pass
    result.skips += 1
    probes = [after[:n - 1] + chr(ord(after[n - 1]) + 1) for n in range(len(after), 0, -1)] if after else []
    for probe in probes or list(NEXT_CHARACTERS):
        try:
            row = conn.execute(query.replace(">", ">="), (probe,)).fetchone()
        except sqlite3.DatabaseError:
            continue
        return row[0] if row else None
    return None


def _read_whole(conn: sqlite3.Connection, service, game_id: str, live: set[str] | None):
    """(column names, rows, ended) of a game that reads whole; None otherwise."""
    try:
        cursor = conn.execute("SELECT * FROM events WHERE game_id = ? ORDER BY version", (game_id,))
        rows = cursor.fetchall()
        names = [column[0] for column in cursor.description]
        events = [(row[names.index("version")], row[names.index("kind")], row[names.index("data")]) for row in rows]
        if [version for version, _, _ in events] != list(range(1, len(events) + 1)):
            return None
        state = service.fold_rows(game_id, events)
    except Exception:  # noqa: BLE001 - whatever a damaged game fails with, it is not copied
        return None
    ended = state.status == ENDED
    if live is not None and not ended and game_id not in live:
        return None
    return names, rows, ended


def recover_games(damaged: str, recovered: str) -> Salvage:
    """Copy the games of `damaged` that read whole into the new file `recovered` (which must not exist,
    not even as a dangling link). Nothing is written beside `damaged`: it is copied (with its write-ahead
    log) into a temporary directory beside `recovered` and read there; `recovered` is made there too and
    linked into place only when complete."""
    if os.path.lexists(recovered):
        raise FileExistsError(f"{recovered} exists: name a new file")
    if not os.path.isfile(damaged):
        raise FileNotFoundError(f"{damaged}: no such file")
    work = tempfile.mkdtemp(prefix=".recover-games-", dir=os.path.dirname(os.path.abspath(recovered)))
    try:
        source_path = os.path.join(work, "damaged.db")
        shutil.copyfile(damaged, source_path)
        if os.path.isfile(damaged + "-wal"):  # committed moves not yet checkpointed into the file
            shutil.copyfile(damaged + "-wal", source_path + "-wal")
        new_path = os.path.join(work, "recovered.db")
        result = _copy_games(source_path, new_path)
        os.link(new_path, recovered)  # never over a file or through a link made meanwhile (FileExistsError)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return result


def _copy_games(damaged: str, recovered: str) -> Salvage:
    source = sqlite3.connect(f"file:{damaged}?mode=ro", uri=True)
    try:
        source.execute("SELECT count(*) FROM sqlite_master").fetchone()  # not a database at all: an error here
        try:
            live = {row[0] for row in source.execute("SELECT game_id FROM live_games")}
        except sqlite3.DatabaseError:
            live = None  # damaged too: ended games cannot be told from cut ones
        service = GameSessions(_Reading(), max_games=None)
        result = Salvage()
        target = SqliteStore(recovered)
        target.close()
        out = sqlite3.connect(recovered, isolation_level=None)
        try:
            out.execute("BEGIN")
            game_id = _next_id(source, "", result)
            while game_id is not None:
                whole = _read_whole(source, service, game_id, live)
                if whole is None:
                    result.lost.append(game_id)
                else:
                    names, rows, ended = whole
                    out.executemany(f"INSERT INTO events ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
                                    rows)
                    if not ended:
                        out.execute("INSERT INTO live_games (game_id) VALUES (?)", (game_id,))
                    result.copied.append(game_id)
                game_id = _next_id(source, game_id, result)
            out.execute("COMMIT")
            out.execute("PRAGMA journal_mode=DELETE")  # one self-contained file to link into place
        finally:
            out.close()
    finally:
        source.close()
    return result
