"""`lexicon-service client`: a small command-line client of a running server.

    lexicon-service client check -l pl-scrabble ŻÓŁW ZÓŁW      # exit 0 all valid, 1 some invalid, 2 error (as `check`)
    printf 'żółw\\nzółw\\n' | lexicon-service client check -l pl-scrabble     # words from stdin, as `check`
    lexicon-service client explain -l cs-scrabble kočka kocka
    lexicon-service client find -l pl-scrabble --anagram 'KOT?' --limit 20
    lexicon-service client find -l cs-kriskros --pattern 'CH?T*'
    lexicon-service client validate -l pl-scrabble --rack PRÓBUJE "8B PRÓBUJE"
    lexicon-service client score -r pl-scrabble --board board.txt "9F DAR"
    lexicon-service client replay -l pl-scrabble game.gcg
    lexicon-service client moves -l pl-scrabble --rack KOTABC? --setup "8E PIES" -n 5
    lexicon-service client lexicons | rulesets | health

--address (env LEXICON_ADDRESS, default localhost:50051), --token (env LEXICON_TOKEN),
--tls-ca FILE (TLS, verifying the server with this CA; env LEXICON_TLS_CA), --timeout, --json, before
the call or after it. `check`, `explain`, `validate`, `score`, `replay` and `moves` take the options of
the local commands of those names (--rules, --board, --place, --setup, --rack, --lexicon; words from stdin
when none are given) and print the same answers (`check`: a note such as a letter that is no tile goes to
stderr; with --verdict-only only the judge's "play acceptable" or "play NOT acceptable").
Exit status 0 when all is valid / agrees (`moves`: a play was found), 1 when not, 2 on an error.
"""

from __future__ import annotations

import argparse
import os
import sys
from functools import partial

from lexicon_service.command_line import INT32, UserError, check_token, message_json, read_input, seconds, whole_number
from lexicon_service.commands.check import CHECK_BATCH, batched, input_words, print_check_answers
from lexicon_service.commands.explain import explanation_lines, why_not_in
from lexicon_service.commands.moves import add_generate_arguments, exit_status, format_moves
from lexicon_service.commands.replay import add_replay_arguments
from lexicon_service.commands.validate import (add_move_arguments, join_plays, print_move, read_board_rows,
                                               split_or_answer)
from lexicon_service.command_line import read_text
from lexicon_service.commands.validate import place_tiles

# Imports inside functions: a subcommand's dependencies load when it runs, not when lexicon-service builds
# its parser, which imports every subcommand's module (startup cost: docs/development.md).


