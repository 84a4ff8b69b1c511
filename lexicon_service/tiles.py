"""Tiles, and the one encoding of words shared by the lexicon and the rules engine (docs/architecture.md, "Contracts between the parts").

A word is spelled in *tiles*, not characters: Kris Kros has a CH tile, so "chata" is four tiles
there and five in Czech Scrabble. A *tile key* is one character per tile, lowercase; every
multi-letter tile becomes one private-use character (U+E000 + its index among the multi-letter
letters, in table order). A C tile next to an H tile therefore keys as "ch", never as the CH tile.

Two spellings exist:
- word text (`TileSet.spell`): case-insensitive, greedy longest match, `[CH]` forces a tile;
- play / board strings (`TileSet.spell_play`): uppercase = a real tile, lowercase = a blank showing
  that letter, `.` = a tile already on the board (play strings only), `[CH]` / `[ch]` force a tile.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass, field

from lexicon_service.fastkey import FastKeyer, input_characters

BLANK = "?"  # how racks, tile tables and GCG write the blank
_PRIVATE_USE_BASE = 0xE000


class UnknownLetterError(ValueError):
    """A character (or bracketed group) that is no letter of the tile set."""

    def __init__(self, letter: str, position: int, text: str, reason: str = "") -> None:
        self.letter = letter
        self.position = position  # 0-based index into `text`
        self.text = text
        detail = f" ({reason})" if reason else ""
        super().__init__(f"unknown letter {letter!r} at position {position + 1} of {text!r}{detail}")


@dataclass(frozen=True)
class Tile:
    letter: str  # canonical uppercase, e.g. "A", "Ř", "CH"
    points: int
    count: int  # how many are in the bag at the start


@dataclass(frozen=True)
class PlayTile:
    """One square of a play or board string."""

    letter: str | None  # canonical letter; None for "." (the tile already on the board)
    is_blank: bool = False


def _singleton_class() -> str:
    """A regex class of the characters whose canonical decomposition is one other character."""
    chars = []
    for cp in range(0x80, 0x110000):
        decomposition = unicodedata.decomposition(chr(cp))
        if decomposition and not decomposition.startswith("<") and " " not in decomposition:
            chars.append(cp)
    ranges, start = [], None
    for i, cp in enumerate(chars):
        if start is None:
            start = cp
        if i + 1 == len(chars) or chars[i + 1] != cp + 1:
            ranges.append(re.escape(chr(start)) + ("" if start == cp else "-" + re.escape(chr(cp))))
            start = None
    return "[" + "".join(ranges) + "]"


@functools.lru_cache(maxsize=None)
def _singletons() -> re.Pattern:
    return re.compile(_singleton_class())  # built on first use (~0.2 s): only text that is not NFC needs it


def normalise(text: str) -> str:
    """NFC, so that a decomposed "R + combining caron" is the letter Ř; except that a character
    NFC would replace by another single character (the Kelvin sign by K, the Ångström sign by Å)
    is kept as written, so that it reads as the unknown letter it is (README: odd letters)."""
    if text.isascii() or unicodedata.is_normalized("NFC", text):
        return text
    singletons = _singletons()
    if singletons.search(text) is None:
        return unicodedata.normalize("NFC", text)
    pieces = singletons.split(text)
    kept = singletons.findall(text)
    out = [unicodedata.normalize("NFC", pieces[0])]
    for singleton, piece in zip(kept, pieces[1:]):
        out += [singleton, unicodedata.normalize("NFC", piece)]
    return "".join(out)


def _code_point(ch: str) -> str:
    return "" if ch.isascii() else f"U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed')}"


def _first_foreign(text: str, allowed, syntax: str = "") -> int:
    """Index of the first character of `text` that is neither in `allowed` nor in `syntax`, or -1.

    The letter policy: only letters of the alphabet (either case) spell tiles. A combining mark is
    let through here (NFC joins it to its letter; one left over is refused after). A character NFC
    would replace by a letter (the Kelvin sign by K) is refused, as are compatibility characters
    (long s, ligatures) and tile-key characters (U+E000...)."""
    for i, ch in enumerate(text):
        if ch not in allowed and ch not in syntax and not (unicodedata.combining(ch) and normalise(ch) == ch):
            return i
    return -1


@dataclass(frozen=True)
class TileSet:
    """The tiles of a game and the alphabet a blank may stand for (both data, from the rule set)."""

    tiles: tuple[Tile, ...]
    blank_count: int = 2
    blank_letters: tuple[str, ...] = ()  # letters a blank may stand for; may include letters with no tile (Q, W)
    blank_points: int = 0
    # Derived lookups, built in __post_init__.
    _by_letter: dict = field(init=False, repr=False, compare=False)
    _key_of_letter: dict = field(init=False, repr=False, compare=False)
    _letter_of_key: dict = field(init=False, repr=False, compare=False)
    _fast_keyer: object = field(init=False, repr=False, compare=False)
    _alphabet: tuple = field(init=False, repr=False, compare=False)
    _max_len: int = field(init=False, repr=False, compare=False)
    _points: dict = field(init=False, repr=False, compare=False)
    _play_chars: dict = field(init=False, repr=False, compare=False)
    _rack_chars: dict = field(init=False, repr=False, compare=False)
    _pieces_re: object = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_letter: dict[str, Tile] = {}
        for tile in self.tiles:
            if tile.letter in by_letter:
                raise ValueError(f"tile {tile.letter!r} listed twice")
            if not tile.letter or tile.letter != tile.letter.upper() or tile.letter == BLANK:
                raise ValueError(f"tile letter {tile.letter!r} must be non-empty uppercase")
            by_letter[tile.letter] = tile
        # Alphabet: every tile letter, then letters only a blank can show (Q, W in Czech Scrabble).
        alphabet = [t.letter for t in self.tiles]
        alphabet += [letter for letter in self.blank_letters if letter not in by_letter]
        key_of_letter: dict[str, str] = {}
        multi_index = 0
        for letter in alphabet:
            if len(letter) == 1:
                key_of_letter[letter] = letter.lower()
            else:
                key_of_letter[letter] = chr(_PRIVATE_USE_BASE + multi_index)
                multi_index += 1
        object.__setattr__(self, "_by_letter", by_letter)
        object.__setattr__(self, "_key_of_letter", key_of_letter)
        object.__setattr__(self, "_letter_of_key", {k: v for v, k in key_of_letter.items()})
        object.__setattr__(self, "_alphabet", tuple(alphabet))
        object.__setattr__(self, "_max_len", max((len(a) for a in alphabet), default=1))
        object.__setattr__(self, "_points", {t.letter: t.points for t in self.tiles})
        object.__setattr__(self, "_fast_keyer", FastKeyer(self))
        object.__setattr__(self, "_input_chars", input_characters(alphabet))
        # Fast paths (no multi-letter tiles involved): one character -> its square / rack tile.
        play_chars = {".": PlayTile(None)}
        rack_chars = {BLANK: BLANK}
        for letter in alphabet:
            if len(letter) == 1:
                play_chars[letter] = PlayTile(letter, False)
                if letter.lower() != letter:
                    play_chars[letter.lower()] = PlayTile(letter, True)
                if letter in by_letter:
                    rack_chars[letter] = rack_chars[letter.lower()] = letter
        # Multi-letter tiles: a regex splits text into greedy pieces ("CH"/"ch" first, then one character).
        multi = sorted((a for a in alphabet if len(a) > 1), key=len, reverse=True)
        pieces_re = None
        if multi:
            for letter in multi:
                play_chars[letter] = PlayTile(letter, False)
                play_chars[letter.lower()] = PlayTile(letter, True)
                if letter in by_letter:
                    rack_chars[letter] = letter
            variants = [re.escape(v) for letter in multi for v in (letter, letter.lower())]
            pieces_re = re.compile("|".join(variants) + "|.", re.S)
        # Two single letters that written plainly would read as (the start of) a multi-letter tile:
        # C then H reads as CH, so a display bracketing the C ("[C]H") is needed to round-trip.
        object.__setattr__(self, "_merging_pairs", frozenset(a[:2].upper() for a in multi))
        object.__setattr__(self, "_play_chars", play_chars)
        object.__setattr__(self, "_rack_chars", rack_chars)
        object.__setattr__(self, "_pieces_re", pieces_re)

    # --- facts -----------------------------------------------------------------------------
    @property
    def alphabet(self) -> tuple[str, ...]:
        """Every letter a word may contain: tile letters, then blank-only letters."""
        return self._alphabet

    @property
    def letters(self) -> tuple[str, ...]:
        """Letters that have real tiles, in table order."""
        return tuple(t.letter for t in self.tiles)

    @property
    def multi_letter_tiles(self) -> tuple[str, ...]:
        return tuple(a for a in self._alphabet if len(a) > 1)

    @property
    def total_tiles(self) -> int:
        return sum(t.count for t in self.tiles) + self.blank_count

    def tile(self, letter: str) -> Tile:
        try:
            return self._by_letter[letter]
        except KeyError:
            raise UnknownLetterError(letter, 0, letter, "no such tile") from None

    def points(self, letter: str) -> int:
        """Points of a real tile showing `letter` (0 for letters only a blank can show)."""
        tile = self._by_letter.get(letter)
        return tile.points if tile else 0

    def has_letter(self, letter: str) -> bool:
        return letter in self._key_of_letter

    def blank_may_be(self, letter: str) -> bool:
        return letter in self.blank_letters

    def bag(self) -> dict[str, int]:
        """The full bag: letter -> count, blank as "?"."""
        counts = {t.letter: t.count for t in self.tiles}
        if self.blank_count:
            counts[BLANK] = self.blank_count
        return counts

    # --- keys ----------------------------------------------------------------------------------
    def key(self, letters) -> str:
        """Tile key of a sequence of canonical tile letters."""
        key_of_letter = self._key_of_letter
        try:
            return "".join([key_of_letter[letter] for letter in letters])
        except (KeyError, TypeError):
            letters = list(letters)
            out = []
            for i, letter in enumerate(letters):
                key = key_of_letter.get(letter.upper()) if isinstance(letter, str) else None
                if key is None:  # lowercase letters are accepted; anything else is not a tile
                    raise UnknownLetterError(str(letter), i, "".join(map(str, letters)), "no such tile") from None
                out.append(key)
            return "".join(out)

    def key_of_text(self, text: str) -> str:
        # Plain words take a few string operations (lexicon_service/fastkey.py, property-tested
        # equal to spelling); brackets, foreign letters and errors take the spelling path.
        fast = self._fast_keyer.key(text)
        return fast if fast is not None else self.key(self.spell(text))

    def text_of_key(self, key: str) -> str:
        """Display text of a key: multi-letter tiles spelled out, lowercase ("\\ue000ata" -> "chata")."""
        out = []
        for i, ch in enumerate(key):
            letter = self._letter_of_key.get(ch)
            if letter is None:
                raise UnknownLetterError(ch, i, key, "not a tile key character")
            out.append(letter.lower())
        return "".join(out)

    def letters_of_key(self, key: str) -> tuple[str, ...]:
        out = []
        for i, ch in enumerate(key):
            letter = self._letter_of_key.get(ch)
            if letter is None:
                raise UnknownLetterError(ch, i, key, "not a tile key character")
            out.append(letter)
        return tuple(out)

    def needs_brackets(self, letter: str, following: str | None) -> bool:
        """Whether `letter` must be written in brackets to read back as the same tile: a multi-letter
        tile always, a single letter when the next tile's letter would merge with it (C, H: "[C]H")."""
        if len(letter) > 1:
            return True
        return bool(following) and len(following) == 1 and (letter + following).upper() in self._merging_pairs

    def display(self, letters, brackets: bool = True) -> str:
        """Letters joined for display; multi-letter tiles in brackets ("[CH]ATA"). Separate C and H
        tiles show as "CH" here; `write_tiles` with the tile set writes them unambiguously."""
        if not brackets:
            return "".join(letters)
        return write_tiles((x, False) for x in letters)

    # --- spelling ------------------------------------------------------------------------------
    def spell(self, text: str) -> tuple[str, ...]:
        """Tile letters of a word: case-insensitive greedy longest match; `[CH]` forces one tile."""
        bad = _first_foreign(text, self._input_chars, "[]")
        if bad >= 0:
            raise UnknownLetterError(text[bad], bad, text, _code_point(text[bad]))
        text = normalise(text)
        upper = text.upper()
        if len(upper) != len(text):  # e.g. "ß".upper() == "SS": positions would drift
            upper = "".join(c.upper() if len(c.upper()) == 1 else c for c in text)
        out: list[str] = []
        i, n = 0, len(upper)
        known = self._key_of_letter
        while i < n:
            ch = upper[i]
            if ch == "[":
                end = upper.find("]", i + 1)
                if end < 0:
                    raise UnknownLetterError(text[i:], i, text, "unclosed '['")
                group = upper[i + 1 : end]
                if group not in known:
                    raise UnknownLetterError(text[i : end + 1], i, text)
                out.append(group)
                i = end + 1
                continue
            for length in range(min(self._max_len, n - i), 0, -1):
                piece = upper[i : i + length]
                if piece in known:
                    out.append(piece)
                    i += length
                    break
            else:
                raise UnknownLetterError(text[i], i, text)
        return tuple(out)

    def spell_play(self, text: str) -> tuple[PlayTile, ...]:
        """Squares of a play or board row: uppercase = tile, lowercase = blank, "." = already there.

        Multi-letter tiles by greedy match only when the whole group has one case ("CH" or "ch");
        "Ch" is a C tile and a blank H. `[C][H]` forces two single tiles.
        """
        for attempt in (0, 1):
            if "[" not in text:
                pieces = text if self._pieces_re is None else self._pieces_re.findall(text)
                try:
                    return tuple([self._play_chars[piece] for piece in pieces])
                except KeyError:
                    pass  # the slow path names the bad character
            if attempt == 0:  # the letter policy looks at the text as written, before NFC
                bad = _first_foreign(text, self._input_chars, ".[]")
                if bad >= 0:
                    raise UnknownLetterError(text[bad], bad, text, _code_point(text[bad]))
                text = normalise(text)
        return self._spell_play_slow(text)

    def _spell_play_slow(self, text: str) -> tuple[PlayTile, ...]:
        known = self._key_of_letter
        out: list[PlayTile] = []
        i, n = 0, len(text)
        while i < n:
            ch = text[i]
            if ch == ".":
                out.append(PlayTile(None))
                i += 1
                continue
            if ch == "[":
                end = text.find("]", i + 1)
                if end < 0:
                    raise UnknownLetterError(text[i:], i, text, "unclosed '['")
                group = text[i + 1 : end]
                letter = group.upper()
                if letter not in known or not (group.isupper() or group.islower()):
                    raise UnknownLetterError(text[i : end + 1], i, text)
                out.append(PlayTile(letter, group.islower()))
                i = end + 1
                continue
            if not ch.isalpha():
                raise UnknownLetterError(ch, i, text)
            lower = ch.islower()
            for length in range(min(self._max_len, n - i), 0, -1):
                piece = text[i : i + length]
                if length > 1 and not (piece.islower() if lower else piece.isupper()):
                    continue
                if not piece.isalpha():
                    continue
                letter = piece.upper()
                if letter in known:
                    out.append(PlayTile(letter, lower))
                    i += length
                    break
            else:
                raise UnknownLetterError(ch, i, text)
        return tuple(out)

    def spell_rack(self, text: str) -> tuple[str, ...]:
        """Rack letters: "ABC?" or "[CH]A?"; "?" is the blank. Returns letters with "?" for blanks."""
        if not self._input_chars.issuperset(text.replace(BLANK, "")):
            bad = _first_foreign(text, self._input_chars, BLANK + "[]")
            if bad >= 0:
                raise UnknownLetterError(text[bad], bad, text, _code_point(text[bad]))
            text = normalise(text)
        if "[" not in text:
            if self._pieces_re is None:
                pieces = text
            else:  # racks are case-insensitive: "cha" is CH + A
                upper = text.upper()
                pieces = self._pieces_re.findall(upper) if len(upper) == len(text) else None
            if pieces is not None:
                try:
                    return tuple([self._rack_chars[piece] for piece in pieces])
                except KeyError:
                    pass  # the slow path names the bad character
        return self._spell_rack_slow(text)

    def _spell_rack_slow(self, text: str) -> tuple[str, ...]:
        out: list[str] = []
        for part_start, part in _split_keep(text, BLANK):
            if part == BLANK:
                out.append(BLANK)
                continue
            try:
                letters = self.spell(part)
            except UnknownLetterError as exc:
                raise UnknownLetterError(exc.letter, part_start + exc.position, text, "not a tile") from None
            for letter in letters:
                if letter not in self._by_letter:
                    raise UnknownLetterError(letter, part_start, text, "no such tile in the bag")
            out.extend(letters)
        return tuple(out)

    def rack_text(self, rack) -> str:
        """Rack letters as text that `spell_rack` reads back as the same tiles: multi-letter tiles in
        brackets, and a single letter that would merge with the next ("[C]H" is a C and an H tile)."""
        rack = list(rack)
        out = []
        for i, x in enumerate(rack):
            following = rack[i + 1] if i + 1 < len(rack) and rack[i + 1] != BLANK else None
            out.append(BLANK if x == BLANK else (f"[{x}]" if self.needs_brackets(x, following) else x))
        return "".join(out)


def _split_keep(text: str, sep: str):
    """Split `text` on `sep`, keeping each separator as its own part; yields (start, part)."""
    start = 0
    for i, ch in enumerate(text):
        if ch == sep:
            if i > start:
                yield start, text[start:i]
            yield i, sep
            start = i + 1
    if start < len(text):
        yield start, text[start:]


def write_tiles(pieces, tile_set: TileSet | None = None) -> str:
    """Tiles as play text, read back by `TileSet.spell_play` as the same tiles. `pieces` are
    (letter or None, is_blank): None is an empty square ("."), a blank is lowercase, a multi-letter
    tile is in brackets, and so is a single letter that would merge with the next one (C, H: "[C]H")
    when `tile_set` is given (without it, only multi-letter tiles are bracketed)."""
    pieces = list(pieces)
    out = []
    for i, (letter, blank) in enumerate(pieces):
        if letter is None:
            out.append(".")
            continue
        following = pieces[i + 1][0] if i + 1 < len(pieces) else None
        shown = letter.lower() if blank else letter
        bracket = tile_set.needs_brackets(letter, following) if tile_set is not None else len(letter) > 1
        out.append(f"[{shown}]" if bracket else shown)
    return "".join(out)
