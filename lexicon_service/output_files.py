"""Files a command writes: made whole under a temporary name beside the target, then renamed over it.

Never through a symbolic link (the link, dangling or not, is refused: the command did not make what it
points at), never over something that is not a regular file, never into a lexicon (a directory with a
manifest: its files are checked against it, and one replaced breaks the lexicon). On a full disk the
temporary file is removed and the old file stays whole.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from lexicon_service.lexicon_format import MANIFEST


class OutputRefused(OSError):
    """The target is a link, not a file, or inside a lexicon."""


def check_target(path) -> Path:
    """`path` as a Path, after the checks write_atomically makes before writing (OutputRefused)."""
    path = Path(path)
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    if info is not None and stat.S_ISLNK(info.st_mode):
        raise OutputRefused(f"{path} is a symbolic link: not written through it (remove it or name another file)")
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise OutputRefused(f"{path} exists and is not a regular file")
    if is_lexicon_directory(path.parent):
        raise OutputRefused(f"{path.parent} is a lexicon: its files are the lexicon's own, written by lexicon-build "
                            "only (write somewhere else)")
    return path


def is_lexicon_directory(directory) -> bool:
    """A lexicon's directory: it holds the manifest its files are checked against."""
    return os.path.lexists(os.path.join(directory, MANIFEST))


def write_atomically(path, data: bytes | str) -> Path:
    """Write `data` (text is UTF-8) to `path` under a temporary name beside it, flushed to disk, then
    renamed over it: readers see the old file or the new one, never a part. OSError (OutputRefused for
    a link, a non-file, a lexicon's file) leaves the old file as it was."""
    path = check_target(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)  # O_EXCL: a new file
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        check_target(path)  # a link put there while we wrote is not replaced either
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return path


def _umask() -> int:
    """The process's umask, read without setting it (os.umask would change it for every thread)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o022
