"""Source readers: word lists, headword lists, tagged lists, Hunspell (build_tools/sources.py)."""

from build_tools.hunspell import expand_word, read_aff
from build_tools.model import ExpandedForm, HeadwordEntry, Rejection
from build_tools.sources import read_headwords, read_hunspell, read_tagged, read_words


def write(path, text, encoding="utf-8"):
    path.write_bytes(text.encode(encoding))
    return path


def test_words_reports_bad_lines(tmp_path):
    p = tmp_path / "w.txt"
    p.write_bytes("kot\r\n# comment\n\npies domowy\nMYSZ\n".encode() + b"\xff\xfe\n" + "ok\x01\nKot\n".encode())
    items = list(read_words(p))
    forms = [i.form for i in items if isinstance(i, ExpandedForm)]
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
    assert items[0].tag == frozenset({"N", "GEN", "SG"})
    assert items[1].tag == frozenset({"N", "ESS", "SG", "MASC", "ANIM"})
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
