"""Polish inflection by analogy (build_tools/polish/guess.py) for a headword-list entry SGJP lacks."""

import pytest

pytest.importorskip("morfeusz2")

from build_tools.polish.guess import Models, guess  # noqa: E402


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
    model, results = guess("obecny", Models(["nieobecny", "mocny"]))
    assert model == "mocny"
    assert {"obecna", "obecniejszy"} <= {r[0] for r in results}
    # the one model there is still serves
    assert guess("obecny", Models(["nieobecny"]))[0] == "nieobecny"
    # a compound noun inflects like the word: półdyplom for dyplom
    assert guess("dyplom", Models(["półdyplom", "szalom"]))[0] == "półdyplom"


def test_parts_most_nearest_models_have_are_added():
    from build_tools.polish.guess import _with_majority_parts

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


def test_an_uncertain_guess_admits_the_headword_alone():
    # glandyk shares only -yk with patyk (fewer letters than SURE_SHARED): the citation form
    # alone, under the model's tag for it; glabutek shares -utek with smutek: the paradigm
    models = Models(["patyk", "smutek"])
    model, results = guess("glandyk", models)
    assert model == "patyk" and {r[0] for r in results} == {"glandyk"}
    assert results[0][2].startswith("subst:sg:nom:m")
    # an uncertain adverb or adjective takes no nie- either
    from build_tools.polish.paradigms import expand_lemma

    model, results = guess("żelazo", Models(["krewniaczo", "smutek"]))
    assert model == "krewniaczo" and {r[0] for r in results} == {"żelazo"}
    assert {f for f, *_ in expand_lemma("żelazo", results=results)[0]} == {"żelazo"}
    model, results = guess("glabutek", models)
    assert model == "smutek"
    assert {"glabutku", "glabutkiem", "glabutków"} <= {r[0] for r in results}


GLABUTEK = "glabutek glabutku glabutkiem glabutkowi glabutki glabutków glabutkom glabutkach".split()


def test_lemmas_by_analogy_of_words_sgjp_does_not_know():
    from tools.make_pl_headwords import guessed_lemmas_of_words, unknown_words

    models = ["smutek", "kot", "patyk"]
    words = GLABUTEK + ["kot", "glandyk", "ojojo"]
    assert unknown_words(words) == [w for w in words if w != "kot"]
    # one lemma explains the eight forms; glandyk is its own (uninflected) lemma; ojojo has
    # no model at all and is left out
    lemmas, stats = guessed_lemmas_of_words(words, models)
    assert lemmas == ["glabutek", "glandyk"]
    assert stats["words-explained"] == 9 and stats["lemmas-explaining-several"] == 1
    # a word of an inflected form only, its lemma not on the list: no lemma (glabutki is no
    # citation form any model makes)
    assert guessed_lemmas_of_words(["glabutki", "kot"], models)[0] == []
    # a paradigm whose forms of the list's lengths are mostly not on the list is not the word's
    lemmas, stats = guessed_lemmas_of_words(["glabutek", "kot"], models)
    assert lemmas == [] and stats["paradigm-off-list"] == 1
    assert guessed_lemmas_of_words(["glabutek", "glabutku", "glabutki", "kot"], models)[0] == ["glabutek"]
    # on a sparser list (half of it: SGJP's own lemmas have fewer of their forms there) the
    # test is relaxed in proportion
    assert guessed_lemmas_of_words(["glabutek", "kot"], models, density=0.3)[0] == ["glabutek"]
    # the words of Hunspell entries are left to the --hunspell pass
    assert guessed_lemmas_of_words(words, models, exclude=frozenset(GLABUTEK))[0] == ["glandyk"]


def test_list_density_is_the_share_of_sgjp_forms_on_the_list():
    from build_tools.polish.paradigms import expand_lemma
    from tools.make_pl_headwords import list_density

    kot = sorted({f for f, *_ in expand_lemma("kot")[0] if 3 <= len(f) <= 5})
    assert list_density(kot, ["kot"], sample=1) == 1.0
    half = ["kot", "kota", "kocie"]         # of the 3-5-letter forms
    assert set(half) < set(kot)
    assert list_density(half, ["kot"], sample=1) == pytest.approx(3 / len(kot))
    assert list_density(half, ["pies"], sample=1) == 1.0      # no lemma on the list: no evidence


