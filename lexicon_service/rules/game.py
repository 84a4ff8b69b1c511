"""The flow of one game (RULES.md sections 3 and 6): the fold of its turns over board, bag, racks and
scores, and the rules that end it.

A recorded game (`rules/replay.py`, from a GCG record) and a live one (`games/state.py`, from the
server's event log) both run through `GameFlow`: a play draws min(tiles played, bag) from the end
of the bag; a successful challenge withdraws the player's last play (tiles lifted, drawn tiles back
into the bag, the turn scoreless); an exchange is limited by the bag; scoreless turns and rounds of
passes end the game; whoever empties their rack with the bag empty goes out; `end_adjustments`
settles the racks left. A record names few tiles, so a replay folds UNKNOWN tiles (the bag tracked
by counting); a live game folds the real ones.
"""

from __future__ import annotations

from lexicon_service.rules.board import Board
from lexicon_service.rules.ruleset import RuleSet
from lexicon_service.tiles import BLANK

UNKNOWN = ""  # a tile the record does not name

# Why an exchange is refused (`exchange_refusal`); each caller words it for its readers.
EXCHANGES_NOT_ALLOWED = "not-allowed"
BAG_BELOW_MINIMUM = "bag-below-minimum"
MORE_THAN_BAG = "more-than-bag"

# Why the game is over (`GameFlow.due_end`).
END_PASSES = "passes"
END_SCORELESS = "scoreless-turns"
END_BLOCKED = "blocked"  # no rack could make a play ([end] ends-when-blocked; the server decides it)

# Notes a server-held game's record carries for what the server decided from the racks: a replay has
# no lexicon to decide it again, so it reads them.
NOTE_REDRAWN = "nobody could make a first word: every rack went back and was drawn again"
NOTE_BLOCKED = "nobody can make a play: the game ends"


def exchange_refusal(rule_set: RuleSet, bag_size: int, count: int | None) -> str | None:
    """Why exchanging `count` tiles (None: unknown) with `bag_size` tiles in the bag is refused, or None."""
    if not rule_set.exchange.allowed:
        return EXCHANGES_NOT_ALLOWED
    if bag_size < rule_set.exchange.min_tiles_in_bag:
        return BAG_BELOW_MINIMUM
    if count is not None and count > bag_size:
        return MORE_THAN_BAG
    return None


def tiles_value(rule_set: RuleSet, tiles) -> int:
    """Points of tiles ("?" = blank, which counts its face value)."""
    tile_set = rule_set.tile_set
    return sum(tile_set.blank_points if x == BLANK else tile_set.tile(x).points for x in tiles)


def rack_value(rule_set: RuleSet, rack) -> int:
    """Points of the tiles on a rack (text such as "[CH]A?" or letters)."""
    if rack is None:
        return 0
    return tiles_value(rule_set, rule_set.tile_set.spell_rack(rack) if isinstance(rack, str) else rack)


def out_play_bonus(bonus_rule: str, others_value: int) -> int | None:
    """What the player who went out gains for the others' racks worth `others_value`; None when the
    rule gives nothing (RULES.md section 6)."""
    if bonus_rule == "twice-others-racks":
        return 2 * others_value
    if bonus_rule == "others-racks":
        return others_value
    return None


def own_rack_penalty(rule_set: RuleSet, value: int) -> int:
    """What a player loses for their own tiles left, worth `value`."""
    return -value if rule_set.end.subtract_own_rack else 0


def end_of_game_adjustments(rule_set: RuleSet, racks, went_out: int | None = None,
                            out_bonus: str | None = None) -> list[int]:
    """Final rack adjustment per player (RULES.md section 6).

    racks: the tiles left on each player's rack (text or letters); went_out: index of the player who
    emptied their rack, or None. out_bonus overrides the rule set: "none", "others-racks" (+x/-x) or
    "twice-others-racks" (the 2x two-player convention: the out-player gains 2x, the others lose nothing).
    """
    values = [rack_value(rule_set, rack) for rack in racks]
    bonus_rule = out_bonus or rule_set.end.out_bonus
    if bonus_rule not in ("none", "others-racks", "twice-others-racks"):
        raise ValueError(f"unknown out bonus rule {bonus_rule!r}")
    if went_out is not None and not 0 <= went_out < len(values):
        raise ValueError(f"player {went_out + 1} does not exist")
    twice = went_out is not None and bonus_rule == "twice-others-racks"
    adjustments = [0 if twice else own_rack_penalty(rule_set, value) for value in values]
    if went_out is not None:
        adjustments[went_out] += out_play_bonus(bonus_rule, sum(v for i, v in enumerate(values) if i != went_out)) or 0
    return adjustments