def client_options(argument_default=None) -> argparse.ArgumentParser:
    """The options of every call, accepted before the call and after it (`client check --json ...`):
    the calls take them with argument_default=SUPPRESS, so a value given before the call stays."""
    o = argparse.ArgumentParser(add_help=False, argument_default=argument_default)
    o.add_argument("--address", help="server host:port (env LEXICON_ADDRESS; default localhost:50051)")
    o.add_argument("--token", help="bearer token (env LEXICON_TOKEN)")
    o.add_argument("--tls-ca", help="use TLS, trusting this PEM CA (env LEXICON_TLS_CA)")
    o.add_argument("--tls", action="store_true", help="use TLS with the system's trusted CAs")
    o.add_argument("--timeout", type=seconds, help="deadline in seconds (default 10)")
    o.add_argument("--json", action="store_true", help="print the response as JSON")
    return o


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("client", help="call a running lexicon-service server",
                              description="Call a running lexicon-service gRPC server.", parents=[client_options()])
    p.set_defaults(timeout=10.0)
    sub = p.add_subparsers(dest="client_command", metavar="CALL")
    anywhere = [client_options(argparse.SUPPRESS)]

    c = sub.add_parser("check", help="CheckWords: are these words valid (and the whole play acceptable)?",
                       parents=anywhere)
    c.add_argument("-l", "--lexicon", required=True)
    c.add_argument("--verdict-only", action="store_true", help="only the judge's verdict, not which word failed")
    c.add_argument("words", nargs="*", help="words to check (default: read from stdin, one per line)")

    e = sub.add_parser("explain", help="ExplainWord: readings of words", parents=anywhere)
    e.add_argument("-l", "--lexicon", required=True)
    e.add_argument("words", nargs="*", metavar="word", help="words to explain (default: read from stdin, one per line)")

    f = sub.add_parser("find", help="FindWords: anagrams, patterns, prefixes", parents=anywhere)
    f.add_argument("-l", "--lexicon", required=True)
    q = f.add_mutually_exclusive_group(required=True)
    q.add_argument("--anagram", help="rack letters, '?' = blank")
    q.add_argument("--pattern", help="'?' = one tile, '*' = any run")
    q.add_argument("--prefix")
    f.add_argument("--all-tiles", action="store_true", help="anagram: use every tile")
    f.add_argument("--min-length", type=whole_number(0, INT32[1]), default=0)
    f.add_argument("--max-length", type=whole_number(0, INT32[1]), default=0)
    f.add_argument("--limit", type=whole_number(0, INT32[1]), default=0)

    for name, help_text in (("validate", "ValidateMove: is the play legal, are its words valid?"),
                            ("score", "ScoreMove: the play's score, word by word")):
        m = sub.add_parser(name, help=help_text, parents=anywhere)
        add_move_arguments(m)
        m.add_argument("-l", "--lexicon", default="", help="lexicon name on the server (judges the words)")

    r = sub.add_parser("replay", help="ReplayGame: validate and score a GCG record", parents=anywhere)
    add_replay_arguments(r)
    r.add_argument("-l", "--lexicon", default="", help="lexicon name on the server (judges the words)")

    g = sub.add_parser("moves", help="GenerateMoves: the best legal moves from a rack on a board", parents=anywhere)
    add_generate_arguments(g, setup_help="plays the server puts on the board first, in order (words not checked)",
                           json_option=False)  # --json comes with the options of every call
    g.add_argument("-l", "--lexicon", required=True, help="lexicon name on the server (it needs a move graph)")

    sub.add_parser("lexicons", help="ListLexicons", parents=anywhere)
    rs = sub.add_parser("rulesets", help="ListRuleSets", parents=anywhere)
    rs.add_argument("--source", action="store_true", help="include each rule set's source text")
    sub.add_parser("health", help="the server's health status", parents=anywhere)
    from lexicon_service.commands import game_client

    game_client.add_game_parser(sub, anywhere)
    p.set_defaults(func=run)


def _channel(args):
    import grpc

    address = args.address or os.environ.get("LEXICON_ADDRESS") or "localhost:50051"
    if not address.startswith("unix:"):  # grpc takes port 99999 as 99999 - 65536 = 34463
        from lexicon_service.commands.serve_processes import grpc_host_port

        grpc_host_port(address)
    ca = args.tls_ca or os.environ.get("LEXICON_TLS_CA")
    if ca or args.tls:
        root = None
        if ca:
            root = read_input(ca)
        return grpc.secure_channel(address, grpc.ssl_channel_credentials(root_certificates=root))
    return grpc.insecure_channel(address)


def _board_rows(args) -> list[str]:
    """The board sent with a play: --board's rows, with the tiles of --place put on them (as `validate`
    does; the rule set, which spells them, comes from --rules)."""
    rows = read_board_rows(args.board) if args.board else []
    if not args.place:
        return rows
    if not args.rules:
        raise UserError("--place needs --rules (the rule set spells the tiles)")
    from lexicon_service.rules import Board, BoardError, RuleSetError, load_rule_set


    try:
        rule_set = load_rule_set(args.rules)
        board = Board.from_rows(rule_set, rows) if rows else Board.empty(rule_set)
    except (RuleSetError, BoardError) as exc:
        raise UserError(str(exc)) from None
    for text in args.place:
        place_tiles(board, text)
    return board.to_rows()


def _read(path: str) -> str:
    return read_text(path)


def _print_replay(resp) -> None:
    """The table `replay` prints, from the server's answer (the bag is not in the answer)."""
    from lexicon_service.rules.gcg import GcgError, _event
    from lexicon_service.rules.replay import TableRow, format_table

    rows = []
    for line in resp.lines:
        try:
            move = _event(line.text, line.line, "").move_text()
        except GcgError:
            move = line.kind
        rows.append(TableRow(line.line, line.player, move, line.recorded_score,
                             line.score if line.has_score else None, line.recorded_total, None,
                             list(line.problems), list(line.notes)))
    finals = list(resp.final_scores)
    print(format_table([f.player for f in finals], rows, list(resp.notes), [f.recorded for f in finals],
                       [f.computed for f in finals]))


