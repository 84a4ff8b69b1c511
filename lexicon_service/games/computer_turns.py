"""When the server's computer players move: a computer seat on turn is queued once per game, and moves
off the request path on one thread (one game's move at a time), from its own view of the game (board,
its rack, the bag's count), through the same commands a person's client calls. What it plays is
`games/computer.py`'s."""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from lexicon_service.games.commands import invalid_words
from lexicon_service.games.computer import choose_move
from lexicon_service.errors import InvalidInput, Refused, StaleVersion
from lexicon_service.games.state import ENDED, FINAL_PASS
from lexicon_service.games.turn_effects import game_rng
from lexicon_service.movegen import MoveGenerationTimeout

COMPUTER_SECONDS = 2.0  # the move generator's bound for one computer move (and half the move timer at most)

log = logging.getLogger("lexicon_service.games")


class ComputerTurns:
    """The queue of computer moves of one GameSessions (`sessions`)."""

    def __init__(self, sessions) -> None:
        self.sessions = sessions
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="computer-player")
        self._due: set[str] = set()  # games whose computer move is queued
        self._lock = threading.Lock()

    def due(self, game_id: str, state) -> None:
        """Queue the computer's move when a computer seat is on turn (once per game at a time)."""
        if state.status == ENDED or state.turn is None or not state.options.computer(state.turn) \
                or self.sessions.lexicons is None:
            return
        with self._lock:
            if game_id in self._due:
                return
            self._due.add(game_id)
        try:
            self._pool.submit(self._move, game_id)
        except RuntimeError:  # shut down: the server is stopping
            with self._lock:
                self._due.discard(game_id)

    def close(self) -> None:
        """Stop the computer players (queued moves are dropped; the move timers still run)."""
        self._pool.shutdown(wait=True, cancel_futures=True)

    def _move(self, game_id: str) -> None:
        """The computer on turn moves, within the move timer (COMPUTER_SECONDS at most). A game changed
        meanwhile is looked at again."""
        try:
            for _ in range(4):
                with self._lock:
                    self._due.discard(game_id)
                if self._move_once(game_id):
                    return
        except Exception:  # noqa: BLE001 - a computer that cannot move must not stop the others; its timer runs
            log.exception("the computer player of game %s could not move", game_id)

    def _move_once(self, game_id: str) -> bool:
        """One attempt; False when the game moved on meanwhile (StaleVersion)."""
        sessions = self.sessions
        state = sessions.tick(game_id)  # not get_game: a computer that cannot move must not queue itself again
        seat = state.turn
        level = state.options.computer(seat) if state.status != ENDED else ""
        if not level or state.correcting is not None:
            return True
        if self._challenges(state, seat):
            try:
                # its move follows in a new task, which the challenge's append queued (due)
                sessions.challenge(game_id, None, expected_version=state.version, computer_seat=seat)
                return True
            except StaleVersion:
                return False
        chosen = self._choose(game_id, state, seat, level)
        if chosen is None:
            return True  # the lexicon was unloaded: the move timer decides
        move_kind, text = chosen
        try:
            try:
                sessions.submit_move(game_id, None, play=text if move_kind == "play" else "",
                                     exchange=text[1:] if move_kind == "exchange" else "",
                                     pass_=move_kind == "pass", expected_version=state.version,
                                     computer_seat=seat)
            except (Refused, InvalidInput):
                if move_kind == "pass":
                    raise
                log.warning("game %s: the computer's %s %r was refused; it passes", game_id, move_kind, text)
                sessions.submit_move(game_id, None, pass_=True, expected_version=state.version,
                                     computer_seat=seat)
            return True
        except StaleVersion:
            return False

    def _choose(self, game_id: str, state, seat: int, level: str) -> tuple[str, str] | None:
        """(kind, text) of the computer's move; None when the game's lexicon is not loaded."""
        if state.status == FINAL_PASS:
            return "pass", ""
        seconds = COMPUTER_SECONDS
        if state.options.move_seconds:
            seconds = min(seconds, state.options.move_seconds / 2)
        with self.sessions.lexicons() as lexicons:
            lexicon = lexicons(state.created.lexicon) if lexicons is not None else None
            if lexicon is None:
                return None
            try:
                move = choose_move(state.rule_set, state.board, state.rack_text(seat), len(state.bag),
                                   lexicon, level, game_rng(state, "computer"), time.monotonic() + seconds,
                                   may_exchange=state.scoreless_turns < state.n_players,
                                   spread=_lead(state.scores, seat), players=state.n_players)
                return move.kind, move.play
            except MoveGenerationTimeout:
                # a game without a move timer would wait for it for ever: it passes instead
                log.warning("game %s: the computer found no move in %g s; it passes", game_id, seconds)
                return "pass", ""

    def _challenges(self, state, seat: int) -> bool:
        """Whether the computer on turn in `seat` challenges the last play: only one by another player that
        holds a word the game's lexicon lacks (the same ruling as Challenge's), so it never loses a turn or
        points to a failed challenge. A VOID game refused such a play when it was made: nothing to challenge."""
        last = state.last_play
        if last is None or last.player == seat or state.options.challenge_rule == "void":
            return False
        with self.sessions.lexicons() as lexicons:
            lexicon = lexicons(state.created.lexicon) if lexicons is not None else None
            return lexicon is not None and bool(invalid_words(last.event, lexicon))


def _lead(scores, seat: int) -> int:
    """The seat's score less the best of the others' (what its computer may see: every score is public)."""
    return scores[seat] - max((s for i, s in enumerate(scores) if i != seat), default=0)
