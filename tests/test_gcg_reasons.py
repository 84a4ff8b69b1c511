"""A GCG record the server cannot read or refuses is answered with a stable reason code and the values it
names (rules/gcg.py READER_REASONS, core/plays.py read_record and replay_record), so that the pages say it
in their language: every reader error is reached here and sent as `lexicon-reason`/`lexicon-values`, and
each code has an English, a Czech and a Polish text in static/i18n.js (RECORD_ERRORS) whose placeholders
are values the error sends."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from urllib.parse import parse_qsl

import pytest

from lexicon_service.commands.in_process import snapshot
from lexicon_service.core import plays
from lexicon_service.core.limits import Limits
from lexicon_service.errors import FieldError, UnknownRuleSetError, answer_of
from lexicon_service.rules import load_rule_set
from lexicon_service.rules.gcg import READER_REASONS, GcgError, decode_gcg
from tests.test_i18n_errors import _codes_of as codes_of

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "lexicon_service" / "http" / "static" / "i18n.js"

# a record each reader error refuses, by its code
BROKEN = {
    "GCG_UNDECLARED_PLAYER": "#player1 a Ann\n#player2 b Bob\n>c: 8G KOT +10 10\n",
    "GCG_UNEXPECTED_LINE": "#player1 a Ann\nxyz\n",
    "GCG_NOT_A_RECORD": "#description nothing\n",
    "GCG_PLAYER_NO_NICKNAME": "#player1\n",
    "GCG_PLAYER_OUT_OF_ORDER": "#player2 b Bob\n",
    "GCG_NICKNAME_TWICE": "#player1 a Ann\n#player2 a Bob\n",
    "GCG_RACK_BEFORE_PLAYER": "#player1 a Ann\n#rack2 ABC\n",
    "GCG_EVENT_NO_NICKNAME": ">: 8G KOT +10 10\n",
    "GCG_TOO_FEW_FIELDS": ">a: +10 10\n",
    "GCG_BAD_SCORE": ">a: 8G KOT 10x 10\n",
    "GCG_BAD_TOTAL": ">a: 8G KOT +10 1o\n",
    "GCG_SCORE_TOO_LONG": ">a: 8G KOT +1234567 10\n",
    "GCG_TOTAL_TOO_LONG": ">a: 8G KOT +10 1234567\n",
    "GCG_NO_MOVE": ">a: ABC +10 10\n",
    "GCG_BAD_PLAY": ">a: 8G KOT KOT +10 10\n",
    "GCG_BAD_MOVE": ">a: (x +10 10\n",
    "GCG_EXCHANGE_TOO_LARGE": ">a: -123 +0 0\n",
}
# the encoding errors are the file readers' (the command line's), before the text is parsed
BROKEN_BYTES = {
    "GCG_UNKNOWN_ENCODING": b"#player1 a Ann\n#character-encoding NO-SUCH\n",
    "GCG_NOT_IN_ENCODING": b"#character-encoding UTF-8\n>a: 8G \xff +10 10\n",
}
SMALL = Limits(max_gcg_chars=200, max_gcg_lines=5)
# the viewer's other refusals of a record (core/plays.py), by code: (record, lexicon, rule set)
REFUSED = {
    "GCG_TOO_LONG": ("#note " + "x" * 300, "", "pl-scrabble"),
    "GCG_EMPTY": (" \n", "", "pl-scrabble"),
    "GCG_TOO_MANY_LINES": ("#note x\n" * 9, "", "pl-scrabble"),
    "GCG_OTHER_RULES": ("#rules cs-scrabble\n>a: 8G KOT +10 10\n", "", "pl-scrabble"),
    "GCG_NO_RULES": (">a: 8G KOT +10 10\n", "", ""),
}


def record_errors() -> dict[str, tuple[str, str, str]]:
    """static/i18n.js RECORD_ERRORS: code -> (en, cs, pl)."""
    block = I18N.read_text(encoding="utf-8").split("const RECORD_ERRORS = [", 1)[1].split("\n];", 1)[0]
    rows = [json.loads(line.strip().rstrip(",")) for line in block.splitlines() if line.strip().startswith("[")]
    return {code: (en, cs, pl) for code, en, cs, pl in rows}


def answer(exc) -> tuple[str, str, dict]:
    """(status, lexicon-reason, lexicon-values) as the server answers `exc`."""
    reply = answer_of(exc)
    trailing = dict(reply.trailing)
    return reply.status, trailing.get("lexicon-reason", ""), dict(parse_qsl(trailing.get("lexicon-values", "")))


def refusal_of(text: str, lexicon: str = "", rule_set: str = "pl-scrabble", limits: Limits = SMALL):
    registry = snapshot([], [load_rule_set("pl-scrabble"), load_rule_set("cs-scrabble")])
    with pytest.raises(FieldError) as info:
        plays.replay_record(registry, limits, lexicon, rule_set, text)
    return info.value


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def check_texts(code: str, values: dict, texts: dict) -> None:
    assert code in texts, f"static/i18n.js RECORD_ERRORS has no text for {code}"
    for language, text in zip(("en", "cs", "pl"), texts[code]):
        assert text.strip(), (code, language)
        assert placeholders(text) <= set(values), (code, language, text, values)
    assert len({frozenset(placeholders(text)) for text in texts[code]}) == 1, texts[code]


@pytest.mark.parametrize("code", sorted(BROKEN))
def test_a_broken_record_is_refused_with_its_reason_and_values(code):
    status, reason, values = answer(refusal_of(BROKEN[code], limits=Limits()))
    assert (status, reason) == ("INVALID_ARGUMENT", code)
    assert values["line"].isdigit()
    check_texts(code, values, record_errors())


@pytest.mark.parametrize("code", sorted(BROKEN_BYTES))
def test_a_record_in_a_broken_encoding_names_its_reason(code):
    with pytest.raises(GcgError) as info:
        decode_gcg(BROKEN_BYTES[code], "x.gcg")
    assert info.value.reason == code and info.value.values["line"] == 2
    check_texts(code, {k: str(v) for k, v in info.value.values.items()}, record_errors())


@pytest.mark.parametrize("code", sorted(REFUSED))
def test_the_viewer_refuses_a_record_with_a_reason(code):
    text, lexicon, rule_set = REFUSED[code]
    status, reason, values = answer(refusal_of(text, lexicon, rule_set))
    assert (status, reason) == ("INVALID_ARGUMENT", code)
    check_texts(code, values, record_errors())


def test_an_unknown_rule_set_in_a_record_names_it():
    registry = snapshot([], [])
    with pytest.raises(UnknownRuleSetError) as info:
        plays.replay_record(registry, Limits(), "", "", "#rules no-such\n>a: 8G KOT +10 10\n")
    assert answer(info.value) == ("NOT_FOUND", "UNKNOWN_RULE_SET", {"rule_set": "no-such"})
    assert all("UNKNOWN_RULE_SET" in codes_of(language) for language in ("cs", "pl"))  # ERROR_TEXTS says it


def test_every_reader_error_has_a_code_and_is_reached_here():
    """Every GcgError the reader raises names a reason of READER_REASONS, and each is reached above."""
    source = (ROOT / "lexicon_service" / "rules" / "gcg.py").read_text(encoding="utf-8")
    raised = [node for node in ast.walk(ast.parse(source))
              if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "GcgError"]
    assert len(raised) >= len(READER_REASONS)
    named = {kw.value.value for call in raised for kw in call.keywords
             if kw.arg == "reason" and isinstance(kw.value, ast.Constant)}
    assert named | {"GCG_SCORE_TOO_LONG", "GCG_TOTAL_TOO_LONG"} == set(READER_REASONS)  # those two by a loop
    assert all(any(kw.arg == "reason" for kw in call.keywords) for call in raised)
    assert set(BROKEN) | set(BROKEN_BYTES) == set(READER_REASONS)


def test_a_quoted_value_is_cut():
    """A value quoting the record travels in a header: cut to 40 characters."""
    _, reason, values = answer(refusal_of("#player1 a Ann\n" + "y" * 5000 + "\n", limits=Limits()))
    assert reason == "GCG_UNEXPECTED_LINE" and len(values["text"]) <= 41


def test_the_record_texts_are_the_codes_the_server_sends():
    codes = set(record_errors()) - {"recordLine"}
    assert codes == set(READER_REASONS) | set(REFUSED)