def run(args) -> int:
    import grpc

    if not args.client_command:
        raise UserError("which call? check, explain, find, validate, score, replay, moves, lexicons, rulesets, health")
    if args.client_command == "game":
        from lexicon_service.commands import game_client

        return game_client.run(args, _channel)
    token = args.token or os.environ.get("LEXICON_TOKEN")
    if token:
        check_token(token, "--token" if args.token else "LEXICON_TOKEN")
    metadata = (("authorization", f"Bearer {token}"),) if token else None
    make_call, print_answer = _CALLS[args.client_command]
    with _channel(args) as channel:
        try:
            answer = make_call(args, channel, dict(timeout=args.timeout, metadata=metadata))
        except grpc.RpcError as exc:
            raise UserError(f"{exc.code().name}: {exc.details()}") from None
    return print_answer(args, answer)


# Each call: make_call(args, channel, call) sends its request(s) with the keyword arguments `call`
# (timeout, metadata) and returns the answer; print_answer(args, answer) prints it and returns the exit status.

def _lexicon_stub(channel):
    from lexicon_service.grpc_gen import lexicon_pb2_grpc

    return lexicon_pb2_grpc.LexiconServiceStub(channel)


def _game_stub(channel):
    from lexicon_service.grpc_gen import game_pb2_grpc

    return game_pb2_grpc.GameServiceStub(channel)


def _check(args, channel, call) -> list:
    """In batches: words read from stdin may be more than a request takes."""
    from lexicon_service.grpc_gen import lexicon_pb2

    lex = _lexicon_stub(channel)
    return [lex.CheckWords(lexicon_pb2.CheckWordsRequest(lexicon=args.lexicon, words=batch,
                                                         verdict_only=args.verdict_only), **call)
            for batch in batched(input_words(args.words), CHECK_BATCH)]


def _print_check(args, answers: list) -> int:
    """As `check` prints it; the judge's verdict alone with --verdict-only."""
    return print_check_answers(answers, as_json=args.json, verdict_only=args.verdict_only, notes=True)


def _explain(args, channel, call) -> list:
    from lexicon_service.grpc_gen import lexicon_pb2

    lex = _lexicon_stub(channel)
    return [lex.ExplainWord(lexicon_pb2.ExplainWordRequest(lexicon=args.lexicon, word=word), **call)
            for word in input_words(args.words)]


def _print_explain(args, answers: list) -> int:
    """As `explain` prints it."""
    for answer in answers:
        if args.json:
            print(message_json(answer))
            continue
        r = answer.result
        why = why_not_in(answer.lexicon, r.message, [(f.rule, f.headword, f.detail) for f in answer.refusals])
        print("\n".join(explanation_lines(r.word, answer.readings if r.valid else [], why)))
    return 0 if all(answer.result.valid for answer in answers) else 1


def _find(args, channel, call):
    from lexicon_service.grpc_gen import lexicon_pb2

    req = lexicon_pb2.FindWordsRequest(lexicon=args.lexicon, use_all_tiles=args.all_tiles,
                                       min_length=args.min_length, max_length=args.max_length, limit=args.limit)
    for q in ("anagram", "pattern", "prefix"):
        if getattr(args, q) is not None:
            setattr(req, q, getattr(args, q))
    return _lexicon_stub(channel).FindWords(req, **call)


def _print_find(args, resp) -> int:
    if args.json:
        print(message_json(resp))
        return 0
    for w in resp.words:
        print(w.play or w.word)
    if resp.truncated:
        print("(more results: raise --limit)", file=sys.stderr)
    return 0


def _move_call(rpc: str, args, channel, call) -> tuple[list[str], list[tuple[str, object]]]:
    """The board rows sent and [(play, answer)] of ValidateMove or ScoreMove (`rpc`), one call per play; a
    play that cannot be split is judged as `validate` judges it, without a call."""
    from lexicon_service.grpc_gen import game_pb2

    board = _board_rows(args)
    method = getattr(_game_stub(channel), rpc)
    answers = []
    for play in join_plays(args.plays):
        split = split_or_answer(play, getattr(game_pb2, f"{rpc}Response"))
        if not isinstance(split, tuple):
            answers.append((play, split))
            continue
        req = getattr(game_pb2, f"{rpc}Request")(lexicon=args.lexicon, rule_set=args.rules or "", board=board,
                                                 rack=args.rack or "",
                                                 play=game_pb2.Play(position=split[0], word=split[1]))
        answers.append((play, method(req, **call)))
    return board, answers


def _print_moves_judged(args, judged: tuple[list[str], list[tuple[str, object]]]) -> int:
    rows, answers = judged
    rule_set = _rule_set_shown(args, answers) if args.show_board else None
    for play, answer in answers:
        print_move(play, answer, args.json, rule_set, rows)
    return 0 if all(answer.valid for _, answer in answers) else 1


