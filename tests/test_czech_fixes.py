"""Czech engine fixes found by the quality breakdown (tools/czech_quality.py): each a general rule
over cs_CZ.dic lines, tested on representative words (paradigm tables)."""

from __future__ import annotations

import pytest

from build_tools.czech.expand import expand_entry
from build_tools.model import Reading, Rejection
from czech_shipped import shipped
from build_tools.czech.tagger import split_mixed


def readings(word, flags):
    out = {}
    for it in expand_entry(word, flags, shipped()):
        if isinstance(it, Reading):
            out.setdefault(it.form, set()).add((it.lemma, frozenset(it.tag)))
    return out


def has(word, flags, form, *feats, lemma=None):
    return any(set(feats) <= t and (lemma is None or l == lemma) for l, t in readings(word, flags).get(form, ()))


# flagless present-tense lines of -í- verbs whose infinitive has no conjugation flag (muset/IN + musím/N)
@pytest.mark.parametrize("form, person, number", [
    ("musím", "1", "SG"), ("musíš", "2", "SG"), ("musí", "3", "SG"), ("musí", "3", "PL"),
    ("musíme", "1", "PL"), ("musíte", "2", "PL")])
def test_flagless_present_of_muset(form, person, number):
    assert has(form, "N", form, "V", "IND", "PRS", person, number, lemma="muset")
    assert has(form, "N", "ne" + form, "V", "IND", "PRS", "NEG", person, number)


def test_flagless_present_needs_mutual_evidence():
    # a lone flagless -í word is not made a verb form
    assert not any("V" in t for _, ts in readings("hí", "").items() for _, t in ts)


# a merged verb + noun line (drát/ATHR: drát-deru and the noun drát-dráty)
@pytest.mark.parametrize("line, parts", [("drát/ATHR", ["H", "ATR"]), ("nýt/BHN", ["H", "BN"]),
                                         ("výše/EZ", ["Z", "E"])])
def test_split_of_merged_lines(line, parts):
    word, flags = line.split("/")
    assert split_mixed(word, flags) == parts


def test_noun_of_a_merged_verb_line():
    assert has("drát", "ATHR", "dráty", "N", "NOM", "PL")
    assert has("drát", "ATHR", "drát", "N", "NOM", "SG")
    assert has("drát", "ATHR", "deru", "V", "IND", "PRS", "1", "SG")


def test_bookish_present_of_a_finite_headword():
    # píšu/BN (psát): píši, píší beside píšu, píšou, as for maže of mazat
    assert has("píšu", "BN", "píši", "V", "PRS", "1", "SG", "LIT", lemma="psát")
    assert has("napíšu", "BN", "napíší", "V", "PRS", "3", "PL", "LIT", lemma="napsat")


@pytest.mark.parametrize("word, flags", [("dál", "E"), ("líp", "E"), ("výše", "EZ"), ("spíš", "")])
def test_comparative_adverbs(word, flags):
    assert has(word, flags, word, "ADV", "CMPR")


@pytest.mark.parametrize("word, nom_pl", [("práce", "práce"), ("déšť", None), ("mysl", "mysli"),
                                          ("lest", "lsti"),
                                          ("sníh", "sněhy"), ("vítr", "větry"),  # í/ě alternation
                                          ("kněz", None), ("hmyz", None)])    # singular evidence + -em
def test_flagless_nouns(word, nom_pl):
    assert has(word, "", word, "N", "NOM", "SG", lemma=word)
    if nom_pl:
        assert has(nom_pl, "", nom_pl, "N", "NOM", "PL", lemma=word)


@pytest.mark.parametrize("word", ["beder"])
def test_zero_ending_genitive_plural_is_no_nominative(word):
    assert not has("knězi", "", "knězi", "N", "NOM", "PL")  # dative/locative singular of kněz (pl. kněží)
    # beder: genitive plural of bedra (bedrám, bedrami: feminine/neuter endings), not a masculine noun
    assert not has(word, "", word, "N", "NOM", "SG")


