"""Czech inflection engine (build_tools/czech): paradigm tables of the model words, classification of
cs_CZ.dic lines, and the admissibility tables of the issue through the real profiles."""

from __future__ import annotations

import pytest

from build_tools.czech import expand_lemma
from build_tools.czech.expand import expand_entry
from czech_shipped import shipped
from build_tools.czech.tagger import word_class
from build_tools.model import ExpandedForm, HeadwordEntry, Reading, Rejection


def forms(lemma, flags=None):
    """{form: [tag, ...]} of one headword, unmerged readings (expand_entry)."""
    fl = flags
    if fl is None:
        fls = shipped().entries[lemma]
    else:
        fls = [fl]
    out = {}
    for f in fls:
        for it in expand_entry(lemma, f, shipped()):
            if isinstance(it, Reading):
                out.setdefault(it.form, []).append(frozenset(it.tag))
    return out


def slot(lemma, *feats, flags=None, exclude=("NEG", "COL", "LIT")):
    want = set(feats)
    return {f for f, tags in forms(lemma, flags).items()
            for t in tags if want <= t and not (set(exclude) & t - want)}


# ----------------------------------------------------------------------------- nouns
NOUNS = [  # lemma, flags, NOM PL, GEN SG, a further (case, number, form)
    ("pán", None, {"páni", "pánové"}, {"pána"}, ("DAT", "SG", "pánovi")),
    ("hrad", "HR", {"hrady"}, {"hradu"}, ("ESS", "SG", "hradě")),
    ("muž", "UV", {"muži", "mužové"}, {"muže"}, ("INS", "SG", "mužem")),
    ("stroj", "S", {"stroje"}, {"stroje"}, ("INS", "PL", "stroji")),
    ("předseda", "PV", {"předsedové"}, {"předsedy"}, ("VOC", "SG", "předsedo")),
    ("soudce", "UV", {"soudci", "soudcové"}, set(), ("INS", "SG", "soudcem")),
    ("žena", "ZQ", {"ženy"}, {"ženy"}, ("GEN", "PL", "žen")),
    ("růže", "Z", {"růže"}, set(), ("INS", "SG", "růží")),
    ("píseň", "Z", {"písně"}, {"písně"}, ("INS", "PL", "písněmi")),
    ("kost", "K", {"kosti"}, {"kosti"}, ("INS", "PL", "kostmi")),
    ("město", "MQR", {"města"}, {"města"}, ("ESS", "SG", "městě")),
    ("moře", "M", {"moře"}, set(), ("GEN", "PL", "moří")),
    ("kuře", "K", {"kuřata"}, {"kuřete"}, ("GEN", "PL", "kuřat")),
    ("stavení", "SN", {"stavení"}, set(), ("INS", "PL", "staveními")),
    ("pes", None, {"psi"}, {"psa"}, ("INS", "SG", "psem")),
    ("den", None, {"dny", "dni"}, {"dne"}, ("ESS", "PL", "dnech")),
]


@pytest.mark.parametrize("lemma,flags,nom_pl,gen_sg,other", NOUNS, ids=[n[0] for n in NOUNS])
def test_noun_paradigms(lemma, flags, nom_pl, gen_sg, other):
    assert lemma in slot(lemma, "N", "NOM", "SG", flags=flags)
    assert slot(lemma, "N", "NOM", "PL", flags=flags) == nom_pl
    if gen_sg:
        assert gen_sg <= slot(lemma, "N", "GEN", "SG", flags=flags)
    case, num, form = other
    assert form in slot(lemma, "N", case, num, flags=flags)


def test_noun_nominatives_are_not_oblique_cases():
    nom = slot("žena", "N", "NOM", flags="ZQ")
    assert nom == {"žena", "ženy"}
    assert "ženě" not in nom and "ženou" not in nom


# ----------------------------------------------------------------------------- adjectives
def test_hard_adjective_nominatives():
    assert slot("mladý", "ADJ", "NOM", flags="YKRN") == {"mladý", "mladá", "mladé", "mladí"}
    assert slot("velký", "ADJ", "NOM", "ANIM", "PL", flags="YKRN") == {"velcí"}
    assert slot("dobrý", "ADJ", "NOM", "ANIM", "PL", flags="YRN") == {"dobří"}


def test_soft_and_possessive_adjectives():
    assert slot("jarní", "ADJ", "NOM", flags="YR") == {"jarní"}
    assert "jarního" in slot("jarní", "ADJ", "GEN", flags="YR")
    otec = forms("otec", "U")
    assert {"otcův", "otcova", "otcovo", "otcovi", "otcovy"} <= set(otec)
    assert any({"ADJ", "POSS", "NOM"} <= t for t in otec["otcovo"])
    assert slot("matčin", "ADJ", "NOM", flags="Y", exclude=("NEG",)) == {"matčin", "matčina", "matčino",
                                                                           "matčini", "matčiny"}


