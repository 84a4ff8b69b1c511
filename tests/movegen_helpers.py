"""Lexicons for the move-generation tests: `lexicon-build` writes the move graph; these take it out."""

from __future__ import annotations

import json
from pathlib import Path

MOVE_GRAPH = "moves.gaddag"


def without_move_graph(lexicon: Path) -> Path:
    """The built lexicon `lexicon` as one built before move generation existed: no moves.gaddag, and
    none in its manifest. Its path."""
    manifest_path = lexicon / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    del manifest["files"][MOVE_GRAPH]
    manifest_path.write_text(json.dumps(manifest, ensure_ascii=False, indent=1), encoding="utf-8")
    (lexicon / MOVE_GRAPH).unlink()
    return lexicon
