"""The pages translate the server's error answers by their code (static/i18n.js ERROR_TEXTS): every
status and every reason code the server can send has a Czech and a Polish text."""

from __future__ import annotations

import re
from pathlib import Path

import grpc

from lexicon_service.rules.reasons import Reason

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "lexicon_service" / "http" / "static" / "i18n.js"


def _codes_of(language: str) -> set[str]:
    block = I18N.read_text(encoding="utf-8").split("const ERROR_TEXTS = {", 1)[1].split("\n};", 1)[0]
    section = block.split(f"\n  {language}: {{", 1)[1].split("\n  },", 1)[0]
    return set(re.findall(r"(?:^|[\s,])([A-Z_]+|\d{3}):", section))


def _refusal_codes() -> set[str]:
    """The reason codes the game service refuses with (Refused("CODE", ...)), and the move reasons."""
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "lexicon_service").rglob("*.py"))
    codes = set(re.findall(r'Refused\(\s*"([A-Z_]+)"', source))
    codes |= set(re.findall(r'InvalidInput\(\s*"\w+",\s*f?"[^"]*",\s*"([A-Z_]+)"', source))  # a field's reason
    assert "ADJUSTMENT_RANGE" in codes
    assert {"NOT_YOUR_TURN", "GAME_OVER", "NOTHING_TO_UNDO"} <= codes  # the pattern still finds them
    return codes | {r.value for r in Reason if r is not Reason.OK}


def test_every_server_code_has_a_czech_and_a_polish_text():
    wanted = {code.name for code in grpc.StatusCode if code is not grpc.StatusCode.OK} | _refusal_codes()
    for language in ("cs", "pl"):
        missing = wanted - _codes_of(language)
        assert not missing, f"{language}: no text for {sorted(missing)}"
    assert _codes_of("cs") == _codes_of("pl")
