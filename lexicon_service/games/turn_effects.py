"""What follows a turn without anyone asking: the clock firing what is due (a move timeout forfeits the
turn, a correction window closes, a final pass is taken as given), the end of the game, the start
redraw, and the end when nobody can move. Plain functions over the copy of the state a command
decides on; each event is applied to it and collected in `events`."""

from __future__ import annotations

import random
import secrets

from lexicon_service.games.events import GameEnded, MoveUndone, Passed, Redrawn
from lexicon_service.games.state import FINAL_PASS, PLAYING
from lexicon_service.movegen import MoveGenerationError, MoveGraphMissing, has_move
from lexicon_service.rules.game import END_BLOCKED, exchange_refusal

MAX_CLOCK_EVENTS = 64  # per command: a long-idle timed game catches up over several calls
MAX_REDRAWS = 8  # server-decided start redraws in a row per command (a lexicon nobody can start with stops here)


def emit(work, events: list, event) -> None:
    if not isinstance(event, MoveUndone):
        work.apply(event)
    events.append(event)


def game_rng(work, purpose: str = ""):
    """The game's randomness at its current version: reproducible for a game created with a seed."""
    seed = work.created.seed
    if seed is None:
        return secrets.SystemRandom()
    return random.Random(f"{seed}/{work.version}" + (f"/{purpose}" if purpose else ""))


def settle(work, now: float, events: list, lexicons=None) -> None:
    """Fire what the clock made due by `now` (at most MAX_CLOCK_EVENTS events)."""
    for _ in range(MAX_CLOCK_EVENTS):
        deadline = work.deadline()
        if deadline is None or now < deadline:
            return
        if work.status == FINAL_PASS:
            emit(work, events, end_event(work, "out", deadline, work.went_out))
        elif work.correcting is not None:
            emit(work, events, Passed(work.turn, "correction-timeout", deadline, deadline - work.turn_started))
        else:
            emit(work, events, Passed(work.turn, "timeout", deadline, deadline - work.turn_started))
            after_turn(work, events, deadline, lexicons)


def end_event(work, reason: str, at: float, went_out: int | None = None) -> GameEnded:
    adjustments = work.flow.end_adjustments(went_out)
    return GameEnded(reason, went_out, tuple(adjustments), work.time_penalties(at), at)


def after_turn(work, events: list, at: float, lexicons=None) -> None:
    """The game-end rules that a turn can trigger (RULES.md section 6), then the ones the server decides
    from the racks: the start redraw and the end when nobody can move (`blocked`)."""
    if work.status != PLAYING:
        return
    due = work.flow.due_end()
    if work.flow.passing_rounds_over() and work.options.start_redraw and work.board.is_empty():
        emit(work, events, redraw(work, at))
    elif due is not None:
        emit(work, events, end_event(work, due, at))
        return
    decide_blocked(work, events, at, lexicons)


def decide_blocked(work, events: list, at: float, lexicons) -> None:
    """Before any play, nobody can make a word and the rule set redraws ([first-play] redraw-if-blocked):
    every rack is dealt again (at most MAX_REDRAWS times); otherwise, when nobody can move and the rule
    set says so ([end] ends-when-blocked) and no exchange can be made, the game ends. Only with the game's move graph."""
    rs = work.rule_set
    redraws = work.options.start_redraw and rs.first_play.redraw_if_blocked
    if work.status != PLAYING or work.correcting is not None or not (redraws or rs.end.ends_when_blocked):
        return
    for _ in range(MAX_REDRAWS):
        if not blocked(work, lexicons):
            return
        if not (redraws and work.board.is_empty()):
            # a play that may still be challenged is not final: the next turn decides
            challengeable = work.last_play is not None and work.options.challenge_rule != "void"
            # while an exchange can still bring a word, a move that may make one remains
            can_exchange = exchange_refusal(rs, len(work.bag), 1) is None
            if rs.end.ends_when_blocked and not challengeable and not can_exchange:
                emit(work, events, end_event(work, END_BLOCKED, at))
            return
        emit(work, events, redraw(work, at))


def blocked(work, lexicons) -> bool:
    """Whether no rack can make a play; False when the game's lexicon or its move graph is not at hand."""
    return all(can_move(work, p, lexicons) is False for p in range(work.n_players))


def can_move(work, p: int, lexicons) -> bool | None:
    """Whether player p's rack can make a play; None when the game's lexicon or its move graph is not at hand."""
    lexicon = lexicons(work.created.lexicon) if lexicons is not None else None
    if lexicon is None or not getattr(lexicon, "has_move_graph", False):
        return None
    if not work.racks[p]:
        return False
    try:
        return has_move(work.rule_set, work.board, work.rack_text(p), lexicon)
    except MoveGraphMissing:
        return None
    except MoveGenerationError as exc:
        if exc.field != "rule_set":
            raise
        return None  # a lexicon reloaded for other letters or board


def shuffle_in(work, tiles) -> tuple[str, ...]:
    """The bag with `tiles` put back at random places (the bag's order is already random, so this
    is as good as shuffling the whole bag, and costs a draw per tile)."""
    bag = work.bag[:]
    rng = game_rng(work)
    for tile in tiles:
        bag.insert(rng.randrange(len(bag) + 1), tile)
    return tuple(bag)


def redraw(work, at: float) -> Redrawn:
    bag = work.bag + [t for rack in work.racks for t in rack]
    bag.sort()
    game_rng(work).shuffle(bag)
    racks = []
    for _ in work.racks:
        k = min(work.rule_set.rack_size, len(bag))
        racks.append(tuple(bag[len(bag) - k:]))
        del bag[len(bag) - k:]
    return Redrawn(tuple(racks), tuple(bag), at)
