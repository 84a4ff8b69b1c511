"""Self-play games with the move generator, for tests and measurements (a game of one player who
draws from the rule set's bag and plays a chosen move each turn)."""

from __future__ import annotations

import random

from lexicon_service.movegen import generate_moves
from lexicon_service.rules.board import Board
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
            moves = generate_moves(rule_set, board, rack_text, lexicon, include_exchanges=False,
                                   include_pass=False, limit=1 if best else None)
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
            result = validate_move(rule_set, board, rack_text, move.play, judge=lexicon)
            board.apply(result)
            for tile in result.tiles_used:
                rack.remove(tile)
