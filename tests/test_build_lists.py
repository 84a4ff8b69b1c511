"""Word lists (--words) and tagged lists (--tagged) through the build's one loop (build_tools/pipeline.py):
the same forms, records and manifest counts as the compiler's former direct path, with 1 or 2 workers."""

import json

import pytest

from build_tools.cli import main as build_main
from build_tools.sources import list_items
from lexicon_service.lexicon import load_lexicon

# kot twice in a row and once later, an all-capitals word, a capitalised one, a non-letter, a word
# too short and one too long, a letter outside the Polish alphabet, a line with two words
WORDS = "kot\nkot\nŻÓŁW\nKot\npies\nab1\na\n" + "k" * 16 + "\nquark\nzła linia\nkot\nźdźbło\n"


def build(tmp_path, name, rules, workers, *args):
    out = tmp_path / f"{name}.lex"
    assert build_main(["--rules", rules, "--quiet", "--workers", str(workers), "-o", str(out), *args]) == 0
    return out


def files(lex):
    return {p.name: p.read_bytes() for p in sorted(lex.iterdir())}


@pytest.fixture(scope="module")
def word_builds(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("words")
    src = tmp / "w.txt"
    src.write_text(WORDS, encoding="utf-8")
    log = tmp / "rejected.tsv"
    one = build(tmp, "one", "pl-scrabble", 1, "--words", str(src), "--rejected", str(log))
    two = build(tmp, "two", "pl-scrabble", 2, "--words", str(src), "--name", "one")
    return one, two, log.read_text(encoding="utf-8")


def test_word_list_forms_records_and_manifest(word_builds):
    one, _two, _log = word_builds
    with load_lexicon(one) as lex:
        assert set(lex.keys()) == {"kot", "pies", "żółw", "źdźbło"}
        assert [(r.headword, r.tag, r.rule) for r in lex.explain("kot")] == [("kot", "", "word-list")]
        counts = lex.manifest["counts"]
    # one record per form: the repeated kot does not add a reading
    assert counts == {"forms": 4, "headwords": 4, "readings": 4, "admitted_by_rule": {"word-list": 4},
                      "rejected_by_reason": {"capitalised": 1, "letter-not-in-profile": 1, "non-letter": 1,
                                             "not-one-word": 1, "too-long": 1, "too-short": 1}}


def test_word_list_build_does_not_depend_on_the_worker_count(word_builds):
    one, two, _log = word_builds
    assert files(one) == files(two)


def test_word_list_rejections_name_their_line(word_builds):
    _one, _two, log = word_builds
    lines = {tuple(line.split("\t")[:3]) for line in log.splitlines()}
    assert ("Kot", "capitalised", "w.txt:4") in lines
    assert ("quark", "letter-not-in-profile", "w.txt:9") in lines
    assert ("zła linia", "not-one-word", "w.txt:10") in lines


def test_a_word_list_skips_the_profiles_tag_rules_a_tagged_list_does_not(tmp_path, capsys):
    """cs-kriskros admits nouns in the nominative only: ženě is admitted from a word list (the list is
    the authority), rejected from a tagged list that says it is a dative."""
    words = tmp_path / "w.txt"
    words.write_text("ženě\nchata\n", encoding="utf-8")
    tagged = tmp_path / "t.tsv"
    tagged.write_text("ženě\tžena\tN;DAT;SG\nžena\tžena\tN;NOM;SG\n", encoding="utf-8")
    w = build(tmp_path, "w", "cs-kriskros", 1, "--words", str(words))
    t = build(tmp_path, "t", "cs-kriskros", 1, "--tagged", str(tagged))
    with load_lexicon(w) as lw, load_lexicon(t) as lt:
        assert set(lw.keys()) == {"ženě", lw.rule_set.tile_set.key_of_text("chata")}   # CH: one tile
        assert len(lw.keys()[0]) == 4 or len(lw.keys()[1]) == 4
        assert [r.rule for r in lw.explain("ženě")] == ["word-list"]
        assert lt.keys() == ["žena"] and lt.explain("žena")[0].rule == "noun-nominative"
        assert lt.manifest["counts"]["rejected_by_reason"] == {"no-rule-admits": 1}


TAGGED = ("kota\tkot\tN;GEN;SG\n"
          "kota\tkot\tN;ACC;SG\n"           # the same lemma on the next line: one record, two tags
          "kotem\tkot\tsubst:sg:inst:m2\n"
          "psa\tpies\tN;GEN;SG\n"
          "kota\tkot\tN;GEN;SG\n"           # kot again after another lemma: a record of its own
          "Kraków\tKraków\tsubst:sg:nom:m3\n"
          "kot\tkot\tN;NOPE\n"
          "zła linia\n")


@pytest.mark.parametrize("workers", [1, 2])
def test_tagged_list_records_and_manifest(tmp_path, capsys, workers):
    src = tmp_path / "t.tsv"
    src.write_text(TAGGED, encoding="utf-8")
    lex = build(tmp_path, "t", "pl-scrabble", workers, "--tagged", str(src))
    with load_lexicon(lex) as L:
        assert L.keys() == ["kota", "kotem", "psa"]
        assert sorted(r.tag for r in L.explain("kota")) == ["ACC;N;SG", "GEN;N;SG", "GEN;N;SG"]
        assert {(r.headword, r.rule) for r in L.explain("kotem")} == {("kot", "noun")}
        counts = L.manifest["counts"]
        tables = json.loads((lex / "tables.json").read_text(encoding="utf-8"))
    # kota: the record of lines 1-2 (tag set {GEN, ACC}) and the one of line 5 ({GEN})
    assert counts["readings"] == 4 and counts["forms"] == 3 and counts["headwords"] == 2
    assert counts["admitted_by_rule"] == {"noun": 3}
    assert counts["rejected_by_reason"] == {"bad-tag": 1, "bad-tagged-line": 1, "proper-name": 1}
    assert sorted(len(ts) for ts in tables["tagsets"]) == [1, 1, 2]


def test_list_items_are_runs_of_one_lemma(tmp_path):
    src = tmp_path / "t.tsv"
    src.write_text(TAGGED, encoding="utf-8")
    items = list(list_items("tagged", src))
    runs = [(i[0], i[2], [r.form for r in i[3]]) for i in items if isinstance(i, tuple)]
    assert runs == [("kot", 1, ["kota", "kota", "kotem"]), ("pies", 4, ["psa"]), ("kot", 5, ["kota"]),
                    ("Kraków", 6, ["Kraków"])]
    assert [(r.reason, r.line) for r in items if not isinstance(r, tuple)] == [("bad-tag", 7),
                                                                               ("bad-tagged-line", 8)]
