"""Build tools: source word lists -> admissible forms -> compiled marisa-trie lexicons.

Pipeline (one module per stage, plain functions): sources (parse) -> expand (per language) ->
profile filter (admissibility) -> compile -> save. The runtime (`lexicon_service`) never imports this.
"""
