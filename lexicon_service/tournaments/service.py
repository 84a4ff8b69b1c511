"""The tournament service: commands in, events out, over the tournament store and the game service.

Every command reads the tournament (the cached fold, caught up with the store: another server may have
appended), decides events on a copy, and appends them at the version it read; a Conflict (another server
appended first) decides again on the new state. Results of server-held games come in lazily, as clocks
do in games: any read of the tournament first records the result of each of its games that has ended
(`_sync`), so a round ends when its games end, whichever server notices first.
"""

from __future__ import annotations

import hmac
import re
import secrets
import threading
import time
import zlib

from lexicon_service.errors import Conflict, GameError, GameNotFound, PermissionDenied, Unauthenticated, shown
from lexicon_service.games.roles import new_token, token_hash
from lexicon_service.games.state import ENDED
from lexicon_service.tournaments import csvfiles, pairing, tsh
from lexicon_service.tournaments.model import (
    MAX_PLAYERS,
    MAX_ROUNDS,
    MAX_SCORE,
    TournamentInputError,
    check_name,
)
from lexicon_service.tournaments.standings import check_tiebreaks
from lexicon_service.tournaments.state import Tournament, dumps, fold
from lexicon_service.games.computer import level_refusal

TOURNAMENT_ID_RE = re.compile(r"[0-9a-f]{12}")
GAME_NAME_BAD = re.compile(r"[\s:#>()\[\]]")
MAX_DIVISIONS = 26
RETRIES = 8


MAX_COMPUTER_TABLES = 16  # tables of only computer players in one round (a fill-in is one seat, not a table)

class TournamentNotFound(GameNotFound):
    """NOT_FOUND, as an unknown game."""

    def __init__(self, tournament_id: str) -> None:
        GameError.__init__(self, f"no tournament {shown(tournament_id)}")


def game_name(name: str) -> str:
    """A player's name as a game's record can hold it (no spaces, at most 32 characters)."""
    return GAME_NAME_BAD.sub("_", name)[:32] or "_"


