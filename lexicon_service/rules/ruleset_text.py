"""The `.rules` text format read into a RuleSet (`rules/ruleset.py`), and the shipped rule sets.

File format (line-oriented, parsed here so that every error names its line and field):

    # comment                     "#" starts a comment anywhere
    [section]                     one of the sections below
    directive = value             one field of that section's dataclass (hyphens for underscores)
    [tiles] / [layout]            tables, one row per line

Unknown sections and directives are refused, so a typo never passes silently.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, fields
from importlib import resources

from lexicon_service.rules.ruleset import (
    STANDARD_LAYOUT,
    BlankRules,
    BoardSpec,
    ChallengeRules,
    EndRules,
    ExchangeRules,
    FirstPlayRules,
    GameInfo,
    LaterPlayRules,
    RackRules,
    RuleSet,
    RuleSetError,
    TimerRules,
    WordRules,
    parse_square,
    square_name,
)
from lexicon_service.tiles import BLANK, Tile, TileSet, normalise

_CHOICES = {
    ("words", "same_word_twice"): ("allowed", "forbidden"),
    ("end", "out_bonus"): ("none", "others-racks", "twice-others-racks"),
    ("challenge", "rule"): ("single", "double", "penalty"),
    ("timer", "timeout"): ("forfeit-turn", "none"),
}

_SECTIONS = {
    "game": GameInfo,
    "blank": BlankRules,
    "board": BoardSpec,
    "rack": RackRules,
    "first-play": FirstPlayRules,
    "later-plays": LaterPlayRules,
    "words": WordRules,
    "exchange": ExchangeRules,
    "end": EndRules,
    "challenge": ChallengeRules,
    "timer": TimerRules,
}
_TABLES = ("tiles", "layout")
_REQUIRED = ("game", "tiles", "rack")

_PREMIUM_CODES = {"..": (1, 1), ".": (1, 1), "DL": (2, 1), "TL": (3, 1), "QL": (4, 1),
                  "DW": (1, 2), "TW": (1, 3), "QW": (1, 4)}
_PREMIUM_RE = re.compile(r"^([2-9])([LW])$")


def _strip_comment(line: str) -> str:
    pos = line.find("#")
    return (line if pos < 0 else line[:pos]).strip()


def _convert(section: str, name: str, raw: str, annotation: str, origin: str, lineno: int):
    label = f"[{section}] {name.replace('_', '-')}"

    def fail(msg: str):
        raise RuleSetError(msg, origin, lineno, label)

    if not raw:
        fail("missing value")
    if annotation == "int":
        if not re.fullmatch(r"-?\d+", raw):
            fail(f"expected a whole number, got {raw!r}")
        value = int(raw)
        if value < 0:
            fail(f"must not be negative, got {value}")
        return value
    if annotation == "bool":
        low = raw.lower()
        if low in ("yes", "true", "on", "1"):
            return True
        if low in ("no", "false", "off", "0"):
            return False
        fail(f"expected yes or no, got {raw!r}")
    if annotation == "str":
        choices = _CHOICES.get((section, name))
        if choices and raw not in choices:
            fail(f"expected one of {', '.join(choices)}; got {raw!r}")
        return raw
    if annotation == "tuple[int, int]":  # players = 2-4
        m = re.fullmatch(r"(\d+)\s*-\s*(\d+)|(\d+)", raw)
        if not m:
            fail(f"expected a range like 2-4, got {raw!r}")
        lo, hi = (int(m.group(1)), int(m.group(2))) if m.group(1) else (int(m.group(3)),) * 2
        if lo < 1 or hi < lo:
            fail(f"bad range {raw!r}")
        return (lo, hi)
    if annotation == "tuple[str, ...]":
        return tuple(normalise(raw).split())
    if annotation == "tuple[int, int] | None":  # a square or "anywhere"
        if raw.lower() == "anywhere":
            return None
        square = parse_square(raw)
        if square is None:
            fail(f"expected a square like H8 or 'anywhere', got {raw!r}")
        return square
    raise AssertionError(annotation)  # a field type the parser does not know: a bug here


@dataclass
class _SectionsRead:
    """A rule-set text read into its sections, not yet converted: every value keeps its line."""

    values: dict[str, dict[str, tuple[str, int]]] = field(default_factory=dict)  # section -> field -> (raw, line)
    tables: dict[str, list[tuple[int, str]]] = field(default_factory=dict)  # section -> [(line, row)]
    section_lines: dict[str, int] = field(default_factory=dict)  # section -> line of its header

    def build(self, section: str, origin: str):
        """The section's dataclass from its values (its defaults for those not given)."""
        cls = _SECTIONS[section]
        kwargs = {}
        for f in fields(cls):
            if f.name in self.values.get(section, {}):
                raw, lineno = self.values[section][f.name]
                kwargs[f.name] = _convert(section, f.name, raw, str(f.type), origin, lineno)
        return cls(**kwargs)