def test_comparative_superlative_and_adverbs():
    f = forms("novější", "YRE")
    assert any({"ADJ", "CMPR", "NOM"} <= t for t in f["novější"])
    assert any({"ADJ", "SPRL", "NOM"} <= t for t in f["nejnovější"])
    assert any({"ADV", "CMPR"} <= t for t in f["nověji"])
    assert any({"ADV", "SPRL"} <= t for t in f["nejnověji"])
    assert any(t == {"ADV"} for t in forms("mladý", "YKRN")["mladě"])
    assert any({"N", "FEM", "NOM", "SG"} <= t for t in forms("mladý", "YKRN")["mladost"])


def test_negation_prefix():
    f = forms("mladý", "YKRN")
    assert any({"ADJ", "NOM", "NEG"} <= t for t in f["nemladý"])
    assert any({"V", "NFIN", "NEG"} <= t for t in forms("nést", "ATN")["nenést"])


# ----------------------------------------------------------------------------- verbs
VERBS = [  # infinitive, flags, 1sg, 3sg, 3pl, imperative 2sg, l-participle masc sg, passive masc sg
    ("nést", "ATN", {"nesu"}, {"nese"}, {"nesou"}, {"nes"}, {"nesl"}, {"nesen"}),
    ("brát", "AT", {"beru"}, {"bere"}, {"berou"}, {"ber"}, {"bral"}, {"brán"}),
    ("péct", "ATN", {"peču", "peku"}, {"peče"}, {"pečou", "pekou"}, {"peč", "pec"}, {"pekl"}, {"pečen"}),
    ("mazat", "ATN", {"mažu"}, {"maže"}, {"mažou"}, {"maž"}, {"mazal"}, {"mazán"}),
    ("tisknout", "ACTN", {"tisknu"}, {"tiskne"}, {"tisknou"}, {"tiskni"}, {"tiskl"}, {"tištěn", "tisknut"}),
    ("minout", "ATN", {"minu"}, {"mine"}, {"minou"}, {"miň"}, {"minul"}, {"minut"}),
    ("začít", "ATN", {"začnu"}, {"začne"}, {"začnou"}, {"začni"}, {"začal"}, {"začat"}),
    ("krýt", "BTN", {"kryji"}, {"kryje"}, {"kryjí"}, {"kryj"}, {"kryl"}, {"kryt"}),
    ("kupovat", "ATN", {"kupuji"}, {"kupuje"}, {"kupují"}, {"kupuj"}, {"kupoval"}, {"kupován"}),
    ("prosit", "ACN", {"prosím"}, {"prosí"}, {"prosí"}, {"pros"}, {"prosil"}, {"prošen"}),
    ("trpět", "BTN", {"trpím"}, {"trpí"}, {"trpí"}, {"trp"}, {"trpěl"}, {"trpěn"}),
    ("sázet", "JTN", {"sázím"}, {"sází"}, {"sázejí", "sází"}, {"sázej"}, {"sázel"}, {"sázen"}),
    ("dělat", "JTN", {"dělám"}, {"dělá"}, {"dělají"}, {"dělej"}, {"dělal"}, {"dělán"}),
    ("jíst", "JTN", {"jím"}, {"jí"}, {"jedí"}, {"jez"}, {"jedl"}, {"jeden"}),
    ("být", "IN", {"jsem"}, {"je"}, {"jsou"}, {"buď"}, {"byl"}, set()),     # jest: bookish (LIT)
]


@pytest.mark.parametrize("inf,flags,s1,s3,p3,imp,lp,pas", VERBS, ids=[v[0] for v in VERBS])
def test_verb_paradigms(inf, flags, s1, s3, p3, imp, lp, pas):
    assert inf in slot(inf, "V", "NFIN", flags=flags)
    assert slot(inf, "V", "IND", "PRS", "1", "SG", flags=flags) == s1
    assert slot(inf, "V", "IND", "PRS", "3", "SG", flags=flags) == s3
    assert slot(inf, "V", "IND", "PRS", "3", "PL", flags=flags) == p3
    assert slot(inf, "V", "IMP", "2", "SG", flags=flags) == imp
    assert slot(inf, "V.PTCP", "ACT", "PRF", "MASC", "SG", flags=flags) == lp
    assert slot(inf, "V.PTCP", "PASS", "MASC", "SG", flags=flags) == pas


def test_nest_full_box_forms():
    f = forms("nést", "ATN")
    want = {"nesu": "1 SG", "neseš": "2 SG", "nese": "3 SG", "neseme": "1 PL", "nesem": "1 PL",
            "nesete": "2 PL", "nesou": "3 PL"}
    for form, pn in want.items():
        assert any({"V", "IND", "PRS", *pn.split()} <= t for t in f[form]), form
    assert any({"V", "IMP", "2", "PL"} <= t for t in f["neste"])
    assert any({"V", "IMP", "1", "PL"} <= t for t in f["nesme"])
    assert any({"V", "NFIN"} <= t for t in f["nésti"])
    assert slot("nést", "V.PTCP", "ACT", "PRF", flags="ATN") == {"nesl", "nesla", "neslo", "nesli", "nesly"}


