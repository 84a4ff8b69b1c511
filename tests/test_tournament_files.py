"""Tournament files and tallies: TSH .t both ways, CSV both ways, standings, ratings."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexicon_service.tournaments.csvfiles import read_csv, write_csv
from lexicon_service.tournaments.model import Division, Player, TournamentInputError, check_name
from lexicon_service.tournaments.ratings import ratings_after
from lexicon_service.tournaments.standings import standings, standings_json
from lexicon_service.tournaments.tsh import read_t, write_t

DATA = Path(__file__).parent / "data" / "tournaments"
SMALL = ("Nowak, Jan 1500 2 3 0; 400 350 50\n"
         "Černá, Eva 1600 1 0 3; 380 50 410; p12 2 0 1\n"
         "Smith, John 0 0 1 2; 50 300 410\n")


@pytest.mark.parametrize("path", sorted(DATA.glob("*.t")), ids=lambda p: p.name)
def test_t_file_round_trip_is_byte_identical(path):
    text = path.read_text(encoding="utf-8")
    assert write_t(read_t(text)) == text


def test_standings_of_a_small_t_file_by_hand():
    division = read_t(SMALL)
    # Nowak beat Černá 400-380 (+20) and Smith 350-300 (+50), a bye (+50): 3-0, +120; Černá: lost by 20,
    # a bye, tied Smith 410-410: 1.5-1.5, +30; Smith: a bye, lost by 50, the tie: 1.5-1.5, 0
    assert standings_json(standings(division)) == {"standings": [
        {"rank": 1, "name": "Nowak, Jan", "wins": 3, "losses": 0, "spread": 120},
        {"rank": 2, "name": "Černá, Eva", "wins": 1.5, "losses": 1.5, "spread": 30},
        {"rank": 3, "name": "Smith, John", "wins": 1.5, "losses": 1.5, "spread": 0}]}
    assert [g.first for g in division.games if g.p2 is not None] == [0, None, 0]  # from Černá's p12
    assert write_t(division) == ("Nowak, Jan 1500 2 3 0; 400 350 50; p12 1 0 0\n"
                                 "Černá, Eva 1600 1 0 3; 380 50 410; p12 2 0 1\n"
                                 "Smith, John 0 0 1 2; 50 300 410; p12 0 0 2\n")


@pytest.mark.parametrize("line, where", [
    ("Nowak 1500 2; 400\n", "line 1"),  # player 2 does not exist
    ("Nowak 1500; 400\n", "line 1"),  # a score with no round
    ("Nowak 1500 x; 400\n", "line 1"),
    ("Nowak\x07 1500; \n", "line 1"),
    ("Nowak 1500\n", "line 1"),
])
def test_bad_t_lines_are_refused_naming_the_line(line, where):
    with pytest.raises(TournamentInputError) as err:
        read_t(line)
    assert err.value.field == where


def test_names_as_people_write_them():
    assert check_name("Żaneta Ćwiklińska-Łój", "n")
    for bad in ("", "x" * 41, " Jan", "Jan\tNowak", "Jan\u200bNowak", "Jan;", "R2D2"):
        with pytest.raises(TournamentInputError):
            check_name(bad, "n")


def test_csv_import_of_an_export_gives_the_same_games():
    division = read_t((DATA / "swiss9.t").read_text(encoding="utf-8"))
    text = write_csv(division)
    again = Division("A", division.players, read_csv(text, division))
    assert write_csv(again) == text
    plain = "round,table,player1,player2\n1,1,Nowak, Jan,Smith\n"
    with pytest.raises(TournamentInputError, match="row 1"):
        read_csv(plain, division)
    pairs = read_csv('1,1,"Smith, John",Nováková\\, Eva\n', division) if False else read_csv(
        '1,1,"Smith, John","Nováková, Eva"\n1,2,"Dvořák, Jan",BYE\n', division)
    assert [(g.p1, g.p2) for g in pairs] == [(5, 0), (1, None)]


def test_ratings_after_follow_elo():
    division = read_t("Strong 2000 2; 400\nWeak 1600 1; 300\n")
    strong, weak = ratings_after(division)
    # expected 1 / (1 + 10 ** (-400 / 400)) = 0.909 for the stronger, who won: +24 * 0.091 (K 24 at 2000)
    assert (strong, weak) == (2002, 1597)  # the weaker lost: 1600 - 32 * 0.091
    unrated = read_t("Strong 2000 2; 300\nNew 0 1; 400\n")
    assert ratings_after(unrated)[1] == 2400  # performance: 2000 + 400 * (1 - 0) / 1


def test_a_file_laid_out_as_tsh_writes_one_with_a_withdrawn_player():
    # withdrawn.t: names padded as TSH pads them, TSH's other fields (board, class, newr, rrank, off), a
    # player withdrawn after round 3 (a -50 forfeit, and the p12 code TSH kept for it); by hand: Żółkiewski
    # W+60, bye+50, tie, W+84: 3.5-0.5 +194; Dvořák L-40 W+155 T W+2: 2.5-1.5 +117; Nováková W+40 L-12
    # W+170 L-84: 2-2 +114; Wiśniewska L-60 W+12 bye L-2: 2-2 0; Ďurčo bye L-155 L-170 forfeit: 1-3 -325.
    # (The ranks agree with each line's last rrank, the ranks TSH wrote.)
    division = read_t((DATA / "withdrawn.t").read_text(encoding="utf-8"))
    assert standings_json(standings(division))["standings"] == [
        {"rank": 1, "name": "Żółkiewski, Łukasz", "wins": 3.5, "losses": 0.5, "spread": 194},
        {"rank": 2, "name": "Dvořák, Jan", "wins": 2.5, "losses": 1.5, "spread": 117},
        {"rank": 3, "name": "Nováková, Eva", "wins": 2, "losses": 2, "spread": 114},
        {"rank": 4, "name": "Wiśniewska, Zofia", "wins": 2, "losses": 2, "spread": 0},
        {"rank": 5, "name": "Ďurčo, Ľubomír", "wins": 1, "losses": 3, "spread": -325}]
    last_rrank = [int(dict(p.tsh_extra)["rrank"].split()[-1]) for p in division.players]
    assert [r.rank for r in sorted(standings(division), key=lambda r: r.player)] == last_rrank


def test_the_bench_runs_small(capsys):
    from tests.bench_modules import bench_module

    assert bench_module("bench_tournament").main(["--players", "9", "--rounds", "3", "--kills", "0"]) == 0
    out = capsys.readouterr().out
    assert "pairing a round (Swiss, 9 players, 3 rounds)" in out and "standings after each of 12 results" in out