def _rule_set_shown(args, answers):
    """--show-board: the rule set that draws the board: --rules, else the one the server judged by."""
    from lexicon_service.rules import RuleSetError, load_rule_set

    name = args.rules or next((answer.rule_set for _, answer in answers if answer.rule_set), "")
    if not name:
        raise UserError("--show-board: no play was judged by the server; give --rules")
    try:
        return load_rule_set(name)
    except RuleSetError as exc:
        raise UserError(f"--show-board: {exc}") from None


def _replay(args, channel, call):
    from lexicon_service.grpc_gen import game_pb2

    return _game_stub(channel).ReplayGame(game_pb2.ReplayGameRequest(
        lexicon=args.lexicon, rule_set=args.rules or "", gcg=_read(args.gcg)), **call)


def _print_replayed(args, resp) -> int:
    if args.json:
        print(message_json(resp))
    else:
        _print_replay(resp)
    return 0 if resp.ok else 1


def _generate_moves(args, channel, call):
    from lexicon_service.grpc_gen import game_pb2
    from lexicon_service.rules.board import split_play
    from lexicon_service.rules.reasons import PlayError

    setup = []
    for play in join_plays(args.setup):
        try:
            position, word = split_play(play)
        except PlayError as exc:
            raise UserError(f"--setup {play!r}: {exc.code.value}: {exc}") from None
        setup.append(game_pb2.Play(position=position, word=word))
    return _game_stub(channel).GenerateMoves(game_pb2.GenerateMovesRequest(
        lexicon=args.lexicon, rule_set=args.rules or "", rack=args.rack, setup=setup,
        board=_board_rows(args), limit=0 if args.all else args.n,
        min_length=args.min_length, must_use=args.must_use, must_contain=args.must_contain,
        plays_only=args.plays_only), **call)


def _print_generated(args, resp) -> int:
    """The lines `moves` prints (--json: those `moves --json` prints)."""
    from lexicon_service.grpc_gen import game_pb2

    lines = format_moves([(m.play, m.score, m.leave, m.words) for m in resp.moves], args.json)
    if lines:
        print("\n".join(lines))
    if resp.truncated and args.all:
        print(f"(more moves: the server sends at most {len(resp.moves)})", file=sys.stderr)
    return exit_status(game_pb2.GeneratedMoveKind.Name(m.kind)[len("GENERATED_MOVE_KIND_"):].lower()
                       for m in resp.moves)


def _list_lexicons(args, channel, call):
    from lexicon_service.grpc_gen import lexicon_pb2

    return _lexicon_stub(channel).ListLexicons(lexicon_pb2.ListLexiconsRequest(), **call)


def _print_lexicons(args, resp) -> int:
    if args.json:
        print(message_json(resp))
        return 0
    for info in resp.lexicons:
        print(f"{info.name}\t{info.rule_set}\t{info.language}\t{info.word_count} words")
    return 0


def _list_rule_sets(args, channel, call):
    from lexicon_service.grpc_gen import game_pb2

    return _game_stub(channel).ListRuleSets(game_pb2.ListRuleSetsRequest(include_source=args.source), **call)


def _print_rule_sets(args, resp) -> int:
    if args.json:
        print(message_json(resp))
        return 0
    for info in resp.rule_sets:
        print(f"{info.id}\t{info.language}\track {info.rack_size}\tboard {info.board_size}\t"
              f"lexicons: {', '.join(info.lexicons) or '-'}")
        if info.source_text:
            print(info.source_text)
    return 0


def _health(args, channel, call):
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    return health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), **call)


def _print_health(args, resp) -> int:
    from grpc_health.v1 import health_pb2

    print(message_json(resp) if args.json else health_pb2.HealthCheckResponse.ServingStatus.Name(resp.status))
    return 0


# call -> (make_call, print_answer)
_CALLS = {
    "check": (_check, _print_check),
    "explain": (_explain, _print_explain),
    "find": (_find, _print_find),
    "validate": (partial(_move_call, "ValidateMove"), _print_moves_judged),
    "score": (partial(_move_call, "ScoreMove"), _print_moves_judged),
    "replay": (_replay, _print_replayed),
    "moves": (_generate_moves, _print_generated),
    "lexicons": (_list_lexicons, _print_lexicons),
    "rulesets": (_list_rule_sets, _print_rule_sets),
    "health": (_health, _print_health),
}
