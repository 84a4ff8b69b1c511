"""Word-validity service for Czech and Polish word games: rule sets, lexicons, move validation, scoring."""

__version__ = "0.1.0"
