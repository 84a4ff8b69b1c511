"""Analysis of a recorded game: for each turn, the best move by score beside the one played.

The record is replayed as `lexicon-service replay` replays it (`rules/replay.py`, one game flow);
for each play, exchange or pass whose line gives the player's rack, `generate_moves` finds the best
move for that rack on the board before the turn (exchanges only where the bag allowed them then).
A play later withdrawn (``--``) scored nothing: it gave away the whole best score. Turns without
a rack in the record cannot be analysed and say so.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field

from lexicon_service.movegen import MoveGenerationError, generate_moves
from lexicon_service.rules.gcg import EXCHANGE, PASS, PLAY, WITHDRAWN, GcgGame
from lexicon_service.rules.notes import Note
from lexicon_service.rules.replay import replay
from lexicon_service.rules.ruleset import RuleSet

TURN_KINDS = (PLAY, EXCHANGE, PASS)


@dataclass
class TurnAnalysis:
    turn: int                     # 1, 2, ... over the plays, exchanges and passes of the record
    line: int                     # the GCG line
    player: str
    rack: str | None              # as recorded
    played: str                   # as recorded: "8F HUJA", "-ABC", "-"
    played_score: int | None      # as the rules score it (None: an illegal play)
    withdrawn: bool               # the play was challenged off: it scored nothing
    best: str | None              # "8D W(O)RD" (tiles already on the board in parentheses), "-ABC", "-"
    best_score: int | None
    given_away: int | None        # best_score minus what the turn scored
    best_words: tuple[str, ...] = ()
    note: str = ""                # why there is no best move, or what is odd about the turn: `notes` joined
    ahead: LookedAhead | None = None  # analyse --sim: the simulation's (or the endgame's) view of the turn
    notes: list[Note] = field(default_factory=list)  # `note`'s parts as data (code, values): a page says them

    def as_dict(self) -> dict:
        out = asdict(self)
        out["best_words"] = list(self.best_words)
        del out["notes"]  # --json keeps `note`, its English text
        if self.ahead is None:
            del out["ahead"]
        return out


@dataclass
class LookedAhead:
    """A turn looked at by simulation (or, with the bag empty, by the endgame search): its best move, that
    move's win chance (0-1, None without a win table) and mean spread, and the same of the move played
    (None when it was not legal or not simulated)."""

    kind: str                     # "simulation" or "endgame"
    best: str
    best_win: float | None
    best_spread: float
    played_win: float | None
    played_spread: float | None
    iterations: int               # simulation: iterations; endgame: plies searched
    sequence: list[str]           # endgame: the best sequence


def analyse_game(rule_set: RuleSet, game: GcgGame, lexicon, *, deadline: float | None = None,
                 turn_seconds: float | None = None) -> list[TurnAnalysis]:
    """One TurnAnalysis per play, exchange and pass of `game`. Raises MoveGraphMissing when the lexicon
    has no move graph, MoveGenerationError (field "rule_set") when it is for other letters or a smaller
    board, MoveGenerationTimeout past `deadline` (a time.monotonic() value) or when one turn's search
    takes longer than `turn_seconds`."""
    boards = []
    report = replay(rule_set, game, lexicon=lexicon, on_line=lambda line, board: boards.append(board.copy()))
    return analyse_replay(rule_set, report, boards, lexicon, deadline=deadline, turn_seconds=turn_seconds)


def analyse_replay(rule_set: RuleSet, report, boards: list, lexicon, *, deadline: float | None = None,
                   turn_seconds: float | None = None) -> list[TurnAnalysis]:
    """analyse_game of a record already replayed (its words checked against `lexicon`): `report` its ReplayReport,
    `boards` the board after each of its lines."""
    turns: list[TurnAnalysis] = []
    last_play_of: dict[int, TurnAnalysis] = {}
    for i, line in enumerate(report.lines):
        event = line.event
        if event.kind == WITHDRAWN:
            withdrawn = last_play_of.pop(line.player_index, None)
            if withdrawn is not None:
                withdrawn.withdrawn = True
                if withdrawn.best_score is not None:
                    withdrawn.given_away = withdrawn.best_score
            continue
        if event.kind not in TURN_KINDS:
            continue
        board = boards[i - 1] if i else None
        turn = TurnAnalysis(len(turns) + 1, event.line, event.player, event.rack, event.move_text(),
                            line.expected_score, False, None, None, None)
        if not event.rack:
            turn.notes.append(Note("no-rack-in-record", "no rack in the record"))
        else:
            turn_deadline = deadline
            if turn_seconds is not None:
                own = time.monotonic() + turn_seconds
                turn_deadline = own if deadline is None else min(deadline, own)
            try:
                best = generate_moves(rule_set, board, event.rack, lexicon, limit=1, bag_count=line.bag_before,
                                      deadline=turn_deadline)
            except MoveGenerationError as exc:
                if exc.field != "rack":
                    raise
                turn.notes.append(Note("rack-not-searched", f"rack {event.rack!r}: {exc}", rack=event.rack))
            else:
                move = best[0]
                turn.best, turn.best_score, turn.best_words = move.play, move.score, move.words
                if turn.played_score is not None:
                    turn.given_away = move.score - turn.played_score
        turn.notes.extend(line.problems or line.notes)  # the replay's own, as data (rules/notes.py)
        turn.note = "; ".join(turn.notes)
        turns.append(turn)
        if event.kind == PLAY:
            last_play_of[line.player_index] = turn
    return turns


def annotate(game: GcgGame, turns: list[TurnAnalysis]) -> GcgGame:
    """The record with a `#note` after each analysed turn: the best move and the points given away
    (the game itself is changed and returned)."""
    at = {turn.line: turn for turn in turns}
    for event in game.events:
        turn = at.get(event.line)
        if turn is not None:
            event.notes.append(note_text(turn))
    return game


def note_text(turn: TurnAnalysis) -> str:
    if turn.best is None:
        return f"analysis: {turn.note or 'no best move'}"
    given = "" if turn.given_away is None else f", {turn.given_away} points given away"
    return f"analysis: best {turn.best} {turn.best_score:+d}{given}"


def format_analysis(turns: list[TurnAnalysis]) -> str:
    """The table `lexicon-service analyse` prints."""
    header = ("turn", "player", "rack", "played", "score", "best", "best score", "given away")
    rows = [header]
    for t in turns:
        played = t.played + (" (withdrawn)" if t.withdrawn else "")
        rows.append((str(t.turn), t.player, t.rack or "", played, _num(t.played_score), t.best or "?",
                     _num(t.best_score), _num(t.given_away)))
    widths = [max(len(r[k]) for r in rows) for k in range(len(header))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    given = [t.given_away for t in turns if t.given_away is not None]
    lines.append(f"{len(turns)} turns, {len(given)} analysed, {sum(given)} points given away in all")
    return "\n".join(lines)


def _num(value: int | None) -> str:
    return "?" if value is None else str(value)
