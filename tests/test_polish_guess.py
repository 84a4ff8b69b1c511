"""Polish inflection by analogy (build_tools/guess_pl.py) for a headword-list entry SGJP lacks."""

import pytest

pytest.importorskip("morfeusz2")

from build_tools.guess_pl import Models, guess  # noqa: E402


def parts(results):
    """The paradigm parts (SGJP tag's first field) of guessed results."""
    return {tag.split(":", 1)[0] for _form, _lemma, tag, *_ in results}


def test_prefixed_verb_models():
    models = Models(["muskać", "wymuskać", "zalepiać", "pozalepiać"])
    assert models.prefixed_verb("wymuskać") and models.prefixed_verb("pozalepiać")
    assert not models.prefixed_verb("muskać") and not models.prefixed_verb("łuskać")
    assert not models.prefixed_verb("wyć")        # the known verb must keep 3 letters


def test_unprefixed_verb_follows_unprefixed_models():
    # łuskać shares -uskać with both; the prefixed wymuskać is perfective (-wszy, no -ąc)
    model, results = guess("łuskać", Models(["muskać", "wymuskać"]))
    assert model == "muskać"
    forms = {r[0] for r in results}
    assert {"łuskając", "łuskający"} <= forms and "łuskawszy" not in forms


def test_prefixed_verb_follows_prefixed_models():
    # pozagłuszać is po- + a known verb: perfective like pozalepiać, not like zalepiać
    model, results = guess("pozagłuszać", Models(["zagłuszać", "zalepiać", "pozalepiać"]))
    assert model == "pozalepiać"
    assert "pact" not in parts(results) and "pant" in parts(results)


def test_model_derived_from_the_word_by_a_prefix():
    # nieobecny shares all of obecny, but takes no nie- and is no model while another is near
    model, results = guess("obecny", Models(["nieobecny", "zbędny"]))
    assert model == "zbędny"
    assert {"obecna", "obecniejszy"} <= {r[0] for r in results}
    # the one model there is still serves
    assert guess("obecny", Models(["nieobecny"]))[0] == "nieobecny"
    # a compound noun inflects like the word: półdyplom for dyplom
    assert guess("dyplom", Models(["półdyplom", "szalom"]))[0] == "półdyplom"


def test_parts_most_nearest_models_have_are_added():
    from build_tools.guess_pl import _with_majority_parts

    def item(tag, add):
        return ("", 1, add, tag, (), (), ())

    praet = item("praet:sg:m1.m2.m3:imperf", "ł")
    ppas_a = item("ppas:sg:nom:m1.m2.m3:imperf:aff", "ny")
    ppas_b = item("ppas:sg:nom:m1.m2.m3:imperf:aff", "ty")
    pact = item("pact:sg:nom:m1.m2.m3:imperf:aff", "jący")
    winner = (praet,)
    voters = [winner, (praet, ppas_a), (praet, ppas_b, pact)]
    # ppas: 2 of 3 voters, taken from the nearest one; pact: 1 of 3, left out
    assert _with_majority_parts(winner, voters) == (praet, ppas_a)
    assert _with_majority_parts(winner, voters[:2]) == (praet, ppas_a)     # half is enough
    assert _with_majority_parts(winner, [winner, winner, voters[2]]) == winner