def test_a_lemma_missing_from_a_partial_list_is_attested_by_its_forms():
    from tools.make_pl_headwords import attested_lemmas_of_words

    # aaronowy's citation form is not on the list, three of its forms are, and no other lemma
    # explains them; aktorzy is also a form of aktor, so it witnesses no verb aktorzyć
    words = ["aaronowa", "aaronowe", "aaronowej", "kot", "aktorzy", "aktor"]
    stats: dict = {}
    assert attested_lemmas_of_words(words, 1, density=0.5, stats=stats) == {"aaronowy", "kot", "aktor"}
    assert stats["lemmas-attested-by-forms"] == 1
    # on a complete list a missing citation form is evidence against the lemma
    assert attested_lemmas_of_words(words, 1, density=1.0) == {"kot", "aktor"}
    # one form of many is too few, even on a partial list
    assert attested_lemmas_of_words(["aaronowa", "kot"], 1, density=0.5) == {"kot"}


def test_on_a_partial_list_a_lemma_longer_than_its_words_is_attested_by_its_forms():
    from tools.make_pl_headwords import attested_lemmas_of_words

    # malować is longer than the list's words: a complete list could not hold it, so one form
    # attests it; a partial one says no more of it than of a short lemma it lacks, so its forms
    # of the list's lengths (maluj, maluje, malują, maluję) must meet FORM_SHARE x density
    assert attested_lemmas_of_words(["kot", "maluje"], 1, density=1.0) == {"kot", "malować"}
    stats: dict = {}
    assert attested_lemmas_of_words(["kot", "maluje"], 1, density=0.8, stats=stats) == {"kot"}
    assert stats["cited-lemmas"] == 1
    assert attested_lemmas_of_words(["kot", "maluje", "maluj"], 1, density=0.8) == {"kot", "malować"}


def test_citation_candidates_swap_the_ending_of_known_words():
    from tools.make_pl_headwords import citation_candidates

    got = citation_candidates(["glabutki", "glabutkiem", "glab"], ["smutki", "smutkiem", "kot"])
    assert got == {"glabutki": {"glabutek"}, "glabutkiem": {"glabutek"}, "glab": set()}


def test_a_lemma_by_analogy_need_not_be_a_word_of_a_partial_list():
    from tools.make_pl_headwords import guessed_lemmas_of_words

    models = ["smutek", "kot", "patyk"]
    words = ["glabutki", "glabutkiem", "glabutków", "smutki", "smutkiem", "kot"]
    lemmas, stats = guessed_lemmas_of_words(words, models, density=0.5)
    assert lemmas == ["glabutek"] and stats["lemmas-not-on-the-list"] == 1
    assert stats["words-explained"] == 3
    # on a complete list a lemma of the list's lengths that is not on it is none
    assert "glabutek" not in guessed_lemmas_of_words(words, models, density=1.0)[0]
    # a lemma no word of the list is must explain two of them
    assert guessed_lemmas_of_words(["glabutki", "smutki", "kot"], models, density=0.5)[0] == []


def test_a_word_of_a_partial_list_explaining_several_words_meets_the_derived_lemmas_bar():
    from tools.make_pl_headwords import guessed_lemmas_of_words

    models = ["matka", "kot"]
    # glabutka (like matka) has 7 forms of 3-8 letters, two on the list (share 0.29): as well
    # witnessed as a lemma that is no word of the list, so the same bar (DERIVED_SHARE x density
    # = 0.24), not GUESS_SHARE x density (0.44)
    assert guessed_lemmas_of_words(["glabutka", "glabutki", "kot"], models, density=0.6)[0] == ["glabutka"]
    # a word explaining only itself keeps GUESS_SHARE
    lemmas, stats = guessed_lemmas_of_words(["glabutka", "kot"], models, density=0.6)
    assert lemmas == [] and stats["paradigm-off-list"] == 1
    # on a complete list nothing changes: every candidate meets GUESS_SHARE
    assert guessed_lemmas_of_words(["glabutka", "glabutki", "kot"], models, density=0.95)[0] == []


def test_of_lemmas_by_analogy_explaining_as_many_words_the_paradigm_more_on_the_list_wins():
    from tools.make_pl_headwords import guessed_lemmas_of_words

    # glabutka and glabutki: the feminine glabutka (like matka: 2 of its 7 forms on the list) and
    # glabutek (like kotek, proposed by kotka/kotki: 2 of 4) explain both; glabutek is taken and
    # glabutka, which then explains nothing new, is not
    words = ["glabutka", "glabutki", "kotka", "kotki", "kot"]
    lemmas, stats = guessed_lemmas_of_words(words, ["kotek", "matka", "kot"], density=0.5)
    assert lemmas == ["glabutek"] and stats["lemmas-not-on-the-list"] == 1