class Withdrawable:
    """A player's last play, as long as it may still be withdrawn (until that player's next turn)."""

    __slots__ = ("placements", "drawn", "score", "rack_before", "short_before", "move")

    def __init__(self, placements, drawn, score, rack_before, short_before, move=None) -> None:
        self.move = move  # the caller's own description of the play (a MoveResult, a Played event)
        self.placements = placements
        self.drawn = drawn
        self.score = score
        self.rack_before = rack_before
        self.short_before = short_before


class GameFlow:
    """Board, bag (tiles are drawn from its end), racks, scores and the counters that end the game."""

    __slots__ = ("rule_set", "board", "racks", "bag", "short", "scores", "scoreless_turns", "passes_in_a_row",
                 "went_out", "withdrawable", "scoreless_before")

    def __init__(self, rule_set: RuleSet, racks, bag) -> None:
        self.rule_set = rule_set
        self.board = Board.empty(rule_set)
        self.racks = [list(r) for r in racks]
        self.bag = list(bag)
        self.short = [0] * len(self.racks)  # tiles played beyond the rack (a faulty record): counted off
        self.scores = [0] * len(self.racks)
        self.scoreless_turns = 0
        self.passes_in_a_row = 0
        self.went_out: int | None = None  # who emptied their rack with the bag empty (until withdrawn)
        self.withdrawable: dict[int, Withdrawable] = {}
        # (scoreless turns, passes in a row) before each player's last play: a withdrawal's turn replaces it
        self.scoreless_before: dict[int, tuple[int, int]] = {}

    @classmethod
    def counted(cls, rule_set: RuleSet, n_players: int) -> "GameFlow":
        """A game whose tiles are not known, only counted: full racks dealt from the whole bag."""
        bag = rule_set.tile_set.total_tiles
        racks = []
        for _ in range(n_players):
            k = min(rule_set.rack_size, bag)
            racks.append([UNKNOWN] * k)
            bag -= k
        return cls(rule_set, racks, [UNKNOWN] * bag)

    def copy(self) -> "GameFlow":
        other = GameFlow.__new__(GameFlow)
        other.rule_set = self.rule_set
        other.board = self.board.copy()
        other.racks = [r[:] for r in self.racks]
        other.bag = self.bag[:]
        other.short = self.short[:]
        other.scores = self.scores[:]
        other.scoreless_turns = self.scoreless_turns
        other.passes_in_a_row = self.passes_in_a_row
        other.went_out = self.went_out
        other.withdrawable = dict(self.withdrawable)
        other.scoreless_before = dict(self.scoreless_before)
        return other

    @property
    def n_players(self) -> int:
        return len(self.racks)

    def rack_size(self, player: int) -> int:
        return len(self.racks[player]) - self.short[player]

    # --- turns -------------------------------------------------------------------------------------
    def play(self, player: int, placements, score: int, move=None) -> tuple[str, ...]:
        """A play ((row, col, letter, is_blank) of its new tiles): they leave the rack for the board,
        the rack refills from the bag. `move` is kept for `withdraw`. Returns the tiles drawn."""
        rack_before, short_before = self.racks[player][:], self.short[player]
        rack = self.racks[player]
        for _, _, letter, blank in placements:
            self._take(player, BLANK if blank else letter)
        for row, col, letter, blank in placements:
            self.board.place(row, col, letter, blank)
        k = min(len(placements), len(self.bag))
        drawn = tuple(self.bag[len(self.bag) - k:])
        del self.bag[len(self.bag) - k:]
        rack.extend(drawn)
        self.scores[player] += score
        self.scoreless_before[player] = (self.scoreless_turns, self.passes_in_a_row)
        self.scoreless_turns = 0 if score > 0 else self.scoreless_turns + 1
        self.passes_in_a_row = 0
        self.withdrawable[player] = Withdrawable(tuple(placements), drawn, score, rack_before, short_before, move)
        if self.rack_size(player) == 0 and not self.bag:
            self.went_out = player
        return drawn

    def unplaceable_play(self, player: int) -> None:
        """A recorded play that cannot be placed: the turn passes without a score."""
        self.scoreless_before[player] = (self.scoreless_turns, self.passes_in_a_row)
        self.scoreless_turns += 1
        self.passes_in_a_row = 0
        self.withdrawable.pop(player, None)

    def withdraw(self, player: int, bag=None) -> Withdrawable | None:
        """A successful challenge: the player's last play comes off the board, their rack is as before it,
        the tiles they drew go back into the bag (`bag`: the bag as reshuffled, else at its end) and
        its score is taken back; the turn counts as scoreless. Returns the play withdrawn (None: none)."""
        withdrawn = self.withdrawable.pop(player, None)
        if withdrawn is not None:
            self.board.lift(withdrawn.placements)
            self.racks[player] = withdrawn.rack_before[:]
            self.short[player] = withdrawn.short_before
            if bag is None:
                self.bag.extend(withdrawn.drawn)
            else:
                self.bag = list(bag)
            self.scores[player] -= withdrawn.score
        before = self.scoreless_before.pop(player, (self.scoreless_turns, self.passes_in_a_row))
        self.scoreless_turns = before[0] + 1
        self.passes_in_a_row = 0
        if self.went_out == player:
            self.went_out = None
        return withdrawn

    def exchange(self, player: int, tiles=(), drawn=(), bag=None) -> None:
        """An exchange: `tiles` go back, `drawn` come out, the bag is `bag` (its new order); a counted
        game changes no count. The turn is scoreless but no pass."""
        for tile in tiles:
            self._take(player, tile)
        self.racks[player].extend(drawn)
        if bag is not None:
            self.bag = list(bag)
        self.scoreless_turns += 1
        self.passes_in_a_row = 0
        self.withdrawable.pop(player, None)

    def pass_turn(self, player: int) -> None:
        """A pass (or a turn lost): scoreless, and one more pass in a row."""
        self.scoreless_turns += 1
        self.passes_in_a_row += 1
        self.withdrawable.pop(player, None)

    def redraw(self, racks, bag) -> None:
        """Every rack went back into the bag and was drawn again (Kris Kros start): the count restarts."""
        self.racks = [list(r) for r in racks]
        self.bag = list(bag)
        self.passes_in_a_row = 0
        self.scoreless_turns = 0

    def adjust(self, player: int, delta: int) -> None:
        """Points outside the plays: end-of-game racks, challenge penalties, overtime, the director."""
        self.scores[player] += delta

    def _take(self, player: int, tile: str) -> None:
        rack = self.racks[player]
        if tile in rack:
            rack.remove(tile)
        elif UNKNOWN in rack:
            rack.remove(UNKNOWN)
        else:
            self.short[player] += 1

    # --- the end -------------------------------------------------------------------------------------
    def passing_rounds_over(self) -> bool:
        """Every player passed in the rule set's number of rounds in a row."""
        rounds = self.rule_set.end.passing_rounds
        return bool(rounds) and self.passes_in_a_row >= rounds * self.n_players

    def scoreless_turns_over(self) -> bool:
        """The rule set's number of scoreless turns in a row were played (passes, exchanges, withdrawals)."""
        turns = self.rule_set.end.scoreless_turns
        return bool(turns) and self.scoreless_turns >= turns

    def due_end(self) -> str | None:
        """Why the counters end the game (RULES.md section 6), else None; when both end it at once,
        the scoreless turns (passes are scoreless turns too)."""
        if self.scoreless_turns_over():
            return END_SCORELESS
        if self.passing_rounds_over():
            return END_PASSES
        return None

    def end_adjustments(self, went_out: int | None, out_bonus: str | None = None) -> list[int]:
        """The racks left, settled: `end_of_game_adjustments` of the racks now."""
        return end_of_game_adjustments(self.rule_set, self.racks, went_out, out_bonus)
