"""The server's notes as codes with values (rules/notes.py): every code the server writes has a text in
each of the pages' languages (static/i18n.js SERVER_NOTES), a note keeps its code through pickling, and
ReplayGame sends one ReplayNote per problem and note, in order."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

from types import SimpleNamespace

from lexicon_service.core.messages import replay_response
from lexicon_service.rules.gcg import parse_gcg
from lexicon_service.rules.replay import replay
from lexicon_service.rules.ruleset_text import load_rule_set
from lexicon_service.rules.notes import Note, nested, note_code

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "lexicon_service" / "http" / "static" / "i18n.js"


def _written_codes() -> set[str]:
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "lexicon_service").rglob("*.py"))
    return set(re.findall(r'(?:Note|nested)\(\s*"([a-z-]+)"', source))


def test_every_note_code_has_a_text_in_each_language():
    codes = _written_codes()
    assert {"score-mismatch", "game-over", "went-out", "unknown-letter", "bad-length"} <= codes
    block = I18N.read_text(encoding="utf-8").split("const SERVER_NOTES = [", 1)[1].split("\n];", 1)[0]
    rows = {m.group(1): m.group(0) for m in re.finditer(r'^  \["([a-z-]+)",.*\],?$', block, re.M)}
    assert codes <= set(rows), sorted(codes - set(rows))
    for code, row in rows.items():
        assert row.count('", "') + row.count("STRINGS.") >= 3, code  # en, cs and pl


def test_a_note_is_its_english_text_and_keeps_its_code():
    why = Note("went-out", "Anna went out on line 9", player="Anna", line=9)
    note = nested("game-over", f"game over: {why}", why)
    assert note == "game over: Anna went out on line 9" and "; ".join([note]) == note
    assert note_code(note) == ("game-over", {"why": "went-out", "why_player": "Anna", "why_line": "9"})
    again = pickle.loads(pickle.dumps(note))
    assert again == note and note_code(again) == note_code(note)
    assert note_code("a plain string") == ("", {})


def test_replay_game_sends_each_problem_and_note_as_a_code():
    record = "#rules pl-scrabble\n#player1 a Anna\n#player2 b Bartek\n>a: KOTAAAA 8G KOT +9 10\n"
    rule_set, game = load_rule_set("pl-scrabble"), parse_gcg(record)
    replayed = SimpleNamespace(game=game, report=replay(rule_set, game), rule_set=rule_set)
    answer = replay_response(replayed, "")
    line = answer.lines[0]
    assert [p.code for p in line.problem_details] == ["score-mismatch", "total-mismatch"]
    assert list(line.problems) == [p.text for p in line.problem_details]
    assert dict(line.problem_details[0].values) == {"recorded": "+9", "computed": "+10"}
    assert dict(line.problem_details[1].values) == {"recorded": "10", "previous": "0", "score": "+9",
                                                    "expected": "9"}
