"""Helpers shared by the build's worker pools."""

from __future__ import annotations

import signal


def ignore_interrupt() -> None:
    """Pool initializer: Ctrl-C is the parent's to handle (it reports and writes nothing), so the
    workers ignore it instead of each printing a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
