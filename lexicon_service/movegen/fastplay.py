"""Self-play games in C: whole games of computer players (board, racks, bag, scores) played by the C core
(``csrc/selfplay.c``), Python called once per request, not once per move. For the leave table's samples
and for measurements; `movegen.selfplay` plays the same kind of games in Python, move by move.

Levels: "best" (the top play by score) and "equity" (the play or exchange of the highest score plus leave
value, as the computer level "equity"; "best" once the bag is empty). Without a play a player exchanges as
much of its rack as the bag allows while a scoreless round has not passed, else passes; the game ends
when a player empties their rack with the bag empty, or after two scoreless rounds, then the rule set's
end-of-game adjustments. Game i of a request is played from the seed ``seed + i x a constant``: the same
lexicon, levels and seed give the same games.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from lexicon_service.movegen import _core, _graph, _moves_from_core, _static
from lexicon_service.rules.board import Board
from lexicon_service.rules.game import end_of_game_adjustments
from lexicon_service.tiles import BLANK

LEVELS = {"best": 0, "equity": 1}
KINDS = ("play", "exchange", "pass")
MAX_GAMES = 10_000_000


@dataclass(frozen=True)
class FastTurn:
    player: int
    kind: str                  # "play" | "exchange" | "pass"
    score: int
    bag_before: int            # tiles in the bag before the move
    rack: tuple[str, ...]      # the rack before the move ("?" a blank)
    leave: tuple[str, ...]     # the tiles kept
    given: tuple[str, ...]     # an exchange's tiles
    play: tuple | None         # the core's play (score, down, row, col, tiles, n_new), for `move_text`


@dataclass(frozen=True)
class FastGame:
    scores: list[int]          # after the end-of-game adjustments
    turns: list[FastTurn]
    went_out: int | None


def leave_arrays(rule_set, table) -> tuple[bytes, bytes, bytes, bytes, bytes]:
    """A LeaveTable as the C core reads it (selfplay.h, SpLeaves): size, tile and pair values as doubles
    by tile number (0 a blank), and the whole-leave entries sorted by their key."""
    number = {letter: i + 1 for i, letter in enumerate(rule_set.tile_set.alphabet)}
    number[BLANK] = 0
    size = [table.sizes.get(n, 0.0) for n in range(9)]
    tile = [0.0] * 64
    for letter, value in table.tiles.items():
        tile[number[letter]] = value
    pair = [0.0] * (64 * 64)
    for (a, b), value in table.pairs.items():
        x, y = sorted((number[a], number[b]))
        pair[x * 64 + y] = value
    entries = sorted((_key(sorted(number[t] for t in leave)), value) for leave, value in table.leaves.items()
                     if len(leave) <= 8)
    pack = struct.Struct("<d").pack
    return (b"".join(map(pack, size)), b"".join(map(pack, tile)), b"".join(map(pack, pair)),
            b"".join(struct.pack("<Q", k) for k, _ in entries), b"".join(pack(v) for _, v in entries))


def _key(numbers) -> int:
    key = len(numbers)
    for n in numbers:
        key = (key << 6) | n
    return key


def play_games(lexicon, games: int, seed: int, levels=("best", "best"), leaves=None) -> list[FastGame]:
    """`games` self-play games of len(levels) players (2-4) on `lexicon` (it needs its move graph; the
    level "equity" needs `leaves`, a LeaveTable, or the lexicon's own)."""
    static = _static(lexicon.rule_set)
    names = (BLANK, *static.letters)
    return [_game(lexicon.rule_set, names, game) for game in raw_games(lexicon, games, seed, levels, leaves)]


def raw_games(lexicon, games: int, seed: int, levels=("best", "best"), leaves=None) -> list[tuple]:
    """The games of `play_games` as the C core gives them (tile numbers, the core's plays), for callers
    that read only a few of their fields (measurements)."""
    rule_set = lexicon.rule_set
    if not 0 <= games <= MAX_GAMES:
        raise ValueError(f"games must be 0 to {MAX_GAMES:,}")
    if any(level not in LEVELS for level in levels):
        raise ValueError(f"levels must be among {', '.join(LEVELS)}")
    table = leaves if leaves is not None else lexicon.leaves
    if "equity" in levels and table is None:
        raise ValueError("the level 'equity' needs a leave table")
    static = _static(rule_set)
    exchange = rule_set.exchange
    return _core.play_games(_graph(rule_set, lexicon), static.core_rules, games=games, seed=seed & (2 ** 64 - 1),
                            rack_size=rule_set.rack_size,
                            exchange_min_bag=exchange.min_tiles_in_bag if exchange.allowed else -1,
                            levels=tuple(LEVELS[level] for level in levels),
                            leaves=leave_arrays(rule_set, table) if table is not None else None)


def _game(rule_set, names, raw) -> FastGame:
    scores, racks, went_out, turns = raw
    letters = [[names[t] for t in range(64) for _ in range(counts[t])] for counts in racks]
    adjustments = end_of_game_adjustments(rule_set, [rule_set.tile_set.rack_text(r) for r in letters],
                                          None if went_out < 0 else went_out)
    return FastGame([s + a for s, a in zip(scores, adjustments)],
                    [FastTurn(player, KINDS[kind], score, bag, tuple(names[t] for t in rack),
                              tuple(names[t] for t in leave), tuple(names[t] for t in given), play)
                     for player, kind, score, bag, rack, leave, given, play in turns],
                    None if went_out < 0 else went_out)


def move_text(rule_set, board: Board, turn: FastTurn) -> str:
    """The turn's move in play notation ("8D W(O)RD"; an exchange "-ABC"; a pass "-") on `board`, the board
    before it."""
    if turn.kind == "play":
        static = _static(rule_set)
        return _moves_from_core(rule_set, board, list(turn.rack), static, [turn.play])[0].play
    return "-" + rule_set.tile_set.rack_text(list(turn.given)) if turn.kind == "exchange" else "-"
