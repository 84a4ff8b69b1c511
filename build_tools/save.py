"""Save stage: write a lexicon directory atomically (temporary directory, then rename).

The layout is described in ``lexicon_service/lexicon.py`` (the reader owns the format). Output is
deterministic: no timestamps, JSON with sorted keys, marisa tries built from the same key sets;
the same inputs give byte-identical files.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

from lexicon_service.lexicon import FILES, FORMAT, FORMAT_VERSION


def _write(path: Path, data: bytes) -> dict:
    with open(path, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    return {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def _json_bytes(obj) -> bytes:
    return (json.dumps(obj, ensure_ascii=False, sort_keys=True, indent=1) + "\n").encode("utf-8")


def save_lexicon(out: str | os.PathLike, forms_trie, heads_trie, tables: dict, readings: bytes,
                 manifest: dict) -> Path:
    """Write the lexicon to ``out`` (a directory), replacing any previous one only when the new
    one is complete. Returns the path."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f"{out.name}.tmp-{os.getpid()}")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir()
    try:
        files = {}
        forms_trie.save(str(tmp / "forms.marisa"))
        heads_trie.save(str(tmp / "headwords.marisa"))
        for name in ("forms.marisa", "headwords.marisa"):
            data = (tmp / name).read_bytes()
            files[name] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
        files["tables.json"] = _write(tmp / "tables.json", _json_bytes(tables))
        files["readings.bin"] = _write(tmp / "readings.bin", readings)
        assert set(files) == set(FILES)
        manifest = dict(manifest, format=FORMAT, format_version=FORMAT_VERSION, files=files)
        _write(tmp / "manifest.json", _json_bytes(manifest))
        old = None
        if out.exists() or out.is_symlink():
            old = out.with_name(f"{out.name}.old-{os.getpid()}")
            os.rename(out, old)
        os.rename(tmp, out)
        if old is not None:
            if old.is_dir() and not old.is_symlink():
                shutil.rmtree(old)
            else:
                old.unlink()
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out
