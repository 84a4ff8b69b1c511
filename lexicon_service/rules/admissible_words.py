"""The small interface between the rules engine and any lexicon.

The engine asks only one question: "is this word, spelled as tiles, admissible?". Words are passed
as *tile keys* (see `TileSet.key` in `lexicon_service/tiles.py`): one character per tile, lowercase,
multi-letter tiles such as Kris Kros CH encoded as one private-use character each. A compiled
`Lexicon` implements this protocol; so does `WordSet`, over a set of keys. `validate_move` and `replay` take
one as their `lexicon` (None: words are not checked, score only).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class AdmissibleWords(Protocol):
    def is_admissible(self, key: str) -> bool:
        """True when the word with this tile key may be played."""
        ...


class WordSet:
    """Admissible words as an in-memory set of tile keys (tests, small custom word lists)."""

    def __init__(self, keys):
        self._keys = frozenset(keys)

    def is_admissible(self, key: str) -> bool:
        return key in self._keys