def test_flagless_oblique_e_form_of_a_consonant_noun():
    # hole: genitive singular / nominative plural of hůl, not a nominative singular of its own
    r = readings("hole", "")
    assert ("hůl", frozenset({"N", "NOM", "PL"})) in r["hole"]
    assert not any(l == "hole" for l, _ in r["hole"])


def test_flagless_nul_participle():
    # kliknul/N beside kliknout: the -nul variant of the masculine l-participle
    assert has("kliknul", "N", "kliknul", "V.PTCP", "ACT", "MASC", "SG", lemma="kliknout")


@pytest.mark.parametrize("word, flags, nom_pl", [("věda", "XNZQ", "vědy"), ("vliv", "HXN", "vlivy")])
def test_noun_of_a_transgressive_line(word, flags, nom_pl):
    # věda/XNZQ is the noun věda and the transgressive of vědět; vliv/HXN the noun and vlít's transgressive
    assert split_mixed(word, flags)[0] == "".join(f for f in flags if f in "ZQH")
    assert has(word, flags, nom_pl, "N", "NOM", "PL", lemma=word)
    assert has(word, flags, word, "N", "NOM", "SG", lemma=word)


@pytest.mark.parametrize("form, lemma", [("kašle", "kašel"), ("pytle", "pytel"), ("deště", "déšť")])
def test_flagless_soft_masculine_plural(form, lemma):
    assert has(form, "", form, "N", "NOM", "PL", lemma=lemma)


# animate -i plural with the velar (or r) palatalised, taken only when the dictionary lists it
@pytest.mark.parametrize("form, lemma", [("šneci", "šnek"), ("bozi", "bůh"), ("polobozi", "polobůh")])
def test_flagless_palatalised_animate_plural(form, lemma):
    assert has(form, "", form, "N", "NOM", "PL", lemma=lemma)


def test_palatalised_stem():
    from build_tools.czech.flagless.nouns import palatalised
    assert [palatalised(s) for s in ("šnek", "boh", "Čech", "bratr", "Řek", "vlk", "pán")] == \
        ["šnec", "boz", "Češ", "bratř", "Řec", "vlc", "pán"]
    assert not has("šneki", "", "šneki", "N")      # no such dictionary line: nothing made up


# neuter pluralia tantum: flagless (bedra: beder, bedrům, bedrech) and with the město flag (játra/M)
def test_plural_tantum_neuter():
    assert has("bedra", "", "bedra", "N", "NOM", "PL", lemma="bedra")
    assert not has("bedra", "", "bedra", "SG")
    assert has("beder", "", "beder", "N", "GEN", "PL", lemma="bedra")
    assert not has("beder", "", "beder", "NOM")
    assert has("kamna", "", "kamna", "N", "NOM", "PL", lemma="kamna")
    assert not has("pána", "", "pána", "NOM")          # genitive of pán, not a plurale tantum
    for word, flags in (("játra", "M"), ("nebesa", "MQ"), ("ústa", "MQ")):
        assert has(word, flags, word, "N", "NOM", "PL", "NEUT", lemma=word)
        assert not has(word, flags, word, "NOM", "SG")
    assert has("město", "M", "město", "N", "NOM", "SG") and has("město", "M", "města", "N", "NOM", "PL")


def test_long_infinitive_and_passive_flag_make_a_verb():
    # udit/CIN: I (udíti) and C (the passive uzen) -- a verb, not a noun
    assert has("udit", "CIN", "uzen", "V.PTCP", "PASS", "MASC", "SG")
    assert has("udit", "CIN", "udit", "V", "NFIN")


def test_short_passive_by_flag_o_on_a_verb():
    assert has("dohřát", "BNO", "dohřáta", "V.PTCP", "PASS", "FEM", "SG")


def test_nul_variant_inside_a_verb_paradigm():
    assert has("blbnout", "ANT", "blbnul", "V.PTCP", "ACT", "MASC", "SG")
    r = expand_entry("blbnout", "ANT", shipped())
    assert not [x for x in r if isinstance(x, Rejection) and x.reason == "untagged-form"]


def test_imperative_whose_plural_is_the_present():
    # pošlu/BN: pošli, pošleme, pošlete
    assert has("pošlu", "BN", "pošli", "V", "IMP", "2", "SG")
    assert has("pošlu", "BN", "pošleme", "V", "IMP", "1", "PL")
    assert has("pošlu", "BN", "pošleme", "V", "IND", "PRS", "1", "PL")


