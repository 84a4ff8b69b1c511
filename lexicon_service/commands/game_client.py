"""`lexicon-service client game ...`: play a server-held game from a terminal.

    lexicon-service client game create -l pl-scrabble Ann Bob [--seed 7] [--challenge-rule void]
    lexicon-service client game create -l pl-scrabble Ann Robot --computer Robot:beginner   # the server plays Robot
    export LEXICON_GAME_TOKEN=<Ann's token>          # or --game-token on each call
    lexicon-service client game show GAME            # board with coordinates, scores, clocks, your rack
    lexicon-service client game show GAME --game-token=T   # a token may start with "-": give it with "="
    lexicon-service client game play GAME 8D WORD    # '.' = a tile on the board, lowercase = blank
    lexicon-service client game exchange GAME ABC
    lexicon-service client game pass GAME
    lexicon-service client game challenge GAME
    lexicon-service client game watch GAME           # every event as it happens
    lexicon-service client game record GAME > game.gcg
    lexicon-service client game hint GAME [--limit 5] [--simulate] # the best plays for your rack (games created --allow-hints)
    lexicon-service client game interactive GAME     # a prompt: 8D WORD | exchange ABC | pass | challenge | show | quit
    lexicon-service client game adjust GAME Ann -3 --reason WHY   # director: a player by name (or 0 = first)
    lexicon-service client game undo|end GAME --reason WHY         # with the director token

Options go before or after the action (`game show GAME --game-token T`); --json prints each
response (watch: each event) as JSON.

The game token goes in `authorization: Bearer`, or in `x-game-token` when the server itself wants a
token (--token / LEXICON_TOKEN). `client.py` registers these under `client game`.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from lexicon_service.command_line import INT32, UINT32, UINT64, UserError, check_token, message_json, whole_number

# Imports inside functions: a subcommand's dependencies load when it runs, not when lexicon-service builds
# its parser, which imports every subcommand's module (startup cost: docs/development.md).

GAME_ENDED, AWAITING_FINAL_PASS = 3, 2  # GameStatus values


def add_game_parser(client_subparsers, anywhere: list) -> None:
    """``anywhere``: parents giving every action the client's options (client.client_options); each
    action also takes --game-token after it (`game show ID --game-token T`)."""
    g = client_subparsers.add_parser("game", help="play a server-held game (GameSessionService)",
                                     description="Create, show and play server-held games.", parents=anywhere)
    g.add_argument("--game-token", default=None, help="your player (or director) token (env LEXICON_GAME_TOKEN)")
    token_after = argparse.ArgumentParser(add_help=False, argument_default=argparse.SUPPRESS)
    token_after.add_argument("--game-token", help="your player (or director) token (env LEXICON_GAME_TOKEN)")
    parents = [*anywhere, token_after]
    sub = g.add_subparsers(dest="game_command", metavar="ACTION")
    c = sub.add_parser("create", help="create a game; prints its id and one token per player", parents=parents)
    c.add_argument("-l", "--lexicon", required=True)
    c.add_argument("players", nargs="+", help="player names in turn order")
    c.add_argument("--seed", type=whole_number(*UINT64), default=None, help="reproducible bag, for tests (a small seed can be found from a rack)")
    c.add_argument("--challenge-rule", choices=["single", "double", "penalty", "void"], default=None)
    c.add_argument("--game-seconds", type=whole_number(0, 24 * 3600), default=0, help="per-player game clock (0 = none)")
    c.add_argument("--computer", action="append", default=[], type=_computer, metavar="NAME[:LEVEL]",
                   help="the server plays this seat (a player name or number, 0 = first); LEVEL best (default), "
                        "club, beginner or equity (needs the lexicon's leave table); repeatable")
    c.add_argument("--allow-hints", action="store_true",
                   help="players may ask `hint` for the best plays of their own rack (casual games)")
    c.add_argument("--director-game", action="store_true",
                   help="a game with computer seats gets a director token too (it sees no computer rack "
                        "until the game ends)")
    for name, help_text in (("show", "the game as you see it"), ("pass", "pass (or accept the last play)"),
                            ("challenge", "challenge the last play"), ("watch", "print every event as it happens"),
                            ("record", "the GCG record"), ("interactive", "play at a prompt")):
        s = sub.add_parser(name, help=help_text, parents=parents)
        s.add_argument("game_id")
    h = sub.add_parser("hint", help="the best plays for your own rack (a game created with --allow-hints)",
                       parents=parents)
    h.add_argument("game_id")
    h.add_argument("--limit", type=whole_number(1, 20), default=5, help="at most this many moves (1-20)")
    h.add_argument("--simulate", action="store_true",
                   help="rank by simulation (win chance, mean spread); the endgame's best sequence once the bag is empty")
    p = sub.add_parser("play", help="play a word: 8D WORD", parents=parents)
    p.add_argument("game_id")
    p.add_argument("position")
    p.add_argument("word")
    p.add_argument("--expected-version", type=whole_number(*UINT64), default=None)
    e = sub.add_parser("exchange", help="exchange tiles", parents=parents)
    e.add_argument("game_id")
    e.add_argument("tiles")
    for name, help_text in (("undo", "director: undo the last move"), ("end", "director: end the game")):
        s = sub.add_parser(name, help=help_text, parents=parents)
        s.add_argument("game_id")
        s.add_argument("--reason", required=True)
        if name == "end":
            s.add_argument("--scoring", choices=("as-played", "racks-deducted"), default="as-played",
                           help="as-played (default): the scores as they stand; racks-deducted: each rack "
                                "deducted as at a normal end")
    a = sub.add_parser("adjust", help="director: adjust a player's score", parents=parents)
    a.add_argument("game_id")
    a.add_argument("player", type=_player, help="the player's name as the game shows it, or number (0 = first)")
    a.add_argument("delta", type=whole_number(*INT32))
    a.add_argument("--reason", required=True)
    li = sub.add_parser("list", help="every game in progress on the server (its director key as the game token: "
                                     "LEXICON_GAME_TOKEN keeps it off the command line)", parents=parents)
    li.add_argument("--tournament", default="", metavar="ID", help="one tournament's games, ended ones too")


def _computer(text: str) -> tuple[int | str, str]:
    """--computer NAME[:LEVEL] -> (player, level)."""
    name, _, level = text.partition(":")
    return _player(name), level


def _player(text: str) -> int | str:
    """`adjust`'s player as typed: a number (0 = first; within the request field's range) or a name."""
    if text.lstrip("-").isascii() and text.lstrip("-").isdigit():
        return whole_number(*UINT32)(text)
    return text


def player_index(names: list[str], player: int | str) -> int:
    """`adjust`'s player: a number (0 = first), or a name of the game as shown (any case); a UserError
    naming the players otherwise."""
    if isinstance(player, int):
        if player < len(names):
            return player
    elif player in names:
        return names.index(player)
    else:
        folded = [i for i, name in enumerate(names) if name.casefold() == player.casefold()]
        if len(folded) == 1:
            return folded[0]
    raise UserError(f"player {player}: not a player of this game ({', '.join(names)}; or a number from 0 to "
                    f"{len(names) - 1})")


def _metadata(args):
    server_token = args.token or os.environ.get("LEXICON_TOKEN")
    game_token = args.game_token or os.environ.get("LEXICON_GAME_TOKEN")
    if game_token:
        check_token(game_token, "--game-token" if args.game_token else "LEXICON_GAME_TOKEN")
    if server_token:
        check_token(server_token, "--token" if args.token else "LEXICON_TOKEN")
    md = []
    if server_token:
        md.append(("authorization", f"Bearer {server_token}"))
        if game_token:
            md.append(("x-game-token", game_token))
    elif game_token:
        md.append(("authorization", f"Bearer {game_token}"))
    return md


def clock_text(ms: int) -> str:
    """A clock as m:ss, whole seconds rounded up (as the live page shows it); overtime as 0:00."""
    seconds = max(0, -(-ms // 1000))
    return f"{seconds // 60}:{seconds % 60:02d}"


def format_game(game) -> str:
    """The game as the live page's panel shows it: whose turn, the clocks, the bag, the last move, the
    scores labelled final only once the game has ended; no internal version number."""
    ended = game.status == GAME_ENDED
    lines = [game.board_text, "", "final scores" if ended else "scores so far"]
    for i, p in enumerate(game.players):
        mark = ">" if i == game.turn and not ended else " "
        clock = ""
        if p.time_remaining_ms > 0:
            clock = f"  clock {clock_text(p.time_remaining_ms)} left"
        elif p.time_remaining_ms < 0:
            clock = f"  overtime {clock_text(-p.time_remaining_ms)}"
        elif p.time_used_ms:
            clock = f"  used {clock_text(p.time_used_ms)}"
        you = "  (you)" if i == game.you else ""
        lines.append(f"{mark} {p.name:<12} {p.score:>5}  {p.rack_count} tiles{clock}{you}")
    if ended:
        lines.append("game over" + (f" ({game.end_reason})" if game.end_reason else ""))
    elif game.players and game.turn < len(game.players):
        lines.append(f"on turn: {game.players[game.turn].name}"
                     + ("  (awaiting the final pass)" if game.status == AWAITING_FINAL_PASS else ""))
    lines.append(f"bag: {game.bag_count} tiles")
    if game.last_move:
        lines.append(f"last move: {game.last_move}" + ("  (may be challenged)" if game.challengeable else ""))
    if game.move_deadline_ms and not ended:
        left = game.move_deadline_ms - game.now_ms
        lines.append(f"{'correction' if game.correcting else 'move'} timer: {clock_text(left)} left")
    if game.rack:
        lines.append(f"your rack: {game.rack}")
    return "\n".join(lines)


def format_listed(game) -> str:
    """One game of ListGames on one line: id, players and scores, whose turn or the end, the bag."""
    ended = game.status == GAME_ENDED
    players = " - ".join(f"{'>' if i == game.turn and not ended else ''}{p.name} {p.score}"
                         for i, p in enumerate(game.players))
    state = f"game over ({game.end_reason})" if ended else f"bag {game.bag_count}"
    return f"{game.game_id}  {game.lexicon:<12}  {players}  {state}"


def _list_games(stub, session_pb2, args, call) -> None:
    resp = stub.ListGames(session_pb2.ListGamesRequest(tournament_id=args.tournament), **call)
    if args.json:
        print(message_json(resp))
        return
    for game in resp.games:
        print(format_listed(game))
    if resp.truncated:
        print(f"(the first {len(resp.games)} games only)")


def run(args, channel_factory) -> int:
    import grpc

    from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc

    cmd = args.game_command
    if not cmd:
        raise UserError("which action? create, show, play, exchange, pass, challenge, hint, watch, record, "
                        "interactive, adjust, undo, end, list")
    md = _metadata(args)
    with channel_factory(args) as channel:
        stub = session_pb2_grpc.GameSessionServiceStub(channel)
        call = dict(timeout=args.timeout, metadata=md)
        try:
            if cmd == "create":
                rules = {None: 0, "single": 1, "double": 2, "penalty": 3, "void": 4}
                req = session_pb2.CreateGameRequest(lexicon=args.lexicon, player_names=args.players,
                                                    challenge_rule=rules[args.challenge_rule],
                                                    game_seconds=args.game_seconds,
                                                    allow_hints=args.allow_hints,
                                                    director_game=args.director_game)
                for seat, level in args.computer:
                    req.computer_players.add(seat=player_index(args.players, seat), level=level)
                if args.seed is not None:
                    req.seed = args.seed
                resp = stub.CreateGame(req, **call)
                if args.json:
                    print(message_json(resp))
                    return 0
                print(f"game {resp.game_id} ({resp.rule_set})")
                for name, token in zip(args.players, resp.player_tokens):
                    print(f"  {name}\t{token or '(computer)'}")
                print(f"  director\t{resp.director_token or '(none)'}")
                return 0
            if cmd == "list":
                _list_games(stub, session_pb2, args, call)
                return 0
            gid = args.game_id
            if cmd == "interactive" and args.json:
                raise UserError("--json: interactive play prints for a person; use show, play, ... with --json")
            if cmd == "show":
                resp = stub.GetGame(session_pb2.GetGameRequest(game_id=gid), **call)
                print(message_json(resp) if args.json else format_game(resp))
            elif cmd in ("play", "exchange", "pass"):
                _move(stub, session_pb2, gid, call, cmd, args)
            elif cmd == "challenge":
                _challenge(stub, session_pb2, gid, call, args.json)
            elif cmd == "hint":
                resp = stub.GetHint(session_pb2.GetHintRequest(game_id=gid, limit=args.limit,
                                                               simulate=args.simulate), **call)
                print(message_json(resp) if args.json else format_hint(resp))
            elif cmd == "record":
                resp = stub.GetGameRecord(session_pb2.GetGameRecordRequest(game_id=gid), **call)
                sys.stdout.write(message_json(resp) + "\n" if args.json else resp.gcg)
            elif cmd == "watch":
                _watch(stub, session_pb2, gid, md, args.json)
            elif cmd == "interactive":
                return _interactive(stub, session_pb2, gid, call)
            else:
                if cmd == "adjust":
                    names = [p.name for p in stub.GetGame(session_pb2.GetGameRequest(game_id=gid), **call).players]
                    resp = stub.AdjustScore(session_pb2.AdjustScoreRequest(
                        game_id=gid, player=player_index(names, args.player), delta=args.delta,
                        reason=args.reason), **call)
                elif cmd == "undo":
                    resp = stub.UndoLastMove(session_pb2.UndoLastMoveRequest(game_id=gid, reason=args.reason), **call)
                else:
                    resp = stub.EndGame(session_pb2.EndGameRequest(
                        game_id=gid, reason=args.reason, scoring=session_pb2.END_SCORING_RACKS_DEDUCTED
                        if args.scoring == "racks-deducted" else session_pb2.END_SCORING_AS_PLAYED), **call)
                print(message_json(resp) if args.json else format_game(resp.game))
        except grpc.RpcError as exc:
            raise UserError(f"{exc.code().name}: {exc.details()}") from None
    return 0


def _watch(stub, session_pb2, gid: str, metadata, as_json: bool) -> None:
    """Print every event of the game as it happens; a stream the server ends idle (UNAVAILABLE, reason
    WATCH_IDLE) is opened again after the last version printed."""
    import grpc

    after = 0
    while True:
        try:
            for event in stub.WatchGame(session_pb2.WatchGameRequest(game_id=gid, after_version=after),
                                        metadata=metadata):
                print(message_json(event, indent=None) if as_json else format_event(event), flush=True)
                after = event.version
            return
        except grpc.RpcError as exc:
            trailing = dict(exc.trailing_metadata() or ())
            if exc.code() != grpc.StatusCode.UNAVAILABLE or trailing.get("lexicon-reason") != "WATCH_IDLE":
                raise


def format_event(event) -> str:
    when = time.strftime("%H:%M:%S", time.localtime(event.at_ms / 1000))
    who = f"{event.player_name}: " if event.player_name else ""
    parts = [f"v{event.version} {when} {event.kind:<9} {who}{event.move}".rstrip()]
    if event.score:
        parts.append(f"{event.score:+d}")
    if event.words:
        parts.append("(" + ", ".join(event.words) + ")")
    if event.detail:
        parts.append(f"[{event.detail}]")
    parts.append("scores " + "/".join(str(s) for s in event.scores))
    if event.rack:
        parts.append(f"rack {event.rack}")
    return "  ".join(parts)


def _move(stub, pb, gid, call, cmd, args):
    req = pb.SubmitMoveRequest(game_id=gid)
    if cmd == "play":
        req.play = f"{args.position} {args.word}"
        if args.expected_version is not None:
            req.expected_version = args.expected_version
    elif cmd == "exchange":
        req.exchange = args.tiles
    else:
        setattr(req, "pass", True)
    resp = stub.SubmitMove(req, **call)
    if args.json:
        print(message_json(resp))
        return
    if cmd == "play":
        print(f"{req.play}: {resp.score:+d} ({', '.join(resp.words)})")
    print(format_game(resp.game))


def _challenge(stub, pb, gid, call, as_json: bool = False):
    resp = stub.Challenge(pb.ChallengeRequest(game_id=gid), **call)
    if as_json:
        print(message_json(resp))
        return
    if resp.play_stood:
        print(f"the play stands ({resp.outcome})")
    else:
        print(f"not valid: {', '.join(resp.invalid_words)} ({resp.outcome})")
    print(format_game(resp.game))


def _interactive(stub, pb, gid, call) -> int:
    import grpc

    print(format_game(stub.GetGame(pb.GetGameRequest(game_id=gid), **call)))
    print("commands: 8D WORD | exchange TILES | pass | challenge | show | record | quit")
    for line in sys.stdin:
        words = line.split()
        try:
            if not words:
                continue
            if words[0] in ("quit", "exit"):
                break
            if words[0] == "show":
                print(format_game(stub.GetGame(pb.GetGameRequest(game_id=gid), **call)))
            elif words[0] == "record":
                print(stub.GetGameRecord(pb.GetGameRecordRequest(game_id=gid), **call).gcg)
            elif words[0] == "pass":
                req = pb.SubmitMoveRequest(game_id=gid)
                setattr(req, "pass", True)
                print(format_game(stub.SubmitMove(req, **call).game))
            elif words[0] == "exchange" and len(words) == 2:
                print(format_game(stub.SubmitMove(pb.SubmitMoveRequest(game_id=gid, exchange=words[1]), **call).game))
            elif words[0] == "challenge":
                _challenge(stub, pb, gid, call)
            elif len(words) == 2:
                resp = stub.SubmitMove(pb.SubmitMoveRequest(game_id=gid, play=" ".join(words)), **call)
                print(f"{' '.join(words)}: {resp.score:+d} ({', '.join(resp.words)})")
                print(format_game(resp.game))
            else:
                print("?  8D WORD | exchange TILES | pass | challenge | show | record | quit")
        except grpc.RpcError as exc:
            print(f"{exc.code().name}: {exc.details()}")
    return 0


def format_hint(resp) -> str:
    """A hint for a person: the rack, then a move a line (with simulate: its win chance and mean spread)."""
    lines = [f"rack {resp.rack} (version {resp.version})"]
    for i, move in enumerate(resp.moves):
        line = f"  {move.play:<24} {move.score:>4}  {', '.join(move.words)}"
        if i < len(resp.outlooks):
            o = resp.outlooks[i]
            win = f"{100 * o.win_chance:.1f}%" if o.HasField("win_chance") else "?"
            line += f"  win {win}, spread {o.mean_spread:+.1f}" + (" (pruned)" if o.pruned else "")
        lines.append(line)
    if resp.endgame_sequence:
        lines.append(f"  endgame: {'; '.join(resp.endgame_sequence)}")
    return "\n".join(lines)
