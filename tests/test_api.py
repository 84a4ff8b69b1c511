"""The typed API (issue 14): enums filled from the rules engine's tables, separate messages per RPC,
google.rpc error details, full rule sets, board and leave in move answers, final state in replay
answers, ExportGcg, reflection v1 with comments. A real server on port 0 (fixtures of test_service)."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from google.protobuf import descriptor_pb2, json_format
from google.rpc import error_details_pb2
from grpc_reflection.v1alpha import reflection_pb2
from grpc_status import rpc_status

from lexicon_service.grpc_gen import game_pb2, lexicon_pb2
from lexicon_service.rules import Board, Reason, list_rule_sets, load_rule_set, parse_gcg, replay, validate_move
from lexicon_service.rules import gcg as gcg_module
from lexicon_service.rules.ruleset_text import _CHOICES
from lexicon_service.core import messages
from test_service import move, rpc_error, write_lexicon  # noqa: F401

DATA = Path(__file__).resolve().parent / "data" / "gcg"


# --- enums: one mapping each, covering both sides ------------------------------------------------
def test_every_reason_code_has_its_move_reason_and_back():
    assert set(messages.MOVE_REASONS) == set(Reason)
    values = set(game_pb2.MoveReason.values()) - {game_pb2.MOVE_REASON_UNSPECIFIED}
    assert sorted(messages.MOVE_REASONS.values()) == sorted(values)
    for reason, value in messages.MOVE_REASONS.items():
        assert game_pb2.MoveReason.Name(value) == f"MOVE_REASON_{reason.value}"


def test_every_gcg_event_kind_has_its_event_type():
    kinds = {getattr(gcg_module, name) for name in
             ("PLAY", "WITHDRAWN", "EXCHANGE", "PASS", "CHALLENGE_BONUS", "TIME_PENALTY", "END_RACK")}
    assert set(messages.EVENT_TYPES) == kinds
    typed = set(messages.EVENT_TYPES.values()) | {game_pb2.REPLAY_EVENT_TYPE_END_RACK_PENALTY}
    assert typed == set(game_pb2.ReplayEventType.values()) - {game_pb2.REPLAY_EVENT_TYPE_UNSPECIFIED}


@pytest.mark.parametrize("section, name, enum, prefix", [
    ("end", "out_bonus", game_pb2.EndRules.OutBonus, "OUT_BONUS"),
    ("challenge", "rule", game_pb2.ChallengeRules.Rule, "RULE"),
    ("timer", "timeout", game_pb2.TimerRules.Timeout, "TIMEOUT"),
])
def test_every_rule_set_choice_has_its_enum_value(section, name, enum, prefix):
    choices = _CHOICES[(section, name)]
    values = {messages._enum_value(enum, prefix, choice) for choice in choices}
    assert values == set(enum.values()) - {0}


# --- move answers ------------------------------------------------------------------------------------
def test_validate_move_answers_typed_reason_board_and_leave(game):
    resp = game.ValidateMove(move(lexicon="pl-scrabble", rack="KOT?ABC", play=("8H", "KOt")), timeout=5)
    assert isinstance(resp, game_pb2.ValidateMoveResponse)
    assert (resp.valid, resp.reason, resp.reason_code) == (True, "OK", game_pb2.MOVE_REASON_OK)
    assert resp.board[7] == "." * 7 + "KOt" + "." * 5 and len(resp.board) == 15
    assert resp.HasField("rack_leave") and resp.rack_leave == "TABC"  # the blank played the t
    # The board answered is a board a client can send back: the next play builds on it.
    nxt = game.ValidateMove(move(lexicon="pl-scrabble", board=list(resp.board), play=("8H", "KOtY")), timeout=5)
    assert nxt.valid and nxt.board[7].startswith("." * 7 + "KOtY")


def test_score_move_has_its_own_types_and_the_same_fields(game):
    req = game_pb2.ScoreMoveRequest(rule_set="pl-scrabble", rack="KOTY", play=game_pb2.Play(position="8H", word="KOTY"))
    resp = game.ScoreMove(req, timeout=5)
    assert isinstance(resp, game_pb2.ScoreMoveResponse)
    assert resp.reason_code == game_pb2.MOVE_REASON_OK and resp.HasField("rack_leave") and resp.rack_leave == ""


@pytest.mark.parametrize("rack, play, reason", [
    ("", ("8H", "KOT"), Reason.OK),                         # no rack: no leave
    ("PSY", ("8H", "KOT"), Reason.TILE_NOT_IN_RACK),        # placed, but not from this rack: no leave
    ("", ("8Z", "KOT"), Reason.OFF_BOARD),                  # not placed: no board either
    ("", ("1A", "KOT"), Reason.FIRST_PLAY_NOT_ON_CENTRE),
])
def test_refused_or_rackless_moves_have_no_leave(game, rack, play, reason):
    resp = game.ValidateMove(move(lexicon="pl-scrabble", rack=rack, play=play), timeout=5)
    assert resp.reason_code == messages.MOVE_REASONS[reason] and resp.reason == reason.value
    assert not resp.HasField("rack_leave")
    local = validate_move(load_rule_set("pl-scrabble"), None, rack or None, play)
    assert bool(resp.board) == (local.score is not None)


def test_every_reason_code_comes_back_typed_as_the_string_says(game):
    for bad in (("8D", "ĄĄĄĄĄĄĄĄ"), ("8H", "kot"), ("8G", "ZZZZZZ"), ("8H", "K")):
        resp = game.ScoreMove(move(game_pb2.ScoreMoveRequest, rule_set="pl-scrabble", play=bad), timeout=5)
        assert resp.reason != "OK"
        assert game_pb2.MoveReason.Name(resp.reason_code) == "MOVE_REASON_" + resp.reason


# --- errors: google.rpc.BadRequest naming the field -----------------------------------------------
@pytest.mark.parametrize("call, req, field", [
    ("ValidateMove", game_pb2.ValidateMoveRequest(lexicon="pl-scrabble", play=game_pb2.Play(word="KOT")),
     "play.position"),
    ("ValidateMove", game_pb2.ValidateMoveRequest(lexicon="pl-scrabble", rack="KOQ",
                                                  play=game_pb2.Play(position="8H", word="KOT")), "rack"),
    ("CheckWords", lexicon_pb2.CheckWordsRequest(lexicon="pl-scrabble", words=["kot", ""]), "words[1]"),
])
def test_invalid_argument_carries_a_field_violation(game, lex, call, req, field):
    stub = game if call != "CheckWords" else lex
    err = rpc_error(getattr(stub, call), req)
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and err.details().startswith(field + ":")
    status = rpc_status.from_call(err)
    assert status is not None and status.message == err.details()
    bad = error_details_pb2.BadRequest()
    assert status.details[0].Unpack(bad)
    assert [v.field for v in bad.field_violations] == [field]
    assert bad.field_violations[0].description in err.details()


def test_not_found_has_no_details(lex):
    err = rpc_error(lex.CheckWords, lexicon_pb2.CheckWordsRequest(lexicon="xx", words=["kot"]))
    assert err.code() == grpc.StatusCode.NOT_FOUND and rpc_status.from_call(err) is None


# --- rule sets as fields -------------------------------------------------------------------------------
def test_rule_sets_carry_every_rule(game):
    infos = {info.id: info for info in game.ListRuleSets(game_pb2.ListRuleSetsRequest(), timeout=5).rule_sets}
    assert set(infos) >= set(list_rule_sets())
    for rid, info in infos.items():
        rs = load_rule_set(rid)
        assert (info.name, info.rows, info.columns, info.rack_size) == (rs.name, rs.rows, rs.columns, rs.rack_size)
        squares = {(p.row, p.column): (p.letter_multiplier, p.word_multiplier) for p in info.premium_squares}
        expected = {(r, c): rs.premium(r, c) for r in range(rs.rows) for c in range(rs.columns)
                    if rs.premium(r, c) != (1, 1)}
        assert squares == expected
        assert sum(t.count for t in info.tiles) == info.total_tiles == rs.tile_set.total_tiles
        assert info.first_play.min_tiles == rs.first_play.min_tiles
        assert info.first_play.redraw_if_blocked == (rs.id == "cs-kriskros")
        cover = rs.first_play.must_cover
        assert info.first_play.must_cover == ("" if cover is None else f"{chr(65 + cover[1])}{cover[0] + 1}")
        assert game_pb2.ChallengeRules.Rule.Name(info.challenge.rule) == "RULE_" + rs.challenge.rule.upper()
        assert info.end.scoreless_turns == rs.end.scoreless_turns
        assert info.timer.move_seconds == rs.timer.move_seconds
        assert info.words.same_word_twice_allowed == rs.same_word_twice_allowed
        assert not info.source_text
    pl = infos["pl-scrabble"]
    a1 = next(p for p in pl.premium_squares if p.square == "A1")
    assert (a1.row, a1.column, a1.premium, a1.word_multiplier) == (0, 0, "TW", 3)
    assert not infos["cs-kriskros"].words.same_word_twice_allowed


def test_word_count_reaches_json_as_a_number(lex):
    info = lex.ListLexicons(lexicon_pb2.ListLexiconsRequest(), timeout=5).lexicons[0]
    assert isinstance(json_format.MessageToDict(info)["wordCount"], int) and info.word_count > 0


# --- replay: typed events and the final state ---------------------------------------------------------
def test_replay_answers_event_types_and_final_state(game):
    text = (DATA / "pl-blank-premium.gcg").read_text(encoding="utf-8")
    resp = game.ReplayGame(game_pb2.ReplayGameRequest(rule_set="pl-scrabble", gcg=text), timeout=10)
    record = parse_gcg(text)
    local = replay(load_rule_set("pl-scrabble"), record)
    types = [game_pb2.ReplayEventType.Name(line.event_type).removeprefix("REPLAY_EVENT_TYPE_") for line in resp.lines]
    assert types[:5] == ["TILE_PLACEMENT_MOVE"] * 5
    assert types[5:8] == ["PHONY_TILES_RETURNED", "EXCHANGE", "PASS"]
    assert types[-3:] == ["END_RACK_PENALTY", "END_RACK_PENALTY", "TIME_PENALTY"]
    assert list(resp.final_board) == local.board.to_rows() and resp.final_board[7] == "SPRÓBUJE" + "." * 7
    tiles_on_board = sum(1 for row in local.board.letters if row is not None)
    racks = {r.player: r for r in resp.final_racks}
    assert resp.bag_count + tiles_on_board + sum(r.tile_count for r in racks.values()) == 100
    # Both players' racks are shown by their end-of-game lines.
    assert (racks["Ala"].rack_known, racks["Ala"].rack, racks["Ala"].tile_count) == (True, "IKLNOTW", 7)
    assert (racks["Bob"].rack_known, racks["Bob"].rack) == (True, "AEIKNYŻ")


def test_replay_of_an_unfinished_game_knows_counts_not_racks(game):
    text = "#player1 a A\n#player2 b B\n>a: 8H KOT +10 10\n"
    resp = game.ReplayGame(game_pb2.ReplayGameRequest(rule_set="pl-scrabble", gcg=text), timeout=5)
    assert resp.bag_count == 100 - 14 - 3
    assert [(r.tile_count, r.rack_known) for r in resp.final_racks] == [(7, False), (7, False)]


# --- ExportGcg -----------------------------------------------------------------------------------------
def export_request(moves, **kw):
    players = [game_pb2.ExportPlayer(nickname="Ala", name="Alicja Nowak"), game_pb2.ExportPlayer(nickname="Bob")]
    return game_pb2.ExportGcgRequest(players=players, moves=moves, **kw)


def test_export_gcg_writes_a_record_that_replays_clean(game):
    moves = [
        game_pb2.ExportMove(player=0, rack="BEJPRUÓ", play=game_pb2.Play(position="8B", word="PRÓBUJE")),
        game_pb2.ExportMove(player=1, rack="?AMPRSY", play=game_pb2.Play(position="A3", word="PRYMAS")),
        game_pb2.ExportMove(player=0, play=game_pb2.Play(position="9F", word="DAR")),
        game_pb2.ExportMove(player=1, exchange="AB"),
        game_pb2.ExportMove(player=0, play=game_pb2.Play(position="9F", word="...WIT")),
        game_pb2.ExportMove(player=0, withdraw=True),
        game_pb2.ExportMove(player=1, **{"pass": True}),
    ]
    resp = game.ExportGcg(export_request(moves, lexicon="pl-scrabble", description="a test"), timeout=10)
    assert list(resp.scores) == [96, 87, 17, 0, 9, -9, 0]  # the worked examples of RULES.md
    assert [(s.player, s.recorded) for s in resp.final_scores] == [("Ala", 113), ("Bob", 87)]
    assert "#rules pl-scrabble\n" in resp.gcg and "#lexicon pl-scrabble\n" in resp.gcg
    assert ">Ala: BEJPRUÓ 8B PRÓBUJE +96 96\n" in resp.gcg and ">Bob: -AB +0 87\n" in resp.gcg
    back = game.ReplayGame(game_pb2.ReplayGameRequest(gcg=resp.gcg), timeout=10)
    assert back.ok, [line.problems for line in back.lines]
    assert [line.score for line in back.lines] == list(resp.scores)


@pytest.mark.parametrize("moves, field", [
    ([game_pb2.ExportMove(player=0, play=game_pb2.Play(position="1A", word="KOT"))], "moves[0].play"),
    ([game_pb2.ExportMove(player=0, play=game_pb2.Play(position="8H", word="KOT")),
      game_pb2.ExportMove(player=1, play=game_pb2.Play(position="1A", word="PIES"))], "moves[1].play"),
    ([game_pb2.ExportMove(player=0, rack="ABC", play=game_pb2.Play(position="8H", word="KOT"))], "moves[0].play"),
    ([game_pb2.ExportMove(player=0, withdraw=True)], "moves[0].withdraw"),
    ([game_pb2.ExportMove(player=2, **{"pass": True})], "moves[0].player"),
    ([game_pb2.ExportMove(player=0)], "moves[0]"),
    ([game_pb2.ExportMove(player=0, play=game_pb2.Play(position="8 H", word="KOT"))], "moves[0].play.position"),
    ([game_pb2.ExportMove(player=0, exchange="AQ")], "moves[0].exchange"),
])
def test_export_gcg_refuses_a_move_that_cannot_be_played_naming_it(game, moves, field):
    err = rpc_error(game.ExportGcg, export_request(moves, rule_set="pl-scrabble"))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and err.details().startswith(field + ":"), err.details()
    bad = error_details_pb2.BadRequest()
    rpc_status.from_call(err).details[0].Unpack(bad)
    assert bad.field_violations[0].field == field


def test_export_gcg_refuses_bad_players(game):
    err = rpc_error(game.ExportGcg, game_pb2.ExportGcgRequest(rule_set="pl-scrabble", players=[
        game_pb2.ExportPlayer(nickname="Ala Nowak")]))
    assert err.details().startswith("players")


# --- reflection: v1 and v1alpha, with the protos' comments ------------------------------------------
def reflect(channel, version: str, request):
    call = channel.stream_stream(
        f"/grpc.reflection.{version}.ServerReflection/ServerReflectionInfo",
        request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
        response_deserializer=reflection_pb2.ServerReflectionResponse.FromString)
    return next(iter(call(iter([request]), timeout=5)))


@pytest.mark.parametrize("version", ["v1", "v1alpha"])
def test_reflection_serves_both_versions_with_comments(channel, version):
    listed = reflect(channel, version, reflection_pb2.ServerReflectionRequest(list_services=""))
    names = {s.name for s in listed.list_services_response.service}
    assert {"lexicon.v1.LexiconService", "lexicon.v1.GameService", "grpc.reflection.v1.ServerReflection",
            "grpc.reflection.v1alpha.ServerReflection", "grpc.health.v1.Health"} <= names
    resp = reflect(channel, version,
                   reflection_pb2.ServerReflectionRequest(file_containing_symbol="lexicon.v1.GameService"))
    files = {f.name: f for f in map(descriptor_pb2.FileDescriptorProto.FromString,
                                    resp.file_descriptor_response.file_descriptor_proto)}
    comments = " ".join(loc.leading_comments for loc in files["lexicon/v1/game.proto"].source_code_info.location)
    assert "Is the play legal on this board from this rack" in comments
    assert "The rack left after the play" in comments
    v1 = reflect(channel, version, reflection_pb2.ServerReflectionRequest(
        file_containing_symbol="grpc.reflection.v1.ServerReflection"))
    served = descriptor_pb2.FileDescriptorProto.FromString(v1.file_descriptor_response.file_descriptor_proto[0])
    assert served.package == "grpc.reflection.v1"