def test_aje_transgressive():
    assert has("klouzat", "AJN", "klouzaje", "V.CVB", "PRS", "MASC", "SG")


@pytest.mark.parametrize("word, flags, noun_pl, short, short_feats", [
    ("bál", "HNO", "bály", "bála", ("V.PTCP", "ACT", "FEM", "SG")),
    ("osel", "INOPV", "osli", "osela", ("V.PTCP", "ACT", "FEM", "SG"))])
def test_noun_line_with_short_forms(word, flags, noun_pl, short, short_feats):
    assert has(word, flags, noun_pl, "N", "NOM", "PL", lemma=word)
    assert has(word, flags, short, *short_feats)


def test_animate_mobile_e_plural_by_flag_p():
    assert has("kozel", "PIV", "kozli", "N", "NOM", "PL")


def test_tel_nouns_nominative_plural():
    # badatel/UD: badatelé (D), not badateli (U: dative/locative/vocative singular, instrumental plural)
    assert has("badatel", "UD", "badatelé", "N", "NOM", "PL")
    assert not has("badatel", "UD", "badateli", "N", "NOM", "PL")
    assert has("badatel", "UD", "badateli", "N", "DAT", "SG")


@pytest.mark.parametrize("word, flags, form, feats, not_feats", [
    ("koleno", "MQIR", "koleni", ("N", "ESS", "SG", "NEUT"), ("N", "NOM", "PL")),
    ("loď", "ZI", "lodi", ("N", "NOM", "PL", "FEM"), ("ANIM",)),
    ("hřeben", "HS", "hřebene", ("N", "GEN", "SG"), ("N", "NOM", "PL")),
])
def test_add_on_flags_on_other_genders(word, flags, form, feats, not_feats):
    # I (-i) and S (soft forms) next to another declension flag: gender and slots from the main flag
    assert has(word, flags, form, *feats)
    assert not has(word, flags, form, *not_feats)


# --- present tense after a consonant cluster: stem + i is the imperative (zavři), not a 1st person -----
@pytest.mark.parametrize("inf, flags, imp, first", [
    ("zavřít", "ATN", "zavři", "zavřu"), ("umřít", "AN", "umři", "umřu"), ("třít", "ATN", "tři", "třu"),
    ("opřít", "ATN", "opři", "opřu"), ("dřít", "ATN", "dři", "dřu"), ("lžu", "BN", "lži", "lžu")])
def test_imperative_after_a_consonant_cluster(inf, flags, imp, first):
    assert has(inf, flags, imp, "V", "IMP", "2", "SG")
    assert not has(inf, flags, imp, "IND")                              # not a 1st person singular
    assert has(inf, flags, imp[:-1] + "eme", "V", "IMP", "1", "PL")      # zavřeme: present and imperative
    assert has(inf, flags, imp[:-1] + "ete", "V", "IMP", "2", "PL")
    assert has(inf, flags, first, "V", "IND", "PRS", "1", "SG")
    assert not has(inf, flags, imp[:-1] + "í", "IND")                   # no bookish 3rd plural (lží)


@pytest.mark.parametrize("word, flags, form, feats, not_feats", [
    ("kupovat", "ATN", "kupuji", ("IND", "PRS", "1", "SG"), ("LIT", "IMP")),      # j-stem: standard -ji
    ("mýt", "BTN", "myji", ("IND", "PRS", "1", "SG"), ("LIT", "IMP")),
    ("chce", "BN", "chci", ("IND", "PRS", "1", "SG"), ("LIT", "IMP")),
    ("mazat", "ATN", "maži", ("IND", "PRS", "1", "SG", "LIT"), ("IMP",)),      # maže class: bookish -i
    ("napíši", "BN", "napíši", ("IND", "PRS", "1", "SG", "LIT"), ("IMP",)),    # ... also as a headword
    ("napíši", "BN", "napíší", ("IND", "PRS", "3", "PL", "LIT"), ("IMP",)),
    ("pošlu", "BN", "pošli", ("IMP", "2", "SG"), ("IND",)),
])
def test_soft_stem_first_person_and_imperative(word, flags, form, feats, not_feats):
    rs = readings(word, flags)[form]
    assert any(set(feats) <= t for _l, t in rs)
    assert not any(set(not_feats) & t for _l, t in rs)


