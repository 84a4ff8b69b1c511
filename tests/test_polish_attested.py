"""Hunspell as a second witness of SGJP's forms, end to end through small builds in tmp_path:
an SGJP form that the build's Hunspell dictionary lacks, of a lemma the dictionary has, is
tagged UNATTESTED, and pl.profile denies such forms of the classes where measurement showed
mostly phonies (archaic nouns, nouns, non-imperative verb forms, adjectives other than -ły
ones, the build's nie- forms) and keeps the others (-ły adjectives, imperatives, fused forms,
degrees). A guessed .dic entry's forms are tagged by the
same witness, and lemmas without a vowel (mgr) are abbreviations."""

import pytest

pytest.importorskip("morfeusz2")

from build_tools.cli import main as build_main  # noqa: E402
from build_tools.polish.witness import hunspell_words  # noqa: E402
from lexicon_service.lexicon import load_lexicon  # noqa: E402

# kot/K attests kota only; acanek, zrobić, robić, zielony and biały are bare stems (the lemma,
# no other form); abadanka/L, a stem SGJP lacks, is guessed (from sudanka) and attests abadanki
AFF = """SET UTF-8

SFX K Y 1
SFX K   0     a       .

SFX L Y 1
SFX L   a     i       a
"""
DIC = ("11\nacanek\nkot/K\nzrobić\nrobić\nzielony\nbiały\nbagażowy\nkońcowy\nkońcowo\n"
       "sudanka/L\nabadanka/L\n")
HEADS = "acanek\nabsyda\nkot\nzrobić\nrobić\nzielony\nbiały\nbagażowy\nkońcowy\nmgr\nhm\nsudanka\n"


def _build(tmp_path, name, *args):
    out = tmp_path / f"{name}.lex"
    assert build_main(["--rules", "pl-scrabble", "--quiet", "--workers", "1", "-o", str(out),
                       *map(str, args)]) == 0
    return out


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("attested")
    (tmp / "a.aff").write_text(AFF, encoding="utf-8")
    dic = tmp / "a.dic"
    dic.write_text(DIC, encoding="utf-8")
    heads = tmp / "h.txt"
    heads.write_text(HEADS, encoding="utf-8")
    rejected = tmp / "rejected.tsv"
    with_dic = _build(tmp, "with", "--headwords", heads, "--hunspell", dic, "--rejected", rejected)
    without = _build(tmp, "without", "--headwords", heads)
    return with_dic, without, rejected.read_text(encoding="utf-8"), dic


def test_hunspell_words_are_stems_and_affix_forms(builds):
    assert hunspell_words([builds[3]]) == {"acanek", "kot", "kota", "zrobić", "robić", "zielony", "biały",
                                           "bagażowy", "końcowy", "końcowo", "sudanka", "sudanki",
                                           "abadanka", "abadanki"}


def test_unattested_forms_of_lemmas_hunspell_knows_are_denied_by_class(builds):
    with_dic, _, rejected, _ = builds
    with load_lexicon(with_dic) as L:
        # attested by Hunspell: admitted, with no UNATTESTED reading
        for form in ("acanek", "kot", "kota", "zrobić", "biały"):
            assert L.is_admissible(form), form
        assert all("UNATTESTED" not in r.tag for r in L.explain("kota"))
        # denied classes: an archaic noun's forms, a noun's, a verb's present, the build's nie-
        # an adjective's (not in -ły)
        for form in ("acankowi", "acanku", "kotem", "kotowi", "zrobię", "zrobiono",
                     "niebiałego", "zielonego", "zielonej"):
            assert not L.is_admissible(form), form
        # kept classes: -ły adjectives, degrees, imperatives, fused forms (neuter ones too: PFS
        # admits them) other than the emphatic forms of perfective imperatives (zróbże: below)
        for form in ("białego", "bielszy", "zieleńszy", "zrób", "rób", "róbże", "zrobiłem",
                     "zrobiłom", "zrobiłbym"):
            assert L.is_admissible(form), form
        (r,) = L.explain("białego")[:1]
        assert "UNATTESTED" in r.tag.split(";") and r.rule == "adjective"
    reasons = {line.split("\t")[0]: line.split("\t")[1] for line in rejected.splitlines() if line}
    assert reasons["acankowi"] == "unattested-archaic"
    assert reasons["kotem"] == "unattested-noun"
    assert reasons["zrobię"] == "unattested-verb"
    assert reasons["niebiałego"] == "unattested-nie"
    assert reasons["zielonego"] == "unattested-adjective"