def test_clitic_contractions_are_rejected():
    res = expand_entry("nést", "ATN", shipped())
    rej = {it.item: it.reason for it in res if isinstance(it, Rejection)}
    assert rej.get("nesls") == "clitic-contraction"
    assert "nesls" not in {it.form for it in res if isinstance(it, Reading)}


def test_finite_headword_of_an_irregular_verb():
    f = forms("chce", "BN")
    assert any({"V", "IND", "PRS", "1", "SG"} <= t for t in f["chci"])
    assert any({"V", "IND", "PRS", "3", "PL"} <= t for t in f["chtějí"])
    assert any({"V", "IMP", "2", "SG"} <= t for t in f["chtěj"])


def test_prefixed_jit_uses_the_table():
    f = forms("přijít", "IN")
    assert any({"V", "IND", "PRS", "1", "SG"} <= t for t in f["přijdu"])
    assert any({"V.PTCP", "ACT", "MASC", "SG"} <= t for t in f["přišel"])


def test_verbal_noun_and_transgressive():
    assert any({"N", "V.MSDR", "NOM", "SG"} <= t for t in forms("dělání", "SN")["dělání"])
    f = forms("boje", "XN")
    assert any({"V.CVB", "PRS"} <= t for t in f["boje"])


# ----------------------------------------------------------------------------- pronouns, numerals
def test_pronoun_and_numeral_tables():
    assert any({"PRO", "NOM"} <= t for t in forms("ten", "Y")["ten"])
    assert any({"PRO", "NOM", "FEM"} <= t for t in forms("ten", "Y")["ta"])
    assert any({"PRO", "GEN"} <= t for t in forms("ten", "Y")["toho"])
    assert any({"NUM", "NOM"} <= t for t in forms("dva", "")["dvě"])
    assert any({"PRO", "NOM", "1"} <= t for t in forms("já", "")["já"])


# ----------------------------------------------------------------------------- classification
@pytest.mark.parametrize("line,expected", [
    ("žena/ZQ", "noun"), ("hrad/HR", "noun"), ("mladý/YKRN", "adj"), ("nést/ATN", "verb"),
    ("dělat/JTN", "verb"), ("chce/BN", "verb"), ("být/IN", "verb"), ("šťasten/ON", "short"),
    ("boje/XN", "cvb"), ("naprosto", "plain"), ("novější/YRE", "adj"), ("stavení/SN", "noun"),
])
def test_classification_of_dictionary_lines(line, expected):
    lemma, _, flags = line.partition("/")
    assert word_class(lemma, flags) == expected


def test_capitalised_and_non_letter_headwords_are_rejected():
    res = expand_lemma("Praha", shipped(), "ZQ")
    assert len(res) == 1 and isinstance(res[0], Rejection) and res[0].reason == "proper-name"
    assert expand_lemma("NATO", shipped(), "")[0].reason == "abbreviation"
    assert expand_lemma("např.", shipped(), "")[0].reason == "non-letter"


def test_unclassified_words_are_reported():
    res = expand_lemma("zzzblbost", shipped(), "")
    assert all(isinstance(r, Rejection) for r in res) and res[0].reason == "unclassified"


def test_headword_list_entries_use_the_dictionary_and_pos():
    res = [r for r in expand_lemma("žena", shipped()) if isinstance(r, ExpandedForm)]
    assert {"žena", "ženy"} <= {r.form for r in res}
    from build_tools.czech import expand_headwords
    out = list(expand_headwords([HeadwordEntry("stát", "list", 1, pos="verb")], shipped()))
    assert any(isinstance(r, ExpandedForm) and "V" in r.tag for r in out)
    assert not any(isinstance(r, ExpandedForm) and "N" in r.tag for r in out)


def test_workers_give_the_same_forms():
    entries = [HeadwordEntry(w, "cs_CZ.dic", i, flags=f) for i, (w, f) in
               enumerate([("žena", "ZQ"), ("nést", "ATN"), ("mladý", "YKRN"), ("Praha", "ZQ")] * 3)]
    from build_tools.czech import expand_headwords
    one = [(r.form, r.tag) if isinstance(r, ExpandedForm) else r.reason for r in expand_headwords(entries, shipped())]
    two = [(r.form, r.tag) if isinstance(r, ExpandedForm) else r.reason for r in expand_headwords(entries, shipped(), workers=2)]
    assert one == two


def test_every_emitted_feature_is_in_the_vocabulary():
    from build_tools.czech import expand_headwords
    from build_tools.tags import FEATURES
    entries = [HeadwordEntry(w, "cs_CZ.dic", i, flags=f) for i, (w, f) in enumerate(
        [("žena", "ZQ"), ("nést", "ATN"), ("mladý", "YKRN"), ("otec", "U"), ("být", "IN"), ("ten", "Y"),
         ("novější", "YRE"), ("šťasten", "ON"), ("boje", "XN"), ("dělání", "SN"), ("kupovat", "ATN")])]
    seen = set()
    for r in expand_headwords(entries, shipped()):
        if isinstance(r, ExpandedForm):
            assert r.tag <= FEATURES, (r.form, r.tag - FEATURES)
            seen.add(r.form)
    assert {"nesem", "nésti", "kupujou"} <= seen