# --- finite headwords linked to their infinitive (data/verb_links.tsv) ---------------------------------
@pytest.mark.parametrize("head, form, lemma, feats", [
    ("najdu", "najdu", "najít", ("IND", "PRS", "1", "SG")),         # prefixed jít
    ("najdu", "najdi", "najít", ("IMP", "2", "SG")),
    ("odejdu", "odejděte", "odejít", ("IMP", "2", "PL")),
    ("vedu", "vedeš", "vést", ("IND", "PRS", "2", "SG")),
    ("dovedu", "dovede", "dovést", ("IND", "PRS", "3", "SG")),
    ("napíši", "napíšu", "napsat", ("IND", "PRS", "1", "SG")),      # the bookish -i headword
    ("budu", "budeš", "být", ("IND", "FUT", "2", "SG")),            # být: budu is the future
    ("pobudu", "pobudu", "pobýt", ("IND", "PRS", "1", "SG")),       # ... a prefixed one a present
    # po- + the present of a determinate motion verb is its future
    ("ponesu", "ponese", "nést", ("IND", "FUT", "3", "SG")),
    ("pojedu", "pojedeme", "jet", ("IND", "FUT", "1", "PL")),
    ("poženu", "poženu", "hnát", ("IND", "FUT", "1", "SG")),
    ("povedu", "povedu", "vést", ("IND", "FUT", "1", "SG")),
    ("povedu", "povedu", "povést", ("IND", "PRS", "1", "SG")),       # and the present of povést
    ("poběžím", "poběží", "běžet", ("IND", "FUT", "3", "SG")),
])
def test_finite_headword_lemmas(head, form, lemma, feats):
    assert has(head, "BN", form, "V", *feats, lemma=lemma)


@pytest.mark.parametrize("head, form, not_lemma", [
    ("ponesu", "ponese", "ponesu"), ("ponesu", "ponese", "ponést"),     # no such infinitive
    ("ponesu", "poneste", "nést"),      # the imperative of the po- form is not one of nést
    ("pojedu", "pojeď", "jet"),
    ("ponesu", "ponesu", None),
])
def test_po_future_is_not_a_present_of_the_motion_verb(head, form, not_lemma):
    rs = readings(head, "BN")[form]
    if not_lemma is None:
        assert not any("PRS" in t for _l, t in rs)
    else:
        assert all(l != not_lemma for l, _t in rs)


def test_bookish_jest():
    rs = readings("být", "IN")
    assert any({"PRS", "3", "SG", "LIT"} <= t for _l, t in rs["jest"])
    assert not any("LIT" in t for _l, t in rs["je"])


# --- one gender per declension flag (jeřáb/HPI: the bird and the crane) -------------------------------
@pytest.mark.parametrize("word, flags, nom_pl", [
    ("jeřáb", "HPI", {"ANIM": {"jeřábi"}, "INAN": {"jeřáby"}}),
    ("kohout", "PIH", {"ANIM": {"kohouti"}, "INAN": {"kohouty"}}),
    ("beránek", "PIVQ", {"ANIM": {"beránci", "beránkové"}, "INAN": {"beránky"}}),   # Q: hrad with mobile -e-
    ("balič", "SU", {"ANIM": {"baliči"}, "INAN": {"baliče"}}),
    ("esej", "ZS", {"FEM": {"eseje"}, "INAN": {"eseje"}}),
    ("brepta", "ZQPV", {"FEM": {"brepty"}, "ANIM": {"breptové"}}),
    ("hrad", "H", {"INAN": {"hrady"}, "ANIM": set()}),                       # one gender: unchanged
    ("pán", "PIV", {"ANIM": {"páni", "pánové"}, "INAN": set()}),
    ("koleno", "MQIR", {"NEUT": {"kolena"}, "FEM": set(), "ANIM": set()}),    # Q, I, R: add-on flags
    ("loď", "ZI", {"FEM": {"lodě", "lodi"}, "ANIM": set()}),
    ("žena", "ZQ", {"FEM": {"ženy"}, "INAN": set()}),
])
def test_gender_per_declension_flag(word, flags, nom_pl):
    rs = readings(word, flags)
    for gender, want in nom_pl.items():
        got = {f for f, r in rs.items() for _l, t in r
               if {"N", "NOM", "PL", gender} <= t and "NEG" not in t}
        assert got == want, gender
    lemma_genders = {g for _l, t in rs[word] if {"N", "NOM", "SG"} <= t
                     for g in ("ANIM", "INAN", "FEM", "NEUT") if g in t}
    assert lemma_genders == {g for g, w in nom_pl.items() if w}


