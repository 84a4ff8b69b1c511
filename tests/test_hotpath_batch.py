"""A batch of word checks in one C call over the move graph (core/words.py WordChecker.statuses,
movegen/graph.py lookup_keys): the same statuses as the word-by-word check, with or without a graph."""

from __future__ import annotations

import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexicon_service.core import words
from lexicon_service.lexicon import load_lexicon
from lexicon_service.movegen import _core
from lexicon_service.movegen.graph import key_table, lookup_keys
from movegen_helpers import without_move_graph
from test_service import WORDS, write_lexicon

RULE_SETS = {"pl-scrabble": "pl-scrabble", "cs-kriskros": "cs-kriskros"}


@pytest.fixture(scope="module")
def lexicons(tmp_path_factory):
    """rule set -> (lexicon with a move graph, the same lexicon without one)."""
    directory = tmp_path_factory.mktemp("hotpath-batch")
    loaded = {}
    for rule_set in RULE_SETS:
        with_graph = write_lexicon(directory, rule_set, rule_set, WORDS[rule_set])
        bare = directory / f"{rule_set}-bare.lex"
        shutil.copytree(with_graph, bare)
        loaded[rule_set] = (load_lexicon(with_graph), load_lexicon(without_move_graph(bare)))
    yield loaded
    for pair in loaded.values():
        for lexicon in pair:
            lexicon.close()


def word_lists(rule_set):
    known = WORDS[rule_set]
    pieces = st.sampled_from(known + [w.upper() for w in known] + [w[:-1] for w in known] + [w + w for w in known])
    odd = st.text(alphabet=st.sampled_from(sorted(set("".join(known)) | set("xßİſ\u0301 -[]?CH"))), min_size=1,
                  max_size=20)
    return st.lists(st.one_of(pieces, odd).filter(bool), min_size=1, max_size=8)


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_batch_statuses_equal_word_by_word(lexicons, rule_set):
    with_graph, bare = lexicons[rule_set]
    assert with_graph.has_move_graph and not bare.has_move_graph
    checkers = words.WordChecker(with_graph), words.WordChecker(bare)

    @settings(max_examples=300, deadline=None)
    @given(word_lists(rule_set))
    def check(batch):
        one_by_one = bytes(checkers[0].check(w)[0] for w in batch)
        for checker in checkers:
            statuses = checker.statuses(batch)
            assert statuses is None or statuses == one_by_one, batch

    check()
    whole = WORDS[rule_set] + ["p" * 40, "popo", "a"]  # too long, not a word, too short
    assert checkers[0].statuses(whole) == checkers[1].statuses(whole) == bytes(checkers[0].check(w)[0] for w in whole)


def test_batch_statuses_are_one_lookup_of_the_move_graph(lexicons):
    """No trie lookup per word when the lexicon has a move graph."""
    checker = words.WordChecker(lexicons["pl-scrabble"][0])

    def per_word(key):
        raise AssertionError(f"trie looked up for {key!r}")

    checker.admissible = per_word
    assert checker.statuses(["kot", "KOTY", "kotu", "k", "żółw"]) == bytes(
        [words.VALID, words.VALID, words.INVALID, words.BAD_LENGTH, words.VALID])


def test_lookup_keys_takes_any_text(lexicons):
    lexicon = lexicons["pl-scrabble"][0]
    arcs, table = lexicon.search_graph, key_table(lexicon.rule_set.tile_set)
    assert lookup_keys(arcs, table, "kot\nkotu\n\nżółw", 2, 15) == bytes([1, 0, 2, 1])
    assert lookup_keys(arcs, table, "", 0, 15) == bytes([0])  # one empty word, held by no graph
    assert lookup_keys(arcs, table, "kot\nx", 2, 15) is None  # no tile: the caller goes word by word
    assert lookup_keys(arcs, table, "kot\n\U0010ffff", 1, 15) is None  # beyond the table
    assert lookup_keys(arcs, table, "k" * 16, 2, 15) == bytes([2])  # too long: not looked up
    assert lookup_keys(arcs, b"", "kot", 2, 15) is None
    for bad in (b"", b"\x00\x00\x00"):
        with pytest.raises(ValueError):
            _core.lookup_keys(bad, table, "kot", 2, 15)
    with pytest.raises(TypeError):
        _core.lookup_keys(arcs, table, b"kot", 2, 15)
