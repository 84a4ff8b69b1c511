"""Regenerate cs-exchange-refused.gcg (not run by the tests; the .gcg is the test data).

A two-player Czech Scrabble game with real Czech words (every word formed, cross words included, is a
stem of the hunspell word list), played until fewer than 7 tiles are left in the bag, where a player
tries an exchange that cs-scrabble refuses. An earlier exchange, with a full bag, is legal.

    .venv/bin/python tests/data/gcg/make_cs_exchange.py build_tools/czech/hunspell/cs_CZ.dic > tests/data/gcg/cs-exchange-refused.gcg
"""

import random
import sys
from collections import Counter

from lexicon_service.rules.admissible_words import WordSet
from lexicon_service.rules import Board, load_rule_set, validate_move

rs = load_rule_set("cs-scrabble")
ts = rs.tile_set
rng = random.Random(20261122)

words = set()
all_keys = set()
with open(sys.argv[1], encoding="utf-8") as handle:
    for line in handle:
        stem = line.split("/")[0].strip()
        if 2 <= len(stem) <= 15 and stem.isalpha() and stem.islower():
            try:
                letters = ts.spell(stem)
            except ValueError:
                continue
            all_keys.add(ts.key(letters))
            if len(letters) <= 7 and all(ts._by_letter.get(x) for x in letters):
                words.add(letters)
words = WordSet(all_keys)
words = sorted(words)
rng.shuffle(words)
words = words[:20000]

bag = [letter for letter, count in ts.bag().items() for _ in range(count)]
rng.shuffle(bag)
racks = [[bag.pop() for _ in range(7)] for _ in range(2)]
names = ["Eva", "Karel"]
totals = [0, 0]
board = Board.empty(rs)
out = ["#character-encoding UTF-8", "#player1 Eva Eva Svobodová", "#player2 Karel Karel Novák",
       "#title Czech Scrabble, generated: an exchange refused with fewer than 7 tiles in the bag",
       "#rules cs-scrabble"]


def fits(word, rack, board_letters):
    """Play text for `word` from rack + board letters (None where the board has them), or None."""
    left = Counter(rack)
    text = []
    for letter, on_board in zip(word, board_letters):
        if on_board is not None:
            if on_board != letter:
                return None
            text.append(".")
        elif left[letter] > 0:
            left[letter] -= 1
            text.append(f"[{letter}]" if len(letter) > 1 else letter)
        elif left["?"] > 0:
            left["?"] -= 1
            text.append(letter.lower())
        else:
            return None
    return "".join(text)


def best_play(rack):
    found = []
    for word in words:
        n = len(word)
        for across in (True, False):
            for row in range(15):
                for col in range(15):
                    if (col + n > 15) if across else (row + n > 15):
                        continue
                    squares = [(row, col + i) if across else (row + i, col) for i in range(n)]
                    on_board = [board.get(r, c) for r, c in squares]
                    if board.tile_count and all(x is None for x in on_board):
                        continue
                    text = fits(word, rack, [x[0] if x else None for x in on_board])
                    if text is None or "." * n == text:
                        continue
                    coord = f"{row + 1}{chr(65 + col)}" if across else f"{chr(65 + col)}{row + 1}"
                    result = validate_move(rs, board, rack, f"{coord} {text}", words)
                    if result.valid:
                        found.append((result.score, f"{coord} {text}", result))
        if len(found) >= 6:
            break
    return max(found, key=lambda f: f[0]) if found else None


turn = 0
exchanged_early = False
while True:
    p = turn % 2
    rack = racks[p]
    rack_text = ts.rack_text(sorted(rack))
    if len(bag) < 7 and bag:
        out.append(f">{names[p]}: {rack_text} -{ts.rack_text(sorted(rack)[:3])} +0 {totals[p]}")
        out.append("#note Refused: fewer than 7 tiles in the bag (seed 002); replay must flag this line.")
        break
    if turn == 3 and not exchanged_early:
        give = sorted(rack)[:4]
        out.append(f">{names[p]}: {rack_text} -{ts.rack_text(give)} +0 {totals[p]}")
        for x in give:
            rack.remove(x)
        rack.extend(bag.pop() for _ in range(4))
        bag.extend(give)
        rng.shuffle(bag)
        exchanged_early = True
        turn += 1
        continue
    play = best_play(rack)
    if play is None:
        out.append(f">{names[p]}: {rack_text} - +0 {totals[p]}")
        turn += 1
        continue
    score, text, result = play
    board.apply(result)
    for x in result.tiles_used:
        rack.remove(x)
    while len(rack) < 7 and bag:
        rack.append(bag.pop())
    totals[p] += score
    out.append(f">{names[p]}: {rack_text} {text} +{score} {totals[p]}")
    turn += 1
print("\n".join(out))
