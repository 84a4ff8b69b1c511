"""The players' commands as plain functions: create a game, read it, ask for a hint, move (play,
exchange, pass) and challenge. Each decides on a copy of the game's state inside
`sessions.execute` (games/sessions.py: the lock, the catch-up with the store, the append), which
calls its `decide(work, base, now, events, lexicons)`; a refusal raises a GameError and appends
nothing."""

from __future__ import annotations

import contextlib
import random
import secrets
import time
from collections import Counter

from lexicon_service.games import retries
from lexicon_service.games.computer import level_refusal
from lexicon_service.errors import (
    Conflict,
    InvalidInput,
    LexiconUnavailable,
    PermissionDenied,
    Refused,
    StaleVersion,
    Unauthenticated,
    shown,
)
from lexicon_service.games.events import Challenged, CorrectionRefused, Exchanged, GameCreated, Passed, Played, dumps
from lexicon_service.games.options import CHALLENGE_RULES, GameOptions
from lexicon_service.games.retries import MoveOutcome
from lexicon_service.games.roles import acting_player, new_token, role, token_hash
from lexicon_service.games.state import ENDED, FINAL_PASS, GameState
from lexicon_service.games.turn_effects import (
    after_turn,
    can_move,
    decide_blocked,
    emit,
    end_event,
    game_rng,
    shuffle_in,
)
from lexicon_service.movegen import generate_moves
from lexicon_service.rules.game import BAG_BELOW_MINIMUM, EXCHANGES_NOT_ALLOWED, MORE_THAN_BAG, exchange_refusal
from lexicon_service.rules.moves import validate_move
from lexicon_service.rules.reasons import Reason
from lexicon_service.tiles import UnknownLetterError
from lexicon_service.wording import counted
from lexicon_service.games.lookahead import LookaheadOptions, look_ahead

# Reasons that say the play text itself cannot be read (whatever the game state): INVALID_ARGUMENT. A play
# that reads but lies off the board is refused as ValidateMove refuses it, as any other illegal play.
INPUT_REASONS = {Reason.MALFORMED_PLAY, Reason.UNKNOWN_LETTER, Reason.BAD_BLANK_LETTER}
MAX_NAME_CHARS = 40
MAX_PLAY_CHARS = 200
MAX_HINTS = 20  # plays one hint answer lists
HINT_SECONDS = 2.0  # the move generator's bound for one hint (a worker is never held longer)


def invalid_words(played: Played, lexicon) -> tuple[str, ...]:
    """The words of a play that `lexicon` does not admit: what a challenge of it finds (and what a computer
    seat, which knows the words but no rack, checks before it challenges)."""
    return tuple(w for w, k in zip(played.words, played.keys) if not lexicon.is_admissible(k))


def _check_creation(rule_set, names, challenge_rule, game_seconds, overtime_penalty, computer_levels) -> list[str]:
    """The options of a new game checked; -> each seat's computer level ('' for a person)."""
    lo, hi = rule_set.game.players
    if not lo <= len(names) <= hi:
        raise InvalidInput("player_names", f"{counted(len(names), 'player')}; {rule_set.id} is for {lo}-{hi}")
    for i, name in enumerate(names):
        # spaces and diacritics as people write names; no control characters (a record line ends at "\n")
        if not (0 < len(name) <= MAX_NAME_CHARS and name.isprintable() and name == name.strip()):
            raise InvalidInput(f"player_names[{i}]", f"bad name {shown(name)}: 1-{MAX_NAME_CHARS} printable "
                                                     "characters, no control characters, no space at either end")
    if len(set(names)) != len(names):
        raise InvalidInput("player_names", "names must differ")
    if challenge_rule and challenge_rule not in CHALLENGE_RULES:
        raise InvalidInput("challenge_rule", f"unknown rule {challenge_rule!r}")
    if not 0 <= game_seconds <= 24 * 3600:
        raise InvalidInput("game_seconds", "at most one day")
    if overtime_penalty is not None and not 0 <= overtime_penalty <= 1000:
        raise InvalidInput("overtime_penalty", "0-1000 points per minute")
    levels = list(computer_levels) + [""] * (len(names) - len(computer_levels))
    if len(levels) > len(names):
        raise InvalidInput("computer_levels", f"{counted(len(computer_levels), 'seat')} for {counted(len(names), 'player')}")
    for seat, level in enumerate(levels):
        if level and level_refusal(level):
            raise InvalidInput(f"computer_levels[{seat}]", level_refusal(level))
    return levels


