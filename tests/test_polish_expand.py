"""Polish expansion on real SGJP output (Morfeusz 2): fused forms, nie-, and every exclusion."""

import pytest

pytest.importorskip("morfeusz2")

from build_tools.compile import FormAdmission  # noqa: E402
from build_tools.polish.paradigms import expand_lemma
from build_tools.polish.passes import expand_headwords
from build_tools.polish.sgjp import dotted_abbreviations  # noqa: E402
from build_tools.model import ExpandedForm, HeadwordEntry, Rejection  # noqa: E402
from build_tools.profiles import load_profile  # noqa: E402
from lexicon_service.rules import load_rule_set  # noqa: E402

ADMISSION = FormAdmission(load_profile("pl"), load_rule_set("pl-scrabble").tile_set)


def forms_of(lemma, pos=None):
    forms, reason = expand_lemma(lemma, pos)
    assert reason is None, reason
    return forms


def admitted(lemma):
    """{form: set of rules} admitted by the pl profile."""
    out = {}
    for form, _head, tag, _p in forms_of(lemma):
        key, rule = ADMISSION.admit(form, tag)
        if key is not None:
            out.setdefault(key, set()).add(rule)
    return out


def rejected(lemma):
    """{form: reason} for forms that no reading admits."""
    ok = admitted(lemma)
    out = {}
    for form, _head, tag, _p in forms_of(lemma):
        key, reason = ADMISSION.admit(form, tag)
        if key is None and form not in ok:
            out.setdefault(form, reason)
    return out


@pytest.fixture(scope="module")
def zrobic():
    return admitted("zrobić")


# --- fused forms ---------------------------------------------------------------------------
@pytest.mark.parametrize("form", ["zrobiłem", "zrobiłeś", "zrobiłam", "zrobiłaś", "zrobiliśmy",
                                  "zrobiliście", "zrobiłyśmy", "zrobiłyście"])
def test_past_tense_with_person_endings(zrobic, form):
    assert zrobic[form] == {"fused-form"}


@pytest.mark.parametrize("form", ["zrobiłby", "zrobiłbym", "zrobiłbyś", "zrobiłaby", "zrobiłabym",
                                  "zrobiłabyś", "zrobiłoby", "zrobiliby", "zrobilibyśmy",
                                  "zrobilibyście", "zrobiłybyśmy", "zrobiłybyście"])
def test_conditionals(zrobic, form):
    assert zrobic[form] == {"fused-form"}


@pytest.mark.parametrize("form", ["zróbże", "zróbmyż", "zróbcież"])
def test_emphatic_ze(zrobic, form):
    assert zrobic[form] == {"fused-form"}


@pytest.mark.parametrize("form", ["zrobiłom", "zrobiłoś", "zrobiłobym", "zrobiłobyś"])
def test_neuter_first_and_second_person(zrobic, form):
    assert zrobic[form] == {"fused-form"}


def test_neuter_fused_forms_for_every_verb():
    for verb, forms in (("nieść", ("niosłom", "niosłoś", "niosłobym")), ("być", ("byłom", "byłobyś")),
                        ("powinien", ("powinnom", "powinnoś"))):
        admitted_forms = admitted(verb)
        for form in forms:
            assert admitted_forms.get(form) == {"fused-form"}, (verb, form)


def test_fused_tags_carry_person_and_mood():
    tags = {f: t for f, _h, t, p in forms_of("zrobić") if p == "fused"}
    assert {"V", "PST", "1", "SG", "MASC", "FUSED"} <= tags["zrobiłem"]
    assert {"V", "COND", "2", "SG", "FEM", "FUSED"} <= tags["zrobiłabyś"]
    assert "PST" not in tags["zrobiłabyś"]
    assert {"V", "PST", "1", "SG", "NEUT", "FUSED"} <= tags["zrobiłom"]
    assert {"V", "COND", "2", "SG", "NEUT", "FUSED"} <= tags["zrobiłobyś"]
    assert {"V", "IMP", "2", "SG", "FUSED"} <= tags["zróbże"]


