"""Source readers: word lists, headword lists, tagged lists, Hunspell (build_tools/sources.py)."""

from build_tools.hunspell import expand_word, read_aff
from build_tools.model import HeadwordEntry, Reading, Rejection
from build_tools.sources import read_headwords, read_hunspell, read_tagged, read_words


def write(path, text, encoding="utf-8"):
    path.write_bytes(text.encode(encoding))
    return path


def test_words_reports_bad_lines(tmp_path):
    p = tmp_path / "w.txt"
    p.write_bytes("kot\r\n# comment\n\npies domowy\nMYSZ\n".encode() + b"\xff\xfe\n" + "ok\x01\nKot\n".encode())
    items = list(read_words(p))
    forms = [i.form for i in items if isinstance(i, Reading)]
    bad = [(i.reason, i.line) for i in items if isinstance(i, Rejection)]
    assert forms == ["kot", "mysz", "Kot"]      # Kot is rejected by the compiler (capitalised)
    assert bad == [("not-one-word", 4), ("bad-encoding", 6), ("control-character", 7)]
    assert all(i.source == "w.txt" for i in items if isinstance(i, Rejection))


def test_headwords_with_optional_pos(tmp_path):
    p = write(tmp_path / "h.txt", "kot\nładny\tadj\nzły\tadj\textra\n\tadj\n")
    items = list(read_headwords(p))
    assert items[0] == HeadwordEntry("kot", "h.txt", 1)
    assert items[1] == HeadwordEntry("ładny", "h.txt", 2, pos="adj")
    assert [(i.reason, i.line) for i in items[2:]] == [("bad-headword-line", 3), ("bad-headword-line", 4)]


def test_tagged_unimorph_and_sgjp(tmp_path):
    p = write(tmp_path / "t.tsv", "kota\tkot\tN;GEN;SG\nkocie\tkot\tsubst:sg:loc:m2\n"
                                  "kot\tkot\tN;NOPE\nzła linia\n")
    items = list(read_tagged(p))
    assert items[0].tag == tuple(sorted({"N", "GEN", "SG"}))
    assert items[1].tag == tuple(sorted({"N", "ESS", "SG", "MASC", "ANIM"}))
    assert (items[2].reason, items[2].line) == ("bad-tag", 3)
    assert (items[3].reason, items[3].line) == ("bad-tagged-line", 4)


AFF = """SET ISO8859-2
FLAG char

PFX b Y 1
PFX b   0   nie   .

SFX A Y 3
SFX A   0   a     [^a]
SFX A   0   owi   [^a]
SFX A   ł   le    ł

SFX L Y 1
SFX L   ć   łem   ić
"""


def toy_hunspell(tmp_path, dic_lines):
    write(tmp_path / "toy.aff", AFF, "iso-8859-2")
    return write(tmp_path / "toy.dic", f"{len(dic_lines)}\n" + "".join(l + "\n" for l in dic_lines),
                 "iso-8859-2")


def test_hunspell_respects_set_encoding_and_expands(tmp_path):
    dic = toy_hunspell(tmp_path, ["kot/A", "zrobić/L", "Łódź", "biały/b", "stół/A"])
    items = list(read_hunspell(dic))
    assert [i.lemma for i in items] == ["kot", "zrobić", "Łódź", "biały", "stół"]
    assert items[1].flags == "L" and items[2].flags is None and items[0].line == 2
    aff = read_aff(tmp_path / "toy.aff")
    assert aff.encoding == "iso-8859-2"
    assert sorted(expand_word("kot", ("A",), aff)) == ["kot", "kota", "kotowi"]
    assert "zrobiłem" in expand_word("zrobić", ("L",), aff)
    assert "stóle" in expand_word("stół", ("A",), aff)   # strip ł, add le
    assert expand_word("biały", ("b",), aff) == ["biały", "niebiały"]


def test_hunspell_bad_utf8_line_is_reported(tmp_path):
    write(tmp_path / "u.aff", "SET UTF-8\n")
    (tmp_path / "u.dic").write_bytes(b"2\nkot\n\xff\xfe/A\n")
    items = list(read_hunspell(tmp_path / "u.dic"))
    assert items[0].lemma == "kot"
    assert (items[1].reason, items[1].line) == ("bad-encoding", 3)


CONT_AFF = """SET UTF-8
NEEDAFFIX X

PFX p Y 1
PFX p   0   pra   .

SFX A Y 2
SFX A   0   ek/B  [^k]
SFX A   0   ka    .

SFX B Y 1
SFX B   0   i     k

SFX C Y 1
SFX C   0   un/X  .

SFX D Y 1
SFX D   0   ik    n

SFX E N 1
SFX E   0   s/p   .

SFX F Y 1
SFX F   0   un/XD .
"""


