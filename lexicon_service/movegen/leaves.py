"""The leave table of a lexicon: ``leaves.tsv``, what the tiles kept on a rack are worth in points.

Made by ``lexicon-build --leaves LEX.lex`` (``build_tools/leave_fitting.py``: self-play of the move generator,
fitted per leave) and listed in the manifest's ``files`` like every other file, with its size and
sha256; checked at load (``lexicon_service/lexicon.py``). The computer level "equity" plays the move
of the highest score plus the value of its leave.

File layout: UTF-8 text, tab-separated, one entry a line, after a header line::

    # czpl-lexicon leaves 1	<rule set id>	<rack size>	<how it was made>
    size	3	-1.25        the value of keeping 3 tiles, before the tiles' own values
    tile	Ź	-4.10        a tile's value (one tile; "?" a blank, multi-letter tiles in brackets)
    pair	AE	-0.75        what two tiles kept together add to their own values
    leave	AE?	19.42        a whole leave's value, where self-play saw it often enough

The value of a leave (tiles in rack notation, any order) is its ``leave`` line when there is one,
else ``size`` + the sum of its tiles' ``tile`` values + the sum of ``pair`` values over every two of
its tiles (missing lines count 0). The empty leave is worth the ``size 0`` line. Values are points
relative to the average leave, so only their differences matter.
"""

from __future__ import annotations

import math
from itertools import combinations

from lexicon_service.tiles import BLANK, UnknownLetterError

FILE_NAME = "leaves.tsv"
MAGIC = "# czpl-lexicon leaves 1"
KINDS = ("size", "tile", "pair", "leave")
MAX_ABS_VALUE = 1000.0  # points; a larger value is a damaged file
MAX_ENTRIES = 2_000_000
_CACHE_LIMIT = 200_000


class LeaveTableError(ValueError):
    """leaves.tsv does not hold a leave table for this rule set."""


class LeaveTableMissing(Exception):
    """The lexicon has no leave table (the equity level needs one)."""


def tile_order(rule_set) -> dict[str, int]:
    """Tile -> its rank in a leave's canonical order: the rule set's tiles, a blank last."""
    order = {letter: i for i, letter in enumerate(rule_set.tile_set.alphabet)}
    order[BLANK] = len(order)
    return order


def canonical(rule_set, tiles) -> tuple[str, ...]:
    """The tiles of a leave in canonical order (the key of its entries)."""
    order = tile_order(rule_set)
    return tuple(sorted(tiles, key=order.__getitem__))


class LeaveTable:
    """Leave values of one rule set; `value(leave)` in points."""

    def __init__(self, rule_set, sizes: dict[int, float], tiles: dict[str, float],
                 pairs: dict[tuple[str, str], float], leaves: dict[tuple[str, ...], float], about: str = "") -> None:
        self.rule_set = rule_set
        self.sizes, self.tiles, self.pairs, self.leaves = sizes, tiles, pairs, leaves
        self.about = about
        self._order = tile_order(rule_set)
        self._cache: dict[str, float] = {}

    def key(self, tiles) -> tuple[str, ...]:
        return tuple(sorted(tiles, key=self._order.__getitem__))

    def value_of_tiles(self, tiles) -> float:
        """The value of keeping these tiles (any order)."""
        key = self.key(tiles)
        found = self.leaves.get(key)
        if found is not None:
            return found
        total = self.sizes.get(len(key), 0.0) + sum(self.tiles.get(t, 0.0) for t in key)
        for pair in combinations(key, 2):
            total += self.pairs.get(pair, 0.0)
        return total

    def best_value_within(self, tiles) -> float:
        """The most any leave of a play from a rack of these tiles may be worth: the largest value over
        the rack's sub-multisets short of the whole rack (a play uses a tile at least). A bound as
        exact as the table: the equity player stops its search by it."""
        key = self.key(tiles)
        best = float("-inf") if key else 0.0
        seen = set()
        for size in range(len(key)):
            for leave in combinations(key, size):
                if leave not in seen:
                    seen.add(leave)
                    best = max(best, self.value_of_tiles(leave))
        return best

    def value(self, leave: str) -> float:
        """The value of a leave in rack notation ("AE?", "[CH]A")."""
        found = self._cache.get(leave)
        if found is None:
            found = self.value_of_tiles(self.rule_set.tile_set.spell_rack(leave))
            if len(self._cache) >= _CACHE_LIMIT:
                self._cache.clear()
            self._cache[leave] = found
        return found

    def to_bytes(self) -> bytes:
        """leaves.tsv's bytes (deterministic: entries in canonical order, values to 0.01 point)."""
        ts = self.rule_set.tile_set
        order = self._order

        def rank(key):
            return (len(key), [order[t] for t in key])

        lines = [f"{MAGIC}\t{self.rule_set.id}\t{self.rule_set.rack_size}\t{self.about}"]
        lines += [f"size\t{n}\t{_number(v)}" for n, v in sorted(self.sizes.items())]
        lines += [f"tile\t{ts.rack_text([t])}\t{_number(v)}" for t, v in sorted(self.tiles.items(),
                                                                                 key=lambda kv: order[kv[0]])]
        lines += [f"pair\t{ts.rack_text(k)}\t{_number(v)}" for k, v in sorted(self.pairs.items(),
                                                                               key=lambda kv: rank(kv[0]))]
        lines += [f"leave\t{ts.rack_text(k)}\t{_number(v)}" for k, v in sorted(self.leaves.items(),
                                                                                key=lambda kv: rank(kv[0]))]
        return ("\n".join(lines) + "\n").encode("utf-8")


