"""Self-play games with the move generator, for tests, measurements and the leave table: positions
of a game of one player who draws from the rule set's bag and plays a chosen move each turn
(`positions`), and whole games of several players, each with its own way of choosing (`play_game`)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from lexicon_service.movegen import (_BLANK, _NEW, _TILE, GeneratedMove, MoveGenerationError, _call, generate_moves,
                                     random_play)
from lexicon_service.rules.board import Board
from lexicon_service.rules.game import end_of_game_adjustments
from lexicon_service.rules.moves import validate_move
from lexicon_service.tiles import BLANK


def bag_of(rule_set, letters=None) -> list[str]:
    """The rule set's tiles ("?" blanks); only `letters` (and blanks) when given."""
    return [letter for letter, count in rule_set.tile_set.bag().items()
            if letters is None or letter in letters or letter == BLANK for _ in range(count)]


def positions(rule_set, lexicon, rng: random.Random, count: int, *, letters=None, best: bool = False):
    """Yield `count` positions (board, rack text) met in self-play games; each turn plays the best
    move (`best`) or a random one, exchanges all tiles when there is none, and a game ends (a new
    one starts) when no play is left and the bag is empty, or after three exchanges in a row."""
    ts = rule_set.tile_set
    made = 0
    while made < count:
        bag = bag_of(rule_set, letters)
        rng.shuffle(bag)
        board = Board.empty(rule_set)
        rack: list[str] = []
        exchanges = 0
        while made < count:
            while len(rack) < rule_set.rack_size and bag:
                rack.append(bag.pop())
            rack_text = ts.rack_text(rack)
            yield board.copy(), rack_text
            made += 1
            if best:
                placed = _place_best_play(rule_set, board, rack_text, lexicon)
                if placed is not None:
                    exchanges = 0
                    for tile in placed:
                        rack.remove(tile)
                    continue
                moves = []
            else:
                moves = _plays(rule_set, board, rack_text, lexicon, rng, best)
            if not moves:
                exchanges += 1
                if not bag or exchanges == 3:
                    break
                bag.extend(rack)
                rng.shuffle(bag)
                rack = []
                continue
            exchanges = 0
            move = moves[0] if best else rng.choice(moves)
            result = validate_move(rule_set, board, rack_text, move.play, lexicon=lexicon)
            board.apply(result)
            for tile in result.tiles_used:
                rack.remove(tile)


def _place_best_play(rule_set, board: Board, rack_text: str, lexicon) -> list[str] | None:
    """Put the generator's best play on the board and give the rack tiles it used ("?" a blank), or None
    when there is no play. The play is placed as the core gives it: it is not made a GeneratedMove nor
    judged again by validate_move (the tests hold the core to validate_move on these positions)."""
    found, static, _, _ = _call(rule_set, board, rack_text, lexicon, 0, limit=1)
    if not found:
        return None
    _score, down, row, col, raw, _n_new = found[0]
    names = (None,) + static.letters
    used = []
    for i, b in enumerate(raw):
        if b & _NEW:
            blank = bool(b & _BLANK)
            board.place(row + i if down else row, col if down else col + i, names[b & _TILE], blank)
            used.append(BLANK if blank else names[b & _TILE])
    return used


def _plays(rule_set, board, rack_text, lexicon, rng: random.Random, best: bool) -> list[GeneratedMove]:
    """The best play, or every play to draw one from; when there are more plays than one answer lists (a
    Kris Kros opening with two blanks), the one drawn uniformly from all of them (`random_play`)."""
    try:
        return generate_moves(rule_set, board, rack_text, lexicon, include_exchanges=False, include_pass=False,
                              limit=1 if best else None)
    except MoveGenerationError as exc:
        if exc.field != "limit":
            raise
    play = random_play(rule_set, board, rack_text, lexicon, rng)
    return [play] if play is not None else []


@dataclass
class Turn:
    """One turn of a self-play game: who moved, what, and the leave kept (bag_before: tiles in the
    bag before the move)."""

    player: int
    move: GeneratedMove
    bag_before: int


@dataclass
class GameResult:
    scores: list[int]          # after the end-of-game adjustments
    turns: list[Turn]


def play_game(rule_set, lexicon, choosers, rng: random.Random) -> GameResult:
    """A whole game of len(choosers) players from a bag shuffled by `rng`. A chooser is called as
    chooser(board, rack text, bag count, may_exchange) and returns a GeneratedMove (as
    `games.computer.choose_move` does). The game ends when a player empties their rack with the bag
    empty, or after two rounds without a score; then the rule set's end-of-game adjustments."""
    ts = rule_set.tile_set
    n = len(choosers)
    bag = bag_of(rule_set)
    rng.shuffle(bag)
    racks: list[list[str]] = [[] for _ in range(n)]
    for rack in racks:
        while len(rack) < rule_set.rack_size and bag:
            rack.append(bag.pop())
    board = Board.empty(rule_set)
    scores = [0] * n
    turns: list[Turn] = []
    scoreless = 0
    went_out = None
    player = 0
    while scoreless < 2 * n:
        rack_text = ts.rack_text(racks[player])
        move = choosers[player](board, rack_text, len(bag), scoreless < n)
        turns.append(Turn(player, move, len(bag)))
        if move.kind == "play":
            result = validate_move(rule_set, board, rack_text, move.play, lexicon=lexicon)
            board.apply(result)
            for tile in result.tiles_used:
                racks[player].remove(tile)
            scores[player] += result.score
            scoreless = 0 if result.score else scoreless + 1
            while len(racks[player]) < rule_set.rack_size and bag:
                racks[player].append(bag.pop())
            if not racks[player]:
                went_out = player
                break
        else:
            scoreless += 1
            if move.kind == "exchange":
                given = list(ts.spell_rack(move.play[1:]))
                for tile in given:
                    racks[player].remove(tile)
                for _ in given:
                    racks[player].append(bag.pop())
                bag.extend(given)
                rng.shuffle(bag)
        player = (player + 1) % n
    adjustments = end_of_game_adjustments(rule_set, [ts.rack_text(r) for r in racks], went_out)
    return GameResult([s + a for s, a in zip(scores, adjustments)], turns)