# --- -is nouns (hepatitis/ZQ): the aff declines the stem -id- like žena ---------------------------------
@pytest.mark.parametrize("form, feats", [
    ("hepatitidy", ("NOM", "PL")), ("hepatitidy", ("GEN", "SG")),
    ("hepatitidě", ("DAT", "SG")), ("hepatitidou", ("INS", "SG")), ("hepatitid", ("GEN", "PL"))])
def test_is_nouns(form, feats):
    assert has("hepatitis", "ZQ", form, "N", "FEM", *feats)


def test_is_nouns_no_false_nominative():
    assert not has("hepatitis", "ZQ", "hepatitidě", "NOM")
    assert not has("syfilis", "ZQ", "syfilida", "NOM")      # a nominative only as its own headword


# --- negated forms of the table verbs (irregular.paradigms: být, mít, jít, bát, lze) ------------------
# The N flag of their dictionary lines gives ne- + each verbal row, as for regular verbs; není is the
# negated 3rd singular of být (not ne + je); conditionals and NONEG rows take no ne-.
@pytest.mark.parametrize("word, flags, form, feats, lemma", [
    ("být", "IN", "nebýt", ("V", "NFIN", "NEG"), "být"),
    ("být", "IN", "nejsem", ("V", "PRS", "1", "SG", "NEG"), "být"),
    ("být", "IN", "nejsi", ("V", "PRS", "2", "SG", "NEG"), "být"),
    ("být", "IN", "není", ("V", "PRS", "3", "SG", "NEG"), "být"),
    ("být", "IN", "nejsou", ("V", "PRS", "3", "PL", "NEG"), "být"),
    ("být", "IN", "nebude", ("V", "FUT", "3", "SG", "NEG"), "být"),
    ("být", "IN", "nebuď", ("V", "IMP", "2", "SG", "NEG"), "být"),
    ("být", "IN", "nebyl", ("V.PTCP", "MASC", "SG", "NEG"), "být"),
    ("být", "IN", "nebyly", ("V.PTCP", "FEM", "PL", "NEG"), "být"),
    ("mít", "IN", "nemít", ("V", "NFIN", "NEG"), "mít"),
    ("mít", "IN", "nemám", ("V", "PRS", "1", "SG", "NEG"), "mít"),
    ("mít", "IN", "nemá", ("V", "PRS", "3", "SG", "NEG"), "mít"),
    ("mít", "IN", "nemají", ("V", "PRS", "3", "PL", "NEG"), "mít"),
    ("mít", "IN", "neměj", ("V", "IMP", "2", "SG", "NEG"), "mít"),
    ("mít", "IN", "nemějte", ("V", "IMP", "2", "PL", "NEG"), "mít"),
    ("mít", "IN", "neměl", ("V.PTCP", "MASC", "SG", "NEG"), "mít"),
    ("jít", "IN", "nejít", ("V", "NFIN", "NEG"), "jít"),
    ("jít", "IN", "nepůjde", ("V", "FUT", "3", "SG", "NEG"), "jít"),
    ("přijít", "IN", "nepřijít", ("V", "NFIN", "NEG"), "přijít"),
    ("přijít", "IN", "nepřijde", ("V", "PRS", "3", "SG", "NEG"), "přijít"),
    ("bát", "IN", "nebát", ("V", "NFIN", "NEG"), "bát"),
    ("bát", "IN", "nebojí", ("V", "PRS", "3", "SG", "NEG"), "bát"),
    ("bát", "IN", "neboj", ("V", "IMP", "2", "SG", "NEG"), "bát"),
    ("bát", "IN", "nebál", ("V.PTCP", "MASC", "SG", "NEG"), "bát"),
    # finite forms listed as their own N lines (jsem/N, mají/N, bojí/N) and the flagless není
    ("jsem", "N", "nejsem", ("V", "PRS", "1", "SG", "NEG"), "být"),
    ("mají", "N", "nemají", ("V", "PRS", "3", "PL", "NEG"), "mít"),
    ("má", "N", "nemá", ("V", "PRS", "3", "SG", "NEG"), "mít"),
    ("mějte", "N", "nemějte", ("V", "IMP", "2", "PL", "NEG"), "mít"),
    ("bojí", "N", "nebojí", ("V", "PRS", "3", "PL", "NEG"), "bát"),
    ("bojím", "N", "nebojím", ("V", "PRS", "1", "SG", "NEG"), "bát"),
    ("není", "", "není", ("V", "PRS", "3", "SG", "NEG"), "být"),
])
def test_negated_table_verbs(word, flags, form, feats, lemma):
    assert has(word, flags, form, *feats, lemma=lemma)


