"""English counts in messages: "1 player", "2 players"."""

from __future__ import annotations


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """`n` and the noun in the number it takes: counted(1, "lexicon") is "1 lexicon"."""
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"