def test_a_guessed_dic_entry_keeps_only_what_its_dictionary_witnesses(builds):
    """abadanka/L (SGJP lacks it) is guessed from sudanka; the guessed forms the .dic does not
    make (abadankę, abadankami) are UNATTESTED and denied, its own (abadanki) are admitted."""
    with load_lexicon(builds[0]) as L:
        assert "abadanka" in L and "abadanki" in L
        assert L.explain("abadanki")[0].model == "sudanka"
        for form in ("abadankę", "abadankami", "abadankom"):
            assert form not in L, form
    reasons = {line.split("\t")[0]: line.split("\t")[1] for line in builds[2].splitlines() if line}
    assert reasons["abadankę"] == "unattested-guess"


def test_a_lemma_without_a_vowel_is_an_abbreviation(builds):
    """mgr (SGJP's noun magister, written short) is denied with all its forms, with or without
    a Hunspell witness; hm, an interjection without a vowel, is admitted."""
    for lex in builds[:2]:
        with load_lexicon(lex) as L:
            for form in ("mgr", "mgra", "mgrowi"):
                assert form not in L, form
            assert "hm" in L
    reasons = {line.split("\t")[0]: line.split("\t")[1] for line in builds[2].splitlines() if line}
    assert reasons["mgra"] == "vowelless-word"


def test_adverbs_derived_from_adjective_headwords_are_tagged_but_admitted(builds):
    """bagażowo is derived from the headword bagażowy (polish/paradigms._derived_adverbs): Hunspell has
    the adjective but not the adverb, so it is UNATTESTED, which pl.profile does not deny for
    adverbs (a partial headword list would lose real adverbs: pl.profile); końcowo, which
    Hunspell has, is attested."""
    with load_lexicon(builds[0]) as L:
        assert "bagażowo" in L and "końcowo" in L
        assert "UNATTESTED" in L.explain("bagażowo")[0].tag.split(";")
        assert "UNATTESTED" not in L.explain("końcowo")[0].tag.split(";")
    with load_lexicon(builds[1]) as L:
        assert "bagażowo" in L and "końcowo" in L


def test_a_lemma_hunspell_lacks_keeps_its_sgjp_paradigm(builds):
    with load_lexicon(builds[0]) as L:
        for form in ("absyda", "absydą", "absydzie"):
            assert L.is_admissible(form), form
            assert all("UNATTESTED" not in r.tag for r in L.explain(form))


def test_without_a_hunspell_dictionary_sgjp_alone_decides(builds):
    with load_lexicon(builds[1]) as L:
        for form in ("acankowi", "kotem", "zrobię", "niebiałego", "białego", "zrób", "zielonego"):
            assert L.is_admissible(form), form
            assert all("UNATTESTED" not in r.tag for r in L.explain(form))


def test_the_emphatic_form_of_an_unattested_perfective_imperative_is_denied(builds):
    """zrób is no word of the small .dic (only zrobić is), so zróbże, zróbmyż, zróbcież are
    UNATTESTED emphatic forms of a perfective imperative: denied (pl.profile, issue 26); the
    imperative itself, the imperfective róbże and the past fused forms stay."""
    with_dic, without, rejected, _ = builds
    with load_lexicon(with_dic) as L:
        for form in ("zróbże", "zróbmyż", "zróbcież"):
            assert form not in L, form
        for form in ("zrób", "zróbmy", "róbże", "róbmyż", "zrobiłem", "zrobiłbym"):
            assert form in L, form
    reasons = {line.split("\t")[0]: line.split("\t")[1] for line in rejected.splitlines() if line}
    assert reasons["zróbże"] == "unattested-perfective-emphatic"
    with load_lexicon(without) as L:          # no witness: SGJP alone decides
        assert "zróbże" in L
