"""Admissibility profiles: which word forms a game variant admits, as data.

A profile is a text file ``build_tools/profiles/<name>.profile``::

    # comments start with '#'
    [profile]
    name = pl                   # the profile's id (must match the file name)
    language = pl               # the language whose expander produces the forms
    min-length = 2              # in tiles (Kris Kros CH counts as one)
    max-length = 15
    letters = aąbcćdeęfghijklłmnńoóprsśtuwyzźż   # lowercase letters a form may contain

    [rules]
    # ACTION  NAME              CONDITION      (first matching rule wins)
    deny      proper-name       PROPN
    allow     noun-nominative   N NOM SG|PL
    deny      no-rule-admits    *

Rules are tried in order, first match wins. A CONDITION is a list of terms that must all hold:
``FEAT`` (the reading has this feature), ``!FEAT`` (it has not), ``A|B`` (it has A or B),
``*`` (always). Features are those of ``build_tools/tags.py``; an unknown feature is an error
naming the file and line. A form's tag may be syncretic (``gen.acc``); it is spelled out into
readings (``tags.readings_of``) and the form is admitted when some reading's first matching rule
is an ``allow`` rule; that rule's name is recorded and shown by ``lexicon-service explain``.
When no reading is admitted, the reason is the name of the first matching ``deny`` rule (of the
first reading), or ``no-rule`` when nothing matched.

Length and letters are checked on the form before the rules: reasons ``too-short``,
``too-long``, ``letter-not-in-profile`` (and ``non-letter`` for hyphens, apostrophes, digits,
spaces).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from build_tools.tags import FEATURES, ALIASES, readings_of

PROFILE_DIR = Path(__file__).with_name("profiles")


class ProfileError(ValueError):
    """A profile file that cannot be read; the message names the file and line."""


@dataclass(frozen=True)
class Rule:
    """One allow/deny rule of a profile."""

    action: str                                   # "allow" or "deny"
    name: str                                     # shown by `explain`, used as a rejection reason
    terms: tuple[tuple[frozenset[str], bool], ...]  # (any-of features, negated)
    line: int = 0
    text: str = ""

    def matches(self, reading: frozenset[str]) -> bool:
        for alts, negated in self.terms:
            hit = not alts.isdisjoint(reading)
            if hit == negated:
                return False
        return True


@dataclass
class Profile:
    """An admissibility profile: length limits, letters and ordered allow/deny rules."""

    name: str
    language: str = ""
    min_length: int = 2
    max_length: int = 15
    letters: frozenset[str] | None = None
    rules: tuple[Rule, ...] = ()
    source_text: str = ""
    origin: str = ""
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def refusal_rules(self) -> frozenset[str]:
        """The deny rules with a condition (not a catch-all ``*``): the forms they refuse are kept in
        the lexicon's refused.tsv, so that `explain` can name the rule."""
        return frozenset(r.name for r in self.rules if r.action == "deny" and r.terms)

    def check_form(self, form: str, length: int | None = None) -> str | None:
        """Reason why the form's spelling is not admissible, or None. `length` in tiles."""
        if not form.isalpha():
            return "non-letter"
        if self.letters is not None and not self.letters.issuperset(form):
            return "letter-not-in-profile"
        n = len(form) if length is None else length
        if n < self.min_length:
            return "too-short"
        if n > self.max_length:
            return "too-long"
        return None

    def admit_tag(self, tag: frozenset[str]) -> tuple[bool, str]:
        """(admitted, rule name) for a tag; cached, as tags repeat a lot."""
        hit = self._cache.get(tag)
        if hit is None:
            hit = self._admit(tag)
            self._cache[tag] = hit
        return hit

    def _admit(self, tag: frozenset[str]) -> tuple[bool, str]:
        first_deny = None
        for reading in readings_of(tag):
            for rule in self.rules:
                if rule.matches(reading):
                    if rule.action == "allow":
                        return True, rule.name
                    if first_deny is None:
                        first_deny = rule.name
                    break
        return False, first_deny or "no-rule"

    def features_used(self) -> list[str]:
        return sorted({f for r in self.rules for alts, _ in r.terms for f in alts})


