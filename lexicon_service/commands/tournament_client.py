"""`lexicon-service tournament create|add|import|pair|start|result|show|games|export`: a tournament held by
a server, over its TournamentService (the options of `lexicon-service client`). See commands/tournament.py."""

from __future__ import annotations

import io
import json
import os
import zipfile

from lexicon_service.command_line import UserError, message_json, read_text

# Imports inside functions: a subcommand's dependencies load when it runs, not when lexicon-service builds
# its parser, which imports every subcommand's module (startup cost: docs/development.md).

METHOD_NUMBERS = {"swiss": 1, "round-robin": 2, "king-of-the-hill": 3}


def director_key(args) -> str:
    return args.key or os.environ.get("LEXICON_DIRECTOR_KEY", "")


def run_remote(args) -> int:
    import grpc

    from lexicon_service.commands.client import _channel
    from lexicon_service.grpc_gen import tournament_pb2 as pb
    from lexicon_service.grpc_gen import tournament_pb2_grpc

    call = {"timeout": args.timeout, "metadata": (("x-director-key", director_key(args)),)}
    with _channel(args) as channel:
        stub = tournament_pb2_grpc.TournamentServiceStub(channel)
        try:
            answer = _call(stub, pb, args, call, channel)
        except grpc.RpcError as exc:
            raise UserError(f"{exc.code().name}: {exc.details()}") from None
    if answer is not None:
        print(message_json(answer) if hasattr(answer, "DESCRIPTOR") else answer)
    return 0


def _call(stub, pb, args, call, channel):
    cmd, tid, division = args.tournament_command, getattr(args, "tournament", ""), getattr(args, "division", "")
    if cmd == "create":
        resp = stub.CreateTournament(pb.CreateTournamentRequest(
            name=args.name, lexicon=args.lexicon, divisions=args.division, rounds=args.rounds,
            game_seconds=args.game_seconds, bye_points=args.bye_points, tiebreaks=args.tiebreak,
            **({"seed": args.seed} if args.seed is not None else {})), timeout=args.timeout)
        return resp if args.json else f"tournament {resp.tournament_id}\ndirector key {resp.director_key}"
    if cmd == "add":
        players = [pb.TournamentPlayer(name=n, rating=args.rating, computer=args.computer) for n in args.names]
        resp = stub.AddPlayers(pb.AddPlayersRequest(tournament_id=tid, division=division, players=players), **call)
        return resp if args.json else f"{resp.players} players"
    if cmd == "import":
        fmt = pb.DIVISION_FORMAT_CSV if args.file.lower().endswith(".csv") else pb.DIVISION_FORMAT_TSH
        resp = stub.ImportDivision(pb.ImportDivisionRequest(tournament_id=tid, division=division, format=fmt,
                                                            text=read_text(args.file)), **call)
        return resp if args.json else f"imported {resp.imported}"
    if cmd == "pair":
        resp = stub.PairRound(pb.PairRoundRequest(tournament_id=tid, division=division,
                                                  method=METHOD_NUMBERS[args.method]), **call)
        return resp if args.json else "\n".join([f"round {resp.round}"] + [_game_line(g) for g in resp.games])
    if cmd == "start":
        resp = stub.StartRound(pb.StartRoundRequest(tournament_id=tid, division=division, round=args.round), **call)
        return resp if args.json else "\n".join(
            f"table {t.table} game {t.game_id} " + " ".join(f"{s.name!r}:{s.token or '(computer)'}" for s in t.seats)
            + f" director:{t.director_token}"
            for t in resp.tables) or "no game to start"
    if cmd == "result":
        stub.SetResult(pb.SetResultRequest(tournament_id=tid, division=division, round=args.round, table=args.table,
                                           score1=args.score1, score2=args.score2, reason=args.reason), **call)
        return None
    if cmd in ("show", "games"):
        return _show(stub, pb, args, tid, division, call)
    return _export(stub, pb, args, tid, division, call, channel)


def _game_line(g) -> str:
    score = f"{g.score1}-{g.score2}" if g.HasField("score1") and g.player2 else (
        f"bye {g.score1:+d}" if g.HasField("score1") else "")
    live = f" (now {g.live_score1}-{g.live_score2})" if g.HasField("live_score1") else ""
    return f"  r{g.round} t{g.table}  {g.player1} v {g.player2 or 'BYE'}  {score}{live}  {g.game_id}".rstrip()


def _show(stub, pb, args, tid, division, call):
    if args.tournament_command == "games":
        resp = stub.ListTournamentGames(pb.ListTournamentGamesRequest(tournament_id=tid, division=division,
                                                                      round=args.round), **call)
        return resp if args.json else "\n".join(_game_line(g) for g in resp.games)
    resp = stub.GetTournament(pb.GetTournamentRequest(tournament_id=tid), **call)
    if args.json:
        return resp
    lines = [f"{resp.name} ({resp.lexicon}, {resp.rounds} rounds)"]
    for d in resp.divisions:
        lines.append(f"division {d.name}: {d.rounds_paired} rounds paired")
        lines += [f"  {s.rank:>3}  {s.name}  {s.wins:g}-{s.losses:g}  {s.spread:+d}" for s in d.standings]
    return "\n".join(lines)


def _export(stub, pb, args, tid, division, call, channel):
    fmt = pb.DIVISION_FORMAT_CSV if args.format == "csv" else pb.DIVISION_FORMAT_TSH
    text = stub.ExportDivision(pb.ExportDivisionRequest(tournament_id=tid, division=division, format=fmt),
                               **call).text
    if args.gcg:
        _write_archive(stub, pb, args.gcg, tid, call, channel)
    if args.output:
        _write_beside(args.output, text.encode("utf-8"))
        return None
    return json.dumps({"text": text}, ensure_ascii=False) if args.json else text.rstrip("\n")


def _write_archive(stub, pb, path: str, tid: str, call, channel) -> None:
    """Every started game's GCG record, `<division>-r<round>-t<table>.gcg`, in one zip."""
    from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc

    games = stub.ListTournamentGames(pb.ListTournamentGamesRequest(tournament_id=tid), **call).games
    sessions = session_pb2_grpc.GameSessionServiceStub(channel)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for g in games:
            if g.game_id:
                record = sessions.GetGameRecord(session_pb2.GetGameRecordRequest(game_id=g.game_id),
                                                timeout=call["timeout"]).gcg
                info = zipfile.ZipInfo(f"{g.division}-r{g.round}-t{g.table}.gcg", (2026, 1, 1, 0, 0, 0))
                archive.writestr(info, record)
    _write_beside(path, buffer.getvalue())


def _write_beside(path: str, data: bytes) -> None:
    """Written under a temporary name beside the file, renamed when complete."""
    temporary = f"{path}.tmp{os.getpid()}"
    with open(temporary, "wb") as out:
        out.write(data)
    os.replace(temporary, path)
