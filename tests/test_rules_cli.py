"""One CLI vocabulary: local and client commands share option names, exit codes and output;
LEXICON_DIR everywhere; "no such lexicon" says where it looked; --show-board draws the board."""

from __future__ import annotations

import argparse

import pytest

from lexicon_service.cli import build_parser, main
from lexicon_service.rules import Board, load_rule_set, validate_move
from test_service import GCG, WORDS, write_lexicon  # noqa: F401


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def subparser(*path) -> argparse.ArgumentParser:
    parser = build_parser()
    for name in path:
        action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = action.choices[name]
    return parser


def options(parser) -> dict[str, bool]:
    """option string -> shown in --help"""
    return {s: a.help != argparse.SUPPRESS for a in parser._actions for s in a.option_strings}


@pytest.mark.parametrize("local, remote", [(("validate",), ("client", "validate")),
                                           (("validate",), ("client", "score")),
                                           (("replay",), ("client", "replay"))])
def test_local_and_client_commands_share_option_names(local, remote):
    mine, theirs = options(subparser(*local)), options(subparser(*remote))
    local_only = {"--setup", "-s", "--lexicons", "--show-board", "--end-2x"}
    # the connection options every client call also takes after the call (`client score ... --json`)
    client_only = set(options(subparser("client"))) - {"-h", "--help"}
    assert client_only == {"--address", "--token", "--tls-ca", "--tls", "--timeout", "--json"}
    assert client_only <= set(theirs)
    assert set(theirs) - {"-h", "--help"} - client_only <= set(mine)
    assert set(mine) - set(theirs) <= local_only
    for name in ("--rules", "-r", "--lexicon", "-l"):
        assert mine[name] and theirs[name]


def test_old_spellings_are_refused(capsys, tmp_path):
    """--rule-set and --board-file (hidden spellings of --rules and --board before 0.1.0) are gone."""
    board = tmp_path / "board.txt"
    board.write_text(str(_board_with_kot()) + "\n", encoding="utf-8")
    for argv in (["--rule-set", "pl-scrabble", "--board", str(board)], ["--rules", "pl-scrabble", "--board-file", str(board)]):
        with pytest.raises(SystemExit) as info:
            run(capsys, "validate", *argv, "8H KOTY")
        assert info.value.code == 2 and "unrecognized arguments" in capsys.readouterr().err


def _board_with_kot() -> Board:
    rs = load_rule_set("pl-scrabble")
    board = Board.empty(rs)
    board.apply(validate_move(rs, board, None, "8H KOT"))
    return board


def test_validate_and_client_validate_print_the_same_answers(server, capsys, tmp_path):  # noqa: F811
    _, port = server
    board = tmp_path / "board.txt"
    board.write_text(str(_board_with_kot()) + "\n", encoding="utf-8")
    common = ["--rules", "pl-scrabble", "--board", str(board), "8H KOTY", "I8 .ż", "8Z KOT", "8K Y", "8HKOT"]
    local = run(capsys, "validate", *common)
    remote = run(capsys, "client", "--address", f"localhost:{port}", "score", *common)
    assert local == remote and local[0] == 1
    assert "8H KOTY: valid, 7 points" in local[1] and "invalid: OFF_BOARD" in local[1]
    assert "invalid: INCOMPLETE_WORD" in local[1] and "8HKOT: invalid: MALFORMED_PLAY" in local[1]


def test_an_unreadable_rack_is_an_error_locally_and_remotely(server, capsys):  # noqa: F811
    _, port = server
    for rack in ("KO$", "KOTABCDE"):
        local = run(capsys, "validate", "-r", "pl-scrabble", "--rack", rack, "8H KOT")
        remote = run(capsys, "client", "--address", f"localhost:{port}", "score", "-r", "pl-scrabble",
                     "--rack", rack, "8H KOT")
        assert local[0] == remote[0] == 2 and "rack" in local[2] and "rack" in remote[2]


def test_replay_and_client_replay_print_the_same_table(server, capsys, tmp_path):  # noqa: F811
    _, port = server
    path = tmp_path / "game.gcg"
    path.write_text(GCG.replace("+17 113", "+18 114"), encoding="utf-8")
    local = run(capsys, "replay", str(path), "--rules", "pl-scrabble")
    remote = run(capsys, "client", "--address", f"localhost:{port}", "replay", "--rules", "pl-scrabble", str(path))
    assert local[0] == remote[0] == 1

    def without_bag(text):  # the server's answer has no bag count: blank that column
        lines = text.splitlines()
        at = lines[0].index("bag")
        return [line[:at] + "   " + line[at + 3:] if line[:4].strip().isdigit() else line for line in lines]

    assert without_bag(local[1]) == without_bag(remote[1])
    assert "1 line(s) disagree" in local[1]