def parse_rule_set(text: str, origin: str = "<string>") -> RuleSet:
    """Parse the text of a rule-set file; raises RuleSetError naming line and field."""
    if not isinstance(text, str):
        raise RuleSetError("rule-set text must be a string", origin)
    text = normalise(text.lstrip("\ufeff"))
    read = _read_sections(text, origin)
    for required in _REQUIRED:
        if required not in read.section_lines:
            raise RuleSetError(f"missing section [{required}]", origin, None, f"[{required}]")
    game = _game(read, origin)
    tile_set, blank = _parse_tiles(read.tables["tiles"], read.values.get("blank", {}), read.section_lines["tiles"],
                                   origin)
    board = _parse_board(read.values.get("board", {}), read.tables.get("layout"), read.section_lines.get("layout"),
                         origin)
    rack = _rack(read, origin)
    first_play = _first_play(read, board, rack, origin)
    if tile_set.total_tiles == 0:
        raise RuleSetError("the bag is empty", origin, read.section_lines["tiles"], "[tiles]")
    return RuleSet(
        game=game,
        tile_set=tile_set,
        board=board,
        rack=rack,
        first_play=first_play,
        later_plays=read.build("later-plays", origin),
        words=read.build("words", origin),
        exchange=read.build("exchange", origin),
        end=read.build("end", origin),
        challenge=read.build("challenge", origin),
        timer=read.build("timer", origin),
        blank=blank,
        source_text=text,
        origin=origin,
    )


def _read_sections(text: str, origin: str) -> _SectionsRead:
    """Each line into its section: a header, a table row or a directive; comments and blank lines skipped."""
    read = _SectionsRead()
    section: str | None = None
    for lineno, raw_line in enumerate(text.splitlines(), start=1):
        line = _strip_comment(raw_line)
        if not line:
            continue
        if line.startswith("["):
            section = _section_header(line, lineno, origin, read)
        elif section is None:
            raise RuleSetError("text before the first [section]", origin, lineno, "section")
        elif section in _TABLES:
            read.tables[section].append((lineno, line))
        else:
            _directive(section, line, lineno, origin, read.values[section])
    return read


def _section_header(line: str, lineno: int, origin: str, read: _SectionsRead) -> str:
    """The section a header line opens, entered in `read`."""
    m = re.fullmatch(r"\[\s*([A-Za-z][\w-]*)\s*\]", line)
    if not m:
        raise RuleSetError(f"bad section header {line!r}", origin, lineno, "section")
    section = m.group(1).lower()
    if section not in _SECTIONS and section not in _TABLES:
        known = ", ".join(sorted([*_SECTIONS, *_TABLES]))
        raise RuleSetError(f"unknown section [{section}] (known: {known})", origin, lineno, "section")
    if section in read.section_lines:
        raise RuleSetError(f"section [{section}] appears twice (first on line {read.section_lines[section]})",
                           origin, lineno, "section")
    read.section_lines[section] = lineno
    if section in _TABLES:
        read.tables[section] = []
    else:
        read.values[section] = {}
    return section


def _directive(section: str, line: str, lineno: int, origin: str, values: dict[str, tuple[str, int]]) -> None:
    """A 'directive = value' line of a section, entered in its `values` as (raw value, line)."""
    if "=" not in line:
        raise RuleSetError(f"expected 'directive = value', got {line!r}", origin, lineno, f"[{section}]")
    name, _, raw = line.partition("=")
    name = name.strip().lower()
    field_name = name.replace("-", "_")
    known_fields = {f.name: f for f in fields(_SECTIONS[section])}
    if section == "board" and field_name == "premiums":
        known_fields.pop(field_name)
    if field_name not in known_fields:
        names = ", ".join(f.replace("_", "-") for f in known_fields if not (section == "board" and f == "premiums"))
        raise RuleSetError(f"unknown directive (known in [{section}]: {names})", origin, lineno,
                           f"[{section}] {name}")
    if field_name in values:
        raise RuleSetError(f"given twice (first on line {values[field_name][1]})", origin, lineno,
                           f"[{section}] {name}")
    values[field_name] = (raw.strip(), lineno)


