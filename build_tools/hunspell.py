"""Hunspell .aff/.dic reading and affix expansion (the subset real dictionaries use).

- ``SET`` picks the encoding of both files (pl_PL is ISO-8859-2, cs_CZ UTF-8); the .dic is
  decoded with it, and an undecodable line is reported with its line number, never dropped.
- ``FLAG`` types: single characters (default), ``long`` (two characters), ``num`` (comma-
  separated numbers), ``UTF-8``.
- ``PFX``/``SFX`` rules with strip, add, condition and cross product; continuation flags on
  affixes (``add/flags``) are applied one level deep (suffix after suffix is not generated).
- ``NEEDAFFIX``/``FORBIDDENWORD``/``ONLYINCOMPOUND`` flags: the bare stem is not a word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator


@dataclass(frozen=True)
class Affix:
    kind: str          # "PFX" or "SFX"
    flag: str
    cross: bool
    strip: str
    add: str
    condition: re.Pattern
    cont: tuple[str, ...] = ()

    def apply(self, word: str) -> str | None:
        if not self.condition.search(word):
            return None
        if self.kind == "SFX":
            if self.strip and not word.endswith(self.strip):
                return None
            base = word[: len(word) - len(self.strip)] if self.strip else word
            return base + self.add
        if self.strip and not word.startswith(self.strip):
            return None
        return self.add + word[len(self.strip):]


@dataclass
class AffixFile:
    encoding: str = "utf-8"
    flag_type: str = "char"
    affixes: dict[str, list[Affix]] = field(default_factory=dict)
    no_bare: set[str] = field(default_factory=set)   # NEEDAFFIX, FORBIDDENWORD, ONLYINCOMPOUND
    problems: list[tuple[int, str]] = field(default_factory=list)

    def split_flags(self, text: str) -> tuple[str, ...]:
        if not text:
            return ()
        if self.flag_type == "long":
            return tuple(text[i:i + 2] for i in range(0, len(text), 2))
        if self.flag_type == "num":
            return tuple(f.strip() for f in text.split(",") if f.strip())
        return tuple(text)


_ENCODINGS = {"ISO8859-2": "iso-8859-2", "ISO-8859-2": "iso-8859-2", "UTF-8": "utf-8",
              "ISO8859-1": "iso-8859-1", "ISO8859-15": "iso-8859-15", "MICROSOFT-CP1250": "cp1250"}


def _condition(cond: str, kind: str) -> re.Pattern:
    if cond in (".", ""):
        return re.compile("")
    return re.compile(("^" + cond) if kind == "PFX" else (cond + "$"))


def read_aff(path: str | Path) -> AffixFile:
    """Parse an .aff file. Encoding from its SET line (read as latin-1 first, then decoded)."""
    raw = Path(path).read_bytes()
    aff = AffixFile()
    m = re.search(rb"^SET\s+(\S+)", raw, re.M)
    if m:
        aff.encoding = _ENCODINGS.get(m.group(1).decode("ascii", "replace").upper(),
                                      m.group(1).decode("ascii", "replace"))
    text = raw.decode(aff.encoding, errors="replace")
    headers: dict[tuple[str, str], bool] = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        key = parts[0]
        if key == "FLAG" and len(parts) > 1:
            aff.flag_type = {"long": "long", "num": "num", "UTF-8": "char"}.get(parts[1], "char")
        elif key in ("NEEDAFFIX", "FORBIDDENWORD", "ONLYINCOMPOUND") and len(parts) > 1:
            aff.no_bare.add(parts[1])
        elif key in ("PFX", "SFX"):
            if len(parts) == 4 and (key, parts[1]) not in headers and parts[2] in ("Y", "N"):
                headers[(key, parts[1])] = parts[2] == "Y"
                continue
            if len(parts) < 4:
                aff.problems.append((lineno, f"short {key} line"))
                continue
            flag = parts[1]
            strip = "" if parts[2] == "0" else parts[2]
            add, _, cont = parts[3].partition("/")
            add = "" if add == "0" else add
            cond = parts[4] if len(parts) > 4 else "."
            try:
                pattern = _condition(cond, key)
            except re.error as exc:
                aff.problems.append((lineno, f"bad condition {cond!r}: {exc}"))
                continue
            aff.affixes.setdefault(flag, []).append(Affix(
                key, flag, headers.get((key, flag), True), strip, add, pattern,
                aff.split_flags(cont)))
    return aff


def expand_word(stem: str, flags: tuple[str, ...], aff: AffixFile) -> list[str]:
    """Every word form of a stem with these flags: the stem itself (unless NEEDAFFIX...),
    each suffix and prefix form, and cross-product prefix+suffix forms."""
    out: list[str] = []
    if not aff.no_bare.intersection(flags):
        out.append(stem)
    suffixed: list[tuple[str, bool]] = []
    prefixes: list[Affix] = []
    for flag in flags:
        for affix in aff.affixes.get(flag, ()):
            if affix.kind == "SFX":
                w = affix.apply(stem)
                if w is not None:
                    suffixed.append((w, affix.cross))
                    out.append(w)
                    for cflag in affix.cont:       # one level of continuation
                        for a2 in aff.affixes.get(cflag, ()):
                            w2 = a2.apply(w)
                            if w2 is not None:
                                out.append(w2)
            else:
                prefixes.append(affix)
    for p in prefixes:
        w = p.apply(stem)
        if w is not None:
            out.append(w)
        if p.cross:
            for s, cross in suffixed:
                if cross:
                    w2 = p.apply(s)
                    if w2 is not None:
                        out.append(w2)
    return out


def read_dic(path: str | Path, aff: AffixFile) -> Iterator[tuple[int, str, str, str | None]]:
    """(line, stem, flags, problem) for every line of a .dic after the count line. A line that
    does not decode in the .aff's encoding gives problem='bad-encoding'."""
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            raw = raw.rstrip(b"\r\n")
            try:
                line = raw.decode(aff.encoding)
            except UnicodeDecodeError:
                yield lineno, raw.decode(aff.encoding, errors="replace"), "", "bad-encoding"
                continue
            if lineno == 1 and line.strip().isdigit():
                continue
            if not line.strip():
                continue
            # morphological fields after a tab/space are ignored
            word = line.split("\t", 1)[0].split(" ", 1)[0]
            stem, _, flags = word.partition("/")
            stem = stem.replace("\\/", "/")
            if not stem:
                yield lineno, line, "", "empty-stem"
                continue
            yield lineno, stem, flags, None