def create_game(sessions, lexicon_name: str, rule_set, player_names, seed: int | None = None,
                challenge_rule: str = "", game_seconds: int = 0, overtime_penalty: int | None = None,
                allow_hints: bool = False, computer_levels=(), client: str | None = "",
                director_game: bool = False):
    """-> (game_id, player tokens, director token, version). `client`: who asks (its address), for the
    bound on games with only computer players (games/creation_rate.py); None for a caller that has
    counted the start itself (a tournament round: one start for its tables, tournaments/service.py).
    A game with computer seats has no director (token "", no hash any token matches) unless
    `director_game`: the person playing the computer must not hold its undo and its racks."""
    names = list(player_names)
    levels = _check_creation(rule_set, names, challenge_rule, game_seconds, overtime_penalty, computer_levels)
    if any(levels) and sessions.lexicons is None:
        raise Refused("NO_COMPUTER_PLAYERS", "computer_players: this server has no computer players")
    if levels and all(levels) and client is not None:
        sessions.computer_game_rate.take(client)
    options = GameOptions.of(rule_set, challenge_rule, game_seconds, overtime_penalty, allow_hints,
                             levels if any(levels) else ())
    bag = [letter for letter, count in rule_set.tile_set.bag().items() for _ in range(count)]
    rng = random.Random(seed) if seed is not None else secrets.SystemRandom()
    rng.shuffle(bag)
    racks = []
    for _ in names:
        k = min(rule_set.rack_size, len(bag))
        racks.append(tuple(bag[len(bag) - k:]))
        del bag[len(bag) - k:]
    tokens = [new_token() for _ in names]
    director = new_token() if director_game or not any(levels) else ""
    created = GameCreated(lexicon_name, rule_set.source_text, tuple(names), tuple(token_hash(t) for t in tokens),
                          token_hash(director) if director else "", options.as_dict(), tuple(racks), tuple(bag), seed, sessions.clock())
    sessions.know_rule_set(rule_set)
    for _ in range(4):
        game_id = secrets.token_hex(8)
        try:
            sessions.store.append(game_id, 0, [("created", dumps(created))], ended=False, max_live=sessions.max_games)
        except Conflict:
            continue
        decided_at_start = rule_set.first_play.redraw_if_blocked or rule_set.end.ends_when_blocked
        if sessions.lexicons is None or not (decided_at_start or any(levels)):  # nothing to decide now
            return game_id, tokens, director, 1
        state = sessions.execute(game_id, _start)
        sessions.computers.due(game_id, state)
        # nobody moves for a computer player: its token is never shown
        shown_tokens = [t if not options.computer(seat) else "" for seat, t in enumerate(tokens)]
        return game_id, shown_tokens, director, state.version
    raise RuntimeError("could not allocate a game id")


def _start(work, base, now, events, lexicons=None):
    """A new game: the server redraws at once when nobody can make a first word."""
    decide_blocked(work, events, now, lexicons)
    return lambda w: w


def get_game(sessions, game_id: str, token: str | None):
    """-> (state, caller role, now). Lets the clock fire what is due first."""

    def decide(work, base, now, events, lexicons=None):
        caller = role(work, token, sessions.director_key)
        return lambda w: (w, caller, now)

    state, caller, now = sessions.execute(game_id, decide)
    sessions.computers.due(game_id, state)  # a computer move a restart left undone
    return state, caller, now


def _hint_state(sessions, game_id: str, token: str | None, limit: int):
    """(state, caller) of a hint the caller may have, else the refusal."""
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_HINTS:
        raise InvalidInput("limit", f"1-{MAX_HINTS} plays")
    state, caller, _ = get_game(sessions, game_id, token)
    if caller == "observer":
        raise Unauthenticated("a player token is required: a hint is for the asking player's own rack")
    if caller == "director":
        raise PermissionDenied("a hint is for a player's own rack; use a player token")
    if not state.options.hints:
        raise Refused("HINTS_NOT_ALLOWED", "this game was created without allow_hints")
    if state.status == ENDED:
        raise Refused("GAME_OVER", f"the game has ended ({state.end_reason})")
    return state, caller


