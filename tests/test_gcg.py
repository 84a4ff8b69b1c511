"""GCG records: reading (encodings, multi-letter tiles, errors with line numbers), writing, replay."""

from pathlib import Path

import pytest

from lexicon_service.cli import main
from lexicon_service.rules.admissible_words import WordSet
from lexicon_service.rules import load_rule_set
from lexicon_service.rules.gcg import (
    END_RACK,
    EXCHANGE,
    PASS,
    PLAY,
    WITHDRAWN,
    GcgError,
    format_gcg,
    parse_gcg,
    read_gcg,
)
from lexicon_service.rules.replay import format_report, replay

DATA = Path(__file__).parent / "data" / "gcg"


def replay_file(name, rules, **kwargs):
    return replay(load_rule_set(rules), read_gcg(DATA / name), **kwargs)


def test_polish_game_replays_clean():
    report = replay_file("pl-blank-premium.gcg", "pl-scrabble")
    assert report.ok, format_report(report)
    scores = [line.expected_score for line in report.lines]
    assert scores[:5] == [96, 87, 17, 20, 9]  # RULES.md examples; blank s on the C3 DW square
    assert report.lines[5].event.kind == WITHDRAWN and scores[5] == -9
    assert report.totals == report.expected_totals == [103, 84]
    assert report.board.get(8, 8) is None  # the withdrawn DARWIT left no tiles


def test_wrong_score_and_total_are_flagged():
    report = replay_file("pl-wrong-score.gcg", "pl-scrabble")
    bad = report.disagreements
    assert [line.event.line for line in bad] == [12, 20]
    assert "score +22 recorded, +20 computed" in bad[0].problems[0]
    assert "total 114 recorded" in bad[1].problems[0]


def test_kriskros_ch_tile_and_eight_tile_bingo():
    report = replay_file("kk-ch-bingo.gcg", "cs-kriskros")
    assert report.ok, format_report(report)
    bingo = report.lines[1]
    assert bingo.expected_score == 90 and bingo.words == ("DoPRAVNÍK",)
    assert report.lines[0].words == ("[CH]ATA",)
    assert report.board.get(7, 3) == ("CH", False)
    assert report.board.get(4, 4) == ("O", True)  # the joker on E5, a DW square
    assert report.totals == [15, 89]


def test_czech_exchange_refused_with_fewer_than_seven_in_the_bag():
    report = replay_file("cs-exchange-refused.gcg", "cs-scrabble")
    bad = report.disagreements
    assert len(bad) == 1 and bad[0].event.kind == EXCHANGE
    assert bad[0].bag_before == 6
    assert "needs at least 7" in bad[0].problems[0]
    early = [line for line in report.lines if line.event.kind == EXCHANGE][0]
    assert early.ok and early.bag_before >= 7  # the early exchange was legal
    # The same record under Kris Kros rules (exchange any time) would not flag it... but its
    # tiles are Czech Scrabble tiles, so check the rule itself on a tiny record instead:
    kk = load_rule_set("cs-kriskros")
    tiny = parse_gcg(">A: ABC -ABC +0 0\n>B: DEF - +0 0\n")
    assert replay(kk, tiny).ok


def test_judge_notes_words_refused_but_unchallenged():
    pl = load_rule_set("pl-scrabble")
    words = WordSet({pl.tile_set.key_of_text(w) for w in ("próbuje", "prymas", "spróbuje", "dar", "ud",
                                                               "ja", "er", "szofer")})
    report = replay(pl, read_gcg(DATA / "pl-blank-premium.gcg"), lexicon=words)
    assert report.ok
    notes = {line.event.line: line.notes for line in report.lines if line.notes}
    assert notes == {14: ["not admissible: DARWIT"]}


def test_no_racks_means_rack_checks_skipped():
    report = replay(load_rule_set("pl-scrabble"), parse_gcg("#player1 a\n#player2 b\n>a: 8G KOT +10 10\n"))
    assert report.ok and any("no racks" in n for n in report.notes)


def test_tiles_not_on_the_rack_are_illegal():
    report = replay(load_rule_set("pl-scrabble"), parse_gcg(">a: KOA 8G KOT +10 10\n"))
    assert not report.ok and "TILE_NOT_IN_RACK" in report.lines[0].problems[0]


def test_illegal_placement_is_flagged():
    report = replay(load_rule_set("pl-scrabble"), parse_gcg(">a: 8A KOT +10 10\n"))
    assert "FIRST_PLAY_NOT_ON_CENTRE" in report.lines[0].problems[0]


