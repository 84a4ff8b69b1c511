"""What a new user meets in the first ten minutes, one row per inconsistency that stopped one: local and
client commands print the same, every command taking words reads stdin when none is given, --json on
every client call, options accepted after their command, players by name or number, --version on both
commands, '-' for stdin, and tiles put on a board without the rules of a play (--place)."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from build_tools.cli import main as build_main
from lexicon_service.cli import main
from lexicon_service.server import Limits
from test_service import GCG


SERVER_OPTIONS = {"workers": 4, "limits": Limits()}  # tests/conftest.py's `server`, with the serve limits


@pytest.fixture(scope="module")
def address(server):
    return f"localhost:{server[1]}"


class Cli:
    def __init__(self, capsys, monkeypatch, lexicons, address):
        self.capsys, self.monkeypatch, self.lexicons, self.address = capsys, monkeypatch, str(lexicons), address

    def run(self, *argv, stdin: str = "", command=main):
        self.monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8"))
        try:
            code = command(list(argv))
        except SystemExit as exc:       # argparse's own errors and --version
            code = exc.code
        out, err = self.capsys.readouterr()
        return code, out, err

    def local(self, *argv, **kw):
        return self.run(*argv, "--lexicons", self.lexicons, **kw)

    def client(self, *argv, **kw):
        return self.run("client", "--address", self.address, *argv, **kw)


@pytest.fixture
def cli(capsys, monkeypatch, lexicon_dir, address):  # noqa: F811
    return Cli(capsys, monkeypatch, lexicon_dir, address)


def check_reads_stdin_and_prints_as_local(cli):
    local = cli.local("check", "-l", "pl-scrabble", stdin="żółw\nzółw\n")
    remote = cli.client("check", "-l", "pl-scrabble", stdin="żółw\nzółw\n")
    assert local == (1, "żółw\tvalid\nzółw\tinvalid\n", "")
    assert remote[:2] == local[:2]
    assert cli.client("check", "-l", "pl-scrabble", "kot", "żółw")[:2] == (0, "kot\tvalid\nżółw\tvalid\n")
    code, out, _ = cli.client("check", "-l", "pl-scrabble", "--verdict-only", "kot", "koto")
    assert (code, out) == (1, "play NOT acceptable\n")


def explain_takes_several_words_and_stdin(cli):
    local = cli.local("explain", "-l", "pl-scrabble", "kot", "koto")
    assert local[0] == 1 and local[1].startswith("kot\theadword ") and local[1].endswith(
        "koto: invalid (not in lexicon pl-scrabble)\n")
    assert cli.client("explain", "-l", "pl-scrabble", "kot", "koto")[:2] == local[:2]
    assert cli.local("explain", "-l", "pl-scrabble", stdin="kot\nkoto\n")[:2] == local[:2]
    assert cli.client("explain", "-l", "pl-scrabble", stdin="kot\nkoto\n")[:2] == local[:2]
    code, out, _ = cli.local("explain", "-l", "pl-scrabble", "--json", "kot", "koto")
    assert code == 1 and [json.loads(line)["valid"] for line in out.splitlines()] == [True, False]


def _create(cli, *before) -> dict:
    code, out, err = cli.client(*before, "game", "create", "-l", "pl-scrabble", "Ann", "Bob", "--seed", "7",
                                *(() if before else ("--json",)))
    assert code == 0, err
    return json.loads(out)


def json_on_every_client_call(cli):
    for before in ((), ("--json",)):       # before the call or after it
        created = _create(cli, *before)
        assert created["gameId"] and len(created["playerTokens"]) == 2
    gid, ann = created["gameId"], created["playerTokens"][0]
    code, out, _ = cli.client("game", "show", gid, f"--game-token={ann}", "--json")
    assert code == 0 and json.loads(out)["players"][0]["name"] == "Ann"
    code, out, _ = cli.client("game", "record", gid, "--json", f"--game-token={ann}")
    assert code == 0 and "gcg" in json.loads(out)
    code, out, _ = cli.client("check", "-l", "pl-scrabble", "kot", "--json")
    assert code == 0 and json.loads(out)["acceptable"] is True


def options_after_the_action(cli):
    # tokens are given as --game-token=T: one may start with '-', which argparse would take for an option
    created = _create(cli)
    gid, ann = created["gameId"], created["playerTokens"][0]
    after = cli.client("game", "show", gid, f"--game-token={ann}")
    before = cli.client("game", f"--game-token={ann}", "show", gid)
    assert after[0] == 0 and after == before and "your rack:" in after[1], after
    assert cli.client("lexicons", "--timeout", "5")[0] == 0


def players_by_name_or_number(cli):
    created = _create(cli)
    gid, director = created["gameId"], created["directorToken"]
    code, out, err = cli.client("game", "adjust", gid, "Bob", "-3", "--reason", "late", f"--game-token={director}",
                                "--json")
    assert code == 0, err
    assert [p.get("score", 0) for p in json.loads(out)["game"]["players"]] == [0, -3]
    code, out, _ = cli.client("game", "adjust", gid, "0", "2", "--reason", "x", f"--game-token={director}", "--json")
    assert code == 0 and [p.get("score", 0) for p in json.loads(out)["game"]["players"]] == [2, -3]
    code, _, err = cli.client("game", "adjust", gid, "Eve", "1", "--reason", "x", f"--game-token={director}")
    assert code == 2 and "Eve" in err and "Ann, Bob" in err


def version_on_both_commands(cli):
    for command, name in ((main, "lexicon-service"), (build_main, "lexicon-build")):
        code, out, _ = cli.run("--version", command=command)
        assert code == 0 and out.startswith(f"{name} ")


def build_reads_a_list_from_stdin(cli, tmp_path):
    # a process of its own: a build forks (its trie), and this process runs the server's threads
    out = tmp_path / "w.lex"
    built = subprocess.run([sys.executable, "-m", "build_tools.cli", "--rules", "pl-scrabble", "--words", "-",
                            "--workers", "1", "-o", str(out)], input="kot\npies\n", capture_output=True, text=True,
                           timeout=120, close_fds=False)
    assert built.returncode == 0, built.stderr
    assert cli.run("check", "-l", str(out), "kot", "pies", "kotx")[:2] == (1, "kot\tvalid\npies\tvalid\nkotx\tinvalid\n")
    code, _, err = cli.run("--rules", "pl-scrabble", "--words", "-", "--headwords", "-", "-o", str(out),
                           command=build_main)
    assert code == 2 and "once" in err


def a_polish_build_speaks_before_morfeusz_loads(cli, tmp_path):
    # its first progress bar comes after Morfeusz has loaded (6-13 s on a busy machine), nothing before it
    (tmp_path / "heads.txt").write_text("kot\n", encoding="utf-8")
    built = subprocess.run([sys.executable, "-m", "build_tools.cli", "--rules", "pl-scrabble", "--headwords",
                            str(tmp_path / "heads.txt"), "--workers", "1", "-o", str(tmp_path / "h.lex")],
                           capture_output=True, text=True, timeout=300, close_fds=False)
    assert built.returncode == 0, built.stderr
    first = built.stderr.splitlines()[0]
    assert first == (f"lexicon-build: building {tmp_path / 'h.lex'} for rule set pl-scrabble; loading Morfeusz 2 "
                     "(SGJP) first, which takes about 10 s")


def tiles_placed_without_the_rules_of_a_play(cli):
    # RULES.md: T at C1 and M at G1, then 1A WY.ĘŻA.Y scores 225 (single tiles off the centre: not a first play)
    place = ("--place", "C1 T", "--place", "G1 M")
    code, out, _ = cli.run("validate", "-r", "pl-scrabble", *place, "1A WY.ĘŻA.Y")
    assert code == 0 and out.startswith("1A WY.ĘŻA.Y: valid, 225 points")
    assert cli.client("score", "-r", "pl-scrabble", *place, "1A WY.ĘŻA.Y")[:2] == (code, out)
    code, _, err = cli.run("validate", "-r", "pl-scrabble", "--setup", "C1 T", "1A WY.ĘŻA.Y")
    assert code == 2 and "--place" in err
    code, _, err = cli.run("validate", "-r", "pl-scrabble", "--place", "C1 T", "--place", "C1 M", "8H KOT")
    assert code == 2 and "--place 'C1 M'" in err


def json_answers(text: str) -> list[dict]:
    """The JSON objects `--json` prints one after another (each indented over several lines)."""
    decoder, answers, at = json.JSONDecoder(), [], 0
    while text[at:].strip():
        answer, at = decoder.raw_decode(text, len(text) - len(text[at:].lstrip()))
        answers.append(answer)
    return answers


def check_json_prints_as_client(cli):
    local = cli.local("check", "-l", "pl-scrabble", "--json", "kot", "koto", "kotq")
    assert local == cli.client("check", "-l", "pl-scrabble", "--json", "kot", "koto", "kotq")
    assert local[0] == 1 and [r.get("status") for r in json.loads(local[1])["results"]] == [
        "WORD_STATUS_VALID", "WORD_STATUS_INVALID", "WORD_STATUS_UNKNOWN_LETTER"]
    many = "kot\n" * 1001 + "żółw\n"      # two answers, as the client sends them in batches
    local = cli.local("check", "-l", "pl-scrabble", "--json", stdin=many)
    assert local == cli.client("check", "-l", "pl-scrabble", "--json", stdin=many)
    assert local[0] == 0 and [len(a["results"]) for a in json_answers(local[1])] == [1000, 2]


def validate_json_prints_as_client(cli):
    plays = ("8H KOT", "8H KOTQ", "KOT", "8H KOTY")
    board = ("-r", "pl-scrabble", "--rack", "KOTYABC")
    local = cli.local("validate", *board, "-l", "pl-scrabble", "--json", *plays)
    assert local == cli.client("validate", *board, "-l", "pl-scrabble", "--json", *plays)
    answers = json_answers(local[1])
    assert local[0] == 1 and [a.get("reason") for a in answers] == ["OK", "UNKNOWN_LETTER", "MALFORMED_PLAY", "OK"]
    assert answers[0]["lexicon"] == "pl-scrabble" and answers[0]["rackLeave"] == "YABC"
    local = cli.local("validate", *board, "--json", *plays)     # no lexicon: as ScoreMove answers
    assert local == cli.client("score", *board, "--json", *plays)
    assert local[0] == 1 and "lexicon" not in json_answers(local[1])[0]


def validate_json_show_board_prints_json_only_as_client(cli, tmp_path):
    plays = ("8G KOTY", "8N KOT", "KOT")  # placed (K is on the board); off the board (not placed); no coordinate
    board = ("-r", "pl-scrabble", "--place", "8G K")
    local = cli.local("validate", *board, "-l", "pl-scrabble", "--json", "--show-board", *plays)
    assert local == cli.client("validate", *board, "-l", "pl-scrabble", "--json", "--show-board", *plays)
    answers = json_answers(local[1])  # JSON documents only, one per play: the board is inside each
    assert [a["reason"] for a in answers] == ["OK", "OFF_BOARD", "MALFORMED_PLAY"]
    before = ["." * 15] * 7 + ["." * 6 + "K" + "." * 8] + ["." * 15] * 7
    assert answers[0]["board"] == before[:7] + ["." * 6 + "KOTY" + "." * 5] + before[8:]
    assert answers[1]["board"] == answers[2]["board"] == before  # the board the play was judged on
    local = cli.local("validate", *board, "--json", "--show-board", *plays)  # no lexicon: as ScoreMove answers
    assert local == cli.client("score", *board, "--json", "--show-board", *plays)
    local = cli.local("validate", *board, "-l", "pl-scrabble", "--show-board", *plays)  # drawn, new tiles marked
    assert local == cli.client("validate", *board, "-l", "pl-scrabble", "--show-board", *plays)
    assert local[1].count("Y*") == 1 and "K*" not in local[1] and local[1].count("* new tile") == 1, local[1]
    short = tmp_path / "board.txt"  # a board the client reads itself (a play it judges without a call)
    short.write_text("KOT\n", encoding="utf-8")
    code, _, err = cli.client("validate", "-r", "pl-scrabble", "--board", str(short), "--show-board", "KOT")
    assert code == 2 and err.startswith("lexicon-service client: error: --board: 1 rows given"), err


def replay_json_prints_as_client(cli, tmp_path):
    gcg = tmp_path / "game.gcg"
    for record, code in ((GCG, 0), (GCG.replace("+17 113", "+18 114"), 1)):
        gcg.write_text(record, encoding="utf-8")
        local = cli.local("replay", str(gcg), "-l", "pl-scrabble", "--json")
        assert local == cli.client("replay", str(gcg), "-l", "pl-scrabble", "--json")
        answer = json.loads(local[1])
        assert local[0] == code and answer["lexicon"] == "pl-scrabble" and len(answer["lines"]) == 3
    assert answer["lines"][2]["problems"] and cli.local("replay", str(gcg), "--json")[0] == 1
    # --show-board adds no drawing after the JSON: the final board is in it (finalBoard)
    assert cli.local("replay", str(gcg), "-l", "pl-scrabble", "--json", "--show-board") == local
    assert json.loads(local[1])["finalBoard"][7].strip(".")


def local_commands_refuse_what_a_server_refuses(cli, tmp_path):
    for argv, refusal in ((("check", "-l", "pl-scrabble", "kot", ""), "words[1]: empty word"),
                          (("check", "-l", "pl-scrabble", "k" * 65), "words[0]: 65 characters; at most 64")):
        local, remote = cli.local(*argv), cli.client(*argv)
        assert (local[0], remote[0]) == (2, 2) and refusal in local[2] and refusal in remote[2], (local, remote)
    # read from standard input, a refused word is named by its place in the whole input, past the first batch
    local = cli.local("check", "-l", "pl-scrabble", stdin="kot\n" * 1005 + "k" * 70 + "\n")
    assert local[0] == 2 and "<stdin>: words[1005]: 70 characters; at most 64" in local[2], local[2]
    gcg = tmp_path / "game.gcg"
    for record, refusal in ((GCG, "the record is for rule set 'pl-scrabble', not 'cs-kriskros'"),
                            ("\n", "empty record")):
        gcg.write_text(record, encoding="utf-8")
        argv = ("replay", str(gcg), "-r", "cs-kriskros")
        local, remote = cli.local(*argv), cli.client(*argv)
        assert (local[0], remote[0]) == (2, 2) and refusal in local[2] and refusal in remote[2], (local, remote)


def explain_says_why_as_the_client(cli):
    local = cli.local("explain", "-l", "pl-scrabble", "kotq", "k")
    assert local[:2] == cli.client("explain", "-l", "pl-scrabble", "kotq", "k")[:2]
    assert local[:2] == (1, "kotq: invalid (unknown letter 'q' at position 4 of 'kotq')\n"
                            "k: invalid (1 tiles; words have 2 to 15)\n")


def moves_all_says_when_it_stops(cli, monkeypatch):
    from lexicon_service.commands import in_process as local
    from lexicon_service.movegen import MAX_LISTED
    from lexicon_service.core.limits import Limits

    assert local.LIMITS.max_results + 1 == MAX_LISTED   # core.plays.generate asks for one more
    monkeypatch.setattr(local, "LIMITS", Limits(max_results=2))
    code, out, err = cli.local("moves", "-l", "pl-scrabble", "--rack", "KOTYABC", "--all")
    assert code == 0 and len(out.splitlines()) == 2 and err == "(more moves: at most 2 are listed)\n"


CASES = {
    "client check reads stdin, prints as check": check_reads_stdin_and_prints_as_local,
    "explain takes several words and stdin": explain_takes_several_words_and_stdin,
    "--json on every client call (game create)": json_on_every_client_call,
    "options after the action (game show ID --game-token T)": options_after_the_action,
    "game adjust: a player by name or number": players_by_name_or_number,
    "--version on lexicon-build and lexicon-service": version_on_both_commands,
    "lexicon-build --words - reads stdin": build_reads_a_list_from_stdin,
    "validate --place: tiles without first-play rules": tiles_placed_without_the_rules_of_a_play,
    "a Polish build speaks before Morfeusz loads": a_polish_build_speaks_before_morfeusz_loads,
    "check --json prints what client check --json prints": check_json_prints_as_client,
    "validate --json prints what client validate|score --json print": validate_json_prints_as_client,
    "validate --json --show-board prints JSON only, as the client": validate_json_show_board_prints_json_only_as_client,
    "replay --json prints what client replay --json prints": replay_json_prints_as_client,
    "local commands refuse what a server refuses": local_commands_refuse_what_a_server_refuses,
    "explain says why a word is invalid as client explain": explain_says_why_as_the_client,
    "moves --all says when it stops listing": moves_all_says_when_it_stops,
}


@pytest.mark.parametrize("case", list(CASES))
def test_cli_consistency(case, cli, tmp_path, monkeypatch):
    test = CASES[case]
    fixtures = {"tmp_path": tmp_path, "monkeypatch": monkeypatch}
    test(cli, **{name: fixtures[name] for name in test.__code__.co_varnames[1:test.__code__.co_argcount]})


def test_json_prints_a_map_field_in_key_order_whatever_order_the_map_holds():
    # a protobuf map iterates in an order that differs between processes: the local command and the client
    # printed the same replay note's values in different orders (a CI failure)
    from lexicon_service.command_line import message_json
    from lexicon_service.grpc_gen import game_pb2

    keys = [f"k{n:02d}" for n in range(40)]
    note = game_pb2.ReplayNote(code="c", values={key: key.upper() for key in reversed(keys)}, text="t")
    answer = game_pb2.ReplayGameResponse(lines=[game_pb2.ReplayLine(problem_details=[note])])
    printed = json.loads(message_json(answer))
    assert list(printed["lines"][0]["problemDetails"][0]["values"]) == keys
    assert list(printed["lines"][0]["problemDetails"][0]) == ["code", "values", "text"]
    assert message_json(answer, indent=None).startswith('{"lines": [{"problemDetails": [{"code": "c", "values": {"k00"')