def test_check_and_client_check_exit_codes(server, capsys, lexicon_dir):  # noqa: F811
    _, port = server
    for argv, code in ((["kot", "żółw"], 0), (["kot", "koto"], 1)):
        assert run(capsys, "check", "--lexicons", str(lexicon_dir), "-l", "pl-scrabble", *argv)[0] == code
        assert run(capsys, "client", "--address", f"localhost:{port}", "check", "-l", "pl-scrabble", *argv)[0] == code
    assert run(capsys, "check", "--lexicons", str(lexicon_dir), "-l", "en-scrabble", "cat")[0] == 2
    assert run(capsys, "client", "--address", f"localhost:{port}", "check", "-l", "en-scrabble", "cat")[0] == 2


@pytest.mark.parametrize("argv", [
    ["check", "-l", "pl-scrabble", "kot"],
    ["explain", "-l", "pl-scrabble", "kot"],
    ["validate", "-r", "pl-scrabble", "-l", "pl-scrabble", "8H KOT"],
    ["replay", "GAME", "-l", "pl-scrabble"],
])
def test_lexicon_dir_is_honoured_by_every_command_taking_a_name(argv, lexicon_dir, capsys, monkeypatch,  # noqa: F811
                                                                tmp_path):
    game = tmp_path / "game.gcg"
    game.write_text(GCG, encoding="utf-8")
    argv = [str(game) if a == "GAME" else a for a in argv]
    monkeypatch.chdir(tmp_path)  # no ./lexicons here
    monkeypatch.setenv("LEXICON_DIR", str(lexicon_dir))
    code, _, err = run(capsys, *argv)
    assert code == 0, err
    monkeypatch.delenv("LEXICON_DIR")
    code, _, err = run(capsys, *argv)
    assert code == 2 and "no lexicon 'pl-scrabble'" in err and "LEXICON_DIR" in err


def test_no_such_lexicon_says_where_it_looked_and_what_exists(lexicon_dir, capsys):  # noqa: F811
    code, _, err = run(capsys, "check", "--lexicons", str(lexicon_dir), "-l", "pl-scrable", "kot")
    assert code == 2
    assert str(lexicon_dir / "pl-scrable.lex") in err
    assert "holds: cs-kriskros, pl-scrabble" in err


def test_render_text_shows_coordinates_premiums_blanks_and_new_tiles():
    rs = load_rule_set("cs-kriskros")
    board = Board.empty(rs)
    result = validate_move(rs, board, None, "8D [CH]ATa")
    board.apply(result)
    lines = board.render_text(new=result.placements).splitlines()
    assert lines[0].split() == [chr(65 + c) for c in range(15)]
    assert lines[1].split() == ["1", "=", ".", ".", "'", ".", ".", ".", "=", ".", ".", ".", "'", ".", ".", "="]
    assert lines[8].split()[:9] == ["8", "=", ".", ".", "CH*", "A*", "T*", "a*", "-"]
    assert lines[2].split()[6] == '"'  # F2 is a triple letter
    assert "TW" in lines[-1] and "new tile" in lines[-1]
    # Columns line up: each column's letter sits over its squares.
    assert lines[0].index("D") + 1 == lines[8].index("CH") + 2


def test_show_board_in_validate_and_replay(capsys, tmp_path):
    code, out, _ = run(capsys, "validate", "-r", "pl-scrabble", "--setup", "8G ŻÓŁW", "8G ŻÓŁWIE", "--show-board")
    assert code == 0
    row8 = next(line for line in out.splitlines() if line.startswith(" 8 "))
    assert row8.split() == ["8", "=", ".", ".", "'", ".", ".", "Ż", "Ó", "Ł", "W", "I*", "E*", ".", ".", "="]
    path = tmp_path / "game.gcg"
    path.write_text(GCG, encoding="utf-8")
    code, out, _ = run(capsys, "replay", str(path), "--show-board")
    row8 = next(line for line in out.splitlines() if line.startswith(" 8 "))
    assert code == 0 and "".join(row8.split()[2:9]) == "PRÓBUJE"
