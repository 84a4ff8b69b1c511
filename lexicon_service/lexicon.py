"""A compiled lexicon, loaded for lookups (the runtime side; never imports build_tools).

Artifact: a directory ``NAME.lex/`` (pymorphy2 style), written by ``lexicon-build`` into a
temporary directory and renamed into place only when complete:

    manifest.json     format, format_version, rule set (with its source text), profile,
                      sources (name, kind, sha256), counts, builder version, options, and
                      ``files``: the byte size and sha256 of every other file
    forms.marisa      marisa-trie of the tile keys (memory-mapped)
    headwords.marisa  marisa-trie of the headwords (id -> text with restore_key; mmapped)
    tables.json       tag strings, rule names, tag sets (lists of [tag id, rule id]); optional
                      "models": {headword: model lemma} for headwords inflected by analogy
    readings.bin      provenance: uint32 offsets[n_forms + 1] indexed by the form's trie id,
                      then uint64 records (headword id << 32 | tag set id), little-endian

Loading checks every file's size and sha256 (about 0.1 s for the full Polish lexicon), so a
truncated or corrupt lexicon is refused with ``LexiconCorruptError`` naming the file; an unknown
format or format version is refused with ``LexiconFormatError``.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import sys
from dataclasses import dataclass
from pathlib import Path

FORMAT = "czpl-lexicon"
FORMAT_VERSION = 1
SUPPORTED_VERSIONS = (1,)
FILES = ("forms.marisa", "headwords.marisa", "tables.json", "readings.bin")


class LexiconError(Exception):
    """Base of every error about a lexicon file."""


class LexiconFormatError(LexiconError):
    """Not a lexicon, or a lexicon of a format/version this program does not read."""


class LexiconCorruptError(LexiconError):
    """A lexicon whose files are truncated, missing or do not match their checksums."""


@dataclass(frozen=True)
class Reading:
    """Why a form is in the lexicon: its headword, its tag (common vocabulary) and the rule."""

    form: str
    headword: str
    tag: str
    rule: str
    model: str = ""    # a guessed headword: the lemma whose paradigm it was inflected after


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 22), b""):
            h.update(block)
    return h.hexdigest()


def read_manifest(path: str | os.PathLike) -> dict:
    """The manifest of a lexicon directory, checked for format and version only."""
    root = Path(path)
    if not root.exists():
        raise LexiconFormatError(f"{root}: no such lexicon")
    if not root.is_dir():
        raise LexiconFormatError(f"{root}: not a lexicon (a lexicon is a directory with manifest.json)")
    mpath = root / "manifest.json"
    if not mpath.is_file():
        raise LexiconFormatError(f"{root}: not a lexicon (no manifest.json)")
    try:
        manifest = json.loads(mpath.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise LexiconCorruptError(f"{mpath}: corrupt manifest ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise LexiconFormatError(f"{root}: not a {FORMAT} lexicon (format is "
                                 f"{manifest.get('format') if isinstance(manifest, dict) else '?'!r})")
    version = manifest.get("format_version")
    if version not in SUPPORTED_VERSIONS:
        raise LexiconFormatError(
            f"{root}: lexicon format version {version!r} is not supported by this program "
            f"(it reads {', '.join(map(str, SUPPORTED_VERSIONS))}); rebuild it with lexicon-build "
            f"or upgrade lexicon-service")
    return manifest


def verify_files(root: Path, manifest: dict) -> None:
    files = manifest.get("files")
    if not isinstance(files, dict) or set(files) != set(FILES):
        raise LexiconCorruptError(f"{root}: manifest does not list the lexicon's files")
    for name in FILES:
        p = root / name
        want = files[name]
        if not p.is_file():
            raise LexiconCorruptError(f"{root}: missing file {name}")
        size = p.stat().st_size
        if size != want.get("bytes"):
            raise LexiconCorruptError(
                f"{p}: truncated or altered ({size} bytes, manifest says {want.get('bytes')})")
        if _sha256(p) != want.get("sha256"):
            raise LexiconCorruptError(f"{p}: checksum mismatch (sha256 differs from the manifest)")


class Lexicon:
    """A loaded lexicon: membership (tile keys), prefixes, and readings for `explain`."""

    def __init__(self, path: str | os.PathLike, *, verify: bool = True) -> None:
        import marisa_trie

        self.path = Path(path)
        self.manifest = read_manifest(self.path)
        if verify:
            verify_files(self.path, self.manifest)
        self.name: str = self.manifest.get("name") or self.path.stem
        try:
            self._forms = marisa_trie.Trie()
            self._forms.mmap(str(self.path / "forms.marisa"))
            self._heads = marisa_trie.Trie()
            self._heads.mmap(str(self.path / "headwords.marisa"))
            tables = json.loads((self.path / "tables.json").read_text(encoding="utf-8"))
            self._tags: list[str] = tables["tags"]
            self._rules: list[str] = tables["rules"]
            self._tagsets: list[list[list[int]]] = tables["tagsets"]
            self._models: dict[str, str] = tables.get("models", {})
        except (OSError, ValueError, KeyError, RuntimeError, UnicodeDecodeError) as exc:
            raise LexiconCorruptError(f"{self.path}: cannot read lexicon ({exc})") from None
        n = len(self._forms)
        if n != self.manifest.get("counts", {}).get("forms"):
            raise LexiconCorruptError(f"{self.path}: trie holds {n} forms, manifest says "
                                      f"{self.manifest.get('counts', {}).get('forms')}")
        self._file = open(self.path / "readings.bin", "rb")
        size = os.fstat(self._file.fileno()).st_size
        if size < 4 * (n + 1):
            raise LexiconCorruptError(f"{self.path / 'readings.bin'}: truncated")
        self._mm = mmap.mmap(self._file.fileno(), 0, access=mmap.ACCESS_READ) if size else None
        mv = memoryview(self._mm) if self._mm is not None else memoryview(b"\0\0\0\0")
        self._mv = mv
        self._offsets = mv[: 4 * (n + 1)].cast("I")
        self._records = mv[4 * (n + 1):].cast("Q")
        if sys.byteorder != "little":  # the format is little-endian
            raise LexiconFormatError("big-endian machines are not supported")
        self._rule_set = None
        # Fast bound membership test (the hot path of the rules engine).
        self.is_admissible = self._forms.__contains__

    # --- membership -------------------------------------------------------------------------
    def is_admissible(self, key: str) -> bool:  # replaced per instance by the trie's own method
        return key in self._forms

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key in self._forms

    def __len__(self) -> int:
        return len(self._forms)

    def keys(self, prefix: str = "") -> list[str]:
        """All tile keys starting with prefix, sorted."""
        return sorted(self._forms.keys(prefix))

    def has_prefix(self, prefix: str) -> bool:
        """True when some admissible key starts with prefix (the empty prefix: lexicon not empty)."""
        for _ in self._forms.iterkeys(prefix):
            return True
        return False

    # --- provenance -------------------------------------------------------------------------
    @property
    def rule_set(self):
        """The rule set the lexicon was built for, parsed from the text embedded in the manifest."""
        if self._rule_set is None:
            from lexicon_service.rules import parse_rule_set

            rs = self.manifest.get("rule_set", {})
            self._rule_set = parse_rule_set(rs.get("source_text", ""),
                                            f"{self.path}:manifest.json:rule_set")
        return self._rule_set

    def display(self, key: str) -> str:
        """Readable text of a tile key (multi-letter tiles spelled out)."""
        try:
            return self.rule_set.tile_set.text_of_key(key)
        except Exception:
            return key

    def explain(self, key: str) -> list[Reading]:
        """Every reading (headword, tag, rule) that put this key in the lexicon; [] if absent."""
        try:
            kid = self._forms[key]
        except KeyError:
            return []
        form = self.display(key)
        out: list[Reading] = []
        for i in range(self._offsets[kid], self._offsets[kid + 1]):
            rec = self._records[i]
            head = self._heads.restore_key(rec >> 32)
            model = self._models.get(head, "")
            for tag_id, rule_id in self._tagsets[rec & 0xFFFFFFFF]:
                tag = self._tags[tag_id]
                # a headword may have SGJP readings beside guessed ones (a homograph)
                guessed = model if model and "GUESSED" in tag.split(";") else ""
                out.append(Reading(form, head, tag, self._rules[rule_id], guessed))
        return out

    def close(self) -> None:
        self.is_admissible = lambda key: False
        try:
            self._offsets.release()
            self._records.release()
            self._mv.release()
        except Exception:
            pass
        if self._mm is not None:
            try:
                self._mm.close()
            except BufferError:
                pass
            self._mm = None
        self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self) -> str:
        return f"<Lexicon {self.name!r}: {len(self)} forms from {self.path}>"


def load_lexicon(path: str | os.PathLike, *, verify: bool = True) -> Lexicon:
    """Load a lexicon directory; refuses unknown formats/versions and corrupt or truncated files."""
    return Lexicon(path, verify=verify)


def resolve_lexicon_path(name_or_path: str, lexicons_dir: str | os.PathLike = "lexicons") -> Path:
    """A lexicon given as a path (``lexicons/pl-scrabble.lex``) or a name (``pl-scrabble``,
    looked up as ``<lexicons_dir>/<name>.lex``)."""
    p = Path(name_or_path)
    if p.exists():
        return p
    candidate = Path(lexicons_dir) / f"{name_or_path}.lex"
    if candidate.exists():
        return candidate
    return p