_KEYS = {"name", "language", "min-length", "max-length", "letters", "description"}


def parse_profile(text: str, origin: str = "<profile>") -> Profile:
    """Parse profile text; ProfileError names origin:line for every problem."""
    section = None
    values: dict[str, str] = {}
    rules: list[Rule] = []
    names: set[str] = set()
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"{origin}:{lineno}"
        m = re.fullmatch(r"\[([a-z-]+)\]", line)
        if m:
            section = m.group(1)
            if section not in ("profile", "rules"):
                raise ProfileError(f"{where}: unknown section [{section}] (expected [profile] or [rules])")
            continue
        if section == "profile":
            key, sep, value = line.partition("=")
            key, value = key.strip(), value.strip()
            if not sep or key not in _KEYS:
                raise ProfileError(f"{where}: expected one of {', '.join(sorted(_KEYS))} = value, got {raw.strip()!r}")
            values[key] = value
        elif section == "rules":
            words = line.split()
            if len(words) < 3 or words[0] not in ("allow", "deny"):
                raise ProfileError(f"{where}: expected 'allow|deny NAME CONDITION', got {raw.strip()!r}")
            action, name, cond = words[0], words[1], words[2:]
            if name in names:
                raise ProfileError(f"{where}: rule name {name!r} used twice")
            names.add(name)
            terms = []
            for term in cond:
                if term == "*":
                    continue
                negated = term.startswith("!")
                alts = []
                for f in term.lstrip("!").split("|"):
                    f = ALIASES.get(f, f)
                    if f not in FEATURES:
                        raise ProfileError(f"{where}: unknown feature {f!r} (see build_tools/tags.py)")
                    alts.append(f)
                terms.append((frozenset(alts), negated))
            rules.append(Rule(action, name, tuple(terms), lineno, line))
        else:
            raise ProfileError(f"{where}: text outside a section")
    if "name" not in values:
        raise ProfileError(f"{origin}: missing 'name =' in [profile]")
    try:
        min_len = int(values.get("min-length", "2"))
        max_len = int(values.get("max-length", "15"))
    except ValueError as exc:
        raise ProfileError(f"{origin}: min-length/max-length must be integers ({exc})") from None
    letters = values.get("letters")
    return Profile(
        name=values["name"], language=values.get("language", ""), min_length=min_len,
        max_length=max_len, letters=frozenset(letters.replace(" ", "")) if letters else None,
        rules=tuple(rules), source_text=text, origin=origin,
    )


def list_profiles() -> list[str]:
    return sorted(p.stem for p in PROFILE_DIR.glob("*.profile"))


@lru_cache(maxsize=None)
def _shipped(name: str) -> Profile:
    path = PROFILE_DIR / f"{name}.profile"
    return parse_profile(path.read_text(encoding="utf-8"), origin=str(path))


def load_profile(name_or_path: str) -> Profile:
    """A profile by name (``pl``, ``cs-kriskros``) or by path to a .profile file. A bare name of a
    shipped profile is that profile, even beside a file or directory so named in the current directory."""
    p = Path(name_or_path)
    looks_like_path = p.suffix == ".profile" or "/" in name_or_path or os.sep in name_or_path
    if not looks_like_path and (PROFILE_DIR / f"{name_or_path}.profile").is_file():
        return _shipped(name_or_path)
    if looks_like_path or p.exists():
        if not p.is_file():
            raise ProfileError(f"profile file {name_or_path} " + ("is not a file" if p.exists() else "not found"))
        return parse_profile(p.read_text(encoding="utf-8"), origin=str(p))
    raise ProfileError(f"unknown profile {name_or_path!r}; known: {', '.join(list_profiles())}")
