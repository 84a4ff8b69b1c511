"""TSH `.t` files (John Chew's tournament shell: one file per division), both directions.

One line per player, numbered from 1 in file order:

    Kowalski, Jan          1742 3 2 0; 402 389 50; p12 1 2 0

the name as written, the rating (0: unrated), the opponent of each round (0: a bye), ';', the player's own
score of each round played (a bye's score is its spread: 50 a bye won, -50 a forfeit, 0 absent), then
optional fields `; key values` (TSH writes `p12`: 1 started, 2 went second, 0 a bye). Blank lines and
lines starting with '#' are skipped. Writing keeps each line's spacing between name and rating and its
other fields, and writes `p12` from the games' starts when they are known: a file read and written
back is byte-identical when it is laid out as TSH lays it (one space elsewhere, '\\n' line ends).
"""

from __future__ import annotations

import re

from lexicon_service.tournaments.model import (
    MAX_PLAYERS,
    MAX_ROUNDS,
    MAX_SCORE,
    Division,
    Game,
    Player,
    TournamentInputError,
    check_name,
)

MAX_FILE = 4 << 20
_HEAD = re.compile(r"(?P<name>.*?\S)(?P<pad>\s+)(?P<rating>\d+)(?P<opps>(?:\s+\d+)*)\s*")
_INTS = re.compile(r"-?\d+")


def _ints(text: str, where: str) -> list[int]:
    words = text.split()
    if any(not _INTS.fullmatch(w) for w in words):
        raise TournamentInputError(where, f"expected whole numbers, found {text.strip()[:40]!r}")
    return [int(w) for w in words]


def _parse_line(line: str, where: str):
    head, sep, tail = line.partition(";")
    match = _HEAD.fullmatch(head)
    if not sep or not match:
        raise TournamentInputError(where, "expected 'name rating opponents; scores'")
    name = check_name(match["name"], where)
    fields = tail.split(";")
    scores = _ints(fields[0], where)
    extra = []
    for text in fields[1:]:
        key, _, value = text.strip().partition(" ")
        extra.append((key, value.strip()))
    opps = _ints(match["opps"], where)
    if len(scores) > len(opps) or len(opps) > MAX_ROUNDS:
        raise TournamentInputError(where, f"{len(scores)} scores for {len(opps)} rounds (at most {MAX_ROUNDS})")
    if any(abs(s) > MAX_SCORE for s in scores):
        raise TournamentInputError(where, f"a score past {MAX_SCORE}")
    player = Player(name, int(match["rating"]), tsh_extra=tuple(extra), tsh_pad=match["pad"])
    return player, opps, scores


def _starts_of(extra) -> list[int]:
    for key, value in extra:
        if key == "p12":
            return [int(v) for v in value.split() if v.isdigit()]
    return []


def read_t(text: str, division_name: str = "A") -> Division:
    """A division from a .t file's text (errors name the line: TournamentInputError)."""
    if len(text) > MAX_FILE:
        raise TournamentInputError("file", f"larger than {MAX_FILE} characters")
    rows = []
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        rows.append((*_parse_line(line, f"line {number}"), f"line {number}"))
        if len(rows) > MAX_PLAYERS:
            raise TournamentInputError("file", f"more than {MAX_PLAYERS} players")
    division = Division(division_name, [p for p, _, _, _ in rows])
    names = [p.name for p in division.players]
    if len(set(names)) != len(names):
        raise TournamentInputError("file", "two players have the same name")
    _games_of(division, rows)
    return division


def _games_of(division: Division, rows) -> None:
    n = len(rows)
    for i, (player, opps, scores, where) in enumerate(rows):
        starts = _starts_of(player.tsh_extra)
        for r, opp in enumerate(opps):
            score = scores[r] if r < len(scores) else None
            if opp == 0:  # a bye, or a forfeit: TSH may keep a p12 code for it (a player withdrawn)
                code = starts[r] if r < len(starts) else 0
                division.games.append(Game(r + 1, 0, i, None, s1=score, first=code - 1 if code in (1, 2) else None))
                continue
            j = opp - 1
            if not 0 <= j < n or j == i:
                raise TournamentInputError(where, f"{player.name}: round {r + 1}: no player {opp}")
            their = rows[j][1]
            if r >= len(their) or their[r] != i + 1:
                raise TournamentInputError(where, f"{player.name}: round {r + 1}: player {opp} does not list {i + 1}")
            if j < i:
                continue
            other = rows[j][2][r] if r < len(rows[j][2]) else None
            first = None
            theirs = _starts_of(rows[j][0].tsh_extra)
            if r < len(starts) and starts[r] in (1, 2):
                first = 0 if starts[r] == 1 else 1
            elif r < len(theirs) and theirs[r] in (1, 2):
                first = 1 if theirs[r] == 1 else 0
            division.games.append(Game(r + 1, 0, i, j, s1=score, s2=other, first=first))
    number_tables(division.games)


def number_tables(games: list[Game]) -> None:
    """Tables from 1 per round in the order of the games' first players, byes after them."""
    by_round: dict[int, list[Game]] = {}
    for g in games:
        by_round.setdefault(g.round, []).append(g)
    for round_games in by_round.values():
        round_games.sort(key=lambda g: (g.p2 is None, g.p1))
        for table, g in enumerate(round_games, start=1):
            g.table = table


def write_t(division: Division) -> str:
    """The division as a .t file (the module's docstring)."""
    rounds = division.rounds_paired()
    lines = []
    for i, player in enumerate(division.players):
        opps, scores, starts = [], [], []
        played_through = True
        for r in range(1, rounds + 1):
            game = next((g for g in division.games if g.round == r and g.side(i) is not None), None)
            if game is None:  # not paired this round: written as TSH writes an absence
                opps.append(0)
                starts.append(0)
                if played_through:
                    scores.append(0)
                continue
            side = game.side(i)
            opps.append(0 if game.p2 is None else (game.p2 if side == 0 else game.p1) + 1)
            starts.append(0 if game.first is None else 1 if game.first == side else 2)
            own = game.s1 if side == 0 else game.s2
            if own is None or not played_through:
                played_through = False
            else:
                scores.append(own)
        lines.append(_line(division, player, opps, scores, starts))
    return "".join(line + "\n" for line in lines)


def _line(division: Division, player: Player, opps, scores, starts) -> str:
    head = f"{player.name}{player.tsh_pad}{player.rating}" + "".join(f" {o}" for o in opps)
    text = head + ";" + "".join(f" {s}" for s in scores)
    extra = list(player.tsh_extra)
    known = any(g.first is not None for g in division.games)
    if known:
        p12 = ("p12", " ".join(str(s) for s in starts))
        at = next((k for k, (key, _) in enumerate(extra) if key == "p12"), None)
        if at is None:
            extra.append(p12)
        else:
            extra[at] = p12
    for key, value in extra:
        text += f"; {key}" + (f" {value}" if value else "")
    return text
