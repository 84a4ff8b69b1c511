"""The fast word -> tile key path (used by TileSet.key_of_text and the server's batches) agrees with
spelling tile by tile (TileSet.key(TileSet.spell(word))) wherever it answers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexicon_service.rules import list_rule_sets, load_rule_set
from lexicon_service.fastkey import FastKeyer
from lexicon_service.tiles import UnknownLetterError

RULE_SETS = list_rule_sets()


def slow_key(tile_set, word):
    try:
        return tile_set.key(tile_set.spell(word))
    except UnknownLetterError:
        return None


def characters(rule_set_id):
    ts = load_rule_set(rule_set_id).tile_set
    letters = "".join(ts.alphabet)
    extra = "xqwvßİıſKÅǅ\u030c\u0301 -'[]?*"  # foreign letters, odd case mappings, combining marks, punctuation
    return st.text(alphabet=st.sampled_from(sorted(set(letters + letters.lower() + extra))), max_size=12)


@pytest.mark.parametrize("rule_set_id", RULE_SETS)
def test_fast_key_equals_key_of_text(rule_set_id):
    ts = load_rule_set(rule_set_id).tile_set
    fast = FastKeyer(ts)

    @settings(max_examples=400, deadline=None)
    @given(characters(rule_set_id))
    def check(word):
        key = fast.key(word)
        if key is not None:
            assert key == slow_key(ts, word), word

    check()


def test_known_cases():
    kk = FastKeyer(load_rule_set("cs-kriskros").tile_set)
    assert kk.key("chata") == "\ue000ata" and kk.key("CHATA") == "\ue000ata"
    assert kk.key("[CH]ata") is None  # brackets: the slow path
    assert kk.key("quiz") is None  # Q has no Kris Kros tile
    sc = FastKeyer(load_rule_set("cs-scrabble").tile_set)
    assert sc.key("chata") == "chata"
    assert sc.key("R\u030cEKA") == "řeka"  # decomposed Ř is normalised
    pl = FastKeyer(load_rule_set("pl-scrabble").tile_set)
    assert pl.key("ŻÓŁW") == "żółw" and pl.key("kotx") is None


@pytest.mark.parametrize("rule_set_id", RULE_SETS)
def test_batch_keys_equal_word_by_word_keys(rule_set_id):
    ts = load_rule_set(rule_set_id).tile_set
    fast = FastKeyer(ts)

    @settings(max_examples=300, deadline=None)
    @given(st.lists(characters(rule_set_id).filter(bool), min_size=1, max_size=6))
    def check(words):
        one_by_one = [fast.key(w) for w in words]
        batch = fast.keys(words)
        if None in one_by_one:
            assert batch is None, words
        else:
            assert batch == one_by_one, words

    check()
    assert fast.keys(["kot", "ko\nt"]) is None  # a newline inside a word: never on the batch path


@pytest.mark.parametrize("rule_set_id", RULE_SETS)
def test_key_of_text_equals_spelling(rule_set_id):
    """key_of_text (fast path first) gives the spelled key or raises as spelling does."""
    ts = load_rule_set(rule_set_id).tile_set

    @settings(max_examples=300, deadline=None)
    @given(characters(rule_set_id))
    def check(word):
        try:
            expected = ts.key(ts.spell(word))
        except UnknownLetterError:
            with pytest.raises(UnknownLetterError):
                ts.key_of_text(word)
            return
        assert ts.key_of_text(word) == expected, word

    check()