def _game(read: _SectionsRead, origin: str) -> GameInfo:
    game = read.build("game", origin)
    for required_field in ("id", "language", "profile"):
        if not getattr(game, required_field):
            raise RuleSetError("missing (required)", origin, read.section_lines["game"], f"[game] {required_field}")
    if not re.fullmatch(r"[A-Za-z0-9][\w.-]*", game.id):
        raise RuleSetError(f"bad id {game.id!r} (letters, digits, '-', '_', '.')", origin,
                           read.values["game"]["id"][1], "[game] id")
    if not re.fullmatch(r"[a-z]{2,3}", game.language):
        raise RuleSetError(f"expected a language code like cs or pl, got {game.language!r}", origin,
                           read.values["game"]["language"][1], "[game] language")
    return game


def _rack(read: _SectionsRead, origin: str) -> RackRules:
    rack = read.build("rack", origin)
    rack_values = read.values["rack"]
    if rack.size < 1:
        raise RuleSetError("must be at least 1", origin, rack_values.get("size", (0, read.section_lines["rack"]))[1],
                           "[rack] size")
    if "bingo_tiles" not in rack_values:
        rack = RackRules(rack.size, rack.size, rack.bingo_bonus)
    if rack.bingo_tiles > rack.size:
        raise RuleSetError(f"{rack.bingo_tiles} is more than the rack size {rack.size}", origin,
                           rack_values["bingo_tiles"][1], "[rack] bingo-tiles")
    return rack


def _first_play(read: _SectionsRead, board: BoardSpec, rack: RackRules, origin: str) -> FirstPlayRules:
    first_play = read.build("first-play", origin)
    if first_play.must_cover is not None:
        r, c = first_play.must_cover
        if not (0 <= r < board.rows and 0 <= c < board.columns):
            raise RuleSetError(f"{square_name(r, c)} is off the {board.rows}x{board.columns} board", origin,
                               read.values["first-play"]["must_cover"][1], "[first-play] must-cover")
    if first_play.min_tiles > rack.size:
        where = read.values.get("first-play", {}).get("min_tiles", (None, read.section_lines["rack"]))[1]
        raise RuleSetError(f"{first_play.min_tiles} is more than the rack size {rack.size}", origin, where,
                           "[first-play] min-tiles")
    return first_play


def _parse_tiles(rows, blank_values, section_line, origin):
    tiles: list[Tile] = []
    seen: dict[str, int] = {}
    blank_count, blank_points = 0, 0
    blank_line = None
    for lineno, line in rows:
        parts = line.split()
        if len(parts) != 3:
            raise RuleSetError(f"expected 'letter points count', got {line!r}", origin, lineno, "[tiles]")
        letter, points, count = parts
        if letter.startswith("[") and letter.endswith("]"):
            letter = letter[1:-1]
        for label, value in (("points", points), ("count", count)):
            if not value.isdecimal():
                raise RuleSetError(f"{label} of {letter!r} must be a whole number >= 0, got {value!r}", origin,
                                   lineno, f"[tiles] {label}")
        if letter == BLANK:
            if blank_line is not None:
                raise RuleSetError(f"blank listed twice (first on line {blank_line})", origin, lineno, "[tiles]")
            blank_line = lineno
            blank_count, blank_points = int(count), int(points)
            continue
        if not letter.isalpha():
            raise RuleSetError(f"tile letter {letter!r} must be letters only", origin, lineno, "[tiles] letter")
        letter = letter.upper()
        if letter in seen:
            raise RuleSetError(f"tile {letter!r} listed twice (first on line {seen[letter]})", origin, lineno,
                               "[tiles] letter")
        seen[letter] = lineno
        tiles.append(Tile(letter, int(points), int(count)))
    if not tiles:
        raise RuleSetError("no tiles listed", origin, section_line, "[tiles]")

    stands_for_raw, stands_line = blank_values.get("stands_for", ("tiles", section_line))
    letters: list[str] = []
    for word in normalise(stands_for_raw).split():
        if word.lower() == "tiles":
            letters.extend(t.letter for t in tiles)
            continue
        word = word.strip("[]")
        if not word.isalpha():
            raise RuleSetError(f"{word!r} is not a letter", origin, stands_line, "[blank] stands-for")
        letters.append(word.upper())
    letters = list(dict.fromkeys(letters))
    if blank_count and not letters:
        raise RuleSetError("a blank must stand for at least one letter", origin, stands_line, "[blank] stands-for")
    try:
        tile_set = TileSet(tuple(tiles), blank_count, tuple(letters), blank_points)
    except ValueError as exc:
        raise RuleSetError(str(exc), origin, section_line, "[tiles]") from None
    return tile_set, BlankRules(tuple(letters))


