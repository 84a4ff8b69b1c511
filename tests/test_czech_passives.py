"""Passive participles the dictionary attests for verbs whose lines carry no passive flag
(build_tools/czech/passives.py)."""

from __future__ import annotations

from pathlib import Path

from build_tools.cli import main as build_main
from build_tools.czech.dictionary import CzechDictionary, shipped_paths
from build_tools.czech.expand import expand_entry
from build_tools.czech.passives import passive_candidates
from build_tools.model import Reading
from lexicon_service.lexicon import load_lexicon

from czech_shipped import shipped


def _dic(path: Path, lines: list[str]) -> CzechDictionary:
    path.write_text(f"{len(lines)}\n" + "\n".join(lines) + "\n", encoding="utf-8")
    path.with_suffix(".aff").write_bytes(shipped_paths()[1].read_bytes())
    return CzechDictionary.load(path)


def _passives(lemma: str, dic: CzechDictionary) -> dict[str, set[tuple]]:
    out: dict[str, set[tuple]] = {}
    for flags in dic.flags_of(lemma):
        for it in expand_entry(lemma, flags, dic):
            if isinstance(it, Reading) and "PASS" in it.tag and it.lemma == lemma:
                out.setdefault(it.form, set()).add((it.tag, it.rule))
    return out


def test_candidates_follow_the_stem_changes():
    assert "placen" in passive_candidates("platit") and "proset" in passive_candidates("prosít")
    assert "čištěn" in passive_candidates("čistit") and "vožen" in passive_candidates("vozit")
    assert passive_candidates("dělat") == ["dělán"] and passive_candidates("kupovat")[0] == "kupován"
    assert "tažen" in passive_candidates("táhnout") and "utnut" in passive_candidates("utnout")


def test_a_verb_without_a_passive_flag_takes_the_passive_its_dictionary_lists(tmp_path):
    dic = _dic(tmp_path / "t.dic", ["napsat/IN", "napsán/ON", "utnout/IN", "utnutý/YKRN"])
    got = _passives("napsat", dic)
    # the short-form line napsán/ON is the passive of napsat: all five forms, the ne- forms (N), -u
    assert {"napsán", "napsána", "napsáno", "napsáni", "napsány", "napsánu", "nenapsána"} <= set(got)
    assert (("MASC", "PASS", "SG", "V.PTCP"), "verb/attested-passive") in got["napsán"]
    assert ("FEM", "NEG", "PASS", "SG", "V.PTCP") in {t for t, _ in got["nenapsána"]}
    # an irregular verb (no conjugation flag A/J/B) with its long passive adjective: utnout -> utnut
    assert {"utnut", "utnuta", "utnuto", "utnuti", "utnuty"} <= set(_passives("utnout", dic))


def test_no_passive_where_the_flags_could_carry_one_or_nothing_attests_it(tmp_path):
    dic = _dic(tmp_path / "t.dic", [
        "oscilovat/AN", "oscilovaný/YKRN",      # conjugation flags without T: intransitive
        "podobat/JN", "podobání/SN",            # reflexive tantum (podobat se): a verbal noun only
        "jít/IN", "jití/SN",
        "napadnout/AN", "napást/IN", "napaden/ON",   # napaden: candidate of two verbs
        "myslit/ACN", "myslet/IN", "myšlený/YKRN",   # myšlen: the C passive of myslit
    ])
    for verb in ("oscilovat", "podobat", "jít", "napadnout", "napást", "myslet"):
        assert _passives(verb, dic) == {}, verb
    assert "myšlen" in _passives("myslit", dic)
    assert dic.attested_passives == {}


def test_shipped_dictionary(tmp_path):
    ap = shipped().attested_passives
    assert ap["vést"] == ("veden",) and ap["chtít"] == ("chtěn",) and ap["dbát"] == ("dbán",)
    for verb in ("flirtovat", "oscilovat", "podobat", "kmitat", "dělat", "jít"):
        assert verb not in ap, verb


def test_a_headword_list_build_admits_the_attested_passive(tmp_path):
    dic = _dic(tmp_path / "par.dic", ["napsat/IN", "napsán/ON", "podobat/JN"])
    heads = tmp_path / "heads.txt"
    heads.write_text("napsat\npodobat\n", encoding="utf-8")
    out = tmp_path / "h.lex"
    assert build_main(["--rules", "cs-kriskros", "--quiet", "--workers", "1", "--headwords", str(heads),
                       "--paradigms", str(dic.dic_path), "-o", str(out)]) == 0
    lex = load_lexicon(out)
    try:
        assert lex.is_admissible("napsána") and lex.is_admissible("nenapsány")
        assert not lex.is_admissible("napsánu")           # the accusative: Kris Kros denies ACC
        assert not lex.is_admissible("podobán") and not lex.is_admissible("podobána")
    finally:
        lex.close()
