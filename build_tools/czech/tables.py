"""Hand-written paradigm tables (data/irregular.paradigms) and closed-class words (data/closed_class.tsv)."""

from __future__ import annotations

import re
from collections import defaultdict
from functools import lru_cache
from importlib import resources

POS_FEATURES = {"V", "V.PTCP", "V.CVB", "V.MSDR", "N", "ADJ", "ADV", "PRO", "NUM", "ADP", "CONJ", "PART", "INTJ"}
NEGATABLE_POS = frozenset(("V", "V.PTCP", "V.CVB", "V.MSDR", "N"))
# verbal prefixes that combine with a "prefixable" paradigm (přijít, odejít, najít ...)
VERB_PREFIXES = ("při", "ode", "od", "ve", "vy", "na", "se", "ze", "za", "do", "po", "pro", "pře", "přede", "před",
                 "roze", "u", "obe", "nade", "pode", "vze", "v", "s", "z", "ob", "nad", "pod", "vz", "roz")
LPTCP = (("", ("MASC", "SG")), ("a", ("FEM", "SG")), ("a", ("NEUT", "PL")), ("o", ("NEUT", "SG")),
         ("i", ("MASC", "ANIM", "PL")), ("y", ("MASC", "INAN", "PL")), ("y", ("FEM", "PL")))
ADVERB_ENDINGS = re.compile(r"(sky|cky|zky|ckу|krát|kdy|kde|kam|koli|koliv|kudy|kdykoli)$")


def _read(name: str) -> str:
    return resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")


class Paradigms:
    def __init__(self, text: str):
        self.paradigms: dict[str, tuple[str, list[tuple[str, tuple[str, ...], bool]]]] = {}
        self.prefixable: set[str] = set()
        # (lemma, form) rows that take no automatic ne- form (NONEG: the conditional bych, jest, je
        # whose negation není is a row of its own)
        self.noneg: set[tuple[str, str]] = set()
        lemma = pos = None
        for line in text.splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            if line.startswith("@"):
                parts = line[1:].split()
                lemma, pos = parts[0], parts[1]
                self.paradigms[lemma] = (pos, [])
                if "prefixable" in parts[2:]:
                    self.prefixable.add(lemma)
                continue
            form, feats = line.split("\t", 1)
            keep = not form.startswith("!")
            form = form.lstrip("!")
            rows = self.paradigms[lemma][1]
            if "NONEG" in re.split(r"[;|\s]+", feats):
                self.noneg.add((lemma, form))
                feats = re.sub(r"\bNONEG\b;?", "", feats).replace(";|", "|").rstrip(";")
            if feats.strip() in ("*LPTCP", "*PASS"):
                kind = ("V.PTCP", "ACT", "PRF") if feats.strip() == "*LPTCP" else ("V.PTCP", "PASS")
                for end, r in LPTCP:
                    rows.append((form + end, tuple(sorted(kind + r)), keep))
                continue
            for alt in feats.split("|"):
                fs = tuple(f for f in alt.strip().split(";") if f)
                if not any(f in POS_FEATURES for f in fs):
                    fs = (pos,) + fs
                rows.append((form, tuple(sorted(set(fs))), keep))
        self.by_form: dict[str, list[tuple[str, tuple[str, ...]]]] = defaultdict(list)
        for lem, (_, rows) in self.paradigms.items():
            for form, tag, _keep in rows:
                self.by_form[form].append((lem, tag))

    def negatable(self, lemma: str, form: str, tag: tuple[str, ...]) -> bool:
        """Whether a row of a verb paradigm takes the automatic ne- form (as cs_CZ.dic's N flag gives
        regular verbs: infinitive, present, future, imperative, l-participle, transgressives, verbal
        noun) and nouns (nepřítel, nepřátelé: as the flag gives flagged nouns, neaktivita). Not: rows
        marked NONEG, explicit negated rows (není), conditionals, pronouns and numerals (svůj/N,
        jeden/N: nesvůj, nejeden are words of their own)."""
        if "NEG" in tag or "COND" in tag or not NEGATABLE_POS.intersection(tag):
            return False
        base = lemma
        if lemma not in self.paradigms:
            base = next((b for b in self.prefixable if lemma.endswith(b)), lemma)
            form = form[len(lemma) - len(base):] if base != lemma else form
        return (base, form) not in self.noneg

    def paradigm_for(self, lemma: str):
        if lemma in self.paradigms:
            pos, rows = self.paradigms[lemma]
            return f"table:{lemma}", [(f, t) for f, t, _ in rows]
        for base in self.prefixable:
            if lemma.endswith(base) and lemma[: -len(base)] in VERB_PREFIXES:
                pre = lemma[: -len(base)]
                return f"table:{base}", [(pre + f, t) for f, t, keep in self.paradigms[base][1] if keep]
        return None

    def readings_of(self, form: str):
        r = self.by_form.get(form)
        if r:
            return r
        for base in self.prefixable:
            for f, t, keep in self.paradigms[base][1]:
                if keep and form.endswith(f) and form[: -len(f)] in VERB_PREFIXES:
                    return [(form[: -len(f)] + base, t)]
        return []


