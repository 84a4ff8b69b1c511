"""A tournament as the fold of its events (JSON objects; the store holds them as text).

Events (kind: fields):
  created: name, rule_set, lexicon, divisions, rounds, game_seconds, bye_points, tiebreaks, seed,
           challenge_rule, director_hash, at
  player: division, name, rating, federation_id, computer (a computer player's level, "" a person)
  paired: division, round, method, games [{table, p1, p2, first, s1}]   (a bye: p2 null, s1 its score)
  started: division, round, table, game_id
  result: division, round, table, s1, s2, source ("game" | "director" | "import"), reason, at
Applying an event needs nothing but the state: every server folds the same log to the same tournament.
A game or player is never changed in place (a copy's lists share them): an event replaces the game.
"""

from __future__ import annotations

import dataclasses
import json

from lexicon_service.tournaments.model import Division, Game, Player


@dataclasses.dataclass
class Tournament:
    tournament_id: str
    config: dict
    divisions: dict[str, Division]
    computer: dict[tuple[str, int], str] = dataclasses.field(default_factory=dict)
    version: int = 0
    corrections: list[dict] = dataclasses.field(default_factory=list)

    def division(self, name: str) -> Division:
        return self.divisions[name]

    def game(self, division: str, rnd: int, table: int) -> Game | None:
        return next((g for g in self.divisions[division].games if g.round == rnd and g.table == table), None)

    def copy(self) -> "Tournament":
        return Tournament(self.tournament_id, self.config, {k: d.copy() for k, d in self.divisions.items()},
                          dict(self.computer), self.version, list(self.corrections))


def dumps(event: dict) -> str:
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def apply(t: Tournament | None, tournament_id: str, kind: str, event: dict) -> Tournament:
    if kind == "created":
        return Tournament(tournament_id, event, {name: Division(name) for name in event["divisions"]})
    division = t.divisions[event["division"]]
    if kind == "player":
        division.players.append(Player(event["name"], event["rating"], event["federation_id"],
                                       tuple(tuple(x) for x in event.get("tsh_extra", ())),
                                       event.get("tsh_pad", " ")))
        if event.get("computer"):
            t.computer[(division.name, len(division.players) - 1)] = event["computer"]
    elif kind == "paired":
        for g in event["games"]:
            division.games.append(Game(event["round"], g["table"], g["p1"], g["p2"], s1=g.get("s1"),
                                       first=g.get("first")))
    elif kind == "started":
        division.replace_game(event["round"], event["table"], game_id=event["game_id"])
    elif kind == "result":
        if t.game(event["division"], event["round"], event["table"]).played and event["source"] == "director":
            t.corrections.append(event)
        division.replace_game(event["round"], event["table"], s1=event["s1"], s2=event["s2"],
                              note=event.get("reason", ""))
    return t


def fold(tournament_id: str, rows, t: Tournament | None = None) -> Tournament | None:
    for version, kind, data in rows:
        t = apply(t, tournament_id, kind, json.loads(data))
        t.version = version
    return t
