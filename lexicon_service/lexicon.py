"""A compiled lexicon, loaded for lookups (the runtime side; never imports build_tools).

The format (directory layout, manifest, readings.bin, tables.json) is described and owned by
``lexicon_service/lexicon_format.py``.

Loading maps copies of the tries, readings.bin and the move graph's search layout (a private copy,
or the sealed copy server processes share: never a file that can change under the server) and reads
the tables into memory; it checks every file's size and sha256 on the bytes it uses,
the manifest's fields, the tables' indices and the rule set, so a truncated, corrupt or
inconsistent lexicon is refused with ``LexiconCorruptError`` naming the file; an unknown format or
format version, a bad name or rule set, with ``LexiconFormatError``.
"""

from __future__ import annotations

import mmap
import os
from dataclasses import dataclass, field
from pathlib import Path

import marisa_trie


from lexicon_service.lexicon_format import (  # noqa: F401 - FORMAT... and the errors: imported from here too
    FILES,
    FORMAT,
    FORMAT_VERSION,
    FORMS,
    HEADWORDS,
    LEAVES,
    MOVE_GRAPH,
    WIN_TABLE,
    NAME_RE,
    OPTIONAL_FILES,
    READINGS,
    REFUSALS,
    SUPPORTED_VERSIONS,
    TABLES,
    LexiconCorruptError,
    LexiconError,
    LexiconFormatError,
    check_manifest,
    check_readings_size,
    find_refusals,
    listed_files,
    move_graph_name,
    parse_leave_table,
    parse_search_graph,
    parse_tables,
    parse_win_table,
    read_manifest,
    record_fields,
    unpack_readings,
    verify_files,
)
from lexicon_service.lexicon_copies import (
    SHARED_FILES,
    CheckedTries,
    SharedFiles,
    check_trie_structure,
    held_or_private_copy,
    map_trie,
    private_copy,
    read_checked,
    search_layout_key,
)
from lexicon_service.movegen.graph import arcs_of_layout
from lexicon_service.rules import parse_rule_set


@dataclass(frozen=True)
class Reading:
    """Why a form is in the lexicon: its headword, its tag (common vocabulary) and the rule."""

    form: str
    headword: str
    tag: str
    rule: str
    model: str = ""    # a guessed headword: the lemma whose paradigm it was inflected after
    # where the reading came from (``origin_of``): SGJP, the Czech paradigm engine, guessed,
    # Hunspell affix form, word list, tagged list
    origin: str = field(default="", compare=False)


def generator_of(manifest: dict) -> str:
    """What made the readings of a lexicon that carry no mark of their own: the language's generator
    (SGJP for Polish, the Czech paradigm engine), and a tagged list when the lexicon has one (its
    readings look like the generator's)."""
    rule_set = manifest.get("rule_set")
    language = rule_set.get("language") if isinstance(rule_set, dict) else None
    sources = manifest.get("sources")
    kinds = {s.get("kind") for s in sources if isinstance(s, dict)} if isinstance(sources, list) else set()
    made = []
    if kinds & {"headwords", "hunspell"}:
        made.append({"pl": "SGJP", "cs": "Czech paradigm engine"}.get(language, "headword expansion"))
    if "tagged" in kinds:
        made.append("tagged list")
    return " or ".join(made) or "unknown"


def origin_of(tag: str, rule: str, model: str, generator: str) -> str:
    """Where one reading came from: guessed (inflected by analogy), a Hunspell affix form of an SGJP
    lemma (tag HUNSPELL), a word list, else the lexicon's generator (``generator_of``)."""
    if model or rule == "guessed":
        return "guessed"
    if rule == "word-list":
        return "word list"
    if "HUNSPELL" in tag.split(";"):
        return "Hunspell affix form"
    return generator


def _models_trie(models: dict):
    """The models table (headword -> model lemma) as a trie of UTF-8 values: as a dict, Polish's table
    held tens of MB of Python objects in every server process (and twice during a reload); the trie a
    small fraction of it. A headword that is no trie key (a lone surrogate) could never be looked up: left out."""
    items = []
    for head, model in models.items():
        try:
            head.encode("utf-8")
            items.append((head, model.encode("utf-8", "surrogatepass")))
        except UnicodeEncodeError:
            continue
    return marisa_trie.BytesTrie(items)


