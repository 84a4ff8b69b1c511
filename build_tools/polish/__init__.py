"""Polish for ``lexicon-build``: SGJP through Morfeusz 2 (``sgjp.py``, the one place Morfeusz is set
up), a lemma's paradigm (``paradigms.py``), Hunspell as the second witness (``witness.py``),
inflection by analogy (``guess.py``) and its --models (``models.py``), the build's passes
(``passes.py``) and the language class the command runs (``language.py``)."""