def _number(value: float) -> str:
    text = f"{value:.2f}"
    return "0.00" if text == "-0.00" else text


def table_lines(data: bytes, error, max_lines: int, too_many: str) -> list[str]:
    """The lines of a table file's bytes (UTF-8, each line ended by a newline, at most `max_lines`), or
    `error` (an exception class) saying what is wrong; `too_many` is its message past `max_lines`."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise error("not UTF-8 text") from None
    lines = text.split("\n")
    if lines[-1] != "":
        raise error("does not end with a newline")
    lines.pop()
    if len(lines) > max_lines:
        raise error(too_many)
    return lines


def parse_leave_table(data: bytes, rule_set) -> LeaveTable:
    """The LeaveTable in leaves.tsv's bytes; LeaveTableError saying what is wrong (and on which line)."""
    lines = table_lines(data, LeaveTableError, MAX_ENTRIES + 1, f"more than {MAX_ENTRIES:,} entries")
    header = lines[0].split("\t") if lines else []
    if len(header) != 4 or header[0] != MAGIC:
        raise LeaveTableError(f"the first line is not {MAGIC!r} and three fields")
    if header[1] != rule_set.id or header[2] != str(rule_set.rack_size):
        raise LeaveTableError(f"made for {header[1][:40]!r} with racks of {header[2][:4]}, "
                              f"not {rule_set.id} with racks of {rule_set.rack_size}")
    ts = rule_set.tile_set
    bag = ts.bag()
    order = tile_order(rule_set)
    most = rule_set.rack_size - 1
    parts = {kind: {} for kind in KINDS}
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split("\t")
        if len(fields) != 3 or fields[0] not in KINDS:
            raise LeaveTableError(f"line {number}: not 'kind<TAB>tiles<TAB>value' with kind one of {', '.join(KINDS)}")
        kind, tiles_text, value_text = fields
        try:
            value = float(value_text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and abs(value) <= MAX_ABS_VALUE):
            raise LeaveTableError(f"line {number}: the value {value_text[:20]!r} is not a number of at most "
                                  f"{MAX_ABS_VALUE:.0f} points")
        if kind == "size":
            # ASCII digits only: str.isdigit() also takes '²' (which int() refuses) and other scripts' digits
            if not (tiles_text.isascii() and tiles_text.isdigit() and len(tiles_text) <= 3 and int(tiles_text) <= most):
                raise LeaveTableError(f"line {number}: size {tiles_text[:20]!r} is not 0-{most}")
            key = int(tiles_text)
        else:
            try:
                tiles = ts.spell_rack(tiles_text)
            except UnknownLetterError as exc:
                raise LeaveTableError(f"line {number}: {exc}") from None
            want = {"tile": (1, 1), "pair": (2, 2), "leave": (1, most)}[kind]
            if not want[0] <= len(tiles) <= want[1] or any(tiles.count(t) > bag.get(t, 0) for t in set(tiles)):
                raise LeaveTableError(f"line {number}: {tiles_text[:40]!r} is not a {kind} of {rule_set.id}")
            key = tuple(sorted(tiles, key=order.__getitem__))
            key = key[0] if kind == "tile" else key
        if key in parts[kind]:
            raise LeaveTableError(f"line {number}: {kind} {tiles_text[:40]!r} given twice")
        parts[kind][key] = value
    return LeaveTable(rule_set, parts["size"], parts["tile"], parts["pair"], parts["leave"], about=header[3])