# --- parallel expansion + judging (Polish --hunspell: affix forms admitted as plain words) -----
_STATE: dict = {}


def _init_worker(aff: AffixFile, judge, rule: str, log: bool) -> None:
    from build_tools.expand_pl import _TAGSETS

    _STATE.update(aff=aff, judge=judge, rule=rule, log=log)
    _TAGSETS.clear()     # tag-set ids are per build and per process


def _judge_chunk(chunk):
    """Worker: [(stem, flags, source, line)] -> the same result shape as
    ``expand_pl._judge_chunk`` (lemma results, counts, examples, rejected forms, log lines,
    readings in, readings admitted)."""
    import os

    from build_tools.expand_pl import intern_tagset

    aff, judge, rule_name, log = _STATE["aff"], _STATE["judge"], _STATE["rule"], _STATE["log"]
    defs: list = []
    empty = frozenset()
    out, counts, examples, rejected, log_lines = [], {}, {}, set(), []
    n_in = n_ok = 0
    for stem, flags, source, line in chunk:
        where = f"{source}:{line}"
        local: dict[str, tuple] = {}
        for form in dict.fromkeys(expand_word(stem, aff.split_flags(flags or ""), aff)):
            n_in += 1
            key, rule = judge.judge(form, empty, rule_name)
            if key is None:
                counts[rule] = counts.get(rule, 0) + 1
                rejected.add(form)
                ex = examples.setdefault(rule, [])
                detail = f"stem {stem}" if stem != form else ""
                if len(ex) < 8:
                    ex.append(f"{form} ({where}{': ' + detail if detail else ''})")
                if log:
                    log_lines.append(f"{form}\t{rule}\t{where}\t{detail}\n")
                continue
            n_ok += 1
            local[key] = intern_tagset((("", rule),), defs)
        if local:
            out.append(("L", [(stem, list(local.items()))]))
    return out, counts, examples, rejected, log_lines, n_in, n_ok, (os.getpid(), defs)


def expand_judged(entries, aff: AffixFile, judge, *, rule: str = "hunspell-form",
                  workers: int = 1, log: bool = False, chunk: int = 2000):
    """Affix-expand HeadwordEntry stems and judge every form (fixed rule), in worker processes;
    yields chunk results in input order."""
    import multiprocessing as mp
    import os

    def chunks():
        buf = []
        for e in entries:
            buf.append((e.lemma, e.flags, e.source, e.line))
            if len(buf) >= chunk:
                yield buf
                buf = []
        if buf:
            yield buf

    if workers <= 1:
        _init_worker(aff, judge, rule, log)
        for c in chunks():
            yield _judge_chunk(c)
        return
    ctx = mp.get_context("fork") if hasattr(os, "fork") else mp.get_context()
    with ctx.Pool(workers, initializer=_init_worker, initargs=(aff, judge, rule, log)) as pool:
        yield from pool.imap(_judge_chunk, chunks(), chunksize=1)