def test_end_of_game_conventions():
    pl = load_rule_set("pl-scrabble")
    text = ">a: 8G KOT +10 10\n>b: H7 O. +2 2\n>a: (ŹA) +{bonus} {total}\n>b: ŹA (ŹA) -10 -8\n"
    assert replay(pl, parse_gcg(text.format(bonus=10, total=20))).ok  # PFS: +x / -x
    report = replay(pl, parse_gcg(text.format(bonus=20, total=30)))
    assert [line.event.line for line in report.disagreements] == [3]
    two_x = ">a: 8G KOT +10 10\n>b: H7 O. +2 2\n>a: (ŹA) +20 30\n"
    assert replay(pl, parse_gcg(two_x), out_bonus="twice-others-racks").ok
    kk = load_rule_set("cs-kriskros")
    report = replay(kk, parse_gcg(">a: 8G KOT +5 5\n>a: (ŹA) +10 15\n".replace("Ź", "Z")))
    assert not report.ok and "no points for the others' racks" in report.lines[1].problems[0]


def test_challenge_bonus_and_time_penalty_follow_totals():
    pl = load_rule_set("pl-scrabble")
    record = ">a: 8G KOT +10 10\n>a: (challenge) +5 15\n>a: (time) -10 5\n"
    report = replay(pl, parse_gcg(record))
    assert report.ok and report.totals == [5]


def test_multi_letter_tiles_in_plays_and_racks():
    game = parse_gcg("#player1 J Jana\n#player2 P Petr\n>J: [CH]ATAXYZ 8D [CH]ATA +11 11\n"
                     ">P: ABC -[CH] +0 0\n")
    assert game.events[0].rack == "[CH]ATAXYZ" and game.events[0].word == "[CH]ATA"
    assert game.events[1].kind == EXCHANGE and game.events[1].exchanged == "[CH]"


def test_c_and_h_tiles_do_not_make_ch():
    kk = load_rule_set("cs-kriskros")
    words = WordSet({kk.tile_set.key_of_text("chata")})
    game = parse_gcg(">J: 8D [C][H]ATA +24 24\n>J: -- -24 0\n")
    report = replay(kk, game, lexicon=words)
    # C (3) and H (3) tiles score as themselves: (C on D8, a DL: 6 + 3 + 1 + 1 + 1) x2 (H8) = 24.
    assert report.ok and report.lines[0].expected_score == 24
    assert report.lines[0].notes == ["not admissible: CHATA"]


def test_encodings(tmp_path):
    utf8 = (DATA / "pl-blank-premium.gcg").read_text(encoding="utf-8")
    latin2 = tmp_path / "latin2.gcg"
    latin2.write_bytes(utf8.replace("#character-encoding UTF-8", "#character-encoding ISO-8859-2")
                       .encode("iso-8859-2"))
    game = read_gcg(latin2)
    assert game.encoding == "ISO-8859-2" and game.events[0].word == "PRÓBUJE"
    assert replay(load_rule_set("pl-scrabble"), game).ok
    latin1 = tmp_path / "latin1.gcg"  # no pragma, not UTF-8: read as ISO-8859-1
    latin1.write_bytes(">a: 8D PRÓBUJE +92 92\n".encode("iso-8859-1"))
    game = read_gcg(latin1)
    assert game.encoding == "iso-8859-1" and game.events[0].word == "PRÓBUJE"
    bad = tmp_path / "bad.gcg"
    bad.write_bytes(b"#character-encoding klingon\n")
    with pytest.raises(GcgError, match=":1: unknown character encoding"):
        read_gcg(bad)


def test_write_round_trip(tmp_path):
    game = read_gcg(DATA / "kk-ch-bingo.gcg")
    text = format_gcg(game)
    again = parse_gcg(text)
    assert [(e.kind, e.player, e.score, e.cumulative, e.rack, e.position, e.word, e.notes) for e in again.events] == \
        [(e.kind, e.player, e.score, e.cumulative, e.rack, e.position, e.word, e.notes) for e in game.events]
    assert [p.name for p in again.players] == ["Jana Dvořáková", "Petr Černý"]
    assert ("rules", "cs-kriskros") in again.pragmas


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("#player1 a\n>a: 8D KOT +x 10\n", 2, "bad score"),
        ("#player1 a\n\n>a: 8D KOT +10 ten\n", 3, "bad cumulative"),
        ("#player1 a\n>a 8D KOT +10 10\n", 2, "must start"),
        ("#player1 a\n>a: +10\n", 2, "too few fields"),
        ("#player1 a\n>b: 8D KOT +10 10\n", 2, "not declared"),
        ("#player1 a\n>a: ABC 8D +10 10\n", 2, "a play is 'POSITION WORD'"),
        ("#player1 a\n>a: ABC 8D KOT X +10 10\n", 2, "a play is"),
        ("#player1 a\n>a: ABC *KOT* +10 10\n", 2, "cannot read the move"),
        ("#player1 a\n>a: ABC +10 10\n", 2, "no move"),
        ("junk line\n", 1, "expected a '#pragma'"),
        ("#player2 a\n", 1, "out of order"),
        ("#rack1 ABC\n", 1, "before #player1"),
        ("", 1, "not a game record"),
        ("#character-encoding UTF-8\n#title nothing\n", 1, "not a game record"),
    ],
)
def test_broken_records_name_the_line(text, line, message):
    with pytest.raises(GcgError) as info:
        parse_gcg(text, "x.gcg")
    assert info.value.line == line and f"x.gcg:{line}:" in str(info.value) and message in str(info.value)
    assert isinstance(info.value, ValueError)


