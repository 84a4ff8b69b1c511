"""Real GCG records written by other tools (Elise, Macondo, woogles, hand-annotated) replay clean."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexicon_service.rules import load_rule_set, read_gcg, replay

REAL = Path(__file__).parent / "data" / "gcg" / "real"
EN = load_rule_set(REAL / "en-scrabble.rules")
RECORDS = sorted(REAL.glob("*.gcg"))


def test_the_folder_holds_records_of_several_tools():
    descriptions = {p.name: dict(read_gcg(p).pragmas).get("description", "") for p in RECORDS}
    assert any(d.startswith("Saved by Elise") for d in descriptions.values())
    assert any(d.startswith("Created with Macondo") for d in descriptions.values())
    assert len(RECORDS) >= 5


@pytest.mark.parametrize("path", RECORDS, ids=[p.name for p in RECORDS])
def test_real_record_replays_clean(path):
    game = read_gcg(path)
    if path.name.startswith("pl-"):
        report = replay(load_rule_set("pl-scrabble"), game, out_bonus="twice-others-racks")
    else:
        report = replay(EN, game)
    assert report.ok, [(line.event.line, line.problems) for line in report.disagreements]
    assert report.totals == report.expected_totals


def test_elise_writes_played_through_letters_out():
    """GUM at 8G, then PEW at 9H ... MALTHA at 6J ends on the A of VANNERS (O6): written as a letter."""
    game = read_gcg(REAL / "elise-incomplete.gcg")
    report = replay(EN, game)
    maltha = next(line for line in report.lines if line.event.word == "MALTHA")
    assert maltha.ok and maltha.expected_score == 25
    assert report.board.get(5, 14) == ("A", False)  # O6, placed by VANNERS, not by MALTHA