@contextlib.contextmanager
def _held_lexicon(sessions, state, lexicons):
    name = state.created.lexicon
    with (sessions.lexicons() if lexicons is None and sessions.lexicons is not None
          else contextlib.nullcontext(lexicons)) as held:
        lexicon = held(name) if held is not None else None
        if lexicon is None:
            raise LexiconUnavailable(name)
        yield lexicon


def hint(sessions, game_id: str, token: str | None, limit: int = 5, lexicons=None, deadline: float | None = None):
    """-> (state, player, moves): the best plays (and the exchange or pass when there is none better)
    for the asking player's own rack, in a game created with allow_hints. Nothing is stored: no other
    caller ever sees a hint. `deadline`: a time.monotonic() bound (HINT_SECONDS at most)."""
    state, caller = _hint_state(sessions, game_id, token, limit)
    with _held_lexicon(sessions, state, lexicons) as lexicon:
        bound = time.monotonic() + HINT_SECONDS
        moves = generate_moves(state.rule_set, state.board, state.rack_text(caller), lexicon, limit=limit,
                               bag_count=len(state.bag), deadline=bound if deadline is None else min(deadline, bound))
    return state, caller, moves


def hint_ahead(sessions, game_id: str, token: str | None, limit: int = 5, lexicons=None,
               deadline: float | None = None):
    """-> (state, player, Lookahead): `hint` ranked by simulation (the endgame once the bag is empty), from
    what the asking player sees (their rack, the board, the bag's count, the scores), within HINT_SECONDS."""
    state, caller = _hint_state(sessions, game_id, token, limit)
    if state.n_players != 2:
        raise InvalidInput("simulate", "simulation is for games of two players")
    scores = state.scores
    options = LookaheadOptions(seconds=HINT_SECONDS * 0.9, spread=scores[caller] - scores[1 - caller],
                               bag_count=len(state.bag), seed=f"hint/{state.version}")
    with _held_lexicon(sessions, state, lexicons) as lexicon:
        found = look_ahead(state.rule_set, state.board, state.rack_text(caller), lexicon, options, deadline)
    found.moves = found.moves[:limit]
    return state, caller, found


def _check_move_text(play: str, exchange: str, pass_: bool, request_id: str) -> None:
    if sum([bool(play), bool(exchange), bool(pass_)]) != 1:
        raise InvalidInput("play", "give exactly one of play, exchange or pass")
    if len(play) > MAX_PLAY_CHARS:
        raise InvalidInput("play", f"{len(play)} characters; too long for a play")
    if len(exchange) > 64:
        raise InvalidInput("exchange", f"{len(exchange)} characters; too long for a rack")
    retries.valid_request_id(request_id)


def _check_on_turn(work, p: int, pass_: bool, events: list) -> None:
    if work.status == ENDED:
        raise Refused("GAME_OVER", f"the game has ended ({work.end_reason})")
    if work.turn != p:
        why = " (your turn timed out)" if any(isinstance(e, Passed) and e.player == p for e in events) else ""
        raise Refused("NOT_YOUR_TURN", f"it is {work.players[work.turn]}'s turn{why}")
    if work.status == FINAL_PASS and not pass_:
        raise Refused("AWAITING_FINAL_PASS", f"{work.players[work.went_out]} went out: pass to accept the "
                                             "last play (the game ends) or challenge it")


