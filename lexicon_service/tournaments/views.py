"""What the doors answer about a tournament, as plain JSON-ready dicts (HTTP and the CLI share them)."""

from __future__ import annotations

from lexicon_service.tournaments.ratings import ratings_after
from lexicon_service.tournaments.standings import standings, standings_json
from lexicon_service.tournaments.state import Tournament


def game_view(t: Tournament, division: str, g, live=None) -> dict:
    """One game: its players by name, scores (`live`: (scores, ended) of a game in progress), game id."""
    names = [p.name for p in t.divisions[division].players]
    out = {"division": division, "round": g.round, "table": g.table, "player1": names[g.p1],
           "player2": None if g.p2 is None else names[g.p2], "score1": g.s1, "score2": g.s2,
           "first": None if g.first is None else g.first + 1, "gameId": g.game_id,
           "status": "done" if g.played else "playing" if g.game_id else "paired"}
    if g.note:
        out["note"] = g.note
    if live is not None and not g.played:
        scores = live if g.first != 1 else list(reversed(live))
        out["liveScore1"], out["liveScore2"] = scores[0], scores[1]
    return out


def games_view(t: Tournament, live_scores=None) -> list[dict]:
    """Every game of every division, by division, round and table. `live_scores(game_id)`: a game in
    progress's scores in seat order (None: not known)."""
    out = []
    for name, d in t.divisions.items():
        for g in sorted(d.games, key=lambda g: (g.round, g.table)):
            live = live_scores(g.game_id) if live_scores and g.game_id and not g.played else None
            out.append(game_view(t, name, g, live))
    return out


def tournament_view(t: Tournament, live_scores=None) -> dict:
    divisions = []
    for name, d in t.divisions.items():
        rows = standings(d, t.config["tiebreaks"])
        complete = all(d.round_complete(r) for r in range(1, d.rounds_paired() + 1))
        after = ratings_after(d) if complete and d.rounds_paired() else None
        divisions.append({
            "name": name, "roundsPaired": d.rounds_paired(),
            "players": [{"name": p.name, "rating": p.rating, "federationId": p.federation_id,
                         "computer": t.computer.get((name, i), "")} for i, p in enumerate(d.players)],
            "standings": [dict(s, points=r.points, ratingAfter=after[r.player] if after else None)
                          for s, r in zip(standings_json(rows)["standings"], rows)]})
    config = t.config
    return {"tournamentId": t.tournament_id, "name": config["name"], "lexicon": config["lexicon"],
            "ruleSet": config["rule_set"], "rounds": config["rounds"], "gameSeconds": config["game_seconds"],
            "byePoints": config["bye_points"], "tiebreaks": config["tiebreaks"], "version": t.version,
            "divisions": divisions, "games": games_view(t, live_scores),
            "corrections": [{"division": c["division"], "round": c["round"], "table": c["table"],
                             "score1": c["s1"], "score2": c["s2"], "reason": c["reason"]} for c in t.corrections]}
