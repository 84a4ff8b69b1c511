"""The affix model of a Hunspell .aff, shared by both languages: one rule type, ``AffRule`` (a
PFX/SFX line as read.py parses it), and the two indexes the engines look rules up in:

- ``AffixFile`` (Polish; expand.expand_word): every rule of a flag, PFX and SFX, with ``NEEDAFFIX``
  and the ``FLAG`` type. For each flag, the rules whose condition, strip and position fit a word's
  last (first, for prefixes) ``_K`` letters are computed once per ending and cached; only
  conditions longer than that are checked with a regular expression. The result is the same as
  trying every rule of a flag on every stem (tests compare both; identical on all of pl_PL.dic),
  and faster (docs/measurements.md).
- ``AffixTable`` (the Czech paradigm engine; expand.expand_chains): one class per flag, rules
  numbered within it (taggers read a form's chain of rules to know its paradigm slot), cached by
  the word's ending (a condition looks at no more than ``span`` final letters).

A form the Czech engine generates comes with its chain of rules (``(form, (rule, ...))``, prefix
and/or suffixes, outermost last; () for the stem itself): the affixes that made it from the stem.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class AffRule:
    """``SFX A y ie/B [^aeiou]y``: kind, flag, its position among the flag's rules (0-based), strip
    ("" for 0), add ("" for 0), continuation flags as written and the condition ("." when absent).
    Compared and hashed by those; besides: ``pattern``, the condition as a regular expression
    anchored at the word's start (PFX) or end (SFX); ``cross``, whether it combines with the other
    kind (its header's Y/N); ``cont_flags``, the continuation flags split by the ``FLAG`` type;
    ``items``, the condition per position ((chars or None = any, negated), ...; None when only the
    regular expression can tell); ``lineno``, its line."""

    kind: str          # "PFX" or "SFX"
    flag: str
    index: int
    strip: str
    add: str
    cont: str
    condition: str
    pattern: re.Pattern = field(compare=False, repr=False)
    cross: bool = field(default=False, compare=False)
    cont_flags: tuple[str, ...] = field(default=(), compare=False)
    items: tuple | None = field(default=None, compare=False, repr=False)
    lineno: int = field(default=0, compare=False)

    def apply(self, word: str) -> str | None:
        if not self.pattern.search(word):
            return None
        if self.kind == "SFX":
            if self.strip and not word.endswith(self.strip):
                return None
            base = word[: len(word) - len(self.strip)] if self.strip else word
            return base + self.add
        if self.strip and not word.startswith(self.strip):
            return None
        return self.add + word[len(self.strip):]

    def __str__(self) -> str:  # pragma: no cover - debugging aid
        return f"{self.kind} {self.flag}#{self.index} {self.strip or '0'}>{self.add or '0'} [{self.condition}]"


FLAG_TYPES = {"long": "long", "num": "num", "UTF-8": "char"}     # FLAG value -> how flags are written


def split_flags(text: str, flag_type: str) -> tuple[str, ...]:
    """The flags of a flag string (a .dic entry's, a rule's continuation) for the FLAG type."""
    if not text:
        return ()
    if flag_type == "long":
        return tuple(text[i:i + 2] for i in range(0, len(text), 2))
    if flag_type == "num":
        return tuple(f.strip() for f in text.split(",") if f.strip())
    return tuple(text)


# --- Polish: every rule of a flag, looked up by the word's ending or beginning ----------------
@dataclass
class AffixFile:
    encoding: str = "utf-8"
    flag_type: str = "char"
    affixes: dict[str, list[AffRule]] = field(default_factory=dict)
    no_bare: set[str] = field(default_factory=set)   # NEEDAFFIX, FORBIDDENWORD, ONLYINCOMPOUND
    _sfx: dict = field(default_factory=dict, repr=False, compare=False)   # (flag, ending) -> fits
    _pfx: dict = field(default_factory=dict, repr=False, compare=False)   # (flag, beginning) -> fits
    _kinds: dict = field(default_factory=dict, repr=False, compare=False)  # flag -> (has SFX, has PFX)

    def kinds(self, flag: str) -> tuple[bool, bool]:
        k = self._kinds.get(flag)
        if k is None:
            affs = self.affixes.get(flag, ())
            k = self._kinds[flag] = (any(a.kind == "SFX" for a in affs),
                                     any(a.kind == "PFX" for a in affs))
        return k

    def suffix_forms(self, word: str, flag: str) -> list[tuple[str, AffRule]]:
        """[(form, affix)] for every suffix of ``flag`` that applies to ``word``, in file order."""
        end = word[-_K:]
        fits = self._sfx.get((flag, end))
        if fits is None:
            fits = self._sfx[(flag, end)] = _fits(self.affixes.get(flag, ()), "SFX", end)
        out = []
        n = len(word)
        for a, cut, add, full in fits:
            if full:
                w = a.apply(word)
                if w is not None:
                    out.append((w, a))
            else:
                out.append(((word[:n - cut] if cut else word) + add, a))
        return out

    def prefix_forms(self, word: str, flag: str) -> list[tuple[str, AffRule]]:
        """[(form, affix)] for every prefix of ``flag`` that applies to ``word``, in file order."""
        beg = word[:_K]
        fits = self._pfx.get((flag, beg))
        if fits is None:
            fits = self._pfx[(flag, beg)] = _fits(self.affixes.get(flag, ()), "PFX", beg)
        out = []
        for a, cut, add, full in fits:
            if full:
                w = a.apply(word)
                if w is not None:
                    out.append((w, a))
            else:
                out.append((add + word[cut:], a))
        return out

    def split_flags(self, text: str) -> tuple[str, ...]:
        return split_flags(text, self.flag_type)



_K = 3   # letters of a word's end (suffixes) or start (prefixes) that select its affixes


def _item_fits(item, ch: str) -> bool:
    chars, neg = item
    return chars is None or (ch in chars) != neg


def _fits(affixes, kind: str, part: str) -> tuple:
    """The affixes of one flag that may apply to a word whose last (SFX) or first (PFX) letters
    are ``part`` (the whole word if shorter than _K): ((affix, strip length, add, needs the full
    check), ...). Exact whenever the condition and strip are no longer than ``part``."""
    whole = len(part) < _K
    out = []
    for a in affixes:
        if a.kind != kind:
            continue
        items = a.items
        full = False
        if items is None:
            full = True
        else:
            if len(items) > len(part):
                if whole:
                    continue            # the word is shorter than the condition
                full = True
            n = min(len(items), len(part))
            if kind == "SFX":
                ok = all(_item_fits(items[-i], part[-i]) for i in range(1, n + 1))
            else:
                ok = all(_item_fits(items[i], part[i]) for i in range(n))
            if not ok:
                continue
        if a.strip:
            if len(a.strip) <= len(part):
                if not (part.endswith(a.strip) if kind == "SFX" else part.startswith(a.strip)):
                    continue
            elif whole:
                continue
            else:
                full = True
        out.append((a, len(a.strip), a.add, full))
    return tuple(out)



# --- Czech: one class per flag, rules numbered within it ---------------------------------------
@dataclass
class AffixClass:
    kind: str
    flag: str
    cross: bool
    rules: list[AffRule]
    # per rule: compiled condition regex
    regexes: list[re.Pattern]
    span: int = 1
    cache: dict = None

    def finish(self) -> None:
        self.span = max([_cond_len(r.condition) for r in self.rules] + [len(r.strip) for r in self.rules] + [1])
        self.cache = {}
        # rules by the last letter their condition accepts (None: any letter), to test fewer regexes
        by_last: dict = {}
        for i, r in enumerate(self.rules):
            for ch in _last_letters(r.condition, r.strip):
                by_last.setdefault(ch, []).append(i)
        anyl = by_last.pop(None, [])
        self.by_last = {ch: sorted(set(ix) | set(anyl)) for ch, ix in by_last.items()}
        self.by_last_any = anyl


def _last_letters(cond: str, strip: str):
    """Letters a word may end with for the condition to hold; [None] when it cannot be told."""
    if strip:
        return [strip[-1]]
    if cond == "." or not cond:
        return [None]
    if cond.endswith("]"):
        i = cond.rfind("[")
        body = cond[i + 1:-1]
        if body.startswith("^"):
            return [None]
        return list(body)
    return [cond[-1]]


def _cond_len(cond: str) -> int:
    """Number of letters a hunspell condition examines ([...] counts as one)."""
    return len(re.sub(r"\[[^\]]*\]", "x", cond)) if cond != "." else 0


class AffixTable:
    """The Czech engine's rules, one class per flag (read.read_affix_table)."""

    encoding = "utf-8"      # the Czech engine reads a .dic and its .aff as UTF-8, whatever SET says

    def __init__(self, classes: dict[str, AffixClass]):
        self.classes = classes
        self.suffixes = {f: c for f, c in classes.items() if c.kind == "SFX"}
        self.prefixes = {f: c for f, c in classes.items() if c.kind == "PFX"}

    def rules_for(self, c: AffixClass, word: str) -> tuple[AffRule, ...]:
        """Suffix rules of class `c` whose condition holds for `word` (cached by the word's ending:
        a condition looks at no more than `c.span` final letters)."""
        key = word[-c.span:] if len(word) > c.span else "^" + word
        hit = c.cache.get(key)
        if hit is None:
            rules, rxs = c.rules, c.regexes
            idx = c.by_last.get(word[-1:], c.by_last_any)
            hit = tuple(rules[i] for i in idx
                        if (not rules[i].strip or word.endswith(rules[i].strip)) and rxs[i].search(word))
            c.cache[key] = hit
        return hit