def submit_move(sessions, game_id: str, token: str | None, *, play: str = "", exchange: str = "",
                pass_: bool = False, expected_version: int | None = None, request_id: str = "",
                lexicon_of=None, computer_seat: int | None = None) -> MoveOutcome:
    """A player's move (`token`), or the server's computer player's in `computer_seat` (no token)."""
    _check_move_text(play, exchange, pass_, request_id)
    play_text = " ".join(play.split())
    store = sessions.store

    def decide(work: GameState, base: int, now: float, events: list, lexicons=None):
        p = acting_player(work, token, computer_seat, sessions.director_key)

        def same(event) -> bool:
            return retries.same_move(work, event, p, play_text, exchange, pass_)

        retries.check_request_id(store, work, request_id, p, same=same)
        if expected_version is not None and expected_version != base:
            if expected_version < base and not request_id:  # an id not yet used is a new request
                retries.check_retry(store, work, expected_version, p, same)
            raise StaleVersion(expected_version, base)
        if (work.status == ENDED or work.turn != p) and expected_version is None and not request_id \
                and not events:
            retries.check_repeat(store, work, p, same)
        _check_on_turn(work, p, pass_, events)
        spent = now - work.turn_started
        lexicons = lexicons if lexicons is not None else lexicon_of
        lexicon_of_ = lexicon_of if lexicon_of is not None else lexicons
        if pass_:
            return _pass(work, p, now, spent, events, lexicons)
        if exchange:
            return _exchange(work, p, exchange, now, spent, events, lexicons)
        return _play(work, p, play_text, now, spent, events, lexicon_of_, lexicons)

    return sessions.execute(game_id, decide, request_id or None, token)


def _pass(work, p, now, spent, events, lexicons=None):
    if work.status == FINAL_PASS:
        emit(work, events, end_event(work, "out", now, work.went_out))
    elif work.correcting is not None:
        emit(work, events, Passed(p, "correction-given-up", now, spent))
    else:
        if work.rule_set.end.pass_only_when_blocked and can_move(work, p, lexicons):
            raise Refused("CAN_MOVE", f"{work.rule_set.id} allows a pass only to a player who cannot make a "
                                      "play ([end] pass-only-when-blocked), and your rack can")
        emit(work, events, Passed(p, "pass", now, spent))
        after_turn(work, events, now, lexicons)
    version = work.version
    return lambda w: MoveOutcome(version, w, p)


def _exchange(work, p, text, now, spent, events, lexicons=None):
    rs = work.rule_set
    if work.correcting is not None:
        raise Refused("CORRECTING", "in the correction window only a play or a pass")
    try:
        tiles = list(rs.tile_set.spell_rack(text))
    except UnknownLetterError as exc:
        raise InvalidInput("exchange", str(exc), Reason.UNKNOWN_LETTER.value) from None
    if not tiles:
        raise InvalidInput("exchange", "no tiles")
    refusal = exchange_refusal(rs, len(work.bag), len(tiles))
    if refusal == EXCHANGES_NOT_ALLOWED:
        raise Refused("EXCHANGE_NOT_ALLOWED", f"{rs.id} has no exchanges")
    if refusal == BAG_BELOW_MINIMUM:
        raise Refused("BAG_TOO_SMALL", f"{len(work.bag)} tiles in the bag; an exchange needs at least "
                                       f"{rs.exchange.min_tiles_in_bag}")
    if refusal == MORE_THAN_BAG:
        raise Refused("BAG_TOO_SMALL", f"{len(tiles)} tiles to exchange, {len(work.bag)} in the bag")
    missing = Counter(tiles) - Counter(work.racks[p])
    if missing:
        raise Refused(Reason.TILE_NOT_IN_RACK.value,
                      f"the rack {work.rack_text(p)} has no {''.join(sorted(missing.elements()))}")
    k = len(tiles)
    drawn = tuple(work.bag[len(work.bag) - k:])
    kept = work.bag[: len(work.bag) - k]
    rng = game_rng(work)
    for tile in tiles:
        kept.insert(rng.randrange(len(kept) + 1), tile)
    emit(work, events, Exchanged(p, tuple(tiles), drawn, tuple(kept), now, spent))
    after_turn(work, events, now, lexicons)
    version = work.version
    return lambda w: MoveOutcome(version, w, p)


def _game_lexicon(work, lexicon_of):
    name = work.created.lexicon
    lexicon = lexicon_of(name) if lexicon_of is not None else None
    if lexicon is None:
        raise LexiconUnavailable(name)
    return lexicon


