"""Generating forms from a stem and its flags, over the affix model of data.py:

- ``expand_word`` (Polish; data.AffixFile): continuation flags on affixes as Hunspell applies
  them: a suffix's continuation suffixes give a second suffix (twofold suffixes; Hunspell allows
  no third), a continuation prefix flag on a suffix or a prefix (and a continuation suffix flag
  on a prefix) gives that combination, and a cross-product prefix also combines with
  twofold-suffixed forms. ``NEEDAFFIX``/``FORBIDDENWORD``/``ONLYINCOMPOUND``: the bare stem is not a
  word; on an affix's continuation flags (``SFX A 0 ab/X`` with ``NEEDAFFIX X``) the affixed form
  is only an intermediate and is not a word itself, its continuations are.
- ``expand_chains`` (the Czech engine; data.AffixTable): every form with the chain of rules that
  made it (prefix and/or suffixes, outermost last), which the taggers read to know the form's
  paradigm slot.
"""

from __future__ import annotations

from .data import AffixFile, AffixTable, AffRule

def expand_word(stem: str, flags: tuple[str, ...], aff: AffixFile) -> list[str]:
    """Every word form of a stem with these flags: the stem itself (unless NEEDAFFIX...),
    each suffix form (and twofold suffixes through continuation flags), each prefix form, and
    cross-product prefix+suffix forms. Duplicates are possible (callers dedupe)."""
    out: list[str] = []
    no_bare = aff.no_bare
    if not no_bare.intersection(flags):
        out.append(stem)
    suffixed: list[tuple[str, AffRule]] = []      # cross-product suffix forms, for the prefixes
    prefix_flags: list[str] = []
    for flag in flags:
        has_sfx, has_pfx = aff.kinds(flag)
        if has_sfx:
            for w, a in aff.suffix_forms(stem, flag):
                cont = a.cont_flags
                if not cont:
                    out.append(w)
                    if a.cross:
                        suffixed.append((w, a))
                    continue
                if not no_bare.intersection(cont):
                    out.append(w)
                if a.cross:
                    suffixed.append((w, a))
                for cflag in cont:             # twofold suffixes
                    if aff.kinds(cflag)[0]:
                        for w2, a2 in aff.suffix_forms(w, cflag):
                            if not no_bare.intersection(a2.cont_flags):
                                out.append(w2)
                            if a.cross and a2.cross:
                                suffixed.append((w2, a2))
                    if aff.kinds(cflag)[1]:    # a prefix allowed by this suffix
                        for w2, _p in aff.prefix_forms(w, cflag):
                            out.append(w2)
        if has_pfx:
            prefix_flags.append(flag)
    for flag in prefix_flags:
        on_stem = dict((id(p), w) for w, p in aff.prefix_forms(stem, flag))
        for p in aff.affixes[flag]:
            if p.kind != "PFX":
                continue
            w = on_stem.get(id(p))
            if w is not None and not (p.cont_flags and no_bare.intersection(p.cont_flags)):
                out.append(w)
            if p.cross:      # the prefix's condition is tested on the suffixed form
                for s, _a in suffixed:
                    w2 = p.apply(s)
                    if w2 is not None:
                        out.append(w2)
            if w is None:
                continue
            for cflag in p.cont_flags:
                has_sfx, has_pfx = aff.kinds(cflag)
                if has_sfx:                    # a suffix allowed by this prefix
                    for s, _a in aff.suffix_forms(stem, cflag):
                        w2 = p.apply(s)
                        if w2 is not None:
                            out.append(w2)
                if has_pfx:                    # twofold prefixes
                    for w2, _p in aff.prefix_forms(w, cflag):
                        out.append(w2)
    return out


def _apply_suffixes(table: AffixTable, word: str, flags: str):
    for f in flags:
        c = table.suffixes.get(f)
        if c is None:
            continue
        for rule in table.rules_for(c, word):
            base = word[: len(word) - len(rule.strip)] if rule.strip else word
            yield base + rule.add, rule


def _apply_prefixes(table: AffixTable, word: str, flags: str, cross_only: bool):
    for f in flags:
        c = table.prefixes.get(f)
        if c is None or (cross_only and not c.cross):
            continue
        for rule, rx in zip(c.rules, c.regexes):
            if rule.strip and not word.startswith(rule.strip):
                continue
            if not rx.search(word):
                continue
            yield rule.add + word[len(rule.strip):], rule


def _simple_prefixes(table: AffixTable, pflags: str):
    """(all rules, cross-product rules) of the prefix flags when every rule is unconditional and
    strips nothing; None otherwise (cached on the table)."""
    cache = table.__dict__.setdefault("_simple_cache", {})
    hit = cache.get(pflags, False)
    if hit is False:
        rules = [r for f in pflags for r in table.prefixes[f].rules]
        if all(not r.strip and r.condition == "." for r in rules):
            hit = (tuple(rules), tuple(r for r in rules if table.prefixes[r.flag].cross))
        else:
            hit = None
        cache[pflags] = hit
    return hit


def expand_chains(table: AffixTable, stem: str, flags: str) -> list[tuple[str, tuple[AffRule, ...]]]:
    """All forms of `stem` under `flags`: (form, chain of rules). The stem itself has chain ()."""
    out = [(stem, ())]
    for form, rule in _apply_suffixes(table, stem, flags):
        out.append((form, (rule,)))
        if rule.cont:
            for form2, rule2 in _apply_suffixes(table, form, rule.cont):
                out.append((form2, (rule, rule2)))
    # prefixes: on the stem, and (cross product) on suffixed forms
    pflags = [f for f in flags if f in table.prefixes]
    if pflags:
        res = list(out)
        simple = _simple_prefixes(table, "".join(pflags))
        for form, chain in out:
            if chain and not all(table.suffixes[r.flag].cross for r in chain if r.kind == "SFX"):
                continue
            if simple is not None:
                # unconditional prefixes that strip nothing (ne-, nej-): no need to test conditions
                for prule in (simple[1] if chain else simple[0]):
                    res.append((prule.add + form, (prule,) + chain))
                continue
            for pform, prule in _apply_prefixes(table, form, "".join(pflags), cross_only=bool(chain)):
                res.append((pform, (prule,) + chain))
        out = res
    # prefixes carried by a continuation (ejší/E): apply to forms whose last rule names them
    extra = []
    for form, chain in out:
        if chain and chain[-1].kind == "SFX" and chain[-1].cont:
            pf = "".join(f for f in chain[-1].cont if f in table.prefixes)
            if pf:
                for pform, prule in _apply_prefixes(table, form, pf, cross_only=False):
                    extra.append((pform, (prule,) + chain))
    return out + extra
