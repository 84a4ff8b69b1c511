"""Pairings and results as CSV.

Import: `round,table,player1,player2` (a header line naming the columns is optional; players by name as
entered; player2 empty or `BYE` for a bye), optionally followed by `score1,score2` (a result) and `first`
(1 or 2: who started), the columns the export writes. Export: `round,table,player1,player2,score1,score2,
first,game_id,note`, one game a row in round and table order, a bye with player2 `BYE` and its score.
"""

from __future__ import annotations

import csv
import io

from lexicon_service.tournaments.model import MAX_ROUNDS, MAX_SCORE, Division, Game, TournamentInputError

COLUMNS = ["round", "table", "player1", "player2", "score1", "score2", "first", "game_id", "note"]
BYE = "BYE"
MAX_ROWS = 100_000


def _number(text: str, where: str, low: int, high: int) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise TournamentInputError(where, f"expected a whole number, found {text.strip()[:20]!r}") from None
    if not low <= value <= high:
        raise TournamentInputError(where, f"{value} is not in {low}-{high}")
    return value


def _player(text: str, index: dict[str, int], where: str) -> int:
    name = text.strip()
    if name not in index:
        raise TournamentInputError(where, f"no player named {name[:40]!r}")
    return index[name]


def read_csv(text: str, division: Division) -> list[Game]:
    """The games a CSV gives (pairings, and results when it has them) for `division`'s players."""
    index = {p.name: i for i, p in enumerate(division.players)}
    rows = list(csv.reader(io.StringIO(text)))
    if len(rows) > MAX_ROWS:
        raise TournamentInputError("file", f"more than {MAX_ROWS} rows")
    if rows and rows[0] and rows[0][0].strip().lower() == "round":
        rows = rows[1:]
    games, seen = [], set()
    for number, row in enumerate(rows, start=1):
        if not row or not "".join(row).strip():
            continue
        where = f"row {number}"
        if len(row) < 4:
            raise TournamentInputError(where, "expected round,table,player1,player2")
        game = Game(_number(row[0], where, 1, MAX_ROUNDS), _number(row[1], where, 1, 10_000),
                    _player(row[2], index, where),
                    None if row[3].strip() in ("", BYE) else _player(row[3], index, where))
        if len(row) > 4 and row[4].strip():
            game.s1 = _number(row[4], where, -MAX_SCORE, MAX_SCORE)
        if game.p2 is not None and len(row) > 5 and row[5].strip():
            game.s2 = _number(row[5], where, -MAX_SCORE, MAX_SCORE)
        if len(row) > 6 and row[6].strip():
            game.first = _number(row[6], where, 1, 2) - 1
        for p in (game.p1, game.p2):
            if p is not None and (game.round, p) in seen:
                raise TournamentInputError(where, f"{division.players[p].name} plays twice in round {game.round}")
            seen.add((game.round, p))
        if game.p1 == game.p2:
            raise TournamentInputError(where, "a player cannot play themself")
        games.append(game)
    return games


def write_csv(division: Division) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    names = [p.name for p in division.players]
    for g in sorted(division.games, key=lambda g: (g.round, g.table)):
        writer.writerow([g.round, g.table, names[g.p1], BYE if g.p2 is None else names[g.p2],
                         "" if g.s1 is None else g.s1, "" if g.s2 is None else g.s2,
                         "" if g.first is None else g.first + 1, g.game_id, g.note])
    return out.getvalue()


def write_pairings(division: Division, games) -> str:
    """`round,table,player1,player2` of `games` (what read_csv imports)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS[:4])
    for g in games:
        writer.writerow([g.round, g.table, division.players[g.p1].name,
                         BYE if g.p2 is None else division.players[g.p2].name])
    return out.getvalue()