def _play(work, p, text, now, spent, events, lexicon_of, lexicons=None):
    rs = work.rule_set
    correcting = work.correcting is not None
    lexicon = _game_lexicon(work, lexicon_of) if (work.options.challenge_rule == "void" or correcting) else None
    result = validate_move(rs, work.board, work.racks[p], text, lexicon=lexicon)
    if result.score is None:
        if result.reason in INPUT_REASONS:
            raise InvalidInput("play", result.message, result.reason.value)
        raise Refused(result.reason.value, result.message)
    if not result.valid:
        if result.reason is Reason.WORD_NOT_ADMISSIBLE and correcting:
            emit(work, events, CorrectionRefused(p, text, tuple(result.invalid_words), now, spent))
            after_turn(work, events, now, lexicons)
            version = work.version
            return lambda w: MoveOutcome(version, w, p, 0, result.words, invalid_words=result.invalid_words,
                                         outcome="correction-refused")
        raise Refused(result.reason.value, result.message)
    n = len(result.placements)
    k = min(n, len(work.bag))
    drawn = tuple(work.bag[len(work.bag) - k:])
    event = Played(p, text, tuple(tuple(x) for x in result.placements), result.score, tuple(result.words),
                   tuple(result.word_keys), drawn, now, spent, correcting)
    emit(work, events, event)
    if work.status == FINAL_PASS and (correcting or work.options.challenge_rule == "void"):
        emit(work, events, end_event(work, "out", now, p))
    else:
        after_turn(work, events, now, lexicons)
    version = events.index(event)  # the play's own version, also when an end follows it
    version = work.version - (len(events) - 1 - version)
    return lambda w: MoveOutcome(version, w, p, result.score, result.words)


def _check_challengeable(work, c: int):
    """The last play, when player c may challenge it."""
    if work.status == ENDED:
        raise Refused("GAME_OVER", f"the game has ended ({work.end_reason})")
    if work.options.challenge_rule == "void":
        raise Refused("CHALLENGES_VOID", "this game judges every play when it is made (VOID): "
                                         "there is nothing to challenge")
    last = work.last_play
    if last is None:
        raise Refused("NOTHING_TO_CHALLENGE", "the last move is not a play that can still be challenged")
    if last.player == c:
        raise Refused("OWN_PLAY", "a player cannot challenge their own play")
    return last


def _rule_on_challenge(work, c: int, last, invalid, now, events, lexicons) -> str:
    """The challenge's events; -> its outcome."""
    rule = work.options.challenge_rule
    if invalid:
        outcome = "correction" if work.options.corrections > 0 else "withdrawn"
        bag = shuffle_in(work, last.event.drawn)
        emit(work, events, Challenged(c, last.version, invalid, outcome, 0, bag, now))
        if outcome == "withdrawn":
            after_turn(work, events, now, lexicons)
        return outcome
    outcome = {"single": "stands", "double": "challenger-loses-turn", "penalty": "penalty"}[rule]
    penalty = work.options.penalty_points if rule == "penalty" else 0
    was_final = work.status == FINAL_PASS
    emit(work, events, Challenged(c, last.version, (), outcome, penalty, (), now))
    if was_final:
        emit(work, events, end_event(work, "out", now, work.went_out))
    elif outcome == "challenger-loses-turn":
        after_turn(work, events, now, lexicons)
    return outcome


def challenge(sessions, game_id: str, token: str | None, expected_version: int | None = None,
              lexicon_of=None, request_id: str = "", computer_seat: int | None = None) -> MoveOutcome:
    """Like a move, idempotent by request id or expected_version: a retry of a challenge that was
    carried out gets its first answer (replayed), also when it ended the game. By a player (`token`),
    or by the server's computer player in `computer_seat` (no token)."""
    retries.valid_request_id(request_id)
    store = sessions.store

    def decide(work: GameState, base: int, now: float, events: list, lexicons=None):
        c = acting_player(work, token, computer_seat, sessions.director_key)
        lexicon_of_ = lexicon_of if lexicon_of is not None else lexicons
        lexicons = lexicons if lexicons is not None else lexicon_of
        retries.check_request_id(store, work, request_id, c, challenge=True)
        if expected_version is not None and expected_version != base:
            if expected_version < base and not request_id:
                retries.check_retry(store, work, expected_version, c,
                                    lambda event: retries.own_challenge(event, c), True)
            raise StaleVersion(expected_version, base)
        last = _check_challengeable(work, c)
        invalid = invalid_words(last.event, _game_lexicon(work, lexicon_of_))
        outcome = _rule_on_challenge(work, c, last, invalid, now, events, lexicons)
        version = work.version
        return lambda w: MoveOutcome(version, w, c, invalid_words=invalid, outcome=outcome)

    return sessions.execute(game_id, decide, request_id or None, token)