def _check_int(value, field: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise TournamentInputError(field, f"a whole number {low}-{high}")
    return value


class TournamentService:
    def __init__(self, store, games=None, *, rule_set_for=None, clock=time.time) -> None:
        """`games`: the GameSessions that hold the rounds' games (None: results entered by hand only);
        `rule_set_for(lexicon)`: the rule set a lexicon plays under (refuses an unknown lexicon)."""
        self.store = store
        self.games = games
        self.rule_set_for = rule_set_for
        self.clock = clock
        self._cache: dict[str, Tournament] = {}
        self._lock = threading.Lock()

    # --- reading and writing ---------------------------------------------------------------------------
    def _current(self, tournament_id: str) -> Tournament:
        if not isinstance(tournament_id, str) or not TOURNAMENT_ID_RE.fullmatch(tournament_id):
            raise TournamentNotFound(str(tournament_id)[:40])
        with self._lock:
            cached = self._cache.get(tournament_id)
        rows = self.store.load(tournament_id, cached.version if cached else 0)
        if cached is None and not rows:
            raise TournamentNotFound(tournament_id)
        t = fold(tournament_id, rows, cached.copy() if cached and rows else cached)
        with self._lock:
            if tournament_id not in self._cache or self._cache[tournament_id].version < t.version:
                self._cache[tournament_id] = t
        return t

    def _execute(self, tournament_id: str, decide, key: str | None = None):
        """decide(work) -> (events [(kind, dict)], answer); appended at the version read, retried on Conflict."""
        for _ in range(RETRIES):
            t = self._current(tournament_id)
            if key is not None:
                self._director(t, key)
            work = t.copy()
            events, answer = decide(work)
            if not events:
                return answer
            try:
                self.store.append(tournament_id, t.version, [(kind, dumps(e)) for kind, e in events])
            except Conflict:
                continue
            return answer
        raise Conflict(tournament_id)

    @staticmethod
    def _director(t: Tournament, key: str | None) -> None:
        if not key:
            raise Unauthenticated("the director key is required")
        if not hmac.compare_digest(token_hash(key), t.config["director_hash"]):
            raise PermissionDenied("only the tournament's director may do this")

    def game_ids(self, tournament_id: str) -> list[str]:
        """The ids of the server-held games of a tournament's rounds (the director's console lists them)."""
        t = self._current(tournament_id)
        return [g.game_id for d in t.divisions.values() for g in d.games if g.game_id]

    # --- commands --------------------------------------------------------------------------------------
    def create(self, name: str, lexicon: str, *, divisions=("A",), rounds: int = 7, game_seconds: int = 0,
               bye_points: int = 50, tiebreaks=(), seed: int | None = None, challenge_rule: str = "") -> tuple[str, str]:
        """-> (tournament id, director key)."""
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= 80 or not name.isprintable():
            raise TournamentInputError("name", "1-80 printable characters")
        if not isinstance(lexicon, str) or not lexicon:
            raise TournamentInputError("lexicon", "required")
        rule_set = self.rule_set_for(lexicon).id if self.rule_set_for else ""
        divisions = list(divisions) or ["A"]
        if len(divisions) > MAX_DIVISIONS or len(set(divisions)) != len(divisions):
            raise TournamentInputError("divisions", f"1-{MAX_DIVISIONS} different names")
        for i, division in enumerate(divisions):
            check_name(division, f"divisions[{i}]")
        _check_int(rounds, "rounds", 1, MAX_ROUNDS)
        _check_int(game_seconds, "game_seconds", 0, 24 * 3600)
        _check_int(bye_points, "bye_points", 0, MAX_SCORE)
        key = new_token()
        event = {"name": name, "lexicon": lexicon, "rule_set": rule_set, "divisions": divisions, "rounds": rounds,
                 "game_seconds": game_seconds, "bye_points": bye_points, "tiebreaks": list(check_tiebreaks(tiebreaks)),
                 "seed": secrets.randbits(32) if seed is None else _check_int(seed, "seed", 0, 2**63 - 1),
                 "challenge_rule": challenge_rule, "director_hash": token_hash(key), "at": self.clock()}
        for _ in range(4):
            tournament_id = secrets.token_hex(6)
            try:
                self.store.append(tournament_id, 0, [("created", dumps(event))])
            except Conflict:
                continue
            return tournament_id, key
        raise RuntimeError("could not allocate a tournament id")

    def add_players(self, tournament_id: str, key: str, division: str, players) -> int:
        """players: [{name, rating?, federation_id?, computer?}]; -> the division's number of players."""
        def decide(t: Tournament):
            d = self._division(t, division)
            names = {p.name for p in d.players}
            events = []
            for i, p in enumerate(players):
                name = check_name(p.get("name"), f"players[{i}].name")
                if name in names:
                    raise TournamentInputError(f"players[{i}].name", f"{name!r} is already entered")
                names.add(name)
                fed = p.get("federation_id", "") or ""
                if not isinstance(fed, str) or len(fed) > 40 or not fed.isprintable():
                    raise TournamentInputError(f"players[{i}].federation_id", "up to 40 printable characters")
                level = p.get("computer", "") or ""
                events.append(("player", {"division": division, "name": name, "federation_id": fed,
                                          "rating": _check_int(p.get("rating", 0), f"players[{i}].rating", 0, 4000),
                                          "computer": self._level(level, f"players[{i}].computer")}))
            if len(names) > MAX_PLAYERS:
                raise TournamentInputError("players", f"at most {MAX_PLAYERS} in a division")
            if d.games and events:
                raise TournamentInputError("players", "the division has pairings: players are entered before")
            return events, len(names)
        return self._execute(tournament_id, decide, key)

    @staticmethod
    def _level(level: str, field: str) -> str:
        if level and level_refusal(level):
            raise TournamentInputError(field, level_refusal(level))
        return level

    @staticmethod
    def _division(t: Tournament, division: str):
        if division not in t.divisions:
            raise TournamentInputError("division", f"no division {str(division)[:40]!r}; "
                                                   f"divisions: {', '.join(t.divisions)}")
        return t.divisions[division]

    def pair(self, tournament_id: str, key: str, division: str, method: str = "swiss") -> list:
        """Pair the division's next round by `method` (pairing.METHODS); -> its games."""
        def decide(t: Tournament):
            d = self._division(t, division)
            if d.rounds_paired() >= t.config["rounds"]:
                raise TournamentInputError("round", f"all {t.config['rounds']} rounds are paired")
            games = pairing.pair_round(d, method, t.config["seed"], t.config["bye_points"],
                                       tiebreaks=t.config["tiebreaks"])
            return [_paired(division, games[0].round, method, games)], games
        self._sync(tournament_id)
        return self._execute(tournament_id, decide, key)

    def import_csv(self, tournament_id: str, key: str, division: str, text: str) -> int:
        """Pairings (and results, when the file has them) of rounds not yet paired; -> games imported."""
        def decide(t: Tournament):
            d = self._division(t, division)
            games = csvfiles.read_csv(text, d)
            return _imported(division, d, games), len(games)
        return self._execute(tournament_id, decide, key)

    def import_t(self, tournament_id: str, key: str, division: str, text: str) -> int:
        """A TSH .t file into an empty division: its players, pairings and results; -> players."""
        def decide(t: Tournament):
            d = self._division(t, division)
            if d.players:
                raise TournamentInputError("division", "a .t file is imported into a division with no players")
            read = tsh.read_t(text, division)
            events = [("player", {"division": division, "name": p.name, "rating": p.rating, "federation_id": "",
                                  "computer": "", "tsh_extra": [list(x) for x in p.tsh_extra], "tsh_pad": p.tsh_pad})
                      for p in read.players]
            return events + _imported(division, d, read.games), len(read.players)
        return self._execute(tournament_id, decide, key)

    def start_round(self, tournament_id: str, key: str, division: str, rnd: int, client: str = "") -> list[dict]:
        """Start the round's games on the server (the event's lexicon, rules and clocks; a computer
        player's seat played by the server). -> per table {table, game_id, director_token, players: [{name,
        token}]} in seat order (the starter first): the tokens to hand to the players (a computer's is
        empty), and the game's director token for the tournament's director. A round with tables of only
        computer players counts as one start of such games for `client` (games/creation_rate.py), and holds
        at most MAX_COMPUTER_TABLES of them: the bound on computer-only games holds through tournaments."""
        if self.games is None or self.rule_set_for is None:
            raise TournamentInputError("round", "this server holds no games")
        t = self._current(tournament_id)
        self._director(t, key)
        d = self._division(t, division)
        games = [g for g in d.round_games(_check_int(rnd, "round", 1, MAX_ROUNDS)) if g.p2 is not None]
        if not games:
            raise TournamentInputError("round", f"round {rnd} of {division} is not paired")
        rule_set = self.rule_set_for(t.config["lexicon"])
        waiting = [g for g in games if not (g.game_id or g.played)]
        self._count_computer_tables(t, d, waiting, client)
        return [s for s in (self._start_table(tournament_id, t, d, g, rule_set) for g in waiting) if s is not None]

    def _count_computer_tables(self, t: Tournament, d, games, client: str) -> None:
        computer_only = sum(1 for g in games if all(t.computer.get((d.name, p)) for p in (g.p1, g.p2)))
        if computer_only > MAX_COMPUTER_TABLES:
            raise TournamentInputError("round", f"{computer_only} tables of only computer players; at most "
                                       f"{MAX_COMPUTER_TABLES} in a round")
        if computer_only:
            self.games.computer_game_rate.take(client)

    def _start_table(self, tournament_id: str, t: Tournament, d, g, rule_set) -> dict | None:
        """One table's game started and recorded; None when another server started the table first (the
        game made here is then ended at once, so that a table has one game)."""
        seats = [g.p1, g.p2] if g.first != 1 else [g.p2, g.p1]
        names = [game_name(d.players[p].name) for p in seats]
        if names[0] == names[1]:
            names[1] = names[1][:30] + "_2"
        levels = [t.computer.get((d.name, p), "") for p in seats]
        game_id, tokens, director, _ = self.games.create_game(
            t.config["lexicon"], rule_set, names, seed=_game_seed(t, d.name, g),
            challenge_rule=t.config["challenge_rule"], game_seconds=t.config["game_seconds"],
            computer_levels=levels if any(levels) else (), client=None, director_game=True)

        def decide(work: Tournament):
            if work.game(d.name, g.round, g.table).game_id:
                return [], False
            return [("started", {"division": d.name, "round": g.round, "table": g.table, "game_id": game_id})], True
        if not self._execute(tournament_id, decide):
            self.games.end_game(game_id, director, "this table was started by another request")
            return None
        return {"table": g.table, "game_id": game_id, "director_token": director,
                "players": [{"name": d.players[p].name, "token": tok} for p, tok in zip(seats, tokens)]}

    def _sync(self, tournament_id: str) -> Tournament:
        """Record the result of every game of the tournament that has ended; the tournament after."""
        t = self._current(tournament_id)
        if self.games is None:
            return t
        events = []
        for name, d in t.divisions.items():
            for g in d.games:
                if not g.game_id or g.played:
                    continue
                state = self.games.tick(g.game_id)
                if state.status != ENDED:
                    continue
                scores = state.scores if g.first != 1 else list(reversed(state.scores))
                events.append(("result", {"division": name, "round": g.round, "table": g.table, "s1": scores[0],
                                          "s2": scores[1], "source": "game", "reason": "", "at": self.clock()}))
        if not events:
            return t

        def decide(work: Tournament):
            fresh = [e for e in events if not work.game(e[1]["division"], e[1]["round"], e[1]["table"]).played]
            return fresh, None
        self._execute(tournament_id, decide)
        return self._current(tournament_id)

    def set_result(self, tournament_id: str, key: str, division: str, rnd: int, table: int, s1: int,
                   s2: int | None, reason: str) -> None:
        """A director enters a result by hand (a game played on a board) or corrects one, with a reason."""
        if not isinstance(reason, str) or not reason.strip() or len(reason) > 200 or not reason.isprintable():
            raise TournamentInputError("reason", "why, in 1-200 printable characters")

        def decide(t: Tournament):
            self._division(t, division)
            g = t.game(division, rnd, table)
            if g is None:
                raise TournamentInputError("table", f"no table {table} in round {rnd} of {division}")
            _check_int(s1, "score1", -MAX_SCORE, MAX_SCORE)
            if g.p2 is not None:
                _check_int(s2, "score2", -MAX_SCORE, MAX_SCORE)
            return [("result", {"division": division, "round": rnd, "table": table, "s1": s1,
                                "s2": s2 if g.p2 is not None else None, "source": "director",
                                "reason": reason.strip(), "at": self.clock()})], None
        self._sync(tournament_id)
        self._execute(tournament_id, decide, key)

    def view(self, tournament_id: str) -> Tournament:
        """The tournament now (ended games' results recorded first)."""
        return self._sync(tournament_id)

    def records(self, tournament_id: str) -> dict[str, str]:
        """Every started game's GCG record by file name: `<division>-r<round>-t<table>.gcg`."""
        t = self._sync(tournament_id)
        out = {}
        for name, d in t.divisions.items():
            for g in d.games:
                if g.game_id and self.games is not None:
                    out[f"{name}-r{g.round}-t{g.table}.gcg"] = self.games.record(g.game_id)[0]
        return out


def _game_seed(t: Tournament, division: str, g) -> int:
    """Each game's bag from the event's seed: a tournament replays the same."""
    return (t.config["seed"] * 1_000_003 + g.round * 1009 + g.table * 7 + zlib.crc32(division.encode())) % 2**63


def _paired(division: str, rnd: int, method: str, games) -> tuple[str, dict]:
    return ("paired", {"division": division, "round": rnd, "method": method,
                       "games": [{"table": g.table, "p1": g.p1, "p2": g.p2, "first": g.first, "s1": g.s1
                                  if g.p2 is None else None} for g in games]})


def _imported(division: str, d, games) -> list:
    """The events of imported games: pairings of rounds after those paired, then their results."""
    events = []
    done = d.rounds_paired()
    rounds = sorted({g.round for g in games})
    if rounds and (rounds[0] != done + 1 or rounds != list(range(rounds[0], rounds[-1] + 1))):
        raise TournamentInputError("round", f"the file's rounds {rounds[0]}-{rounds[-1]} must follow round {done}")
    for rnd in rounds:
        round_games = [g for g in games if g.round == rnd]
        tables = [g.table for g in round_games]
        if len(set(tables)) != len(tables):
            raise TournamentInputError("table", f"round {rnd} uses a table twice")
        events.append(_paired(division, rnd, "import", round_games))
        for g in round_games:
            if g.p2 is not None and g.s1 is not None and g.s2 is not None:
                events.append(("result", {"division": division, "round": rnd, "table": g.table, "s1": g.s1,
                                          "s2": g.s2, "source": "import", "reason": "", "at": 0}))
    return events