def test_agl_and_nagl_stems():
    # SGJP: niosł- (agl) takes the person ending, niósł (nagl) stands alone and takes -by
    nies = admitted("nieść")
    assert "niosłem" in nies and "niósłem" not in nies
    assert "niósłbym" in nies and "niosłbym" not in nies
    assert "niósł" in nies and "niosł" not in nies
    assert "nieśże" in nies and "nieścież" in nies


def test_modal_powinien():
    p = admitted("powinien")
    assert {"powinienem", "powinnam", "powinniśmy", "powinnyście"} <= set(p)


# --- nie- ----------------------------------------------------------------------------------
def test_nie_with_adjectives_adverbs_gerunds_participles():
    z = admitted("zielony")
    assert "niezielony" in z and "niezielonej" in z
    assert "niezieleńszy" not in z                     # positive degree only
    assert "nieszybko" in admitted("szybko")
    assert "niezrobienie" in admitted("zrobić")        # gerund (SGJP)
    assert "nierobiący" in admitted("robić")           # participle (SGJP)


def test_nie_only_once():
    assert not any(f.startswith("nienie") for f in admitted("nieładny"))
    assert "nieniebieski" in admitted("niebieski")     # niebieski is not nie + bieski
    assert not any(f.startswith("nie") for f in admitted("mój"))


# --- exclusions ----------------------------------------------------------------------------
def test_proper_names_by_name_class():
    assert set(rejected("Warszawa").values()) == {"proper-name"}
    # a lowercase SGJP lemma whose name class is a company name: still a proper name
    assert admitted("kea") == {}
    assert set(rejected("kea").values()) == {"proper-name"}


def test_abbreviations():
    assert rejected("pan").get("p") == "abbreviation"
    assert "pan" in admitted("pan")


def test_unknown_lemma_and_multiword():
    assert expand_lemma("xyzzyq") == ([], "unknown-lemma")
    assert expand_lemma("biało-czerwony")[1] == "unknown-lemma"
    assert expand_lemma("rock and roll")[1] == "multi-word"


def test_non_polish_letters_hyphens_apostrophes():
    assert set(rejected("quiz").values()) == {"letter-not-in-profile"}
    assert rejected("ping-pong")["ping-ponga"] == "non-letter"
    assert rejected("allemande")["allemande’a"] == "non-letter"
    assert "allemande" in admitted("allemande")


def test_length_two_to_fifteen():
    assert "abdominalny" in admitted("abdominalny")
    assert rejected("abdominalny")["nieabdominalnych"] == "too-long"  # 16 letters
    assert rejected("a")["a"] == "too-short"
    assert "za" in admitted("za")


def test_clitic_segments_are_not_words():
    r = rejected("być")
    assert r.get("śmy") == "clitic" or "śmy" not in admitted("być")
    assert "byłem" in admitted("być") and "bylibyśmy" in admitted("być")


def test_pos_filter():
    assert {f for f, *_ in forms_of("zamek", "subst")} >= {"zamek", "zamku"}
    assert expand_lemma("zamek", "verb")[1] == "pos-not-found"
    assert expand_lemma("zamek", "klingon")[1] == "unknown-pos"


def test_expander_contract_two_workers():
    entries = [HeadwordEntry("kot", "h.txt", 1), HeadwordEntry("xyzzyq", "h.txt", 2),
               HeadwordEntry("zrobić", "h.txt", 3)]
    items = list(expand_headwords(entries, workers=2))
    rejections = [i for i in items if isinstance(i, Rejection)]
    assert rejections == [Rejection("xyzzyq", "unknown-lemma", "h.txt", 2)]
    forms = {i.form for i in items if isinstance(i, ExpandedForm)}
    assert {"kot", "kotami", "zrobiłbym"} <= forms
    assert all(isinstance(i.tag, frozenset) for i in items if isinstance(i, ExpandedForm))


def test_person_endings_on_conjunctions_ending_in_by():
    assert {"gdybym", "gdybyś", "gdybyśmy", "gdybyście"} <= set(admitted("gdyby"))
    assert {"abym", "żebyś", "obyśmy"} <= set(admitted("aby")) | set(admitted("żeby")) | set(admitted("oby"))
    assert "gdybyby" not in admitted("gdyby")
    assert not any(f.startswith(("czyby", "jużby")) for f in set(admitted("czy")) | set(admitted("już")))
    assert not any(f.startswith("nieby") for f in admitted("nie"))