def test_hunspell_continuation_flags(tmp_path):
    """Twofold suffixes through continuation flags, NEEDAFFIX on an affix (the intermediate is
    no word), cross product with a twofold-suffixed form, a prefix allowed by a suffix."""
    write(tmp_path / "c.aff", CONT_AFF)
    aff = read_aff(tmp_path / "c.aff")
    forms = expand_word("dom", ("A", "p"), aff)
    assert set(forms) == {"dom", "domek", "domeki", "domka", "pradom", "pradomek",
                          "pradomeki", "pradomka"}
    assert set(expand_word("ba", ("C",), aff)) == {"ba"}          # baun needs an affix; D not on it
    assert set(expand_word("ba", ("F",), aff)) == {"ba", "baunik"}   # baun only via baunik
    assert set(expand_word("kot", ("E",), aff)) == {"kot", "kots", "prakots"}


def test_hunspell_condition_index_matches_regex(tmp_path):
    """The per-ending affix index gives exactly what trying every affix's regex gives."""
    from build_tools.hunspell.read import _condition

    aff_text = """SET UTF-8
SFX S Y 7
SFX S   e     ych   [^i]e
SFX S   e     m     ie
SFX S   ąć    ęła   [^dsz]ąć
SFX S   0     owi   [^a]
SFX S   lec   gła   lec
SFX S   ąbcd  x     [ąa]bcd
SFX S   0     y     .
PFX R Y 2
PFX R   0     nie   [^n]
PFX R   ab    x     ab
"""
    write(tmp_path / "s.aff", aff_text)
    aff = read_aff(tmp_path / "s.aff")
    words = ["cie", "e", "ie", "biele", "wziąć", "dąć", "sąć", "a", "ab", "ąbcd", "zabcd", "lec",
             "wlec", "kot", "nos", "abc", "ke"]
    for w in words:
        for flag in ("S", "R"):
            brute = []
            for a in aff.affixes[flag]:
                pat = _condition(".", a.kind) if a.items == () else a.pattern
                if not pat.search(w):
                    continue
                f = a.apply(w)
                if f is not None:
                    brute.append(f)
            got = [f for f, _a in (aff.suffix_forms(w, flag) if flag == "S"
                                   else aff.prefix_forms(w, flag))]
            assert got == brute, (w, flag)


_TOY_AFF = []


def _toy_init(aff):
    _TOY_AFF[:] = [aff]


def _toy_expand(item):
    """A toy language for build_tools.pipeline: a stem's Hunspell affix forms as noun readings."""
    from build_tools.pipeline import Expansion

    stem, _source, _line, flags = item
    aff = _TOY_AFF[0]
    return Expansion([(f, stem, frozenset({"N"}), "toy") for f in dict.fromkeys(
        expand_word(stem, aff.split_flags(flags or ""), aff))])


def test_pipeline_parallel_equals_serial(tmp_path):
    """build_tools.pipeline with 2 worker processes gives the same results, in the same order, as 1."""
    from build_tools import pipeline
    from build_tools.compile import Compiler
    from build_tools.profiles import load_profile
    from lexicon_service.rules import load_rule_set

    dic = toy_hunspell(tmp_path, ["kot/A", "zrobić/L", "Łódź", "biały/b", "stół/A"] * 300)
    aff = read_aff(tmp_path / "toy.aff")
    lang = pipeline.Language(_toy_expand, _toy_init, (aff,), chunk=100)

    def run(workers):
        compiler = Compiler(load_profile("pl"), load_rule_set("pl-scrabble").tile_set)
        items = [(e.lemma, e.source, e.line, e.flags) for e in read_hunspell(dic, aff) if hasattr(e, "flags")]
        res = list(pipeline.expand_and_admit(items, compiler.admission, lang, workers=workers))
        out = [([(item[1], reason) for item, reason in r.dropped], r.heads, r.sizes, r.keys) for r in res]
        counts = [(r.counts, r.n_in, r.n_ok) for r in res]
        pipeline.merge(compiler, res)
        # worker-local tag-set ids are (re)defined per worker; the forms and reasons must agree
        return out, counts, compiler

    (s_out, s_counts, s_comp), (p_out, p_counts, p_comp) = run(1), run(2)
    assert len(s_out) == 15
    assert s_out == p_out and s_counts == p_counts
    assert sorted(s_comp.keys) == sorted(p_comp.keys) and "kotowi" in s_comp.keys
    assert s_counts[0][0].get("capitalised")        # Łódź: rejected with its reason
