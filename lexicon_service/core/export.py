"""ExportGcg as a plain function: a game given move by move (players, racks, plays, exchanges, passes,
withdrawals) written as a GCG record, its scores computed by the replay (one engine), every move that
cannot be written or played refused naming its request field.
"""

from __future__ import annotations

import re

from lexicon_service.errors import FieldError, field, require
from lexicon_service.grpc_gen import game_pb2
from lexicon_service.rules import gcg
from lexicon_service.rules.gcg import GcgEvent, GcgGame, GcgPlayer, format_gcg
from lexicon_service.rules.replay import replay
from lexicon_service.tiles import UnknownLetterError
from lexicon_service.wording import counted


def export_record(rule_set, lexicon, request) -> game_pb2.ExportGcgResponse:
    """The ExportGcgRequest `request` as a record of `rule_set`, judged by `lexicon` (None: not judged)."""
    n_players = len(request.players)
    lo, hi = rule_set.game.players
    if not lo <= n_players <= hi:
        raise FieldError("players", f"{counted(n_players, 'player')}; {rule_set.id} is for {lo}-{hi}")
    game = GcgGame(players=_export_players(request.players), pragmas=[("rules", rule_set.id)])
    if request.lexicon:
        game.pragmas.append(("lexicon", request.lexicon))
    if request.description:
        require("\n" not in request.description and "\r" not in request.description,
                "description", "one line of text")
        game.pragmas.append(("description", request.description))
    game.events = [_export_event(rule_set, game, i, move) for i, move in enumerate(request.moves)]
    # Scores come from the replay itself (one engine): a first pass computes them, the second
    # checks the finished record, whose every disagreement is a move that cannot be played.
    first = replay(rule_set, game, lexicon=lexicon)
    totals = [0] * n_players
    for i, (event, line) in enumerate(zip(game.events, first.lines)):
        if line.expected_score is None:
            raise FieldError(_move_field(request.moves[i], i), "; ".join(line.problems) or "cannot be played")
        event.score = line.expected_score
        totals[line.player_index] += event.score
        event.cumulative = totals[line.player_index]
    report = replay(rule_set, game, lexicon=lexicon)
    for i, line in enumerate(report.lines):
        if line.problems:
            raise FieldError(_move_field(request.moves[i], i), "; ".join(line.problems))
    finals = [game_pb2.PlayerScore(player=p.nick, recorded=total, computed=total)
              for p, total in zip(game.players, totals)]
    return game_pb2.ExportGcgResponse(gcg=format_gcg(game), scores=[e.score for e in game.events],
                                      final_scores=finals)


_NICKNAME = re.compile(r"[\w.-]+")


_POSITION = re.compile(r"\d{1,2}[A-Za-z]|[A-Za-z]\d{1,2}")


def _export_players(players) -> list[GcgPlayer]:
    out, seen = [], set()
    for i, player in enumerate(players):
        if not _NICKNAME.fullmatch(player.nickname):
            raise FieldError(f"players[{i}].nickname", f"{player.nickname!r}: letters, digits, '_', '-', '.' only")
        if player.nickname in seen:
            raise FieldError(f"players[{i}].nickname", f"{player.nickname!r} used twice")
        if "\n" in player.name or "\r" in player.name:
            raise FieldError(f"players[{i}].name", "one line of text")
        seen.add(player.nickname)
        out.append(GcgPlayer(player.nickname, " ".join(player.name.split())))
    return out


def _move_field(move, i: int) -> str:
    return f"moves[{i}].{move.WhichOneof('move')}"


def _export_event(rule_set, game: GcgGame, i: int, move) -> GcgEvent:
    """One move as a GCG event (scores filled in later); what cannot be written is an error."""
    where = f"moves[{i}]"
    if not 0 <= move.player < len(game.players):
        raise FieldError(f"{where}.player", f"{move.player}: no such player (0-{len(game.players) - 1})")
    which = move.WhichOneof("move")
    if which is None:
        raise FieldError(where, "one of play, exchange, pass, withdraw is required")
    tile_set = rule_set.tile_set
    rack = None
    if move.rack:
        with field(f"{where}.rack"):
            tiles = tile_set.spell_rack(move.rack)
        if len(tiles) > rule_set.rack_size:
            raise FieldError(f"{where}.rack", f"{len(tiles)} tiles; a {rule_set.id} rack holds {rule_set.rack_size}")
        rack = tile_set.rack_text(tiles)
    event = GcgEvent(line=0, player=game.players[move.player].nick, kind=gcg.PASS, score=0, cumulative=0, rack=rack)
    if which == "play":
        position, word = move.play.position.strip(), move.play.word.strip()
        if not _POSITION.fullmatch(position):
            raise FieldError(f"{where}.play.position", f"{position!r}: a coordinate like 8D (across) or D8 (down)")
        if not word or len(word.split()) != 1 or len(word) > 8 * max(rule_set.rows, rule_set.columns):
            raise FieldError(f"{where}.play.word", f"{word!r}: one word of tiles")
        event.kind, event.position, event.word = gcg.PLAY, position, word
    elif which == "exchange":
        exchanged = move.exchange.strip()
        if not exchanged.isdecimal():
            try:
                exchanged = tile_set.rack_text(tile_set.spell_rack(exchanged)) if exchanged else ""
            except UnknownLetterError as exc:
                raise FieldError(f"{where}.exchange", str(exc)) from exc
        if not exchanged or (exchanged.isdecimal() and not 0 < int(exchanged) <= rule_set.rack_size):
            raise FieldError(f"{where}.exchange", f"tiles ('ABC') or a count of 1-{rule_set.rack_size}")
        event.kind, event.exchanged = gcg.EXCHANGE, exchanged
    elif which == "withdraw":
        event.kind = gcg.WITHDRAWN
    return event