class Lexicon:
    """A loaded lexicon: membership (tile keys), prefixes, and readings for `explain`.

    Nothing is mapped from the lexicon directory: the tries and readings.bin are mapped from copies
    (unlinked private files, or `shared` sealed ones), the move graph's search layout made from a
    mapped private copy of the move graph (or mapped from `shared`), the tables read into memory, so a
    lexicon file
    truncated or overwritten in place under a running server changes nothing. Every file's
    checksum is of the bytes actually used. `check_structure` also walks the tries in a child
    process first (the server does; see `check_trie_structure`), but for those in `checked_tries`."""

    def __init__(self, path: str | os.PathLike, *, verify: bool = True, check_structure: bool = False,
                 shared: SharedFiles | None = None, with_leaves: bool = True,
                 with_win_table: bool = True, checked_tries: CheckedTries | None = None) -> None:
        self.path = Path(path)
        self._disk_state = disk_state(self.path)  # before anything is read: a change during the load shows
        self.manifest = read_manifest(self.path)
        check_manifest(self.path, self.manifest)
        files = listed_files(self.path, self.manifest)
        self.name: str = self.manifest.get("name") or self.path.stem
        self._generator = generator_of(self.manifest)
        self._file = None
        self._mm = None
        tables = read_checked(self.path / TABLES, files[TABLES], verify)
        copies = []
        try:
            for name in SHARED_FILES:
                copies.append(held_or_private_copy(self.path / name, files[name], verify, shared))
        except BaseException:
            for copy, _, _ in copies:
                copy.close()
            raise
        (forms, _, forms_sha), (heads, _, heads_sha), (self._file, size, _) = copies
        try:
            if check_structure:
                check_trie_structure({str(self.path / FORMS): (forms, forms_sha),
                                      str(self.path / HEADWORDS): (heads, heads_sha)}, checked_tries)
            self._forms = map_trie(self.path / FORMS, forms)
            self._heads = map_trie(self.path / HEADWORDS, heads)
        except BaseException:
            self._file.close()
            raise
        finally:
            forms.close()  # the mappings keep the (unlinked) copies alive
            heads.close()
        try:
            self._tags, self._rules, self._tagsets, models = parse_tables(self.path / TABLES, tables)
            self._models = _models_trie(models)
            n = len(self._forms)
            if n != self.manifest["counts"]["forms"]:
                raise LexiconCorruptError(f"{self.path}: trie holds {n} forms, manifest says "
                                          f"{self.manifest['counts']['forms']}")
            check_readings_size(self.path / READINGS, size, n)
            self._mm = mmap.mmap(self._file.fileno(), 0, access=mmap.ACCESS_READ)
            self._mv = memoryview(self._mm)
            self._offsets, self._records = unpack_readings(self.path / READINGS, self._mv, n)
            self._rule_set = None
            try:
                self.rule_set  # noqa: B018 - parsed now, so a bad rule set is refused at load
            except ValueError as exc:
                raise LexiconFormatError(f"{self.path}: the manifest's rule set is not valid: {exc}") from None
        except BaseException:
            self._file.close()
            raise
        # the move graph (movegen/graph.py) as move generation reads it (graph.search_layout), when the
        # lexicon has one; only this form is kept (`move_graph` gives the arcs back)
        self.search_graph = None
        graph = move_graph_name(files)
        if graph is not None:
            self.search_graph = self._load_move_graph(graph, files[graph], verify, shared)
        self.leaves = None  # the leave table (movegen/leaves.py), when the lexicon has one
        if LEAVES in files and with_leaves:
            self.leaves = self._load_optional(LEAVES, files[LEAVES], verify, parse_leave_table)
        self.win_table = None  # the win-probability table (movegen/winprob.py), when the lexicon has one
        if WIN_TABLE in files and with_win_table:
            self.win_table = self._load_optional(WIN_TABLE, files[WIN_TABLE], verify, parse_win_table)
        # the forms the build refused by a named rule (lexicon_format: refused.tsv), mapped from a
        # private copy: a lookup touches a few pages
        self._refusals_file = self._refusals = None
        if REFUSALS in files:
            try:
                self._refusals_file, size, _ = private_copy(self.path / REFUSALS, files[REFUSALS], verify)
                self._refusals = mmap.mmap(self._refusals_file.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
            except BaseException:
                self.close()
                raise
        # Fast bound membership test (the hot path of the rules engine).
        self.is_admissible = self._forms.__contains__

    @property
    def has_move_graph(self) -> bool:
        return self.search_graph is not None

    @property
    def move_graph(self) -> bytes | None:
        """The move graph's arc array (movegen/graph.py), None without one; made anew from
        `search_graph` on each call (0.15 s for pl-scrabble: for the KWG export, not for a request)."""
        if self.search_graph is None:
            return None

        return arcs_of_layout(self.search_graph)

    def _load_optional(self, name: str, want: dict, verify: bool, parse):
        """parse(path, bytes, rule set) of the optional file `name` (checked against `want`); the lexicon
        is closed when it is refused."""
        p = self.path / name
        try:
            return parse(p, read_checked(p, want, verify), self.rule_set)
        except BaseException:
            self.close()
            raise

    def _load_move_graph(self, name: str, want: dict, verify: bool, shared: SharedFiles | None):
        """The search layout: a read-only mapping of the sealed layout `shared` holds (made once by the
        process that starts the server processes, from the same bytes and rule set, and checked as
        here), else made here from a mapped private copy of the file `name` (its bytes never on the heap)."""
        p = self.path / name
        try:
            held = shared.open_search_layout(search_layout_key(want, self.manifest)) if shared is not None else None
            if held is not None:
                with held[0] as layout:  # the mapping keeps the sealed copy alive
                    if held[1] > 0:
                        return memoryview(mmap.mmap(layout.fileno(), 0, access=mmap.ACCESS_READ))
            copy, size, _ = private_copy(p, want, verify)
            with copy:  # the mapping keeps the copy alive until the layout is made
                data = mmap.mmap(copy.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
            return parse_search_graph(p, memoryview(data), self.rule_set)
        except BaseException:
            self.close()
            raise

    def unchanged_on_disk(self) -> bool:
        """True while the lexicon's directory and files are those it was loaded from (same inodes,
        sizes and modification times): a reload may keep this lexicon instead of loading it again."""
        return self._disk_state is not None and disk_state(self.path) == self._disk_state

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
        first, last = self._offsets[kid], self._offsets[kid + 1]
        if not first <= last <= len(self._records):
            raise LexiconCorruptError(f"{self.path / READINGS}: offsets of form {kid} out of range")
        n_heads, n_tagsets = len(self._heads), len(self._tagsets)
        for i in range(first, last):
            rec = self._records[i]
            head_id, tagset_id = record_fields(rec)
            if head_id >= n_heads or tagset_id >= n_tagsets:
                raise LexiconCorruptError(f"{self.path / READINGS}: reading {i} refers to a headword "
                                          "or tag set that does not exist")
            head = self._heads.restore_key(head_id)
            found = self._models.get(head)
            model = found[0].decode("utf-8", "surrogatepass") if found else ""
            for tag_id, rule_id in self._tagsets[tagset_id]:
                tag = self._tags[tag_id]
                rule = self._rules[rule_id]
                # a headword may have SGJP readings beside guessed ones (a homograph)
                guessed = model if model and "GUESSED" in tag.split(";") else ""
                if rule.startswith("guessed:"):     # Czech lexicons built before the models table
                    rule, guessed = "guessed", guessed or rule[8:]
                out.append(Reading(form, head, tag, rule, guessed, origin_of(tag, rule, guessed, self._generator)))
        return out

    def refusals(self, key: str) -> list[tuple[str, str, str]]:
        """(profile rule, headword, detail) of each reading the build refused this tile key by a named rule
        (detail: how the headword got the refused tag, e.g. the place name of a place-name adjective; "" if
        the build said nothing),
        when no reading admitted it; [] for a form the build never met, or a lexicon built before
        refused.tsv existed."""
        if not self._refusals:
            return []
        return find_refusals(self._refusals, key)

    def close(self) -> None:
        self.is_admissible = lambda key: False
        refusals, self._refusals = getattr(self, "_refusals", None), None
        if isinstance(refusals, mmap.mmap):
            refusals.close()
        if getattr(self, "_refusals_file", None) is not None:
            self._refusals_file.close()
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
        if self._file is not None:
            self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self) -> str:
        return f"<Lexicon {self.name!r}: {len(self)} forms from {self.path}>"


def disk_state(path: Path):
    """(inode, size, modification time) of a lexicon directory and of each entry in it, sorted by name;
    None when it cannot be read."""
    try:
        entries = [(".", os.stat(path))]
        with os.scandir(path) as it:
            entries += [(entry.name, entry.stat(follow_symlinks=True)) for entry in it]
    except OSError:
        return None
    return tuple(sorted((name, st.st_ino, st.st_size, st.st_mtime_ns) for name, st in entries))


def load_lexicon(path: str | os.PathLike, *, verify: bool = True, check_structure: bool = False,
                 shared: SharedFiles | None = None, with_leaves: bool = True,
                 with_win_table: bool = True, checked_tries: CheckedTries | None = None) -> Lexicon:
    """Load a lexicon directory; refuses unknown formats/versions and corrupt or truncated files.
    `check_structure`: also walk the tries in a child process (see `check_trie_structure`), but for those
    in `checked_tries` (which gets the ones that pass).
    `shared`: sealed copies to map instead of private ones, for files with their sha256s.
    `with_leaves`: False leaves the leave table out (unread, unchecked: `lexicon-build --leaves` replaces it);
    `with_win_table` the same for the win-probability table (`lexicon-build --win-table`)."""
    return Lexicon(path, verify=verify, check_structure=check_structure, shared=shared, with_leaves=with_leaves,
                   with_win_table=with_win_table, checked_tries=checked_tries)


def resolve_lexicon_path(name_or_path: str, lexicons_dir: str | os.PathLike = "lexicons") -> Path:
    """A lexicon given as a path (``lexicons/pl-scrabble.lex``) or a name (``pl-scrabble``,
    looked up as ``<lexicons_dir>/<name>.lex``)."""
    p = Path(name_or_path)
    candidate = Path(lexicons_dir) / f"{name_or_path}.lex"
    # a bare name is the lexicon of that name, even beside a file or directory so named here
    if "/" not in name_or_path and os.sep not in name_or_path and p.suffix != ".lex" and candidate.exists():
        return candidate
    if p.exists():
        return p
    if candidate.exists():
        return candidate
    return p
