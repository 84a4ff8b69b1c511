"""The bench scripts' modules, for the tests that exercise them (bench/ is not a package: its scripts
import each other by name, so the folder goes on sys.path)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"


def bench_module(name: str):
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    return importlib.import_module(name)