@pytest.mark.parametrize("word, flags, form", [
    ("být", "IN", "neje"), ("být", "IN", "nejest"), ("být", "IN", "neseš"), ("být", "IN", "nebych"),
    ("být", "IN", "neby"), ("být", "IN", "nebyste"), ("jít", "IN", "nepojď"), ("jít", "IN", "nepojďte"),
    ("být", "I", "není"),               # the negated row only with N
    ("má", "N", "nemá"),                # only the verb reading is negated: no PRO nemá of můj
    ("svou", "N", "nesvou"), ("jeden", "N", "nejeden"),     # pronoun / numeral rows: no ne- reading
])
def test_negated_table_verbs_bad(word, flags, form):
    if form == "nemá":
        assert not has(word, flags, form, "PRO")
    else:
        assert form not in readings(word, flags)


# --- lines whose only flag is N go through the flagless classification, then get ne- --------------------
@pytest.mark.parametrize("word, form, feats, lemma", [
    ("spolupráce", "spolupráce", ("N", "NOM", "SG"), "spolupráce"),
    ("spolupráce", "spolupráce", ("N", "NOM", "PL"), "spolupráce"),
    ("spolupráce", "nespolupráce", ("N", "NOM", "SG", "NEG"), "spolupráce"),
    ("spolupracemi", "spolupracemi", ("N", "INS", "PL"), "spolupráce"),
    ("lze", "lze", ("V", "PRS", "3", "SG"), "lze"),
    ("lze", "nelze", ("V", "PRS", "3", "SG", "NEG"), "lze"),
    ("jednou", "jednou", ("ADV",), "jednou"),                     # data/flagless.tsv
    ("jednou", "nejednou", ("ADV", "NEG"), "jednou"),
])
def test_negation_only_lines(word, form, feats, lemma):
    assert has(word, "N", form, *feats, lemma=lemma)


@pytest.mark.parametrize("word, form", [
    ("hoden", "hoden"), ("hoden", "nehoden"),           # short adjective (hodný), never a noun
    ("jednou", "nejednou"),                            # not as a numeral
])
def test_negation_only_lines_bad(word, form):
    if word == "jednou":
        assert not has(word, "N", form, "NUM")
    else:
        assert not has(word, "N", form, "N")


# --- přítel: plural stem přátel- (irregular.paradigms); N gives nepřítel, nepřátelé ------------------
@pytest.mark.parametrize("word, form, feats", [
    ("přítel", "přítel", ("N", "NOM", "SG", "ANIM")),
    ("přítel", "přítele", ("N", "GEN", "SG")),
    ("přítel", "přátelé", ("N", "NOM", "PL", "ANIM")),
    ("přítel", "přátel", ("N", "GEN", "PL")),
    ("přítel", "nepřítel", ("N", "NOM", "SG", "NEG")),
    ("přítel", "nepřátelé", ("N", "NOM", "PL", "NEG")),
    ("přátelé", "nepřátelé", ("N", "NOM", "PL", "NEG")),
    ("přátelům", "nepřátelům", ("N", "DAT", "PL", "NEG")),
])
def test_pritel(word, form, feats):
    assert has(word, "N", form, *feats, lemma="přítel")