@lru_cache(maxsize=1)
def paradigms() -> Paradigms:
    return Paradigms(_read("irregular.paradigms"))


@lru_cache(maxsize=1)
def _closed() -> dict[str, tuple[str, ...]]:
    out = {}
    for line in _read("closed_class.tsv").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        w, f = line.split("\t")
        out[w] = tuple(f.split(";"))
    return out


def paradigm_for(lemma: str):
    return paradigms().paradigm_for(lemma)


def readings_of(form: str):
    return paradigms().readings_of(form)


def negatable(lemma: str, form: str, tag: tuple[str, ...]) -> bool:
    return paradigms().negatable(lemma, form, tag)


def closed_class(word: str):
    return _closed().get(word)


def looks_like_adverb(word: str) -> bool:
    return bool(ADVERB_ENDINGS.search(word)) and len(word) > 3


@lru_cache(maxsize=1)
def _verb_links():
    rows = []
    for line in _read("verb_links.tsv").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        inf, inf_pref, fin, pref, *rest = line.split("\t")
        rows.append((inf, inf if inf_pref == "-" else inf_pref, fin, pref == "yes", rest[0] if rest else ""))
    return rows


def linked_infinitive(word: str) -> str | None:
    """The lemma when WORD is the infinitive of a verb_links.tsv verb, optionally after a verbal
    prefix, with -ct for -ci (říci, říct, vyříci, přeříct -> říci, vyříci, přeříci): cs_CZ.dic lists
    those infinitives as lines without a conjugation flag, beside the finite headword (řeknu/BN)."""
    forms = [word] + ([word[:-2] + "ci"] if word.endswith("ct") else [])
    for w in forms:
        for inf, inf_pref, _fin, prefixable, _future in _verb_links():
            if w == inf:
                return w
            if prefixable and w.endswith(inf_pref) and w[: -len(inf_pref)] in VERB_PREFIXES:
                return w
    return None


def _bookish_base(finite: str) -> str | None:
    """napíši -> napíšu: the bookish 1st person of the maže class links as its -u form."""
    if finite.endswith("i") and len(finite) > 2 and finite[-2] in "šžčř":
        return finite[:-1] + "u"
    return None


def infinitive_of(finite: str, known) -> str | None:
    """The infinitive of a finite headword of an irregular verb (napíšu -> napsat), or None."""
    links = verb_links_of(finite, known)
    return links[0][0] if links else None


def verb_links_of(finite: str, known) -> list[tuple[str, bool]]:
    """[(infinitive, future)] of a finite headword of an irregular verb: napíšu, napíši -> napsat;
    dojdu -> dojít; budu -> být (future; pobudu -> pobýt). po- + the present of a determinate motion
    verb is its future (ponesu, pojedu -> nést, jet: future=True) and, where the dictionary has the
    infinitive, also the present of the perfective po- verb (povedu -> vést future, povést present).
    `known`: the words of the dictionary (a container), asked whether the po- infinitive exists."""
    for word in (finite, _bookish_base(finite)):
        if word is None:
            continue
        for inf, inf_pref, fin, prefixable, future in _verb_links():
            if word == fin:
                return [(inf, future == "future")]
            if prefixable and word.endswith(fin):
                prefix = word[: -len(fin)]
                if prefix not in VERB_PREFIXES:
                    continue
                if future == "po-future" and prefix == "po":
                    out = [(inf, True)]
                    if prefix + inf_pref in known:
                        out.append((prefix + inf_pref, False))
                    return out
                return [(prefix + inf_pref, False)]
    return []
