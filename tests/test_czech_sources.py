"""Czech builds see only the dictionaries they are given (--hunspell, --paradigms) and record every
input in the manifest (provenance rule names: test_czech_headwords.py)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from build_tools.cli import main as build_main
from build_tools.czech.dictionary import CzechDictionary, shipped_paths
from build_tools.sources import read_hunspell
from lexicon_service.lexicon import load_lexicon


def _dic(path: Path, lines: list[str]) -> Path:
    path.write_text(f"{len(lines)}\n" + "\n".join(lines) + "\n", encoding="utf-8")
    path.with_suffix(".aff").write_bytes(shipped_paths()[1].read_bytes())
    return path


def test_a_two_line_dictionary_admits_nothing_from_the_shipped_one(tmp_path):
    # with the shipped dictionary as context, musím is a form of muset (and gives nemusím), dinosauři a
    # plural of dinosaurus: neither headword is in this input, so neither may appear; zelený is, so the
    # lexicon is not empty (a build that admits nothing is refused)
    dic = _dic(tmp_path / "two.dic", ["musím", "dinosauři", "zelený/YKRON"])
    out = tmp_path / "two.lex"
    assert build_main(["--rules", "cs-kriskros", "--quiet", "--workers", "1", "--hunspell", str(dic),
                       "-o", str(out)]) == 0
    lex = load_lexicon(out)
    try:
        assert lex.is_admissible("zelený")
        for word in ("nemusím", "musím", "dinosauři", "muset", "dinosaurus"):
            assert not lex.is_admissible(word), word
    finally:
        lex.close()
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    kinds = [s["kind"] for s in manifest["sources"]]
    assert kinds == ["hunspell", "hunspell-aff"]        # no paradigm source: no --headwords


def test_a_czech_dictionary_is_read_as_utf8_whatever_its_aff_declares(tmp_path):
    # the Czech engine reads both files as UTF-8 (they are checked as UTF-8); the lines the build
    # expands were decoded in the .aff's SET, and žena came out as Å¾ena, rejected
    dic = _dic(tmp_path / "set.dic", ["žena/ZQ"])
    aff = dic.with_suffix(".aff")
    aff.write_bytes(aff.read_bytes().replace(b"SET UTF-8", b"SET ISO8859-2", 1))
    out = tmp_path / "set.lex"
    assert build_main(["--rules", "cs-kriskros", "--quiet", "--workers", "1", "--hunspell", str(dic),
                       "-o", str(out)]) == 0
    lex = load_lexicon(out)
    try:
        for word in ("žena", "ženy"):
            assert lex.is_admissible(word), word
    finally:
        lex.close()


def test_a_czech_build_parses_its_dictionary_once(tmp_path):
    # the dictionary the engine consults and the headwords the build expands come from one read of
    # the .dic (it was parsed twice: once for the dictionary, once for its lines as headwords)
    dic = _dic(tmp_path / "once.dic", ["žena/ZQ", "hrad/H", "musím"])
    aff = dic.with_suffix(".aff")
    opened: list[str] = []

    def count_opens(event, args):       # an audit hook stays for the session: it counts only these two
        if event == "open" and isinstance(args[0], (str, os.PathLike)) and os.fspath(args[0]) in (str(dic), str(aff)):
            opened.append(os.fspath(args[0]))

    sys.addaudithook(count_opens)
    out = tmp_path / "once.lex"
    assert build_main(["--rules", "cs-kriskros", "--quiet", "--workers", "1", "--hunspell", str(dic),
                       "-o", str(out)]) == 0
    # each is hashed for the manifest and checked as UTF-8 text; the .dic's lines are counted for
    # the progress report; then each is parsed once
    assert opened.count(str(dic)) == 4
    assert opened.count(str(aff)) == 3
    lex = load_lexicon(out)
    try:
        assert lex.is_admissible("ženy") and lex.is_admissible("hrady")
    finally:
        lex.close()


def test_the_engine_reads_a_dictionary_as_the_headword_pass_does(tmp_path):
    # one parser (read_dic) for both: CRLF line ends and a morphological field after the flags were
    # part of the dictionary's flags (ZQ\r, H po:noun) while the headword pass read ZQ and H
    dic = tmp_path / "crlf.dic"
    dic.write_bytes("2\r\nžena/ZQ\r\nhrad/H po:noun\r\n".encode("utf-8"))
    dic.with_suffix(".aff").write_bytes(shipped_paths()[1].read_bytes())
    dictionary = CzechDictionary.load(dic)
    assert dictionary.flags_of("žena") == ["ZQ"] and dictionary.flags_of("hrad") == ["H"]
    assert [(e.lemma, e.flags) for e in read_hunspell(dic)] == [("žena", "ZQ"), ("hrad", "H")]


def test_headwords_take_their_paradigms_from_the_given_dictionary_only(tmp_path):
    paradigms = _dic(tmp_path / "par.dic", ["žena/ZQ", "hrad/H"])
    heads = tmp_path / "heads.txt"
    heads.write_text("žena\nmusím\nhrad\n", encoding="utf-8")
    out = tmp_path / "h.lex"
    assert build_main(["--rules", "cs-scrabble", "--quiet", "--workers", "1", "--headwords", str(heads),
                       "--paradigms", str(paradigms), "-o", str(out)]) == 0
    lex = load_lexicon(out)
    try:
        assert lex.is_admissible("ženy") and lex.is_admissible("hrady")
        assert not lex.is_admissible("musím") and not lex.is_admissible("nemusím")
    finally:
        lex.close()
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    by_kind = {s["kind"]: s for s in manifest["sources"]}
    assert set(by_kind) == {"headwords", "paradigms", "paradigms-aff"}
    assert by_kind["paradigms"]["name"] == "par.dic"
    engine = manifest["builder"]["czech_engine"]
    assert engine["version"] and "irregular.paradigms" in engine["data"] and "noun_slots.tsv" in engine["data"]


@pytest.mark.parametrize("argv, message", [
    (["--paradigms", "nope.dic"], "paradigm source nope.dic: no such file"),
])
def test_a_missing_paradigm_source_is_a_one_line_error(tmp_path, capsys, argv, message):
    heads = tmp_path / "heads.txt"
    heads.write_text("žena\n", encoding="utf-8")
    code = build_main(["--rules", "cs-scrabble", "--quiet", "--headwords", str(heads), "-o",
                       str(tmp_path / "e.lex")] + argv)
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err
    assert not (tmp_path / "e.lex").exists()
