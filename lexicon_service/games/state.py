"""The state of a game: the fold of its events (`GameState.apply`, one handler per event kind).

The state holds no randomness, clock or lexicon: every decision is already in the event (see
events.py); `service.py` makes the decisions. With `record=True` the state also keeps the GCG
record of the game (`gcg_text()`), written as `lexicon-service replay` reads it:
a withdrawn phony is `--`, an exchange `-TILES`, a pass (and a lost turn) `-`, a score adjustment
`(challenge)`, an overtime penalty `(time)`, the end-of-game racks `(RACK)`.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import re

from lexicon_service.games.events import (
    Challenged,
    CorrectionRefused,
    Exchanged,
    GameCreated,
    GameEnded,
    MoveUndone,
    Passed,
    Played,
    Redrawn,
    ScoreAdjusted,
)
from lexicon_service.games.options import GameOptions
from lexicon_service.rules.game import END_BLOCKED, NOTE_BLOCKED, NOTE_REDRAWN, GameFlow
from lexicon_service.rules.gcg import (
    CHALLENGE_BONUS,
    DIRECTOR_ADJUSTMENT_NOTE,
    END_RACK,
    EXCHANGE,
    PASS,
    PLAY,
    TIME_PENALTY,
    WITHDRAWN,
    GcgEvent,
    GcgGame,
    GcgPlayer,
    format_gcg,
    gcg_nicknames,
)
from lexicon_service.tiles import write_tiles

GAME_ID_RE = re.compile(r"[0-9a-f]{16}")  # what a game id is (fullmatch): 16 hex digits

PLAYING, FINAL_PASS, ENDED = "playing", "final-pass", "ended"


class LastPlay:
    """The play that may still be challenged (it is the last turn event)."""

    __slots__ = ("player", "version", "event", "rack_before")

    def __init__(self, player, version, event, rack_before):
        self.player = player
        self.version = version
        self.event = event
        self.rack_before = rack_before


class GameState:
    """A live game: its game flow (`rules.game.GameFlow`: board, bag, racks, scores, the rules that end
    it) and what a server adds: turn, clocks, the challenge window, corrections, the record."""

    __slots__ = ("game_id", "created", "rule_set", "options", "players", "version", "flow",
                 "turn", "status", "turn_started", "time_used",
                 "last_play", "correcting", "lost_turns", "end_reason", "last_move_version",
                 "last_move_text", "record", "_pending_notes", "_board_view", "board_changes", "nicks")

    def __init__(self, game_id: str, created: GameCreated, rule_set, record: bool = False) -> None:
        n = len(created.players)
        self.game_id = game_id
        self.created = created
        self.rule_set = rule_set
        self.options = GameOptions(**created.options)
        self.players = created.players
        self.version = 1
        self.flow = GameFlow(rule_set, created.racks, created.bag)
        self.turn = 0
        self.status = PLAYING
        self.turn_started = created.at
        self.time_used = [0.0] * n
        self.last_play: LastPlay | None = None
        self.correcting: int | None = None
        self.lost_turns = [0] * n
        self.end_reason = ""
        self.last_move_version = 0
        self.last_move_text = ""
        self.record: GcgGame | None = None
        self._pending_notes: list[str] = []
        self._board_view = None  # (board_changes, rows, text) of the board as last shown
        self.board_changes = 0  # plays and withdrawals so far: names the board for _view
        self.nicks = gcg_nicknames(created.players)  # the record's names of the players (one token each)
        if record:
            self.record = GcgGame(players=[GcgPlayer(nick, name if name != nick else "")
                                           for nick, name in zip(self.nicks, created.players)])
            self.record.pragmas.append(("rules", rule_set.id))  # `lexicon-service replay` reads it
            self.record.pragmas.append(("lexicon", created.lexicon))
            self.record.pragmas.append(("description", f"lexicon-service game {game_id}, lexicon "
                                                       f"{created.lexicon}, rule set {rule_set.id}"))

    # --- derived -----------------------------------------------------------------------------------
    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def board(self):
        return self.flow.board

    @property
    def racks(self) -> list[list[str]]:
        return self.flow.racks

    @property
    def bag(self) -> list[str]:
        return self.flow.bag

    @property
    def scores(self) -> list[int]:
        return self.flow.scores

    @property
    def went_out(self) -> int | None:
        return self.flow.went_out

    @property
    def scoreless_turns(self) -> int:
        return self.flow.scoreless_turns

    @property
    def passes_in_a_row(self) -> int:
        return self.flow.passes_in_a_row

    def copy(self) -> "GameState":
        other = GameState.__new__(GameState)
        for name in GameState.__slots__:
            setattr(other, name, getattr(self, name))
        other.flow = self.flow.copy()
        other.time_used = self.time_used[:]
        other.lost_turns = self.lost_turns[:]
        other.record = None  # records are built by full folds only
        other._pending_notes = []
        return other

    def deadline(self) -> float | None:
        """When the current turn (or correction window) times out; None without a timer."""
        if self.status == ENDED:
            return None
        if self.correcting is not None and self.options.correction_seconds:
            return self.turn_started + self.options.correction_seconds
        if self.options.move_seconds and self.options.timeout != "none":
            return self.turn_started + self.options.move_seconds
        return None

    def time_used_now(self, player: int, now: float) -> float:
        used = self.time_used[player]
        if player == self.turn and self.status != ENDED:
            used += max(0.0, now - self.turn_started)
        return used

    def time_penalties(self, now: float) -> tuple[int, ...]:
        """Overtime penalty per player if the game ended at `now` (<= 0)."""
        limit = self.options.game_seconds
        if not limit:
            return (0,) * self.n_players
        out = []
        for p in range(self.n_players):
            over = self.time_used_now(p, now) - limit
            out.append(-math.ceil(over / 60) * self.options.overtime_penalty if over > 0 else 0)
        return tuple(out)

    def rack_text(self, player: int) -> str:
        return _tiles_text(self.rule_set, self.racks[player])

    def board_rows(self) -> list[str]:
        return self._view()[1]

    def board_text(self) -> str:
        """The board with column letters and row numbers; empty squares show their premium."""
        return self._view()[2]

    def _view(self):
        view = self._board_view
        if view is None or view[0] != self.board_changes:
            view = self._board_view = (self.board_changes, self.board.to_rows(), self.board.render_text())
        return view

    # --- the fold ------------------------------------------------------------------------------------
    def apply(self, event) -> None:
        """Apply the next event (version + 1). MoveUndone needs the log: see `fold`."""
        handler = _HANDLERS.get(type(event))
        if handler is None:
            raise TypeError(f"no handler for {type(event).__name__}")
        handler(self, event)
        self.version += 1

    def _advance(self, at: float) -> None:
        """The next player's turn begins (players owing a turn lost to a double challenge skip it)."""
        self.correcting = None
        for _ in range(self.n_players * 2):
            self.turn = (self.turn + 1) % self.n_players
            if not self.lost_turns[self.turn]:
                break
            self.lost_turns[self.turn] -= 1
            self._line(self.turn, PASS, 0, notes=["turn lost to a failed challenge"])
            self.flow.pass_turn(self.turn)
        self.turn_started = at

    def _spend(self, player: int, spent: float) -> None:
        self.time_used[player] += max(0.0, spent)

    def _line(self, player: int, kind: str, score: int, *, rack=None, position=None, word=None,
              exchanged=None, end_rack=None, notes=()) -> None:
        if self.record is None:
            return
        event = GcgEvent(0, self.nicks[player], kind, score, self.scores[player],
                         rack=_tiles_text(self.rule_set, rack) if rack else None, position=position, word=word,
                         exchanged=exchanged, end_rack=end_rack, notes=list(notes))
        self.record.events.append(event)

    def _note(self, text: str) -> None:
        if self.record is None:
            return
        if self.record.events:
            self.record.events[-1].notes.append(text)
        else:
            self.record.notes.append(text)

    def _on_played(self, e: Played) -> None:
        p = e.player
        rack_before = self.racks[p][:]
        drawn = self.flow.play(p, e.placements, e.score, move=e)
        if drawn != e.drawn:
            raise ValueError(f"event log of game {self.game_id}: {self.players[p]} drew {e.drawn}, "
                             f"the bag gives {drawn}")
        self.board_changes += 1
        self._spend(p, e.spent)
        position, word = e.play.split()
        self._line(p, PLAY, e.score, rack=rack_before, position=position, word=word,
                   notes=["correction"] if e.correction else ())
        self.last_play = None if e.correction else LastPlay(p, self.version + 1, e, rack_before)
        self.last_move_version = self.version + 1
        self.last_move_text = f"{self.players[p]}: {e.play} {e.score:+d}"
        if self.flow.went_out == p:
            self.status = FINAL_PASS
        self._advance(e.at)

    def _on_exchanged(self, e: Exchanged) -> None:
        p = e.player
        rack_before = self.racks[p][:]
        self.flow.exchange(p, e.tiles, e.drawn, e.bag)
        self._spend(p, e.spent)
        self._line(p, EXCHANGE, 0, rack=rack_before, exchanged=_tiles_text(self.rule_set, e.tiles))
        self.last_play = None
        self.last_move_version = self.version + 1
        self.last_move_text = f"{self.players[p]}: exchanged {len(e.tiles)}"
        self._advance(e.at)

    def _on_passed(self, e: Passed) -> None:
        p = e.player
        self._spend(p, e.spent)
        self.last_move_version = self.version + 1
        self.last_move_text = f"{self.players[p]}: {e.reason}"
        if e.reason in ("correction-timeout", "correction-given-up"):
            # The turn already went as a withdrawn phony (`--`): no second scoreless line.
            self._note(f"{self.players[p]}: no correction ({e.reason}); turn lost")
        else:
            self._line(p, PASS, 0, rack=self.racks[p], notes=[] if e.reason == "pass" else [e.reason])
            self.flow.pass_turn(p)
        self.last_play = None
        self._advance(e.at)

    def _on_challenged(self, e: Challenged) -> None:
        last = self.last_play
        c = e.challenger
        self.last_play = None
        self.last_move_version = self.version + 1
        if self.turn == c:  # the challenger's own turn clock ran until now
            self._spend(c, e.at - self.turn_started)
            self.turn_started = e.at
        played = last.event
        p = last.player
        if e.outcome in ("withdrawn", "correction"):
            withdrawn = self.flow.withdraw(p, e.bag)
            if withdrawn is None or withdrawn.move is not played:
                raise ValueError(f"event log of game {self.game_id}: the challenged play is not "
                                 f"{self.players[p]}'s last")
            self.board_changes += 1
            self._line(p, WITHDRAWN, -played.score, rack=last.rack_before,
                       notes=[f"challenged by {self.players[c]}: {', '.join(e.invalid_words)} not valid"])
            self.last_move_text = f"{self.players[c]} challenged {self.players[p]}: withdrawn"
            if self.status == FINAL_PASS:
                self.status = PLAYING
            if e.outcome == "correction":
                self.turn = p
                self.correcting = p
                self.turn_started = e.at
            return
        self.last_move_text = f"{self.players[c]} challenged {self.players[p]}: the play stands"
        self._note(f"challenged by {self.players[c]}: the play stands")
        if e.outcome == "penalty":
            self.flow.adjust(c, -e.penalty)
            self._line(c, CHALLENGE_BONUS, -e.penalty, notes=["failed challenge penalty"])
        elif e.outcome == "challenger-loses-turn":
            if self.turn == c and self.status == PLAYING:
                self._line(c, PASS, 0, rack=self.racks[c], notes=["turn lost to a failed challenge"])
                self.flow.pass_turn(c)
                self._advance(e.at)
            elif self.status == PLAYING:
                self.lost_turns[c] += 1

    def _on_correction_refused(self, e: CorrectionRefused) -> None:
        p = e.player
        self._spend(p, e.spent)
        self._note(f"{self.players[p]}: correction {e.play} refused ({', '.join(e.invalid_words)}); turn lost")
        self.last_move_version = self.version + 1
        self.last_move_text = f"{self.players[p]}: correction refused"
        self.last_play = None
        self._advance(e.at)

    def _on_redrawn(self, e: Redrawn) -> None:
        self.flow.redraw(e.racks, e.bag)
        self._note(NOTE_REDRAWN)
        self.last_move_text = "every rack redrawn"

    def _on_ended(self, e: GameEnded) -> None:
        if e.reason == END_BLOCKED:  # on the last turn, before the racks are settled
            self._note(NOTE_BLOCKED)
        elif e.reason.startswith("director"):  # every director action is a #note of the record
            scoring = "racks deducted" if any(e.adjustments) or e.reason.startswith("director,") else "as played"
            self._note(f"director ended the game, {scoring}: {e.reason.split(': ', 1)[-1]}")
        if self.turn is not None and self.status != ENDED:
            self._spend(self.turn, e.at - self.turn_started)
            self.turn_started = e.at
        racks = self.racks
        for p, adjustment in enumerate(e.adjustments):
            if not adjustment:
                continue
            self.flow.adjust(p, adjustment)
            if p == e.went_out or adjustment > 0:
                others = [t for q, r in enumerate(racks) if q != p for t in r]
                self._line(p, END_RACK, adjustment, end_rack=_tiles_text(self.rule_set, others))
            else:
                self._line(p, END_RACK, adjustment, rack=racks[p], end_rack=_tiles_text(self.rule_set, racks[p]))
        for p, penalty in enumerate(e.time_penalties):
            if penalty:
                self.flow.adjust(p, penalty)
                self._line(p, TIME_PENALTY, penalty, notes=["overtime"])
        self.status = ENDED
        self.end_reason = e.reason
        self.last_play = None
        self.correcting = None
        self.last_move_text = f"game over ({e.reason})"

    def _on_adjusted(self, e: ScoreAdjusted) -> None:
        self.flow.adjust(e.player, e.delta)
        self._line(e.player, CHALLENGE_BONUS, e.delta, notes=[f"{DIRECTOR_ADJUSTMENT_NOTE}: {e.reason}"])

    def _on_undone(self, e: MoveUndone) -> None:
        raise TypeError("MoveUndone is applied by fold(), which has the log")

    # --- record ----------------------------------------------------------------------------------------
    def gcg_text(self, viewer: int | str = "director") -> str:
        """The GCG record as `viewer` (a player index, "director" or "observer") may see it: while the game
        is on, a player sees racks and exchanged tiles of their own events only, an observer none, the
        director those of every person's seat (no computer seat's); once it has ended, everything. The seed, which gives the order of the whole bag,
        only the director sees, once the game has ended (a director may deal other games from it)."""
        if self.record is None:
            raise ValueError("this state keeps no record (fold with record=True)")
        record = copy.copy(self.record)
        if viewer == "director" and self.status == ENDED and self.created.seed is not None:
            record.pragmas = record.pragmas + [("note", f"seed {self.created.seed}")]
        if self.status == ENDED:
            seen = set(self.nicks)
        elif viewer == "director":  # a person's racks; a computer seat's only once the game has ended
            seen = {nick for p, nick in enumerate(self.nicks) if not self.options.computer(p)}
        else:
            seen = {self.nicks[viewer]} if isinstance(viewer, int) else set()
        if len(seen) < len(self.nicks):
            record.events = [e if e.player in seen else _hidden(e, self.rule_set) for e in record.events]
        record.final_racks = {}
        if self.status != ENDED:
            for p, nick in enumerate(self.nicks):
                if nick in seen:
                    record.final_racks[nick] = self.rack_text(p)
        return format_gcg(record)