def _parse_board(board_values, layout_rows, layout_line, origin) -> BoardSpec:
    def get_int(name, default):
        if name not in board_values:
            return default, None
        raw, lineno = board_values[name]
        value = _convert("board", name, raw, "int", origin, lineno)
        if not 1 <= value <= 26:
            raise RuleSetError(f"must be between 1 and 26, got {value}", origin, lineno, f"[board] {name}")
        return value, lineno

    if layout_rows is None:  # no [layout]: the standard board (RULES.md section 2)
        layout_rows = [(None, line) for line in STANDARD_LAYOUT.splitlines()]
        layout_line = None
        default_rows, default_cols = 15, 15
    else:
        default_rows = None
        default_cols = None
    # A header of column letters ("A B C ...") is optional.
    if layout_rows and all(len(tok) == 1 and tok.isalpha() for tok in layout_rows[0][1].split()):
        layout_rows = layout_rows[1:]
    grid: list[tuple[tuple[int, int], ...]] = []
    for index, (lineno, line) in enumerate(layout_rows):
        tokens = line.split()
        if tokens and tokens[0].isdecimal():
            if int(tokens[0]) != index + 1:
                raise RuleSetError(f"row number {tokens[0]} where row {index + 1} was expected", origin, lineno,
                                   "[layout]")
            tokens = tokens[1:]
        row = []
        for token in tokens:
            code = token.upper()
            if code in _PREMIUM_CODES:
                row.append(_PREMIUM_CODES[code])
                continue
            m = _PREMIUM_RE.match(code)
            if not m:
                raise RuleSetError(f"unknown square code {token!r} (use .., DL, TL, DW, TW, or 2L, 3W ...)",
                                   origin, lineno, "[layout]")
            n = int(m.group(1))
            row.append((n, 1) if m.group(2) == "L" else (1, n))
        if grid and len(row) != len(grid[0]):
            raise RuleSetError(f"{len(row)} squares in this row, {len(grid[0])} in the first", origin, lineno,
                               "[layout]")
        grid.append(tuple(row))
    if not grid or not grid[0]:
        raise RuleSetError("empty board layout", origin, layout_line, "[layout]")
    rows, rows_line = get_int("rows", default_rows or len(grid))
    cols, cols_line = get_int("columns", default_cols or len(grid[0]))
    if len(grid) != rows:
        raise RuleSetError(f"layout has {len(grid)} rows, [board] rows = {rows}", origin, rows_line or layout_line,
                           "[board] rows")
    if len(grid[0]) != cols:
        raise RuleSetError(f"layout has {len(grid[0])} columns, [board] columns = {cols}", origin,
                           cols_line or layout_line, "[board] columns")
    if rows > 26 or cols > 26:
        raise RuleSetError("a board has at most 26 rows and columns", origin, layout_line, "[layout]")
    return BoardSpec(rows, cols, tuple(grid))


# --- loading ---------------------------------------------------------------------------------------

_SHIPPED_PACKAGE = "lexicon_service.rulesets"
_SUFFIX = ".rules"
_cache: dict[str, RuleSet] = {}


def list_rule_sets() -> list[str]:
    """Ids of the rule sets shipped with the package."""
    names = []
    for entry in resources.files(_SHIPPED_PACKAGE).iterdir():
        if entry.name.endswith(_SUFFIX):
            names.append(entry.name[: -len(_SUFFIX)])
    return sorted(names)


def load_rule_set(name_or_path) -> RuleSet:
    """A shipped rule set by id ("cs-scrabble") or a user's file by path ("/path/x.rules")."""
    if isinstance(name_or_path, RuleSet):
        return name_or_path
    spec = os.fspath(name_or_path)
    if spec in _cache:
        return _cache[spec]
    shipped = list_rule_sets()
    if spec in shipped:
        resource = resources.files(_SHIPPED_PACKAGE) / f"{spec}{_SUFFIX}"
        text = resource.read_text(encoding="utf-8")
        rule_set = parse_rule_set(text, f"{spec}{_SUFFIX}")
        if rule_set.id != spec:
            raise RuleSetError(f"shipped file declares id {rule_set.id!r}", f"{spec}{_SUFFIX}", None, "[game] id")
        _cache[spec] = rule_set
        return rule_set
    if os.path.isfile(spec):
        try:
            with open(spec, encoding="utf-8") as handle:
                text = handle.read()
        except UnicodeDecodeError as exc:
            raise RuleSetError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", spec) from None
        except OSError as exc:
            raise RuleSetError(f"cannot read: {exc.strerror}", spec) from None
        return parse_rule_set(text, spec)
    raise RuleSetError(f"no rule set {spec!r}: not a shipped rule set ({', '.join(shipped)}) and not a file", spec)
