"""Dictionary lines without a paradigm flag (none, or only the negation flag N): the one home of
flagless lines. ``classify.py``: the ordered classifier rules every form of such a line goes
through; ``rules.py``: the rules that find its class (forms of other headwords, deadjectival
adverbs, imperatives, variants, the reviewed list data/flagless.tsv); ``nouns.py``: the nouns
whose every case form is a flagless line (dům/domu; data/unflagged.tsv)."""
