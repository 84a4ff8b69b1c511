"""The build's user-facing error (the languages raise it too; `lexicon-build` reports it)."""

from __future__ import annotations

from lexicon_service.command_line import UserError


class BuildError(UserError):
    """A user-facing build error: one line, exit status 2."""