_HANDLERS = {
    Played: GameState._on_played,
    Exchanged: GameState._on_exchanged,
    Passed: GameState._on_passed,
    Challenged: GameState._on_challenged,
    CorrectionRefused: GameState._on_correction_refused,
    Redrawn: GameState._on_redrawn,
    GameEnded: GameState._on_ended,
    ScoreAdjusted: GameState._on_adjusted,
    MoveUndone: GameState._on_undone,
}


def _hidden(event: GcgEvent, rule_set) -> GcgEvent:
    """Another player's event without what only that player may see: the rack, the exchanged tiles."""
    exchanged = event.exchanged
    if event.kind == EXCHANGE and exchanged and not exchanged.isdigit():
        exchanged = str(len(rule_set.tile_set.spell_rack(exchanged)))
    return dataclasses.replace(event, rack=None, exchanged=exchanged)


def _tiles_text(rule_set, tiles) -> str:
    """Rack tiles as text that reads back as the same tiles: "[CH]A?", a C before an H as "[C]H"."""
    return write_tiles(((t, False) for t in tiles), rule_set.tile_set)


def fold(game_id: str, created: GameCreated, events, rule_set, record: bool = False) -> GameState:
    """The state after `events` ((version, event) pairs from version 2 on). A MoveUndone rebuilds the
    state from the events before its target, then applies again the director's score adjustments made
    since (an undo takes back the move and what followed from it, never a director's own adjustment, which
    a director reverses with another), then continues."""
    events = list(events)
    state = GameState(game_id, created, rule_set, record)
    for i, (version, event) in enumerate(events):
        if isinstance(event, MoveUndone):
            prefix = [(v, ev) for v, ev in events[:i] if v < event.target]
            state = fold(game_id, created, prefix, rule_set, record)
            for _, kept in _adjustments_since(events[:i], event.target):
                state.apply(kept)
            state._note(f"director undid the move at version {event.target}: {event.reason}")
            state.turn_started = event.at
            state.last_play = None
            state.version = version
            continue
        state.apply(event)
        if state.version != version:
            raise ValueError(f"event log of game {game_id} skips from version {state.version - 1} to {version}")
    return state


def _adjustments_since(events, target: int):
    """The score adjustments among `events` from version `target` on, each once: those a later undo voided
    too are still kept, since no undo takes back an adjustment."""
    return [(v, ev) for v, ev in events if v >= target and isinstance(ev, ScoreAdjusted)]
