"""Reading Hunspell files (the subset real dictionaries use), for both languages:

- ``SET`` picks the encoding of both files (pl_PL is ISO-8859-2, cs_CZ UTF-8); the .dic is
  decoded with it, and an undecodable line is reported with its line number, never dropped. The
  Czech engine reads both as UTF-8 whatever SET says (``read_affix_table``).
- ``FLAG`` types: single characters (default), ``long`` (two characters), ``num`` (comma-
  separated numbers), ``UTF-8``.
- ``PFX``/``SFX`` rules with strip, add, condition and cross product, each parsed once into an
  ``AffRule`` (data.py); ``NEEDAFFIX``/``FORBIDDENWORD``/``ONLYINCOMPOUND`` flags.

``aff_lines`` is the one parser of .aff lines; ``read_aff`` makes the Polish index of them,
``read_affix_table`` the Czech engine's, ``read_dic`` reads a .dic's lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from .data import FLAG_TYPES, AffixClass, AffixFile, AffixTable, AffRule, split_flags

_ENCODINGS = {"ISO8859-2": "iso-8859-2", "ISO-8859-2": "iso-8859-2", "UTF-8": "utf-8",
              "ISO8859-1": "iso-8859-1", "ISO8859-15": "iso-8859-15", "MICROSOFT-CP1250": "cp1250"}



def _parse_condition(cond: str) -> tuple | None:
    """A Hunspell condition as ((chars or None for '.', negated), ...); None when it uses
    anything else (then the regular expression decides)."""
    if cond in (".", ""):
        return ()
    items = []
    i = 0
    while i < len(cond):
        c = cond[i]
        if c == "[":
            j = cond.find("]", i + 1)
            if j < 0:
                return None
            body = cond[i + 1:j]
            neg = body.startswith("^")
            if neg:
                body = body[1:]
            if not body or "-" in body[1:-1] or "\\" in body or "[" in body:
                return None
            items.append((frozenset(body), neg))
            i = j + 1
        elif c == ".":
            items.append((None, False))
            i += 1
        elif c in "]^\\()*+?{}|$":
            return None
        else:
            items.append((frozenset(c), False))
            i += 1
    return tuple(items)



# Hunspell conditions are letters, '.' and [...] classes: no quantifier, group or alternation (both
# `aff_lines` refuses the rest: as a regular expression it could take exponential time)
NOT_A_CONDITION = re.compile(r"[()*+?{}|\\$]")


def _condition(cond: str, kind: str) -> re.Pattern:
    if cond in (".", ""):
        return re.compile("")
    return re.compile(("^" + cond) if kind == "PFX" else (cond + "$"))


@dataclass(frozen=True)
class AffHeader:
    """``SFX A Y 12``: the first line of a (kind, flag); cross: whether it combines with the other kind."""
    lineno: int
    kind: str          # "PFX" or "SFX"
    flag: str
    cross: bool




@dataclass(frozen=True)
class AffOption:
    """Another directive the readers use: ``FLAG long``, ``NEEDAFFIX X``..."""
    lineno: int
    key: str
    value: str



def aff_lines(text: str, path: str | Path) -> Iterator[AffHeader | AffRule | AffOption]:
    """The lines of an .aff file that the readers use, parsed; comment lines and the fields after a
    rule's condition are ignored. The first PFX/SFX line of a (kind, flag) is its header; the rules
    after it are numbered from 0 and carry its cross product flag; their continuation flags are split
    by the ``FLAG`` type declared before them. A PFX/SFX line that is neither header nor rule
    (short, no header before it, a condition that is not Hunspell's) raises ValueError naming
    ``path:line``, for both languages: a rule file read in part would give a lexicon missing
    forms, and (Czech) rules numbered out of place."""
    seen: dict[tuple[str, str], list] = {}      # (kind, flag) -> [cross, rules so far]
    flag_type = "char"
    for lineno, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        key = parts[0]
        if key in ("PFX", "SFX"):
            if len(parts) >= 3 and (key, parts[1]) not in seen and parts[2] in ("Y", "N"):
                seen[(key, parts[1])] = [parts[2] == "Y", 0]
                yield AffHeader(lineno, key, parts[1], parts[2] == "Y")
                continue
            if len(parts) < 4:
                raise ValueError(f"{path}:{lineno}: short {key} line")
            header = seen.get((key, parts[1]))
            if header is None:
                raise ValueError(f"{path}:{lineno}: {key} {parts[1]} has no header line ({key} flag Y|N count)")
            cond = parts[4] if len(parts) > 4 else "."
            if NOT_A_CONDITION.search(cond):   # a regular expression could take exponential time
                raise ValueError(f"{path}:{lineno}: bad condition {cond!r}: not a Hunspell condition "
                                 "(letters, '.', [...], [^...])")
            try:
                pattern = _condition(cond, key)
            except re.error as exc:
                raise ValueError(f"{path}:{lineno}: bad condition {cond!r}: {exc}") from None
            add, _, cont = parts[3].partition("/")
            index = header[1]
            header[1] += 1
            yield AffRule(key, parts[1], index, "" if parts[2] == "0" else parts[2], "" if add == "0" else add,
                          cont, cond, pattern, cross=header[0], cont_flags=split_flags(cont, flag_type),
                          items=_parse_condition(cond), lineno=lineno)
        elif len(parts) > 1:
            if key == "FLAG":
                flag_type = FLAG_TYPES.get(parts[1], "char")
            yield AffOption(lineno, key, parts[1])


def read_aff(path: str | Path) -> AffixFile:
    """Parse an .aff file into the Polish index (data.AffixFile). Encoding from its SET line (read
    as latin-1 first, then decoded)."""
    raw = Path(path).read_bytes()
    aff = AffixFile()
    m = re.search(rb"^SET\s+(\S+)", raw, re.M)
    if m:
        aff.encoding = _ENCODINGS.get(m.group(1).decode("ascii", "replace").upper(),
                                      m.group(1).decode("ascii", "replace"))
    text = raw.decode(aff.encoding, errors="replace")
    for item in aff_lines(text, path):
        if isinstance(item, AffOption):
            if item.key == "FLAG":
                aff.flag_type = FLAG_TYPES.get(item.value, "char")
            elif item.key in ("NEEDAFFIX", "FORBIDDENWORD", "ONLYINCOMPOUND"):
                aff.no_bare.add(item.value)
        elif isinstance(item, AffRule):
            aff.affixes.setdefault(item.flag, []).append(item)
    return aff


def read_affix_table(path: str | Path) -> AffixTable:
    """Parse an .aff file into the Czech engine's index (data.AffixTable), read as UTF-8."""
    text = Path(path).read_text(encoding="utf-8")
    classes: dict[str, AffixClass] = {}
    for item in aff_lines(text, path):
        if isinstance(item, AffHeader):
            if item.flag in classes:
                raise ValueError(f"{path}:{item.lineno}: flag {item.flag!r} is both PFX and SFX "
                                 "(the Czech engine keeps one class per flag)")
            classes[item.flag] = AffixClass(item.kind, item.flag, item.cross, [], [])
        elif isinstance(item, AffRule):
            c = classes[item.flag]
            c.rules.append(item)
            c.regexes.append(item.pattern)
    for c in classes.values():
        c.finish()
    return AffixTable(classes)


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
            if lineno == 1:
                line = line.removeprefix("\ufeff")
            if lineno == 1 and line.strip().isdecimal():
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
