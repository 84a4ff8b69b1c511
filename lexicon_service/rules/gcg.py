"""GCG game records (poslfit.com/scrabble/gcg): read and write.

Pragmata: `#player1 nick Full Name` (..#player4), `#character-encoding UTF-8`, `#rack1 ABC` (a player's
rack at the end of an unfinished game), `#note text` (attached to the event before it), any other
`#keyword args` kept verbatim. Events (`>nick: ...`, the rack is optional):

    >Ann: ABCDEFG 8D WORD +24 24        play (lowercase = blank, "." or its letter = tile on the board, [CH])
    >Ann: ABCDEFG -- -24 0              the previous play withdrawn (a challenged phony)
    >Ann: ABCDEFG -ABC +0 0             exchange (or "-3": only the number of tiles known)
    >Ann: ABCDEFG - +0 0                pass
    >Ann: ABCDEFG (challenge) +5 29     challenge bonus
    >Ann: ABCDEFG (time) -10 19         time penalty
    >Ann: (DEF) +12 31                  end of game: points for the others' racks
    >Bob: DEF (DEF) -6 40               end of game: own rack subtracted
    >Bob: (challenge) -3 37             with `#note director adjustment: WHY` after it: a director's
                                        score adjustment (a game server writes one so), not a bonus

Files are read as UTF-8, falling back to ISO-8859-1, unless `#character-encoding` says otherwise.
Every error is a GcgError (a ValueError) naming the line, with a stable reason code (GCG_...) and the
values it names, for a page to say it in its language.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field


class GcgError(ValueError):
    """A GCG record that cannot be read; names the line. `reason` is a stable code (one of READER_REASONS)
    and `values` what it names (the line, and the record's text quoted at most QUOTED characters)."""

    def __init__(self, message: str, line: int | None = None, origin: str = "", *, reason: str,
                 **values) -> None:
        self.line = line
        self.origin = origin
        self.reason = reason
        self.values = {"line": line, **values} if line is not None else dict(values)
        where = origin or "<gcg>"
        if line is not None:
            where += f":{line}"
        super().__init__(f"{where}: {message}")


PLAY, WITHDRAWN, EXCHANGE, PASS, CHALLENGE_BONUS, TIME_PENALTY, END_RACK = (
    "play", "withdrawn", "exchange", "pass", "challenge", "time", "end-rack")

# GCG has no event for a director's score adjustment: it is a (challenge) line with this note, "...: WHY".
DIRECTOR_ADJUSTMENT_NOTE = "director adjustment"


@dataclass
class GcgEvent:
    line: int  # line number in the file (1-based)
    player: str  # nickname
    kind: str  # one of PLAY, WITHDRAWN, EXCHANGE, PASS, CHALLENGE_BONUS, TIME_PENALTY, END_RACK
    score: int  # signed, as recorded
    cumulative: int  # as recorded
    rack: str | None = None  # the player's rack before the event, as written ("?" = blank)
    position: str | None = None  # PLAY: "8D" / "D8"
    word: str | None = None  # PLAY: "WORD" with "." and lowercase blanks
    exchanged: str | None = None  # EXCHANGE: tiles ("ABC") or a count ("3")
    end_rack: str | None = None  # END_RACK: the tiles in parentheses
    notes: list[str] = field(default_factory=list)
    text: str = ""  # the original line

    @property
    def director_adjustment(self) -> bool:
        """A (challenge) line that a director's score adjustment was written as (its #note says so)."""
        return self.kind == CHALLENGE_BONUS and any(note.startswith(DIRECTOR_ADJUSTMENT_NOTE) for note in self.notes)

    @property
    def own_end_rack(self) -> bool:
        """END_RACK: the player's own rack subtracted (else the others' racks, to the player who went out)."""
        return self.score < 0 or (self.score == 0 and bool(self.rack))

    def move_text(self) -> str:
        """The event as written between the rack and the score."""
        if self.kind == PLAY:
            return f"{self.position} {self.word}"
        if self.kind == WITHDRAWN:
            return "--"
        if self.kind == EXCHANGE:
            return f"-{self.exchanged}"
        if self.kind == PASS:
            return "-"
        if self.kind == CHALLENGE_BONUS:
            return "(challenge)"
        if self.kind == TIME_PENALTY:
            return "(time)"
        return f"({self.end_rack})"


@dataclass
class GcgPlayer:
    nick: str
    name: str = ""


@dataclass
class GcgGame:
    players: list[GcgPlayer] = field(default_factory=list)
    events: list[GcgEvent] = field(default_factory=list)
    pragmas: list[tuple[str, str]] = field(default_factory=list)  # other pragmata, in order (keyword, args)
    final_racks: dict[str, str] = field(default_factory=dict)  # nick -> rack from #rack1..#rack4
    notes: list[str] = field(default_factory=list)  # notes before the first event
    encoding: str = "utf-8"
    origin: str = ""

    def player_index(self, nick: str) -> int:
        for i, p in enumerate(self.players):
            if p.nick == nick:
                return i
        raise KeyError(nick)

    @property
    def has_racks(self) -> bool:
        return any(e.rack for e in self.events if e.kind != END_RACK)


# Scores and totals fit in 32 bits with room to add (every real game's do); an exchange is of a rack.
MAX_SCORE_DIGITS = 6
MAX_EXCHANGE_DIGITS = 2
# The reader's reason codes (GcgError.reason): the pages say each in their language (static/i18n.js).
READER_REASONS = (
    "GCG_UNKNOWN_ENCODING", "GCG_NOT_IN_ENCODING", "GCG_UNDECLARED_PLAYER", "GCG_UNEXPECTED_LINE",
    "GCG_NOT_A_RECORD", "GCG_PLAYER_NO_NICKNAME", "GCG_PLAYER_OUT_OF_ORDER", "GCG_NICKNAME_TWICE",
    "GCG_RACK_BEFORE_PLAYER", "GCG_EVENT_NO_NICKNAME", "GCG_TOO_FEW_FIELDS", "GCG_BAD_SCORE", "GCG_BAD_TOTAL",
    "GCG_SCORE_TOO_LONG", "GCG_TOTAL_TOO_LONG", "GCG_NO_MOVE", "GCG_BAD_PLAY", "GCG_BAD_MOVE",
    "GCG_EXCHANGE_TOO_LARGE",
)
QUOTED = 40  # a value quoting the record is cut to this many characters (it travels in a header)


def _quoted(text: str) -> str:
    return text if len(text) <= QUOTED else text[:QUOTED] + "…"


_SCORE_RE = re.compile(r"^[+-]?\d+$")
_POSITION_RE = re.compile(r"^(\d{1,2}[A-Za-z]|[A-Za-z]\d{1,2})$")
_ENCODING_RE = re.compile(rb"^#character-encoding[ \t]+(\S+)", re.MULTILINE)


def decode_gcg(data: bytes, origin: str = "") -> tuple[str, str]:
    """Bytes -> (text, encoding): `#character-encoding` wins; else UTF-8, then ISO-8859-1."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    m = _ENCODING_RE.search(data)
    if m:
        name = m.group(1).decode("ascii", "replace")
        try:
            codecs.lookup(name)
        except LookupError:
            line = data[: m.start()].count(b"\n") + 1
            raise GcgError(f"unknown character encoding {name!r}", line, origin, reason="GCG_UNKNOWN_ENCODING",
                           encoding=_quoted(name)) from None
        try:
            return data.decode(name), name
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise GcgError(f"not valid {name} text ({exc.reason})", line, origin, reason="GCG_NOT_IN_ENCODING",
                           encoding=_quoted(name)) from None
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("iso-8859-1"), "iso-8859-1"


def read_gcg(path) -> GcgGame:
    """Read a GCG file; raises GcgError (or OSError when the file cannot be opened)."""
    with open(path, "rb") as handle:
        return gcg_of_bytes(handle.read(), str(path))


def gcg_of_bytes(data: bytes, origin: str) -> GcgGame:
    """A GCG record from its bytes (its encoding detected, ``decode_gcg``); raises GcgError."""
    text, encoding = decode_gcg(data, origin)
    game = parse_gcg(text, origin)
    game.encoding = encoding
    return game


def parse_gcg(text: str, origin: str = "<gcg>") -> GcgGame:
    game = GcgGame(origin=origin)
    nicks: dict[str, int] = {}
    declared_players = False  # with #player lines, every event must name one of them
    for lineno, raw in enumerate(re.split(r"\r\n|\r|\n", text), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            _pragma(game, nicks, line, lineno, origin)
            declared_players = declared_players or line.lower().startswith("#player")
            continue
        if line.startswith(">"):
            event = _event(line, lineno, origin)
            if event.player not in nicks:
                if declared_players or len(game.players) >= 4:
                    declared = ", ".join(p.nick for p in game.players)
                    raise GcgError(f"player {event.player!r} is not declared by #player lines ({declared})",
                                   lineno, origin, reason="GCG_UNDECLARED_PLAYER", player=_quoted(event.player),
                                   declared=_quoted(declared))
                nicks[event.player] = len(game.players)  # undeclared players: order of appearance
                game.players.append(GcgPlayer(event.player))
            game.events.append(event)
            continue
        if game.events:  # a continuation of the previous note or free text: keep it as a note
            game.events[-1].notes.append(line)
            continue
        raise GcgError(f"expected a '#pragma' or a '>player: ...' event, got {line[:40]!r}", lineno, origin,
                       reason="GCG_UNEXPECTED_LINE", text=_quoted(line))
    if not game.players and not game.events:
        # An empty or pragma-only file is not a game record: replaying it would "agree" vacuously.
        raise GcgError("not a game record: no #player lines and no moves", 1, origin, reason="GCG_NOT_A_RECORD")
    return game


def _pragma(game: GcgGame, nicks: dict, line: str, lineno: int, origin: str) -> None:
    keyword, _, args = line[1:].partition(" ")
    keyword = keyword.strip().lower()
    args = args.strip()
    m = re.fullmatch(r"player([1-9])", keyword)
    if m:
        number = int(m.group(1))
        parts = args.split(None, 1)
        if not parts:
            raise GcgError(f"#{keyword} needs a nickname", lineno, origin, reason="GCG_PLAYER_NO_NICKNAME",
                           pragma=f"#{keyword}")
        if number != len(game.players) + 1:
            raise GcgError(f"#{keyword} out of order (expected #player{len(game.players) + 1})", lineno, origin,
                           reason="GCG_PLAYER_OUT_OF_ORDER", pragma=f"#{keyword}",
                           expected=f"#player{len(game.players) + 1}")
        if parts[0] in nicks:
            raise GcgError(f"nickname {parts[0]!r} used twice", lineno, origin, reason="GCG_NICKNAME_TWICE",
                           nickname=_quoted(parts[0]))
        nicks[parts[0]] = len(game.players)
        game.players.append(GcgPlayer(parts[0], parts[1] if len(parts) > 1 else ""))
        return
    m = re.fullmatch(r"rack([1-9])", keyword)
    if m:
        number = int(m.group(1))
        if number > len(game.players):
            raise GcgError(f"#{keyword} before #player{number}", lineno, origin, reason="GCG_RACK_BEFORE_PLAYER",
                           pragma=f"#{keyword}", player=f"#player{number}")
        game.final_racks[game.players[number - 1].nick] = args
        return
    if keyword == "note":
        (game.events[-1].notes if game.events else game.notes).append(args)
        return
    game.pragmas.append((keyword, args))


def _event(line: str, lineno: int, origin: str) -> GcgEvent:
    head, colon, rest = line[1:].partition(":")
    nick = head.strip()
    if not colon or not nick or " " in nick:
        raise GcgError("an event must start '>nickname:'", lineno, origin, reason="GCG_EVENT_NO_NICKNAME")
    tokens = rest.split()
    if len(tokens) < 3:
        raise GcgError(f"too few fields in event {line!r} (expected [rack] move score total)", lineno, origin,
                       reason="GCG_TOO_FEW_FIELDS", event=_quoted(line))
    score_text, total_text = tokens[-2], tokens[-1]
    if not _SCORE_RE.match(score_text):
        raise GcgError(f"bad score {score_text!r} (expected e.g. +24 or -10)", lineno, origin,
                       reason="GCG_BAD_SCORE", score=_quoted(score_text))
    if not re.fullmatch(r"-?\d+", total_text):
        raise GcgError(f"bad cumulative total {total_text!r}", lineno, origin, reason="GCG_BAD_TOTAL",
                       total=_quoted(total_text))
    for what, number, reason in (("score", score_text, "GCG_SCORE_TOO_LONG"),
                                 ("cumulative total", total_text, "GCG_TOTAL_TOO_LONG")):
        if len(number.lstrip("+-")) > MAX_SCORE_DIGITS:
            raise GcgError(f"{what} {number[:12]!r}... has more than {MAX_SCORE_DIGITS} digits", lineno, origin,
                           reason=reason, digits=MAX_SCORE_DIGITS)
    middle = tokens[:-2]
    event = GcgEvent(lineno, nick, PLAY, int(score_text), int(total_text), text=line)

    def is_move_token(tok: str) -> bool:
        return tok.startswith("-") or tok.startswith("(") or bool(_POSITION_RE.match(tok))

    if middle and not is_move_token(middle[0]):
        event.rack = middle[0]
        middle = middle[1:]
    if not middle:
        raise GcgError(f"no move in event {line!r}", lineno, origin, reason="GCG_NO_MOVE", event=_quoted(line))
    first = middle[0]
    if _POSITION_RE.match(first):
        if len(middle) != 2:
            raise GcgError(f"a play is 'POSITION WORD', got {' '.join(middle)!r}", lineno, origin,
                           reason="GCG_BAD_PLAY", move=_quoted(" ".join(middle)))
        event.kind, event.position, event.word = PLAY, first, middle[1]
    elif len(middle) != 1:
        raise GcgError(f"cannot read the move {' '.join(middle)!r}", lineno, origin, reason="GCG_BAD_MOVE",
                       move=_quoted(" ".join(middle)))
    elif first == "--":
        event.kind = WITHDRAWN
    elif first == "-":
        event.kind = PASS
    elif first.startswith("-"):
        event.kind, event.exchanged = EXCHANGE, first[1:]
        if event.exchanged.isdecimal() and len(event.exchanged) > MAX_EXCHANGE_DIGITS:
            raise GcgError(f"exchange count {event.exchanged[:12]!r}... is too large", lineno, origin,
                           reason="GCG_EXCHANGE_TOO_LARGE", count=_quoted(event.exchanged))
    elif first.lower() == "(challenge)":
        event.kind = CHALLENGE_BONUS
    elif first.lower() == "(time)":
        event.kind = TIME_PENALTY
    elif first.startswith("(") and first.endswith(")") and len(first) > 2:
        event.kind, event.end_rack = END_RACK, first[1:-1]
    else:
        raise GcgError(f"cannot read the move {first!r}", lineno, origin, reason="GCG_BAD_MOVE", move=_quoted(first))
    return event


def gcg_nicknames(names) -> list[str]:
    """The GCG nickname of each player name: a nickname is one token of an event line (`>nick: ...`), so
    whitespace and the characters GCG reads (':', '#', '>', brackets, parentheses) become '_'; the full
    name goes on the `#player` line after it, as other GCG readers expect. Equal nicknames get '_2', '_3'."""
    out: list[str] = []
    for name in names:
        nick = re.sub(r"[\s:#>()\[\]]+", "_", name.strip()) or "_"
        base, n = nick, 2
        while nick in out:
            nick, n = f"{base}_{n}", n + 1
        out.append(nick)
    return out


def format_gcg(game: GcgGame) -> str:
    """GCG text (UTF-8 declared) of a game: pragmata, events, notes."""
    out = ["#character-encoding UTF-8"]
    for i, p in enumerate(game.players, start=1):
        out.append(f"#player{i} {p.nick} {p.name}".rstrip())
    for keyword, args in game.pragmas:
        if keyword != "character-encoding":
            out.append(f"#{keyword} {args}".rstrip())
    for note in game.notes:
        out.append(f"#note {note}")
    for e in game.events:
        rack = f"{e.rack} " if e.rack else ""
        out.append(f">{e.player}: {rack}{e.move_text()} {e.score:+d} {e.cumulative}")
        for note in e.notes:
            out.append(f"#note {note}")
    for i, p in enumerate(game.players, start=1):
        if p.nick in game.final_racks:
            out.append(f"#rack{i} {game.final_racks[p.nick]}")
    return "\n".join(out) + "\n"


def write_gcg(game: GcgGame, path) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(format_gcg(game))
