"""The win-probability table of a lexicon: ``winprob.tsv``, the chance that the player on turn wins,
by the score difference (their score less the opponent's) and the tiles left in the bag.

Made by ``lexicon-build --win-table LEX.lex`` (``build_tools/winprob.py``: two-player self-play games,
a logistic fit per bag count) and listed in the manifest's ``files`` like every other file, with its
size and sha256; checked at load (``lexicon_service/lexicon.py``). Simulation (``movegen/simulate.py``)
ranks moves by the win chance of the positions its play-outs end in.

File layout: UTF-8 text, tab-separated, after a header line::

    # czpl-lexicon winprob 1	<rule set id>	<how it was made>
    spreads	-300	-290	...	300      the score differences of the columns, strictly rising
    bag	0	0.0001	...	0.9999        per bag count 0, 1, ... (each once, in order): the chance to win
                                        for the player on turn, one per column, never falling

A spread between two columns is interpolated linearly, one outside them takes the nearest column; a
bag count past the last row takes the last row. A draw counts half a win.
"""

from __future__ import annotations

import bisect
import math

from lexicon_service.movegen.leaves import table_lines

FILE_NAME = "winprob.tsv"
MAGIC = "# czpl-lexicon winprob 1"
MAX_COLUMNS = 401
MAX_ROWS = 1001
MAX_SPREAD = 10_000


class WinTableError(ValueError):
    """A winprob.tsv that cannot be read: what is wrong and on which line."""


class WinTable:
    """Win chances of the player on turn by spread (columns) and bag count (rows)."""

    def __init__(self, rule_set_id: str, spreads: list[int], rows: list[list[float]], about: str = "") -> None:
        self.rule_set_id = rule_set_id
        self.spreads = spreads
        self.rows = rows
        self.about = about

    def win_chance(self, spread: float, bag_count: int) -> float:
        """The chance that the player on turn, ahead by `spread` points with `bag_count` tiles in the bag,
        wins (a draw half)."""
        row = self.rows[min(max(bag_count, 0), len(self.rows) - 1)]
        spreads = self.spreads
        if spread <= spreads[0]:
            return row[0]
        if spread >= spreads[-1]:
            return row[-1]
        i = bisect.bisect_right(spreads, spread)
        lo, hi = spreads[i - 1], spreads[i]
        t = (spread - lo) / (hi - lo)
        return row[i - 1] + t * (row[i] - row[i - 1])

    def to_bytes(self) -> bytes:
        lines = ["\t".join((MAGIC, self.rule_set_id, self.about)),
                 "\t".join(["spreads", *(str(s) for s in self.spreads)])]
        for bag, row in enumerate(self.rows):
            lines.append("\t".join(["bag", str(bag), *(f"{p:.4f}" for p in row)]))
        return ("\n".join(lines) + "\n").encode("utf-8")


def _ascii_int(text: str, lowest: int, highest: int) -> int | None:
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 6):
        return None
    value = int(text)
    return value if lowest <= value <= highest else None


def _probability(text: str) -> float | None:
    if len(text) > 12:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) and 0.0 <= value <= 1.0 else None


def _spreads(line: str) -> list[int]:
    fields = line.split("\t")
    if fields[0] != "spreads" or not 3 <= len(fields) <= MAX_COLUMNS + 1:
        raise WinTableError(f"line 2: not 'spreads' and 2-{MAX_COLUMNS} score differences")
    spreads = [_ascii_int(f, -MAX_SPREAD, MAX_SPREAD) for f in fields[1:]]
    if None in spreads or any(b <= a for a, b in zip(spreads, spreads[1:])):
        raise WinTableError(f"line 2: the score differences are not whole numbers of at most {MAX_SPREAD:,} "
                            "in strictly rising order")
    return spreads


def _row(number: int, line: str, bag: int, columns: int) -> list[float]:
    fields = line.split("\t")
    if len(fields) != columns + 2 or fields[0] != "bag" or _ascii_int(fields[1], 0, MAX_ROWS) != bag:
        raise WinTableError(f"line {number}: not 'bag<TAB>{bag}' and {columns} chances")
    row = [_probability(f) for f in fields[2:]]
    if None in row:
        raise WinTableError(f"line {number}: a chance that is not a number from 0 to 1")
    if any(b < a for a, b in zip(row, row[1:])):
        raise WinTableError(f"line {number}: the chance to win falls as the score difference rises")
    return row


def parse_win_table(data: bytes, rule_set) -> WinTable:
    """The WinTable in winprob.tsv's bytes; WinTableError saying what is wrong (and on which line)."""
    lines = table_lines(data, WinTableError, MAX_ROWS + 2, f"more than {MAX_ROWS:,} bag rows")
    header = lines[0].split("\t") if lines else []
    if len(header) != 3 or header[0] != MAGIC:
        raise WinTableError(f"the first line is not {MAGIC!r} and two fields")
    if header[1] != rule_set.id:
        raise WinTableError(f"made for {header[1][:40]!r}, not {rule_set.id}")
    if len(lines) < 3:
        raise WinTableError("no spreads line and bag rows")
    spreads = _spreads(lines[1])
    rows = [_row(number, line, bag, len(spreads)) for bag, (number, line) in enumerate(enumerate(lines[2:], start=3))]
    return WinTable(rule_set.id, spreads, rows, about=header[2])
