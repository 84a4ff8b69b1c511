"""A fast path from word text to tile key, exactly equal to `TileSet.key_of_text` where it answers.

Letter policy (docs/service.md, "Odd letters"): a word may hold only characters that are letters of
the alphabet in upper or lower case (`input_characters`); a decomposed letter (base + combining
marks) is accepted after NFC. Compatibility characters (long s "ſ", the Kelvin sign, ligatures) are
never folded into letters, and a tile-key character (U+E000...) typed by a client is not a tile.

`TileSet.spell` walks a word character by character in Python (several µs a word); batch checks
need far less. For a plain word (no "[…]" group, case mapping that keeps its length) the tile key
is the word upper-cased then lower-cased, with every multi-letter tile (Kris Kros CH) replaced by
its key character by one regular expression — leftmost, longest first, which is exactly spell's
greedy longest match. If any character of the result is not a key character of the tile set, the
fast path declines (returns None) and the caller uses `spell`, which also names the bad letter.
Equivalence with `key_of_text` is a property test (tests/test_service_fastkey.py).
"""

from __future__ import annotations

import re
import unicodedata

_normalize = unicodedata.normalize
_combining = unicodedata.combining


def _composes(c: str) -> bool:
    """A combining mark NFC may join to its letter (not one NFC itself replaces, like U+0340)."""
    return bool(_combining(c)) and _normalize("NFC", c) == c


def input_characters(alphabet) -> frozenset[str]:
    """The characters a word may be written with: those of the alphabet's letters, in both cases."""
    return frozenset(c for letter in alphabet for c in letter + letter.lower())


class FastKeyer:
    def __init__(self, tile_set) -> None:
        self.tile_set = tile_set
        alphabet = tile_set.alphabet
        keys = {letter: tile_set.key([letter]) for letter in alphabet}
        self._key_chars = frozenset(keys.values())
        self._input_chars = input_characters(alphabet)
        # any character that is neither a letter nor "\n" (which separates words in `keys`):
        # one regular-expression scan of a whole batch instead of a set test per character
        self._foreign = re.compile("[^" + "".join(sorted(re.escape(c) for c in self._input_chars | {"\n"})) + "]")
        # After case mapping every character is a key character unless some letter's character is
        # no letter on its own (only inside a multi-letter tile): then the keys are checked again.
        lone = {c.upper().lower() for c in self._input_chars}
        self._foreign_key = None
        if not lone <= self._key_chars:
            self._foreign_key = re.compile("[^" + "".join(sorted(re.escape(c) for c in self._key_chars | {"\n"})) + "]")
        if "\n" in self._input_chars:  # never for real tile sets; `keys` would be ambiguous
            self.joined_keys = lambda words: None
        multi = sorted((letter for letter in alphabet if len(letter) > 1), key=len, reverse=True)
        self._sub = None
        if multi:
            mapping = {letter.lower(): keys[letter] for letter in multi}
            pattern = re.compile("|".join(re.escape(letter.lower()) for letter in multi))
            self._sub = lambda text: pattern.sub(lambda m: mapping[m.group()], text)
        # Characters that may only appear inside a multi-letter tile never pass the final check.

    def key(self, word: str) -> str | None:
        """The tile key of `word`, or None when the fast path cannot tell (then use TileSet.spell)."""
        allowed = self._input_chars
        if not allowed.issuperset(word):
            # a decomposed letter composes under NFC; "[" or a foreign character: spelling decides
            if not all(c in allowed or _composes(c) for c in word):
                return None
            word = _normalize("NFC", word)
            if not allowed.issuperset(word):
                return None
        upper = word.upper()
        if len(upper) != len(word):
            return None
        lower = upper.lower()
        if len(lower) != len(upper):
            return None
        if self._sub is not None:
            lower = self._sub(lower)
        if self._key_chars.issuperset(lower):
            return lower
        return None

    def keys(self, words) -> list[str] | None:
        """`[tile_set.key_of_text(w) for w in words]` for a whole batch in a few string operations on
        the words joined by newlines; None when any word is not on the fast path (the caller then goes
        word by word)."""
        text = self.joined_keys(words)
        return None if text is None else text.split("\n")

    def joined_keys(self, words) -> str | None:
        """`"\n".join(self.keys(words))`, made without splitting it. Equal word by word: NFC and case
        mapping never act across a newline, no character's case mapping is shorter than the character
        (so equal total lengths mean equal lengths of every word), and a multi-letter tile never spans
        a newline."""
        text = "\n".join(words)
        if text.count("\n") != len(words) - 1:
            return None
        foreign = self._foreign.search(text)
        if foreign is not None:
            # decomposed letters (NFD input) compose under NFC; anything else is for the slow path
            if not all(_composes(c) for c in set(self._foreign.findall(text))):
                return None
            text = _normalize("NFC", text)
            if self._foreign.search(text) is not None:
                return None
        upper = text.upper()
        if len(upper) != len(text):
            return None
        lower = upper.lower()
        if len(lower) != len(upper):
            return None
        if self._sub is not None:
            lower = self._sub(lower)
        if self._foreign_key is not None and self._foreign_key.search(lower) is not None:
            return None
        return lower
