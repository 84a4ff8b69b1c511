"""Comparatives of adjectives and adverbs by rule (data/comparatives.tsv): zelený -> zelenější,
pražský -> pražštější, dobrý -> lepší. The dictionary decides which candidates exist."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

SHORTEN = str.maketrans({"á": "a", "í": "i", "ú": "u", "ů": "o", "é": "e"})


@lru_cache(maxsize=1)
def comparative_rules():
    """([(positive ending, comparative ending)], {positive: suppletive comparative}) from
    data/comparatives.tsv."""
    text = resources.files(__package__).joinpath("data", "comparatives.tsv").read_text(encoding="utf-8")
    rules, supp = [], {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        a, b = line.split("\t")
        if a.startswith("="):
            supp[a[1:]] = b
        else:
            rules.append((a, b))
    return rules, supp


def comparative_candidates(positive: str) -> list[str]:
    """Candidate comparatives of a positive adjective (or adverb via its adjective), by the rules of
    data/comparatives.tsv; the dictionary decides which exist."""
    rules, supp = comparative_rules()
    if positive in supp:
        return [supp[positive]]
    out = []
    for a, b in rules:
        if positive.endswith(a):
            stem = positive[: len(positive) - len(a)]
            out.append(stem + b)
            short = stem.translate(SHORTEN)
            if short != stem:
                out.append(short + b)
    return out