def test_event_kinds():
    game = parse_gcg(">a: ABC 8D KOT +10 10\n>a: ABC -- -10 0\n>a: ABC -AB +0 0\n>a: ABC -2 +0 0\n"
                     ">a: - +0 0\n>a: (AB) +4 4\n>a: AB (AB) -4 0\n")
    assert [e.kind for e in game.events] == [PLAY, WITHDRAWN, EXCHANGE, EXCHANGE, PASS, END_RACK, END_RACK]
    assert game.events[4].rack is None and game.events[3].exchanged == "2"


def test_cli_replay_exit_codes(tmp_path, capsys):
    assert main(["replay", str(DATA / "pl-blank-premium.gcg"), "--rules", "pl-scrabble"]) == 0
    out = capsys.readouterr().out
    assert "all lines agree" in out and "PRÓBUJE" in out
    assert main(["replay", str(DATA / "pl-wrong-score.gcg"), "--rules", "pl-scrabble"]) == 1
    assert "2 line(s) disagree" in capsys.readouterr().out
    assert main(["replay", str(DATA / "kk-ch-bingo.gcg")]) == 0  # rule set from the #rules pragma
    capsys.readouterr()
    broken = tmp_path / "broken.gcg"
    broken.write_text("#player1 a\n>a: 8D KOT +10 10\n>a: 8E KOT 10\n", encoding="utf-8")
    assert main(["replay", str(broken), "--rules", "pl-scrabble"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "broken.gcg:3:" in err
    assert main(["replay", str(tmp_path / "missing.gcg"), "--rules", "pl-scrabble"]) == 2
    assert main(["replay", str(DATA / "kk-ch-bingo.gcg"), "--rules", "no-such-rules"]) == 2
    assert "no-such-rules" in capsys.readouterr().err


def test_rack_with_tiles_the_game_no_longer_has():
    pl = load_rule_set("pl-scrabble")
    record = ">a: ŹKOTABC 8G KOT +10 10\n>b: ???ABCD - +0 0\n>a: ŹŹABCDE - +0 10\n"
    report = replay(pl, parse_gcg(record))
    assert [line.event.line for line in report.disagreements] == [2, 3]
    assert "?" in report.lines[1].problems[0] and "Ź" in report.lines[2].problems[0]


def test_challenge_bonus_against_the_rule():
    record = ">a: 8G KOT +10 10\n>a: (challenge) +5 15\n"
    report = replay(load_rule_set("pl-scrabble"), parse_gcg(record))
    assert report.ok and "no bonus expected" in report.lines[1].notes[0]


def test_game_end_is_noticed():
    report = replay_file("pl-blank-premium.gcg", "pl-scrabble")
    assert report.notes[-1] == "game over: 6 consecutive scoreless turns, line 21"
    kk = replay_file("kk-ch-bingo.gcg", "cs-kriskros")
    assert kk.notes[-1] == "game over: every player passed 1 round(s) in a row, line 16"
    late = replay(load_rule_set("cs-kriskros"), parse_gcg(">a: - +0 0\n>b: - +0 0\n>a: 8G KOT +6 6\n"))
    assert late.ok and late.lines[2].notes == ["after the end of the game (every player passed 1 round(s) "
                                               "in a row, line 2)"]


def test_withdrawn_phony_with_a_rare_tile():
    record = ">a: ŹKOTABC 8G KŹT +26 26\n>a: ŹKOTABC -- -26 0\n>b: ABCDEFG - +0 0\n>a: ŹKOTABC 8G KOT +10 10\n"
    report = replay(load_rule_set("pl-scrabble"), parse_gcg(record))
    assert report.ok, format_report(report)


def test_director_adjustment_is_not_a_challenge_bonus():
    """A game server writes a director's score adjustment as a (challenge) line with its #note: replay
    accepts it as recorded and says what it is, not that the challenge rule expects no bonus."""
    record = (">a: 8G KOT +10 10\n>b: (challenge) -3 -3\n#note director adjustment: late\n"
              ">a: (challenge) +5 15\n")
    report = replay(load_rule_set("pl-scrabble"), parse_gcg(record))
    assert report.ok
    assert report.lines[1].notes == ["director adjustment, accepted as recorded"]
    assert "no bonus expected" in report.lines[2].notes[0]  # a bonus without the note is still one
    assert [line.expected_score for line in report.lines] == [10, -3, 5]
