"""The flow rules of one game, fixed when it is created: read from the rule set (challenge rule,
penalty, corrections and their window, move timer) and the CreateGame options (VOID, game clock).

Rule sets are data; so are these (the Kris Kros start redraw is `[first-play] redraw-if-blocked`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

CHALLENGE_RULES = ("single", "double", "penalty", "void")
DEFAULT_OVERTIME_PENALTY = 10  # points per started minute over the game clock (tournament practice)


@dataclass(frozen=True)
class GameOptions:
    challenge_rule: str  # single | double | penalty | void
    penalty_points: int  # lost by a challenger whose challenge fails (penalty rule)
    corrections: int  # tries to replace a word ruled invalid (Kris Kros: 1)
    correction_seconds: int
    move_seconds: int  # per-move timer; 0 = none
    timeout: str  # what a move timeout costs: forfeit-turn | none
    game_seconds: int  # per-player game clock; 0 = none
    overtime_penalty: int  # points per started minute over the game clock
    start_redraw: bool  # a full round of passes before the first play redraws every rack
    hints: bool = False  # players may ask for the best plays of their own rack (casual games; CreateGame)
    computer_levels: tuple = ()  # per seat: "" a person, else the level of the server's computer player

    def __post_init__(self) -> None:
        object.__setattr__(self, "computer_levels", tuple(self.computer_levels))  # stored as a JSON list

    def computer(self, seat: int) -> str:
        """The level of the computer player in `seat`, or "" for a person."""
        return self.computer_levels[seat] if 0 <= seat < len(self.computer_levels) else ""

    @classmethod
    def of(cls, rule_set, challenge_rule: str = "", game_seconds: int = 0,
           overtime_penalty: int | None = None, hints: bool = False, computer_levels=()) -> "GameOptions":
        rule = challenge_rule or rule_set.challenge.rule
        if rule not in CHALLENGE_RULES:
            raise ValueError(f"unknown challenge rule {rule!r} (one of {', '.join(CHALLENGE_RULES)})")
        return cls(
            challenge_rule=rule,
            penalty_points=rule_set.challenge.penalty_points,
            corrections=rule_set.challenge.corrections if rule != "void" else 0,
            correction_seconds=rule_set.challenge.correction_seconds,
            move_seconds=rule_set.timer.move_seconds,
            timeout=rule_set.timer.timeout,
            game_seconds=int(game_seconds),
            overtime_penalty=DEFAULT_OVERTIME_PENALTY if overtime_penalty is None else int(overtime_penalty),
            start_redraw=rule_set.first_play.redraw_if_blocked,
            hints=bool(hints),
            computer_levels=tuple(computer_levels),
        )

    def as_dict(self) -> dict:
        return asdict(self)
