"""A replay's notes and disagreements as data: each is its English sentence (what the command line and
the `notes`/`problems` string fields show) and also a stable code with its values, so that a page can say
it in its own language (ReplayNote in game.proto; the page's tables in http/static/i18n.js).

A `Note` is a `str` (the English text), so every caller that joins or prints notes keeps working."""

from __future__ import annotations


class Note(str):
    """An English sentence with a code ("score-mismatch") and its values ({"recorded": "+10", ...})."""

    code: str
    values: dict[str, str]

    def __new__(cls, code: str, text: str, **values) -> Note:
        note = super().__new__(cls, text)
        note.code = code
        note.values = {k: str(v) for k, v in values.items()}
        return note

    def __reduce__(self):  # pickled with its code and values (a plain str would lose them)
        return _note, (self.code, str(self), self.values)


def _note(code: str, text: str, values: dict[str, str]) -> Note:
    return Note(code, text, **values)


def note_code(note: str) -> tuple[str, dict[str, str]]:
    """(code, values) of a note; a plain string (a note written before codes) has code "" and no values."""
    if isinstance(note, Note):
        return note.code, dict(note.values)
    return "", {}


def nested(code: str, text: str, why: str, **values) -> Note:
    """A note that quotes another (its code as "why", its values prefixed "why_")."""
    why_code, why_values = note_code(why)
    return Note(code, text, why=why_code, **{"why_" + k: v for k, v in why_values.items()}, **values)