@pytest.mark.parametrize("form", ["přítelé", "nepřítelé", "přátelové", "přítelové", "přátelí"])
def test_pritel_bad(form):
    assert form not in readings("přítel", "N")


@pytest.mark.parametrize("word, flags, lemma", [("říci", "N", "říci"), ("říct", "N", "říci"),
                                                ("vyříci", "N", "vyříci"), ("přeříct", "N", "přeříci")])
def test_flagless_infinitive_of_a_linked_verb(word, flags, lemma):
    # cs_CZ.dic: říci/N, říct/N beside řeknu/BN; verb_links.tsv links řeknu to říci
    assert has(word, flags, word, "V", "NFIN", lemma=lemma)
    assert has(word, flags, "ne" + word, "V", "NFIN", "NEG", lemma=lemma)


def test_linked_infinitive_needs_a_verbal_prefix():
    from build_tools.czech.tables import linked_infinitive

    assert linked_infinitive("vyříct") == "vyříci"
    assert linked_infinitive("xyříct") is None and linked_infinitive("říkat") is None


@pytest.mark.parametrize("word, lemma", [("bydlejí", "bydlet"), ("mizejí", "mizet"), ("nenávidějí", "nenávidět")])
def test_ejí_third_plural_variant_of_et_verbs(word, lemma):
    assert has(word, "N", word, "V", "PRS", "3", "PL", lemma=lemma)
    assert not has(word, "N", word, "V", "PRS", "3", "PL", lemma=lemma[:-2] + "it")  # not of bydlit


@pytest.mark.parametrize("word, flags, adjective", [("hoden", "N", "hodný"), ("hodna", "", "hodný"),
                                                    ("vděčen", "", "vděčný"), ("osamocen", "", "osamocený"),
                                                    ("blízek", "", "blízký")])
def test_flagless_short_adjectives(word, flags, adjective):
    assert has(word, flags, word, "ADJ", "SHORT", lemma=adjective)


@pytest.mark.parametrize("word", ["mlada", "široka"])  # z mlada, do široka: no short-form family
def test_fossilised_adverbial_forms_are_not_short_adjectives(word):
    assert not has(word, "", word, "ADJ", "SHORT")


@pytest.mark.parametrize("word, feats, lemma", [("tenhle", ("PRO", "NOM", "MASC", "SG"), "tenhle"),
                                                ("tahle", ("PRO", "NOM", "FEM", "SG"), "tenhle"),
                                                ("tohle", ("PRO", "NOM", "NEUT", "SG"), "tenhle"),
                                                ("takovýhle", ("ADJ", "NOM", "MASC", "SG"), "takovýhle"),
                                                ("tomhle", ("PRO", "ESS"), "tenhle")])
def test_deictic_demonstratives(word, feats, lemma):
    assert has(word, "", word, *feats, lemma=lemma)


def test_deictic_suffix_only_on_demonstratives():
    # ti is also the dative of ty; tihle is only the demonstrative
    assert {lemma for lemma, _ in readings("tihle", "")["tihle"]} == {"tenhle"}


# a nominative plural listed as a flagless line beside an animate noun whose flags give the other plural
@pytest.mark.parametrize("form, lemma", [("dinosauři", "dinosaurus"), ("brontosauři", "brontosaurus"),
                                         ("milostpánové", "milostpán"), ("otcové", "otec"),
                                         ("praotcové", "praotec")])
def test_animate_plural_variant_lines(form, lemma):
    assert has(form, "", form, "N", "NOM", "PL", "ANIM", lemma=lemma)


def test_animate_plural_variant_needs_an_animate_masculine():
    from build_tools.czech.flagless.rules import animate_plural_variant
    for word in ("stromové", "ženové", "hradi", "městi", "hradové", "ženaové"):
        assert animate_plural_variant(word, shipped(), expand_entry) == [], word
