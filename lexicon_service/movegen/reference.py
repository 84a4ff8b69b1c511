"""A reference move generator in plain Python: short, obviously correct, slow (the tests' oracle).

For every line, every window of squares that could hold a whole word (nothing just before or
after it, 1..rack-size empty squares, touching the board or covering the first play's square),
the empty squares are filled with rack tiles depth-first, pruned by `lexicon.has_prefix`; each
complete candidate is judged by `validate_move` itself, which gives its score and words.
"""

from __future__ import annotations

from lexicon_service.movegen import GeneratedMove, leave_of, play_text
from lexicon_service.rules.board import Board
from lexicon_service.rules.moves import validate_move
from lexicon_service.tiles import BLANK


def reference_moves(rule_set, board: Board | None, rack: str, lexicon) -> list[GeneratedMove]:
    """Every legal play (not exchanges or the pass), best score first, then by play text."""
    board = board if board is not None else Board.empty(rule_set)
    ts = rule_set.tile_set
    key_of = ts._key_of_letter
    letters = list(ts.spell_rack(rack))
    rows, cols = board.rows, board.columns
    cover = rule_set.first_play.must_cover if board.tile_count == 0 else None

    def tile_at(r, c):
        return board.letters[r * cols + c] if 0 <= r < rows and 0 <= c < cols else None

    def touches(r, c):
        return any(tile_at(r + dr, c + dc) is not None for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)))

    found: dict[str, GeneratedMove] = {}
    for across in (True, False):
        dr, dc = (0, 1) if across else (1, 0)
        for line in range(rows if across else cols):
            length = cols if across else rows
            squares = [(line, p) if across else (p, line) for p in range(length)]
            for start in range(length):
                if start and tile_at(*squares[start - 1]) is not None:
                    continue
                for end in range(start + 1, length):
                    if end + 1 < length and tile_at(*squares[end + 1]) is not None:
                        continue
                    window = squares[start:end + 1]
                    empties = sum(tile_at(*sq) is None for sq in window)
                    if not 1 <= empties <= len(letters):
                        continue
                    if board.tile_count == 0:
                        if cover is not None and cover not in window:
                            continue
                    elif rule_set.later_plays.must_connect and not any(
                            tile_at(*sq) is not None or touches(*sq) for sq in window):
                        continue
                    _fill(rule_set, board, rack, lexicon, letters, window, across, [], "", found, key_of)
    return sorted(found.values(), key=lambda m: (-m.score, m.play))


def _fill(rule_set, board, rack, lexicon, left, window, across, tiles, key, found, key_of):
    if key and not lexicon.has_prefix(key):
        return
    i = len(tiles)
    if i == len(window):
        _judge(rule_set, board, rack, lexicon, window, across, tiles, found)
        return
    r, c = window[i]
    idx = r * board.columns + c
    if board.letters[idx] is not None:
        letter = board.letters[idx]
        _fill(rule_set, board, rack, lexicon, left, window, across, tiles + [(letter, board.blanks[idx], False)],
              key + key_of[letter], found, key_of)
        return
    for tile in sorted(set(left)):
        rest = list(left)
        rest.remove(tile)
        choices = rule_set.tile_set.blank_letters if tile == BLANK else (tile,)
        for letter in choices:
            _fill(rule_set, board, rack, lexicon, rest, window, across,
                  tiles + [(letter, tile == BLANK, True)], key + key_of[letter], found, key_of)


def _judge(rule_set, board, rack, lexicon, window, across, tiles, found):
    new = [(window[i], t) for i, t in enumerate(tiles) if t[2]]
    if len(new) == 1:
        # one tile is one play: across when it forms an across word, else down
        (r, c), _ = new[0]
        has_across = any(0 <= c + d < board.columns and board.letters[r * board.columns + c + d] is not None
                         for d in (-1, 1))
        if across != has_across:
            return
    row, col = window[0]
    text = play_text(rule_set.tile_set, across, row, col, tiles)
    result = validate_move(rule_set, board, rack, text, judge=lexicon)
    if not result.valid:
        return
    used = [BLANK if blank else letter for _, (letter, blank, _) in new]
    letters = list(rule_set.tile_set.spell_rack(rack))
    found[text] = GeneratedMove("play", text, result.score, result.words,
                                leave_of(rule_set.tile_set, letters, used), len(new))