def test_preposition_with_n():
    on = admitted("on")
    assert {"nań", "doń", "zań", "przezeń"} <= set(on)
    assert "nieona" not in on and "nieon" not in on     # no nie- on the pronoun


def test_nie_with_short_adjectives():
    assert "niezdrów" in admitted("zdrowy")


def test_combining_forms_are_not_words():
    # SGJP adja (lipcowo- in lipcowo-sierpniowy) is a bound form; as an adverb it stays
    assert rejected("lipcowy").get("lipcowo") == "combining-form"
    assert "szybko" in admitted("szybki") or "szybko" in admitted("szybko")


def test_adverbs_derived_from_adjective_headwords():
    """SGJP keeps adjectival adverbs as lemmas of their own: an adjective headword brings its
    adverb (stem + -o/-e/-ie, when SGJP knows that adverb), with all degrees and nie-."""
    from build_tools.polish.paradigms import expand_one

    forms = {f: (h, p) for f, h, _t, p in expand_one("końcowy")[0]}
    assert forms["końcowo"][0] == "końcowo" and "niekońcowo" in forms
    cichy = {f for f, *_ in expand_one("cichy")[0]}
    assert {"cicho", "ciszej", "najciszej", "niecicho"} <= cichy
    assert not any(f.endswith("o") and h != "mój" for f, h, *_ in expand_one("mój")[0]
                   if f in ("moo", "moe"))
    # only for adjective lemmas: a noun in -y gets no adverb
    assert "domo" not in {f for f, *_ in expand_one("domy")[0]}


def test_dotted_abbreviations_on_real_sgjp():
    assert dotted_abbreviations(["np", "itd", "tzn", "godz", "inż", "dom", "ul", "kot", "xyzzy"]) == [
        "np", "itd", "tzn", "godz", "inż"]


def test_headwords_from_a_word_list_are_common_sgjp_lemmas_not_yet_known(tmp_path):
    from pathlib import Path

    from tools.make_pl_headwords import headwords_from_word_list

    words = tmp_path / "list.txt"
    # achałam: fused past tense -> achać; psami -> pies (known); afryce: only a proper name;
    # np: abbreviation; qwxz: unknown to SGJP; Abba: capitalised line, skipped; aktorzy names
    # aktor and SGJP's verb aktorzyć, whose citation form is not on the list (unattested)
    # (a lemma longer than the list's longest word cannot be on it and needs no attestation:
    # with "poaplauzowali" on the list, aplauzować stays unattested, aktorzyć too)
    words.write_text("achałam\nachać\npsami\nafryce\nnp\nqwxz\nAbba\nabbami\nabba\naktorzy\n"
                     "aktor\npoaplauzowali\n", encoding="utf-8")
    heads, stats = headwords_from_word_list(Path(words), known={"pies"}, workers=1)
    assert heads == ["abba", "achać", "aktor"]
    assert stats["words"] == 11 and stats["new-lemmas"] == 3
    words.write_text("achałam\naktorzy\naktor\n", encoding="utf-8")    # longest: 7 letters
    heads, _stats = headwords_from_word_list(Path(words), known=set(), workers=1)
    assert heads == ["aktor", "aktorzyć"]      # achać (5 letters) is not on this list


def test_shipped_game_list_headwords_do_not_repeat_the_main_list():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "data" / "pl"
    main = set((root / "headwords.txt").read_text(encoding="utf-8").split())
    extra = (root / "headwords-sjp-growy.txt").read_text(encoding="utf-8").split()
    assert extra == sorted(set(extra)) and not main & set(extra)
    assert all(w.isalpha() and w.islower() for w in extra)
    guessed = (root / "headwords-sjp-growy-guessed.txt").read_text(encoding="utf-8").split()
    assert guessed == sorted(set(guessed)) and not (main | set(extra)) & set(guessed)
    assert all(w.isalpha() and w.islower() for w in guessed)


def test_no_nie_for_indeclinable_adjectives():
    assert not any(f.startswith("nie") for f, *_ in forms_of("blond"))
    assert not any(f.startswith("nie") for f, *_ in forms_of("audio"))
    assert "niezielony" in {f for f, *_ in forms_of("zielony")}
