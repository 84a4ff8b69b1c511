"""`lexicon-service tournament`: standings, ratings and pairings of .t files; a tournament on a server run
from the command line (create, add, pair, start, export with every game's GCG)."""

from __future__ import annotations

import json
import time
import zipfile
from pathlib import Path

import pytest

from lexicon_service.cli import main
from test_tournament_server import api, lexicon_dir  # noqa: F401 - a real server on the tiny lexicon

DATA = Path(__file__).parent / "data" / "tournaments"


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_standings_json_is_exactly_the_documented_shape(capsys, tmp_path):
    path = tmp_path / "small.t"
    path.write_text("Nowak, Jan 1500 2 3 0; 400 350 50\nČerná, Eva 1600 1 0 3; 380 50 410\n"
                    "Smith, John 0 0 1 2; 50 300 410\n", encoding="utf-8")
    code, out, _ = run(capsys, "tournament", "standings", str(path), "--json")
    assert code == 0
    assert json.loads(out) == {"standings": [
        {"rank": 1, "name": "Nowak, Jan", "wins": 3, "losses": 0, "spread": 120},
        {"rank": 2, "name": "Černá, Eva", "wins": 1.5, "losses": 1.5, "spread": 30},
        {"rank": 3, "name": "Smith, John", "wins": 1.5, "losses": 1.5, "spread": 0}]}
    code, out, _ = run(capsys, "tournament", "standings", str(path))
    assert out.splitlines()[1].split() == ["1", "Nowak,", "Jan", "3", "0", "+120"]


def test_ratings_and_pairings_of_a_file(capsys):
    code, out, _ = run(capsys, "tournament", "ratings", str(DATA / "swiss9.t"), "--json")
    assert code == 0 and len(json.loads(out)["ratings"]) == 9
    code, out, _ = run(capsys, "tournament", "pairings", str(DATA / "swiss9.t"), "--method", "swiss", "--seed", "1")
    lines = out.splitlines()
    assert lines[0] == "round,table,player1,player2" and len(lines) == 1 + 5 and lines[-1].endswith(",BYE")
    assert lines[1].startswith("7,1,")


@pytest.mark.parametrize("text, message", [
    ("Nowak 1500 2; 400\n", "line 1"),
    ("Nowak 1500 x; 400\n", "line 1"),
    ("", None),
])
def test_a_bad_file_is_one_line_naming_the_line(capsys, tmp_path, text, message):
    path = tmp_path / "bad.t"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "tournament", "standings", str(path), "--json")
    if message is None:
        assert code == 0 and json.loads(out) == {"standings": []}
        return
    assert code == 2 and message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_tournament_run_from_the_command_line(api, capsys, tmp_path):  # noqa: F811
    _, server = api
    address = ["--address", f"localhost:{server.port}"]
    code, out, err = run(capsys, "tournament", "create", "Klub Praha", "-l", "pl-tiny", "--rounds", "2", *address)
    assert code == 0, err
    tid, key = out.split()[1], out.split()[4]
    auth = [*address, "--key", key]
    assert run(capsys, "tournament", "add", tid, "Eva Nováková", "Jan Dvořák", "Petr Černý", "--computer", "best",
               *auth)[1] == "3 players\n"
    code, out, err = run(capsys, "tournament", "pair", tid, *auth)
    assert code == 0 and out.startswith("round 1") and "BYE" in out
    code, out, err = run(capsys, "tournament", "start", tid, "1", *auth)
    assert code == 0 and out.count("table ") == 1 and "(computer)" in out
    for _ in range(200):
        if "now" not in run(capsys, "tournament", "games", tid, *address)[1] and \
                "-" in run(capsys, "tournament", "games", tid, *address)[1].splitlines()[0]:
            break
        time.sleep(0.05)
    archive, t_file = tmp_path / "games.zip", tmp_path / "a.t"
    code, _, err = run(capsys, "tournament", "export", tid, "-o", str(t_file), "--gcg", str(archive), *address)
    assert code == 0, err
    assert len(t_file.read_text(encoding="utf-8").splitlines()) == 3
    with zipfile.ZipFile(archive) as z:
        assert z.namelist() == ["A-r1-t1.gcg"] and "#player1" in z.read("A-r1-t1.gcg").decode()
    code, _, err = run(capsys, "tournament", "pair", tid, *address, "--key", "wrong")
    assert code == 2 and "PERMISSION_DENIED" in err
