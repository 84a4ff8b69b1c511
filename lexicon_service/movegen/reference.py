"""A reference move generator in plain Python: short, obviously correct, slow (the tests' oracle).

From every square of every line where a word may start (nothing just before it), the squares
rightwards (downwards) are filled depth-first: a board tile as it is, an empty square with each
rack tile (a blank as each letter it may show), pruned by `lexicon.has_prefix`. Wherever the word
may end (nothing just after it) and it is admissible, the candidate is judged by `validate_move`
itself, which gives its score and words.
"""

from __future__ import annotations

from lexicon_service.movegen import GeneratedMove, leave_of, play_text
from lexicon_service.rules.board import Board
from lexicon_service.rules.moves import validate_move
from lexicon_service.tiles import BLANK


def reference_moves(rule_set, board: Board | None, rack: str, lexicon) -> list[GeneratedMove]:
    """Every legal play (not exchanges or the pass), best score first, then by play text."""
    board = board if board is not None else Board.empty(rule_set)
    letters = list(rule_set.tile_set.spell_rack(rack))
    key_of = rule_set.tile_set._key_of_letter
    found: dict[str, GeneratedMove] = {}
    prefixes: dict[str, bool] = {}

    def has_prefix(key: str) -> bool:
        known = prefixes.get(key)
        if known is None:
            known = prefixes[key] = lexicon.has_prefix(key)
        return known

    def touches(r: int, c: int) -> bool:
        """A play through this square can meet the rules on connection (or the first play's square)."""
        if board.tile_count == 0:
            cover = rule_set.first_play.must_cover
            return cover is None or cover == (r, c)
        if not rule_set.later_plays.must_connect or board.get(r, c) is not None:
            return True
        return any(board.get(r + dr, c + dc) is not None for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)))

    def extend(squares, occupied, touch, across, left, tiles, key, touched):
        i = len(tiles)
        if i == len(squares) or not (touched or any(touch[i:i + len(left) + 1])):
            return  # nothing within reach meets the connection rule
        r, c = squares[i]
        idx = r * board.columns + c
        if occupied[i]:
            choices = [(board.letters[idx], board.blanks[idx], None)]
        else:
            choices = [(letter, tile == BLANK, tile) for tile in sorted(set(left))
                       for letter in (rule_set.tile_set.blank_letters if tile == BLANK else (tile,))]
        for letter, blank, tile in choices:
            longer = key + key_of[letter]
            if not has_prefix(longer):
                continue
            rest = left
            if tile is not None:
                if not _cross_word_admissible(board, lexicon, key_of, r, c, across, letter):
                    continue
                rest = list(left)
                rest.remove(tile)
            grown = tiles + [(letter, blank, tile is not None)]
            if (i + 1 == len(squares) or not occupied[i + 1]) and lexicon.is_admissible(longer):
                _judge(rule_set, board, rack, lexicon, squares, across, grown, found)
            extend(squares, occupied, touch, across, rest, grown, longer, touched or touch[i])

    for across in (True, False):
        n_lines, length = (board.rows, board.columns) if across else (board.columns, board.rows)
        for line in range(n_lines):
            squares = [(line, p) if across else (p, line) for p in range(length)]
            occupied = [board.get(r, c) is not None for r, c in squares]
            touch = [touches(r, c) for r, c in squares]
            for start in range(length):
                if start == 0 or not occupied[start - 1]:
                    extend(squares[start:], occupied[start:], touch[start:], across, letters, [], "", False)
    return sorted(found.values(), key=lambda m: (-m.score, m.play))


def _cross_word_admissible(board, lexicon, key_of, r, c, across, letter) -> bool:
    """A new tile's word the other way (if it has a neighbour that way) is admissible."""
    dr, dc = (1, 0) if across else (0, 1)
    top_r, top_c = r, c
    while board.get(top_r - dr, top_c - dc) is not None:
        top_r, top_c = top_r - dr, top_c - dc
    keys = []
    rr, cc = top_r, top_c
    while (rr, cc) == (r, c) or board.get(rr, cc) is not None:
        keys.append(key_of[letter] if (rr, cc) == (r, c) else key_of[board.get(rr, cc)[0]])
        rr, cc = rr + dr, cc + dc
    return len(keys) < 2 or lexicon.is_admissible("".join(keys))


def _could_be_a_play(rule_set, board, squares, tiles) -> bool:
    """What a play needs before its words are read: new tiles, 2+ tiles; the first play covers its
    square and places enough tiles; a later one touches the board (when the rules say so)."""
    new = [squares[i] for i, t in enumerate(tiles) if t[2]]
    if not new or len(tiles) < 2:
        return False
    if board.tile_count == 0:
        cover = rule_set.first_play.must_cover
        return len(new) >= rule_set.first_play.min_tiles and (cover is None or cover in new)
    if not rule_set.later_plays.must_connect or len(new) < len(tiles):
        return True
    return any(board.get(r + dr, c + dc) is not None for r, c in new for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)))


def _judge(rule_set, board, rack, lexicon, squares, across, tiles, found):
    if not _could_be_a_play(rule_set, board, squares, tiles):
        return
    new = [(squares[i], t) for i, t in enumerate(tiles) if t[2]]
    if len(new) == 1:
        # one tile is one play: across when it forms an across word, else down
        (r, c), _ = new[0]
        has_across = any(0 <= c + d < board.columns and board.letters[r * board.columns + c + d] is not None
                         for d in (-1, 1))
        if across != has_across:
            return
    row, col = squares[0]
    text = play_text(rule_set.tile_set, across, row, col, tiles)
    result = validate_move(rule_set, board, rack, text, lexicon=lexicon)
    if not result.valid:
        return
    used = [BLANK if blank else letter for _, (letter, blank, _) in new]
    letters = list(rule_set.tile_set.spell_rack(rack))
    found[text] = GeneratedMove("play", text, result.score, result.words,
                                leave_of(rule_set.tile_set, letters, used), len(new))
