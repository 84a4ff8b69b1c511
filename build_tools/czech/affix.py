"""Hunspell affix file reader and stem expander (the subset cs_CZ.aff uses).

`AffixTable.expand(stem, flags)` yields `(form, chain)` pairs where `chain` names the rules that made the
form: a tuple of `Rule` objects (prefix and/or suffixes, outermost last). Taggers read the chain to know
which paradigm slot a form fills.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..hunspell import AffHeader, AffRule, aff_lines


@dataclass(frozen=True)
class Rule:
    kind: str          # "SFX" or "PFX"
    flag: str
    index: int         # position of the rule within its flag (0-based)
    strip: str
    add: str
    cont: str          # continuation flags of the added affix
    condition: str     # hunspell condition text

    def __str__(self) -> str:  # pragma: no cover - debugging aid
        return f"{self.kind} {self.flag}#{self.index} {self.strip or '0'}>{self.add or '0'} [{self.condition}]"


@dataclass
class AffixClass:
    kind: str
    flag: str
    cross: bool
    rules: list[Rule]
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
    def __init__(self, classes: dict[str, AffixClass]):
        self.classes = classes
        self.suffixes = {f: c for f, c in classes.items() if c.kind == "SFX"}
        self.prefixes = {f: c for f, c in classes.items() if c.kind == "PFX"}

    @classmethod
    def read(cls, path: str | Path) -> "AffixTable":
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
                c.rules.append(Rule(item.kind, item.flag, len(c.rules), item.strip, item.add, item.cont,
                                    item.condition))
                c.regexes.append(item.pattern)
        for c in classes.values():
            c.finish()
        return cls(classes)

    def _rules_for(self, c: AffixClass, word: str) -> tuple[Rule, ...]:
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

    def _apply_suffixes(self, word: str, flags: str):
        for f in flags:
            c = self.suffixes.get(f)
            if c is None:
                continue
            for rule in self._rules_for(c, word):
                base = word[: len(word) - len(rule.strip)] if rule.strip else word
                yield base + rule.add, rule

    def _apply_prefixes(self, word: str, flags: str, cross_only: bool):
        for f in flags:
            c = self.prefixes.get(f)
            if c is None or (cross_only and not c.cross):
                continue
            for rule, rx in zip(c.rules, c.regexes):
                if rule.strip and not word.startswith(rule.strip):
                    continue
                if not rx.search(word):
                    continue
                yield rule.add + word[len(rule.strip):], rule

    def _simple_prefixes(self, pflags: str):
        """(all rules, cross-product rules) of the prefix flags when every rule is unconditional and
        strips nothing; None otherwise."""
        cache = self.__dict__.setdefault("_simple_cache", {})
        hit = cache.get(pflags, False)
        if hit is False:
            rules = [r for f in pflags for r in self.prefixes[f].rules]
            if all(not r.strip and r.condition == "." for r in rules):
                hit = (tuple(rules), tuple(r for r in rules if self.prefixes[r.flag].cross))
            else:
                hit = None
            cache[pflags] = hit
        return hit

    def expand(self, stem: str, flags: str):
        """All forms of `stem` under `flags`: (form, chain of rules). The stem itself has chain ()."""
        out = [(stem, ())]
        for form, rule in self._apply_suffixes(stem, flags):
            out.append((form, (rule,)))
            if rule.cont:
                for form2, rule2 in self._apply_suffixes(form, rule.cont):
                    out.append((form2, (rule, rule2)))
        # prefixes: on the stem, and (cross product) on suffixed forms
        pflags = [f for f in flags if f in self.prefixes]
        if pflags:
            res = list(out)
            simple = self._simple_prefixes("".join(pflags))
            for form, chain in out:
                if chain and not all(self.suffixes[r.flag].cross for r in chain if r.kind == "SFX"):
                    continue
                if simple is not None:
                    # unconditional prefixes that strip nothing (ne-, nej-): no need to test conditions
                    for prule in (simple[1] if chain else simple[0]):
                        res.append((prule.add + form, (prule,) + chain))
                    continue
                for pform, prule in self._apply_prefixes(form, "".join(pflags), cross_only=bool(chain)):
                    res.append((pform, (prule,) + chain))
            # prefixes carried by a continuation (ejší/E): apply to forms whose last rule names them
            out = res
        extra = []
        for form, chain in out:
            if chain and chain[-1].kind == "SFX" and chain[-1].cont:
                pf = "".join(f for f in chain[-1].cont if f in self.prefixes)
                if pf:
                    for pform, prule in self._apply_prefixes(form, pf, cross_only=False):
                        extra.append((pform, (prule,) + chain))
        return out + extra

